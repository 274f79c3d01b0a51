//! Files found in a tree are read whole into the thread's buffer, which
//! starts at 64 KiB and grows only for a file that fills it (up to 256 KiB
//! read whole; larger files stream on from their start). Files around
//! those sizes, with a matching line across each boundary, and small files
//! after large ones through the same thread's buffer, must print what a
//! naive search prints. With `-l`, `-L` and `-q` a file is read whole only
//! up to 64 KiB and streams on from there, its first block searched where
//! it was read (also after a byte-order mark).

mod common;

use std::path::Path;

const KIB: usize = 1024;

/// A file of exactly `size` bytes: lines of filler, with `needle` lines
/// placed to straddle each of `cuts` (and one at the end, unterminated).
fn file_text(size: usize, cuts: &[usize]) -> Vec<u8> {
    let mut text = Vec::with_capacity(size);
    let mut n = 0u32;
    while text.len() < size {
        let next_cut = cuts.iter().copied().find(|&c| c > text.len());
        let line = match next_cut {
            // A needle line starting 5 bytes before the cut.
            Some(c) if c - text.len() <= 5 + 40 && c >= text.len() + 5 => {
                let pad = c - 5 - text.len();
                let mut l = vec![b'.'; pad.saturating_sub(1)];
                if pad > 0 {
                    l.push(b'\n');
                }
                l.extend_from_slice(b"xx needle across\n");
                l
            }
            _ => {
                n += 1;
                format!("filler line {n} with some words\n").into_bytes()
            }
        };
        text.extend_from_slice(&line);
    }
    text.truncate(size);
    if size > 12 {
        text[size - 12..].copy_from_slice(b"\nneedle end.");
    }
    text
}

/// `name:line:offset:text` for every line holding `needle`, as `-r -n -b`
/// prints them.
fn naive(name: &str, text: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut off = 0;
    for (i, line) in text.split_inclusive(|&b| b == b'\n').enumerate() {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        if body.windows(6).any(|w| w == b"needle") {
            out.extend_from_slice(format!("{name}:{}:{off}:", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.push(b'\n');
        }
        off += line.len();
    }
    out
}

fn search(dir: &Path, threads: &str) -> Vec<u8> {
    let out = common::gpugrep()
        .args([
            "--engine", "cpu", "-j", threads, "-r", "-n", "-b", "needle", ".",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn files_around_the_buffer_sizes_print_what_a_naive_search_prints() {
    let dir = tempfile::tempdir().unwrap();
    // Name order is search order with one thread: small files follow
    // large ones through the same buffer.
    let sizes = [
        100,
        64 * KIB - 1,
        64 * KIB,
        30,
        64 * KIB + 1,
        200 * KIB,
        20,
        256 * KIB - 1,
        256 * KIB,
        256 * KIB + 1,
        50,
        600 * KIB,
        13,
    ];
    let cuts = [16 * KIB, 64 * KIB, 128 * KIB, 256 * KIB, 512 * KIB];
    let mut want = Vec::new();
    for (i, &size) in sizes.iter().enumerate() {
        let name = format!("f{i:02}");
        let text = file_text(size, &cuts);
        assert_eq!(text.len(), size);
        std::fs::write(dir.path().join(&name), &text).unwrap();
        want.extend(naive(&format!("./{name}"), &text));
    }
    for threads in ["1", "2", "4"] {
        let got = search(dir.path(), threads);
        assert!(
            got == want,
            "-j{threads}: got\n{}\nwant\n{}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        );
    }
}

/// A file of `size` bytes, maybe starting with a UTF-8 byte-order mark,
/// whose one matching line starts near byte `at` (none if `at` is `None`
/// or past the end).
fn one_match(size: usize, at: Option<usize>, bom: bool) -> Vec<u8> {
    let mut text = Vec::with_capacity(size + 64);
    if bom {
        text.extend_from_slice(b"\xEF\xBB\xBF");
    }
    let mut n = 0u32;
    let mut placed = false;
    while text.len() < size {
        if !placed && at.is_some_and(|a| text.len() + 40 >= a) {
            text.extend_from_slice(b"the needle is here\n");
            placed = true;
        }
        n += 1;
        text.extend_from_slice(format!("filler line {n} with some words\n").as_bytes());
    }
    text.truncate(size);
    text
}

fn run(dir: &Path, args: &[&str]) -> (Vec<u8>, i32) {
    let out = common::gpugrep()
        .args(["--engine", "cpu", "-j", "2", "-r"])
        .args(args)
        .args(["needle", "."])
        .current_dir(dir)
        .output()
        .unwrap();
    (out.stdout, out.status.code().unwrap_or(-1))
}

#[test]
fn files_that_stream_on_after_their_first_block_name_and_count_what_a_naive_search_finds() {
    let dir = tempfile::tempdir().unwrap();
    let sizes = [64 * KIB - 1, 64 * KIB, 64 * KIB + 1, 300 * KIB, 700 * KIB];
    let spots = [
        None,
        Some(100),
        Some(64 * KIB - 10),
        Some(64 * KIB + 200),
        Some(256 * KIB - 8),
        Some(600 * KIB),
    ];
    let (mut with, mut without, mut counts) = (Vec::new(), Vec::new(), Vec::new());
    let mut k = 0;
    for &size in &sizes {
        for &at in &spots {
            for bom in [false, true] {
                let name = format!("f{k:03}");
                k += 1;
                let text = one_match(size, at, bom);
                let lines = text
                    .split(|&b| b == b'\n')
                    .filter(|l| l.windows(6).any(|w| w == b"needle"))
                    .count();
                std::fs::write(dir.path().join(&name), &text).unwrap();
                let shown = format!("./{name}\n").into_bytes();
                match lines {
                    0 => without.push(shown),
                    _ => with.push(shown),
                }
                counts.push(format!("./{name}:{lines}\n").into_bytes());
            }
        }
    }
    assert!(!with.is_empty() && !without.is_empty());
    let sorted = |mut v: Vec<Vec<u8>>| {
        v.sort();
        v.concat()
    };
    let lines_of = |out: Vec<u8>| {
        let mut v: Vec<Vec<u8>> = out
            .split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        v.sort();
        v.concat()
    };
    assert_eq!(lines_of(run(dir.path(), &["-l"]).0), sorted(with));
    assert_eq!(lines_of(run(dir.path(), &["-L"]).0), sorted(without));
    assert_eq!(lines_of(run(dir.path(), &["-c"]).0), sorted(counts));
    assert_eq!(run(dir.path(), &["-q"]), (Vec::new(), 0));
}
