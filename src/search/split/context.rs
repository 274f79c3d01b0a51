//! Context lines (`-A`, `-B`, `-C`) across the pieces of a split slice.
//!
//! Each piece prints the lines it holds, and only those: its selected
//! lines, their context inside it, the first lines that are after-context
//! of a selected line before it (looked for among the `-A` lines before
//! the piece), and the last lines that are before-context of a selected
//! line after it (among the `-B` lines after it). Whether a group
//! separator goes between two pieces' output is known only in order: the
//! appender prints one where the last line printed before a piece does
//! not end where the piece's first printed line starts, which is the
//! one-thread searcher's own rule. Before, any context kept a large file
//! on one thread.

use crate::engine::Matcher;
use crate::search::{Line, SearchOptions, Sink};
use memchr::{memchr, memrchr};
use std::io;

/// What a piece owes to selected lines outside it: its first `owed` lines
/// are after-context of one before it, its last `before_next` lines
/// before-context of one after it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Edges {
    pub(super) owed: usize,
    pub(super) before_next: usize,
}

/// The context that the piece `data[start..end]` owes to selected lines
/// of the rest of `data` (the whole slice).
pub(super) fn edges(
    data: &[u8],
    start: usize,
    end: usize,
    opts: &SearchOptions,
    line_matcher: &dyn Matcher,
) -> Edges {
    let t = opts.terminator;
    let selected = |line: &[u8]| line_matcher.is_match_line(line) != opts.invert;
    let mut edges = Edges::default();
    // The lines before the piece, nearest first.
    let mut pos = start;
    for j in 1..=opts.after {
        if pos == 0 {
            break;
        }
        let from = memrchr(t, &data[..pos - 1]).map_or(0, |i| i + 1);
        if selected(&data[from..pos - 1]) {
            edges.owed = opts.after + 1 - j;
            break;
        }
        pos = from;
    }
    // The lines after it, nearest first.
    let mut pos = end;
    for e in 1..=opts.before {
        if pos >= data.len() {
            break;
        }
        let to = memchr(t, &data[pos..]).map_or(data.len(), |i| pos + i);
        if selected(&data[pos..to]) {
            edges.before_next = opts.before + 1 - e;
            break;
        }
        pos = to + 1;
    }
    edges
}

/// Where a piece's printed lines begin and end (absolute offsets: the
/// first one's start, past the last one's terminator).
pub(super) type Printed = Option<(u64, u64)>;

/// A piece's printer as the searcher drives it with context: notes where
/// the printed lines begin and end, and leaves out a group separator
/// before the first (the appender decides that one).
pub(super) struct Track<'p> {
    pub(super) sink: &'p mut dyn Sink,
    pub(super) printed: Printed,
}

impl Track<'_> {
    fn note(&mut self, line: &Line) {
        let end = line.offset + line.bytes.len() as u64 + 1;
        let first = self.printed.map_or(line.offset, |(first, _)| first);
        self.printed = Some((first, end));
    }
}

impl Sink for Track<'_> {
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        self.note(line);
        self.sink.selected(line)
    }

    fn context(&mut self, line: &Line) -> io::Result<()> {
        self.note(line);
        self.sink.context(line)
    }

    fn gap(&mut self) -> io::Result<()> {
        match self.printed {
            Some(_) => self.sink.gap(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;

    fn opts(before: usize, after: usize, invert: bool) -> SearchOptions {
        SearchOptions {
            terminator: b'\n',
            invert,
            max_count: None,
            before,
            after,
            line_numbers: false,
            stop_on_nul: false,
            separators: true,
        }
    }

    #[test]
    fn edges_count_the_lines_to_the_nearest_selected_line_outside() {
        let data = b"x\nab\ny\nz\nw\nab\nv\n";
        let m = Literal::new(b"ab");
        // Piece "y\nz\n" (4..8): "ab" one line before, one line after "w".
        let e = edges(data, 5, 9, &opts(3, 3, false), &m);
        assert_eq!(
            e,
            Edges {
                owed: 3,
                before_next: 2
            }
        );
        let e = edges(data, 5, 9, &opts(1, 1, false), &m);
        assert_eq!(
            e,
            Edges {
                owed: 1,
                before_next: 0
            }
        );
        // Inverted, "w" right after the piece is selected.
        let e = edges(data, 5, 9, &opts(2, 0, true), &m);
        assert_eq!(
            e,
            Edges {
                owed: 0,
                before_next: 2
            }
        );
    }
}
