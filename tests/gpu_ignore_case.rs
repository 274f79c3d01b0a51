//! `-i` literal sets through the GPU pipeline against `--engine cpu`:
//! text and patterns of ASCII letters in both cases (k and s among them),
//! the Kelvin sign and the long s (in the orbits of k and s), cased
//! non-ASCII letters (é/É, ß/ẞ) and the Turkish İ/ı (which simple case
//! folding keeps apart from i), searched with `-i` and `-F`/`-f`, with
//! `-o`, `-c`, `--count-matches`, `-w`, `-x`, `-n`, `-v`, `-l`. Past 16
//! literals (or for ASCII letters other than k and s) the set is
//! ASCII-folded literals plus their case variants beyond ASCII, the
//! `multi` kernel folding ASCII (`GpuPlan::FoldedSet`); up to 16 with k, s
//! or non-ASCII letters the CPU engine keeps the regex and the GPU its
//! case variants. Runs simulated
//! (`GPUGREP_GPU_SIMULATE=1`) everywhere, on the real GPU where there is
//! one. `GPUGREP_E2E_CASES` sets the number of cases (default 100
//! simulated, 300 on the GPU).

mod common;

use common::{real_gpu, run_engine, same_run, show_runs, XorShift};

const CHARS: &[&str] = &[
    "a", "A", "k", "K", "s", "S", "\u{212A}", "\u{17F}", "é", "É", "ß", "\u{1E9E}", "i", "I", "İ",
    "ı", "t", "T", " ", " ", "_", "-", "\n",
];

fn string(rng: &mut XorShift, chars: usize, newlines: bool) -> String {
    let alphabet = match newlines {
        true => CHARS,
        false => &CHARS[..CHARS.len() - 1],
    };
    (0..chars)
        .map(|_| alphabet[rng.below(alphabet.len())])
        .collect()
}

fn cases(default: usize) -> usize {
    std::env::var("GPUGREP_E2E_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn differential(cases: usize, simulate: bool) -> usize {
    let mut rng = XorShift(0x1c45_e000_f01d);
    let mut mismatches = 0;
    for case in 0..cases {
        let dir = tempfile::tempdir().unwrap();
        let mut names = Vec::new();
        for f in 0..1 + rng.below(5) {
            let sizes = [
                0,
                rng.below(200),
                rng.below(5000),
                20_000 + rng.below(30_000),
            ];
            let chars = sizes[rng.below(4)];
            let name = format!("f{f}");
            std::fs::write(dir.path().join(&name), string(&mut rng, chars, true)).unwrap();
            names.push(name);
        }
        // Mostly more than 16 patterns (a folded set; up to 16 the CPU
        // engine keeps the regex, the GPU its case variants).
        let count = match rng.below(4) {
            0 => 1 + rng.below(16),
            _ => 17 + rng.below(40),
        };
        let patterns: Vec<String> = (0..count)
            .map(|_| {
                let chars = 1 + rng.below(5);
                string(&mut rng, chars, false)
            })
            .collect();
        std::fs::write(dir.path().join("pats"), patterns.join("\n") + "\n").unwrap();
        let mut args = vec!["-i".to_string()];
        if rng.below(4) != 0 {
            args.push("-F".into());
        }
        for _ in 0..rng.below(3) {
            let opt = rng.pick(&[
                "-o",
                "-c",
                "--count-matches",
                "-w",
                "-x",
                "-n",
                "-v",
                "-l",
                "-b",
                "-c",
            ]);
            args.push(opt.to_string());
        }
        args.extend(["-f".to_string(), "pats".to_string()]);
        args.extend(names.iter().cloned());
        let chunk = match rng.below(3) {
            0 => 64 + rng.below(4096),
            1 => 8192 + rng.below(40_000),
            _ => 64 << 20,
        };
        let mut env = vec![("GPUGREP_GPU_CHUNK", chunk.to_string())];
        if simulate {
            env.push(("GPUGREP_GPU_SIMULATE", "1".into()));
        }
        let gpu = run_engine("gpu", &args, dir.path(), &env);
        let cpu = run_engine("cpu", &args, dir.path(), &[]);
        if !same_run(&gpu, &cpu) {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "case {case}: args {args:?} patterns {patterns:?} env {env:?}\n{}",
                    show_runs(&gpu, &cpu)
                );
            }
        }
    }
    eprintln!("gpu_ignore_case: {cases} cases, {mismatches} mismatches");
    mismatches
}

#[test]
fn simulated_pipeline_ignore_case_prints_what_cpu_engine_prints() {
    assert_eq!(differential(cases(100), true), 0);
}

#[test]
fn gpu_ignore_case_prints_what_cpu_engine_prints() {
    if real_gpu() {
        assert_eq!(differential(cases(300), false), 0);
    }
}

/// Regression (issue 16): `-i -F -f` with words holding k, s or a
/// non-ASCII letter was a regex on the CPU (its case variants exceeded
/// their cap) and `--engine gpu` silently ran the CPU engine. It is a
/// literal set, folded in the `multi` kernel.
#[test]
fn ignore_case_word_list_runs_folded_on_the_gpu() {
    let dir = tempfile::tempdir().unwrap();
    let words: Vec<String> = (0..300).map(|i| format!("kiss{i}ness")).collect();
    std::fs::write(dir.path().join("w"), words.join("\n") + "\nCafé\n").unwrap();
    std::fs::write(dir.path().join("t"), "KI\u{17F}S7NESS\ncafÉ\nnone\n").unwrap();
    let args: Vec<String> = ["--debug", "-n", "-i", "-F", "-f", "w", "t"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sim = run_engine(
        "gpu",
        &args,
        dir.path(),
        &[("GPUGREP_GPU_SIMULATE", "1".into())],
    );
    let debug = String::from_utf8_lossy(&sim.stderr);
    assert!(
        debug.contains("(-i: 301 literal(s) as ASCII-folded literals"),
        "{debug}"
    );
    assert!(debug.contains("ASCII case folded in the kernel"), "{debug}");
    assert_eq!(
        String::from_utf8_lossy(&sim.stdout),
        "1:KI\u{17F}S7NESS\n2:cafÉ\n"
    );
    let cpu = run_engine("cpu", &args[1..], dir.path(), &[]);
    assert_eq!(sim.stdout, cpu.stdout);
}
