//! A few exact literals that share a long prefix or suffix
//! (`module_(init|exit)\(`, `(spin|raw_spin)_lock_irq`): memmem finds the
//! shared part, and each literal is compared where it would lie around it.
//!
//! Teddy's fingerprint of such a set sees only the shared bytes, so every
//! occurrence of them is a Teddy candidate it then verifies; memmem finds
//! the same places faster (its rare-byte pair), and a few comparisons
//! confirm each one without a regex or a line's bounds: rg's meta engine
//! also runs memmem for a shared prefix. One thread over 90 MB of the
//! Linux tree's C files: see README, Engines.

use memchr::memmem;
use std::ops::Range;

/// Fewest bytes the literals must share: shorter, and memmem's hits are
/// Teddy's candidates again.
pub const AFFIX_MIN: usize = 4;

/// Most literals compared at each hit.
pub const AFFIX_LITERALS_MAX: usize = 16;

pub struct AffixLiterals {
    finder: memmem::Finder<'static>,
    /// Every literal begins with the affix (else every one ends with it).
    prefix: bool,
    /// The literals, each holding the affix at that end.
    lits: Vec<Vec<u8>>,
}

impl AffixLiterals {
    /// For 2 to [`AFFIX_LITERALS_MAX`] literals (none holding another)
    /// that all begin, or all end, with `affix` of [`AFFIX_MIN`] bytes or
    /// more; `None` otherwise.
    pub fn new(lits: &[Vec<u8>], affix: &[u8]) -> Option<AffixLiterals> {
        let count = (2..=AFFIX_LITERALS_MAX).contains(&lits.len());
        if !count || affix.len() < AFFIX_MIN {
            return None;
        }
        let prefix = lits.iter().all(|l| l.starts_with(affix));
        if !prefix && !lits.iter().all(|l| l.ends_with(affix)) {
            return None;
        }
        Some(AffixLiterals {
            finder: memmem::Finder::new(affix).into_owned(),
            prefix,
            lits: lits.to_vec(),
        })
    }

    /// A literal's occurrence starting at or after `at`, on the first line
    /// (no literal holds a line's end) that holds one: with a shared
    /// prefix the leftmost, with a shared suffix the one ending first.
    pub fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let affix = self.finder.needle().len();
        let mut from = at;
        loop {
            let hit = from + self.finder.find(hay.get(from..)?)?;
            let found = match self.prefix {
                true => self
                    .lits
                    .iter()
                    .find(|l| hay[hit..].starts_with(l))
                    .map(|l| hit..hit + l.len()),
                false => {
                    let end = hit + affix;
                    self.lits
                        .iter()
                        .filter(|l| end - at >= l.len())
                        .find(|l| hay[..end].ends_with(l))
                        .map(|l| end - l.len()..end)
                }
            };
            if found.is_some() {
                return found;
            }
            from = hit + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The naive oracle: every literal tried at every offset from `at`.
    fn naive_starts(lits: &[Vec<u8>], hay: &[u8], at: usize) -> Vec<usize> {
        (at..=hay.len())
            .filter(|&s| lits.iter().any(|l| hay[s..].starts_with(l)))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A hit is an occurrence of a literal at or after `at`; with a
        /// shared prefix the leftmost; with a shared suffix one that no
        /// occurrence ends before; none when the oracle finds none.
        #[test]
        fn hits_are_occurrences_as_the_naive_oracle_finds(
            affix in "[ab]{4,5}",
            ends in prop::collection::vec("[abc]{0,3}", 2..5),
            prefix in any::<bool>(),
            hay in "[abc\n]{0,80}",
            at in 0usize..90,
        ) {
            let lits: Vec<Vec<u8>> = ends
                .iter()
                .map(|e| match prefix {
                    true => format!("{affix}{e}"),
                    false => format!("{e}{affix}"),
                })
                .map(String::into_bytes)
                .collect();
            let Some(f) = AffixLiterals::new(&lits, affix.as_bytes()) else {
                return Ok(());
            };
            let hay = hay.as_bytes();
            let want = naive_starts(&lits, hay, at.min(hay.len() + 1));
            match f.find_at(hay, at) {
                None => prop_assert!(want.is_empty() || at > hay.len()),
                Some(r) => {
                    prop_assert!(r.start >= at);
                    prop_assert!(lits.iter().any(|l| hay[r.clone()] == l[..]));
                    let first_end = (at..=hay.len())
                        .filter(|&e| lits.iter().any(|l| e >= at + l.len() && hay[..e].ends_with(l)))
                        .min();
                    match prefix {
                        true => prop_assert_eq!(Some(r.start), want.first().copied()),
                        false => prop_assert_eq!(Some(r.end), first_end),
                    }
                }
            }
        }
    }

    #[test]
    fn literals_without_a_long_shared_end_are_refused() {
        let v = |s: &[&str]| s.iter().map(|l| l.as_bytes().to_vec()).collect::<Vec<_>>();
        assert!(AffixLiterals::new(&v(&["abc_x", "abc_y"]), b"abc").is_none());
        assert!(AffixLiterals::new(&v(&["only_one"]), b"only").is_none());
        assert!(AffixLiterals::new(&v(&["lock_a", "b_lock"]), b"lock").is_none());
        assert!(AffixLiterals::new(&v(&["x_lock", "yy_lock"]), b"_lock").is_some());
    }
}
