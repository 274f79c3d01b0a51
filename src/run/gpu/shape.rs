//! What one run's pipeline is: its sizes and policies ([`Shape`]: chunk,
//! ring, lanes, who may claim files) and what every chunk is searched for
//! ([`Search`]: the kind, the tally, how cut files overlap). Decided once
//! in `setup` and `mod`; read by the packer, the lanes and the board.

use super::searcher::Target;
use super::setup::TallyMode;
use crate::encoding::boundary::Scheme;
use crate::encoding::EncodingPlan;
use crate::engine::Matcher;

/// Sizes and policies of one run.
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

/// What every chunk is searched for, and how.
pub struct Search<'a> {
    pub target: &'a Target,
    /// What decides a line on the CPU (the CPU engine's line matcher):
    /// the lines a tally's kind was unsure of (`ChunkFound::CountsUnsure`).
    pub line_matcher: &'a dyn Matcher,
    /// The back-read chunks get (patterns transcoded into a multi-byte
    /// encoding whose sure bytes include the terminator).
    pub scheme: Option<Scheme>,
    pub terminator: u8,
    /// Chunks of whole files report per-file tallies, not offsets,
    /// counting this way.
    pub tally: Option<TallyMode>,
    /// Files cut across chunks are tallied too, piece by piece (each
    /// piece counts the lines it owns, `pack::owned_lines`): under `-c`
    /// and `--count-matches`, not decompressed (`setup::cut_tally`).
    pub cut_tally: bool,
    /// How files are read (a byte-order mark is left out of a tally).
    pub encoding: EncodingPlan,
    /// `--decompress`, with the threads that may decompress one file.
    pub decompress: Option<usize>,
    /// The GPU is known far ahead of the CPU engine here
    /// (`setup::gpu_far_ahead`, or a probe's verdict: `settle`): under auto
    /// the CPU waits for CUDA from this many bytes of files.
    pub far_ahead: Option<u64>,
    /// Whether the GPU's lead depends on the search itself (a regex's
    /// automaton, whose CPU engine ran 0.29-2.95 s where the GPU took about
    /// 1 s: `settle::AUTO_AUTOMATON_BYTES_PER_THREAD`): under auto, CUDA starts
    /// only when the CPU engine's pace says the GPU would finish first
    /// (unless a probe of that pace decided before: `settle`).
    pub paced: bool,
    /// Printed lines are numbered: each chunk's line terminators are
    /// counted on the GPU too (`lane`, `lines`).
    pub count_lines: bool,
    /// A literal set's selected lines are printed: auto's gate weighs how
    /// many there are (`start::worth_starting`).
    pub printed_lines: Option<PrintedLines>,
}

/// A literal set's search that prints its selected lines, as auto's gate
/// sees it.
#[derive(Clone, Copy)]
pub struct PrintedLines {
    /// Matches are printed (`-o`, colour, `--json`): the pipeline searches
    /// each selected line again on the CPU.
    pub searched_again: bool,
    /// The run's threads.
    pub threads: usize,
}

impl Search<'_> {
    /// How many bytes a cut file's pieces overlap by (`Target::cut_overlap`):
    /// a line's worth where cut files are tallied, as for the kinds that
    /// report lines, so that every line lies whole in the piece that owns it.
    pub fn overlap(&self, chunk: usize) -> usize {
        self.target.cut_overlap(chunk, self.cut_tally)
    }

    /// A line longer than the overlap across a cut sends the file to the
    /// CPU (`Lane::long_lines`): no piece holds the line whole.
    pub fn cuts_at_lines(&self) -> bool {
        self.target.cuts_at_lines() || self.cut_tally
    }
}
