//! `--decompress`: gzip, zstd, bzip2, xz and lz4 files searched by their
//! content, every output option over the decompressed stream, and corrupt
//! or truncated archives as errors for their file alone.
//!
//! Archives are made here, from known text, by the crates gpugrep itself
//! decompresses with (nothing binary is committed). Expected outputs are
//! what GNU `zgrep` prints for the same text (names as given, offsets in
//! the decompressed stream); the error wording is gpugrep's own.

mod common;

use common::{compress, Sandbox, COMPRESSED as FORMATS};

const TEXT: &str = "alpha one\nbeta two\nalpha three\ngamma\n";

/// A sandbox holding `log.EXT` for every format.
fn logs() -> Sandbox {
    let s = Sandbox::new();
    for ext in FORMATS {
        s.write(&format!("log.{ext}"), compress(ext, TEXT.as_bytes()));
    }
    s
}

#[test]
fn every_format_is_searched_by_its_content() {
    let s = logs();
    for ext in FORMATS {
        let name = format!("log.{ext}");
        s.grep(&["--decompress", "-n", "alpha", &name]).expect(
            "1:alpha one\n3:alpha three\n",
            "",
            0,
        );
    }
}

#[test]
fn names_are_printed_as_given_in_operand_order() {
    let s = logs();
    s.grep(&[
        "--decompress",
        "three",
        "log.gz",
        "log.zst",
        "log.bz2",
        "log.xz",
        "log.lz4",
    ])
    .expect(
        "log.gz:alpha three\nlog.zst:alpha three\nlog.bz2:alpha three\nlog.xz:alpha three\nlog.lz4:alpha three\n",
        "",
        0,
    );
}

#[test]
fn output_options_work_on_the_decompressed_stream() {
    let s = logs();
    for ext in FORMATS {
        let name = format!("log.{ext}");
        let n = name.as_str();
        let run = |args: &[&str]| {
            let mut all = vec!["--decompress"];
            all.extend_from_slice(args);
            s.grep(&all)
        };
        run(&["-c", "alpha", n]).expect("2\n", "", 0);
        run(&["--count-matches", "a", n]).expect("7\n", "", 0);
        run(&["-o", "al[a-z]*", n]).expect("alpha\nalpha\n", "", 0);
        run(&["-b", "alpha", n]).expect("0:alpha one\n19:alpha three\n", "", 0);
        run(&["-bo", "three", n]).expect("25:three\n", "", 0);
        run(&["-v", "alpha", n]).expect("beta two\ngamma\n", "", 0);
        run(&["-C1", "beta", n]).expect("alpha one\nbeta two\nalpha three\n", "", 0);
        run(&["-nA1", "alpha", n]).expect(
            "1:alpha one\n2-beta two\n3:alpha three\n4-gamma\n",
            "",
            0,
        );
        run(&["-m1", "alpha", n]).expect("alpha one\n", "", 0);
        run(&["-l", "gamma", n, "log.gz"]).expect(format!("{n}\nlog.gz\n"), "", 0);
        run(&["-L", "delta", n]).expect(format!("{n}\n"), "", 1);
        run(&["-H", "gamma", n]).expect(format!("{n}:gamma\n"), "", 0);
        run(&["-q", "gamma", n]).expect("", "", 0);
        run(&["-x", "gamma", n]).expect("gamma\n", "", 0);
    }
}

#[test]
fn json_reports_decompressed_offsets_and_the_name_given() {
    let s = logs();
    for ext in FORMATS {
        let name = format!("log.{ext}");
        let out = s.grep(&["--decompress", "--json", "three", &name]).run();
        assert_eq!(out.code, 0);
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            format!(
                r#"{{"type":"match","data":{{"path":{{"text":"{name}"}},"lines":{{"text":"alpha three\n"}},"line_number":3,"absolute_offset":19,"submatches":[{{"match":{{"text":"three"}},"start":6,"end":11}}]}}}}"#
            )
        );
        assert!(lines[2].contains(r#""bytes_searched":37,"#), "{}", lines[2]);
    }
}

#[test]
fn the_format_is_told_by_magic_bytes_not_by_the_name() {
    let s = Sandbox::new();
    s.write("rotated.1", compress("gz", TEXT.as_bytes()));
    s.write("plain.gz", TEXT);
    s.write("notes.txt", "alpha plain\n");
    s.grep(&["--decompress", "gamma", "rotated.1", "plain.gz"])
        .expect("rotated.1:gamma\nplain.gz:gamma\n", "", 0);
    s.grep(&["--decompress", "alpha", "notes.txt"])
        .expect("alpha plain\n", "", 0);
}

#[test]
fn without_the_option_compressed_bytes_are_searched_as_they_are() {
    let s = logs();
    s.grep(&["-a", "-c", "alpha three", "log.bz2"])
        .expect("0\n", "", 1);
}

#[test]
fn standard_input_is_decompressed_too() {
    let s = Sandbox::new();
    for ext in FORMATS {
        s.grep(&["--decompress", "-n", "beta"])
            .stdin(compress(ext, TEXT.as_bytes()))
            .expect("2:beta two\n", "", 0);
    }
    s.grep(&["--decompress", "beta"])
        .stdin(TEXT)
        .expect("beta two\n", "", 0);
}

#[test]
fn concatenated_members_and_frames_are_one_stream() {
    let s = Sandbox::new();
    for ext in FORMATS {
        let both = [
            compress(ext, b"alpha one\nbeta\n"),
            compress(ext, b"alpha two\n"),
        ]
        .concat();
        let name = format!("multi.{ext}");
        s.write(&name, both);
        s.grep(&["--decompress", "-nb", "alpha", &name]).expect(
            "1:0:alpha one\n3:15:alpha two\n",
            "",
            0,
        );
    }
}

#[test]
fn recursion_finds_compressed_files() {
    let s = logs();
    s.write("plain.txt", "alpha plain\n");
    s.grep(&["--decompress", "-rc", "alpha", "."]).expect(
        "./log.bz2:2\n./log.gz:2\n./log.lz4:2\n./log.xz:2\n./log.zst:2\n./plain.txt:1\n",
        "",
        0,
    );
}

/// Many lines, with block boundaries of the stream search everywhere:
/// the decompressed search prints exactly what the plain file's does.
#[test]
fn large_streams_match_the_plain_search_at_every_block_boundary() {
    let s = Sandbox::new();
    let text: String = (0..4000)
        .map(|i: u32| format!("line {i} {}\n", i.wrapping_mul(2654435761) % 1000))
        .collect();
    s.write("plain", &text);
    for ext in FORMATS {
        let name = format!("big.{ext}");
        s.write(&name, compress(ext, text.as_bytes()));
        for args in [
            &["-n", "-b", " 7[0-9]$"][..],
            &["-c", "9"][..],
            &["-o", "-b", "99"][..],
            &["-C2", "-n", "line 12"][..],
        ] {
            let plain = s.grep(&[args, &["plain"]].concat()).run();
            assert_eq!(plain.code, 0);
            for chunk in ["7", "4096"] {
                let packed = s
                    .grep(&[&["--decompress"], args, &[name.as_str()]].concat())
                    .env("GPUGREP_STREAM_CHUNK", chunk)
                    .run();
                assert!(
                    packed == plain,
                    "{ext} {args:?} chunk {chunk}: {}",
                    packed.stderr
                );
            }
        }
    }
}

/// `--debug` says where compressed files were searched: with the GPU
/// engine (simulated here), decompressed into the pipeline's chunks.
#[test]
fn debug_says_where_decompressed_input_is_searched() {
    let s = logs();
    let out = s
        .grep(&[
            "--engine",
            "gpu",
            "--decompress",
            "--debug",
            "-c",
            "alpha",
            "log.gz",
        ])
        .env("GPUGREP_GPU_SIMULATE", "1")
        .run();
    assert_eq!(out.stdout, b"2\n");
    assert!(
        out.stderr.contains(
            "gpugrep: debug: decompress: 1 compressed files decompressed into the GPU's chunks"
        ),
        "{}",
        out.stderr
    );
    let out = s
        .grep(&[
            "--engine",
            "cpu",
            "--decompress",
            "--debug",
            "-c",
            "alpha",
            "log.gz",
        ])
        .run();
    assert_eq!(out.stdout, b"2\n");
    assert!(out
        .stderr
        .contains("gpugrep: debug: engine: cpu (--engine cpu)\n"));
    assert!(!out.stderr.contains("decompress:"), "{}", out.stderr);
}

/// `--stats` says it too: the engine, and on the GPU how many compressed
/// files went through the pipeline. The CPU engine has nothing to explain.
#[test]
fn stats_say_where_compressed_input_is_searched() {
    let s = logs();
    let out = s
        .grep(&[
            "--engine",
            "gpu",
            "--decompress",
            "--stats",
            "-c",
            "alpha",
            "log.gz",
            "log.zst",
        ])
        .env("GPUGREP_GPU_SIMULATE", "1")
        .run();
    assert_eq!(out.stdout, b"log.gz:2\nlog.zst:2\n");
    assert!(out.stderr.contains("\nengine gpu\n"), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("\ndecompress: 2 compressed files decompressed into the GPU's chunks ("),
        "{}",
        out.stderr
    );
    let out = s
        .grep(&[
            "--decompress",
            "--stats",
            "--engine",
            "cpu",
            "-c",
            "alpha",
            "log.gz",
        ])
        .run();
    assert!(out.stderr.contains("\nengine cpu\n"), "{}", out.stderr);
    assert!(!out.stderr.contains("because"), "{}", out.stderr);
    assert!(!out.stderr.contains("decompress:"), "{}", out.stderr);
}

/// A `bad` archive of each format whose header or first block is
/// damaged: an error for that file, the next file still searched.
#[test]
fn a_corrupt_archive_is_an_error_for_its_file_alone() {
    let s = Sandbox::new();
    s.write("good.txt", "alpha good\n");
    let garbage = [0xA5u8; 64];
    let bad = |ext: &str| -> Vec<u8> {
        match ext {
            "gz" => {
                // An unknown compression method.
                let mut a = compress("gz", TEXT.as_bytes());
                a[2] = 9;
                a
            }
            "zst" => [&b"\x28\xB5\x2F\xFD"[..], &garbage].concat(),
            "bz2" => [&b"BZh9"[..], &garbage].concat(),
            "xz" => [&b"\xFD7zXZ\x00"[..], &garbage].concat(),
            "lz4" => [&b"\x04\x22\x4D\x18"[..], &garbage].concat(),
            _ => unreachable!(),
        }
    };
    let reasons = [
        ("gz", "corrupt gzip data (invalid gzip header)"),
        ("zst", "corrupt zstd data (Dictionary mismatch)"),
        ("bz2", "corrupt bzip2 data (bzip2: invalid data)"),
        ("xz", "corrupt xz data (lzma data error)"),
        ("lz4", "corrupt lz4 data (UnsupportedVersion(128))"),
    ];
    for (ext, reason) in reasons {
        let name = format!("bad.{ext}");
        s.write(&name, bad(ext));
        s.grep(&["--decompress", "alpha", &name, "good.txt"])
            .expect(
                "good.txt:alpha good\n",
                &format!("gpugrep: {name}: {reason}\n"),
                2,
            );
        // -s silences the message, not the exit status.
        s.grep(&["--decompress", "-s", "-c", "alpha", &name, "good.txt"])
            .expect(format!("{name}:0\ngood.txt:1\n"), "", 2);
    }
}

/// A whole first member, then a damaged second one: the lines found
/// before the damage are printed (as zgrep prints them), then the error.
#[test]
fn lines_before_the_damage_are_printed_then_the_error() {
    let s = Sandbox::new();
    let reasons = [
        ("gz", "corrupt gzip data (corrupt deflate stream)"),
        ("zst", "corrupt zstd data (Data corruption detected)"),
        ("bz2", "corrupt bzip2 data (bzip2: invalid data)"),
        ("xz", "corrupt xz data (lzma data error)"),
        (
            "lz4",
            "corrupt lz4 data (DecompressionError(OffsetOutOfBounds))",
        ),
    ];
    for (ext, reason) in reasons {
        let mut second = compress(ext, "alpha two\n".repeat(50).as_bytes());
        let mid = second.len() / 2;
        for b in &mut second[mid - 4..mid + 4] {
            *b ^= 0x5A;
        }
        let name = format!("damaged.{ext}");
        s.write(
            &name,
            [compress(ext, b"alpha one\nbeta\n"), second].concat(),
        );
        s.grep(&["--decompress", "-n", "alpha", &name]).expect(
            "1:alpha one\n",
            &format!("gpugrep: {name}: {reason}\n"),
            2,
        );
    }
}

/// Text without a final newline, its archive cut by one byte: the last
/// line may be incomplete, so it is not printed as if it were whole.
#[test]
fn a_truncated_archive_prints_no_partial_line() {
    let s = Sandbox::new();
    s.write("good.txt", "alpha good\n");
    let reasons = [
        ("gz", "truncated gzip data (unexpected end of file)"),
        ("zst", "truncated zstd data (incomplete frame)"),
        (
            "bz2",
            "truncated bzip2 data (decompression not finished but EOF reached)",
        ),
        ("xz", "truncated xz data (premature eof)"),
        ("lz4", "truncated lz4 data (unexpected end of lz4 frame)"),
    ];
    for (ext, reason) in reasons {
        let mut archive = compress(ext, b"alpha one\nbeta two\nalpha three");
        archive.pop();
        let name = format!("cut.{ext}");
        s.write(&name, archive);
        s.grep(&["--decompress", "-n", "alpha", &name, "good.txt"])
            .expect(
                format!("{name}:1:alpha one\ngood.txt:1:alpha good\n"),
                &format!("gpugrep: {name}: {reason}\n"),
                2,
            );
        s.grep(&["--decompress", "-c", "alpha", &name]).expect(
            "1\n",
            &format!("gpugrep: {name}: {reason}\n"),
            2,
        );
    }
}

/// A large archive cut anywhere: whatever is printed is whole lines of the
/// text, in order, and the run ends with the error.
#[test]
fn an_archive_cut_anywhere_prints_only_whole_lines() {
    let s = Sandbox::new();
    let text: String = (0..20000)
        .map(|i: u32| format!("entry {i} {:x}\n", i.wrapping_mul(2654435761)))
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    for ext in FORMATS {
        let archive = compress(ext, text.as_bytes());
        for fraction in [3, 5, 7] {
            let cut = archive.len() * (fraction - 1) / fraction;
            let name = format!("cut{fraction}.{ext}");
            s.write(&name, &archive[..cut]);
            let out = s.grep(&["--decompress", "entry", &name]).run();
            assert_eq!(out.code, 2, "{name}");
            assert!(out
                .stderr
                .starts_with(&format!("gpugrep: {name}: truncated ")));
            let printed = String::from_utf8(out.stdout).unwrap();
            assert!(printed.is_empty() || printed.ends_with('\n'), "{name}");
            let got: Vec<&str> = printed.lines().collect();
            assert!(got.len() < lines.len(), "{name}");
            assert!(got[..] == lines[..got.len()], "{name}: not a prefix");
        }
    }
}

/// A FIFO operand is opened once and decompressed like standard input.
#[test]
fn a_fifo_operand_is_decompressed_as_a_stream() {
    let s = Sandbox::new();
    let fifo = s.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|st| st.success()) {
        eprintln!("mkfifo failed: skipped");
        return;
    }
    let writer = std::thread::spawn(move || {
        std::fs::write(&fifo, compress("zst", TEXT.as_bytes())).unwrap();
    });
    s.grep(&["--decompress", "-n", "gamma", "pipe"])
        .expect("4:gamma\n", "", 0);
    writer.join().unwrap();
}

/// A UTF-16 file (searched decoded, read whole first) cut short: the last,
/// unfinished line is dropped there too.
#[test]
fn a_truncated_utf16_archive_prints_no_partial_line() {
    let s = Sandbox::new();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "alpha one\nalpha two\nalpha three"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let mut archive = compress("gz", &utf16);
    archive.pop();
    s.write("u16.gz", archive);
    s.grep(&["--decompress", "-n", "alpha", "u16.gz"]).expect(
        "1:alpha one\n2:alpha two\n",
        "gpugrep: u16.gz: truncated gzip data (unexpected end of file)\n",
        2,
    );
}
