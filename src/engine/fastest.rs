//! Two line finders for the same regex, the faster one kept: each is
//! timed on the run's first megabytes, then the one that took fewer
//! nanoseconds a byte answers alone.
//!
//! Which of the shift-or scan and the regex's DFA finds a regex's lines
//! faster depends on the text more than on the regex: on CI logs the scan
//! took `[0-9a-f]{40}` from 0.49 s to 0.26 s and an IPv4 regex from 0.93
//! s to 0.23 s, and `[A-Z]{3,}_[A-Z]+` from 0.10 s to 0.26 s (2 threads,
//! 512 MB; rg 0.20 s), where upper-case words are everywhere and the
//! DFA's start state skips the rest quickly. A guess from byte frequencies
//! (`pattern::window`) cannot see that; a measurement can. Both finders
//! are sound and give the same lines, so the choice changes only the time.

use super::Matcher;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

/// Bytes each finder searches, timed, before the faster one is kept.
const MEASURE_BYTES: u64 = 2 << 20;

/// The last choice in this process, for `--stats` ([`stats_line`]): the
/// finder kept (1 or 2; 0: none yet) and each one's picoseconds a byte
/// when it was made.
static KEPT: AtomicU8 = AtomicU8::new(0);
static PICOS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// `--stats`' line on the race, if one was decided: every use races a
/// candidate finder (literals, bytes or windows of byte classes) against
/// the regex's DFA alone. The finders' time, not the candidate lines'
/// confirmation.
pub fn stats_line() -> Option<String> {
    let kept = match KEPT.load(Ordering::Relaxed) {
        FIRST => "the candidates",
        SECOND => "the DFA alone",
        _ => return None,
    };
    let [a, b] = PICOS
        .each_ref()
        .map(|p| p.load(Ordering::Relaxed) as f64 / 1000.0);
    Some(format!(
        "line finder race: kept {kept} (candidates {a:.2} ns a byte, the DFA alone {b:.2}, on the first {} MiB each)",
        MEASURE_BYTES >> 20
    ))
}

const MEASURING: u8 = 0;
const FIRST: u8 = 1;
const SECOND: u8 = 2;

/// Finds lines with whichever of two finders proved faster.
pub struct Fastest {
    finders: [Box<dyn Matcher>; 2],
    chosen: AtomicU8,
    /// Per finder: nanoseconds and bytes measured.
    nanos: [AtomicU64; 2],
    bytes: [AtomicU64; 2],
}

impl Fastest {
    /// `first` and `second` must find the same lines (each answer a hit in
    /// a line the other would select, or a candidate for it).
    pub fn new(first: Box<dyn Matcher>, second: Box<dyn Matcher>) -> Fastest {
        Fastest {
            finders: [first, second],
            chosen: AtomicU8::new(MEASURING),
            nanos: Default::default(),
            bytes: Default::default(),
        }
    }

    /// The finder kept, once measured.
    pub fn chosen(&self) -> Option<usize> {
        match self.chosen.load(Ordering::Relaxed) {
            FIRST => Some(0),
            SECOND => Some(1),
            _ => None,
        }
    }

    /// Times one search by the finder measured least so far; keeps the
    /// faster finder once both searched enough.
    fn measured(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let bytes = [0, 1].map(|i| self.bytes[i].load(Ordering::Relaxed));
        let i = usize::from(bytes[1] < bytes[0]);
        let start = Instant::now();
        let found = self.finders[i].find_at(hay, at);
        let nanos = start.elapsed().as_nanos() as u64;
        let searched = found
            .as_ref()
            .map_or(hay.len(), |m| m.end)
            .saturating_sub(at);
        self.nanos[i].fetch_add(nanos, Ordering::Relaxed);
        let done = self.bytes[i].fetch_add(searched as u64, Ordering::Relaxed) + searched as u64;
        let other = bytes[1 - i];
        if done.min(other) >= MEASURE_BYTES {
            self.choose();
        }
        found
    }

    /// Keeps the finder with fewer nanoseconds a byte.
    fn choose(&self) {
        let n = [0, 1].map(|i| self.nanos[i].load(Ordering::Relaxed) as u128);
        let b = [0, 1].map(|i| self.bytes[i].load(Ordering::Relaxed).max(1) as u128);
        // n0 / b0 <= n1 / b1
        let first = n[0] * b[1] <= n[1] * b[0];
        let pick = if first { FIRST } else { SECOND };
        if self
            .chosen
            .compare_exchange(MEASURING, pick, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            for i in 0..2 {
                PICOS[i].store((n[i] * 1000 / b[i]) as u64, Ordering::Relaxed);
            }
            KEPT.store(pick, Ordering::Relaxed);
        }
    }
}

impl Matcher for Fastest {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        match self.chosen.load(Ordering::Relaxed) {
            FIRST => self.finders[0].find_at(hay, at),
            SECOND => self.finders[1].find_at(hay, at),
            _ => self.measured(hay, at),
        }
    }

    fn is_exact(&self) -> bool {
        self.finders.iter().all(|f| f.is_exact())
    }

    fn selects_lines(&self) -> bool {
        self.finders.iter().all(|f| f.selects_lines())
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.finders[1].is_match_line(line)
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

    #[test]
    fn the_faster_finder_is_kept_and_answers_stay_the_same() {
        let mut line = vec![b'x'; 1 << 16];
        line.extend_from_slice(b"\nab\n");
        let hay = line.repeat(200);
        for slow_first in [true, false] {
            let (a, b): (Box<dyn Matcher>, Box<dyn Matcher>) = match slow_first {
                true => (
                    Box::new(Slow(Literal::new(b"ab"))),
                    Box::new(Literal::new(b"ab")),
                ),
                false => (
                    Box::new(Literal::new(b"ab")),
                    Box::new(Slow(Literal::new(b"ab"))),
                ),
            };
            let f = Fastest::new(a, b);
            let mut at = 0;
            let mut hits = 0;
            while let Some(m) = f.find_at(&hay, at) {
                assert_eq!(&hay[m.clone()], b"ab");
                hits += 1;
                at = m.end;
            }
            assert_eq!(hits, 200);
            assert_eq!(f.chosen(), Some(usize::from(slow_first)));
        }
    }
}
