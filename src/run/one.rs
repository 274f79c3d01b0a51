//! Searching one input: the glue between the searcher and the printers.
//!
//! The searcher (`crate::search`) opens the input, sniffs its byte-order
//! mark, applies the binary rule, streams or splits it; the printers
//! (`crate::output`: standard, JSON, summary) decide what is printed. This
//! file only picks them for the run's configuration and gathers what one
//! input produced into a [`FileResult`] for `run` to print in order. It
//! runs once per file (100,000 small files are a benchmark case): nothing
//! here allocates or asks the system anything per file.

use super::Shared;
use crate::config::Mode;
use crate::engine::Matcher;
use crate::error::Message;
use crate::input::same_file;
use crate::input::source;
use crate::input::walk::Input;
use crate::output::json::JsonStats;
use crate::output::standard::{offset_width, MatchOffsets};
use crate::output::{summary, Format, Printer};
use crate::search::{
    self, split_map_from, Haystack, Helpers, OpenOptions, Preloaded, Search, Unopened,
};
use std::io::{self, Write};
use std::path::Path;

/// What searching one input produced.
#[derive(Debug, Default)]
pub struct FileResult {
    /// Output for stdout, when not streamed.
    pub out: Vec<u8>,
    /// Messages for stderr (after `NAME: `).
    pub messages: Vec<Message>,
    pub selected: bool,
    /// A message is an error (exit status 2).
    pub had_error: bool,
    /// The file printed lines, or selected lines of which `-o` printed
    /// nothing (for context group separators between files).
    pub printed_lines: bool,
    /// Bytes searched.
    pub bytes: u64,
    /// Selected lines.
    pub lines: u64,
    /// `--json` statistics for the summary.
    pub json: Option<Box<JsonStats>>,
    /// Offset in the input just past the last selected line (not for
    /// decoded inputs).
    pub after_last_selected: Option<u64>,
    /// `out` is LZ4-packed while it waits (`crate::run::packed`).
    pub packed: bool,
}

/// Searches `input` with `prefilter` (and the compiled confirm step),
/// writing to `stream` as it goes when given, else into the result's
/// buffer. `preloaded` holds the input's bytes when a caller already has
/// them (a GPU chunk, or the GPU's map of the file): the prefilter's
/// offsets then refer to those bytes after the first `base` (a UTF-8
/// byte-order mark the caller saw), and a haystack that starts elsewhere,
/// or is decoded, is searched with the compiled prefilter instead.
///
/// When `-m` stops the search of a standard input that is a regular file,
/// the input is left just after the last selected line, as GNU grep
/// documents (`{ grep -m1 x; cat; } < f` prints the rest of `f`).
pub fn search_input<'a>(
    shared: &'a Shared,
    input: &'a Input,
    preloaded: Option<Preloaded<'a>>,
    prefilter: &'a dyn Matcher,
    base: usize,
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let split = shared.split_threads;
    search_split(shared, input, preloaded, (prefilter, base, split), stream)
}

/// [`search_input`], where a slice of at least `split::SPLIT_MIN_BYTES`
/// may be split between `split_threads` threads (a large file of a GPU
/// run, whose marks leave only lines to print: one 2 GiB file's output
/// held the printer for 2.3 s while the other threads waited).
pub fn search_split<'a>(
    shared: &'a Shared,
    input: &'a Input,
    preloaded: Option<Preloaded<'a>>,
    (prefilter, base, split_threads): (&'a dyn Matcher, usize, usize),
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let cfg = &shared.cfg;
    // Not with -l, -L or -q, as GNU grep.
    let start = match preloaded.is_none() && input.path.is_none() && cfg.max_count.is_some() {
        true if !cfg.mode.first_match_ends() => source::stdin_offset(),
        _ => None,
    };
    let mut result = FileResult::default();
    search_opened(
        shared,
        input,
        preloaded,
        (prefilter, base, split_threads),
        stream,
        &mut result,
    )?;
    result.had_error = result.messages.iter().any(Message::is_error);
    if let (Some(start), Some(m), Some(end)) = (start, cfg.max_count, result.after_last_selected) {
        if result.lines >= m {
            source::seek_stdin(start + end);
        }
    }
    Ok(result)
}

fn search_opened(
    shared: &Shared,
    input: &Input,
    preloaded: Option<Preloaded>,
    (prefilter, prefilter_base, split_threads): (&dyn Matcher, usize, usize),
    stream: Option<&mut dyn Write>,
    result: &mut FileResult,
) -> io::Result<()> {
    // Most names are valid UTF-8: `from_utf8`'s word-at-a-time check, not
    // the lossy decoder's walk (2 % of the CPU time over 20,000 files).
    let display = match std::str::from_utf8(input.name()) {
        Ok(name) => std::borrow::Cow::Borrowed(name),
        Err(_) => String::from_utf8_lossy(input.name()),
    };
    // Files found in a tree were checked by the walker (`found_file`).
    if let (None, Some(output), false) = (preloaded, &shared.output_file, input.from_recursion) {
        if output.is_input(input) {
            let message = same_file::message(&display);
            result.messages.push(Message::Error(message));
            return Ok(());
        }
    }
    let cfg = &shared.cfg;
    let options = OpenOptions {
        decompress: cfg.decompress,
        decompress_threads: shared.decompress_threads,
        map: shared.map_inputs,
        // In the run's tail a smaller file is mapped to be split.
        map_from: (shared.split_threads > 1)
            .then(|| split_map_from(shared.helpers.enabled().is_some_and(Helpers::in_tail))),
    };
    let mut opened = match search::open(input, preloaded, options) {
        Ok(opened) => opened,
        Err(Unopened { error, summarise }) => {
            result.messages.push(Message::io(&display, &error));
            if summarise && error.raw_os_error() == Some(libc::EISDIR) {
                let shown = cfg.with_filename.unwrap_or(cfg.paths.len() > 1);
                let shown = shown.then_some(input.name());
                summary::write_directory(&mut result.out, &shared.print, shown, input.name());
            }
            return Ok(());
        }
    };
    let plan = shared.compiled.encoding;
    let hay = opened.haystack(plan, cfg.terminator, &display, &mut result.messages);
    let prefilter = match &hay {
        Haystack::Slice { base, .. } if *base == prefilter_base => prefilter,
        Haystack::Stream { .. } => prefilter,
        Haystack::Slice { .. } | Haystack::Decoded { .. } => &*shared.compiled.prefilter,
    };
    let how = (prefilter, split_threads);
    search_haystack(shared, input, &hay, how, stream, &display, result)?;
    // A mapped file that shrank during the search: what was found stands
    // (its lost end read as zeros), and the file is reported.
    if opened.map().is_some_and(source::Mapped::truncated) {
        let message = format!("{display}: file truncated while being read");
        result.messages.push(Message::Error(message));
    }
    Ok(())
}

/// Searches `hay` into the printer the run asks for, and the summary.
fn search_haystack(
    shared: &Shared,
    input: &Input,
    hay: &Haystack,
    (prefilter, split_threads): (&dyn Matcher, usize),
    stream: Option<&mut dyn Write>,
    display: &str,
    result: &mut FileResult,
) -> io::Result<()> {
    let cfg = &shared.cfg;
    let started = std::time::Instant::now();
    let lines_mode = cfg.mode == Mode::Lines;
    let matcher = shared.compiled.line_matcher();
    let offsets = hay
        .decoded()
        .map(|d| move |line: u64, at: usize| d.offset_in_line(line, at));
    let offsets = offsets.as_ref().map(|f| f as MatchOffsets);
    let name = shown_name(shared, input);
    let path: &[u8] = if input.path.is_some() {
        input.name()
    } else {
        b"<stdin>"
    };
    let print = &shared.print;
    let mut printer = Printer::for_input(cfg, print, matcher, name, path, offsets, stream);
    if let (true, Format::Standard(s)) = (cfg.initial_tab, &mut printer.format) {
        s.set_offset_width(offset_width(size_of(input), cfg.line_number));
    }
    *printer.out() = crate::output::spare::own();
    // For the CPU prefilter this is what the searcher derives anyway; the
    // GPU's exact offsets of the same literals then select their lines
    // too, instead of each line being confirmed again on the CPU.
    let confirm = shared.compiled.confirm_decides_lines();
    let mut search = Search::new(cfg, prefilter, matcher, confirm, split_threads);
    search.helpers = shared.helpers.enabled();
    let searched = search.search(hay, &mut printer)?;
    let outcome = searched.outcome;
    if let Some(e) = &searched.error {
        result.messages.push(Message::io(display, e));
    }
    result.bytes = match hay {
        Haystack::Decoded { bytes, .. } => *bytes,
        _ => searched.bytes,
    };
    result.selected = outcome.selected > 0;
    result.lines = outcome.selected;
    if hay.decoded().is_none() {
        result.after_last_selected = outcome.after_last_selected;
    }
    // A selected line counts as printed even when `-o` printed nothing of
    // it: GNU grep puts group separators around such groups too.
    let shown = outcome.selected > 0 && !outcome.binary;
    result.printed_lines = lines_mode && (printer.wrote() || shown);
    let (matches, json) = printer.finish(searched.bytes, started.elapsed());
    result.json = json.map(Box::new);
    let out = printer.out();
    summary::write_summary(out, print, name, input.name(), outcome.selected, matches);
    if outcome.binary && lines_mode {
        result.messages.push(Message::BinaryMatches(display.into()));
        result.selected = true;
    }
    printer.flush()?;
    result.out = crate::output::spare::settle(std::mem::take(printer.out()));
    Ok(())
}

/// The size of a regular file (standard input's too, where it is one), for
/// `-T`'s number width; `None` for anything else, as GNU grep's
/// `usable_st_size`.
fn size_of(input: &Input) -> Option<u64> {
    let path = input.path.as_deref().unwrap_or(Path::new("/dev/stdin"));
    std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// The name printed before a file's lines or count, if any.
fn shown_name<'i>(shared: &Shared, input: &'i Input) -> Option<&'i [u8]> {
    let cfg = &shared.cfg;
    let show = cfg
        .with_filename
        .unwrap_or(cfg.paths.len() > 1 || input.from_recursion);
    show.then_some(input.name())
}

/// The result for a file of which the GPU counted `lines` selected lines
/// holding `matches`, in `searched` bytes (those after a byte-order mark):
/// the summary printer's output.
pub fn tallied<W: Write + ?Sized>(
    shared: &Shared,
    input: &Input,
    searched: u64,
    lines: u64,
    matches: u64,
    stream: Option<&mut W>,
) -> io::Result<FileResult> {
    let cfg = &shared.cfg;
    // -m stops at that many selected lines (callers leave --count-matches
    // with -m to the full search).
    let lines = cfg.max_count.map_or(lines, |m| lines.min(m));
    let mut result = FileResult {
        selected: lines > 0,
        lines,
        bytes: searched,
        ..FileResult::default()
    };
    let name = shown_name(shared, input);
    summary::write_summary(
        &mut result.out,
        &shared.print,
        name,
        input.name(),
        lines,
        matches,
    );
    if let Some(s) = stream {
        s.write_all(&result.out)?;
        if cfg.line_buffered {
            s.flush()?;
        }
        result.out.clear();
    }
    Ok(result)
}
