//! Tables of the `multi` kernel (many literals in one pass), and a CPU
//! reference of what the kernel computes.
//!
//! Patterns of 1, 2 and 3 bytes are exact bit sets indexed by their bytes
//! (a hit is a match). Longer patterns are keyed by their first 4 bytes: a
//! bit filter over the keys' hashes (in shared memory on the GPU), the
//! sorted distinct keys, and per key its patterns in byte order. A group
//! is not compared pattern by pattern: a binary search finds the greatest
//! pattern not above the text, and any pattern occurring there is a prefix
//! of that one (a pattern P that starts the text T sorts at or below T,
//! and everything between P and T starts with P), so following that
//! pattern's chain of prefixes in the set (`links`) finds it. With 10,000
//! phrases, keys like `the ` head groups of hundreds, once compared one by
//! one at every `the ` of the text.
//! Keying short patterns apart keeps the groups small: with one 2-byte
//! pattern among 10,000, keying all by 2 bytes made groups of ~50 patterns
//! compared at almost every position (benches/RESULTS.md, issue 5).
//!
//! A key is found through an open-addressing hash table (`slots`), one or
//! two probes, not a binary search of the sorted keys: the kernel looks a
//! key up at about a fifth of the text's positions with 10,000 phrases.
//!
//! The layout mirrors the `multi` launch contract in `kernels/literal.cu`;
//! `reference` computes on the CPU, from the same tables, the positions the
//! kernel marks, and is tested against a naive search; the kernel is tested
//! against a naive search on the GPU (tests/gpu_differential.rs).

use std::sync::atomic::{AtomicU64, Ordering};

/// log2 of the filter's bits (literal.cu `FILTER_LOG2`).
pub const FILTER_LOG2: u32 = 18;
/// u32 words of the filter (literal.cu `FILTER_WORDS`).
pub const FILTER_WORDS: usize = (1 << FILTER_LOG2) / 32;
/// u32 words of the 1-, 2- and 3-byte sets (literal.cu `SET*_WORDS`).
pub const SET1_WORDS: usize = 256 / 32;
pub const SET2_WORDS: usize = 65536 / 32;
pub const SET3_WORDS: usize = (1 << 24) / 32;
/// Dynamic shared memory of the kernel: filter, 2-byte and 1-byte sets.
pub const SHARED_BYTES: u32 = ((FILTER_WORDS + SET2_WORDS + SET1_WORDS) * 4) as u32;

// The shared memory the launch asks for fits the default 48 KiB.
const _: () = assert!(SHARED_BYTES <= 48 * 1024);

/// The kernel's hash of a key (literal.cu `multi_hash`).
pub fn hash(key: u32) -> u32 {
    key.wrapping_mul(0x9E37_79B1) >> (32 - FILTER_LOG2)
}

/// Where the probe for `key` starts in a table of `2^log2` slots
/// (literal.cu `slot_hash`; 1 <= log2 <= 31).
pub fn slot_hash(key: u32, log2: u32) -> u32 {
    key.wrapping_mul(0x85EB_CA6B) >> (32 - log2)
}

fn has_bit(set: &[u32], i: u32) -> bool {
    set[(i >> 5) as usize] >> (i & 31) & 1 == 1
}

fn set_bit(set: &mut [u32], i: u32) {
    set[(i >> 5) as usize] |= 1 << (i & 31);
}

/// The tables for one pattern set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultiTables {
    /// Tells sets apart (a GPU lane keeps the last tables it uploaded).
    pub id: u64,
    /// Bit 0..2: patterns of 1, 2, 3 bytes exist; bit 3: longer ones.
    pub classes: u32,
    pub minlen: u32,
    pub maxlen: u32,
    pub set1: Vec<u32>,
    pub set2: Vec<u32>,
    pub set3: Vec<u32>,
    pub filter: Vec<u32>,
    /// Distinct 4-byte keys of the longer patterns, ascending.
    pub keys: Vec<u32>,
    /// Hash table of the keys: `2^slot_log2` entries, each an index into
    /// `keys` or `NO_LINK`; key `v` sits at the first free slot from
    /// `slot_hash(v)` on, wrapping (linear probing, at most half full).
    pub slots: Vec<u32>,
    pub slot_log2: u32,
    /// Longer patterns with key `keys[i]` are `first[i]..first[i + 1]`.
    pub first: Vec<u32>,
    /// Longer pattern `k` is `bytes[starts[k]..starts[k + 1]]`.
    pub starts: Vec<u32>,
    pub bytes: Vec<u8>,
    /// `links[k]`: the longest pattern of `k`'s group that is a proper
    /// prefix of pattern `k`, or `NO_LINK`.
    pub links: Vec<u32>,
    /// Distinct patterns, all lengths.
    patterns: usize,
}

/// `links` entry of a pattern no other pattern of its group begins.
pub const NO_LINK: u32 = u32::MAX;

/// Up to 4 bytes as a little-endian word (missing bytes are 0).
fn word(bytes: &[u8]) -> u32 {
    let mut b = [0u8; 4];
    let k = bytes.len().min(4);
    b[..k].copy_from_slice(&bytes[..k]);
    u32::from_le_bytes(b)
}

impl MultiTables {
    /// Tables for `patterns` (deduplicated here); `None` when a pattern is
    /// empty, when there are none, or when the set exceeds u32 offsets.
    pub fn new(patterns: &[Vec<u8>]) -> Option<MultiTables> {
        static IDS: AtomicU64 = AtomicU64::new(1);
        let mut pats: Vec<&[u8]> = patterns.iter().map(|p| p.as_slice()).collect();
        if pats.is_empty() || pats.iter().any(|p| p.is_empty()) {
            return None;
        }
        pats.sort_by_key(|p| (p.len() < 4, word(p), *p));
        pats.dedup();
        let total: usize = pats.iter().map(|p| p.len()).sum();
        u32::try_from(total).ok()?;
        let mut t = MultiTables {
            id: IDS.fetch_add(1, Ordering::Relaxed),
            classes: 0,
            minlen: pats.iter().map(|p| p.len()).min()? as u32,
            maxlen: pats.iter().map(|p| p.len()).max()? as u32,
            set1: vec![0; SET1_WORDS],
            set2: vec![0; SET2_WORDS],
            set3: vec![0; SET3_WORDS],
            filter: vec![0; FILTER_WORDS],
            keys: Vec::new(),
            slots: Vec::new(),
            slot_log2: 1,
            first: Vec::new(),
            starts: vec![0],
            bytes: Vec::new(),
            links: Vec::new(),
            patterns: pats.len(),
        };
        // The patterns of the current group that are prefixes of each
        // other, shortest first (in byte order a pattern's prefixes come
        // before it, so they are on this stack when it arrives).
        let mut chain: Vec<(u32, &[u8])> = Vec::new();
        for p in &pats {
            let key = word(p);
            match p.len() {
                1 => set_bit(&mut t.set1, key),
                2 => set_bit(&mut t.set2, key),
                3 => set_bit(&mut t.set3, key),
                _ => {
                    let k = t.starts.len() as u32 - 1;
                    if t.keys.last() != Some(&key) {
                        t.keys.push(key);
                        t.first.push(k);
                        set_bit(&mut t.filter, hash(key));
                        chain.clear();
                    }
                    while chain.last().is_some_and(|(_, q)| !p.starts_with(q)) {
                        chain.pop();
                    }
                    t.links.push(chain.last().map_or(NO_LINK, |&(j, _)| j));
                    chain.push((k, p));
                    t.bytes.extend_from_slice(p);
                    t.starts.push(t.bytes.len() as u32);
                }
            }
            t.classes |= 1 << (p.len().min(4) - 1);
        }
        t.first.push(t.starts.len() as u32 - 1);
        // At most half full: a miss probes one or two slots.
        t.slot_log2 = (2 * t.keys.len())
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        t.slots = vec![NO_LINK; 1 << t.slot_log2];
        let mask = (1u32 << t.slot_log2) - 1;
        for (i, &key) in t.keys.iter().enumerate() {
            let mut h = slot_hash(key, t.slot_log2);
            while t.slots[h as usize] != NO_LINK {
                h = (h + 1) & mask;
            }
            t.slots[h as usize] = i as u32;
        }
        Some(t)
    }

    /// The index of `key` in `keys`, as the kernel finds it: probing the
    /// slots from its hash until the key or an empty slot.
    fn key_index(&self, key: u32) -> Option<usize> {
        let mask = (1u32 << self.slot_log2) - 1;
        let mut h = slot_hash(key, self.slot_log2);
        loop {
            match self.slots[h as usize] {
                NO_LINK => return None,
                i if self.keys[i as usize] == key => return Some(i as usize),
                _ => h = (h + 1) & mask,
            }
        }
    }

    /// Number of distinct patterns.
    pub fn len(&self) -> usize {
        self.patterns
    }

    pub fn is_empty(&self) -> bool {
        self.patterns == 0
    }

    /// Pattern `k` of 4 bytes or more.
    fn long(&self, k: usize) -> &[u8] {
        &self.bytes[self.starts[k] as usize..self.starts[k + 1] as usize]
    }

    /// The patterns of 4 bytes or more whose first 4 bytes are `key`.
    fn group(&self, key: u32) -> impl Iterator<Item = &[u8]> {
        let ks = match self.key_index(key) {
            Some(i) => self.first[i] as usize..self.first[i + 1] as usize,
            None => 0..0,
        };
        ks.map(|k| self.long(k))
    }

    /// Whether a pattern of 4 bytes or more starts `rest`, as the kernel
    /// decides it: the greatest pattern of the group not above `rest`, then
    /// its chain of prefixes.
    fn long_starts(&self, rest: &[u8]) -> bool {
        let Some(i) = self.key_index(word(rest)) else {
            return false;
        };
        let (a, b) = (self.first[i] as usize, self.first[i + 1] as usize);
        let (mut lo, mut hi) = (a, b);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.long(mid) <= rest {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == a {
            return false;
        }
        let mut k = (lo - 1) as u32;
        while k != NO_LINK {
            if rest.starts_with(self.long(k as usize)) {
                return true;
            }
            k = self.links[k as usize];
        }
        false
    }

    /// The longest pattern occurring at `at` in `hay`, as its length.
    pub fn longest_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        let rest = hay.get(at..)?;
        let v = word(rest);
        // Longer patterns than `rest` never start it, whatever the padded key.
        let long = self
            .group(v)
            .filter(|p| rest.starts_with(p))
            .map(|p| p.len())
            .max();
        long.or_else(|| {
            let short = [
                (3, &self.set3, v & 0xff_ffff),
                (2, &self.set2, v & 0xffff),
                (1, &self.set1, v & 0xff),
            ];
            short
                .into_iter()
                .find(|&(len, set, key)| rest.len() >= len && has_bit(set, key))
                .map(|(len, _, _)| len)
        })
    }

    /// What the kernel computes, step for step: every position where some
    /// pattern occurs.
    pub fn reference(&self, text: &[u8]) -> Vec<u64> {
        (0..text.len())
            .filter(|&at| {
                let rest = &text[at..];
                let (v, c) = (word(rest), self.classes);
                (c & 1 != 0 && has_bit(&self.set1, v & 0xff))
                    || (c & 2 != 0 && rest.len() >= 2 && has_bit(&self.set2, v & 0xffff))
                    || (c & 4 != 0 && rest.len() >= 3 && has_bit(&self.set3, v & 0xff_ffff))
                    || (c & 8 != 0
                        && rest.len() >= 4
                        && has_bit(&self.filter, hash(v))
                        && self.long_starts(rest))
            })
            .map(|at| at as u64)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive(text: &[u8], pats: &[Vec<u8>]) -> Vec<u64> {
        (0..text.len())
            .filter(|&i| pats.iter().any(|p| text[i..].starts_with(p)))
            .map(|i| i as u64)
            .collect()
    }

    proptest! {
        /// Sets with shared prefixes, substrings of each other, duplicates
        /// and 1-byte patterns: the reference finds exactly the naive starts.
        #[test]
        fn reference_equals_naive(
            pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"abc\n".to_vec()), 1..7), 1..40),
            text in prop::collection::vec(prop::sample::select(b"abc\n".to_vec()), 0..300),
        ) {
            let t = MultiTables::new(&pats).unwrap();
            prop_assert_eq!(t.reference(&text), naive(&text, &pats));
            for at in 0..text.len() {
                let want = pats.iter().filter(|p| text[at..].starts_with(p)).map(|p| p.len()).max();
                prop_assert_eq!(t.longest_at(&text, at), want);
            }
        }
    }

    proptest! {
        /// Large groups (one shared 4-byte key) whose patterns are prefixes
        /// of each other in chains and trees: the binary search and prefix
        /// links find exactly the naive starts.
        #[test]
        fn prefix_chains_in_one_group_equal_naive(
            tails in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab".to_vec()), 0..6), 1..60),
            text in prop::collection::vec(prop::sample::select(b"key ab".to_vec()), 0..400),
        ) {
            let pats: Vec<Vec<u8>> = tails.iter().map(|t| [b"key ".as_slice(), t].concat()).collect();
            let t = MultiTables::new(&pats).unwrap();
            prop_assert_eq!(t.reference(&text), naive(&text, &pats));
        }
    }

    #[test]
    fn links_point_at_the_longest_prefix_in_the_group() {
        let pats: Vec<Vec<u8>> = ["abcd", "abcdx", "abcdxy", "abcdz", "abcdxz", "bcde"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        let t = MultiTables::new(&pats).unwrap();
        // Sorted: abcd, abcdx, abcdxy, abcdxz, abcdz | bcde
        assert_eq!(t.links, vec![NO_LINK, 0, 1, 1, 0, NO_LINK]);
    }

    #[test]
    fn tables_are_sorted_and_deduplicated() {
        let pats: Vec<Vec<u8>> = ["abcd", "abce", "ab", "abcd", "zz"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect();
        let t = MultiTables::new(&pats).unwrap();
        assert_eq!((t.classes, t.minlen, t.maxlen, t.len()), (0b1010, 2, 4, 4));
        assert_eq!(t.keys.len(), 2); // "abcd", "abce"
        assert!(t.keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(t.slots.len(), 4);
        assert_eq!(t.slots.iter().filter(|&&s| s != NO_LINK).count(), 2);
        for (i, &k) in t.keys.iter().enumerate() {
            assert_eq!(t.key_index(k), Some(i));
        }
        assert_eq!(t.key_index(u32::from_le_bytes(*b"abcf")), None);
        assert_eq!(t.first, vec![0, 1, 2]);
        assert!(has_bit(&t.set2, u32::from_le_bytes([b'a', b'b', 0, 0])));
        assert!(has_bit(&t.set2, u32::from_le_bytes([b'z', b'z', 0, 0])));
        assert_ne!(MultiTables::new(&pats).unwrap().id, t.id);
        assert!(MultiTables::new(&[b"a".to_vec(), Vec::new()]).is_none());
        assert!(MultiTables::new(&[]).is_none());
    }

    proptest! {
        /// Every key is found, through collisions and wrap-arounds, and no
        /// other word is.
        #[test]
        fn every_key_is_found_in_the_slots(
            keys in prop::collection::btree_set(any::<u32>(), 0..300),
            others in prop::collection::vec(any::<u32>(), 0..50),
        ) {
            let pats: Vec<Vec<u8>> = keys.iter().map(|k| k.to_le_bytes().to_vec()).collect();
            let Some(t) = MultiTables::new(&pats) else { return Ok(()) };
            for (i, &k) in t.keys.iter().enumerate() {
                prop_assert_eq!(t.key_index(k), Some(i));
            }
            for o in others.into_iter().filter(|o| !keys.contains(o)) {
                prop_assert_eq!(t.key_index(o), None);
            }
        }
    }

    #[test]
    fn hash_matches_the_kernel_constant() {
        // literal.cu: (key * 0x9E3779B1u) >> (32u - FILTER_LOG2)
        assert_eq!(hash(1), 0x9E37_79B1 >> 14);
        assert!(crate::engine::gpu::kernels::LITERAL_PTX.contains(".entry multi("));
    }
}
