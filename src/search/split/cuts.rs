//! Where a split slice's pieces begin, found when a piece is first taken
//! rather than all before the search: finding a line end reads a page of
//! the slice, and in a file's map the kernel maps the 64 KiB around it
//! (fault-around) until that piece is searched and released. Found all at
//! once, 256 KiB pieces of a 415 MB log held 107 MB of it (`-c`, 2
//! threads); found as taken, only the pieces being searched.

use std::sync::atomic::{AtomicUsize, Ordering};

/// A cut not found yet.
const UNKNOWN: usize = usize::MAX;

/// The cuts of `len` bytes into `pieces`: piece `k` begins just after the
/// first terminator at or after `k * len / pieces` (a piece is empty where
/// a line spans it), piece 0 at 0, and the last ends at `len`.
pub struct Cuts {
    len: usize,
    at: Vec<AtomicUsize>,
}

impl Cuts {
    pub(in crate::search) fn new(len: usize, pieces: usize) -> Cuts {
        Cuts {
            len,
            at: (0..=pieces.max(1))
                .map(|_| AtomicUsize::new(UNKNOWN))
                .collect(),
        }
    }

    /// The number of pieces.
    pub(super) fn pieces(&self) -> usize {
        self.at.len() - 1
    }

    /// Where piece `k` begins, `line_end(guess)` finding just past the
    /// first terminator from a guess on (the slice's length if none).
    pub(super) fn at_with(&self, k: usize, line_end: impl Fn(usize) -> usize) -> usize {
        let pieces = self.pieces();
        if k == 0 {
            return 0;
        }
        if k >= pieces {
            return self.len;
        }
        let known = self.at[k].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        // Every thread finds the same cut: it depends only on the data.
        let cut = line_end(self.guess(k));
        self.at[k].store(cut, Ordering::Relaxed);
        // Later pieces whose share begins before this cut have the same
        // one: a line spanning many pieces is scanned once, not once each.
        let mut j = k + 1;
        while j < pieces && self.guess(j) < cut {
            self.at[j].store(cut, Ordering::Relaxed);
            j += 1;
        }
        cut
    }

    /// Where piece `k`'s share of the slice begins.
    fn guess(&self, k: usize) -> usize {
        (self.len as u128 * k as u128 / self.pieces() as u128) as usize
    }

    /// Piece `k`'s bounds, cuts found by `line_end` (see [`Self::at_with`]).
    pub(super) fn piece_with(&self, k: usize, line_end: impl Fn(usize) -> usize) -> (usize, usize) {
        (self.at_with(k, &line_end), self.at_with(k + 1, &line_end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cuts found in any order: the pieces cover the slice in order, and
    /// each begins just after the first terminator from its share on.
    #[test]
    fn cuts_are_the_line_starts_after_each_share_in_any_order() {
        let data = b"aaaa\nbb\n\ncccccccccccccccc\nd\neeeeee";
        for pieces in 1..=data.len() + 2 {
            let cuts = Cuts::new(data.len(), pieces);
            let line_end = |guess: usize| {
                memchr::memchr(b'\n', &data[guess..]).map_or(data.len(), |i| guess + i + 1)
            };
            let bounds: Vec<_> = (0..pieces)
                .rev()
                .map(|k| cuts.piece_with(k, line_end))
                .collect();
            let mut end = data.len();
            for (k, &(start, stop)) in bounds.iter().enumerate() {
                let k = pieces - 1 - k;
                assert_eq!(stop, end, "pieces {pieces}, piece {k}");
                assert!(start <= stop);
                let share = data.len() * k / pieces;
                let naive = match k {
                    0 => 0,
                    _ => (share..data.len())
                        .find(|&i| data[i] == b'\n')
                        .map_or(data.len(), |i| i + 1),
                };
                assert_eq!(start, naive, "pieces {pieces}, piece {k}");
                end = start;
            }
            assert_eq!(end, 0);
        }
    }
}
