//! What a chunk is searched for: the trait every GPU search kind
//! implements, and [`Target`], the kinds a run can search.
//!
//! A kind is one file beside its `kernels/NAME.cu` (`literal.rs` beside
//! `literal.cu`, `multi.rs` beside `multi.cu`): its tables on the host and
//! on the GPU, its launch, its CPU mirror. Everything after the launch is
//! shared (`chunk`): every search kernel leaves the same result, one bit
//! per text byte where a match (or candidate) starts and the per-tile
//! counts of those bits, and the back-read, the tallies and the readback
//! read only that. Adding a kind: a file implementing [`Kind`], a variant
//! of [`Target`] (and of `pattern::compile::GpuPlan` when the compiler
//! should choose it), and a `.cu` with its kernel (`kernels/build-ptx`).

use cudarc::driver::sys::CUdeviceptr;

use super::context::Device;
use super::literal::Literal;
use super::multi::MultiTables;
use super::split::Split;
use super::GpuError;
use crate::pattern::compile::GpuPlan;
use crate::pattern::glushkov::Automaton;

/// Bytes by which the automaton's cut pieces overlap (the longest line
/// across a cut the GPU still searches).
pub const LINE_OVERLAP: usize = 64 * 1024;

/// One kind of GPU search. The CPU half (lengths, mirror) is what the
/// simulated pipeline and the per-file matcher use; the device half runs
/// on a lane.
pub(crate) trait Kind {
    /// The shortest match: a chunk shorter than this has none.
    fn shortest(&self) -> usize;
    /// The longest match: chunks cut inside a file overlap by this - 1.
    fn longest(&self) -> usize;
    /// The length of the longest match starting at `at` that lies inside
    /// `hay`, if any.
    fn match_at(&self, hay: &[u8], at: usize) -> Option<usize>;
    /// The CPU mirror of the kernel: every start it marks in `text`,
    /// ascending (overlapping matches included).
    fn reference(&self, text: &[u8]) -> Vec<u64>;
    /// Uploads the kind's tables (unless the device holds them already)
    /// and launches its kernel over the resident text, filling the bitmap
    /// and the tile counts (`chunk`). Returns the kernel's name.
    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError>;
    /// The match lengths the `tally` kernel follows chains of matches by
    /// (`--count-matches` with overlapping matches) and checks `-x` and
    /// `-w` with, for the tables the last `launch` left on `dev`.
    fn chain(&self, dev: &Device) -> Result<Chain, GpuError>;
    /// After `launch`: false when the kind left a mark it is not sure of
    /// (a split pack's unsure lines, `confirm.rs`): the marks are then
    /// candidates only, never counted as lines. Waits for the stream.
    fn sure(&self, _dev: &Device) -> Result<bool, GpuError> {
        Ok(true)
    }
    /// Every line the kind may leave unsure holds a byte past ASCII (the
    /// host finds those itself: `unsure::take_lines_past_ascii`).
    fn unsure_only_past_ascii(&self) -> bool {
        false
    }
    /// `reference`, and the CPU mirror of `sure` for `text`, in one pass.
    fn reference_sure(&self, text: &[u8]) -> (Vec<u64>, bool) {
        (self.reference(text), true)
    }
}

/// The `tally` kernel's match-length arguments (tally.cu): one fixed
/// length, or the set's tables to find the longest match at a start.
pub(crate) struct Chain {
    pub fixed: u32,
    pub classes: u32,
    pub slot_log2: u32,
    /// set1, set2, set3, keys, slots, first, starts, bytes, links
    /// (multi.cu).
    pub tables: [CUdeviceptr; 9],
}

impl Chain {
    /// Every match is `len` bytes long.
    pub(crate) fn fixed(len: usize) -> Chain {
        Chain {
            fixed: len as u32,
            classes: 0,
            slot_log2: 1,
            tables: [0; 9],
        }
    }
}

/// What the chunks of a run are searched for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// One literal: the Boyer-Moore or prefix kernel (`literal.rs`).
    One(Vec<u8>),
    /// Several literals: the `multi` kernel (`multi.rs`).
    Many(Box<MultiTables>),
    /// A rule pack's automaton: the `automaton` kernel (`automaton.rs`),
    /// which marks the start of every line it selects (candidates).
    Automaton(Box<Automaton>),
    /// A rule pack split in two (`split.rs`): the literals of the rules
    /// that have good ones by the `multi` kernel, the other rules by the
    /// `automaton` kernel; literal starts and line starts, candidates.
    Split(Box<Split>),
}

impl Target {
    /// The target for a compiled search's GPU plan; `None` when the set's
    /// tables cannot be built (an empty pattern). Whether what it finds are
    /// matches or candidates is the plan's (`GpuPlan::offsets_are_matches`).
    pub fn new(plan: &GpuPlan) -> Option<Target> {
        match plan {
            GpuPlan::Literal(l) => Some(Target::One(l.clone())),
            GpuPlan::LiteralSet(set) | GpuPlan::Required(set) => {
                MultiTables::new(set).map(|t| Target::Many(Box::new(t)))
            }
            GpuPlan::FoldedSet(set) => {
                MultiTables::new_folded(set).map(|t| Target::Many(Box::new(t)))
            }
            GpuPlan::Automaton(a) => Some(Target::Automaton(a.clone())),
            GpuPlan::Split(p) => {
                let literals = match p.folded {
                    true => MultiTables::new_folded(&p.literals)?,
                    false => MultiTables::new(&p.literals)?,
                };
                if p.book.is_none() && p.automaton.is_none() {
                    return Some(Target::Many(Box::new(literals)));
                }
                Some(Target::Split(Box::new(Split {
                    literals,
                    book: p.book.as_deref().cloned(),
                    automaton: p.automaton.as_deref().cloned(),
                    exact_lines: plan.exact_lines(),
                })))
            }
        }
    }

    /// Runs `f` on the target's kind.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&dyn Kind) -> R) -> R {
        match self {
            Target::One(p) => f(&Literal(p)),
            Target::Many(t) => f(&**t),
            Target::Automaton(a) => f(&**a),
            Target::Split(s) => f(&**s),
        }
    }

    /// How many bytes a file's pieces cut across chunks of `chunk` bytes
    /// overlap by. A literal: its longest match less one, so a match
    /// across the cut lies whole in the next piece. The automaton, whose
    /// matches are lines of any length: up to [`LINE_OVERLAP`] bytes (half
    /// a chunk at most), so a line that starts in the overlap lies whole in
    /// the next piece; a cut whose overlap holds no line terminator has a
    /// longer line across it, and the pipeline leaves that file to the CPU
    /// (`cuts_at_lines`). A split pack: the same (a literal across a cut
    /// lies in a line that starts in the overlap, or in a long line that
    /// sends the file to the CPU), and at least the longest literal less one.
    /// `at_lines`: a literal's cuts too fall at lines, as the automaton's
    /// (its cut files are tallied by the lines each piece owns).
    pub fn cut_overlap(&self, chunk: usize, at_lines: bool) -> usize {
        let pattern = self.longest().max(1) - 1;
        match at_lines || self.cuts_at_lines() {
            true => LINE_OVERLAP.min(chunk / 2).max(pattern),
            false => pattern,
        }
    }

    /// The kind's offsets are line starts, and a file cut across chunks is
    /// searched on the GPU only where every cut's overlap holds a line
    /// terminator (see `cut_overlap`).
    pub fn cuts_at_lines(&self) -> bool {
        matches!(self, Target::Automaton(_) | Target::Split(_))
    }

    /// What the kind marks are exactly the starts of the selected lines
    /// (`GpuPlan::exact_lines`): tallied like matches of one byte.
    pub fn exact_lines(&self) -> bool {
        match self {
            Target::Split(s) => s.exact_lines,
            Target::Automaton(a) => a.exact_lines(),
            _ => false,
        }
    }

    /// Every line the kind may leave unsure holds a byte past ASCII
    /// (`Kind::unsure_only_past_ascii`).
    pub fn unsure_only_past_ascii(&self) -> bool {
        self.with(|k| k.unsure_only_past_ascii())
    }

    /// Its automata hold `-w` (`glushkov::word`) and step over a
    /// byte-order mark at a line's start: right for a file's first line
    /// (which the CPU judges again), not for such a line elsewhere.
    pub fn steps_over_line_boms(&self) -> bool {
        match self {
            Target::Split(s) => {
                s.book.as_ref().is_some_and(|b| b.word)
                    || s.automaton.as_ref().is_some_and(|a| a.word)
            }
            Target::Automaton(a) => a.word,
            _ => false,
        }
    }

    /// The longest pattern: chunks' cut pieces overlap by this - 1.
    pub fn longest(&self) -> usize {
        self.with(|k| k.longest())
    }

    /// The shortest pattern: a match must fit in its piece.
    pub fn shortest(&self) -> usize {
        self.with(|k| k.shortest())
    }

    /// The length of the longest match at `at` inside `hay`, if any.
    pub fn match_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        self.with(|k| k.match_at(hay, at))
    }

    /// What the kernel marks in `text`, and whether it is sure of every
    /// mark (`Kind::sure`), computed on the CPU.
    pub fn reference_sure(&self, text: &[u8]) -> (Vec<u64>, bool) {
        self.with(|k| k.reference_sure(text))
    }

    /// What the kernel marks in `text`, computed on the CPU.
    pub fn reference(&self, text: &[u8]) -> Vec<u64> {
        self.with(|k| k.reference(text))
    }
}
