//! Teddy over a large buffer, block by block, each block read into cache
//! before Teddy searches it (measured: Teddy runs at half its speed over
//! memory that is not in cache; see [`packed_find`]).

use std::ops::Range;

/// Most bytes Teddy searches at a time in a large buffer, each block read
/// into cache first (see [`packed_find`]); the first block of a search is
/// [`TEDDY_FIRST_BLOCK`], and each next one twice the last.
const TEDDY_BLOCK: usize = 64 * 1024;
const TEDDY_FIRST_BLOCK: usize = 4 * 1024;

/// Teddy's leftmost hit at or after `at`, block by block when the buffer
/// is large. Teddy runs at half its speed over memory that is not in cache
/// (a mapped file: 2.4 GB/s against 5.5 over the same bytes 64 KiB at a
/// time, `-i linux` in prose, 2-core Xeon): a read of one byte a cache
/// line over each block first, which the CPU overlaps, brings it into
/// cache. Blocks grow from 4 KiB, the first searched as it is, so that a
/// search stopped early by a hit (a frequent literal) costs nothing more. A literal crossing a
/// block's end is found in the next block, which starts `longest - 1`
/// bytes earlier. A hit may then not be the leftmost one, only when a
/// literal crossing the block's end starts before it and so holds it: the
/// same line.
pub(super) fn packed_find(
    teddy: &aho_corasick::packed::Searcher,
    longest: usize,
    hay: &[u8],
    at: usize,
) -> Option<Range<usize>> {
    packed_find_by(TEDDY_FIRST_BLOCK, TEDDY_BLOCK, teddy, longest, hay, at)
}

/// [`packed_find`] with blocks from `first` to `most` bytes (tests use
/// small ones).
fn packed_find_by(
    first: usize,
    most: usize,
    teddy: &aho_corasick::packed::Searcher,
    longest: usize,
    hay: &[u8],
    at: usize,
) -> Option<Range<usize>> {
    let mut from = at;
    let mut block = first;
    if hay.len().saturating_sub(at) <= 2 * most {
        // A small file, read into a buffer that is still in cache.
        block = usize::MAX;
    }
    // The first block is searched as it is: with frequent hits it is all
    // there is, and warming would only add a pass.
    let mut cold = false;
    while hay.len().saturating_sub(from) / 2 > block && longest <= block {
        let end = from + block;
        if std::mem::replace(&mut cold, true) {
            warm(&hay[from..end]);
        }
        if let Some(m) = teddy.find_in(hay, aho_corasick::Span::from(from..end)) {
            return Some(m.range());
        }
        from = end + 1 - longest;
        block = (2 * block).min(most);
    }
    teddy
        .find_in(hay, aho_corasick::Span::from(from..hay.len()))
        .map(|m| m.range())
}

/// Reads one byte of each 64-byte cache line of `block`.
fn warm(block: &[u8]) {
    let sum = block
        .iter()
        .step_by(64)
        .fold(0u8, |s, &b| s.wrapping_add(b));
    // Unused: the reads are what counts.
    std::hint::black_box(sum);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::{CandidateFinder, Candidates};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Teddy block by block finds a hit exactly when Teddy over the
        /// whole buffer does, never before its leftmost one, and on the
        /// same line.
        #[test]
        fn teddy_by_blocks_finds_the_same_lines(
            lits in prop::collection::vec(
                prop::collection::vec(prop::sample::select(b"abAB.".to_vec()), 1..6),
                2..8,
            ),
            hay in prop::collection::vec(prop::sample::select(b"abAB.\nx".to_vec()), 0..200),
            at in 0usize..200,
            first in 1usize..12,
            most in 1usize..24,
        ) {
            let Some(Candidates { finder: CandidateFinder::Packed { teddy, longest }, .. }) =
                Candidates::new(&lits) else { return Ok(()) };
            let at = at.min(hay.len());
            let whole = teddy.find_in(&hay, aho_corasick::Span::from(at..hay.len())).map(|m| m.range());
            let blocks = packed_find_by(first, most.max(first), &teddy, longest, &hay, at);
            prop_assert_eq!(whole.is_some(), blocks.is_some());
            if let (Some(w), Some(b)) = (whole, blocks) {
                prop_assert!(lits.iter().any(|l| hay[b.clone()] == l[..]));
                prop_assert!(w.start <= b.start && !hay[w.start..b.end].contains(&b'\n'));
            }
        }
    }
}
