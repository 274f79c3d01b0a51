//! Lines for a regex whose every match ends a line (`[[:space:]]+$`,
//! `\\$`, `;\s*$`): a line can match only where its last bytes lie in the
//! sets of bytes a match can end with (`pattern::window::end_sets`), so
//! each line's last few bytes are looked at, and only the lines that pass
//! go to the regex, whose reverse DFA, anchored at the line's end, reads
//! back only as far as a match can reach.
//!
//! The DFA alone walks every byte (`[[:space:]]+$` over the Linux tree,
//! 2 threads: 0.43 s of CPU time, ripgrep the same); here the terminators
//! are found by `memchr` and one to four bytes before each are looked up
//! in a table. Where most lines pass (CRLF text, whose `\r` is white
//! space) this costs a reverse search a line, which with the forward DFA
//! in its place (the first version) came to the DFA alone's time; it is
//! raced against the DFA alone (`engine::fastest`): each finder answers
//! the lines the regex (or its relaxation) selects, as `RegexLines` does,
//! and the race measures each one's whole cost.

use super::cached::Caches;
use super::RegexLines;
use crate::engine::Matcher;
use memchr::{memchr_iter, memrchr};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Anchored, Input};
use std::ops::Range;

/// Most bytes looked at before a line's end.
pub const END_BYTES_MAX: usize = 4;

/// The lines whose last bytes fit the end sets, searched by a regex every
/// match of which ends a line.
pub struct LineEnds {
    /// Bit `i` of a byte's entry: the byte can be a match's `i`-th byte
    /// counted back from its end (0 the last).
    fits: Box<[u8; 256]>,
    /// How many bytes before a line's end are looked at.
    len: usize,
    terminator: u8,
    dfa: RegexLines,
    /// The regex's reverse DFA, run from a line's end, anchored there.
    reverse: Option<(DFA, Caches<Cache>)>,
}

impl LineEnds {
    /// `sets[i]`: the bytes a match's `i`-th byte from its end can be; the
    /// regex's every match ends where a line does and is at least
    /// `sets.len()` bytes long. At most [`END_BYTES_MAX`] sets are used.
    /// `reverse`, where given, is the lazy DFA of the reversed regex (that
    /// of `dfa`): a line whose end fits is then decided by it, anchored at
    /// the line's end, in the few bytes a match takes there rather than
    /// the whole line (CRLF text, where every line's `\r` fits `\s+$`);
    /// where it gives up, `dfa` decides.
    pub fn new(
        sets: &[impl Fn(u8) -> bool],
        terminator: u8,
        dfa: RegexLines,
        reverse: Option<DFA>,
    ) -> Option<LineEnds> {
        let len = sets.len().min(END_BYTES_MAX);
        if len == 0 {
            return None;
        }
        let mut fits = Box::new([0u8; 256]);
        for (i, set) in sets[..len].iter().enumerate() {
            for b in 0..=255u8 {
                // The terminator ends the line before: never a match's byte.
                if set(b) && b != terminator {
                    fits[usize::from(b)] |= 1 << i;
                }
            }
        }
        Some(LineEnds {
            fits,
            len,
            terminator,
            dfa,
            reverse: reverse.map(|r| (r, Caches::new())),
        })
    }

    /// Whether the line ending at `end` can hold a match: its last `len`
    /// bytes (all after `start`, the line's first) fit their sets.
    fn may_end_here(&self, hay: &[u8], start: usize, end: usize) -> bool {
        end >= start + self.len
            && (0..self.len).all(|i| self.fits[usize::from(hay[end - 1 - i])] & (1 << i) != 0)
    }

    /// The DFA's answer for the line `start..end`, from `at` at the
    /// earliest.
    fn confirm(&self, hay: &[u8], at: usize, start: usize, end: usize) -> Option<Range<usize>> {
        if !self.may_end_here(hay, start, end) {
            return None;
        }
        let from = start.max(at);
        if let Some((rev, caches)) = &self.reverse {
            let input = Input::new(hay)
                .range(from..end)
                .anchored(Anchored::Yes)
                .earliest(true);
            let found = caches.with(|| rev.create_cache(), |c| rev.try_search_rev(c, &input));
            if let Ok(found) = found {
                return found.map(|_| end..end);
            }
        }
        self.dfa.find_within(hay, from..end)
    }
}

impl Matcher for LineEnds {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let t = self.terminator;
        let before = hay.get(..at)?;
        // The searcher asks from line starts; from inside a line, the
        // whole line is looked at.
        let mut start = memrchr(t, before).map_or(0, |i| i + 1);
        for end in memchr_iter(t, &hay[at..]).map(|i| at + i) {
            if let Some(m) = self.confirm(hay, at, start, end) {
                return Some(m);
            }
            start = end + 1;
        }
        // The last line, where no terminator ends it.
        match start < hay.len() {
            true => self.confirm(hay, at, start, hay.len()),
            false => None,
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
    use regex_automata::nfa::thompson;
    use regex_automata::{hybrid, meta};

    proptest! {
        /// With the sets of bytes each regex's matches end with (written
        /// out by hand), the lines are those the DFA alone selects, each
        /// line that fits decided by the forward DFA or the reverse one.
        #[test]
        fn line_ends_select_what_the_dfa_alone_selects(
            hay in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'a'), Just(b' '), Just(b'\r'), Just(0xC3), Just(0xA9)],
                0..300,
            ),
        ) {
            // Classes without the terminator, as `pattern::compile` leaves
            // them.
            let space = |b: u8| b" \r\t".contains(&b);
            let any = |_: u8| true;
            let a = |b: u8| b == b'a';
            type Set<'a> = &'a dyn Fn(u8) -> bool;
            let cases: [(&str, Vec<Set>); 4] = [
                (r"(?m)[ \r\t]+$", vec![&space]),
                (r"(?m)a ?a$", vec![&any, &any]),
                (r"(?m)^a+$", vec![&a]),
                (r"(?m)(?:é|a )$", vec![&any, &any]),
            ];
            for (pattern, sets) in cases {
                let re = meta::Regex::new(pattern).unwrap();
                let alone = RegexLines::new(re.clone(), true);
                let want = selected_line_starts(&alone, &hay);
                let reverse = hybrid::dfa::DFA::builder()
                    .thompson(thompson::Config::new().reverse(true))
                    .build(pattern)
                    .unwrap();
                for reverse in [None, Some(reverse)] {
                    let lines = RegexLines::new(re.clone(), true);
                    let ends = LineEnds::new(&sets, b'\n', lines, reverse).unwrap();
                    prop_assert_eq!(selected_line_starts(&ends, &hay), want.clone(), "{}", pattern);
                }
            }
        }
    }
}
