// Many literals in one pass: the `multi` kernel. Host side:
// src/engine/gpu/multi.rs (tables, CPU reference, upload, launch).

#include "multi.cuh"

typedef unsigned short u16;

// Entries of a warp's candidate queue (shared memory: 8 warps x QUEUE x 2
// B; with the tables and won[][], under the 48 KiB of static shared memory).
#define QUEUE 192u

// ---------------------------------------------------------------------------
// multi: many literals in one pass. Patterns of 1, 2 and 3 bytes are exact
// bit sets (1- and 2-byte sets in shared memory, the 3-byte set of 2 MiB in
// global memory, read only where the shared filter holds the 3 bytes'
// multi_hash3); longer patterns are keyed by their first 4 bytes: a hash
// filter of the keys in shared memory, then the key's slot in `probe`,
// then the key's minimal patterns (those no other pattern of the key's
// group is a prefix of: some pattern occurs iff a minimal one does),
// compared a word at a time (why: src/engine/gpu/multi.rs).
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1), at most 64
//   registers a thread so that 4 blocks share an SM;
//   dynamic shared = 0 (the static shared arrays take 47.2 KiB).
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
//            probe (uint4[2 << slot_log2], at most half full (an eighth
//                   below 2^17 keys): key v (the
//                   first 4 bytes of a longer pattern, little-endian) sits
//                   at the first slot from slot_hash(v, slot_log2) on,
//                   wrapping, as {v, count >= 1, at, len} {t0, t1, t2, 0};
//                   an empty slot has count 0; with count 1 and len <= 16
//                   the key's one minimal pattern is len bytes long, its
//                   5th to 16th in t0..t2, as mins holds them)
//                   slot_log2 (1..31)
//            heads (uint2[]: heads[at .. at + count], key v's minimal
//                   patterns in byte order, each as {its 5th to 8th bytes
//                   big-endian, zero-padded; m, where it is in mins})
//            mins (u32[]: at m, a minimal pattern's length, then its bytes
//                  from the 5th on, 4 a word, little-endian, zero-padded)
//            bitmap (u32[tiles*TILE_WORDS])   counts (u32[tiles])   tiles
//   The block copies set1, set2 (with set1 folded in, for the fast path)
//   and the filter to shared memory, then walks tiles like prefix4 (thread
//   t owns words t + 256*k, k = 0..3, writes each once; thread 0 writes
//   counts[tile]); a warp shares its 4 x 32 words' probes out among its
//   lanes (static shared queue and won[4][256]). Bit p is set iff some pattern occurs at p
//   entirely inside the text (p + len <= n), in the text as folded under
//   FOLD_CLASS. Built, and mirrored by a CPU reference, in
//   src/engine/gpu/multi.rs.
// ---------------------------------------------------------------------------

// The cheap tests of the 32 positions of one word whose positions are all
// valid and at least 4 bytes from the text's end (the fast path): no
// branch per position. set2f holds set2 with set1 folded in (a 1-byte
// pattern b matches wherever the 2 bytes start with b), so one lookup
// answers both; THREE and LONG say whether 3-byte and longer patterns
// exist (their filter tests are skipped otherwise). Returns the bits of
// 1- and 2-byte hits; *cand3 and *cand get the filter's candidates.
template <bool THREE, bool LONG>
__device__ __forceinline__ u32 cheap_tests(const u32 (&wd)[9], const u32* set2f, const u32* filter,
                                           u32* cand3, u32* cand)
{
    u32 bits = 0, c3 = 0, c4 = 0;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
#pragma unroll
        for (int r = 0; r < 4; ++r) {
            const u32 at = 4u * i + r;
            const u32 v = r == 0 ? wd[i] : __funnelshift_r(wd[i], wd[i + 1], 8 * r);
            bits |= ((set2f[(v >> 5) & 0x7ffu] >> (v & 31u)) & 1u) << at;
            if (THREE) {
                const u32 h = multi_hash3(v & 0xffffffu);
                c3 |= ((filter[h >> 5] >> (h & 31u)) & 1u) << at;
            }
            if (LONG) {
                const u32 h = multi_hash(v);
                c4 |= ((filter[h >> 5] >> (h & 31u)) & 1u) << at;
            }
        }
    }
    *cand3 = c3 & ~bits;
    *cand = c4;
    return bits;
}

// Whether the minimal pattern at mins[m] (its length, then its bytes from
// the 5th on) occurs at pos, whose text words from the 5th byte on are
// aligned[1..] shifted right by sh bits (low: aligned[1], folded).
__device__ __forceinline__ bool minimal_occurs(const u32* __restrict__ aligned, u32 sh, u32 low,
                                               u64 pos, u64 n, const u32* __restrict__ mins,
                                               u32 m, u32 fold)
{
    const u32 len = __ldg(mins + m);
    if (pos + len > n) return false;
    const u32 words = (len - 1u) >> 2;  // ceil((len - 4) / 4)
    for (u32 j = 0; j < words; ++j) {
        const u32 high = fold4(__ldg(aligned + 2 + j), fold);
        const u32 left = len - 4u - 4u * j;  // bytes of the pattern left, >= 1
        const u32 keep = left >= 4u ? 0xffffffffu : (1u << (8u * left)) - 1u;
        if ((__funnelshift_r(low, high, sh) ^ __ldg(mins + m + 1 + j)) & keep) return false;
        low = high;
    }
    return true;
}

// Whether a pattern of 4 bytes or more starts the text at pos (pos + 4 <=
// n; folded with fold): the slot of the text's first 4 bytes in `probe`
// (two uint4 a slot). A key with one minimal pattern of at most 16 bytes
// holds it in its slot: one compare. Otherwise, among the key's minimal
// patterns (`heads`, in byte order) the last whose head is not above the
// text's 5th to 8th bytes (big-endian), by a binary search; then, walking
// back, each with the text's head and the one before them, compared in
// full (multi.rs `long_starts` says why that is exact). The text's words
// are read 4-aligned and shifted into place; the text is padded past n.
__device__ __forceinline__ bool minimal_starts(const unsigned char* __restrict__ text, u64 pos,
                                               u64 n, const uint4* __restrict__ probe,
                                               u32 slot_log2, const uint2* __restrict__ heads,
                                               const u32* __restrict__ mins, u32 fold)
{
    const u32* aligned = reinterpret_cast<const u32*>(text + (pos & ~3ull));
    const u32 sh = 8u * (u32)(pos & 3u);
    const u32 w1 = fold4(__ldg(aligned + 1), fold);
    const u32 v = __funnelshift_r(fold4(__ldg(aligned), fold), w1, sh);
    const u32 mask = (1u << slot_log2) - 1u;
    uint4 s;
    u32 h = slot_hash(v, slot_log2);
    for (;; h = (h + 1u) & mask) {
        s = __ldg(probe + 2u * h);
        if (s.y == 0) return false;
        if (s.x == v) break;
    }
    const u32 w2 = fold4(__ldg(aligned + 2), fold);
    if (s.y == 1u && s.w <= 16u) {
        // The one minimal pattern, in the slot: s.w bytes, its 5th to
        // 16th in t.x, t.y, t.z (zero-padded).
        if (pos + s.w > n) return false;
        const uint4 t = __ldg(probe + 2u * h + 1u);
        const u32 left = s.w - 4u;  // 0..12
        const u32 keep0 = left >= 4u ? 0xffffffffu : (1u << (8u * left)) - 1u;
        if ((__funnelshift_r(w1, w2, sh) ^ t.x) & keep0) return false;
        if (left <= 4u) return true;
        const u32 w3 = fold4(__ldg(aligned + 3), fold);
        const u32 keep1 = left >= 8u ? 0xffffffffu : (1u << (8u * (left - 4u))) - 1u;
        if ((__funnelshift_r(w2, w3, sh) ^ t.y) & keep1) return false;
        if (left <= 8u) return true;
        const u32 w4 = fold4(__ldg(aligned + 4), fold);
        const u32 keep2 = left >= 12u ? 0xffffffffu : (1u << (8u * (left - 8u))) - 1u;
        return ((__funnelshift_r(w3, w4, sh) ^ t.z) & keep2) == 0;
    }
    const u32 head = __byte_perm(__funnelshift_r(w1, w2, sh), 0, 0x0123);
    u32 lo = s.z, hi = s.z + s.y;
    while (lo < hi) {
        const u32 mid = (lo + hi) >> 1;
        if (__ldg(&heads[mid].x) <= head) lo = mid + 1u;
        else hi = mid;
    }
    while (lo > s.z) {
        const uint2 e = __ldg(heads + --lo);
        if (minimal_occurs(aligned, sh, w1, pos, n, mins, e.y, fold)) return true;
        if (e.x < head) return false;
    }
    return false;
}

// The exclusive prefix sum of v over the warp's lanes (every lane calls
// it); *total gets the warp's sum.
__device__ __forceinline__ u32 warp_exclusive(u32 v, u32 lane, u32* total)
{
    u32 incl = v;
    for (int o = 1; o < 32; o <<= 1) {
        const u32 up = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= (u32)o) incl += up;
    }
    *total = __shfl_sync(0xffffffffu, incl, 31);
    return incl - v;
}

// The probes of the candidates of words k0..k1-1 of the tile (cwK: the
// thread's candidates in its word K, read for K in that range), shared by
// the warp: its lanes list them in `q` (a lane's from its exclusive count
// on, as k << 10 | owner << 5 | bit), then lane j probes entries j, j + 32,
// ..., so a warp runs ceil(candidates / 32) rounds, not as many as its
// busiest lane has (dense logs: ~11 of 32 lanes were active); past QUEUE
// candidates, in batches. Finds are ORed into won[k][owner's thread].
__device__ __forceinline__ void probe_words(const unsigned char* __restrict__ text, u64 n,
                                            const uint4* __restrict__ probe, u32 slot_log2,
                                            const uint2* __restrict__ heads,
                                            const u32* __restrict__ mins, u32 fold, u64 tile,
                                            u32 lane, u16* q, u32 (*won)[256], u32 k0, u32 k1,
                                            u32 cw0, u32 cw1, u32 cw2, u32 cw3)
{
    // The candidates of word k (selects: an array indexed at run time
    // would live in local memory).
    auto cand = [&](u32 k) { return k == 0 ? cw0 : k == 1 ? cw1 : k == 2 ? cw2 : cw3; };
    u32 mine = 0;
    for (u32 k = k0; k < k1; ++k) mine += __popc(cand(k));
    u32 queued;
    const u32 excl = warp_exclusive(mine, lane, &queued);
    for (u32 batch = 0; batch < queued; batch += QUEUE) {
        u32 j = excl;
        for (u32 k = k0; k < k1; ++k) {
            for (u32 c = cand(k); c && j < batch + QUEUE; c &= c - 1u, ++j) {
                if (j >= batch) q[j - batch] = (u16)(k << 10 | lane << 5 | (__ffs(c) - 1u));
            }
        }
        __syncwarp();
        const u32 listed = min(queued - batch, QUEUE);
        for (u32 e = lane; e < listed; e += 32u) {
            const u32 k = q[e] >> 10, owner = (q[e] >> 5) & 31u, at = q[e] & 31u;
            const u32 t = threadIdx.x - lane + owner;
            const u64 pos = (tile * TILE_WORDS + k * 256u + t) * 32u + at;  // pos + 4 <= n: a candidate
            if (minimal_starts(text, pos, n, probe, slot_log2, heads, mins, fold))
                atomicOr(&won[k][t], 1u << at);
        }
        __syncwarp();
    }
}

extern "C" __global__ void __launch_bounds__(256, 4)
multi(const unsigned char* __restrict__ text, u64 n, u32 classes, u32 minlen,
      const u32* __restrict__ set1_g, const u32* __restrict__ set2_g,
      const u32* __restrict__ set3, const u32* __restrict__ filter_g,
      const uint4* __restrict__ probe, u32 slot_log2, const uint2* __restrict__ heads,
      const u32* __restrict__ mins, u32* __restrict__ bitmap, u32* __restrict__ counts, u64 tiles)
{
    __shared__ u32 filter[FILTER_WORDS];
    __shared__ u32 set2f[SET2_WORDS];  // set2 | set1 folded in (cheap_tests)
    __shared__ u32 set1[SET1_WORDS];
    __shared__ u32 won[4][256];  // thread t's 4 words' bits, finds added
    __shared__ u16 queue[8][QUEUE];  // each warp's candidates to probe
    for (u32 i = threadIdx.x; i < FILTER_WORDS; i += blockDim.x) filter[i] = filter_g[i];
    // Word i of set2 holds the pairs whose first byte is 32 * (i % 8) + j
    // at bit j: set1's word i % 8 marks the 1-byte patterns among them.
    for (u32 i = threadIdx.x; i < SET2_WORDS; i += blockDim.x)
        set2f[i] = set2_g[i] | ((classes & 1u) ? set1_g[i & 7u] : 0u);
    if (threadIdx.x < SET1_WORDS) set1[threadIdx.x] = set1_g[threadIdx.x];
    __syncthreads();
    const u32 fold = fold_mask(classes);
    const bool any = n >= (u64)minlen;
    const u64 last = any ? n - minlen : 0ull;
    const bool three = (classes & 4u) != 0, longer = (classes & 8u) != 0;
    const u32 lane = threadIdx.x & 31u;
    u16* q = queue[threadIdx.x >> 5];
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        // The cheap tests of the thread's 4 words (their bits go to
        // won[k]), each word's probes right after them; or, where the
        // warp's first word had few candidates (up to QUEUE / 2: 1,000
        // words, ~40 a 32 words, whose two rounds a word left the second
        // mostly idle; not 10,000, ~120), the 4 words' probes together at
        // the end, in ceil(candidates / 32) rounds.
        u32 cw0 = 0, cw1 = 0, cw2 = 0, cw3 = 0;  // candidates of word k
        bool together = false;
        for (u32 k = 0; k < 4; ++k) {
            const u64 w = tile * TILE_WORDS + (u64)k * 256u + threadIdx.x;
            const u64 base = w * 32u;
            const uint4* p = reinterpret_cast<const uint4*>(text + base);
            const uint4 a = __ldg(p), b = __ldg(p + 1);
            const u32 wd[9] = {fold4(a.x, fold), fold4(a.y, fold), fold4(a.z, fold),
                               fold4(a.w, fold), fold4(b.x, fold), fold4(b.y, fold),
                               fold4(b.z, fold), fold4(b.w, fold),
                               fold4(__ldg(reinterpret_cast<const u32*>(text + base + 32u)), fold)};
            const u32 valid = valid_mask(base, any, last);
            u32 bits = 0, cand3 = 0, c = 0;
            if (valid == 0xffffffffu && base + 36u <= n) {
                if (three && longer) bits = cheap_tests<true, true>(wd, set2f, filter, &cand3, &c);
                else if (longer) bits = cheap_tests<false, true>(wd, set2f, filter, &cand3, &c);
                else if (three) bits = cheap_tests<true, false>(wd, set2f, filter, &cand3, &c);
                else bits = cheap_tests<false, false>(wd, set2f, filter, &cand3, &c);
            } else {
                // Near the text's end: position by position, each test
                // only where its pattern fits.
                for (int i = 0; i < 8; ++i) {
                    for (int r = 0; r < 4; ++r) {
                        const u32 at = 4u * i + r;
                        if (!((valid >> at) & 1u)) continue;
                        const u32 v = r == 0 ? wd[i] : __funnelshift_r(wd[i], wd[i + 1], 8 * r);
                        const u64 rem = n - (base + at);  // >= minlen >= 1: valid
                        bool hit = (classes & 1u) && has_bit(set1, v & 0xffu);
                        hit = hit || ((classes & 2u) && rem >= 2 && has_bit(set2_g, v & 0xffffu));
                        if (hit) {
                            bits |= 1u << at;
                            continue;
                        }
                        if (three && rem >= 3 && has_bit(filter, multi_hash3(v & 0xffffffu))) cand3 |= 1u << at;
                        if (longer && rem >= 4 && has_bit(filter, multi_hash(v))) c |= 1u << at;
                    }
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
            c &= ~bits;
            won[k][threadIdx.x] = bits;
            if (k == 0) {
                u32 first;
                warp_exclusive(__popc(c), lane, &first);
                together = first <= QUEUE / 2u;
            }
            cw0 = k == 0 ? c : cw0;
            cw1 = k == 1 ? c : cw1;
            cw2 = k == 2 ? c : cw2;
            cw3 = k == 3 ? c : cw3;
            if (!together)
                probe_words(text, n, probe, slot_log2, heads, mins, fold, tile, lane, q, won, k, k + 1,
                            cw0, cw1, cw2, cw3);
        }
        if (together)
            probe_words(text, n, probe, slot_log2, heads, mins, fold, tile, lane, q, won, 0, 4, cw0,
                        cw1, cw2, cw3);
        __syncwarp();
        u32 cnt = 0;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const u32 bits = won[k][threadIdx.x];
            bitmap[tile * TILE_WORDS + (u64)k * 256u + threadIdx.x] = bits;
            cnt += __popc(bits);
        }
        // won[0] is block_sum's scratch (48 KiB of static shared memory
        // hold no more): each thread has read its own entry, and won[] is
        // written again only after block_sum's last barrier.
        const u32 total = block_sum(cnt, won[0]);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}
