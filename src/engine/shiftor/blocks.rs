//! The shift-or scan's windows found 32 start positions at a time with
//! AVX2, where the CPU has it.
//!
//! The shift-or loop does a table load, a shift and an or per byte on one
//! dependency chain: about 1 GB/s, whatever the text. Here each block of 32
//! start positions tests one window position at a time, the rarest first:
//! the 32 bytes at that offset are looked up in the position's set with
//! two `pshufb` table lookups (Hyperscan's "truffle" class test, any set of
//! bytes), and the 32-bit mask of starts still passing is ANDed. Most
//! blocks are empty after the first test (digits for an IPv4 regex), so a
//! block costs about ten vector instructions. Starts left after
//! [`CHECKS_MAX`] tests are checked byte by byte through the shift-or's
//! own table. The blocks stop where a window could reach past the end;
//! the shift-or loop scans the rest, so both give the first passing window.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_xor_si256,
};

/// Window positions tested with vectors; the rest are checked per start.
const CHECKS_MAX: usize = 8;

/// Starts tested at once: one AVX2 vector of bytes.
const BLOCK: usize = 32;

/// One window position's set as two 16-entry tables (both 128-bit lanes
/// alike, as `pshufb` looks up within a lane): for a byte `b` below 128,
/// bit `b >> 4` of `low[b & 15]` says whether it is in the set; for the
/// others, bit `(b >> 4) & 7` of `high[b & 15]`.
#[derive(Clone)]
struct Check {
    offset: usize,
    low: [u8; 32],
    high: [u8; 32],
}

/// The window positions a block tests, rarest first.
#[derive(Clone)]
pub(super) struct Blocks {
    checks: Vec<Check>,
    /// Every window position is tested: a start left passes.
    complete: bool,
}

impl Blocks {
    /// The tests for windows whose position `i` holds the bytes `b` with
    /// `masks[b]` bit `i` clear, positions taken in `order`; `None` where
    /// the CPU lacks AVX2.
    pub(super) fn new(masks: &[u64; 256], order: &[usize]) -> Option<Blocks> {
        if !has_avx2() {
            return None;
        }
        let checks = order
            .iter()
            .take(CHECKS_MAX)
            .map(|&i| {
                let mut check = Check {
                    offset: i,
                    low: [0; 32],
                    high: [0; 32],
                };
                for b in 0..=255u8 {
                    if masks[usize::from(b)] & (1 << i) == 0 {
                        let table = match b < 128 {
                            true => &mut check.low,
                            false => &mut check.high,
                        };
                        let bit = 1 << ((b >> 4) & 7);
                        table[usize::from(b & 15)] |= bit;
                        table[usize::from(b & 15) + 16] |= bit;
                    }
                }
                check
            })
            .collect::<Vec<_>>();
        let complete = checks.len() == order.len();
        Some(Blocks { checks, complete })
    }

    /// The first start at or after `at` whose window of `len` bytes lies
    /// in `hay` and passes `passes`, searching while whole blocks fit;
    /// `Err(p)`: none starts before `p`, from where blocks no longer fit.
    pub(super) fn first_start(
        &self,
        hay: &[u8],
        at: usize,
        len: usize,
        passes: impl Fn(usize) -> bool,
    ) -> Result<usize, usize> {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `Blocks` exist only where the CPU has AVX2 (`new`).
            unsafe { self.first_start_avx2(hay, at, len, passes) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (hay, len, passes);
            Err(at)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn first_start_avx2(
        &self,
        hay: &[u8],
        at: usize,
        len: usize,
        passes: impl Fn(usize) -> bool,
    ) -> Result<usize, usize> {
        // Bit `i & 7` of byte `i`: a byte's high bits as a one-hot mask.
        let bits = {
            let mut b = [0u8; 32];
            for (i, v) in b.iter_mut().enumerate() {
                *v = 1 << (i & 7);
            }
            b
        };
        // SAFETY: `bits` holds 32 bytes.
        let bits = unsafe { _mm256_loadu_si256(bits.as_ptr().cast::<__m256i>()) };
        let tables: Vec<(usize, __m256i, __m256i)> = self
            .checks
            .iter()
            // SAFETY: each table holds 32 bytes.
            .map(|c| unsafe {
                (
                    c.offset,
                    _mm256_loadu_si256(c.low.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(c.high.as_ptr().cast::<__m256i>()),
                )
            })
            .collect();
        let top = _mm256_set1_epi8(i8::MIN);
        let seven = _mm256_set1_epi8(7);
        let mut p0 = at;
        // A block's loads reach `p0 + len - 1 + BLOCK` at most.
        while p0 + len - 1 + BLOCK <= hay.len() {
            let mut starts = u32::MAX;
            for &(offset, low, high) in &tables {
                // SAFETY: `offset < len`, so the 32 bytes at `p0 + offset`
                // lie in `hay` by the loop's condition.
                let v = unsafe { _mm256_loadu_si256(hay.as_ptr().add(p0 + offset).cast()) };
                // `pshufb` gives 0 where the index's top bit is set: the
                // low table answers bytes below 128, the high one the rest.
                let row = _mm256_or_si256(
                    _mm256_shuffle_epi8(low, v),
                    _mm256_shuffle_epi8(high, _mm256_xor_si256(v, top)),
                );
                let bit =
                    _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi16(v, 4), seven));
                let member = _mm256_cmpeq_epi8(_mm256_and_si256(row, bit), bit);
                starts &= _mm256_movemask_epi8(member) as u32;
                if starts == 0 {
                    break;
                }
            }
            while starts != 0 {
                let p = p0 + starts.trailing_zeros() as usize;
                if self.complete || passes(p) {
                    return Ok(p);
                }
                starts &= starts - 1;
            }
            p0 += BLOCK;
        }
        Err(p0)
    }
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
