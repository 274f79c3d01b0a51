//! Lines for a regex whose every match is long (`.{200,}`, `\S{64,}`): a
//! line shorter than the shortest match cannot hold one, so only the lines
//! at least that long go to the regex's DFA.
//!
//! Short lines are skipped without reading most of their bytes: from a line
//! start `s`, the last terminator in the `min` bytes from `s` ends every
//! line that starts at or before it, all shorter than `min`; the next line
//! that may be long enough starts after it. With no terminator in those
//! bytes the line from `s` is long enough and the DFA searches it. Over the
//! Linux tree's C files (136 MB in one file, 1 thread) `-c -E '.{200,}'`
//! read every byte with the lazy DFA in 0.30 s of CPU time (ripgrep 0.30
//! s), here 0.056 s: most lines are under 80 bytes, so a window of 200
//! bytes is skipped in one `memrchr` that finds a terminator in its last
//! few dozen bytes.
//!
//! Where most lines are long this is the DFA plus a `memrchr` a line, so it
//! is raced against the DFA alone (`engine::fastest`), which measures both
//! finders' whole cost: each answers lines the regex (or its relaxation)
//! selects, as `RegexLines` does.

use super::RegexLines;
use crate::engine::Matcher;
use memchr::{memchr, memrchr};
use std::ops::Range;

/// The lines of at least `min` bytes (terminator not counted), searched by
/// a regex none of whose matches is shorter than `min` bytes.
pub struct LongLines {
    min: usize,
    terminator: u8,
    dfa: RegexLines,
}

impl LongLines {
    /// `min` must be at most the regex's shortest match's length in bytes
    /// (`regex_syntax`'s `minimum_len`) and at least 1.
    pub fn new(min: usize, terminator: u8, dfa: RegexLines) -> LongLines {
        LongLines {
            min: min.max(1),
            terminator,
            dfa,
        }
    }

    /// The start of the first line starting at or after `from` (a line
    /// start) that is at least `min` bytes long.
    fn next_long_line(&self, hay: &[u8], mut from: usize) -> Option<usize> {
        loop {
            let window = hay.get(from..from.checked_add(self.min)?)?;
            match memrchr(self.terminator, window) {
                Some(i) => from += i + 1,
                None => return Some(from),
            }
        }
    }
}

impl Matcher for LongLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let t = self.terminator;
        let before = hay.get(..at)?;
        // The searcher asks from line starts; from inside a line, the
        // whole line is measured.
        let mut from = memrchr(t, before).map_or(0, |i| i + 1);
        loop {
            let start = self.next_long_line(hay, from)?;
            let from_here = start + self.min;
            let end = memchr(t, &hay[from_here..]).map_or(hay.len(), |i| from_here + i);
            if let Some(m) = self.dfa.find_within(hay, start.max(at)..end) {
                return Some(m);
            }
            from = end.checked_add(1)?;
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
        fn long_lines_select_what_the_dfa_alone_selects(
            hay in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), Just(b' '), Just(0xC3), Just(0xA9)],
                0..600,
            ),
            n in 1usize..40,
        ) {
            for pattern in [format!("(?m).{{{n},}}"), format!("(?m)a[a ]{{{n}}}"), format!("(?m)\\S{{{n}}}|^ {{{n}}}$")] {
                let re = meta::Regex::new(&pattern).unwrap();
                let min = regex_syntax::parse(&pattern).unwrap().properties().minimum_len().unwrap();
                let alone = RegexLines::new(re.clone(), true);
                let long = LongLines::new(min, b'\n', RegexLines::new(re, true));
                prop_assert_eq!(
                    selected_line_starts(&long, &hay),
                    selected_line_starts(&alone, &hay),
                    "{}", pattern
                );
            }
        }
    }
}
