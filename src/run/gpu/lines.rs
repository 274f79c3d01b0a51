//! `-n` on the GPU path: each chunk's line terminators, counted on the GPU
//! per block (`engine::gpu::lines`), become spans of its pieces' files
//! ([`LineCount`], in file offsets). A large file's split search numbers
//! its pieces from them (`offsets::FileOffsets::terminators_at`) rather
//! than by reading each piece once more on the CPU.
//!
//! Only whole blocks inside a piece give a span: a block that holds a
//! separator or bytes of two files counts nothing of either, and the
//! bytes it holds are counted on the CPU where they are asked for.

use super::offsets::LineCount;
use super::pack::Plan;
use crate::engine::gpu::{HOLDS_NUL, LINE_BLOCK};

/// Per piece of `plan`, the spans of its whole blocks, ascending, from the
/// per-block counts of the chunk's `plan.len` bytes.
pub(super) fn piece_spans(plan: &Plan, blocks: &[u32]) -> Vec<Vec<LineCount>> {
    let block_end = |b: usize| ((b + 1) * LINE_BLOCK).min(plan.len);
    plan.pieces
        .iter()
        .map(|p| {
            let end = p.chunk_off + p.len;
            (p.chunk_off.div_ceil(LINE_BLOCK)..blocks.len())
                .take_while(|&b| block_end(b) <= end)
                .map(|b| {
                    let start = p.file_off + (b * LINE_BLOCK - p.chunk_off) as u64;
                    LineCount {
                        start,
                        end: start + (block_end(b) - b * LINE_BLOCK) as u64,
                        terminators: u64::from(blocks[b] & !HOLDS_NUL),
                        holds_nul: blocks[b] & HOLDS_NUL != 0,
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gpu::line_blocks_reference;
    use crate::run::gpu::pack::Piece;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every span lies in its piece and counts the terminators of the
        /// file's bytes it names; the pieces' whole blocks all give one.
        #[test]
        fn spans_count_their_file_bytes(
            sizes in prop::collection::vec(0usize..2 * LINE_BLOCK + 100, 1..4),
            first_off in 0u64..5000,
            seed in any::<u64>(),
        ) {
            // Files laid out one after another with a separator each; the
            // first continues a file cut at `first_off`.
            let mut x = seed | 1;
            let mut byte = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b"ab\n"[(x % 3) as usize]
            };
            let mut chunk = Vec::new();
            let mut files = Vec::new();
            let mut pieces = Vec::new();
            for (k, &len) in sizes.iter().enumerate() {
                let file_off = if k == 0 { first_off } else { 0 };
                let file: Vec<u8> = (0..file_off as usize + len).map(|_| byte()).collect();
                pieces.push(Piece { file: k, file_off, chunk_off: chunk.len(), len, last: true });
                chunk.extend_from_slice(&file[file_off as usize..]);
                chunk.push(b'\n');
                files.push(file);
            }
            let plan = Plan { pieces, len: chunk.len() };
            let spans = piece_spans(&plan, &line_blocks_reference(&chunk, b'\n'));
            for (p, spans) in plan.pieces.iter().zip(&spans) {
                let whole = (p.chunk_off.div_ceil(LINE_BLOCK)..)
                    .take_while(|b| ((b + 1) * LINE_BLOCK).min(plan.len) <= p.chunk_off + p.len)
                    .count();
                prop_assert_eq!(spans.len(), whole);
                for s in spans {
                    prop_assert!(s.start >= p.file_off && s.end <= p.file_off + p.len as u64);
                    let bytes = &files[p.file][s.start as usize..s.end as usize];
                    prop_assert_eq!(s.terminators as usize, bytes.iter().filter(|&&b| b == b'\n').count());
                    prop_assert_eq!(s.holds_nul, bytes.contains(&0));
                }
                prop_assert!(spans.windows(2).all(|w| w[0].end == w[1].start));
            }
        }
    }
}
