//! Output: what grep prints, in grep's format (`standard`) or ripgrep's
//! JSON Lines (`json`), and per-input counts and file lists (`summary`).
//!
//! Printers are [`Sink`](crate::search::Sink)s: the searcher hands them
//! lines, and they find the match positions they need (for `-o`, colour,
//! JSON submatches) with the line-level matcher, so the searcher stays
//! ignorant of formats. Each file's output goes to one writer; `run` decides
//! whether that is a buffer (parallel search, printed in order) or stdout.

pub mod color;
pub mod decimal;
pub mod json;
pub mod spare;
pub mod standard;
pub mod summary;

use crate::config::Config;
use crate::engine::Matcher;
use crate::search::{Line, Output, Plain, Sink};
use json::{JsonSink, JsonStats};
use standard::{MatchOffsets, PrintOptions, StandardSink};
use std::io::{self, Write};
use std::ops::Range;
use std::time::Duration;

/// The format one file is printed in.
pub enum Format<'a> {
    Standard(StandardSink<'a>),
    Json(JsonSink<'a>),
}

/// A file's printer: its format's output buffer, written through to a
/// stream (stdout) as it fills when there is one, else kept for `run` to
/// print in order.
pub struct Printer<'a, 'w> {
    pub format: Format<'a>,
    stream: Option<&'w mut dyn Write>,
    line_buffered: bool,
    /// Output was produced (even if already written through).
    wrote: bool,
    /// Output is held back (not written to the stream) while true.
    hold: bool,
    /// Some output went to the stream.
    passed: bool,
    /// The output, kept whole (no stream), moved into a kept buffer.
    adopted: bool,
}

/// Write the buffer through to the stream past this size.
const FLUSH_AT: usize = 64 * 1024;

impl<'a, 'w> Printer<'a, 'w> {
    /// The printer of one input's lines: JSON with `--json` (naming the
    /// input `path`), else grep's format (`name` before each line, if any;
    /// `offsets` for decoded text).
    #[allow(clippy::too_many_arguments)]
    pub fn for_input(
        cfg: &Config,
        print: &'a PrintOptions,
        matcher: &'a dyn Matcher,
        name: Option<&'a [u8]>,
        path: &'a [u8],
        offsets: Option<MatchOffsets<'a>>,
        stream: Option<&'w mut dyn Write>,
    ) -> Self {
        let format = if cfg.json {
            Format::Json(
                JsonSink::new(matcher, path, cfg.invert)
                    .with_terminator(cfg.terminator)
                    .with_decoding(print.decode),
            )
        } else {
            let s = StandardSink::new(print, matcher, name);
            Format::Standard(match offsets {
                Some(f) => s.with_match_offsets(f),
                None => s,
            })
        };
        Printer::new(format, stream, cfg.line_buffered)
    }

    /// Ends the input, `bytes` long and searched in `elapsed`: the matches
    /// counted for `--count-matches`, or the JSON statistics.
    pub fn finish(&mut self, bytes: u64, elapsed: Duration) -> (u64, Option<JsonStats>) {
        match &mut self.format {
            Format::Standard(s) => (s.matches, None),
            Format::Json(j) => {
                j.finish(bytes, elapsed);
                (0, Some(j.stats()))
            }
        }
    }

    pub fn new(format: Format<'a>, stream: Option<&'w mut dyn Write>, line_buffered: bool) -> Self {
        Printer {
            format,
            stream,
            line_buffered,
            wrote: false,
            hold: false,
            passed: false,
            adopted: false,
        }
    }

    /// True once any output was produced for this file.
    pub fn wrote(&self) -> bool {
        self.wrote
    }

    /// The output not yet written to the stream.
    pub fn out(&mut self) -> &mut Vec<u8> {
        match &mut self.format {
            Format::Standard(s) => &mut s.out,
            Format::Json(j) => &mut j.out,
        }
    }

    /// Writes what is buffered to the stream, if there is one (flushing
    /// it only when line-buffered: stdout is already line-buffered on a
    /// terminal, and block-buffered into pipes, as grep is).
    pub fn flush(&mut self) -> io::Result<()> {
        match self.hold {
            true => Ok(()),
            false => self.write_through(),
        }
    }

    /// Holds output back from the stream (while a stream's first 32 KiB
    /// may still turn out to be binary), or lets it through again.
    pub fn hold(&mut self, hold: bool) {
        self.hold = hold;
    }

    /// Drops the output not yet written to the stream.
    pub fn discard(&mut self) {
        self.out().clear();
        self.wrote = self.passed;
    }

    /// Writes through to the stream when the buffer is full.
    pub fn flush_if_full(&mut self) -> io::Result<()> {
        self.maybe_flush()
    }

    fn maybe_flush(&mut self) -> io::Result<()> {
        self.wrote |= !self.out().is_empty();
        if !self.hold && (self.line_buffered || self.out().len() >= FLUSH_AT) {
            self.write_through()?;
        }
        Ok(())
    }

    fn write_through(&mut self) -> io::Result<()> {
        let Printer {
            format,
            stream,
            line_buffered,
            adopted,
            ..
        } = self;
        let out = match format {
            Format::Standard(s) => &mut s.out,
            Format::Json(j) => &mut j.out,
        };
        let Some(stream) = stream.as_mut() else {
            // Kept whole for the caller: dense output grows into a buffer
            // of a file already printed (`spare`).
            if !*adopted && out.len() >= spare::ADOPT_AT {
                *adopted = true;
                spare::adopt(out);
            }
            return Ok(());
        };
        stream.write_all(out)?;
        self.passed |= !out.is_empty();
        out.clear();
        if *line_buffered {
            stream.flush()?;
        }
        Ok(())
    }

    fn sink(&mut self) -> &mut dyn Sink {
        match &mut self.format {
            Format::Standard(s) => s,
            Format::Json(j) => j,
        }
    }
}

impl Sink for Printer<'_, '_> {
    fn counts_only(&self) -> bool {
        matches!(&self.format, Format::Standard(s) if s.counts_only())
    }
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        let go_on = self.sink().selected(line)?;
        self.maybe_flush()?;
        Ok(go_on)
    }
    fn context(&mut self, line: &Line) -> io::Result<()> {
        self.sink().context(line)?;
        self.maybe_flush()
    }
    fn gap(&mut self) -> io::Result<()> {
        self.sink().gap()?;
        self.maybe_flush()
    }
    /// Not line-buffered (a flush a line) nor JSON.
    fn plain(&mut self) -> Option<Plain<'_>> {
        match &mut self.format {
            Format::Standard(s) if !self.line_buffered => s.plain(),
            _ => None,
        }
    }
    fn plain_written(&mut self) -> io::Result<()> {
        self.maybe_flush()
    }
}

impl<'a> Output for Printer<'a, '_> {
    type Piece = StandardSink<'a>;
    fn hold(&mut self, hold: bool) {
        Printer::hold(self, hold)
    }
    fn discard(&mut self) {
        Printer::discard(self)
    }
    fn flush(&mut self) -> io::Result<()> {
        Printer::flush(self)
    }
    fn piece(&self) -> Option<StandardSink<'a>> {
        match &self.format {
            Format::Standard(s) => Some(s.piece()),
            Format::Json(_) => None,
        }
    }
    fn append(&mut self, piece: &mut StandardSink<'a>) -> io::Result<()> {
        if let Format::Standard(s) = &mut self.format {
            s.matches += std::mem::take(&mut piece.matches);
        }
        // Behind an empty buffer the piece's output becomes the buffer,
        // not a copy, and the piece takes the emptied one.
        match self.out().is_empty() {
            true => std::mem::swap(self.out(), &mut piece.out),
            false => {
                self.out().extend_from_slice(&piece.out);
                piece.out.clear();
            }
        }
        self.flush_if_full()
    }
}

/// Visits the matches in one line, leftmost first, skipping nothing but
/// empty matches adjacent to the previous one. Stops when `f` says false.
pub fn for_each_match(matcher: &dyn Matcher, line: &[u8], mut f: impl FnMut(Range<usize>) -> bool) {
    let mut at = 0;
    let mut last_end: Option<usize> = None;
    while at <= line.len() {
        let Some(m) = matcher.find_at(line, at) else {
            break;
        };
        if m.is_empty() && last_end == Some(m.start) {
            // An empty match right after a match: move on one byte.
            at = m.start + 1;
            continue;
        }
        at = if m.is_empty() { m.end + 1 } else { m.end };
        last_end = Some(m.end);
        if !f(m) {
            break;
        }
    }
}
