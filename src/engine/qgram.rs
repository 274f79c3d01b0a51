//! Many literals at once: a q-gram hash filter in front of exact verification.
//!
//! # Why
//!
//! With a thousand or more `-F` literals, Aho-Corasick's DFA does one
//! dependent load per haystack byte into a transition table far larger than
//! L1, and slows down as the set grows. This matcher does a fixed amount of
//! independent, mostly cache-resident work per byte instead: hash a few
//! bytes at each position, probe a table, and confirm only the rare
//! positions the table admits (the scheme planned for the GPU's many-pattern
//! kernel, which does not exist yet).
//!
//! # How
//!
//! * **Keys.** Patterns fall into three tiers by length, each with its own
//!   key: shorter than 8 bytes, the first `q = min(4, shortest pattern)`
//!   bytes; 8 to 11 bytes, the first 8; 12 or more, the first 12. A
//!   multiplicative hash of each pattern's key sets one slot of a shared
//!   filter table.
//! * **Filter.** At every haystack position the scan computes the same
//!   three keys from two 8-byte loads (bytes `0..8` and `4..12`) and probes
//!   the three slots. Eight positions form a block whose probes are ORed
//!   together, so the loop branches once per 8 bytes; a block that hits is
//!   probed again position by position.
//! * **Confirm.** An admitted position looks up its keys in per-tier bucket
//!   tables (CSR arrays indexed by the top bits of the same hashes). A bucket
//!   lists its patterns longest first, each with its first 8 bytes as a
//!   `u64` and a byte mask, so most candidates are accepted or rejected by
//!   one AND and one compare against an 8-byte load; only the bytes past the
//!   eighth are compared one by one. Tiers are tried longest first.
//! * **Semantics.** Positions are tried left to right and the first one that
//!   confirms is returned with its longest pattern: exactly Aho-Corasick's
//!   `MatchKind::LeftmostLongest`, which is what grep reports.
//!
//! # Why `q <= 4`, and why tiers
//!
//! A key must be a prefix of every pattern keyed by it, so `q` can be no
//! longer than the shortest pattern; four bytes are one `u32`, and the hash
//! of a `q`-byte key comes out of one multiply of the 8-byte load (see
//! [`Keys::new`]). But on English-like text a 4-byte prefix filter admits
//! far too much, and not because of hash collisions: prefixes of real
//! patterns (`"her "`, `"ther"`, `"abou"`, the starts of three-word
//! phrases) are common text. Measured on 20 MB of the benchmark corpus, the
//! fraction of positions where some pattern's key truly occurs:
//!
//! | keys                          | 100 pats | 1,000 pats | 10,000 pats |
//! |-------------------------------|---------:|-----------:|------------:|
//! | first 4 bytes of every pattern|    6.1 % |     19.6 % |      23.5 % |
//! | first 5 bytes                 |    3.7 % |     14.4 % |      20.2 % |
//! | tiers 4 / 8                   |    0.3 % |      1.7 % |       8.4 % |
//! | tiers 4 / 8 / 12 (this file)  |   0.02 % |      0.2 % |       1.9 % |
//!
//! Confirming a fifth of all positions cost more than the filter saves (a
//! single 4-byte tier ran at ~100 MB/s for 1,000 patterns, below
//! Aho-Corasick), so longer patterns get longer keys. The third tier costs
//! one more probe per position: it loses ~20 % at 100 patterns and wins
//! ~35 % at 10,000, and breaks even at 1,000.
//!
//! # Table size (measured)
//!
//! One byte per slot (a bit per slot needs a shift by a variable amount,
//! three micro-ops on baseline x86-64, and measured no faster), `2^20`
//! slots = 1 MiB. Find-all loop (`find_at` from the end of the previous
//! match) over a 200 MB slice of the benchmark corpus, 1,000 patterns,
//! best of several runs on a shared 2-core Xeon (48 KiB L1d, 2 MiB L2 per
//! core), MB/s:
//!
//! | slots  | 2^16 | 2^17 | 2^18 | 2^20 |
//! |--------|-----:|-----:|-----:|-----:|
//! | MB/s   |  189 |  254 |  283 |  318 |
//!
//! False positives fall with size faster than L2 misses rise; 2^20 was also
//! best for 100 (509 vs 380 MB/s at 2^18) and 10,000 patterns (151 vs 110).
//!
//! # Speed (measured)
//!
//! Same setup, slots `2^20`, MB/s of on-CPU time, best of 6 runs, against
//! `aho-corasick`'s DFA with `MatchKind::LeftmostLongest` (match counts
//! identical):
//!
//! | patterns | this, `-F` | AC DFA | this, `-F -i` | AC DFA `-i` |
//! |---------:|-----------:|-------:|--------------:|------------:|
//! |      100 |        530 |    488 |           446 |         479 |
//! |    1,000 |        350 |    324 |           342 |         270 |
//! |   10,000 |        199 |    144 |           185 |         104 |
//!
//! The scan alone (no confirmation) runs at ~400-470 MB/s with three probes
//! per byte on this shared machine; confirmation of the 0.2-2 % admitted
//! positions (cache misses into the bucket tables) costs the rest.
//!
//! # Case folding
//!
//! With ASCII case folding, patterns are lowercased once. The scan ORs each
//! window with `0x20` in every byte before hashing: that maps `A..=Z` to
//! `a..=z` but also merges a few other byte pairs (`@` and `` ` ``, `\n` and
//! `*`, ...). It is a safe *filter*: `x | 0x20 == lower(x) | 0x20` for every
//! byte, so a window that folds to a pattern's key always hits the
//! pattern's slot and bucket. Confirmation then uses the exact ASCII
//! lowercase (a SWAR version on the 8-byte head, `to_ascii_lowercase` on the
//! rest), so the merged pairs never produce a match.

use super::Matcher;
use std::ops::Range;

/// The filter has `2^TABLE_BITS` one-byte slots (see "Table size" above).
/// A compile-time size makes every shift an immediate and every index
/// provably in bounds. Tests use a tiny table so that false positives (and
/// the verification paths that reject them) are common.
const TABLE_BITS: u32 = if cfg!(test) { 6 } else { 20 };
const TABLE_LEN: usize = 1 << TABLE_BITS;

/// Patterns of at least `MID` bytes (and fewer than `LONG`) are keyed by
/// their first `MID` bytes; patterns of at least `LONG` bytes by their first
/// `LONG`; shorter ones by their first `q`.
const MID: usize = 8;
const LONG: usize = 12;

/// Multiplicative hash constants (odd), one per key so that keys of
/// different tiers land on unrelated slots.
const MUL_SHORT: u64 = 0x9E37_79B9_7F4A_7C15;
const MUL_MID: u64 = 0xD6E8_FEB8_6659_FD93;
const MUL_LONG: u64 = 0xA076_1D64_78BD_642F;

/// `0x01` in every byte lane of a `u64`.
const LANES: u64 = 0x0101_0101_0101_0101;

/// A multi-literal matcher: q-gram hash filter, then exact verification.
/// Reports leftmost-longest matches, like Aho-Corasick's
/// `MatchKind::LeftmostLongest`.
pub struct QGram {
    /// The short tier's key length: `min(4, shortest pattern)`, at least 2.
    q: usize,
    /// `MUL_SHORT << (64 - 8q)`: multiplying an 8-byte window by it hashes
    /// only the window's low `q` bytes (see [`Keys::new`]).
    short_mul: u64,
    /// ASCII case-insensitive matching.
    fold: bool,
    /// The filter: slot `hash >> (64 - TABLE_BITS)` is 1 when some pattern's
    /// key (of its tier) has that hash, else 0.
    table: Box<[u8; TABLE_LEN]>,
    /// Patterns shorter than `MID` bytes, keyed by their first `q` bytes.
    short: Tier,
    /// Patterns of `MID..LONG` bytes, keyed by their first `MID` bytes.
    mid: Tier,
    /// Patterns of at least `LONG` bytes, keyed by their first `LONG` bytes.
    long: Tier,
    /// The (folded) pattern bytes, concatenated; `Entry::start` points here.
    bytes: Vec<u8>,
}

/// The patterns of one tier, bucketed by the top bits of their key's hash.
struct Tier {
    /// `64 - bucket_bits`: a hash's bucket is `hash >> bucket_shift`.
    bucket_shift: u32,
    /// Bucket `b` holds `entries[bucket_start[b]..bucket_start[b + 1]]`.
    bucket_start: Vec<u32>,
    /// Distinct (folded) patterns, grouped by bucket, longest first.
    entries: Vec<Entry>,
}

/// One pattern in a bucket.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The first `min(len, 8)` bytes, little-endian, zero-padded.
    head: u64,
    /// `0xff` in each byte lane that `head` covers.
    mask: u64,
    /// Offset of the whole pattern in `QGram::bytes`.
    start: u32,
    /// Pattern length in bytes.
    len: u32,
}

/// The three key hashes of one position.
struct Keys {
    short: u64,
    mid: u64,
    long: u64,
}

impl Keys {
    /// Hashes the keys of the position whose bytes `0..8` are `x` and bytes
    /// `4..12` are `y` (little-endian; zero past the haystack's end, where
    /// the caller ignores the keys that do not fit). `fold_or` is `0x20` in
    /// every byte when folding (see "Case folding" above), else 0.
    ///
    /// The short key needs no mask: `x * (m << s) == (x * m) << s` (mod
    /// 2^64), and shifting left by `s = 64 - 8q` keeps only the low `8q` bits
    /// of `x * m`, which depend only on the low `q` bytes of `x`. Its top
    /// bits are then the classic multiplicative hash of a `q`-byte integer
    /// (a bijection, as `MUL_SHORT` is odd). The long key reuses the mid
    /// hash and mixes in bytes `8..12`.
    #[inline(always)]
    fn new(x: u64, y: u64, fold_or: u64, short_mul: u64) -> Keys {
        let (x, y) = (x | fold_or, y | fold_or);
        let mid = x.wrapping_mul(MUL_MID);
        Keys {
            short: x.wrapping_mul(short_mul),
            mid,
            long: mid ^ (y >> 32).wrapping_mul(MUL_LONG),
        }
    }
}

impl QGram {
    /// Builds a matcher for `patterns` (leftmost-longest), or `None` when the
    /// set is empty or its shortest pattern is shorter than 2 bytes.
    pub fn new(patterns: &[Vec<u8>], ascii_case_insensitive: bool) -> Option<QGram> {
        let fold = ascii_case_insensitive;
        let min_len = patterns.iter().map(Vec::len).min()?;
        if min_len < 2 {
            return None;
        }
        let q = min_len.min(4);

        // Fold once; drop duplicates (they would only repeat bucket entries).
        let mut pats: Vec<Vec<u8>> = patterns
            .iter()
            .map(|p| {
                if fold {
                    p.to_ascii_lowercase()
                } else {
                    p.clone()
                }
            })
            .collect();
        pats.sort_unstable();
        pats.dedup();

        let mut qg = QGram {
            q,
            short_mul: MUL_SHORT << (64 - 8 * q),
            fold,
            table: vec![0u8; TABLE_LEN]
                .into_boxed_slice()
                .try_into()
                .expect("TABLE_LEN bytes"),
            short: Tier::empty(),
            mid: Tier::empty(),
            long: Tier::empty(),
            bytes: Vec::new(),
        };
        let (mut short, mut mid, mut long) = (Vec::new(), Vec::new(), Vec::new());
        for p in &pats {
            let start = u32::try_from(qg.bytes.len()).ok()?;
            let len = u32::try_from(p.len()).ok()?;
            qg.bytes.extend_from_slice(p);
            let (x, y) = (le_padded(p, 0), le_padded(p, 4));
            let n = p.len().min(8);
            let mask = if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            };
            let e = Entry {
                head: x,
                mask,
                start,
                len,
            };
            // The pattern is folded exactly; `fold_or` then does to it what
            // it does to the haystack, so equal folded keys hash equally.
            let keys = Keys::new(x, y, qg.fold_or(), qg.short_mul);
            let (h, tier) = match p.len() {
                n if n >= LONG => (keys.long, &mut long),
                n if n >= MID => (keys.mid, &mut mid),
                _ => (keys.short, &mut short),
            };
            qg.table[slot(h)] = 1;
            tier.push((h, e));
        }
        qg.short = Tier::new(short);
        qg.mid = Tier::new(mid);
        qg.long = Tier::new(long);
        Some(qg)
    }

    /// `0x20` in every byte when folding, else 0.
    #[inline(always)]
    fn fold_or(&self) -> u64 {
        if self.fold {
            0x20 * LANES
        } else {
            0
        }
    }

    /// The length of the longest pattern that matches at the start of
    /// `rest` (at least `q` bytes), whose keys hash to `keys`, if any.
    /// Only tiers whose keys fit in `rest` are consulted.
    #[inline(never)]
    fn verify(&self, rest: &[u8], keys: &Keys) -> Option<usize> {
        let head = le_padded(rest, 0);
        let head = if self.fold { lower8(head) } else { head };
        // Longer tiers first: each of their patterns beats every pattern of
        // a shorter tier, and in each bucket the first entry that matches is
        // the longest.
        if rest.len() >= LONG {
            if let Some(len) = self.first_match(&self.long, keys.long, rest, head) {
                return Some(len);
            }
        }
        if rest.len() >= MID {
            if let Some(len) = self.first_match(&self.mid, keys.mid, rest, head) {
                return Some(len);
            }
        }
        self.first_match(&self.short, keys.short, rest, head)
    }

    /// The first entry of the bucket of `hash` in `tier` that matches at the
    /// start of `rest`; `head` holds the first (up to) 8 bytes of `rest`,
    /// exactly folded and zero-padded.
    #[inline(always)]
    fn first_match(&self, tier: &Tier, hash: u64, rest: &[u8], head: u64) -> Option<usize> {
        if self.table[slot(hash)] == 0 {
            return None;
        }
        tier.bucket(hash).iter().find_map(|e| {
            let len = e.len as usize;
            // The length check comes first: it keeps the padding of `head`
            // and the tail compare inside `rest`.
            if len > rest.len() || head & e.mask != e.head {
                return None;
            }
            if len > 8 {
                let pat = &self.bytes[e.start as usize + 8..e.start as usize + len];
                let txt = &rest[8..len];
                let same = if self.fold {
                    txt.iter()
                        .zip(pat)
                        .all(|(t, p)| t.to_ascii_lowercase() == *p)
                } else {
                    txt == pat
                };
                if !same {
                    return None;
                }
            }
            Some(len)
        })
    }

    /// [`Matcher::find_at`], with folding a compile-time constant so that
    /// the case-sensitive scan does not OR zeros into every window.
    #[inline(always)]
    fn scan<const FOLD: bool>(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        debug_assert_eq!(FOLD, self.fold);
        let n = hay.len();
        if at > n || n - at < self.q {
            return None;
        }
        let fold_or = if FOLD { 0x20 * LANES } else { 0 };
        let short_mul = self.short_mul;
        let t = &*self.table;
        let mut i = at;
        // Blocks of 8 positions `i..i + 8`; position `i + k` has its bytes
        // `0..8` and `4..12` in two 8-byte loads (the block reads
        // `hay[i..i + 19]`), and three table probes (short, mid, long key).
        // Most blocks hit nothing: OR the probes together and branch once;
        // a block that hits is probed again position by position.
        while i + 20 <= n {
            let block: &[u8; 20] = hay[i..i + 20].try_into().expect("20 bytes");
            let mut any = 0;
            for k in 0..8 {
                let keys = Keys::new(load8(block, k), load8(block, k + 4), fold_or, short_mul);
                any |= t[slot(keys.short)] | t[slot(keys.mid)] | t[slot(keys.long)];
            }
            if any != 0 {
                for k in 0..8 {
                    let keys = Keys::new(load8(block, k), load8(block, k + 4), fold_or, short_mul);
                    if t[slot(keys.short)] | t[slot(keys.mid)] | t[slot(keys.long)] != 0 {
                        if let Some(len) = self.verify(&hay[i + k..], &keys) {
                            return Some(i + k..i + k + len);
                        }
                    }
                }
            }
            i += 8;
        }
        // The last positions, one at a time, zero-padded; `verify` ignores
        // the keys that do not fit.
        while i + self.q <= n {
            let rest = &hay[i..];
            let keys = Keys::new(le_padded(rest, 0), le_padded(rest, 4), fold_or, short_mul);
            if let Some(len) = self.verify(rest, &keys) {
                return Some(i..i + len);
            }
            i += 1;
        }
        None
    }
}

impl Matcher for QGram {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if self.fold {
            self.scan::<true>(hay, at)
        } else {
            self.scan::<false>(hay, at)
        }
    }
}

impl Tier {
    fn empty() -> Tier {
        Tier::new(Vec::new())
    }

    /// Buckets `(hash, entry)` pairs: about one bucket per pattern, each
    /// bucket's entries longest first.
    fn new(mut keyed: Vec<(u64, Entry)>) -> Tier {
        let bucket_bits = keyed.len().next_power_of_two().trailing_zeros().max(1);
        let shift = 64 - bucket_bits;
        keyed.sort_unstable_by_key(|&(h, e)| (h >> shift, std::cmp::Reverse(e.len), e.start));
        let buckets = 1usize << bucket_bits;
        let mut bucket_start = vec![0u32; buckets + 1];
        for &(h, _) in &keyed {
            bucket_start[(h >> shift) as usize + 1] += 1;
        }
        for b in 0..buckets {
            bucket_start[b + 1] += bucket_start[b];
        }
        Tier {
            bucket_shift: shift,
            bucket_start,
            entries: keyed.into_iter().map(|(_, e)| e).collect(),
        }
    }

    #[inline(always)]
    fn bucket(&self, hash: u64) -> &[Entry] {
        let b = (hash >> self.bucket_shift) as usize;
        &self.entries[self.bucket_start[b] as usize..self.bucket_start[b + 1] as usize]
    }
}

/// The filter slot of a hash: its top `TABLE_BITS` bits.
#[inline(always)]
fn slot(hash: u64) -> usize {
    (hash >> (64 - TABLE_BITS)) as usize
}

/// ASCII lowercase of each byte of `x` (SWAR; bytes >= 0x80 unchanged).
#[inline(always)]
fn lower8(x: u64) -> u64 {
    let heptets = x & (0x7f * LANES);
    // High bit of each lane: set when the low 7 bits are >= 'A' (resp. > 'Z').
    // No lane carries into the next: 0x7f + 0x3f < 0x100.
    let ge_a = heptets + (0x80 - u64::from(b'A')) * LANES;
    let gt_z = heptets + (0x7f - u64::from(b'Z')) * LANES;
    let upper = (ge_a ^ gt_z) & !x & (0x80 * LANES);
    x | (upper >> 2)
}

/// The little-endian `u64` at `bytes[i..i + 8]`.
#[inline(always)]
fn load8(bytes: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"))
}

/// The little-endian `u64` of `bytes[i..]`'s first 8 bytes, zero-padded
/// when fewer remain.
#[inline(always)]
fn le_padded(bytes: &[u8], i: usize) -> u64 {
    match bytes.get(i..i + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        None => {
            let mut b = [0u8; 8];
            let rest = bytes.get(i..).unwrap_or(&[]);
            b[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(b)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, Input, MatchKind};
    use proptest::prelude::*;

    /// The definition: the first position from `at` where some pattern
    /// matches, with the longest pattern matching there.
    fn oracle(pats: &[Vec<u8>], fold: bool, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let eq = |a: &[u8], b: &[u8]| {
            if fold {
                a.eq_ignore_ascii_case(b)
            } else {
                a == b
            }
        };
        (at..=hay.len()).find_map(|pos| {
            pats.iter()
                .filter(|p| hay.len() - pos >= p.len() && eq(&hay[pos..pos + p.len()], p))
                .map(Vec::len)
                .max()
                .map(|len| pos..pos + len)
        })
    }

    fn aho(pats: &[Vec<u8>], fold: bool) -> AhoCorasick {
        AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .ascii_case_insensitive(fold)
            .build(pats)
            .unwrap()
    }

    fn qg(pats: &[&str], fold: bool) -> QGram {
        let pats: Vec<Vec<u8>> = pats.iter().map(|p| p.as_bytes().to_vec()).collect();
        QGram::new(&pats, fold).unwrap()
    }

    /// Compares every table size with the oracle and Aho-Corasick at `at`,
    /// and the whole find-all sequence from `at`.
    fn check(pats: &[Vec<u8>], fold: bool, hay: &[u8], at: usize) -> Result<(), TestCaseError> {
        let ac = aho(pats, fold);
        let want = oracle(pats, fold, hay, at);
        let want_ac = ac.find(Input::new(hay).range(at..)).map(|m| m.range());
        prop_assert_eq!(&want, &want_ac);
        let m = QGram::new(pats, fold).unwrap();
        prop_assert_eq!(&m.find_at(hay, at), &want);
        let mut got = Vec::new();
        let mut i = at;
        while let Some(r) = m.find_at(hay, i) {
            i = r.end;
            got.push(r);
        }
        let want_all: Vec<_> = ac
            .find_iter(Input::new(hay).range(at..))
            .map(|m| m.range())
            .collect();
        prop_assert_eq!(got, want_all);
        Ok(())
    }

    /// Patterns of length 2..=8 over `alphabet`, plus prefixes and
    /// duplicates of some of them.
    fn patterns(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<Vec<u8>>> {
        let pat = prop::collection::vec(prop::sample::select(alphabet), 2..=8);
        (prop::collection::vec(pat, 1..=50), any::<u64>()).prop_map(|(mut ps, seed)| {
            let n = ps.len();
            for k in 0..n.min(8) {
                let p = ps[(seed as usize).wrapping_add(k * 7) % n].clone();
                let cut = 2 + (seed >> (k * 4)) as usize % (p.len() - 1);
                ps.push(p[..cut.min(p.len())].to_vec());
                if k % 3 == 0 {
                    ps.push(p);
                }
            }
            ps
        })
    }

    fn haystack(alphabet: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(prop::sample::select(alphabet), 0..400)
    }

    /// Dense: few letters, so patterns match often and overlap.
    const DENSE: &[u8] = b"abAB";
    /// Bytes that `| 0x20` merges but ASCII folding does not (`@`/`` ` ``,
    /// `\n`/`*`, 0xC1/0xE1), and case pairs.
    const TRICKY: &[u8] = b"aA@`\n*\xc1\xe1 ";

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn dense_matches_oracle(
            pats in patterns(DENSE),
            hay in haystack(DENSE),
            fold in any::<bool>(),
            at in any::<prop::sample::Index>(),
        ) {
            let at = at.index(hay.len() + 1);
            check(&pats, fold, &hay, at)?;
        }

        #[test]
        fn tricky_bytes_match_oracle(
            pats in patterns(TRICKY),
            hay in haystack(TRICKY),
            fold in any::<bool>(),
            at in any::<prop::sample::Index>(),
        ) {
            let at = at.index(hay.len() + 1);
            check(&pats, fold, &hay, at)?;
        }

        /// Haystacks built from the patterns themselves (long ones too), so
        /// that matches > 8 bytes and matches at the very end occur.
        #[test]
        fn concatenated_patterns(
            pats in patterns(b"abcAB"),
            long in prop::collection::vec(
                prop::collection::vec(prop::sample::select(b"abAB".as_slice()), 8..20),
                1..4,
            ),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..30),
            fold in any::<bool>(),
            at in any::<prop::sample::Index>(),
        ) {
            let mut pats = pats;
            // Prefixes one byte shorter cross the tier boundaries (7/8, 11/12).
            pats.extend(long.iter().map(|l| l[..l.len() - 1].to_vec()));
            pats.extend(long);
            let mut hay = Vec::new();
            for p in &picks {
                hay.extend_from_slice(&pats[p.index(pats.len())]);
            }
            let at = at.index(hay.len() + 1);
            check(&pats, fold, &hay, at)?;
        }
    }

    #[test]
    fn rejects_short_or_empty_sets() {
        assert!(QGram::new(&[], false).is_none());
        assert!(QGram::new(&[b"abc".to_vec(), b"a".to_vec()], false).is_none());
        assert!(QGram::new(&[b"abc".to_vec(), Vec::new()], true).is_none());
        assert!(QGram::new(&[b"ab".to_vec()], false).is_some());
    }

    #[test]
    fn q_is_min_of_four_and_shortest() {
        assert_eq!(qg(&["abcdefgh", "xyz"], false).q, 3);
        assert_eq!(qg(&["abcdefgh", "wxyz0"], false).q, 4);
        assert_eq!(qg(&["ab"], false).q, 2);
    }

    #[test]
    fn matches_at_start_and_end() {
        let m = qg(&["hello", "world!"], false);
        assert_eq!(m.find_at(b"hello there world!", 0), Some(0..5));
        assert_eq!(m.find_at(b"hello there world!", 1), Some(12..18));
        // End of a haystack too short for the 12-byte block loop, and of a
        // long one.
        assert_eq!(m.find_at(b"world!", 0), Some(0..6));
        let mut long = vec![b'.'; 1000];
        long.extend_from_slice(b"world!");
        assert_eq!(m.find_at(&long, 3), Some(1000..1006));
        long.pop();
        assert_eq!(m.find_at(&long, 0), None);
    }

    #[test]
    fn long_pattern_must_not_read_past_the_end() {
        // The 4-byte window hits at the end, the pattern is longer than the
        // bytes left.
        let m = qg(&["abcdefghijklmnop", "abcd"], false);
        assert_eq!(m.find_at(b"xxxxxxxxxxxxabcdefghijklmno", 0), Some(12..16));
        assert_eq!(m.find_at(b"xxxxxxxxxxxxabcdefghijklmnop", 0), Some(12..28));
        let m = qg(&["abcdefghijklmnop"], true);
        assert_eq!(m.find_at(b"ABCDEFGHIJKLMNO", 0), None);
        assert_eq!(m.find_at(b"ABCDEFGHIJKLMNOP", 0), Some(0..16));
    }

    #[test]
    fn short_haystacks_and_at() {
        let m = qg(&["abcd", "abcdef"], false);
        assert_eq!(m.find_at(b"", 0), None);
        assert_eq!(m.find_at(b"abc", 0), None);
        assert_eq!(m.find_at(b"abcd", 0), Some(0..4));
        assert_eq!(m.find_at(b"abcd", 1), None);
        assert_eq!(m.find_at(b"abcd", 4), None);
        assert_eq!(m.find_at(b"abcd", 5), None);
        assert_eq!(m.find_at(b"abcdef", 0), Some(0..6));
    }

    #[test]
    fn longest_at_leftmost_position() {
        let m = qg(&["abcd", "abcdefghij", "abcdefg", "bcdefghijklmn"], false);
        assert_eq!(m.find_at(b"zabcdefghijklmn", 0), Some(1..11));
        assert_eq!(m.find_at(b"zabcdefghijklmn", 2), Some(2..15));
    }

    #[test]
    fn longest_across_tiers() {
        let m = qg(
            &[
                "abcdefg",
                "abcdefgh",
                "abcdefghijk",
                "abcdefghijkl",
                "abcdefghijklm",
                "abcd",
            ],
            false,
        );
        assert_eq!(m.find_at(b"xabcdefghijkl", 0), Some(1..13));
        assert_eq!(m.find_at(b"xabcdefghijk", 0), Some(1..12));
        assert_eq!(m.find_at(b"xabcdefghij", 0), Some(1..9));
        assert_eq!(m.find_at(b"xabcdefg", 0), Some(1..8));
        assert_eq!(m.find_at(b"xabcdef", 0), Some(1..5));
        assert_eq!(
            m.find_at(b"xxxxxxxxxxxxxxxxxxxxxxxxabcdefghijklmno", 0),
            Some(24..37)
        );
    }

    #[test]
    fn ascii_case_folding() {
        let m = qg(&["Hello", "WORLD wide"], true);
        assert_eq!(m.find_at(b"say hELLO", 0), Some(4..9));
        assert_eq!(m.find_at(b"the world WIDE web", 0), Some(4..14));
        let m = qg(&["a@b`c"], true);
        // `| 0x20` merges '@' with '`': the filter hits, confirmation must not.
        assert_eq!(m.find_at(b"a`b`c a@B`C", 0), Some(6..11));
        let m = qg(&["\u{e9}t\u{e9}"], true);
        // Non-ASCII bytes are not folded.
        assert_eq!(
            m.find_at("\u{c9}t\u{c9} \u{e9}T\u{e9}".as_bytes(), 0),
            Some(6..11)
        );
    }

    #[test]
    fn case_sensitive_when_not_folding() {
        let m = qg(&["Hello"], false);
        assert_eq!(m.find_at(b"hello HELLO Hello", 0), Some(12..17));
    }

    #[test]
    fn lower8_is_ascii_lowercase_in_every_lane() {
        for byte in 0..=255u8 {
            for lane in 0..8 {
                let mut x = [b'Z', b'@', b'A', b'[', 0xc1, b'a', b'`', b'z'];
                x[lane] = byte;
                let want = u64::from_le_bytes(x.map(|b| b.to_ascii_lowercase()));
                assert_eq!(
                    lower8(u64::from_le_bytes(x)),
                    want,
                    "byte {byte:#x} lane {lane}"
                );
            }
        }
    }
}
