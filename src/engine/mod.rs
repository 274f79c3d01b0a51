//! Engines find where patterns occur in a haystack.
//!
//! Every engine answers one question, [`Matcher::find_at`]: where is the
//! leftmost match at or after `at`? An engine may be exact (its answer is the
//! match) or a prefilter (its answer is a candidate that `confirm` checks on
//! the line). The searcher never needs to know which engine it drives.

pub mod cpu;
pub mod fastest;
pub mod gpu;
pub mod qgram;
pub mod retimed;
pub mod shiftor;

use std::ops::Range;

/// Finds matches or candidates in a haystack.
pub trait Matcher: Send + Sync {
    /// The leftmost match (or candidate) starting at or after `at`, if any.
    /// A returned range may cross line terminators; the searcher handles that.
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>>;

    /// False for a prefilter whose answers are only candidates: the
    /// searcher then confirms each candidate line with the line matcher.
    fn is_exact(&self) -> bool {
        true
    }

    /// Whether one line (a slice holding exactly that line) matches. The
    /// searcher confirms candidate lines with this; an engine that can
    /// answer without finding the match's bounds overrides it.
    fn is_match_line(&self, line: &[u8]) -> bool {
        self.find_at(line, 0).is_some()
    }

    /// True for an exact engine whose answers only locate a matching line
    /// (a match's end, not its bounds): a hit selects its line without the
    /// confirm step, which stays for printing the matches.
    fn selects_lines(&self) -> bool {
        false
    }

    /// For a candidate finder: how far before its leftmost candidate in a
    /// line the confirm's matches can start (`None`: anywhere). With a
    /// candidate at `p`, the first at or after the line's start, every
    /// match of the confirm in that line starts at or after `p - reach`,
    /// so the searcher confirms from there (`find_at`) rather than from
    /// the line's start. Only a finder built beside its confirm knows it.
    fn candidate_reach(&self) -> Option<usize> {
        None
    }

    /// The bytes `t` in `bytes`, which lie at offset `at` of the input (the
    /// offsets a searcher's `base` gives: a file's), where this engine
    /// knows them without reading most of them: under `-n` the GPU counts
    /// each chunk's line terminators (`run::gpu::lines`,
    /// `run::gpu::offsets::FileOffsets`), so a split search numbers its
    /// pieces, and a searcher the lines far from the last it printed,
    /// without a pass of their own.
    fn terminators_at(&self, _bytes: &[u8], _at: u64, _t: u8) -> Option<u64> {
        None
    }

    /// True where this engine knows that the haystack holds no NUL byte
    /// (the GPU looked at every byte of the file: `run::gpu::offsets`):
    /// the searcher then keeps no watch for binary data in the lines it
    /// prints, a `memchr` pass over the printed lines' neighbourhood.
    fn holds_no_nul(&self) -> bool {
        false
    }

    /// The starts of the lines this engine selects, ascending, when its
    /// answers are exactly those (a rule pack's exact marks on the GPU:
    /// `find_at` answers `g..g` for the first start `g + skip` at or
    /// after `at + skip`): the searcher walks them instead of asking for
    /// each (`Searcher::search_plain`).
    fn line_starts(&self) -> Option<LineStarts<'_>> {
        None
    }
}

/// A shared engine answers as the engine (a confirm step that is also
/// part of a finder: `cpu::ConfirmedLines`).
impl<M: Matcher + ?Sized> Matcher for std::sync::Arc<M> {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        (**self).find_at(hay, at)
    }

    fn is_exact(&self) -> bool {
        (**self).is_exact()
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        (**self).is_match_line(line)
    }

    fn selects_lines(&self) -> bool {
        (**self).selects_lines()
    }

    fn candidate_reach(&self) -> Option<usize> {
        (**self).candidate_reach()
    }

    fn terminators_at(&self, bytes: &[u8], at: u64, t: u8) -> Option<u64> {
        (**self).terminators_at(bytes, at, t)
    }

    fn holds_no_nul(&self) -> bool {
        (**self).holds_no_nul()
    }

    fn line_starts(&self) -> Option<LineStarts<'_>> {
        (**self).line_starts()
    }
}

/// The start of each line a finder of lines selects in `hay` (ended by
/// `\n`), searching on from the line after each: what a searcher walks.
#[cfg(test)]
pub(crate) fn selected_line_starts(m: &dyn Matcher, hay: &[u8]) -> Vec<usize> {
    let (mut at, mut out) = (0, Vec::new());
    while let Some(hit) = m.find_at(hay, at) {
        let start = memchr::memrchr(b'\n', &hay[..hit.start]).map_or(0, |i| i + 1);
        out.push(start);
        match memchr::memchr(b'\n', &hay[hit.start..]) {
            Some(i) => at = hit.start + i + 1,
            None => break,
        }
    }
    out
}

/// An engine's selected lines' starts ([`Matcher::line_starts`]): offsets
/// `skip` past the haystack's positions (a byte-order mark searched
/// after), ascending, repeats allowed.
#[derive(Clone, Copy)]
pub struct LineStarts<'a> {
    pub offsets: &'a [u64],
    pub skip: u64,
}
