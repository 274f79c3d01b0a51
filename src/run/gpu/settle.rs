//! Auto and a rule's automaton decided late: regexes without good
//! literals (`Compiled::automaton_later`, two or more over files named,
//! `-c`) get their GPU automaton only once the inputs are listed and prove
//! large, so that everyday searches pay neither the build (0.3-4 ms on the
//! development VM) nor the driver's load. How CUDA then starts is a
//! probe's verdict (`probe`, [`by_probe`]): not at all, at once with the
//! CPU engine sharing the files or waiting for the GPU, or, with no file
//! to sample, by the CPU engine's live pace (`Search::paced`,
//! `start::PACED_MARGIN`).

use super::choose::{driver_present, literals_to_gpu, simulated, Wanted, AUTO_SPLIT_MAX_WORDS};
use super::debug;
use super::probe;
use super::start::gpu_seconds;
use crate::config::Config;
use crate::input::walk::Item;
use crate::knobs::{self, ProbeVerdict};
use crate::pattern::compile::GpuPlan;
use crate::pattern::glushkov;
use crate::pattern::Compiled;

/// A regex without good literals under auto (`Compiled::automaton_later`,
/// `-c`): its automaton is built from this many bytes of files per thread
/// of the run (7 GiB at 16 threads), and CUDA's start is the probe's
/// verdict ([`by_probe`]). Measured on H200 hosts, 16 threads, `-c`, 3, 10
/// and 30 regexes without literals and two e-mail forms (benches/
/// RESULTS.md, forty-eighth session, call 4): at 8 GiB of loghub and CI
/// logs (64 files or 1 MiB files; loghub's a few MB under 8 GiB) auto took
/// 0.93-1.13 times the faster engine's time (a fresh host's first run
/// 1.21-1.26), up to 2x faster than the CPU engine; at 4 GiB of CI logs,
/// where the probe took 10 and 30 regexes for about as fast as the GPU,
/// sharing the files ran 8-43 % behind the CPU engine alone (CUDA's start
/// outweighs the GPU's lead).
/// The CPU engine's speed grows with its threads, hence per thread.
pub const AUTO_AUTOMATON_BYTES_PER_THREAD: u64 = 448 << 20;

/// How many times the GPU's time ([`automaton_seconds`]) the CPU
/// engine's, probed, must be for CUDA to start at once with the CPU engine
/// waiting for it (`by_probe`). Measured (H200 hosts, 16 threads, `-c`, 16
/// GiB; benches/RESULTS.md, forty-eighth session): 3 regexes over loghub,
/// probed 1.9-2.4 times the GPU's estimate, the CPU engine 2.8 s, the GPU
/// alone 0.85-0.90 s, the two sharing the files 0.93-1.29 s; 10 regexes,
/// probed 1.4-1.7 times, 2.35 s, 1.15-1.28 s and 1.00-1.02 s (the CPU's
/// share pays). The probe reads no files and sets up none: it took the
/// CPU engine for 5-20 % faster than it was.
const AHEAD_MARGIN: f64 = 1.75;

/// How many times faster than the GPU the CPU engine, probed, must be to
/// search alone (`by_probe`): the probe and the GPU's estimate each missed
/// by a quarter to a half on 16 GiB of CI logs (10 and 30 regexes: probed
/// 1.18-1.43 s, the CPU engine 1.60-1.84 s; the GPU taken for 1.28-1.48
/// s, 0.82-1.06 s measured), and where the two engines are close, sharing
/// the files is as fast as the faster one (0.89 and 1.05 s).
const CPU_MARGIN: f64 = 2.0;

/// The automaton kernel's pace, bytes a second times the words it steps:
/// fitted to `--engine gpu -c` over 16 GiB of loghub (H200 host,
/// forty-seventh session): 3, 10 and 30 regexes stepping 2, 6 and 10
/// words took 0.91-0.96, 1.25-1.34 and 1.46-1.51 s, against
/// `start::gpu_seconds`' 0.99 s.
const AUTOMATON_WORD_BYTES_PER_S: f64 = 350e9;

/// Whether the system has an NVIDIA GPU's device node (a stat, where
/// loading the driver library takes milliseconds): `/dev/nvidiactl`, or
/// WSL's `/dev/dxg`.
pub(super) fn nvidia_device_node() -> bool {
    ["/dev/nvidiactl", "/dev/dxg"]
        .iter()
        .any(|p| std::path::Path::new(p).exists())
}

/// Auto's automaton for a regex without good literals
/// (`Compiled::automaton_later`), once the inputs are listed: from
/// `Wanted::Auto`'s bytes of files, where the driver loads, built and kept
/// as the GPU's plan ([`automaton_plan`]), CUDA's start as the probe of
/// the CPU engine's pace says ([`by_probe`]; `GPUGREP_AUTO_PROBE` in
/// tests); else the CPU engine alone.
pub fn settle(
    wanted: Wanted,
    compiled: &mut Compiled,
    cfg: &Config,
    (items, sizes): (&[Item], &[Option<u64>]),
    prog: &str,
) -> Wanted {
    let Wanted::Auto(min) = wanted else {
        return wanted;
    };
    let bytes: u64 = sizes.iter().flatten().sum();
    if compiled.automaton_later.is_none() || literals_to_gpu(cfg, compiled) || bytes < min {
        compiled.automaton_later = None;
        return wanted;
    }
    if !simulated() && !driver_present() {
        debug(cfg, prog, "engine: cpu (auto: libcuda not found)");
        return Wanted::No;
    }
    match automaton_plan(compiled, cfg) {
        Ok((described, words)) => {
            debug(
                cfg,
                prog,
                &format!("engine: auto: the GPU may run the regex's {described}"),
            );
            let gpu = automaton_seconds(bytes, words);
            match probed_start(cfg, compiled, (items, sizes), gpu, prog) {
                ProbeVerdict::Cpu => {
                    compiled.gpu = None;
                    Wanted::No
                }
                ProbeVerdict::Pace => wanted,
                v => Wanted::AutoProbed(min, v),
            }
        }
        Err(why) => {
            debug(
                cfg,
                prog,
                &format!("engine: cpu (auto: no GPU automaton: {why})"),
            );
            Wanted::No
        }
    }
}

/// How CUDA starts for the automaton just built, whose GPU time is `gpu`
/// ([`automaton_seconds`]): the probe's verdict ([`by_probe`]),
/// `GPUGREP_AUTO_PROBE`'s, or by the pace (the simulated GPU, or no file
/// to sample); said under `--debug`.
fn probed_start(
    cfg: &Config,
    compiled: &Compiled,
    (items, sizes): (&[Item], &[Option<u64>]),
    gpu: f64,
    prog: &str,
) -> ProbeVerdict {
    let bytes: u64 = sizes.iter().flatten().sum();
    let pace = probe::cpu_pace(cfg, compiled, items, sizes);
    let cpu = pace.map(|p| bytes as f64 / p);
    let set = knobs::get().auto_probe.get();
    let verdict = match (set, cpu) {
        (Some(v), _) => v,
        (None, _) if simulated() => ProbeVerdict::Pace,
        (None, Some(cpu)) => by_probe(cpu, gpu),
        (None, None) => ProbeVerdict::Pace,
    };
    let probed = match (pace, cpu) {
        (Some(p), Some(cpu)) => format!(
            "{:.1} GB/s, {cpu:.2} s for the files (the GPU {gpu:.2} s or more)",
            p / 1e9
        ),
        _ => "no file holds a sample".into(),
    };
    let said = match verdict {
        ProbeVerdict::Cpu => "the CPU engine alone",
        ProbeVerdict::Ahead => "the GPU far ahead",
        ProbeVerdict::Shared => "CUDA at once, both engines sharing the files",
        ProbeVerdict::Pace => "CUDA's start by the CPU engine's pace",
    };
    let knob = if set.is_some() {
        " (GPUGREP_AUTO_PROBE)"
    } else {
        ""
    };
    debug(
        cfg,
        prog,
        &format!("engine: auto: the CPU engine's pace, probed: {probed}: {said}{knob}"),
    );
    verdict
}

/// The GPU's time for `bytes` of files through an automaton that steps
/// `words` words a byte: `start::gpu_seconds` and the kernel's pace,
/// [`AUTOMATON_WORD_BYTES_PER_S`].
fn automaton_seconds(bytes: u64, words: usize) -> f64 {
    let bytes = bytes as f64;
    gpu_seconds(bytes) + bytes * words as f64 / AUTOMATON_WORD_BYTES_PER_S
}

/// A settled automaton's start, from the CPU engine's probed time `cpu`
/// and the GPU's `gpu` (seconds, [`automaton_seconds`]): the CPU engine
/// alone where it would be [`CPU_MARGIN`] times faster; CUDA at once, the
/// CPU engine waiting for it, from [`AHEAD_MARGIN`]; else CUDA at once,
/// the CPU engine sharing the files while it starts (where the CPU's
/// share pays).
fn by_probe(cpu: f64, gpu: f64) -> ProbeVerdict {
    if cpu * CPU_MARGIN < gpu {
        ProbeVerdict::Cpu
    } else if cpu >= gpu * AHEAD_MARGIN {
        ProbeVerdict::Ahead
    } else {
        ProbeVerdict::Shared
    }
}

/// The automaton of `compiled.automaton_later` as its GPU plan, where the
/// GPU decides every line (`Automaton::exact_lines`) stepping at most
/// `AUTO_SPLIT_MAX_WORDS` words on ASCII lines: its description and those
/// words, or why not.
fn automaton_plan(compiled: &mut Compiled, cfg: &Config) -> Result<(String, usize), String> {
    let rules = compiled
        .automaton_later
        .take()
        .ok_or("no regex kept for it")?;
    let a = glushkov::for_rules(&rules, cfg)?;
    if !a.exact_lines() {
        return Err("its automaton is a candidate filter".into());
    }
    if a.ascii_run_words() > AUTO_SPLIT_MAX_WORDS {
        return Err(format!(
            "its automaton steps {} words on ASCII lines, more than {AUTO_SPLIT_MAX_WORDS}",
            a.ascii_run_words()
        ));
    }
    let described = (a.describe(), a.ascii_run_words());
    compiled.gpu = Some(GpuPlan::Automaton(Box::new(a)));
    Ok(described)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two regexes (auto keeps one on the CPU engine) and `args`.
    fn compiled(pattern: &str, args: &[&str]) -> (Compiled, Config) {
        let patterns = [pattern, "[0-9]+[.][0-9]+[.][0-9]+"];
        let cfg =
            Config::from_args(&[&["-E", "-e", patterns[0], "-e", patterns[1], "f"], args].concat());
        let bytes: Vec<Vec<u8>> = patterns.iter().map(|p| p.as_bytes().to_vec()).collect();
        let compiled = crate::pattern::compile(&bytes, &cfg).unwrap();
        (compiled, cfg)
    }

    /// Auto keeps literal-less regexes' alternatives for `-c` only, and
    /// builds the automaton only once the files hold its bytes.
    #[test]
    fn auto_builds_a_regexs_automaton_only_for_large_counts() {
        let hash = "[0-9a-f]{40}";
        let (mut c, cfg) = compiled(hash, &["-c"]);
        let wanted = settle(
            Wanted::Auto(100),
            &mut c,
            &cfg,
            (&[], &[Some(99)]),
            "gpugrep",
        );
        assert!(matches!(wanted, Wanted::Auto(_)) && c.gpu.is_none());
        assert!(c.automaton_later.is_none(), "not built, and not kept");
        let (mut c, cfg) = compiled(hash, &["-c"]);
        assert!(automaton_plan(&mut c, &cfg).is_ok());
        assert!(
            matches!(c.gpu, Some(GpuPlan::Automaton(ref a)) if a.exact_lines() && a.rules == 2)
        );
        assert!(c.automaton_later.is_none());
        for printed in [&["-n"][..], &["-l"], &["-c", "-m", "3"], &["-q"]] {
            let (c, _) = compiled(hash, printed);
            assert!(
                c.automaton_later.is_none() && c.gpu.is_none(),
                "{printed:?}"
            );
        }
        // One regex: the CPU engine walks the tree while searching it.
        let cfg = Config::from_args(&["-c", "-E", hash, "f"]);
        let c = crate::pattern::compile(&[hash.as_bytes().to_vec()], &cfg).unwrap();
        assert!(c.automaton_later.is_none());
        // Regexes with good literals keep their literal plan.
        let cfg = Config::from_args(&["-c", "-E", "-e", "x", "f"]);
        let lits = [b"ERROR [0-9]+".to_vec(), b"FATAL [a-z]+".to_vec()];
        let c = crate::pattern::compile(&lits, &cfg).unwrap();
        assert!(c.automaton_later.is_none());
        assert!(matches!(c.gpu, Some(GpuPlan::Required(_))));
    }

    /// Regexes whose required literals auto sends to the `multi` kernel
    /// (100 or more, too many to be strong ones) keep that plan.
    #[test]
    fn many_required_literals_keep_their_measured_plan() {
        let rules: Vec<Vec<u8>> = (0..120)
            .map(|i| format!("event{i:03}=[0-9]+").into_bytes())
            .collect();
        let cfg = Config::from_args(&["-c", "-E", "-e", "x", "f"]);
        let mut c = crate::pattern::compile(&rules, &cfg).unwrap();
        assert!(literals_to_gpu(&cfg, &c), "{}", c.description);
        let wanted = settle(
            Wanted::Auto(0),
            &mut c,
            &cfg,
            (&[], &[Some(1 << 40)]),
            "gpugrep",
        );
        assert!(matches!(wanted, Wanted::Auto(0)));
        assert!(matches!(c.gpu, Some(GpuPlan::Required(_))));
        assert!(c.automaton_later.is_none());
    }

    /// An automaton the GPU cannot decide lines with (`\b`, or `-w`'s
    /// boundaries, left to the CPU) keeps the search on the CPU engine.
    #[test]
    fn auto_keeps_a_candidate_automaton_on_the_cpu() {
        for (pattern, args) in [
            (r"\b[0-9a-f]{40}\b", &["-c"][..]),
            ("[0-9a-f]{40}", &["-c", "-w"]),
        ] {
            let (mut c, cfg) = compiled(pattern, args);
            let why = automaton_plan(&mut c, &cfg).unwrap_err();
            assert!(why.contains("candidate filter"), "{why}");
            assert!(c.gpu.is_none());
        }
    }

    /// The probe's verdicts on the shapes that set them (16 GiB of loghub,
    /// 16 threads: the CPU engine's time, the automaton's words): 3
    /// regexes far ahead on the GPU, 10 and 30 shared by the pace, an
    /// e-mail address (0.39 s on the CPU engine, 1.00 s on the GPU) the CPU
    /// engine's alone.
    #[test]
    fn the_probes_verdicts_on_the_measured_shapes() {
        let bytes = 16u64 << 30;
        let verdict = |cpu: f64, words: usize| by_probe(cpu, automaton_seconds(bytes, words));
        assert_eq!(verdict(2.4, 2), ProbeVerdict::Ahead);
        assert_eq!(verdict(2.1, 6), ProbeVerdict::Shared);
        assert_eq!(verdict(1.7, 10), ProbeVerdict::Shared);
        assert_eq!(verdict(0.39, 2), ProbeVerdict::Cpu);
        // Close (16 GiB of CI logs, 10 regexes, probed): shared.
        assert_eq!(verdict(1.18, 6), ProbeVerdict::Shared);
        // The fit: within 15 % of the GPU's measured times.
        for (words, measured) in [(2, 0.96), (6, 1.30), (10, 1.48)] {
            let fitted = automaton_seconds(bytes, words);
            assert!((fitted / measured - 1.0).abs() < 0.15, "{words}: {fitted}");
        }
    }

    /// The automaton's start goes by the CPU engine's pace: CUDA is never
    /// opened while the inputs are listed.
    #[test]
    fn a_later_automaton_never_opens_cuda_while_listing() {
        let (c, cfg) = compiled("[a-f]{8}", &["-c"]);
        assert!(c.automaton_later.is_some());
        assert_eq!(super::super::opens_at_once(&cfg, &c, 0), None);
    }
}
