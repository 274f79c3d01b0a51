//! A shift-or (bitap) scan for windows of bytes by position: the line
//! finder of a regex without a literal (see `pattern::window`, which
//! computes the sets and says why).
//!
//! Bit `i` of the state is clear while the last `i + 1` bytes could be the
//! first `i + 1` bytes of a match; a window of `m` bytes passes when bit
//! `m - 1` is clear after its last byte. Each byte costs a table load, a
//! shift and an or, on one dependency chain: about 1 GB/s, four bytes to an
//! iteration. A passing window is then checked by the regex's DFA,
//! anchored at the window's start (a few bytes: `1234567` dies at its
//! fourth digit against an IPv4 address), and the scan goes on one byte
//! further when it fails; a window the DFA accepts holds a match's start,
//! so it selects its line (unless the DFA's regex is a relaxation of the
//! search's: then the confirm step decides the line). Without that check every passing window
//! cost a line confirmation: 174,000 lines a 100 MB log, against 8,360
//! matching ones, half the time of the search. Where windows pass and
//! fail densely (columns of long numbers), the DFA alone takes over for
//! the rest of that search.

mod blocks;

use super::cpu::cached::CachedRegex;
use super::Matcher;
use blocks::Blocks;
use regex_automata::{meta, Anchored, Input};
use std::ops::Range;

/// Failed window checks a search always tries before it may hand over to
/// the DFA alone.
const CHECKS_BEFORE_DFA: usize = 64;

/// Finds windows of `len` bytes whose `i`-th byte is in set `i`.
pub struct ShiftOr {
    /// Bit `i` of `masks[b]` is clear when `b` is in set `i`.
    masks: Box<[u64; 256]>,
    /// Bit `len - 1`: a whole window passed.
    hit: u64,
    len: usize,
    /// Checks a passing window: a match of it must start there.
    verify: Option<CachedRegex>,
    /// The check is the search's own regex: a window it accepts selects
    /// its line.
    exact: bool,
    /// The same windows found with AVX2, where the CPU has it.
    blocks: Option<Blocks>,
}

impl ShiftOr {
    /// A scan for windows whose `i`-th byte satisfies `sets[i]`; `None`
    /// without sets or with more than 64.
    pub fn new(sets: &[impl Fn(u8) -> bool]) -> Option<ShiftOr> {
        if sets.is_empty() || sets.len() > 64 {
            return None;
        }
        let mut masks = Box::new([!0u64; 256]);
        for (i, set) in sets.iter().enumerate() {
            for b in 0..=255u8 {
                if set(b) {
                    masks[usize::from(b)] &= !(1u64 << i);
                }
            }
        }
        Some(ShiftOr {
            blocks: Blocks::new(&masks, sets.len(), &[]),
            masks,
            hit: 1 << (sets.len() - 1),
            len: sets.len(),
            verify: None,
            exact: false,
        })
    }

    /// The scan with the window's positions tested rarest first where it
    /// tests them in blocks (`blocks`): `shares[i]`, the expected share of
    /// text bytes in set `i`.
    pub fn rarest_first(self, shares: &[f64]) -> ShiftOr {
        ShiftOr {
            blocks: Blocks::new(&self.masks, self.len, shares),
            ..self
        }
    }

    /// The scan with each passing window checked by `re`, anchored at the
    /// window's start; `re` must match wherever the sets' regex does, and
    /// `exact` says it is the search's regex itself.
    pub fn verified_by(self, re: meta::Regex, exact: bool) -> ShiftOr {
        ShiftOr {
            verify: Some(CachedRegex::new(re)),
            exact,
            ..self
        }
    }

    /// The end of the first passing window that starts at or after `at`.
    fn window_end(&self, hay: &[u8], at: usize) -> Option<usize> {
        let Some(blocks) = &self.blocks else {
            return self.window_end_scanned(hay, at);
        };
        match blocks.first_start(hay, at) {
            Ok(start) => Some(start + self.len),
            Err(rest) => self.window_end_scanned(hay, rest),
        }
    }

    /// [`ShiftOr::window_end`] by the shift-or loop.
    fn window_end_scanned(&self, hay: &[u8], at: usize) -> Option<usize> {
        let hay_at = hay.get(at..)?;
        let (m, hit) = (&*self.masks, self.hit);
        let step = |st: u64, b: u8| (st << 1) | m[usize::from(b)];
        let mut st = !0u64;
        let mut chunks = hay_at.chunks_exact(4);
        let mut i = 0;
        for c in &mut chunks {
            let s1 = step(st, c[0]);
            let s2 = step(s1, c[1]);
            let s3 = step(s2, c[2]);
            let s4 = step(s3, c[3]);
            if s1 & s2 & s3 & s4 & hit == 0 {
                let k = [s1, s2, s3, s4].iter().position(|s| s & hit == 0)?;
                return Some(at + i + k + 1);
            }
            st = s4;
            i += 4;
        }
        for &b in chunks.remainder() {
            st = step(st, b);
            i += 1;
            if st & hit == 0 {
                return Some(at + i);
            }
        }
        None
    }
}

impl Matcher for ShiftOr {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let mut from = at;
        let mut failed = 0usize;
        loop {
            let end = self.window_end(hay, from)?;
            let start = end - self.len;
            let Some(re) = &self.verify else {
                return Some(start..end);
            };
            let input = Input::new(hay)
                .range(start..)
                .anchored(Anchored::Yes)
                .earliest(true);
            if let Some(m) = re.search_half(&input) {
                // The match's end, not the window's: a match that runs on
                // past its line's end selects nothing by itself.
                return Some(start..m.offset().max(end));
            }
            // No match starts at or before `start`. Windows that pass and
            // fail more than once in 64 bytes (long numbers against an
            // IPv4 regex: 4x slower than the DFA alone) leave the rest to
            // the DFA, unanchored, whose first match end marks the line.
            failed += 1;
            if failed > CHECKS_BEFORE_DFA && failed * 64 > start - at {
                let input = Input::new(hay).range(start + 1..).earliest(true);
                let end = re.search_half(&input)?.offset();
                return Some(end..end);
            }
            from = start + 1;
        }
    }

    fn is_exact(&self) -> bool {
        self.exact
    }

    fn selects_lines(&self) -> bool {
        self.exact
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive scan: every window start, every position checked.
    fn naive(sets: &[Vec<u8>], hay: &[u8], at: usize) -> Option<Range<usize>> {
        let m = sets.len();
        (at..=hay.len().checked_sub(m)?)
            .find(|&s| (0..m).all(|i| sets[i].contains(&hay[s + i])))
            .map(|s| s..s + m)
    }

    /// Bytes of the random sets and texts: ASCII and above 127.
    const ALPHABET: &[u8] = b"ab.1 x\xc3\x80\xff";

    fn scan(sets: &[Vec<u8>]) -> ShiftOr {
        let fns: Vec<_> = sets.iter().map(|s| |b: u8| s.contains(&b)).collect();
        ShiftOr::new(&fns).unwrap()
    }

    #[test]
    fn finds_a_dotted_quad_window() {
        let digits: Vec<u8> = (b'0'..=b'9').collect();
        let dotted: Vec<u8> = digits.iter().copied().chain([b'.']).collect();
        let mut sets = vec![digits];
        sets.extend(std::iter::repeat_n(dotted, 6));
        let s = scan(&sets);
        let hay = b"at 12:34:56.789Z from 10.0.0.1 ok";
        assert_eq!(s.find_at(hay, 0), Some(22..29));
        assert_eq!(s.find_at(hay, 23), Some(23..30));
        assert_eq!(s.find_at(hay, 25), None);
        assert_eq!(s.find_at(hay, 99), None);
    }

    /// Every window length at every start around block edges: a run of
    /// exactly `len` matching bytes is found wherever it lies.
    #[test]
    fn windows_of_every_length_are_found_at_every_start() {
        for len in 1..=64 {
            let sets = vec![b"a".to_vec(); len];
            let s = scan(&sets);
            for start in 0..200 {
                let mut hay = vec![b'b'; 400];
                hay[start..start + len].fill(b'a');
                for at in [0, start.saturating_sub(1), start] {
                    assert_eq!(
                        s.find_at(&hay, at),
                        Some(start..start + len),
                        "len {len}, start {start}, at {at}"
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The scan reports exactly the first window the naive check finds,
        /// from any starting point: through blocks of 32 starts where the
        /// CPU has AVX2 (windows longer than the positions they test, and
        /// bytes of both halves of the byte range, included), by the
        /// shift-or loop alone, and in any order of the tested positions.
        #[test]
        fn scan_equals_naive_windows(
            sets in prop::collection::vec(
                prop::collection::vec(prop::sample::select(ALPHABET.to_vec()), 1..4),
                1..13,
            ),
            hay in prop::collection::vec(prop::sample::select(ALPHABET.to_vec()), 0..300),
            at in 0usize..310,
            shares in prop::collection::vec(0.0f64..1.0, 12),
        ) {
            let want = naive(&sets, &hay, at);
            let s = scan(&sets);
            prop_assert_eq!(s.find_at(&hay, at), want.clone());
            let end = want.map(|w| w.end);
            prop_assert_eq!(s.window_end_scanned(&hay, at), end);
            prop_assert_eq!(s.rarest_first(&shares).window_end(&hay, at), end);
        }

        /// Windows longer than the positions a block tests, over text where
        /// most starts pass the tested ones: the rest decide.
        #[test]
        fn long_windows_are_checked_past_the_tested_positions(
            sets in prop::collection::vec(
                prop::sample::select(vec![b"a".to_vec(), b"ab".to_vec()]),
                9..65,
            ),
            hay in prop::collection::vec(prop::sample::select(b"aaaaaaab".to_vec()), 0..300),
            at in 0usize..100,
        ) {
            prop_assert_eq!(scan(&sets).find_at(&hay, at), naive(&sets, &hay, at));
        }
    }
}
