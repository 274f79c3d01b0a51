//! Searching one input: open it, decide whether it is binary, run the
//! searcher over a memory map or a stream, and write grep's per-file output.

use super::Shared;
use crate::config::{BinaryMode, Mode};
use crate::encoding::decode::Decoded;
use crate::encoding::{EncodingPlan, FilePlan, BOM_PROBE};
use crate::engine::Matcher;
use crate::error::Message;
use crate::input::decompress;
use crate::input::same_file;
use crate::input::source::{self, Mapped, Source};
use crate::input::walk::Input;
use crate::output::json::{JsonSink, JsonStats};
use crate::output::standard::{write_count, write_name, StandardSink};
use crate::output::{Format, Printer};
use crate::search::{prefilter_selects, Line, Outcome, SearchOptions, Searcher, Sink};
use memchr::memrchr;
use std::borrow::Cow;
use std::io::{self, IsTerminal, Read, Write};

/// How many leading bytes decide that a file is binary (GNU grep's buffer).
const BINARY_PROBE: usize = 32 * 1024;
/// Bytes read at a time from a stream.
const STREAM_CHUNK: usize = 256 * 1024;

/// The stream block size; `GPUGREP_STREAM_CHUNK` shrinks it so tests can
/// put block boundaries everywhere.
fn stream_chunk() -> usize {
    std::env::var("GPUGREP_STREAM_CHUNK")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(STREAM_CHUNK)
}

/// What searching one input produced.
#[derive(Debug, Default)]
pub struct FileResult {
    /// Output for stdout, when not streamed.
    pub out: Vec<u8>,
    /// Messages for stderr (`NAME: FILE: reason` without the program name).
    pub messages: Vec<Message>,
    pub selected: bool,
    pub had_error: bool,
    /// The file printed lines, or selected lines of which `-o` printed
    /// nothing (for context group separators between files).
    pub printed_lines: bool,
    /// Bytes searched.
    pub bytes: u64,
    /// Selected lines.
    pub lines: u64,
    /// `--json` statistics for the summary.
    pub json: Option<JsonStats>,
    /// Offset in the input just past the last selected line (not for
    /// decoded inputs).
    pub after_last_selected: Option<u64>,
}

const EISDIR: i32 = 21;

/// GNU grep still counts a directory operand (0) under `-c` and lists it
/// under `-L`, after saying it is a directory.
fn directory_summary(shared: &Shared, input: &Input, out: &mut Vec<u8>) {
    let cfg = &shared.cfg;
    let show_name = cfg.with_filename.unwrap_or(cfg.paths.len() > 1);
    let name = show_name.then_some(input.name.as_slice());
    match cfg.mode {
        Mode::Count | Mode::CountMatches => write_count(out, &shared.print, name, 0),
        Mode::FilesWithoutMatch => write_name(out, &shared.print, &input.name),
        _ => {}
    }
}

thread_local! {
    /// Each thread's stream buffer, reused from file to file.
    static READ_BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The thread's read buffer, given back when dropped (unless it grew huge).
struct Recycled(Vec<u8>);

impl Recycled {
    fn take() -> Recycled {
        Recycled(READ_BUF.with(|b| std::mem::take(&mut *b.borrow_mut())))
    }
}

impl Drop for Recycled {
    fn drop(&mut self) {
        if self.0.capacity() <= 64 << 20 {
            let buf = std::mem::take(&mut self.0);
            READ_BUF.with(|b| *b.borrow_mut() = buf);
        }
    }
}

/// Records an error reading `display`: grep's `NAME: reason`, exit 2 later.
fn read_error(result: &mut FileResult, display: &str, e: &io::Error) {
    result.had_error = true;
    result.messages.push(Message::io(display, e));
}

/// The result for an input that could not be opened or read: grep's
/// message, and for a directory operand the summary GNU grep still prints.
fn unreadable(
    shared: &Shared,
    input: &Input,
    mut result: FileResult,
    display: &str,
    e: &io::Error,
) -> FileResult {
    read_error(&mut result, display, e);
    if e.raw_os_error() == Some(EISDIR) {
        directory_summary(shared, input, &mut result.out);
    }
    result
}

/// The first read of a stream (what grep calls its first buffer), read
/// further only while it could still be the start of a byte-order mark. A
/// slow pipe gives what it has (a short first line is not held back), a file
/// gives up to 64 KiB, and the binary probe then sees that same first buffer.
fn read_head(reader: &mut dyn Read, sniff: bool) -> io::Result<Vec<u8>> {
    const BOMS: [&[u8]; 3] = [b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"];
    const FIRST_READ: usize = 64 * 1024;
    let may_grow_into_bom = |head: &[u8]| {
        BOMS.iter()
            .any(|b| b.len() > head.len() && b.starts_with(head))
    };
    let mut head = Vec::new();
    if !sniff {
        return Ok(head);
    }
    // Read into the thread's buffer (initialised once, never zero-filled
    // again) and copy out only what arrived.
    let mut scratch = Recycled::take();
    if scratch.0.len() < FIRST_READ {
        scratch.0.resize(FIRST_READ, 0);
    }
    while may_grow_into_bom(&head) {
        match reader.read(&mut scratch.0[..FIRST_READ]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&scratch.0[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(head)
}

/// What is searched: bytes in memory, or a stream.
enum Body<'d> {
    Bytes(&'d [u8]),
    Stream(Box<dyn Read + Send>),
}

/// An opened input: what is searched, or a regular file still to read.
enum Opened<'d> {
    Body(Body<'d>),
    File(std::fs::File),
}

/// Regular files up to this size are read whole into the thread's buffer
/// and searched as bytes (one copy, as for a map); larger ones stream on
/// from what was read.
const WHOLE_READ: usize = STREAM_CHUNK;

/// Reads `file` into `buf` until EOF or `WHOLE_READ` bytes: how many bytes
/// arrived and whether that is the whole file.
fn read_start(file: &mut std::fs::File, buf: &mut Vec<u8>) -> io::Result<(usize, bool)> {
    if buf.len() < WHOLE_READ {
        buf.resize(WHOLE_READ, 0);
    }
    let mut n = 0;
    while n < WHOLE_READ {
        match file.read(&mut buf[n..WHOLE_READ]) {
            Ok(0) => return Ok((n, true)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((n, false))
}

/// Searches `input` with `prefilter` (and `confirm`), writing to `stream` as
/// it goes when given, else into the result's buffer. `preloaded` holds the
/// input's bytes when a caller already has them (a GPU chunk, or a map): the
/// prefilter's offsets then refer to exactly those bytes. A file with a BOM
/// or in an encoding that is searched decoded (`crate::encoding`) is
/// searched with the compiled prefilter instead.
///
/// When `-m` stops the search of a standard input that is a regular file,
/// the input is left just after the last selected line, as GNU grep
/// documents (`{ grep -m1 x; cat; } < f` prints the rest of `f`).
pub fn search_input<'a>(
    shared: &'a Shared,
    input: &'a Input,
    preloaded: Option<&'a [u8]>,
    prefilter: &'a dyn Matcher,
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let max_count = shared.cfg.max_count;
    // Not with -l, -L or -q, as GNU grep.
    let lists = matches!(
        shared.cfg.mode,
        Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet
    );
    let start = match preloaded.is_none() && input.path.is_none() && max_count.is_some() && !lists {
        true => source::stdin_offset(),
        false => None,
    };
    let result = search_opened(shared, input, preloaded, prefilter, stream)?;
    if let (Some(start), Some(m), Some(end)) = (start, max_count, result.after_last_selected) {
        if result.lines >= m {
            source::seek_stdin(start + end);
        }
    }
    Ok(result)
}

fn search_opened<'a>(
    shared: &'a Shared,
    input: &'a Input,
    preloaded: Option<&'a [u8]>,
    prefilter: &'a dyn Matcher,
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let mut result = FileResult::default();
    let display = String::from_utf8_lossy(&input.name);
    if preloaded.is_none() {
        if let Some(output) = shared.output_file {
            if output.is_input(input) {
                result.had_error = true;
                result
                    .messages
                    .push(Message::Error(same_file::message(&display)));
                return Ok(result);
            }
        }
    }
    let mut map: Option<Mapped> = None;
    let decompressed = match decompressed(shared, input, preloaded) {
        Ok(d) => d,
        Err(e) => {
            read_error(&mut result, &display, &e);
            return Ok(result);
        }
    };
    let opened = match (decompressed, preloaded, &input.path) {
        (Some(reader), _, _) => Opened::Body(Body::Stream(reader)),
        (None, Some(bytes), _) => Opened::Body(Body::Bytes(bytes)),
        (None, None, None) => Opened::Body(Body::Stream(source::stdin_reader())),
        // The walker saw a regular file: read it without asking the file
        // system again (one `statx` less per file in large trees).
        (None, None, Some(path)) if input.from_recursion && shared.split_threads <= 1 => {
            match source::open_file(path) {
                Ok(file) => Opened::File(file),
                Err(e) => {
                    read_error(&mut result, &display, &e);
                    return Ok(result);
                }
            }
        }
        (None, None, Some(path)) => match source::open(path, shared.split_threads > 1) {
            Ok(Source::Mapped(m)) => {
                map = Some(m);
                Opened::Body(Body::Bytes(map.as_deref().unwrap_or_default()))
            }
            Ok(Source::Stream(r)) => Opened::Body(Body::Stream(r)),
            // Read in blocks through a buffer that stays in cache: with
            // many threads, memory bandwidth is what runs out first.
            Ok(Source::File(file, _)) => Opened::File(file),
            Err(e) => return Ok(unreadable(shared, input, result, &display, &e)),
        },
    };
    // A small regular file is read whole, without the stream's copies.
    let whole;
    let body = match opened {
        Opened::File(mut file) => {
            let mut buf = Recycled::take();
            match read_start(&mut file, &mut buf.0) {
                Ok((n, true)) => {
                    whole = (buf, n);
                    Body::Bytes(&whole.0 .0[..whole.1])
                }
                Ok((n, false)) => {
                    let head = io::Cursor::new(buf.0[..n].to_vec());
                    Body::Stream(Box::new(head.chain(file)))
                }
                Err(e) => return Ok(unreadable(shared, input, result, &display, &e)),
            }
        }
        Opened::Body(body) => body,
    };
    let plan = shared.compiled.encoding;
    let compiled_prefilter = &*shared.compiled.prefilter;
    let terminator = shared.cfg.terminator;
    let (data, enc, skip) = match body {
        Body::Bytes(data) => match plan.for_file(&data[..data.len().min(BOM_PROBE)]) {
            FilePlan::Raw { skip: 0 } => {
                let r = search_body(shared, input, Body::Bytes(data), prefilter, stream, None, 0);
                return r.map(|r| note_truncation(r, map.as_ref(), &display));
            }
            FilePlan::Raw { skip } => {
                let body = Body::Bytes(&data[skip..]);
                let r = search_body(shared, input, body, compiled_prefilter, stream, None, skip);
                return r.map(|r| note_truncation(r, map.as_ref(), &display));
            }
            FilePlan::Decode { enc, skip } => (Cow::Borrowed(data), enc, skip),
        },
        Body::Stream(mut reader) => {
            let sniff = plan != EncodingPlan::Raw { sniff_utf16: false };
            let mut head = match read_head(&mut reader, sniff) {
                Ok(head) => head,
                Err(e) => {
                    // As GNU grep: the error, then the file's summary (`-c`
                    // counts 0) as for an empty file.
                    read_error(&mut result, &display, &e);
                    let empty = Body::Stream(Box::new(io::empty()));
                    let mut r = search_body(shared, input, empty, prefilter, stream, None, 0)?;
                    r.had_error = true;
                    r.messages.splice(0..0, result.messages);
                    return Ok(r);
                }
            };
            match plan.for_file(&head) {
                FilePlan::Raw { skip } => {
                    // The head comes back whole from the first read: the
                    // binary probe sees the same first buffer.
                    let rest: Box<dyn Read + Send> =
                        Box::new(io::Cursor::new(head.split_off(skip)).chain(reader));
                    return search_body(
                        shared,
                        input,
                        Body::Stream(rest),
                        prefilter,
                        stream,
                        None,
                        skip,
                    );
                }
                FilePlan::Decode { enc, skip } => {
                    // The slow path reads the whole stream first.
                    let mut data = head;
                    if let Err(e) = reader.read_to_end(&mut data) {
                        read_error(&mut result, &display, &e);
                        // A line cut off by the error is not searched as if whole.
                        data.truncate(complete_lines(&data, enc, terminator));
                    }
                    (Cow::Owned(data), enc, skip)
                }
            }
        }
    };
    let decoded = Decoded::new(&data, skip, enc, terminator);
    let body = Body::Bytes(&decoded.text);
    let mut r = search_body(
        shared,
        input,
        body,
        compiled_prefilter,
        stream,
        Some(&decoded),
        0,
    )?;
    r.bytes = data.len() as u64;
    r.had_error |= result.had_error;
    r.messages.splice(0..0, result.messages);
    Ok(note_truncation(r, map.as_ref(), &display))
}

/// A mapped file that shrank during the search: what was found stands
/// (its lost end read as zeros), and the file is reported, exit status 2.
fn note_truncation(mut r: FileResult, map: Option<&Mapped>, display: &str) -> FileResult {
    if map.is_some_and(Mapped::truncated) {
        r.had_error = true;
        r.messages.push(Message::Error(format!(
            "{display}: file truncated while being read"
        )));
    }
    r
}

/// With `--decompress`, the decompressed stream of a compressed input
/// (standard input too); `None` for anything else, opened as usual.
fn decompressed(
    shared: &Shared,
    input: &Input,
    preloaded: Option<&[u8]>,
) -> io::Result<Option<Box<dyn Read + Send>>> {
    if !shared.cfg.decompress || preloaded.is_some() {
        return Ok(None);
    }
    match &input.path {
        Some(path) => decompress::open(path),
        None => Ok(Some(decompress::wrap(source::stdin_reader())?.0)),
    }
}

/// The length of `data`'s complete lines: up to its last terminator, a
/// whole code unit in UTF-16.
fn complete_lines(data: &[u8], enc: &'static encoding_rs::Encoding, terminator: u8) -> usize {
    let unit = match enc {
        e if e == encoding_rs::UTF_16LE => [terminator, 0],
        e if e == encoding_rs::UTF_16BE => [0, terminator],
        _ => return memrchr(terminator, data).map_or(0, |i| i + 1),
    };
    data.chunks_exact(2)
        .rposition(|c| c == unit)
        .map_or(0, |i| 2 * i + 2)
}

/// Searches an opened input. `decoded`: the body is that file's decoded
/// text, whose offsets are mapped back to the file's. `base`: the file
/// offset of the body's first byte (after a BOM).
fn search_body<'a>(
    shared: &'a Shared,
    input: &'a Input,
    body: Body<'_>,
    prefilter: &'a dyn Matcher,
    stream: Option<&mut dyn Write>,
    decoded: Option<&Decoded>,
    base: usize,
) -> io::Result<FileResult> {
    let mut result = FileResult::default();
    let display = String::from_utf8_lossy(&input.name);
    let cfg = &shared.cfg;
    let name = shown_name(shared, input);
    let started = std::time::Instant::now();
    let match_offsets = decoded.map(|d| move |line: u64, at: usize| d.offset_in_line(line, at));
    let matcher = shared.compiled.line_matcher();
    let format = if cfg.json {
        let path: &[u8] = if input.path.is_some() {
            &input.name
        } else {
            b"<stdin>"
        };
        Format::Json(
            JsonSink::new(matcher, path, cfg.invert)
                .with_terminator(cfg.terminator)
                .with_decoding(shared.print.decode),
        )
    } else {
        let s = StandardSink::new(&shared.print, matcher, name);
        Format::Standard(match &match_offsets {
            Some(f) => s.with_match_offsets(f),
            None => s,
        })
    };
    let mut sink = Printer::new(format, stream, cfg.line_buffered);
    let binary_possible = cfg.binary != BinaryMode::Text && cfg.terminator == b'\n';
    let lines_mode = cfg.mode == Mode::Lines;
    let mut opts = SearchOptions {
        terminator: cfg.terminator,
        invert: cfg.invert,
        max_count: cfg.max_count,
        before: if lines_mode { cfg.before } else { 0 },
        after: if lines_mode { cfg.after } else { 0 },
        line_numbers: cfg.needs_line_numbers() && lines_mode,
        stop_on_nul: binary_possible && lines_mode,
        separators: cfg.context_given && lines_mode,
    };
    let line_matcher = shared.compiled.line_matcher();
    let exact = prefilter_selects(prefilter, shared.compiled.confirm.is_some());
    let searcher = |opts| Searcher::with_line_matcher(opts, prefilter, line_matcher, exact);
    let searcher = &searcher;

    let outcome = match body {
        Body::Bytes(data) => {
            result.bytes = data.len() as u64;
            let binary = binary_possible
                && memchr::memchr(0, &data[..data.len().min(BINARY_PROBE)]).is_some();
            if binary && cfg.binary == BinaryMode::WithoutMatch {
                Outcome::default()
            } else {
                if binary && lines_mode {
                    // Print nothing; the first selected line decides the message.
                    opts.max_count = Some(1);
                    opts.before = 0;
                    opts.after = 0;
                    opts.stop_on_nul = false;
                    let mut quiet = CountOnly;
                    let o = searcher(opts).search_slice(data, &mut quiet)?;
                    Outcome {
                        binary: o.selected > 0,
                        ..o
                    }
                } else if let Some(d) = decoded {
                    let mut mapped = MapOffsets {
                        inner: &mut sink,
                        decoded: d,
                    };
                    searcher(opts).search_slice(data, &mut mapped)?
                } else if base > 0 {
                    let mut s = searcher(opts);
                    s.search_block(data, base as u64, 0, &mut sink)?;
                    s.outcome()
                } else if let Some(parts) = split_plan(shared, &opts, &sink, data) {
                    search_split(shared, &opts, &searcher, data, &parts, &mut sink)?
                } else {
                    searcher(opts).search_slice(data, &mut sink)?
                }
            }
        }
        Body::Stream(reader) => {
            let binary = StreamBinary {
                possible: binary_possible,
                mode: cfg.binary,
                live: cfg.line_buffered || io::stdout().is_terminal(),
            };
            let mut recycled = Recycled::take();
            search_stream(
                reader,
                &mut recycled.0,
                base as u64,
                opts,
                searcher,
                binary,
                &mut sink,
                &mut result,
                &display,
            )?
        }
    };

    result.selected = outcome.selected > 0;
    result.lines = outcome.selected;
    if decoded.is_none() {
        result.after_last_selected = outcome.after_last_selected;
    }
    // A selected line counts as printed even when `-o` printed nothing of
    // it: GNU grep puts group separators around such groups too.
    let shown = outcome.selected > 0 && !outcome.binary;
    result.printed_lines = lines_mode && (sink.wrote() || shown);
    let matches = match &mut sink.format {
        Format::Standard(s) => s.matches,
        Format::Json(j) => {
            j.finish(result.bytes, started.elapsed());
            result.json = Some(j.stats());
            0
        }
    };
    write_summary(sink.out(), shared, input, outcome.selected, matches);
    if outcome.binary && lines_mode {
        result
            .messages
            .push(Message::BinaryMatches(display.into_owned()));
        result.selected = true;
    }
    sink.flush()?;
    result.out = std::mem::take(sink.out());
    Ok(result)
}

/// The name printed before a file's lines or count, if any.
fn shown_name<'i>(shared: &Shared, input: &'i Input) -> Option<&'i [u8]> {
    let cfg = &shared.cfg;
    let show = cfg
        .with_filename
        .unwrap_or(cfg.paths.len() > 1 || input.from_recursion);
    show.then_some(input.name.as_slice())
}

/// What the count and file-list modes print for a file with `selected`
/// lines holding `matches` matches.
fn write_summary(out: &mut Vec<u8>, shared: &Shared, input: &Input, selected: u64, matches: u64) {
    let name = shown_name(shared, input);
    match shared.cfg.mode {
        Mode::Count => write_count(out, &shared.print, name, selected),
        Mode::CountMatches => write_count(out, &shared.print, name, matches),
        Mode::FilesWithMatches if selected > 0 => write_name(out, &shared.print, &input.name),
        Mode::FilesWithoutMatch if selected == 0 => write_name(out, &shared.print, &input.name),
        _ => {}
    }
}

/// The result for a file whose `lines` holding `matches` the GPU counted.
/// `None` when the file's bytes need the full search after all (a
/// byte-order mark changes what is searched).
pub fn tallied<W: Write + ?Sized>(
    shared: &Shared,
    input: &Input,
    bytes: &[u8],
    lines: u64,
    matches: u64,
    stream: Option<&mut W>,
) -> io::Result<Option<FileResult>> {
    let head = &bytes[..bytes.len().min(BOM_PROBE)];
    if shared.compiled.encoding.for_file(head) != (FilePlan::Raw { skip: 0 }) {
        return Ok(None);
    }
    let cfg = &shared.cfg;
    // -m stops at that many selected lines (callers leave --count-matches
    // with -m to the full search).
    let lines = cfg.max_count.map_or(lines, |m| lines.min(m));
    let mut result = FileResult {
        selected: lines > 0,
        lines,
        bytes: bytes.len() as u64,
        ..FileResult::default()
    };
    write_summary(&mut result.out, shared, input, lines, matches);
    if let Some(s) = stream {
        s.write_all(&result.out)?;
        if cfg.line_buffered {
            s.flush()?;
        }
        result.out.clear();
    }
    Ok(Some(result))
}

/// Passes lines on with their offsets in decoded text mapped to the file's.
struct MapOffsets<'s, 'd, 'p, 'w> {
    inner: &'s mut Printer<'p, 'w>,
    decoded: &'d Decoded<'d>,
}

impl MapOffsets<'_, '_, '_, '_> {
    fn map<'l>(&self, line: &Line<'l>) -> Line<'l> {
        Line {
            offset: self.decoded.line_offset(line.offset as usize),
            ..*line
        }
    }
}

impl Sink for MapOffsets<'_, '_, '_, '_> {
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

/// A sink that only lets the searcher count.
struct CountOnly;

impl Sink for CountOnly {
    fn selected(&mut self, _line: &crate::search::Line) -> io::Result<bool> {
        Ok(true)
    }
    fn context(&mut self, _line: &crate::search::Line) -> io::Result<()> {
        Ok(())
    }
    fn gap(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A line of a stream longer than this that holds a NUL is cut after its
/// last NUL: binary data need not have newlines (`/dev/zero`), and GNU
/// grep, which takes every NUL of a binary file for a line end, holds
/// about this much of it.
const BINARY_LINE_CUT: usize = 1 << 20;

/// How a stream's binary data is handled: whether it can be binary (not
/// `-a`, not `-z`), what `--binary-files` says, and whether output goes out
/// as it is found (`--line-buffered`, a terminal) instead of being held
/// until the first 32 KiB are known to be text.
#[derive(Clone, Copy)]
struct StreamBinary {
    possible: bool,
    mode: BinaryMode,
    live: bool,
}

/// Searches a stream block by block, keeping the last `-B` lines of each
/// block in front of the next.
///
/// Binary detection sees what a file's would: a NUL anywhere in the first
/// 32 KiB, however the bytes arrive, makes the stream binary from its
/// start. Output is held back until those 32 KiB (or the end) have been
/// read; only live output (`--line-buffered`, a terminal) goes out before,
/// and a NUL arriving later in the 32 KiB then stops it from there on. A
/// NUL found in a line cut at [`BINARY_LINE_CUT`] also makes the stream
/// binary from there on.
#[allow(clippy::too_many_arguments)]
fn search_stream<'m>(
    mut reader: Box<dyn Read + Send>,
    buf: &mut Vec<u8>,
    start: u64,
    mut opts: SearchOptions,
    make_searcher: &dyn Fn(SearchOptions) -> Searcher<'m>,
    binary: StreamBinary,
    sink: &mut Printer,
    result: &mut FileResult,
    display: &str,
) -> io::Result<Outcome> {
    let t = opts.terminator;
    let chunk = stream_chunk();
    // `buf[..filled]` holds data; the rest of `buf` is initialised memory
    // kept from earlier reads and files, so reading never zero-fills.
    let mut filled = 0usize;
    let mut base = start;
    let mut from = 0usize;
    // `buf[from..scanned]` holds no terminator: a long line is scanned once,
    // not once per chunk read. `buf[from..nul_scanned]` holds no NUL.
    let mut scanned = 0usize;
    let mut nul_scanned = 0usize;
    let watch_nul = binary.possible && binary.mode != BinaryMode::Text;
    // Bytes of the stream probed for NUL so far (up to BINARY_PROBE).
    let mut probed = 0usize;
    let mut suppress = false;
    let mut searcher: Option<Searcher> = None;
    let mut count_only = CountOnly;
    if watch_nul && !binary.live {
        sink.hold(true);
    }
    loop {
        if buf.len() < filled + chunk {
            buf.resize(filled + chunk, 0);
        }
        let n = loop {
            match reader.read(&mut buf[filled..filled + chunk]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // A read error ends this input; what was found stands.
                    sink.hold(false);
                    read_error(result, display, &e);
                    return Ok(searcher.map(|s| s.outcome()).unwrap_or_default());
                }
            }
        };
        filled += n;
        result.bytes += n as u64;
        let eof = n == 0;
        let mut nul_found = false;
        if watch_nul && probed < BINARY_PROBE {
            let new = &buf[filled - n..filled][..n.min(BINARY_PROBE - probed)];
            probed += new.len();
            nul_found = memchr::memchr(0, new).is_some();
            if eof || probed >= BINARY_PROBE {
                sink.hold(false);
            }
        }
        let end = if eof {
            filled
        } else {
            let lo = scanned.max(from);
            match memrchr(t, &buf[lo..filled]) {
                Some(i) => lo + i + 1,
                None => {
                    scanned = filled;
                    let lo = nul_scanned.max(from);
                    let cut = match watch_nul && filled - from >= BINARY_LINE_CUT {
                        true => memrchr(0, &buf[lo..filled]).map(|i| lo + i + 1),
                        false => None,
                    };
                    nul_scanned = filled;
                    match cut {
                        Some(cut) => {
                            nul_found = true;
                            cut
                        }
                        None if nul_found => from,
                        None => continue,
                    }
                }
            }
        };
        if nul_found && !suppress {
            if binary.mode == BinaryMode::WithoutMatch {
                sink.discard();
                sink.hold(false);
                return Ok(Outcome::default());
            }
            if opts.stop_on_nul {
                // Binary from here on: what was held back is dropped, and
                // the first selected line decides the message.
                sink.discard();
                sink.hold(false);
                if let Some(o) = searcher.as_ref().map(Searcher::outcome) {
                    if o.selected > 0 {
                        return Ok(Outcome { binary: true, ..o });
                    }
                }
                opts.max_count = Some(1);
                opts.before = 0;
                opts.after = 0;
                opts.stop_on_nul = false;
                suppress = true;
                searcher = None;
            }
        }
        let s = searcher.get_or_insert_with(|| make_searcher(opts));
        if suppress {
            s.search_block(&buf[..end], base, from, &mut count_only)?;
        } else {
            s.search_block(&buf[..end], base, from, sink)?;
            sink.flush()?;
        }
        if eof || s.is_done() {
            let o = s.outcome();
            sink.hold(false);
            return Ok(if suppress {
                Outcome {
                    binary: o.selected > 0,
                    ..o
                }
            } else {
                o
            });
        }
        // Keep up to `before` whole lines before `end` for leading context.
        let mut keep = end;
        for _ in 0..opts.before {
            if keep == 0 {
                break;
            }
            keep = memrchr(t, &buf[..keep - 1]).map_or(0, |i| i + 1);
        }
        buf.copy_within(keep..filled, 0);
        filled -= keep;
        base += keep as u64;
        from = end - keep;
        scanned = filled;
        nul_scanned = from;
    }
}

/// Below this size a file is searched by one thread.
const SPLIT_MIN_BYTES: usize = 32 << 20;

/// The split threshold; `GPUGREP_SPLIT_MIN` lowers it so tests can split
/// small files.
fn split_min_bytes() -> usize {
    std::env::var("GPUGREP_SPLIT_MIN")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(SPLIT_MIN_BYTES)
}

/// Line-aligned pieces of one large file that threads can search on their
/// own: only when the run has this one input, and nothing ties one line's
/// output to another's (no line numbers, context, `-m` or JSON).
fn split_plan(
    shared: &Shared,
    opts: &SearchOptions,
    sink: &Printer,
    data: &[u8],
) -> Option<Vec<usize>> {
    let threads = shared.split_threads;
    let independent = !opts.line_numbers
        && opts.before == 0
        && opts.after == 0
        && !opts.separators
        && opts.max_count.is_none()
        && matches!(sink.format, Format::Standard(_));
    if threads < 2 || data.len() < split_min_bytes() || !independent {
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

/// Searches the pieces in parallel and prints their output in order. A
/// piece that meets binary data ends the output there, as one thread would.
fn search_split<'m>(
    shared: &Shared,
    opts: &SearchOptions,
    make_searcher: &(dyn Fn(SearchOptions) -> Searcher<'m> + Sync),
    data: &[u8],
    cuts: &[usize],
    sink: &mut Printer,
) -> io::Result<Outcome> {
    let Format::Standard(main) = &sink.format else {
        return make_searcher(*opts).search_slice(data, sink);
    };
    let (matcher, name) = (main.matcher(), main.name());
    let pieces: Vec<io::Result<(Outcome, StandardSink)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = cuts
            .windows(2)
            .map(|w| {
                let (start, end) = (w[0], w[1]);
                scope.spawn(move || {
                    let mut piece = StandardSink::new(&shared.print, matcher, name);
                    let mut s = make_searcher(*opts);
                    s.search_block(&data[..end], 0, start, &mut piece)?;
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
    let mut matches = 0;
    for piece in pieces {
        let (o, piece) = piece?;
        total.selected += o.selected;
        matches += piece.matches;
        sink.out().extend_from_slice(&piece.out);
        sink.flush_if_full()?;
        if o.binary {
            total.binary = true;
            break;
        }
        if o.selected > 0
            && matches!(
                shared.cfg.mode,
                Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet
            )
        {
            break;
        }
    }
    if let Format::Standard(main) = &mut sink.format {
        main.matches = matches;
    }
    Ok(total)
}
