//! A rule pack's first line after a UTF-8 byte-order mark.
//!
//! The CPU engine searches a file from after its UTF-8 byte-order mark;
//! a rule pack's automata on the GPU find lines by their terminators, so
//! its first line there starts at the file's first byte and holds the mark
//! (which `^`, `.` or a class may see). The GPU's verdict on the other
//! lines stands; the first line is judged again here, on the CPU, after
//! the mark: for a tally (which counts from after the mark, so the GPU's
//! first line counted nowhere) it is one line to add; for marks, a
//! candidate the CPU confirms. Before, such a file went whole to the CPU
//! engine (`Fallback::ByteOrderMark`), a cliff for folders of BOM files.

use super::Shared;
use std::borrow::Cow;

/// Whether `bytes`' first line after its first `skip` bytes (the mark)
/// holds a match of the pack (not yet inverted by `-v`); false when no
/// line follows the mark.
pub(super) fn first_line_matches(shared: &Shared, bytes: &[u8], skip: usize) -> bool {
    let rest = bytes.get(skip..).unwrap_or_default();
    if rest.is_empty() {
        return false;
    }
    let end = memchr::memchr(shared.cfg.terminator, rest).unwrap_or(rest.len());
    shared.compiled.line_matcher().is_match_line(&rest[..end])
}

/// The marks `FileOffsets` searches by, and whether they are exact: the
/// GPU's (file offsets, ascending) as they are, or with the first line
/// the CPU's (`first_line`) those and the first line's start, offset 0,
/// as candidates whose lines the CPU confirms.
pub(super) fn marks(offsets: &[u64], exact: bool, first_line: bool) -> (Cow<'_, [u64]>, bool) {
    match (first_line, offsets.first()) {
        (false, _) => (Cow::Borrowed(offsets), exact),
        (true, Some(0)) => (Cow::Borrowed(offsets), false),
        (true, _) => (
            std::iter::once(0).chain(offsets.iter().copied()).collect(),
            false,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_is_a_candidate_once() {
        let marks = |o: &[u64], exact, first| {
            let (m, e) = marks(o, exact, first);
            (m.into_owned(), e)
        };
        assert_eq!(marks(&[], true, true), (vec![0], false));
        assert_eq!(marks(&[0, 9], true, true), (vec![0, 9], false));
        assert_eq!(marks(&[4, 9], true, true), (vec![0, 4, 9], false));
        assert_eq!(marks(&[4, 9], true, false), (vec![4, 9], true));
        assert_eq!(marks(&[4], false, false), (vec![4], false));
    }
}
