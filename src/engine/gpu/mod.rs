//! GPU engine (stub until the GPU issue lands): same interface, never available.

use std::fmt;

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

/// Match starts found by the GPU, as ascending global offsets.
#[derive(Debug, Clone, Default)]
pub struct MatchSet {
    offsets: Vec<u64>,
}

impl MatchSet {
    /// A set from ascending offsets.
    pub fn from_sorted(offsets: Vec<u64>) -> Self {
        MatchSet { offsets }
    }

    /// The first match start at or after `pos`.
    pub fn next_at_or_after(&self, pos: u64) -> Option<u64> {
        let i = self.offsets.partition_point(|&o| o < pos);
        self.offsets.get(i).copied()
    }

    /// How many match starts the set holds.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// True when there is no match.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }
}

/// A handle on one GPU with its loaded kernels.
pub struct GpuEngine {
    _private: (),
}

impl GpuEngine {
    /// Opens the first GPU. Never panics; every failure is a `GpuError`.
    pub fn open() -> Result<GpuEngine, GpuError> {
        Err(GpuError::Unavailable(
            "this build has no GPU engine yet".into(),
        ))
    }

    /// The kernel the last search ran, for `--debug`.
    pub fn last_kernel(&self) -> &'static str {
        "none"
    }

    /// One line for `--debug`: device, kernels.
    pub fn describe(&self) -> String {
        String::new()
    }

    /// Every start offset (ascending, overlapping occurrences included) where
    /// `pattern` occurs byte for byte in `text`.
    pub fn find_literal(&mut self, _text: &[u8], _pattern: &[u8]) -> Result<MatchSet, GpuError> {
        Err(GpuError::Unavailable("no GPU engine".into()))
    }
}
