//! The whole program on the GPU against the whole program on the CPU.
//!
//! `gpu_differential.rs` checks the kernels; this checks everything after
//! them: corpus layout, the offset windows per file, confirmation, context,
//! counts and output, by running `gpugrep --engine gpu` and `--engine cpu`
//! on the same random files and options and comparing stdout, stderr and
//! exit status byte for byte. Each case picks a chunk size for the streaming
//! pipeline (a few bytes, so files are cut and packed everywhere, up to the
//! default). The GPU test skips (and passes) without a usable GPU; the same
//! cases also run everywhere through the pipeline with its chunk search
//! simulated on the CPU (`GPUGREP_GPU_SIMULATE=1`), which checks packing,
//! cutting, ordering and fallbacks without a GPU.
//! `GPUGREP_E2E_CASES` sets the number of cases (default 200 on the GPU, 80
//! simulated); the binary is `GPUGREP_BIN` when set (test executables
//! carried to a GPU machine).

mod common;

use common::{real_gpu, run_engine, same_run, show_runs, XorShift};
use std::process::Output;

fn run(engine: &str, args: &[String], dir: &std::path::Path) -> Output {
    run_with(engine, args, dir, false, &[])
}

/// `split`: let one input be cut into pieces searched by several threads,
/// whatever its size (the GPU's offsets are then read through prefixes).
fn run_with(
    engine: &str,
    args: &[String],
    dir: &std::path::Path,
    split: bool,
    env: &[(String, String)],
) -> Output {
    let mut env: Vec<(&str, String)> = env.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
    let mut args = args.to_vec();
    if split {
        env.insert(0, ("GPUGREP_SPLIT_MIN", "1".into()));
        args.insert(0, "-j3".into());
    }
    run_engine(engine, &args, dir, &env)
}

/// The environment that runs the GPU pipeline simulated on the CPU.
fn simulate() -> (String, String) {
    ("GPUGREP_GPU_SIMULATE".to_string(), "1".to_string())
}

/// `--json` output without its timings, which differ from run to run.
fn timeless(out: &[u8]) -> Vec<u8> {
    let elapsed = regex::bytes::Regex::new(r#""elapsed(_total)?":\{[^{}]*\}"#).unwrap();
    elapsed.replace_all(out, &b"0"[..]).into_owned()
}

#[test]
fn gpu_engine_prints_what_cpu_engine_prints() {
    if real_gpu() {
        differential(cases(200), &[]);
    }
}

#[test]
fn simulated_pipeline_prints_what_cpu_engine_prints() {
    let simulate = [simulate()];
    differential(cases(80), &simulate);
}

/// Regression: an empty pattern was planned for the GPU as a literal; the
/// GPU engine refused it (a run-time failure, then the CPU) and the
/// simulated pipeline's mirror found nothing (`-c ""` printed 0 for a
/// file of three lines). It selects every line, through the real GPU when
/// there is one and through the simulated pipeline everywhere.
#[test]
fn an_empty_pattern_selects_every_line_on_the_gpu_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "x\n\ny\n").unwrap();
    let envs: Vec<Vec<(String, String)>> = match real_gpu() {
        true => vec![vec![], vec![simulate()]],
        false => vec![vec![simulate()]],
    };
    for args in [
        &["-c", "", "a"][..],
        &["-n", "-e", "", "a"],
        &["-v", "-c", "", "a"],
    ] {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let cpu = run("cpu", &args, dir.path());
        for env in &envs {
            let gpu = run_with("gpu", &args, dir.path(), false, env);
            assert!(
                same_run(&gpu, &cpu),
                "{args:?} {env:?}: {}",
                show_runs(&gpu, &cpu)
            );
        }
    }
}

/// `-i` runs on the GPU as a search for every case variant, Unicode simple
/// folding included: `k` finds the Kelvin sign, `s` the long s, as on the
/// CPU (and in ripgrep). Through the real GPU when there is one, and
/// through the simulated pipeline everywhere.
#[test]
fn ignore_case_finds_unicode_case_variants() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Kelvin: 300 \u{212A}\nlong \u{17F}\nplain\nK k\nSK\n";
    std::fs::write(dir.path().join("t"), text).unwrap();
    let args: Vec<String> = ["-i", "-n", "-o", "-e", "k", "-e", "s", "t"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let cpu = run("cpu", &args, dir.path());
    assert_eq!(
        String::from_utf8_lossy(&cpu.stdout),
        "1:K\n1:\u{212A}\n2:\u{17F}\n4:K\n4:k\n5:S\n5:K\n"
    );
    let simulate = [simulate()];
    let sim = run_with("gpu", &args, dir.path(), false, &simulate);
    assert_eq!(sim.stdout, cpu.stdout);
    let gpu = run("gpu", &args, dir.path());
    if gpu.status.code() == Some(2) {
        eprintln!(
            "skipped on the GPU: {}",
            String::from_utf8_lossy(&gpu.stderr).trim()
        );
        return;
    }
    assert_eq!(gpu.stdout, cpu.stdout);
}

/// Regression (issue 13, item 1): with `-i`, a pattern whose case variants
/// come from Unicode folding (`s`, `k`, a non-ASCII letter) was searched on
/// the GPU as exact variants, and `-x`/`-w` were dropped: `-i -x is`
/// selected `this is`. Expected outputs are GNU grep 3.8's.
#[test]
fn gpu_ignore_case_folded_variants_keep_word_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = "this is\nsk\nIS\nis\n\u{17F} k\n\u{e9}T\u{c9}\n\u{e9}t\u{e9} x\n";
    std::fs::write(dir.path().join("g"), text).unwrap();
    let cases: [(&[&str], &str, i32); 8] = [
        (&["-x", "is"], "IS\nis\n", 0),
        (&["-c", "-x", "is"], "2\n", 0),
        (&["-l", "-x", "is"], "g\n", 0),
        (&["-L", "-x", "is"], "", 0),
        (&["-w", "s"], "\u{17F} k\n", 0),
        (&["-c", "-w", "s"], "1\n", 0),
        (&["-x", "\u{e9}t\u{e9}"], "\u{e9}T\u{c9}\n", 0),
        (
            &["-n", "-w", "\u{c9}T\u{c9}"],
            "6:\u{e9}T\u{c9}\n7:\u{e9}t\u{e9} x\n",
            0,
        ),
    ];
    for (opts, want, code) in cases {
        let mut args: Vec<String> = vec!["-i".into()];
        args.extend(opts.iter().map(|s| s.to_string()));
        args.push("g".into());
        let sim = run_with("gpu", &args, dir.path(), false, &[simulate()]);
        assert_eq!(String::from_utf8_lossy(&sim.stdout), want, "{args:?}");
        assert_eq!(sim.status.code(), Some(code), "{args:?}");
    }
}

/// Shift_JIS text dense in false candidates: kanji whose trail byte is
/// `A`, so a raw search for `A` hits every other byte. The back-read on the
/// GPU (simulated: its CPU mirror) drops those before the count, so no
/// chunk is dense enough to fall back to the CPU, and the output is the CPU
/// engine's. Whole, and cut into pieces that continue the file (whose
/// start is not known to be a character start). Also on the GPU when
/// there is one.
#[test]
fn shift_jis_trail_letters_do_not_make_chunks_dense() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for line in 0..2000 {
        text.push_str(&"ア陰柊窟漓".repeat(6));
        if line % 10 == 0 {
            text.push_str(" A-");
        }
        text.push('\n');
    }
    let (data, _, bad) = encoding_rs::SHIFT_JIS.encode(&text);
    assert!(!bad);
    // ア 陰 柊 窟 漓 = 83 41, 89 41, 95 41, 8C 41, E0 41.
    assert_eq!(&data[..4], b"\x83A\x89A");
    std::fs::write(dir.path().join("f"), &data).unwrap();
    // A raw search finds more than one `A` per 32 bytes (the pipeline's
    // density limit) in the whole file and in every 64 KiB piece.
    let raw = data.iter().filter(|&&b| b == b'A').count();
    assert!(
        raw > data.len() / 32 && raw > 1024 && 65536 / 4 > 2048,
        "{raw}"
    );
    let simulate = simulate();
    let real_gpu = real_gpu();
    for opts in [&["-n", "-b"][..], &["-c"], &["-o", "-b"]] {
        let mut args: Vec<String> = ["--encoding", "shift_jis", "-F", "A"]
            .iter()
            .chain(opts)
            .map(|s| s.to_string())
            .collect();
        args.push("f".into());
        let cpu = run("cpu", &args, dir.path());
        assert_eq!(cpu.status.code(), Some(0));
        args.insert(0, "--stats".into());
        for chunk in [None, Some("65536")] {
            let mut env = vec![simulate.clone()];
            env.extend(chunk.map(|c| ("GPUGREP_GPU_CHUNK".to_string(), c.to_string())));
            let mut runs = vec![("simulated", run_with("gpu", &args, dir.path(), false, &env))];
            if real_gpu {
                let env = &env[1..];
                runs.push(("gpu", run_with("gpu", &args, dir.path(), false, env)));
            }
            for (what, out) in runs {
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.stdout, cpu.stdout, "{what} {opts:?} {chunk:?}\n{err}");
                let stats = err.lines().find(|l| l.starts_with("gpu: ")).unwrap_or("");
                assert!(
                    stats.contains(
                        " (0 dense, searched by the CPU; 0 tallied on the GPU), 1 files ("
                    ),
                    "{what} {opts:?} {chunk:?}: {err}"
                );
                assert!(
                    err.contains("\ncpu: 0 files searched by the CPU engine\n"),
                    "{what} {opts:?} {chunk:?}: {err}"
                );
            }
        }
    }
    // The real `A`s only: one line in ten.
    let count = run(
        "cpu",
        &["--encoding", "shift_jis", "-c", "-F", "A", "f"].map(String::from),
        dir.path(),
    );
    assert_eq!(count.stdout, b"200\n");
}

/// Files of legacy multi-byte bytes (lead bytes, ASCII trails, digits)
/// through the pipeline in small chunks, so pieces continue files and
/// candidates sit on every kind of byte: the back-read on the GPU's
/// candidates must never drop a match the CPU engine prints. Simulated,
/// and on the GPU when there is one.
#[test]
fn legacy_encodings_print_what_cpu_engine_prints() {
    let encodings = [
        ("shift_jis", encoding_rs::SHIFT_JIS),
        ("euc-jp", encoding_rs::EUC_JP),
        ("euc-kr", encoding_rs::EUC_KR),
        ("big5", encoding_rs::BIG5),
        ("gb18030", encoding_rs::GB18030),
    ];
    let real_gpu = real_gpu();
    let mut rng = XorShift(0x1e9a_c7b0_0da5_0001);
    let mut mismatches = 0;
    let cases = cases(60);
    for case in 0..cases {
        let (label, enc) = encodings[case % encodings.len()];
        let dir = tempfile::tempdir().unwrap();
        let mut args: Vec<String> = vec!["--encoding".into(), label.into(), "-F".into()];
        for _ in 0..rng.below(3) {
            args.push(rng.pick(&["-n", "-b", "-o", "-c", "-x", "-v"]).into());
        }
        let mut first = Vec::new();
        let mut names = Vec::new();
        for f in 0..1 + rng.below(3) {
            let len = rng.below(3000);
            let data: Vec<u8> = (0..len)
                .map(|_| match rng.below(8) {
                    0 => b'\n',
                    1 | 2 => b"AB@\\5 "[rng.below(6)],
                    _ => 0x81 + rng.below(0x7e) as u8,
                })
                .collect();
            if f == 0 {
                first = data.clone();
            }
            let name = format!("f{f}");
            std::fs::write(dir.path().join(&name), &data).unwrap();
            names.push(name);
        }
        // One or two characters of the first file as decoded, else `A`.
        let decoded: Vec<char> = enc.decode_without_bom_handling(&first).0.chars().collect();
        let at = rng.below(decoded.len());
        let pattern: String = decoded.iter().skip(at).take(1 + rng.below(2)).collect();
        let usable =
            !pattern.is_empty() && !pattern.contains(['\u{fffd}', '\n']) && !enc.encode(&pattern).2;
        args.push("-e".into());
        args.push(if usable { pattern } else { "A".into() });
        args.extend(names);
        let chunk = match rng.below(3) {
            0 => 1 + rng.below(40),
            1 => 40 + rng.below(400),
            _ => 65536,
        };
        let chunk = ("GPUGREP_GPU_CHUNK".to_string(), chunk.to_string());
        let simulate = simulate();
        let cpu = run("cpu", &args, dir.path());
        let mut runs = vec![run_with(
            "gpu",
            &args,
            dir.path(),
            false,
            &[chunk.clone(), simulate],
        )];
        if real_gpu {
            runs.push(run_with(
                "gpu",
                &args,
                dir.path(),
                false,
                std::slice::from_ref(&chunk),
            ));
        }
        for out in runs {
            if !same_run(&out, &cpu) {
                mismatches += 1;
                if mismatches <= 5 {
                    eprintln!(
                        "case {case}: args {args:?} {chunk:?}\n{}",
                        show_runs(&out, &cpu)
                    );
                }
            }
        }
    }
    eprintln!("legacy encodings: {cases} cases (GPU: {real_gpu}), {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

/// Regular expressions whose GPU literals are prefixes, suffixes or inner
/// sets, through the simulated pipeline, against the CPU engine.
#[test]
fn simulated_regex_prefilter_prints_what_cpu_engine_prints() {
    let simulate = [simulate()];
    regex_differential(cases(80), &simulate);
}

/// The same on the GPU, when there is one.
#[test]
fn gpu_regex_prefilter_prints_what_cpu_engine_prints() {
    if real_gpu() {
        regex_differential(cases(120), &[]);
    }
}

/// A random `-E` expression: pieces that have literals (some only inside
/// or at the end of a match), classes, repetitions, groups and anchors,
/// sometimes two such concatenations as alternatives.
fn random_regex(rng: &mut XorShift) -> String {
    let pieces = [
        "X",
        "ab",
        "_Y",
        "aX",
        "b",
        "1",
        "[a-z]+",
        r"\w+",
        "[ab]*",
        ".",
        r"\d?",
        "[^ ]+",
        "[XY]",
        "(ab|ba)",
        "(X|Y1)",
        "(a|bX)+",
        "(ab){2,3}",
        "a{0,}",
        "^",
        "$",
        r"\b",
    ];
    let concat = |rng: &mut XorShift| {
        (0..1 + rng.below(5))
            .map(|_| rng.pick(&pieces))
            .collect::<String>()
    };
    // Shapes whose literals are only inner or suffix ones come up often.
    let shaped = [
        "[a-z]+X",
        r"\w+ab(c|X)",
        r"^[a-z]+_Y$",
        r"[A-Z]+_Y",
        r"\w+ab[XY]\w+",
        r".b",
        r"[0-9]+ (ab|ba) \S+",
    ];
    match rng.below(6) {
        0 => rng.pick(&shaped).to_string(),
        1 => format!("{}|{}", concat(rng), concat(rng)),
        _ => concat(rng),
    }
}

/// `--debug` on both sides: stdout and exit status must be equal, and
/// stderr apart from the debug lines. The GPU side's debug lines say which
/// literals it took; every kind must come up, and the GPU must have run.
fn regex_differential(cases: usize, base_env: &[(String, String)]) {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut mismatches = 0;
    let mut kinds = std::collections::BTreeMap::<&str, usize>::new();
    let alphabet: &[u8] = b"abcXY_ 1-\n";
    let not_debug = |e: &[u8]| {
        String::from_utf8_lossy(e)
            .lines()
            .filter(|l| !l.contains(": debug: "))
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    for case in 0..cases {
        let dir = tempfile::tempdir().unwrap();
        let mut names = Vec::new();
        let mut total = 0;
        for f in 0..1 + rng.below(5) {
            let len = match rng.below(10) {
                0 => 0,
                1 => 100_000 + rng.below(200_000),
                _ => rng.below(3000),
            };
            let data = rng.bytes(len, alphabet);
            total += data.len();
            let name = format!("f{f}");
            std::fs::write(dir.path().join(&name), &data).unwrap();
            names.push(name);
        }
        let mut args: Vec<String> = vec!["--debug".into(), "-E".into()];
        for _ in 0..rng.below(4) {
            let opt = rng.pick(&[
                "-o",
                "-w",
                "-x",
                "-v",
                "-c",
                "-n",
                "-b",
                "-i",
                "-h",
                "-l",
                "-m2",
                "-A1",
                "-B2",
                "-C1",
                "--json",
                "--color=always",
                "--count-matches",
            ]);
            args.push(opt.to_string());
        }
        let pattern = random_regex(&mut rng);
        args.extend(["-e".to_string(), pattern]);
        args.extend(names);
        let mut env = base_env.to_vec();
        let chunk = match rng.below(3) {
            0 => (1 + rng.below(5000)).max(total / 2000),
            1 => 65536,
            _ => 0,
        };
        if chunk > 0 {
            env.push(("GPUGREP_GPU_CHUNK".into(), chunk.to_string()));
        }
        let gpu = run_with("gpu", &args, dir.path(), case % 2 == 1, &env);
        let cpu = run_with("cpu", &args, dir.path(), false, &[]);
        let gpu_err = String::from_utf8_lossy(&gpu.stderr);
        let kind = ["prefix", "inner", "suffix"]
            .into_iter()
            .find(|k| gpu_err.contains(&format!(" {k} literal(s) for the GPU")))
            .unwrap_or("none");
        *kinds.entry(kind).or_default() += 1;
        if timeless(&gpu.stdout) != timeless(&cpu.stdout)
            || not_debug(&gpu.stderr) != not_debug(&cpu.stderr)
            || gpu.status.code() != cpu.status.code()
        {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "case {case}: args {args:?} env {env:?} ({kind})\n{}",
                    show_runs(&gpu, &cpu)
                );
            }
        }
    }
    eprintln!("regex_differential: {cases} cases, {mismatches} mismatches, GPU literals {kinds:?}");
    assert_eq!(mismatches, 0);
    if cases >= 40 {
        for k in ["prefix", "inner", "suffix"] {
            assert!(
                kinds.get(k).is_some_and(|&n| n > 0),
                "no case with {k} literals: {kinds:?}"
            );
        }
    }
}

fn cases(default: usize) -> usize {
    std::env::var("GPUGREP_E2E_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn differential(cases: usize, base_env: &[(String, String)]) {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut mismatches = 0;
    for case in 0..cases {
        let dir = tempfile::tempdir().unwrap();
        // Capitals, so that `-i` (among the options) changes what matches.
        let alphabet: &[u8] = if rng.below(2) == 0 {
            b"ab\n"
        } else {
            b"ab aB_C-\n"
        };
        let files = match case % 4 {
            1 => 1,
            3 => 1 + rng.below(60),
            _ => 1 + rng.below(6),
        };
        let mut names = Vec::new();
        let mut total = 0;
        for f in 0..files {
            // Mostly small files; sometimes large ones that span many
            // kernel portions and blocks; sometimes empty.
            let len = match rng.below(10) {
                0 => 0,
                1 => 200_000 + rng.below(800_000),
                _ => rng.below(4000),
            };
            let mut data: Vec<u8> = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            if len > 0 && rng.below(20) == 0 {
                data[rng.below(len)] = 0; // binary file
            }
            if rng.below(25) == 0 {
                // A UTF-8 byte-order mark: the file is searched after it.
                data.splice(0..0, [0xef, 0xbb, 0xbf]);
            }
            let name = format!("f{f}");
            total += data.len();
            std::fs::write(dir.path().join(&name), &data).unwrap();
            names.push(name);
        }
        let plen = 1 + rng.below(12);
        let pattern: Vec<u8> = (0..plen).map(|_| b"ab _"[rng.below(4)]).collect();
        let pattern = String::from_utf8(pattern).unwrap();
        let mut args: Vec<String> = Vec::new();
        for _ in 0..rng.below(4) {
            let opt = rng.pick(&[
                "-c",
                "-n",
                "-b",
                "-o",
                "-v",
                "-w",
                "-x",
                "-l",
                "-L",
                "-m2",
                "-A1",
                "-B2",
                "-C1",
                "-F",
                "-h",
                "-i",
                "--count-matches",
                "-q",
                "-I",
                "-z",
                "-c",
                "-l",
            ]);
            args.push(opt.to_string());
        }
        // A quarter of the cases search a regular expression: the GPU finds
        // literals every match contains, the regex confirms the candidate
        // lines (`regex_differential` draws regexes of every kind).
        let pattern = if rng.below(4) == 0 {
            args.push("-E".into());
            let pieces = [
                "a", "b", "ab", " ", "_", "[ab]", "a|b", "(ab|ba)", "b+", ".", "a?", "[ab]+_", "^",
            ];
            (0..1 + rng.below(4))
                .map(|_| rng.pick(&pieces))
                .collect::<String>()
        } else {
            pattern
        };
        args.push("-e".into());
        args.push(pattern.clone());
        // A third of the cases search a set of literals (the multi kernel):
        // shared prefixes, substrings and duplicates come up often with
        // this alphabet.
        if rng.below(3) == 0 {
            for _ in 0..1 + rng.below(6) {
                let len = 1 + rng.below(6);
                let p: Vec<u8> = (0..len).map(|_| b"ab _"[rng.below(4)]).collect();
                args.push("-e".into());
                args.push(String::from_utf8(p).unwrap());
            }
        }
        args.extend(names.iter().cloned());
        if case % 8 == 3 {
            args.retain(|a| !(a.starts_with('f') && a[1..].parse::<u32>().is_ok()));
            args.extend(["-r".to_string(), ".".to_string()]);
        }
        let mut env = base_env.to_vec();
        // At most about 2000 chunks per case: each costs a few waits for
        // the GPU, and a 1 MB file in chunks of 5 bytes took minutes.
        let chunk = match rng.below(4) {
            0 => 1 + rng.below(16),
            1 => 16 + rng.below(5000),
            2 => 65536,
            _ => 0,
        };
        let chunk = if chunk > 0 {
            chunk.max(total / 2000)
        } else {
            0
        };
        if chunk > 0 {
            env.push(("GPUGREP_GPU_CHUNK".into(), chunk.to_string()));
        }
        let split = case % 2 == 1;
        // Simulated, some cases run auto: the CPU claims files until the
        // pipeline's backend arrives (after 0-20 ms), then the GPU takes
        // the rest (with -l, -L, -q or -m both go on).
        let simulated = !base_env.is_empty();
        let engine = if simulated && rng.below(3) == 0 {
            env.push((
                "GPUGREP_GPU_SIMULATE_DELAY".into(),
                rng.below(20).to_string(),
            ));
            "auto"
        } else {
            "gpu"
        };
        let gpu = run_with(engine, &args, dir.path(), split, &env);
        let cpu = run_with("cpu", &args, dir.path(), false, &[]);
        if !same_run(&gpu, &cpu) {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "case {case}: args {args:?} env {env:?}\n{}",
                    show_runs(&gpu, &cpu)
                );
            }
        }
    }
    eprintln!("gpu_end_to_end: {cases} cases, {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

/// `--json -m1 -r` over a file larger than the CPU engine's read block:
/// `bytes_searched` counts what the CPU engine read before it stopped (a
/// block); the GPU path counted the whole file, so the summaries differed.
#[test]
fn json_bytes_searched_under_max_count_is_the_cpu_engines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big"), "xyz line\n".repeat(100_000)).unwrap();
    let clean = |o: &[u8]| String::from_utf8_lossy(&timeless(o)).into_owned();
    let simulate = [simulate()];
    for args in [
        &["--json", "-m1", "-r", "xyz", "."][..],
        &["--json", "-m1", "xyz", "big"],
    ] {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let gpu = run_with("gpu", &args, dir.path(), false, &simulate);
        let cpu = run("cpu", &args, dir.path());
        assert!(clean(&cpu.stdout).contains("\"bytes_searched\":"));
        assert_eq!(clean(&gpu.stdout), clean(&cpu.stdout), "{args:?}");
    }
}

/// `-c` and `--count-matches` with a literal set over files cut across
/// chunks are tallied piece by piece: the pieces overlap by a line's worth
/// and each counts the lines it owns, so every chunk is tallied and no
/// offsets ship. Counts equal the CPU engine's with `-v`, `-w`, `-i` and
/// a byte-order mark; a line longer than the overlap across a cut sends
/// its file to the CPU, named under `--stats`. Simulated, and on the GPU
/// when there is one.
#[test]
fn literal_sets_over_cut_files_are_tallied() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..3000)
        .map(|i| match i % 5 {
            0 => format!("error: job {i} timed out\n"),
            2 => format!("FAILED Errors {i}\n"),
            _ => format!("step {i} ok\n"),
        })
        .collect();
    let files = [
        ("plain.log", lines.clone()),
        ("bom.log", format!("\u{feff}{lines}")),
        (
            "long.log",
            format!("{lines}{}\n{lines}", "y".repeat(20_000)),
        ),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("words.txt"), "error\ntimed out\nFAILED\n").unwrap();
    let mut envs = vec![vec![simulate()]];
    if real_gpu() {
        envs.push(Vec::new());
    }
    for env in &envs {
        let mut env = env.clone();
        env.push(("GPUGREP_GPU_CHUNK".to_string(), "8192".to_string()));
        for name in ["plain.log", "bom.log", "long.log"] {
            for flags in [
                &["-c"][..],
                &["-c", "-v"],
                &["-c", "-w"],
                &["-c", "-i"],
                &["--count-matches"],
            ] {
                let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
                args.extend(["--stats", "-F", "-f", "words.txt", name].map(String::from));
                let gpu = run_with("gpu", &args, dir.path(), false, &env);
                let cpu = run("cpu", &args, dir.path());
                let err = String::from_utf8_lossy(&gpu.stderr);
                assert!(
                    gpu.stdout == cpu.stdout && gpu.status.code() == cpu.status.code(),
                    "{name} {flags:?} {env:?}\n{}",
                    show_runs(&gpu, &cpu)
                );
                assert!(
                    !err.contains("cut at a chunk end"),
                    "{name} {flags:?}\n{err}"
                );
                if name == "long.log" {
                    assert!(err.contains("longer than the overlap"), "{flags:?}\n{err}");
                    continue;
                }
                assert!(
                    common::every_chunk_tallied(&err),
                    "{name} {flags:?}: not every chunk tallied\n{err}"
                );
            }
        }
    }
}
