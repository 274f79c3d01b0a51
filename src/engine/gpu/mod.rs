//! GPU engine: literal search on an NVIDIA GPU through the CUDA driver.
//!
//! The public surface is small on purpose: open a device, make lanes, and
//! search one chunk at a time for a [`Target`] (one literal, or a set of
//! literals), getting back the match starts, per-file counts, or "too many"
//! ([`ChunkFound`]); the streaming pipeline (`crate::run::gpu`) is the one
//! caller. The pieces:
//! - `context` (device, stream, settings), `modules` (the kernel
//!   modules: a shipped cubin where one fits the GPU, else the PTX), `memory`
//!   (buffers, readback), `chunk` (one chunk's search and its result
//!   shapes): the shared machinery;
//! - `kind` (the `Kind` trait and [`Target`]) and one file
//!   per search kind beside its kernel: `literal` (kernels/literal.cu),
//!   `multi` (kernels/multi.cu), `automaton` (kernels/automaton.cu, a rule
//!   pack's automaton from `pattern::glushkov`), `split` (both, merged: a
//!   rule pack's literal rules and the others);
//! - the passes that run after any kind: `backread` (kernels/backread.cu)
//!   and `tally` (kernels/tally.cu), and `lines` (its `count_terminators`:
//!   each 64 KiB's line terminators, for `-n`);
//! - pure and unit-tested on any machine: `kernels` (launch arithmetic,
//!   kernel choice, embedded PTX and cubins, which image a GPU loads), `tables` (Boyer-Moore tables), and the
//!   CPU mirror of every kernel (`Kind::reference`, `backread::filter`,
//!   `Tally::reference`), which the simulated pipeline runs;
//! - `bench` (feature `bench-tools`): kernel-only timing for the kernel
//!   benchmark.
//!
//! The CUDA calls are tested on a GPU (tests/gpu_differential.rs, against
//! the CPU mirrors and naive searches). Nothing here panics on a user's
//! input: every failure is a `GpuError`, and the CUDA calls run under
//! `catch_unwind` as a last line of defence (a missing libcuda would
//! otherwise panic inside cudarc's loader).

mod automaton;
pub mod backread;
#[cfg(feature = "bench-tools")]
mod bench;
mod chunk;
mod confirm;
mod context;
pub mod kernels;
mod kind;
mod lines;
mod literal;
mod memory;
mod modules;
pub mod multi;
mod split;
pub mod tables;
mod tally;
pub mod unsure;

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use backread::Backread;
pub use context::{faulted_map, Timings};
pub use kernels::Kernel;
pub use kind::{Target, LINE_OVERLAP};
pub use lines::{reference as line_blocks_reference, HOLDS_NUL, LINE_BLOCK};
pub use multi::MultiTables;
pub use split::Split;
pub use tally::{FileCount, MatchCount, Select, Tally};

/// Why the GPU engine cannot serve a search.
#[derive(Debug, Clone)]
pub enum GpuError {
    /// No usable GPU, driver or module: the reason in words.
    Unavailable(String),
    /// A CUDA call failed during a search.
    Cuda(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Unavailable(why) => write!(f, "GPU engine not available: {why}"),
            GpuError::Cuda(why) => write!(f, "GPU error: {why}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A handle on one GPU with its loaded kernels; searches run on its lanes.
pub struct GpuEngine {
    dev: Option<context::Device>,
}

fn panicked(what: &str) -> GpuError {
    GpuError::Cuda(format!("internal panic during {what}; GPU engine disabled"))
}

impl GpuEngine {
    /// Opens GPU 0 and loads the embedded PTX once. Never panics; every
    /// failure (no libcuda, no device, driver too old for the PTX) is a
    /// `GpuError::Unavailable`.
    pub fn open() -> Result<GpuEngine, GpuError> {
        // SAFETY: is_culib_present only tries to dlopen the driver library
        // by its usual names and drops the handle.
        let present =
            catch_unwind(|| unsafe { cudarc::driver::sys::is_culib_present() }).unwrap_or(false);
        if !present {
            return Err(GpuError::Unavailable(
                "libcuda (the NVIDIA driver) not found".into(),
            ));
        }
        match catch_unwind(context::Device::open) {
            Ok(Ok(dev)) => Ok(GpuEngine { dev: Some(dev) }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(GpuError::Unavailable("CUDA initialisation panicked".into())),
        }
    }

    /// One line for `--debug`: device, SMs, memory, kernels (and which
    /// image of them was loaded: "kernels: cubin sm_90", or "kernels: PTX,
    /// JIT-compiled by the driver (why)").
    pub fn describe(&self) -> String {
        match &self.dev {
            Some(d) => format!(
                "GPU 0: {} (compute {}.{}, {} SMs, {:.1} GiB); kernel choice: {}; boyer-moore portion {} B; kernels: {}; opened in {:.3} s (driver), {:.3} s (context), {:.3} s (kernels)",
                d.name,
                d.cc.0,
                d.cc.1,
                d.sm_count,
                d.total_mem as f64 / f64::from(1u32 << 30),
                kernels::describe_choice(),
                d.bm_portion,
                d.f.image,
                d.opened[0],
                d.opened[1],
                d.opened[2],
            ),
            None => "GPU engine disabled after an internal error".into(),
        }
    }

    /// Sets Boyer-Moore's bytes per thread (a power of two, 32..=1024) for
    /// the lanes made after this call.
    pub fn set_bm_portion(&mut self, portion: u32) -> Result<(), GpuError> {
        if !kernels::valid_portion(portion) {
            return Err(GpuError::Cuda(format!(
                "invalid Boyer-Moore portion {portion}"
            )));
        }
        if let Some(d) = self.dev.as_mut() {
            d.bm_portion = portion;
        }
        Ok(())
    }

    /// Sets how many threads empty the pinned readback buffer of the lanes
    /// made after this call (default: the machine's parallelism, at most 8).
    pub fn set_upload_threads(&mut self, threads: usize) {
        if let Some(d) = self.dev.as_mut() {
            d.upload_threads = threads.min(64);
        }
    }

    /// A new lane on this GPU.
    pub fn lane(&self) -> Result<GpuLane, GpuError> {
        let dev = self
            .dev
            .as_ref()
            .ok_or_else(|| panicked("an earlier search"))?;
        match catch_unwind(AssertUnwindSafe(|| dev.lane())) {
            Ok(r) => Ok(GpuLane { dev: Some(r?) }),
            Err(_) => Err(panicked("creating a lane")),
        }
    }

    /// `bytes` of page-locked host memory, faulted in by `threads` threads.
    pub fn alloc_host(&self, bytes: usize, threads: usize) -> Result<HostBuf, GpuError> {
        let dev = self
            .dev
            .as_ref()
            .ok_or_else(|| panicked("an earlier search"))?;
        let alloc = || dev.alloc_host(bytes, threads);
        let mut mem = match catch_unwind(AssertUnwindSafe(alloc)) {
            Ok(r) => r?,
            Err(_) => return Err(panicked("allocating host memory")),
        };
        let ptr = mem.as_mut_ptr();
        Ok(HostBuf { mem, ptr })
    }

    /// Pins `len` bytes of host memory at `ptr` (page-locked: the lanes'
    /// copies from it are DMA, asynchronous) until the result is dropped.
    ///
    /// # Safety
    /// The range must be mapped memory that stays mapped while the result
    /// lives.
    pub unsafe fn pin_host(&self, ptr: *mut u8, len: usize) -> Result<HostPin, GpuError> {
        let dev = self
            .dev
            .as_ref()
            .ok_or_else(|| panicked("an earlier search"))?;
        // SAFETY: the caller's contract, passed on.
        match catch_unwind(AssertUnwindSafe(|| unsafe { dev.pin(ptr, len) })) {
            Ok(r) => Ok(HostPin { _pin: r? }),
            Err(_) => Err(panicked("pinning host memory")),
        }
    }
}

/// Host memory pinned by [`GpuEngine::pin_host`], until dropped.
pub struct HostPin {
    _pin: context::Pinned,
}

/// What one chunk's search found (the shapes: `chunk`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkFound {
    /// Every match (or candidate) start in the chunk, ascending.
    Offsets(Vec<u64>),
    /// More starts than the cap: not shipped (the CPU searches the chunk).
    Dense(u64),
    /// Per file of the `Tally` asked for, in its order.
    Counts(Vec<FileCount>),
    /// A tally was asked for, but the kind was not sure of every mark
    /// (`Kind::sure`): the starts, ascending, as candidates.
    Unsure(Vec<u64>),
    /// A tally whose kind was unsure only of lines past ASCII
    /// (`unsure`): per file, the count of the other lines; and those
    /// lines, each (file, line start), for the CPU to judge.
    CountsUnsure(Vec<FileCount>, Vec<(usize, u64)>),
}

/// Page-locked host memory from the GPU's context: a staging buffer that
/// the GPU reads by DMA while the CPU goes on with other work.
pub struct HostBuf {
    mem: context::Registered,
    ptr: *mut u8,
}

// SAFETY: the pointer is into `mem`, which lives as long as the HostBuf;
// whoever shares it decides who writes which bytes when (the streaming
// pipeline: disjoint ranges while filling, reads only after that).
unsafe impl Send for HostBuf {}
unsafe impl Sync for HostBuf {}

impl HostBuf {
    /// The start of the buffer.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.mem.len()
    }

    pub fn is_empty(&self) -> bool {
        self.mem.len() == 0
    }
}

/// One of several independent queues of work on the GPU: searches on
/// different lanes (each driven by its own thread) overlap.
pub struct GpuLane {
    dev: Option<context::Device>,
}

impl GpuLane {
    /// Searches `text` for `target` (copy, kernel, results back); the
    /// starts come back unless there are more than `cap`, or per-file
    /// counts with a `tally`. `text` may be a `HostBuf` (asynchronous copy)
    /// or any memory. With `backread`, starts the back-read proves are
    /// inside characters are dropped on the GPU first (`backread::filter`
    /// is the same on the CPU).
    pub fn search_target(
        &mut self,
        text: &[u8],
        target: &Target,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        match target {
            Target::One(p) => self.search(text, p, backread, cap, tally),
            Target::Many(t) => self.search_many(text, t, backread, cap, tally),
            Target::Automaton(a) => self.run(text, &**a, backread, cap, tally),
            Target::Split(s) => self.run(text, &**s, backread, cap, tally),
        }
    }

    /// `search_target` for one literal (`Target::One`).
    pub fn search(
        &mut self,
        text: &[u8],
        pattern: &[u8],
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        if pattern.is_empty() {
            return Err(GpuError::Cuda(
                "empty pattern passed to the GPU engine".into(),
            ));
        }
        self.run(text, &literal::Literal(pattern), backread, cap, tally)
    }

    /// `search_target` for a literal set (`Target::Many`, the `multi`
    /// kernel). The lane keeps the tables on the GPU while it is given the
    /// same ones.
    pub fn search_many(
        &mut self,
        text: &[u8],
        tables: &MultiTables,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        self.run(text, tables, backread, cap, tally)
    }

    fn run(
        &mut self,
        text: &[u8],
        kind: &dyn kind::Kind,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        self.guarded("a search", |dev| {
            dev.search_chunk(text, kind, backread, cap, tally)
        })
    }

    /// Runs `f` on the lane's device under `catch_unwind`: a panic (`what`
    /// panicked) drops the device, and every later call fails.
    fn guarded<T>(
        &mut self,
        what: &str,
        f: impl FnOnce(&mut context::Device) -> Result<T, GpuError>,
    ) -> Result<T, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        match catch_unwind(AssertUnwindSafe(|| f(dev))) {
            Ok(r) => r,
            Err(_) => {
                self.dev = None;
                Err(panicked(what))
            }
        }
    }

    /// The line terminators `term` in each [`LINE_BLOCK`] of `text`, which
    /// must be the text this lane searched last (counted where it lies on
    /// the GPU; on the CPU if it was never uploaded).
    pub fn terminators(&mut self, text: &[u8], term: u8) -> Result<Vec<u32>, GpuError> {
        self.guarded("a line count", |dev| dev.count_terminators(text, term))
    }

    /// Time spent on this lane: copy and kernel (GPU clock), readback.
    pub fn timings(&self) -> Timings {
        self.dev.as_ref().map(|d| d.timings).unwrap_or_default()
    }

    /// Runs `kernel` for every literal this lane searches, whatever its
    /// length (within what the kernel takes: `kernels::effective`); `None`
    /// restores the automatic choice. For tests and benchmarks.
    pub fn set_kernel(&mut self, kernel: Option<Kernel>) {
        if let Some(d) = self.dev.as_mut() {
            d.kernel = kernel;
        }
    }

    /// The kernel the last search ran ("prefix4", "boyer-moore", "multi";
    /// "none" when it needed none).
    pub fn last_kernel(&self) -> &'static str {
        self.dev.as_ref().map_or("none", |d| d.last_kernel)
    }

    /// How the last search's results came home: "offsets", "bitmap"
    /// (both end as offsets), "counts", "dense", or "none" (no start).
    pub fn last_shipped(&self) -> &'static str {
        self.dev.as_ref().map_or("none", |d| d.last_shipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_never_panics() {
        // Passes on machines with and without a GPU: either way no panic.
        match GpuEngine::open() {
            Ok(e) => {
                assert!(!e.describe().is_empty());
                let mut lane = e.lane().unwrap();
                assert!(lane.search(b"abc", b"", None, u64::MAX, None).is_err());
                let none = lane.search(b"", b"a", None, u64::MAX, None).unwrap();
                assert_eq!(none, ChunkFound::Offsets(Vec::new()));
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn errors_display() {
        assert_eq!(
            GpuError::Unavailable("x".into()).to_string(),
            "GPU engine not available: x"
        );
        assert_eq!(GpuError::Cuda("y".into()).to_string(), "GPU error: y");
    }
}
