//! The GPU's match starts in one file, as the prefilter of that file's CPU
//! search: the searcher asks for the next match at or after a position and
//! gets the next offset that really matches inside the bytes it searches.
//! So a GPU-searched file is confirmed and printed by the same code as on
//! the CPU engine, and the GPU can never change what is printed.

use super::searcher::Target;
use super::stats::Fallback;
use crate::engine::{LineStarts, Matcher};
use crate::search::count::count_byte;
use std::ops::Range;

/// A file's GPU offsets as the prefilter of its search.
pub struct FileOffsets<'s> {
    pub offsets: &'s [u64],
    pub target: &'s Target,
    /// False when the offsets are a regex's required literals: candidates,
    /// whose whole line the regex confirms (the literal may sit anywhere
    /// in the match). True for a pack's line starts when they are exactly
    /// the selected lines (`marks_are_lines`).
    pub exact: bool,
    /// The bytes searched are the file's after its first `skip` (a UTF-8
    /// byte-order mark); offsets are the file's. A match starting inside
    /// the mark is none; a candidate there (a line start) stands for the
    /// first line.
    pub skip: usize,
    /// The file's line terminators the GPU counted (`lines`), which number
    /// a split search's pieces without a pass of their own.
    pub counted: Option<Counted<'s>>,
    /// The file holds no NUL byte ([`holds_no_nul`]): its printed lines
    /// need no watch for binary data.
    pub no_nul: bool,
}

/// The line terminators the GPU counted in bytes `start..end` of a file
/// (a block of a chunk that lies in one piece of it: `lines`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCount {
    pub start: u64,
    pub end: u64,
    pub terminators: u64,
    /// The bytes hold a NUL (never set when the terminator is NUL).
    pub holds_nul: bool,
}

/// A file's counted spans, ascending by start (overlapping where the
/// file's pieces overlap, missing where a piece was not read), and the
/// byte they counted.
pub struct Counted<'s> {
    pub spans: &'s [LineCount],
    pub terminator: u8,
}

/// The bytes `t` in `bytes`, which start at file offset `from`: the spans
/// that lie inside it give their counts, in order and each past the last
/// one taken; the bytes between them are counted here.
fn counted_terminators(spans: &[LineCount], bytes: &[u8], from: u64, t: u8) -> u64 {
    let end = from + bytes.len() as u64;
    let mut at = from;
    let mut n = 0;
    let slice = |a: u64, b: u64| &bytes[(a - from) as usize..(b - from) as usize];
    for s in &spans[spans.partition_point(|s| s.start < from)..] {
        if s.start >= end {
            break;
        }
        if s.start < at || s.end > end {
            continue;
        }
        n += count_byte(slice(at, s.start), t) + s.terminators;
        at = s.end;
    }
    n + count_byte(slice(at, end), t)
}

/// Whether `file` (a file's bytes from its start) holds no NUL byte, from
/// the GPU's counted `spans` (ascending by start, in file offsets) and a
/// `memchr` of the bytes no span covers (the edges of the file's pieces in
/// the chunks, less than two blocks a chunk). Dense `-n` output watched
/// each printed line for a NUL: 9-12 % of the CPU samples of `-n` with
/// 1,000 rules over 16 GiB of logs (H200 host, `perf`). `false` (keep the
/// watch) where the spans are missing or cover less than most of the
/// file, where a second pass over it would cost more than it saves.
pub fn holds_no_nul(spans: &[LineCount], file: &[u8]) -> bool {
    let len = file.len() as u64;
    let mut gaps = Vec::new();
    let mut at = 0;
    for s in spans {
        if s.holds_nul || s.end > len {
            return false;
        }
        if s.start > at {
            gaps.push(at..s.start);
        }
        at = at.max(s.end);
    }
    gaps.push(at..len);
    let uncovered: u64 = gaps.iter().map(|g| g.end - g.start).sum();
    uncovered <= len / UNCOVERED_MAX
        && gaps
            .iter()
            .all(|g| memchr::memchr(0, &file[g.start as usize..g.end as usize]).is_none())
}

/// [`holds_no_nul`] reads the bytes no span covers only when they are at
/// most this fraction of the file.
const UNCOVERED_MAX: u64 = 8;

/// Whether a file's marks are exactly its selected lines' starts, so that
/// printing them (`-n`, `-o`, context) needs no confirm on the CPU: a pack
/// the GPU decides exactly (`Target::exact_lines`; each cut piece kept the
/// lines it owns, `Lane::whole_lines`), and no piece of the file was
/// unsure (`Fallback::UnsureLines`, whose marks are candidates).
pub fn marks_are_lines(target: &Target, untallied: Option<Fallback>) -> bool {
    target.exact_lines() && untallied != Some(Fallback::UnsureLines)
}

thread_local! {
    /// Where this thread's last [`first_at_or_after`] ended: the searcher
    /// asks for ascending positions, so the next answer is near.
    static LAST: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The index of the first offset at or after `from` in `offsets`
/// (ascending): `partition_point`, but galloping from this thread's last
/// answer when every offset before it lies before `from` (which holds
/// whatever slice that answer was for). A binary search over a large
/// file's millions of marks per printed line was a third of the line's
/// cost (dev VM, `perf`).
fn first_at_or_after(offsets: &[u64], from: u64) -> usize {
    let hint = LAST.with(|l| l.get());
    let below = |i: usize| offsets[i] < from;
    let i = match hint <= offsets.len() && (hint == 0 || below(hint - 1)) {
        // offsets[..hint] lie before `from`: gallop to a bound past it.
        true => {
            let mut lo = hint;
            let mut step = 1;
            while lo + step <= offsets.len() && below(lo + step - 1) {
                lo += step;
                step *= 2;
            }
            let hi = (lo + step).min(offsets.len());
            lo + offsets[lo..hi].partition_point(|&o| o < from)
        }
        false => offsets.partition_point(|&o| o < from),
    };
    LAST.with(|l| l.set(i));
    i
}

impl Matcher for FileOffsets<'_> {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let skip = self.skip as u64;
        // A candidate inside the mark stands for the first line.
        let from = match (self.exact, at) {
            (false, 0) => 0,
            _ => at as u64 + skip,
        };
        let i = first_at_or_after(self.offsets, from);
        for &g in &self.offsets[i..] {
            let g = g.saturating_sub(skip) as usize;
            // `hay` is the file or a prefix of it (a piece of a split search).
            let len = match self.target {
                // Exact: inside the file by the pieces' bounds. Offsets
                // ascend: if this one runs past the end, so do all later.
                Target::One(p) => return (g + p.len() <= hay.len()).then(|| g..g + p.len()),
                // The kernel checked patterns against the whole chunk: one
                // may have run past the file's end into the next. Checked
                // again inside `hay`, which also gives the longest.
                Target::Many(t) => t.longest_at(hay, g),
                // A line start (candidates): the searcher takes the line
                // around it and the regex confirms it.
                // A split pack's literal starts too: the line around one
                // is confirmed against the rules.
                Target::Automaton(_) | Target::Split(_) => return (g < hay.len()).then_some(g..g),
            };
            if let Some(len) = len {
                return Some(g..g + len);
            }
        }
        None
    }

    fn is_exact(&self) -> bool {
        self.exact
    }

    /// Exact line starts (a pack's exact lines, `Target::exact_lines`)
    /// select their lines: the confirm step only finds what to print.
    fn selects_lines(&self) -> bool {
        self.exact && matches!(self.target, Target::Automaton(_) | Target::Split(_))
    }

    fn terminators_at(&self, bytes: &[u8], at: u64, t: u8) -> Option<u64> {
        let c = self.counted.as_ref()?;
        if c.terminator != t || c.spans.is_empty() {
            return None;
        }
        Some(counted_terminators(c.spans, bytes, at, t))
    }

    fn holds_no_nul(&self) -> bool {
        self.no_nul
    }

    /// A pack's exact line starts (`selects_lines`).
    fn line_starts(&self) -> Option<LineStarts<'_>> {
        self.selects_lines().then_some(LineStarts {
            offsets: self.offsets,
            skip: self.skip as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use crate::engine::gpu::MultiTables;
    use crate::search::{Line, SearchOptions, Searcher, Sink};
    use proptest::prelude::*;
    use std::io;

    #[derive(Default)]
    struct Lines(Vec<u64>);
    impl Sink for Lines {
        fn selected(&mut self, line: &Line) -> io::Result<bool> {
            self.0.push(line.offset);
            Ok(true)
        }
        fn context(&mut self, _: &Line) -> io::Result<()> {
            Ok(())
        }
        fn gap(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn selected(data: &[u8], m: &dyn Matcher, line: &dyn Matcher) -> Vec<u64> {
        let opts = SearchOptions::lines(b'\n', false);
        let mut sink = Lines::default();
        Searcher::with_line_matcher(opts, m, line, true)
            .search_slice(data, &mut sink)
            .unwrap();
        sink.0
    }

    proptest! {
        /// The galloping lookup is `partition_point` for any sequence of
        /// positions (ascending, repeated, going back) over any slices
        /// (the hint left by one slice serves the next).
        #[test]
        fn first_at_or_after_is_partition_point(
            mut a in prop::collection::vec(0u64..200, 0..80),
            mut b in prop::collection::vec(0u64..200, 0..20),
            queries in prop::collection::vec((any::<bool>(), 0u64..210), 0..60),
        ) {
            a.sort_unstable();
            b.sort_unstable();
            for (on_a, from) in queries {
                let s = if on_a { &a } else { &b };
                prop_assert_eq!(first_at_or_after(s, from), s.partition_point(|&o| o < from));
            }
        }

        /// Every occurrence (overlapping ones included, as the GPU reports
        /// them) selects exactly the lines memmem selects.
        #[test]
        fn file_offsets_select_the_same_lines_as_memmem(
            file in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..60),
            pattern in prop::collection::vec(prop::sample::select(b"ab".to_vec()), 1..4),
        ) {
            let offsets: Vec<u64> = (0..file.len())
                .filter(|&i| file[i..].starts_with(&pattern))
                .map(|i| i as u64)
                .collect();
            let target = Target::One(pattern.clone());
            let gpu = FileOffsets { offsets: &offsets, target: &target, exact: true, skip: 0, counted: None, no_nul: false };
            let lit = Literal::new(&pattern);
            prop_assert_eq!(selected(&file, &gpu, &lit), selected(&file, &lit, &lit));
        }

        /// For a set, offsets may also hold positions where a pattern only
        /// matched across the file's end (in the chunk): those are checked
        /// again, and the lines selected are a naive search's.
        #[test]
        fn set_offsets_are_checked_again(
            file in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..60),
            pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab".to_vec()), 1..4), 2..5),
            noise in prop::collection::vec(0usize..70, 0..10),
        ) {
            let naive = NaiveSet(pats.clone());
            let mut offsets: Vec<u64> = (0..file.len())
                .filter(|&i| naive.longest_at(&file, i).is_some())
                .map(|i| i as u64)
                .chain(noise.iter().map(|&n| n as u64))
                .collect();
            offsets.sort_unstable();
            offsets.dedup();
            let target = Target::Many(Box::new(MultiTables::new(&pats).unwrap()));
            let gpu = FileOffsets { offsets: &offsets, target: &target, exact: true, skip: 0, counted: None, no_nul: false };
            prop_assert_eq!(selected(&file, &gpu, &naive), selected(&file, &naive, &naive));
        }
    }

    proptest! {
        /// The terminators counted from the GPU's spans are those in
        /// the bytes asked for, whatever spans there are: overlapping
        /// (pieces of a cut file), missing (pieces not read), or running
        /// past the range; the byte is the one they counted.
        #[test]
        fn counted_terminators_are_the_bytes_own(
            file in prop::collection::vec(prop::sample::select(b"ab\n\0".to_vec()), 0..300),
            cuts in prop::collection::vec((0usize..300, 1usize..80), 0..12),
            range in (0usize..300, 0usize..300),
            skip in 0usize..4,
            nul in any::<bool>(),
        ) {
            let t = if nul { 0 } else { b'\n' };
            let mut spans: Vec<LineCount> = cuts
                .iter()
                .map(|&(s, len)| (s.min(file.len()), (s + len).min(file.len())))
                .map(|(s, e)| LineCount {
                    start: s as u64,
                    end: e as u64,
                    terminators: file[s..e].iter().filter(|&&b| b == t).count() as u64,
                    holds_nul: t != 0 && file[s..e].contains(&0),
                })
                .collect();
            spans.sort_by_key(|l| l.start);
            let skip = skip.min(file.len());
            let hay = &file[skip..];
            let (a, b) = (range.0.min(hay.len()), range.1.min(hay.len()));
            let (a, b) = (a.min(b), a.max(b));
            let target = Target::One(b"a".to_vec());
            let m = FileOffsets {
                offsets: &[],
                target: &target,
                exact: true,
                skip,
                counted: Some(Counted { spans: &spans, terminator: t }),
                no_nul: false,
            };
            // The searched bytes start after the mark: at its end in the
            // file.
            let at = (skip + a) as u64;
            let want = hay[a..b].iter().filter(|&&c| c == t).count() as u64;
            match spans.is_empty() {
                true => prop_assert_eq!(m.terminators_at(&hay[a..b], at, t), None),
                false => prop_assert_eq!(m.terminators_at(&hay[a..b], at, t), Some(want)),
            }
            // Counted for another byte: not an answer.
            prop_assert_eq!(m.terminators_at(&hay[a..b], at, b'x'), None);
        }

        /// A file said to hold no NUL holds none, whatever spans there
        /// are; one whose spans cover it whole and that holds none is
        /// said to.
        #[test]
        fn a_file_said_to_hold_no_nul_holds_none(
            file in prop::collection::vec(prop::sample::select(b"ab\n\0".to_vec()), 0..300),
            rare_nul in any::<bool>(),
            cuts in prop::collection::vec((0usize..300, 1usize..80), 0..12),
            whole in any::<bool>(),
        ) {
            let mut file = file;
            if rare_nul {
                file.iter_mut().filter(|b| **b == 0).skip(1).for_each(|b| *b = b'a');
            }
            let span = |s: usize, e: usize| LineCount {
                start: s as u64,
                end: e as u64,
                terminators: 0,
                holds_nul: file[s..e].contains(&0),
            };
            let mut spans: Vec<LineCount> = match whole {
                // Blocks end to end over the whole file.
                true => (0..file.len()).step_by(16).map(|s| span(s, (s + 16).min(file.len()))).collect(),
                false => cuts
                    .iter()
                    .map(|&(s, len)| span(s.min(file.len()), (s + len).min(file.len())))
                    .collect(),
            };
            spans.sort_by_key(|l| l.start);
            let said = holds_no_nul(&spans, &file);
            prop_assert!(!said || !file.contains(&0));
            if whole && !file.is_empty() {
                prop_assert_eq!(said, !file.contains(&0));
            }
        }
    }

    /// The longest pattern at the leftmost position: obviously correct.
    struct NaiveSet(Vec<Vec<u8>>);

    impl NaiveSet {
        fn longest_at(&self, hay: &[u8], at: usize) -> Option<usize> {
            self.0
                .iter()
                .filter(|p| hay[at..].starts_with(p))
                .map(|p| p.len())
                .max()
        }
    }

    impl Matcher for NaiveSet {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            (at..hay.len()).find_map(|i| self.longest_at(hay, i).map(|l| i..i + l))
        }
    }

    /// Regression: a split search hands each thread a prefix of the file;
    /// offsets past the prefix made the searcher slice out of bounds.
    #[test]
    fn offsets_past_a_prefix_of_the_file_are_not_reported() {
        let offsets = [2, 10];
        let target = Target::One(b"xx".to_vec());
        let m = FileOffsets {
            offsets: &offsets,
            target: &target,
            exact: true,
            skip: 0,
            counted: None,
            no_nul: false,
        };
        let file = [b'x'; 20];
        assert_eq!(m.find_at(&file, 0), Some(2..4));
        assert_eq!(m.find_at(&file[..8], 3), None);
        assert_eq!(m.find_at(&file[..12], 3), Some(10..12));
        assert_eq!(m.find_at(&file[..11], 3), None);
    }

    /// After a byte-order mark of 3 bytes the haystack is the file from
    /// byte 3: offsets shift down, a match starting inside the mark is
    /// none, a candidate there is the first line's.
    #[test]
    fn offsets_after_a_byte_order_mark_shift() {
        let offsets = [1, 3, 7];
        let target = Target::One(b"xx".to_vec());
        let m = |exact| FileOffsets {
            offsets: &offsets,
            target: &target,
            exact,
            skip: 3,
            counted: None,
            no_nul: false,
        };
        let hay = [b'x'; 10];
        assert_eq!(m(true).find_at(&hay, 0), Some(0..2));
        assert_eq!(m(true).find_at(&hay, 1), Some(4..6));
        assert_eq!(m(false).find_at(&hay, 0), Some(0..2));
        let two = [1u64];
        let m = FileOffsets {
            offsets: &two,
            target: &target,
            exact: true,
            skip: 3,
            counted: None,
            no_nul: false,
        };
        assert_eq!(m.find_at(&hay, 0), None);
    }
}
