//! A rule pack's confirm step where matches are printed (`-o`, colour,
//! `--count-matches`, JSON): which lines match, from the rules trimmed for
//! lines (`pattern::trim`), and where the matches are, from the rules as
//! written.
//!
//! Trimmed, gitleaks' 221 secret rules take 181 MiB of automata; whole,
//! 519 MiB, past the pack's limit (`PACK_NFA_LIMIT`), so `-o` stopped with
//! "rule pack too large". Their spans come from the whole rules with their
//! cuts to ASCII (`LineRegex`), the large ones' full regexes without a
//! lazy DFA: 150 MiB more, for the lines that match.

use crate::engine::Matcher;
use std::ops::Range;

pub struct LinesAndSpans {
    lines: Box<dyn Matcher>,
    spans: Box<dyn Matcher>,
}

impl LinesAndSpans {
    /// `lines` decides lines; `spans`, matching the same lines, places the
    /// matches in them.
    pub fn new(lines: Box<dyn Matcher>, spans: Box<dyn Matcher>) -> LinesAndSpans {
        LinesAndSpans { lines, spans }
    }
}

impl Matcher for LinesAndSpans {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        self.spans.find_at(hay, at)
    }

    fn is_exact(&self) -> bool {
        self.lines.is_exact()
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.lines.is_match_line(line)
    }

    fn selects_lines(&self) -> bool {
        self.lines.selects_lines()
    }
}
