//! The lanes: each drives one [`ChunkSearcher`] (a GPU stream, or the
//! CPU mirror) over filled chunks: writes the separators, searches the
//! chunk (for `-n`, counts its lines too), and posts each piece's results
//! to the board. A dense chunk or a failed search makes its files CPU
//! searches; a failure also stops the GPU for the rest of the run.

use super::board::Posted;
use super::flow::{next, Flow, Job};
use super::lines::piece_spans;
use super::offsets::LineCount;
use super::pack::{self, Plan};
use super::ring::Filling;
use super::searcher::ChunkSearcher;
use super::stats::{self, Fallback};
use super::trace::Event;
use crate::encoding::{FilePlan, BOM_PROBE};
use crate::engine::gpu::backread::Backread;
use crate::engine::gpu::{ChunkFound, GpuError, Tally};
use crate::pattern::glushkov::word::BOM;
use crate::search::splits_at;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A chunk with more than one match per this many bytes (and more than
/// `DENSE_MIN_MATCHES`) is searched by the CPU: the offsets would cost
/// more than they save.
const DENSE_BYTES_PER_MATCH: usize = 32;
const DENSE_MIN_MATCHES: usize = 1024;

impl<'r> Flow<'_, 'r> {
    /// A lane: searches filled chunks and posts each piece's results.
    pub(super) fn search_jobs(
        &self,
        searcher: &mut dyn ChunkSearcher,
        jobs: &Mutex<Receiver<(Arc<Job>, Filling<'r>)>>,
    ) {
        while let Some((job, mut chunk)) = next(jobs) {
            let plan = &job.plan;
            let t = Instant::now();
            self.stages.trace.note(job.id, Event::Searching);
            let skip = plan
                .pieces
                .iter()
                .all(|p| self.board.settled(p.file) || self.board.given_up(p.file));
            for at in plan.separators() {
                chunk.bytes_mut()[at] = self.search.terminator;
            }
            let chunk = chunk.filled();
            if !skip {
                self.stages.in_flight.begin(job.id, plan.len as u64);
            }
            let mut tallied = false;
            let mut stray = false;
            let found = if self.board.aborted() {
                Err(GpuError::Cuda("stopped".into()))
            } else if skip {
                Ok(ChunkFound::Offsets(Vec::new()))
            } else {
                let text = chunk.bytes(0..plan.len);
                let cap = (plan.len / DENSE_BYTES_PER_MATCH).max(DENSE_MIN_MATCHES) as u64;
                let backread = self.search.scheme.map(|scheme| Backread {
                    scheme,
                    start_is_boundary: plan.starts_a_file(),
                });
                let tally = self.tally_of(plan, text);
                tallied = tally.is_some();
                let mut search =
                    || searcher.search(text, self.search.target, backread, cap, tally.as_ref());
                let found;
                (found, stray) = match self.search.target.steps_over_line_boms() {
                    false => (search(), false),
                    // A byte-order mark starting a line other than a file's
                    // first (`stray_line_bom`), looked for beside the GPU's
                    // search (in the lane before it: 16 GiB of -w, 2.13 →
                    // 2.66 s): the files go to the CPU engine.
                    true => std::thread::scope(|scope| {
                        let scan = || self.stray_line_bom(plan, text);
                        let beside = std::thread::Builder::new().spawn_scoped(scope, scan);
                        let found = search();
                        let stray = match beside {
                            Ok(h) => h.join().unwrap_or(true),
                            Err(_) => scan(),
                        };
                        (found, stray)
                    }),
                };
                match found {
                    Ok(_) if stray => Ok(ChunkFound::Dense(0)),
                    Ok(ChunkFound::CountsUnsure(counts, lines)) => {
                        Ok(self.judge_unsure(text, counts, &lines))
                    }
                    Ok(ChunkFound::Unsure(marks))
                        if self.search.target.unsure_only_past_ascii() =>
                    {
                        Ok(self.judge_unsure_marks(text, marks))
                    }
                    other => other,
                }
            };
            // -n: the chunk's lines, counted where it lies (`lines`), when
            // a piece's file may be split (a whole file below the split
            // size is searched by one thread, which counts as it prints);
            // none if the count fails (the CPU counts then, as without).
            let may_split = |p: &pack::Piece| !p.whole() || splits_at(p.len as u64);
            let lines = match &found {
                Ok(ChunkFound::Offsets(_) | ChunkFound::Unsure(_))
                    if self.search.count_lines && !skip && plan.pieces.iter().any(may_split) =>
                {
                    let text = chunk.bytes(0..plan.len);
                    let blocks = searcher.terminators(text, self.search.terminator).ok();
                    if blocks.is_some() {
                        stats::add(&self.stages.line_counted_chunks, 1);
                    }
                    blocks.map(|b| piece_spans(plan, &b))
                }
                _ => None,
            };
            stats::add_since(&self.stages.lane_ns, t);
            self.stages.trace.note(job.id, Event::Searched);
            if !skip {
                stats::add(&self.stages.chunks, 1);
                stats::add(&self.stages.gpu_bytes, plan.len as u64);
                self.stages.in_flight.end(job.id);
            }
            let long = self.long_lines(plan, chunk.bytes(0..plan.len));
            let whole = self.whole_lines(plan, chunk.bytes(0..plan.len));
            // Why a run that tallies got offsets from this chunk.
            let untallied = match (&found, self.search.tally) {
                (Ok(ChunkFound::Offsets(_)), Some(_)) if !skip => Some(match tallied {
                    true => Fallback::LongLine,
                    false => Fallback::CutChunk,
                }),
                // An unsure chunk's marks are candidates: named where the
                // marks would otherwise be final (a tally, or a pack's exact
                // lines, `search_entry`); elsewhere every mark is confirmed.
                (Ok(ChunkFound::Unsure(_)), _)
                    if !skip
                        && (self.search.tally.is_some() || self.search.target.exact_lines()) =>
                {
                    Some(Fallback::UnsureLines)
                }
                _ => None,
            };
            let posted = self.results(&job, found, stray, &long, &whole, untallied, lines);
            self.board.post(plan, &chunk, posted);
            self.stages.trace.note(job.id, Event::Posted);
        }
    }

    /// What a chunk's files are tallied by, when the run tallies and the
    /// chunk holds whole files only, or pieces whose owned lines can be
    /// counted (`Search::cut_tally`: each piece counts the lines it owns,
    /// `pack::owned_lines`; elsewhere a cut file ships offsets, as its
    /// lines may straddle the pieces). A file that starts with a UTF-8
    /// byte-order mark is tallied from after it, as the CPU engine searches
    /// it: a match starting inside the mark lies outside every file's
    /// range and counts nowhere, and lines start where the CPU's do, but
    /// for a rule pack's first line, which holds the mark here and which
    /// `bom_line` judges again (a file whose mark says UTF-16 is decoded:
    /// `search_entry` leaves it to the CPU).
    fn tally_of(&self, plan: &Plan, text: &[u8]) -> Option<Tally> {
        let mode = self.search.tally?;
        if !plan
            .pieces
            .iter()
            .all(|p| p.whole() || self.search.cut_tally)
        {
            return None;
        }
        let overlap = self.search.overlap(self.shape.chunk);
        let range = |p: &pack::Piece| {
            let bytes = &text[p.chunk_off..p.chunk_off + p.len];
            let owned = match p.whole() {
                true => 0..p.len,
                false => pack::owned_lines(p, bytes, overlap, self.search.terminator),
            };
            let start = match p.file_off {
                0 => self.skip_of(bytes),
                _ => owned.start,
            };
            let end = owned.end.max(start);
            ((p.chunk_off + start) as u64, (p.chunk_off + end) as u64)
        };
        let (starts, ends) = plan.pieces.iter().map(range).unzip();
        Some(Tally {
            starts,
            ends,
            term: self.search.terminator,
            count: mode.count,
            select: mode.select,
            total: mode.total,
        })
    }

    /// For a target that steps over a byte-order mark at a line's start
    /// (`Target::steps_over_line_boms`): whether `text` holds one at the
    /// start of a line that is not a file's first, with its mark skipped as
    /// the CPU engine skips it: that line's mark may be wrong either way (a
    /// rule's `\S` may take the mark's character on the CPU), so the
    /// chunk's files go to the CPU engine. A file's first line is judged
    /// again after its mark (`bom_line`).
    fn stray_line_bom(&self, plan: &Plan, text: &[u8]) -> bool {
        let t = self.search.terminator;
        let file_start = |at: usize| {
            plan.pieces.iter().any(|p| {
                p.file_off == 0
                    && p.chunk_off == at
                    && self.skip_of(&text[at..p.chunk_off + p.len]) == BOM.len()
            })
        };
        memchr::memmem::find_iter(text, BOM)
            .any(|at| (at == 0 || text[at - 1] == t) && !file_start(at))
    }

    /// The bytes of a UTF-8 byte-order mark that `file` (a file's first
    /// bytes) starts with, as the CPU engine skips them.
    fn skip_of(&self, file: &[u8]) -> usize {
        match self
            .search
            .encoding
            .for_file(&file[..file.len().min(BOM_PROBE)])
        {
            FilePlan::Raw { skip } => skip,
            FilePlan::Decode { .. } => 0,
        }
    }

    /// Per piece, for a kind that reports lines, or when cut files are
    /// tallied (`Search::cuts_at_lines`):
    /// the piece is cut at its end and no line terminator lies in the bytes
    /// the next piece repeats, so a line longer than the overlap crosses
    /// the cut and no piece holds it whole: the file goes to the CPU.
    fn long_lines(&self, plan: &Plan, text: &[u8]) -> Vec<bool> {
        if !self.search.cuts_at_lines() {
            return vec![false; plan.pieces.len()];
        }
        let overlap = self.search.overlap(self.shape.chunk);
        let t = self.search.terminator;
        plan.pieces
            .iter()
            .map(|p| {
                let end = p.chunk_off + p.len;
                !p.last && !text[end - overlap.min(p.len)..end].contains(&t)
            })
            .collect()
    }

    /// Per piece of a file cut across chunks, for a kind whose marks are
    /// exactly the selected lines (`Target::exact_lines`): the piece-relative
    /// line starts it owns (`pack::owned_lines`), whose lines lie whole in
    /// it, so that each line's mark counts once, as in a piece's tally. A
    /// line cut at a piece's end was judged on part of it; it lies whole
    /// in the next piece, whose overlap holds a terminator before it
    /// (`long_lines`), and is judged there.
    fn whole_lines(&self, plan: &Plan, text: &[u8]) -> Vec<std::ops::Range<usize>> {
        let overlap = self.search.overlap(self.shape.chunk);
        plan.pieces
            .iter()
            .map(|p| {
                if !self.search.target.exact_lines() || p.whole() {
                    return 0..usize::MAX;
                }
                let bytes = &text[p.chunk_off..p.chunk_off + p.len];
                let owned = pack::owned_lines(p, bytes, overlap, self.search.terminator);
                let lo = match p.file_off {
                    // The line holding a UTF-8 byte-order mark is judged
                    // after it, on the CPU (`bom_line`): its mark here
                    // must not settle the file (`Board::post`).
                    0 => usize::from(self.skip_of(bytes) > 0),
                    _ => owned.start,
                };
                let end = match p.last {
                    true => usize::MAX,
                    false => owned.end,
                };
                lo..end
            })
            .collect()
    }

    /// One chunk's search result, per piece (`stray`: see `stray_line_bom`,
    /// `long`: `long_lines`, `whole`: `whole_lines`).
    #[allow(clippy::too_many_arguments)]
    fn results(
        &self,
        job: &Job,
        found: Result<ChunkFound, GpuError>,
        stray: bool,
        long: &[bool],
        whole: &[std::ops::Range<usize>],
        untallied: Option<Fallback>,
        lines: Option<Vec<Vec<LineCount>>>,
    ) -> Vec<Posted> {
        let plan = &job.plan;
        let mut per_piece: Vec<Vec<u64>> = vec![Vec::new(); plan.pieces.len()];
        let mut counts = None;
        let all_cpu = match found {
            Ok(ChunkFound::Counts(c)) if c.len() == plan.pieces.len() => {
                stats::add(&self.stages.tallied_chunks, 1);
                counts = Some(c);
                None
            }
            // (Unsure counts were judged into counts: `judge_unsure`.)
            Ok(ChunkFound::Counts(_) | ChunkFound::CountsUnsure(..)) => Some(Fallback::GpuFailed),
            Ok(ChunkFound::Offsets(v) | ChunkFound::Unsure(v)) => {
                let shortest = self.search.target.shortest();
                let owned = |p: usize, off: u64| {
                    let piece = &plan.pieces[p];
                    whole[p].contains(&((off - piece.file_off) as usize))
                };
                // Each piece's list sized first: grown by doubling, a dense
                // chunk's lists (`-n`, 200 k lines a chunk) were copied and
                // faulted in again at every step.
                let mut sizes = vec![0usize; plan.pieces.len()];
                pack::assign(plan, &v, shortest, |p, off| {
                    sizes[p] += usize::from(owned(p, off));
                });
                for (list, &n) in per_piece.iter_mut().zip(&sizes) {
                    list.reserve_exact(n);
                }
                pack::assign(plan, &v, shortest, |p, off| {
                    if owned(p, off) {
                        per_piece[p].push(off);
                    }
                });
                None
            }
            Ok(ChunkFound::Dense(_)) if stray => Some(Fallback::LineByteOrderMark),
            Ok(ChunkFound::Dense(_)) => {
                stats::add(&self.stages.dense_chunks, 1);
                Some(Fallback::Dense)
            }
            Err(e) => {
                if !self.board.aborted() {
                    self.note(format!("GPU failed, CPU engine from here: {e}"));
                    self.board.fail();
                }
                Some(Fallback::GpuFailed)
            }
        };
        let bad = job.bad_files.lock().map(|b| b.clone()).unwrap_or_default();
        let mut lines = lines.unwrap_or_default().into_iter();
        plan.pieces
            .iter()
            .zip(per_piece)
            .enumerate()
            .map(|(k, (piece, offsets))| {
                let count = counts.as_ref().map(|c| c[k]);
                // The kernel met a non-ASCII byte beside a -w match.
                let word = count
                    .is_some_and(|c| c.cpu)
                    .then_some(Fallback::NonAsciiBesideWord);
                let long = long[k].then_some(Fallback::LineAcrossCut);
                Posted {
                    offsets,
                    count,
                    cpu: all_cpu.or(long).or(word),
                    untallied,
                    unreadable: bad.contains(&piece.file),
                    lines: lines.next().unwrap_or_default(),
                }
            })
            .collect()
    }
}
