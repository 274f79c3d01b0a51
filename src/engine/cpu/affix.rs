//! A few exact literals that share a long prefix or suffix
//! (`module_(init|exit)\(`, `(spin|raw_spin)_lock_irq`): memmem finds the
//! shared part, and each literal is compared where it would lie around it.
//!
//! Teddy's fingerprint of such a set sees only the shared bytes, so every
//! occurrence of them is a Teddy candidate it then verifies; memmem finds
//! the same places faster (its rare-byte pair), and a few comparisons
//! confirm each one without a regex or a line's bounds: rg's meta engine
//! also runs memmem for a shared prefix. One thread over 90 MB of the
//! Linux tree's C files: see README, Engines. Sets past Slim Teddy's 32
//! whose first 4 bytes are 32 values or fewer (case variants of a few
//! words) are found the same way by Slim Teddy over those prefixes
//! ([`PrefixGroups`]).

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
    /// For 2 to [`AFFIX_LITERALS_MAX`] literals that all begin, or all
    /// end, with `affix` of [`AFFIX_MIN`] bytes or more; `None` otherwise.
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

/// Most distinct prefixes [`PrefixGroups`] takes: Slim Teddy's 32.
pub const PREFIXES_MAX: usize = 32;

/// Longest prefix [`PrefixGroups`]' Teddy looks for.
const PREFIX_LEN: usize = 4;

/// Exact literals, more than Slim Teddy takes, whose first 4 bytes are
/// 32 or fewer distinct prefixes (`(?i)err(or)?:`'s 40 case variants:
/// 24): Slim Teddy finds the prefixes, and each hit is compared with the
/// literals that begin with it. Fat Teddy over the 40 scans half the
/// bytes a step, and case windows found by Slim Teddy need a regex over
/// their lines.
pub struct PrefixGroups {
    teddy: aho_corasick::packed::Searcher,
    /// The prefixes, sorted, all `len` bytes.
    prefixes: Vec<Vec<u8>>,
    len: usize,
    /// The literals beginning with each prefix, in `prefixes`' order.
    groups: Vec<Vec<Vec<u8>>>,
}

impl PrefixGroups {
    /// For ASCII literals of 3 bytes or more whose first `min(4,
    /// shortest)` bytes take at most [`PREFIXES_MAX`] values; `None`
    /// otherwise (or where Teddy cannot be built). Not past ASCII: case
    /// variants of `müller` all hold 0xC3 second, which memchr finds
    /// (`Candidates::exact`).
    pub fn new(lits: &[Vec<u8>]) -> Option<PrefixGroups> {
        let shortest = lits.iter().map(Vec::len).min()?;
        if shortest < 3 || lits.iter().any(|l| !l.is_ascii()) {
            return None;
        }
        let len = shortest.min(PREFIX_LEN);
        let mut prefixes: Vec<Vec<u8>> = lits.iter().map(|l| l[..len].to_vec()).collect();
        prefixes.sort();
        prefixes.dedup();
        if prefixes.len() > PREFIXES_MAX {
            return None;
        }
        let groups = prefixes
            .iter()
            .map(|p| lits.iter().filter(|l| l.starts_with(p)).cloned().collect())
            .collect();
        let mut b = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
            .builder();
        b.extend(&prefixes);
        Some(PrefixGroups {
            teddy: b.build()?,
            prefixes,
            len,
            groups,
        })
    }

    /// The leftmost occurrence of a literal starting at or after `at` (in
    /// a large buffer one in the same line: `packed_find`).
    pub fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let mut from = at;
        loop {
            if from > hay.len() {
                return None;
            }
            let hit = super::packed_find(&self.teddy, self.len, hay, from)?;
            let group = self
                .prefixes
                .binary_search_by(|p| p[..].cmp(&hay[hit.clone()]))
                .ok()?;
            let start = hit.start;
            if let Some(l) = self.groups[group]
                .iter()
                .find(|l| hay[start..].starts_with(l))
            {
                return Some(start..start + l.len());
            }
            from = start + 1;
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

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The leftmost occurrence of a literal at or after `at`, as the
        /// naive oracle finds it, or none.
        #[test]
        fn prefix_groups_find_the_leftmost_occurrence(
            lits in prop::collection::vec("[abAB]{3,6}", 1..40),
            hay in "[abAB\n]{0,120}",
            at in 0usize..130,
        ) {
            let lits: Vec<Vec<u8>> = lits.into_iter().map(String::into_bytes).collect();
            let Some(f) = PrefixGroups::new(&lits) else {
                return Ok(());
            };
            let hay = hay.as_bytes();
            let want = naive_starts(&lits, hay, at.min(hay.len() + 1));
            let got = f.find_at(hay, at);
            prop_assert_eq!(got.as_ref().map(|r| r.start), want.first().copied());
            if let Some(r) = got {
                prop_assert!(lits.iter().any(|l| hay[r.clone()] == l[..]));
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
