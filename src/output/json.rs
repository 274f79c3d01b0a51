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

use super::for_each_match;
use crate::engine::Matcher;
use crate::search::{Line, Sink};
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

/// A duration in struct order: `{"secs":S,"nanos":N,"human":"…s"}`.
fn write_duration(out: &mut Vec<u8>, d: Duration) {
    out.extend_from_slice(b"{\"secs\":");
    write_u64(out, d.as_secs());
    out.extend_from_slice(b",\"nanos\":");
    write_u64(out, u64::from(d.subsec_nanos()));
    out.extend_from_slice(b",\"human\":\"");
    out.extend_from_slice(human(d).as_bytes());
    out.extend_from_slice(b"\"}");
}

/// A duration with sorted keys: `{"human":"…s","nanos":N,"secs":S}`.
fn write_duration_sorted(out: &mut Vec<u8>, d: Duration) {
    out.extend_from_slice(b"{\"human\":\"");
    out.extend_from_slice(human(d).as_bytes());
    out.extend_from_slice(b"\",\"nanos\":");
    write_u64(out, u64::from(d.subsec_nanos()));
    out.extend_from_slice(b",\"secs\":");
    write_u64(out, d.as_secs());
    out.push(b'}');
}

/// Seconds with six decimals, computed as ripgrep computes them.
fn human(d: Duration) -> String {
    let fractional = f64::from(d.subsec_nanos()) / 1_000_000_000.0;
    format!("{:0.6}s", d.as_secs() as f64 + fractional)
}

/// An "arbitrary data" object: `{"text":"…"}` for UTF-8, else
/// `{"bytes":"<base64>"}`.
fn write_data(out: &mut Vec<u8>, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            out.extend_from_slice(b"{\"text\":");
            write_str(out, text);
        }
        Err(_) => {
            out.extend_from_slice(b"{\"bytes\":\"");
            base64(out, bytes);
            out.push(b'"');
        }
    }
    out.push(b'}');
}

/// A JSON string, quoted and escaped as `serde_json` does.
fn write_str(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        if esc.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0xf)]);
        } else {
            out.extend_from_slice(esc);
        }
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Standard base64 (RFC 4648, `+/`, padded).
fn base64(out: &mut Vec<u8>, bytes: &[u8]) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let sextet = |n: u32, shift: u32| ALPHABET[((n >> shift) & 0x3f) as usize];
    let mut chunks = bytes.chunks_exact(3);
    for c in &mut chunks {
        let n = u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2]);
        out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), sextet(n, 6), sextet(n, 0)]);
    }
    match *chunks.remainder() {
        [] => {}
        [a] => {
            let n = u32::from(a) << 16;
            out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), b'=', b'=']);
        }
        [a, b] => {
            let n = u32::from(a) << 16 | u32::from(b) << 8;
            out.extend_from_slice(&[sextet(n, 18), sextet(n, 12), sextet(n, 6), b'=']);
        }
        _ => unreachable!("chunks_exact(3) leaves fewer than 3"),
    }
}

/// A decimal number, without going through `fmt`.
fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use crate::search::{SearchOptions, Searcher};

    fn s(f: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        f(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn escapes_like_serde_json() {
        let esc = |x: &str| s(|o| write_str(o, x));
        assert_eq!(esc(""), r#""""#);
        assert_eq!(esc("plain"), r#""plain""#);
        assert_eq!(esc(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(esc("\n\r\t\x08\x0c"), r#""\n\r\t\b\f""#);
        assert_eq!(esc("\x00\x01\x1b\x1f"), r#""\u0000\u0001\u001b\u001f""#);
        // DEL, '/' and non-ASCII go through unescaped.
        assert_eq!(esc("\x7f/é→"), "\"\x7f/é→\"");
        assert_eq!(esc("x\ty\"z"), r#""x\ty\"z""#);
    }

    #[test]
    fn base64_rfc4648() {
        let b64 = |x: &[u8]| s(|o| base64(o, x));
        assert_eq!(b64(b""), "");
        assert_eq!(b64(b"f"), "Zg==");
        assert_eq!(b64(b"fo"), "Zm8=");
        assert_eq!(b64(b"foo"), "Zm9v");
        assert_eq!(b64(b"foob"), "Zm9vYg==");
        assert_eq!(b64(b"fooba"), "Zm9vYmE=");
        assert_eq!(b64(b"foobar"), "Zm9vYmFy");
        assert_eq!(b64(b"\xff\xfe\xfd\x00"), "//79AA==");
    }

    #[test]
    fn data_is_text_or_bytes() {
        let data = |x: &[u8]| s(|o| write_data(o, x));
        assert_eq!(data(b"a\"b\n"), r#"{"text":"a\"b\n"}"#);
        // ripgrep's own example: /home/ubuntu/lib\xFF.rs
        assert_eq!(
            data(b"/home/ubuntu/lib\xFF.rs"),
            r#"{"bytes":"L2hvbWUvdWJ1bnR1L2xpYv8ucnM="}"#
        );
    }

    #[test]
    fn numbers_and_durations() {
        assert_eq!(s(|o| write_u64(o, 0)), "0");
        assert_eq!(s(|o| write_u64(o, u64::MAX)), u64::MAX.to_string());
        let d = Duration::new(2, 36_296);
        assert_eq!(
            s(|o| write_duration(o, d)),
            r#"{"secs":2,"nanos":36296,"human":"2.000036s"}"#
        );
        assert_eq!(
            s(|o| write_duration_sorted(o, Duration::from_nanos(123_456))),
            r#"{"human":"0.000123s","nanos":123456,"secs":0}"#
        );
    }

    /// Runs the real searcher over `hay` with the JSON sink.
    fn search(hay: &[u8], invert: bool, before: usize, after: usize) -> (String, JsonStats) {
        let m = Literal::new(b"foo");
        let opts = SearchOptions {
            terminator: b'\n',
            invert,
            max_count: None,
            before,
            after,
            line_numbers: true,
            stop_on_nul: false,
            separators: false,
        };
        let mut sink = JsonSink::new(&m, b"dir/a.txt", invert);
        Searcher::new(opts, &m, None)
            .search_slice(hay, &mut sink)
            .unwrap();
        sink.finish(hay.len() as u64, Duration::from_nanos(1500));
        (String::from_utf8(sink.out.clone()).unwrap(), sink.stats())
    }

    #[test]
    fn full_sequence() {
        let hay = b"zero\nfoo one foo\ntwo\nthree\nfour\nlast foo";
        let (got, stats) = search(hay, false, 1, 0);
        let p = r#""path":{"text":"dir/a.txt"}"#;
        let body = [
            format!(r#"{{"type":"begin","data":{{{p}}}}}"#),
            format!(
                r#"{{"type":"context","data":{{{p},"lines":{{"text":"zero\n"}},"line_number":1,"absolute_offset":0,"submatches":[]}}}}"#
            ),
            format!(
                r#"{{"type":"match","data":{{{p},"lines":{{"text":"foo one foo\n"}},"line_number":2,"absolute_offset":5,"submatches":[{{"match":{{"text":"foo"}},"start":0,"end":3}},{{"match":{{"text":"foo"}},"start":8,"end":11}}]}}}}"#
            ),
            format!(
                r#"{{"type":"context","data":{{{p},"lines":{{"text":"four\n"}},"line_number":5,"absolute_offset":27,"submatches":[]}}}}"#
            ),
            format!(
                r#"{{"type":"match","data":{{{p},"lines":{{"text":"last foo"}},"line_number":6,"absolute_offset":32,"submatches":[{{"match":{{"text":"foo"}},"start":5,"end":8}}]}}}}"#
            ),
        ]
        .map(|l| l + "\n")
        .concat();
        assert_eq!(body.len(), 725);
        let end = format!(
            r#"{{"type":"end","data":{{{p},"binary_offset":null,"stats":{{"elapsed":{{"secs":0,"nanos":1500,"human":"0.000002s"}},"searches":1,"searches_with_match":1,"bytes_searched":40,"bytes_printed":{},"matched_lines":2,"matches":3}}}}}}"#,
            body.len()
        ) + "\n";
        assert_eq!(got, body + &end);
        assert_eq!(
            stats,
            JsonStats {
                searches: 1,
                searches_with_match: 1,
                bytes_searched: 40,
                bytes_printed: 725,
                matched_lines: 2,
                matches: 3,
                elapsed: Duration::from_nanos(1500),
            }
        );
    }

    #[test]
    fn no_match_prints_nothing_but_counts() {
        let (got, stats) = search(b"bar\nbaz\n", false, 2, 2);
        assert_eq!(got, "");
        assert_eq!(stats.searches, 1);
        assert_eq!(stats.searches_with_match, 0);
        assert_eq!(stats.bytes_searched, 8);
        assert_eq!(stats.bytes_printed, 0);
    }

    #[test]
    fn invert_puts_submatches_on_context() {
        let (got, stats) = search(b"foo\nbar\n", true, 1, 0);
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(lines.len(), 4);
        assert!(lines[1].starts_with(r#"{"type":"context","#));
        assert!(lines[1].contains(r#""submatches":[{"match":{"text":"foo"},"start":0,"end":3}]"#));
        assert!(lines[2].starts_with(r#"{"type":"match","#));
        assert!(lines[2].contains(r#""lines":{"text":"bar\n"}"#));
        assert!(lines[2].contains(r#""submatches":[]"#));
        assert_eq!((stats.matched_lines, stats.matches), (1, 0));
    }

    #[test]
    fn invalid_utf8_goes_as_bytes() {
        let m = Literal::new(b"foo");
        let mut sink = JsonSink::new(&m, b"<stdin>", false);
        let line = Line {
            bytes: b"\xfffoo",
            number: None,
            offset: 7,
            terminated: true,
        };
        sink.selected(&line).unwrap();
        let got = String::from_utf8(sink.out.clone()).unwrap();
        assert_eq!(
            got,
            concat!(
                r#"{"type":"begin","data":{"path":{"text":"<stdin>"}}}"#,
                "\n",
                r#"{"type":"match","data":{"path":{"text":"<stdin>"},"lines":{"bytes":"/2Zvbwo="},"line_number":null,"absolute_offset":7,"submatches":[{"match":{"text":"foo"},"start":1,"end":4}]}}"#,
                "\n",
            )
        );
    }

    #[test]
    fn terminator_is_configurable() {
        let m = Literal::new(b"foo");
        let mut sink = JsonSink::new(&m, b"a\tb", false).with_terminator(0);
        let line = Line {
            bytes: b"foo",
            number: Some(1),
            offset: 0,
            terminated: true,
        };
        sink.context(&line).unwrap();
        let got = String::from_utf8(sink.out.clone()).unwrap();
        assert!(got.contains(r#""path":{"text":"a\tb"}"#));
        assert!(got.contains(r#""lines":{"text":"foo\u0000"}"#));
    }

    #[test]
    fn summary_shape() {
        let mut total = JsonStats::default();
        let one = JsonStats {
            searches: 1,
            searches_with_match: 1,
            bytes_searched: 12,
            bytes_printed: 320,
            matched_lines: 2,
            matches: 1,
            elapsed: Duration::from_nanos(57_100),
        };
        total.add(&one);
        total.add(&JsonStats {
            searches: 1,
            bytes_searched: 61,
            ..JsonStats::default()
        });
        let got = s(|o| write_summary(o, &total, Duration::from_nanos(17_855_400)));
        assert_eq!(
            got,
            concat!(
                r#"{"data":{"elapsed_total":{"human":"0.017855s","nanos":17855400,"secs":0},"#,
                r#""stats":{"bytes_printed":320,"bytes_searched":73,"elapsed":{"human":"0.000057s","nanos":57100,"secs":0},"#,
                r#""matched_lines":2,"matches":1,"searches":2,"searches_with_match":1}},"type":"summary"}"#,
                "\n"
            )
        );
    }
}
