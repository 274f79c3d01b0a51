// Many literals in one pass: the `multi` kernel. Host side:
// src/engine/gpu/multi.rs (tables, CPU reference, upload, launch).

#include "multi.cuh"

// The position of the r-th (from 0) set bit of m; r < popc(m).
__device__ __forceinline__ u32 nth_bit(u32 m, u32 r)
{
    u32 at = 0;
    for (u32 s = 16; s >= 1; s >>= 1) {
        const u32 low = __popc(m & ((1u << s) - 1u));
        if (r >= low) {
            r -= low;
            m >>= s;
            at += s;
        }
    }
    return at;
}

// ---------------------------------------------------------------------------
// multi: many literals in one pass. Patterns of 1, 2 and 3 bytes are exact
// bit sets (1- and 2-byte sets in shared memory, the 3-byte set of 2 MiB in
// global memory, read only where the shared filter holds the 3 bytes'
// multi_hash3); longer patterns are keyed by their first 4 bytes:
// a hash filter of the keys in shared memory, then a hash table of the keys
// in global memory, then the key's patterns (in byte order): a binary search
// finds the greatest one not above the text, and the text starts with some
// pattern of the group iff it starts with that one or one of its prefixes
// in the set, followed through `links` (why: src/engine/gpu/multi.rs).
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1);
//   dynamic shared = (FILTER_WORDS + SET2_WORDS + SET1_WORDS) * 4 bytes (40 KiB).
//   args   = text (as prefix4)   n
//            classes (bit 0: 1-byte patterns exist, bit 1: 2-byte, bit 2:
//                     3-byte, bit 3: longer; bit 4, FOLD_CLASS: the tables
//                     hold ASCII-lowered patterns and every text byte is
//                     lowered before it is looked up or compared)
//            minlen (the shortest pattern's length, >= 1)
//            set1 (u32[SET1_WORDS]: bit b  iff the pattern {b} exists)
//            set2 (u32[SET2_WORDS]: bit b0 | b1 << 8  iff {b0, b1} exists)
//            set3 (u32[SET3_WORDS]: bit b0 | b1 << 8 | b2 << 16  likewise)
//            filter (u32[FILTER_WORDS]: bit multi_hash(key) for every key,
//                    bit multi_hash3(p) for every 3-byte pattern p)
//            keys (u32[nkeys], ascending, distinct: the longer patterns'
//                  first 4 bytes, little-endian)
//            slots (u32[1 << slot_log2], at most half full: an index into
//                   keys or NO_LINK; key v sits at the first slot holding it
//                   from slot_hash(v, slot_log2) on, wrapping)   slot_log2
//                   (1..31)
//            first (u32[nkeys + 1]: the longer patterns with key keys[i] are
//                   numbers first[i] .. first[i+1])
//            starts (u32[npat + 1]: longer pattern k is bytes[starts[k] ..
//                    starts[k+1]]; a key's patterns ascend in byte order)   bytes
//            links (u32[npat]: the longest pattern of k's group that is a
//                   proper prefix of k, or 0xffffffff)
//            bitmap (u32[tiles*TILE_WORDS])   counts (u32[tiles])   tiles
//   The block copies set1, set2 and the filter to shared memory, then walks
//   tiles like prefix4 (thread t owns words t + 256*k, k = 0..3, writes each
//   once; thread 0 writes counts[tile]); a warp shares its words' key and
//   group searches out among its lanes (static shared won[256]). Bit p is set iff some pattern
//   occurs at p entirely inside the text (p + len <= n), in the text as
//   folded under FOLD_CLASS. Built, and mirrored
//   by a CPU reference, in src/engine/gpu/multi.rs.
// ---------------------------------------------------------------------------

extern "C" __global__ void __launch_bounds__(256)
multi(const unsigned char* __restrict__ text, u64 n, u32 classes, u32 minlen,
      const u32* __restrict__ set1_g, const u32* __restrict__ set2_g,
      const u32* __restrict__ set3, const u32* __restrict__ filter_g,
      const u32* __restrict__ keys, const u32* __restrict__ slots, u32 slot_log2,
      const u32* __restrict__ first,
      const u32* __restrict__ starts, const unsigned char* __restrict__ bytes,
      const u32* __restrict__ links, u32* __restrict__ bitmap, u32* __restrict__ counts,
      u64 tiles)
{
    extern __shared__ u32 smem_multi[];
    u32* filter = smem_multi;
    u32* set2 = filter + FILTER_WORDS;
    u32* set1 = set2 + SET2_WORDS;
    __shared__ u32 scratch[MAX_BLOCK / 32];
    __shared__ u32 won[256];  // the warp's finds for thread t's word
    for (u32 i = threadIdx.x; i < FILTER_WORDS; i += blockDim.x) filter[i] = filter_g[i];
    for (u32 i = threadIdx.x; i < SET2_WORDS; i += blockDim.x) set2[i] = set2_g[i];
    if (threadIdx.x < SET1_WORDS) set1[threadIdx.x] = set1_g[threadIdx.x];
    __syncthreads();
    const u32 fold = fold_mask(classes);
    const bool any = n >= (u64)minlen;
    const u64 last = any ? n - minlen : 0ull;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        u32 cnt = 0;
        for (int k = 0; k < 4; ++k) {
            const u64 w = tile * TILE_WORDS + (u64)k * 256u + threadIdx.x;
            const u64 base = w * 32u;
            const uint4* p = reinterpret_cast<const uint4*>(text + base);
            const uint4 a = __ldg(p), b = __ldg(p + 1);
            const u32 wd[9] = {fold4(a.x, fold), fold4(a.y, fold), fold4(a.z, fold),
                               fold4(a.w, fold), fold4(b.x, fold), fold4(b.y, fold),
                               fold4(b.z, fold), fold4(b.w, fold),
                               fold4(__ldg(reinterpret_cast<const u32*>(text + base + 32u)), fold)};
            const u32 valid = valid_mask(base, any, last);
            // First the cheap tests for all 32 positions, then the key and
            // group searches for the filter's candidates only.
            u32 bits = 0, cand3 = 0, cand = 0;
            for (int i = 0; i < 8; ++i) {
                for (int r = 0; r < 4; ++r) {
                    const u32 at = 4u * i + r;
                    if (!((valid >> at) & 1u)) continue;
                    const u32 v = r == 0 ? wd[i] : __funnelshift_r(wd[i], wd[i + 1], 8 * r);
                    const u64 rem = n - (base + at);  // >= minlen >= 1: valid
                    bool hit = (classes & 1u) && has_bit(set1, v & 0xffu);
                    hit = hit || ((classes & 2u) && rem >= 2 && has_bit(set2, v & 0xffffu));
                    if (hit) {
                        bits |= 1u << at;
                        continue;
                    }
                    if ((classes & 4u) && rem >= 3 && has_bit(filter, multi_hash3(v & 0xffffffu))) cand3 |= 1u << at;
                    if ((classes & 8u) && rem >= 4 && has_bit(filter, multi_hash(v))) cand |= 1u << at;
                }
            }
            // The global 3-byte set, at the filter's 3-byte candidates only.
            while (cand3) {
                const u32 at = __ffs(cand3) - 1u;
                cand3 &= cand3 - 1u;
                const u64 pos = base + at;  // pos + 3 <= n: a candidate
                const u32 v = fold4((u32)__ldg(text + pos) | (u32)__ldg(text + pos + 1) << 8 |
                                    (u32)__ldg(text + pos + 2) << 16, fold);
                if ((__ldg(set3 + (v >> 5)) >> (v & 31u)) & 1u) bits |= 1u << at;
            }
            cand &= ~bits;
            // The key and group searches, shared by the warp: candidate j of
            // the warp's 32 words (in lane order) goes to lane j % 32, so a
            // warp runs ceil(candidates / 32) searches, not as many as its
            // busiest lane has candidates (dense logs: ~11 of 32 lanes were
            // active). A lane's finds reach their word through won[].
            const u32 lane = threadIdx.x & 31u;
            won[threadIdx.x] = 0;
            u32 incl = __popc(cand);
            for (int o = 1; o < 32; o <<= 1) {
                const u32 up = __shfl_up_sync(0xffffffffu, incl, o);
                if (lane >= (u32)o) incl += up;
            }
            const u32 total = __shfl_sync(0xffffffffu, incl, 31);
            const u32 excl = incl - __popc(cand);
            __syncwarp();
            for (u32 round = 0; round < total; round += 32u) {
                const u32 j = round + lane;
                // The owner: the first lane whose inclusive count exceeds j.
                u32 owner = 0;
                for (u32 step = 16; step >= 1; step >>= 1) {
                    if (__shfl_sync(0xffffffffu, incl, owner + step - 1u) <= j) owner += step;
                }
                const u32 its_cand = __shfl_sync(0xffffffffu, cand, owner);
                const u32 its_excl = __shfl_sync(0xffffffffu, excl, owner);
                if (j >= total) continue;
                const u32 at = nth_bit(its_cand, j - its_excl);
                const u64 pos = (w - lane + owner) * 32u + at;  // pos + 4 <= n: a candidate
                const u32 v = fold4((u32)__ldg(text + pos) | (u32)__ldg(text + pos + 1) << 8 |
                                    (u32)__ldg(text + pos + 2) << 16 | (u32)__ldg(text + pos + 3) << 24, fold);
                if (group_longest(text, pos, n, v, keys, slots, slot_log2, first, starts, bytes, links, fold))
                    atomicOr(&won[threadIdx.x - lane + owner], 1u << at);
            }
            __syncwarp();
            bits |= won[threadIdx.x];
            bitmap[w] = bits;
            cnt += __popc(bits);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}
