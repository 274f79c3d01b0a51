//! The lines holding a candidate (one of a few bytes, or a literal) every
//! match of a regex holds, searched by the regex's DFA. Two kinds of regex
//! take it, each raced against the DFA alone (`engine::fastest`), which
//! measures both finders' whole cost: each answers lines the regex (or its
//! relaxation) selects, as `RegexLines` does.
//!
//! - A byte (`pattern::required_bytes`) that the regex's own engine does
//!   not look for: `.{10}x.{10}`'s `x`, which the meta engine, with no
//!   prefix to find, leaves to its lazy DFA over every byte (2.2 ns a byte
//!   over CI logs, where ripgrep finds the lines by the `x`).
//! - A literal that the meta engine looks for itself, from a match's end
//!   or middle (`[A-Z][a-z]+ing`): a candidate that fails costs it a few
//!   bytes of reverse DFA, and costs a line's bounds and a search of the
//!   line here. Where most candidates fail, as `ing` in prose, the DFA
//!   alone is faster (0.47 against 0.72 ns a byte); where a line holds
//!   several (`, ` in `[A-Z]\w+, [A-Z]\w+`), the lines are.

use super::{Candidates, RegexLines};
use crate::engine::Matcher;
use memchr::{memchr, memrchr};
use std::ops::Range;

/// The lines holding a candidate, searched by a regex every match of
/// which holds one.
pub struct CandidateLines {
    candidates: Candidates,
    terminator: u8,
    dfa: RegexLines,
}

impl CandidateLines {
    pub fn new(candidates: Candidates, terminator: u8, dfa: RegexLines) -> CandidateLines {
        CandidateLines {
            candidates,
            terminator,
            dfa,
        }
    }
}

impl Matcher for CandidateLines {
    fn find_at(&self, hay: &[u8], mut at: usize) -> Option<Range<usize>> {
        let t = self.terminator;
        loop {
            let hit = self.candidates.find_at(hay, at)?.start;
            // The DFA searches the line from its start (or from `at`, where
            // the searcher asks from inside a line), seeing the bytes
            // around it as its look-around needs.
            let start = memrchr(t, &hay[at..hit]).map_or(at, |i| at + i + 1);
            let end = memchr(t, &hay[hit..]).map_or(hay.len(), |i| hit + i);
            if let Some(m) = self.dfa.find_within(hay, start..end) {
                return Some(m);
            }
            at = end.checked_add(1)?;
        }
    }

    fn is_exact(&self) -> bool {
        self.dfa.is_exact()
    }

    fn selects_lines(&self) -> bool {
        self.dfa.selects_lines()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::selected_line_starts;
    use proptest::prelude::*;
    use regex_automata::meta;

    proptest! {
        #[test]
        fn candidate_lines_select_what_the_dfa_alone_selects(
            hay in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), Just(b'x'), Just(b'y'), Just(b' '), Just(0xC3), Just(0xA9)],
                0..600,
            ),
            n in 0usize..6,
        ) {
            let bytes = |b: &[u8]| Candidates::any_byte(b).unwrap();
            let literals = |l: &[&[u8]]| Candidates::new(&l.iter().map(|l| l.to_vec()).collect::<Vec<_>>()).unwrap();
            let patterns = [
                (format!("(?m).{{{n}}}x.{{{n}}}"), bytes(b"x")),
                (format!("(?m)(x|y)[a ]{{{n},}}$"), bytes(b"xy")),
                (format!("(?m)^a{{{n}}}[xy\u{e9}]"), bytes(b"xy\xc3")),
                (format!("(?m)\\bx\\b|y{{{}}}", n + 1), bytes(b"xy")),
                (format!("(?m)[a-y]{{{n},}}xay"), literals(&[b"xay"])),
                (format!("(?m)a{{{n}}}(xy|yx)a*$"), literals(&[b"xy", b"yx"])),
                (format!("(?m)[^ \\n]+ x{{{n}}}a"), literals(&[b" "])),
            ];
            for (pattern, candidates) in patterns {
                let re = meta::Regex::new(&pattern).unwrap();
                let alone = RegexLines::new(re.clone(), true);
                let lines = CandidateLines::new(candidates, b'\n', RegexLines::new(re, true));
                prop_assert_eq!(
                    selected_line_starts(&lines, &hay),
                    selected_line_starts(&alone, &hay),
                    "{}", pattern
                );
            }
        }
    }
}
