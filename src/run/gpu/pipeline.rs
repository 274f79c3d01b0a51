//! The streaming pipeline: files → parallel reads into a ring of pinned
//! chunks → copy and kernel on several GPU lanes → per-file match offsets.
//!
//! ```text
//!  packer ──plans──▶ readers (N threads) ──filled chunks──▶ lanes (2 streams)
//!    │ claims files                                           │ offsets per file
//!    ▼                                                        ▼
//!  workers (the ordered CPU executor) take each file's entry from the board
//! ```
//!
//! Every file is claimed once, by the GPU (the packer) or by the CPU (a
//! worker that reached it first: before the GPU is ready, or when the
//! pipeline has fallen behind), so the CPU searches while CUDA starts. A
//! GPU-claimed file becomes ready when
//! all its pieces have been searched; the worker then confirms and prints
//! it with the same code as the CPU engine, reading its bytes from the
//! pinned chunk when it lies whole in one (else from a fresh map of the
//! file), with the GPU's offsets as the prefilter. Anything that goes wrong
//! on the GPU side (a read error, a dense chunk, a launch failure) turns the
//! affected files into CPU searches: slower, never wrong.
//!
//! Memory is bounded: the ring holds at most `ring` chunks, each lane one
//! chunk on the GPU, and a chunk returns to the ring when the last file
//! read from it has been printed.

use super::pack::{self, Packer, Plan};
use crate::encoding::boundary::Scheme;
use crate::engine::gpu::backread::{self, Backread};
use crate::engine::gpu::{
    ChunkFound, FileCount, GpuEngine, GpuError, GpuLane, HostBuf, MatchCount, Tally, Target,
    Timings,
};
use crate::engine::{cpu, Matcher};
use crate::input::walk::{Input, Item};
use std::collections::HashMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Bytes read by one reader at a time (pieces are grouped or cut to this).
const UNIT_BYTES: usize = 4 << 20;
/// Offsets a file may collect before the CPU searches it instead.
const MAX_FILE_OFFSETS: usize = 1 << 24;
/// A chunk with more than one match per this many bytes (and more than
/// `DENSE_MIN_MATCHES`) is searched by the CPU: the offsets would cost
/// more than they save.
const DENSE_BYTES_PER_MATCH: usize = 32;
const DENSE_MIN_MATCHES: usize = 1024;
/// How long waits sleep before checking for an abort.
const TICK: Duration = Duration::from_millis(20);

const FREE: u8 = 0;
const CPU: u8 = 1;
const GPU: u8 = 2;

/// Where the pipeline runs its chunks.
pub enum Backend {
    Gpu(Box<GpuEngine>),
    /// The same pipeline with a CPU search per chunk (`GPUGREP_GPU_SIMULATE`):
    /// exercises packing, ordering and fallbacks on machines without a GPU.
    Simulated,
}

enum Lane {
    Gpu(Box<GpuLane>),
    Simulated,
}

impl Lane {
    fn search(
        &mut self,
        text: &[u8],
        target: &Target,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        let lane = match self {
            Lane::Gpu(l) => l,
            Lane::Simulated => return Ok(simulate(text, target, backread, cap, tally)),
        };
        match target {
            Target::One(p) => lane.search(text, p, backread, cap, tally),
            Target::Many(t) => lane.search_many(text, t, backread, cap, tally),
        }
    }

    fn timings(&self) -> Timings {
        match self {
            Lane::Gpu(l) => l.timings(),
            Lane::Simulated => Timings::default(),
        }
    }
}

/// What a GPU lane reports, computed on the CPU: every match start in
/// `text`, overlapping ones included, less those the back-read drops (the
/// kernel's CPU mirror); as tallies, or unless there are more than `cap`.
fn simulate(
    text: &[u8],
    target: &Target,
    backread: Option<Backread>,
    cap: u64,
    tally: Option<&Tally>,
) -> ChunkFound {
    let mut starts: Vec<u64> = match target {
        Target::One(p) => {
            let lit = cpu::Literal::new(p);
            std::iter::successors(lit.find_at(text, 0), |m| lit.find_at(text, m.start + 1))
                .map(|m| m.start as u64)
                .collect()
        }
        Target::Many(t) => t.reference(text),
    };
    if let Some(b) = backread {
        backread::filter(text, &mut starts, b);
    }
    let len_at = |p: u64| match target {
        Target::One(pat) => pat.len() as u64,
        Target::Many(t) => t.longest_at(text, p as usize).unwrap_or(1) as u64,
    };
    if let Some(counts) = tally.and_then(|t| t.reference(text, &starts, &len_at)) {
        return ChunkFound::Counts(counts);
    }
    match starts.len() as u64 {
        n if n > cap => ChunkFound::Dense(n),
        _ => ChunkFound::Offsets(starts),
    }
}

/// A chunk's memory: a slice of the ring's one allocation.
struct Slot {
    _mem: Arc<SlotMem>,
    ptr: *mut u8,
    len: usize,
}

/// The ring's memory: page-locked when the GPU could give it, else ordinary.
enum SlotMem {
    Pinned(HostBuf),
    Heap(Box<[u8]>),
}

// SAFETY: a slot is a disjoint slice of memory its Arc keeps alive; the
// pipeline writes disjoint ranges from reader threads while a chunk fills
// and reads it only after (see `read_units`).
unsafe impl Send for Slot {}
unsafe impl Sync for Slot {}

impl Slot {
    /// Bytes `at..at + len`.
    ///
    /// SAFETY (caller): no one writes this range while the slice lives.
    unsafe fn bytes(&self, at: usize, len: usize) -> &[u8] {
        debug_assert!(at + len <= self.len);
        std::slice::from_raw_parts(self.ptr.add(at), len)
    }

    /// Bytes `at..at + len`, writable.
    ///
    /// SAFETY (caller): no one else reads or writes this range meanwhile.
    #[allow(clippy::mut_from_ref)]
    unsafe fn bytes_mut(&self, at: usize, len: usize) -> &mut [u8] {
        debug_assert!(at + len <= self.len);
        std::slice::from_raw_parts_mut(self.ptr.add(at), len)
    }
}

/// The fixed set of chunk buffers, allocated as one block on first use.
pub struct Ring {
    /// Free slots, and whether the block was allocated.
    free: Mutex<(Vec<Slot>, bool)>,
    returned: Condvar,
    slots: usize,
}

/// A slot on loan; back to the ring when the last holder drops it.
struct Lease<'r> {
    slot: Option<Slot>,
    ring: &'r Ring,
}

impl Lease<'_> {
    fn slot(&self) -> &Slot {
        // Only `drop` takes the slot out.
        self.slot.as_ref().expect("slot present until drop")
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            if let Ok(mut free) = self.ring.free.lock() {
                free.0.push(slot);
            }
            self.ring.returned.notify_one();
        }
    }
}

/// What the board knows of one GPU-claimed file.
#[derive(Default)]
pub struct Entry<'r> {
    /// Pieces not planned yet (the packer is still laying the file out).
    open: bool,
    pieces_left: usize,
    /// Match starts in the file (ascending once `take` sorted them).
    pub offsets: Vec<u64>,
    /// The GPU's tally of the file, instead of offsets (`Flow::tally`).
    pub count: Option<FileCount>,
    /// The CPU must search this file (dense, read error, GPU failure).
    pub cpu: bool,
    /// The whole file in a chunk: its lease and range.
    whole: Option<(Arc<Lease<'r>>, usize, usize)>,
}

impl Entry<'_> {
    /// The file's bytes when it lies whole in a chunk.
    pub fn bytes(&self) -> Option<&[u8]> {
        // SAFETY: a lease in an entry belongs to a chunk that is filled and
        // searched; nothing writes it until every lease is dropped.
        self.whole
            .as_ref()
            .map(|(l, at, len)| unsafe { l.slot().bytes(*at, *len) })
    }
}

/// What a worker gets for a file.
pub enum Take<'r> {
    Cpu,
    Gpu(Entry<'r>),
    /// The search stopped (nothing will be printed).
    Gone,
}

/// Per-stage totals for `--stats` and `--debug`.
#[derive(Default)]
pub struct Stages {
    pub read_ns: AtomicU64,
    /// The packer waiting for a free chunk, and allocating chunks.
    pub slot_wait_ns: AtomicU64,
    pub alloc_ns: AtomicU64,
    /// Lanes busy (copy, kernel, results) in wall time, summed.
    pub lane_ns: AtomicU64,
    pub output_ns: AtomicU64,
    pub chunks: AtomicU64,
    pub gpu_bytes: AtomicU64,
    pub gpu_files: AtomicU64,
    pub cpu_files: AtomicU64,
    pub dense_chunks: AtomicU64,
    /// Chunks whose files the GPU tallied (no offsets shipped).
    pub tallied_chunks: AtomicU64,
    /// Bytes left unread: pieces of files a match had settled.
    pub settled_bytes: AtomicU64,
    pub ready_ms: AtomicU64,
    pub lanes: Mutex<Timings>,
}

/// Sizes and knobs of one run.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub chunk: usize,
    pub ring: usize,
    pub lanes: usize,
    pub readers: usize,
    /// Workers wait for the packer instead of claiming files (`--engine gpu`).
    pub gpu_only: bool,
    /// Workers claim files only until the GPU is ready (auto, when the GPU
    /// is the faster side and the CPU would read every file whole too).
    pub yield_when_ready: bool,
    /// One match settles a file (`-l`, `-L`, matches final): the rest of a
    /// file cut into pieces is neither read nor searched once one of its
    /// pieces matched.
    pub settle: bool,
}

/// The state shared by the packer, readers, lanes and workers.
pub struct Flow<'a, 'r> {
    items: &'a [Item],
    sizes: &'a [Option<u64>],
    target: &'a Target,
    /// The back-read chunks get (patterns transcoded into a multi-byte
    /// encoding whose sure bytes include the terminator).
    scheme: Option<Scheme>,
    terminator: u8,
    /// Chunks of whole files report per-file tallies, not offsets,
    /// counting matches this way.
    tally: Option<MatchCount>,
    shape: Shape,
    claims: Vec<AtomicU8>,
    /// Per item, with `Shape::settle`: a piece of it matched.
    settled: Vec<AtomicBool>,
    board: Mutex<HashMap<usize, Entry<'r>>>,
    changed: Condvar,
    /// The packer has finished claiming (or gave up).
    ended: AtomicBool,
    pub failed: AtomicBool,
    /// The output stopped: everyone winds down.
    pub aborted: AtomicBool,
    pub stages: Stages,
    pub notes: Mutex<Vec<String>>,
    started: Instant,
}

/// A filled (or filling) chunk on its way through the pipeline.
struct Job<'r> {
    plan: Plan,
    lease: Arc<Lease<'r>>,
    units_left: AtomicUsize,
    bad_files: Mutex<Vec<usize>>,
}

/// What one reader reads: parts of one chunk's pieces.
struct Unit<'r> {
    job: Arc<Job<'r>>,
    /// (piece index, offset in the piece, length)
    parts: Vec<(usize, usize, usize)>,
}

impl<'a, 'r> Flow<'a, 'r> {
    pub fn new(
        items: &'a [Item],
        sizes: &'a [Option<u64>],
        target: &'a Target,
        scheme: Option<Scheme>,
        terminator: u8,
        tally: Option<MatchCount>,
        mut shape: Shape,
    ) -> Self {
        // A chunk holds at least one whole pattern (Packer::new).
        shape.chunk = shape.chunk.max(target.longest());
        Flow {
            items,
            sizes,
            target,
            scheme,
            terminator,
            tally,
            shape,
            claims: items.iter().map(|_| AtomicU8::new(FREE)).collect(),
            settled: match shape.settle {
                true => items.iter().map(|_| AtomicBool::new(false)).collect(),
                false => Vec::new(),
            },
            board: Mutex::new(HashMap::new()),
            changed: Condvar::new(),
            ended: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            aborted: AtomicBool::new(false),
            stages: Stages::default(),
            notes: Mutex::new(Vec::new()),
            started: Instant::now(),
        }
    }

    /// The board, also after a panic elsewhere poisoned its lock: every
    /// update must land, or a file could be printed before all its pieces.
    fn board(&self) -> std::sync::MutexGuard<'_, HashMap<usize, Entry<'r>>> {
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn note(&self, msg: String) {
        if let Ok(mut n) = self.notes.lock() {
            n.push(msg);
        }
    }

    fn notify(&self) {
        // Taking the lock orders the notification after any state change a
        // waiter checked under it.
        drop(self.board());
        self.changed.notify_all();
    }

    /// Stops everything (the output ended early).
    pub fn abort(&self) {
        self.aborted.store(true, Ordering::Release);
        self.notify();
    }

    /// The worker's side: who searches item `i`, with what.
    pub fn take(&self, i: usize) -> Take<'r> {
        let Some(claim) = self.claims.get(i) else {
            return Take::Cpu;
        };
        loop {
            match claim.load(Ordering::Acquire) {
                CPU => return Take::Cpu,
                GPU => break,
                _ => {
                    let gpu_ready = self.stages.ready_ms.load(Ordering::Acquire) != 0;
                    let gpu_only =
                        self.shape.gpu_only || (self.shape.yield_when_ready && gpu_ready);
                    let may_claim = !gpu_only
                        || self.ended.load(Ordering::Acquire)
                        || self.failed.load(Ordering::Acquire);
                    if may_claim
                        && claim
                            .compare_exchange(FREE, CPU, Ordering::AcqRel, Ordering::Acquire)
                            .is_ok()
                    {
                        self.stages.cpu_files.fetch_add(1, Ordering::Relaxed);
                        return Take::Cpu;
                    }
                    if !may_claim {
                        let board = self.board();
                        if claim.load(Ordering::Acquire) == FREE {
                            let _ = self.changed.wait_timeout(board, TICK);
                        }
                    }
                }
            }
        }
        let mut board = self.board();
        loop {
            let ready = board.get(&i).is_some_and(|e| !e.open && e.pieces_left == 0);
            if ready {
                let mut e = board.remove(&i).unwrap_or_default();
                // Pieces may finish out of order, and with patterns of
                // several lengths overlapping pieces may report a start twice.
                if !e.offsets.is_sorted() {
                    e.offsets.sort_unstable();
                }
                e.offsets.dedup();
                return Take::Gpu(e);
            }
            if self.aborted.load(Ordering::Acquire) {
                return Take::Gone;
            }
            board = self
                .changed
                .wait_timeout(board, TICK)
                .map(|(b, _)| b)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// The packer: waits for the backend, then claims files in order, lays
    /// them out in chunks and drives readers and lanes. Returns when every
    /// chunk has been searched.
    pub fn run(&self, ring: &'r Ring, backend: Receiver<Result<Backend, GpuError>>) {
        let backend = loop {
            if self.aborted.load(Ordering::Acquire) || self.all_claimed() {
                return self.end();
            }
            match backend.recv_timeout(Duration::from_millis(2)) {
                Ok(Ok(b)) => break b,
                Ok(Err(e)) => {
                    self.note(format!("CPU engine instead: {e}"));
                    self.failed.store(true, Ordering::Release);
                    return self.end();
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return self.end(),
            }
        };
        // Stored + 1: 0 means the backend never arrived.
        self.stages.ready_ms.store(
            self.started.elapsed().as_millis() as u64 + 1,
            Ordering::Release,
        );
        let mut lanes = Vec::new();
        for _ in 0..self.shape.lanes.max(1) {
            match &backend {
                Backend::Gpu(e) => match e.lane() {
                    Ok(l) => lanes.push(Lane::Gpu(Box::new(l))),
                    Err(e) => {
                        self.note(format!("CPU engine instead: {e}"));
                        self.failed.store(true, Ordering::Release);
                        return self.end();
                    }
                },
                Backend::Simulated => lanes.push(Lane::Simulated),
            }
        }
        let (unit_tx, unit_rx) = mpsc::channel::<Unit<'r>>();
        let (job_tx, job_rx) = mpsc::channel::<Arc<Job<'r>>>();
        let unit_rx = Mutex::new(unit_rx);
        let job_rx = Mutex::new(job_rx);
        std::thread::scope(|s| {
            for _ in 0..self.shape.readers.max(1) {
                let (rx, tx) = (&unit_rx, job_tx.clone());
                s.spawn(move || self.read_units(rx, tx));
            }
            drop(job_tx);
            for mut lane in lanes {
                let rx = &job_rx;
                s.spawn(move || {
                    self.search_jobs(&mut lane, rx);
                    if let Ok(mut t) = self.stages.lanes.lock() {
                        let l = lane.timings();
                        t.upload_ms += l.upload_ms;
                        t.search_ms += l.search_ms;
                        t.readback_ms += l.readback_ms;
                        t.segments += l.segments;
                    }
                });
            }
            self.pack(ring, &backend, &unit_tx);
            drop(unit_tx);
        });
    }

    /// Item `i` is known to match (`Shape::settle`).
    fn settled(&self, i: usize) -> bool {
        self.settled
            .get(i)
            .is_some_and(|s| s.load(Ordering::Acquire))
    }

    fn all_claimed(&self) -> bool {
        self.claims
            .iter()
            .all(|c| c.load(Ordering::Relaxed) != FREE)
    }

    fn end(&self) {
        self.ended.store(true, Ordering::Release);
        self.notify();
    }

    fn pack(&self, ring: &'r Ring, backend: &Backend, units: &mpsc::Sender<Unit<'r>>) {
        let mut packer = Packer::new(self.shape.chunk, self.target.longest());
        let mut plans = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if self.aborted.load(Ordering::Acquire) || self.failed.load(Ordering::Acquire) {
                break;
            }
            let size = match (item, self.sizes.get(i)) {
                (Item::Input(Input { path: Some(_), .. }), Some(&Some(s))) if s > 0 => s,
                _ => {
                    if self.claims[i]
                        .compare_exchange(FREE, CPU, Ordering::AcqRel, Ordering::Acquire)
                        .is_ok()
                    {
                        self.notify();
                    }
                    continue;
                }
            };
            {
                let mut board = self.board();
                if self.claims[i]
                    .compare_exchange(FREE, GPU, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
                {
                    continue;
                }
                board.insert(
                    i,
                    Entry {
                        open: true,
                        ..Entry::default()
                    },
                );
            }
            self.stages.gpu_files.fetch_add(1, Ordering::Relaxed);
            packer.push(i, size, &mut plans);
            for plan in plans.drain(..) {
                self.dispatch(plan, ring, backend, units);
            }
        }
        packer.flush(&mut plans);
        for plan in plans.drain(..) {
            self.dispatch(plan, ring, backend, units);
        }
        // Files claimed but never dispatched (the pipeline stopped): the CPU.
        for e in self.board().values_mut().filter(|e| e.open) {
            e.open = false;
            e.cpu = true;
        }
        self.end();
    }

    /// Gets a slot for `plan`, registers its pieces and hands its reads out.
    fn dispatch(
        &self,
        plan: Plan,
        ring: &'r Ring,
        backend: &Backend,
        units: &mpsc::Sender<Unit<'r>>,
    ) {
        let t = Instant::now();
        let slot = self.slot(ring, backend);
        self.stages
            .slot_wait_ns
            .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        let Some(slot) = slot else {
            return; // aborted; pack() closes the open entries
        };
        {
            let mut board = self.board();
            for p in &plan.pieces {
                if let Some(e) = board.get_mut(&p.file) {
                    e.pieces_left += 1;
                    e.open &= !p.last;
                }
            }
        }
        let parts = unit_parts(&plan);
        let job = Arc::new(Job {
            plan,
            lease: Arc::new(Lease {
                slot: Some(slot),
                ring,
            }),
            units_left: AtomicUsize::new(parts.len()),
            bad_files: Mutex::new(Vec::new()),
        });
        for parts in parts {
            let unit = Unit {
                job: job.clone(),
                parts,
            };
            if units.send(unit).is_err() {
                return;
            }
        }
    }

    /// A free slot (the first call allocates the ring).
    fn slot(&self, ring: &Ring, backend: &Backend) -> Option<Slot> {
        let mut free = ring.free.lock().ok()?;
        if !free.1 {
            free.1 = true;
            let t = Instant::now();
            free.0 = self.allocate(ring.slots, backend);
            self.stages
                .alloc_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
        loop {
            if let Some(s) = free.0.pop() {
                return Some(s);
            }
            if self.aborted.load(Ordering::Acquire) {
                return None;
            }
            free = ring
                .returned
                .wait_timeout(free, TICK)
                .ok()
                .map(|(f, _)| f)?;
        }
    }

    /// `n` slots of one chunk each, in one block.
    fn allocate(&self, n: usize, backend: &Backend) -> Vec<Slot> {
        let chunk = self.shape.chunk;
        let bytes = n * chunk;
        let heap = || SlotMem::Heap(vec![0u8; bytes].into_boxed_slice());
        let mem = match backend {
            Backend::Gpu(e) => match e.alloc_host(bytes, self.shape.readers) {
                Ok(h) => SlotMem::Pinned(h),
                Err(err) => {
                    self.note(format!("pageable staging memory: {err}"));
                    heap()
                }
            },
            Backend::Simulated => heap(),
        };
        let base = match &mem {
            SlotMem::Pinned(h) => h.as_ptr(),
            SlotMem::Heap(b) => b.as_ptr().cast_mut(),
        };
        let mem = Arc::new(mem);
        (0..n)
            .map(|k| Slot {
                _mem: mem.clone(),
                // SAFETY: k * chunk + chunk <= bytes, inside the block.
                ptr: unsafe { base.add(k * chunk) },
                len: chunk,
            })
            .collect()
    }

    /// A reader: reads file parts into chunks; a chunk whose last part is
    /// in goes to the lanes.
    fn read_units(&self, units: &Mutex<Receiver<Unit<'r>>>, jobs: mpsc::Sender<Arc<Job<'r>>>) {
        loop {
            let Some(unit) = next(units) else { return };
            let t = Instant::now();
            let job = &unit.job;
            if !self.aborted.load(Ordering::Acquire) {
                let mut open: Option<(usize, File)> = None;
                for &(p, at, len) in &unit.parts {
                    let piece = &job.plan.pieces[p];
                    if self.settled(piece.file) {
                        // Left as the slot held it: what the GPU finds there
                        // is dropped (`post`).
                        self.stages
                            .settled_bytes
                            .fetch_add(len as u64, Ordering::Relaxed);
                        continue;
                    }
                    // SAFETY: the parts of one chunk's units are disjoint
                    // ranges of its slot (unit_parts), and the slot is read
                    // only after the last unit is done (units_left below).
                    let dst = unsafe { job.lease.slot().bytes_mut(piece.chunk_off + at, len) };
                    let ok =
                        read_part(&mut open, self, piece.file, piece.file_off + at as u64, dst);
                    if !ok {
                        if let Ok(mut bad) = job.bad_files.lock() {
                            bad.push(piece.file);
                        }
                    }
                }
            }
            self.stages
                .read_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            if unit.job.units_left.fetch_sub(1, Ordering::AcqRel) == 1 {
                let _ = jobs.send(unit.job);
            }
        }
    }

    /// A lane: searches filled chunks and posts each file's offsets.
    fn search_jobs(&self, lane: &mut Lane, jobs: &Mutex<Receiver<Arc<Job<'r>>>>) {
        loop {
            let Some(job) = next(jobs) else { return };
            let plan = &job.plan;
            let t = Instant::now();
            let skip = plan.pieces.iter().all(|p| self.settled(p.file));
            let found = if self.aborted.load(Ordering::Acquire) {
                Err(GpuError::Cuda("stopped".into()))
            } else if skip {
                Ok(ChunkFound::Offsets(Vec::new()))
            } else {
                for at in plan.separators() {
                    // SAFETY: separators lie outside every piece; the chunk's
                    // reads are done and no other thread holds this job yet.
                    unsafe { job.lease.slot().bytes_mut(at, 1)[0] = self.terminator };
                }
                // SAFETY: the chunk is filled; nothing writes it any more.
                let text = unsafe { job.lease.slot().bytes(0, plan.len) };
                let cap = (plan.len / DENSE_BYTES_PER_MATCH).max(DENSE_MIN_MATCHES) as u64;
                let backread = self.scheme.map(|scheme| Backread {
                    scheme,
                    start_is_boundary: plan.starts_a_file(),
                });
                lane.search(
                    text,
                    self.target,
                    backread,
                    cap,
                    self.tally_of(plan).as_ref(),
                )
            };
            self.stages
                .lane_ns
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            if !skip {
                self.stages.chunks.fetch_add(1, Ordering::Relaxed);
                self.stages
                    .gpu_bytes
                    .fetch_add(plan.len as u64, Ordering::Relaxed);
            }
            self.post(&job, found);
        }
    }

    /// What a chunk's files are tallied by, when the run tallies and the
    /// chunk holds whole files only (a file cut into pieces ships offsets:
    /// its lines may straddle them).
    fn tally_of(&self, plan: &Plan) -> Option<Tally> {
        let count = self.tally?;
        if !plan.pieces.iter().all(|p| p.whole()) {
            return None;
        }
        let range = |p: &pack::Piece| (p.chunk_off as u64, (p.chunk_off + p.len) as u64);
        let (starts, ends) = plan.pieces.iter().map(range).unzip();
        Some(Tally {
            starts,
            ends,
            term: self.terminator,
            count,
        })
    }

    /// Posts one chunk's results to the board.
    fn post(&self, job: &Arc<Job<'r>>, found: Result<ChunkFound, GpuError>) {
        let plan = &job.plan;
        let mut per_piece: Vec<Vec<u64>> = vec![Vec::new(); plan.pieces.len()];
        let mut counts = None;
        let all_cpu = match found {
            Ok(ChunkFound::Counts(c)) if c.len() == plan.pieces.len() => {
                self.stages.tallied_chunks.fetch_add(1, Ordering::Relaxed);
                counts = Some(c);
                false
            }
            Ok(ChunkFound::Counts(_)) => true,
            Ok(ChunkFound::Offsets(v)) => {
                pack::assign(plan, &v, self.target.shortest(), |p, off| {
                    per_piece[p].push(off)
                });
                false
            }
            Ok(ChunkFound::Dense(_)) => {
                self.stages.dense_chunks.fetch_add(1, Ordering::Relaxed);
                true
            }
            Err(e) => {
                if !self.aborted.load(Ordering::Acquire) {
                    self.note(format!("GPU failed, CPU engine from here: {e}"));
                    self.failed.store(true, Ordering::Release);
                }
                true
            }
        };
        let bad = job.bad_files.lock().map(|b| b.clone()).unwrap_or_default();
        {
            let mut board = self.board();
            for (k, (piece, offsets)) in plan.pieces.iter().zip(per_piece).enumerate() {
                let Some(e) = board.get_mut(&piece.file) else {
                    continue;
                };
                e.pieces_left = e.pieces_left.saturating_sub(1);
                let unreadable = bad.contains(&piece.file);
                if piece.whole() && !unreadable {
                    e.whole = Some((job.lease.clone(), piece.chunk_off, piece.len));
                }
                e.cpu |= all_cpu || unreadable;
                if let Some(c) = &counts {
                    e.count = Some(c[k]);
                }
                // A settled file keeps the offsets that settled it; later
                // pieces may have been left unread (`read_units`).
                if !e.cpu && !self.settled(piece.file) {
                    e.offsets.extend(offsets);
                    if e.offsets.len() > MAX_FILE_OFFSETS {
                        e.cpu = true;
                    }
                    if let Some(s) = self.settled.get(piece.file) {
                        if !e.offsets.is_empty() {
                            s.store(true, Ordering::Release);
                        }
                    }
                }
                if e.cpu {
                    e.offsets = Vec::new();
                }
            }
        }
        self.changed.notify_all();
    }
}

/// The next message of a queue shared by several threads; `None` when the
/// senders are gone.
fn next<T>(rx: &Mutex<Receiver<T>>) -> Option<T> {
    rx.lock().ok()?.recv().ok()
}

/// Groups a plan's pieces into reads of about `UNIT_BYTES`: small pieces
/// together, large pieces cut. Parts are disjoint ranges of the chunk.
fn unit_parts(plan: &Plan) -> Vec<Vec<(usize, usize, usize)>> {
    let mut units = Vec::new();
    let mut cur = Vec::new();
    let mut bytes = 0;
    for (p, piece) in plan.pieces.iter().enumerate() {
        let mut at = 0;
        while at < piece.len {
            let len = (piece.len - at).min(UNIT_BYTES - bytes);
            cur.push((p, at, len));
            bytes += len;
            at += len;
            if bytes == UNIT_BYTES {
                units.push(std::mem::take(&mut cur));
                bytes = 0;
            }
        }
    }
    if !cur.is_empty() {
        units.push(cur);
    }
    units
}

/// Reads `dst.len()` bytes of item `file` from `at`; false if the file
/// cannot be opened, is shorter, or changed size since it was listed.
fn read_part(
    open: &mut Option<(usize, File)>,
    flow: &Flow,
    file: usize,
    at: u64,
    dst: &mut [u8],
) -> bool {
    if open.as_ref().map(|(f, _)| *f) != Some(file) {
        let Some(Item::Input(Input {
            path: Some(path), ..
        })) = flow.items.get(file)
        else {
            return false;
        };
        let Ok(f) = File::open(path) else {
            return false;
        };
        let listed = flow.sizes.get(file).copied().flatten();
        if f.metadata().ok().map(|m| m.len()) != listed {
            return false;
        }
        *open = Some((file, f));
    }
    let Some((_, f)) = open.as_ref() else {
        return false;
    };
    let mut done = 0;
    while done < dst.len() {
        match f.read_at(&mut dst[done..], at + done as u64) {
            Ok(0) => return false,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

/// A ring of `slots` chunks.
pub fn ring(slots: usize) -> Ring {
    Ring {
        free: Mutex::new((Vec::new(), false)),
        returned: Condvar::new(),
        slots: slots.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_parts_cover_every_piece_byte_once() {
        let mut packer = Packer::new(3 * UNIT_BYTES, 4);
        let mut plans = Vec::new();
        for (i, s) in [10u64, (UNIT_BYTES + 5) as u64, 7, (2 * UNIT_BYTES) as u64]
            .iter()
            .enumerate()
        {
            packer.push(i, *s, &mut plans);
        }
        packer.flush(&mut plans);
        for plan in &plans {
            let mut covered = vec![0u8; plan.len];
            for unit in unit_parts(plan) {
                assert!(unit.iter().map(|u| u.2).sum::<usize>() <= UNIT_BYTES);
                for (p, at, len) in unit {
                    let start = plan.pieces[p].chunk_off + at;
                    covered[start..start + len].iter_mut().for_each(|c| *c += 1);
                }
            }
            for p in &plan.pieces {
                assert!(covered[p.chunk_off..p.chunk_off + p.len]
                    .iter()
                    .all(|&c| c == 1));
            }
        }
    }
}
