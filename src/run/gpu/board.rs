//! The claim board: who searches each file, and what the GPU found in it.
//!
//! Every item is claimed exactly once, by one compare-and-swap on its
//! claim: by the packer for the GPU, or by a worker (the ordered CPU
//! executor) for the CPU — before the GPU is ready, when the pipeline has
//! fallen behind, while its kernels bound the run (`lag`), once it ended or
//! failed. A GPU-claimed file gets an
//! [`Entry`] that collects its pieces' results; it is *ready* when the
//! packer has laid out all its pieces (`open` false) and every piece has
//! been searched (`pieces_left` 0; once a fallback gave a file to the CPU
//! engine, its later pieces are left unread). The worker that reaches the
//! file waits for that, then takes the entry away and prints the file.
//! All waits share one condition variable, signalled under the entries'
//! lock so no change is missed, and wake every `TICK` to check for an
//! abort.
//!
//! The board also holds the run's state flags (GPU ready, packer ended,
//! GPU failed, output aborted), since they decide who may claim. What one
//! file's entry holds, and when its offsets foretell too many, is in
//! `board/entry.rs`.

mod entry;
mod lag;

use super::pack::Plan;
use super::ring::Filled;
use super::stats::{Fallback, Stages};
use entry::foretells_too_many;
pub use entry::{Entry, Posted, Take};
pub use lag::{CpuPace, InFlight, Lag, Verdict};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long waits sleep before checking for an abort.
const TICK: Duration = Duration::from_millis(20);
/// Offsets a file may collect before the CPU searches it instead
/// (`GPUGREP_GPU_FILE_MARKS`, a test knob, lowers it).
const MAX_FILE_OFFSETS: usize = 1 << 24;

const FREE: u8 = 0;
const CPU: u8 = 1;
const GPU: u8 = 2;

/// Claims and entries of one run.
pub struct Board<'a, 'r> {
    claims: Vec<AtomicU8>,
    /// Per item, with `settle`: a piece of it matched.
    settled: Vec<AtomicBool>,
    /// Per item: a fallback gave it to the CPU engine, which searches it
    /// whole, so the rest of it is not read for the GPU.
    given_up: Vec<AtomicBool>,
    /// [`MAX_FILE_OFFSETS`], or the knob's value.
    max_file_offsets: usize,
    entries: Mutex<HashMap<usize, Entry<'r>>>,
    changed: Condvar,
    /// Chunks kept per decompressed file poured into pieces (fewer than
    /// the ring holds, so that pouring it never waits for itself).
    keep_max: usize,
    /// Workers wait for the packer instead of claiming (`--engine gpu`).
    gpu_only: bool,
    /// Workers claim only until the GPU is ready.
    yield_when_ready: bool,
    /// Auto: workers claim again while the GPU lags (`lag`).
    lag: Option<Lag>,
    /// Milliseconds from `started` to the GPU being ready, plus 1 (0: not).
    ready_ms: AtomicU64,
    /// Bytes of the files the CPU engine has finished (auto's pace).
    cpu_searched: AtomicU64,
    /// Lines the CPU engine selected in those files.
    cpu_lines: AtomicU64,
    /// Time its threads spent on them, summed.
    cpu_ns: AtomicU64,
    started: Instant,
    /// The packer has finished claiming (or gave up).
    ended: AtomicBool,
    failed: AtomicBool,
    /// The output stopped: everyone winds down.
    aborted: AtomicBool,
    stages: &'a Stages,
}

impl<'a, 'r> Board<'a, 'r> {
    pub fn new(
        items: usize,
        gpu_only: bool,
        yield_when_ready: bool,
        lag: Option<Lag>,
        settle: bool,
        keep_max: usize,
        stages: &'a Stages,
    ) -> Self {
        Board {
            claims: (0..items).map(|_| AtomicU8::new(FREE)).collect(),
            settled: match settle {
                true => (0..items).map(|_| AtomicBool::new(false)).collect(),
                false => Vec::new(),
            },
            given_up: (0..items).map(|_| AtomicBool::new(false)).collect(),
            max_file_offsets: crate::knobs::get().gpu_file_marks.or(MAX_FILE_OFFSETS),
            entries: Mutex::new(HashMap::new()),
            changed: Condvar::new(),
            keep_max,
            gpu_only,
            yield_when_ready,
            lag,
            ready_ms: AtomicU64::new(0),
            cpu_searched: AtomicU64::new(0),
            cpu_lines: AtomicU64::new(0),
            cpu_ns: AtomicU64::new(0),
            started: Instant::now(),
            ended: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            aborted: AtomicBool::new(false),
            stages,
        }
    }

    /// The entries, also after a panic elsewhere poisoned their lock: every
    /// update must land, or a file could be printed before all its pieces.
    fn entries(&self) -> MutexGuard<'_, HashMap<usize, Entry<'r>>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn notify(&self) {
        // Taking the lock orders the notification after any state change a
        // waiter checked under it.
        drop(self.entries());
        self.changed.notify_all();
    }

    pub fn aborted(&self) -> bool {
        self.aborted.load(Ordering::Acquire)
    }

    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Stops everything (the output ended early).
    pub fn abort(&self) {
        self.aborted.store(true, Ordering::Release);
        self.notify();
    }

    /// The GPU failed: the CPU takes every file not yet claimed.
    pub fn fail(&self) {
        self.failed.store(true, Ordering::Release);
    }

    /// The packer claims no more files (`end` was called).
    pub fn ended(&self) -> bool {
        self.ended.load(Ordering::Acquire)
    }

    /// The packer claims no more files.
    pub fn end(&self) {
        self.ended.store(true, Ordering::Release);
        self.notify();
    }

    /// The GPU is ready (auto: the CPU may stop taking files).
    pub fn set_ready(&self) {
        let ms = self.started.elapsed().as_millis() as u64;
        self.ready_ms.store(ms + 1, Ordering::Release);
    }

    /// Auto: the GPU has been ready a while and its kernels bound the run
    /// (`lag`): idle workers take files too.
    fn gpu_lags(&self) -> bool {
        self.lagging().is_some()
    }

    /// While the GPU lags: its pace judge, and how long it has been ready
    /// (ms). The first time, notes when the lag was seen.
    fn lagging(&self) -> Option<(&Lag, u64)> {
        let (Some(lag), Some(ready)) = (&self.lag, self.ready_ms()) else {
            return None;
        };
        let now = self.started.elapsed().as_millis() as u64;
        let since = now.saturating_sub(ready);
        let verdict = lag.lags(since, self.stages)?;
        let first = &self.stages.lagged_ms;
        if first
            .compare_exchange(0, now + 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            self.stages
                .lagged_by
                .store(verdict as u8, Ordering::Relaxed);
        }
        Some((lag, since))
    }

    /// When the GPU became ready, in milliseconds from the start.
    pub fn ready_ms(&self) -> Option<u64> {
        self.ready_ms.load(Ordering::Acquire).checked_sub(1)
    }

    /// Item `i` is known to match (with `settle`).
    pub fn settled(&self, i: usize) -> bool {
        self.settled
            .get(i)
            .is_some_and(|s| s.load(Ordering::Acquire))
    }

    /// Item `i` went to the CPU engine (a fallback) while the GPU still
    /// had pieces of it to read.
    pub fn given_up(&self, i: usize) -> bool {
        self.given_up
            .get(i)
            .is_some_and(|s| s.load(Ordering::Acquire))
    }

    /// Item `i` goes to the CPU engine whole: the rest of it is not read.
    fn give_up(&self, i: usize) {
        if let Some(g) = self.given_up.get(i) {
            g.store(true, Ordering::Release);
        }
    }

    pub fn all_claimed(&self) -> bool {
        self.claims
            .iter()
            .all(|c| c.load(Ordering::Relaxed) != FREE)
    }

    /// The packer leaves item `i` to the CPU (not a regular file).
    pub fn leave_to_cpu(&self, i: usize) {
        let claimed =
            self.claims[i].compare_exchange(FREE, CPU, Ordering::AcqRel, Ordering::Acquire);
        if claimed.is_ok() {
            self.notify();
        }
    }

    /// The CPU engine finished a file it took, of `bytes`, selecting
    /// `lines`, in `ns`.
    pub fn cpu_finished(&self, bytes: u64, lines: u64, ns: u64) {
        self.cpu_lines.fetch_add(lines, Ordering::Relaxed);
        self.cpu_ns.fetch_add(ns, Ordering::Relaxed);
        self.cpu_searched.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Lines the CPU engine selected in the files it finished so far.
    pub fn cpu_lines(&self) -> u64 {
        self.cpu_lines.load(Ordering::Relaxed)
    }

    /// Bytes of the files the CPU engine has finished so far.
    pub fn cpu_searched(&self) -> u64 {
        self.cpu_searched.load(Ordering::Relaxed)
    }

    /// Some searcher has item `i` already.
    pub fn claimed(&self, i: usize) -> bool {
        self.claims
            .get(i)
            .is_some_and(|c| c.load(Ordering::Acquire) != FREE)
    }

    /// The packer claims item `i` for the GPU (`decompressed`: its bytes
    /// will be decompressed ones; `size`: their count, 0 when not known);
    /// false if a worker has it.
    pub fn claim_for_gpu(&self, i: usize, decompressed: bool, size: u64) -> bool {
        let mut entries = self.entries();
        let claimed =
            self.claims[i].compare_exchange(FREE, GPU, Ordering::AcqRel, Ordering::Acquire);
        if claimed.is_err() {
            return false;
        }
        let open = Entry {
            open: true,
            decompressed,
            size,
            ..Entry::default()
        };
        entries.insert(i, open);
        true
    }

    /// A chunk's pieces are laid out: each is one more piece to wait for,
    /// and the last piece of a file closes its layout.
    pub fn add_pieces(&self, plan: &Plan) {
        let mut entries = self.entries();
        for p in &plan.pieces {
            if let Some(e) = entries.get_mut(&p.file) {
                e.pieces_left += 1;
                e.open &= !p.last;
            }
        }
    }

    /// What the CPU needs of a decompressed file poured into pieces, told
    /// before its last piece is laid out.
    pub fn poured(&self, i: usize, head: Vec<u8>, total: u64) {
        if let Some(e) = self.entries().get_mut(&i) {
            e.head = head;
            e.total = total;
        }
    }

    /// Item `i`'s layout ends here and the CPU searches it (its stream
    /// failed while being poured: the CPU engine reports it as its own).
    pub fn to_cpu(&self, i: usize) {
        if let Some(e) = self.entries().get_mut(&i) {
            e.open = false;
            e.cpu = Some(Fallback::Damaged);
            e.offsets = Vec::new();
            e.kept = Vec::new();
        }
        self.notify();
    }

    /// Files claimed but never laid out whole (the pipeline stopped): the CPU.
    pub fn close_open(&self) {
        for e in self.entries().values_mut().filter(|e| e.open) {
            e.open = false;
            e.cpu = e.cpu.or(Some(Fallback::Stopped));
        }
    }

    /// Posts the results of chunk `filled`'s pieces (`plan`, in order).
    pub fn post(&self, plan: &Plan, filled: &Filled<'r>, posted: Vec<Posted>) {
        {
            let mut entries = self.entries();
            for (piece, got) in plan.pieces.iter().zip(posted) {
                let Some(e) = entries.get_mut(&piece.file) else {
                    continue;
                };
                e.pieces_left = e.pieces_left.saturating_sub(1);
                e.posted += 1;
                let range = piece.chunk_off..piece.chunk_off + piece.len;
                if piece.whole() && !got.unreadable {
                    e.whole = Some((filled.clone(), range));
                } else if e.decompressed && !e.kept_too_many {
                    match e.kept.len() < self.keep_max {
                        true => e.kept.push((filled.clone(), range, piece.file_off)),
                        false => e.kept_too_many = true,
                    }
                }
                let unreadable = got.unreadable.then_some(Fallback::Unreadable);
                e.cpu = e.cpu.or(unreadable).or(got.cpu);
                // An unsure piece wins: its file's marks must be confirmed.
                e.untallied = match got.untallied {
                    Some(Fallback::UnsureLines) => got.untallied,
                    _ => e.untallied.or(got.untallied),
                };
                if let Some(c) = got.count {
                    e.count = Some(e.count.map_or(c, |sum| sum + c));
                }
                // Kept only where they serve: the pieces of a split search.
                if e.cpu.is_none() && !got.unreadable && crate::search::splits_at(e.size) {
                    e.lines.extend(got.lines);
                }
                // A settled file keeps the offsets that settled it; later
                // pieces may have been left unread (`Flow::read_units`).
                if e.cpu.is_none() && !self.settled(piece.file) {
                    // An unsure mark may not be a match: it settles nothing.
                    let settles =
                        got.untallied != Some(Fallback::UnsureLines) && !got.offsets.is_empty();
                    match e.offsets.is_empty() {
                        // The file's first piece: its list, not a copy.
                        true => e.offsets = got.offsets,
                        false => e.offsets.extend(got.offsets),
                    }
                    e.reached = e.reached.max(piece.file_off + piece.len as u64);
                    let max = self.max_file_offsets;
                    if e.offsets.len() > max
                        || foretells_too_many(e.offsets.len(), e.reached, e.size, max)
                    {
                        e.cpu = Some(Fallback::TooManyOffsets);
                    }
                    if let Some(s) = self.settled.get(piece.file) {
                        if settles {
                            s.store(true, Ordering::Release);
                        }
                    }
                }
                if e.cpu.is_some() || e.kept_too_many {
                    // Printing decompresses again: the chunks go back.
                    e.kept = Vec::new();
                }
                if e.cpu.is_some() {
                    e.offsets = Vec::new();
                    e.lines = Vec::new();
                    // Its later pieces are left unread (`read`, `lane`):
                    // one 16 GiB file past MAX_FILE_OFFSETS was read for
                    // the GPU to the end, then searched again (8.1 s, the
                    // CPU engine alone 5.1 s).
                    self.give_up(piece.file);
                }
            }
        }
        self.changed.notify_all();
    }

    /// Auto, while the GPU lags: a worker waiting for GPU-claimed item `i`
    /// takes it back and searches it on the CPU when `Lag::takes_back`
    /// says so (its pieces are left unread, whole chunks of them
    /// unsearched, and what the GPU found is dropped). The packer claims
    /// files far ahead of the kernels: on loghub's templates the GPU held
    /// 26 files of 256 MiB when the lag was seen at 1.2 s (14 s at its
    /// pace), and the CPU engine, done with the other 38 files, waited for
    /// it (17.4 s; the CPU engine alone 11.8 s). A decompressed file stays
    /// the GPU's (its stream is being poured).
    fn take_back(&self, entries: &mut HashMap<usize, Entry<'r>>, i: usize) -> bool {
        let Some(e) = entries.get(&i).filter(|e| !e.decompressed) else {
            return false;
        };
        let Some((lag, since)) = self.lagging() else {
            return false;
        };
        let begun = (e.posted > 0).then_some((e.reached, e.size));
        let cpu = CpuPace {
            bytes: self.cpu_searched(),
            ns: self.cpu_ns.load(Ordering::Relaxed),
        };
        if !lag.takes_back(begun, since, self.stages, cpu) {
            return false;
        }
        entries.remove(&i);
        self.give_up(i);
        self.stages.taken_back.fetch_add(1, Ordering::Relaxed);
        self.stages.cpu_files.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// The worker's side: who searches item `i`, with what; waits until a
    /// GPU-claimed file is ready.
    pub fn take(&self, i: usize) -> Take<'r> {
        let Some(claim) = self.claims.get(i) else {
            return Take::Cpu;
        };
        loop {
            match claim.load(Ordering::Acquire) {
                CPU => return Take::Cpu,
                GPU => break,
                _ => {
                    let gpu_ready = self.ready_ms.load(Ordering::Acquire) != 0;
                    let gpu_only = self.gpu_only || (self.yield_when_ready && gpu_ready);
                    let may_claim = !gpu_only
                        || self.ended.load(Ordering::Acquire)
                        || self.failed.load(Ordering::Acquire)
                        || self.gpu_lags();
                    if may_claim
                        && claim
                            .compare_exchange(FREE, CPU, Ordering::AcqRel, Ordering::Acquire)
                            .is_ok()
                    {
                        self.stages.cpu_files.fetch_add(1, Ordering::Relaxed);
                        return Take::Cpu;
                    }
                    if !may_claim {
                        let entries = self.entries();
                        if claim.load(Ordering::Acquire) == FREE {
                            let _ = self.changed.wait_timeout(entries, TICK);
                        }
                    }
                }
            }
        }
        let mut entries = self.entries();
        loop {
            let ready = entries
                .get(&i)
                .is_some_and(|e| !e.open && e.pieces_left == 0);
            if ready {
                let mut e = entries.remove(&i).unwrap_or_default();
                // Sorted after the lock is let go: a big file's millions of
                // offsets took tens of ms to sort, and every lane's `post`
                // waited on the lock meanwhile (10,000 rules over 64 files
                // of 256 MiB: 24 ms a chunk, more than its search).
                drop(entries);
                // Pieces may finish out of order, and with patterns of
                // several lengths overlapping pieces may report a start twice.
                // Each piece's offsets come in order: a stable sort merges
                // those runs (2 M offsets in 5 pieces: 16 ms against 37 ms
                // for `sort_unstable`, which was 4.7 % of the CPU time of
                // `-n` with 1,000 rules over 16 GiB of logs, on the thread
                // that holds the file's split back meanwhile).
                if !e.offsets.is_sorted() {
                    e.offsets.sort();
                }
                if !e.lines.is_sorted_by_key(|l| l.start) {
                    e.lines.sort_by_key(|l| l.start);
                }
                e.offsets.dedup();
                return Take::Gpu(e);
            }
            if self.aborted() {
                return Take::Gone;
            }
            if self.take_back(&mut entries, i) {
                return Take::Cpu;
            }
            entries = self
                .changed
                .wait_timeout(entries, TICK)
                .map(|(b, _)| b)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }
}
