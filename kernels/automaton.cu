// automaton: a rule pack's bit-parallel Glushkov automaton, run line by
// line. Host side and table layout: src/engine/gpu/automaton.rs and
// src/pattern/glushkov.rs (whose `simulate.rs` is this kernel step for
// step, on the CPU); tile layout and helpers: common.cuh.
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1);
//   dynamic shared = 256 bytes (class map) + classes*words*4 bytes when
//            `masks_shared` is 1 (they fit), else 256 bytes.
//   args   = text (device, tiles*TILE_BYTES + PAD_BYTES readable)  n (bytes)
//            term (line terminator)  words (1..=MAX_WORDS)  classes (1..=256)
//            class_of (u8[256])  masks (u32[classes*words])
//            class_starts (u32[8]: bit c set when class c may start a match)
//            shift, self_loop, first_any, first_bol, last_any, last_eol
//                  (u32[words] each)
//            has_exc (u32[words]: the positions with exceptions)
//            exc_map (u32[words*32]: per such position its exception e)
//            exc_start (u32[exceptions+1])  exc_word, exc_mask
//            (u32[exc_start[exceptions]]: exception e ORs exc_mask[j] into
//            word exc_word[j] of the next state, j in exc_start[e..e+1])
//            ascii_words (0..words)  empty_line (0/1)  masks_shared (0/1)
//            merge (0/1)
//            bitmap (u32[tiles*TILE_WORDS])  counts (u32[tiles])  tiles
//   Blocks walk the tiles blockIdx.x, +gridDim.x, ... In a tile, thread t
//   owns text bytes [tile*TILE_BYTES + 128*t, +128) and bitmap words
//   tile*TILE_WORDS + 4*t .. +4, which it writes once; thread 0 writes
//   counts[tile]. A line starts at byte 0 and after every terminator; the
//   thread runs the automaton over each line that starts in its bytes, to
//   the line's end (past its bytes and its tile when the line is longer),
//   and sets the bit of the line's start when the line is selected (an
//   empty line's start is its terminator). No bit at or past n.
//   merge = 1 (a split rule pack, src/engine/gpu/split.rs): another kernel
//   filled bitmap and counts for this text just before on the same stream;
//   each thread ORs its bits into its words (read, then written once) and
//   counts[tile] counts the union.
//   ascii_words > 0: words [0, ascii_words) are the rules cut to their
//   ASCII bytes, the rest the rules whole. A line runs on the first words
//   until it is selected or a byte past ASCII comes; then it runs again
//   from its start on the rest (glushkov::build says why that is exact).
//   ascii_words = words (rules too large whole): a line with a byte past
//   ASCII is selected, as a candidate (the host knows: not exact).
//   ascii_words = 0: every line runs on all words.
//   The state is words u32 in per-thread arrays (MAX_WORDS): packs over
//   MAX_WORDS*32 positions are refused on the host (glushkov::MAX_POSITIONS).
//   A step visits only the live positions with exceptions (has_exc): a
//   loop over every exception position was about 1,000 iterations a byte
//   for loghub's three templates without a literal.

#include "common.cuh"

#define MAX_WORDS 256
#define BYTES_PER_THREAD (TILE_BYTES / 256u)

extern "C" __global__ void __launch_bounds__(256)
automaton(const unsigned char* __restrict__ text, u64 n, u32 term, u32 words, u32 classes,
          const unsigned char* __restrict__ class_of, const u32* __restrict__ masks,
          const u32* __restrict__ class_starts, const u32* __restrict__ shift,
          const u32* __restrict__ self_loop, const u32* __restrict__ first_any,
          const u32* __restrict__ first_bol, const u32* __restrict__ last_any,
          const u32* __restrict__ last_eol, const u32* __restrict__ has_exc,
          const u32* __restrict__ exc_map, const u32* __restrict__ exc_start,
          const u32* __restrict__ exc_word, const u32* __restrict__ exc_mask, u32 ascii_words,
          u32 empty_line, u32 masks_shared, u32 merge,
          u32* __restrict__ bitmap, u32* __restrict__ counts, u64 tiles)
{
    extern __shared__ u32 shared[];
    __shared__ u32 scratch[MAX_BLOCK / 32];
    __shared__ u32 starts_shared[8];
    unsigned char* cls = reinterpret_cast<unsigned char*>(shared);
    u32* smasks = shared + 64;
    for (u32 i = threadIdx.x; i < 256u; i += blockDim.x) cls[i] = class_of[i];
    if (threadIdx.x < 8u) starts_shared[threadIdx.x] = class_starts[threadIdx.x];
    if (masks_shared) {
        for (u32 i = threadIdx.x; i < classes * words; i += blockDim.x) smasks[i] = masks[i];
    }
    __syncthreads();
    const u32* mk = masks_shared ? smasks : masks;

    u32 d[MAX_WORDS];
    u32 nx[MAX_WORDS];
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const u64 lo = tile * TILE_BYTES + (u64)threadIdx.x * BYTES_PER_THREAD;
        const u64 hi = lo + BYTES_PER_THREAD;
        u32 bits[4] = {0u, 0u, 0u, 0u};
        u64 s = first_line_start(GlobalBytes{text}, n, term, lo, hi);
        while (s < hi && s < n) {
            // The line [s, e): run the automaton (its ASCII part first).
            bool hit = false;
            bool live = false;
            u32 kb = 0u;
            u32 ke = ascii_words ? ascii_words : words;
            u64 i = s;
            for (;;) {
                bool again = false;
                live = false;
                for (u32 k = kb; k < ke; ++k) d[k] = 0u;
                for (i = s; i < n; ++i) {
                    const unsigned char b = __ldg(text + i);
                    if (b == (unsigned char)term) break;
                    if (hit) continue;  // find the line's end
                    if (b >= 0x80u && ascii_words != 0u && kb == 0u) {
                        // No whole rules: the line is a candidate.
                        if (ke == words) {
                            hit = true;
                            continue;
                        }
                        again = true;
                        break;
                    }
                    const u32 c = cls[b];
                    const bool at_start = i == s;
                    if (!live && !at_start && ((starts_shared[c >> 5] >> (c & 31u)) & 1u) == 0u) continue;
                    u32 carry = 0u;
                    for (u32 k = kb; k < ke; ++k) {
                        const u32 x = d[k];
                        u32 r = ((x << 1) | carry) & __ldg(shift + k);
                        r |= x & __ldg(self_loop + k);
                        r |= __ldg(first_any + k);
                        if (at_start) r |= __ldg(first_bol + k);
                        carry = x >> 31;
                        nx[k] = r;
                    }
                    for (u32 k = kb; k < ke; ++k) {
                        u32 bits = d[k] & __ldg(has_exc + k);
                        while (bits) {
                            const u32 e = __ldg(exc_map + k * 32u + (u32)(__ffs(bits) - 1));
                            bits &= bits - 1u;
                            const u32 to = __ldg(exc_start + e + 1);
                            for (u32 j = __ldg(exc_start + e); j < to; ++j) {
                                nx[__ldg(exc_word + j)] |= __ldg(exc_mask + j);
                            }
                        }
                    }
                    const u32* m = mk + (u64)c * words;
                    u32 acc = 0u, any = 0u;
                    for (u32 k = kb; k < ke; ++k) {
                        const u32 v = nx[k] & m[k];
                        d[k] = v;
                        acc |= v & __ldg(last_any + k);
                        any |= v;
                    }
                    if (acc) hit = true;
                    live = any != 0u;
                }
                if (!again) break;
                kb = ascii_words;
                ke = words;
            }
            // i: the line's end (its terminator, or n).
            if (!hit) {
                if (i == s) {
                    hit = empty_line != 0u;
                } else if (live) {
                    for (u32 k = kb; k < ke; ++k) {
                        if (d[k] & __ldg(last_eol + k)) hit = true;
                    }
                }
            }
            if (hit) {
                const u64 off = s - lo;
                bits[off >> 5] |= 1u << (off & 31u);
            }
            s = i + 1;
        }
        const u64 w0 = tile * TILE_WORDS + (u64)threadIdx.x * 4u;
        u32 cnt = 0u;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            if (merge) bits[k] |= bitmap[w0 + k];
            bitmap[w0 + k] = bits[k];
            cnt += __popc(bits[k]);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
}
