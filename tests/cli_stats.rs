//! `--stats`: totals on stderr, results alone on stdout.

mod common;

use std::process::Command;

/// `a` (3 lines, 2 of them `x`) and `b` (1 line), 8 bytes in all.
fn two_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "x\ny\nx\n").unwrap();
    std::fs::write(dir.path().join("b"), "y\n").unwrap();
    dir
}

#[test]
fn stats_go_to_stderr_with_totals() {
    let dir = two_files();
    let out = Command::new(common::bin())
        .args(["--stats", "--engine=cpu", "x", "a", "b"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a:x\na:x\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        &lines[..4],
        [
            "2 matched lines",
            "1 files contained matches",
            "2 files searched",
            "8 bytes searched"
        ]
    );
    assert!(lines[4].ends_with(" seconds"), "{err}");
    assert!(lines[5].ends_with(" GB/s"), "{err}");
    assert_eq!(lines[6], "engine cpu");
    assert_eq!(out.status.code(), Some(0));
}

/// Through the streaming pipeline (simulated on the CPU, chunks of 4
/// bytes): the same totals, plus the time taken to list the inputs and
/// bytes, chunks and time per stage.
#[test]
fn stats_report_the_gpu_pipeline_stages() {
    let dir = two_files();
    let out = Command::new(common::bin())
        .args(["--stats", "--engine=gpu", "x", "a", "b"])
        .env("GPUGREP_GPU_SIMULATE", "1")
        .env("GPUGREP_GPU_CHUNK", "4")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "a:x\na:x\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "2 matched lines", "{err}");
    assert_eq!(lines[3], "8 bytes searched", "{err}");
    assert_eq!(lines[6], "engine gpu", "{err}");
    assert!(lines[7].starts_with("inputs listed in "), "{err}");
    // a (6 bytes) is cut into pieces of 4 and 2 (no overlap for a 1-byte
    // pattern), the second with a separator; b (2 bytes) and its separator
    // do not fit in the 1 byte left: a third chunk.
    assert!(
        lines[8].starts_with("gpu: 10 bytes in 3 chunks of at most 0 MiB (0 dense, searched by the CPU; 0 tallied on the GPU), 2 files (0 bytes of them unread: settled by a match; 0 given to the CPU); ready after "),
        "{err}"
    );
    assert!(lines[9].starts_with("gpu stages: read/copy "), "{err}");
    assert!(
        lines[9].contains(" transfer ") && lines[9].contains(" kernel "),
        "{err}"
    );
    assert_eq!(
        lines[10], "cpu: 0 files searched by the CPU engine",
        "{err}"
    );
}

/// `-c`, `-l`, `-L` and `-q` over chunks of whole files: the GPU's per-file
/// tallies are printed (no offsets shipped), with a long line spanning
/// several matches counted once. A file cut into pieces (`a` below with
/// 8-byte chunks) is tallied piece by piece under `-c` (each piece counts
/// the lines it owns), and ships offsets under `-l` (one settles it).
#[test]
fn counts_and_file_lists_are_tallied_on_the_gpu() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "x x x\ny\nx\n").unwrap();
    std::fs::write(dir.path().join("b"), "y\n").unwrap();
    std::fs::write(dir.path().join("c"), "xx\n").unwrap();
    let run = |args: &[&str], chunk: &str| {
        let out = Command::new(common::bin())
            .args(["--stats", "--engine=gpu"])
            .args(args)
            .args(["x", "a", "b", "c"])
            .env("GPUGREP_GPU_SIMULATE", "1")
            .env("GPUGREP_GPU_CHUNK", chunk)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let tallied = err
            .lines()
            .find_map(|l| {
                l.split("; ")
                    .nth(1)?
                    .split(" tallied")
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no tally count in {err}"));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            tallied,
            out.status.code(),
        )
    };
    assert_eq!(run(&["-c"], "1M"), ("a:2\nb:0\nc:1\n".into(), 1, Some(0)));
    assert_eq!(run(&["-l"], "1M"), ("a\nc\n".into(), 1, Some(0)));
    assert_eq!(run(&["-L"], "1M"), ("b\n".into(), 1, Some(0)));
    assert_eq!(
        run(&["-c", "-m1"], "1M"),
        ("a:1\nb:0\nc:1\n".into(), 1, Some(0))
    );
    assert_eq!(
        run(&["--count-matches"], "1M"),
        ("a:4\nb:0\nc:2\n".into(), 1, Some(0))
    );
    // `a` (10 bytes) is cut into pieces; `b` and `c` share a chunk of
    // whole files. Under -c every chunk is tallied; under -l the chunks
    // of `a` ship offsets.
    assert_eq!(run(&["-c"], "8"), ("a:2\nb:0\nc:1\n".into(), 3, Some(0)));
    assert_eq!(run(&["-l"], "8"), ("a\nc\n".into(), 1, Some(0)));
    // Inverted, word and line searches are tallied too (issue 16): the
    // kernel counts every file's lines for -v and checks -w/-x itself.
    assert_eq!(
        run(&["-c", "-v"], "1M"),
        ("a:1\nb:1\nc:0\n".into(), 1, Some(0))
    );
    assert_eq!(
        run(&["-c", "-w"], "1M"),
        ("a:2\nb:0\nc:0\n".into(), 1, Some(0))
    );
    assert_eq!(
        run(&["-c", "-x"], "1M"),
        ("a:1\nb:0\nc:0\n".into(), 1, Some(0))
    );
    assert_eq!(run(&["-L", "-v"], "1M"), ("c\n".into(), 1, Some(0)));
    // --count-matches with -v stays on the offsets.
    assert_eq!(
        run(&["--count-matches", "-v"], "1M"),
        ("a:1\nb:1\nc:0\n".into(), 0, Some(0))
    );
}

/// `--count-matches` for a literal that overlaps itself and for sets
/// (patterns that are prefixes of others, one inside another, 1-byte ones)
/// is tallied on the GPU too, counting what `-o` prints: in each line the
/// leftmost match, the longest there, then on after its end.
#[test]
fn count_matches_of_sets_and_overlapping_literals_are_tallied_on_the_gpu() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "aaaa\nabcab\naaa abc c\n").unwrap();
    std::fs::write(dir.path().join("b"), "xyz\n").unwrap();
    let run = |engine: &str, pats: &[&str]| {
        let mut cmd = Command::new(common::bin());
        cmd.args(["--stats", "--count-matches", engine]);
        for p in pats {
            cmd.args(["-e", p]);
        }
        let out = cmd
            .args(["a", "b"])
            .env("GPUGREP_GPU_SIMULATE", "1")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let tallied = err.contains("; 1 tallied on the GPU");
        (String::from_utf8_lossy(&out.stdout).into_owned(), tallied)
    };
    for (pats, want) in [
        (&["aa"][..], "a:3\nb:0\n"),
        (&["ab", "abc", "c"][..], "a:4\nb:0\n"),
        (&["a", "aa", "aaa", "b"][..], "a:9\nb:0\n"),
        (&["bc", "abca", "z"][..], "a:2\nb:1\n"),
    ] {
        assert_eq!(run("--engine=cpu", pats).0, want, "{pats:?}");
        assert_eq!(run("--engine=gpu", pats), (want.into(), true), "{pats:?}");
    }
}

/// `-l` and `-L` over a file cut into many pieces: once a piece matched,
/// the file's later pieces are neither read nor searched (a ring of 3
/// chunks of 64 bytes keeps the packer close behind the results); a set
/// of files with one in the middle gives the same lists as the CPU engine.
#[test]
fn files_with_matches_stop_reading_a_file_at_its_first_match() {
    let dir = tempfile::tempdir().unwrap();
    let mut big = String::from("x marks the spot\n");
    big.push_str(&"nothing to see here\n".repeat(5000));
    std::fs::write(dir.path().join("big"), &big).unwrap();
    std::fs::write(dir.path().join("late"), "nothing\n".repeat(100) + "x\n").unwrap();
    std::fs::write(dir.path().join("none"), "nothing\n").unwrap();
    let run = |engine: &str, mode: &str| {
        let out = Command::new(common::bin())
            .args(["--stats", engine, mode, "-F", "x", "big", "late", "none"])
            .args(["--gpu-staging=192"])
            .env("GPUGREP_GPU_SIMULATE", "1")
            .env("GPUGREP_GPU_CHUNK", "64")
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let unread = err.lines().find_map(|l| {
            l.split(" files (")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<u64>()
                .ok()
        });
        (String::from_utf8_lossy(&out.stdout).into_owned(), unread)
    };
    for mode in ["-l", "-L"] {
        let (cpu, _) = run("--engine=cpu", mode);
        let (gpu, unread) = run("--engine=gpu", mode);
        assert_eq!(gpu, cpu, "{mode}");
        // Most of `big` (100,017 bytes) stays unread. (The packer runs
        // ahead for as long as the stop takes to reach it: of 10,017
        // bytes, 1,088 were read on a loaded 2-core CI machine.)
        assert!(unread.is_some_and(|u| u > 90_000), "{mode}: {unread:?}");
    }
    assert_eq!(run("--engine=gpu", "-l").0, "big\nlate\n");
}

#[test]
fn gpu_memory_and_staging_sizes_are_checked() {
    let out = Command::new(common::bin())
        .args(["--gpu-memory=12Q", "x", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gpugrep: 12Q: invalid GPU memory size\n"
    );
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(common::bin())
        .args([
            "--gpu-staging=256M",
            "--gpu-memory=1G",
            "-c",
            "x",
            "/dev/null",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "0\n");
    assert_eq!(out.status.code(), Some(1));
}

/// Every way a file the pipeline claimed leaves the fast path is named by
/// `--stats` (files and bytes per reason) and, under `--debug`, per file
/// (issue 16): each reason the simulated pipeline can provoke, alone. (A
/// read error, a GPU failure, 16 M offsets in a file and a stopped
/// pipeline are not provoked here.) `--debug` names files sorted.
#[test]
fn stats_name_every_fallback() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, data: &[u8]| std::fs::write(dir.path().join(name), data).unwrap();
    write("dense", "x\n".repeat(3000).as_bytes());
    write("utf16", b"\xff\xfex\x00\n\x00");
    write("bom", b"\xef\xbb\xbf123\n");
    write("digits", format!("{}\n", "0".repeat(200)).as_bytes());
    write("word", "éx y\nx\n".as_bytes());
    write("cut", b"x y\nx\n");
    write("long", format!("{}x\n", ".".repeat(300_000)).as_bytes());
    let run = |args: &[&str], chunk: &str| {
        let out = Command::new(common::bin())
            .args(["--stats", "--debug", "--engine=gpu"])
            .args(args)
            .env("GPUGREP_GPU_SIMULATE", "1")
            .env("GPUGREP_GPU_CHUNK", chunk)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let named = |prefix: &str| -> Vec<String> {
            err.lines()
                .filter_map(|l| l.strip_prefix(prefix))
                .map(str::to_string)
                .collect()
        };
        // The --stats lines, and the --debug lines naming files.
        let stats = named("gpu fallback: ");
        let files: Vec<String> = named("gpugrep: debug: gpu: ")
            .into_iter()
            .filter(|l| l.contains(": searched by") || l.contains(": not tallied"))
            .collect();
        (stats, files)
    };
    let cpu = "searched by the CPU engine";
    assert_eq!(
        run(&["x", "dense"], "1M"),
        (
            vec![format!(
                "dense chunk (more than one match per 32 bytes): 1 files, 6000 bytes {cpu}"
            )],
            vec![format!(
                "dense: {cpu}: dense chunk (more than one match per 32 bytes)"
            )]
        )
    );
    let bom = "byte-order mark (UTF-16, decoded)";
    assert_eq!(
        run(&["-c", "x", "utf16"], "1M"),
        (
            vec![format!("{bom}: 1 files, 6 bytes {cpu}")],
            vec![format!("utf16: {cpu}: {bom}")]
        )
    );
    // A UTF-8 byte-order mark before the automaton's lines stays on the
    // GPU (its first line is judged again on the CPU, `bom_line`).
    let across = "a line longer than the overlap across a chunk cut";
    assert_eq!(
        run(&["-c", "-E", "[0-9]{3}", "digits", "bom"], "64"),
        (
            vec![format!("{across}: 1 files, 201 bytes {cpu}")],
            vec![format!("digits: {cpu}: {across}")]
        )
    );
    let word = "-w: a non-ASCII byte beside a match";
    assert_eq!(
        run(&["-c", "-w", "x", "word"], "1M"),
        (
            vec![format!("{word}: 1 files, 8 bytes {cpu}")],
            vec![format!("word: {cpu}: {word}")]
        )
    );
    let offsets = "not tallied (offsets shipped, lines found on the CPU)";
    let cut = "chunk holds a piece of a file cut at a chunk end";
    assert_eq!(
        run(&["-l", "x", "cut"], "4"),
        (
            vec![format!("{cut}: 1 files, 6 bytes {offsets}")],
            vec![format!("cut: not tallied on the GPU: {cut}")]
        )
    );
    let long = "a line longer than 256 KiB in the chunk";
    assert_eq!(
        run(&["-c", "x", "long"], "1M"),
        (
            vec![format!("{long}: 1 files, 300002 bytes {offsets}")],
            vec![format!("long: not tallied on the GPU: {long}")]
        )
    );
    // A search that stays on the fast path names nothing.
    assert_eq!(run(&["-c", "x", "cut", "bom"], "1M"), (vec![], vec![]));
}

/// 5,000 lines of 38 bytes, every one a match, searched for `x` with `-n`
/// on the simulated pipeline (4 KiB chunks, a ring of 4) with the GPU's
/// cap on one file's matches lowered to `cap` (`GPUGREP_GPU_FILE_MARKS`),
/// and on the CPU engine: the GPU run's stderr (`--stats`), after checking
/// that both printed the same, and the bytes it gave to the CPU unread.
fn past_the_match_cap(cap: &str) -> (String, u64) {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!("x {i:06} {}\n", ".".repeat(28)));
    }
    std::fs::write(dir.path().join("f"), &text).unwrap();
    let run = |engine: &str| {
        Command::new(common::bin())
            .args(["--stats", "-n", "--gpu-staging", "16K", engine, "x", "f"])
            .env("GPUGREP_GPU_SIMULATE", "1")
            .env("GPUGREP_GPU_CHUNK", "4K")
            .env("GPUGREP_GPU_FILE_MARKS", cap)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let gpu = run("--engine=gpu");
    let cpu = run("--engine=cpu");
    assert_eq!(gpu.stdout, cpu.stdout);
    assert_eq!(gpu.stdout.iter().filter(|&&b| b == b'\n').count(), 5000);
    let err = String::from_utf8_lossy(&gpu.stderr).into_owned();
    assert!(
        err.lines().any(|l| l
            == "gpu fallback: more than 16 M matches in the file (or foretold from its first pieces): 1 files, 190000 bytes searched by the CPU engine"),
        "{err}"
    );
    let given_up: u64 = err
        .split("; ")
        .find_map(|s| s.strip_suffix(" given to the CPU)"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    (err, given_up)
}

/// Regression: a file past the GPU's cap on one file's matches went to the
/// CPU engine only after the pipeline had read all of it (one 16 GiB file,
/// `-n`: 8.1 s, the CPU engine alone 5.1 s). The rest of it is now left
/// unread, and what is printed is the CPU engine's. The cap is lowered to
/// 100 and the ring is 4 chunks, so most chunks are read after the file
/// went to the CPU.
#[test]
fn a_file_past_the_gpus_match_cap_is_left_unread_for_the_cpu() {
    let (err, given_up) = past_the_match_cap("100");
    assert!(given_up > 100_000, "{err}");
}

/// A file whose first pieces foretell more matches than the GPU's cap on
/// one file goes to the CPU engine then, not once the cap is reached: one
/// 8 GiB prose file, `-n` of 1,000 words (43.7 M lines), had 2.6 GB read
/// for the GPU first. Cap 1,000: reached alone after about 38 KB, 145 KB
/// of the 190 KB were left unread; foretold after 12 KB (a sixteenth of
/// the file), 174 KB.
#[test]
fn a_file_bound_past_the_gpus_match_cap_goes_to_the_cpu_early() {
    let (err, given_up) = past_the_match_cap("1000");
    assert!(given_up > 150_000, "{err}");
}

/// A line finder race (`engine::fastest`) decided over the run's first
/// megabytes is named with both finders' pace, and the count is the same
/// whichever was kept.
#[test]
fn stats_name_the_line_finder_race() {
    let dir = tempfile::tempdir().unwrap();
    let line =
        "2026-11-30 node-7 sent to ann@example.com via relay 10.0.0.1\nplain line without one\n";
    std::fs::write(dir.path().join("a"), line.repeat(150_000)).unwrap();
    let out = Command::new(common::bin())
        .args(["--stats", "--engine=cpu", "-j1", "-c", "-E"])
        .arg(r"\w+@\w+\.\w+|\w+@\w+\.(com|org|net)")
        .arg("a")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "150000\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.lines()
            .any(|l| l.starts_with("line finder race: kept the ")
                && l.contains(", the DFA alone ")
                && l.contains(" ns a byte, on the first ")),
        "{err}"
    );
}
