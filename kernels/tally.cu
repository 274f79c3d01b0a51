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
//          (classes, set1 (read for -w only), set2, set3, keys, slots, slot_log2, first, pstarts,
//          bytes, links; with FOLD_CLASS in classes the text is read
//          ASCII-lowered wherever it meets those tables, as by multi:
//          as uploaded for the `multi` launch that set the bits; a set bit
//          no longer pattern explains is a 1-byte pattern's). Read only
//          with chain = 1 or select > 0; unread when fixed > 0 (null
//          pointers allowed).
//          select: which matches select a line: 0 any; 1 (-w) a match
//          with no ASCII word character beside it, the line's match
//          starts tried in turn and at each its patterns longest first
//          (word_at), a byte >= 0x80 beside one tried setting flags[k]; 2 (-x) the line's first match, at the line's
//          start, whose length (fixed, or the longest pattern there) ends
//          at the line's end.
//          total: 1 also counts every file's lines (for -v).
//          counts: 4 * pieces u32 and gave_up: one u32, zeroed before.
//   counts[k] = lines of file k holding a set bit: a bit counts when,
//   walking back from it, the file's start or a terminator comes before
//   another set bit. counts[pieces + k] = with chain 0, the set bits in
//   file k; with chain 1, the matches as grep -o counts them (leftmost,
//   longest at a position): the thread holding a line's first bit walks
//   the line, from each match to the first set bit at or after its end.
//   With select 1 or 2, counts[k] counts only the lines so selected.
//   counts[2 * pieces + k] = with total 1, the lines of file k: bytes in it
//   that are the terminator, plus 1 if its last byte is not. counts[3 *
//   pieces + k] = 1 when -w met a byte >= 0x80 beside a match (the host
//   leaves file k to the CPU).
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
    const u32 fold = fold_mask(classes);
    u32 len = 0;
    if ((classes & 8u) && rem >= 4) {
        const u32 v = fold4((u32)text[at] | (u32)text[at + 1] << 8 | (u32)text[at + 2] << 16 |
                            (u32)text[at + 3] << 24, fold);
        len = group_longest(text, at, n, v, keys, slots, slot_log2, first, pstarts, bytes, links, fold);
    }
    const u32 v3 = fold4((u32)text[at] | (rem >= 2 ? (u32)text[at + 1] << 8 : 0u) |
                         (rem >= 3 ? (u32)text[at + 2] << 16 : 0u), fold);
    if (len == 0 && (classes & 4u) && rem >= 3 && has_bit(set3, v3)) len = 3;
    if (len == 0 && (classes & 2u) && rem >= 2 && has_bit(set2, v3 & 0xffffu)) len = 2;
    return len == 0 ? 1u : len;
}

__device__ __forceinline__ bool ascii_word(u32 b)
{
    return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
}

// -w after a match start whose byte before is no word character: the
// match ending at `end` (file k ends at e) is a word (1) unless the byte
// at `end` is a word character (0); 2: that byte is not ASCII.
__device__ __forceinline__ u32 word_end(const unsigned char* __restrict__ text, u64 end, u64 e)
{
    const u32 after = end < e ? text[end] : ' ';
    return after >= 0x80u ? 2u : ascii_word(after) ? 0u : 1u;
}

// -w at a set bit q of file [s, e): 1 when a pattern occurring at q has no
// word character on either side, 0 when none, 2 when a byte tried is not
// ASCII (the byte before q, or after a pattern tried first). Patterns are
// tried longest first: one literal (fixed), else the set's patterns of 4
// bytes or more (the longest occurring, then its chain of prefixes), then
// those of 3, 2 and 1 bytes.
__device__ __forceinline__ u32 word_at(const unsigned char* __restrict__ text, u64 n, u64 q, u64 s,
                                       u64 e, u32 fixed, u32 classes,
                                       const u32* __restrict__ set1, const u32* __restrict__ set2,
                                       const u32* __restrict__ set3, const u32* __restrict__ keys,
                                       const u32* __restrict__ slots, u32 slot_log2,
                                       const u32* __restrict__ first,
                                       const u32* __restrict__ pstarts,
                                       const unsigned char* __restrict__ bytes,
                                       const u32* __restrict__ links)
{
    const u32 before = q > s ? text[q - 1] : ' ';
    if (before >= 0x80u) return 2u;
    if (ascii_word(before)) return 0u;
    if (fixed) return word_end(text, q + fixed, e);
    const u64 rem = n - q;
    const u32 fold = fold_mask(classes);
    const u32 v = fold4((u32)text[q] | (rem >= 2 ? (u32)text[q + 1] << 8 : 0u) |
                        (rem >= 3 ? (u32)text[q + 2] << 16 : 0u) | (rem >= 4 ? (u32)text[q + 3] << 24 : 0u), fold);
    if ((classes & 8u) && rem >= 4) {
        // group_longest (multi.cuh), going on down the chain.
        const u32 mask = (1u << slot_log2) - 1u;
        u32 lo = NO_LINK;
        for (u32 h = slot_hash(v, slot_log2);; h = (h + 1u) & mask) {
            lo = __ldg(slots + h);
            if (lo == NO_LINK) break;
            if (__ldg(keys + lo) == v) break;
        }
        if (lo != NO_LINK) {
            const u32 a = __ldg(first + lo);
            u32 l = a, h = __ldg(first + lo + 1);
            while (l < h) {
                const u32 mid = (l + h) >> 1;
                const u32 st = __ldg(pstarts + mid);
                if (not_above(text, q, n, bytes + st, __ldg(pstarts + mid + 1) - st, fold)) l = mid + 1;
                else h = mid;
            }
            bool occurs = false;
            for (u32 pk = l > a ? l - 1 : NO_LINK; pk != NO_LINK; pk = __ldg(links + pk)) {
                const u32 st = __ldg(pstarts + pk), len = __ldg(pstarts + pk + 1) - st;
                // Once one occurs, its prefixes on the chain do too.
                occurs = occurs || (q + len <= n && equal_tail_folded(text + q + 4, bytes + st + 4, len - 4, fold));
                if (!occurs) continue;
                const u32 w = word_end(text, q + len, e);
                if (w) return w;
            }
        }
    }
    if ((classes & 4u) && rem >= 3 && has_bit(set3, v & 0xffffffu)) {
        const u32 w = word_end(text, q + 3, e);
        if (w) return w;
    }
    if ((classes & 2u) && rem >= 2 && has_bit(set2, v & 0xffffu)) {
        const u32 w = word_end(text, q + 2, e);
        if (w) return w;
    }
    if ((classes & 1u) && has_bit(set1, v & 0xffu)) return word_end(text, q + 1, e);
    return 0u;
}

// The file holding byte p: the last k with starts[k] <= p, plus 1 (0: none).
__device__ __forceinline__ u32 file_after(const u64* __restrict__ starts, u32 pieces, u64 p)
{
    u32 lo = 0, hi = pieces;
    while (lo < hi) {
        const u32 mid = (lo + hi) / 2;
        if (starts[mid] <= p) lo = mid + 1; else hi = mid;
    }
    return lo;
}

extern "C" __global__ void __launch_bounds__(256)
tally(const unsigned char* __restrict__ text, u64 n, const u32* __restrict__ bitmap,
      const u64* __restrict__ starts, const u64* __restrict__ ends, u32 pieces, u32 term,
      u32 reach, u32 chain, u32 fixed, u32 classes, const u32* __restrict__ set1,
      const u32* __restrict__ set2,
      const u32* __restrict__ set3, const u32* __restrict__ keys,
      const u32* __restrict__ slots, u32 slot_log2,
      const u32* __restrict__ first, const u32* __restrict__ pstarts,
      const unsigned char* __restrict__ bytes, const u32* __restrict__ links, u32 select,
      u32 total, u32* counts, u32* gave_up)
{
    const u64 words = (n + 31) / 32;
    const u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 w = (u64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
        if (total) {
            // The lines of this word's 32 bytes, per file, one atomic per
            // file met.
            const u64 end = w * 32 + 32 < n ? w * 32 + 32 : n;
            u32 k1 = file_after(starts, pieces, w * 32);
            u32 lines = 0;
            for (u64 q = w * 32; q < end; ++q) {
                while (k1 < pieces && starts[k1] <= q) {
                    if (lines) atomicAdd(&counts[2 * pieces + k1 - 1], lines);
                    lines = 0;
                    ++k1;
                }
                if (k1 == 0 || q >= ends[k1 - 1]) continue;
                lines += text[q] == (unsigned char)term || q + 1 == ends[k1 - 1];
            }
            if (lines) atomicAdd(&counts[2 * pieces + k1 - 1], lines);
        }
        u32 bits = bitmap[w];
        while (bits) {
            const u32 b = __ffs(bits) - 1;
            bits &= bits - 1;
            const u64 p = w * 32 + b;
            const u32 lo = file_after(starts, pieces, p);
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
            if (select == 2) {
                // -x: the line's first match, from its start to its end.
                const u64 end = p + (fixed ? fixed
                                           : longest_at(text, n, p, classes, set2, set3, keys, slots,
                                                        slot_log2, first, pstarts, bytes, links));
                const bool starts_line = p == s || text[p - 1] == (unsigned char)term;
                const bool ends_line = end == e || text[end] == (unsigned char)term;
                if (starts_line && ends_line) atomicAdd(&counts[k], 1u);
                continue;
            }
            if (select == 1) {
                // -w: the line's match starts in turn, until one is a word.
                u64 at = p;
                walked = 0;
                for (;;) {
                    const u32 w = word_at(text, n, at, s, e, fixed, classes, set1, set2, set3, keys,
                                          slots, slot_log2, first, pstarts, bytes, links);
                    if (w == 2) {
                        atomicExch(&counts[3 * pieces + k], 1u);
                        break;
                    }
                    if (w == 1) {
                        atomicAdd(&counts[k], 1u);
                        break;
                    }
                    u64 q = at + 1;
                    bool next = false;
                    while (q < e && text[q] != (unsigned char)term) {
                        if (bit_at(bitmap, q)) { next = true; break; }
                        if (++walked > reach) { atomicExch(gave_up, 1u); break; }
                        ++q;
                    }
                    if (!next) break;
                    at = q;
                }
                continue;
            }
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
// count_terminators: the line terminators in each block of LINE_BLOCK bytes
// of the resident text, for `-n`: a file cut into split pieces numbers each
// piece's first line from these counts (src/run/gpu/lines.rs) rather than
// by reading the piece's bytes once more on the CPU.
//
// Launch contract:
//   grid = (ceil(n / block_bytes), 1, 1); block = (256, 1, 1); dynamic
//   shared = 0.
//   args = text: the chunk's n bytes, 16-byte aligned (the device text
//          buffer); block_bytes: a multiple of 16; term: the terminator;
//          out: one u32 per block.
//   out[b] = the bytes equal to term in text[b * block_bytes, min(n,
//   (b + 1) * block_bytes)). Bytes past n are never counted (the zeroed
//   tail would count as terminators under -z).
// ---------------------------------------------------------------------------
extern "C" __global__ void count_terminators(const unsigned char* __restrict__ text, u64 n,
                                             u32 block_bytes, u32 term, u32* __restrict__ out)
{
    __shared__ u32 scratch[MAX_BLOCK / 32];
    const u64 start = (u64)blockIdx.x * block_bytes;
    const u64 end = start + block_bytes < n ? start + block_bytes : n;
    const u64 whole = start + ((end - start) & ~(u64)15);
    const u32 pattern = (term & 0xffu) * 0x01010101u;
    u32 found = 0;
    for (u64 at = start + 16ull * threadIdx.x; at < whole; at += 16ull * blockDim.x) {
        const uint4 v = *reinterpret_cast<const uint4*>(text + at);
        // __vcmpeq4 sets a byte to 0xff where the bytes are equal.
        found += (__popc(__vcmpeq4(v.x, pattern)) + __popc(__vcmpeq4(v.y, pattern)) +
                  __popc(__vcmpeq4(v.z, pattern)) + __popc(__vcmpeq4(v.w, pattern))) >> 3;
    }
    if (threadIdx.x < end - whole) found += text[whole + threadIdx.x] == (unsigned char)term;
    const u32 total = block_sum(found, scratch);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
