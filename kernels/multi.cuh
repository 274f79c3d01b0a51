// Tables and device helpers of the literal-set search, shared by the
// `multi` kernel (multi.cu) and the chains of `tally` (tally.cu). Mirrored
// in src/engine/gpu/multi.rs.

#ifndef GPUGREP_MULTI_CUH
#define GPUGREP_MULTI_CUH

#include "common.cuh"

#define FILTER_LOG2 18u
#define FILTER_WORDS ((1u << FILTER_LOG2) / 32u)
#define SET1_WORDS 8u
#define SET2_WORDS (65536u / 32u)
#define SET3_WORDS (16777216u / 32u)

#define NO_LINK 0xffffffffu

// Bit of `classes` that makes multi and tally fold ASCII case: the tables
// hold the patterns ASCII-lowered, and every text byte read is lowered.
#define FOLD_CLASS 16u

// The fold mask of `classes`: 0x20 in every byte when folding, else 0.
__device__ __forceinline__ u32 fold_mask(u32 classes)
{
    return (classes & FOLD_CLASS) ? 0x20202020u : 0u;
}

// The 4 bytes of x with their ASCII capitals lowered when fold is
// fold_mask's 0x20202020 (unchanged when 0), branch-free: a byte's low 7
// bits plus 0x3f carry into bit 7 from 'A' on, plus 0x25 from past 'Z';
// neither sum carries out of its byte. Mirrored by multi.rs `fold4`.
__device__ __forceinline__ u32 fold4(u32 x, u32 fold)
{
    const u32 h = x & 0x7f7f7f7fu;
    const u32 upper = ((h + 0x3f3f3f3fu) ^ (h + 0x25252525u)) & ~x & 0x80808080u;
    return x | ((upper >> 2) & fold);
}

// One byte lowered when folding (fold as for fold4).
__device__ __forceinline__ u32 fold1(u32 b, u32 fold)
{
    return b | ((b - 65u < 26u ? 0x20u : 0u) & fold);
}

// equal_tail (common.cuh) on the text as folded.
__device__ __forceinline__ bool equal_tail_folded(const unsigned char* __restrict__ text,
                                                  const unsigned char* __restrict__ pat, u32 len,
                                                  u32 fold)
{
    for (u32 i = 0; i < len; ++i) {
        if (fold1(__ldg(text + i), fold) != __ldg(pat + i)) return false;
    }
    return true;
}

// The pattern (len >= 4 bytes; the first 4 equal the text's) sorts at or
// below the text from pos on (folded with fold), which ends at n: byte
// order, a text that ends inside the pattern being the smaller.
__device__ __forceinline__ bool not_above(const unsigned char* __restrict__ text, u64 pos, u64 n,
                                          const unsigned char* __restrict__ pat, u32 len, u32 fold)
{
    for (u32 i = 4; i < len; ++i) {
        if (pos + i >= n) return false;
        const u32 t = fold1(__ldg(text + pos + i), fold), p = __ldg(pat + i);
        if (t != p) return t > p;
    }
    return true;
}

__device__ __forceinline__ u32 multi_hash(u32 key)
{
    return (key * 0x9E3779B1u) >> (32u - FILTER_LOG2);
}

// The filter's bit of a 3-byte pattern (its bytes, little-endian): the
// global 3-byte set is read only where this bit is set.
__device__ __forceinline__ u32 multi_hash3(u32 bytes3)
{
    return (bytes3 * 0x2C1B3C6Du) >> (32u - FILTER_LOG2);
}

__device__ __forceinline__ bool has_bit(const u32* set, u32 i)
{
    return (set[i >> 5] >> (i & 31u)) & 1u;
}

// The longest pattern of 4 bytes or more occurring at pos (whose 4 bytes,
// little-endian and folded, are v; pos + 4 <= n), as its length; 0 for
// none; fold: fold_mask of the tables' classes. The first
// pattern of the chain that occurs is the longest that does: every pattern
// occurring at pos is a prefix of the greatest one not above the text.
__device__ __forceinline__ u32 slot_hash(u32 key, u32 log2)
{
    return (key * 0x85EBCA6Bu) >> (32u - log2);
}

__device__ __forceinline__ u32 group_longest(const unsigned char* __restrict__ text, u64 pos,
                                             u64 n, u32 v, const u32* __restrict__ keys,
                                             const u32* __restrict__ slots, u32 slot_log2,
                                             const u32* __restrict__ first,
                                             const u32* __restrict__ starts,
                                             const unsigned char* __restrict__ bytes,
                                             const u32* __restrict__ links, u32 fold)
{
    const u32 mask = (1u << slot_log2) - 1u;
    u32 lo;
    for (u32 h = slot_hash(v, slot_log2);; h = (h + 1u) & mask) {
        lo = __ldg(slots + h);
        if (lo == NO_LINK) return 0;
        if (__ldg(keys + lo) == v) break;
    }
    const u32 a = __ldg(first + lo);
    u32 l = a, h = __ldg(first + lo + 1);
    while (l < h) {
        const u32 mid = (l + h) >> 1;
        const u32 s = __ldg(starts + mid);
        if (not_above(text, pos, n, bytes + s, __ldg(starts + mid + 1) - s, fold)) l = mid + 1;
        else h = mid;
    }
    for (u32 pk = l > a ? l - 1 : NO_LINK; pk != NO_LINK; pk = __ldg(links + pk)) {
        const u32 s = __ldg(starts + pk), len = __ldg(starts + pk + 1) - s;
        if (pos + len <= n && equal_tail_folded(text + pos + 4, bytes + s + 4, len - 4, fold)) return len;
    }
    return 0;
}

#endif // GPUGREP_MULTI_CUH
