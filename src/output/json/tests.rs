use super::encode::*;
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
