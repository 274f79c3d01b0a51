//! How the pipeline starts: the backend awaited while the packer and
//! readers may already fill the ring (`Flow::run` decides), the ring
//! pinned once the GPU is there, a thread per lane; or, without a GPU, the
//! chunks filled so far handed to the CPU engine. `Started` tells
//! `--engine gpu` whether the GPU came up, so that a run whose GPU cannot
//! start ends with the error before printing anything.

use super::flow::{Flow, Job};
use super::ring::{Filling, Memory, Ring};
use super::searcher::{Backend, Unavailable};
use crate::engine::gpu::{faulted_map, GpuError};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Whether the pipeline's GPU started: told once by `start_lanes`, awaited
/// by `--engine gpu`, which ends with the error before printing anything.
#[derive(Default)]
pub struct Started {
    state: Mutex<Option<Result<(), GpuError>>>,
    told: Condvar,
}

impl Started {
    /// Tells how the start went; the first word stands.
    pub(super) fn finish(&self, r: Result<(), GpuError>) {
        if let Ok(mut s) = self.state.lock() {
            s.get_or_insert(r);
        }
        self.told.notify_all();
    }

    /// Waits until told (or the flow gave up without a word: `Ok`).
    pub fn wait(&self) -> Result<(), GpuError> {
        let Ok(mut s) = self.state.lock() else {
            return Ok(());
        };
        loop {
            if let Some(r) = s.as_ref() {
                return r.clone();
            }
            s = match self.told.wait(s) {
                Ok(s) => s,
                Err(_) => return Ok(()),
            };
        }
    }
}

impl<'r> Flow<'_, 'r> {
    /// Waits for the backend; `None` when the search stopped, the backend
    /// went away without a word, or `done()` says it is not needed.
    pub(super) fn await_backend(
        &self,
        backend: &Receiver<Result<Backend, GpuError>>,
        done: impl Fn() -> bool,
    ) -> Option<Result<Backend, GpuError>> {
        loop {
            if self.board.aborted() || done() {
                return None;
            }
            match backend.recv_timeout(Duration::from_millis(2)) {
                Ok(b) => return Some(b),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Once the backend is there: the GPU is ready, the ring is pinned and
    /// a thread per lane searches the filled chunks. Without a backend the
    /// chunks filled so far are posted as the GPU's failure, so the CPU
    /// searches their files (the packer stops at the failure).
    pub(super) fn start_lanes<'s>(
        &'s self,
        s: &'s std::thread::Scope<'s, '_>,
        ring: &'r Ring,
        got: Option<Result<Backend, GpuError>>,
        jobs: &'s Mutex<Receiver<(Arc<Job>, Filling<'r>)>>,
    ) where
        'r: 's,
    {
        let failed = |e: GpuError| {
            self.give_up(e.clone());
            self.search_jobs(&mut Unavailable(e), jobs);
        };
        let backend = match got {
            Some(Ok(b)) => b,
            Some(Err(e)) => return failed(e),
            None if self.board.aborted() || self.leased.load(Ordering::Acquire) == 0 => {
                return self.start.finish(Ok(()));
            }
            None => return failed(GpuError::Unavailable("it failed to start".into())),
        };
        self.board.set_ready();
        // The GPU started: a failure from here on is a failure at run
        // time, which hands the files to the CPU engine.
        self.start.finish(Ok(()));
        if let Backend::Gpu(e) = &backend {
            ring.ensure(self.shape.chunk, |bytes| self.allocate(bytes));
            let t = Instant::now();
            // SAFETY: the ring's block stays mapped while the ring lives,
            // and the ring keeps the pin (dropped first).
            match ring.pin(|ptr, len| unsafe { e.pin_host(ptr, len) }) {
                Ok(()) => self.note(format!(
                    "staging: {} MiB pinned in {:.3} s",
                    (ring.slots() * self.shape.chunk) >> 20,
                    t.elapsed().as_secs_f64()
                )),
                Err(err) => self.note(format!("pageable staging memory: {err}")),
            }
        }
        let searchers = match backend.searchers(self.shape.lanes) {
            Ok(s) => s,
            Err(e) => return failed(e),
        };
        for mut searcher in searchers {
            s.spawn(move || {
                self.search_jobs(&mut *searcher, jobs);
                self.stages.add_lane(searcher.timings());
            });
        }
    }

    /// The ring's memory, faulted in by the readers' number of threads
    /// (pinned by `start_lanes` once the GPU is there); ordinary heap
    /// memory if no map can be made.
    pub(super) fn allocate(&self, bytes: usize) -> Memory {
        let t = Instant::now();
        match faulted_map(bytes, self.shape.readers) {
            Ok(m) => {
                self.note(format!(
                    "staging: {} MiB faulted in {:.3} s",
                    bytes >> 20,
                    t.elapsed().as_secs_f64()
                ));
                Memory::Mapped(m)
            }
            Err(e) => {
                self.note(format!("staging memory from the heap: {e}"));
                Memory::Heap(vec![0u8; bytes].into_boxed_slice())
            }
        }
    }
}
