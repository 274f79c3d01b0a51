//! Auto and a rule's automaton decided late: regexes without good
//! literals (`Compiled::automaton_later`, two or more over files named,
//! `-c`) get their GPU automaton only once the inputs are listed and prove
//! large, so that everyday searches pay neither the build (0.3-4 ms on the
//! development VM) nor the driver's load; whether CUDA then starts is the
//! CPU engine's pace (`Search::paced`, `start::PACED_MARGIN`).

use super::choose::{driver_present, literals_to_gpu, simulated, Wanted, AUTO_SPLIT_MAX_WORDS};
use super::debug;
use crate::config::Config;
use crate::pattern::compile::GpuPlan;
use crate::pattern::glushkov;
use crate::pattern::Compiled;

/// A regex without good literals under auto (`Compiled::automaton_later`,
/// `-c`): its automaton is built from this many bytes of files per thread
/// of the run, and CUDA starts only if the CPU engine's pace says the GPU
/// would finish well ahead (`Search::paced`). Measured on H200 hosts, 16
/// threads, `-c`, loghub's logs in 64 files and CI logs (benches/
/// RESULTS.md, forty-seventh session): from 8 GiB auto was level with
/// the CPU engine or 1.5-2.1x faster on every shape tried (a hex id, IPv4,
/// 3, 10 and 30 regexes without literals); at 4 GiB it ran 10-60 % behind
/// on three of them (CUDA started before the CPU engine had finished a
/// file, which tells its pace, and the CPU ended first), at 1-2 GiB the CPU
/// engine always ended first. The CPU engine's speed grows with its
/// threads, hence per thread (16 threads: 8 GiB; 2 threads: 1 GiB, not
/// measured on a GPU host).
pub const AUTO_AUTOMATON_BYTES_PER_THREAD: u64 = 512 << 20;

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
/// as the GPU's plan ([`automaton_plan`]); else the CPU engine alone.
pub fn settle(
    wanted: Wanted,
    compiled: &mut Compiled,
    cfg: &Config,
    sizes: &[Option<u64>],
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
        Ok(described) => {
            debug(
                cfg,
                prog,
                &format!("engine: auto: the GPU may run the regex's {described}"),
            );
            wanted
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

/// The automaton of `compiled.automaton_later` as its GPU plan, where the
/// GPU decides every line (`Automaton::exact_lines`) stepping at most
/// `AUTO_SPLIT_MAX_WORDS` words on ASCII lines: its description, or why
/// not.
fn automaton_plan(compiled: &mut Compiled, cfg: &Config) -> Result<String, String> {
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
    let described = a.describe();
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
        let wanted = settle(Wanted::Auto(100), &mut c, &cfg, &[Some(99)], "gpugrep");
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
        let wanted = settle(Wanted::Auto(0), &mut c, &cfg, &[Some(1 << 40)], "gpugrep");
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

    /// The automaton's start goes by the CPU engine's pace: CUDA is never
    /// opened while the inputs are listed.
    #[test]
    fn a_later_automaton_never_opens_cuda_while_listing() {
        let (c, cfg) = compiled("[a-f]{8}", &["-c"]);
        assert!(c.automaton_later.is_some());
        assert_eq!(super::super::opens_at_once(&cfg, &c, 0), None);
    }
}
