//! Tables of the `multi` kernel (many literals in one pass), and a CPU
//! reference of what the kernel computes.
//!
//! Patterns of 1, 2 and 3 bytes are exact bit sets indexed by their bytes
//! (a hit is a match). The 3-byte set (2 MiB) lives in global memory, so
//! the kernel reads it only where the shared filter also holds the 3
//! bytes' own hash (`hash3`): one 3-byte pattern among 1,000 rules' 2,420
//! literals had the kernel read it at every position of the text, an L2
//! load per byte. Longer patterns are keyed by their first 4 bytes: a
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
//! A key is found through an open-addressing hash table (`slots`), at
//! most an eighth full. That is how the tally kernel (`-o`, `-w`,
//! `--count-matches`: the longest pattern at a match) reads the groups.
//! The `multi` kernel only asks whether some pattern occurs, and reads
//! its own layout of the same keys (`probe`, `heads`, `mins`): per key its
//! *minimal* patterns, those no other pattern of the group is a prefix
//! of. Some pattern occurs iff a minimal one does, and at most one does
//! (two occurring at one place would be prefixes of each other). A key
//! with one minimal pattern of up to 16 bytes holds it in its 32-byte
//! probe slot (one compare); otherwise a binary search over the minimal
//! patterns' 5th-8th bytes (big-endian) and a short walk back find the
//! only candidate (`long_starts` says why), compared a word at a time.
//! With 10,000 real words a key has 3.3 minimal patterns on average where
//! the text meets it (up to 38), so comparing them one by one cost as much
//! as the byte-wise binary search it replaced; the search over heads took
//! the kernel from 97 to 197 GB/s, the slot's lone pattern and the sparse
//! table to 204 (H200, 4 GiB of prose resident, `benches/RESULTS.md`).
//! A warp lists its candidates in shared memory and its lanes probe them
//! 32 at a time: each lane probing its own word's kept ~11 of 32 lanes
//! active on dense logs.
//!
//! Case folding (`-i`, `fold`): the tables hold the patterns with their
//! ASCII letters lowered, and the kernel lowers every text byte it reads
//! (the 1/2/3-byte sets, the 4-byte key, the binary search, the tail
//! compare) with a branch-free SWAR step (`fold4`), so `A` and `a` match
//! at a pattern's `a`; bytes >= 0x80 are compared as they are (the
//! pattern compiler enumerates the case variants beyond ASCII). The flag
//! travels as bit 4 of `classes`, which both kernels take already.
//!
//! The layout mirrors the `multi` launch contract in `kernels/multi.cu`
//! (and the helpers of `kernels/multi.cuh`); `reference` computes on the
//! CPU, from the same tables, the positions the kernel marks, and is tested
//! against a naive search; the kernel is tested against a naive search on
//! the GPU (tests/gpu_differential.rs). This is the literal-set search
//! kind: its device half (upload, launch, tally chains) is at the end.
//! Over 400 lines on purpose: one kind is one file (see `kind`), and the
//! tables, their CPU reference and their upload share one layout; the
//! `multi` kernel's own probe layout and its mirror are in
//! `multi/probe.rs`, the tests in `multi/tests.rs`.

use std::sync::atomic::{AtomicU64, Ordering};

use cudarc::driver::{LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels::{self, BLOCK};
use super::kind::{Chain, Kind};
use super::memory::{ptr, up, Buf};
use super::GpuError;

/// log2 of the filter's bits (multi.cuh `FILTER_LOG2`).
pub const FILTER_LOG2: u32 = 18;
/// u32 words of the filter (multi.cuh `FILTER_WORDS`).
pub const FILTER_WORDS: usize = (1 << FILTER_LOG2) / 32;
/// u32 words of the 1-, 2- and 3-byte sets (multi.cuh `SET*_WORDS`).
pub const SET1_WORDS: usize = 256 / 32;
pub const SET2_WORDS: usize = 65536 / 32;
pub const SET3_WORDS: usize = (1 << 24) / 32;
/// Bit of `classes` that makes the kernels fold ASCII case (multi.cuh
/// `FOLD_CLASS`).
pub const FOLD_CLASS: u32 = 16;

/// The 4 bytes of `x` with their ASCII capitals lowered, branch-free: the
/// kernels' `fold4` (multi.cuh), step for step. A byte's low 7 bits plus
/// 0x3f carry into bit 7 from `A` on, plus 0x25 from past `Z`; neither sum
/// carries out of its byte.
pub fn fold4(x: u32) -> u32 {
    let h = x & 0x7f7f_7f7f;
    let upper = (h.wrapping_add(0x3f3f_3f3f) ^ h.wrapping_add(0x2525_2525)) & !x & 0x8080_8080;
    x | (upper >> 2)
}

/// Static shared memory of the kernel's tables: filter, 2-byte set (with
/// the 1-byte set folded in) and 1-byte set; the launch asks for no
/// dynamic shared memory.
const SHARED_TABLE_BYTES: usize = (FILTER_WORDS + SET2_WORDS + SET1_WORDS) * 4;

// The tables, the warps' candidate queues (3 KiB), the 4 words' finds of
// each thread (`won`, 4 KiB) and the kernel's scratch fit a block's
// static 48 KiB.
const _: () = assert!(SHARED_TABLE_BYTES + (3 + 4) * 1024 + 128 <= 48 * 1024);

/// The kernel's hash of a key (multi.cuh `multi_hash`).
pub fn hash(key: u32) -> u32 {
    key.wrapping_mul(0x9E37_79B1) >> (32 - FILTER_LOG2)
}

/// The kernel's hash of a 3-byte pattern (multi.cuh `multi_hash3`),
/// kept in the same filter as the longer patterns' keys.
pub fn hash3(bytes3: u32) -> u32 {
    bytes3.wrapping_mul(0x2C1B_3C6D) >> (32 - FILTER_LOG2)
}

/// Where the probe for `key` starts in a table of `2^log2` slots
/// (multi.cuh `slot_hash`; 1 <= log2 <= 31).
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
    /// What the `multi` kernel probes: 8 words a slot, the slot of
    /// `slots` holding key `v` holding `[v, count, at, len, t0, t1, t2,
    /// 0]`, an empty slot zeros (`count` >= 1 for a key). The key's group has
    /// `count` minimal patterns (no other pattern of the group is a prefix
    /// of them: `links` is `NO_LINK`); some pattern of the group starts
    /// the text iff a minimal one does. They are pairs `at..at + count` of
    /// `heads`, in byte order: each pair is the pattern's 5th to 8th bytes
    /// as a big-endian word (zero-padded), then where the pattern is in
    /// `mins`: its length, then its bytes from the 5th on, 4 to a word
    /// (little-endian, the last word zero-padded). With one minimal
    /// pattern, `len` is its length and, when that is at most 16, `t0..t2`
    /// its words in `mins` (zero-padded): the kernel compares it there.
    pub probe: Vec<u32>,
    pub heads: Vec<u32>,
    pub mins: Vec<u32>,
    /// Distinct patterns, all lengths.
    patterns: usize,
    /// The patterns are ASCII-lowered and the text is folded as it is read
    /// (`FOLD_CLASS` is set in `classes`).
    pub fold: bool,
}

/// Slots past which the key table is kept half full rather than an
/// eighth (the probe table takes 32 bytes a slot: 32 MiB).
const SPARSE_SLOTS_MAX: usize = 1 << 20;

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
        Self::build(patterns, false)
    }

    /// Tables that match `patterns` with ASCII case folding: built from
    /// the patterns lowered, searched with the kernels' fold flag.
    pub fn new_folded(patterns: &[Vec<u8>]) -> Option<MultiTables> {
        let lowered: Vec<Vec<u8>> = patterns.iter().map(|p| p.to_ascii_lowercase()).collect();
        Self::build(&lowered, true)
    }

    fn build(patterns: &[Vec<u8>], fold: bool) -> Option<MultiTables> {
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
            probe: Vec::new(),
            heads: Vec::new(),
            mins: Vec::new(),
            patterns: pats.len(),
            fold,
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
                3 => {
                    set_bit(&mut t.set3, key);
                    set_bit(&mut t.filter, hash3(key));
                }
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
        if fold {
            t.classes |= FOLD_CLASS;
        }
        // At most an eighth full (half past SPARSE_SLOTS_MAX): the kernel
        // probes at a fifth of the text's positions with 10,000 words, and
        // a warp waits for its longest probe sequence.
        let spread = if 8 * t.keys.len() <= SPARSE_SLOTS_MAX {
            8
        } else {
            2
        };
        t.slot_log2 = (spread * t.keys.len())
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
        t.build_probe()?;
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

    /// What the kernel reads of `hay` from `at` (up to the longest
    /// pattern): lowered when folding. `None` past the end.
    fn read_at<'h>(&self, hay: &'h [u8], at: usize) -> Option<std::borrow::Cow<'h, [u8]>> {
        let rest = hay.get(at..)?;
        Some(match self.fold {
            true => {
                let rest = &rest[..rest.len().min(self.maxlen as usize)];
                std::borrow::Cow::Owned(rest.to_ascii_lowercase())
            }
            false => std::borrow::Cow::Borrowed(rest),
        })
    }

    /// The patterns of 4 bytes or more whose first 4 bytes are `key`.
    fn group(&self, key: u32) -> impl Iterator<Item = &[u8]> {
        let ks = match self.key_index(key) {
            Some(i) => self.first[i] as usize..self.first[i + 1] as usize,
            None => 0..0,
        };
        ks.map(|k| self.long(k))
    }

    /// The lengths of every pattern occurring at `at` in `hay`, longest
    /// first (what the tally kernel's `-w` check tries, in its order).
    pub fn lengths_at(&self, hay: &[u8], at: usize) -> Vec<usize> {
        let Some(rest) = self.read_at(hay, at) else {
            return Vec::new();
        };
        let rest = &rest[..];
        let v = word(rest);
        let mut lens: Vec<usize> = match rest.len() >= 4 {
            true => self
                .group(v)
                .filter(|p| rest.starts_with(p))
                .map(|p| p.len())
                .collect(),
            false => Vec::new(),
        };
        lens.sort_unstable_by(|a, b| b.cmp(a));
        let short = [
            (3, &self.set3, v & 0xff_ffff),
            (2, &self.set2, v & 0xffff),
            (1, &self.set1, v & 0xff),
        ];
        for (len, set, key) in short {
            if rest.len() >= len && has_bit(set, key) {
                lens.push(len);
            }
        }
        lens
    }

    /// The longest pattern occurring at `at` in `hay`, as its length.
    pub fn longest_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        let rest = self.read_at(hay, at)?;
        let rest = &rest[..];
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
    /// pattern occurs (in the text as the kernel reads it: folded 4 bytes
    /// at a time when folding).
    pub fn reference(&self, text: &[u8]) -> Vec<u64> {
        let folded: Vec<u8>;
        let text = match self.fold {
            true => {
                folded = text
                    .chunks(4)
                    .flat_map(|c| {
                        let w = fold4(word(c)).to_le_bytes();
                        w.into_iter().take(c.len())
                    })
                    .collect();
                &folded[..]
            }
            false => text,
        };
        (0..text.len())
            .filter(|&at| {
                let rest = &text[at..];
                let (v, c) = (word(rest), self.classes);
                (c & 1 != 0 && has_bit(&self.set1, v & 0xff))
                    || (c & 2 != 0 && rest.len() >= 2 && has_bit(&self.set2, v & 0xffff))
                    || (c & 4 != 0
                        && rest.len() >= 3
                        && has_bit(&self.filter, hash3(v & 0xff_ffff))
                        && has_bit(&self.set3, v & 0xff_ffff))
                    || (c & 8 != 0
                        && rest.len() >= 4
                        && has_bit(&self.filter, hash(v))
                        && self.long_starts(rest))
            })
            .map(|at| at as u64)
            .collect()
    }
}

/// The `multi` kernel's tables on the GPU.
#[derive(Default)]
pub(super) struct Tables {
    set1: Buf<u32>,
    set2: Buf<u32>,
    set3: Buf<u32>,
    filter: Buf<u32>,
    keys: Buf<u32>,
    slots: Buf<u32>,
    first: Buf<u32>,
    starts: Buf<u32>,
    bytes: Buf<u8>,
    links: Buf<u32>,
    probe: Buf<u32>,
    heads: Buf<u32>,
    mins: Buf<u32>,
    /// The `MultiTables::id` of the tables held.
    loaded: Option<u64>,
}

impl MultiTables {
    /// Uploads these tables unless they are loaded already (the pipeline
    /// keeps one set for the whole run).
    pub(super) fn upload(&self, dev: &Device, m: &mut Tables) -> Result<(), GpuError> {
        if m.loaded == Some(self.id) {
            return Ok(());
        }
        m.loaded = None;
        let s = &dev.stream;
        up(s, &mut m.set1, &self.set1)?;
        up(s, &mut m.set2, &self.set2)?;
        up(s, &mut m.set3, &self.set3)?;
        up(s, &mut m.filter, &self.filter)?;
        up(s, &mut m.keys, &self.keys)?;
        up(s, &mut m.slots, &self.slots)?;
        up(s, &mut m.first, &self.first)?;
        up(s, &mut m.starts, &self.starts)?;
        up(s, &mut m.bytes, &self.bytes)?;
        up(s, &mut m.links, &self.links)?;
        up(s, &mut m.probe, &self.probe)?;
        up(s, &mut m.heads, &self.heads)?;
        up(s, &mut m.mins, &self.mins)?;
        s.synchronize().map_err(cuda("copying tables"))?;
        m.loaded = Some(self.id);
        Ok(())
    }

    /// Launches `multi` over the resident text with the loaded tables.
    pub(super) fn launch_with(&self, dev: &Device, m: &Tables) -> Result<(), GpuError> {
        let n = dev.resident;
        let tiles = kernels::tiles_for(n);
        let cfg = LaunchConfig {
            // Fewer blocks than prefix4: each copies 40 KiB of tables first.
            grid_dim: (kernels::grid_for(tiles, dev.sm_count * 4), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = dev.stream.launch_builder(&dev.f.multi);
        b.arg(dev.text.get("multi")?)
            .arg(&n)
            .arg(&self.classes)
            .arg(&self.minlen);
        b.arg(m.set1.get("multi")?)
            .arg(m.set2.get("multi")?)
            .arg(m.set3.get("multi")?)
            .arg(m.filter.get("multi")?)
            .arg(m.probe.get("multi")?)
            .arg(&self.slot_log2)
            .arg(m.heads.get("multi")?)
            .arg(m.mins.get("multi")?);
        b.arg(dev.bitmap.get("multi")?)
            .arg(dev.counts.get("multi")?)
            .arg(&tiles);
        // SAFETY: arguments match multi's launch contract (multi.cu): the
        // tables of `self` (MultiTables::new: sets of SET*_WORDS and
        // FILTER_WORDS words, a probe table of 2^slot_log2 slots of 8 words
        // at most half full, each key's minimal patterns in heads and
        // mins) were uploaded by `upload`; text, bitmap and counts sized
        // by reserve(n).
        unsafe { b.launch(cfg) }.map_err(cuda("launching multi"))?;
        Ok(())
    }
}

impl Kind for MultiTables {
    fn shortest(&self) -> usize {
        self.minlen as usize
    }

    fn longest(&self) -> usize {
        self.maxlen as usize
    }

    fn match_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        self.longest_at(hay, at)
    }

    fn reference(&self, text: &[u8]) -> Vec<u64> {
        MultiTables::reference(self, text)
    }

    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError> {
        let mut m = dev.take_tables::<Tables>();
        let r = self
            .upload(dev, &mut m)
            .and_then(|()| self.launch_with(dev, &m));
        dev.keep_tables(m);
        r.map(|()| "multi")
    }

    fn chain(&self, dev: &Device) -> Result<Chain, GpuError> {
        let m = dev
            .tables::<Tables>()
            .ok_or_else(|| GpuError::Cuda("tally: the set's tables are not loaded".into()))?;
        let s = &dev.stream;
        let p = |b: &Buf<u32>| b.get("tally").map(|x| ptr(x, s));
        Ok(Chain {
            fixed: 0,
            classes: self.classes,
            slot_log2: self.slot_log2,
            tables: [
                p(&m.set1)?,
                p(&m.set2)?,
                p(&m.set3)?,
                p(&m.keys)?,
                p(&m.slots)?,
                p(&m.first)?,
                p(&m.starts)?,
                ptr(m.bytes.get("tally")?, s),
                p(&m.links)?,
            ],
        })
    }
}

mod probe;
#[cfg(test)]
mod tests;
