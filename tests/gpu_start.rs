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
    let engine = format!("--engine={engine}");
    let all: Vec<&str> = [&[engine.as_str(), "-r"], args, &["."]].concat();
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
