//! A meta regex (or any automaton, [`Caches`]) with a cache of its own
//! for every search thread.
//!
//! `meta::Regex::search` takes a cache from the regex's pool; a thread that
//! finds its share of the pool locked (two threads per share from nine
//! threads on) is given a fresh cache, thrown away after one search. A
//! fresh cache has an empty lazy DFA, so with many threads confirming many
//! lines most searches rebuilt their DFA states from nothing: 100 rules over
//! 2 GiB of logs took 10.5 s with 16 threads where 2 threads searched a
//! tenth of it in 0.59 s.
//!
//! Here each thread keeps its caches in a map of its own (thread-local),
//! by the automaton's number: no lock, and no two threads ever share one.
//! Slots behind locks, one per core and taken in the order threads first
//! searched (the earlier design), gave two threads one slot wherever more
//! threads searched than the machine has cores: `-j16` on the 2-core VM
//! over the Linux tree, `-c -E '\w+->\w+\(|\w+\.\w+\('`, made 3,094
//! futex calls, nine in ten of them on those locks (now 694, ripgrep
//! 1,036), and took 0.38 s (now 0.30 s, ripgrep 0.29 s; medians of 9;
//! peak memory 18.5 → 20.4 MB, a cache for each of 16 threads, not 2).

use regex_automata::hybrid;
use regex_automata::meta::{Cache, Regex};
use regex_automata::{HalfMatch, Input, Match, Span};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::LocalKey;

/// Hashes an automaton's number (a multiply: the numbers are counted up,
/// never chosen by a user).
#[derive(Default)]
pub(super) struct NumberHasher(u64);

impl Hasher for NumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A thread's caches of one type, by their automaton's number. A cache
/// stays until its thread ends (search threads end with their run; a rule
/// pack's thousands of rules each keep theirs, as with one per thread
/// before).
pub(super) type Held<C> = HashMap<u64, C, BuildHasherDefault<NumberHasher>>;

/// A cache type kept per thread: where this thread's caches of it are (a
/// map for each type, not one of `dyn Any`: its type check cost 1 % of
/// the Linux tree's `-c -E '\w+->\w+\(|\w+\.\w+\('`).
pub(super) trait PerThread: Sized + 'static {
    fn held() -> &'static LocalKey<RefCell<Held<Self>>>;
}

thread_local! {
    static META: RefCell<Held<Cache>> = RefCell::new(Held::default());
    static HYBRID: RefCell<Held<hybrid::dfa::Cache>> = RefCell::new(Held::default());
}

impl PerThread for Cache {
    fn held() -> &'static LocalKey<RefCell<Held<Self>>> {
        &META
    }
}

impl PerThread for hybrid::dfa::Cache {
    fn held() -> &'static LocalKey<RefCell<Held<Self>>> {
        &HYBRID
    }
}

/// One cache of type `C` per search thread, made on first use. A clone
/// is the same automaton's: it finds the same caches.
pub(super) struct Caches<C> {
    /// This automaton's number, never reused in the process.
    id: u64,
    made: std::marker::PhantomData<fn() -> C>,
}

impl<C> Clone for Caches<C> {
    fn clone(&self) -> Caches<C> {
        Caches {
            id: self.id,
            made: std::marker::PhantomData,
        }
    }
}

impl<C: PerThread> Caches<C> {
    pub(super) fn new() -> Caches<C> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Caches {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            made: std::marker::PhantomData,
        }
    }

    /// Runs `f` with the calling thread's cache, made by `make` if new.
    pub(super) fn with<R>(&self, make: impl FnOnce() -> C, f: impl FnOnce(&mut C) -> R) -> R {
        C::held().with(|held| {
            // A search inside another's of the same type on this thread
            // (none does that today) finds the caches in use: a cache for
            // this call alone.
            let Ok(mut held) = held.try_borrow_mut() else {
                return f(&mut make());
            };
            f(held.entry(self.id).or_insert_with(make))
        })
    }
}

/// A clone shares its thread's cache with the original (one lazy DFA a
/// thread for two finders running the same regex).
#[derive(Clone)]
pub struct CachedRegex {
    re: Regex,
    caches: Caches<Cache>,
}

impl CachedRegex {
    pub fn new(re: Regex) -> CachedRegex {
        CachedRegex {
            re,
            caches: Caches::new(),
        }
    }

    /// Runs `f` with the calling thread's cache.
    fn with<R>(&self, f: impl FnOnce(&Regex, &mut Cache) -> R) -> R {
        let re = &self.re;
        self.caches.with(|| re.create_cache(), |cache| f(re, cache))
    }

    /// Bytes the regex holds (its caches apart).
    pub fn memory_usage(&self) -> usize {
        self.re.memory_usage()
    }

    pub fn search(&self, input: &Input) -> Option<Match> {
        self.with(|re, cache| re.search_with(cache, input))
    }

    pub fn search_half(&self, input: &Input) -> Option<HalfMatch> {
        self.with(|re, cache| re.search_half_with(cache, input))
    }

    /// The span of capture group `group` in the leftmost-first match.
    pub fn group_at(&self, input: &Input, group: usize) -> Option<Span> {
        let mut caps = self.re.create_captures();
        self.with(|re, cache| re.search_captures_with(cache, input, &mut caps));
        caps.get_group(group)
    }

    /// Whether `hay` holds a match. `is_match_with`, not a half search:
    /// a pack built without capture states (`cpu::Pack`) answers `None`
    /// to `search_half_with` where its strategy needs them (`[0-9]+\.[0-9]+`
    /// alone: the reverse-inner search), while `is_match_with` asks the
    /// strategy's own `is_match`.
    pub fn is_match(&self, hay: &[u8]) -> bool {
        let input = Input::new(hay).earliest(true);
        self.with(|re, cache| re.is_match_with(cache, &input))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static COUNTS: RefCell<Held<u32>> = RefCell::new(Held::default());
    }

    impl PerThread for u32 {
        fn held() -> &'static LocalKey<RefCell<Held<Self>>> {
            &COUNTS
        }
    }

    /// Each of more threads than the machine has cores gets the pool's
    /// answers.
    #[test]
    fn many_threads_get_the_pools_answers() {
        let re = Regex::new(r"[a-z]+_t\b|\d{3}").unwrap();
        let cached = CachedRegex::new(re.clone());
        let hays: Vec<String> = (0..200)
            .map(|i| format!("x{i} size_t y{}", i * 7))
            .collect();
        std::thread::scope(|s| {
            for _ in 0..33 {
                s.spawn(|| {
                    for h in &hays {
                        let input = Input::new(h.as_bytes());
                        assert_eq!(cached.search(&input), re.search(&input));
                        assert_eq!(cached.search_half(&input), re.search_half(&input));
                        assert_eq!(cached.is_match(h.as_bytes()), re.is_match(h.as_bytes()));
                    }
                });
            }
        });
    }

    /// A thread's cache is its own and kept from call to call (a count
    /// each thread keeps in it); a search inside another's call on the
    /// same thread gets a cache for that call alone.
    #[test]
    fn each_thread_keeps_its_own_cache_and_one_inside_another_is_made_anew() {
        let outer: Caches<u32> = Caches::new();
        let inner: Caches<u32> = Caches::new();
        let count = |c: &mut u32| {
            *c += 1;
            *c
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for n in 1..=5 {
                        let (o, i) = outer.with(|| 0, |c| (count(c), inner.with(|| 0, count)));
                        assert_eq!((o, i), (n, 1));
                        assert_eq!(inner.with(|| 0, count), n);
                    }
                });
            }
        });
    }

    /// A rule pack's thousands of automata each keep their cache in a
    /// thread (a cache made again at every try would rebuild its lazy DFA
    /// line after line).
    #[test]
    fn a_thread_keeps_the_caches_of_thousands_of_automata() {
        let caches: Vec<Caches<u32>> = (0..3000).map(|_| Caches::new()).collect();
        for round in 0..3 {
            for c in &caches {
                assert_eq!(c.with(|| 0, |n| std::mem::replace(n, round + 1)), round);
            }
        }
    }
}
