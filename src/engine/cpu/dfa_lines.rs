//! A rule pack's alternation as one lazy DFA run forward over the buffer
//! (`-x`, `-w`: `pattern::compile::pack`), which hands its search to the
//! rules dispatched by their literals where it quits or gives up.
//!
//! Through the meta engine such a DFA that thrashes its cache gives the
//! search to the PikeVM over the whole pack without a word: 10,000
//! generated rules anchored at both ends, with a cache of 16 MiB a
//! thread, took 20 s over 200 MB where the rules dispatched took 2 s
//! (2 cores), and a single search of a file without a match never came
//! back to let `engine::retimed` look at the clock. Run directly, the
//! lazy DFA reports that it gave up (too many cache clears for the bytes
//! searched) and the other finder answers the rest of the call: the same
//! pack took 0.68 s with 16 MiB (no give-up) and 2.0 s with 4 MiB (given
//! up, the rules answering). Where it quits at a byte (a Unicode word
//! boundary before a byte past ASCII; under `-w` any byte past ASCII) the
//! other answers that byte's line only, and the DFA goes on after it.

use super::cached::Caches;
use crate::engine::Matcher;
use memchr::{memchr, memrchr};
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Input, MatchErrorKind};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Searches in this process that quit or gave up (`--stats`).
static GAVE_UP: AtomicU64 = AtomicU64::new(0);

/// How many searches of a [`DfaLines`] quit or gave up so far.
pub fn gave_up() -> u64 {
    GAVE_UP.load(Ordering::Relaxed)
}

pub struct DfaLines {
    dfa: DFA,
    caches: Caches<Cache>,
    instead: Arc<dyn Matcher>,
    t: u8,
}

impl DfaLines {
    /// `dfa`: an unanchored forward DFA of the lines' search, one that
    /// may give up; `instead`: an exact finder of the same lines.
    pub fn new(dfa: DFA, instead: Arc<dyn Matcher>, t: u8) -> DfaLines {
        DfaLines {
            dfa,
            caches: Caches::new(),
            instead,
            t,
        }
    }
}

impl Matcher for DfaLines {
    /// The end of the earliest match at or after `at` (in the line it
    /// selects), or `instead`'s answer on the line where the DFA quit, or
    /// on the rest of `hay` where it gave up.
    fn find_at(&self, hay: &[u8], mut at: usize) -> Option<Range<usize>> {
        let dfa = &self.dfa;
        while at <= hay.len() {
            let input = Input::new(hay).range(at..).earliest(true);
            let found = self
                .caches
                .with(|| dfa.create_cache(), |c| dfa.try_search_fwd(c, &input));
            let e = match found {
                Ok(m) => return m.map(|m| m.offset()..m.offset()),
                Err(e) => e,
            };
            GAVE_UP.fetch_add(1, Ordering::Relaxed);
            let MatchErrorKind::Quit { offset, .. } = *e.kind() else {
                return self.instead.find_at(hay, at);
            };
            // A byte it quits at: that line is `instead`'s, the next the DFA's.
            let offset = offset.clamp(at, hay.len());
            let start = memrchr(self.t, &hay[at..offset]).map_or(at, |i| at + i + 1);
            let end = memchr(self.t, &hay[offset..]).map_or(hay.len(), |i| offset + i);
            if let Some(hit) = self.instead.find_at(&hay[..end], start) {
                return Some(hit);
            }
            at = end + 1;
        }
        None
    }

    fn selects_lines(&self) -> bool {
        true
    }

    /// The cache's size and clears: either changes where a search built
    /// states.
    fn built_mark(&self) -> u64 {
        let dfa = &self.dfa;
        self.caches.with(
            || dfa.create_cache(),
            |c| c.memory_usage() as u64 | (c.clear_count() as u64) << 48,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Regex;
    use proptest::prelude::*;
    use regex_automata::{hybrid, meta};
    use std::sync::atomic::AtomicUsize;

    /// An exact finder that counts its calls and the bytes they were
    /// given.
    struct Counted {
        re: Regex,
        calls: AtomicUsize,
        given: AtomicUsize,
    }

    impl Matcher for Counted {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.given
                .fetch_add(hay.len().saturating_sub(at), Ordering::Relaxed);
            self.re.find_at(hay, at)
        }
    }

    /// The start of each line the finder selects, searching on from the
    /// line after each.
    fn lines(m: &dyn Matcher, hay: &[u8]) -> Vec<usize> {
        let (mut at, mut out) = (0, Vec::new());
        while let Some(hit) = m.find_at(hay, at) {
            let start = hay[..hit.start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            out.push(start);
            match hay[hit.start..].iter().position(|&b| b == b'\n') {
                Some(i) => at = hit.start + i + 1,
                None => break,
            }
        }
        out
    }

    proptest! {
        /// A Unicode word boundary makes the DFA quit at a byte past ASCII;
        /// the lines are still the regex's, that byte's line found by
        /// `instead` and the others by the DFA.
        #[test]
        fn lines_are_the_regexs_where_the_dfa_gives_up(text in "[ab é\n]{0,120}") {
            let pattern = r"(?m)^(?:\bab\b.*|b+)$";
            let dfa = hybrid::dfa::DFA::builder()
                .configure(hybrid::dfa::Config::new().unicode_word_boundary(true))
                .build(pattern)
                .unwrap();
            let instead = Arc::new(Counted {
                re: Regex::new(meta::Regex::new(pattern).unwrap()),
                calls: AtomicUsize::new(0),
                given: AtomicUsize::new(0),
            });
            let re = Regex::new(meta::Regex::new(pattern).unwrap());
            let found = DfaLines::new(dfa, instead.clone(), b'\n');
            let hay = text.as_bytes();
            prop_assert_eq!(lines(&found, hay), lines(&re, hay));
            // `instead` is given the lines past ASCII only, one a call.
            let past: Vec<&[u8]> = hay.split(|&b| b == b'\n').filter(|l| !l.is_ascii()).collect();
            let calls = instead.calls.load(Ordering::Relaxed);
            let given = instead.given.load(Ordering::Relaxed);
            prop_assert!(calls <= past.len());
            prop_assert!(given <= past.iter().map(|l| l.len()).sum::<usize>());
            if !hay.is_ascii() {
                prop_assert!(calls > 0);
            }
        }
    }
}
