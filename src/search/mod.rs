//! The searcher: from an input's bytes to selected and context lines.
//!
//! Searching line by line is slow; searching the whole buffer and then
//! finding the line around each match is fast (ripgrep's design). The
//! [`Searcher`] asks the prefilter for the next candidate anywhere in the
//! buffer, finds its line, confirms the line when the prefilter is not exact,
//! and hands selected lines, context lines and group gaps to a [`Sink`].
//!
//! A buffer may be a whole slice or one block of a stream:
//! [`Searcher::search_block`] keeps line numbers, context and `-m` counts
//! across blocks, and the caller keeps the last `-B` lines of a block at the
//! front of the next so leading context survives the boundary.
//!
//! Around it, the searcher's other jobs, one file each: opening an input
//! and sniffing its byte-order mark into a [`Haystack`] (`haystack`), the
//! one binary-data rule (`binary`), streaming (`stream`) and splitting one
//! large slice between threads (`split`, with the run's threads: `help`).
//! [`Search::search`] runs them for one haystack; what is printed, and
//! how, is the printers' (`output`).

mod binary;
pub(crate) mod count;
mod haystack;
mod help;
mod nul;
mod recycled;
mod searcher;
mod split;
pub(crate) use split::{
    large_enough as splits_at, map_from as split_map_from, stats_line as split_stats_line,
};
mod stream;

pub use binary::{BinaryRule, BINARY_PROBE};
pub use count::count_byte;
pub use haystack::{open, Haystack, OpenOptions, Opened, Preloaded, Recycled, Unopened};
pub use help::Helpers;
pub use recycled::set_threads as set_read_threads;
pub use searcher::{prefilter_selects, Searcher};

use crate::config::{BinaryMode, Config, Mode};
use crate::encoding::decode::Decoded;
use crate::engine::Matcher;
use std::io;

/// One line handed to a sink.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// The line without its terminator.
    pub bytes: &'a [u8],
    /// 1-based line number, when line numbers are counted.
    pub number: Option<u64>,
    /// Byte offset of the line's first byte in its file.
    pub offset: u64,
    /// False for a final line with no terminator.
    pub terminated: bool,
}

/// Receives what the searcher selects, in order.
pub trait Sink {
    /// A selected line. `Ok(false)` stops the search of this input.
    fn selected(&mut self, line: &Line) -> io::Result<bool>;
    /// A context line (only when context was asked for).
    fn context(&mut self, line: &Line) -> io::Result<()>;
    /// Lines were skipped between two groups of context.
    fn gap(&mut self) -> io::Result<()>;
    /// Selected lines are only counted (`-c`): the searcher may count
    /// them without handing each over.
    fn counts_only(&self) -> bool {
        false
    }
    /// Where selected lines go when each is printed plainly ([`Plain`]):
    /// the searcher then writes them itself, not a call a line. `None`
    /// where lines need more (colour, offsets, `-o`, decoding, a flush a
    /// line).
    fn plain(&mut self) -> Option<Plain<'_>> {
        None
    }
    /// Lines were written through [`Sink::plain`]: the sink may write
    /// its buffer through.
    fn plain_written(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A sink's buffer for selected lines printed plainly: each as `prefix`
/// (a file name and its separator), its number and `:` when `numbered`,
/// the line and `terminator`. Dense `-n` output went through six calls a
/// line (searcher, printer, line prefix, body): with 10,000 rules over
/// 16 GiB of logs (110 M lines printed) the hand-over was 9 % of the CPU
/// samples (H200 host, `perf`).
pub struct Plain<'s> {
    pub out: &'s mut Vec<u8>,
    pub prefix: &'s [u8],
    pub numbered: bool,
    pub terminator: u8,
}

impl Plain<'_> {
    /// Prints one selected line (its number when counted and asked for).
    #[inline]
    pub fn line(&mut self, number: Option<u64>, bytes: &[u8]) {
        self.out.reserve(self.prefix.len() + 22 + bytes.len());
        self.out.extend_from_slice(self.prefix);
        if let Some(n) = number.filter(|_| self.numbered) {
            crate::output::decimal::push_decimal(self.out, n);
            self.out.push(b':');
        }
        self.out.extend_from_slice(bytes);
        self.out.push(self.terminator);
    }
}

/// What the searcher does, independent of the pattern.
#[derive(Debug, Clone, Copy)]
pub struct SearchOptions {
    pub terminator: u8,
    pub invert: bool,
    pub max_count: Option<u64>,
    pub before: usize,
    pub after: usize,
    pub line_numbers: bool,
    /// Stop at the first output line holding a NUL byte (binary data found
    /// late), reporting it in [`Outcome::binary`].
    pub stop_on_nul: bool,
    /// Report gaps between groups (any of -A/-B/-C was given, even 0).
    pub separators: bool,
}

#[cfg(test)]
impl SearchOptions {
    /// Selected lines alone (no `-v`, `-m`, context or binary watch),
    /// numbered or not: the tests' usual options.
    pub(crate) const fn lines(terminator: u8, line_numbers: bool) -> SearchOptions {
        SearchOptions {
            terminator,
            invert: false,
            max_count: None,
            before: 0,
            after: 0,
            line_numbers,
            stop_on_nul: false,
            separators: false,
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Number of selected lines.
    pub selected: u64,
    /// A NUL byte was found in a line about to be printed.
    pub binary: bool,
    /// Absolute offset just past the last selected line (its terminator
    /// included): where `-m` leaves a seekable standard input.
    pub after_last_selected: Option<u64>,
}

/// A printer as the searcher drives it: a [`Sink`] whose output can be
/// held back (while a stream may still turn out to be binary), dropped,
/// written through, and split into pieces searched by other threads.
pub trait Output: Sink {
    /// The printer of one piece of a split slice.
    type Piece: Sink + Send;
    /// Holds output back from the stream, or lets it through again.
    fn hold(&mut self, hold: bool);
    /// Drops the output not yet written through.
    fn discard(&mut self);
    /// Writes through what is buffered (unless held).
    fn flush(&mut self) -> io::Result<()>;
    /// A printer for one piece, `None` when the output cannot be split.
    fn piece(&self) -> Option<Self::Piece>;
    /// Appends a searched piece's output, in order, leaving the piece
    /// empty to print another.
    fn append(&mut self, piece: &mut Self::Piece) -> io::Result<()>;
}

/// How one input is searched: the options, the matchers, the binary rule,
/// and the threads that may split it.
pub struct Search<'m> {
    pub opts: SearchOptions,
    /// Finds candidates in the whole buffer.
    pub prefilter: &'m dyn Matcher,
    /// Decides one line on its own.
    pub line_matcher: &'m dyn Matcher,
    /// A prefilter hit within a line selects it without confirmation.
    pub exact: bool,
    pub binary: BinaryRule,
    /// Output goes out line by line (`--line-buffered`).
    pub line_buffered: bool,
    /// Threads that may split a large slice (1: no split).
    pub split_threads: usize,
    /// The run's search threads, which search a split slice's pieces
    /// (else threads are started for them).
    pub helpers: Option<&'m Helpers>,
    /// The first selected line settles the input (`-l`, `-L`, `-q`).
    pub first_match_ends: bool,
    /// Selected lines are printed (not only counted or named).
    pub prints_lines: bool,
}

/// What searching one haystack found.
#[derive(Debug, Default)]
pub struct Searched {
    pub outcome: Outcome,
    /// Bytes of the input searched (for a decoded one, the file's bytes).
    pub bytes: u64,
    /// The read error that ended a stream early.
    pub error: Option<io::Error>,
}

impl<'m> Search<'m> {
    /// How inputs are searched in this run: `prefilter` finds candidates,
    /// `line_matcher` decides lines, `confirm` says whether the compiled
    /// search has a confirm step; `split_threads` may share one large
    /// slice.
    pub fn new(
        cfg: &Config,
        prefilter: &'m dyn Matcher,
        line_matcher: &'m dyn Matcher,
        confirm: bool,
        split_threads: usize,
    ) -> Search<'m> {
        let lines = cfg.mode == Mode::Lines;
        let binary = BinaryRule::new(cfg.binary, cfg.terminator);
        Search {
            opts: SearchOptions {
                terminator: cfg.terminator,
                invert: cfg.invert,
                max_count: cfg.max_count,
                before: if lines { cfg.before } else { 0 },
                after: if lines { cfg.after } else { 0 },
                line_numbers: cfg.needs_line_numbers() && lines,
                stop_on_nul: binary.stop_on_nul(lines),
                separators: cfg.context_given && lines,
            },
            prefilter,
            line_matcher,
            exact: prefilter_selects(prefilter, confirm),
            binary,
            line_buffered: cfg.line_buffered,
            split_threads,
            helpers: None,
            first_match_ends: cfg.mode.first_match_ends(),
            prints_lines: lines,
        }
    }

    /// A searcher for one input (or one block run) with `opts`.
    pub fn searcher(&self, opts: SearchOptions) -> Searcher<'m> {
        Searcher::with_line_matcher(opts, self.prefilter, self.line_matcher, self.exact)
    }

    /// Searches `hay` into `sink`. A decoded haystack's lines reach the
    /// sink with their offsets mapped back to the file's.
    pub fn search<O: Output>(&self, hay: &Haystack, sink: &mut O) -> io::Result<Searched> {
        let (bytes, base, decoded, mapped, file) = match hay {
            Haystack::Stream { reader, base, head } => {
                let reader = reader.take().unwrap_or_else(|| Box::new(io::empty()));
                let (mut buf, filled) = head.take().unwrap_or_else(|| (Recycled::take(), 0));
                return stream::search_stream(self, reader, &mut buf, filled, *base as u64, sink);
            }
            Haystack::Slice {
                bytes,
                base,
                mapped,
                file,
            } => (*bytes, *base, None, *mapped, *file),
            Haystack::Decoded { text, bytes } => {
                (&text.text[..], 0, Some((text, *bytes)), false, None)
            }
        };
        let mut done = Searched {
            bytes: decoded.map_or(bytes.len() as u64, |(_, n)| n),
            ..Searched::default()
        };
        let binary = self.binary.probe(bytes);
        done.outcome = if binary && self.binary.mode == BinaryMode::WithoutMatch {
            Outcome::default()
        } else if binary && self.opts.stop_on_nul {
            // Print nothing; the first selected line decides the message.
            let o = self.searcher(binary::quiet(self.opts));
            binary::quiet_outcome(o.search_slice(bytes, &mut binary::CountOnly)?)
        } else if let Some((d, _)) = decoded {
            let mut mapped = MapOffsets {
                inner: sink,
                decoded: d,
            };
            self.searcher(self.opts).search_slice(bytes, &mut mapped)?
        } else if let Some(cuts) = split::plan(self, sink, bytes) {
            // Pieces may be read from the file rather than through the map
            // (`split::ReadFrom`, `split::reads_pieces`).
            let read_from =
                file.filter(|_| split::reads_pieces(self))
                    .map(|file| split::ReadFrom {
                        file,
                        offset: base as u64,
                    });
            let data = (bytes, base as u64);
            split::search(self, data, &cuts, mapped, read_from, sink)?
        } else {
            // `base`: past a byte-order mark, lines keep their offsets.
            let mut s = self.searcher(self.opts);
            s.search_last_block(bytes, base as u64, 0, sink)?;
            s.outcome()
        };
        Ok(done)
    }
}

impl Search<'_> {
    /// The selected lines of `buf` (whole lines), counted on this thread
    /// as `-c` counts them: auto's probe of the CPU engine's pace
    /// (`run::gpu::probe`).
    pub fn count_slice(&self, buf: &[u8]) -> io::Result<u64> {
        let o = self
            .searcher(self.opts)
            .search_slice(buf, &mut binary::CountOnly)?;
        Ok(o.selected)
    }
}

/// Passes lines on with their offsets in decoded text mapped to the file's.
struct MapOffsets<'s, 'd, S> {
    inner: &'s mut S,
    decoded: &'d Decoded<'d>,
}

impl<S> MapOffsets<'_, '_, S> {
    fn map<'l>(&self, line: &Line<'l>) -> Line<'l> {
        Line {
            offset: self.decoded.line_offset(line.offset as usize),
            ..*line
        }
    }
}

impl<S: Sink> Sink for MapOffsets<'_, '_, S> {
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        let line = self.map(line);
        self.inner.selected(&line)
    }
    fn context(&mut self, line: &Line) -> io::Result<()> {
        let line = self.map(line);
        self.inner.context(&line)
    }
    fn gap(&mut self) -> io::Result<()> {
        self.inner.gap()
    }
}

#[cfg(test)]
mod tests;
