//! [`Searcher`]: finds the line around each candidate, confirms it, and
//! hands selected lines, context and gaps to a [`Sink`], across the blocks
//! of one input.

use super::count::{count_byte, count_byte_and_nul, count_then_find};
use super::nul::NulWindow;
use super::{Line, Outcome, SearchOptions, Sink};
use crate::engine::{LineStarts, Matcher};
use memchr::{memchr, memrchr};
use std::io;

/// The searcher, with its state across blocks of one input.
pub struct Searcher<'m> {
    opts: SearchOptions,
    prefilter: &'m dyn Matcher,
    /// Decides one line exactly (works on a line slice).
    line_matcher: &'m dyn Matcher,
    /// The prefilter's matches are matches (when within one line).
    prefilter_exact: bool,
    /// The prefilter's `Matcher::candidate_reach`, asked once.
    reach: Option<usize>,
    selected: u64,
    after_left: usize,
    /// Absolute offset just past the last line given to the sink.
    last_end: Option<u64>,
    /// Absolute offset just past the last selected line.
    after_last_selected: Option<u64>,
    /// Line-number cursor: the line starting at `count_pos` is `count_line`.
    count_pos: u64,
    count_line: u64,
    done: bool,
    /// `-m` was reached: only trailing context remains.
    limit_reached: bool,
    binary: bool,
    /// Where the lines to print were last searched for NUL bytes.
    nul: NulWindow,
    /// The next line's NUL check looks at a window ahead ([`NulWindow`]),
    /// else at the line alone; the last numbered line was close to the
    /// one before (`number_line`).
    nul_ahead: bool,
    close_before: bool,
}

/// A line's bounds in a buffer: `start..end`, `end` at its terminator.
#[derive(Clone, Copy)]
pub(super) struct Span {
    pub(super) start: usize,
    pub(super) end: usize,
}

impl<'m> Searcher<'m> {
    /// A searcher for one input. `confirm`, when given, decides each
    /// candidate line exactly; else the prefilter's matches are exact.
    pub fn new(
        opts: SearchOptions,
        prefilter: &'m dyn Matcher,
        confirm: Option<&'m dyn Matcher>,
    ) -> Self {
        Self::with_line_matcher(
            opts,
            prefilter,
            confirm.unwrap_or(prefilter),
            prefilter_selects(prefilter, confirm.is_some()),
        )
    }

    /// A searcher whose prefilter may only work on whole buffers (the GPU's
    /// offsets): `line_matcher` decides lines on their own, and
    /// `prefilter_exact` says whether a line-confined prefilter match needs
    /// no confirmation.
    pub fn with_line_matcher(
        mut opts: SearchOptions,
        prefilter: &'m dyn Matcher,
        line_matcher: &'m dyn Matcher,
        prefilter_exact: bool,
    ) -> Self {
        // No NUL to find: the watch for binary data has nothing to see.
        opts.stop_on_nul &= !prefilter.holds_no_nul();
        Searcher {
            opts,
            prefilter,
            line_matcher,
            prefilter_exact,
            reach: prefilter.candidate_reach(),
            selected: 0,
            after_left: 0,
            last_end: None,
            after_last_selected: None,
            count_pos: 0,
            count_line: 1,
            done: false,
            limit_reached: opts.max_count == Some(0),
            binary: false,
            nul: NulWindow::default(),
            nul_ahead: true,
            close_before: true,
        }
    }

    /// Searches a whole input held in memory.
    pub fn search_slice(mut self, buf: &[u8], sink: &mut dyn Sink) -> io::Result<Outcome> {
        self.search_last_block(buf, 0, 0, sink)?;
        Ok(self.outcome())
    }

    /// Numbers lines from `line` for the line at absolute offset `pos`:
    /// a piece of a split input, whose earlier lines another thread counted.
    pub fn number_lines_from(&mut self, pos: u64, line: u64) {
        self.count_pos = pos;
        self.count_line = line;
    }

    /// Starts a piece of a split input at absolute offset `at`: the lines
    /// before it are another piece's (never printed from here as context),
    /// and the first `owed` lines are after-context of a selected line
    /// before it.
    pub fn start_piece(&mut self, at: u64, owed: usize) {
        self.last_end = Some(at);
        self.after_left = owed;
    }

    /// Prints the last `lines` lines of `buf` (an input held whole, as
    /// `search_last_block` with `base` saw it) as context unless printed:
    /// a split piece's lines before a selected line of the next piece.
    pub fn context_at_end(
        &mut self,
        buf: &[u8],
        base: u64,
        lines: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        if self.done {
            return Ok(());
        }
        self.emit_lines_before(buf, base, buf.len(), lines, sink)
    }

    /// The number of the line starting at the end of `buf` (an input held
    /// whole, as `search_last_block` with `base` saw it), counted from the
    /// last line numbered: a split piece's searcher counts the rest of its
    /// piece so the next piece need not count it again.
    pub fn line_number_at_end(&mut self, buf: &[u8], base: u64) -> u64 {
        self.line_number(buf, base, buf.len())
    }

    /// The result so far.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            selected: self.selected,
            binary: self.binary,
            after_last_selected: self.after_last_selected,
        }
    }

    /// True once nothing more will be selected or printed.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Searches `buf[from..]`, which holds whole lines (the last may lack a
    /// terminator only at the end of input); `buf[..from]` holds lines
    /// already searched, kept for leading context; `base` is the absolute
    /// offset of `buf[0]`.
    pub fn search_block(
        &mut self,
        buf: &[u8],
        base: u64,
        from: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        self.search_last_block(buf, base, from, sink)?;
        // The next block's line numbers go on from the end of this one.
        if self.opts.line_numbers {
            self.line_number(buf, base, buf.len());
        }
        Ok(())
    }

    /// [`Self::search_block`] for the input's last block (or a slice
    /// searched whole): its lines past the last one printed are not
    /// counted, since no block follows (with `-n`, a file without matches
    /// was counted through for nothing).
    pub fn search_last_block(
        &mut self,
        buf: &[u8],
        base: u64,
        from: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        self.nul.reset();
        let mut pos = from;
        // `-c` without `-v`, `-m`, context or a NUL watch: only the count
        // (a third of the time went to handing each line over).
        let o = &self.opts;
        let plain = !o.invert && o.max_count.is_none() && o.before == 0 && o.after == 0;
        if plain && !o.stop_on_nul && !o.line_numbers && sink.counts_only() {
            while !self.done && pos < buf.len() {
                let Some(span) = self.next_matching_line(buf, pos) else {
                    break;
                };
                self.selected += 1;
                self.after_last_selected = Some(base + (span.end + 1).min(buf.len()) as u64);
                pos = span.end + 1;
            }
            return Ok(());
        }
        if plain && !o.separators {
            pos = self.search_plain(buf, base, pos, sink)?;
        }
        while !self.done && !self.limit_reached && pos < buf.len() {
            let found = self.next_matching_line(buf, pos);
            if self.opts.invert {
                let stop = found.map_or(buf.len(), |s| s.start);
                while !self.done && !self.limit_reached && pos < stop {
                    let span = line_at(buf, pos, self.opts.terminator);
                    self.emit_selected(buf, base, span, sink)?;
                    pos = span.end + 1;
                }
                match found {
                    Some(s) => pos = s.end + 1,
                    None => pos = buf.len(),
                }
            } else {
                match found {
                    Some(span) => {
                        self.emit_selected(buf, base, span, sink)?;
                        pos = span.end + 1;
                    }
                    None => pos = buf.len(),
                }
            }
        }
        self.emit_after_context(buf, base, buf.len(), sink)?;
        if self.limit_reached && self.after_left == 0 {
            self.done = true;
        }
        Ok(())
    }

    /// [`Self::search_last_block`] for a sink that takes plain lines
    /// ([`Sink::plain`]) and options that ask for nothing but the
    /// selected lines (no `-v`, `-m` or context): each line is written
    /// into the sink's buffer here, the sink told every [`PLAIN_BATCH`]
    /// bytes. Returns where it stopped: the end, binary data, or where
    /// the sink took no plain lines (the search goes on line by line).
    fn search_plain(
        &mut self,
        buf: &[u8],
        base: u64,
        mut pos: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<usize> {
        // A pack's exact marks on the GPU are walked in order, not asked
        // for one by one (a lookup a line, 9 % of `-n` with 10,000 rules).
        let prefilter = self.prefilter;
        let mut marks = match self.prefilter_exact {
            true => prefilter.line_starts().map(|l| Marks::at(l, pos)),
            false => None,
        };
        while !self.done && pos < buf.len() {
            let Some(mut p) = sink.plain() else {
                return Ok(pos);
            };
            let stop = p.out.len() + PLAIN_BATCH;
            while pos < buf.len() && p.out.len() < stop {
                let found = match &mut marks {
                    Some(m) => self.next_marked_line(buf, base, pos, m),
                    None => self.next_matching_line(buf, pos).map(|s| (s, None)),
                };
                let Some((span, counted)) = found else {
                    pos = buf.len();
                    break;
                };
                let taken = match counted {
                    Some(n) => Some(self.take_counted_line(buf, base, span, n)),
                    None => self.take_line(buf, base, span),
                };
                let Some(line) = taken else {
                    break; // binary data: the search ends here
                };
                p.line(line.number, line.bytes);
                self.selected += 1;
                self.last_end = Some(base + span.end as u64 + 1);
                self.after_last_selected = Some(base + (span.end + 1).min(buf.len()) as u64);
                pos = span.end + 1;
            }
            sink.plain_written()?;
        }
        Ok(pos)
    }

    /// [`Self::next_matching_line`] for a prefilter whose answers are
    /// exactly the selected lines' starts, taken from `marks` in order;
    /// with the terminators between `pos` and the line where they were
    /// counted on the way to its end ([`Self::counts_on_the_way`]).
    fn next_marked_line(
        &self,
        buf: &[u8],
        base: u64,
        pos: usize,
        marks: &mut Marks,
    ) -> Option<(Span, Option<u64>)> {
        let from = pos as u64 + marks.starts.skip;
        let t = self.opts.terminator;
        while let Some(&o) = marks.starts.offsets.get(marks.next) {
            if o < from {
                marks.next += 1;
                continue;
            }
            let g = (o - marks.starts.skip) as usize;
            if g >= buf.len() {
                return None;
            }
            marks.next += 1;
            if starts_line(buf, pos, g, t) && self.counts_on_the_way(base, pos, g) {
                let (n, end) = count_then_find(buf, pos, g, t);
                return Some((Span { start: g, end }, Some(n)));
            }
            return Some((line_holding(buf, pos, g, t), None));
        }
        None
    }

    /// Whether the line starting at `g` is numbered by counting from `pos`
    /// on the way to its end (`count_then_find`): lines are numbered, the
    /// count stands at `pos`, the gap is not one the prefilter counts
    /// ([`FAR_COUNTED`]) and no binary watch looks at the lines (it counts
    /// with its own look for a NUL, `number_line`).
    fn counts_on_the_way(&self, base: u64, pos: usize, g: usize) -> bool {
        self.opts.line_numbers
            && !self.opts.stop_on_nul
            && self.count_pos == base + pos as u64
            && g - pos < FAR_COUNTED
    }

    /// The next line at or after `pos` (a line start) that matches.
    fn next_matching_line(&self, buf: &[u8], pos: usize) -> Option<Span> {
        let t = self.opts.terminator;
        let mut at = pos;
        while at < buf.len() {
            let m = self.prefilter.find_at(buf, at)?;
            if m.start > buf.len() || m.end > buf.len() {
                return None; // a matcher answered outside the buffer
            }
            let Span { start, end } = line_holding(buf, at, m.start, t);
            if start >= buf.len() {
                return None;
            }
            let exact = self.prefilter_exact && m.end <= end;
            if exact || self.confirms(&buf[start..end], m.start.saturating_sub(start)) {
                return Some(Span { start, end });
            }
            at = end + 1;
        }
        None
    }

    /// Whether `line`, whose first candidate lies at `candidate`, matches:
    /// confirmed from where the prefilter says a match can start
    /// (`Matcher::candidate_reach`), else from the line's start.
    fn confirms(&self, line: &[u8], candidate: usize) -> bool {
        match self.reach {
            Some(reach) if candidate > reach => {
                self.line_matcher.find_at(line, candidate - reach).is_some()
            }
            _ => self.line_matcher.is_match_line(line),
        }
    }

    fn emit_selected(
        &mut self,
        buf: &[u8],
        base: u64,
        span: Span,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        self.emit_after_context(buf, base, span.start, sink)?;
        self.emit_before_context(buf, base, span.start, sink)?;
        if self.done {
            return Ok(());
        }
        let Some(line) = self.take_line(buf, base, span) else {
            return Ok(());
        };
        self.gap_if_needed(base + span.start as u64, sink)?;
        self.selected += 1;
        self.last_end = Some(base + span.end as u64 + 1);
        // A last line without a terminator ends at the end of the input.
        self.after_last_selected = Some(base + (span.end + 1).min(buf.len()) as u64);
        let go_on = sink.selected(&line)?;
        self.after_left = self.opts.after;
        if !go_on {
            self.done = true;
        } else if self.opts.max_count.is_some_and(|m| self.selected >= m) {
            // No more selected lines; trailing context is still printed.
            self.limit_reached = true;
        }
        Ok(())
    }

    /// Context lines after the last selected line, up to `limit`.
    fn emit_after_context(
        &mut self,
        buf: &[u8],
        base: u64,
        limit: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        let Some(last_end) = self.last_end else {
            return Ok(());
        };
        let mut pos = match last_end.checked_sub(base) {
            Some(p) => p as usize,
            None => return Ok(()),
        };
        while self.after_left > 0 && pos < limit && pos < buf.len() {
            let span = line_at(buf, pos, self.opts.terminator);
            let Some(line) = self.take_line(buf, base, span) else {
                return Ok(());
            };
            sink.context(&line)?;
            self.after_left -= 1;
            pos = span.end + 1;
            self.last_end = Some(base + pos as u64);
        }
        Ok(())
    }

    /// Up to `before` lines before `start`, none already printed.
    fn emit_before_context(
        &mut self,
        buf: &[u8],
        base: u64,
        start: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        self.emit_lines_before(buf, base, start, self.opts.before, sink)
    }

    /// Up to `lines` lines before `start` as context, none already printed.
    fn emit_lines_before(
        &mut self,
        buf: &[u8],
        base: u64,
        start: usize,
        lines: usize,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        // Binary data found in the after-context just printed ends the
        // output (`cli_binary`: `nul_late_in_context_between_matches_...`).
        if lines == 0 || self.done {
            return Ok(());
        }
        let floor = match self.last_end {
            Some(end) => end.saturating_sub(base).min(start as u64) as usize,
            None => 0,
        };
        let t = self.opts.terminator;
        let mut first = start;
        let mut n = 0;
        while n < lines && first > floor {
            first = memrchr(t, &buf[floor..first - 1]).map_or(floor, |i| floor + i + 1);
            n += 1;
        }
        let mut pos = first;
        while pos < start {
            let span = line_at(buf, pos, t);
            let Some(line) = self.take_line(buf, base, span) else {
                return Ok(());
            };
            self.gap_if_needed(base + pos as u64, sink)?;
            sink.context(&line)?;
            pos = span.end + 1;
            self.last_end = Some(base + pos as u64);
        }
        Ok(())
    }

    fn gap_if_needed(&mut self, start: u64, sink: &mut dyn Sink) -> io::Result<()> {
        if !self.opts.separators {
            return Ok(());
        }
        if self.last_end.is_some_and(|end| end < start) {
            sink.gap()?;
        }
        Ok(())
    }

    /// The line at `span` as it goes to the sink, numbered with `-n`;
    /// `None` when it holds a NUL under the binary watch: binary data found
    /// late ends the search there.
    fn take_line<'b>(&mut self, buf: &'b [u8], base: u64, span: Span) -> Option<Line<'b>> {
        let mut no_nul = false;
        let number = self.opts.line_numbers.then(|| {
            let (n, clean) = self.number_line(buf, base, span);
            no_nul = clean;
            self.count_past(buf, base, span, n);
            n
        });
        if self.opts.stop_on_nul && !no_nul && self.nul.has_nul(buf, span, self.nul_ahead) {
            self.binary = true;
            self.done = true;
            return None;
        }
        Some(line_of(buf, base, span, number))
    }

    /// [`Self::take_line`] for a line found by `next_marked_line` with
    /// `n`, the terminators from the count's cursor to its start (no binary
    /// watch: `counts_on_the_way`): numbered as `line_number` would.
    fn take_counted_line<'b>(&mut self, buf: &'b [u8], base: u64, span: Span, n: u64) -> Line<'b> {
        self.count_line += n;
        self.count_pos = base + span.start as u64;
        let number = self.count_line;
        self.count_past(buf, base, span, number);
        line_of(buf, base, span, Some(number))
    }

    /// Moves the count's cursor past the line at `span`, numbered `n`,
    /// where its terminator is known: the next line is counted from there
    /// (dense output counted each line twice).
    fn count_past(&mut self, buf: &[u8], base: u64, span: Span, n: u64) {
        if span.end < buf.len() {
            self.count_pos = base + span.end as u64 + 1;
            self.count_line = n + 1;
        }
    }

    /// The number of the line at `span`, moving the cursor, and whether
    /// the line is known to hold no NUL byte. Counted forward, the count
    /// runs through the line (which holds no terminator) and looks for a
    /// NUL on the way: with `-n` the binary watch then needs no pass of
    /// its own over the lines between matches (`-n -F ERROR` over 1 GiB of
    /// logs: that pass was 15 % of the time).
    fn number_line(&mut self, buf: &[u8], base: u64, span: Span) -> (u64, bool) {
        let abs = base + span.start as u64;
        let cursor = (self.count_pos.saturating_sub(base) as usize).min(span.start);
        // Lines close together are looked at for a NUL a window at a time
        // (`NulWindow`): counting through each of them, one call a line,
        // made dense `-n` 15 % slower.
        let far = abs >= self.count_pos && span.start - cursor >= FAR_APART;
        // A window ahead pays where lines come close together, not for a
        // line close to one far from the last (sparse output would look
        // at most bytes twice).
        self.nul_ahead = !far && self.close_before;
        self.close_before = !far;
        if !far || !self.opts.stop_on_nul {
            return (self.line_number(buf, base, span.start), false);
        }
        let (n, nul) = count_byte_and_nul(&buf[cursor..span.end], self.opts.terminator);
        self.count_line += n;
        self.count_pos = abs;
        (self.count_line, !nul)
    }

    /// The number of the line starting at `buf[pos]`, moving the cursor.
    fn line_number(&mut self, buf: &[u8], base: u64, pos: usize) -> u64 {
        let abs = base + pos as u64;
        let cursor = (self.count_pos.saturating_sub(base) as usize).min(buf.len());
        let t = self.opts.terminator;
        if abs >= self.count_pos {
            let gap = &buf[cursor..pos];
            let known = match gap.len() >= FAR_COUNTED {
                true => self.prefilter.terminators_at(gap, base + cursor as u64, t),
                false => None,
            };
            self.count_line += known.unwrap_or_else(|| count_byte(gap, t));
        } else {
            self.count_line -= count_byte(&buf[pos..cursor], t);
        }
        self.count_pos = abs;
        self.count_line
    }
}

/// A prefilter's line starts ([`Matcher::line_starts`]) and the next one
/// to look at.
struct Marks<'a> {
    starts: LineStarts<'a>,
    next: usize,
}

impl<'a> Marks<'a> {
    /// From the first start at or after position `pos`.
    fn at(starts: LineStarts<'a>, pos: usize) -> Self {
        let from = pos as u64 + starts.skip;
        let next = starts.offsets.partition_point(|&o| o < from);
        Marks { starts, next }
    }
}

/// Bytes of plain lines written between the sink's looks at its buffer
/// (`Searcher::search_plain`): the printer writes through at 64 KiB.
const PLAIN_BATCH: usize = 32 << 10;

/// From how many bytes after the last line numbered a line's count also
/// looks for a NUL in it (`Searcher::number_line`).
const FAR_APART: usize = 256;

/// From how many bytes after the last line numbered a line's number is
/// asked of the prefilter first (`Matcher::terminators_at`: the GPU
/// counted the file's lines per 64 KiB, so sparse `-n` output neither
/// counts nor maps the bytes between its lines).
const FAR_COUNTED: usize = 128 << 10;

/// Whether a hit of `prefilter` within a line selects the line without
/// the confirm step: it is exact and there is none, or it is exact for
/// lines and the confirm only finds the matches to print.
pub fn prefilter_selects(prefilter: &dyn Matcher, has_confirm: bool) -> bool {
    prefilter.is_exact() && (!has_confirm || prefilter.selects_lines())
}

/// The line holding `at`, found at or after `pos` (a line start). A match
/// at a line start (a rule pack's exact marks) needs no look back over the
/// lines since `pos` (`memrchr` over them was 5 % of `-n` of 1,000 rules
/// on the GPU path).
fn line_holding(buf: &[u8], pos: usize, at: usize, t: u8) -> Span {
    let start = match starts_line(buf, pos, at, t) {
        true => at,
        false => pos + memrchr(t, &buf[pos..at]).map_or(0, |i| i + 1),
    };
    let end = at + memchr(t, &buf[at..]).unwrap_or(buf.len() - at);
    Span { start, end }
}

/// Whether `at`, at or after `pos` (a line start), starts a line.
fn starts_line(buf: &[u8], pos: usize, at: usize, t: u8) -> bool {
    at == pos || buf.get(at.wrapping_sub(1)) == Some(&t)
}

/// The line at `span` as it goes to the sink.
fn line_of(buf: &[u8], base: u64, span: Span, number: Option<u64>) -> Line<'_> {
    Line {
        bytes: &buf[span.start..span.end],
        number,
        offset: base + span.start as u64,
        terminated: span.end < buf.len(),
    }
}

/// The line starting at `pos`.
fn line_at(buf: &[u8], pos: usize, t: u8) -> Span {
    let end = memchr(t, &buf[pos..]).map_or(buf.len(), |i| pos + i);
    Span { start: pos, end }
}
