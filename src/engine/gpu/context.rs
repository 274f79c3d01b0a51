//! One GPU: its context, stream, loaded kernel modules and settings.
//!
//! Everything that talks to the CUDA driver lives in this module and its
//! siblings `modules` (loading the kernels: cubin or PTX), `memory`
//! (buffers, copies), `chunk` (one chunk's search) and
//! the per-kind files (`literal`, `multi`) and per-pass files (`backread`,
//! `tally`), so the `unsafe` stays at this one edge. One stream orders all
//! work of a `Device`, so cudarc's per-buffer event tracking is switched
//! off; a lane is a second `Device` on the same context with its own stream
//! and buffers.

use std::any::Any;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaContext, CudaEvent, CudaStream, PinnedHostSlice};

use super::kernels::{self, Kernel};
use super::memory::Buf;
use super::modules::Functions;
use super::GpuError;
use crate::encoding::boundary::Scheme;

/// Most threads emptying the pinned readback buffer (see `read_back`); the
/// default is this or the machine's parallelism, whichever is smaller. On
/// the H100 host (16 cores), 8 threads copied 1 GiB at 27 GB/s, 4 at 20, 1 at 6.
pub(crate) const MAX_DEFAULT_UPLOAD_THREADS: usize = 8;

/// Where the time of a lane's searches went (milliseconds; copy and kernel
/// by the GPU's clock, readback by the wall clock).
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Host to GPU: the chunk's copy, until the text is on the GPU.
    pub upload_ms: f64,
    /// Table upload, search kernel (and back-read), count, until the
    /// count is on the host.
    pub search_ms: f64,
    /// Tallies, compaction (when offsets ship), transfer back and copy-out.
    pub readback_ms: f64,
    /// Chunks searched.
    pub segments: usize,
}

pub(super) fn unavailable(what: &str) -> impl FnOnce(result::DriverError) -> GpuError + '_ {
    move |e| GpuError::Unavailable(format!("{what}: {e}"))
}

pub(super) fn cuda(what: &str) -> impl FnOnce(result::DriverError) -> GpuError + '_ {
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

/// A range of host memory registered with the driver (page-locked,
/// DMA-able) until dropped. It does not own the memory: whoever pinned it
/// keeps it mapped for as long as this lives.
pub(crate) struct Pinned {
    ptr: *mut u8,
    ctx: Arc<CudaContext>,
}

// SAFETY: the pointer is only handed back to the driver (Drop); the memory
// is owned and shared by whoever pinned it.
unsafe impl Send for Pinned {}
unsafe impl Sync for Pinned {}

impl Drop for Pinned {
    fn drop(&mut self) {
        // Errors here have nowhere to go; the memory is unpinned at exit
        // either way.
        if self.ctx.bind_to_thread().is_ok() {
            // SAFETY: registered in `pin`; every copy that read it was
            // waited for by its lane before the memory was handed back.
            let _ = unsafe { sys::cuMemHostUnregister(self.ptr.cast()) };
        }
    }
}

/// Host memory registered with the driver, and the mapping it is.
pub(crate) struct Registered {
    // Unpinned before the mapping goes (fields drop in this order).
    _pin: Pinned,
    map: memmap2::MmapMut,
}

impl Registered {
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u8 {
        self.map.as_mut_ptr()
    }

    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

/// `bytes` of anonymous memory, faulted in by `threads` threads (no CUDA
/// involved: a staging ring is made this way before the GPU is ready, and
/// pinned once it is). Huge pages where the kernel gives them.
pub fn faulted_map(bytes: usize, threads: usize) -> std::io::Result<memmap2::MmapMut> {
    let mut map = memmap2::MmapMut::map_anon(bytes.max(1))?;
    // Only advice: ignored where transparent huge pages are off.
    let _ = map.advise(memmap2::Advice::HugePage);
    let per = map.len().div_ceil(threads.max(1)).next_multiple_of(4096);
    std::thread::scope(|s| {
        for part in map.chunks_mut(per) {
            s.spawn(move || part.iter_mut().step_by(4096).for_each(|b| *b = 0));
        }
    });
    Ok(map)
}

/// One stream on the GPU with its buffers: the engine's handle, or a lane.
pub(crate) struct Device {
    pub(super) stream: Arc<CudaStream>,
    pub(super) f: Functions,
    pub(crate) name: String,
    pub(crate) sm_count: u32,
    pub(crate) total_mem: usize,
    pub(crate) cc: (i32, i32),
    /// Seconds `open` took: driver start, context, loading the kernels
    /// (with a cubin milliseconds; the PTX's JIT compile ~1.2 s on a GPU's
    /// first run).
    pub(crate) opened: [f64; 3],
    /// The chunk's text, padded to whole tiles (`memory::reserve`).
    pub(super) text: Buf<u8>,
    /// One bit per text byte, and the per-tile counts of its set bits:
    /// what every search kernel fills.
    pub(super) bitmap: Buf<u32>,
    pub(super) counts: Buf<u32>,
    /// Scan of `counts` and its total; the compacted offsets.
    pub(super) tile_offsets: Buf<u64>,
    pub(super) total: Buf<u64>,
    pub(super) out: Buf<u64>,
    /// The tables of the kind searched last (`literal::Tables`,
    /// `multi::Tables`, ...): each kind keeps its own type here, so a kind
    /// needs no field of its own (see `take_tables`).
    tables: Option<Box<dyn Any + Send>>,
    /// The `tally` kernel's file ranges and results.
    pub(super) tally_starts: Buf<u64>,
    pub(super) tally_ends: Buf<u64>,
    pub(super) tally_counts: Buf<u32>,
    /// `count_terminators`' per-block counts (`lines`).
    pub(super) line_counts: Buf<u32>,
    /// The back-read's pair table, and the scheme it holds.
    pub(super) pairs: Buf<u32>,
    pub(super) pairs_loaded: Option<Scheme>,
    /// Timing events of `search_chunk`: before the copy, after it, after the kernel.
    pub(super) events: Option<[CudaEvent; 3]>,
    /// Bytes of text in `text` (the chunk being searched).
    pub(super) resident: u64,
    pub(crate) bm_portion: u32,
    /// The literal kernel to run whatever the pattern's length (tests and
    /// benchmarks); `None`: `kernels::choose`.
    pub(crate) kernel: Option<Kernel>,
    /// Threads emptying the pinned readback buffer; 0 or 1: one.
    pub(crate) upload_threads: usize,
    /// Some(true): always ship offsets; Some(false): always the bitmap
    /// (the kernel benchmark; `None` in production: the fewer bytes).
    pub(crate) force_offsets: Option<bool>,
    /// Pinned (not write-combined: the host reads it) readback buffer.
    pub(super) readback: Option<PinnedHostSlice<u64>>,
    pub(crate) timings: Timings,
    /// The kernel the last search ran ("none" before any).
    pub(crate) last_kernel: &'static str,
    /// How the last search's results came home (`chunk::Shipped`).
    pub(crate) last_shipped: &'static str,
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
        let t = std::time::Instant::now();
        set_scheduling();
        let driver = t.elapsed().as_secs_f64();
        let ctx = CudaContext::new(0).map_err(unavailable("no usable CUDA device 0"))?;
        // SAFETY: every buffer is used on `stream` alone, which orders all
        // work; the stream is synchronised before host memory handed to an
        // async copy is reused or freed (Drop above).
        unsafe { ctx.disable_event_tracking() };
        let stream = ctx.new_stream().map_err(unavailable("creating a stream"))?;
        let cc = ctx.compute_capability().unwrap_or((0, 0));
        let context = t.elapsed().as_secs_f64() - driver;
        let f = Functions::load(&ctx, cc)?;
        let kernels = t.elapsed().as_secs_f64() - driver - context;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let sm_count = ctx
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
            .map_err(unavailable("reading the SM count"))?
            .max(1) as u32;
        let total_mem = ctx.total_mem().unwrap_or(0);
        let mut d = Device::on(stream, f, name, sm_count, total_mem, cc, None);
        d.opened = [driver, context, kernels];
        Ok(d)
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
            opened: [0.0; 3],
            text: Buf::new(),
            bitmap: Buf::new(),
            counts: Buf::new(),
            tile_offsets: Buf::new(),
            total: Buf::new(),
            out: Buf::new(),
            tables: None,
            tally_starts: Buf::new(),
            tally_ends: Buf::new(),
            tally_counts: Buf::new(),
            line_counts: Buf::new(),
            pairs: Buf::new(),
            pairs_loaded: None,
            events,
            resident: 0,
            bm_portion: kernels::BM_DEFAULT_PORTION,
            kernel: None,
            upload_threads: std::thread::available_parallelism()
                .map_or(1, |p| p.get())
                .min(MAX_DEFAULT_UPLOAD_THREADS),
            force_offsets: None,
            readback: None,
            timings: Timings::default(),
            last_kernel: "none",
            last_shipped: "none",
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
        dev.kernel = self.kernel;
        dev.upload_threads = self.upload_threads;
        dev.force_offsets = self.force_offsets;
        Ok(dev)
    }

    /// `bytes` of page-locked host memory: anonymous memory faulted in by
    /// `threads` threads, then registered with the driver. On the H100 host
    /// `cuMemHostAlloc` pinned 1 GiB at 2 GB/s on one thread, which stalled
    /// the pipeline's start; faulting in parallel and registering is faster.
    pub(crate) fn alloc_host(&self, bytes: usize, threads: usize) -> Result<Registered, GpuError> {
        let mut map = faulted_map(bytes, threads)
            .map_err(|e| GpuError::Cuda(format!("allocating host memory: {e}")))?;
        // SAFETY: the mapping is ours and outlives the pin (Registered's
        // field order).
        let pin = unsafe { self.pin(map.as_mut_ptr(), map.len()) }?;
        Ok(Registered { _pin: pin, map })
    }

    /// Registers `len` bytes at `ptr` with the driver (page-locked), until
    /// the result is dropped.
    ///
    /// # Safety
    /// The range must be mapped memory that stays mapped while the result
    /// lives.
    pub(crate) unsafe fn pin(&self, ptr: *mut u8, len: usize) -> Result<Pinned, GpuError> {
        let ctx = self.stream.context().clone();
        ctx.bind_to_thread().map_err(cuda("binding the context"))?;
        // SAFETY: the caller's contract: a live mapping of `len` bytes.
        unsafe { sys::cuMemHostRegister_v2(ptr.cast(), len, 0) }
            .result()
            .map_err(cuda("registering host memory"))?;
        Ok(Pinned { ptr, ctx })
    }

    /// The device tables of kind `T`, taken out of the device (empty ones
    /// when the last kind searched was another: its tables are freed). The
    /// kind uploads into them, launches, and hands them back (`keep_tables`).
    pub(super) fn take_tables<T: Any + Send + Default>(&mut self) -> Box<T> {
        match self.tables.take().map(|t| t.downcast::<T>()) {
            Some(Ok(t)) => t,
            _ => Box::default(),
        }
    }

    /// Puts a kind's tables back, for the next chunk and for `tally`.
    pub(super) fn keep_tables<T: Any + Send>(&mut self, tables: Box<T>) {
        self.tables = Some(tables);
    }

    /// The tables of kind `T`, when they are the ones loaded.
    pub(super) fn tables<T: Any>(&self) -> Option<&T> {
        self.tables.as_ref().and_then(|t| t.downcast_ref::<T>())
    }
}
