//! One large slice searched by several threads: line-aligned pieces, each
//! searched into a [`Output::piece`], appended in order as soon as every
//! piece before it is.
//!
//! Not where `-m` or JSON ties one line's output to another's. Context
//! does not: each piece prints the context it owes to selected lines
//! around it, and the appender the group separators between pieces
//! (`context`). Nor do line numbers: a piece's first line number is the sum
//! of the lines of the pieces before it. While the output is sparse, a
//! piece whose first line is not known yet is searched with its lines
//! numbered from 1 and renumbered once the pieces before it are counted
//! (`later`): each piece's own search counts its lines, once. Once the
//! output is dense, threads other than the slice's owner first count the
//! lines of pieces not counted yet (claimed one at a time, up to
//! [`COUNT_AHEAD`] pieces past the search), and a thread about to search
//! a piece counts those before it that nobody claimed, so every piece
//! numbers its lines as it prints them. The owner counts only where it
//! must: searching its pieces in order, it numbers each from the last and
//! counts the rest of it as it ends, so a file nobody helps with is
//! counted once, as one thread would (8 logs of 128 MiB, 2 threads, `-n
//! ERROR`: each file counted twice took 0.150 s, ripgrep 0.133 s). Where
//! the prefilter knows the terminators (`Matcher::terminators_at`: the GPU
//! counted them), a piece's count reads only its edges, and every piece
//! is numbered before it is searched.
//!
//! There are more pieces than threads (about [`PIECE_BYTES`] each), taken
//! in order: with one piece per thread, a 1.76 GB log file printed with
//! `-n` held 700 MB of output until its last piece was done, and the
//! ordered printer waited for all of it. Now the output flows as pieces
//! are done, what waits is a few pieces' output, and the piece printers
//! are reused.
//!
//! Who searches the pieces: threads started for the slice when it is the
//! run's only input; among many inputs, the run's own search threads,
//! through the offer of [`Helpers`] (`help`), earliest file first.

mod context;
pub(super) mod cuts;
mod faults;
mod in_order;
mod later;

use super::count::count_byte;
use super::help::{Helpers, Step};
use super::recycled::Recycled;
use super::{Outcome, Output, Search, SearchOptions, Sink};
use context::Track;
use cuts::Cuts;
use faults::MapFaults;
use in_order::InOrder;
use later::Recorder;
use std::collections::BTreeMap;
use std::io;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};

/// Below this size a slice is searched by one thread.
const SPLIT_MIN_BYTES: usize = 32 << 20;

/// Below this size a file begun in the run's tail (`Helpers::in_tail`) is
/// searched by one thread; from it on, it is mapped and split, and the
/// threads that run out of files search its pieces.
const TAIL_SPLIT_MIN_BYTES: usize = 4 << 20;

/// About the size of a piece, when the slice is large enough and few
/// threads search it. A mapped file's pages count as the process's memory
/// from when a piece is counted or searched until it is searched: with
/// 8 MiB, 8 logs of 128 MiB on 2 threads (`-n -F ERROR`) peaked at 66 MB,
/// 2.4x ripgrep; 4 MiB, 51 MB at the same speed; 2 MiB, 50 MB but dense
/// output 8 % slower.
const PIECE_BYTES: usize = 4 << 20;

/// What the pieces being searched at once may span, all threads together
/// (down to 1 MiB a piece): with 4 MiB pieces 16 threads over 1 GiB of
/// logs in 8 files (`-n -F ERROR`) held 90 MB on the dev VM (rg 48 MB),
/// with 2 MiB 71 MB, and dense output (`-n -F INFO`) went 0.87 → 0.72 s.
const PIECES_IN_FLIGHT: usize = 32 << 20;

/// The pages the kernel maps around a faulting one of a file's map
/// (Linux's `fault_around_bytes`, 64 KiB unless changed).
const FAULT_AROUND_BYTES: usize = 64 << 10;

/// A piece's size when only counts are printed (`-c`, `--count-matches`)
/// and the run's threads split a large file among others; such a piece is
/// read from the file into the thread's buffer ([`ReadFrom`]), which holds
/// it whole (16 threads: 256 KiB pieces 15 MB, 128 KiB 11 MB on the dev
/// VM; ripgrep 7.8 MB). Searched through the map, each piece's pages were
/// resident until released (1 MiB pieces 19 MB). A single operand keeps
/// [`piece_bytes`] through its map (ripgrep maps it whole): 256 KiB pieces
/// took its `-c` from 0.035 to 0.2 s, each release interrupting every
/// thread (a TLB shootdown).
const COUNT_PIECE_BYTES: usize = 128 << 10;

/// A piece's size where a smaller file begun in the run's tail is split
/// and lines are printed (pieces are read into the thread's read buffer).
/// Pieces of 2 MiB (16 threads) grew each thread's buffer to that: 64 logs
/// of 16 MiB, `-o` an IPv4 regex, 127 MB against 83 MB unsplit.
const TAIL_PIECE_BYTES: usize = 256 << 10;

/// The size of a piece for `threads` threads.
fn piece_bytes(threads: usize) -> usize {
    (PIECES_IN_FLIGHT / threads.max(1)).clamp(1 << 20, PIECE_BYTES)
}

/// The split threshold; `GPUGREP_SPLIT_MIN` (a test knob) lowers it so
/// tests can split small files (into pieces of about that size, at least
/// 64 bytes). Read only for a slice large enough to split or with several
/// threads to split it. `tail`: a file begun in the run's tail.
fn split_min_bytes(tail: bool) -> usize {
    let min = crate::knobs::get()
        .split_min
        .get()
        .map_or(SPLIT_MIN_BYTES, |n| {
            usize::try_from(n).unwrap_or(usize::MAX)
        });
    match tail {
        true => min.min(TAIL_SPLIT_MIN_BYTES),
        false => min,
    }
}

/// Whether a slice of `len` bytes is large enough to be split (with
/// threads to split it and nothing that ties its lines together).
pub(crate) fn large_enough(len: u64) -> bool {
    len >= split_min_bytes(false) as u64
}

/// The size from which a file that would be read in blocks is mapped, so
/// that its lines may be split (`source::map_from`); `tail`: begun in the
/// run's tail, from [`TAIL_SPLIT_MIN_BYTES`].
pub(crate) fn map_from(tail: bool) -> u64 {
    let from = crate::input::source::map_from();
    match tail {
        true => from.min(TAIL_SPLIT_MIN_BYTES as u64),
        false => from,
    }
}

/// Files split in this process, and of them those smaller than
/// [`SPLIT_MIN_BYTES`], split because begun in the run's tail (`--stats`).
static SPLIT: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// `--stats`' line on the files split between threads, if any were.
pub fn stats_line() -> Option<String> {
    let [all, tail] = SPLIT.each_ref().map(|n| n.load(Ordering::Relaxed));
    (all > 0).then(|| {
        format!("files split between threads: {all} ({tail} of them smaller ones begun in the run's tail)")
    })
}

/// How `data` is cut into pieces for the search's threads, or `None`
/// when it is searched whole.
pub(super) fn plan<O: Output>(search: &Search, sink: &O, data: &[u8]) -> Option<Cuts> {
    let threads = search.split_threads;
    let opts: &SearchOptions = &search.opts;
    let min = split_min_bytes(search.helpers.is_some_and(Helpers::in_tail));
    if threads < 2 || opts.max_count.is_some() || data.len() < min || sink.piece().is_none() {
        return None;
    }
    let tail = tail_sized(data.len());
    let piece = match (small_pieces(search), tail) {
        (true, _) => COUNT_PIECE_BYTES,
        (false, true) => TAIL_PIECE_BYTES,
        (false, false) => piece_bytes(threads),
    }
    .min(min.max(64));
    let pieces = threads.max(data.len().div_ceil(piece));
    SPLIT[0].fetch_add(1, Ordering::Relaxed);
    SPLIT[1].fetch_add(u64::from(tail), Ordering::Relaxed);
    Some(Cuts::new(data.len(), pieces))
}

/// Whether a split slice is smaller than [`SPLIT_MIN_BYTES`]: split only
/// because it was begun in the run's tail.
fn tail_sized(len: usize) -> bool {
    len < split_min_bytes(false)
}

/// Whether the pieces are [`COUNT_PIECE_BYTES`]: only counted, by the
/// run's threads among many files.
pub(super) fn small_pieces(search: &Search) -> bool {
    !search.prints_lines && search.helpers.is_some()
}

/// Whether a split file's pieces may be read from it rather than searched
/// through its map ([`Pieces::reads_piece`]): a count's ([`small_pieces`]),
/// and printed lines without context (whose edges are read from the map).
pub(super) fn reads_pieces(search: &Search) -> bool {
    small_pieces(search) || (search.prints_lines && !prints_context(&search.opts))
}

/// Context lines or group separators are printed: each piece prints those
/// it owes to selected lines around it (`context`).
fn prints_context(opts: &SearchOptions) -> bool {
    opts.separators || opts.before > 0 || opts.after > 0
}

/// A mapped file that a count's pieces are read from (`pread` into the
/// thread's buffer) rather than through the map: each piece searched
/// through the map had its pages released, and each release interrupted
/// every thread (a TLB shootdown): 64 logs of 256 MiB, `-c -F ERROR`, 16
/// threads, twice the CPU time of reading them.
pub(super) struct ReadFrom<'f> {
    pub file: &'f std::fs::File,
    /// The file offset of the slice's first byte.
    pub offset: u64,
}

impl ReadFrom<'_> {
    /// Fills `buf` from the slice's byte `at`; `None` when the file reads
    /// short (it shrank) or fails: the map answers then.
    fn fill(&self, buf: &mut [u8], at: usize) -> Option<()> {
        use std::os::unix::fs::FileExt;
        self.file.read_exact_at(buf, self.offset + at as u64).ok()
    }

    /// Bytes `start..end` of the slice into `buf` ([`Self::fill`]).
    fn read<'b>(&self, start: usize, end: usize, buf: &'b mut Vec<u8>) -> Option<&'b [u8]> {
        let len = end - start;
        if buf.len() < len {
            buf.resize(len, 0);
        }
        self.fill(&mut buf[..len], start)?;
        Some(&buf[..len])
    }

    /// Just past the first terminator `t` from `from` on, before `end`
    /// (`end` if none); `None` as for [`Self::fill`].
    fn line_end(&self, from: usize, end: usize, t: u8) -> Option<usize> {
        let mut window = [0u8; 4096];
        let mut at = from;
        while at < end {
            let n = window.len().min(end - at);
            self.fill(&mut window[..n], at)?;
            if let Some(i) = memchr::memchr(t, &window[..n]) {
                return Some(at + i + 1);
            }
            at += n;
        }
        Some(end)
    }
}

/// A piece searched: how it ended, its printer, and the lines still to
/// number and print when it was searched before its first line number was
/// known (`later`).
struct Done<P> {
    outcome: Outcome,
    printer: P,
    later: Option<Recorder>,
    /// With context: where its printed lines begin and end.
    printed: context::Printed,
}

/// A piece searched: its place, and how it ended.
type Searched<P> = (usize, io::Result<Done<P>>);

/// A slice's output is dense, and its pieces are counted ahead rather
/// than numbered after their search (`later`), beyond one selected line
/// per this many bytes searched.
const DENSE_BYTES_PER_LINE: u64 = 1024;

/// Pieces past the next one to search whose lines a thread may count.
const COUNT_AHEAD: usize = 2;

/// A piece's line count not known yet.
const UNCOUNTED: u64 = u64::MAX;

/// The pieces of one slice, taken one at a time by whichever thread
/// searches them: each piece's lines are counted (for `-n`) and the pieces
/// searched, each into a free piece printer.
struct Pieces<'a, 's, P> {
    search: &'a Search<'s>,
    data: &'a [u8],
    /// The file offset of `data[0]` (past a byte-order mark): lines and
    /// their numbers are placed at absolute offsets, as one thread would.
    base: u64,
    cuts: &'a Cuts,
    /// The next piece whose lines a thread may claim to count, and each
    /// piece's terminators ([`UNCOUNTED`] until known).
    next_count: AtomicUsize,
    lines: Vec<AtomicU64>,
    /// The first line numbers of the leading pieces whose predecessors
    /// are counted (piece 0's first, 1).
    firsts: Mutex<Vec<u64>>,
    /// The next piece to search.
    next: AtomicUsize,
    /// Lines selected and bytes searched in the pieces searched so far:
    /// whether the output is dense ([`DENSE_BYTES_PER_LINE`]).
    selected: AtomicU64,
    searched: AtomicU64,
    /// `data` is a file's map: each piece's pages are released once
    /// searched (`source::release_mapped`).
    mapped: bool,
    /// Whether the map faults its pages in one at a time (`faults`).
    map_faults: MapFaults,
    /// The file to read pieces from instead of the map, where
    /// [`Pieces::reads_piece`] says so.
    read_from: Option<ReadFrom<'a>>,
    /// A smaller file split in the run's tail ([`tail_sized`]).
    tail: bool,
    /// The prefilter knows the slice's line terminators (`-n` on the GPU
    /// path: `Matcher::terminators_at`): a piece's count reads little of
    /// it, so every piece is numbered before it is searched, and the
    /// owner's count of what follows its last line is the prefilter's.
    lines_known: bool,
    /// The search ended early (binary data, `-l`, an error).
    ended: AtomicBool,
    /// Free piece printers (at most `threads + 2` are out at once, which
    /// bounds the output waiting for a slow piece).
    free: Mutex<Vec<P>>,
    freed: Condvar,
    done: mpsc::Sender<Searched<P>>,
}

impl<P: Sink + Send> Pieces<'_, '_, P> {
    fn count(&self) -> usize {
        self.cuts.pieces()
    }

    /// Piece `k`'s bounds, its cuts found in the file rather than the map
    /// when pieces are read from it.
    fn bounds(&self, k: usize) -> (usize, usize) {
        let t = self.search.opts.terminator;
        let in_map = |guess: usize| {
            memchr::memchr(t, &self.data[guess..]).map_or(self.data.len(), |i| guess + i + 1)
        };
        match &self.read_from {
            Some(rf) => self.cuts.piece_with(k, |guess| {
                rf.line_end(guess, self.data.len(), t)
                    .unwrap_or_else(|| in_map(guess))
            }),
            None => self.cuts.piece_with(k, in_map),
        }
    }

    /// Takes and does one piece's work; `wait`: for a free printer. With
    /// `-n`, a piece whose first line number is not known yet is searched
    /// and numbered afterwards while the output is sparse (`later`); once
    /// it is dense, threads count the lines of pieces not counted yet
    /// first, and the slice's `owner` only searches (see the module's doc).
    fn step(&self, wait: bool, owner: bool) -> Step {
        if self.ended.load(Ordering::Relaxed) {
            return Step::Done;
        }
        let numbers = self.search.opts.line_numbers;
        // Counting far ahead of the search would hold every page of a
        // mapped file at once: counted pieces stay mapped until searched
        // (released after counting, the search faulted them in again: 2
        // threads, `-n -F ERROR` over 8 logs of 128 MiB, 0.13 → 0.19 s).
        // With a thread count of pieces ahead, 16 threads held 260-290 MB,
        // with 2 pieces 105-143 MB (rg 42-45 MB), at the same speed.
        let ahead = self.next.load(Ordering::Relaxed) + COUNT_AHEAD;
        if numbers && !owner && self.dense() && self.count_next(ahead) {
            return Step::Ran;
        }
        let Some(mut printer) = self.take_printer(wait) else {
            return Step::Busy;
        };
        let pieces = self.count();
        let k = self.next.fetch_add(1, Ordering::Relaxed);
        if k >= pieces {
            self.give_printer(printer);
            return Step::Done;
        }
        // The first line number: known, to be known after the search
        // (`None` here), or waited for.
        let first = match numbers {
            true => match self.known_first(k) {
                Some(first) => Some(first),
                None if !self.lines_known
                    && !self.dense()
                    && !printer.counts_only()
                    && !self.context() =>
                {
                    None
                }
                None => match self.first_line(k) {
                    Some(first) => Some(first),
                    None => {
                        self.give_printer(printer);
                        return Step::Done;
                    }
                },
            },
            false => None,
        };
        let (start, end) = self.bounds(k);
        if start == end {
            // A line spans the piece's share: nothing of it to search.
            self.lines[k].store(0, Ordering::Release);
            let done = Done {
                outcome: Outcome::default(),
                printer,
                later: None,
                printed: None,
            };
            let _ = self.done.send((k, Ok(done)));
            return Step::Ran;
        }
        // The piece's first byte in the file (lines keep their offsets).
        let at = self.base + start as u64;
        let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let mut s = self.search.searcher(self.search.opts);
            // The piece's bytes: read from the file into the thread's
            // buffer (`ReadFrom`), else the map up to its end, searched
            // from `start`.
            let mut buf = None;
            let read = match &self.read_from {
                Some(rf) if self.reads_piece() => {
                    let b = buf.insert(Recycled::take());
                    if end - start > super::recycled::FIRST_BLOCK {
                        b.uses_tail();
                    }
                    rf.read(start, end, &mut b.0)
                }
                _ => None,
            };
            // Read through, and not counted ahead through the map either:
            // nothing of the map to release.
            let read_through = read.is_some() && self.lines[k].load(Ordering::Acquire) == UNCOUNTED;
            let mut watch = None;
            let (hay, hay_base, from) = match read {
                Some(piece) => (piece, at, 0),
                None => {
                    watch = self.through_map(start, end);
                    (&self.data[..end], self.base, start)
                }
            };
            let mut later = None;
            let mut printed = None;
            let searched = match (numbers, first) {
                (true, None) => {
                    s.number_lines_from(at, 1);
                    let mut recorder = Recorder::take();
                    let searched = s.search_last_block(hay, hay_base, from, &mut recorder);
                    let next = s.line_number_at_end(hay, hay_base);
                    self.lines[k].store(next - 1, Ordering::Release);
                    match (&searched, self.known_first(k)) {
                        (Ok(()), Some(first)) => {
                            let replayed = recorder.replay(first, &mut printer);
                            recorder.give();
                            replayed
                        }
                        _ => {
                            later = Some(recorder);
                            searched
                        }
                    }
                }
                (_, first) => {
                    if let Some(first) = first {
                        s.number_lines_from(at, first);
                    }
                    let searched = match self.context() {
                        false => s.search_last_block(hay, hay_base, from, &mut printer),
                        true => {
                            let opts = &self.search.opts;
                            let line_matcher = self.search.line_matcher;
                            let edges = context::edges(self.data, start, end, opts, line_matcher);
                            s.start_piece(at, edges.owed);
                            let mut track = Track {
                                sink: &mut printer,
                                printed: None,
                            };
                            let searched = s
                                .search_last_block(hay, hay_base, from, &mut track)
                                .and_then(|()| {
                                    let lines = edges.before_next;
                                    s.context_at_end(hay, hay_base, lines, &mut track)
                                });
                            printed = track.printed;
                            searched
                        }
                    };
                    if let Some(first) = first {
                        if self.lines[k].load(Ordering::Acquire) == UNCOUNTED {
                            let n = match self.counted(start, end) {
                                Some(n) => n,
                                None => s.line_number_at_end(hay, hay_base) - first,
                            };
                            self.lines[k].store(n, Ordering::Release);
                        }
                    }
                    searched
                }
            };
            if let Some(watch) = watch {
                self.map_faults.judge(watch, end - start);
            }
            // Not a count's small pieces through a map (the GPU's map of a
            // file, which has no file to read them from): each release
            // interrupts every thread (`COUNT_PIECE_BYTES`).
            if self.mapped && !read_through && !small_pieces(self.search) {
                // SAFETY: `mapped` says `data` is a file's read-only map.
                // Faults near the piece's ends map its neighbours' pages
                // too (fault-around): those are released with its own, also
                // where a neighbour was searched first.
                let from = start.saturating_sub(FAULT_AROUND_BYTES);
                let to = (end + FAULT_AROUND_BYTES).min(self.data.len());
                unsafe { crate::input::source::release_mapped(&self.data[from..to]) };
            }
            let outcome = s.outcome();
            self.selected.fetch_add(outcome.selected, Ordering::Relaxed);
            self.searched
                .fetch_add((end - start) as u64, Ordering::Relaxed);
            searched.map(|()| (outcome, later, printed))
        }));
        let searched = match searched {
            Ok(r) => r.map(|(outcome, later, printed)| Done {
                outcome,
                printer,
                later,
                printed,
            }),
            Err(_) => Err(io::Error::other("search thread failed")),
        };
        // The receiver lives as long as the pieces (it is the caller's).
        let _ = self.done.send((k, searched));
        Step::Ran
    }

    /// [`prints_context`] for this slice's search.
    fn context(&self) -> bool {
        prints_context(&self.search.opts)
    }

    /// The pieces searched so far selected more than a line per
    /// [`DENSE_BYTES_PER_LINE`].
    fn dense(&self) -> bool {
        let selected = self.selected.load(Ordering::Relaxed);
        selected.saturating_mul(DENSE_BYTES_PER_LINE) > self.searched.load(Ordering::Relaxed)
    }

    /// Prints the lines of piece `k` searched before its first line
    /// number was known, now that every piece before it is counted (they
    /// are appended).
    fn print_later(&self, k: usize, later: &Recorder, printer: &mut P) -> io::Result<()> {
        let first = self
            .first_line(k)
            .ok_or_else(|| io::Error::other("split search ended"))?;
        later.replay(first, printer)
    }

    /// Claims the next piece not claimed yet, before piece `before`, and
    /// counts its lines unless they are known; false when there is none.
    fn count_next(&self, before: usize) -> bool {
        let before = before.min(self.count());
        loop {
            let claim = self
                .next_count
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |k| {
                    (k < before).then_some(k + 1)
                });
            let Ok(k) = claim else {
                return false;
            };
            if self.lines[k].load(Ordering::Acquire) == UNCOUNTED {
                let (start, end) = self.bounds(k);
                let n = self.counted(start, end).unwrap_or_else(|| {
                    let watch = self.through_map(start, end);
                    let n = count_byte(&self.data[start..end], self.search.opts.terminator);
                    if let Some(watch) = watch {
                        self.map_faults.judge(watch, end - start);
                    }
                    n
                });
                self.lines[k].store(n, Ordering::Release);
                return true;
            }
        }
    }

    /// Whether the next piece is read from the file ([`ReadFrom`], where
    /// there is one) rather than searched through the map: a count's
    /// small pieces always, and a tail split's ([`TAIL_PIECE_BYTES`], as a
    /// thread's stream reads them: through the map, 64 logs of 16 MiB, `-o
    /// -F ERROR`, 16 threads, 21-22 MB against 16 read); printed lines
    /// without context once the map was seen to fault a page at a time,
    /// unless the output is dense with `-n` (pieces are counted ahead
    /// through the map then: read after that, each was read twice, which
    /// cost more than mapping it).
    fn reads_piece(&self) -> bool {
        if self.context() {
            return false;
        }
        small_pieces(self.search)
            || self.tail
            || (self.map_faults.page_at_a_time()
                && !(self.search.opts.line_numbers && self.dense()))
    }

    /// Before `data[start..end]` is read through a file's map: maps its
    /// pages in one call where the map faults a page at a time
    /// (`source::populate_mapped`), else, while the map is not judged, a
    /// watch over its faults for [`MapFaults::judge`].
    fn through_map(&self, start: usize, end: usize) -> Option<faults::Watch> {
        if !self.mapped {
            return None;
        }
        if self.map_faults.page_at_a_time() {
            crate::input::source::populate_mapped(&self.data[start..end]);
        }
        self.map_faults.watch(end - start)
    }

    /// The terminators in `data[start..end]` where the prefilter knows
    /// them without reading the bytes (the GPU counted them: see
    /// [`Pieces::lines_known`]).
    fn counted(&self, start: usize, end: usize) -> Option<u64> {
        let t = self.search.opts.terminator;
        self.lines_known
            .then(|| {
                let at = self.base + start as u64;
                self.search
                    .prefilter
                    .terminators_at(&self.data[start..end], at, t)
            })
            .flatten()
    }

    /// The number of piece `k`'s first line if the pieces before it are
    /// counted; else the first piece not counted.
    fn sum_firsts(&self, k: usize) -> Result<u64, usize> {
        let mut firsts = self.firsts.lock().unwrap_or_else(PoisonError::into_inner);
        while firsts.len() <= k {
            let at = firsts.len() - 1;
            let n = self.lines[at].load(Ordering::Acquire);
            if n == UNCOUNTED {
                break;
            }
            let next = firsts[at] + n;
            firsts.push(next);
        }
        firsts.get(k).copied().ok_or(firsts.len() - 1)
    }

    /// The number of piece `k`'s first line, if the pieces before it are
    /// counted.
    fn known_first(&self, k: usize) -> Option<u64> {
        self.sum_firsts(k).ok()
    }

    /// The number of piece `k`'s first line: the pieces before it are
    /// counted here unless known or claimed, or waited for while another
    /// thread counts them (one piece's count is short). `None` once the
    /// search ended.
    fn first_line(&self, k: usize) -> Option<u64> {
        loop {
            let gap = match self.sum_firsts(k) {
                Ok(first) => return Some(first),
                Err(gap) => gap,
            };
            if self.ended.load(Ordering::Relaxed) {
                return None;
            }
            // Not claimed: searched by the owner, or not reached yet.
            if self.next_count.load(Ordering::Relaxed) <= gap {
                self.count_next(gap + 1);
            } else {
                std::thread::yield_now();
            }
        }
    }

    fn take_printer(&self, wait: bool) -> Option<P> {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(p) = free.pop() {
                return Some(p);
            }
            if !wait || self.ended.load(Ordering::Relaxed) {
                return None;
            }
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn free_printers(&self) -> usize {
        self.free
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    fn give_printer(&self, printer: P) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        free.push(printer);
        drop(free);
        self.freed.notify_one();
    }

    fn end(&self) {
        self.ended.store(true, Ordering::Relaxed);
        // Threads waiting for a printer end.
        let _free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        self.freed.notify_all();
    }
}

/// Searches the pieces in parallel and appends their output in order. A
/// piece that meets binary data ends the output there, as one thread would.
///
/// The calling thread appends (the sink is its own). Searching are threads
/// started here, or, given `search.helpers`, the calling thread itself and
/// the run's threads that help it.
pub(super) fn search<O: Output>(
    search: &Search,
    (data, base): (&[u8], u64),
    cuts: &Cuts,
    mapped: bool,
    read_from: Option<ReadFrom>,
    sink: &mut O,
) -> io::Result<Outcome> {
    let threads = search.split_threads;
    let pieces = cuts.pieces();
    let mut free = Vec::with_capacity(threads + 2);
    for _ in 0..threads + 2 {
        let printer = sink
            .piece()
            .ok_or_else(|| io::Error::other("no split output"))?;
        free.push(printer);
    }
    let (done, done_rx) = mpsc::channel::<Searched<O::Piece>>();
    let work = Pieces {
        search,
        data,
        base,
        cuts,
        next_count: AtomicUsize::new(0),
        lines: (0..pieces).map(|_| AtomicU64::new(UNCOUNTED)).collect(),
        firsts: Mutex::new(vec![1]),
        next: AtomicUsize::new(0),
        selected: AtomicU64::new(0),
        searched: AtomicU64::new(0),
        mapped,
        map_faults: MapFaults::new(),
        read_from,
        tail: tail_sized(data.len()),
        lines_known: search.opts.line_numbers
            && search
                .prefilter
                .terminators_at(&[], base, search.opts.terminator)
                .is_some(),
        ended: AtomicBool::new(false),
        free: Mutex::new(free),
        freed: Condvar::new(),
        done,
    };
    let mut order = InOrder {
        waiting: BTreeMap::new(),
        want: 0,
        total: Outcome::default(),
        error: None,
        printed_end: None,
    };
    match search.helpers {
        Some(helpers) => helped(helpers, &work, &done_rx, &mut order, sink),
        None => std::thread::scope(|scope| {
            for _ in 0..threads.min(pieces) {
                scope.spawn(|| while work.step(true, false) == Step::Ran {});
            }
            for searched in done_rx.iter() {
                order.add(searched, &work, sink);
                if order.want == pieces || work.ended.load(Ordering::Relaxed) {
                    break;
                }
            }
            work.end();
        }),
    }
    // Every piece was appended, or the search ended (a piece's panic is
    // its error: `Pieces::step`).
    match order.error {
        Some(e) => Err(e),
        None => Ok(order.total),
    }
}

/// The calling thread offers the pieces to the run's other threads and
/// appends what they searched, in order; it searches pieces itself when
/// no older offer (an earlier file) has pieces left and enough piece
/// printers are free for its helpers meanwhile: searching whenever it
/// could, it appended only between its own pieces, while every printer
/// its 15 helpers had filled waited to be appended and the helpers, with
/// none free, went elsewhere.
fn helped<O: Output>(
    helpers: &Helpers,
    work: &Pieces<O::Piece>,
    done_rx: &mpsc::Receiver<Searched<O::Piece>>,
    order: &mut InOrder<O::Piece>,
    sink: &mut O,
) {
    let pieces = work.count();
    let step = || work.step(false, false);
    helpers.offer(&step, |offer| {
        while order.want < pieces && !work.ended.load(Ordering::Relaxed) {
            while let Ok(searched) = done_rx.try_recv() {
                order.add(searched, work, sink);
            }
            if order.want == pieces || work.ended.load(Ordering::Relaxed) {
                break;
            }
            if helpers.help(offer.seq()) {
                continue;
            }
            // A piece of its own takes as long as one of each helper's,
            // who then each need another printer.
            let room = work.free_printers() >= offer.helping() + 2;
            if room && work.step(false, true) == Step::Ran {
                continue;
            }
            // Helpers search, or every piece is out: wait for one (a
            // helper may leave without one: look again soon).
            match done_rx.recv_timeout(WAIT_FOR_PIECE) {
                Ok(searched) => order.add(searched, work, sink),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        work.end();
    });
}

/// How long a splitting thread waits for a searched piece before it looks
/// again at what it could do.
const WAIT_FOR_PIECE: std::time::Duration = std::time::Duration::from_millis(1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_shrink_with_threads_between_one_and_four_mib() {
        assert_eq!(piece_bytes(1), PIECE_BYTES);
        assert_eq!(piece_bytes(8), PIECE_BYTES);
        assert_eq!(piece_bytes(16), 2 << 20);
        assert_eq!(piece_bytes(1024), 1 << 20);
    }
}
