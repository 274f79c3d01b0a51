//! A large literal set that holds a few very short patterns: those through
//! a small Aho-Corasick DFA, the rest through the q-gram filter, merged
//! leftmost-longest.
//!
//! # Why
//!
//! The q-gram filter keys every pattern by at least its first `q` bytes, so
//! one pattern of 1 byte makes it decline the set, and one of 2 or 3 makes
//! every short key a 2- or 3-byte prefix, which real text hits everywhere.
//! A word list holds such words ("a", "I", "of"): 10,000 wamerican words
//! hold 56 of one or two letters. Such a set used to go to a full
//! Aho-Corasick DFA, whose construction alone took 0.11 s (85 % of a
//! search of a 6-byte file; `-l` over 600 files was 4x ripgrep's time).
//! The short patterns are few (at most a few hundred in a word list) and
//! their DFA builds in well under a millisecond; the rest keep a filter
//! keyed by 4 bytes or more.
//!
//! # Merge
//!
//! Each call looks at a window of start positions `at..lim`: the short DFA
//! finds its leftmost-longest match starting there (the haystack is cut at
//! `lim + SHORT_MAX - 1`, which holds every such match whole), then the
//! filter looks only at starts up to that match's start
//! ([`QGram::find_before`]). The earlier start wins; on a tie the filter's
//! match does, as every pattern of its set is longer than any short one.
//! Both sets are leftmost-longest, so the result is the whole set's.
//! A window without a match of either grows twice as large, so that a
//! search costs at most about twice the bytes to its answer in each
//! matcher, however the matches of the two sets interleave.
//!
//! # Speed (measured)
//!
//! 100 MB of the dense prose corpus, 10,000 wamerican words, one thread,
//! ms (build; first match per line as `-c` asks; every match as `-o`):
//!
//! | matcher                   | build | per line | every match |
//! |---------------------------|------:|---------:|------------:|
//! | Aho-Corasick DFA (before) |   105 |      123 |       1,384 |
//! | Aho-Corasick NFA          |    17 |       89 |       1,211 |
//! | this                      |     2 |       91 |       1,699 |
//!
//! Where matches are sparse (the same words made 98 % absent) this takes
//! 516 ms against the DFA's 697 and the NFA's 892.

use super::QGram;
use crate::engine::Matcher;
use aho_corasick::{AhoCorasick, Input};
use memchr::memrchr;
use std::ops::Range;
use std::sync::Arc;

/// Patterns shorter than this go to the short DFA; the q-gram filter then
/// keys the rest by at least this many bytes.
pub const SHORT_BELOW: usize = 4;

/// First window of start positions a search looks at.
const FIRST_WINDOW: usize = 64;

/// Leftmost-longest matches of a short set (a DFA) and a long set (the
/// q-gram filter) together.
pub struct Split {
    /// Leftmost-longest automaton of the patterns shorter than
    /// [`SHORT_BELOW`] (none empty).
    short: AhoCorasick,
    /// The patterns of [`SHORT_BELOW`] bytes or more.
    long: Arc<QGram>,
}

impl Split {
    /// `short` must be a leftmost-longest automaton of non-empty patterns
    /// shorter than [`SHORT_BELOW`], `long` a filter of patterns no
    /// shorter, with the same case folding.
    pub fn new(short: AhoCorasick, long: QGram) -> Split {
        Split {
            short,
            long: Arc::new(long),
        }
    }

    /// The same set as a finder of matching lines (sharing the automata).
    pub fn lines(&self, terminator: u8) -> SplitLines {
        SplitLines {
            split: Split {
                short: self.short.clone(),
                long: self.long.clone(),
            },
            terminator,
        }
    }

    /// The short set's leftmost-longest match starting in `at..lim`.
    fn short_in(&self, hay: &[u8], at: usize, lim: usize) -> Option<Range<usize>> {
        let cut = lim.saturating_add(SHORT_BELOW - 1).min(hay.len());
        self.short
            .find(Input::new(&hay[..cut]).range(at..))
            .map(|m| m.range())
            .filter(|m| m.start < lim)
    }
}

impl Matcher for Split {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let n = hay.len();
        let mut at = at;
        let mut window = FIRST_WINDOW;
        while at < n {
            let lim = at.saturating_add(window).min(n);
            let short = self.short_in(hay, at, lim);
            let long_lim = short.as_ref().map_or(lim, |s| s.start + 1);
            match (short, self.long.find_before(hay, at, long_lim)) {
                (Some(s), Some(l)) if s.start < l.start => return Some(s),
                (_, Some(l)) => return Some(l),
                (Some(s), None) => return Some(s),
                (None, None) => {
                    at = lim;
                    window = window.saturating_mul(2);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;

/// [`Split`] as the searcher's finder of matching lines, when it only
/// needs to know which lines match (`-c`, `-l`, `-v`, lines without
/// colour): a match in the first matching line, not the leftmost-longest
/// one. Once the short set has a match, the filter looks only at the
/// starts before that match's line, which in dense text (a word list's
/// "a" on every line) is none: the filter's scan and confirmations of a
/// line's first bytes were a third of a `-c` search's time.
///
/// The patterns never hold the line terminator, so a match starting
/// before a line's start lies in an earlier line.
pub struct SplitLines {
    split: Split,
    terminator: u8,
}

impl Matcher for SplitLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let long = &self.split.long;
        let n = hay.len();
        let mut at = at;
        let mut window = FIRST_WINDOW;
        while at < n {
            let lim = at.saturating_add(window).min(n);
            if let Some(s) = self.split.short_in(hay, at, lim) {
                let line = memrchr(self.terminator, &hay[at..s.start]).map_or(at, |i| at + i + 1);
                return long.find_before(hay, at, line).or(Some(s));
            }
            if let Some(l) = long.find_before(hay, at, lim) {
                return Some(l);
            }
            at = lim;
            window = window.saturating_mul(2);
        }
        None
    }

    fn selects_lines(&self) -> bool {
        true
    }
}
