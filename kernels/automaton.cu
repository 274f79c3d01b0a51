// automaton: a rule pack's bit-parallel Glushkov automaton, run line by
// line. Host side and table layout: src/engine/gpu/automaton.rs and
// src/pattern/glushkov.rs (whose `simulate.rs` is this kernel step for
// step, on the CPU); tile layout and helpers: common.cuh.
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1);
//   dynamic shared = 256 bytes (class map) + classes*words*4 bytes when
//            `masks_shared` is 1 (they fit), else 256 bytes.
//   args   = text (device, 16-byte aligned, tiles*TILE_BYTES + PAD_BYTES
//            readable)  n (bytes)
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
//            merge (0/1)  word (0/1; only with ascii_words = words)
//            unsure (u32[1], or'ed, never cleared here)
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
//   each thread skips the lines whose start bit is set there (the union
//   holds them whatever the automaton says: only their end is looked
//   for), ORs its bits into its words (read, then written once) and
//   counts[tile] counts the union.
//   ascii_words > 0: words [0, ascii_words) are the rules cut to their
//   ASCII bytes, the rest the rules whole. A line runs on the first words
//   until it is selected or a byte past ASCII comes; then it runs again
//   from its start on the rest (glushkov::build says why that is exact).
//   ascii_words = words (rules too large whole): a line with a byte past
//   ASCII is selected, as a candidate (the host knows: not exact).
//   ascii_words = 0: every line runs on all words.
//   word = 1 (-w in the automaton, glushkov/word.rs): a start position is
//   entered only at the line's start or after a byte that is not a word
//   byte (is_word_byte), and a final position reached at a byte selects
//   the line only when the next byte is not a word byte or the line ends
//   there; a line past ASCII is a candidate, and *unsure is set to 1. A
//   UTF-8 byte-order mark starting a line is stepped over (the host makes
//   sure each such line starts a file, which the CPU judges again).
//   The state is words u32 in per-thread arrays: a pass over at most
//   REG_WORDS words keeps them in registers (arrays of 2, 4, 8 or REG_WORDS words,
//   loops unrolled), a wider one in local memory (MAX_WORDS); packs over
//   MAX_WORDS*32 positions are refused on the host (glushkov::MAX_POSITIONS).
//   A step visits only the live positions with exceptions (has_exc): a
//   loop over every exception position was about 1,000 iterations a byte
//   for loghub's three templates without a literal.

#include "common.cuh"

#define MAX_WORDS 256
#define BYTES_PER_THREAD (TILE_BYTES / 256u)
// Passes over at most this many words keep their state in registers.
#define REG_WORDS 16

// What a pass reads: the tables (masks from shared memory when they fit)
// and the class map and start classes staged in shared memory.
struct Tables {
    const u32 *shift, *self_loop, *first_any, *first_bol, *last_any, *last_eol;
    const u32 *has_exc, *exc_map, *exc_start, *exc_word, *exc_mask;
    const u32* masks;
    u32 words;
    const unsigned char* cls;
    const u32* starts;
};

// What a pass found: the line selected, not, or (the ASCII part) a byte
// past ASCII first, so the line runs again on the whole rules.
#define PASS_NO 0
#define PASS_HIT 1
#define PASS_AGAIN 2
// Selected as a candidate: a byte past ASCII in the ASCII part alone.
#define PASS_CANDIDATE 3

// nx[w] |= m with w known only at run time: a compare per word, so that
// the state stays in registers (an indexed write would put it in local
// memory); past REG_WORDS the state is in local memory anyway.
template <int W>
__device__ __forceinline__ void or_word(u32 (&nx)[W], u32 w, u32 m)
{
    if constexpr (W <= REG_WORDS) {
#pragma unroll
        for (int k = 0; k < W; ++k) {
            if ((u32)k == w) nx[k] |= m;
        }
    } else {
        nx[w] |= m;
    }
}

// d[k] with k known only at run time (registers: a compare per word).
template <int W>
__device__ __forceinline__ u32 word_at(const u32 (&d)[W], u32 k)
{
    if constexpr (W <= REG_WORDS) {
        u32 v = 0u;
#pragma unroll
        for (int j = 0; j < W; ++j) {
            if ((u32)j == k) v = d[j];
        }
        return v;
    } else {
        return d[k];
    }
}

// The follow exceptions of word k's live positions (state word x, word kb
// + k of the tables) added to nx.
template <int W>
__device__ __forceinline__ void exceptions(const Tables& t, u32 x, u32 kb, u32 k, u32 (&nx)[W])
{
    const u32 g = kb + k;
    u32 bits = x & __ldg(t.has_exc + g);
    while (bits) {
        const u32 e = __ldg(t.exc_map + g * 32u + (u32)(__ffs(bits) - 1));
        bits &= bits - 1u;
        const u32 to = __ldg(t.exc_start + e + 1);
        for (u32 j = __ldg(t.exc_start + e); j < to; ++j) {
            or_word<W>(nx, __ldg(t.exc_word + j) - kb, __ldg(t.exc_mask + j));
        }
    }
}

// One pass over the line starting at s, on words [kb, kb + nw) of the
// state (nw <= W), held in arrays of W words. ascii: a byte past ASCII
// ends the pass (PASS_AGAIN), or, alone (no whole rules after it), selects
// the line as a candidate (PASS_CANDIDATE). word: -w's boundaries (the
// launch contract). *end receives the line's end (its terminator, or n)
// unless PASS_AGAIN.
template <int W>
__device__ __forceinline__ u32 run_pass(const Tables& t, const unsigned char* __restrict__ text,
                                        u64 n, u32 term, u64 s, u32 kb, u32 nw, bool ascii,
                                        bool alone, bool word, u64* end)
{
    constexpr bool regs = W <= REG_WORDS;
    u32 d[W], nx[W];
#pragma unroll
    for (int k = 0; k < (regs ? W : 1); ++k) d[k] = 0u;
    if constexpr (!regs) {
        for (u32 k = 0; k < nw; ++k) d[k] = 0u;
    }
    bool hit = false, candidate = false;
    bool live = false;
    // word: a final position reached at the byte before.
    bool ended = false;
    // word: a byte-order mark first, stepped over.
    const bool bom = word && s + 2u < n && __ldg(text + s) == 0xEFu &&
                     __ldg(text + s + 1u) == 0xBBu && __ldg(text + s + 2u) == 0xBFu;
    u64 i = s;
    for (; i < n; ++i) {
        const unsigned char b = __ldg(text + i);
        if (b == (unsigned char)term) break;
        if (hit) continue;  // find the line's end
        if (bom && i < s + 3u) continue;
        if (ascii && b >= 0x80u) {
            if (alone) {
                hit = candidate = true;
                continue;
            }
            return PASS_AGAIN;
        }
        if (ended && !is_word_byte(b)) {
            hit = true;
            continue;
        }
        const u32 c = t.cls[b];
        const bool at_start = i == s;
        if (!live && !at_start && ((t.starts[c >> 5] >> (c & 31u)) & 1u) == 0u) continue;
        const bool opens = !word || at_start || !is_word_byte(__ldg(text + i - 1));
        u32 carry = 0u;
#pragma unroll
        for (int k = 0; k < (regs ? W : (int)nw); ++k) {
            if (regs && (u32)k >= nw) break;
            const u32 g = kb + (u32)k;
            const u32 x = d[k];
            u32 r = ((x << 1) | carry) & __ldg(t.shift + g);
            r |= x & __ldg(t.self_loop + g);
            if (opens) r |= __ldg(t.first_any + g);
            if (at_start) r |= __ldg(t.first_bol + g);
            carry = x >> 31;
            nx[k] = r;
        }
        // Exceptions: in registers, first the words holding live
        // exception positions (few), then each of those words' bits.
        if constexpr (regs) {
            u32 holding = 0u;
#pragma unroll
            for (int k = 0; k < W; ++k) {
                if ((u32)k >= nw) break;
                if (d[k] & __ldg(t.has_exc + kb + (u32)k)) holding |= 1u << k;
            }
            while (holding) {
                const u32 k = (u32)(__ffs(holding) - 1);
                holding &= holding - 1u;
                exceptions<W>(t, word_at<W>(d, k), kb, k, nx);
            }
        } else {
            for (u32 k = 0; k < nw; ++k) exceptions<W>(t, d[k], kb, k, nx);
        }
        const u32* m = t.masks + (u64)c * t.words + kb;
        u32 acc = 0u, any = 0u;
#pragma unroll
        for (int k = 0; k < (regs ? W : (int)nw); ++k) {
            if (regs && (u32)k >= nw) break;
            const u32 v = nx[k] & m[k];
            d[k] = v;
            acc |= v & __ldg(t.last_any + kb + (u32)k);
            any |= v;
        }
        if (acc && !word) hit = true;
        ended = acc != 0u;
        live = any != 0u;
    }
    *end = i;
    if (ended) hit = true;
    if (!hit && i > s && live) {
#pragma unroll
        for (int k = 0; k < (regs ? W : (int)nw); ++k) {
            if (regs && (u32)k >= nw) break;
            if (d[k] & __ldg(t.last_eol + kb + (u32)k)) hit = true;
        }
    }
    if (!hit) return PASS_NO;
    return candidate ? PASS_CANDIDATE : PASS_HIT;
}

// run_pass with the fewest words that hold nw.
__device__ __forceinline__ u32 pass(const Tables& t, const unsigned char* __restrict__ text, u64 n,
                                    u32 term, u64 s, u32 kb, u32 nw, bool ascii, bool alone,
                                    bool word, u64* end)
{
    if (nw <= 2u) return run_pass<2>(t, text, n, term, s, kb, nw, ascii, alone, word, end);
    if (nw <= 4u) return run_pass<4>(t, text, n, term, s, kb, nw, ascii, alone, word, end);
    if (nw <= 8u) return run_pass<8>(t, text, n, term, s, kb, nw, ascii, alone, word, end);
    if (nw <= REG_WORDS)
        return run_pass<REG_WORDS>(t, text, n, term, s, kb, nw, ascii, alone, word, end);
    return run_pass<MAX_WORDS>(t, text, n, term, s, kb, nw, ascii, alone, word, end);
}

// The end of the line holding byte e (its terminator, or n): 16 bytes at
// a time where aligned and inside the text (__vcmpeq4, as tally.cu finds
// terminators), else byte by byte.
__device__ __forceinline__ u64 line_end(const unsigned char* __restrict__ text, u64 n, u32 term,
                                        u64 e)
{
    const u32 pattern = (term & 0xffu) * 0x01010101u;
    while (e < n) {
        if ((e & 15u) == 0u && e + 16u <= n) {
            const uint4 v = __ldg((const uint4*)(text + e));
            if ((__vcmpeq4(v.x, pattern) | __vcmpeq4(v.y, pattern) | __vcmpeq4(v.z, pattern) |
                 __vcmpeq4(v.w, pattern)) == 0u) {
                e += 16u;
                continue;
            }
        }
        if (__ldg(text + e) == (unsigned char)term) break;
        ++e;
    }
    return e;
}

extern "C" __global__ void __launch_bounds__(256)
automaton(const unsigned char* __restrict__ text, u64 n, u32 term, u32 words, u32 classes,
          const unsigned char* __restrict__ class_of, const u32* __restrict__ masks,
          const u32* __restrict__ class_starts, const u32* __restrict__ shift,
          const u32* __restrict__ self_loop, const u32* __restrict__ first_any,
          const u32* __restrict__ first_bol, const u32* __restrict__ last_any,
          const u32* __restrict__ last_eol, const u32* __restrict__ has_exc,
          const u32* __restrict__ exc_map, const u32* __restrict__ exc_start,
          const u32* __restrict__ exc_word, const u32* __restrict__ exc_mask, u32 ascii_words,
          u32 empty_line, u32 masks_shared, u32 merge, u32 word, u32* __restrict__ unsure,
          u32* __restrict__ bitmap, u32* __restrict__ counts, u64 tiles)
{
    extern __shared__ u32 shared[];
    __shared__ u32 scratch[256];  // block_sum: one entry a thread (launch bound 256)
    __shared__ u32 starts_shared[8];
    unsigned char* cls = reinterpret_cast<unsigned char*>(shared);
    u32* smasks = shared + 64;
    for (u32 i = threadIdx.x; i < 256u; i += blockDim.x) cls[i] = class_of[i];
    if (threadIdx.x < 8u) starts_shared[threadIdx.x] = class_starts[threadIdx.x];
    if (masks_shared) {
        for (u32 i = threadIdx.x; i < classes * words; i += blockDim.x) smasks[i] = masks[i];
    }
    __syncthreads();
    const Tables t = {shift,     self_loop, first_any, first_bol, last_any,
                      last_eol,  has_exc,   exc_map,   exc_start, exc_word,
                      exc_mask,  masks_shared ? smasks : masks, words, cls, starts_shared};
    // The ASCII part (when there is one) first.
    const u32 first_words = ascii_words ? ascii_words : words;
    const bool alone = ascii_words == words;
    bool any_candidate = false;

    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const u64 lo = tile * TILE_BYTES + (u64)threadIdx.x * BYTES_PER_THREAD;
        const u64 hi = lo + BYTES_PER_THREAD;
        const u64 w0 = tile * TILE_WORDS + (u64)threadIdx.x * 4u;
        u32 bits[4] = {0u, 0u, 0u, 0u};
        u64 s = first_line_start(GlobalBytes{text}, n, term, lo, hi);
        while (s < hi && s < n) {
            // The line [s, e).
            u64 e = s;
            const u64 off = s - lo;
            // merge: a line the other kernel marked (the confirm kernel's
            // matches: 91% of loghub's lines for its templates) is not run.
            if (merge && ((bitmap[w0 + (off >> 5)] >> (off & 31u)) & 1u)) {
                s = line_end(text, n, term, e) + 1;
                continue;
            }
            u32 got = pass(t, text, n, term, s, 0u, first_words, ascii_words != 0u, alone,
                           word != 0u, &e);
            if (got == PASS_AGAIN) {
                got = pass(t, text, n, term, s, ascii_words, words - ascii_words, false, false,
                           false, &e);
            }
            any_candidate = any_candidate || got == PASS_CANDIDATE;
            const bool hit = e == s ? empty_line != 0u : got != PASS_NO;
            if (hit) bits[off >> 5] |= 1u << (off & 31u);
            s = e + 1;
        }
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
    if (word && any_candidate) atomicOr(unsure, 1u);
}
