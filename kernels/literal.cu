// One literal: prefix4 (short patterns, and the exact path at any length)
// and bm (Boyer-Moore). Host side: src/engine/gpu/literal.rs; layout and
// helpers: common.cuh.

#include "common.cuh"

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
    __shared__ u32 scratch[256];  // block_sum: one entry a thread (callers' bound 256)
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
    __shared__ u32 scratch[MAX_BLOCK];  // block_sum: one entry a thread
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
