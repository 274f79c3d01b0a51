//! One large slice searched by several threads: line-aligned pieces, each
//! searched into its own [`Output::piece`], printed in order.
//!
//! Only when the run has this one input and nothing ties one line's output
//! to another's (no context, `-m` or JSON). Line numbers do not: the
//! threads first count each piece's lines in parallel, so every piece
//! numbers its lines without counting the pieces before it.

use super::searcher::count_byte;
use super::{Outcome, Output, Search, SearchOptions};
use std::io;

/// Below this size a slice is searched by one thread.
const SPLIT_MIN_BYTES: usize = 32 << 20;

/// The split threshold; `GPUGREP_SPLIT_MIN` (a test knob) lowers it so
/// tests can split small files. Read only for a slice large enough to
/// split or with several threads to split it.
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
    if threads < 2 || !independent || data.len() < split_min_bytes() || sink.piece().is_none() {
        return None;
    }
    let t = opts.terminator;
    let mut cuts = vec![0];
    for k in 1..threads {
        let guess = data.len() / threads * k;
        let cut = memchr::memchr(t, &data[guess..]).map_or(data.len(), |i| guess + i + 1);
        if cut > *cuts.last().unwrap_or(&0) && cut < data.len() {
            cuts.push(cut);
        }
    }
    cuts.push(data.len());
    Some(cuts)
}

/// The number of each piece's first line: each piece's terminators are
/// counted by a thread of its own, then summed in order.
fn first_lines(data: &[u8], cuts: &[usize], terminator: u8) -> Vec<u64> {
    let counts: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| scope.spawn(move || count_byte(&data[w[0]..w[1]], terminator)))
            .collect();
        handles
            .into_iter()
            .zip(cuts.windows(2))
            .map(|(h, w)| {
                // A thread that failed to count is counted for here.
                h.join()
                    .unwrap_or_else(|_| count_byte(&data[w[0]..w[1]], terminator))
            })
            .collect()
    });
    let mut line = 1;
    counts
        .iter()
        .map(|c| {
            let first = line;
            line += c;
            first
        })
        .collect()
}

/// Searches the pieces in parallel and appends their output in order. A
/// piece that meets binary data ends the output there, as one thread would.
pub(super) fn search<O: Output>(
    search: &Search,
    data: &[u8],
    cuts: &[usize],
    sink: &mut O,
) -> io::Result<Outcome> {
    let first_lines = match search.opts.line_numbers {
        true => first_lines(data, cuts, search.opts.terminator),
        false => Vec::new(),
    };
    let pieces: Vec<io::Result<(Outcome, O::Piece)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .enumerate()
            .map(|(k, w)| {
                let (start, end) = (w[0], w[1]);
                let piece = sink.piece();
                let first_line = first_lines.get(k).copied();
                scope.spawn(move || {
                    let mut piece = piece.ok_or_else(|| io::Error::other("no split output"))?;
                    let mut s = search.searcher(search.opts);
                    if let Some(line) = first_line {
                        s.number_lines_from(start as u64, line);
                    }
                    s.search_last_block(&data[..end], 0, start, &mut piece)?;
                    Ok((s.outcome(), piece))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("search thread failed")))
            })
            .collect()
    });
    let mut total = Outcome::default();
    for piece in pieces {
        let (o, piece) = piece?;
        total.selected += o.selected;
        sink.append(piece)?;
        if o.binary {
            total.binary = true;
            break;
        }
        if o.selected > 0 && search.first_match_ends {
            break;
        }
    }
    Ok(total)
}
