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
// How: a thread takes a bitmap word and its 32 text bytes; the walk back
// from a bit to its line's start goes a word at a time (terminator masks
// against the bitmap's words), and the counts go to a thread's running
// total per file, added warp by warp (one atomic a warp and counter,
// usually): with 10,000 words over prose, one atomic a set bit on a
// file's counter made the tally five times the search kernel's time
// (session 26's --stats, 16 GiB: 3.6 s against 0.7 s over 4 streams).
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

// -w after a match start whose byte before is no word character: the
// match ending at `end` (file k ends at e) is a word (1) unless the byte
// at `end` is a word character (0); 2: that byte is not ASCII.
__device__ __forceinline__ u32 word_end(const unsigned char* __restrict__ text, u64 end, u64 e)
{
    const u32 after = end < e ? text[end] : ' ';
    return after >= 0x80u ? 2u : is_word_byte(after) ? 0u : 1u;
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
    if (is_word_byte(before)) return 0u;
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

// The top bit of each of x's 4 bytes, in bits 4j to 4j + 3: the multiply
// gathers them into bits 28-31 (no two partial products meet).
__device__ __forceinline__ u32 top_bits4(u32 x, int j)
{
    return ((x & 0x80808080u) * 0x00204081u) >> (28 - 4 * j) & (0xfu << (4 * j));
}

// The bytes of bitmap word w's 32 text bytes equal to term, as a mask (bit
// i: byte 32w + i); bytes at or past n (the zeroed tail) never count.
// text is 16-byte aligned and holds whole tiles.
__device__ __forceinline__ u32 term_mask(const unsigned char* __restrict__ text, u64 n, u64 w,
                                         u32 term)
{
    const uint4* at = reinterpret_cast<const uint4*>(text + w * 32);
    const uint4 a = at[0], b = at[1];
    const u32 pat = (term & 0xffu) * 0x01010101u;
    // __vcmpeq4 sets a byte to 0xff where equal.
    auto eq = [&](u32 x, int j) { return top_bits4(__vcmpeq4(x, pat), j); };
    const u32 m = eq(a.x, 0) | eq(a.y, 1) | eq(a.z, 2) | eq(a.w, 3) | eq(b.x, 4) | eq(b.y, 5) |
                  eq(b.z, 6) | eq(b.w, 7);
    return w * 32 + 32 <= n ? m : m & ((1u << (u32)(n - w * 32)) - 1u);
}

// Bits at and above i (0 <= i <= 32).
__device__ __forceinline__ u32 from_bit(u64 i)
{
    return i >= 32 ? 0u : ~0u << (u32)i;
}

// Whether the set bit at p = 32w + i (file [s, e) holding it; bitword and
// tmask its word's bits and term_mask) is its line's first: walking back,
// the file's start or a terminator comes before another set bit. A word at
// a time; the bytes walked are those between p and the stop (or s) that
// are neither, and more than `reach` of them set *gave_up (then false), as
// the byte-wise walk of Tally::reference does.
__device__ __forceinline__ bool first_in_line(const unsigned char* __restrict__ text, u64 n,
                                              const u32* __restrict__ bitmap, u64 w, u32 i,
                                              u32 bitword, u32 tmask, u64 s, u32 term, u32 reach,
                                              u32* gave_up)
{
    u64 walked = 0;
    u32 limit = i;  // positions below limit in word v are before p
    for (u64 v = w;; --v) {
        const u32 bits = v == w ? bitword : bitmap[v];
        const u32 terms = v == w ? tmask : term_mask(text, n, v, term);
        const u32 in_file = s > v * 32 ? from_bit(s - v * 32) : ~0u;
        const u32 before = limit >= 32 ? ~0u : (1u << limit) - 1u;
        const u32 stop = (bits | terms) & in_file & before;
        if (stop) {
            const u32 hb = 31 - __clz(stop);
            walked += limit - 1 - hb;
            if (walked > reach) break;
            return (terms >> hb) & 1u;
        }
        walked += limit - (s > v * 32 ? (u32)(s - v * 32) : 0u);
        if (walked > reach) break;
        if (s >= v * 32) return true;  // the file's start
        limit = 32;
    }
    atomicExch(gave_up, 1u);
    return false;
}

#define NO_POS 0xffffffffffffffffull

// The first set bit at or after q in its line (the file ends at e), or
// NO_POS where the line or the file ends first; the bytes walked past add
// to *walked, and more than `reach` of them set *gave_up (then NO_POS).
__device__ __forceinline__ u64 next_in_line(const unsigned char* __restrict__ text,
                                            const u32* __restrict__ bitmap, u64 q, u64 e,
                                            u32 term, u32 reach, u32* walked, u32* gave_up)
{
    for (; q < e && text[q] != (unsigned char)term; ++q) {
        if (bit_at(bitmap, q)) return q;
        if (++*walked > reach) {
            atomicExch(gave_up, 1u);
            return NO_POS;
        }
    }
    return NO_POS;
}

// A thread's counts for one file, added to the per-file counters when the
// file changes (switch_file) and warp by warp at the end of each word (flush_warp):
// dense matches hit a few counters millions of times, and one atomic a
// warp in place of one a bit keeps them from queueing at one address.
struct Counts {
    u32 k, lines, matches, total;
};

__device__ __forceinline__ void flush_one(u32* counts, u32 pieces, const Counts& c)
{
    if (c.lines) atomicAdd(&counts[c.k], c.lines);
    if (c.matches) atomicAdd(&counts[pieces + c.k], c.matches);
    if (c.total) atomicAdd(&counts[2 * pieces + c.k], c.total);
}

__device__ __forceinline__ void switch_file(u32* counts, u32 pieces, Counts& c, u32 k)
{
    if (c.k == k) return;
    flush_one(counts, pieces, c);
    c = Counts{k, 0u, 0u, 0u};
}

// Every lane of the warp calls it. Lanes holding counts for one file (the
// usual case: a warp covers 1 KiB of text) add them with one atomic each.
__device__ __forceinline__ void flush_warp(u32* counts, u32 pieces, Counts& c)
{
    const u32 busy = __ballot_sync(0xffffffffu, (c.lines | c.matches | c.total) != 0u);
    if (busy == 0) return;
    const u32 k = __shfl_sync(0xffffffffu, c.k, __ffs(busy) - 1);
    const bool idle = (c.lines | c.matches | c.total) == 0u;
    if (__all_sync(0xffffffffu, idle || c.k == k)) {
        u32 lines = c.lines, matches = c.matches, total = c.total;
        for (int o = 16; o > 0; o >>= 1) {
            lines += __shfl_down_sync(0xffffffffu, lines, o);
            matches += __shfl_down_sync(0xffffffffu, matches, o);
            total += __shfl_down_sync(0xffffffffu, total, o);
        }
        if ((threadIdx.x & 31u) == 0) flush_one(counts, pieces, Counts{k, lines, matches, total});
    } else {
        flush_one(counts, pieces, c);
    }
    c.lines = c.matches = c.total = 0u;
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
    Counts c{0u, 0u, 0u, 0u};
    // The loop runs warp-uniform (flush_warp's shuffles): lanes past the
    // last word take no part but the flush.
    for (u64 base = (u64)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < words;
         base += stride) {
        const u64 w = base + (threadIdx.x & 31u);
        const u32 bitword = w < words ? bitmap[w] : 0u;
        if (w < words && (bitword || total)) {
            const u32 tmask = term_mask(text, n, w, term);
            const u64 wend = w * 32 + 32 < n ? w * 32 + 32 : n;
            u32 kf = file_after(starts, pieces, w * 32);
            if (total) {
                // The lines of each file in this word's bytes: its
                // terminators, and its last byte whatever it is.
                for (u32 k = kf ? kf - 1 : 0; k < pieces && starts[k] < wend; ++k) {
                    const u64 lo = starts[k] > w * 32 ? starts[k] : w * 32;
                    const u64 hi = ends[k] < wend ? ends[k] : wend;
                    if (lo >= hi) continue;
                    const u32 in = from_bit(lo - w * 32) & ~from_bit(hi - w * 32);
                    const bool last = hi == ends[k];
                    const u32 lines = __popc(tmask & in & ~(last ? 1u << (u32)(hi - 1 - w * 32) : 0u)) + last;
                    if (lines) {
                        switch_file(counts, pieces, c, k);
                        c.total += lines;
                    }
                }
            }
            u32 bits = bitword;
            while (bits) {
                const u32 b = __ffs(bits) - 1;
                bits &= bits - 1;
                const u64 p = w * 32 + b;
                while (kf < pieces && starts[kf] <= p) ++kf;
                if (kf == 0) continue;
                const u32 k = kf - 1;
                const u64 s = starts[k], e = ends[k];
                if (p >= e) continue;
                switch_file(counts, pieces, c, k);
                if (!chain) ++c.matches;
                // Only the line's first bit goes on.
                if (!first_in_line(text, n, bitmap, w, b, bitword, tmask, s, term, reach, gave_up)) continue;
                if (select == 2) {
                    // -x: the line's first match, from its start to its end.
                    const u64 end = p + (fixed ? fixed
                                               : longest_at(text, n, p, classes, set2, set3, keys, slots,
                                                            slot_log2, first, pstarts, bytes, links));
                    const bool starts_line = p == s || text[p - 1] == (unsigned char)term;
                    const bool ends_line = end == e || text[end] == (unsigned char)term;
                    c.lines += starts_line && ends_line;
                    continue;
                }
                u32 walked = 0;
                if (select == 1) {
                    // -w: the line's match starts in turn, until one is a word.
                    u64 at = p;
                    for (;;) {
                        const u32 wd = word_at(text, n, at, s, e, fixed, classes, set1, set2, set3, keys,
                                               slots, slot_log2, first, pstarts, bytes, links);
                        if (wd == 2) {
                            atomicExch(&counts[3 * pieces + k], 1u);
                            break;
                        }
                        if (wd == 1) {
                            ++c.lines;
                            break;
                        }
                        at = next_in_line(text, bitmap, at + 1, e, term, reach, &walked, gave_up);
                        if (at == NO_POS) break;
                    }
                    continue;
                }
                ++c.lines;
                if (!chain) continue;
                u64 at = p;
                for (;;) {
                    ++c.matches;
                    const u32 len = fixed ? fixed
                                          : longest_at(text, n, at, classes, set2, set3, keys, slots, slot_log2,
                                                       first, pstarts, bytes, links);
                    // The next match starts at or after this one's end, in the line.
                    at = next_in_line(text, bitmap, at + len, e, term, reach, &walked, gave_up);
                    if (at == NO_POS) break;
                }
            }
        }
        flush_warp(counts, pieces, c);
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
//   (b + 1) * block_bytes)), at most block_bytes (< 2^31), with bit 31
//   (HOLDS_NUL) set where those bytes hold a NUL and term is not NUL: a
//   file whose blocks hold none needs no watch for binary data while its
//   lines are printed (src/run/gpu/offsets.rs). Bytes past n are never
//   counted (the zeroed tail would count as terminators under -z).
// ---------------------------------------------------------------------------
extern "C" __global__ void count_terminators(const unsigned char* __restrict__ text, u64 n,
                                             u32 block_bytes, u32 term, u32* __restrict__ out)
{
    __shared__ u32 scratch[MAX_BLOCK];  // block_sum: one entry a thread
    const u64 start = (u64)blockIdx.x * block_bytes;
    const u64 end = start + block_bytes < n ? start + block_bytes : n;
    const u64 whole = start + ((end - start) & ~(u64)15);
    const u32 pattern = (term & 0xffu) * 0x01010101u;
    u32 found = 0;
    u32 zeros = 0;
    for (u64 at = start + 16ull * threadIdx.x; at < whole; at += 16ull * blockDim.x) {
        const uint4 v = *reinterpret_cast<const uint4*>(text + at);
        // __vcmpeq4 sets a byte to 0xff where the bytes are equal.
        found += (__popc(__vcmpeq4(v.x, pattern)) + __popc(__vcmpeq4(v.y, pattern)) +
                  __popc(__vcmpeq4(v.z, pattern)) + __popc(__vcmpeq4(v.w, pattern))) >> 3;
        zeros |= __vcmpeq4(v.x, 0u) | __vcmpeq4(v.y, 0u) | __vcmpeq4(v.z, 0u) |
                 __vcmpeq4(v.w, 0u);
    }
    if (threadIdx.x < end - whole) {
        const unsigned char b = text[whole + threadIdx.x];
        found += b == (unsigned char)term;
        zeros |= b == 0;
    }
    const u32 total = block_sum(found, scratch);
    const int nul = __syncthreads_or(zeros != 0) && term != 0;
    if (threadIdx.x == 0) out[blockIdx.x] = total | ((u32)nul << 31);
}
