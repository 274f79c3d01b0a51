//! A rule pack's alternation as one lazy DFA run forward over the buffer
//! (`-x`, `pattern::compile::pack`), which hands its search to the rules
//! dispatched by their literals where it gives up.
//!
//! Through the meta engine such a DFA that thrashes its cache gives the
//! search to the PikeVM over the whole pack without a word: 10,000
//! generated rules anchored at both ends, with a cache of 16 MiB a
//! thread, took 20 s over 200 MB where the rules dispatched took 2 s
//! (2 cores), and a single search of a file without a match never came
//! back to let `engine::retimed` look at the clock. Run directly, the
//! lazy DFA reports that it gave up (too many cache clears for the bytes
//! searched, or a Unicode word boundary before a byte past ASCII), and
//! the other finder answers instead: the same pack took 0.68 s with 16 MiB
//! (no give-up) and 2.0 s with 4 MiB (given up, the rules answering).

use super::cached::Caches;
use crate::engine::Matcher;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::Input;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Searches in this process that gave up (`--stats`).
static GAVE_UP: AtomicU64 = AtomicU64::new(0);

/// How many searches of a [`DfaLines`] gave up so far.
pub fn gave_up() -> u64 {
    GAVE_UP.load(Ordering::Relaxed)
}

pub struct DfaLines {
    dfa: DFA,
    caches: Caches<Cache>,
    instead: Arc<dyn Matcher>,
}

impl DfaLines {
    /// `dfa`: an unanchored forward DFA of the lines' search, one that
    /// may give up; `instead`: an exact finder of the same lines.
    pub fn new(dfa: DFA, instead: Arc<dyn Matcher>) -> DfaLines {
        DfaLines {
            dfa,
            caches: Caches::new(),
            instead,
        }
    }
}

impl Matcher for DfaLines {
    /// The end of the earliest match at or after `at` (in the line it
    /// selects), or `instead`'s answer where the DFA gave up.
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let input = Input::new(hay).range(at..).earliest(true);
        let dfa = &self.dfa;
        let found = self
            .caches
            .with(|| dfa.create_cache(), |c| dfa.try_search_fwd(c, &input));
        match found {
            Ok(m) => m.map(|m| m.offset()..m.offset()),
            Err(_) => {
                GAVE_UP.fetch_add(1, Ordering::Relaxed);
                self.instead.find_at(hay, at)
            }
        }
    }

    fn selects_lines(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Regex;
    use crate::engine::selected_line_starts;
    use proptest::prelude::*;
    use regex_automata::{hybrid, meta};
    use std::sync::atomic::AtomicUsize;

    /// An exact finder that counts its calls.
    struct Counted {
        re: Regex,
        calls: AtomicUsize,
    }

    impl Matcher for Counted {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            self.calls.fetch_add(1, Ordering::Relaxed);
            self.re.find_at(hay, at)
        }
    }

    proptest! {
        /// A Unicode word boundary before a byte past ASCII makes the DFA
        /// give up; the lines are still the regex's, found by `instead`.
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
            });
            let re = Regex::new(meta::Regex::new(pattern).unwrap());
            let found = DfaLines::new(dfa, instead.clone());
            let hay = text.as_bytes();
            prop_assert_eq!(selected_line_starts(&found, hay), selected_line_starts(&re, hay));
            if !hay.is_ascii() {
                prop_assert!(instead.calls.load(Ordering::Relaxed) > 0);
            }
        }
    }
}
