//! One GPU: its context, stream, loaded kernels and reusable buffers.
//!
//! Everything that talks to the CUDA driver lives here, so the `unsafe`
//! stays at this one edge. One stream orders all work, so cudarc's per-buffer
//! event tracking is switched off. Buffers only grow (to the largest text seen)
//! and are reused across calls; the text goes up through two pinned staging
//! buffers so the host copy of one chunk overlaps the DMA of the other.

use std::sync::Arc;

use cudarc::driver::{
    result, sys, CudaContext, CudaEvent, CudaFunction, CudaSlice, CudaStream, DevicePtr,
    DeviceRepr, LaunchConfig, PinnedHostSlice, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::backread::{self, Backread};
use super::kernels::{self, Kernel, BLOCK, TILE_BYTES, TILE_WORDS};
use super::multi::{self, MultiTables};
use super::tables;
use super::{GpuError, MatchCount, Tally};
use crate::encoding::boundary::Scheme;

/// Longest walk back (bytes) the tally kernel takes to find a line's start
/// before it gives up and the chunk's offsets ship instead.
pub(crate) const TALLY_REACH: u32 = 1 << 18;

/// Bytes per pinned staging buffer (two of them).
const STAGE_BYTES: usize = 32 << 20;

/// Most threads filling the staging buffers (see `upload_at`); the default
/// is this or the machine's parallelism, whichever is smaller. On the H100
/// host (16 cores), 8 threads uploaded 1 GiB at 27 GB/s, 4 at 20, 1 at 6.
pub(crate) const MAX_DEFAULT_UPLOAD_THREADS: usize = 8;

/// u64 words per pinned readback chunk (16 MiB).
const READ_CHUNK_WORDS: usize = 2 << 20;

/// Where the time of the last search went (milliseconds, wall clock).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Host to GPU: staging copies and DMA, until the text is on the GPU.
    pub upload_ms: f64,
    /// Pattern upload, search kernel (and back-read), count, until the
    /// count is on the host.
    pub search_ms: f64,
    /// Compaction (when offsets ship), transfer back and copy-out.
    pub readback_ms: f64,
    /// Passes over the text (more than one for texts over the segment limit).
    pub segments: usize,
}

/// `dst.copy_from_slice(src)` on up to `threads` threads (at least 1 MiB
/// each); falls back to copying inline if a thread cannot be started.
fn parallel_copy<T: Copy + Send + Sync>(dst: &mut [T], src: &[T], threads: usize) {
    let t = threads.min(std::mem::size_of_val(src) >> 20).max(1);
    if t == 1 {
        dst.copy_from_slice(src);
        return;
    }
    let per = src.len().div_ceil(t);
    let mut failed = Vec::new();
    std::thread::scope(|s| {
        for (i, (d, c)) in dst.chunks_mut(per).zip(src.chunks(per)).enumerate() {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || d.copy_from_slice(c));
            if spawned.is_err() {
                failed.push(i);
            }
        }
    });
    for i in failed {
        let r = i * per..((i + 1) * per).min(src.len());
        dst[r.clone()].copy_from_slice(&src[r]);
    }
}

fn unavailable(what: &str) -> impl FnOnce(result::DriverError) -> GpuError + '_ {
    move |e| GpuError::Unavailable(format!("{what}: {e}"))
}

fn cuda(what: &str) -> impl FnOnce(result::DriverError) -> GpuError + '_ {
    move |e| GpuError::Cuda(format!("{what}: {e}"))
}

/// Makes threads waiting for the GPU sleep instead of spinning (before the
/// primary context is created; `GPUGREP_GPU_SYNC=spin|yield|auto` for
/// measurements). The pipeline's lanes wait while its readers need every
/// core. A failure leaves the driver's default.
fn set_scheduling() {
    use crate::knobs::GpuSync;
    use sys::CUctx_flags_enum as F;
    let flag = match crate::knobs::get().gpu_sync.or(GpuSync::Blocking) {
        GpuSync::Spin => F::CU_CTX_SCHED_SPIN,
        GpuSync::Yield => F::CU_CTX_SCHED_YIELD,
        GpuSync::Auto => F::CU_CTX_SCHED_AUTO,
        GpuSync::Blocking => F::CU_CTX_SCHED_BLOCKING_SYNC,
    };
    let mut dev: sys::CUdevice = 0;
    // SAFETY: plain driver calls with a valid out-pointer; cuInit may be
    // called more than once.
    unsafe {
        if sys::cuInit(0).result().is_ok() && sys::cuDeviceGet(&mut dev, 0).result().is_ok() {
            let _ = sys::cuDevicePrimaryCtxSetFlags_v2(dev, flag as u32);
        }
    }
}

/// The loaded kernels (shared by every lane of a device).
#[derive(Clone)]
struct Functions {
    prefix_full: CudaFunction,
    prefix_short: CudaFunction,
    bm: CudaFunction,
    scan: CudaFunction,
    compact: CudaFunction,
    multi: CudaFunction,
    tally: CudaFunction,
    backread: CudaFunction,
}

/// What a chunk is searched for.
#[derive(Clone, Copy)]
pub(crate) enum Needle<'a> {
    One(&'a [u8], Kernel),
    Many(&'a MultiTables),
}

/// The `multi` kernel's tables on the GPU.
struct MultiBufs {
    set1: Buf<u32>,
    set2: Buf<u32>,
    set3: Buf<u32>,
    filter: Buf<u32>,
    keys: Buf<u32>,
    slots: Buf<u32>,
    first: Buf<u32>,
    starts: Buf<u32>,
    bytes: Buf<u8>,
    links: Buf<u32>,
    /// The `MultiTables::id` of the tables held.
    loaded: Option<u64>,
}

impl Default for MultiBufs {
    fn default() -> Self {
        MultiBufs {
            set1: Buf::new(),
            set2: Buf::new(),
            set3: Buf::new(),
            filter: Buf::new(),
            keys: Buf::new(),
            slots: Buf::new(),
            first: Buf::new(),
            starts: Buf::new(),
            bytes: Buf::new(),
            links: Buf::new(),
            loaded: None,
        }
    }
}

/// A grow-only device buffer.
struct Buf<T> {
    slice: Option<CudaSlice<T>>,
}

impl<T: DeviceRepr> Buf<T> {
    fn new() -> Self {
        Buf { slice: None }
    }

    /// The buffer, reallocated (contents lost) when it holds fewer than `len` elements.
    fn ensure(
        &mut self,
        stream: &Arc<CudaStream>,
        len: usize,
        what: &str,
    ) -> Result<&mut CudaSlice<T>, GpuError> {
        let len = len.max(1);
        if self.slice.as_ref().is_none_or(|s| s.len() < len) {
            self.slice = None; // free first: the old one may be most of the card
                               // SAFETY: the memory is uninitialised; every kernel writes each
                               // element before any read of it (see the launch contracts), and the
                               // host zeroes the text buffer's tail itself.
            let s = unsafe { stream.alloc::<T>(len) }.map_err(cuda(what))?;
            self.slice = Some(s);
        }
        self.slice
            .as_mut()
            .ok_or_else(|| GpuError::Cuda(format!("{what}: buffer missing")))
    }

    fn get(&self, what: &str) -> Result<&CudaSlice<T>, GpuError> {
        self.slice
            .as_ref()
            .ok_or_else(|| GpuError::Cuda(format!("{what}: buffer missing")))
    }
}

/// Copies `data` into `buf` (grown as needed) on `stream`. The caller
/// synchronises the stream before `data` goes away, unless `data` is
/// pageable memory (the driver has staged it when the copy returns).
fn up<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    buf: &mut Buf<T>,
    data: &[T],
) -> Result<(), GpuError> {
    let dst = ptr(buf.ensure(stream, data.len(), "allocating tables")?, stream);
    // SAFETY: the buffer holds at least data.len() elements; callers
    // synchronise the stream before `data` can go away, or pass pageable
    // memory, which the driver has staged when the call returns.
    unsafe { result::memcpy_htod_async(dst, data, stream.cu_stream()) }
        .map_err(cuda("copying tables"))
}

fn ptr<T>(s: &CudaSlice<T>, stream: &CudaStream) -> sys::CUdeviceptr {
    // Event tracking is off, so the returned guard records nothing.
    s.device_ptr(stream).0
}

/// Host memory registered with the driver (page-locked, DMA-able).
pub(crate) struct Registered {
    map: memmap2::MmapMut,
    ctx: Arc<CudaContext>,
}

impl Registered {
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u8 {
        self.map.as_mut_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        // Errors here have nowhere to go; the mapping is freed either way.
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: registered in alloc_host; every copy that read it was
            // waited for by its lane before the memory was handed back.
            let _ = unsafe { sys::cuMemHostUnregister(self.map.as_mut_ptr().cast()) };
        }
    }
}

/// Which shape the results came back in, with the data.
pub(crate) enum Found {
    Offsets(Vec<u64>),
    Bitmap(Vec<u64>, usize),
    /// More matches than the caller wanted shipped (`search_chunk`).
    Dense(u64),
    /// Lines then matches per file of the chunk (`search_chunk` with a
    /// `Tally`).
    Counts(Vec<u32>),
}

pub(crate) struct Device {
    stream: Arc<CudaStream>,
    f: Functions,
    pub(crate) name: String,
    pub(crate) sm_count: u32,
    pub(crate) total_mem: usize,
    pub(crate) cc: (i32, i32),
    text: Buf<u8>,
    bitmap: Buf<u32>,
    counts: Buf<u32>,
    tile_offsets: Buf<u64>,
    total: Buf<u64>,
    out: Buf<u64>,
    pat: Buf<u8>,
    bad: Buf<i32>,
    gs: Buf<i32>,
    /// The `multi` kernel's tables, and which set they hold (its address).
    multi: MultiBufs,
    /// The `tally` kernel's file ranges and results.
    tally_starts: Buf<u64>,
    tally_ends: Buf<u64>,
    tally_counts: Buf<u32>,
    /// The back-read's pair table, and the scheme it holds.
    pairs: Buf<u32>,
    pairs_loaded: Option<Scheme>,
    /// Two write-combined staging buffers, allocated on first upload.
    staging: Vec<(PinnedHostSlice<u8>, CudaEvent)>,
    /// Timing events of `search_chunk`: before the copy, after it, after the kernel.
    events: Option<[CudaEvent; 3]>,
    /// Bytes of text resident in `text` (valid for the bench's resident runs).
    resident: u64,
    pub(crate) bm_portion: u32,
    /// Threads filling the pinned staging buffers; 0 = pageable copy by the driver.
    pub(crate) upload_threads: usize,
    /// Longest text searched in one pass; longer texts go in segments
    /// (a multiple of TILE_BYTES; see GpuEngine::find_literal_with).
    pub(crate) max_segment: u64,
    /// Some(true): always ship offsets; Some(false): always the bitmap (bench).
    pub(crate) force_offsets: Option<bool>,
    /// Pinned (not write-combined: the host reads it) readback buffer.
    readback: Option<PinnedHostSlice<u64>>,
    pub(crate) timings: Timings,
}

impl Drop for Device {
    fn drop(&mut self) {
        // Pinned buffers may still be read by a DMA after an error path:
        // wait before anything is freed. Errors here have nowhere to go.
        let _ = self.stream.synchronize();
    }
}

impl Device {
    pub(crate) fn open() -> Result<Device, GpuError> {
        set_scheduling();
        let ctx = CudaContext::new(0).map_err(unavailable("no usable CUDA device 0"))?;
        // SAFETY: every buffer is used on `stream` alone, which orders all
        // work; the stream is synchronised before host memory handed to an
        // async copy is reused or freed (staging events, Drop above).
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(unavailable("creating a stream"))?;
        let module = ctx
            .load_module(Ptx::from_src(kernels::LITERAL_PTX))
            .map_err(unavailable("loading the kernels' PTX"))?;
        let f = |name: &str| module.load_function(name).map_err(unavailable(name));
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let sm_count = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(unavailable("reading the SM count"))?
            .max(1) as u32;
        let total_mem = ctx.total_mem().unwrap_or(0);
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let f = Functions {
            prefix_full: f("prefix4_full")?,
            prefix_short: f("prefix4_short")?,
            bm: f("bm")?,
            scan: f("scan_counts")?,
            compact: f("compact")?,
            multi: f("multi")?,
            tally: f("tally")?,
            backread: f("backread")?,
        };
        Ok(Device::on(stream, f, name, sm_count, total_mem, cc, None))
    }

    /// A device on `stream` with empty buffers and default settings.
    fn on(
        stream: Arc<CudaStream>,
        f: Functions,
        name: String,
        sm_count: u32,
        total_mem: usize,
        cc: (i32, i32),
        events: Option<[CudaEvent; 3]>,
    ) -> Device {
        Device {
            stream,
            f,
            name,
            sm_count,
            total_mem,
            cc,
            text: Buf::new(),
            bitmap: Buf::new(),
            counts: Buf::new(),
            tile_offsets: Buf::new(),
            total: Buf::new(),
            out: Buf::new(),
            pat: Buf::new(),
            bad: Buf::new(),
            gs: Buf::new(),
            multi: MultiBufs::default(),
            tally_starts: Buf::new(),
            tally_ends: Buf::new(),
            tally_counts: Buf::new(),
            pairs: Buf::new(),
            pairs_loaded: None,
            staging: Vec::new(),
            events,
            resident: 0,
            bm_portion: kernels::BM_DEFAULT_PORTION,
            upload_threads: std::thread::available_parallelism()
                .map_or(1, |p| p.get())
                .min(MAX_DEFAULT_UPLOAD_THREADS),
            force_offsets: None,
            readback: None,
            timings: Timings::default(),
            max_segment: kernels::default_segment(total_mem as u64),
        }
    }

    /// A second handle on the same GPU: its own stream and buffers, the
    /// same loaded kernels and settings. Searches on different lanes, each
    /// driven by its own thread, overlap (copy on one, kernel on another).
    pub(crate) fn lane(&self) -> Result<Device, GpuError> {
        let ctx = self.stream.context().clone();
        let stream = ctx.new_stream().map_err(cuda("creating a stream"))?;
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let ev = || ctx.new_event(timing).map_err(cuda("creating an event"));
        let events = Some([ev()?, ev()?, ev()?]);
        let (name, f) = (self.name.clone(), self.f.clone());
        let mut dev = Device::on(
            stream,
            f,
            name,
            self.sm_count,
            self.total_mem,
            self.cc,
            events,
        );
        // Settings changed on this device carry over.
        dev.bm_portion = self.bm_portion;
        dev.upload_threads = self.upload_threads;
        dev.max_segment = self.max_segment;
        Ok(dev)
    }

    /// `bytes` of page-locked host memory: anonymous memory faulted in by
    /// `threads` threads, then registered with the driver. On the H100 host
    /// `cuMemHostAlloc` pinned 1 GiB at 2 GB/s on one thread, which stalled
    /// the pipeline's start; faulting in parallel and registering is faster.
    pub(crate) fn alloc_host(&self, bytes: usize, threads: usize) -> Result<Registered, GpuError> {
        let mut map = memmap2::MmapMut::map_anon(bytes.max(1))
            .map_err(|e| GpuError::Cuda(format!("allocating host memory: {e}")))?;
        let per = map.len().div_ceil(threads.max(1)).next_multiple_of(4096);
        std::thread::scope(|s| {
            for part in map.chunks_mut(per) {
                s.spawn(move || part.iter_mut().step_by(4096).for_each(|b| *b = 0));
            }
        });
        let ctx = self.stream.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding the context"))?;
        // SAFETY: the range is one live mapping we own; it is unregistered
        // (Drop) before it is unmapped.
        unsafe { sys::cuMemHostRegister_v2(map.as_mut_ptr().cast(), map.len(), 0) }
            .result()
            .map_err(cuda("registering host memory"))?;
        Ok(Registered { map, ctx })
    }

    /// Searches one chunk: copies `text` (pinned memory for an asynchronous
    /// copy, or pageable) to the GPU, runs the kernel (and the back-read,
    /// which drops candidates inside characters) and counts; with a
    /// `tally`, returns one count per file (unless a line is too long to
    /// walk); else ships the match starts back unless there are more than
    /// `cap`. Returns when the GPU has finished reading `text`.
    pub(crate) fn search_chunk(
        &mut self,
        text: &[u8],
        needle: Needle,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<Found, GpuError> {
        let n = text.len() as u64;
        let shortest = match needle {
            Needle::One(pat, _) => pat.len() as u64,
            Needle::Many(t) => u64::from(t.minlen),
        };
        let none = || match tally {
            Some(t) => Found::Counts(vec![0; 2 * t.starts.len()]),
            None => Found::Offsets(Vec::new()),
        };
        if n < shortest {
            return Ok(none());
        }
        self.reserve(n)?;
        let base = ptr(self.text.get("upload")?, &self.stream);
        let record = |ev: Option<&CudaEvent>, stream: &Arc<CudaStream>| -> Result<(), GpuError> {
            ev.map_or(Ok(()), |e| {
                e.record(stream).map_err(cuda("recording an event"))
            })
        };
        record(self.events.as_ref().map(|e| &e[0]), &self.stream)?;
        // SAFETY: dst holds n bytes (reserve); `text` stays alive and
        // unchanged until this function returns, and count() below
        // synchronises the stream, so the copy has finished reading it.
        unsafe { result::memcpy_htod_async(base, text, self.stream.cu_stream()) }
            .map_err(cuda("copying text to the GPU"))?;
        self.zero_tail(n)?;
        self.resident = n;
        record(self.events.as_ref().map(|e| &e[1]), &self.stream)?;
        match needle {
            Needle::One(pat, kernel) => {
                let ran = kernels::effective(kernel, pat.len());
                self.load_pattern(pat, ran)?;
                self.launch_search(pat, ran)?;
            }
            Needle::Many(t) => {
                self.load_multi(t)?;
                self.launch_multi(t)?;
            }
        }
        if let Some(b) = backread {
            self.launch_backread(b)?;
        }
        record(self.events.as_ref().map(|e| &e[2]), &self.stream)?;
        let count = self.count()?;
        if let Some([a, b, c]) = &self.events {
            self.timings.upload_ms += f64::from(a.elapsed_ms(b).unwrap_or(0.0));
            self.timings.search_ms += f64::from(b.elapsed_ms(c).unwrap_or(0.0));
        }
        self.timings.segments += 1;
        if count == 0 {
            return Ok(none());
        }
        if let Some(t) = tally {
            let started = std::time::Instant::now();
            let counts = self.tally(t, needle)?;
            self.timings.readback_ms += started.elapsed().as_secs_f64() * 1e3;
            if let Some(c) = counts {
                return Ok(Found::Counts(c));
            }
        }
        if count > cap {
            return Ok(Found::Dense(count));
        }
        let t = std::time::Instant::now();
        let found = self.fetch(n, count)?;
        self.timings.readback_ms += t.elapsed().as_secs_f64() * 1e3;
        Ok(found)
    }

    /// Runs `tally` over the resident text and bitmap that `needle`'s
    /// search left:
    /// lines, then matches, per file of `t`; `None` when a walk gave up (a
    /// line over `TALLY_REACH`).
    fn tally(&mut self, t: &Tally, needle: Needle) -> Result<Option<Vec<u32>>, GpuError> {
        let pieces = t.starts.len();
        if pieces == 0 || t.ends.len() != pieces {
            return Ok(Some(Vec::new()));
        }
        up(&self.stream, &mut self.tally_starts, &t.starts)?;
        up(&self.stream, &mut self.tally_ends, &t.ends)?;
        // Lines and matches per file, then the gave-up flag.
        let len = 2 * pieces + 1;
        let out = self
            .tally_counts
            .ensure(&self.stream, len, "allocating tallies")?;
        let out_ptr = ptr(out, &self.stream);
        // SAFETY: the buffer holds `len` u32s (ensure above).
        unsafe { result::memset_d8_async(out_ptr, 0, len * 4, self.stream.cu_stream()) }
            .map_err(cuda("clearing tallies"))?;
        let n = self.resident;
        let words = n.div_ceil(32);
        let cfg = LaunchConfig {
            grid_dim: (
                kernels::grid_for(words.div_ceil(256), self.sm_count * 16),
                1,
                1,
            ),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let (pieces32, term, reach) = (pieces as u32, u32::from(t.term), TALLY_REACH);
        let gave_up = out_ptr + 2 * pieces as u64 * 4;
        let chain = u32::from(t.count == MatchCount::NonOverlapping);
        // Match lengths for chains: the literal's, or the set's tables.
        let (fixed, classes, slot_log2, tables) = match needle {
            _ if chain == 0 => (0, 0, 1, [0; 8]),
            Needle::One(pat, _) => (pat.len() as u32, 0, 1, [0; 8]),
            Needle::Many(mt) => {
                let m = &self.multi;
                let p = |b: &Buf<u32>| b.get("tally").map(|s| ptr(s, &self.stream));
                let tables = [
                    p(&m.set2)?,
                    p(&m.set3)?,
                    p(&m.keys)?,
                    p(&m.slots)?,
                    p(&m.first)?,
                    p(&m.starts)?,
                    ptr(m.bytes.get("tally")?, &self.stream),
                    p(&m.links)?,
                ];
                (0, mt.classes, mt.slot_log2, tables)
            }
        };
        let [set2, set3, keys, slots, first, pstarts, bytes, links] = tables;
        let mut b = self.stream.launch_builder(&self.f.tally);
        b.arg(self.text.get("tally")?)
            .arg(&n)
            .arg(self.bitmap.get("tally")?)
            .arg(self.tally_starts.get("tally")?)
            .arg(self.tally_ends.get("tally")?)
            .arg(&pieces32)
            .arg(&term)
            .arg(&reach)
            .arg(&chain)
            .arg(&fixed)
            .arg(&classes)
            .arg(&set2)
            .arg(&set3)
            .arg(&keys)
            .arg(&slots)
            .arg(&slot_log2)
            .arg(&first)
            .arg(&pstarts)
            .arg(&bytes)
            .arg(&links)
            .arg(&out_ptr)
            .arg(&gave_up);
        // SAFETY: tally's contract (literal.cu): text and bitmap hold the
        // resident n bytes and their match bits (the search just ran);
        // starts and ends hold `pieces` ascending disjoint ranges (Tally);
        // counts and the flag were zeroed above; the tables, read only for
        // chains of a set, are the ones `multi` searched with (load_multi).
        unsafe { b.launch(cfg) }.map_err(cuda("launching tally"))?;
        let mut host = vec![0u32; len];
        // SAFETY: the device buffer holds `len` u32s; the copy is
        // waited for before `host` is read, and `t`'s vectors outlive it.
        unsafe { result::memcpy_dtoh_async(&mut host[..], out_ptr, self.stream.cu_stream()) }
            .map_err(cuda("reading tallies"))?;
        self.stream.synchronize().map_err(cuda("tallying"))?;
        let gave_up = host.pop().unwrap_or(1) != 0;
        Ok((!gave_up).then_some(host))
    }

    /// Uploads `t` unless these very tables are loaded already (the
    /// pipeline keeps one set for the whole run).
    fn load_multi(&mut self, t: &MultiTables) -> Result<(), GpuError> {
        if self.multi.loaded == Some(t.id) {
            return Ok(());
        }
        self.multi.loaded = None;
        let m = &mut self.multi;
        up(&self.stream, &mut m.set1, &t.set1)?;
        up(&self.stream, &mut m.set2, &t.set2)?;
        up(&self.stream, &mut m.set3, &t.set3)?;
        up(&self.stream, &mut m.filter, &t.filter)?;
        up(&self.stream, &mut m.keys, &t.keys)?;
        up(&self.stream, &mut m.slots, &t.slots)?;
        up(&self.stream, &mut m.first, &t.first)?;
        up(&self.stream, &mut m.starts, &t.starts)?;
        up(&self.stream, &mut m.bytes, &t.bytes)?;
        up(&self.stream, &mut m.links, &t.links)?;
        self.stream.synchronize().map_err(cuda("copying tables"))?;
        self.multi.loaded = Some(t.id);
        Ok(())
    }

    /// Launches `multi` over the resident text with the loaded tables.
    fn launch_multi(&mut self, t: &MultiTables) -> Result<(), GpuError> {
        let n = self.resident;
        let tiles = kernels::tiles_for(n);
        let m = &self.multi;
        let cfg = LaunchConfig {
            // Fewer blocks than prefix4: each copies 40 KiB of tables first.
            grid_dim: (kernels::grid_for(tiles, self.sm_count * 4), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: multi::SHARED_BYTES,
        };
        let mut b = self.stream.launch_builder(&self.f.multi);
        b.arg(self.text.get("multi")?)
            .arg(&n)
            .arg(&t.classes)
            .arg(&t.minlen);
        b.arg(m.set1.get("multi")?)
            .arg(m.set2.get("multi")?)
            .arg(m.set3.get("multi")?)
            .arg(m.filter.get("multi")?)
            .arg(m.keys.get("multi")?)
            .arg(m.slots.get("multi")?)
            .arg(&t.slot_log2)
            .arg(m.first.get("multi")?)
            .arg(m.starts.get("multi")?)
            .arg(m.bytes.get("multi")?)
            .arg(m.links.get("multi")?);
        b.arg(self.bitmap.get("multi")?)
            .arg(self.counts.get("multi")?)
            .arg(&tiles);
        // SAFETY: arguments match multi's launch contract (literal.cu): the
        // tables of `t` (MultiTables::new: sets of SET*_WORDS and
        // FILTER_WORDS words, a key table of 2^slot_log2 slots at most half
        // full, keys + 1 firsts, starts into bytes, one link per longer
        // pattern) were uploaded by load_multi; text, bitmap and counts
        // sized by reserve(n).
        unsafe { b.launch(cfg) }.map_err(cuda("launching multi"))?;
        Ok(())
    }

    /// Launches `backread` over the resident text and the bitmap a search
    /// kernel just filled (uploading the scheme's pair table when needed):
    /// clears candidates inside characters and rewrites the tile counts.
    fn launch_backread(&mut self, b: Backread) -> Result<(), GpuError> {
        if self.pairs_loaded != Some(b.scheme) {
            self.pairs_loaded = None;
            // The table is on the stack, pageable: staged when `up` returns.
            up(&self.stream, &mut self.pairs, &b.scheme.ascii_pair_words())?;
            self.pairs_loaded = Some(b.scheme);
        }
        let n = self.resident;
        let tiles = kernels::tiles_for(n);
        let scheme = backread::scheme_id(b.scheme);
        let start = i32::from(b.start_is_boundary);
        let cfg = LaunchConfig {
            grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut l = self.stream.launch_builder(&self.f.backread);
        l.arg(self.text.get("backread")?)
            .arg(&n)
            .arg(self.bitmap.get("backread")?)
            .arg(self.counts.get("backread")?)
            .arg(&tiles)
            .arg(&scheme)
            .arg(self.pairs.get("backread")?)
            .arg(&start);
        // SAFETY: arguments match backread's launch contract (literal.cu):
        // block of BLOCK = 256 threads; text holds n bytes, bitmap
        // tiles*TILE_WORDS words (16-byte aligned: a fresh allocation, tiles
        // of 4 KiB) filled by the search kernel just launched on this
        // stream, counts `tiles`, pairs 512 words (ascii_pair_words); scheme is
        // 0..4 (scheme_id).
        unsafe { l.launch(cfg) }.map_err(cuda("launching backread"))?;
        Ok(())
    }

    /// Makes room for `n` text bytes and the per-tile buffers.
    fn reserve(&mut self, n: u64) -> Result<(), GpuError> {
        let tiles = kernels::tiles_for(n);
        let too_big = |_| GpuError::Cuda("text too large for this platform".into());
        let cap = usize::try_from(kernels::text_capacity(n)).map_err(too_big)?;
        let words = usize::try_from(tiles * TILE_WORDS).map_err(too_big)?;
        let tiles_us = usize::try_from(tiles).map_err(too_big)?;
        self.text
            .ensure(&self.stream, cap, "allocating the text buffer")?;
        self.bitmap
            .ensure(&self.stream, words, "allocating the bitmap")?;
        self.counts
            .ensure(&self.stream, tiles_us, "allocating tile counts")?;
        self.tile_offsets
            .ensure(&self.stream, tiles_us, "allocating tile offsets")?;
        self.total.ensure(&self.stream, 1, "allocating the total")?;
        Ok(())
    }

    /// Copies `src` to device text offset `at`: through the two pinned
    /// staging buffers, filled by `upload_threads` threads, or straight from
    /// pageable memory by the driver when `upload_threads` is 0.
    fn upload_at(&mut self, src: &[u8], at: u64) -> Result<(), GpuError> {
        let base = ptr(self.text.get("upload")?, &self.stream);
        if self.upload_threads == 0 {
            // SAFETY: dst is inside the text allocation (reserve() sized it
            // for `at + src.len()`); a copy from pageable memory has consumed
            // its source when the call returns.
            return unsafe { result::memcpy_htod_async(base + at, src, self.stream.cu_stream()) }
                .map_err(cuda("copying text to the GPU"));
        }
        let threads = self.upload_threads;
        if self.staging.is_empty() {
            let ctx = self.stream.context().clone();
            for _ in 0..2 {
                // SAFETY: the contents are uninitialised bytes; they are only
                // read by DMA after the host wrote them (below).
                let buf = unsafe { ctx.alloc_pinned::<u8>(STAGE_BYTES) }
                    .map_err(cuda("allocating pinned memory"))?;
                let ev = ctx.new_event(None).map_err(cuda("creating an event"))?;
                self.staging.push((buf, ev));
            }
        }
        let mut off = at;
        for (k, chunk) in src.chunks(STAGE_BYTES).enumerate() {
            let (buf, ev) = &mut self.staging[k % 2];
            // The DMA that last read this buffer must be done before we overwrite it.
            ev.synchronize()
                .map_err(cuda("waiting for a staging buffer"))?;
            let host = buf.as_mut_slice().map_err(cuda("staging buffer"))?;
            let host = &mut host[..chunk.len()];
            parallel_copy(host, chunk, threads);
            // SAFETY: dst is inside the text allocation (reserve() sized it to
            // hold `at + src.len()` plus padding); `host` is pinned memory we
            // own, not written again until `ev` (recorded right after) fires,
            // and not freed before the stream is synchronised (Drop).
            unsafe { result::memcpy_htod_async(base + off, &*host, self.stream.cu_stream()) }
                .map_err(cuda("copying text to the GPU"))?;
            ev.record(&self.stream)
                .map_err(cuda("recording an event"))?;
            off += chunk.len() as u64;
        }
        Ok(())
    }

    /// Zeroes the text buffer from `n` to the end of the last tile plus padding.
    fn zero_tail(&mut self, n: u64) -> Result<(), GpuError> {
        let text = self.text.get("zero tail")?;
        let end = kernels::text_capacity(n);
        let base = ptr(text, &self.stream);
        // SAFETY: [n, end) lies inside the allocation, sized by reserve(n).
        unsafe { result::memset_d8_async(base + n, 0, (end - n) as usize, self.stream.cu_stream()) }
            .map_err(cuda("clearing the text tail"))
    }

    /// Uploads `text` as the resident text.
    pub(crate) fn load_text(&mut self, text: &[u8]) -> Result<(), GpuError> {
        let t = std::time::Instant::now();
        let n = text.len() as u64;
        self.reserve(n)?;
        self.upload_at(text, 0)?;
        self.zero_tail(n)?;
        self.resident = n;
        self.stream
            .synchronize()
            .map_err(cuda("uploading the text"))?;
        self.timings.upload_ms += t.elapsed().as_secs_f64() * 1e3;
        self.timings.segments += 1;
        Ok(())
    }

    /// Copies `len` u64s from device memory at `src` into a new vector:
    /// straight for small results, else through the pinned readback buffer
    /// (a pageable readback was the slow part of dense searches).
    fn read_back(
        &mut self,
        src: sys::CUdeviceptr,
        len: usize,
        what: &str,
    ) -> Result<Vec<u64>, GpuError> {
        let mut v = vec![0u64; len];
        if len <= (1 << 17) {
            // SAFETY: `src` holds at least `len` u64s (callers); the copy is
            // waited for before `v` is touched.
            unsafe { result::memcpy_dtoh_async(&mut v[..], src, self.stream.cu_stream()) }
                .map_err(cuda(what))?;
            self.stream.synchronize().map_err(cuda(what))?;
            return Ok(v);
        }
        if self.readback.is_none() {
            let ctx = self.stream.context().clone();
            // SAFETY: uninitialised u64s, only read after a DMA wrote them.
            let buf = unsafe { ctx.alloc_pinned_with_flags::<u64>(READ_CHUNK_WORDS, 0) }
                .map_err(cuda("allocating pinned memory"))?;
            self.readback = Some(buf);
        }
        let threads = self.upload_threads.max(1);
        let buf = self
            .readback
            .as_mut()
            .ok_or_else(|| GpuError::Cuda("readback buffer missing".into()))?;
        let mut done = 0usize;
        for chunk in v.chunks_mut(READ_CHUNK_WORDS) {
            let host = buf.as_mut_slice().map_err(cuda(what))?;
            let host = &mut host[..chunk.len()];
            // SAFETY: src + done*8 .. + chunk.len()*8 lies inside the device
            // buffer (callers); `host` is pinned memory we own, read only after
            // the synchronize below.
            unsafe {
                result::memcpy_dtoh_async(
                    &mut *host,
                    src + (done as u64) * 8,
                    self.stream.cu_stream(),
                )
            }
            .map_err(cuda(what))?;
            self.stream.synchronize().map_err(cuda(what))?;
            parallel_copy(chunk, host, threads);
            done += chunk.len();
        }
        Ok(v)
    }

    /// Makes `block` repeated `copies` times the resident text (bench only:
    /// one upload, then device-to-device copies).
    #[cfg(feature = "bench-tools")]
    pub(crate) fn load_repeated(&mut self, block: &[u8], copies: u64) -> Result<u64, GpuError> {
        let len = block.len() as u64;
        let n = len
            .checked_mul(copies)
            .ok_or_else(|| GpuError::Cuda("resident text too large".into()))?;
        self.reserve(n)?;
        self.upload_at(block, 0)?;
        let base = ptr(self.text.get("replicate")?, &self.stream);
        for c in 1..copies {
            // SAFETY: both ranges lie inside the allocation sized for n bytes
            // and do not overlap (copy c starts where copy c-1 ends).
            unsafe {
                result::memcpy_dtod_async(
                    base + c * len,
                    base,
                    len as usize,
                    self.stream.cu_stream(),
                )
            }
            .map_err(cuda("replicating the text"))?;
        }
        self.zero_tail(n)?;
        self.resident = n;
        self.stream.synchronize().map_err(cuda("synchronising"))?;
        Ok(n)
    }

    /// Uploads the pattern (and Boyer-Moore's tables when `kernel` needs them).
    fn load_pattern(&mut self, pat: &[u8], kernel: Kernel) -> Result<(), GpuError> {
        let dst = self
            .pat
            .ensure(&self.stream, pat.len(), "allocating the pattern")?;
        let p = ptr(dst, &self.stream);
        // SAFETY: the allocation holds at least pat.len() bytes; a copy from
        // pageable memory has read its source when the call returns.
        unsafe { result::memcpy_htod_async(p, pat, self.stream.cu_stream()) }
            .map_err(cuda("copying the pattern"))?;
        if kernel == Kernel::BoyerMoore {
            let bad = tables::bad_char(pat);
            let gs = tables::good_suffix(pat);
            let b = ptr(
                self.bad.ensure(&self.stream, 256, "allocating tables")?,
                &self.stream,
            );
            let g = ptr(
                self.gs
                    .ensure(&self.stream, gs.len(), "allocating tables")?,
                &self.stream,
            );
            // SAFETY: as above; the buffers hold 256 and gs.len() i32s.
            unsafe {
                result::memcpy_htod_async(b, &bad[..], self.stream.cu_stream())
                    .map_err(cuda("copying tables"))?;
                result::memcpy_htod_async(g, &gs[..], self.stream.cu_stream())
                    .map_err(cuda("copying tables"))?;
            }
        }
        Ok(())
    }

    /// Launches the search kernel over the resident text; fills the bitmap
    /// and the per-tile counts. Returns the kernel that ran.
    fn launch_search(&mut self, pat: &[u8], kernel: Kernel) -> Result<Kernel, GpuError> {
        let n = self.resident;
        let m = pat.len();
        let kernel = kernels::effective(kernel, m);
        let m32 =
            u32::try_from(m).map_err(|_| GpuError::Cuda("pattern longer than 4 GiB".into()))?;
        let tiles = kernels::tiles_for(n);
        let text = self.text.get("search")?;
        let patb = self.pat.get("search")?;
        let bitmap = self.bitmap.get("search")?;
        let counts = self.counts.get("search")?;
        match kernel {
            Kernel::Prefix4 => {
                let (prefix, mask) = kernels::prefix_word(pat);
                let f = if m >= 4 {
                    &self.f.prefix_full
                } else {
                    &self.f.prefix_short
                };
                let cfg = LaunchConfig {
                    grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
                    block_dim: (BLOCK, 1, 1),
                    shared_mem_bytes: 0,
                };
                let mut b = self.stream.launch_builder(f);
                b.arg(text)
                    .arg(&n)
                    .arg(patb)
                    .arg(&m32)
                    .arg(&prefix)
                    .arg(&mask);
                b.arg(bitmap).arg(counts).arg(&tiles);
                // SAFETY: arguments match prefix4_*'s launch contract
                // (literal.cu): text holds tiles*TILE_BYTES + PAD_BYTES bytes,
                // pat m bytes, bitmap tiles*TILE_WORDS words, counts tiles.
                unsafe { b.launch(cfg) }.map_err(cuda("launching prefix4"))?;
            }
            Kernel::BoyerMoore => {
                let portion = self.bm_portion;
                let bad = self.bad.get("search")?;
                let gs = self.gs.get("search")?;
                let cfg = LaunchConfig {
                    grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
                    block_dim: ((TILE_BYTES / u64::from(portion)) as u32, 1, 1),
                    shared_mem_bytes: kernels::bm_shared_bytes(m),
                };
                let mut b = self.stream.launch_builder(&self.f.bm);
                b.arg(text)
                    .arg(&n)
                    .arg(patb)
                    .arg(&m32)
                    .arg(bad)
                    .arg(gs)
                    .arg(&portion);
                b.arg(bitmap).arg(counts).arg(&tiles);
                // SAFETY: arguments match bm's launch contract (literal.cu):
                // m <= BM_MAX_LEN (effective()), portion valid (set_portion),
                // tables of 256 and m i32s uploaded by load_pattern.
                unsafe { b.launch(cfg) }.map_err(cuda("launching boyer-moore"))?;
            }
        }
        Ok(kernel)
    }

    /// Scans the tile counts; returns the total number of matches.
    fn count(&mut self) -> Result<u64, GpuError> {
        let tiles = kernels::tiles_for(self.resident);
        let counts = self.counts.get("count")?;
        let offs = self.tile_offsets.get("count")?;
        let total = self.total.get("count")?;
        let cfg = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (1024, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = self.stream.launch_builder(&self.f.scan);
        b.arg(counts).arg(&tiles).arg(offs).arg(total);
        // SAFETY: scan_counts' contract: counts and offsets hold `tiles` entries, total one.
        unsafe { b.launch(cfg) }.map_err(cuda("launching scan_counts"))?;
        let mut host = [0u64; 1];
        // SAFETY: `total` holds one u64; the copy is waited for just below.
        unsafe {
            result::memcpy_dtoh_async(
                &mut host[..],
                ptr(total, &self.stream),
                self.stream.cu_stream(),
            )
        }
        .map_err(cuda("reading the match count"))?;
        self.stream.synchronize().map_err(cuda("searching"))?;
        Ok(host[0])
    }

    /// Search the resident text; results in the shape that costs fewer bytes.
    pub(crate) fn search(
        &mut self,
        pat: &[u8],
        kernel: Kernel,
    ) -> Result<(Kernel, Found), GpuError> {
        let n = self.resident;
        let t = std::time::Instant::now();
        let ran = kernels::effective(kernel, pat.len());
        self.load_pattern(pat, ran)?;
        self.launch_search(pat, ran)?;
        let count = self.count()?;
        self.timings.search_ms += t.elapsed().as_secs_f64() * 1e3;
        let t = std::time::Instant::now();
        let found = self.fetch(n, count)?;
        self.timings.readback_ms += t.elapsed().as_secs_f64() * 1e3;
        Ok((ran, found))
    }

    /// Brings the `count` matches of the last search home, as offsets or bitmap.
    fn fetch(&mut self, n: u64, count: u64) -> Result<Found, GpuError> {
        let count_us =
            usize::try_from(count).map_err(|_| GpuError::Cuda("too many matches".into()))?;
        if count == 0 {
            return Ok(Found::Offsets(Vec::new()));
        }
        if self
            .force_offsets
            .unwrap_or_else(|| kernels::ship_offsets(count, n))
        {
            let tiles = kernels::tiles_for(n);
            let out = self
                .out
                .ensure(&self.stream, count_us, "allocating offsets")?;
            let out_ptr = ptr(out, &self.stream);
            let bitmap = self.bitmap.get("compact")?;
            let offs = self.tile_offsets.get("compact")?;
            let cfg = LaunchConfig {
                grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
                block_dim: (BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            let out = self.out.get("compact")?;
            let mut b = self.stream.launch_builder(&self.f.compact);
            b.arg(bitmap).arg(offs).arg(&tiles).arg(out);
            // SAFETY: compact's contract: bitmap of tiles*TILE_WORDS words,
            // offsets of `tiles` entries, out holds `count` u64s (the total
            // the same bitmap's counts add up to).
            unsafe { b.launch(cfg) }.map_err(cuda("launching compact"))?;
            // out holds at least count u64s.
            let v = self.read_back(out_ptr, count_us, "reading offsets")?;
            Ok(Found::Offsets(v))
        } else {
            let words = usize::try_from(n.div_ceil(64))
                .map_err(|_| GpuError::Cuda("text too large".into()))?;
            // The bitmap holds tiles*TILE_WORDS u32 words, at least
            // 2*ceil(n/64) (kernels::tests::launch_arithmetic).
            let src = ptr(self.bitmap.get("readback")?, &self.stream);
            let v = self.read_back(src, words, "reading the bitmap")?;
            Ok(Found::Bitmap(v, count_us))
        }
    }

    /// Device-to-device copy of half the resident text onto the other half
    /// (unchanged content when the text is a repeated block and each half
    /// holds whole copies), `reps` times; returns the median GB/s counting
    /// bytes read plus bytes written: the memory-bandwidth ceiling.
    #[cfg(feature = "bench-tools")]
    pub(crate) fn time_copy(&mut self, reps: usize) -> Result<f64, GpuError> {
        let half = (self.resident / 2) & !255;
        if half == 0 {
            return Err(GpuError::Cuda("no resident text".into()));
        }
        let base = ptr(self.text.get("copy")?, &self.stream);
        let ctx = self.stream.context().clone();
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = ctx.new_event(flags).map_err(cuda("event"))?;
        let stop = ctx.new_event(flags).map_err(cuda("event"))?;
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps.max(1) + 1 {
            start.record(&self.stream).map_err(cuda("event"))?;
            // SAFETY: [0, half) and [half, 2*half) are disjoint and inside the
            // resident text's allocation.
            unsafe {
                result::memcpy_dtod_async(base + half, base, half as usize, self.stream.cu_stream())
            }
            .map_err(cuda("copy"))?;
            stop.record(&self.stream).map_err(cuda("event"))?;
            stop.synchronize().map_err(cuda("copy"))?;
            times.push(start.elapsed_ms(&stop).map_err(cuda("event"))?);
        }
        times.remove(0); // warm-up
        times.sort_by(|a, b| a.total_cmp(b));
        let ms = f64::from(times[times.len() / 2]);
        Ok(2.0 * half as f64 / (ms * 1e-3) / 1e9)
    }

    /// Times the search kernel alone over the resident text, `reps` times,
    /// with CUDA events; returns the times in ms and the match count.
    #[cfg(feature = "bench-tools")]
    pub(crate) fn time_kernel(
        &mut self,
        pat: &[u8],
        kernel: Kernel,
        reps: usize,
    ) -> Result<(Kernel, Vec<f32>, u64), GpuError> {
        let ran = kernels::effective(kernel, pat.len());
        self.load_pattern(pat, ran)?;
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let ctx = self.stream.context().clone();
        let start = ctx.new_event(flags).map_err(cuda("event"))?;
        let stop = ctx.new_event(flags).map_err(cuda("event"))?;
        self.launch_search(pat, ran)?; // warm-up
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps {
            start.record(&self.stream).map_err(cuda("event"))?;
            self.launch_search(pat, ran)?;
            stop.record(&self.stream).map_err(cuda("event"))?;
            stop.synchronize().map_err(cuda("kernel"))?;
            times.push(start.elapsed_ms(&stop).map_err(cuda("event"))?);
        }
        let count = self.count()?;
        Ok((ran, times, count))
    }
}

#[cfg(test)]
mod tests {
    use super::parallel_copy;

    #[test]
    fn parallel_copy_copies_everything() {
        for len in [0usize, 1, (1 << 20) - 1, 3 << 20, (5 << 20) + 7] {
            let src: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            for threads in [1, 2, 4, 8] {
                let mut dst = vec![0u8; len];
                parallel_copy(&mut dst, &src, threads);
                assert!(dst == src, "len {len} threads {threads}");
            }
        }
    }
}
