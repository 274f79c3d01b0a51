//! `--decompress` through the GPU pipeline against the CPU engine.
//!
//! Compressed files (every format, multi-member gzip and multi-frame
//! zstd, damaged and truncated archives) mixed with plain ones, searched
//! with `--engine gpu --decompress` and `--engine cpu --decompress`:
//! stdout, stderr and exit status must be byte for byte the same. Chunk
//! sizes from a few bytes (a decompressed file is poured into many
//! overlapping pieces) to the default (many decompressed files whole in
//! one chunk). Everywhere through the pipeline simulated on the CPU
//! (`GPUGREP_GPU_SIMULATE=1`); on a GPU as well when there is one, with
//! few processes (each starts CUDA).

mod common;

use common::{compress, real_gpu, run_engine, XorShift, COMPRESSED as FORMATS};
use std::path::Path;
use std::process::Output;

fn run(engine: &str, args: &[String], dir: &Path, env: &[(&str, String)]) -> Output {
    let args: Vec<String> = std::iter::once("--decompress".to_string())
        .chain(args.iter().cloned())
        .collect();
    run_engine(engine, &args, dir, env)
}

/// `text` cut at `cuts` into members or frames, each compressed alone.
fn members(format: &str, text: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().copied().filter(|&c| c > 0 && c < text.len()));
    bounds.push(text.len());
    bounds.sort_unstable();
    bounds.dedup();
    bounds
        .windows(2)
        .flat_map(|w| compress(format, &text[w[0]..w[1]]))
        .collect()
}

/// Lines of words from a small alphabet, so that literals match often.
fn text(rng: &mut XorShift, lines: usize) -> Vec<u8> {
    let words = ["alpha", "beta", "ab", "ba", "gamma", "a_b", "ERROR", "x"];
    let mut t = Vec::new();
    for _ in 0..lines {
        for w in 0..rng.below(8) {
            if w > 0 {
                t.push(b' ');
            }
            t.extend_from_slice(rng.pick(&words).as_bytes());
        }
        t.push(b'\n');
    }
    t
}

fn compare(label: &str, gpu: &Output, cpu: &Output) -> bool {
    let same = gpu.stdout == cpu.stdout
        && gpu.stderr == cpu.stderr
        && gpu.status.code() == cpu.status.code();
    if !same {
        eprintln!(
            "{label}\n  gpu: rc {:?} {:?} {:?}\n  cpu: rc {:?} {:?} {:?}",
            gpu.status.code(),
            String::from_utf8_lossy(&gpu.stdout)
                .chars()
                .take(400)
                .collect::<String>(),
            String::from_utf8_lossy(&gpu.stderr),
            cpu.status.code(),
            String::from_utf8_lossy(&cpu.stdout)
                .chars()
                .take(400)
                .collect::<String>(),
            String::from_utf8_lossy(&cpu.stderr),
        );
    }
    same
}

/// Writes a random mix of files into `dir`; returns their names.
fn random_files(rng: &mut XorShift, dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for f in 0..1 + rng.below(7) {
        let lines = match rng.below(6) {
            0 => 0,
            1 => 2000 + rng.below(4000),
            _ => rng.below(60),
        };
        let mut t = text(rng, lines);
        if !t.is_empty() && rng.below(15) == 0 {
            let at = rng.below(t.len());
            t[at] = 0; // binary
        }
        if rng.below(20) == 0 {
            t.splice(0..0, [0xef, 0xbb, 0xbf]);
        }
        let format = FORMATS[rng.below(FORMATS.len())];
        let (name, data) = match rng.below(8) {
            0 => (format!("p{f}.txt"), t),
            1 => {
                let cuts: Vec<usize> = (0..rng.below(5)).map(|_| rng.below(t.len() + 1)).collect();
                (format!("m{f}"), members(format, &t, &cuts))
            }
            2 => {
                // Truncated, or damaged in its middle.
                let mut z = compress(format, &t);
                if rng.below(2) == 0 {
                    let keep = 6 + rng.below(z.len().saturating_sub(6).max(1));
                    z.truncate(keep.min(z.len().saturating_sub(1)).max(6));
                } else {
                    let mid = z.len() / 2;
                    let end = (mid + 8).min(z.len());
                    z[mid..end].iter_mut().for_each(|b| *b ^= 0x5A);
                }
                (format!("bad{f}"), z)
            }
            _ => (format!("z{f}"), compress(format, &t)),
        };
        std::fs::write(dir.join(&name), data).unwrap();
        names.push(name);
    }
    names
}

/// Random files, options and chunk sizes; `gpu_env` runs the pipeline
/// (simulated, or on the GPU when empty).
fn differential(cases: usize, seed: u64, gpu_env: &[(&str, String)]) {
    let mut rng = XorShift(seed);
    let mut mismatches = 0;
    let literals: Vec<String> = (0..1000).map(|i| format!("w{i}x")).collect();
    for case in 0..cases {
        let dir = tempfile::tempdir().unwrap();
        let names = random_files(&mut rng, dir.path());
        let mut args: Vec<String> = Vec::new();
        for _ in 0..rng.below(3) {
            let opt = rng.pick(&[
                "-c",
                "-n",
                "-b",
                "-o",
                "-v",
                "-w",
                "-l",
                "-L",
                "-q",
                "-m2",
                "-A1",
                "-B2",
                "-C1",
                "-h",
                "-i",
                "--count-matches",
                "-c",
                "-l",
            ]);
            args.push(opt.to_string());
        }
        match rng.below(4) {
            0 => {
                // A set of 1,000 literals (the multi kernel), a few of which
                // occur.
                let mut set = literals.clone();
                set.extend(["ERROR", "a_b", "beta"].iter().map(|s| s.to_string()));
                std::fs::write(dir.path().join("pats"), set.join("\n") + "\n").unwrap();
                args.extend(["-F", "-f", "pats"].iter().map(|s| s.to_string()));
            }
            1 => {
                // Required literals, or (under --engine gpu) the automaton.
                let re = rng.pick(&["ab|ERROR", "[ab]{2} [gx]", "a$"]);
                args.extend(["-E".to_string(), "-e".to_string(), re.to_string()]);
            }
            _ => {
                let p = rng.pick(&["alpha", "ab", "a ", "ERROR", "x\n", "ba ab", "zzz"]);
                args.extend(["-F".to_string(), "-e".to_string(), p.to_string()]);
            }
        }
        args.extend(names.iter().cloned());
        let mut env = gpu_env.to_vec();
        match rng.below(4) {
            0 => env.push(("GPUGREP_GPU_CHUNK", (8 + rng.below(64)).to_string())),
            1 => env.push(("GPUGREP_GPU_CHUNK", (1000 + rng.below(30000)).to_string())),
            _ => {}
        }
        if rng.below(2) == 0 {
            // Members and frames decompressed on several threads.
            env.push(("GPUGREP_DECOMPRESS_BLOCK", "64".to_string()));
            args.insert(0, "-j3".to_string());
        }
        // Simulated, some cases run auto: the CPU takes files until the
        // pipeline's backend arrives, then the GPU the rest.
        let engine = match !gpu_env.is_empty() && rng.below(3) == 0 {
            true => {
                env.push(("GPUGREP_GPU_SIMULATE_DELAY", rng.below(20).to_string()));
                "auto"
            }
            false => "gpu",
        };
        let gpu = run(engine, &args, dir.path(), &env);
        let cpu_env: Vec<_> = env
            .iter()
            .filter(|(k, _)| *k == "GPUGREP_DECOMPRESS_BLOCK")
            .cloned()
            .collect();
        let cpu = run("cpu", &args, dir.path(), &cpu_env);
        if !compare(&format!("case {case}: {args:?} {env:?}"), &gpu, &cpu) {
            mismatches += 1;
            if mismatches > 5 {
                break;
            }
        }
    }
    assert_eq!(mismatches, 0);
}

fn simulated() -> Vec<(&'static str, String)> {
    vec![("GPUGREP_GPU_SIMULATE", "1".to_string())]
}

#[test]
fn simulated_pipeline_decompresses_what_the_cpu_engine_does() {
    let cases = std::env::var("GPUGREP_E2E_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    differential(cases, 0x5eed_dec0_de00_0001, &simulated());
}

#[test]
fn gpu_decompresses_what_the_cpu_engine_does() {
    if real_gpu() {
        differential(40, 0x5eed_dec0_de00_0002, &[]);
    }
}

/// Every format, one file larger than a chunk of each and small ones,
/// every output option, at chunk sizes that pour the large files into many
/// pieces or hold them whole. The GPU side runs once per option with all
/// files at once (one CUDA start on a GPU).
#[test]
fn every_format_and_output_option_prints_what_the_cpu_engine_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x0dec_0123_4567_89ab);
    let big = text(&mut rng, 3000);
    let small = text(&mut rng, 20);
    let mut names = Vec::new();
    for (k, format) in FORMATS.iter().enumerate() {
        let name = format!("big{k}");
        std::fs::write(dir.path().join(&name), compress(format, &big)).unwrap();
        names.push(name);
        let name = format!("small{k}");
        std::fs::write(dir.path().join(&name), compress(format, &small)).unwrap();
        names.push(name);
    }
    // Multi-member gzip and multi-frame zstd, cut inside lines.
    let cuts = [1000, 1001, 20_000, 33_333];
    std::fs::write(dir.path().join("multi.gz"), members("gz", &big, &cuts)).unwrap();
    std::fs::write(dir.path().join("multi.zst"), members("zst", &big, &cuts)).unwrap();
    std::fs::write(dir.path().join("plain.txt"), &small).unwrap();
    let mut cut = compress("gz", &big);
    cut.truncate(cut.len() / 2);
    std::fs::write(dir.path().join("truncated.gz"), cut).unwrap();
    let mut bad = compress("zst", &big);
    let mid = bad.len() / 2;
    bad[mid..mid + 16].fill(0xA5);
    std::fs::write(dir.path().join("corrupt.zst"), bad).unwrap();
    names.extend(
        [
            "multi.gz",
            "multi.zst",
            "plain.txt",
            "truncated.gz",
            "corrupt.zst",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let options: [&[&str]; 13] = [
        &["-c"],
        &["-l"],
        &["-L"],
        &["-q"],
        &["-n"],
        &["-o", "-b"],
        &["-b"],
        &["-C2", "-n"],
        &["-A1"],
        &["--count-matches"],
        &["-c", "-v"],
        &["-m3", "-n"],
        &["-w", "-c"],
    ];
    let gpu = real_gpu();
    let mut bad_runs = 0;
    for opts in options {
        for (pattern, chunk) in [
            ("ERROR", "100"),
            ("gamma beta", "4096"),
            ("zzz", "100"),
            ("alpha", ""),
        ] {
            let mut args: Vec<String> = opts.iter().map(|s| s.to_string()).collect();
            args.extend(["-F".into(), "-e".into(), pattern.into()]);
            args.extend(names.iter().cloned());
            let cpu = run("cpu", &args, dir.path(), &[]);
            let mut env = simulated();
            if !chunk.is_empty() {
                env.push(("GPUGREP_GPU_CHUNK", chunk.to_string()));
            }
            let sim = run("gpu", &args, dir.path(), &env);
            if !compare(&format!("simulated {args:?} chunk {chunk}"), &sim, &cpu) {
                bad_runs += 1;
            }
            if gpu && chunk != "100" {
                let real = run("gpu", &args, dir.path(), &env[1..]);
                if !compare(&format!("gpu {args:?} chunk {chunk}"), &real, &cpu) {
                    bad_runs += 1;
                }
            }
        }
    }
    assert_eq!(bad_runs, 0);
}

/// `--stats` and `--debug` say where compressed files were searched:
/// decompressed into the GPU's chunks (whole or cut into pieces), or left
/// to the CPU engine when damaged.
#[test]
fn stats_say_where_compressed_files_were_searched() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(7);
    let big = text(&mut rng, 500);
    std::fs::write(dir.path().join("a.gz"), compress("gz", &big)).unwrap();
    std::fs::write(dir.path().join("b.zst"), compress("zst", b"ERROR one\n")).unwrap();
    let mut cut = compress("xz", &big);
    cut.truncate(cut.len() - 10);
    std::fs::write(dir.path().join("c.xz"), cut).unwrap();
    let args: Vec<String> = ["--stats", "-c", "ERROR", "a.gz", "b.zst", "c.xz"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut env = simulated();
    env.push(("GPUGREP_GPU_CHUNK", "2000".to_string()));
    let out = run("gpu", &args, dir.path(), &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let total = big.len() + "ERROR one\n".len();
    let line = format!("\ndecompress: 2 compressed files decompressed into the GPU's chunks ({total} bytes, 1 of them cut into pieces;");
    assert!(stderr.contains("\nengine gpu\n"), "{stderr}");
    assert!(stderr.contains(&line), "{stderr}");
    assert!(
        stderr.contains("1 left to the CPU engine (unreadable or damaged)\n"),
        "{stderr}"
    );
    assert!(
        stderr.starts_with("gpugrep: c.xz: truncated xz data"),
        "{stderr}"
    );
    let mut debug = args.clone();
    debug[0] = "--debug".into();
    let out = run("gpu", &debug, dir.path(), &env);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "gpugrep: debug: decompress: 2 compressed files decompressed into the GPU's chunks"
        ),
        "{stderr}"
    );
}

/// Regression: a decompressed file poured into pieces (larger than a chunk)
/// that starts with a UTF-8 byte-order mark went whole to the CPU engine
/// under a rule pack. Now its pieces stay on the GPU and its first line is
/// judged after the mark on the CPU (`bom_line`): `^err [0-9]+` selects it
/// there, `^.err` only with the mark in it.
#[test]
fn poured_file_with_a_bom_keeps_its_first_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut t = "\u{feff}err 12\n".as_bytes().to_vec();
    for i in 0..400 {
        t.extend_from_slice(format!("line {i} abc\n").as_bytes());
    }
    t.extend_from_slice(b"err 7\n");
    std::fs::write(dir.path().join("f.gz"), compress("gz", &t)).unwrap();
    let mut only = "\u{feff}err 1\nabc\n".as_bytes().to_vec();
    for i in 0..300 {
        only.extend_from_slice(format!("x {i}\n").as_bytes());
    }
    std::fs::write(dir.path().join("only.gz"), compress("gz", &only)).unwrap();
    std::fs::write(
        dir.path().join("rules.txt"),
        "^err [0-9]+\n^.err\nFAIL.*x\n",
    )
    .unwrap();
    for flags in [
        &["-c"][..],
        &["-v", "-c"],
        &["-l"],
        &["-L"],
        &["-n"],
        &["-x", "-c"],
    ] {
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["--stats", "-E", "-f", "rules.txt", "f.gz", "only.gz"].map(String::from));
        let mut env = simulated();
        env.push(("GPUGREP_RULE_PACK", "rules".to_string()));
        env.push(("GPUGREP_GPU_CHUNK", "256".to_string()));
        let gpu = run("gpu", &args, dir.path(), &env);
        let cpu = run("cpu", &args, dir.path(), &env[1..2]);
        assert!(
            gpu.stdout == cpu.stdout && gpu.status.code() == cpu.status.code(),
            "{flags:?}\n{}\n{}",
            String::from_utf8_lossy(&gpu.stdout),
            String::from_utf8_lossy(&cpu.stdout)
        );
        let err = String::from_utf8_lossy(&gpu.stderr);
        assert!(!err.contains("byte-order mark"), "{flags:?}\n{err}");
        assert!(err.contains("engine gpu"), "{flags:?}\n{err}");
    }
    let counts = run(
        "cpu",
        &["-c", "-E", "-f", "rules.txt", "f.gz", "only.gz"].map(String::from),
        dir.path(),
        &[],
    );
    assert_eq!(
        String::from_utf8_lossy(&counts.stdout),
        "f.gz:2\nonly.gz:1\n"
    );
}
