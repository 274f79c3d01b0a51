//! A rule pack's confirm step where matches are printed (`-o`, colour,
//! `--count-matches`, JSON): which lines match, from the rules trimmed for
//! lines (`pattern::trim`), and where the matches are, from the rules as
//! written.
//!
//! Gitleaks' 221 secret rules as written took 519 MiB of automata, past
//! the pack's limit (`PACK_NFA_LIMIT`), so `-o` stopped with "rule pack
//! too large" though their trimmed forms fit. The whole rules now place
//! the matches each with its cut to ASCII (`LineRegex`), the large ones'
//! full regexes without a lazy DFA (170 MiB), or as their alternation
//! where that is small (`pattern::compile::pack`).

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
