//! One GPU-claimed file on the board: what its pieces found ([`Entry`],
//! each piece's [`Posted`] results), what a worker gets for it ([`Take`]),
//! and when its offsets so far foretell more than the board keeps
//! ([`foretells_too_many`]).

use super::super::offsets::LineCount;
use super::super::ring::Filled;
use super::super::stats::Fallback;
use crate::engine::gpu::FileCount;
use std::ops::Range;

/// Bytes of a file searched (or a sixteenth of it, if less) after which
/// its offsets so far foretell its total: a file bound past the board's
/// cap on one file's matches (`MAX_FILE_OFFSETS`) goes to the CPU then,
/// not when the cap is reached. One 8 GiB prose file, `-n` of 1,000 words (43.7 M lines): the pipeline
/// read 2.6 GB for nothing before the cap sent it to the CPU, 3.6-3.7 s
/// against the CPU engine's 2.9 s.
const FORETELL_AFTER: u64 = 64 << 20;

/// Whether a file of `size` bytes (0: unknown) whose pieces up to byte
/// `reached` gave `offsets` will give more than `max` at that pace (with a
/// quarter to spare: a wrong guess costs only speed, the CPU searching a
/// file the GPU could have finished).
pub(super) fn foretells_too_many(offsets: usize, reached: u64, size: u64, max: usize) -> bool {
    let enough = FORETELL_AFTER.min(size / 16).max(1);
    reached >= enough
        && u128::from(offsets as u64) * u128::from(size)
            > u128::from(reached) * (max as u128 + max as u128 / 4)
}

/// What the board knows of one GPU-claimed file.
#[derive(Default)]
pub struct Entry<'r> {
    /// Pieces not planned yet (the packer is still laying the file out).
    pub(super) open: bool,
    pub(super) pieces_left: usize,
    /// Pieces whose results were posted (none: the GPU has not begun it).
    pub(super) posted: usize,
    /// Match starts in the file (ascending once `take` sorted them).
    pub offsets: Vec<u64>,
    /// The GPU's tally of the file, instead of offsets: summed over its
    /// pieces when it is cut (the pieces whose chunks shipped offsets
    /// instead are in `offsets`, and `untallied` says why).
    pub count: Option<FileCount>,
    /// The CPU must search this file, and why (dense, read error, GPU
    /// failure, ...).
    pub cpu: Option<Fallback>,
    /// The run tallies, but this file's offsets shipped, and why.
    pub untallied: Option<Fallback>,
    /// The whole file in a chunk: the chunk and the file's range in it.
    pub(super) whole: Option<(Filled<'r>, Range<usize>)>,
    /// Decompressed (`--decompress`): its bytes are only in chunks, never
    /// in a map of the file.
    pub decompressed: bool,
    /// A decompressed file cut into pieces (`Flow::pour`): its first bytes
    /// (for the byte-order mark) and its decompressed length.
    pub head: Vec<u8>,
    pub total: u64,
    /// Its pieces' chunks, kept for printing (the chunk, the piece's range
    /// in it, its offset in the file), while there are few enough of them.
    pub kept: Vec<(Filled<'r>, Range<usize>, u64)>,
    /// More pieces than the board keeps: printing decompresses again.
    pub kept_too_many: bool,
    /// Its line terminators as the GPU counted them, a span per block of
    /// its pieces (`-n`; ascending by start once `take` sorted them).
    pub lines: Vec<LineCount>,
    /// Its size when known (else 0), and the furthest byte of it searched
    /// so far ([`foretells_too_many`]).
    pub(super) size: u64,
    pub(super) reached: u64,
}

impl Entry<'_> {
    /// The file's bytes when it lies whole in a chunk.
    pub fn bytes(&self) -> Option<&[u8]> {
        self.whole.as_ref().map(|(c, r)| c.bytes(r.clone()))
    }
}

/// What a worker gets for a file.
pub enum Take<'r> {
    Cpu,
    Gpu(Entry<'r>),
    /// The search stopped (nothing will be printed).
    Gone,
}

/// One searched piece's results, as the flow posts them.
pub struct Posted {
    pub offsets: Vec<u64>,
    pub count: Option<FileCount>,
    /// The CPU must search the piece's file, and why (dense chunk, GPU
    /// failure, a long line across a cut, a non-ASCII byte beside a `-w`
    /// match).
    pub cpu: Option<Fallback>,
    /// The run tallies, but the piece's chunk shipped offsets, and why.
    pub untallied: Option<Fallback>,
    /// The piece could not be read: its bytes in the chunk are not the file's.
    pub unreadable: bool,
    /// Its line terminators, counted on the GPU per block (`-n`:
    /// `lines`).
    pub lines: Vec<LineCount>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_total_is_foretold_from_its_pace_once_enough_is_searched() {
        let gib = 1u64 << 30;
        // 8 GiB at 1 M offsets per 64 MiB: 128 M foretold, past 16 M.
        assert!(foretells_too_many(1 << 20, 64 << 20, 8 * gib, 1 << 24));
        // The same pace before 64 MiB were searched: not yet.
        assert!(!foretells_too_many(1 << 20, 63 << 20, 8 * gib, 1 << 24));
        // A small file: a sixteenth of it is enough.
        assert!(foretells_too_many(300, 12_000, 190_000, 1000));
        assert!(!foretells_too_many(300, 11_000, 190_000, 1000));
        // Under the cap with a quarter to spare: 1.2x the cap foretold.
        assert!(!foretells_too_many(120, 1000, 10_000, 1000));
        assert!(foretells_too_many(130, 1000, 10_000, 1000));
        // An unknown size foretells nothing.
        assert!(!foretells_too_many(1 << 30, 64 << 20, 0, 1 << 24));
    }
}
