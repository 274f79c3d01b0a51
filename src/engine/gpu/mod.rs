//! GPU engine: exact literal search on an NVIDIA GPU through the CUDA driver.
//!
//! The public surface is small on purpose: open a device, search one buffer
//! for one literal, get every match start back. The pieces are split by what
//! can be tested where: `kernels` (launch arithmetic, kernel choice) and
//! `tables` (Boyer-Moore tables) and `matchset` (the result) are pure and
//! unit-tested on any machine, as are the CPU mirrors of the back-read and
//! tally kernels (`backread`, `tally`); `device` holds every CUDA call and
//! is tested on a GPU (tests/gpu_differential.rs). Nothing here panics on a
//! user's input: every failure is a `GpuError`, and the CUDA calls run under
//! `catch_unwind` as a last line of defence (a missing libcuda would
//! otherwise panic inside cudarc's loader).

pub mod backread;
mod device;
pub mod kernels;
mod matchset;
pub mod multi;
pub mod tables;
mod tally;

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use backread::Backread;
pub use device::Timings;
pub use kernels::Kernel;
pub use matchset::MatchSet;
pub use multi::MultiTables;
pub use tally::{FileCount, MatchCount, Tally};

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

/// A handle on one GPU with its loaded kernels and reusable buffers.
pub struct GpuEngine {
    dev: Option<device::Device>,
    last_kernel: &'static str,
    last_timings: Timings,
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
        match catch_unwind(device::Device::open) {
            Ok(Ok(dev)) => Ok(GpuEngine {
                dev: Some(dev),
                last_kernel: "none",
                last_timings: Timings::default(),
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(GpuError::Unavailable("CUDA initialisation panicked".into())),
        }
    }

    /// One line for `--debug`: device, SMs, memory, kernels.
    pub fn describe(&self) -> String {
        match &self.dev {
            Some(d) => format!(
                "GPU 0: {} (compute {}.{}, {} SMs, {:.1} GiB); kernel choice: {}; boyer-moore portion {} B",
                d.name,
                d.cc.0,
                d.cc.1,
                d.sm_count,
                d.total_mem as f64 / f64::from(1u32 << 30),
                kernels::describe_choice(),
                d.bm_portion
            ),
            None => "GPU engine disabled after an internal error".into(),
        }
    }

    /// The kernel the last search ran ("prefix4" or "boyer-moore"; "none"
    /// before the first search or when the last one needed no kernel).
    pub fn last_kernel(&self) -> &'static str {
        self.last_kernel
    }

    /// Every start offset (ascending, overlapping occurrences included) where
    /// `pattern` occurs byte for byte in `text`. The kernel is chosen by
    /// pattern length (`kernels::choose`).
    pub fn find_literal(&mut self, text: &[u8], pattern: &[u8]) -> Result<MatchSet, GpuError> {
        self.find_literal_with(text, pattern, kernels::choose(pattern.len()))
    }

    /// Where the last search's time went: upload, search, readback (for
    /// `--debug`; all zero when it needed no GPU work).
    pub fn last_timings(&self) -> Timings {
        self.last_timings
    }

    /// `find_literal` with the kernel forced (tests, benchmarks). Patterns
    /// longer than `kernels::BM_MAX_LEN` always run `prefix4`, which is exact
    /// at any length; `last_kernel` tells which ran.
    pub fn find_literal_with(
        &mut self,
        text: &[u8],
        pattern: &[u8],
        kernel: Kernel,
    ) -> Result<MatchSet, GpuError> {
        if pattern.is_empty() {
            return Err(GpuError::Cuda(
                "empty pattern passed to the GPU engine".into(),
            ));
        }
        self.last_kernel = "none";
        self.last_timings = Timings::default();
        if text.len() < pattern.len() {
            return Ok(MatchSet::default());
        }
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.timings = Timings::default();
        let res = catch_unwind(AssertUnwindSafe(|| {
            search_segmented(dev, text, pattern, kernel)
        }));
        self.last_timings = dev.timings;
        match res {
            Ok(Ok((ran, set))) => {
                self.last_kernel = ran.name();
                Ok(set)
            }
            Ok(Err(e)) => Err(e),
            Err(_) => {
                self.dev = None;
                Err(panicked("a search"))
            }
        }
    }

    /// Sets the longest text searched in one pass (rounded down to whole
    /// 32 KiB tiles, at least one); longer texts are searched in segments
    /// overlapping by `pattern.len() - 1` bytes. The default is 2/5 of the
    /// card's memory, at most 16 GiB.
    pub fn set_max_segment(&mut self, bytes: u64) {
        if let Some(d) = self.dev.as_mut() {
            d.max_segment = kernels::round_segment(bytes);
        }
    }

    /// Sets Boyer-Moore's bytes per thread (a power of two, 32..=1024).
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
}

impl GpuEngine {
    /// Sets how many threads fill the pinned staging buffers during upload
    /// and empty the readback buffer (default: the machine's parallelism, at
    /// most 8); 0 makes the driver copy straight from pageable memory.
    pub fn set_upload_threads(&mut self, threads: usize) {
        if let Some(d) = self.dev.as_mut() {
            d.upload_threads = threads.min(64);
        }
    }
}

/// What one chunk's search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkFound {
    /// Every match start in the chunk, ascending.
    Offsets(Vec<u64>),
    /// More matches than the cap: not shipped (the CPU searches the chunk).
    Dense(u64),
    /// Per file of the `Tally` asked for, in its order.
    Counts(Vec<FileCount>),
}

/// Page-locked host memory from the GPU's context: a staging buffer that
/// the GPU reads by DMA while the CPU goes on with other work.
pub struct HostBuf {
    mem: device::Registered,
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
    dev: Option<device::Device>,
}

impl GpuLane {
    /// Searches `text` for `pattern` (copy, kernel, results back); the
    /// starts come back unless there are more than `cap`. `text` may be a
    /// `HostBuf` (asynchronous copy) or any memory. With `backread`,
    /// starts the back-read proves are inside characters are dropped on the
    /// GPU first (`backread::filter` is the same on the CPU).
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
        let kernel = kernels::choose(pattern.len());
        self.run(
            text,
            device::Needle::One(pattern, kernel),
            backread,
            cap,
            tally,
        )
    }

    /// `search` for every pattern of `tables` at once (the `multi` kernel):
    /// the starts where any of them occurs. The lane keeps the tables on the
    /// GPU while it is given the same ones.
    pub fn search_many(
        &mut self,
        text: &[u8],
        tables: &MultiTables,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        self.run(text, device::Needle::Many(tables), backread, cap, tally)
    }

    fn run(
        &mut self,
        text: &[u8],
        needle: device::Needle,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        let found = match catch_unwind(AssertUnwindSafe(|| {
            dev.search_chunk(text, needle, backread, cap, tally)
        })) {
            Ok(r) => r?,
            Err(_) => {
                self.dev = None;
                return Err(panicked("a search"));
            }
        };
        Ok(match found {
            device::Found::Offsets(v) => ChunkFound::Offsets(v),
            device::Found::Dense(c) => ChunkFound::Dense(c),
            device::Found::Counts(c) => {
                let (lines, matches) = c.split_at(c.len() / 2);
                let each = lines.iter().zip(matches);
                ChunkFound::Counts(
                    each.map(|(&lines, &matches)| FileCount { lines, matches })
                        .collect(),
                )
            }
            device::Found::Bitmap(w, c) => {
                ChunkFound::Offsets(MatchSet::from_bitmap_counted(w, c).iter().collect())
            }
        })
    }

    /// Time spent on this lane: copy and kernel (GPU clock), readback.
    pub fn timings(&self) -> Timings {
        self.dev.as_ref().map(|d| d.timings).unwrap_or_default()
    }
}

impl GpuEngine {
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
}

/// Searches `text` in segments of at most `dev.max_segment` bytes (one
/// segment for most texts) and merges the results: offsets while every
/// segment shipped offsets, else one bitmap over the whole text.
fn search_segmented(
    dev: &mut device::Device,
    text: &[u8],
    pattern: &[u8],
    kernel: Kernel,
) -> Result<(Kernel, MatchSet), GpuError> {
    let n = text.len() as u64;
    let m = pattern.len() as u64;
    let segs = kernels::segments(n, m, dev.max_segment);
    let mut ran = kernels::effective(kernel, pattern.len());
    let mut offsets: Vec<u64> = Vec::new();
    let mut bitmap: Option<Vec<u64>> = None;
    let mut count = 0usize;
    let words =
        usize::try_from(n.div_ceil(64)).map_err(|_| GpuError::Cuda("text too large".into()))?;
    for &(s, e) in &segs {
        // s < e <= text.len(), a usize.
        dev.load_text(&text[s as usize..e as usize])?;
        let (k, found) = dev.search(pattern, kernel)?;
        ran = k;
        match found {
            device::Found::Offsets(v) => {
                count += v.len();
                match bitmap.as_mut() {
                    Some(b) => v.iter().for_each(|&o| set_bit(b, s + o)),
                    None if segs.len() == 1 => offsets = v,
                    None => offsets.extend(v.iter().map(|&o| o + s)),
                }
            }
            device::Found::Bitmap(w, c) if segs.len() == 1 => {
                // One pass: the bitmap covers the whole text already.
                return Ok((ran, MatchSet::from_bitmap_counted(w, c)));
            }
            device::Found::Dense(_) | device::Found::Counts(_) => {
                return Err(GpuError::Cuda("unexpected result shape".into()));
            }
            device::Found::Bitmap(w, c) => {
                count += c;
                let b = bitmap.get_or_insert_with(|| {
                    let mut b = vec![0u64; words];
                    offsets.iter().for_each(|&o| set_bit(&mut b, o));
                    b
                });
                offsets = Vec::new();
                // s is a multiple of TILE_BYTES, hence of 64: words align.
                let at = (s / 64) as usize;
                for (dst, src) in b[at..].iter_mut().zip(&w) {
                    *dst |= *src;
                }
            }
        }
    }
    let set = match bitmap {
        Some(b) => MatchSet::from_bitmap_counted(b, count),
        None => MatchSet::from_sorted(offsets),
    };
    Ok((ran, set))
}

fn set_bit(words: &mut [u64], pos: u64) {
    if let Some(w) = words.get_mut((pos / 64) as usize) {
        *w |= 1 << (pos % 64);
    }
}

/// Kernel-only timing over text kept resident on the GPU (the
/// `gpugrep-kernel-bench` binary).
#[cfg(feature = "bench-tools")]
impl GpuEngine {
    /// Makes `block` repeated `copies` times the resident text; returns its length.
    pub fn bench_load_repeated(&mut self, block: &[u8], copies: u64) -> Result<u64, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.load_repeated(block, copies)
    }

    /// Runs `kernel` over the resident text `reps` times (after one warm-up),
    /// timing each launch with CUDA events. Returns the kernel that ran, the
    /// times in milliseconds and the number of matches.
    pub fn bench_kernel(
        &mut self,
        pattern: &[u8],
        kernel: Kernel,
        reps: usize,
    ) -> Result<(Kernel, Vec<f32>, u64), GpuError> {
        if pattern.is_empty() {
            return Err(GpuError::Cuda("empty pattern".into()));
        }
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.time_kernel(pattern, kernel, reps)
    }

    /// Forces the result shape: Some(true) offsets, Some(false) bitmap,
    /// None automatic (fewer bytes).
    pub fn bench_force_offsets(&mut self, force: Option<bool>) {
        if let Some(d) = self.dev.as_mut() {
            d.force_offsets = force;
        }
    }

    /// Device-to-device copy bandwidth over the resident text (GB/s, bytes
    /// read plus written, median of `reps`): the ceiling for the kernels.
    pub fn bench_copy_ceiling(&mut self, reps: usize) -> Result<f64, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.time_copy(reps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_never_panics() {
        // Passes on machines with and without a GPU: either way no panic.
        match GpuEngine::open() {
            Ok(mut e) => {
                assert!(!e.describe().is_empty());
                assert!(e.find_literal(b"abc", b"").is_err());
                assert!(e.find_literal(b"", b"a").unwrap().is_empty());
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
