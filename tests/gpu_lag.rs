//! Auto beside a GPU slower than the CPU engine (simulated, so these run
//! anywhere): once the GPU lags, workers take back files it claimed, begun
//! or not (`board/lag.rs`), and what is printed is still what `--engine cpu`
//! prints.

mod common;
use common::{Output, Sandbox, XorShift};

/// One file the CPU engine takes a while over (so that auto starts the
/// GPU before it finished anything), then 30 small ones; 250 rules, a
/// rule pack.
fn corpus(s: &Sandbox) {
    let mut rng = XorShift(11);
    let mut line = |i: usize| {
        let tail = rng.pick(&["ok", "ERROR disk", "warn x", "fail y"]);
        format!(
            "line {i} value {} code{} {tail}\n",
            rng.below(100_000),
            rng.below(300)
        )
    };
    let first: String = (0..100_000).map(&mut line).collect();
    s.write("a-first.log", first);
    for f in 0..30 {
        let text: String = (0..1_000).map(&mut line).collect();
        s.write(&format!("f{f:02}.log"), text);
    }
    let rules: String = (0..250)
        .map(|r| format!("value [0-9]*{r} code{r} (ERROR|fail)\n"))
        .collect();
    s.write("rules.txt", rules);
}

fn run(s: &Sandbox, engine: &str, args: &[&str]) -> Output {
    let engine = format!("--engine={engine}");
    let all: Vec<&str> = [&[engine.as_str(), "-j1", "--stats"], args].concat();
    s.grep(&all)
        .env("GPUGREP_GPU_SIMULATE", "1")
        // Each 16 KiB chunk takes 100 ms: under 1 MB/s.
        .env("GPUGREP_GPU_SIMULATE_SLOW", "100")
        .env("GPUGREP_GPU_CHUNK", "16K")
        .run()
}

fn sorted(out: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = out.split(|&b| b == b'\n').collect();
    lines.sort();
    lines
}

/// Files taken back, from the `--stats` line.
fn taken_back(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("cpu: "))
        .unwrap_or("");
    let words: Vec<&str> = line.split(' ').collect();
    words
        .windows(4)
        .find(|w| w[1..] == ["of", "them", "taken"])
        .and_then(|w| w[0].parse().ok())
        .unwrap_or(0)
}

/// Without taking files back this ran 26 s (the GPU had claimed every
/// file, the large one included, when it was ready).
#[test]
fn files_taken_back_from_a_lagging_gpu_print_what_the_cpu_prints() {
    let s = Sandbox::new();
    corpus(&s);
    for args in [&["-c"][..], &["-n"], &["-v", "-c"], &["--count-matches"]] {
        let args: Vec<&str> = [args, &["-E", "-f", "rules.txt", "-r", "."]].concat();
        let cpu = run(&s, "cpu", &args);
        let auto = run(&s, "auto", &args);
        assert_eq!(cpu.code, 0, "{args:?}: {}", cpu.stderr);
        assert_eq!(auto.code, 0, "{args:?}: {}", auto.stderr);
        assert!(
            sorted(&auto.stdout) == sorted(&cpu.stdout),
            "{args:?}: auto printed\n{}\nthe CPU engine\n{}",
            String::from_utf8_lossy(&auto.stdout),
            String::from_utf8_lossy(&cpu.stdout)
        );
        assert!(taken_back(&auto.stderr) > 0, "{args:?}: {}", auto.stderr);
        // Its pace is judged after a second (the files are too few bytes
        // for the early verdict), and `--stats` says so.
        assert!(
            auto.stderr
                .contains("whose kernels bound the run (its lanes busy, under 2 GiB/s)"),
            "{args:?}: {}",
            auto.stderr
        );
    }
}
