//! Engines find where patterns occur in a haystack.
//!
//! Every engine answers one question, [`Matcher::find_at`]: where is the
//! leftmost match at or after `at`? An engine may be exact (its answer is the
//! match) or a prefilter (its answer is a candidate that `confirm` checks on
//! the line). The searcher never needs to know which engine it drives.

pub mod cpu;
pub mod gpu;
pub mod qgram;

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
}
