//! One large slice searched by several threads: line-aligned pieces, each
//! searched into a [`Output::piece`], appended in order as soon as every
//! piece before it is.
//!
//! Only when the run has this one input and nothing ties one line's output
//! to another's (no context, `-m` or JSON). Line numbers do not: the
//! threads first count each piece's lines in parallel, so every piece
//! numbers its lines without counting the pieces before it.
//!
//! There are more pieces than threads (about [`PIECE_BYTES`] each), taken
//! in order: with one piece per thread, a 1.76 GB log file printed with
//! `-n` held 700 MB of output in new memory until its last piece was done,
//! and the ordered printer waited for all of it. Now the output flows as
//! pieces are done, what waits is a few pieces' output, and the piece
//! printers are reused.

use super::searcher::count_byte;
use super::{Outcome, Output, Search, SearchOptions};
use std::collections::BTreeMap;
use std::io;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

/// Below this size a slice is searched by one thread.
const SPLIT_MIN_BYTES: usize = 32 << 20;

/// About the size of a piece, when the slice is large enough.
const PIECE_BYTES: usize = 8 << 20;

/// The split threshold; `GPUGREP_SPLIT_MIN` (a test knob) lowers it so
/// tests can split small files (into pieces of about that size, at least
/// 64 bytes). Read only for a slice large enough to split or with several
/// threads to split it.
fn split_min_bytes() -> usize {
    crate::knobs::get()
        .split_min
        .get()
        .map_or(SPLIT_MIN_BYTES, |n| {
            usize::try_from(n).unwrap_or(usize::MAX)
        })
}

/// Where to cut `data` into pieces for the search's threads, or `None`
/// when it is searched whole.
pub(super) fn plan<O: Output>(search: &Search, sink: &O, data: &[u8]) -> Option<Vec<usize>> {
    let threads = search.split_threads;
    let opts: &SearchOptions = &search.opts;
    let independent =
        opts.before == 0 && opts.after == 0 && !opts.separators && opts.max_count.is_none();
    let min = split_min_bytes();
    if threads < 2 || !independent || data.len() < min || sink.piece().is_none() {
        return None;
    }
    let piece = PIECE_BYTES.min(min.max(64));
    let pieces = threads.max(data.len().div_ceil(piece));
    let t = opts.terminator;
    let mut cuts = vec![0];
    for k in 1..pieces {
        let guess = (data.len() as u128 * k as u128 / pieces as u128) as usize;
        let from = guess.max(*cuts.last().unwrap_or(&0));
        let cut = memchr::memchr(t, &data[from..]).map_or(data.len(), |i| from + i + 1);
        if cut > *cuts.last().unwrap_or(&0) && cut < data.len() {
            cuts.push(cut);
        }
    }
    cuts.push(data.len());
    Some(cuts)
}

/// Runs `work(k)` for every piece `k` on `threads` threads, pieces taken
/// in order.
fn for_each_piece(threads: usize, pieces: usize, work: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(pieces) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= pieces {
                    break;
                }
                work(k);
            });
        }
    });
}

/// The number of each piece's first line: each piece's terminators are
/// counted by the threads, then summed in order.
fn first_lines(data: &[u8], cuts: &[usize], terminator: u8, threads: usize) -> Vec<u64> {
    let counts: Vec<AtomicUsize> = cuts.windows(2).map(|_| AtomicUsize::new(0)).collect();
    for_each_piece(threads, counts.len(), |k| {
        let n = count_byte(&data[cuts[k]..cuts[k + 1]], terminator);
        counts[k].store(n as usize, Ordering::Relaxed);
    });
    let mut line = 1;
    counts
        .iter()
        .map(|c| {
            let first = line;
            line += c.load(Ordering::Relaxed) as u64;
            first
        })
        .collect()
}

/// A piece searched: its place, and how it ended with its printer.
type Searched<P> = (usize, io::Result<(Outcome, P)>);

/// Searches the pieces in parallel and appends their output in order. A
/// piece that meets binary data ends the output there, as one thread would.
///
/// The calling thread appends (the sink is its own); the threads search
/// into piece printers it hands out and takes back emptied, at most
/// `threads + 2` of them, which bounds the output waiting for a slow piece.
pub(super) fn search<O: Output>(
    search: &Search,
    data: &[u8],
    cuts: &[usize],
    sink: &mut O,
) -> io::Result<Outcome> {
    let threads = search.split_threads;
    let first_lines = match search.opts.line_numbers {
        true => first_lines(data, cuts, search.opts.terminator, threads),
        false => Vec::new(),
    };
    let pieces = cuts.len() - 1;
    let (spare_tx, spare_rx) = mpsc::channel::<O::Piece>();
    for _ in 0..threads + 2 {
        let piece = sink
            .piece()
            .ok_or_else(|| io::Error::other("no split output"))?;
        // The receiver is alive: it is ours.
        let _ = spare_tx.send(piece);
    }
    let mut spare_tx = Some(spare_tx);
    let spare_rx = Mutex::new(spare_rx);
    let ended = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let mut total = Outcome::default();
    let mut error = None;
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<Searched<O::Piece>>();
        for _ in 0..threads.min(pieces) {
            let done_tx = done_tx.clone();
            let (spare_rx, ended, next, first_lines) = (&spare_rx, &ended, &next, &first_lines);
            scope.spawn(move || loop {
                if ended.load(Ordering::Relaxed) {
                    break;
                }
                let spare = spare_rx.lock().map(|rx| rx.recv());
                let Ok(Ok(mut piece)) = spare else {
                    break;
                };
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= pieces {
                    break;
                }
                let (start, end) = (cuts[k], cuts[k + 1]);
                let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let mut s = search.searcher(search.opts);
                    if let Some(&line) = first_lines.get(k) {
                        s.number_lines_from(start as u64, line);
                    }
                    s.search_last_block(&data[..end], 0, start, &mut piece)
                        .map(|()| s.outcome())
                }));
                let searched = match searched {
                    Ok(r) => r.map(|o| (o, piece)),
                    Err(_) => Err(io::Error::other("search thread failed")),
                };
                if done_tx.send((k, searched)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut waiting = BTreeMap::new();
        let mut want = 0;
        for (k, searched) in done_rx.iter() {
            waiting.insert(k, searched);
            while let Some(searched) = waiting.remove(&want) {
                want += 1;
                if ended.load(Ordering::Relaxed) {
                    continue;
                }
                let stop = match searched {
                    Ok((o, mut piece)) => {
                        total.selected += o.selected;
                        total.binary |= o.binary;
                        let appended = sink.append(&mut piece);
                        if let Some(tx) = &spare_tx {
                            let _ = tx.send(piece);
                        }
                        let settled = o.selected > 0 && search.first_match_ends;
                        appended.map(|()| o.binary || settled)
                    }
                    Err(e) => Err(e),
                };
                match stop {
                    Ok(false) => {}
                    Ok(true) => ended.store(true, Ordering::Relaxed),
                    Err(e) => {
                        error = Some(e);
                        ended.store(true, Ordering::Relaxed);
                    }
                }
            }
            if ended.load(Ordering::Relaxed) {
                // Threads waiting for a printer end.
                spare_tx = None;
            }
        }
        if !ended.load(Ordering::Relaxed) && want < pieces && error.is_none() {
            error = Some(io::Error::other("search thread failed"));
        }
    });
    match error {
        Some(e) => Err(e),
        None => Ok(total),
    }
}
