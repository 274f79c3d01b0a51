//! The line terminators of a chunk, counted on the GPU per block of
//! [`LINE_BLOCK`] bytes (kernels/tally.cu: `count_terminators`), for `-n`.
//!
//! A large file's `-n` search is split into pieces among the CPU threads
//! (`search::split`), and each piece's first line number is the sum of
//! the terminators before it. The threads counted them by reading every
//! piece once more: 9.6 % of the CPU samples of `-n` with 1,000 rules over
//! 16 GiB of logs (H200 host). The chunk is on the GPU already, where
//! counting it costs one pass at memory speed; what comes home is one
//! `u32` per 64 KiB (the run's pipeline turns them into per-file spans,
//! `run::gpu::lines`).

use cudarc::driver::{result, LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::memory::ptr;
use super::GpuError;
use crate::search::count::count_byte_and_nul;

/// Bytes per counted block: a multiple of 16 (the kernel reads 16 bytes
/// at a time). 64 KiB blocks bring home 64 KiB of counts per 4 GiB, and
/// leave a split piece of 1 MiB or more mostly covered by whole blocks.
pub const LINE_BLOCK: usize = 64 << 10;

/// Set in a block's count where the block holds a NUL byte and the
/// terminator is not NUL: a file none of whose bytes is NUL needs no
/// watch for binary data while its lines are printed (`run::gpu::offsets`).
pub const HOLDS_NUL: u32 = 1 << 31;

/// The bytes `term` in each [`LINE_BLOCK`] of `text` (the last block may
/// be shorter), each with [`HOLDS_NUL`]: what the kernel computes, and the
/// CPU mirror's answer (counted as the CPU engine counts lines,
/// `search::count`).
pub fn reference(text: &[u8], term: u8) -> Vec<u32> {
    text.chunks(LINE_BLOCK)
        .map(|b| {
            let (n, nul) = count_byte_and_nul(b, term);
            n as u32 | if nul && term != 0 { HOLDS_NUL } else { 0 }
        })
        .collect()
}

impl Device {
    /// [`reference`] over the text resident on the GPU, which must be
    /// `text` (the chunk searched last); over `text` on the CPU when it is
    /// not (the search returned before uploading it: fewer bytes than the
    /// shortest pattern).
    pub(super) fn count_terminators(
        &mut self,
        text: &[u8],
        term: u8,
    ) -> Result<Vec<u32>, GpuError> {
        let n = text.len() as u64;
        if n == 0 || self.resident != n {
            return Ok(reference(text, term));
        }
        let blocks = text.len().div_ceil(LINE_BLOCK);
        let out = self
            .line_counts
            .ensure(&self.stream, blocks, "allocating line counts")?;
        let out_ptr = ptr(out, &self.stream);
        let grid = u32::try_from(blocks).map_err(|_| GpuError::Cuda("text too large".into()))?;
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let (block_bytes, term32) = (LINE_BLOCK as u32, u32::from(term));
        let mut b = self.stream.launch_builder(&self.f.count_terminators);
        b.arg(self.text.get("count_terminators")?)
            .arg(&n)
            .arg(&block_bytes)
            .arg(&term32)
            .arg(&out_ptr);
        // SAFETY: count_terminators' contract (tally.cu): one block of 256
        // threads per LINE_BLOCK (a multiple of 16) of the resident n
        // bytes, the device text buffer (16-byte aligned, a fresh
        // allocation), and `out` holding `blocks` u32s (ensure above).
        unsafe { b.launch(cfg) }.map_err(cuda("launching count_terminators"))?;
        let mut host = vec![0u32; blocks];
        // SAFETY: the device buffer holds `blocks` u32s; the copy is waited
        // for before `host` is read.
        unsafe { result::memcpy_dtoh_async(&mut host[..], out_ptr, self.stream.cu_stream()) }
            .map_err(cuda("reading line counts"))?;
        self.stream.synchronize().map_err(cuda("counting lines"))?;
        Ok(host)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Block by block, the terminators of the bytes: obviously correct
        /// against a byte-at-a-time count, for `\n` and `-z`'s NUL.
        #[test]
        fn reference_counts_each_blocks_terminators(
            len in 0..3 * LINE_BLOCK,
            seed in any::<u64>(),
            nul in any::<bool>(),
        ) {
            // Bytes from a small generator: a, \n and (mostly rare) NUL.
            let mut x = seed | 1;
            let rare = seed % 2 == 0;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    match (rare, x % 100_000) {
                        (true, 0) => 0,
                        (true, _) => b"aaa\n"[(x % 4) as usize],
                        (false, _) => b"aaa\n\0"[(x % 5) as usize],
                    }
                })
                .collect();
            let t = if nul { 0 } else { b'\n' };
            let got = reference(&text, t);
            prop_assert_eq!(got.len(), text.len().div_ceil(LINE_BLOCK));
            for (k, n) in got.iter().enumerate() {
                let block = &text[k * LINE_BLOCK..((k + 1) * LINE_BLOCK).min(text.len())];
                let count = block.iter().filter(|&&b| b == t).count();
                let holds_nul = t != 0 && block.contains(&0);
                prop_assert_eq!(*n & !HOLDS_NUL, count as u32);
                prop_assert_eq!(*n & HOLDS_NUL != 0, holds_nul);
            }
        }
    }
}
