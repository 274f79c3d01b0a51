//! The flow: how chunks move through the pipeline's threads.
//!
//! ```text
//!  packer ──plans──▶ readers (N threads) ──filled chunks──▶ lanes (ChunkSearcher each)
//!    │ claims files (board)                                   │ results per piece
//!    ▼                                                        ▼
//!  workers (the ordered CPU executor) take each file's entry from the board
//! ```
//!
//! The packer (`run`) claims files in order on the board (while CUDA
//! starts, where the GPU is sure to be the faster side; else once it is
//! ready), lays them out in chunks (`pack::Packer`), leases a chunk from
//! the ring for each plan and splits its reads into units of about
//! `UNIT_BYTES` (one `ring::Part` each). Readers (`read`) `pread` the
//! units; the reader that finishes a chunk's last unit hands the chunk to
//! the lanes (`lane`, started with the backend by `start_lanes`), which
//! write the separators, search it through their `ChunkSearcher` and post
//! each piece's match starts (mapped back by
//! `pack::assign`) to the board. Anything that goes wrong on the GPU side
//! (a read error, a dense chunk, a launch failure) turns the affected
//! files into CPU searches: slower, never wrong.
//!
//! Memory is bounded: the ring holds at most `Shape::ring` chunks, each
//! lane one chunk on the GPU, and a chunk returns to the ring when the last
//! file read from it has been printed.

use super::board::{Board, Lag};
use super::pack::{Packer, Plan};
use super::read::{span, unit_parts, Unit};
use super::ring::{Filling, Ring};
use super::searcher::{Backend, Target};
use super::shape::{Search, Shape};
use super::start::{Gate, Started};
use super::stats::{self, Stages};
use super::unpack::{Ahead, Opening, Unpacked, AHEAD_BYTES};
use crate::engine::gpu::GpuError;
use crate::input::walk::{Input, Item};
use std::collections::HashMap;
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Under auto, the packer claims files before the GPU is ready only when
/// they hold this many rings' worth of bytes: then the CPU cannot search
/// them all while CUDA starts (0.25 s on the H100 host; 1 GiB would take
/// the CPU engine 0.3 s for 1,000 words on 16 cores), and the ring filled
/// meanwhile is searched as soon as the GPU is.
const EARLY_MIN_RINGS: u64 = 4;

/// ... or this many bytes of files when the GPU is far ahead of the CPU
/// engine (`Search::far_ahead`). A rule pack's exact lines: 2 GiB of CI
/// logs, H100 host, 16 threads, `-c`: 100 / 1,000 / 10,000 rules, CPU
/// engine 1.1 / 3.0 / 8.0 s, GPU 0.6 / 1.6 / 6.8 s, and auto with the CPU
/// taking files while CUDA started took the CPU's time (1.2 / 3.1 / 8.1 s:
/// the CPU had taken 52 of 64 files). From it the CPU also waits for CUDA
/// (`Flow::new`): 16 GiB, 1,000 rules, auto 4.97 s against 11.8-17.2 s
/// before, `--engine gpu` 5.04 s. A regex of 100 rules (567 required
/// literals), 2 GiB in 64 files: CPU engine 1.33-1.42 s, GPU 0.64-0.82 s,
/// auto 1.33-1.47 s with the CPU taking files (16 threads on 16 cores
/// starved CUDA's start: the GPU was never ready; with 15 threads it was
/// after 0.29 s, and auto took 1.28 s). Below it not measured: the CPU
/// shares the files as before. A rule pack's split has its own bound
/// (`setup::gpu_far_ahead`).
pub(super) const EARLY_GPU_AHEAD_BYTES: u64 = 256 << 20;

/// Under auto, from how many bytes of files `Flow::run` starts CUDA with
/// the pipeline, the packer claiming files at once (`EARLY_MIN_RINGS`, or
/// where the GPU is far ahead, the bytes from which the CPU waits for it:
/// `far_ahead`); `None` where it waits on the CPU engine's pace
/// (`open_gate`): a search that may stop early in a file, or `by_pace`
/// (a literal set's lines printed, a regex's automaton: `Search::paced`).
/// `ring_bytes`: the ring's size.
pub(super) fn at_once_from(
    shape: &Shape,
    ring_bytes: u64,
    far_ahead: Option<u64>,
    by_pace: bool,
) -> Option<u64> {
    let many = EARLY_MIN_RINGS.saturating_mul(ring_bytes);
    (shape.yield_when_ready && !by_pace).then_some(match far_ahead {
        Some(from) => many.min(from),
        None => many,
    })
}

/// The state shared by the packer, readers, lanes and workers.
pub struct Flow<'a, 'r> {
    pub(super) items: &'a [Item],
    pub(super) sizes: &'a [Option<u64>],
    pub(super) search: Search<'a>,
    pub shape: Shape,
    pub board: Board<'a, 'r>,
    pub(super) stages: &'a Stages,
    pub notes: Mutex<Vec<String>>,
    /// Chunks leased so far (the next chunk's number).
    pub(super) leased: AtomicUsize,
    /// Whether the GPU started, once known.
    pub start: Started,
}

/// A chunk's layout and what went wrong reading it.
pub(super) struct Job {
    /// The chunk's number, in the order the packer leased them.
    pub(super) id: usize,
    pub(super) plan: Plan,
    pub(super) bad_files: Mutex<Vec<usize>>,
    /// Decompressed files laid out whole in this chunk: their bytes, which
    /// the readers copy instead of reading the file.
    pub(super) blobs: HashMap<usize, Vec<u8>>,
}

impl Job {
    pub(super) fn new(id: usize, plan: Plan, blobs: HashMap<usize, Vec<u8>>) -> Arc<Job> {
        Arc::new(Job {
            id,
            plan,
            bad_files: Mutex::new(Vec::new()),
            blobs,
        })
    }

    /// Item `file`'s bytes in this chunk are not the file's.
    pub(super) fn bad(&self, file: usize) {
        if let Ok(mut bad) = self.bad_files.lock() {
            bad.push(file);
        }
    }
}

impl<'a, 'r> Flow<'a, 'r> {
    pub fn new(
        items: &'a [Item],
        sizes: &'a [Option<u64>],
        search: Search<'a>,
        mut shape: Shape,
        stages: &'a Stages,
    ) -> Self {
        // A chunk holds at least one whole pattern (Packer::new).
        shape.chunk = shape.chunk.max(search.target.longest());
        // A rule pack whose lines the GPU decides exactly: the CPU engine,
        // several times slower, waits for CUDA instead of taking files it
        // would keep (auto, 16 GiB, 1,000 rules: 11.8-17.2 s with the CPU
        // taking 256 MiB files meanwhile, --engine gpu 4.8-5.6 s). If CUDA
        // fails, the board fails and the CPU takes every file.
        // Likewise a literal set over files the GPU tallies cut into
        // pieces: a CPU worker that takes one such file holds the run (16
        // GiB in 64 files, 1,000 literals, -c: --engine gpu 0.93-1.09 s,
        // auto 5.20 s with the CPU taking files while CUDA started).
        let bytes: u64 = sizes.iter().flatten().sum();
        let big_files = search.cut_tally
            && matches!(search.target, Target::Many(_))
            && sizes.iter().flatten().any(|&s| s > shape.chunk as u64);
        let waits_from = match (search.far_ahead, big_files) {
            (Some(from), _) => from,
            (None, true) => EARLY_GPU_AHEAD_BYTES,
            (None, false) => u64::MAX,
        };
        let cpu_waits = shape.yield_when_ready && bytes >= waits_from;
        let board = Board::new(
            items.len(),
            shape.gpu_only || cpu_waits,
            shape.yield_when_ready,
            (!shape.gpu_only).then_some(Lag {
                lanes: shape.lanes as u64,
                threads: shape.readers as u64,
            }),
            shape.settle,
            shape.ring.saturating_sub(shape.lanes + 1),
            stages,
        );
        Flow {
            items,
            sizes,
            search,
            shape,
            board,
            stages,
            notes: Mutex::new(Vec::new()),
            leased: AtomicUsize::new(0),
            start: Started::default(),
        }
    }

    pub(super) fn note(&self, msg: String) {
        if let Ok(mut n) = self.notes.lock() {
            n.push(msg);
        }
    }

    /// The GPU cannot go on: the CPU engine takes the rest.
    pub(super) fn give_up(&self, e: GpuError) {
        self.start.finish(Err(e.clone()));
        self.note(format!("CPU engine instead: {e}"));
        self.board.fail();
        self.board.end();
    }

    /// The packer: claims files in order, lays them out in chunks and
    /// drives readers and lanes. Returns when every chunk has been searched.
    ///
    /// Where the GPU searches every file (`--engine gpu`), or is the faster
    /// side and the files are many times the ring (auto when the CPU yields
    /// to a ready GPU, `EARLY_MIN_RINGS`; a rule pack's exact lines from
    /// `EARLY_RULE_PACK_BYTES`), the packer and readers start at
    /// once and fill the ring while CUDA starts; the lanes start when the
    /// backend is there (`start_lanes`). Elsewhere (auto with `-l`, `-L`,
    /// `-q`, `-m`, where the CPU may finish first, or few bytes, which the
    /// CPU may search before CUDA is up, or a literal set's lines printed,
    /// which may be too many for the GPU to pay) the packer claims nothing
    /// before the GPU is ready, and auto starts CUDA only if the CPU would
    /// take longer than the GPU (`open_gate`).
    pub fn run(
        &self,
        ring: &'r Ring,
        backend: Receiver<Result<Backend, GpuError>>,
        gate: Option<Gate>,
    ) {
        let bytes: u64 = self.sizes.iter().flatten().sum();
        let ring_bytes = (ring.slots() * self.shape.chunk) as u64;
        let by_pace = self.search.printed_lines.is_some() || self.search.paced;
        let early = self.shape.gpu_only
            || at_once_from(&self.shape, ring_bytes, self.search.far_ahead, by_pace)
                .is_some_and(|from| bytes >= from);
        let mut ready = None;
        if early {
            if let Some(gate) = &gate {
                gate.open(true);
            }
        } else {
            if !self.open_gate(gate.as_ref()) {
                return self.board.end();
            }
            // Where the CPU yields to a ready GPU, the ring will be used:
            // it is faulted in while CUDA starts (pinned in `start_lanes`).
            let waited = std::thread::scope(|s| {
                if self.shape.yield_when_ready {
                    s.spawn(|| ring.ensure(self.shape.chunk, |b| self.allocate(b)));
                }
                self.await_backend(&backend, || self.board.all_claimed())
            });
            ready = match waited {
                Some(Ok(b)) => Some(b),
                Some(Err(e)) => return self.give_up(e),
                None => return self.board.end(),
            };
        }
        let (unit_tx, unit_rx) = mpsc::channel::<Unit<'r>>();
        let (job_tx, job_rx) = mpsc::channel::<(Arc<Job>, Filling<'r>)>();
        let unit_rx = Mutex::new(unit_rx);
        let job_rx = Mutex::new(job_rx);
        let readers = self.shape.readers.max(1);
        // `--decompress`: about `AHEAD_BYTES` decompressed ahead, over
        // twice as many files as threads (or all files, when fewer: one
        // file may then be held whole up to a chunk).
        let files: Vec<usize> = match self.search.decompress {
            Some(_) => (0..self.items.len())
                .filter(|&i| self.size_of(i).is_some())
                .collect(),
            None => Vec::new(),
        };
        let window = (2 * readers).min(files.len()).max(1);
        let opening = self.search.decompress.map(|threads| Opening {
            items: self.items,
            threads,
            whole_max: (AHEAD_BYTES / window).clamp(1, self.shape.chunk),
            stages: self.stages,
        });
        // Files a CPU worker took, and every file once the search stopped,
        // are not decompressed.
        let taken = |i: usize| self.board.claimed(i) || self.board.aborted();
        std::thread::scope(|s| {
            let ahead = opening
                .as_ref()
                .map(|o| Ahead::start(s, files, window, readers.min(window), o, &taken));
            for _ in 0..self.shape.readers.max(1) {
                let (rx, tx) = (&unit_rx, job_tx.clone());
                s.spawn(move || self.read_units(rx, tx));
            }
            let jobs = &job_rx;
            s.spawn(move || {
                // Until the packer has leased a chunk, nothing waits for
                // the lanes: a run the CPU finished alone ends without CUDA.
                // (`--engine gpu` waits for it anyway: its start decides
                // the exit status.)
                let idle = || {
                    !self.shape.gpu_only
                        && self.board.ended()
                        && self.leased.load(Ordering::Acquire) == 0
                };
                let got = match ready {
                    Some(b) => Some(Ok(b)),
                    None => self.await_backend(&backend, idle),
                };
                self.start_lanes(s, ring, got, jobs);
            });
            self.pack(ring, ahead, &unit_tx, &job_tx);
            drop(unit_tx);
            drop(job_tx);
        });
        // Every lane has ended, and no copy reads the ring: it is unpinned,
        // and the context released with the pin's reference, while the
        // files still waiting are printed (`release`).
        if let Some(pin) = ring.take_pin() {
            super::release::in_background("gpu-unpin", move || drop(pin));
        }
    }

    /// Item `i`'s listed size, if the packer may lay it out (a regular
    /// file, not empty).
    pub(super) fn size_of(&self, i: usize) -> Option<u64> {
        match (self.items.get(i), self.sizes.get(i)) {
            (Some(Item::Input(Input { path: Some(_), .. })), Some(&Some(s))) if s > 0 => Some(s),
            _ => None,
        }
    }

    fn pack(
        &self,
        ring: &'r Ring,
        mut ahead: Option<Ahead>,
        units: &mpsc::Sender<Unit<'r>>,
        jobs: &mpsc::Sender<(Arc<Job>, Filling<'r>)>,
    ) {
        let overlap = self.search.overlap(self.shape.chunk);
        let mut packer = Packer::new(self.shape.chunk, overlap + 1);
        let mut plans = Vec::new();
        // Decompressed files laid out but not yet dispatched.
        let mut blobs = HashMap::new();
        for i in 0..self.items.len() {
            if self.board.aborted() || self.board.failed() {
                break;
            }
            let Some(mut size) = self.size_of(i) else {
                self.board.leave_to_cpu(i);
                continue;
            };
            let mut blob = None;
            match ahead.as_mut().map(|a| a.take(i)) {
                None | Some(Unpacked::Plain) => {}
                Some(Unpacked::Taken) => continue,
                Some(Unpacked::Whole(b)) if !b.is_empty() => blob = Some(b),
                Some(Unpacked::Whole(_) | Unpacked::Cpu) => {
                    stats::add(&self.stages.decompress_cpu_files, 1);
                    self.board.leave_to_cpu(i);
                    continue;
                }
                Some(Unpacked::Stream(head, rest)) => {
                    if !self.board.claim_for_gpu(i, true, 0) {
                        continue;
                    }
                    stats::add(&self.stages.gpu_files, 1);
                    // A poured file starts a chunk of its own.
                    packer.flush(&mut plans);
                    for plan in plans.drain(..) {
                        self.dispatch(plan, &mut blobs, ring, units, jobs);
                    }
                    let source = std::io::Cursor::new(head).chain(rest);
                    self.pour(i, Box::new(source), ring, jobs);
                    continue;
                }
            }
            if let Some(b) = &blob {
                size = b.len() as u64;
            }
            if !self.board.claim_for_gpu(i, blob.is_some(), size) {
                continue;
            }
            stats::add(&self.stages.gpu_files, 1);
            if let Some(b) = blob {
                stats::add(&self.stages.decompressed_files, 1);
                stats::add(&self.stages.decompressed_bytes, b.len() as u64);
                blobs.insert(i, b);
            }
            packer.push(i, size, &mut plans);
            for plan in plans.drain(..) {
                self.dispatch(plan, &mut blobs, ring, units, jobs);
            }
        }
        drop(ahead);
        packer.flush(&mut plans);
        for plan in plans.drain(..) {
            self.dispatch(plan, &mut blobs, ring, units, jobs);
        }
        self.board.close_open();
        self.board.end();
    }

    /// Leases a chunk for `plan`, registers its pieces and hands its reads
    /// out.
    fn dispatch(
        &self,
        plan: Plan,
        blobs: &mut HashMap<usize, Vec<u8>>,
        ring: &'r Ring,
        units: &mpsc::Sender<Unit<'r>>,
        jobs: &mpsc::Sender<(Arc<Job>, Filling<'r>)>,
    ) {
        let mine: HashMap<usize, Vec<u8>> = plan
            .pieces
            .iter()
            .filter_map(|p| blobs.remove_entry(&p.file))
            .collect();
        let Some((id, chunk)) = self.lease(ring) else {
            return; // aborted; pack() closes the open entries
        };
        self.board.add_pieces(&plan);
        let reads = unit_parts(&plan);
        let job = Job::new(id, plan, mine);
        if reads.is_empty() {
            let _ = jobs.send((job, chunk));
            return;
        }
        let spans = reads.iter().map(|r| span(&job.plan, r)).collect();
        for (part, parts) in chunk.split(spans).into_iter().zip(reads) {
            let unit = Unit {
                job: job.clone(),
                part,
                parts,
            };
            if units.send(unit).is_err() {
                return;
            }
        }
    }

    /// A free chunk from the ring and its number (`None`: the search
    /// stopped).
    pub(super) fn lease(&self, ring: &'r Ring) -> Option<(usize, Filling<'r>)> {
        let t = Instant::now();
        let allocate = |bytes: usize| {
            let t = Instant::now();
            let mem = self.allocate(bytes);
            stats::add_since(&self.stages.alloc_ns, t);
            mem
        };
        let chunk = ring.lease(self.shape.chunk, allocate, || self.board.aborted());
        stats::add_since(&self.stages.slot_wait_ns, t);
        let id = self.leased.fetch_add(1, Ordering::Relaxed);
        self.stages.trace.leased(id, ring.free_slots());
        chunk.map(|c| (id, c))
    }
}

/// The next message of a queue shared by several threads; `None` when the
/// senders are gone.
pub(super) fn next<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    rx.lock().ok()?.recv().ok()
}
