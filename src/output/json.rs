//! ripgrep-compatible JSON Lines output (`--json`).
//!
//! The format is ripgrep's (`grep-printer`'s `JSON` printer plus the
//! `summary` message ripgrep's core adds), byte for byte where it can be, so
//! that tools written against `rg --json` (editors, pickers, scripts) read
//! ours unchanged. That is why it is shaped as it is:
//!
//! * One JSON object per line, `{"type":T,"data":{...}}`, with `T` one of
//!   `begin`, `match`, `context`, `end` and (once, at the very end)
//!   `summary`. Fields come in ripgrep's order: grep-printer serialises
//!   structs field by field, while ripgrep builds `summary` with
//!   `serde_json::json!`, whose map sorts keys, so the summary and
//!   everything inside it is in alphabetical order (`{"data":{...},
//!   "type":"summary"}`).
//! * `begin` is written lazily, before the first `match` or `context` of a
//!   file, and `end` only when `begin` was; a file without output prints
//!   nothing, yet still counts in the summary (`searches`,
//!   `bytes_searched`), as in ripgrep 14 and later.
//! * Text that may not be UTF-8 (paths, lines, matches) is an "arbitrary
//!   data" object: `{"text":"..."}` when the bytes are valid UTF-8, else
//!   `{"bytes":"<standard base64>"}`, so nothing is lost or transcoded.
//! * A file searched raw in a legacy encoding (`--encoding`) is printed
//!   decoded: `lines` and `match` carry UTF-8 text, submatch offsets count
//!   bytes of that text; `absolute_offset` stays a file offset.
//! * `lines` holds the line with its terminator; submatch offsets are byte
//!   offsets into it. `line_number` is `null` when lines are not counted.
//! * Strings are escaped as `serde_json` escapes them: `\"`, `\\`, `\b`,
//!   `\f`, `\n`, `\r`, `\t`, other control bytes as `\u00xx` (lower-case
//!   hex), everything else (DEL, non-ASCII) as is.
//! * Durations are `{"secs":S,"nanos":N,"human":"0.000123s"}`, `human`
//!   being the seconds with six decimals.
//!
//! No serde: the few shapes are written by hand, with a small escaper and
//! base64 encoder below.

mod encode;

use super::for_each_match;
use crate::engine::Matcher;
use crate::search::{Line, Sink};
use encode::{write_data, write_duration, write_duration_sorted, write_u64};
use std::io;
use std::ops::Range;
use std::time::Duration;

/// Per-search statistics, summed over files for the `summary` message.
/// The names are ripgrep's `Stats` fields.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct JsonStats {
    pub searches: u64,
    pub searches_with_match: u64,
    pub bytes_searched: u64,
    /// Bytes of JSON written for a file, `end` message excluded (as ripgrep
    /// counts them).
    pub bytes_printed: u64,
    pub matched_lines: u64,
    pub matches: u64,
    pub elapsed: Duration,
}

impl JsonStats {
    /// Adds `other` into `self`.
    pub fn add(&mut self, other: &JsonStats) {
        self.searches += other.searches;
        self.searches_with_match += other.searches_with_match;
        self.bytes_searched += other.bytes_searched;
        self.bytes_printed += other.bytes_printed;
        self.matched_lines += other.matched_lines;
        self.matches += other.matches;
        self.elapsed += other.elapsed;
    }
}

/// Prints one file's search as JSON Lines into `out`.
pub struct JsonSink<'a> {
    pub out: Vec<u8>,
    matcher: &'a dyn Matcher,
    path: &'a [u8],
    invert: bool,
    terminator: u8,
    /// Lines are in this encoding: print them decoded.
    decode: Option<&'static encoding_rs::Encoding>,
    begun: bool,
    /// Bytes written for this file so far (not `out.len()`, since the
    /// caller may drain `out` as it goes).
    printed: u64,
    /// Selected lines seen (ripgrep's `match_count`).
    selected: u64,
    stats: JsonStats,
    /// Scratch: the submatches of the current line.
    ranges: Vec<Range<usize>>,
    /// Scratch: the current line with its terminator.
    line_buf: Vec<u8>,
}

impl<'a> JsonSink<'a> {
    /// A sink for the file named `path` (as printed; `b"<stdin>"` for
    /// standard input). `matcher` is the exact line matcher, used to find
    /// submatches; with `invert` (`-v`) selected lines have none, and
    /// context lines (which do match) get theirs, as in ripgrep.
    pub fn new(matcher: &'a dyn Matcher, path: &'a [u8], invert: bool) -> Self {
        JsonSink {
            out: Vec::new(),
            matcher,
            path,
            invert,
            terminator: b'\n',
            decode: None,
            begun: false,
            printed: 0,
            selected: 0,
            stats: JsonStats::default(),
            ranges: Vec::new(),
            line_buf: Vec::new(),
        }
    }

    /// Sets the line terminator written back into `lines` for terminated
    /// lines (`\n` unless set; NUL with `-z`).
    pub fn with_terminator(mut self, terminator: u8) -> Self {
        self.terminator = terminator;
        self
    }

    /// Lines are raw bytes in `enc`: print them decoded to UTF-8.
    pub fn with_decoding(mut self, enc: Option<&'static encoding_rs::Encoding>) -> Self {
        self.decode = enc;
        self
    }

    /// Ends the file: records its statistics and writes `end` if `begin`
    /// was written. Call once, after the search.
    pub fn finish(&mut self, bytes_searched: u64, elapsed: Duration) {
        self.stats.elapsed += elapsed;
        self.stats.searches += 1;
        if self.selected > 0 {
            self.stats.searches_with_match += 1;
        }
        self.stats.bytes_searched += bytes_searched;
        self.stats.bytes_printed += self.printed;
        if !self.begun {
            return;
        }
        let out = &mut self.out;
        out.extend_from_slice(b"{\"type\":\"end\",\"data\":{\"path\":");
        write_data(out, self.path);
        out.extend_from_slice(b",\"binary_offset\":null,\"stats\":");
        write_stats(out, &self.stats);
        out.extend_from_slice(b"}}\n");
    }

    /// This file's statistics (complete once `finish` was called).
    pub fn stats(&self) -> JsonStats {
        self.stats
    }

    fn begin(&mut self) {
        if self.begun {
            return;
        }
        self.begun = true;
        let start = self.out.len();
        self.out
            .extend_from_slice(b"{\"type\":\"begin\",\"data\":{\"path\":");
        write_data(&mut self.out, self.path);
        self.out.extend_from_slice(b"}}\n");
        self.printed += (self.out.len() - start) as u64;
    }

    /// Finds the submatches of `line` into `self.ranges`.
    fn find_submatches(&mut self, line: &[u8]) {
        self.ranges.clear();
        let ranges = &mut self.ranges;
        for_each_match(self.matcher, line, |m| {
            ranges.push(m);
            true
        });
    }

    /// Writes a `match` or `context` message for `line` with the
    /// submatches in `self.ranges`.
    fn write_line(&mut self, kind: &[u8], line: &Line) {
        self.begin();
        let start = self.out.len();
        self.line_buf.clear();
        self.line_buf.extend_from_slice(line.bytes);
        if line.terminated {
            self.line_buf.push(self.terminator);
        }
        if let Some(enc) = self.decode {
            // Matches lie on character boundaries: offsets into the decoded
            // line are the decoded lengths of what precedes them.
            let dec = |b: &[u8]| crate::encoding::decoded(Some(enc), b).len();
            for m in self.ranges.iter_mut() {
                let start = dec(&line.bytes[..m.start]);
                *m = start..start + dec(&line.bytes[m.clone()]);
            }
            self.line_buf = crate::encoding::decoded(Some(enc), &self.line_buf).into_owned();
        }
        let text: &[u8] = if self.decode.is_some() {
            &self.line_buf
        } else {
            line.bytes
        };
        let out = &mut self.out;
        out.extend_from_slice(b"{\"type\":\"");
        out.extend_from_slice(kind);
        out.extend_from_slice(b"\",\"data\":{\"path\":");
        write_data(out, self.path);
        out.extend_from_slice(b",\"lines\":");
        write_data(out, &self.line_buf);
        out.extend_from_slice(b",\"line_number\":");
        match line.number {
            Some(n) => write_u64(out, n),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"absolute_offset\":");
        write_u64(out, line.offset);
        out.extend_from_slice(b",\"submatches\":[");
        for (i, m) in self.ranges.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"match\":");
            write_data(out, &text[m.clone()]);
            out.extend_from_slice(b",\"start\":");
            write_u64(out, m.start as u64);
            out.extend_from_slice(b",\"end\":");
            write_u64(out, m.end as u64);
            out.push(b'}');
        }
        out.extend_from_slice(b"]}}\n");
        self.printed += (self.out.len() - start) as u64;
    }
}

impl Sink for JsonSink<'_> {
    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        self.selected += 1;
        if self.invert {
            // An inverted line does not match: nothing to look for.
            self.ranges.clear();
        } else {
            self.find_submatches(line.bytes);
        }
        self.stats.matched_lines += 1;
        self.stats.matches += self.ranges.len() as u64;
        self.write_line(b"match", line);
        Ok(true)
    }

    fn context(&mut self, line: &Line) -> io::Result<()> {
        if self.invert {
            self.find_submatches(line.bytes);
        } else {
            self.ranges.clear();
        }
        self.write_line(b"context", line);
        Ok(())
    }

    fn gap(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes the final `summary` message: `stats` summed over all files and
/// `elapsed_total`, the time the whole run took. Keys are sorted, as
/// ripgrep's `json!` map prints them.
pub fn write_summary(out: &mut Vec<u8>, stats: &JsonStats, elapsed_total: Duration) {
    out.extend_from_slice(b"{\"data\":{\"elapsed_total\":");
    write_duration_sorted(out, elapsed_total);
    out.extend_from_slice(b",\"stats\":{\"bytes_printed\":");
    write_u64(out, stats.bytes_printed);
    out.extend_from_slice(b",\"bytes_searched\":");
    write_u64(out, stats.bytes_searched);
    out.extend_from_slice(b",\"elapsed\":");
    write_duration_sorted(out, stats.elapsed);
    out.extend_from_slice(b",\"matched_lines\":");
    write_u64(out, stats.matched_lines);
    out.extend_from_slice(b",\"matches\":");
    write_u64(out, stats.matches);
    out.extend_from_slice(b",\"searches\":");
    write_u64(out, stats.searches);
    out.extend_from_slice(b",\"searches_with_match\":");
    write_u64(out, stats.searches_with_match);
    out.extend_from_slice(b"}},\"type\":\"summary\"}\n");
}

/// The `stats` object of an `end` message, in grep-printer's field order.
fn write_stats(out: &mut Vec<u8>, stats: &JsonStats) {
    out.extend_from_slice(b"{\"elapsed\":");
    write_duration(out, stats.elapsed);
    out.extend_from_slice(b",\"searches\":");
    write_u64(out, stats.searches);
    out.extend_from_slice(b",\"searches_with_match\":");
    write_u64(out, stats.searches_with_match);
    out.extend_from_slice(b",\"bytes_searched\":");
    write_u64(out, stats.bytes_searched);
    out.extend_from_slice(b",\"bytes_printed\":");
    write_u64(out, stats.bytes_printed);
    out.extend_from_slice(b",\"matched_lines\":");
    write_u64(out, stats.matched_lines);
    out.extend_from_slice(b",\"matches\":");
    write_u64(out, stats.matches);
    out.push(b'}');
}

#[cfg(test)]
mod tests;
