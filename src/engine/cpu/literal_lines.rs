//! The lines of a dense literal set, found by a lazy DFA over one
//! alternation of its literals, with Aho-Corasick behind it.
//!
//! Why: with a few hundred to a couple of thousand literals (`-F -f
//! words.txt`) nearly every line of prose holds one, and the search runs
//! at the automaton's own speed. regex-automata's lazy DFA (`hybrid`), run
//! to the earliest match, finds a line's first hit faster than
//! aho-corasick's DFA (ripgrep builds the same alternation): 1,000 words
//! over 790 MB of prose, one thread, `-c` 2.03 s to 1.75 s (the README's
//! literal-set section has the table). Case-sensitive sets only: with `-i`
//! (every letter a class of two) the lazy DFA measured 2.04-2.06 s against
//! aho-corasick's 1.96-1.98 s, so `-i` keeps the automaton.
//!
//! The guard: a lazy DFA builds its states while it searches, in a cache of
//! bounded size. A set whose states are large and many can fill that cache
//! again and again; the meta regex then gives up on the DFA for the PikeVM,
//! which ran for over 20 CPU-minutes on 1.6 GB in a trial (`-i -c`, the
//! default 2 MB cache). Here the DFA is told to give up early instead
//! (after [`CLEARS_MAX`] cache clears, once it makes a state per fewer than
//! [`BYTES_PER_STATE_MIN`] bytes searched), and a search that gave up is
//! answered by the set's Aho-Corasick automaton from where it began; the
//! thread keeps to the automaton from then on (its cache is spent). The
//! answers are exact either way, and giving up costs a few cache fills.

use crate::engine::Matcher;
use aho_corasick::AhoCorasick;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::Input;
use regex_syntax::hir::Hir;
use std::cell::RefCell;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// The lazy DFA's most cache per thread (it grows as states are made: the
/// 10,000 words' 1,410 literals of the README's table took 2 MB more than
/// Aho-Corasick alone). The crate's default, 2 MB, made the guard give up
/// on a `-i` set of 1,000 words; 16 MiB kept it.
const CACHE_BYTES: usize = 16 << 20;

/// Cache clears after which the DFA may give up.
const CLEARS_MAX: usize = 3;

/// Fewest bytes searched per state made (since the last clear) for the DFA
/// to go on after [`CLEARS_MAX`] clears. A state of a large set takes
/// microseconds to build, Aho-Corasick a nanosecond or two a byte: below a
/// few thousand bytes per state, building states costs more than the
/// automaton's whole search.
const BYTES_PER_STATE_MIN: usize = 4096;

/// Finds the lines holding one of a set of literals (none empty, none
/// holding the line terminator): `find_at` answers the end of the earliest
/// match, as [`super::RegexLines`] does; the set's exact engine finds what
/// to print.
pub struct LiteralLines {
    dfa: DFA,
    /// Leftmost-first or -longest: any match locates the same line.
    fallback: AhoCorasick,
    /// Names this finder's caches in [`CACHES`].
    id: u64,
}

/// A search thread's lazy-DFA cache for one line finder, and whether its
/// DFA gave up on this thread.
struct Local {
    id: u64,
    cache: Cache,
    gave_up: bool,
}

/// Most finders whose caches a thread keeps (a run builds one; an evicted
/// finder that searches again starts a fresh cache).
const LOCALS_MAX: usize = 4;

/// Ids of line finders.
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Each thread's caches, newest last. Thread-local rather than a
    /// locked slot per thread (`cached::CachedRegex`): a dense search asks
    /// for a line per call, and the lock and unlock took 5 % of a search
    /// where every line matched (10,000 words, `-n`).
    static CACHES: RefCell<Vec<Local>> = const { RefCell::new(Vec::new()) };
}

impl LiteralLines {
    /// A line finder for `lits` (case-sensitive, as `fallback` must be
    /// built), `None` when one is empty or the DFA cannot be built.
    pub fn new(lits: &[Vec<u8>], fallback: AhoCorasick) -> Option<LiteralLines> {
        LiteralLines::with_cache(lits, fallback, CACHE_BYTES)
    }

    /// [`Self::new`] with a cache of `bytes` (raised to the DFA's minimum):
    /// tests make the DFA give up with a tiny one.
    pub fn with_cache(
        lits: &[Vec<u8>],
        fallback: AhoCorasick,
        bytes: usize,
    ) -> Option<LiteralLines> {
        if lits.is_empty() || lits.iter().any(Vec::is_empty) {
            return None;
        }
        let hir = Hir::alternation(lits.iter().map(|l| Hir::literal(l.as_slice())).collect());
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .which_captures(WhichCaptures::None),
            )
            .build_from_hir(&hir)
            .ok()?;
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .cache_capacity(bytes)
                    .skip_cache_capacity_check(true)
                    .minimum_cache_clear_count(Some(CLEARS_MAX))
                    .minimum_bytes_per_state(Some(BYTES_PER_STATE_MIN)),
            )
            .build_from_nfa(nfa)
            .ok()?;
        Some(LiteralLines {
            dfa,
            fallback,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// The end of the earliest match at or after `at` by the lazy DFA with
    /// this thread's cache; `Err` when it gave up, now or before.
    fn dfa_find(&self, hay: &[u8], at: usize) -> Result<Option<usize>, ()> {
        CACHES.with(|caches| {
            // Never re-entered; should it be, the automaton answers.
            let mut caches = caches.try_borrow_mut().map_err(|_| ())?;
            let i = match caches.iter().position(|l| l.id == self.id) {
                Some(i) => i,
                None => {
                    if caches.len() >= LOCALS_MAX {
                        caches.remove(0);
                    }
                    caches.push(Local {
                        id: self.id,
                        cache: self.dfa.create_cache(),
                        gave_up: false,
                    });
                    caches.len() - 1
                }
            };
            let local = &mut caches[i];
            if local.gave_up {
                return Err(());
            }
            let input = Input::new(hay).range(at..).earliest(true);
            // Any error is the guard's (the DFA has no quit bytes).
            let found = self.dfa.try_search_fwd(&mut local.cache, &input);
            local.gave_up = found.is_err();
            found.map(|m| m.map(|m| m.offset())).map_err(|_| ())
        })
    }

    /// Whether the DFA gave up on the calling thread.
    #[cfg(test)]
    fn gave_up_here(&self) -> bool {
        CACHES.with(|c| c.borrow().iter().any(|l| l.id == self.id && l.gave_up))
    }
}

impl Matcher for LiteralLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let found = self.dfa_find(hay, at);
        match found {
            Ok(end) => end.map(|end| end..end),
            Err(()) => {
                let input = aho_corasick::Input::new(hay).range(at..);
                self.fallback.find(input).map(|m| m.range())
            }
        }
    }

    fn selects_lines(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
