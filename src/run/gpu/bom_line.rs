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

/// The GPU's marks (file offsets, ascending) with the first line's start,
/// offset 0, among them: as candidates, the CPU confirms each line.
pub(super) fn with_first_line(offsets: &[u64]) -> Vec<u64> {
    match offsets.first() {
        Some(0) => offsets.to_vec(),
        _ => std::iter::once(0).chain(offsets.iter().copied()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_is_a_candidate_once() {
        assert_eq!(with_first_line(&[]), vec![0]);
        assert_eq!(with_first_line(&[0, 9]), vec![0, 9]);
        assert_eq!(with_first_line(&[4, 9]), vec![0, 4, 9]);
    }
}
