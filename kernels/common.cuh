// Shared by every gpugrep kernel family (kernels/*.cu, one NVRTC module
// each; kernels/build-ptx passes this directory as the include path, and
// build.rs hashes each .cu together with the headers it includes): the
// tile layout, the integer types and the block-wide helpers.
//
// Shared layout, mirrored in src/engine/gpu/kernels.rs (keep them in sync):
//   * The text is cut into tiles of TILE_BYTES bytes. Tile t covers text bytes
//     [t*TILE_BYTES, (t+1)*TILE_BYTES). The last tile may run past the text's
//     end n; the device text buffer is allocated to tiles*TILE_BYTES + PAD_BYTES
//     bytes and the host zeroes everything past n, so every read below stays
//     inside the allocation.
//   * The result bitmap has one bit per text byte: bit b of 32-bit word w is
//     set iff a match starts at byte 32*w + b. It holds tiles*TILE_WORDS words;
//     every word is written exactly once by exactly one thread (no atomics, no
//     pre-clearing); bits at or past n - m + 1 are always 0.
//   * counts[t] is the number of set bits in tile t's TILE_WORDS words, written
//     by thread 0 of the block that searched the tile. The compaction kernels
//     turn counts into offsets.
//   * A match at p needs p + m <= n. Offsets are 64-bit: texts may exceed 4 GiB.

#ifndef GPUGREP_COMMON_CUH
#define GPUGREP_COMMON_CUH

#define TILE_BYTES 32768u
#define TILE_WORDS (TILE_BYTES / 32u)
#define MAX_BLOCK 1024

typedef unsigned int u32;
typedef unsigned long long u64;

// A word byte for -w on ASCII text, [0-9A-Za-z_] (glushkov/word.rs
// `is_word_byte`).
__device__ __forceinline__ bool is_word_byte(u32 b)
{
    return b - 48u < 10u || (b | 0x20u) - 97u < 26u || b == 95u;
}

// A block-wide barrier that threads may reach from divergent code: PTX's
// non-aligned `barrier.sync` (`__syncthreads()` is `bar.sync`, which is
// `barrier.sync.aligned` and asserts that every warp arrives converged).
__device__ __forceinline__ void barrier_divergent()
{
    asm volatile("barrier.sync 0;" ::: "memory");
}

// Sum of v over the block (blockDim.x a multiple of 32, at most MAX_BLOCK).
// Every thread must call it; the result is valid in thread 0 only. `scratch`
// holds one entry per thread (blockDim.x) and may be reused after the call
// returns.
//
// The kernels call it after per-thread loops whose trip counts differ from
// lane to lane, so it uses no warp collective (shuffle, vote, __syncwarp)
// and only non-aligned barriers: its answer does not rest on the compiler
// reconverging each warp after the loop. ptxas 12.0 and 12.4 leave that
// reconvergence (a WARPSYNC) out of the automaton kernel's sm_90 code, and
// 12.0-12.9 out of its sm_75 code; with the shuffles NVRTC 12.0's sm_90
// code summed lanes that had not arrived (session 57). Its barriers are
// still reached by split warps there (synccheck says so), but on Volta and
// later a barrier holds each thread until all arrive, and the sum came
// out right (session 58).
__device__ __forceinline__ u32 block_sum(u32 v, u32* scratch)
{
    const u32 t = threadIdx.x;
    scratch[t] = v;
    barrier_divergent();
    // Thread t < 32 adds the entries t, t + 32, ...: its own slots alone,
    // so it may write its partial into scratch[t].
    if (t < 32u) {
        u32 part = 0;
#pragma unroll 8
        for (u32 i = t; i < blockDim.x; i += 32u) part += scratch[i];
        scratch[t] = part;
    }
    barrier_divergent();
    u32 total = 0;
    if (t == 0) {
#pragma unroll 8
        for (u32 i = 0; i < 32u; ++i) total += scratch[i];
    }
    barrier_divergent();
    return total;
}

// Exclusive prefix sum of v over the block (blockDim.x a multiple of 32, at
// most MAX_BLOCK); *total receives the block's sum. Every thread must call it.
__device__ __forceinline__ u64 block_exclusive_scan(u64 v, u64* scratch, u64* total)
{
    const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    u64 inc = v;
    for (int o = 1; o < 32; o <<= 1) {
        u64 up = __shfl_up_sync(0xffffffffu, inc, o);
        if (lane >= (u32)o) inc += up;
    }
    if (lane == 31) scratch[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        const u32 nw = blockDim.x >> 5;
        u64 s = lane < nw ? scratch[lane] : 0ull;
        for (int o = 1; o < 32; o <<= 1) {
            u64 up = __shfl_up_sync(0xffffffffu, s, o);
            if (lane >= (u32)o) s += up;
        }
        if (lane < nw) scratch[lane] = s;  // inclusive scan of warp sums
    }
    __syncthreads();
    const u64 warp_base = warp == 0 ? 0ull : scratch[warp - 1];
    *total = scratch[(blockDim.x >> 5) - 1];
    __syncthreads();
    return warp_base + inc - v;
}

// Mask of the bits of the word starting at byte `base` whose positions are
// valid match starts (p <= last, where last = n - m; `any` is n >= m).
__device__ __forceinline__ u32 valid_mask(u64 base, bool any, u64 last)
{
    if (!any || base > last) return 0u;
    const u64 d = last - base;
    return d >= 31 ? 0xffffffffu : ((2u << d) - 1u);
}

// The first line start in [lo, hi) of a text of n bytes whose lines start
// at byte 0 and after every terminator, or a value >= hi when none does;
// `at(i)` reads text byte i. A thread owning [lo, hi) takes the lines that
// start there.
template <class Bytes>
__device__ __forceinline__ u64 first_line_start(const Bytes& at, u64 n, u32 term, u64 lo, u64 hi)
{
    u64 s = lo;
    if (s > 0 && s < n && at(s - 1) != term) {
        while (s < n && s < hi && at(s) != term) ++s;
        ++s;  // past the terminator (or past hi: no line starts here)
    }
    return s;
}

// Text bytes read straight from global memory.
struct GlobalBytes {
    const unsigned char* __restrict__ text;
    __device__ __forceinline__ u32 operator()(u64 i) const { return __ldg(text + i); }
};

// True iff text[0..len) == pat[0..len).
__device__ __forceinline__ bool equal_tail(const unsigned char* __restrict__ text,
                                           const unsigned char* __restrict__ pat, u32 len)
{
    for (u32 i = 0; i < len; ++i) {
        if (__ldg(text + i) != __ldg(pat + i)) return false;
    }
    return true;
}

#endif // GPUGREP_COMMON_CUH
