// gpugrep kernels (CUDA C, compiled to PTX by kernels/build-ptx with NVRTC
// for compute_70; the PTX is committed and embedded by build.rs): the literal
// searches (prefix4, multi, bm), the back-read that filters their candidates
// in legacy encodings, the per-file tallies, and the compaction of bitmaps
// into offsets. One file, one module: NVRTC compiles each file alone, so the
// helpers they share (block_sum, the tile layout) are written once here.
//
// Shared layout, mirrored in src/engine/gpu/kernels.rs (keep them in sync):
//   * The text is cut into tiles of TILE_BYTES bytes. Tile t covers text bytes
//     [t*TILE_BYTES, (t+1)*TILE_BYTES). The last tile may run past the text's
//     end n; the device text buffer is allocated to tiles*TILE_BYTES + PAD_BYTES
//     bytes and the host zeroes everything past n, so every read below stays
//     inside the allocation.
//   * The result bitmap has one bit per text byte: bit b of 32-bit word w is
//     set iff a match starts at byte 32*w + b. It holds tiles*TILE_WORDS words;
//     every word is written exactly once by exactly one thread (no atomics, no
//     pre-clearing); bits at or past n - m + 1 are always 0.
//   * counts[t] is the number of set bits in tile t's TILE_WORDS words, written
//     by thread 0 of the block that searched the tile. The compaction kernels
//     turn counts into offsets.
//   * A match at p needs p + m <= n. Offsets are 64-bit: texts may exceed 4 GiB.

#define TILE_BYTES 32768u
#define TILE_WORDS (TILE_BYTES / 32u)
#define MAX_BLOCK 1024

typedef unsigned int u32;
typedef unsigned long long u64;

// Sum of v over the block (blockDim.x a multiple of 32, at most MAX_BLOCK).
// Every thread must call it; the result is valid in thread 0 only. `scratch`
// holds one entry per warp and may be reused after the call returns.
__device__ __forceinline__ u32 block_sum(u32 v, u32* scratch)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    u32 total = 0;
    if (threadIdx.x == 0) {
        for (u32 w = 0; w < (blockDim.x >> 5); ++w) total += scratch[w];
    }
    __syncthreads();
    return total;
}

// Exclusive prefix sum of v over the block (blockDim.x a multiple of 32, at
// most MAX_BLOCK); *total receives the block's sum. Every thread must call it.
__device__ __forceinline__ u64 block_exclusive_scan(u64 v, u64* scratch, u64* total)
{
    const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    u64 inc = v;
    for (int o = 1; o < 32; o <<= 1) {
        u64 up = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= (u32)o) inc += up;
    }
    if (lane == 31) scratch[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        const u32 nw = blockDim.x >> 5;
        u64 s = lane < nw ? scratch[lane] : 0ull;
        for (int o = 1; o < 32; o <<= 1) {
            u64 up = __shfl_up_sync(0xffffffffu, s, o);
            if (lane >= (u32)o) s += up;
        }
        if (lane < nw) scratch[lane] = s;  // inclusive scan of warp sums
    }
    __syncthreads();
    const u64 warp_base = warp == 0 ? 0ull : scratch[warp - 1];
    *total = scratch[(blockDim.x >> 5) - 1];
    __syncthreads();
    return warp_base + inc - v;
}

// Mask of the bits of the word starting at byte `base` whose positions are
// valid match starts (p <= last, where last = n - m; `any` is n >= m).
__device__ __forceinline__ u32 valid_mask(u64 base, bool any, u64 last)
{
    if (!any || base > last) return 0u;
    const u64 d = last - base;
    return d >= 31 ? 0xffffffffu : ((2u << d) - 1u);
}

// True iff text[0..len) == pat[0..len).
__device__ __forceinline__ bool equal_tail(const unsigned char* __restrict__ text,
                                           const unsigned char* __restrict__ pat, u32 len)
{
    for (u32 i = 0; i < len; ++i) {
        if (__ldg(text + i) != __ldg(pat + i)) return false;
    }
    return true;
}

// ---------------------------------------------------------------------------
// prefix4: memchr-like scan for short (and, as the exact fallback, any) patterns.
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1); dynamic shared = 0.
//   args   = text  (device, tiles*TILE_BYTES + PAD_BYTES readable, 16-byte aligned)
//            n     (text length, bytes)
//            pat   (device, m bytes)          m (>= 1, any length)
//            prefix (pat[0..min(m,4)) as a little-endian u32)
//            mask   (0xffffffff >> 8*(4 - min(m,4)))
//            bitmap (u32[tiles*TILE_WORDS])   counts (u32[tiles])   tiles
//   Blocks walk the tiles blockIdx.x, +gridDim.x, ... In a tile, thread t owns
//   bitmap words t + 256*k (k = 0..3), i.e. the 32 text bytes behind each, and
//   writes each word once; thread 0 writes counts[tile]. For every owned
//   position the thread compares the 4 bytes starting there (built from two
//   16-byte loads plus the next word, with funnel shifts) against the masked
//   prefix; when m > 4 each surviving candidate is verified byte by byte
//   against the rest of the pattern, read from global memory (so any m works).
// ---------------------------------------------------------------------------
template <bool FULL>
__device__ __forceinline__ void prefix4_body(const unsigned char* __restrict__ text, u64 n,
                                             const unsigned char* __restrict__ pat, u32 m,
                                             u32 prefix, u32 mask, u32* __restrict__ bitmap,
                                             u32* __restrict__ counts, u64 tiles)
{
    __shared__ u32 scratch[MAX_BLOCK / 32];
    const bool any = n >= (u64)m;
    const u64 last = any ? n - m : 0ull;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        uint4 a[4], b[4];
        u32 nx[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const u64 w = tile * TILE_WORDS + (u64)k * 256u + threadIdx.x;
            const uint4* p = reinterpret_cast<const uint4*>(text + w * 32u);
            a[k] = __ldg(p);
            b[k] = __ldg(p + 1);
            nx[k] = __ldg(reinterpret_cast<const u32*>(text + w * 32u + 32u));
        }
        u32 cnt = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const u64 w = tile * TILE_WORDS + (u64)k * 256u + threadIdx.x;
            const u64 base = w * 32u;
            const u32 wd[9] = {a[k].x, a[k].y, a[k].z, a[k].w, b[k].x, b[k].y, b[k].z, b[k].w, nx[k]};
            u32 bits = 0;
#pragma unroll
            for (int i = 0; i < 8; ++i) {
#pragma unroll
                for (int r = 0; r < 4; ++r) {
                    const u32 v = r == 0 ? wd[i] : __funnelshift_r(wd[i], wd[i + 1], 8 * r);
                    const bool hit = FULL ? (v == prefix) : (((v ^ prefix) & mask) == 0u);
                    if (hit) bits |= 1u << (4 * i + r);
                }
            }
            bits &= valid_mask(base, any, last);
            if (FULL && m > 4u) {
                u32 cand = bits;
                while (cand) {
                    const u32 bit = __ffs(cand) - 1u;
                    cand &= cand - 1u;
                    if (!equal_tail(text + base + bit + 4u, pat + 4, m - 4u)) bits &= ~(1u << bit);
                }
            }
            bitmap[w] = bits;
            cnt += __popc(bits);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}

// m >= 4: the 4-byte prefix is compared whole.
extern "C" __global__ void __launch_bounds__(256)
prefix4_full(const unsigned char* __restrict__ text, u64 n, const unsigned char* __restrict__ pat,
             u32 m, u32 prefix, u32 mask, u32* __restrict__ bitmap, u32* __restrict__ counts,
             u64 tiles)
{
    prefix4_body<true>(text, n, pat, m, prefix, mask, bitmap, counts, tiles);
}

// m in 1..=3: the prefix is compared under `mask`; no verification needed.
extern "C" __global__ void __launch_bounds__(256)
prefix4_short(const unsigned char* __restrict__ text, u64 n, const unsigned char* __restrict__ pat,
              u32 m, u32 prefix, u32 mask, u32* __restrict__ bitmap, u32* __restrict__ counts,
              u64 tiles)
{
    prefix4_body<false>(text, n, pat, m, prefix, mask, bitmap, counts, tiles);
}

// ---------------------------------------------------------------------------
// multi: many literals in one pass. Patterns of 1, 2 and 3 bytes are exact
// bit sets (1- and 2-byte sets in shared memory, the 3-byte set of 2 MiB in
// global memory, cached); longer patterns are keyed by their first 4 bytes:
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
//                     3-byte, bit 3: longer)
//            minlen (the shortest pattern's length, >= 1)
//            set1 (u32[SET1_WORDS]: bit b  iff the pattern {b} exists)
//            set2 (u32[SET2_WORDS]: bit b0 | b1 << 8  iff {b0, b1} exists)
//            set3 (u32[SET3_WORDS]: bit b0 | b1 << 8 | b2 << 16  likewise)
//            filter (u32[FILTER_WORDS]: bit multi_hash(key) for every key)
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
//   once; thread 0 writes counts[tile]). Bit p is set iff some pattern
//   occurs at p entirely inside the text (p + len <= n). Built, and mirrored
//   by a CPU reference, in src/engine/gpu/multi.rs.
// ---------------------------------------------------------------------------
#define FILTER_LOG2 18u
#define FILTER_WORDS ((1u << FILTER_LOG2) / 32u)
#define SET1_WORDS 8u
#define SET2_WORDS (65536u / 32u)
#define SET3_WORDS (16777216u / 32u)

#define NO_LINK 0xffffffffu

// The pattern (len >= 4 bytes; the first 4 equal the text's) sorts at or
// below the text from pos on, which ends at n: byte order, a text that ends
// inside the pattern being the smaller.
__device__ __forceinline__ bool not_above(const unsigned char* __restrict__ text, u64 pos, u64 n,
                                          const unsigned char* __restrict__ pat, u32 len)
{
    for (u32 i = 4; i < len; ++i) {
        if (pos + i >= n) return false;
        const unsigned char t = __ldg(text + pos + i), p = __ldg(pat + i);
        if (t != p) return t > p;
    }
    return true;
}

__device__ __forceinline__ u32 multi_hash(u32 key)
{
    return (key * 0x9E3779B1u) >> (32u - FILTER_LOG2);
}

__device__ __forceinline__ bool has_bit(const u32* set, u32 i)
{
    return (set[i >> 5] >> (i & 31u)) & 1u;
}

// The longest pattern of 4 bytes or more occurring at pos (whose 4 bytes,
// little-endian, are v; pos + 4 <= n), as its length; 0 for none. The first
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
                                             const u32* __restrict__ links)
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
        if (not_above(text, pos, n, bytes + s, __ldg(starts + mid + 1) - s)) l = mid + 1;
        else h = mid;
    }
    for (u32 pk = l > a ? l - 1 : NO_LINK; pk != NO_LINK; pk = __ldg(links + pk)) {
        const u32 s = __ldg(starts + pk), len = __ldg(starts + pk + 1) - s;
        if (pos + len <= n && equal_tail(text + pos + 4, bytes + s + 4, len - 4)) return len;
    }
    return 0;
}

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
    for (u32 i = threadIdx.x; i < FILTER_WORDS; i += blockDim.x) filter[i] = filter_g[i];
    for (u32 i = threadIdx.x; i < SET2_WORDS; i += blockDim.x) set2[i] = set2_g[i];
    if (threadIdx.x < SET1_WORDS) set1[threadIdx.x] = set1_g[threadIdx.x];
    __syncthreads();
    const bool any = n >= (u64)minlen;
    const u64 last = any ? n - minlen : 0ull;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        u32 cnt = 0;
        for (int k = 0; k < 4; ++k) {
            const u64 w = tile * TILE_WORDS + (u64)k * 256u + threadIdx.x;
            const u64 base = w * 32u;
            const uint4* p = reinterpret_cast<const uint4*>(text + base);
            const uint4 a = __ldg(p), b = __ldg(p + 1);
            const u32 wd[9] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w,
                               __ldg(reinterpret_cast<const u32*>(text + base + 32u))};
            const u32 valid = valid_mask(base, any, last);
            // First the cheap tests for all 32 positions, then the key and
            // group searches for the filter's candidates only: a warp then
            // runs the slow path as often as its busiest lane has
            // candidates, not at every position some lane has one.
            u32 bits = 0, cand = 0;
            for (int i = 0; i < 8; ++i) {
                for (int r = 0; r < 4; ++r) {
                    const u32 at = 4u * i + r;
                    if (!((valid >> at) & 1u)) continue;
                    const u32 v = r == 0 ? wd[i] : __funnelshift_r(wd[i], wd[i + 1], 8 * r);
                    const u64 rem = n - (base + at);  // >= minlen >= 1: valid
                    bool hit = (classes & 1u) && has_bit(set1, v & 0xffu);
                    hit = hit || ((classes & 2u) && rem >= 2 && has_bit(set2, v & 0xffffu));
                    hit = hit || ((classes & 4u) && rem >= 3 && ((__ldg(set3 + ((v & 0xffffffu) >> 5)) >> (v & 31u)) & 1u));
                    if (hit) bits |= 1u << at;
                    else if ((classes & 8u) && rem >= 4 && has_bit(filter, multi_hash(v))) cand |= 1u << at;
                }
            }
            while (cand) {
                const u32 at = __ffs(cand) - 1u;
                cand &= cand - 1u;
                const u64 pos = base + at;  // pos + 4 <= n: a candidate
                const u32 v = (u32)__ldg(text + pos) | (u32)__ldg(text + pos + 1) << 8 |
                              (u32)__ldg(text + pos + 2) << 16 | (u32)__ldg(text + pos + 3) << 24;
                if (group_longest(text, pos, n, v, keys, slots, slot_log2, first, starts, bytes, links)) bits |= 1u << at;
            }
            bitmap[w] = bits;
            cnt += __popc(bits);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}

// ---------------------------------------------------------------------------
// tally: per-file counts for `-c`, `--count-matches`, `-l`, `-L` and `-q`,
// so that the match offsets stay on the GPU. Input: the bitmap a search
// kernel above left (bm/prefix4 for one literal, multi for a set) over a
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

// ---------------------------------------------------------------------------
// The character-boundary back-read.
//
// In a legacy multi-byte encoding (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK /
// gb18030) a byte search for a transcoded pattern also hits inside
// characters: an ASCII letter is the trail byte of many kanji. This kernel
// runs after a search kernel above and before scan_counts: it clears the
// bitmap bits of candidates that the back-read of
// src/encoding/boundary.rs proves are not character starts, and recounts
// each tile, so false candidates never ship back. It is mirrored line by
// line by `filter` in src/engine/gpu/backread.rs (the simulated pipeline
// runs that; tests/gpu_differential.rs compares the two).
//
// Sound, not exact: a bit is cleared only when the walk decides it; the CPU
// confirms every surviving candidate (start and end) anyway. Only starts
// are checked: a pattern is whole characters, so from a character start
// its end is a character end too.
// ---------------------------------------------------------------------------
// Most bytes the walk back goes before it gives up (backread.rs WALK_CAP).
#define WALK_CAP 4096u
// The lead byte x ASCII trail table: 128 leads (0x80..0xff) x 4 words.
#define PAIR_WORDS 512u

// Scheme ids (backread.rs scheme_id).
#define SHIFT_JIS 0
#define EUC_JP 1
#define EUC_KR 2
#define BIG5 3
#define GB18030 4

// Scheme::is_lead: b may start a multi-byte character.
__device__ __forceinline__ bool is_lead(int scheme, u32 b)
{
    switch (scheme) {
    case SHIFT_JIS: return (b >= 0x81u && b <= 0x9fu) || (b >= 0xe0u && b <= 0xfcu);
    case EUC_JP: return b == 0x8eu || b == 0x8fu || (b >= 0xa1u && b <= 0xfeu);
    default: return b >= 0x81u && b <= 0xfeu;
    }
}

__device__ __forceinline__ bool is_digit(u32 b) { return b - 0x30u < 10u; }

// Scheme::sure_after: after b, whatever came before, the decoder is between
// characters (in gb18030 a digit may be the second byte of four).
__device__ __forceinline__ bool sure_after(int scheme, u32 b)
{
    return !is_lead(scheme, b) && !(scheme == GB18030 && is_digit(b));
}

// Scheme::char_len: the length of the character (or error) at p, the
// decoder being between characters there. Bytes at or past n do not exist
// (the end reads as a line end). p < n.
__device__ __forceinline__ u32 char_len(const unsigned char* __restrict__ text, u64 n, u64 p,
                                        int scheme, const u32* pairs)
{
    const u32 b = __ldg(text + p);
    if (!is_lead(scheme, b) || p + 1 >= n) return 1u;
    const u32 t = __ldg(text + p + 1);
    if (scheme == EUC_JP) {
        if (b == 0x8fu && t >= 0xa1u && t <= 0xfeu) {
            return p + 2 < n && __ldg(text + p + 2) >= 0x80u ? 3u : 2u;
        }
        return t >= 0x80u ? 2u : 1u;
    }
    if (scheme == GB18030 && is_digit(t)) {
        // A complete four-byte shape is one character (or one error of four).
        if (p + 3 < n) {
            const u32 u = __ldg(text + p + 2), v = __ldg(text + p + 3);
            if (u >= 0x81u && u <= 0xfeu && is_digit(v)) return 4u;
        }
        return 1u;
    }
    if (t >= 0x80u) return 2u;
    // b >= 0x81 (a lead in these schemes) and t < 0x80: Scheme::ascii_pair.
    return (pairs[4u * (b - 0x80u) + (t >> 5)] >> (t & 31u)) & 1u ? 2u : 1u;
}

// The walk back from candidate p: *at = just after the nearest byte before p
// that is sure_after, or 0 (the chunk's start). True when *at is known to be
// a character start: false when the chunk's start was reached and is not
// known to be one (a piece that continues a file), or when no sure byte lies
// within WALK_CAP bytes. `fence` is 0, or an earlier candidate whose walk was
// undecided: no sure byte lies before it within reach, so a walk that gets
// back to it without one is undecided too (this bounds a thread's walking
// back to about WALK_CAP bytes, however many candidates it has).
__device__ __forceinline__ bool walk_back(const unsigned char* __restrict__ text, u64 p,
                                          u64 fence, int scheme, int start_is_boundary,
                                          u64* at)
{
    u64 s = p;
    while (s > fence && !sure_after(scheme, __ldg(text + s - 1))) {
        if (p - s == WALK_CAP) return false;
        --s;
    }
    *at = s;
    return s > fence || (s == 0 && start_is_boundary != 0);
}

// ---------------------------------------------------------------------------
// backread: clears candidates that are not character starts, recounts tiles.
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1) exactly;
//   dynamic shared = 0 (static: PAIR_WORDS*4 + 128 bytes).
//   args   = text   (device, n bytes readable; only bytes < n are read)
//            n      (text length, bytes)
//            bitmap (u32[tiles*TILE_WORDS], 16-byte aligned; in: candidate
//                    starts as a search kernel left them, bits >= n zero;
//                    out: the survivors, a subset)
//            counts (u32[tiles], out: set bits per tile after filtering)
//            tiles
//            scheme (0..4: SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GB18030)
//            pairs  (u32[PAIR_WORDS]: for lead 0x80 + l and ASCII t, bit t%32
//                    of word 4*l + t/32 iff the two bytes decode as one
//                    character; Scheme::ascii_pair_words)
//            start_is_boundary (nonzero iff text[0] starts a character)
//   The block copies pairs to shared memory, then walks tiles blockIdx.x,
//   +gridDim.x, ... In a tile, thread t owns bitmap words 4t..4t+3 (one
//   16-byte load; 128 consecutive text bytes) and visits their set bits in
//   ascending order with one walk: the first candidate walks back to a
//   character start (walk_back); every candidate then walks forward from the
//   walk's position character by character (char_len) and its bit is cleared
//   when the walk steps over it. An undecidable walk back keeps the bit; the
//   next candidate walks back afresh, as far as that one (its fence). The
//   thread writes its words back (only when changed) and thread 0 writes
//   counts[tile].
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256)
backread(const unsigned char* __restrict__ text, u64 n, u32* __restrict__ bitmap,
         u32* __restrict__ counts, u64 tiles, int scheme, const u32* __restrict__ pairs_g,
         int start_is_boundary)
{
    __shared__ u32 pairs[PAIR_WORDS];
    __shared__ u32 scratch[MAX_BLOCK / 32];
    for (u32 i = threadIdx.x; i < PAIR_WORDS; i += blockDim.x) pairs[i] = pairs_g[i];
    __syncthreads();
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        uint4* const mine = reinterpret_cast<uint4*>(bitmap + tile * TILE_WORDS) + threadIdx.x;
        const uint4 q = *mine;
        u32 ws[4] = {q.x, q.y, q.z, q.w};
        const u64 base = (tile * TILE_WORDS + 4u * threadIdx.x) * 32u;
        bool known = false;  // `at` is a character start
        u64 at = 0, fence = 0;
        u32 cnt = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            u32 bits = ws[k];
            while (bits) {
                const u32 bit = __ffs(bits) - 1u;
                bits &= bits - 1u;
                const u64 p = base + 32u * k + bit;
                if (p >= n) continue;  // never set by the search kernels
                if (!known) known = walk_back(text, p, fence, scheme, start_is_boundary, &at);
                if (!known) {
                    fence = p;
                    continue;  // undecidable: kept
                }
                while (at < p) at += char_len(text, n, at, scheme, pairs);
                if (at != p) ws[k] &= ~(1u << bit);
            }
            cnt += __popc(ws[k]);
        }
        if (ws[0] != q.x || ws[1] != q.y || ws[2] != q.z || ws[3] != q.w) {
            *mine = make_uint4(ws[0], ws[1], ws[2], ws[3]);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}

// ---------------------------------------------------------------------------
// bm: Boyer-Moore, one text portion per thread.
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (TILE_BYTES / portion, 1, 1) with
//            portion in {32, 64, ..., 1024} (so block is 32..1024 threads);
//   dynamic shared = 256*4 + m*4 + round_up(m, 4) bytes (m <= 4096: 21 KiB at most).
//   args   = text  (as prefix4)   n
//            pat   (device, m bytes, 1 <= m <= 4096)   m
//            bad   (device int[256]: last index of each byte in pat, -1 if absent)
//            gs    (device int[m]: strong good-suffix shifts, gs[j] for a
//                   mismatch at j; gs[0] is also the shift after a full match
//                   (the pattern's period); built and unit-tested on the host,
//                   src/engine/gpu/tables.rs)
//            portion (bytes per thread, a multiple of 32)
//            bitmap (u32[tiles*TILE_WORDS])   counts (u32[tiles])   tiles
//   The block copies bad, gs and pat to shared memory once, then walks tiles
//   blockIdx.x, +gridDim.x, ... In a tile, thread t owns the portion
//   [tile*TILE_BYTES + t*portion, +portion): it runs Boyer-Moore over windows
//   starting in its portion (reading up to m-1 bytes past it: the overlap) and
//   writes the portion's portion/32 bitmap words, each once, in order. A match
//   belongs to the thread whose portion holds its start. Shifts are ints (not
//   capped at 255): max(good-suffix, bad-character), always >= 1.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(1024)
bm(const unsigned char* __restrict__ text, u64 n, const unsigned char* __restrict__ pat_g, u32 m,
   const int* __restrict__ bad_g, const int* __restrict__ gs_g, u32 portion,
   u32* __restrict__ bitmap, u32* __restrict__ counts, u64 tiles)
{
    extern __shared__ int smem[];
    __shared__ u32 scratch[MAX_BLOCK / 32];
    int* bad = smem;
    int* gs = smem + 256;
    unsigned char* pat = reinterpret_cast<unsigned char*>(gs + m);
    for (u32 i = threadIdx.x; i < 256u; i += blockDim.x) bad[i] = bad_g[i];
    for (u32 i = threadIdx.x; i < m; i += blockDim.x) gs[i] = gs_g[i];
    for (u32 i = threadIdx.x; i < m; i += blockDim.x) pat[i] = pat_g[i];
    __syncthreads();

    const bool any = n >= (u64)m;
    const u64 last = any ? n - m : 0ull;
    const u32 words = portion / 32u;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const u64 start = tile * TILE_BYTES + (u64)threadIdx.x * portion;
        u64 stop = start + portion;  // one past the last owned start position
        if (!any) stop = start;
        else if (stop > last + 1) stop = last + 1 > start ? last + 1 : start;
        u64 word_idx = start / 32u;  // next bitmap word to write
        u32 word = 0, cnt = 0;
        u64 i = start;
        while (i < stop) {
            int j = (int)m - 1;
            const unsigned char* t = text + i;
            unsigned char c = __ldg(t + j);
            while (c == pat[j]) {
                if (j == 0) break;
                --j;
                c = __ldg(t + j);
            }
            u64 shift;
            if (j == 0 && c == pat[0]) {
                // match at i
                const u64 wi = i / 32u;
                while (word_idx < wi) {
                    bitmap[word_idx++] = word;
                    cnt += __popc(word);
                    word = 0;
                }
                word |= 1u << (u32)(i % 32u);
                shift = (u64)gs[0];
            } else {
                const int bc = j - bad[c];
                const int g = gs[j];
                shift = (u64)(bc > g ? bc : g);
            }
            i += shift;
        }
        const u64 end_word = start / 32u + words;
        while (word_idx < end_word) {
            bitmap[word_idx++] = word;
            cnt += __popc(word);
            word = 0;
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}

// ---------------------------------------------------------------------------
// scan_counts: exclusive prefix sum of the per-tile match counts.
//
// Launch contract:
//   grid = (1, 1, 1); block = (1024, 1, 1); dynamic shared = 0.
//   args = counts (u32[tiles]), tiles, offsets (u64[tiles], out), total (u64[1], out).
//   Thread t owns the contiguous run of ceil(tiles/1024) counts starting at
//   t*ceil(tiles/1024): it sums them, the block scans the sums, then it writes
//   its run's exclusive prefixes. total[0] = sum of all counts.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(1024)
scan_counts(const u32* __restrict__ counts, u64 tiles, u64* __restrict__ offsets,
            u64* __restrict__ total)
{
    __shared__ u64 scratch[32];
    const u64 per = (tiles + blockDim.x - 1) / blockDim.x;
    const u64 lo = (u64)threadIdx.x * per;
    const u64 hi = lo + per < tiles ? lo + per : tiles;
    u64 sum = 0;
    for (u64 i = lo; i < hi; ++i) sum += counts[i];
    u64 all;
    u64 run = block_exclusive_scan(sum, scratch, &all);
    for (u64 i = lo; i < hi; ++i) {
        offsets[i] = run;
        run += counts[i];
    }
    if (threadIdx.x == 0) total[0] = all;
}

// ---------------------------------------------------------------------------
// compact: bitmap -> ascending match offsets.
//
// Launch contract:
//   grid = (min(tiles, cap), 1, 1); block = (256, 1, 1); dynamic shared = 0.
//   args = bitmap (u32[tiles*TILE_WORDS], 16-byte aligned), offsets (u64[tiles],
//          from scan_counts), tiles, out (u64[total], out).
//   Blocks walk tiles blockIdx.x, +gridDim.x, ... In a tile, thread t owns
//   bitmap words 4t..4t+3 (one 16-byte load); the block scans the threads'
//   popcounts so each thread knows where its first offset goes, then writes
//   its set bits' text offsets in ascending order. Out is written exactly
//   once per match, in ascending order overall.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256)
compact(const u32* __restrict__ bitmap, const u64* __restrict__ offsets, u64 tiles,
        u64* __restrict__ out)
{
    __shared__ u64 scratch[32];
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(bitmap + tile * TILE_WORDS) + threadIdx.x);
        const u32 c = __popc(q.x) + __popc(q.y) + __popc(q.z) + __popc(q.w);
        u64 all;
        u64 pos = offsets[tile] + block_exclusive_scan(c, scratch, &all);
        const u64 wbase = tile * TILE_WORDS + 4u * threadIdx.x;
        const u32 ws[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            u32 bits = ws[k];
            while (bits) {
                const u32 bit = __ffs(bits) - 1u;
                bits &= bits - 1u;
                out[pos++] = (wbase + k) * 32u + bit;
            }
        }
    }
}
