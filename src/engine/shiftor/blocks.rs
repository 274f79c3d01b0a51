//! The shift-or scan's windows found 32 start positions at a time with
//! AVX2, where the CPU has it.
//!
//! The shift-or loop does a table load, a shift and an or per byte on one
//! dependency chain: about 1 GB/s, whatever the text. Here each distinct
//! set of the window (two for an IPv4 regex: digits, and digits or a dot;
//! one for `[0-9a-f]{40}`) is looked up for 32 bytes at once with two
//! `pshufb` tables (Hyperscan's "truffle" test, any set of bytes), giving
//! a bit per byte. A set's bits for the 64 or 128 bytes from the block's
//! first start (a `u64` for windows of up to 33 bytes, a `u128` up to 64)
//! cover every window starting in the block, and slide by 32 bits a
//! block. The window's positions fall into runs that
//! share a set; a run of `r` positions at offset `o` keeps the starts `s`
//! whose bits `s + o .. s + o + r` are all set, found by ANDing the bits
//! with themselves shifted (1, 2, 4... positions: `log r` steps). Runs are
//! tried rarest first, and a block stops at the first that leaves no
//! start. Every position is tested, so a start left is a passing window.
//! The last 64 or 128 bytes go to the shift-or loop, which therefore also
//! gives the first passing window. Per 32 bytes: a table test per distinct
//! set and a few shifts; the IPv4 regex over 512 MB of CI logs, one thread,
//! 0.47 → 0.33 s of CPU (the shift-or loop alone against this).

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
};

/// Most distinct sets in a window tested in blocks.
const SETS_MAX: usize = 8;

/// Starts tested at once: one AVX2 vector of bytes.
const BLOCK: usize = 32;

/// A set's bits for the bytes from a block's first start: enough for its
/// starts and the window after the last of them (`window::WINDOW_MAX`,
/// 64 positions, in a `u128`).
trait Word:
    Copy
    + Default
    + From<u32>
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const BITS: usize;
    /// The low 32 bits.
    fn low(self) -> u32;
}

impl Word for u64 {
    const BITS: usize = 64;
    fn low(self) -> u32 {
        self as u32
    }
}

impl Word for u128 {
    const BITS: usize = 128;
    fn low(self) -> u32 {
        self as u32
    }
}

/// A set of bytes as two 16-entry tables (both 128-bit lanes alike, as
/// `pshufb` looks up within a lane): for a byte `b` below 128, bit
/// `b >> 4` of `low[b & 15]` says whether it is in the set; for the
/// others, bit `(b >> 4) & 7` of `high[b & 15]`.
#[derive(Clone, PartialEq, Eq)]
struct Tables {
    low: [u8; 32],
    high: [u8; 32],
}

/// Window positions from `offset` on that share a set.
#[derive(Clone)]
struct Run {
    offset: u32,
    set: usize,
    /// The run's length as [`doubling`] shifts.
    shifts: Vec<u32>,
}

/// The distinct sets of a window and its runs, rarest first.
#[derive(Clone)]
pub(super) struct Blocks {
    sets: Vec<Tables>,
    runs: Vec<Run>,
    /// Windows of up to 33 positions: a set's bits fit a `u64`.
    short: bool,
}

impl Blocks {
    /// The tests for windows of `len` positions whose position `i` holds
    /// the bytes `b` with `masks[b]` bit `i` clear; `shares[i]`, the
    /// expected share of text bytes in set `i`, orders the runs. `None`
    /// where the CPU lacks AVX2, or past [`SETS_MAX`] distinct sets or 64
    /// positions.
    pub(super) fn new(masks: &[u64; 256], len: usize, shares: &[f64]) -> Option<Blocks> {
        if !has_avx2() || len == 0 || len > 64 {
            return None;
        }
        // A set's tables hold each byte's bit once: equal tables, equal sets.
        let mut distinct: Vec<Tables> = Vec::new();
        // (offset, set, length, expected share of text passing)
        let mut runs: Vec<(u32, usize, u32, f64)> = Vec::new();
        for i in 0..len {
            let set = tables(masks, i);
            let k = match distinct.iter().position(|d| *d == set) {
                Some(k) => k,
                None => {
                    distinct.push(set);
                    distinct.len() - 1
                }
            };
            let share = shares.get(i).copied().unwrap_or(1.0);
            match runs.last_mut() {
                Some((_, run_set, run_len, pass)) if *run_set == k => {
                    *run_len += 1;
                    *pass *= share;
                }
                _ => runs.push((i as u32, k, 1, share)),
            }
        }
        if distinct.len() > SETS_MAX {
            return None;
        }
        runs.sort_by(|a, b| a.3.total_cmp(&b.3));
        let runs = runs
            .into_iter()
            .map(|(offset, set, len, _)| Run {
                offset,
                set,
                shifts: doubling(len),
            })
            .collect();
        Some(Blocks {
            sets: distinct,
            runs,
            short: len <= 64 - BLOCK + 1,
        })
    }

    /// The first start at or after `at` whose window passes, searching
    /// while the bytes a set's bits cover lie in `hay`; `Err(p)`: none
    /// starts before `p`, from where blocks no longer fit.
    pub(super) fn first_start(&self, hay: &[u8], at: usize) -> Result<usize, usize> {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `Blocks` exist only where the CPU has AVX2 (`new`).
            unsafe {
                match self.short {
                    true => self.first_start_avx2::<u64>(hay, at),
                    false => self.first_start_avx2::<u128>(hay, at),
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = hay;
            Err(at)
        }
    }

    /// With `W` of 64 bits, a set's bits cover 64 bytes: windows of up to
    /// 33 positions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn first_start_avx2<W: Word>(&self, hay: &[u8], at: usize) -> Result<usize, usize> {
        let span = W::BITS;
        if hay.len() < span || at > hay.len() - span {
            return Err(at);
        }
        // Bit `i & 7` in byte `i`: a byte's bits 4-6 as a one-hot mask.
        let mut one_hot = [0u8; 32];
        for (i, v) in one_hot.iter_mut().enumerate() {
            *v = 1 << (i & 7);
        }
        let load = |bytes: &[u8; 32]| {
            // SAFETY: 32 bytes are read from a 32-byte array.
            unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) }
        };
        let one_hot = load(&one_hot);
        let top = _mm256_set1_epi8(i8::MIN);
        let seven = _mm256_set1_epi8(7);
        let tables: Vec<(__m256i, __m256i)> = self
            .sets
            .iter()
            .map(|t| (load(&t.low), load(&t.high)))
            .collect();
        // The bits of the 32 bytes at `p` in set `k`.
        let member = |k: usize, p: usize| -> W {
            let (low, high) = tables[k];
            // SAFETY: callers keep `p + 32 <= hay.len()`.
            let v = unsafe { _mm256_loadu_si256(hay.as_ptr().add(p).cast()) };
            // `pshufb` gives 0 where the index's top bit is set: the low
            // table answers bytes below 128, the high one the rest.
            let row = _mm256_or_si256(
                _mm256_shuffle_epi8(low, v),
                _mm256_shuffle_epi8(high, _mm256_xor_si256(v, top)),
            );
            let bit =
                _mm256_shuffle_epi8(one_hot, _mm256_and_si256(_mm256_srli_epi16(v, 4), seven));
            let hit = _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), bit);
            W::from(_mm256_movemask_epi8(hit) as u32)
        };
        let mut bits = [W::default(); SETS_MAX];
        for (k, b) in bits.iter_mut().enumerate().take(tables.len()) {
            for i in 0..span / BLOCK {
                *b = *b | member(k, at + i * BLOCK) << (i * BLOCK) as u32;
            }
        }
        let mut p0 = at;
        loop {
            let mut starts = u32::MAX;
            for run in &self.runs {
                let mut row = bits[run.set];
                for &s in &run.shifts {
                    row = row & row >> s;
                }
                starts &= (row >> run.offset).low();
                if starts == 0 {
                    break;
                }
            }
            if starts != 0 {
                return Ok(p0 + starts.trailing_zeros() as usize);
            }
            p0 += BLOCK;
            if p0 > hay.len() - span {
                return Err(p0);
            }
            let last = span - BLOCK;
            for (k, b) in bits.iter_mut().enumerate().take(tables.len()) {
                *b = *b >> BLOCK as u32 | member(k, p0 + last) << last as u32;
            }
        }
    }
}

/// The shifts that leave the first bits of `len` set bits in a row: each
/// ANDs the bits with themselves shifted by the length covered so far
/// (1, 2, 4...), the last by what remains.
fn doubling(len: u32) -> Vec<u32> {
    let mut shifts = Vec::new();
    let mut covered = 1;
    while covered < len {
        let step = covered.min(len - covered);
        shifts.push(step);
        covered += step;
    }
    shifts
}

/// The `pshufb` tables of window position `i`'s set: the bytes `b` with
/// `masks[b]` bit `i` clear.
fn tables(masks: &[u64; 256], i: usize) -> Tables {
    let mut t = Tables {
        low: [0; 32],
        high: [0; 32],
    };
    for b in 0..=255u8 {
        if masks[usize::from(b)] & (1 << i) == 0 {
            let table = match b < 128 {
                true => &mut t.low,
                false => &mut t.high,
            };
            let bit = 1 << ((b >> 4) & 7);
            table[usize::from(b & 15)] |= bit;
            table[usize::from(b & 15) + 16] |= bit;
        }
    }
    t
}

fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
