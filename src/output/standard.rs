//! GNU grep's output format.
//!
//! `NAME:NUM:OFFSET:line` for selected lines and `NAME-NUM-OFFSET-line` for
//! context, each part present only when asked for; `-Z` ends the name with
//! NUL instead; `-o` prints each match on its own line; colours as
//! [`Colors`] says. `-T` puts a tab before the text of a line that has a
//! prefix and is not empty, and pads the numbers to one width per file:
//! the digits of the file's size (plus one with `-n`), or of the largest
//! 64-bit signed number where the size is not known (a pipe), as GNU grep
//! 3.8 does ([`offset_width`]). Per-file summaries (`-c`, `-l`, `-L`) are the
//! summary printer's (`super::summary`).
//!
//! Lines of a file searched raw in a legacy encoding (`--encoding`) are
//! decoded to UTF-8 as they are printed ([`PrintOptions::decode`]); matches
//! lie on character boundaries, so each piece decodes on its own.

use super::color::Colors;
use super::decimal::{push_decimal, Decimal};
use super::for_each_match;
use crate::config::{Config, Mode};
use crate::encoding::decoded;
use crate::engine::Matcher;
use crate::search::{Line, Plain, Sink};
use encoding_rs::Encoding;
use std::io;

/// Maps a match's offset inside a line to a file offset, given the line's
/// file offset (files searched after decoding; see `crate::encoding`).
pub type MatchOffsets<'a> = &'a (dyn Fn(u64, usize) -> u64 + Sync);

/// The settings the standard printer needs, taken from [`Config`].
#[derive(Debug, Clone)]
pub struct PrintOptions {
    pub mode: Mode,
    pub only_matching: bool,
    pub line_number: bool,
    pub byte_offset: bool,
    pub null: bool,
    /// `-T` ([`offset_width`]).
    pub initial_tab: bool,
    pub invert: bool,
    pub colors: Option<Colors>,
    pub group_separator: Option<Vec<u8>>,
    /// Output line terminator (NUL with `-z`).
    pub terminator: u8,
    /// Lines are in this encoding: print them decoded to UTF-8.
    pub decode: Option<&'static Encoding>,
}

impl PrintOptions {
    pub fn from_config(cfg: &Config) -> PrintOptions {
        PrintOptions {
            mode: cfg.mode,
            only_matching: cfg.only_matching,
            line_number: cfg.line_number,
            byte_offset: cfg.byte_offset,
            null: cfg.null,
            initial_tab: cfg.initial_tab,
            invert: cfg.invert,
            colors: cfg.color.then(Colors::from_env),
            group_separator: cfg.group_separator.clone(),
            terminator: cfg.terminator,
            decode: None,
        }
    }
}

/// Prints one file's lines into `out`.
pub struct StandardSink<'a> {
    pub out: Vec<u8>,
    opts: &'a PrintOptions,
    matcher: &'a dyn Matcher,
    name: Option<&'a [u8]>,
    /// Matches counted for `--count-matches`.
    pub matches: u64,
    /// `-o -b` offsets in the file, when lines are decoded text.
    match_offsets: Option<MatchOffsets<'a>>,
    /// A split piece's printer: its buffer goes back to
    /// [`super::spare::give_piece_buffer`] when it is dropped.
    piece: bool,
    /// The file name and its separator before each plain line
    /// ([`Sink::plain`]), made when first asked for.
    line_prefix: Vec<u8>,
    /// `-T`: the width line numbers and byte offsets are padded to.
    offset_width: usize,
}

impl<'a> StandardSink<'a> {
    pub fn new(opts: &'a PrintOptions, matcher: &'a dyn Matcher, name: Option<&'a [u8]>) -> Self {
        StandardSink {
            out: Vec::new(),
            opts,
            matcher,
            name,
            matches: 0,
            match_offsets: None,
            piece: false,
            line_prefix: Vec::new(),
            offset_width: 0,
        }
    }

    /// `-T`: numbers padded to `width` ([`offset_width`]).
    pub fn set_offset_width(&mut self, width: usize) {
        self.offset_width = width;
    }

    /// Lines are text decoded from the file: `-o -b` offsets come from `f`.
    pub fn with_match_offsets(mut self, f: MatchOffsets<'a>) -> Self {
        self.match_offsets = Some(f);
        self
    }

    /// An empty printer like this one, for one piece of a file split
    /// between threads (never decoded text: no match offsets).
    pub fn piece(&self) -> StandardSink<'a> {
        let mut piece = StandardSink::new(self.opts, self.matcher, self.name);
        piece.out = super::spare::piece_buffer();
        piece.piece = true;
        piece.offset_width = self.offset_width;
        piece
    }

    /// The file name, line number and byte offset asked for, each with
    /// `sep`; with `-T`, then a tab unless the `text` that follows is
    /// empty (GNU grep's `print_line_head`).
    fn prefix(&mut self, line: &Line, offset: u64, sep: u8, text: &[u8]) {
        // The options outlive `self` ('a): no copy of the colours per line.
        let opts: &'a PrintOptions = self.opts;
        let c = opts.colors.as_ref();
        let width = self.offset_width;
        let mut prefixed = false;
        if let Some(name) = self.name {
            paint(&mut self.out, c, c.map(|c| c.file_name.as_str()), name);
            if self.opts.null {
                self.out.push(0);
            } else {
                self.separator(sep);
            }
            prefixed = true;
        }
        if self.opts.line_number {
            if let Some(n) = line.number {
                number(
                    &mut self.out,
                    c,
                    c.map(|c| c.line_number.as_str()),
                    n,
                    width,
                );
                self.separator(sep);
                prefixed = true;
            }
        }
        if self.opts.byte_offset {
            number(
                &mut self.out,
                c,
                c.map(|c| c.byte_offset.as_str()),
                offset,
                width,
            );
            self.separator(sep);
            prefixed = true;
        }
        if opts.initial_tab && prefixed && !text.is_empty() {
            self.out.push(b'\t');
        }
    }

    fn separator(&mut self, sep: u8) {
        let opts: &'a PrintOptions = self.opts;
        let c = opts.colors.as_ref();
        paint(&mut self.out, c, c.map(|c| c.separator.as_str()), &[sep]);
    }

    /// The line's text, matches coloured when colour is on.
    fn body(&mut self, line: &[u8], selected: bool) {
        let dec = self.opts.decode;
        let opts: &'a PrintOptions = self.opts;
        let Some(colors) = opts.colors.as_ref() else {
            self.out.extend_from_slice(&decoded(dec, line));
            return;
        };
        // GNU grep's print_line_middle and print_line_tail, byte for byte:
        // the line colour restarts before the text ahead of each match (and
        // is not ended there), the tail is wrapped in it without a final
        // `\r`, and matches are coloured only when their colour is set.
        let line_sgr = if selected != (self.opts.invert && colors.reverse) {
            &colors.selected_line
        } else {
            &colors.context_line
        };
        let match_sgr = if selected {
            &colors.selected_match
        } else {
            &colors.context_match
        };
        // Selected lines hold matches unless inverted; context lines only when inverted.
        let has_matches = selected != self.opts.invert;
        let mut last = 0;
        if has_matches && !match_sgr.is_empty() {
            let mut spans = Vec::new();
            for_each_match(self.matcher, line, |m| {
                if !m.is_empty() {
                    spans.push(m);
                }
                true
            });
            for m in spans {
                colors.start(&mut self.out, line_sgr);
                self.out
                    .extend_from_slice(&decoded(dec, &line[last..m.start]));
                colors.paint(&mut self.out, match_sgr, &decoded(dec, &line[m.clone()]));
                last = m.end;
            }
        }
        if !line_sgr.is_empty() {
            let tail_end = match line[last..].last() {
                Some(b'\r') => line.len() - 1,
                _ => line.len(),
            };
            colors.paint(
                &mut self.out,
                line_sgr,
                &decoded(dec, &line[last..tail_end]),
            );
            last = tail_end;
        }
        self.out.extend_from_slice(&decoded(dec, &line[last..]));
    }
}

impl<'a> StandardSink<'a> {
    /// `-o`: each non-empty match of `line` on its own line, after the
    /// prefix with `sep` (`:` for selected lines, `-` for context).
    fn only_matches(&mut self, line: &Line, sep: u8) {
        let mut spans = Vec::new();
        for_each_match(self.matcher, line.bytes, |m| {
            if !m.is_empty() {
                spans.push(m);
            }
            true
        });
        let opts: &'a PrintOptions = self.opts;
        let sgr = opts.colors.as_ref().map(|c| match sep {
            b':' => c.selected_match.as_str(),
            _ => c.context_match.as_str(),
        });
        for m in spans {
            let offset = match self.match_offsets {
                Some(f) => f(line.offset, m.start),
                None => line.offset + m.start as u64,
            };
            let text = &decoded(self.opts.decode, &line.bytes[m])[..];
            self.prefix(line, offset, sep, text);
            paint(&mut self.out, opts.colors.as_ref(), sgr, text);
            self.out.push(self.opts.terminator);
        }
    }
}

/// A number, padded with spaces to `width` (inside its colour, as GNU
/// grep's `%*jd`), painted when colour is on.
fn number(out: &mut Vec<u8>, colors: Option<&Colors>, sgr: Option<&str>, n: u64, width: usize) {
    match (colors, sgr, width) {
        (Some(c), Some(s), _) => c.paint(out, s, Decimal::new(n).padded(width).as_bytes()),
        (_, _, 0) => push_decimal(out, n),
        _ => out.extend_from_slice(Decimal::new(n).padded(width).as_bytes()),
    }
}

/// `-T`'s width for line numbers and byte offsets in a file of `size`
/// bytes (`None`: not a regular file, whose size is not known): the
/// digits of the size, plus one with line numbers (GNU grep 3.8).
pub fn offset_width(size: Option<u64>, line_numbers: bool) -> usize {
    let max = i64::MAX as u64;
    let mut n = size.map_or(max, |s| s.min(max));
    if line_numbers && n < max {
        n += 1;
    }
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

pub(super) fn paint(out: &mut Vec<u8>, colors: Option<&Colors>, sgr: Option<&str>, text: &[u8]) {
    match (colors, sgr) {
        (Some(c), Some(s)) => c.paint(out, s, text),
        _ => out.extend_from_slice(text),
    }
}

impl Drop for StandardSink<'_> {
    fn drop(&mut self) {
        if self.piece {
            super::spare::give_piece_buffer(std::mem::take(&mut self.out));
        }
    }
}

impl Sink for StandardSink<'_> {
    /// `-c`: a selected line prints nothing and changes nothing here.
    fn counts_only(&self) -> bool {
        self.opts.mode == Mode::Count
    }

    fn selected(&mut self, line: &Line) -> io::Result<bool> {
        match self.opts.mode {
            Mode::Count => return Ok(true),
            Mode::CountMatches => {
                if self.opts.invert {
                    self.matches += 1;
                } else {
                    let mut n = 0;
                    for_each_match(self.matcher, line.bytes, |_| {
                        n += 1;
                        true
                    });
                    self.matches += n;
                }
                return Ok(true);
            }
            Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet => return Ok(false),
            Mode::Lines => {}
        }
        let t = self.opts.terminator;
        if self.opts.only_matching {
            if !self.opts.invert {
                self.only_matches(line, b':');
            }
        } else {
            self.prefix(line, line.offset, b':', line.bytes);
            self.body(line.bytes, true);
            self.out.push(t);
        }
        Ok(true)
    }

    /// Selected lines with neither colour, offsets, `-o` nor decoding.
    fn plain(&mut self) -> Option<Plain<'_>> {
        let o = self.opts;
        let plain = o.mode == Mode::Lines
            && !o.only_matching
            && o.colors.is_none()
            && !o.byte_offset
            && !o.initial_tab
            && o.decode.is_none();
        if !plain {
            return None;
        }
        if let Some(name) = self.name.filter(|_| self.line_prefix.is_empty()) {
            self.line_prefix.extend_from_slice(name);
            self.line_prefix.push(if o.null { 0 } else { b':' });
        }
        Some(Plain {
            out: &mut self.out,
            prefix: &self.line_prefix,
            numbered: o.line_number,
            terminator: o.terminator,
        })
    }

    fn context(&mut self, line: &Line) -> io::Result<()> {
        if self.opts.mode != Mode::Lines {
            return Ok(());
        }
        if self.opts.only_matching {
            // With -v the context lines are the matching ones: GNU grep
            // prints their matches, marked as context.
            if self.opts.invert {
                self.only_matches(line, b'-');
            }
            return Ok(());
        }
        self.prefix(line, line.offset, b'-', line.bytes);
        self.body(line.bytes, false);
        self.out.push(self.opts.terminator);
        Ok(())
    }

    fn gap(&mut self) -> io::Result<()> {
        if self.opts.mode != Mode::Lines {
            return Ok(());
        }
        write_separator(&mut self.out, self.opts);
        Ok(())
    }
}

/// The group separator line (`--`), if any.
pub fn write_separator(out: &mut Vec<u8>, opts: &PrintOptions) {
    if let Some(sep) = &opts.group_separator {
        let c = opts.colors.as_ref();
        paint(out, c, c.map(|c| c.separator.as_str()), sep);
        out.push(b'\n');
    }
}
