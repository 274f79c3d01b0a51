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
//            of rule r, book.rs `head`; word 5: 0, or 1 + the rule's lead
//            on the automaton's lines, book/anchor.rs; word 6: with a lead,
//            the bytes past the literal start where its run begins,
//            book/skip.rs)  class_of
//            (u8[2*rules*256])
//            byte_starts (u32[2*rules*8]: the bytes that may start a match)
//            masks  tables (u32, per automaton
//            `words` words each of shift, self_loop, first_any, first_bol,
//            last_any, last_eol, has_exc)  exc_map (u32, per automaton one
//            per position: its exception or NO_SLOT)  exc_from exc_to
//            (u32[exceptions])  exc_word exc_mask  slot_log2 (1..31, plus
//            FOLD_FLAG when the literals are lowered: the text is looked up
//            with its ASCII capitals lowered, book.rs `fold`; plus
//            WORD_FLAG when -w's boundaries are in the automata, book.rs
//            `word`: a start position is entered only at the line's start
//            or after a byte that is not a word byte (is_word_byte), a
//            final one reached at a byte matches only when the next byte
//            is not a word byte or the line ends; the book then has ASCII
//            automata only, and a line of ASCII bytes after a UTF-8
//            byte-order mark runs them, the mark matching no position:
//            the host makes sure each such line starts a file, which the
//            CPU judges again)  slots
//            (u32[1 << slot_log2]: an index into keys, or NO_SLOT)  keys (u32:
//            literals' first 3 bytes, little-endian)  first (u32[nkeys + 1])
//            starts (u32[nlit + 1])  bytes (u8)  owner_start (u32[nlit + 1])
//            owners (u32)  required (u32[rules*8]: each rule's trigram mask,
//            book/trigrams.rs)  links (u32[nlit]: each literal's longest
//            proper prefix among the literals, or NO_SLOT; the literals
//            are in byte order)  bitmap (u32[tiles*TILE_WORDS], not cand)
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
// loads and goes on to its next piece without waiting for the block.
// Before a rule's automaton walks the line, its required trigrams are
// tested against the line's (found in the walk to the line's end): most
// candidate rules stop there. The runs left are queued and run once the
// warp's lines are walked, flattened: every lane holds a run and steps it
// a byte per turn, and a lane whose run ended, or whose line another run
// has marked, takes the next one. Lines and runs vary in length, so runs
// shared out a round of 32 at a time kept most lanes waiting for the
// longest (ncu: 3.85 of 32 lanes active with 10,000 rules), and a queue
// of 64 overflowed (runs then went in place, on one lane): with 10,000
// rules most 4 KiB pieces queue over 112 runs, and 1% of runs overflow
// 128 (measured on the CPU mirror over 64 MiB of the logs corpus).
// A rule whose matches begin at most a few bytes before one of its
// literals (its lead: 0 for 1,575 of loghub's 1,733 templates and most of
// gitleaks' rules, which begin with one; 1-52 bytes on ASCII lines for
// 70 more of gitleaks') runs over its
// lead before each of its literal starts in the line, its start states
// entered up to the literal only, and stops where its state empties past
// it; the others run once a line from its start. Over loghub the
// templates' one-word runs took 72% fewer steps with the anchored runs,
// gitleaks' wider ones 59% fewer (the CPU mirror's counts).
// Nearly every run is of a one-word automaton (99.4%); the wider ones run
// after them, a run per lane, their words in registers up to 4 and from
// memory beyond. A lane whose line finds the queue full stalls (it goes on
// from that literal start once the warp has run the queue), so no run
// goes in place: a call there kept phase 1's values on the stack.
//
// The literals at a cand bit are found by a binary search of the literals
// sharing its first 3 bytes and their prefix chain (`links`): trying each
// (a key such as "htt" leads 1,125 of a 10,000-rule pack's literals) was
// a third of the kernel's time. Offsets are 32-bit from the piece's start, and
// the kernel takes 128 registers (two blocks an SM) so that nothing
// spills: at 64 registers phase 1 spilled and local loads were a fifth of
// the instructions (10,000 rules, 64 MiB: 5.65 ms at 64 registers, 4.62
// ms at 128; before these changes 17 ms).

#include "common.cuh"

#define RULE_WORDS 64
#define FOLD_FLAG 0x100u
#define WORD_FLAG 0x200u
#define TRIED 8
#define NO_SLOT 0xffffffffu
#define BYTES_PER_THREAD (TILE_BYTES / 256u)
// A warp's piece of a tile: its 32 lanes' bytes.
#define PIECE_BYTES (32u * BYTES_PER_THREAD)
#define PIECES_PER_TILE (TILE_BYTES / PIECE_BYTES)
// Bytes past its piece a warp stages, for the lines ending there.
#define SPILL 256u
#define STAGED (PIECE_BYTES + SPILL)
// Automaton runs a warp defers to run them on all its lanes: per run
// (RUN_WORDS words), the line's start in the piece and the automaton
// (start | a << 12), the line's end from the piece's start, WIDE when the
// automaton has more than one word, and the line's start, or with LED
// where its lead ends: the literal start plus the rule's skip (book.rs
// head LEAD, SKIP).
#define QUEUE 128u
#define RUN_WORDS 3u
#define WIDE 0x80000000u
#define LED 0x80000000u
// Offsets from a piece's start stay below this (a line's end is queued
// beside WIDE).
#define LINE_LIMIT 0x7fffffffu
// A warp's marks: a bit per byte of its piece, set at the start of each
// line found (atomicOr: any lane's run may mark any line).
#define MARK_WORDS (PIECE_BYTES / 32u)
// Dynamic shared memory: each warp's staged bytes and queue, then each
// lane's column of its line's trigram mask (8 words of 256 lanes), then
// each warp's marks.
#define SHARED_BYTES (8u * STAGED + 8u * QUEUE * RUN_WORDS * 4u + 8u * 256u * 4u + 8u * MARK_WORDS * 4u)

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
    // -w's boundaries (WORD_FLAG).
    bool word;
};

// Text bytes at offsets from a warp's piece: from its staged copy of the
// first len bytes, else from global memory (text is the piece's start).
struct PieceBytes {
    const unsigned char* staged;
    const unsigned char* __restrict__ text;
    u32 len;
    __device__ __forceinline__ u32 operator()(u32 k) const
    {
        return k < len ? (u32)staged[k] : (u32)__ldg(text + k);
    }
};

// Text bytes at offsets from the text's start: from the piece (at, which
// starts at offset base) at and past its start, else from global memory.
// A lane's search for its first line start reads the byte before its
// bytes (before the piece for lane 0) and then its own.
struct FromText {
    const PieceBytes& at;
    const unsigned char* __restrict__ text;
    u64 base;
    __device__ __forceinline__ u32 operator()(u64 i) const
    {
        return i >= base ? at((u32)(i - base)) : (u32)__ldg(text + i);
    }
};

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

// Byte b with an ASCII capital lowered when fold is 0x20 (unchanged
// when 0).
__device__ __forceinline__ u32 lowered(u32 b, u32 fold)
{
    return b | ((b - 65u < 26u ? 0x20u : 0u) & fold);
}

// Literal k (its first 3 bytes equal the line's at p) sorts at or below
// the line [., e) from p: byte order, a line that ends inside the literal
// being the smaller (multi.cuh `not_above`, within the line); the line as
// lowered with fold. *equal: how many of the literal's first bytes the
// line holds from p (its length when it occurs there).
__device__ __forceinline__ bool not_above(const PieceBytes& at, u32 p, u32 e,
                                          const unsigned char* __restrict__ bytes,
                                          const u32* __restrict__ starts, u32 k, u32 fold,
                                          u32* equal)
{
    const u32 st = __ldg(starts + k), len = __ldg(starts + k + 1) - st;
    for (u32 i = 3; i < len; ++i) {
        *equal = i;
        if (p + i >= e) return false;
        const u32 t = lowered(at(p + i), fold), c = __ldg(bytes + st + i);
        if (t != c) return t > c;
    }
    *equal = len;
    return true;
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

// Whether byte may start a match of the automaton whose byte_starts
// words are at bs.
__device__ __forceinline__ bool may_start(const u32* __restrict__ bs, u32 byte)
{
    return (__ldg(bs + (byte >> 5)) >> (byte & 31u)) & 1u;
}

// Where a run of automaton a over the line [s, e) begins: its line's
// start, or with `led` the lead before the literal start p (book.rs head
// LEAD), within the line.
__device__ __forceinline__ u32 run_from(const Book& b, u32 a, u32 s, u32 p, bool led)
{
    return led ? p - min(__ldg(b.heads + (u64)a * 8u + 5u) - 1u, p - s) : s;
}

// Automaton a (present, of w <= N words, N <= 4) over the line [s, e),
// with `led` from its lead before the literal start p (its start states
// entered up to p only, the run over once its state is empty past p):
// whether it matches (run.rs `matches`). Its word tables are held in
// registers for the whole line; first_bol is read at the line's start
// only, last_eol at its end.
template <u32 N>
__device__ bool narrow_matches(const Book& b, u32 a, const PieceBytes& at, u32 s, u32 p, u32 e,
                               bool led)
{
    const Head hd = head_of(b, a);
    const u32 w = hd.words;
    const u32 *tb = hd.tables, *mk = hd.masks, *map = hd.exc_map;
    const u32* bs = b.byte_starts + (u64)a * 8u;
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
    bool live = false, ended = false;
    for (u32 i = run_from(b, a, s, p, led); i < e; ++i) {
        const u32 byte = at(i);
        if (ended && !is_word_byte(byte)) return true;
        const bool at_start = i == s;
        if (!live && led && i > p) return false;
        if (!live && !at_start && !may_start(bs, byte)) continue;
        const bool opens = led ? i <= p : !b.word || at_start || !is_word_byte(at(i - 1u));
        const u32 c = __ldg(cls + byte);
        u32 carry = 0u;
#pragma unroll
        for (u32 k = 0; k < N; ++k) {
            if (k < w) {
                const u32 x = d[k];
                u32 v = ((x << 1) | carry) & shift[k];
                v |= x & loop[k];
                if (opens) v |= any_start[k];
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
        if (acc && !b.word) return true;
        ended = acc != 0u;
        live = any != 0u;
    }
    if (ended) return true;
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
__device__ bool wide_matches(const Book& b, u32 a, const PieceBytes& at, u32 s, u32 p, u32 e,
                             bool led)
{
    const Head hd = head_of(b, a);
    const u32 w = hd.words;
    const u32 *tb = hd.tables, *mk = hd.masks, *map = hd.exc_map;
    const u32* bs = b.byte_starts + (u64)a * 8u;
    const unsigned char* cls = hd.class_of;
    u32 d[RULE_WORDS], nx[RULE_WORDS];
#pragma unroll 1
    for (u32 k = 0; k < w; ++k) d[k] = 0u;
    bool live = false, ended = false;
    for (u32 i = run_from(b, a, s, p, led); i < e; ++i) {
        const u32 byte = at(i);
        if (ended && !is_word_byte(byte)) return true;
        const bool at_start = i == s;
        if (!live && led && i > p) return false;
        if (!live && !at_start && !may_start(bs, byte)) continue;
        const bool opens = led ? i <= p : !b.word || at_start || !is_word_byte(at(i - 1u));
        const u32 c = __ldg(cls + byte);
        u32 carry = 0u;
#pragma unroll 1
        for (u32 k = 0; k < w; ++k) {
            const u32 x = d[k];
            u32 v = ((x << 1) | carry) & __ldg(tb + k);
            v |= x & __ldg(tb + w + k);
            if (opens) v |= __ldg(tb + 2u * w + k);
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
        if (acc && !b.word) return true;
        ended = acc != 0u;
        live = any != 0u;
    }
    if (ended) return true;
    if (!live) return false;
#pragma unroll 1
    for (u32 k = 0; k < w; ++k) {
        if (d[k] & __ldg(tb + 5u * w + k)) return true;
    }
    return false;
}

// Automaton a (of more than one word: one-word runs go through
// OneWordRun) over the line [s, e), with `led` from its lead before p, by
// its words.
__device__ bool automaton_matches(const Book& b, u32 a, const PieceBytes& at, u32 s, u32 p,
                                  u32 e, bool led)
{
    const u32 w = __ldg(b.heads + (u64)a * 8u + 2u);
    if (w == 2u) return narrow_matches<2>(b, a, at, s, p, e, led);
    if (w <= 4u) return narrow_matches<4>(b, a, at, s, p, e, led);
    return wide_matches(b, a, at, s, p, e, led);
}

// A queued run of a one-word automaton, stepped a byte per call by a lane
// of the flattened pass (narrow_matches for one word, without its skip: the warp
// steps together, so a lane skipping a byte would save no step).
struct OneWordRun {
    u32 d, shift, loop, any_start, bol, last, eol, exc;
    const u32* masks;
    const u32* exc_map;
    const unsigned char* class_of;
    u32 i, s, last_open, e;
    bool led;

    __device__ __forceinline__ void load(const Book& b, u32 a, u32 start, u32 p, u32 end,
                                         bool led_there)
    {
        const Head hd = head_of(b, a);
        const u32* tb = hd.tables;
        shift = __ldg(tb);
        loop = __ldg(tb + 1);
        any_start = __ldg(tb + 2);
        bol = __ldg(tb + 3);
        last = __ldg(tb + 4);
        eol = __ldg(tb + 5);
        exc = __ldg(tb + 6);
        masks = hd.masks;
        exc_map = hd.exc_map;
        class_of = hd.class_of;
        d = 0u;
        s = start;
        i = run_from(b, a, start, p, led_there);
        last_open = p;
        e = end;
        led = led_there;
    }

    // A run from a lead whose state emptied past its literal start can
    // match no more.
    __device__ __forceinline__ bool dead() const { return led && i > last_open && d == 0u; }

    // One byte (i < e), prev the byte before it (if i > s): true when a
    // match ends there (-w: ended at the byte before, this one not a word
    // byte).
    __device__ __forceinline__ bool step(const Book& b, u32 byte, u32 prev)
    {
        if (b.word && (d & last) && !is_word_byte(byte)) return true;
        const bool opens = led ? i <= last_open : !b.word || i == s || !is_word_byte(prev);
        u32 v = ((d << 1) & shift) | (d & loop) | (opens ? any_start : 0u);
        if (i == s) v |= bol;
        u32 bits = d & exc;
        while (bits) {
            const u32 x = __ldg(exc_map + (u32)(__ffs(bits) - 1));
            bits &= bits - 1u;
            const u32 to = __ldg(b.exc_to + x);
            for (u32 j = __ldg(b.exc_from + x); j < to; ++j) v |= __ldg(b.exc_mask + j);
        }
        d = v & __ldg(masks + __ldg(class_of + byte));
        ++i;
        return !b.word && (d & last) != 0u;
    }

    // At the line's end (i == e): whether a match ends there.
    __device__ __forceinline__ bool ends(const Book& b) const
    {
        return (d & eol) != 0u || (b.word && (d & last) != 0u);
    }
};

extern "C" __global__ void __launch_bounds__(256, 2)
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
        const u32* __restrict__ links, u32* __restrict__ bitmap, u32* __restrict__ counts,
        u64 tiles, u32* __restrict__ unsure)
{
    extern __shared__ __align__(16) unsigned char shared[];
    const u32 warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    unsigned char* staged = shared + warp * STAGED;
    u32* queue = (u32*)(shared + 8u * STAGED) + warp * QUEUE * RUN_WORDS;
    u32* lane_sig = (u32*)(shared + 8u * STAGED + 8u * QUEUE * RUN_WORDS * 4u) + threadIdx.x;
    u32* marks = (u32*)(shared + 8u * STAGED + 8u * QUEUE * RUN_WORDS * 4u + 8u * 256u * 4u) +
                 warp * MARK_WORDS;
    __shared__ u32 queued[8];
    if (lane == 0) queued[warp] = 0u;
    const Book b = {heads,    class_of, byte_starts, masks,    tables,
                    exc_map,  exc_from, exc_to,      exc_word, exc_mask,
                    (slot_log2 & WORD_FLAG) != 0u};
    const u32 fold = (slot_log2 & FOLD_FLAG) ? 0x20u : 0u;
    slot_log2 &= FOLD_FLAG - 1u;
    const u32 slot_mask = (1u << slot_log2) - 1u;
    bool any_unsure = false;
    const u64 pieces = tiles * PIECES_PER_TILE;
    const u64 stride = (u64)gridDim.x * PIECES_PER_TILE;
    for (u64 piece = (u64)blockIdx.x * PIECES_PER_TILE + warp; piece < pieces; piece += stride) {
        const u64 base = piece * PIECE_BYTES;
        const u64 rest = n > base ? n - base : 0u;
        const u32 len = (u32)min(rest, (u64)STAGED);
        // Offsets from base stay below LINE_LIMIT; a line running past it
        // is left to the CPU (unsure).
        const u32 lim = (u32)min(rest, (u64)LINE_LIMIT);
        // SAFETY of the reads: base is a multiple of 16 and text 16-byte
        // aligned; a load at k*16 < len ends at most 15 bytes past n,
        // inside PAD_BYTES.
        const uint4* src = (const uint4*)(text + base);
        __syncwarp();  // the lanes are done with the last piece
        for (u32 k = lane; k * 16u < len; k += 32u) ((uint4*)staged)[k] = __ldg(src + k);
#pragma unroll
        for (u32 k = 0; k < 4; ++k) marks[4u * lane + k] = 0u;
        __syncwarp();
        const PieceBytes at = {staged, text + base, len};
        const u32* const cand_words = cand + (base >> 5);
        const u32 hi = (lane + 1u) * BYTES_PER_THREAD;
        u32 s = (u32)(first_line_start(FromText{at, text, base}, n, term,
                                       base + lane * BYTES_PER_THREAD, base + hi) -
                      base);
        // After a full queue: the literal start the lane's line goes on
        // from, and the owners visited there already (queued).
        u32 from = NO_SLOT, from_visits = 0u;
        bool done = s >= hi || s >= lim;
        for (;;) {
            bool stalled = false;
            while (!done && !stalled) {
                // The line's end, whether it is ASCII, and its trigram mask
                // (book/trigrams.rs `line_mask`: ASCII letters folded), from
                // the staged copy, then, for the rare line running past it,
                // from global memory.
                u32 high = 0u, t = 0u;
#pragma unroll
                for (u32 k = 0; k < 8; ++k) lane_sig[k * 256u] = 0u;
                // -w: a byte-order mark first leaves the line ASCII.
                const bool bom = b.word && at(s) == 0xEFu && at(s + 1u) == 0xBBu &&
                                 at(s + 2u) == 0xBFu;
                auto take = [&](u32 c, u32 i) {
                    if (!bom || i >= s + 3u) high |= c;
                    t = (t << 8) | (c - 65u < 26u ? c | 0x20u : c);
                    if (i >= s + 2u) {
                        const u32 h = trigram_bit(t);
                        lane_sig[(h >> 5) * 256u] |= 1u << (h & 31u);
                    }
                };
                u32 e = s;
                for (; e < len; ++e) {
                    const u32 c = staged[e];
                    if (c == term) break;
                    take(c, e);
                }
                if (e == len) {
                    for (; e < lim; ++e) {
                        const u32 c = __ldg(text + base + e);
                        if (c == term) break;
                        take(c, e);
                    }
                }
                bool open = e == lim && (u64)lim < rest;
                const bool ascii = (high & 0x80u) == 0u;
                // A line another round's runs marked runs no more.
                bool matched = (marks[s >> 5] >> (s & 31u)) & 1u;
                // The line's cand bits, in order (from `from` after a full
                // queue). A rule without an automaton for the line makes it
                // unsure (and ends it); the others' runs are queued; a full
                // queue stalls the lane until the warp has run it.
                const u32 start = from == NO_SLOT ? s : from;
                u32 tried[TRIED];
                u32 ntried = 0;
                for (u32 w = start >> 5; !open && !stalled && (w << 5) < e; ++w) {
                    u32 bits = __ldg(cand_words + w);
                    if ((w << 5) < start) bits &= 0xffffffffu << (start & 31u);
                    if (((w + 1u) << 5) > e) bits &= (e & 31u) ? ((1u << (e & 31u)) - 1u) : 0u;
                    while (bits && !open && !stalled) {
                        const u32 p = (w << 5) + (u32)(__ffs(bits) - 1);
                        bits &= bits - 1u;
                        if (p + 3u > e) continue;
                        const u32 key = lowered(at(p), fold) | lowered(at(p + 1u), fold) << 8 |
                                        lowered(at(p + 2u), fold) << 16;
                        u32 u = NO_SLOT;
                        for (u32 hh = book_hash(key, slot_log2);; hh = (hh + 1u) & slot_mask) {
                            const u32 x = __ldg(slots + hh);
                            if (x == NO_SLOT) break;
                            if (__ldg(keys + x) == key) { u = x; break; }
                        }
                        if (u == NO_SLOT) continue;
                        // The greatest literal of the key's group not above
                        // the line from p: every literal there is on its
                        // chain of prefixes (links), the longest first; the
                        // search tested it last among those found not
                        // above, so `held` is how much of it the line holds
                        // (a prefix on its chain occurs iff no longer).
                        u32 lo = __ldg(first + u), top = __ldg(first + u + 1);
                        const u32 group = lo;
                        u32 held = 3u;
                        while (lo < top) {
                            const u32 mid = (lo + top) >> 1;
                            u32 equal;
                            if (not_above(at, p, e, bytes, starts, mid, fold, &equal)) {
                                lo = mid + 1u;
                                held = equal;
                            } else {
                                top = mid;
                            }
                        }
                        const u32 skip = p == from ? from_visits : 0u;
                        u32 visit = 0u;
                        bool occurs = false;
                        for (u32 k = lo > group ? lo - 1u : NO_SLOT; k != NO_SLOT && !open && !stalled;
                             k = __ldg(links + k)) {
                            if (!occurs) {
                                occurs = __ldg(starts + k + 1) - __ldg(starts + k) <= held;
                                if (!occurs) continue;
                            }
                            const u32 oend = __ldg(owner_start + k + 1);
                            for (u32 o = __ldg(owner_start + k); o < oend && !open; ++o, ++visit) {
                                if (visit < skip) continue;
                                const u32 r = __ldg(owners + o);
                                const u32 a = 2u * r + (ascii ? 0u : 1u);
                                // A rule with a lead runs over it before each of
                                // its literal starts; the others once a line
                                // (tried: indexed by unrolled compares).
                                const bool led = __ldg(heads + (u64)a * 8u + 5u) != 0u;
                                if (!led) {
                                    bool seen = false;
#pragma unroll
                                    for (u32 q = 0; q < TRIED; ++q)
                                        seen = seen || (q < ntried && tried[q] == r);
                                    if (seen) continue;
#pragma unroll
                                    for (u32 q = 0; q < TRIED; ++q) {
                                        if (q == ntried % TRIED) tried[q] = r;
                                    }
                                    ++ntried;
                                }
                                if (!may_match(required, r, lane_sig)) continue;
                                if (__ldg(heads + (u64)a * 8u + 4u) == 0u) {
                                    open = true;
                                } else if (!matched) {
                                    const u32 slot = a < (1u << 20) ? atomicAdd(queued + warp, 1u) : QUEUE;
                                    if (slot < QUEUE) {
                                        const bool wide = __ldg(heads + (u64)a * 8u + 2u) > 1u;
                                        u32* q = queue + RUN_WORDS * slot;
                                        q[0] = s | a << 12;
                                        q[1] = e | (wide ? WIDE : 0u);
                                        // A run with a lead begins its skip past p
                                        // (book/skip.rs: the literal's bytes).
                                        q[2] = led ? (p + __ldg(heads + (u64)a * 8u + 6u)) | LED : s;
                                    } else if (a < (1u << 20)) {
                                        stalled = true;
                                        from = p;
                                        from_visits = visit;
                                        break;
                                    } else {
                                        open = true;  // an automaton number past the queue's field
                                    }
                                }
                            }
                        }
                    }
                }
                if (stalled) break;
                if (open) {
                    atomicOr(marks + (s >> 5), 1u << (s & 31u));
                    any_unsure = true;
                }
                s = e + 1u;
                from = NO_SLOT;
                done = s >= hi || s >= lim;
            }
            __syncwarp();
            const u32 count = min(queued[warp], QUEUE);
            // The queued one-word runs, flattened: each lane holds a run
            // and steps it a byte per turn; a lane whose run ended (or whose
            // line another run already marked) takes the next queued run.
            OneWordRun run;
            bool have = false;
            for (u32 next = 0u;;) {
                const u32 need = __ballot_sync(0xffffffffu, !have);
                if (next < count && need) {
                    const u32 k = next + __popc(need & ((1u << lane) - 1u));
                    next += __popc(need);
                    if (!have && k < count) {
                        const u32* q = queue + RUN_WORDS * k;
                        const u32 x = q[0], eo = q[1], fr = q[2];
                        if (!(eo & WIDE)) {
                            run.load(b, x >> 12, x & 0xfffu, fr & ~LED, eo, (fr & LED) != 0u);
                            have = true;
                        }
                    }
                }
                if (!__any_sync(0xffffffffu, have) && next >= count) break;
                if (!have) continue;
                const u32 bit = 1u << (run.s & 31u);
                if ((marks[run.s >> 5] & bit) || run.dead()) {
                    have = false;
                } else if (run.i < run.e) {
                    const u32 prev = run.i > run.s ? at(run.i - 1u) : 0u;
                    if (run.step(b, at(run.i), prev)) {
                        atomicOr(marks + (run.s >> 5), bit);
                        have = false;
                    }
                } else {
                    if (run.ends(b)) atomicOr(marks + (run.s >> 5), bit);
                    have = false;
                }
            }
            // The wider ones (rare), a run per lane.
            for (u32 k = lane; k < count; k += 32u) {
                const u32* q = queue + RUN_WORDS * k;
                const u32 x = q[0], eo = q[1], fr = q[2];
                const u32 o = x & 0xfffu, bit = 1u << (o & 31u);
                if (!(eo & WIDE) || (marks[o >> 5] & bit)) continue;
                if (automaton_matches(b, x >> 12, at, o, fr & ~LED, eo & ~WIDE, (fr & LED) != 0u))
                    atomicOr(marks + (o >> 5), bit);
            }
            __syncwarp();
            if (lane == 0) queued[warp] = 0u;
            __syncwarp();
            if (!__any_sync(0xffffffffu, stalled)) break;
        }
        const u64 w0 = piece * (PIECE_BYTES / 32u) + (u64)lane * 4u;
        u32 cnt = 0u;
#pragma unroll
        for (u32 k = 0; k < 4; ++k) {
            const u32 m = marks[4u * lane + k];
            bitmap[w0 + k] = m;
            cnt += __popc(m);
        }
        for (int o = 16; o > 0; o >>= 1) cnt += __shfl_down_sync(0xffffffffu, cnt, o);
        if (lane == 0 && cnt) atomicAdd(counts + piece / PIECES_PER_TILE, cnt);
    }
    if (any_unsure) atomicOr(unsure, 1u);
}
