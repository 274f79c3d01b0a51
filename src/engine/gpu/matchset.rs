//! The GPU's answer: every match start, in one of two shapes.
//!
//! The engine ships whichever costs fewer bytes over PCIe: ascending offsets
//! (8 bytes a match) when matches are sparse, or the bitmap itself (one bit
//! per text byte) when they are dense. Both answer the one question the
//! searcher asks, `next_at_or_after`, without converting: a binary search on
//! offsets, a word scan with `trailing_zeros` on the bitmap. Bits past the
//! text's end are always zero.

/// Match starts found by the GPU, as ascending global offsets.
#[derive(Debug, Clone, Default)]
pub struct MatchSet {
    repr: Repr,
}

#[derive(Debug, Clone)]
enum Repr {
    /// Ascending offsets.
    Offsets(Vec<u64>),
    /// Bit `i % 64` of `words[i / 64]` is set iff a match starts at `i`;
    /// `count` is the number of set bits.
    Bitmap { words: Vec<u64>, count: usize },
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Offsets(Vec::new())
    }
}

impl MatchSet {
    /// A set from ascending offsets.
    pub fn from_sorted(offsets: Vec<u64>) -> Self {
        debug_assert!(offsets.windows(2).all(|w| w[0] < w[1]));
        MatchSet {
            repr: Repr::Offsets(offsets),
        }
    }

    /// A set from a bitmap: bit `i % 64` of `words[i / 64]` marks a match at `i`.
    pub fn from_bitmap(words: Vec<u64>) -> Self {
        let count = words.iter().map(|w| w.count_ones() as usize).sum();
        MatchSet {
            repr: Repr::Bitmap { words, count },
        }
    }

    /// Like `from_bitmap` when the number of set bits is already known.
    pub(crate) fn from_bitmap_counted(words: Vec<u64>, count: usize) -> Self {
        debug_assert_eq!(
            count,
            words.iter().map(|w| w.count_ones() as usize).sum::<usize>()
        );
        MatchSet {
            repr: Repr::Bitmap { words, count },
        }
    }

    /// The first match start at or after `pos`.
    pub fn next_at_or_after(&self, pos: u64) -> Option<u64> {
        match &self.repr {
            Repr::Offsets(offsets) => {
                let i = offsets.partition_point(|&o| o < pos);
                offsets.get(i).copied()
            }
            Repr::Bitmap { words, .. } => {
                let mut wi = usize::try_from(pos / 64).ok()?;
                let mut w = *words.get(wi)? & (u64::MAX << (pos % 64));
                loop {
                    if w != 0 {
                        return Some(wi as u64 * 64 + u64::from(w.trailing_zeros()));
                    }
                    wi += 1;
                    w = *words.get(wi)?;
                }
            }
        }
    }

    /// How many match starts the set holds.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Offsets(offsets) => offsets.len(),
            Repr::Bitmap { count, .. } => *count,
        }
    }

    /// True when there is no match.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// "offsets" or "bitmap": which shape the GPU shipped (for `--debug`).
    pub fn representation(&self) -> &'static str {
        match &self.repr {
            Repr::Offsets(_) => "offsets",
            Repr::Bitmap { .. } => "bitmap",
        }
    }

    /// All match starts, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut next = 0u64;
        std::iter::from_fn(move || {
            let found = self.next_at_or_after(next)?;
            next = found + 1;
            Some(found)
        })
    }

    /// All match starts, ascending, as a vector.
    pub fn to_vec(&self) -> Vec<u64> {
        match &self.repr {
            Repr::Offsets(offsets) => offsets.clone(),
            Repr::Bitmap { count, .. } => {
                let mut v = Vec::with_capacity(*count);
                v.extend(self.iter());
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bitmap_of(offsets: &[u64], words: usize) -> Vec<u64> {
        let mut w = vec![0u64; words];
        for &o in offsets {
            w[(o / 64) as usize] |= 1 << (o % 64);
        }
        w
    }

    #[test]
    fn both_shapes_answer_alike() {
        let offsets = vec![0, 1, 63, 64, 65, 127, 128, 200, 511, 1000, 4095];
        let a = MatchSet::from_sorted(offsets.clone());
        let b = MatchSet::from_bitmap(bitmap_of(&offsets, 64));
        assert_eq!(a.len(), offsets.len());
        assert_eq!(b.len(), offsets.len());
        assert_eq!(b.representation(), "bitmap");
        assert_eq!(a.representation(), "offsets");
        for pos in 0..4200u64 {
            let want = offsets.iter().copied().find(|&o| o >= pos);
            assert_eq!(a.next_at_or_after(pos), want, "offsets at {pos}");
            assert_eq!(b.next_at_or_after(pos), want, "bitmap at {pos}");
        }
        assert_eq!(b.to_vec(), offsets);
        assert_eq!(a.iter().collect::<Vec<_>>(), offsets);
        assert_eq!(b.next_at_or_after(u64::MAX), None);
    }

    #[test]
    fn empty_sets() {
        let a = MatchSet::default();
        assert!(a.is_empty());
        assert_eq!(a.next_at_or_after(0), None);
        let b = MatchSet::from_bitmap(vec![0; 10]);
        assert!(b.is_empty());
        assert_eq!(b.next_at_or_after(0), None);
        assert_eq!(b.next_at_or_after(639), None);
        let c = MatchSet::from_bitmap(Vec::new());
        assert_eq!(c.next_at_or_after(0), None);
    }

    #[test]
    fn bitmap_sparse_far_apart() {
        let offsets = vec![5, 64 * 1000 + 3, 64 * 5000 + 63];
        let b = MatchSet::from_bitmap_counted(bitmap_of(&offsets, 5001), 3);
        assert_eq!(b.next_at_or_after(6), Some(64 * 1000 + 3));
        assert_eq!(b.next_at_or_after(64 * 1000 + 4), Some(64 * 5000 + 63));
        assert_eq!(b.next_at_or_after(64 * 5000 + 64), None);
    }
}
