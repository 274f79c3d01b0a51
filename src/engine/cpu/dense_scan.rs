//! The exact finder a rule pack's [`super::DenseLines`] uses in its dense
//! stretches: the forward lazy DFA of the rules' alternation over the
//! buffer, stopped at its first match state, whose line is the next
//! matching one (as ripgrep runs such a pack).
//!
//! In a dense stretch every line used to go to the rules one by one (an
//! Aho-Corasick pass for its literals, then the small regex of each rule
//! they name). On loghub's 1,733 event templates over its own logs the one
//! automaton over the buffer costs less (dev VM, 1 GiB, `-c`): 3.78-3.85
//! against 4.70 CPU-seconds on one thread; 2.19-2.25 against 2.41-2.45 s
//! on two. `GPUGREP_RULE_PACK=pack`, whose finder it is for the whole run,
//! took 10.2-12.4 against 12.8-14.1 s on 16 threads over 16 GiB (H200
//! host). Where few lines are candidates the rules stay far cheaper (1,000
//! generated rules: 0.62 against 0.97 s, 2 cores), so only dense
//! stretches take this path, and only packs of at most
//! [`DENSE_SCAN_MAX_RULES`].
//!
//! Tried before: the same automaton run line by line built states from
//! every line's start and gave up to the PikeVM (172 s for that 1 GiB).
//! Here it is a lazy DFA of its own, not the meta regex, so that giving up
//! is seen (`MatchError`): the scan is then dropped for the rest of the
//! run and dense stretches go back to the rules. With a 64 MiB cache it
//! gave up on the templates halfway; [`CACHE_BYTES`] is 128 MiB a thread
//! (peak 248 MB on one thread, 220 MB rule by rule). A Unicode word
//! boundary before a non-ASCII byte stops the DFA too; that answer is left
//! to the rules.

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::look::LookMatcher;
use regex_automata::{Input, MatchErrorKind};
use regex_syntax::hir::Hir;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Most rules whose alternation takes dense stretches (loghub's 1,733
/// templates measured; 10,000 generated rules thrash one automaton).
pub const DENSE_SCAN_MAX_RULES: usize = 2_000;

/// The lazy DFA's cache per thread (the module doc).
const CACHE_BYTES: usize = 128 << 20;

pub struct DenseScan {
    /// Unique for the process: a thread's cache is this scan's only if it
    /// carries its id (an address could be a dropped scan's, whose cache
    /// would not fit this DFA).
    id: usize,
    hir: Hir,
    terminator: u8,
    dfa: OnceLock<Option<DFA>>,
    gave_up: AtomicBool,
}

/// What a scan found at or after a line start.
pub enum Scan {
    /// A match ends here: its line matches, and none before it.
    Line(usize),
    /// No line from there on matches.
    None,
    /// Not decided here (the DFA stopped, or is not there).
    Unsure,
}

thread_local! {
    /// Each thread's cache, with the id of the scan it belongs to.
    static CACHE: RefCell<Option<(usize, Cache)>> = const { RefCell::new(None) };
}

impl DenseScan {
    /// The scan of `hir` (the rules' alternation, exactly the search) for
    /// lines ended by `terminator`; its DFA is built when first needed.
    pub fn new(hir: Hir, terminator: u8) -> DenseScan {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        DenseScan {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            hir,
            terminator,
            dfa: OnceLock::new(),
            gave_up: AtomicBool::new(false),
        }
    }

    /// The DFA gave up: the scan answers `Unsure` from now on.
    pub fn gave_up(&self) -> bool {
        self.gave_up.load(Ordering::Relaxed)
    }

    /// The next matching line at or after `at`, a line start of `hay`.
    pub fn next_line(&self, hay: &[u8], at: usize) -> Scan {
        if self.gave_up() {
            return Scan::Unsure;
        }
        let Some(dfa) = self.dfa.get_or_init(|| build(&self.hir, self.terminator)) else {
            return Scan::Unsure;
        };
        let owner = self.id;
        let input = Input::new(hay).range(at..).earliest(true);
        let found = CACHE.with_borrow_mut(|slot| {
            if slot.as_ref().is_some_and(|(o, _)| *o != owner) {
                *slot = None;
            }
            let (_, cache) = slot.get_or_insert_with(|| (owner, dfa.create_cache()));
            dfa.try_search_fwd(cache, &input)
        });
        match found {
            Ok(Some(m)) => Scan::Line(m.offset()),
            Ok(None) => Scan::None,
            Err(e) => {
                if matches!(e.kind(), MatchErrorKind::GaveUp { .. }) {
                    self.gave_up.store(true, Ordering::Relaxed);
                }
                Scan::Unsure
            }
        }
    }
}

/// The forward lazy DFA of `hir`, giving up (as the meta regex's does)
/// when its cache is cleared too often for the bytes it searched; `None`
/// where it cannot be built.
fn build(hir: &Hir, terminator: u8) -> Option<DFA> {
    let mut look = LookMatcher::new();
    look.set_line_terminator(terminator);
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .which_captures(WhichCaptures::None)
                .look_matcher(look),
        )
        .build_from_hir(hir)
        .ok()?;
    DFA::builder()
        .configure(
            DFA::config()
                .cache_capacity(CACHE_BYTES)
                .unicode_word_boundary(true)
                .minimum_cache_clear_count(Some(3))
                .minimum_bytes_per_state(Some(10)),
        )
        .build_from_nfa(nfa)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn scan(pattern: &str) -> DenseScan {
        DenseScan::new(regex_syntax::parse(pattern).unwrap(), b'\n')
    }

    /// The line starts of `hay` (after a final terminator no line starts).
    fn starts(hay: &[u8]) -> Vec<usize> {
        let mut out = vec![0];
        out.extend(memchr::memchr_iter(b'\n', hay).map(|i| i + 1));
        if hay.last() == Some(&b'\n') {
            out.pop();
        }
        out
    }

    /// Walks `hay` as the searcher does: each answer's line, then on from
    /// the next line start; `Unsure` answers are not expected here.
    fn lines(s: &DenseScan, hay: &[u8]) -> Vec<usize> {
        let all = starts(hay);
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(&start) = all.iter().find(|&&l| l >= at) {
            let pos = match s.next_line(hay, start) {
                Scan::Line(p) => p,
                Scan::None => break,
                Scan::Unsure => panic!("unsure at {start}"),
            };
            // After a final terminator: no line (as the searcher has it).
            if pos == hay.len() && hay.last() == Some(&b'\n') {
                break;
            }
            let line = all.iter().rev().find(|&&l| l <= pos).copied().unwrap_or(0);
            out.push(line);
            at = line + 1;
        }
        out
    }

    /// The line starts whose line the regex matches.
    fn naive(re: &regex::bytes::Regex, hay: &[u8]) -> Vec<usize> {
        starts(hay)
            .into_iter()
            .filter(|&l| {
                let end = memchr::memchr(b'\n', &hay[l..]).map_or(hay.len(), |e| l + e);
                re.is_match(&hay[l..end])
            })
            .collect()
    }

    proptest! {
        /// The scan's lines are the lines the regex matches (patterns that
        /// cannot match a line terminator, as a search's are).
        #[test]
        fn the_scan_finds_the_matching_lines(
            pattern in prop::sample::select(vec![
                r"ab+c|x[0-9]{2}", r"(?m)^a\S+ b$|^$", r"[0-9]{2,4}x|y[a-c]*z", r"(?i)Ab[ \t]+c",
                r"(?-u:\b)ab(?-u:\b)|zz", r"a.*b.*c", r"q?",
            ]),
            text in "[abcxyzAB019 \n]{0,120}",
        ) {
            let re = regex::bytes::RegexBuilder::new(pattern).multi_line(true).build().unwrap();
            let hay = text.as_bytes();
            prop_assert_eq!(lines(&scan(pattern), hay), naive(&re, hay));
        }
    }

    #[test]
    fn a_unicode_boundary_before_non_ascii_is_left_unsure() {
        let s = scan(r"\bwort\b");
        assert!(matches!(s.next_line(b"ein wort hier", 0), Scan::Line(8)));
        assert!(matches!(s.next_line("für".as_bytes(), 0), Scan::Unsure));
    }

    #[test]
    fn a_dfa_that_gives_up_is_dropped_for_the_run() {
        // Every line builds new states: 3 clears of a tiny cache.
        let s = DenseScan {
            dfa: OnceLock::from(
                DFA::builder()
                    .configure(
                        DFA::config()
                            .cache_capacity(1)
                            .skip_cache_capacity_check(true)
                            .minimum_cache_clear_count(Some(0))
                            .minimum_bytes_per_state(Some(1_000)),
                    )
                    .build(r"[a-z]{1,20}[0-9]{1,20}x")
                    .ok(),
            ),
            ..scan("x")
        };
        let hay = "abcdefghij0123456789y\n".repeat(50);
        let first = s.next_line(hay.as_bytes(), 0);
        assert!(matches!(first, Scan::Unsure));
        assert!(s.gave_up.load(Ordering::Relaxed));
    }
}
