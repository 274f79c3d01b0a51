// gpugrep per-file tallies (CUDA C, compiled to PTX by kernels/build-ptx with
// NVRTC for compute_70; the PTX is committed and embedded by build.rs).
//
// `-c`, `--count-matches`, `-l`, `-L` and `-q` need one number per file, not
// every match: counting on the GPU keeps the match offsets there. The input
// is the match bitmap a search kernel of literal.cu left (bit b of word w set
// iff a match starts at byte 32*w + b) over a chunk holding whole files,
// each followed by a terminator byte.
//
// Launch contract (tally):
//   * text: the chunk's n bytes on the GPU; bitmap: at least ceil(n/32) u32
//     words, every set bit a match start p < n.
//   * starts[k], ends[k] for k < pieces: the byte range of file k in the
//     chunk, ascending and disjoint (ends[k] <= starts[k+1]).
//   * counts: 2 * pieces u32, zeroed before the launch; gave_up: one u32,
//     zeroed before the launch.
//   * term: the line terminator; no match contains it.
//   * counts[pieces + k] = set bits inside file k; counts[k] = lines of file
//     k holding at least one: a bit counts when, walking back from it, the
//     file's start or a terminator comes before another set bit. A walk
//     longer than `reach` bytes stops and sets *gave_up: the host then
//     ships the offsets instead (a long line).
//   * Any grid, any block size (grid-stride over bitmap words).

typedef unsigned int u32;
typedef unsigned long long u64;

extern "C" __global__ void __launch_bounds__(256)
tally(const unsigned char* text, u64 n, const u32* bitmap, const u64* starts,
      const u64* ends, u32 pieces, u32 term, u32 reach, u32* counts,
      u32* gave_up)
{
    const u64 words = (n + 31) / 32;
    const u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 w = (u64)blockIdx.x * blockDim.x + threadIdx.x; w < words; w += stride) {
        u32 bits = bitmap[w];
        while (bits) {
            const u32 b = __ffs(bits) - 1;
            bits &= bits - 1;
            const u64 p = w * 32 + b;
            // The file holding p: the last k with starts[k] <= p.
            u32 lo = 0, hi = pieces;
            while (lo < hi) {
                const u32 mid = (lo + hi) / 2;
                if (starts[mid] <= p) lo = mid + 1; else hi = mid;
            }
            if (lo == 0) continue;
            const u32 k = lo - 1;
            if (p >= ends[k]) continue;
            atomicAdd(&counts[pieces + k], 1u);
            bool first = true;
            const u64 s = starts[k];
            u64 q = p;
            u32 walked = 0;
            while (q > s) {
                --q;
                if (text[q] == (unsigned char)term) break;
                if ((bitmap[q >> 5] >> (q & 31)) & 1u) { first = false; break; }
                if (++walked > reach) { atomicExch(gave_up, 1u); first = false; break; }
            }
            if (first) atomicAdd(&counts[k], 1u);
        }
    }
}
