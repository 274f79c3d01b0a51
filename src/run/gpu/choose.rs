//! Choosing the engine: whether the GPU takes part in a run, and starting
//! it. Two decisions: `wanted`, from the options and the compiled patterns
//! before the inputs are listed (`--engine cpu|gpu|auto`, searches the GPU
//! cannot take, auto's measured thresholds), and `start`, once the sizes
//! of the inputs are known (auto starts CUDA in its own thread, beside
//! the CPU engine). The outcome is a [`Backend`]: a GPU, or the CPU mirror
//! under the `GPUGREP_GPU_SIMULATE` test knob, decided here once.

use super::debug;
use super::searcher::Backend;
use super::start::{Gate, GateWait};
use crate::config::{Config, EngineChoice};
use crate::engine::gpu::GpuError;
use crate::knobs::{self, ProbeVerdict};
use crate::pattern::compile::GpuPlan;
use crate::pattern::Compiled;
use std::sync::mpsc;

/// From how many bytes of regular files `--engine auto` starts the GPU
/// (beside the CPU engine, which searches until the GPU is ready); below
/// it, or with `None`, CUDA is never initialised. `None`: measured on the
/// H100 host (benches/RESULTS.md, issue 4), the 16-core CPU engine reads
/// page-cached files at 55-66 GB/s, above the pipeline's 25-28 GB/s and
/// above PCIe's 55 GB/s, so for one literal the GPU cannot pay there;
/// started beside the CPU it made 16 GiB slower (1.18 s against 0.30 s).
pub const AUTO_MIN_BYTES: Option<u64> = None;

/// Literal sets of at least this many patterns go to the GPU under auto
/// (from `AUTO_SET_MIN_BYTES` of files): there the CPU engine is bound by
/// computation, not by reading. Measured on the H100 host (benches/
/// RESULTS.md, issue 5), 16 GiB, `-c`: 1,000 literals 1.46 s auto against
/// 6.05 s on the CPU, 10,000 literals 2.32 s against 17.1 s; smaller sets
/// were not measured. At 1,000 literals the CPU engine reads about 3 GB/s,
/// so below 1 GiB it finishes before CUDA (0.25-0.35 s) is up.
pub const AUTO_SET_MIN_PATTERNS: usize = 1000;
pub const AUTO_SET_MIN_BYTES: u64 = 1 << 30;

/// Regular expressions whose every match contains one of at least this many
/// literals go to the GPU under auto (from `AUTO_SET_MIN_BYTES`): measured
/// on 16 GiB, an alternation of 100 words took 1.35-1.46 s on the GPU
/// against 3.55-3.62 s on the CPU (rg 3.32 s), while expressions with 1 or
/// 2 literal prefixes took 1.0 s against 0.3-0.4 s.
pub const AUTO_REGEX_MIN_LITERALS: usize = 100;

/// Rule packs split for the GPU (`pattern::compile::split`) under auto.
///
/// * Every rule a literal rule (the `multi` kernel alone): the rule for a
///   regex's required literals (`AUTO_REGEX_MIN_LITERALS` literals or more,
///   from `AUTO_SET_MIN_BYTES`). The GPU takes only the literal scan there,
///   and the CPU confirms the candidate lines either way: measured on the
///   development VM (200 MB of CI logs, release build), the CPU engine
///   spends 0.44 s of 1.42 s CPU on the scan for 1,000 generated rules and
///   0.43 s of 4.09 s for 10,000, so the GPU can save at most that share.
/// * Some rules on the automaton: from `AUTO_SPLIT_MIN_BYTES`, when the
///   automaton has at most `AUTO_SPLIT_MAX_WORDS` words of state. The CPU
///   engine has no literal dispatch for such a pack: its multi-pattern
///   automaton of every rule ran at 1.7 MB/s per core (1,000 generated
///   rules and 27 literal-less ones, 200 MB: 120 s wall, 75 s CPU on 2
///   cores), where the split confirms a candidate line in 0.75 us (against
///   285 us for the whole-pack automaton), so even a slow automaton kernel
///   wins from tens of megabytes; CUDA takes 0.25-0.35 s to start. The
///   words counted are those a line of ASCII bytes steps
///   (`Automaton::ascii_run_words`). Measured on an H200 (fortieth
///   session, 16 GiB of loghub's logs): gitleaks' 7 cut rules, 26 words,
///   ran the pack's kernels 19.3 s over 4 streams and auto 6.1 s against
///   the CPU engine's 11.3-12.7 s; loghub's templates, 2 words, 3.8 s and
///   1.9 s. The bound of 64 words is not measured beyond that.
pub const AUTO_SPLIT_MIN_BYTES: u64 = 64 << 20;
pub const AUTO_SPLIT_MAX_WORDS: usize = 64;

/// Whether auto sends a regex's required literals to the GPU's `multi`
/// kernel (`AUTO_REGEX_MIN_LITERALS` or more): measured, and taken before
/// its automaton (`settle`). Not under `-i`, where they are case variants
/// (a regex's, or those of literals kept as a regex), which stay on the
/// CPU as before.
pub(super) fn literals_to_gpu(cfg: &Config, c: &Compiled) -> bool {
    matches!(&c.gpu, Some(GpuPlan::Required(s)) if s.len() >= AUTO_REGEX_MIN_LITERALS && !cfg.ignore_case)
}

/// What the run will do with the GPU.
pub enum Wanted {
    No,
    /// `--engine auto`: start the GPU if the files hold this many bytes.
    Auto(u64),
    /// Auto where a probe of the CPU engine's pace decided how CUDA starts
    /// (`settle`; `Pace` is plain `Auto`).
    AutoProbed(u64, ProbeVerdict),
    /// `--engine gpu`: the GPU is open (or simulated).
    Now(Backend),
    /// `--engine gpu`: open it (`open`) while the inputs are listed.
    Open,
    /// `--engine gpu`: opening in its own thread (`open_in_background`).
    Opening(mpsc::Receiver<Result<Backend, GpuError>>),
}

/// `GPUGREP_GPU_SIMULATE=1` (a test knob): the pipeline's chunks are
/// searched by the CPU mirror. Read here, when the engine is chosen, and
/// nowhere else: the pipeline only sees the `Backend` it leads to.
pub(super) fn simulated() -> bool {
    knobs::get().gpu_simulate.or(false)
}

/// Whether the CUDA driver library loads (cudarc's loader would panic
/// without it).
pub(super) fn driver_present() -> bool {
    // SAFETY: is_culib_present only tries to dlopen the driver library.
    std::panic::catch_unwind(|| unsafe { cudarc::driver::sys::is_culib_present() }).unwrap_or(false)
}

/// First decision, before the inputs are listed. `Err`: `--engine gpu`
/// and no usable GPU (exit status 2). `typed`: how many patterns were
/// given; a literal set counts as at least that many under auto, though
/// it may search fewer (the literals holding no other, where only lines
/// matter: 1,000 words kept 951 and fell under the 1,000 threshold, and
/// `-c` took 5.3 s on the CPU against 1.5 s on the GPU).
pub fn wanted(
    cfg: &Config,
    compiled: &Compiled,
    typed: usize,
    prog: &str,
) -> Result<Wanted, String> {
    if cfg.engine == EngineChoice::Cpu {
        debug(cfg, prog, "engine: cpu (--engine cpu)");
        return Ok(Wanted::No);
    }
    // A search the GPU does not take runs on the CPU engine; a user who
    // asked for the GPU still learns whether it exists.
    let cpu_instead = |why: &str| {
        debug(cfg, prog, &format!("engine: cpu ({why})"));
        if cfg.engine == EngineChoice::Gpu && !simulated() {
            super::prewarm::open().map_err(|e| e.to_string())?;
        }
        Ok(Wanted::No)
    };
    if cfg.json && cfg.max_count.is_some() {
        // --json's bytes_searched under -m counts what the CPU engine had
        // read when it stopped (in blocks, for a file found by -r); the
        // GPU would read every file whole, for a search that stops early.
        return cpu_instead("--json with -m");
    }
    let c = compiled;
    if cfg.engine == EngineChoice::Auto
        && c.automaton_later.is_some()
        && !literals_to_gpu(cfg, c)
        && !simulated()
    {
        // The driver is loaded only once the files prove large (`settle`);
        // without NVIDIA's device nodes the tree is walked while searched.
        if !super::settle::nvidia_device_node() {
            debug(cfg, prog, "engine: cpu (auto: no NVIDIA device)");
            return Ok(Wanted::No);
        }
        let min = super::settle::AUTO_AUTOMATON_BYTES_PER_THREAD
            .saturating_mul(cfg.threads.max(1) as u64);
        return Ok(Wanted::Auto(min));
    }
    if c.gpu.is_none() && c.automaton_later.is_none() {
        return cpu_instead(&format!(
            "the GPU engine takes literals (with -i: ASCII-folded in the kernel, plus case variants beyond ASCII), regexes whose every match contains one of a few literals, and regexes its automaton can take; this search is {}",
            compiled.description
        ));
    }
    if cfg.engine == EngineChoice::Auto && matches!(c.gpu, Some(GpuPlan::Automaton(_))) {
        // Auto's automaton comes late (`settle`), for fewer than 200
        // regexes; a pack's automaton alone was not measured under auto.
        debug(
            cfg,
            prog,
            "engine: cpu (auto: a rule pack's automaton alone runs on the GPU only with --engine gpu)",
        );
        return Ok(Wanted::No);
    }
    if simulated() {
        debug(
            cfg,
            prog,
            "engine: gpu pipeline, simulated on the CPU (GPUGREP_GPU_SIMULATE)",
        );
        return Ok(match cfg.engine {
            EngineChoice::Auto => Wanted::Auto(0),
            _ if knobs::get().gpu_simulate_fail.or(false) => Wanted::Opening(simulated_start(None)),
            _ => Wanted::Now(Backend::Simulated),
        });
    }
    if cfg.engine == EngineChoice::Auto {
        // Sets measured to pay: case-sensitive literals, and `-i` literal
        // sets folded in the kernel by the same thresholds (the fold costs
        // the kernel a few instructions per 4 bytes; not yet measured on
        // the H100). `-i` sets enumerated into case variants (now the
        // required literals of a regex) and regexes with few required
        // literals measured slower on the GPU, or were not measured: they
        // stay on the CPU.
        // Files are named or the search stops at the first selected line
        // (`-l`, `-L`, `-q`, with or without `-v`) and a literal is one
        // byte: nearly every line of text matches and the CPU engine stops
        // at each file's first match, while the GPU reads every file whole
        // (10,000 real words keep 1,410 literals holding no other, among
        // them "a" and "i": `-l` over 16 GiB of prose in 20,000 files, CPU
        // 0.05 s, GPU 0.84-0.94 s). Counted lines (`-c`, `-v -c`) go by the
        // rules below since the tally kernel adds its counts a warp at a
        // time (session 27: `-c` CPU 1.54 s, GPU 0.85-0.90 s, before 2.1
        // s; `-v -c` 1.67 / 0.89 s).
        let one_byte = match &compiled.gpu {
            Some(GpuPlan::LiteralSet(s) | GpuPlan::FoldedSet(s)) => s.iter().any(|l| l.len() == 1),
            _ => false,
        };
        if one_byte && cfg.lines_only() && cfg.mode.first_match_ends() && !cfg.word && !cfg.line {
            debug(
                cfg,
                prog,
                "engine: cpu (auto: the first selected line settles a file and a literal is one byte: the CPU engine stops at each file's first match)",
            );
            return Ok(Wanted::No);
        }
        let set = match (&compiled.gpu, cfg.ignore_case) {
            (Some(GpuPlan::LiteralSet(s)), false) => s.len().max(typed),
            (Some(GpuPlan::FoldedSet(s)), _) => s.len().max(typed),
            _ => 0,
        };
        let split_literals = match &compiled.gpu {
            Some(GpuPlan::Split(p)) if p.automaton.is_none() => p.literals.len(),
            _ => 0,
        };
        let split = match &compiled.gpu {
            // On lines of ASCII bytes a step runs the automaton's ASCII
            // part alone (`glushkov::build`).
            Some(GpuPlan::Split(p)) => p.automaton.as_ref().map(|a| a.ascii_run_words()),
            _ => None,
        };
        let min = if let Some(words) = split {
            if words > AUTO_SPLIT_MAX_WORDS {
                debug(
                    cfg,
                    prog,
                    &format!("engine: cpu (auto: the rule pack's automaton half has {words} words of state, more than {AUTO_SPLIT_MAX_WORDS})"),
                );
                return Ok(Wanted::No);
            }
            AUTO_SPLIT_MIN_BYTES
        } else if set >= AUTO_SET_MIN_PATTERNS
            || split_literals >= AUTO_REGEX_MIN_LITERALS
            || literals_to_gpu(cfg, compiled)
        {
            AUTO_SET_MIN_BYTES
        } else {
            match AUTO_MIN_BYTES {
                Some(min) if set == 0 => min,
                _ => {
                    debug(
                        cfg,
                        prog,
                        &format!("engine: cpu (auto: the GPU pays for sets of {AUTO_SET_MIN_PATTERNS} literals or regexes with {AUTO_REGEX_MIN_LITERALS} required literals or more; for fewer the CPU engine was faster at every measured size)"),
                    );
                    return Ok(Wanted::No);
                }
            }
        };
        if !driver_present() {
            debug(cfg, prog, "engine: cpu (auto: libcuda not found)");
            return Ok(Wanted::No);
        }
        return Ok(Wanted::Auto(min));
    }
    Ok(Wanted::Open)
}

/// Opens the GPU for `Wanted::Open` in its own thread; the result comes
/// on the channel (`Err`: no usable GPU, exit status 2, the driver's error
/// kept as it is). CUDA takes 0.2-0.3 s to start: the caller lists the
/// inputs and the pipeline reads its first chunks meanwhile.
pub fn open_in_background(debug_on: bool, prog: &str) -> Wanted {
    let (tx, rx) = mpsc::channel();
    let prog = prog.to_string();
    let opening = move || {
        let _in_driver = super::release::InDriver::enter();
        let t = std::time::Instant::now();
        let opened = super::prewarm::open().map(|engine| {
            if debug_on {
                eprintln!(
                    "{prog}: debug: engine: gpu ({}; started in {:.3} s)",
                    engine.describe(),
                    t.elapsed().as_secs_f64()
                );
            }
            Backend::Gpu(Box::new(engine))
        });
        let _ = tx.send(opened);
    };
    // Detached: the run ends with the search (or the error) either way. A
    // thread that cannot start drops the sender: the pipeline reads that as
    // a GPU that failed to start.
    let _ = std::thread::Builder::new()
        .name("gpu-open".into())
        .spawn(opening);
    Wanted::Opening(rx)
}

/// How the pipeline gets its backend: the channel it comes on, whether the
/// GPU searches every file (`--engine gpu`), and auto's gate, which the
/// start thread waits on before touching CUDA (`start::Gate`).
pub struct Pending {
    pub backend: mpsc::Receiver<Result<Backend, GpuError>>,
    pub gpu_only: bool,
    pub gate: Option<Gate>,
    /// Auto, how a probe of the CPU engine's pace would have CUDA start
    /// ([`Wanted::AutoProbed`]).
    pub probed: Option<ProbeVerdict>,
}

/// Second decision, once the inputs are listed: where the backend comes
/// from (already open, or starting in its own thread), or `None` for the CPU.
pub fn start(wanted: Wanted, cfg: &Config, sizes: &[Option<u64>], prog: &str) -> Option<Pending> {
    let probed = match wanted {
        Wanted::AutoProbed(_, v) => Some(v),
        _ => None,
    };
    let pending = |backend, gpu_only, gate| {
        Some(Pending {
            backend,
            gpu_only,
            gate,
            probed,
        })
    };
    match wanted {
        Wanted::No | Wanted::Open => None,
        Wanted::Now(backend) => {
            let (tx, rx) = mpsc::channel();
            let _ = tx.send(Ok(backend));
            pending(rx, true, None)
        }
        Wanted::Opening(rx) => pending(rx, true, None),
        Wanted::Auto(min) | Wanted::AutoProbed(min, _) => {
            let bytes: u64 = sizes.iter().flatten().sum();
            if bytes < min {
                debug(
                    cfg,
                    prog,
                    &format!("engine: cpu (auto: {bytes} bytes of files, GPU from {min})"),
                );
                return None;
            }
            debug(
                cfg,
                prog,
                &format!(
                    "engine: auto: {bytes} bytes of files; {}",
                    match probed {
                        Some(ProbeVerdict::Ahead) => "the GPU far ahead, the CPU waits for it",
                        _ => "CPU until the GPU is ready, then both",
                    }
                ),
            );
            let (gate, go) = Gate::new();
            if simulated() {
                return pending(simulated_start(Some(go)), false, Some(gate));
            }
            let (tx, rx) = mpsc::channel();
            // Detached: if the CPU finishes first, the run ends without
            // waiting for CUDA (and the gate keeps a start from beginning).
            let spawned = std::thread::Builder::new()
                .name("gpu-init".into())
                .spawn(move || {
                    if go.wait() {
                        // An engine the run no longer waits for is
                        // dropped here, inside the guard.
                        let _in_driver = super::release::InDriver::enter();
                        let _ = tx.send(super::prewarm::open().map(|e| Backend::Gpu(Box::new(e))));
                    }
                });
            spawned.ok().and_then(|_| pending(rx, false, Some(gate)))
        }
    }
}

/// The simulated backend's start (test knobs): once `go` opens (auto),
/// after `GPUGREP_GPU_SIMULATE_DELAY` ms, ready, or failed with
/// `GPUGREP_GPU_SIMULATE_FAIL=1`.
fn simulated_start(go: Option<GateWait>) -> mpsc::Receiver<Result<Backend, GpuError>> {
    let (tx, rx) = mpsc::channel();
    let knobs = knobs::get();
    let delay = std::time::Duration::from_millis(knobs.gpu_simulate_delay_ms.or(0));
    let fail = knobs.gpu_simulate_fail.or(false);
    let _ = std::thread::Builder::new()
        .name("gpu-init".into())
        .spawn(move || {
            if go.is_some_and(|go| !go.wait()) {
                return;
            }
            std::thread::sleep(delay);
            let _ = tx.send(match fail {
                true => Err(GpuError::Unavailable("simulated start failure".into())),
                false => Ok(Backend::Simulated),
            });
        });
    rx
}
