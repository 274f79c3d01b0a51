//! The pipeline while the GPU starts (simulated, so these run anywhere):
//! where the GPU is sure to be the faster side the packer claims files and
//! the readers fill the staging ring before the backend is there. Whether
//! the backend then arrives or fails to start, what is printed is what
//! `--engine cpu` prints, except that `--engine gpu` ends with the start's
//! error (status 2) and prints nothing.

mod common;
use common::{Output, Sandbox, XorShift};

/// Files holding several rings' worth of bytes (the ring: 4 chunks of
/// 4 KiB with `GPUGREP_GPU_STAGING=16K`), so auto claims early too.
fn corpus(s: &Sandbox, rng: &mut XorShift) {
    for d in 0..4 {
        s.dir(&format!("d{d}"));
        for f in 0..30 {
            let mut text = Vec::new();
            for _ in 0..rng.below(60) {
                let words = ["alpha", "beta", "gamma", "delta", "needle", "hay"];
                for _ in 0..rng.below(8) + 1 {
                    text.extend_from_slice(rng.pick(&words).as_bytes());
                    text.push(b' ');
                }
                text.push(b'\n');
            }
            s.write(&format!("d{d}/f{f}.txt"), text);
        }
    }
}

const SIMULATED: [(&str, &str); 3] = [
    ("GPUGREP_GPU_SIMULATE", "1"),
    ("GPUGREP_GPU_CHUNK", "4K"),
    ("GPUGREP_GPU_STAGING", "16K"),
];

fn run(s: &Sandbox, engine: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let recursive: Vec<&str> = [&["-r"], args].concat();
    run_named(s, engine, &recursive, &[".".to_string()], env)
}

/// As [`run`], over files named (no `-r`): `files`.
fn run_named(
    s: &Sandbox,
    engine: &str,
    args: &[&str],
    files: &[String],
    env: &[(&str, &str)],
) -> Output {
    let engine = format!("--engine={engine}");
    let names: Vec<&str> = files.iter().map(String::as_str).collect();
    let all: Vec<&str> = [&[engine.as_str()], args, &names].concat();
    let mut cmd = s.grep(&all);
    for (k, v) in env {
        cmd = cmd.env(k, v);
    }
    cmd.run()
}

#[test]
fn files_claimed_before_the_gpu_is_ready_print_what_the_cpu_prints() {
    let s = Sandbox::new();
    let mut rng = XorShift(7);
    corpus(&s, &mut rng);
    for args in [
        &["-c", "-F", "needle"][..],
        &["-n", "-e", "needle", "-e", "gamma"],
        &["-v", "-c", "hay"],
        // Auto waits to start the GPU here (the CPU may take every file
        // first): either way, the CPU's answer.
        &["-l", "needle"],
        &["-L", "-e", "needle", "-e", "delta"],
    ] {
        let want = run(&s, "cpu", args, &[]);
        for delay in ["0", "15"] {
            for fail in ["0", "1"] {
                let mut env = SIMULATED.to_vec();
                env.extend([
                    ("GPUGREP_GPU_SIMULATE_DELAY", delay),
                    ("GPUGREP_GPU_SIMULATE_FAIL", fail),
                ]);
                let got = run(&s, "auto", args, &env);
                assert_eq!(
                    got.stdout, want.stdout,
                    "{args:?} delay {delay} fail {fail}"
                );
                assert_eq!(got.code, want.code);
                assert!(got.stderr.is_empty(), "{}", got.stderr);
                if fail == "0" {
                    let got = run(&s, "gpu", args, &env);
                    assert_eq!(got.stdout, want.stdout, "{args:?} gpu delay {delay}");
                }
            }
        }
    }
}

/// `--engine gpu` whose GPU fails to start while the first chunks were
/// read: the start's error and status 2, nothing printed, as when no GPU
/// was found at all.
#[test]
fn engine_gpu_that_fails_to_start_prints_nothing_and_exits_2() {
    let s = Sandbox::new();
    let mut rng = XorShift(8);
    corpus(&s, &mut rng);
    for delay in ["0", "20"] {
        let mut env = SIMULATED.to_vec();
        env.extend([
            ("GPUGREP_GPU_SIMULATE_DELAY", delay),
            ("GPUGREP_GPU_SIMULATE_FAIL", "1"),
        ]);
        let got = run(&s, "gpu", &["-c", "needle"], &env);
        assert_eq!(got.stdout, b"", "delay {delay}");
        assert_eq!(
            got.stderr,
            "gpugrep: GPU engine not available: simulated start failure\n"
        );
        assert_eq!(got.code, 2);
    }
}

/// Auto lists the inputs beside the compile of a rule pack (from 200
/// expressions, `prewarm::beside_compile`); whether the search then
/// runs on the pipeline (simulated) or on the CPU engine (no GPU, or a
/// search auto keeps there), and with a file of the tree named twice or a
/// missing one, what is printed is what `--engine cpu` prints.
#[test]
fn a_large_rule_pack_listed_beside_its_compile_prints_what_the_cpu_prints() {
    let s = Sandbox::new();
    let mut rng = XorShift(9);
    corpus(&s, &mut rng);
    for rules in [1100, 250] {
        let mut pack: Vec<String> = (0..rules).map(|i| format!("w{i}x+")).collect();
        pack.extend(["ne+dle", "gam(ma|mb)", "^delta"].map(String::from));
        s.write("pack.txt", pack.join("\n") + "\n");
        listed_beside_the_compile_prints_what_the_cpu_prints(&s);
    }
}

fn listed_beside_the_compile_prints_what_the_cpu_prints(s: &Sandbox) {
    for args in [
        &["-c", "-E", "-f", "pack.txt"][..],
        &["-n", "-E", "-f", "pack.txt"],
        &["-o", "-w", "-E", "-f", "pack.txt"],
        &["-c", "-i", "-E", "-f", "pack.txt"],
        &["-n", "-E", "-f", "pack.txt", "d1/f3.txt", "missing"],
    ] {
        let want = run(s, "cpu", args, &[]);
        for env in [&SIMULATED[..], &[]] {
            let got = run(s, "auto", args, env);
            assert_eq!(got.stdout, want.stdout, "{args:?} {env:?}");
            assert_eq!(got.stderr, want.stderr, "{args:?} {env:?}");
            assert_eq!(got.code, want.code, "{args:?} {env:?}");
        }
    }
}

/// Auto keeps a literal set whose printed lines are dense on the CPU
/// engine (its gate waits for a first file done, then weighs the lines),
/// and `--stats` says why: over prose, 1,000 words' `-n` and `-o` and
/// 10,000 words' `-o` were slower on the GPU (session 28: 6.6 s against
/// 5.4 s, 9.1 against 7.3, 79 against 48); the last started the GPU
/// before any file was done.
#[test]
fn auto_keeps_a_literal_sets_dense_printed_lines_on_the_cpu() {
    let s = Sandbox::new();
    let mut rng = XorShift(11);
    corpus(&s, &mut rng);
    for args in [
        &["-n", "-F", "-e", "alpha", "-e", "hay"][..],
        &["-o", "-F", "-e", "gamma", "-e", "needle"],
    ] {
        let want = run(&s, "cpu", args, &[]);
        let with_stats: Vec<&str> = [args, &["--stats"]].concat();
        let got = run(&s, "auto", &with_stats, &SIMULATED);
        assert_eq!(got.stdout, want.stdout, "{args:?}");
        assert!(
            got.stderr
                .contains("GPU not started: the CPU engine took every file first (")
                && got.stderr.contains(" printed lines in "),
            "{args:?}: {}",
            got.stderr
        );
        assert!(got.stderr.contains("engine cpu"), "{}", got.stderr);
    }
}

/// Auto and regexes without good literals over files named
/// (`run::gpu::settle`): under `-c` the automaton is built once the files
/// are listed (from 0 bytes when simulated) and CUDA starts by the CPU
/// engine's pace, or at once (the CPU engine sharing the files or
/// waiting), or not at all as the probe of that pace says
/// (`GPUGREP_AUTO_PROBE` here); printed lines, a candidate automaton
/// (`\b`), one regex and `-r` stay on the CPU engine, which builds none.
/// Every answer is the CPU engine's, with the GPU starting, late, or
/// failing.
#[test]
fn auto_counts_literal_less_regexes_as_the_cpu_does() {
    let s = Sandbox::new();
    let mut rng = XorShift(17);
    corpus(&s, &mut rng);
    let files: Vec<String> = (0..4)
        .flat_map(|d| (0..30).map(move |f| format!("d{d}/f{f}.txt")))
        .collect();
    let built = "engine: auto: the GPU may run the regex's automaton";
    let two = ["-E", "-e", "[a-e]+[ ][m-z]{2,}", "-e", "[d-h]{2}[ ][a-c]"];
    for (args, builds) in [
        ([&["-c"][..], &two].concat(), true),
        ([&["-c", "-v"][..], &two].concat(), true),
        (
            vec!["-c", "-x", "-E", "-e", "([a-z]+ ){2,3}", "-e", "[a-d]+ "],
            true,
        ),
        (
            vec!["-c", "-E", "-e", r"\b[a-h]{4}\b", "-e", "[a-c]{3} "],
            false,
        ),
        (vec!["-c", "-E", "[a-e]+[ ][m-z]{2,}"], false),
        ([&["-n"][..], &two].concat(), false),
        ([&["-l"][..], &two].concat(), false),
    ] {
        let args = &args[..];
        let want = run_named(&s, "cpu", args, &files, &[]);
        let starts = [("0", "0", ""), ("15", "0", ""), ("0", "1", "")];
        let verdicts = [
            ("0", "0", "ahead"),
            ("15", "0", "ahead"),
            ("0", "1", "ahead"),
            ("15", "0", "shared"),
            ("0", "0", "cpu"),
        ];
        for (delay, fail, verdict) in starts.into_iter().chain(verdicts) {
            let mut env = SIMULATED.to_vec();
            env.extend([
                ("GPUGREP_GPU_SIMULATE_DELAY", delay),
                ("GPUGREP_GPU_SIMULATE_FAIL", fail),
            ]);
            if !verdict.is_empty() {
                env.push(("GPUGREP_AUTO_PROBE", verdict));
            }
            let debug: Vec<&str> = [args, &["--debug"]].concat();
            let got = run_named(&s, "auto", &debug, &files, &env);
            assert_eq!(got.stdout, want.stdout, "{args:?} {env:?}");
            assert_eq!(got.code, want.code, "{args:?} {env:?}");
            assert_eq!(
                got.stderr.contains(built),
                builds,
                "{args:?}: {}",
                got.stderr
            );
            // The probe's verdict: these files are too small to sample,
            // so by the CPU engine's pace unless the knob says otherwise.
            let (said, kernel) = match verdict {
                "ahead" => ("the GPU far ahead, the CPU waits for it", true),
                "shared" => ("both engines sharing the files (GPUGREP_AUTO_PROBE)", true),
                "cpu" => ("the CPU engine alone (GPUGREP_AUTO_PROBE)", false),
                _ => ("no file holds a sample: CUDA's start by", true),
            };
            if builds {
                assert!(got.stderr.contains(said), "{said}: {}", got.stderr);
                let ran = got.stderr.contains("gpu: automaton kernel");
                assert_eq!(ran, kernel, "{env:?}: {}", got.stderr);
            }
        }
    }
    // The same search over the tree (-r): walked while searched.
    let args: Vec<&str> = [&["-c"][..], &two, &["--debug"]].concat();
    let got = run(&s, "auto", &args, &SIMULATED);
    assert!(!got.stderr.contains(built), "{}", got.stderr);
    assert_eq!(got.stdout, run(&s, "cpu", &args[..6], &[]).stdout);
}

/// The same where the CPU engine is slow enough (one thread, 3 regexes
/// without literals over 120 MB) that auto's gate usually opens and the
/// simulated GPU counts most files: the counts are the CPU engine's
/// either way. (Whether the gate opens is the CPU's pace on this machine,
/// so it is printed, not asserted.)
#[test]
fn auto_shares_a_slow_regexs_count_with_the_simulated_gpu() {
    let s = Sandbox::new();
    let mut rng = XorShift(23);
    for f in 0..10 {
        let mut text = Vec::with_capacity(12 << 20);
        while text.len() < 12 << 20 {
            let line = format!(
                "2026-11-{:02} {:02}:{:02} {}.{}.{}.{} id {:08x}-{:04x} {}\n",
                1 + rng.below(28),
                rng.below(24),
                rng.below(60),
                rng.below(256),
                rng.below(256),
                rng.below(9),
                rng.below(256),
                rng.below(u32::MAX as usize),
                rng.below(0x10000),
                rng.pick(&["IOException", "reset", "Timeout x", "ok"]),
            );
            text.extend_from_slice(line.as_bytes());
        }
        s.write(&format!("f{f}.log"), text);
    }
    s.write(
        "rules.txt",
        b"[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+ id f\n[0-9a-f]{8}-[0-9a-f]{4} [A-Z]\n[A-Z][a-z]+Exception\n",
    );
    let args = ["-j1", "-c", "-E", "-f", "rules.txt"];
    let files: Vec<String> = (0..10).map(|f| format!("f{f}.log")).collect();
    let want = run_named(&s, "cpu", &args, &files, &[]);
    let counts = String::from_utf8_lossy(&want.stdout).into_owned();
    assert!(
        counts.lines().count() == 10 && counts.lines().all(|l| !l.ends_with(":0")),
        "{counts}"
    );
    let env = [
        ("GPUGREP_GPU_SIMULATE", "1"),
        ("GPUGREP_GPU_CHUNK", "1M"),
        ("GPUGREP_GPU_STAGING", "8M"),
    ];
    let with_stats: Vec<&str> = [&args[..], &["--stats"]].concat();
    let got = run_named(&s, "auto", &with_stats, &files, &env);
    assert_eq!(got.stdout, want.stdout);
    assert_eq!(got.code, want.code);
    let shared = got
        .stderr
        .lines()
        .find(|l| l.starts_with("gpu: "))
        .unwrap_or("");
    eprintln!("{shared}");
    assert!(
        got.stderr.contains("rules on the automaton"),
        "{}",
        got.stderr
    );
    // The probe samples these files; made to find the GPU far ahead, auto
    // starts it at once and the CPU engine waits: the same counts.
    let mut ahead = env.to_vec();
    ahead.push(("GPUGREP_AUTO_PROBE", "ahead"));
    let with_debug: Vec<&str> = [&args[..], &["--debug"]].concat();
    let got = run_named(&s, "auto", &with_debug, &files, &ahead);
    assert_eq!(got.stdout, want.stdout);
    for said in [
        " GB/s, ",
        "the GPU far ahead (GPUGREP_AUTO_PROBE)",
        "the GPU far ahead, the CPU waits for it",
    ] {
        assert!(got.stderr.contains(said), "{said}: {}", got.stderr);
    }
}
