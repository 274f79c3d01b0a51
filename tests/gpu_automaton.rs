//! Rule packs on the GPU's automaton (issue 17).
//!
//! * `kernel_matches_reference`: the `automaton` kernel through a lane
//!   against its CPU reference (`Automaton::reference`) on random packs and
//!   texts (long lines across tiles, empty lines, NUL terminators). Skips
//!   (and passes) without a usable GPU. `GPUGREP_DIFF_CASES` = cases
//!   (default 2000), `GPUGREP_DIFF_SMALL=1` = a hundred small cases, for
//!   `compute-sanitizer`.
//! * `simulated_pipeline_prints_what_cpu_engine_prints`: whole runs of
//!   `--engine gpu` through the pipeline simulated on the CPU
//!   (`GPUGREP_GPU_SIMULATE=1`), chunks forced small so files are cut
//!   across them, CRLF and byte-order-marked files, against `--engine cpu`.
//!   `gpu_pipeline_prints_what_cpu_engine_prints` is the same on a GPU.
//!   `GPUGREP_E2E_CASES` = cases (default 60).

mod common;

use common::{bin, XorShift};
use gpugrep::engine::gpu::{ChunkFound, GpuEngine, Target};
use gpugrep::pattern::glushkov;
use std::process::{Command, Output};

const PIECES: &[&str] = &[
    "a",
    "b",
    "ab",
    "x",
    "[ab]",
    "[^a\\n]",
    ".",
    "[0-9]",
    "\\d",
    "[a-cx]",
    "é",
    "(?:a|b)",
    "[[:upper:]]",
    "\\S",
    "\\w{70}",
];
const OPS: &[&str] = &["", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}"];

/// A random rule with no long literal: pieces, repeated, alternated,
/// sometimes anchored.
fn rule(rng: &mut XorShift) -> String {
    let mut r = String::new();
    if rng.below(4) == 0 {
        r.push('^');
    }
    let parts = 1 + rng.below(4);
    for _ in 0..parts {
        let piece = if rng.below(5) == 0 {
            format!(
                "(?:{}|{})",
                PIECES[rng.below(PIECES.len())],
                PIECES[rng.below(PIECES.len())]
            )
        } else {
            PIECES[rng.below(PIECES.len())].to_string()
        };
        let op = OPS[rng.below(OPS.len())];
        if op.is_empty() {
            r += &piece;
        } else {
            r += &format!("(?:{piece}){op}");
        }
    }
    if rng.below(4) == 0 {
        r.push('$');
    }
    r
}

fn text(rng: &mut XorShift, len: usize, t: u8) -> Vec<u8> {
    const BITS: &[&[u8]] = &[
        b"a",
        b"b",
        b"x",
        b"ab",
        b"0",
        b"7",
        b" ",
        b"A",
        "é".as_bytes(),
        b"\r",
        b"zzzz",
        b"\xff",
        b"\xEF\xBB\xBF",
    ];
    let mut v = Vec::with_capacity(len + 8);
    // Some texts have very long lines (across tiles and chunk cuts).
    let line_every = [3, 8, 40, 5000][rng.below(4)];
    while v.len() < len {
        if rng.below(line_every) == 0 {
            v.push(t);
        } else {
            v.extend_from_slice(BITS[rng.below(BITS.len())]);
        }
    }
    v.truncate(len);
    v
}

fn cases(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn kernel_matches_reference() {
    let engine = match GpuEngine::open() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("skipped: no GPU: {e}");
            return;
        }
    };
    let mut lane = engine.lane().expect("a lane");
    let small = std::env::var("GPUGREP_DIFF_SMALL").is_ok_and(|v| v == "1");
    let n = if small {
        100
    } else {
        cases("GPUGREP_DIFF_CASES", 2000)
    };
    let mut rng = XorShift(0x17_a070);
    let (mut checked, mut mismatches) = (0, 0);
    for case in 0..n {
        let t = if rng.below(8) == 0 { 0 } else { b'\n' };
        let most = if rng.below(4) == 0 { 300 } else { 6 };
        let rules: Vec<String> = (0..1 + rng.below(most)).map(|_| rule(&mut rng)).collect();
        // A quarter with -w's boundaries in the automaton.
        let (ci, word) = (rng.below(3) == 0, rng.below(4) == 0);
        let built = match word {
            true => glushkov::word::for_expressions(&rules, ci, t),
            false => glushkov::for_expressions(&rules, ci, t),
        };
        let Ok(a) = built else {
            continue;
        };
        let max = if small {
            3000
        } else {
            [100, 5000, 40000, 200000][rng.below(4)]
        };
        let len = rng.below(max) + 1;
        let txt = text(&mut rng, len, t);
        let want = a.reference(&txt);
        let target = Target::Automaton(Box::new(a));
        let got = match lane.search_target(&txt, &target, None, u64::MAX, None) {
            Ok(ChunkFound::Offsets(v)) => v,
            other => panic!("case {case}: unexpected {other:?}"),
        };
        checked += 1;
        if got != want {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "case {case}: rules {rules:?} len {len}: gpu {} starts, reference {}; first difference at {:?}",
                    got.len(),
                    want.len(),
                    got.iter().zip(&want).position(|(g, w)| g != w)
                );
            }
        }
    }
    eprintln!("automaton kernel: {checked} cases, {mismatches} mismatches");
    assert_eq!(mismatches, 0);
}

fn run(engine: &str, args: &[String], dir: &std::path::Path, env: &[(&str, String)]) -> Output {
    Command::new(bin())
        .arg(format!("--engine={engine}"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .env_remove("GREP_COLORS")
        .output()
        .expect("run gpugrep")
}

fn differential(simulated: bool) {
    let n = cases("GPUGREP_E2E_CASES", 60);
    let mut rng = XorShift(0x17_e2e);
    let (mut on_automaton, mut tallied) = (0, 0);
    for case in 0..n {
        let dir = tempfile::tempdir().unwrap();
        let files = 1 + rng.below(4);
        let mut total = 0;
        for f in 0..files {
            let len = [0, 30, 300, 3000, 20000][rng.below(5)];
            let mut body = text(&mut rng, len, b'\n');
            total += body.len();
            match rng.below(4) {
                0 => body.splice(0..0, *b"\xef\xbb\xbf").for_each(drop),
                1 => {
                    body = body
                        .split(|&b| b == b'\n')
                        .collect::<Vec<_>>()
                        .join(&b"\r\n"[..])
                }
                _ => {}
            }
            std::fs::write(dir.path().join(format!("f{f}.txt")), body).unwrap();
        }
        let mut args: Vec<String> = vec!["-r".into(), "-E".into(), "--debug".into()];
        let opts = [
            "-n", "-c", "-l", "-L", "-q", "-i", "-x", "-w", "-v", "-o", "-b", "-H",
        ];
        for _ in 0..rng.below(3) {
            args.push(opts[rng.below(opts.len())].into());
        }
        for _ in 0..1 + rng.below(5) {
            args.push("-e".into());
            args.push(rule(&mut rng));
        }
        args.push(".".into());
        let mut env = Vec::new();
        if simulated {
            env.push(("GPUGREP_GPU_SIMULATE", "1".to_string()));
        }
        let chunk = [0, 7, 64, 1000, 4096][rng.below(5)];
        if chunk > 0 {
            env.push(("GPUGREP_GPU_CHUNK", chunk.max(total / 2000).to_string()));
        }
        let gpu = run("gpu", &args, dir.path(), &env);
        let cpu = run("cpu", &args, dir.path(), &[]);
        let err = String::from_utf8_lossy(&gpu.stderr);
        if err.contains("gpu: automaton kernel") {
            on_automaton += 1;
            // An exact automaton's marks are its lines: counted on the GPU.
            let tallied_chunks = err
                .split(" tallied on the GPU")
                .next()
                .and_then(|head| head.rsplit(' ').next())
                .and_then(|n| n.parse::<u64>().ok());
            tallied += usize::from(tallied_chunks.is_some_and(|n| n > 0));
        }
        assert_eq!(
            (gpu.status.code(), &gpu.stdout),
            (cpu.status.code(), &cpu.stdout),
            "case {case}: {args:?} {env:?}\n{err}"
        );
    }
    eprintln!("{n} cases, {on_automaton} of them on the automaton, {tallied} tallied there");
    assert!(
        on_automaton * 3 >= n,
        "{on_automaton} of {n} cases took the automaton"
    );
    assert!(tallied > 0, "no case of {n} was tallied on the GPU");
}

#[test]
fn simulated_pipeline_prints_what_cpu_engine_prints() {
    differential(true);
}

#[test]
fn gpu_pipeline_prints_what_cpu_engine_prints() {
    let probe = tempfile::tempdir().unwrap();
    std::fs::write(probe.path().join("x"), b"x\n").unwrap();
    let args = ["-q".to_string(), "x".to_string(), "x".to_string()];
    if run("gpu", &args, probe.path(), &[]).status.code() != Some(0) {
        eprintln!("skipped: no GPU");
        return;
    }
    differential(false);
}

/// Every line of a file cut across tiny chunks is checked: a line longer
/// than the overlap across a cut sends the file to the CPU, shorter ones
/// are found by the piece that holds them whole.
#[test]
fn cut_files_keep_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut body = Vec::new();
    for i in 0..400 {
        body.extend_from_slice(format!("{}x{}\n", "a".repeat(i % 37), i % 10).as_bytes());
        // Only the whole line matches `^[bc] [ad]*x[37]$`: no piece that starts
        // or ends inside it can find it.
        body.extend_from_slice(format!("b {}x{}\n", "a".repeat(i % 300), i % 10).as_bytes());
    }
    std::fs::write(dir.path().join("short"), &body).unwrap();
    let mut long = body.clone();
    long.extend_from_slice(&b"b".repeat(5000));
    long.extend_from_slice(b"x7\r\n\xef\xbb\xbfx3\n");
    std::fs::write(dir.path().join("long"), &long).unwrap();
    for chunk in ["16", "100", "1000", "3000", "100000"] {
        let args: Vec<String> = [
            "-c",
            "-E",
            "-e",
            "^[ad]{3,5}x[37]$",
            "-e",
            "[b7]x[0-9]\r?$",
            "-e",
            "^[bc] [ad]*x[37]$",
            "-e",
            "[0-9]{2}[a-z]{2,}[0-9]",
            "short",
            "long",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let env = [
            ("GPUGREP_GPU_SIMULATE", "1".to_string()),
            ("GPUGREP_GPU_CHUNK", chunk.to_string()),
        ];
        let gpu = run("gpu", &args, dir.path(), &env);
        let cpu = run("cpu", &args, dir.path(), &[]);
        let err = String::from_utf8_lossy(&gpu.stderr);
        assert_eq!(gpu.stdout, cpu.stdout, "chunk {chunk}: {err}");
        let debug = run(
            "gpu",
            &[&["--debug".to_string()], &args[..]].concat(),
            dir.path(),
            &env,
        );
        assert!(String::from_utf8_lossy(&debug.stderr).contains("gpu: automaton kernel"));
    }
}
