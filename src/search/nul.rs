//! Whether a line to print holds a NUL byte (binary data found after the
//! sniffed head ends the output, as in GNU grep and ripgrep).
//!
//! Asked once per printed line, a byte loop over each line was 9 % of a
//! dense `-n` search's time (`<[u8]>::contains` is not vectorised). The
//! question is now answered from a window of up to [`WINDOW`] bytes
//! searched once with `memchr`: a line inside the window and before its
//! first NUL has none.

use super::searcher::Span;
use memchr::memchr;

/// Bytes searched for a NUL at once.
const WINDOW: usize = 64 << 10;

/// The part of one buffer searched for a NUL, and the first one found.
#[derive(Default)]
pub(super) struct NulWindow {
    start: usize,
    end: usize,
    /// The first NUL in `start..end`, if any.
    first: Option<usize>,
}

impl NulWindow {
    /// Forgets the window: the next question is about another buffer.
    pub(super) fn reset(&mut self) {
        *self = NulWindow::default();
    }

    /// Whether the line at `span` of `buf` holds a NUL byte; `ahead`: a
    /// line not in the window searched last is searched with the
    /// [`WINDOW`] after it, else alone.
    pub(super) fn has_nul(&mut self, buf: &[u8], span: Span, ahead: bool) -> bool {
        let Span { start, end } = span;
        let outside = start < self.start || end > self.end;
        if outside || self.first.is_some_and(|p| p < start) {
            let window = if ahead { WINDOW } else { 0 };
            let stop = end.max(start.saturating_add(window)).min(buf.len());
            self.start = start;
            self.end = stop;
            self.first = memchr(0, &buf[start..stop]).map(|i| start + i);
        }
        self.first.is_some_and(|p| p < end)
    }
}

#[cfg(test)]
mod tests {
    use super::{NulWindow, Span};
    use proptest::prelude::*;

    proptest! {
        /// Any sequence of questions about lines of one buffer is answered
        /// as the line's own bytes answer it.
        #[test]
        fn answers_as_the_line_does(
            len in 0usize..200_000,
            nuls in proptest::collection::vec(0usize..200_000, 0..20),
            spans in proptest::collection::vec((0usize..200_000, 0usize..300), 1..300),
        ) {
            let mut buf = vec![b'a'; len];
            for p in nuls.into_iter().filter(|&p| p < len) {
                buf[p] = 0;
            }
            let mut w = NulWindow::default();
            let mut spans = spans;
            // Mostly in order, as the searcher asks; some questions go back.
            let half = spans.len() / 2;
            spans[..half].sort_unstable();
            for (i, (start, n)) in spans.into_iter().enumerate() {
                let start = start.min(len);
                let end = (start + n).min(len);
                let span = Span { start, end };
                prop_assert_eq!(w.has_nul(&buf, span, i % 3 != 0), buf[start..end].contains(&0));
            }
        }
    }
}
