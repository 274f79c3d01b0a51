// confirm: a split rule pack's candidate lines confirmed on the GPU. The
// `multi` kernel left a bit at every start of one of the pack's literals
// (cand); each line holding such a bit runs the automata of the rules
// owning the literals there (a rule's ASCII automaton on a line of ASCII
// bytes, its full one on others), and the line's start is marked when one
// of them matches, or has no automaton for the line (unsure): then
// *unsure is set, and the CPU decides the line. Host side and table
// layout: src/engine/gpu/confirm.rs and src/pattern/glushkov/book.rs
// (whose `run.rs` is this kernel step for step, on the CPU).
//
// Launch contract:
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1); no dynamic shared.
//   args   = text (device, tiles*TILE_BYTES + PAD_BYTES readable)  n (bytes)
//            term (line terminator)  cand (u32[tiles*TILE_WORDS]: the
//            multi kernel's bitmap of literal starts for this text)
//            heads (u32[2*rules*8]: automaton a = 2r (ASCII) or 2r+1 (full)
//            of rule r, book.rs `head`)  class_of (u8[2*rules*256])
//            class_starts (u32[2*rules*8])  masks  tables (u32, per automaton
//            `words` words each of shift, self_loop, first_any, first_bol,
//            last_any, last_eol, has_exc)  exc_map (u32, per automaton one
//            per position: its exception or NO_SLOT)  exc_from exc_to
//            (u32[exceptions])  exc_word exc_mask  slot_log2 (1..31)  slots
//            (u32[1 << slot_log2]: an index into keys, or NO_SLOT)  keys (u32:
//            literals' first 3 bytes, little-endian)  first (u32[nkeys + 1])
//            starts (u32[nlit + 1])  bytes (u8)  owner_start (u32[nlit + 1])
//            owners (u32)  bitmap (u32[tiles*TILE_WORDS], not cand)
//            counts (u32[tiles])  tiles  unsure (u32[1], zeroed before;
//            set to 1 when a line is marked unsure)
//   Blocks walk the tiles blockIdx.x, +gridDim.x, ... In a tile, thread t
//   owns text bytes [tile*TILE_BYTES + 128*t, +128) and bitmap words
//   tile*TILE_WORDS + 4*t .. +4, which it writes once; thread 0 writes
//   counts[tile]. A line starts at byte 0 and after every terminator; the
//   thread takes each line that starts in its bytes, to the line's end,
//   and sets the bit of the line's start when a cand bit inside the line
//   starts a literal (whole inside the line) one of whose owners matches
//   the line or has no automaton for it. Every automaton has at most
//   RULE_WORDS words (book.rs RULE_POSITIONS).

#include "common.cuh"

#define RULE_WORDS 16
#define TRIED 8
#define NO_SLOT 0xffffffffu
#define BYTES_PER_THREAD (TILE_BYTES / 256u)
// A line's verdict.
#define NO 0
#define MATCH 1
#define UNSURE 2

struct Book {
    const u32* heads;
    const unsigned char* class_of;
    const u32* class_starts;
    const u32* masks;
    const u32* tables;
    const u32* exc_map;
    const u32* exc_from;
    const u32* exc_to;
    const u32* exc_word;
    const u32* exc_mask;
};

__device__ __forceinline__ u32 book_hash(u32 key, u32 log2)
{
    return (key * 0x9E3779B1u) >> (32u - log2);
}

// Automaton a (present, of w <= N words) over the line [s, e): whether it
// matches (run.rs `matches`). Its word tables are loaded once into
// registers: with N small (most rules' ASCII automata have 1 or 2 words)
// they stay there for the whole line.
template <u32 N>
__device__ bool rule_matches(const Book& b, u32 a, const unsigned char* __restrict__ text, u64 s,
                             u64 e)
{
    const u32* h = b.heads + (u64)a * 8u;
    const u32 w = __ldg(h + 2);
    const u32* tb = b.tables + __ldg(h + 1);
    const u32* mk = b.masks + __ldg(h + 0);
    const u32* map = b.exc_map + __ldg(h + 3);
    const unsigned char* cls = b.class_of + (u64)a * 256u;
    const u32* starts = b.class_starts + (u64)a * 8u;
    u32 d[N], nx[N], shift[N], loop[N], any_start[N], bol[N], last[N], exc[N];
#pragma unroll
    for (u32 k = 0; k < N; ++k) {
        d[k] = 0u;
        if (k < w) {
            shift[k] = __ldg(tb + k);
            loop[k] = __ldg(tb + w + k);
            any_start[k] = __ldg(tb + 2u * w + k);
            bol[k] = __ldg(tb + 3u * w + k);
            last[k] = __ldg(tb + 4u * w + k);
            exc[k] = __ldg(tb + 6u * w + k);
        }
    }
    bool live = false;
    for (u64 i = s; i < e; ++i) {
        const u32 c = __ldg(cls + __ldg(text + i));
        const bool at_start = i == s;
        if (!live && !at_start && ((__ldg(starts + (c >> 5)) >> (c & 31u)) & 1u) == 0u) continue;
        u32 carry = 0u;
#pragma unroll
        for (u32 k = 0; k < N; ++k) {
            if (k < w) {
                const u32 x = d[k];
                u32 v = ((x << 1) | carry) & shift[k];
                v |= x & loop[k];
                v |= any_start[k];
                if (at_start) v |= bol[k];
                carry = x >> 31;
                nx[k] = v;
            }
        }
#pragma unroll
        for (u32 k = 0; k < N; ++k) {
            if (k < w) {
                u32 bits = d[k] & exc[k];
                while (bits) {
                    const u32 x = __ldg(map + k * 32u + (u32)(__ffs(bits) - 1));
                    bits &= bits - 1u;
                    const u32 to = __ldg(b.exc_to + x);
                    for (u32 j = __ldg(b.exc_from + x); j < to; ++j) {
                        const u32 ww = __ldg(b.exc_word + j), m = __ldg(b.exc_mask + j);
#pragma unroll
                        for (u32 q = 0; q < N; ++q) {
                            if (q == ww) nx[q] |= m;
                        }
                    }
                }
            }
        }
        const u32* m = mk + (u64)c * w;
        u32 acc = 0u, any = 0u;
#pragma unroll
        for (u32 k = 0; k < N; ++k) {
            if (k < w) {
                const u32 v = nx[k] & __ldg(m + k);
                d[k] = v;
                acc |= v & last[k];
                any |= v;
            }
        }
        if (acc) return true;
        live = any != 0u;
    }
    if (!live) return false;
#pragma unroll
    for (u32 k = 0; k < N; ++k) {
        if (k < w && (d[k] & __ldg(tb + 5u * w + k))) return true;
    }
    return false;
}

// Automaton a, by its words.
__device__ bool automaton_matches(const Book& b, u32 a, const unsigned char* __restrict__ text,
                                  u64 s, u64 e)
{
    const u32 w = __ldg(b.heads + (u64)a * 8u + 2u);
    if (w == 1u) return rule_matches<1>(b, a, text, s, e);
    if (w == 2u) return rule_matches<2>(b, a, text, s, e);
    if (w <= 4u) return rule_matches<4>(b, a, text, s, e);
    return rule_matches<RULE_WORDS>(b, a, text, s, e);
}

extern "C" __global__ void __launch_bounds__(256)
confirm(const unsigned char* __restrict__ text, u64 n, u32 term, const u32* __restrict__ cand,
        const u32* __restrict__ heads, const unsigned char* __restrict__ class_of,
        const u32* __restrict__ class_starts, const u32* __restrict__ masks,
        const u32* __restrict__ tables, const u32* __restrict__ exc_map,
        const u32* __restrict__ exc_from, const u32* __restrict__ exc_to,
        const u32* __restrict__ exc_word, const u32* __restrict__ exc_mask, u32 slot_log2,
        const u32* __restrict__ slots, const u32* __restrict__ keys,
        const u32* __restrict__ first, const u32* __restrict__ starts,
        const unsigned char* __restrict__ bytes, const u32* __restrict__ owner_start,
        const u32* __restrict__ owners, u32* __restrict__ bitmap, u32* __restrict__ counts,
        u64 tiles, u32* __restrict__ unsure)
{
    __shared__ u32 scratch[MAX_BLOCK / 32];
    const Book b = {heads, class_of, class_starts, masks, tables,
                    exc_map, exc_from, exc_to, exc_word, exc_mask};
    const u32 slot_mask = (1u << slot_log2) - 1u;
    bool any_unsure = false;
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const u64 lo = tile * TILE_BYTES + (u64)threadIdx.x * BYTES_PER_THREAD;
        const u64 hi = lo + BYTES_PER_THREAD;
        u32 out[4] = {0u, 0u, 0u, 0u};
        u64 s = lo;
        if (s > 0 && s < n && __ldg(text + s - 1) != (unsigned char)term) {
            while (s < n && s < hi && __ldg(text + s) != (unsigned char)term) ++s;
            ++s;
        }
        while (s < hi && s < n) {
            u64 e = s;
            u32 high = 0u;
            for (; e < n; ++e) {
                const u32 c = __ldg(text + e);
                if (c == term) break;
                high |= c;
            }
            const bool ascii = (high & 0x80u) == 0u;
            // The line [s, e): its cand bits, in order, until a verdict.
            int verdict = NO;
            bool hit = false;
            u32 tried[TRIED];
            u32 ntried = 0;
            for (u64 w = s >> 5; !hit && (w << 5) < e; ++w) {
                u32 bits = __ldg(cand + w);
                if ((w << 5) < s) bits &= 0xffffffffu << (s & 31u);
                if (((w + 1) << 5) > e) bits &= (e & 31u) ? ((1u << (e & 31u)) - 1u) : 0u;
                while (bits && !hit) {
                    const u64 p = (w << 5) + (u64)(__ffs(bits) - 1);
                    bits &= bits - 1u;
                    if (p + 3u > e) continue;
                    const u32 key = (u32)__ldg(text + p) | (u32)__ldg(text + p + 1) << 8 |
                                    (u32)__ldg(text + p + 2) << 16;
                    u32 u = NO_SLOT;
                    for (u32 hh = book_hash(key, slot_log2);; hh = (hh + 1u) & slot_mask) {
                        const u32 x = __ldg(slots + hh);
                        if (x == NO_SLOT) break;
                        if (__ldg(keys + x) == key) { u = x; break; }
                    }
                    if (u == NO_SLOT) continue;
                    const u32 kend = __ldg(first + u + 1);
                    for (u32 k = __ldg(first + u); k < kend && !hit; ++k) {
                        const u32 st = __ldg(starts + k), len = __ldg(starts + k + 1) - st;
                        if (p + len > e || !equal_tail(text + p + 3, bytes + st + 3, len - 3)) continue;
                        const u32 oend = __ldg(owner_start + k + 1);
                        for (u32 o = __ldg(owner_start + k); o < oend && !hit; ++o) {
                            const u32 r = __ldg(owners + o);
                            bool seen = false;
                            for (u32 t = 0; t < TRIED && t < ntried; ++t) seen = seen || tried[t] == r;
                            if (seen) continue;
                            tried[ntried % TRIED] = r;
                            ++ntried;
                            const u32 a = 2u * r + (ascii ? 0u : 1u);
                            if (__ldg(heads + (u64)a * 8u + 4u) == 0u) verdict = UNSURE;
                            else if (automaton_matches(b, a, text, s, e)) verdict = MATCH;
                            hit = verdict != NO;
                        }
                    }
                }
            }
            if (hit) {
                const u64 off = s - lo;
                out[off >> 5] |= 1u << (off & 31u);
                any_unsure = any_unsure || verdict == UNSURE;
            }
            s = e + 1;
        }
        const u64 w0 = tile * TILE_WORDS + (u64)threadIdx.x * 4u;
        u32 cnt = 0u;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            bitmap[w0 + k] = out[k];
            cnt += __popc(out[k]);
        }
        const u32 total = block_sum(cnt, scratch);
        if (threadIdx.x == 0) counts[tile] = total;
    }
    if (any_unsure) atomicOr(unsure, 1u);
}
