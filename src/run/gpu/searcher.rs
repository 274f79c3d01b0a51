//! How one filled chunk is searched: the [`ChunkSearcher`] trait, with the
//! GPU lane and the CPU mirror of the kernels as its two implementations.
//!
//! The flow hands a searcher a chunk's text and gets back what a GPU lane
//! reports: every match start (overlapping ones included), minus those the
//! character-boundary back-read drops; or per-file tallies; or `Dense` past
//! a cap. The mirror computes exactly that on the CPU, so the whole
//! pipeline (packing, cutting, ordering, fallbacks) runs and is tested on
//! machines without a GPU. Which one a run gets is decided once, when the
//! engine is chosen (`Backend`); the hot path calls the trait and never
//! looks at the environment.

use crate::engine::gpu::backread::{self, Backread};
pub use crate::engine::gpu::Target;
use crate::engine::gpu::{
    line_blocks_reference, unsure, ChunkFound, GpuEngine, GpuError, GpuLane, Tally, Timings,
};

/// Searches whole chunks; one per pipeline lane, each driven by its own
/// thread.
pub trait ChunkSearcher: Send {
    /// Every start of `target` in `text`, less those `backread` proves are
    /// inside a character; as `tally`'s per-file counts when asked (and
    /// possible), else `Dense` when there are more than `cap`.
    fn search(
        &mut self,
        text: &[u8],
        target: &Target,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError>;

    /// The line terminators `term` in each `LINE_BLOCK` of `text`, the
    /// chunk just searched (`-n`: `run::gpu::lines`); counted on the CPU
    /// unless the searcher holds the chunk.
    fn terminators(&mut self, text: &[u8], term: u8) -> Result<Vec<u32>, GpuError> {
        Ok(line_blocks_reference(text, term))
    }

    /// Time spent in transfers, kernels and readback (for `--stats`).
    fn timings(&self) -> Timings {
        Timings::default()
    }
}

/// Where the pipeline's chunks are searched: the outcome of choosing the
/// engine, made once per run.
pub enum Backend {
    Gpu(Box<GpuEngine>),
    /// The CPU mirror (`GPUGREP_GPU_SIMULATE=1`, a test knob).
    Simulated,
}

impl Backend {
    /// One searcher per lane.
    pub fn searchers(&self, lanes: usize) -> Result<Vec<Box<dyn ChunkSearcher>>, GpuError> {
        (0..lanes.max(1))
            .map(|_| -> Result<Box<dyn ChunkSearcher>, GpuError> {
                match self {
                    Backend::Gpu(e) => Ok(Box::new(e.lane()?)),
                    Backend::Simulated => Ok(Box::new(CpuMirror::from_knobs())),
                }
            })
            .collect()
    }
}

impl ChunkSearcher for GpuLane {
    fn search(
        &mut self,
        text: &[u8],
        target: &Target,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        self.search_target(text, target, backread, cap, tally)
    }

    fn terminators(&mut self, text: &[u8], term: u8) -> Result<Vec<u32>, GpuError> {
        GpuLane::terminators(self, text, term)
    }

    fn timings(&self) -> Timings {
        GpuLane::timings(self)
    }
}

/// The kernels' CPU mirror: what a GPU lane reports, computed on the CPU;
/// each chunk takes at least `slow` (`GPUGREP_GPU_SIMULATE_SLOW`, a test
/// knob: a simulated GPU slower than the CPU engine).
pub struct CpuMirror {
    slow: std::time::Duration,
}

impl CpuMirror {
    pub fn from_knobs() -> CpuMirror {
        let ms = crate::knobs::get().gpu_simulate_slow_ms.or(0);
        CpuMirror {
            slow: std::time::Duration::from_millis(ms),
        }
    }
}

impl ChunkSearcher for CpuMirror {
    fn search(
        &mut self,
        text: &[u8],
        target: &Target,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        if !self.slow.is_zero() {
            std::thread::sleep(self.slow);
        }
        // The kernels' CPU references (`Kind::reference`).
        let (mut starts, sure) = target.reference_sure(text);
        if let Some(b) = backread {
            backread::filter(text, &mut starts, b);
        }
        let lens_at = |p: u64| match target {
            Target::One(pat) => vec![pat.len() as u64],
            Target::Many(t) => t
                .lengths_at(text, p as usize)
                .into_iter()
                .map(|l| l as u64)
                .collect(),
            Target::Automaton(_) | Target::Split(_) => vec![1],
        };
        let unsure = !starts.is_empty() && !sure;
        // As `Device::search_chunk`: counted unless unsure, or unsure
        // only of lines past ASCII, which are taken out (`unsure`).
        let countable = tally.filter(|_| !unsure || target.unsure_only_past_ascii());
        if let Some((t, mut counts)) =
            countable.and_then(|t| Some((t, t.reference(text, &starts, &lens_at)?)))
        {
            if !unsure {
                return Ok(ChunkFound::Counts(counts));
            }
            if let Some(lines) = unsure::take_lines_past_ascii(text, &starts, t, &mut counts) {
                return Ok(ChunkFound::CountsUnsure(counts, lines));
            }
        }
        Ok(match starts.len() as u64 {
            n if n > cap => ChunkFound::Dense(n),
            _ if unsure => ChunkFound::Unsure(starts),
            _ => ChunkFound::Offsets(starts),
        })
    }
}

/// The searcher of a pipeline whose GPU never started: every chunk fails
/// with the start's error, so its files go to the CPU engine.
pub struct Unavailable(pub GpuError);

impl ChunkSearcher for Unavailable {
    fn search(
        &mut self,
        _: &[u8],
        _: &Target,
        _: Option<Backread>,
        _: u64,
        _: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        Err(self.0.clone())
    }
}
