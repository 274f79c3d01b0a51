//! Many literals at once: a q-gram hash filter in front of exact verification.
//!
//! # Why
//!
//! With a thousand or more `-F` literals, Aho-Corasick's DFA does one
//! dependent load per haystack byte into a transition table far larger than
//! L1, and slows down as the set grows. This matcher does a fixed amount of
//! independent, mostly cache-resident work per byte instead: hash a few
//! bytes at each position, probe a table, and confirm only the rare
//! positions the table admits. (The GPU's many-pattern kernel, `multi`,
//! took a different layout: exact short sets, a shared-memory filter and
//! sorted groups; see `engine::gpu::multi`.)
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
//!
//! # Size
//!
//! Over 400 lines on purpose: about a quarter is this explanation, and the
//! rest is one data structure whose build and scan share its layout (tiers,
//! keys, buckets); split apart, each half would only make sense with the
//! other open. Its tests are in `qgram/tests.rs`.

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

    /// [`QGram::find_before`], with folding a compile-time constant so that
    /// the case-sensitive scan does not OR zeros into every window.
    #[inline(always)]
    fn scan<const FOLD: bool>(&self, hay: &[u8], at: usize, limit: usize) -> Option<Range<usize>> {
        debug_assert_eq!(FOLD, self.fold);
        let n = hay.len();
        if at > n || n - at < self.q || at >= limit {
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
        while i + 20 <= n && i < limit {
            let block: &[u8; 20] = hay[i..i + 20].try_into().expect("20 bytes");
            let mut any = 0;
            for k in 0..8 {
                let keys = Keys::new(load8(block, k), load8(block, k + 4), fold_or, short_mul);
                any |= t[slot(keys.short)] | t[slot(keys.mid)] | t[slot(keys.long)];
            }
            if any != 0 {
                for k in 0..8.min(limit - i) {
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
        while i + self.q <= n && i < limit {
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

impl QGram {
    /// The leftmost-longest match that starts in `at..limit` (it may end
    /// past `limit`): [`Matcher::find_at`] that stops looking at `limit`,
    /// for a caller that already holds a match starting there.
    pub fn find_before(&self, hay: &[u8], at: usize, limit: usize) -> Option<Range<usize>> {
        if self.fold {
            self.scan::<true>(hay, at, limit)
        } else {
            self.scan::<false>(hay, at, limit)
        }
    }
}

impl Matcher for QGram {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        self.find_before(hay, at, usize::MAX)
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

pub mod split;

#[cfg(test)]
mod tests;
