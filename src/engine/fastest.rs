//! Line finders for the same regex, the fastest one kept: each is timed on
//! the run's first megabytes, then the one that took fewest nanoseconds a
//! byte answers alone.
//!
//! Which of the shift-or scan and the regex's DFA finds a regex's lines
//! faster depends on the text more than on the regex: on CI logs the scan
//! took `[0-9a-f]{40}` from 0.49 s to 0.26 s and an IPv4 regex from 0.93
//! s to 0.23 s, and `[A-Z]{3,}_[A-Z]+` from 0.10 s to 0.26 s (2 threads,
//! 512 MB; rg 0.20 s), where upper-case words are everywhere and the
//! DFA's start state skips the rest quickly. A guess from byte frequencies
//! (`pattern::window`) cannot see that; a measurement can. All finders
//! are sound and give the same lines, so the choice changes only the time.
//! A race has two finders or three (the DFA over the lines long enough or
//! ending right, and over those holding a byte every match holds).

use super::Matcher;
use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Bytes each finder searches, timed, before the fastest one is kept.
const MEASURE_BYTES: u64 = 2 << 20;

/// Bytes each thread searches, untimed, before its searches are timed:
/// a thread's first searches fill its own caches (the lazy DFA's states,
/// one cache a thread), which with many threads is much of the first
/// megabytes. `-c -E '[A-Z]\w+, [A-Z]\w+'` over the BOM prose timed its
/// two finders at 0.8-0.9 and 1.5-1.6 ns a byte with 2 threads, at
/// 3.0-3.4 and 2.3-2.7 with 16 (host; by thread CPU time on the dev VM
/// alike, so not preemption), and kept the slower; with this warm-up
/// 0.7-1.0 and 1.4-2.1.
const WARM_UP_BYTES: u64 = 256 << 10;

thread_local! {
    /// This thread's bytes searched untimed in races (every race it
    /// takes part in), and its searches.
    static WARMED: Cell<(u64, usize)> = const { Cell::new((0, 0)) };
}

/// Most finders in a race.
const FINDERS_MAX: usize = 3;

/// `--stats`' line on the last race decided in this process.
static DECIDED: Mutex<Option<String>> = Mutex::new(None);

/// `--stats`' line on the race, if one was decided: the finder kept and
/// each one's nanoseconds a byte, the finders' own time (a candidate
/// finder's without the candidate lines' confirmation).
pub fn stats_line() -> Option<String> {
    DECIDED.lock().ok()?.clone()
}

const MEASURING: u8 = u8::MAX;

/// Finds lines with whichever of its finders proved fastest.
pub struct Fastest {
    /// Each finder with the name `--stats` gives it.
    finders: Vec<(&'static str, Box<dyn Matcher>)>,
    chosen: AtomicU8,
    /// Per finder: nanoseconds and bytes measured.
    nanos: [AtomicU64; FINDERS_MAX],
    bytes: [AtomicU64; FINDERS_MAX],
}

impl Fastest {
    /// Two or three named finders, which must find the same lines (each
    /// answer a hit in a line the others would select, or a candidate for
    /// it); the last is the one the confirm step asks of a single line.
    pub fn new(finders: Vec<(&'static str, Box<dyn Matcher>)>) -> Fastest {
        assert!((2..=FINDERS_MAX).contains(&finders.len()));
        Fastest {
            finders,
            chosen: AtomicU8::new(MEASURING),
            nanos: Default::default(),
            bytes: Default::default(),
        }
    }

    /// A race of a candidate finder and the regex's DFA alone.
    pub fn candidates_or_dfa(candidates: Box<dyn Matcher>, dfa: Box<dyn Matcher>) -> Fastest {
        Fastest::new(vec![("the candidates", candidates), ("the DFA alone", dfa)])
    }

    /// The finder kept, once measured.
    pub fn chosen(&self) -> Option<usize> {
        match self.chosen.load(Ordering::Relaxed) {
            MEASURING => None,
            i => Some(usize::from(i)),
        }
    }

    /// Times one search by the finder measured least so far; keeps the
    /// fastest finder once every one searched enough. A thread's first
    /// [`WARM_UP_BYTES`] go untimed, to each finder in turn.
    fn measured(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let n = self.finders.len();
        let searched = |found: &Option<Range<usize>>| {
            found
                .as_ref()
                .map_or(hay.len(), |m| m.end)
                .saturating_sub(at)
        };
        let (warmed, turn) = WARMED.get();
        if warmed < WARM_UP_BYTES {
            let found = self.finders[turn % n].1.find_at(hay, at);
            WARMED.set((warmed + searched(&found) as u64, turn + 1));
            return found;
        }
        let bytes = |i: usize| self.bytes[i].load(Ordering::Relaxed);
        let i = (0..n).min_by_key(|&i| bytes(i)).unwrap_or(0);
        let start = Instant::now();
        let found = self.finders[i].1.find_at(hay, at);
        let nanos = start.elapsed().as_nanos() as u64;
        let searched = searched(&found);
        self.nanos[i].fetch_add(nanos, Ordering::Relaxed);
        self.bytes[i].fetch_add(searched as u64, Ordering::Relaxed);
        if (0..n).all(|i| bytes(i) >= MEASURE_BYTES) {
            self.choose();
        }
        found
    }

    /// Keeps the finder with fewest nanoseconds a byte (the earlier one on
    /// a tie).
    fn choose(&self) {
        let n = self.finders.len();
        let picos: Vec<u128> = (0..n)
            .map(|i| {
                let nanos = self.nanos[i].load(Ordering::Relaxed) as u128;
                nanos * 1000 / self.bytes[i].load(Ordering::Relaxed).max(1) as u128
            })
            .collect();
        let pick = (0..n).min_by_key(|&i| (picos[i], i)).unwrap_or(0);
        if self
            .chosen
            .compare_exchange(MEASURING, pick as u8, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            let paces: Vec<String> = (0..n)
                .map(|i| format!("{} {:.2}", self.finders[i].0, picos[i] as f64 / 1000.0))
                .collect();
            let line = format!(
                "line finder race: kept {} ({} ns a byte, on the first {} MiB each)",
                self.finders[pick].0,
                paces.join(", "),
                MEASURE_BYTES >> 20
            );
            if let Ok(mut d) = DECIDED.lock() {
                *d = Some(line);
            }
        }
    }
}

impl Matcher for Fastest {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        match self.chosen.load(Ordering::Relaxed) {
            MEASURING => self.measured(hay, at),
            i => self.finders[usize::from(i)].1.find_at(hay, at),
        }
    }

    fn is_exact(&self) -> bool {
        self.finders.iter().all(|(_, f)| f.is_exact())
    }

    fn selects_lines(&self) -> bool {
        self.finders.iter().all(|(_, f)| f.selects_lines())
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.finders
            .last()
            .is_some_and(|(_, f)| f.is_match_line(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;

    /// A finder that takes its time.
    struct Slow(Literal);

    impl Matcher for Slow {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            std::thread::sleep(std::time::Duration::from_micros(200));
            self.0.find_at(hay, at)
        }
    }

    /// `ab` found by `finders` (`slow` of them taking their time), in
    /// `hay`'s 200 lines holding it, and the finder kept.
    fn race(slow: &[bool]) -> Option<usize> {
        let mut line = vec![b'x'; 1 << 16];
        line.extend_from_slice(b"\nab\n");
        let hay = line.repeat(200);
        let finders = slow
            .iter()
            .map(|&slow| {
                let f: Box<dyn Matcher> = match slow {
                    true => Box::new(Slow(Literal::new(b"ab"))),
                    false => Box::new(Literal::new(b"ab")),
                };
                ("a finder", f)
            })
            .collect();
        let f = Fastest::new(finders);
        let mut at = 0;
        let mut hits = 0;
        while let Some(m) = f.find_at(&hay, at) {
            assert_eq!(&hay[m.clone()], b"ab");
            hits += 1;
            at = m.end;
        }
        assert_eq!(hits, 200);
        f.chosen()
    }

    #[test]
    fn the_faster_finder_is_kept_and_answers_stay_the_same() {
        assert_eq!(race(&[true, false]), Some(1));
        assert_eq!(race(&[false, true]), Some(0));
    }

    /// A thread's first bytes in races go untimed, to each finder in
    /// turn; timing starts after them, on every thread afresh.
    #[test]
    fn a_threads_first_bytes_are_not_timed() {
        std::thread::spawn(|| {
            // Each search ends at the hay's end: 4 KiB searched.
            let hay = [vec![b'x'; (1 << 12) - 3], b"\nab".to_vec()].concat();
            let f = Fastest::new(vec![
                ("one", Box::new(Literal::new(b"ab"))),
                ("two", Box::new(Literal::new(b"ab"))),
            ]);
            let timed = || {
                f.bytes
                    .iter()
                    .map(|b| b.load(Ordering::Relaxed))
                    .sum::<u64>()
            };
            let searches = WARM_UP_BYTES as usize / hay.len();
            for _ in 0..searches {
                assert_eq!(f.find_at(&hay, 0), Some(4094..4096));
            }
            assert_eq!(timed(), 0);
            assert_eq!(WARMED.get(), (WARM_UP_BYTES, searches));
            f.find_at(&hay, 0);
            assert!(timed() > 0);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_fastest_of_three_is_kept() {
        assert_eq!(race(&[true, true, false]), Some(2));
        assert_eq!(race(&[true, false, true]), Some(1));
        assert_eq!(race(&[false, true, true]), Some(0));
    }
}
