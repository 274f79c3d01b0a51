//! One large file is cut at line boundaries and searched by several threads
//! unless `-m` ties lines together. `GPUGREP_SPLIT_MIN` makes tiny files
//! split too: the output must be what one thread prints (line numbers
//! included: each piece numbers its lines from the counts of the others;
//! context and group separators too: each piece prints the context it
//! owes to selected lines of the others).

mod common;

use proptest::prelude::*;

/// `pagewise`: the map's verdict (`GPUGREP_MAP_PAGEWISE`): pieces read
/// from the file, or searched through the map.
fn run(
    args: &[String],
    file: &std::path::Path,
    threads: usize,
    pagewise: bool,
) -> (Vec<u8>, Vec<u8>, i32) {
    let out = common::gpugrep()
        .args(args)
        .arg(format!("-j{threads}"))
        .arg(file)
        .env("GPUGREP_SPLIT_MIN", "1")
        .env("GPUGREP_MAP_PAGEWISE", if pagewise { "1" } else { "0" })
        .output()
        .unwrap();
    (out.stdout, out.stderr, out.status.code().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn split_file_prints_what_one_thread_prints(
        text in prop::collection::vec(prop::sample::select(b"aab\n\n".to_vec()), 1..200),
        nul_at in prop::option::of(0usize..200),
        threads in 2usize..5,
        mode in prop::sample::select(vec!["", "-c", "-l", "-L", "-q", "-o", "--count-matches"]),
        invert in any::<bool>(), offsets in any::<bool>(), late in any::<bool>(),
        numbers in any::<bool>(), nul_data in any::<bool>(), bom in any::<bool>(),
        pagewise in any::<bool>(),
        context in prop::sample::select(vec![
            "", "", "-A1", "-B1", "-C1", "-C0", "-A3 -B2", "-B4", "-C2 --no-group-separator",
            "-A2 --group-separator=XX",
        ]),
    ) {
        let mut text = text;
        if let Some(i) = nul_at {
            let i = i.min(text.len() - 1);
            text[i] = 0;
        }
        if late {
            // Past the 32 KiB probe: the NUL is met while printing.
            let mut padded = b"zz ab\n".repeat(7000);
            padded.extend_from_slice(&text);
            text = padded;
        }
        if bom {
            text.splice(0..0, *b"\xef\xbb\xbf");
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, &text).unwrap();
        let mut args: Vec<String> = Vec::new();
        if !mode.is_empty() { args.push(mode.into()); }
        if invert { args.push("-v".into()); }
        if offsets { args.push("-b".into()); }
        if numbers { args.push("-n".into()); }
        if nul_data { args.push("-z".into()); }
        args.extend(context.split_whitespace().map(String::from));
        args.push("ab".into());
        let one = run(&args, &file, 1, false);
        let many = run(&args, &file, threads, pagewise);
        prop_assert_eq!(String::from_utf8_lossy(&many.0), String::from_utf8_lossy(&one.0));
        prop_assert_eq!(String::from_utf8_lossy(&many.1), String::from_utf8_lossy(&one.1));
        prop_assert_eq!(many.2, one.2);
    }
}

/// Regression: among many files, each large file was read by one thread
/// (64 logs of 270 MB, `-n`, 16 cores: 24 s, rg 5.1 s). Large files of a
/// walked tree and of a list are now mapped and split too; the output is
/// still what one thread prints, in order.
#[test]
fn large_files_among_many_are_split_and_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for i in 0..7 {
        let lines = [3, 2_000, 9_000][i % 3];
        let mut text = Vec::new();
        for n in 0..lines {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let word = ["ab", "cd", "xab y", "zz"][(seed % 4) as usize];
            text.extend_from_slice(format!("{n} {word}\n").as_bytes());
        }
        if i % 2 == 1 {
            // Regression: a file that starts with a byte-order mark was
            // searched by one thread (one 16 GiB file, `-c -F -f` 1,000
            // words: 48 s on 16 cores).
            text.splice(0..0, *b"\xef\xbb\xbf");
        }
        let name = format!("f{i}");
        std::fs::write(dir.path().join(&name), text).unwrap();
        list.push_str(&name);
        list.push('\n');
    }
    std::fs::write(dir.path().join("list"), list).unwrap();
    let run = |args: &[&str], threads: &str, pagewise: &str| {
        common::gpugrep()
            .args(args)
            .arg(threads)
            .current_dir(dir.path())
            .env("GPUGREP_SPLIT_MIN", "4096")
            .env("GPUGREP_MAP_PAGEWISE", pagewise)
            .output()
            .unwrap()
    };
    let flags: [&[&str]; 10] = [
        &["-n"],
        &["-n", "-b"],
        &["-c"],
        &["--count-matches"],
        &["-v", "-c"],
        &["-o", "-b"],
        &["-v", "-n"],
        &["-l"],
        &["-C2", "-n"],
        &["-A1", "-B3", "-v"],
    ];
    for flags in flags {
        for input in [&["-r", "ab", "."][..], &["--files-from", "list", "ab"]] {
            let args: Vec<&str> = input.iter().chain(flags).copied().collect();
            let one = run(&args, "-j1", "0");
            assert!(!one.stdout.is_empty(), "{args:?}");
            // Pieces searched through the map, and read from the file as
            // where the map faults a page at a time.
            for (threads, pagewise) in [("-j3", "0"), ("-j8", "0"), ("-j3", "1"), ("-j8", "1")] {
                let many = run(&args, threads, pagewise);
                assert!(many.stdout == one.stdout, "{args:?} {threads} {pagewise}");
                assert_eq!(many.status.code(), one.status.code(), "{args:?}");
            }
        }
    }
}

/// Regression: pieces are cut where they are taken, at the first line end
/// from their share on, so a line longer than a piece leaves pieces with
/// nothing to search; each option still prints what one thread prints.
#[test]
fn a_line_longer_than_its_pieces_leaves_them_empty() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = b"ab 1\nzz\n".repeat(40);
    // Over 64 KiB: the walked file is mapped, and a count's pieces are
    // read from it (their cuts found by reading it too).
    text.extend_from_slice(&b"x ab ".repeat(16_000));
    text.push(b'\n');
    text.extend_from_slice(&b"ab 2\nzz\n".repeat(40));
    std::fs::write(dir.path().join("f"), &text).unwrap();
    std::fs::write(dir.path().join("g"), b"ab\n").unwrap();
    let flags: [&[&str]; 7] = [
        &["-n"],
        &["-c"],
        &["--count-matches"],
        &["-o", "-b"],
        &["-v", "-n"],
        &["-C1", "-n"],
        &["-A2", "-c"],
    ];
    for flags in flags {
        let run = |threads: &str| {
            common::gpugrep()
                .args(flags)
                .args(["-r", "ab", "."])
                .arg(threads)
                .current_dir(dir.path())
                .env("GPUGREP_SPLIT_MIN", "64")
                .output()
                .unwrap()
        };
        let one = run("-j1");
        assert!(!one.stdout.is_empty(), "{flags:?}");
        for threads in ["-j2", "-j5"] {
            let many = run(threads);
            assert!(many.stdout == one.stdout, "{flags:?} {threads}");
            assert_eq!(many.status.code(), one.status.code(), "{flags:?}");
        }
    }
}

/// Regression: a thread asking for a split piece's first line number after
/// another thread had summed the counts past that piece waited forever
/// (the sum kept only its last place): `-n` over 8 logs of 128 MiB with 16
/// threads hung. Each run here is bounded; the race showed in about one
/// run of ten on 2 cores.
#[test]
fn first_line_of_a_piece_summed_past_is_still_known() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for n in 0..150_000u32 {
        let word = ["ab", "cd", "xab y", "zz", "lorem ipsum dolor"]
            [(n.wrapping_mul(2_654_435_761) >> 29) as usize % 5];
        text.push_str(&format!("{n} {word}\n"));
    }
    for i in 0..8 {
        std::fs::write(dir.path().join(format!("f{i}")), &text).unwrap();
    }
    let run = |threads: &str| {
        let mut child = common::gpugrep()
            .args(["-r", "-n", "ab", ".", threads])
            .current_dir(dir.path())
            .env("GPUGREP_SPLIT_MIN", "1M")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = Vec::new();
        let reader = {
            use std::io::Read;
            let mut stdout = child.stdout.take().unwrap();
            std::thread::spawn(move || {
                let _ = stdout.read_to_end(&mut out);
                out
            })
        };
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                panic!("gpugrep {threads} did not end within 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        reader.join().unwrap()
    };
    let one = run("-j1");
    assert!(!one.is_empty());
    for _ in 0..12 {
        assert!(run("-j16") == one, "-j16 output differs from -j1");
    }
}

/// A piece whose first line number is not known yet is searched first and
/// numbered after (sparse output), or counted ahead (dense output); a file
/// whose density changes halfway goes from one to the other. Every way
/// prints what one thread prints.
#[test]
fn pieces_numbered_after_their_search_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let line = |n: u32, hit: bool| match hit {
        true => format!("{n} lorem ab ipsum\n"),
        false => format!("{n} lorem ipsum dolor sit amet\n"),
    };
    type Hit = fn(u32) -> bool;
    let shapes: [(&str, Hit); 4] = [
        ("sparse", |n| n % 1_777 == 5),
        ("dense", |n| n % 3 != 0),
        ("sparse-then-dense", |n| n > 60_000 || n % 2_001 == 7),
        ("dense-then-sparse", |n| n < 40_000 || n % 2_001 == 7),
    ];
    for (name, hit) in shapes {
        let text: String = (0..120_000u32).map(|n| line(n, hit(n))).collect();
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        let run = |args: &[&str], threads: &str, pagewise: &str| {
            common::gpugrep()
                .args(args)
                .arg(threads)
                .arg(&file)
                .env("GPUGREP_SPLIT_MIN", "64K")
                .env("GPUGREP_MAP_PAGEWISE", pagewise)
                .output()
                .unwrap()
        };
        for args in [&["-n", "ab"][..], &["-n", "-b", "ab"], &["-n", "-o", "ab"]] {
            let one = run(args, "-j1", "0");
            assert!(!one.stdout.is_empty(), "{name} {args:?}");
            // Through the map, and read from the file while sparse.
            for pagewise in ["0", "1"] {
                for threads in ["-j2", "-j5", "-j16"] {
                    let many = run(args, threads, pagewise);
                    let what = format!("{name} {args:?} {threads} {pagewise}");
                    assert!(many.stdout == one.stdout, "{what}");
                    assert_eq!(many.status.code(), one.status.code(), "{what}");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A GPU file's split pieces are numbered from the line terminators
    /// counted per 64 KiB block of each chunk (`run::gpu::lines`; the
    /// simulated pipeline counts them as the kernel does): with chunks of
    /// 256 KiB a file is cut into overlapping pieces, and the split's
    /// pieces (`GPUGREP_SPLIT_MIN`: about that size) hold blocks, parts
    /// of blocks and cuts. The simulated pipeline prints what the CPU
    /// engine prints with one thread.
    #[test]
    fn gpu_pieces_numbered_from_the_gpus_line_counts_print_what_the_cpu_prints(
        lines in prop::collection::vec((0usize..24, prop::bool::weighted(0.2)), 1..40_000),
        threads in 2usize..5,
        bom in any::<bool>(), crlf in any::<bool>(), nul_data in any::<bool>(),
        extra in prop::sample::select(vec!["", "-b", "-o", "-C1", "-A2 -b", "-v"]),
        piece in prop::sample::select(vec!["3000", "70000", "200000"]),
    ) {
        let (t, end) = match (nul_data, crlf) {
            (true, _) => ("-z", &b"\0"[..]),
            (false, true) => ("", &b"\r\n"[..]),
            (false, false) => ("", &b"\n"[..]),
        };
        let mut text = Vec::new();
        if bom {
            text.extend_from_slice(b"\xef\xbb\xbf");
        }
        for (len, hit) in &lines {
            text.extend(std::iter::repeat_n(b'.', *len));
            if *hit {
                text.extend_from_slice(b"ab");
            }
            text.extend_from_slice(end);
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("f"), &text).unwrap();
        let run = |engine: &str, threads: usize| {
            let out = std::process::Command::new(common::bin())
                .args([engine, "-n", "--gpu-staging", "1M"])
                .args(t.split_whitespace().chain(extra.split_whitespace()))
                .arg(format!("-j{threads}"))
                .args(["ab", "f"])
                .env("GPUGREP_GPU_SIMULATE", "1")
                .env("GPUGREP_GPU_CHUNK", "256K")
                .env("GPUGREP_SPLIT_MIN", piece)
                .current_dir(dir.path())
                .output()
                .unwrap();
            (out.stdout, out.status.code())
        };
        let gpu = run("--engine=gpu", threads);
        let cpu = run("--engine=cpu", 1);
        prop_assert_eq!(String::from_utf8_lossy(&gpu.0), String::from_utf8_lossy(&cpu.0));
        prop_assert_eq!(gpu.1, cpu.1);
    }
}

/// Regression: files too small to split (under 32 MiB) were each searched
/// by one thread to the end, also the last ones begun, while the other
/// threads had nothing left (64 logs of 16 MiB, 16 threads, the four
/// slowest last by name: 0.67x ripgrep). A file of 4 MiB or more begun
/// when fewer files are left than threads is split, here every file
/// (three files, four threads); the output stays what one thread prints.
#[test]
fn files_begun_in_the_runs_tail_are_split_and_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for (i, name) in ["a.log", "b.log", "c.log"].iter().enumerate() {
        let mut text = Vec::new();
        let mut n = 0;
        while text.len() < (4 << 20) + 1000 * i {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let word = ["ab", "cd", "x ab y", "zz zz zz zz"][(seed % 4) as usize];
            text.extend_from_slice(format!("{n} {word}\n").as_bytes());
            n += 1;
        }
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("list"), "a.log\nb.log\nc.log\n").unwrap();
    let run = |args: &[&str], threads: &str| {
        common::gpugrep()
            .args(args)
            .arg(threads)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let flags: [&[&str]; 6] = [
        &["-n"],
        &["-c"],
        &["-v", "-c"],
        &["-o", "-b"],
        &["-C2", "-n"],
        &["--count-matches"],
    ];
    for flags in flags {
        for input in [&["-r", "ab", "."][..], &["--files-from", "list", "ab"]] {
            let args: Vec<&str> = input.iter().chain(flags).copied().collect();
            let one = run(&args, "-j1");
            assert!(!one.stdout.is_empty(), "{args:?}");
            let many = run(&args, "-j4");
            assert!(many.stdout == one.stdout, "{args:?}");
            assert_eq!(many.status.code(), one.status.code(), "{args:?}");
        }
    }
    // The CPU engine's split (the GPU engine's pipeline cuts files into its
    // chunks instead; its output was checked above).
    let stats = run(
        &["-r", "-c", "--stats", "--engine", "cpu", "ab", "."],
        "-j4",
    );
    let stats = String::from_utf8_lossy(&stats.stderr);
    assert!(
        stats.contains(
            "files split between threads: 3 (3 of them smaller ones begun in the run's tail)"
        ),
        "{stats}"
    );
}
