// Per-file tallies over the bitmap a search kernel left. Host side:
// src/engine/gpu/tally.rs (CPU reference) and src/engine/gpu/chunk.rs
// (launch).

#include "multi.cuh"

// ---------------------------------------------------------------------------
// tally: per-file counts for `-c`, `--count-matches`, `-l`, `-L` and `-q`,
// so that the match offsets stay on the GPU. Input: the bitmap a search
// kernel left (bm/prefix4 for one literal, multi for a set) over a
// chunk holding whole files, each followed by a terminator byte.
//
// Launch contract:
//   grid = any; block = (256, 1, 1); dynamic shared = 0 (grid-stride over
//   bitmap words).
//   args = text, n: the chunk's n bytes; bitmap: at least ceil(n/32) words,
//          every set bit a match start p < n.
//          starts[k], ends[k] for k < pieces: the byte range of file k,
//          ascending and disjoint (ends[k] <= starts[k+1]).
//          term: the line terminator; no match contains it.
//          reach: the longest walk along a line, in bytes.
//          chain: 0 counts match starts, 1 non-overlapping matches.
//          fixed: the length of every match (one literal), or 0: the
//          longest pattern of the set starting there, from multi's tables
//          (classes, set2, set3, keys, slots, slot_log2, first, pstarts,
//          bytes, links:
//          as uploaded for the `multi` launch that set the bits; a set bit
//          no longer pattern explains is a 1-byte pattern's). Read only
//          with chain = 1; unread when fixed > 0 (null pointers allowed).
//          counts: 2 * pieces u32 and gave_up: one u32, zeroed before.
//   counts[k] = lines of file k holding a set bit: a bit counts when,
//   walking back from it, the file's start or a terminator comes before
//   another set bit. counts[pieces + k] = with chain 0, the set bits in
//   file k; with chain 1, the matches as grep -o counts them (leftmost,
//   longest at a position): the thread holding a line's first bit walks
//   the line, from each match to the first set bit at or after its end.
//   A walk, back or forward, longer than `reach` bytes sets *gave_up (the
//   host then ships the offsets).
// ---------------------------------------------------------------------------
__device__ __forceinline__ bool bit_at(const u32* __restrict__ bitmap, u64 q)
{
    return (bitmap[q >> 5] >> (q & 31u)) & 1u;
}

// The length of the longest pattern of multi's tables at `at`, which holds
// a set bit.
__device__ __forceinline__ u32 longest_at(const unsigned char* __restrict__ text, u64 n, u64 at,
                                          u32 classes, const u32* __restrict__ set2,
                                          const u32* __restrict__ set3,
                                          const u32* __restrict__ keys,
                                          const u32* __restrict__ slots, u32 slot_log2,
                                          const u32* __restrict__ first,
                                          const u32* __restrict__ pstarts,
                                          const unsigned char* __restrict__ bytes,
                                          const u32* __restrict__ links)
{
    const u64 rem = n - at;
    u32 len = 0;
    if ((classes & 8u) && rem >= 4) {
        const u32 v = (u32)text[at] | (u32)text[at + 1] << 8 | (u32)text[at + 2] << 16 |
                      (u32)text[at + 3] << 24;
        len = group_longest(text, at, n, v, keys, slots, slot_log2, first, pstarts, bytes, links);
    }
    const u32 v3 = (u32)text[at] | (rem >= 2 ? (u32)text[at + 1] << 8 : 0u) |
                   (rem >= 3 ? (u32)text[at + 2] << 16 : 0u);
    if (len == 0 && (classes & 4u) && rem >= 3 && has_bit(set3, v3)) len = 3;
    if (len == 0 && (classes & 2u) && rem >= 2 && has_bit(set2, v3 & 0xffffu)) len = 2;
    return len == 0 ? 1u : len;
}

extern "C" __global__ void __launch_bounds__(256)
tally(const unsigned char* __restrict__ text, u64 n, const u32* __restrict__ bitmap,
      const u64* __restrict__ starts, const u64* __restrict__ ends, u32 pieces, u32 term,
      u32 reach, u32 chain, u32 fixed, u32 classes, const u32* __restrict__ set2,
      const u32* __restrict__ set3, const u32* __restrict__ keys,
      const u32* __restrict__ slots, u32 slot_log2,
      const u32* __restrict__ first, const u32* __restrict__ pstarts,
      const unsigned char* __restrict__ bytes, const u32* __restrict__ links, u32* counts,
      u32* gave_up)
{
    const u64 words = (n + 31) / 32;
    const u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 w = (u64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
        u32 bits = bitmap[w];
        while (bits) {
            const u32 b = __ffs(bits) - 1;
            bits &= bits - 1;
            const u64 p = w * 32 + b;
            // The file holding p: the last k with starts[k] <= p.
            u32 lo = 0, hi = pieces;
            while (lo < hi) {
                const u32 mid = (lo + hi) / 2;
                if (starts[mid] <= p) lo = mid + 1; else hi = mid;
            }
            if (lo == 0) continue;
            const u32 k = lo - 1;
            const u64 s = starts[k], e = ends[k];
            if (p >= e) continue;
            if (!chain) atomicAdd(&counts[pieces + k], 1u);
            // Only the line's first bit goes on.
            bool first_bit = true;
            u32 walked = 0;
            for (u64 q = p; q > s;) {
                --q;
                if (text[q] == (unsigned char)term) break;
                if (bit_at(bitmap, q)) { first_bit = false; break; }
                if (++walked > reach) { atomicExch(gave_up, 1u); first_bit = false; break; }
            }
            if (!first_bit) continue;
            atomicAdd(&counts[k], 1u);
            if (!chain) continue;
            u32 found = 0;
            u64 at = p;
            walked = 0;
            for (;;) {
                ++found;
                const u32 len = fixed ? fixed
                                      : longest_at(text, n, at, classes, set2, set3, keys, slots, slot_log2,
                                                   first, pstarts, bytes, links);
                // The next match starts at or after this one's end, in the line.
                u64 q = at + len;
                bool next = false;
                while (q < e && text[q] != (unsigned char)term) {
                    if (bit_at(bitmap, q)) { next = true; break; }
                    if (++walked > reach) { atomicExch(gave_up, 1u); break; }
                    ++q;
                }
                if (!next) break;
                at = q;
            }
            atomicAdd(&counts[pieces + k], found);
        }
    }
}
