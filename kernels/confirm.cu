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
//   grid   = (min(tiles, cap), 1, 1); block = (256, 1, 1); dynamic shared
//            CONFIRM_SHARED bytes (kernels.rs; set as the function's maximum).
//   args   = text (device, 16-byte aligned, tiles*TILE_BYTES + PAD_BYTES
//            readable, PAD_BYTES >= 16)  n (bytes)
//            term (line terminator)  cand (u32[tiles*TILE_WORDS]: the
//            multi kernel's bitmap of literal starts for this text)
//            heads (u32[2*rules*8]: automaton a = 2r (ASCII) or 2r+1 (full)
//            of rule r, book.rs `head`)  class_of (u8[2*rules*256])
//            byte_starts (u32[2*rules*8]: the bytes that may start a match)
//            masks  tables (u32, per automaton
//            `words` words each of shift, self_loop, first_any, first_bol,
//            last_any, last_eol, has_exc)  exc_map (u32, per automaton one
//            per position: its exception or NO_SLOT)  exc_from exc_to
//            (u32[exceptions])  exc_word exc_mask  slot_log2 (1..31)  slots
//            (u32[1 << slot_log2]: an index into keys, or NO_SLOT)  keys (u32:
//            literals' first 3 bytes, little-endian)  first (u32[nkeys + 1])
//            starts (u32[nlit + 1])  bytes (u8)  owner_start (u32[nlit + 1])
//            owners (u32)  required (u32[rules*8]: each rule's trigram mask,
//            book/trigrams.rs)  bitmap (u32[tiles*TILE_WORDS], not cand)
//            counts (u32[tiles], zeroed before: the kernel adds to them)
//            tiles  unsure (u32[1], zeroed before; set to 1 when a line is
//            marked unsure)
//   A tile is cut into PIECES_PER_TILE pieces of 32 threads' bytes; warp w
//   of block b walks the pieces 8b + w, + 8*gridDim.x, ... In a piece,
//   lane l owns text bytes [piece*PIECE_BYTES + 128*l, +128) and bitmap
//   words piece*PIECE_BYTES/32 + 4*l .. +4, which it writes once; lane 0
//   adds the piece's set bits to counts[tile]. A line starts at byte 0
//   and after every terminator; the lane takes each line that starts in
//   its bytes, to the line's end, and sets the bit of the line's start
//   when a cand bit inside the line starts a literal (whole inside the
//   line) one of whose owners, with its required trigrams in the line,
//   matches the line or has no automaton for it. Every automaton has at
//   most RULE_WORDS words (book.rs RULE_POSITIONS).
//
// Why it is built this way: a warp's lanes each run their own line
// through their own automata, so their reads scatter, and a lane's work
// varies with its line. Each warp therefore stages its own piece (and the
// SPILL bytes after it, where lines end) in shared memory with coalesced
// loads and goes on to its next piece without waiting for the block; a
// lane skips the bytes that cannot start its automaton's match by a bit
// test on its own column of shared memory (`first`), with no class
// lookup; the narrow automata's words stay in registers and the wide ones
// (rare) run from memory, so the kernel keeps enough warps resident to
// hide the remaining loads. Before a rule's automaton walks the line, its
// required trigrams are tested against the line's (found in the walk to
// the line's end): most candidate rules stop there. The runs left are
// queued and shared out over the warp's lanes once its lines are walked
// (a lane's own line rarely needs one, so run in place they left most
// lanes idle: ncu counted 3.2 of 32 active, 5.5 with the queue).

#include "common.cuh"

#define RULE_WORDS 16
#define TRIED 8
#define NO_SLOT 0xffffffffu
#define BYTES_PER_THREAD (TILE_BYTES / 256u)
// A warp's piece of a tile: its 32 lanes' bytes.
#define PIECE_BYTES (32u * BYTES_PER_THREAD)
#define PIECES_PER_TILE (TILE_BYTES / PIECE_BYTES)
// Bytes past its piece a warp stages, for the lines ending there.
#define SPILL 256u
#define STAGED (PIECE_BYTES + SPILL)
// Automaton runs a warp defers to run them on all its lanes: per run, the
// line's start in the piece and the automaton (start | a << 12), and its
// end from the piece's start, MATCHED once it ran and matched.
#define QUEUE 64u
#define MATCHED 0x80000000u
// Dynamic shared memory: each warp's staged bytes and queue, then each
// lane's column of byte_starts, then of its line's trigram mask (8 words
// of 256 lanes each).
#define SHARED_BYTES (8u * STAGED + 8u * QUEUE * 8u + 2u * 8u * 256u * 4u)

struct Book {
    const u32* heads;
    const unsigned char* class_of;
    const u32* byte_starts;
    const u32* masks;
    const u32* tables;
    const u32* exc_map;
    const u32* exc_from;
    const u32* exc_to;
    const u32* exc_word;
    const u32* exc_mask;
};

// Text bytes: from the block's staged copy of [base, base + len), else
// from global memory.
struct StagedBytes {
    const unsigned char* staged;
    const unsigned char* __restrict__ text;
    u64 base;
    u64 len;
    __device__ __forceinline__ u32 operator()(u64 i) const
    {
        const u64 k = i - base;  // wraps above len when i < base
        return k < len ? (u32)staged[k] : (u32)__ldg(text + i);
    }
};

// A lane's column of the block's `first` table: word k of its automaton's
// byte_starts at first[k * 256].
__device__ __forceinline__ bool may_start(const u32* first, u32 byte)
{
    return (first[(byte >> 5) * 256u] >> (byte & 31u)) & 1u;
}

// The bit of a trigram (book/trigrams.rs `bit`).
__device__ __forceinline__ u32 trigram_bit(u32 t)
{
    return ((t & 0xffffffu) * 0x9E3779B1u) >> 24;
}

// Whether rule r's required trigrams are all in the line's mask `sig`.
__device__ __forceinline__ bool may_match(const u32* __restrict__ required, u32 r, const u32* sig)
{
    const u32* q = required + (u64)r * 8u;
    u32 missing = 0u;
#pragma unroll
    for (u32 k = 0; k < 8; ++k) missing |= __ldg(q + k) & ~sig[k * 256u];
    return missing == 0u;
}

__device__ __forceinline__ u32 book_hash(u32 key, u32 log2)
{
    return (key * 0x9E3779B1u) >> (32u - log2);
}

// Automaton a's words and tables (book.rs `head`).
struct Head {
    u32 words;
    const u32* tables;
    const u32* masks;
    const u32* exc_map;
    const unsigned char* class_of;
};

__device__ __forceinline__ Head head_of(const Book& b, u32 a)
{
    const u32* h = b.heads + (u64)a * 8u;
    return {__ldg(h + 2), b.tables + __ldg(h + 1), b.masks + __ldg(h + 0), b.exc_map + __ldg(h + 3),
            b.class_of + (u64)a * 256u};
}

// Automaton a (present, of w <= N words, N <= 4) over the line [s, e):
// whether it matches (run.rs `matches`). Its word tables are held in
// registers for the whole line; first_bol is read at the line's start
// only, last_eol at its end.
template <u32 N>
__device__ bool narrow_matches(const Book& b, u32 a, const StagedBytes& at, u64 s, u64 e,
                               const u32* first)
{
    const Head hd = head_of(b, a);
    const u32 w = hd.words;
    const u32 *tb = hd.tables, *mk = hd.masks, *map = hd.exc_map;
    const unsigned char* cls = hd.class_of;
    u32 d[N], nx[N], shift[N], loop[N], any_start[N], last[N], exc[N];
#pragma unroll
    for (u32 k = 0; k < N; ++k) {
        d[k] = 0u;
        if (k < w) {
            shift[k] = __ldg(tb + k);
            loop[k] = __ldg(tb + w + k);
            any_start[k] = __ldg(tb + 2u * w + k);
            last[k] = __ldg(tb + 4u * w + k);
            exc[k] = __ldg(tb + 6u * w + k);
        }
    }
    bool live = false;
    for (u64 i = s; i < e; ++i) {
        const u32 byte = at(i);
        const bool at_start = i == s;
        if (!live && !at_start && !may_start(first, byte)) continue;
        const u32 c = __ldg(cls + byte);
        u32 carry = 0u;
#pragma unroll
        for (u32 k = 0; k < N; ++k) {
            if (k < w) {
                const u32 x = d[k];
                u32 v = ((x << 1) | carry) & shift[k];
                v |= x & loop[k];
                v |= any_start[k];
                if (at_start) v |= __ldg(tb + 3u * w + k);
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

// The same for an automaton of more than 4 words (rare): its state in
// local memory, its tables read at every step, so that it costs the
// kernel no registers.
__device__ bool wide_matches(const Book& b, u32 a, const StagedBytes& at, u64 s, u64 e,
                             const u32* first)
{
    const Head hd = head_of(b, a);
    const u32 w = hd.words;
    const u32 *tb = hd.tables, *mk = hd.masks, *map = hd.exc_map;
    const unsigned char* cls = hd.class_of;
    u32 d[RULE_WORDS], nx[RULE_WORDS];
#pragma unroll 1
    for (u32 k = 0; k < w; ++k) d[k] = 0u;
    bool live = false;
    for (u64 i = s; i < e; ++i) {
        const u32 byte = at(i);
        const bool at_start = i == s;
        if (!live && !at_start && !may_start(first, byte)) continue;
        const u32 c = __ldg(cls + byte);
        u32 carry = 0u;
#pragma unroll 1
        for (u32 k = 0; k < w; ++k) {
            const u32 x = d[k];
            u32 v = ((x << 1) | carry) & __ldg(tb + k);
            v |= x & __ldg(tb + w + k);
            v |= __ldg(tb + 2u * w + k);
            if (at_start) v |= __ldg(tb + 3u * w + k);
            carry = x >> 31;
            nx[k] = v;
        }
#pragma unroll 1
        for (u32 k = 0; k < w; ++k) {
            u32 bits = d[k] & __ldg(tb + 6u * w + k);
            while (bits) {
                const u32 x = __ldg(map + k * 32u + (u32)(__ffs(bits) - 1));
                bits &= bits - 1u;
                const u32 to = __ldg(b.exc_to + x);
                for (u32 j = __ldg(b.exc_from + x); j < to; ++j) {
                    nx[__ldg(b.exc_word + j)] |= __ldg(b.exc_mask + j);
                }
            }
        }
        const u32* m = mk + (u64)c * w;
        u32 acc = 0u, any = 0u;
#pragma unroll 1
        for (u32 k = 0; k < w; ++k) {
            const u32 v = nx[k] & __ldg(m + k);
            d[k] = v;
            acc |= v & __ldg(tb + 4u * w + k);
            any |= v;
        }
        if (acc) return true;
        live = any != 0u;
    }
    if (!live) return false;
#pragma unroll 1
    for (u32 k = 0; k < w; ++k) {
        if (d[k] & __ldg(tb + 5u * w + k)) return true;
    }
    return false;
}

// Automaton a over the line, by its words; its byte_starts first copied
// to the lane's column of `first`.
__device__ bool automaton_matches(const Book& b, u32 a, const StagedBytes& at, u64 s, u64 e,
                                  u32* first)
{
    const u32* bs = b.byte_starts + (u64)a * 8u;
#pragma unroll
    for (u32 k = 0; k < 8; ++k) first[k * 256u] = __ldg(bs + k);
    const u32 w = __ldg(b.heads + (u64)a * 8u + 2u);
    if (w == 1u) return narrow_matches<1>(b, a, at, s, e, first);
    if (w == 2u) return narrow_matches<2>(b, a, at, s, e, first);
    if (w <= 4u) return narrow_matches<4>(b, a, at, s, e, first);
    return wide_matches(b, a, at, s, e, first);
}

extern "C" __global__ void __launch_bounds__(256, 4)
confirm(const unsigned char* __restrict__ text, u64 n, u32 term, const u32* __restrict__ cand,
        const u32* __restrict__ heads, const unsigned char* __restrict__ class_of,
        const u32* __restrict__ byte_starts, const u32* __restrict__ masks,
        const u32* __restrict__ tables, const u32* __restrict__ exc_map,
        const u32* __restrict__ exc_from, const u32* __restrict__ exc_to,
        const u32* __restrict__ exc_word, const u32* __restrict__ exc_mask, u32 slot_log2,
        const u32* __restrict__ slots, const u32* __restrict__ keys,
        const u32* __restrict__ first, const u32* __restrict__ starts,
        const unsigned char* __restrict__ bytes, const u32* __restrict__ owner_start,
        const u32* __restrict__ owners, const u32* __restrict__ required,
        u32* __restrict__ bitmap, u32* __restrict__ counts,
        u64 tiles, u32* __restrict__ unsure)
{
    extern __shared__ __align__(16) unsigned char shared[];
    const u32 warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    unsigned char* staged = shared + warp * STAGED;
    u32* queue = (u32*)(shared + 8u * STAGED) + warp * QUEUE * 2u;
    u32* lane_first = (u32*)(shared + 8u * STAGED + 8u * QUEUE * 8u) + threadIdx.x;
    __shared__ u32 queued[8];
    if (lane == 0) queued[warp] = 0u;
    u32* lane_sig = lane_first + 8u * 256u;
    const Book b = {heads, class_of, byte_starts, masks, tables,
                    exc_map, exc_from, exc_to, exc_word, exc_mask};
    const u32 slot_mask = (1u << slot_log2) - 1u;
    bool any_unsure = false;
    const u64 pieces = tiles * PIECES_PER_TILE;
    const u64 stride = (u64)gridDim.x * PIECES_PER_TILE;
    for (u64 piece = (u64)blockIdx.x * PIECES_PER_TILE + warp; piece < pieces; piece += stride) {
        const u64 base = piece * PIECE_BYTES;
        const u64 len = n > base ? (n - base < STAGED ? n - base : STAGED) : 0u;
        // SAFETY of the reads: base is a multiple of 16 and text 16-byte
        // aligned; a load at k*16 < len ends at most 15 bytes past n,
        // inside PAD_BYTES.
        const uint4* src = (const uint4*)(text + base);
        __syncwarp();  // the lanes are done with the last piece
        for (u32 k = lane; (u64)k * 16u < len; k += 32u) ((uint4*)staged)[k] = __ldg(src + k);
        __syncwarp();
        const StagedBytes at = {staged, text, base, len};
        const u64 lo = base + (u64)lane * BYTES_PER_THREAD;
        const u64 hi = lo + BYTES_PER_THREAD;
        u32 out[4] = {0u, 0u, 0u, 0u};
        u64 s = first_line_start(at, n, term, lo, hi);
        while (s < hi && s < n) {
            // The line's end, whether it is ASCII, and its trigram mask
            // (book/trigrams.rs `line_mask`: ASCII letters folded), found
            // while the warp's lanes still walk their lines together.
            u64 e = s;
            u32 high = 0u, t = 0u;
#pragma unroll
            for (u32 k = 0; k < 8; ++k) lane_sig[k * 256u] = 0u;
            for (; e < n; ++e) {
                const u32 c = at(e);
                if (c == term) break;
                high |= c;
                t = (t << 8) | (c - 65u < 26u ? c | 0x20u : c);
                if (e >= s + 2u) {
                    const u32 h = trigram_bit(t);
                    lane_sig[(h >> 5) * 256u] |= 1u << (h & 31u);
                }
            }
            const bool ascii = (high & 0x80u) == 0u;
            // The line [s, e): its cand bits, in order. A rule without an
            // automaton for the line makes it unsure (and ends it); the
            // others' runs are queued (or run here when the queue is full).
            bool open = false, matched = false;
            u32 tried[TRIED];
            u32 ntried = 0;
            for (u64 w = s >> 5; !open && (w << 5) < e; ++w) {
                u32 bits = __ldg(cand + w);
                if ((w << 5) < s) bits &= 0xffffffffu << (s & 31u);
                if (((w + 1) << 5) > e) bits &= (e & 31u) ? ((1u << (e & 31u)) - 1u) : 0u;
                while (bits && !open) {
                    const u64 p = (w << 5) + (u64)(__ffs(bits) - 1);
                    bits &= bits - 1u;
                    if (p + 3u > e) continue;
                    const u32 key = at(p) | at(p + 1) << 8 | at(p + 2) << 16;
                    u32 u = NO_SLOT;
                    for (u32 hh = book_hash(key, slot_log2);; hh = (hh + 1u) & slot_mask) {
                        const u32 x = __ldg(slots + hh);
                        if (x == NO_SLOT) break;
                        if (__ldg(keys + x) == key) { u = x; break; }
                    }
                    if (u == NO_SLOT) continue;
                    const u32 kend = __ldg(first + u + 1);
                    for (u32 k = __ldg(first + u); k < kend && !open; ++k) {
                        const u32 st = __ldg(starts + k), len = __ldg(starts + k + 1) - st;
                        if (p + len > e) continue;
                        bool same = true;
                        for (u32 i = 3; i < len && same; ++i) same = at(p + i) == __ldg(bytes + st + i);
                        if (!same) continue;
                        const u32 oend = __ldg(owner_start + k + 1);
                        for (u32 o = __ldg(owner_start + k); o < oend && !open; ++o) {
                            const u32 r = __ldg(owners + o);
                            // tried: indexed by unrolled compares, so it stays in registers.
                            bool seen = false;
#pragma unroll
                            for (u32 t = 0; t < TRIED; ++t) seen = seen || (t < ntried && tried[t] == r);
                            if (seen) continue;
#pragma unroll
                            for (u32 t = 0; t < TRIED; ++t) {
                                if (t == ntried % TRIED) tried[t] = r;
                            }
                            ++ntried;
                            if (!may_match(required, r, lane_sig)) continue;
                            const u32 a = 2u * r + (ascii ? 0u : 1u);
                            if (__ldg(heads + (u64)a * 8u + 4u) == 0u) {
                                open = true;
                            } else if (!matched) {
                                const u64 eo = e - base;
                                u32 slot = QUEUE;
                                if (eo < MATCHED && a < (1u << 20)) slot = atomicAdd(queued + warp, 1u);
                                if (slot < QUEUE) {
                                    queue[2u * slot] = (u32)(s - base) | a << 12;
                                    queue[2u * slot + 1u] = (u32)eo;
                                } else {
                                    matched = automaton_matches(b, a, at, s, e, lane_first);
                                }
                            }
                        }
                    }
                }
            }
            if (open || matched) {
                const u64 off = s - lo;
                out[off >> 5] |= 1u << (off & 31u);
                any_unsure = any_unsure || open;
            }
            s = e + 1;
        }
        // The queued runs, on every lane; then each lane marks its lines
        // that one of them matched.
        __syncwarp();
        const u32 count = min(queued[warp], QUEUE);
        for (u32 i = lane; i < count; i += 32u) {
            const u32 x = queue[2u * i], eo = queue[2u * i + 1u];
            if (automaton_matches(b, x >> 12, at, base + (x & 0xfffu), base + eo, lane_first)) {
                queue[2u * i + 1u] = eo | MATCHED;
            }
        }
        __syncwarp();
        for (u32 i = 0; i < count; ++i) {
            const u32 off = queue[2u * i] & 0xfffu;
            if ((queue[2u * i + 1u] & MATCHED) && (off >> 7) == lane) {
#pragma unroll
                for (u32 k = 0; k < 4; ++k) {
                    if (k == ((off & 127u) >> 5)) out[k] |= 1u << (off & 31u);
                }
            }
        }
        __syncwarp();
        if (lane == 0) queued[warp] = 0u;
        const u64 w0 = piece * (PIECE_BYTES / 32u) + (u64)lane * 4u;
        u32 cnt = 0u;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            bitmap[w0 + k] = out[k];
            cnt += __popc(out[k]);
        }
        for (int o = 16; o > 0; o >>= 1) cnt += __shfl_down_sync(0xffffffffu, cnt, o);
        if (lane == 0 && cnt) atomicAdd(counts + piece / PIECES_PER_TILE, cnt);
    }
    if (any_unsure) atomicOr(unsure, 1u);
}
