//! Output: what grep prints, in grep's format (`standard`) or ripgrep's
//! JSON Lines (`json`).
//!
//! Printers are [`Sink`](crate::search::Sink)s: the searcher hands them
//! lines, and they find the match positions they need (for `-o`, colour,
//! JSON submatches) with the line-level matcher, so the searcher stays
//! ignorant of formats. Each file's output goes to one writer; `run` decides
//! whether that is a buffer (parallel search, printed in order) or stdout.

pub mod color;
pub mod json;
pub mod standard;

use crate::engine::Matcher;
use std::ops::Range;

/// Visits the matches in one line, leftmost first, skipping nothing but
/// empty matches adjacent to the previous one. Stops when `f` says false.
pub fn for_each_match(matcher: &dyn Matcher, line: &[u8], mut f: impl FnMut(Range<usize>) -> bool) {
    let mut at = 0;
    let mut last_end: Option<usize> = None;
    while at <= line.len() {
        let Some(m) = matcher.find_at(line, at) else {
            break;
        };
        if m.is_empty() && last_end == Some(m.start) {
            // An empty match right after a match: move on one byte.
            at = m.start + 1;
            continue;
        }
        at = if m.is_empty() { m.end + 1 } else { m.end };
        last_end = Some(m.end);
        if !f(m) {
            break;
        }
    }
}
