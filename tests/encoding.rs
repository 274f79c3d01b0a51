//! `--encoding`: searching Shift-JIS, EUC-JP, GBK, Big5, EUC-KR, UTF-16 and
//! single-byte files exactly.
//!
//! The adversarial cases put a pattern's bytes across two characters (or on
//! a trail byte), where a naive byte search matches; the expected outputs
//! are written out. The property tests compare gpugrep with the oracle
//! "decode to UTF-8, search, map back", computed here with encoding_rs.

mod common;

use common::Sandbox;
use encoding_rs::Encoding;
use proptest::prelude::*;

fn enc(text: &str, e: &'static Encoding) -> Vec<u8> {
    let (bytes, _, bad) = e.encode(text);
    assert!(!bad, "{text:?} not representable in {}", e.name());
    bytes.into_owned()
}

fn utf16le(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect()
}

#[test]
fn shift_jis_backslash_inside_so_and_hyo() {
    let s = Sandbox::new();
    // ソ = 83 5C, 表 = 95 5C: both end in the byte of `\`.
    s.write(
        "f",
        enc("ソフト表示\nC:\\dir\nアイ\n", encoding_rs::SHIFT_JIS),
    );
    s.grep(&["--encoding", "shift_jis", "-n", "-F", "\\", "f"])
        .expect("2:C:\\dir\n", "", 0);
    s.grep(&["--encoding", "sjis", "-c", "-F", "\\", "f"])
        .expect("1\n", "", 0);
    // The pattern itself holds the byte: ソ must not match inside 表's bytes.
    s.grep(&["--encoding", "shift_jis", "-b", "ソ", "f"])
        .expect("0:ソフト表示\n", "", 0);
    // ア = 83 41: "A" is its trail byte.
    s.grep(&["--encoding", "windows-31j", "A", "f"])
        .expect("", "", 1);
    s.grep(&["--encoding", "shift_jis", "-i", "a", "f"])
        .expect("", "", 1);
    s.grep(&["--encoding", "shift_jis", "-o", "-b", "イ", "f"])
        .expect("20:イ\n", "", 0);
}

#[test]
fn euc_jp_pattern_across_two_characters() {
    let s = Sandbox::new();
    // アイ = A5 A2 A5 A4; ▲ = A2 A5 sits across them.
    s.write("f", enc("アイ\n記号▲\n", encoding_rs::EUC_JP));
    s.grep(&["--encoding", "euc-jp", "-n", "▲", "f"])
        .expect("2:記号▲\n", "", 0);
}

#[test]
fn gbk_pattern_across_two_characters_and_ascii_trail() {
    let s = Sandbox::new();
    // 中文 = D6 D0 CE C4; 形 = D0 CE. 丂 = 81 40 ends in `@`.
    s.write("f", enc("中文\n形状\n丂\nuser@host\n", encoding_rs::GBK));
    s.grep(&["--encoding", "gbk", "-n", "形", "f"])
        .expect("2:形状\n", "", 0);
    s.grep(&["--encoding", "gb18030", "-n", "-F", "@", "f"])
        .expect("4:user@host\n", "", 0);
}

#[test]
fn big5_backslash_in_xu() {
    let s = Sandbox::new();
    // 許 = B3 5C; 中許 = A4 A4 B3 5C holds 仇 = A4 B3 across the two.
    s.write("f", enc("中許\n仇\na\\b\n", encoding_rs::BIG5));
    s.grep(&["--encoding", "big5", "-n", "-F", "\\", "f"])
        .expect("3:a\\b\n", "", 0);
    s.grep(&["--encoding", "big5", "-n", "仇", "f"])
        .expect("2:仇\n", "", 0);
}

#[test]
fn euc_kr_uhc_letter_trail() {
    let s = Sandbox::new();
    // 갂 = 81 41 (the UHC extension): "A" is its trail; 한국 holds 畸 = D1 B1.
    s.write("f", enc("갂\n한국\nA\n畸\n", encoding_rs::EUC_KR));
    s.grep(&["--encoding", "euc-kr", "-n", "A", "f"])
        .expect("3:A\n", "", 0);
    s.grep(&["--encoding", "euc-kr", "-n", "畸", "f"])
        .expect("4:畸\n", "", 0);
}

#[test]
fn utf16_odd_offset_is_no_match() {
    let s = Sandbox::new();
    // U+6141 U+4100 are 41 61 00 41 in UTF-16LE: "a" (61 00) at offset 1.
    let mut data = vec![0xff, 0xfe];
    data.extend(utf16le("\u{6141}\u{4100}\nab\n"));
    s.write("f", &data);
    s.grep(&["-n", "-b", "a", "f"]).expect("2:8:ab\n", "", 0);
    s.grep(&["--encoding", "utf-16le", "-o", "-b", "b", "f"])
        .expect("10:b\n", "", 0);
    // Big-endian with its BOM, found by `auto`.
    let mut be = vec![0xfe, 0xff];
    be.extend("x\nテスト\n".encode_utf16().flat_map(|u| u.to_be_bytes()));
    s.write("be", &be);
    s.grep(&["-b", "ス", "be"]).expect("6:テスト\n", "", 0);
}

#[test]
fn regexes_take_the_decoded_path() {
    let s = Sandbox::new();
    s.write("f", enc("ソフト\n表示\nabc\n", encoding_rs::SHIFT_JIS));
    s.grep(&["--encoding", "shift_jis", "-n", "-b", "^表.", "f"])
        .expect("2:7:表示\n", "", 0);
    s.grep(&["--encoding", "shift_jis", "-o", "-b", "-E", "フ|示", "f"])
        .expect("2:フ\n9:示\n", "", 0);
    s.grep(&["--encoding", "shift_jis", "-w", "abc", "f"])
        .expect("abc\n", "", 0);
}

#[test]
fn json_carries_decoded_text() {
    let s = Sandbox::new();
    s.write("f", enc("aソb\n", encoding_rs::SHIFT_JIS));
    let out = s
        .grep(&["--encoding", "shift_jis", "--json", "b", "f"])
        .run();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().nth(1).unwrap();
    assert_eq!(
        line,
        r#"{"type":"match","data":{"path":{"text":"f"},"lines":{"text":"aソb\n"},"line_number":1,"absolute_offset":0,"submatches":[{"match":{"text":"b"},"start":4,"end":5}]}}"#
    );
}

#[test]
fn utf8_bom_is_skipped_for_matching() {
    let s = Sandbox::new();
    s.write("f", b"\xef\xbb\xbffoo\nfoo\n");
    s.grep(&["-b", "-x", "foo", "f"])
        .expect("3:foo\n4:foo\n".replace("4:", "7:"), "", 0);
    s.grep(&["-c", "^foo"])
        .stdin(b"\xef\xbb\xbffoo\n")
        .expect("1\n", "", 0);
}

#[test]
fn single_byte_encodings_transcode_and_decode() {
    let s = Sandbox::new();
    s.write("f", b"caf\xe9\nnaive\n");
    s.grep(&["--encoding", "latin1", "-b", "café", "f"])
        .expect("0:café\n", "", 0);
    s.grep(&["--encoding", "windows-1252", "-i", "CAFÉ", "f"])
        .expect("café\n", "", 0);
}

#[test]
fn usage_errors() {
    let s = Sandbox::new();
    s.write("f", "x\n");
    s.grep(&["--encoding", "klingon", "x", "f"]).expect(
        "",
        "gpugrep: unknown encoding: klingon\n",
        2,
    );
    s.grep(&["--encoding", "shift_jis", "€", "f"]).expect(
        "",
        "gpugrep: €: cannot be represented in Shift_JIS\n",
        2,
    );
    s.grep(&["--encoding", "iso-2022-jp", "x", "f"]).expect(
        "",
        "gpugrep: unsupported encoding: iso-2022-jp (stateful; convert it with iconv first)\n",
        2,
    );
}

#[test]
fn undecodable_bytes_never_match() {
    let s = Sandbox::new();
    // Lone lead bytes, a lead before a newline and before a space, bytes
    // no encoding uses.
    s.write("f", b"\x83\n\x83 A\n\xff\x81\x30\x81\n");
    for e in ["shift_jis", "euc-jp", "euc-kr", "big5", "gbk"] {
        s.grep(&["--encoding", e, "-n", "A", "f"])
            .expect("2:\u{fffd} A\n", "", 0);
        // After a lead byte, the digit is a character of its own in every
        // one (in GBK: an unfinished four-byte sequence, reread).
        s.grep(&["--encoding", e, "-o", "-b", "0", "f"])
            .expect("8:0\n", "", 0);
    }
    // U+FFFD itself is not a character these encodings can represent.
    s.grep(&["--encoding", "shift_jis", "-F", "\u{fffd}", "f"])
        .expect(
            "",
            "gpugrep: \u{fffd}: cannot be represented in Shift_JIS\n",
            2,
        );
}

/// Each encoding with an alphabet: ASCII (letters, `\`, `@`) and characters
/// whose bytes hold ASCII or each other's bytes, each encoded one way only.
fn alphabets() -> Vec<(&'static str, &'static Encoding, Vec<char>)> {
    let ascii = "aAbB\\@ 0";
    let with = |extra: &str| ascii.chars().chain(extra.chars()).collect::<Vec<_>>();
    vec![
        ("shift_jis", encoding_rs::SHIFT_JIS, with("ソ表アイ能ｱ")),
        ("euc-jp", encoding_rs::EUC_JP, with("アイ▲記ｱ")),
        ("euc-kr", encoding_rs::EUC_KR, with("갂한국畸")),
        ("big5", encoding_rs::BIG5, with("中許仇功")),
        ("gbk", encoding_rs::GBK, with("中文形丂")),
        ("gb18030", encoding_rs::GB18030, with("中形丂€😀")),
        (
            "utf-16le",
            encoding_rs::UTF_16LE,
            with("\u{6141}\u{4100}ソ😀"),
        ),
        ("latin1", encoding_rs::WINDOWS_1252, with("éÉ")),
    ]
}

fn encode_file(e: &'static Encoding, text: &str) -> Vec<u8> {
    if e == encoding_rs::UTF_16LE {
        utf16le(text)
    } else {
        enc(text, e)
    }
}

/// The oracle: decode, find the pattern on each line, map offsets back
/// (or, with `numbers`, give line numbers, for input that does not survive
/// decoding and encoding again).
fn oracle(e: &'static Encoding, file: &[u8], pattern: &str, fold: bool, numbers: bool) -> String {
    let text = e.decode_without_bom_handling(file).0;
    let fold_str = |s: &str| {
        if fold {
            // Simple case folding; lengths are kept for these alphabets.
            s.chars().flat_map(char::to_lowercase).collect()
        } else {
            s.to_string()
        }
    };
    let pat = fold_str(pattern);
    let mut out = String::new();
    let mut offset = 0usize;
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if text.is_empty() {
        lines.clear();
    }
    for (n, line) in lines.into_iter().enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        for (i, _) in fold_str(body).match_indices(&pat) {
            let at = if numbers {
                n + 1
            } else {
                offset + encode_file(e, &body[..i]).len()
            };
            out += &format!("{at}:{}\n", &body[i..i + pat.len()]);
        }
        if !numbers {
            offset += encode_file(e, line).len();
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// On random text in each encoding, `-o -b -F` (and with `-i`) equals
    /// the oracle: the same matches, at the same file offsets, in UTF-8.
    #[test]
    fn raw_search_equals_decoded_search(
        k in 0usize..8,
        t in prop::collection::vec(0usize..64, 0..60),
        p in prop::collection::vec(0usize..64, 1..3),
    ) {
        let (label, e, alphabet) = alphabets().swap_remove(k);
        let pick = |i: &usize| alphabet[i % alphabet.len()];
        let text: String = t.iter().map(|i| if i % 7 == 0 { '\n' } else { pick(i) }).collect();
        let pattern: String = p.iter().map(pick).collect();
        let file = encode_file(e, &text);
        let s = Sandbox::new();
        s.write("f", &file);
        for fold in [false, true] {
            let mut args = vec!["--encoding", label, "-o", "-b", "-F"];
            if fold {
                args.push("-i");
            }
            args.extend([pattern.as_str(), "f"]);
            let out = s.grep(&args).run();
            let want = oracle(e, &file, &pattern, fold, false);
            prop_assert_eq!(
                String::from_utf8_lossy(&out.stdout).into_owned(), want.clone(),
                "{} {:?} {:?} fold={}", label, text, pattern, fold
            );
            prop_assert_eq!(out.code, if want.is_empty() { 1 } else { 0 });
        }
    }

    /// Random bytes never crash the search and never create a match: the
    /// matches are the oracle's, line by line.
    #[test]
    fn random_bytes_never_create_matches(
        k in 0usize..6,
        bytes in prop::collection::vec(any::<u8>(), 0..80),
        p in 0usize..100,
    ) {
        let (label, e, alphabet) = alphabets().swap_remove(k);
        let pattern = alphabet[p % alphabet.len()].to_string();
        let mut file: Vec<u8> = bytes.into_iter().map(|b| if b % 16 == 0 { b'\n' } else { b }).collect();
        file.push(b'\n');
        let s = Sandbox::new();
        s.write("f", &file);
        let out = s.grep(&["--encoding", label, "-a", "-o", "-n", "-F", &pattern, "f"]).run();
        prop_assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
        let want = oracle(e, &file, &pattern, false, true);
        prop_assert_eq!(String::from_utf8_lossy(&out.stdout).into_owned(), want);
    }
}

#[test]
fn stdin_and_context() {
    let s = Sandbox::new();
    let sjis = enc("ソ\n表\\\nア\n", encoding_rs::SHIFT_JIS);
    s.grep(&["--encoding", "sjis", "-b", "-C1", "-F", "\\"])
        .stdin(&sjis)
        .expect("0-ソ\n3:表\\\n7-ア\n", "", 0);
    let mut u16 = vec![0xff, 0xfe];
    u16.extend(utf16le("ソ\n表\\\nア\n"));
    s.grep(&["-n", "-b", "-C1", "-F", "\\"]).stdin(&u16).expect(
        "1-2-ソ\n2:6:表\\\n3-12-ア\n",
        "",
        0,
    );
    s.grep(&["--color=always", "--encoding", "sjis", "表"])
        .stdin(&sjis)
        .expect("\x1b[01;31m\x1b[K表\x1b[m\x1b[K\\\n", "", 0);
}
