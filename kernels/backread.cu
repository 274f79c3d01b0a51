// The character-boundary back-read over a search kernel's bitmap. Host
// side: src/engine/gpu/backread.rs (CPU mirror) and src/engine/gpu/chunk.rs
// (launch).

#include "common.cuh"

// ---------------------------------------------------------------------------
// The character-boundary back-read.
//
// In a legacy multi-byte encoding (Shift_JIS, EUC-JP, EUC-KR, Big5, GBK /
// gb18030) a byte search for a transcoded pattern also hits inside
// characters: an ASCII letter is the trail byte of many kanji. This kernel
// runs after a search kernel (literal.cu, multi.cu) and before scan_counts: it clears the
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
    __shared__ u32 scratch[256];  // block_sum: one entry a thread (launch bound 256)
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
