//! A candidate finder and its confirm step joined into one exact finder of
//! lines, so that it can be timed against another exact finder of the same
//! lines (`engine::retimed`): a rule pack's rules dispatched by their
//! literals against one DFA of the rules' alternation over the buffer
//! (`cpu::DfaLines`).
//!
//! Which of the two is faster depends on the rules and on the text, and
//! neither wins everywhere (2 cores, 1 GiB of loghub's logs, `-c -x`):
//! loghub's 1,733 event templates take 3.2 s dispatched and 0.95 s as one
//! automaton, nearly every line holding literals of some template;
//! gitleaks' 221 secret rules take 2.0 s dispatched and over 100 s as one
//! automaton (`GPUGREP_RULE_PACK=pack`), whose lazy DFA thrashes.

use crate::engine::Matcher;
use memchr::{memchr, memrchr};
use std::ops::Range;
use std::sync::Arc;

pub struct ConfirmedLines {
    finder: Box<dyn Matcher>,
    confirm: Arc<dyn Matcher>,
    t: u8,
}

impl ConfirmedLines {
    /// `finder`'s candidates (lines ended by `t`), each line decided by
    /// `confirm.is_match_line`.
    pub fn new(finder: Box<dyn Matcher>, confirm: Arc<dyn Matcher>, t: u8) -> ConfirmedLines {
        ConfirmedLines { finder, confirm, t }
    }
}

impl Matcher for ConfirmedLines {
    /// The first confirmed line holding a candidate at or after `at`, up
    /// to its terminator (a hit that selects the line; what `Retimed`
    /// counts as searched).
    fn find_at(&self, hay: &[u8], mut at: usize) -> Option<Range<usize>> {
        while at <= hay.len() {
            let hit = self.finder.find_at(hay, at)?.start.min(hay.len());
            let hit = hit.max(at);
            let start = memrchr(self.t, &hay[at..hit]).map_or(at, |i| at + i + 1);
            let end = memchr(self.t, &hay[hit..]).map_or(hay.len(), |i| hit + i);
            // A line begun before `at` is the searcher's to have decided;
            // `at` is a line start wherever the searcher asks.
            if self.confirm.is_match_line(&hay[start..end]) {
                return Some(start..end);
            }
            at = end + 1;
        }
        None
    }

    fn selects_lines(&self) -> bool {
        true
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.confirm.is_match_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::{Literal, Regex};
    use proptest::prelude::*;
    use regex_automata::meta;

    proptest! {
        /// The lines selected are those holding a candidate and confirmed:
        /// here those holding `ab` and `x`, against a naive split.
        #[test]
        fn confirmed_lines_are_the_candidates_lines_that_match(text in "[abx\n]{0,200}") {
            let confirm: Arc<dyn Matcher> =
                Arc::new(Regex::new(meta::Regex::new("ab.*x|x.*ab").unwrap()));
            let lines = ConfirmedLines::new(Box::new(Literal::new(b"ab")), confirm, b'\n');
            let hay = text.as_bytes();
            let mut want = Vec::new();
            let mut start = 0;
            for line in hay.split(|&b| b == b'\n') {
                if line.windows(2).any(|w| w == b"ab") && line.contains(&b'x') {
                    want.push(start);
                }
                start += line.len() + 1;
            }
            let mut got = Vec::new();
            let mut at = 0;
            while let Some(m) = lines.find_at(hay, at) {
                prop_assert!(!hay[m.clone()].contains(&b'\n'));
                prop_assert!(m.end == hay.len() || hay[m.end] == b'\n');
                got.push(m.start);
                at = m.end + 1;
            }
            prop_assert_eq!(got, want);
        }
    }
}
