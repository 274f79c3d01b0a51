//! How the pipeline starts: the backend awaited while the packer and
//! readers may already fill the ring (`Flow::run` decides), the ring
//! pinned once the GPU is there, a thread per lane; or, without a GPU, the
//! chunks filled so far handed to the CPU engine. `Started` tells
//! `--engine gpu` whether the GPU came up, so that a run whose GPU cannot
//! start ends with the error before printing anything.
//!
//! Under auto, CUDA starts only when it can help (`Gate`): where the CPU
//! engine may search every file before the GPU is up (`-l`, `-q`, `-m`,
//! or few bytes), the flow watches the CPU's progress and opens the gate
//! only when, at its pace so far, the CPU would need longer for the rest
//! than CUDA's start and the pipeline would. A CUDA start that is still
//! under way holds the process at its exit: on the H100 host `-l` over
//! 16 GiB of prose took 0.20-0.24 s under auto before, 0.15-0.16 s with the
//! gate, against 0.11 s on the CPU engine alone.

use super::flow::{Flow, Job};
use super::ring::{Filling, Memory, Ring};
use super::searcher::{Backend, Unavailable};
use super::shape::PrintedLines;
use crate::engine::gpu::{faulted_map, GpuError};
use std::collections::VecDeque;
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

/// CUDA's start on the H100 host: 0.2-0.3 s (driver 0.11 s, context
/// 0.13-0.17 s; benches/RESULTS.md, fifth session).
const CUDA_START: Duration = Duration::from_millis(300);

/// Auto's first look at the CPU engine's progress, and how often it looks
/// again until it decides.
const FIRST_LOOK: Duration = Duration::from_millis(20);
const LOOK_EVERY: Duration = Duration::from_millis(5);

/// The CPU engine's recent pace is taken over this much of the look (see
/// [`pace`]).
const WINDOW: Duration = Duration::from_millis(10);

/// The pipeline's pace once CUDA is up, bytes a second: 17.2 GB in
/// 0.55-0.6 s after the start on the H100 host (the copy route, 34-39
/// GB/s), taken lower so that a CPU engine about as fast keeps the search.
const GPU_PACE: f64 = 25e9;

/// A regex's automaton under auto (`Search::paced`) starts CUDA only where
/// the CPU engine would take this many times the GPU's time: the GPU's
/// pace there depends on the regexes (16 GiB, `--engine gpu`: 0.9-1.6 s),
/// and a start the CPU engine outran cost the run 0.05-0.1 s (2 GiB of
/// loghub: auto 0.32-0.45 s, the CPU engine 0.30-0.35 s, the GPU never
/// ready). With it (H200 host, forty-seventh session, call 4), a hex id
/// over 16 GiB of 1 MiB files, whose pace is known early, stayed on the CPU
/// engine (auto 0.85-0.96 s, the CPU engine 0.81-0.82, the GPU alone
/// 0.96), and 3, 10 and 30 regexes without literals there started the GPU
/// (auto 1.17-1.50 s against 1.86-2.74). Not measured without it. Where
/// no file is done yet the gate opens regardless (`worth_starting`).
const PACED_MARGIN: f64 = 1.5;

/// A literal set's printed lines this dense or denser (one selected line
/// in this many bytes searched, so far) keep the search on the CPU: both
/// engines print them through one thread, and the pipeline adds its own
/// work per line. Measured (16 GiB of prose, 20,000 files, 16 threads, H100
/// host, session 28): 1,000 words, a line in 196 bytes, `-n` CPU 5.40 s,
/// GPU 6.60 s, `-o` 7.28 / 9.11 s; 10,000 words, a line in 99 bytes, `-n`
/// 11.18 / 12.06 s, `-o` 47.8 / 79.4 s. Sparser lines go by the pace, with
/// [`SELECTED_LINE_COST`] for matches printed: 1,000 rare words, a line in
/// 2.3 KB, `-n` CPU 5.19 s, GPU 1.71 s, auto 1.70 s; `-o` 5.74 / 1.80 /
/// 2.01 s.
const DENSE_LINE_BYTES: u64 = 1024;

/// Thread time the pipeline spends on a selected line where matches are
/// printed: it searches the line again with the CPU's exact engine and
/// prints what it finds. 1,000 words over 4 GiB of prose in 5,000 files,
/// `-o`, 16 threads (H200 host, session 28): `--engine gpu --stats` took
/// 2.65 s, 2.2 s past CUDA's start and the scan at [`GPU_PACE`], for 21.9
/// M selected lines ("lines and output" 24.1 s over 16 threads): 1.6 us a
/// line. 2 us leaves a margin for the pipeline's other costs.
const SELECTED_LINE_COST: f64 = 2e-6;

/// Whether CUDA is worth starting now, where the CPU engine has searched
/// `done` of `total` bytes at `pace` bytes a second: at that pace, the CPU
/// would need longer for the rest than CUDA's start and the pipeline's
/// pace would (1,000 words made absent, `-l` over 16 GiB of prose: the CPU
/// engine alone 0.68 s, auto with the GPU started 0.85-0.95 s). With
/// nothing taken yet, yes. `printed`: a literal set's lines are printed,
/// and the CPU engine selected `.0` lines so far: too dense
/// ([`DENSE_LINE_BYTES`]), no; with matches printed, the rest's lines at
/// their rate so far cost the pipeline [`SELECTED_LINE_COST`] each; with
/// nothing taken yet, not yet (10,000 words, `-o`: no file of 860 KB was
/// done after 20 ms, and the GPU, started, took 97 s against the CPU
/// engine's 48 s). `margin`: how many times the GPU's time the CPU's
/// must be ([`PACED_MARGIN`] for a regex's automaton, else 1).
pub(super) fn worth_starting(
    pace: f64,
    done: u64,
    total: u64,
    printed: Option<(u64, PrintedLines)>,
    margin: f64,
) -> bool {
    if done == 0 || pace <= 0.0 {
        return printed.is_none();
    }
    let left = total.saturating_sub(done) as f64;
    let lines = match printed {
        Some((lines, _)) if lines.saturating_mul(DENSE_LINE_BYTES) > done => return false,
        Some((lines, p)) if p.searched_again => {
            lines as f64 / done as f64 * left * SELECTED_LINE_COST / p.threads.max(1) as f64
        }
        _ => 0.0,
    };
    let cpu = left / pace;
    cpu > (gpu_seconds(left) + lines) * margin
}

/// The GPU's time for `bytes` of files, taken short: CUDA's start and the
/// pipeline's pace.
pub(super) fn gpu_seconds(bytes: f64) -> f64 {
    CUDA_START.as_secs_f64() + bytes / GPU_PACE
}

/// The CPU engine's pace, bytes a second, `now` into the look with `done`
/// bytes searched: over the whole look, or over its last [`WINDOW`] (from
/// the latest of `samples`, `(when, done)`, at least that old), whichever
/// is faster. The look's first milliseconds are the threads' start: `-l`
/// of 1,000 words over 400,000 files of 43 KB (H200 host, 16 threads) had
/// 216 MB searched after 13 ms, 16.6 GB/s, where the whole search ran at
/// 66 GB/s, and auto started the GPU (0.72-0.97 s against the CPU
/// engine's 0.46-0.74 s; with the window the gate stays shut there,
/// 0.72-0.75 s, what is left being auto's listing). Samples older than the
/// one used are dropped.
fn pace(samples: &mut VecDeque<(Duration, u64)>, now: Duration, done: u64) -> f64 {
    let rate = |bytes: u64, secs: Duration| match secs.is_zero() {
        true => 0.0,
        false => bytes as f64 / secs.as_secs_f64(),
    };
    let whole = rate(done, now);
    let Some(edge) = now.checked_sub(WINDOW) else {
        return whole;
    };
    while samples.get(1).is_some_and(|&(t, _)| t <= edge) {
        samples.pop_front();
    }
    match samples.front() {
        Some(&(t, d)) if t <= edge => whole.max(rate(done.saturating_sub(d), now - t)),
        _ => whole,
    }
}

/// Auto's go-ahead for starting CUDA. The start thread waits on it
/// (`wait`); the flow opens it (`open`) or shuts it, and dropping it
/// undecided shuts it, so that the thread ends without touching CUDA.
pub struct Gate(Arc<(Mutex<Option<bool>>, Condvar)>);

impl Gate {
    /// The flow's side, and the start thread's.
    pub fn new() -> (Gate, GateWait) {
        let shared = Arc::new((Mutex::new(None), Condvar::new()));
        (Gate(Arc::clone(&shared)), GateWait(shared))
    }

    /// Decides; the first word stands.
    pub fn open(&self, go: bool) {
        if let Ok(mut d) = self.0 .0.lock() {
            d.get_or_insert(go);
        }
        self.0 .1.notify_all();
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open(false);
    }
}

/// The start thread's side of a [`Gate`].
pub struct GateWait(Arc<(Mutex<Option<bool>>, Condvar)>);

impl GateWait {
    /// Waits for the decision: start CUDA or not.
    pub fn wait(&self) -> bool {
        let Ok(mut d) = self.0 .0.lock() else {
            return false;
        };
        loop {
            if let Some(go) = *d {
                return go;
            }
            d = match self.0 .1.wait(d) {
                Ok(d) => d,
                Err(_) => return false,
            };
        }
    }
}

impl<'r> Flow<'_, 'r> {
    /// Auto, where the CPU may finish first: opens the gate once the CPU
    /// engine, at its pace so far, would need longer for the rest than
    /// CUDA's start and the pipeline (`worth_starting`); shuts it (false)
    /// when every file was taken first or the search stopped.
    pub(super) fn open_gate(&self, gate: Option<&Gate>) -> bool {
        let Some(gate) = gate else {
            return true;
        };
        let t = Instant::now();
        let total: u64 = (0..self.items.len()).filter_map(|i| self.size_of(i)).sum();
        let mut samples = VecDeque::new();
        loop {
            // The bytes the CPU searched (not took: 16 threads take 16
            // large files at once, which would look like a fast CPU), and
            // whether it took all.
            let done = self.board.cpu_searched();
            let printed = self
                .search
                .printed_lines
                .map(|p| (self.board.cpu_lines(), p));
            let all = (0..self.items.len()).all(|i| self.board.claimed(i));
            let stopped = self.board.aborted();
            if stopped || all {
                let lines = match printed {
                    Some((lines, _)) => format!(" ({lines} printed lines in {done} bytes)"),
                    None => String::new(),
                };
                // (A search that ended has stopped the board too: every
                // file taken says more.)
                self.note(match all {
                    true => format!("GPU not started: the CPU engine took every file first{lines}"),
                    false => "GPU not started: the search stopped".into(),
                });
                gate.open(false);
                return false;
            }
            let elapsed = t.elapsed();
            let pace = pace(&mut samples, elapsed, done);
            let margin = if self.search.paced { PACED_MARGIN } else { 1.0 };
            if elapsed >= FIRST_LOOK && worth_starting(pace, done, total, printed, margin) {
                self.note(format!(
                    "GPU started after {:.3} s: the CPU engine had searched {done} of {total} bytes ({:.1} GB/s)",
                    elapsed.as_secs_f64(),
                    pace / 1e9
                ));
                gate.open(true);
                return true;
            }
            samples.push_back((elapsed, done));
            std::thread::sleep(LOOK_EVERY);
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_set_printing_dense_lines_stays_on_the_cpu() {
        let gib = 1u64 << 30;
        let done = 40 << 20;
        // Whether the GPU starts with the CPU at `pace`, 40 MiB of 16 GiB
        // done, a selected line in `every` bytes, matches printed or not.
        let starts = |pace: f64, every: u64, searched_again| {
            let printed = PrintedLines {
                searched_again,
                threads: 16,
            };
            worth_starting(pace, done, 16 * gib, Some((done / every, printed)), 1.0)
        };
        // Nothing done yet: the density is not known.
        let lines = PrintedLines {
            searched_again: false,
            threads: 16,
        };
        assert!(!worth_starting(0.0, 0, 16 * gib, Some((0, lines)), 1.0));
        // 1,000 words over prose, a selected line in 196 bytes: neither
        // `-n` nor `-o`, however slow the CPU looks.
        assert!(!starts(0.1e9, 196, false));
        assert!(!starts(0.1e9, 196, true));
        // A line in 100 KB: as where nothing is printed.
        assert!(starts(2e9, 100_000, false));
        assert!(worth_starting(2e9, done, 16 * gib, None, 1.0));
        // A line in 2 KB with matches printed: 8.4 M lines left cost the
        // pipeline 1.05 s, more than it saves on a CPU at 10 GB/s (1.7 s
        // left against 0.3 + 0.69 + 1.05 s), less than on one at 4 GB/s.
        assert!(!starts(10e9, 2048, true));
        assert!(starts(4e9, 2048, true));
        assert!(starts(10e9, 2048, false));
    }

    #[test]
    fn cuda_starts_when_the_cpu_would_take_longer_than_the_gpu() {
        let gib = 1u64 << 30;
        // Nothing taken yet: start.
        assert!(worth_starting(0.0, 0, gib, None, 1.0));
        // 1.2 % of 16 GiB at 20 GB/s: 0.85 s left, the GPU 0.3 + 0.68 s.
        assert!(!worth_starting(
            20e9,
            gib * 16 * 12 / 1000,
            gib * 16,
            None,
            1.0
        ));
        // 1 % at 3.4 GB/s: 5 s left.
        assert!(worth_starting(3.4e9, gib * 16 / 100, gib * 16, None, 1.0));
        // Half of 2 GiB at 10.7 GB/s: 0.1 s left, less than CUDA's start.
        assert!(!worth_starting(10.7e9, gib, 2 * gib, None, 1.0));
        // Half at 2.7 GB/s: 0.4 s left, the GPU 0.34 s.
        assert!(worth_starting(2.7e9, gib, 2 * gib, None, 1.0));
        // All taken: nothing left.
        assert!(!worth_starting(1e9, 100, 100, None, 1.0));
    }

    /// A regex's automaton: the CPU must need `PACED_MARGIN` times the
    /// GPU's time. 2 GiB of loghub, 3 regexes, the CPU engine's whole
    /// pace 6.4 GB/s, estimated 5 GB/s after 100 MB: 0.41 s left against
    /// the GPU's 0.38 s, stays; 16 GiB at 5.5 GB/s: 3.1 s against 0.98 s,
    /// starts.
    #[test]
    fn a_regexs_automaton_starts_cuda_only_well_ahead() {
        let (gib, mb) = (1u64 << 30, 100 << 20);
        assert!(worth_starting(5e9, mb, 2 * gib, None, 1.0));
        assert!(!worth_starting(5e9, mb, 2 * gib, None, PACED_MARGIN));
        assert!(worth_starting(5.5e9, mb, 16 * gib, None, PACED_MARGIN));
    }

    #[test]
    fn the_pace_is_the_faster_of_the_whole_look_and_its_last_window() {
        let ms = Duration::from_millis;
        let mb = 1_000_000u64;
        let mut samples: VecDeque<_> = [(ms(0), 0), (ms(5), 10 * mb), (ms(10), 100 * mb)].into();
        // Before a window has passed: the whole look.
        assert_eq!(pace(&mut samples.clone(), ms(8), 80 * mb), 10e9);
        // The threads' start was slow, the last 10 ms fast (400 MB since
        // the sample at 10 ms): 40 GB/s, not the whole look's 25.
        let p = pace(&mut samples, ms(20), 500 * mb);
        assert!((p - 40e9).abs() < 1e3, "{p}");
        assert_eq!(samples.len(), 1, "older samples dropped");
        // A slow window does not hide a fast start.
        samples.push_back((ms(20), 500 * mb));
        let p = pace(&mut samples, ms(30), 510 * mb);
        assert!((p - 17e9).abs() < 1e3, "{p}");
    }

    #[test]
    fn a_gate_dropped_undecided_is_shut() {
        let (gate, wait) = Gate::new();
        let waiter = std::thread::spawn(move || wait.wait());
        drop(gate);
        assert!(!waiter.join().unwrap());
        let (gate, wait) = Gate::new();
        gate.open(true);
        gate.open(false);
        assert!(wait.wait(), "the first word stands");
    }
}
