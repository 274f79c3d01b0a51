// From a bitmap to offsets: scan_counts (prefix sum of the tile counts)
// and compact. Host side: src/engine/gpu/chunk.rs.

#include "common.cuh"

// ---------------------------------------------------------------------------
// scan_counts: exclusive prefix sum of the per-tile match counts.
//
// Launch contract:
//   grid = (1, 1, 1); block = (1024, 1, 1); dynamic shared = 0.
//   args = counts (u32[tiles]), tiles, offsets (u64[tiles], out), total (u64[1], out).
//   Thread t owns the contiguous run of ceil(tiles/1024) counts starting at
//   t*ceil(tiles/1024): it sums them, the block scans the sums, then it writes
//   its run's exclusive prefixes. total[0] = sum of all counts.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(1024)
scan_counts(const u32* __restrict__ counts, u64 tiles, u64* __restrict__ offsets,
            u64* __restrict__ total)
{
    __shared__ u64 scratch[32];
    const u64 per = (tiles + blockDim.x - 1) / blockDim.x;
    const u64 lo = (u64)threadIdx.x * per;
    const u64 hi = lo + per < tiles ? lo + per : tiles;
    u64 sum = 0;
    for (u64 i = lo; i < hi; ++i) sum += counts[i];
    u64 all;
    u64 run = block_exclusive_scan(sum, scratch, &all);
    for (u64 i = lo; i < hi; ++i) {
        offsets[i] = run;
        run += counts[i];
    }
    if (threadIdx.x == 0) total[0] = all;
}

// ---------------------------------------------------------------------------
// compact: bitmap -> ascending match offsets.
//
// Launch contract:
//   grid = (min(tiles, cap), 1, 1); block = (256, 1, 1); dynamic shared = 0.
//   args = bitmap (u32[tiles*TILE_WORDS], 16-byte aligned), offsets (u64[tiles],
//          from scan_counts), tiles, out (u64[total], out).
//   Blocks walk tiles blockIdx.x, +gridDim.x, ... In a tile, thread t owns
//   bitmap words 4t..4t+3 (one 16-byte load); the block scans the threads'
//   popcounts so each thread knows where its first offset goes, then writes
//   its set bits' text offsets in ascending order. Out is written exactly
//   once per match, in ascending order overall.
// ---------------------------------------------------------------------------
extern "C" __global__ void __launch_bounds__(256)
compact(const u32* __restrict__ bitmap, const u64* __restrict__ offsets, u64 tiles,
        u64* __restrict__ out)
{
    __shared__ u64 scratch[32];
    for (u64 tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const uint4 q = __ldg(reinterpret_cast<const uint4*>(bitmap + tile * TILE_WORDS) + threadIdx.x);
        const u32 c = __popc(q.x) + __popc(q.y) + __popc(q.z) + __popc(q.w);
        u64 all;
        u64 pos = offsets[tile] + block_exclusive_scan(c, scratch, &all);
        const u64 wbase = tile * TILE_WORDS + 4u * threadIdx.x;
        const u32 ws[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            u32 bits = ws[k];
            while (bits) {
                const u32 bit = __ffs(bits) - 1u;
                bits &= bits - 1u;
                out[pos++] = (wbase + k) * 32u + bit;
            }
        }
    }
}
