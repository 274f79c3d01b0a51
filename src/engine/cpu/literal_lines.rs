//! The lines of a dense literal set, found by a lazy DFA over one
//! alternation of its literals, with Aho-Corasick behind it; with `-w`,
//! the lines of its words (`LiteralLines::words`).
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
use regex_automata::util::look::LookMatcher;
use regex_automata::Input;
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, Look};
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
    /// `-w` ([`LiteralLines::words`]): the word confirmation of the
    /// lines where a hit has a byte beyond ASCII beside it.
    words: Option<Words>,
    /// `-w`: the sure hits alone, for text without a byte beyond ASCII
    /// (an unsure hit needs one), and the id of its caches.
    ascii: Option<(DFA, u64)>,
}

/// `-w`'s lines: the confirmation of an unsure hit's line, and the line
/// terminator.
struct Words {
    confirm: Box<dyn Matcher>,
    terminator: u8,
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
    /// locked slot per thread (as `cached::CachedRegex` had then): a dense
    /// search asks for a line per call, and the lock and unlock took 5 %
    /// of a search where every line matched (10,000 words, `-n`). A list
    /// of its own rather than `cached::Caches`' map: moved onto that map
    /// (one per run, no cap), the same `-n` of 1,000 words over 1.3 MB of
    /// prose ran 1.4 % more instructions in its search (callgrind), the
    /// lookup and the call through its closure.
    static CACHES: RefCell<Vec<Local>> = const { RefCell::new(Vec::new()) };
}

impl LiteralLines {
    /// A line finder for `lits` (case-sensitive, as `fallback` must be
    /// built), `None` when one is empty or the DFA cannot be built.
    pub fn new(lits: &[Vec<u8>], fallback: AhoCorasick) -> Option<LiteralLines> {
        let hir = Hir::alternation(lits.iter().map(|l| Hir::literal(l.as_slice())).collect());
        LiteralLines::build(lits, &[hir], fallback, CACHE_BYTES, (b'\n', None))
    }

    /// `-w`'s lines for `lits` (lines ended by `t`): those with a literal
    /// that neither follows nor precedes a word character. Two patterns in
    /// one lazy DFA: a literal with an ASCII byte that is no word byte (or
    /// the line's edge) on both sides is a word, a sure hit; one with a
    /// byte beyond ASCII beside it is unsure (GNU's word characters beyond
    /// ASCII are multi-byte, decoded), and `confirm` (the word matcher)
    /// decides its line. With 1,000 common words nearly every line of
    /// prose holds one inside a longer word, and confirming every line
    /// that held one made `-w -c` 2x slower than rg.
    pub fn words(
        lits: &[Vec<u8>],
        fallback: AhoCorasick,
        confirm: Box<dyn Matcher>,
        t: u8,
    ) -> Option<LiteralLines> {
        LiteralLines::words_with_cache(lits, fallback, confirm, t, CACHE_BYTES)
    }

    /// [`Self::words`] with a cache of `bytes` (tests: one that gives up).
    fn words_with_cache(
        lits: &[Vec<u8>],
        fallback: AhoCorasick,
        confirm: Box<dyn Matcher>,
        t: u8,
        bytes: usize,
    ) -> Option<LiteralLines> {
        // ASCII bytes that are no word byte and not the terminator.
        let mut sure = ClassBytes::new(
            [
                (b'0', b'9'),
                (b'A', b'Z'),
                (b'_', b'_'),
                (b'a', b'z'),
                (t, t),
                (0x80, 0xFF),
            ]
            .map(|(a, b)| ClassBytesRange::new(a, b)),
        );
        sure.negate();
        let sure = Hir::class(Class::Bytes(sure));
        let beyond = Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(
            0x80, 0xFF,
        )])));
        let set = Hir::alternation(lits.iter().map(|l| Hir::literal(l.as_slice())).collect());
        let edge = |look| Hir::alternation(vec![Hir::look(look), sure.clone()]);
        let word = Hir::concat(vec![edge(Look::StartLF), set.clone(), edge(Look::EndLF)]);
        let unsure = Hir::alternation(vec![
            Hir::concat(vec![beyond.clone(), set.clone()]),
            Hir::concat(vec![set, beyond]),
        ]);
        let words = Words {
            confirm,
            terminator: t,
        };
        // The unsure pattern carries the set's states twice more: with it,
        // 1,000 words over 1 GiB of ASCII prose, 2 threads, `-w -c` took
        // 1.76-1.85 s, without it 1.24-1.26 s (rg 1.23 s).
        let sure = std::slice::from_ref(&word);
        let ascii = LiteralLines::build(lits, sure, fallback.clone(), bytes, (t, None))?;
        let mut finder =
            LiteralLines::build(lits, &[word, unsure], fallback, bytes, (t, Some(words)))?;
        finder.ascii = Some((ascii.dfa, ascii.id));
        Some(finder)
    }

    /// [`Self::new`] with a cache of `bytes` (tests: one that gives up).
    #[cfg(test)]
    pub fn with_cache(
        lits: &[Vec<u8>],
        fallback: AhoCorasick,
        bytes: usize,
    ) -> Option<LiteralLines> {
        let hir = Hir::alternation(lits.iter().map(|l| Hir::literal(l.as_slice())).collect());
        LiteralLines::build(lits, &[hir], fallback, bytes, (b'\n', None))
    }

    /// The finder of `hirs` (`lits`' lines; with `words`, `-w`'s: pattern
    /// 0 sure hits, 1 unsure ones).
    fn build(
        lits: &[Vec<u8>],
        hirs: &[Hir],
        fallback: AhoCorasick,
        bytes: usize,
        (terminator, words): (u8, Option<Words>),
    ) -> Option<LiteralLines> {
        if lits.is_empty() || lits.iter().any(Vec::is_empty) {
            return None;
        }
        let mut looks = LookMatcher::new();
        looks.set_line_terminator(terminator);
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .which_captures(WhichCaptures::None)
                    .look_matcher(looks),
            )
            .build_many_from_hir(hirs)
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
            words,
            ascii: None,
        })
    }

    /// The end of the earliest match at or after `at` by the lazy DFA with
    /// this thread's cache, and its pattern; `Err` when it gave up, now or
    /// before.
    fn dfa_find(&self, hay: &[u8], at: usize) -> Result<Option<(usize, usize)>, ()> {
        dfa_find(&self.dfa, self.id, hay, at)
    }

    /// `-w`'s earliest hit at or after `at` when no byte beyond ASCII
    /// comes before the first sure hit (then no unsure hit can either),
    /// from the sure hits' DFA; `None` when that cannot answer.
    fn ascii_hit(&self, hay: &[u8], at: usize) -> Option<Option<(usize, bool)>> {
        let (dfa, id) = self.ascii.as_ref()?;
        let found = dfa_find(dfa, *id, hay, at).ok()?;
        let stop = found.map_or(hay.len(), |(end, _)| end);
        hay[at..stop]
            .is_ascii()
            .then_some(found.map(|(end, _)| (end, true)))
    }

    /// The earliest hit at or after `at`: where its match ends (or, from
    /// Aho-Corasick, starts) and whether it is sure (`-w`: pattern 0;
    /// every hit is sure without `-w`).
    fn hit(&self, hay: &[u8], at: usize) -> Option<(usize, bool)> {
        if let Some(found) = self.ascii_hit(hay, at) {
            return found;
        }
        match self.dfa_find(hay, at) {
            Ok(end) => end.map(|(end, pattern)| (end, pattern == 0)),
            Err(()) => {
                let input = aho_corasick::Input::new(hay).range(at..);
                self.fallback
                    .find(input)
                    .map(|m| (m.start(), self.words.is_none()))
            }
        }
    }

    /// Whether the DFA gave up on the calling thread.
    #[cfg(test)]
    fn gave_up_here(&self) -> bool {
        CACHES.with(|c| c.borrow().iter().any(|l| l.id == self.id && l.gave_up))
    }
}

/// The end of the earliest match of `dfa` at or after `at`, with the
/// calling thread's cache `id`, and its pattern; `Err` when it gave up,
/// now or before.
fn dfa_find(dfa: &DFA, id: u64, hay: &[u8], at: usize) -> Result<Option<(usize, usize)>, ()> {
    CACHES.with(|caches| {
        // Never re-entered; should it be, the automaton answers.
        let mut caches = caches.try_borrow_mut().map_err(|_| ())?;
        let i = match caches.iter().position(|l| l.id == id) {
            Some(i) => i,
            None => {
                if caches.len() >= LOCALS_MAX {
                    caches.remove(0);
                }
                caches.push(Local {
                    id,
                    cache: dfa.create_cache(),
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
        let found = dfa.try_search_fwd(&mut local.cache, &input);
        local.gave_up = found.is_err();
        found
            .map(|m| m.map(|m| (m.offset(), m.pattern().as_usize())))
            .map_err(|_| ())
    })
}

impl Matcher for LiteralLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let mut at = at;
        while at <= hay.len() {
            let (pos, sure) = self.hit(hay, at)?;
            let Some(w) = self.words.as_ref().filter(|_| !sure) else {
                return Some(pos..pos);
            };
            // An unsure hit: the word matcher decides its line.
            let t = w.terminator;
            let start = memchr::memrchr(t, &hay[at..pos]).map_or(at, |i| at + i + 1);
            let end = memchr::memchr(t, &hay[pos..]).map_or(hay.len(), |i| pos + i);
            if w.confirm.is_match_line(&hay[start..end]) {
                return Some(pos..pos);
            }
            at = end + 1;
        }
        None
    }

    fn selects_lines(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
