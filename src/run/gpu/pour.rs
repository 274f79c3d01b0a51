//! Pouring a decompressed stream into chunks (`--decompress`, a file
//! larger than the look-ahead holds whole; see `unpack`).
//!
//! The packer fills one chunk after another from the stream, each holding
//! one piece of the file, and hands each straight to the lanes (there is
//! nothing for the readers to read). Pieces overlap as `Packer` cuts a
//! file: the next piece starts `overlap` bytes before the previous one
//! ended, copied from its chunk's tail. Whether a full chunk is the
//! file's last is known by reading one byte more. A stream that fits in
//! its first chunk is one whole piece, searched and printed as any whole
//! file; a longer one is searched in pieces, which the board keeps while
//! they are fewer than the ring's free chunks (`Board::post`): the CPU
//! prints it from the GPU's verdict, from its pieces joined again
//! (`joined`), or, when they were too many to keep, by decompressing it
//! again (`mod.rs`).
//!
//! A read error (damaged or truncated data) ends the pouring and hands the
//! file to the CPU engine, which decompresses it again and reports exactly
//! what it reports on its own: nothing found in the poured pieces is used.

use super::flow::{Flow, Job};
use super::pack::{Piece, Plan};
use super::ring::{Filled, Filling, Ring};
use super::stats;
use super::unpack::fill;
use crate::encoding::BOM_PROBE;
use std::collections::HashMap;
use std::io::Read;
use std::ops::Range;
use std::sync::{mpsc, Arc};
use std::time::Instant;

impl<'r> Flow<'_, 'r> {
    /// Pours item `file`'s decompressed `stream` into chunks for the lanes.
    pub(super) fn pour(
        &self,
        file: usize,
        mut stream: Box<dyn Read + Send + '_>,
        ring: &'r Ring,
        jobs: &mpsc::Sender<(Arc<Job>, Filling<'r>)>,
    ) {
        let overlap = self.search.overlap(self.shape.chunk);
        let mut carry: Vec<u8> = Vec::new();
        let mut file_off = 0u64;
        // The file's first bytes, for the byte-order mark.
        let mut head = None;
        loop {
            let Some((id, mut chunk)) = self.lease(ring) else {
                return; // aborted; the packer closes the open entries
            };
            let t = Instant::now();
            let buf = chunk.bytes_mut();
            let size = buf.len();
            buf[..carry.len()].copy_from_slice(&carry);
            let mut probe = [0u8; 1];
            let read = fill(&mut stream, &mut buf[carry.len()..]).and_then(|n| {
                let len = carry.len() + n;
                let more = match len < size {
                    true => 0,
                    false => fill(&mut stream, &mut probe)?,
                };
                Ok((len, more == 0))
            });
            stats::add_since(&self.stages.decompress_ns, t);
            let Ok((len, last)) = read else {
                stats::add(&self.stages.decompress_cpu_files, 1);
                return self.board.to_cpu(file);
            };
            let piece = Piece {
                file,
                file_off,
                chunk_off: 0,
                len,
                last,
            };
            let plan = Plan {
                len: if last { (len + 1).min(size) } else { len },
                pieces: vec![piece],
            };
            let head = head.get_or_insert_with(|| buf[..len.min(BOM_PROBE)].to_vec());
            if last {
                let total = file_off + len as u64;
                if file_off > 0 {
                    stats::add(&self.stages.poured_files, 1);
                }
                stats::add(&self.stages.decompressed_files, 1);
                stats::add(&self.stages.decompressed_bytes, total);
                self.board.poured(file, std::mem::take(head), total);
            } else {
                // `len` is the whole chunk, longer than the overlap.
                carry = [&buf[len - overlap..len], &probe[..]].concat();
                file_off += (len - overlap) as u64;
            }
            self.board.add_pieces(&plan);
            let job = Job::new(id, plan, HashMap::new());
            if jobs.send((job, chunk)).is_err() || last {
                return;
            }
        }
    }
}

/// A poured file's text from its kept pieces (the chunk, the piece's range
/// in it, its offset in the file), overlaps dropped; `None` unless they
/// cover exactly `total` bytes from the start.
pub(super) fn joined(kept: &[(Filled<'_>, Range<usize>, u64)], total: u64) -> Option<Vec<u8>> {
    let mut order: Vec<_> = kept.iter().collect();
    order.sort_by_key(|(_, _, at)| *at);
    let mut text = Vec::with_capacity(usize::try_from(total).ok()?);
    for (chunk, range, at) in order {
        let skip = (text.len() as u64).checked_sub(*at)?;
        let bytes = chunk.bytes(range.clone());
        text.extend_from_slice(bytes.get(usize::try_from(skip).ok()?..)?);
    }
    (text.len() as u64 == total).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::gpu::ring::Memory;

    /// Pieces overlapping as pouring cuts them, in any order, join into the
    /// text; a gap or a short end joins into nothing.
    #[test]
    fn kept_pieces_join_into_the_text() {
        let text = b"0123456789abcdef";
        let ring = Ring::new(3);
        let heap = |n: usize| Memory::Heap(vec![0u8; n].into_boxed_slice());
        // Chunks of 8 bytes, overlap 2: pieces at 0, 6, 12.
        let pieces: Vec<_> = [(0usize, 8usize), (6, 8), (12, 4)]
            .iter()
            .map(|&(at, len)| {
                let mut c = ring.lease(8, heap, || false).unwrap();
                c.bytes_mut()[..len].copy_from_slice(&text[at..at + len]);
                (c.filled(), 0..len, at as u64)
            })
            .collect();
        let shuffled = vec![pieces[2].clone(), pieces[0].clone(), pieces[1].clone()];
        assert_eq!(joined(&shuffled, 16).as_deref(), Some(&text[..]));
        assert_eq!(joined(&pieces, 17), None);
        assert_eq!(joined(&[pieces[0].clone(), pieces[2].clone()], 16), None);
        assert_eq!(joined(&pieces[1..], 16), None);
    }
}
