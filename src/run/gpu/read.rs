//! The readers: each `pread`s units of about `UNIT_BYTES` (small pieces
//! together, large pieces cut) into its own part of a leased chunk, or
//! copies them from a file decompressed ahead (`unpack`); the reader that
//! finishes a chunk's last part hands the chunk to the lanes.
//! A file that cannot be read, is shorter or changed size since it was
//! listed is marked bad: the CPU searches it instead.

use super::flow::{next, Flow, Job};
use super::pack::Plan;
use super::ring::{Filling, Part};
use super::stats;
use super::trace::Event;
use crate::input::walk::{Input, Item};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Bytes read by one reader at a time (pieces are grouped or cut to this).
const UNIT_BYTES: usize = 4 << 20;

/// What one reader reads: one part of a chunk, covering these
/// (piece index, offset in the piece, length) ranges.
pub(super) struct Unit<'r> {
    pub(super) job: Arc<Job>,
    pub(super) part: Part<'r>,
    pub(super) parts: Vec<(usize, usize, usize)>,
}

impl<'r> Flow<'_, 'r> {
    /// A reader: reads file parts into chunks; a chunk whose last part is
    /// in goes to the lanes.
    pub(super) fn read_units(
        &self,
        units: &Mutex<Receiver<Unit<'r>>>,
        jobs: mpsc::Sender<(Arc<Job>, Filling<'r>)>,
    ) {
        while let Some(mut unit) = next(units) {
            let t = Instant::now();
            let job = &unit.job;
            let base = unit.part.range().start;
            if !self.board.aborted() {
                let mut open: Option<(usize, File)> = None;
                let dst = unit.part.bytes_mut();
                for &(p, at, len) in &unit.parts {
                    let piece = &job.plan.pieces[p];
                    if self.board.settled(piece.file) {
                        // Left as the chunk held it: what the GPU finds
                        // there is dropped (`Board::post`).
                        stats::add(&self.stages.settled_bytes, len as u64);
                        continue;
                    }
                    if self.board.given_up(piece.file) {
                        // The CPU engine searches the file whole.
                        stats::add(&self.stages.given_up_bytes, len as u64);
                        continue;
                    }
                    let from = piece.chunk_off + at - base;
                    let dst = &mut dst[from..from + len];
                    let off = piece.file_off + at as u64;
                    if let Some(blob) = job.blobs.get(&piece.file) {
                        // Decompressed ahead (`unpack`): copied, not read.
                        let from = usize::try_from(off).ok();
                        let end = from.and_then(|f| f.checked_add(len));
                        match from.zip(end).and_then(|(f, e)| blob.get(f..e)) {
                            Some(b) => dst.copy_from_slice(b),
                            None => job.bad(piece.file),
                        }
                        continue;
                    }
                    if !read_part(&mut open, self, piece.file, off, dst) {
                        job.bad(piece.file);
                    }
                }
            }
            stats::add_since(&self.stages.read_ns, t);
            if let Some(chunk) = unit.part.finish() {
                self.stages.trace.note(unit.job.id, Event::Filled);
                let _ = jobs.send((unit.job, chunk));
            }
        }
    }
}

/// The chunk range a unit's reads cover: from its first byte to its last
/// (separators between pieces included; they are written after the reads).
pub(super) fn span(plan: &Plan, reads: &[(usize, usize, usize)]) -> std::ops::Range<usize> {
    let at = |&(p, at, _): &(usize, usize, usize)| plan.pieces[p].chunk_off + at;
    let start = reads.first().map_or(0, at);
    let end = reads.last().map_or(0, |r| at(r) + r.2);
    start..end
}

/// Groups a plan's pieces into reads of about `UNIT_BYTES`: small pieces
/// together, large pieces cut. Parts are disjoint ranges of the chunk, in
/// ascending order (so units' spans are disjoint too).
pub(super) fn unit_parts(plan: &Plan) -> Vec<Vec<(usize, usize, usize)>> {
    let mut units = Vec::new();
    let mut cur = Vec::new();
    let mut bytes = 0;
    for (p, piece) in plan.pieces.iter().enumerate() {
        let mut at = 0;
        while at < piece.len {
            let len = (piece.len - at).min(UNIT_BYTES - bytes);
            cur.push((p, at, len));
            bytes += len;
            at += len;
            if bytes == UNIT_BYTES {
                units.push(std::mem::take(&mut cur));
                bytes = 0;
            }
        }
    }
    if !cur.is_empty() {
        units.push(cur);
    }
    units
}

/// Reads `dst.len()` bytes of item `file` from `at`; false if the file
/// cannot be opened, is shorter, or changed size since it was listed.
fn read_part(
    open: &mut Option<(usize, File)>,
    flow: &Flow,
    file: usize,
    at: u64,
    dst: &mut [u8],
) -> bool {
    if open.as_ref().map(|(f, _)| *f) != Some(file) {
        let Some(Item::Input(Input {
            path: Some(path), ..
        })) = flow.items.get(file)
        else {
            return false;
        };
        let Ok(f) = File::open(path) else {
            return false;
        };
        let listed = flow.sizes.get(file).copied().flatten();
        if f.metadata().ok().map(|m| m.len()) != listed {
            return false;
        }
        *open = Some((file, f));
    }
    let Some((_, f)) = open.as_ref() else {
        return false;
    };
    let mut done = 0;
    while done < dst.len() {
        match f.read_at(&mut dst[done..], at + done as u64) {
            Ok(0) => return false,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::gpu::pack::Packer;

    #[test]
    fn unit_parts_cover_every_piece_byte_once() {
        let mut packer = Packer::new(3 * UNIT_BYTES, 4);
        let mut plans = Vec::new();
        for (i, s) in [10u64, (UNIT_BYTES + 5) as u64, 7, (2 * UNIT_BYTES) as u64]
            .iter()
            .enumerate()
        {
            packer.push(i, *s, &mut plans);
        }
        packer.flush(&mut plans);
        for plan in &plans {
            let mut covered = vec![0u8; plan.len];
            let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
            for unit in unit_parts(plan) {
                assert!(unit.iter().map(|u| u.2).sum::<usize>() <= UNIT_BYTES);
                let s = span(plan, &unit);
                assert!(spans.last().is_none_or(|l| l.end <= s.start));
                for &(p, at, len) in &unit {
                    let start = plan.pieces[p].chunk_off + at;
                    assert!(s.start <= start && start + len <= s.end);
                    covered[start..start + len].iter_mut().for_each(|c| *c += 1);
                }
                spans.push(s);
            }
            for p in &plan.pieces {
                assert!(covered[p.chunk_off..p.chunk_off + p.len]
                    .iter()
                    .all(|&c| c == 1));
            }
        }
    }
}
