//! Lines for a regex every match of which holds one of a few bytes
//! (`pattern::required_bytes`) that its own engine does not look for:
//! `.{10}x.{10}`'s `x`, which the meta engine, with no prefix to find,
//! leaves to its lazy DFA over every byte (2.2 ns a byte over CI logs,
//! where ripgrep finds the lines by the `x`). Only the lines holding one
//! of the bytes go to the regex's DFA.
//!
//! Where most lines hold one this is the DFA plus a `memchr` a line, so it
//! is raced against the DFA alone (`engine::fastest`), which measures both
//! finders' whole cost: each answers lines the regex (or its relaxation)
//! selects, as `RegexLines` does.

use super::{Candidates, RegexLines};
use crate::engine::Matcher;
use memchr::{memchr, memrchr};
use std::ops::Range;

/// The lines holding one of up to three bytes, searched by a regex every
/// match of which holds one of them.
pub struct ByteLines {
    /// The bytes' finder: memchr, memchr2 or memchr3.
    bytes: Candidates,
    terminator: u8,
    dfa: RegexLines,
}

impl ByteLines {
    /// `bytes`: one to three bytes, one of which every match of the
    /// regex holds; `None` for another count.
    pub fn new(bytes: &[u8], terminator: u8, dfa: RegexLines) -> Option<ByteLines> {
        Some(ByteLines {
            bytes: Candidates::any_byte(bytes)?,
            terminator,
            dfa,
        })
    }
}

impl Matcher for ByteLines {
    fn find_at(&self, hay: &[u8], mut at: usize) -> Option<Range<usize>> {
        let t = self.terminator;
        loop {
            let hit = self.bytes.find_at(hay, at)?.start;
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
        fn byte_lines_select_what_the_dfa_alone_selects(
            hay in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), Just(b'x'), Just(b'y'), Just(b' '), Just(0xC3), Just(0xA9)],
                0..600,
            ),
            n in 0usize..6,
        ) {
            let patterns = [
                (format!("(?m).{{{n}}}x.{{{n}}}"), &b"x"[..]),
                (format!("(?m)(x|y)[a ]{{{n},}}$"), b"xy"),
                (format!("(?m)^a{{{n}}}[xy\u{e9}]"), b"xy\xc3"),
                (format!("(?m)\\bx\\b|y{{{}}}", n + 1), b"xy"),
            ];
            for (pattern, bytes) in patterns {
                let re = meta::Regex::new(&pattern).unwrap();
                let alone = RegexLines::new(re.clone(), true);
                let lines = ByteLines::new(bytes, b'\n', RegexLines::new(re, true)).unwrap();
                prop_assert_eq!(
                    selected_line_starts(&lines, &hay),
                    selected_line_starts(&alone, &hay),
                    "{}", pattern
                );
            }
        }
    }
}
