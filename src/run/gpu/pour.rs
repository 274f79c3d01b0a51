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
//! file; a longer one is searched in pieces and the CPU prints it from the
//! GPU's verdict or by decompressing it again (`mod.rs`).
//!
//! A read error (damaged or truncated data) ends the pouring and hands the
//! file to the CPU engine, which decompresses it again and reports exactly
//! what it reports on its own: nothing found in the poured pieces is used.

use super::flow::{Flow, Job};
use super::pack::{Piece, Plan};
use super::ring::{Filling, Ring};
use super::searcher::Backend;
use super::stats;
use super::unpack::fill;
use crate::encoding::BOM_PROBE;
use std::collections::HashMap;
use std::io::Read;
use std::sync::{mpsc, Arc};
use std::time::Instant;

impl<'r> Flow<'_, 'r> {
    /// Pours item `file`'s decompressed `stream` into chunks for the lanes.
    pub(super) fn pour(
        &self,
        file: usize,
        mut stream: Box<dyn Read + Send + '_>,
        ring: &'r Ring,
        backend: &Backend,
        jobs: &mpsc::Sender<(Arc<Job>, Filling<'r>)>,
    ) {
        let overlap = self.search.target.cut_overlap(self.shape.chunk);
        let mut carry: Vec<u8> = Vec::new();
        let mut file_off = 0u64;
        // The file's first bytes, for the byte-order mark.
        let mut head = None;
        loop {
            let Some(mut chunk) = self.lease(ring, backend) else {
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
            let job = Job::new(plan, HashMap::new());
            if jobs.send((job, chunk)).is_err() || last {
                return;
            }
        }
    }
}
