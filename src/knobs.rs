//! Every `GPUGREP_*` environment variable the binary reads, read once into
//! one [`Knobs`] (on first use, by [`get`]) and parsed by one rule per kind
//! of value, so a knob cannot be read in two places two ways.
//!
//! Two kinds of knob:
//! - **User knobs** (`GPUGREP_GPU_MEMORY`, `GPUGREP_GPU_STAGING`): defaults
//!   for options, documented in README.md; a value that does not parse is a
//!   usage error, as for the option.
//! - **Test and measurement knobs** (every other one, marked *Test only* or
//!   *Measurement only* below): they let tests put chunk and block
//!   boundaries everywhere, run the GPU pipeline without a GPU, or switch a
//!   stage off to measure what it saves. Production code reads each in one
//!   place, outside any per-byte loop. A value that does not parse is
//!   ignored (the default applies).
//!
//! Values: sizes take `parse_size`'s form (`4096`, `64K`, `16M`, `1G`;
//! more than 0), counts and milliseconds are decimal integers, switches are
//! `1` (on) or `0` (off).
//!
//! The test suites' own variables (`GPUGREP_TEST_ENGINE`, `GPUGREP_BIN`,
//! `GPUGREP_DIFF_*`, `GPUGREP_E2E_CASES`) are read by the test executables,
//! never by the binary, and are not here.

use crate::config::parse_size;
use std::sync::OnceLock;

/// One variable's value: unset, parsed, or the text that did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Knob<T> {
    Unset,
    Set(T),
    Invalid(String),
}

impl<T: Copy> Knob<T> {
    /// The parsed value; `None` when unset or invalid.
    pub fn get(&self) -> Option<T> {
        match self {
            Knob::Set(v) => Some(*v),
            _ => None,
        }
    }

    /// The parsed value, else `default` (test knobs: invalid is ignored).
    pub fn or(&self, default: T) -> T {
        self.get().unwrap_or(default)
    }

    /// For user knobs: the value if set, `Err(text)` if it did not parse.
    pub fn checked(&self) -> Result<Option<T>, String> {
        match self {
            Knob::Unset => Ok(None),
            Knob::Set(v) => Ok(Some(*v)),
            Knob::Invalid(s) => Err(s.clone()),
        }
    }
}

/// `GPUGREP_GPU_SYNC`: how host threads wait for the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuSync {
    /// Sleep on a blocking sync (the default: the pipeline's readers need
    /// every core while its lanes wait).
    Blocking,
    Spin,
    Yield,
    /// The driver's own choice.
    Auto,
}

/// The CPU engine for many regular expressions (`GPUGREP_RULE_PACK`; see
/// `pattern::compile::pack`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RulePack {
    /// One alternation of every expression.
    Alternation,
    /// One multi-pattern automaton.
    Pack,
    /// Per-rule regexes tried on lines holding their literals.
    Rules,
}

/// `GPUGREP_AUTO_PROBE`: auto's verdict on a settled automaton
/// (`run::gpu::settle`), instead of the probe's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeVerdict {
    /// The CPU engine alone.
    Cpu,
    /// CUDA's start by the CPU engine's pace.
    Pace,
    /// CUDA at once, the CPU engine sharing the files meanwhile.
    Shared,
    /// CUDA at once, the CPU engine waiting for it.
    Ahead,
}

/// The knobs of one process. Fields are documented with their variable.
#[derive(Clone, Debug)]
pub struct Knobs {
    /// `GPUGREP_GPU_MEMORY` (size): default for `--gpu-memory`, the GPU
    /// engine's device memory budget. User knob.
    pub gpu_memory: Knob<u64>,
    /// `GPUGREP_GPU_STAGING` (size): default for `--gpu-staging`, the
    /// page-locked staging ring. User knob.
    pub gpu_staging: Knob<u64>,
    /// `GPUGREP_GPU_SIMULATE=1` (switch): the GPU pipeline runs with a CPU
    /// mirror of the kernels as its chunk searcher, so it is tested on
    /// machines without a GPU. Test only: decided once, when the engine is
    /// chosen.
    pub gpu_simulate: Knob<bool>,
    /// `GPUGREP_GPU_SIMULATE_DELAY` (milliseconds): with the simulation and
    /// `--engine auto`, the simulated GPU becomes ready after this long, so
    /// the CPU and the pipeline share the files. Test only.
    pub gpu_simulate_delay_ms: Knob<u64>,
    /// `GPUGREP_GPU_SIMULATE_SLOW` (milliseconds): with the simulation,
    /// each chunk's search takes at least this long, so that auto sees a
    /// GPU whose kernels bound the run (`board/lag.rs`). Test only: a
    /// sleep in the simulated searcher, never in a real lane.
    pub gpu_simulate_slow_ms: Knob<u64>,
    /// `GPUGREP_GPU_SIMULATE_FAIL=1` (switch): with the simulation, the
    /// simulated GPU fails to start (after the delay above), as a driver
    /// that is there but refuses would. Test only.
    pub gpu_simulate_fail: Knob<bool>,
    /// `GPUGREP_GPU_CHUNK` (size): the pipeline's chunk (default 64M); tiny
    /// chunks put cuts everywhere. Test and tuning only.
    pub gpu_chunk: Knob<u64>,
    /// `GPUGREP_GPU_LANES` (count): GPU streams working at once (default
    /// 2). Tuning only.
    pub gpu_lanes: Knob<usize>,
    /// `GPUGREP_GPU_FILE_MARKS` (count): matches one file may collect on
    /// the GPU before the CPU engine searches it instead (default 16 M);
    /// small, it sends small test files there. Test only.
    pub gpu_file_marks: Knob<usize>,
    /// `GPUGREP_GPU_BACKREAD=0` (switch): the GPU's character-boundary
    /// back-read is skipped and candidates go to the CPU unfiltered.
    /// Measurement only.
    pub gpu_backread: Knob<bool>,
    /// `GPUGREP_GPU_SYNC=spin|yield|auto` (default: blocking): how threads
    /// wait for the GPU. Measurement only.
    pub gpu_sync: Knob<GpuSync>,
    /// `GPUGREP_STREAM_CHUNK` (size): the CPU engine's stream block
    /// (default 256K); small blocks put block boundaries everywhere. Test
    /// only.
    pub stream_chunk: Knob<u64>,
    /// `GPUGREP_SPLIT_MIN` (size): from how many bytes one file is split
    /// across threads (default 32M); `1` splits tiny files. Test only.
    pub split_min: Knob<u64>,
    /// `GPUGREP_MAP_PAGEWISE` (switch): the verdict on every split file's
    /// map, instead of the one its first piece's faults give
    /// (`search::split::faults`): `1` a page at a time (its pieces are
    /// read from the file), `0` many at once (searched through the map).
    /// Test and measurement only: read once per split file.
    pub map_pagewise: Knob<bool>,
    /// `GPUGREP_DECOMPRESS_BLOCK` (size): compressed bytes per job when one
    /// gzip or zstd file is decompressed on several threads (default 1M);
    /// small jobs cut small test files at every member. Test only.
    pub decompress_block: Knob<u64>,
    /// `GPUGREP_RULE_PACK` (`alternation`, `pack` or `rules`): the CPU
    /// engine for two or more regular expressions, instead of the one
    /// chosen by their number and literals. Tests and measurement.
    pub rule_pack: Knob<RulePack>,
    /// `GPUGREP_RETIMED=1|2` (count): a pair of line finders timed against
    /// each other (`engine::retimed`) runs its first (a rule pack's rules
    /// dispatched by their literals) or second (their alternation's DFA)
    /// only, without trials. Tests and measurement: read when the pair is
    /// built.
    pub retimed: Knob<usize>,
    /// `GPUGREP_LEAD_FILES` (count): how many results the ordered walk's
    /// threads may hold for the printer (default 4,096 with 16 threads). Test only: a
    /// small value makes threads wait on a small tree.
    pub lead_files: Knob<usize>,
    /// `GPUGREP_LEAD_BYTES` (size): how many bytes of results listed or
    /// walked inputs may hold for the printer (default 64M, 256M on the GPU path);
    /// small, it puts the bound and the hand-back pool to work. Test only.
    pub lead_bytes: Knob<u64>,
    /// `GPUGREP_GPU_TRACE=1` (switch): the pipeline notes when each chunk
    /// was leased, filled, searched and freed, and `--debug` prints the
    /// timeline (`run::gpu::trace`). Measurement only.
    pub gpu_trace: Knob<bool>,
    /// `GPUGREP_GPU_CUBIN=0` (switch): the GPU loads the kernels' PTX
    /// (JIT-compiled by the driver) even where a shipped cubin fits, to
    /// test that path and time it on a GPU that has a cubin. Test and
    /// measurement only: read once, when the kernels are loaded.
    pub gpu_cubin: Knob<bool>,
    /// `GPUGREP_AUTO_PROBE` (`cpu`, `pace`, `shared` or `ahead`): auto's verdict on a
    /// regex's automaton once the inputs are listed, whatever the probe of
    /// the CPU engine's pace says; under the simulated GPU, whose pace the
    /// probe cannot foretell, `pace` unless set. Test only: read once per
    /// run.
    pub auto_probe: Knob<ProbeVerdict>,
}

/// One parse rule per kind of value.
trait Parse: Sized {
    fn parse(s: &str) -> Option<Self>;
}

impl Parse for u64 {
    /// Sizes: `parse_size` (suffixes K, M, G; more than 0).
    fn parse(s: &str) -> Option<u64> {
        parse_size(s)
    }
}

impl Parse for usize {
    /// Counts: a decimal integer, more than 0.
    fn parse(s: &str) -> Option<usize> {
        s.trim().parse().ok().filter(|&n| n > 0)
    }
}

impl Parse for bool {
    fn parse(s: &str) -> Option<bool> {
        match s.trim() {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }
}

impl Parse for GpuSync {
    fn parse(s: &str) -> Option<GpuSync> {
        match s.trim() {
            "blocking" => Some(GpuSync::Blocking),
            "spin" => Some(GpuSync::Spin),
            "yield" => Some(GpuSync::Yield),
            "auto" => Some(GpuSync::Auto),
            _ => None,
        }
    }
}

impl Parse for ProbeVerdict {
    fn parse(s: &str) -> Option<ProbeVerdict> {
        match s.trim() {
            "cpu" => Some(ProbeVerdict::Cpu),
            "pace" => Some(ProbeVerdict::Pace),
            "shared" => Some(ProbeVerdict::Shared),
            "ahead" => Some(ProbeVerdict::Ahead),
            _ => None,
        }
    }
}

impl Parse for RulePack {
    fn parse(s: &str) -> Option<RulePack> {
        match s.trim() {
            "alternation" => Some(RulePack::Alternation),
            "pack" => Some(RulePack::Pack),
            "rules" => Some(RulePack::Rules),
            _ => None,
        }
    }
}

/// Milliseconds: a decimal integer (0 allowed).
#[derive(Clone, Copy)]
struct Millis(u64);

impl Parse for Millis {
    fn parse(s: &str) -> Option<Millis> {
        s.trim().parse().ok().map(Millis)
    }
}

fn read<T: Parse>(lookup: &dyn Fn(&str) -> Option<String>, name: &str) -> Knob<T> {
    match lookup(name) {
        None => Knob::Unset,
        Some(v) => match T::parse(&v) {
            Some(x) => Knob::Set(x),
            None => Knob::Invalid(v),
        },
    }
}

impl Knobs {
    /// The knobs as `lookup` gives the variables (`from_env` in production).
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Knobs {
        let ms = |k: Knob<Millis>| match k {
            Knob::Unset => Knob::Unset,
            Knob::Set(Millis(ms)) => Knob::Set(ms),
            Knob::Invalid(s) => Knob::Invalid(s),
        };
        let millis = ms(read::<Millis>(lookup, "GPUGREP_GPU_SIMULATE_DELAY"));
        let slow = ms(read::<Millis>(lookup, "GPUGREP_GPU_SIMULATE_SLOW"));
        Knobs {
            gpu_memory: read(lookup, "GPUGREP_GPU_MEMORY"),
            gpu_staging: read(lookup, "GPUGREP_GPU_STAGING"),
            gpu_simulate: read(lookup, "GPUGREP_GPU_SIMULATE"),
            gpu_simulate_delay_ms: millis,
            gpu_simulate_slow_ms: slow,
            gpu_simulate_fail: read(lookup, "GPUGREP_GPU_SIMULATE_FAIL"),
            gpu_chunk: read(lookup, "GPUGREP_GPU_CHUNK"),
            gpu_lanes: read(lookup, "GPUGREP_GPU_LANES"),
            gpu_file_marks: read(lookup, "GPUGREP_GPU_FILE_MARKS"),
            gpu_backread: read(lookup, "GPUGREP_GPU_BACKREAD"),
            gpu_sync: read(lookup, "GPUGREP_GPU_SYNC"),
            stream_chunk: read(lookup, "GPUGREP_STREAM_CHUNK"),
            split_min: read(lookup, "GPUGREP_SPLIT_MIN"),
            map_pagewise: read(lookup, "GPUGREP_MAP_PAGEWISE"),
            decompress_block: read(lookup, "GPUGREP_DECOMPRESS_BLOCK"),
            rule_pack: read(lookup, "GPUGREP_RULE_PACK"),
            retimed: read(lookup, "GPUGREP_RETIMED"),
            lead_files: read(lookup, "GPUGREP_LEAD_FILES"),
            lead_bytes: read(lookup, "GPUGREP_LEAD_BYTES"),
            gpu_trace: read(lookup, "GPUGREP_GPU_TRACE"),
            gpu_cubin: read(lookup, "GPUGREP_GPU_CUBIN"),
            auto_probe: read(lookup, "GPUGREP_AUTO_PROBE"),
        }
    }

    /// The process's environment (a value that is not UTF-8 is invalid).
    pub fn from_env() -> Knobs {
        Knobs::from_lookup(&|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
    }
}

/// The process's knobs, read from the environment on first use.
pub fn get() -> &'static Knobs {
    static KNOBS: OnceLock<Knobs> = OnceLock::new();
    KNOBS.get_or_init(Knobs::from_env)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knobs(vars: &[(&str, &str)]) -> Knobs {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Knobs::from_lookup(&move |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn each_kind_of_value_parses_one_way() {
        let k = knobs(&[
            ("GPUGREP_GPU_CHUNK", "4"),
            ("GPUGREP_STREAM_CHUNK", "64K"),
            ("GPUGREP_SPLIT_MIN", "1M"),
            ("GPUGREP_GPU_MEMORY", "12Q"),
            ("GPUGREP_GPU_LANES", "0"),
            ("GPUGREP_GPU_SIMULATE", "1"),
            ("GPUGREP_GPU_BACKREAD", "0"),
            ("GPUGREP_GPU_SYNC", "spin"),
            ("GPUGREP_GPU_SIMULATE_DELAY", "0"),
            ("GPUGREP_AUTO_PROBE", "ahead"),
        ]);
        assert_eq!(k.gpu_chunk, Knob::Set(4));
        assert_eq!(k.stream_chunk, Knob::Set(64 << 10));
        assert_eq!(k.split_min, Knob::Set(1 << 20));
        assert_eq!(k.gpu_memory.checked(), Err("12Q".to_string()));
        assert_eq!(k.gpu_staging, Knob::Unset);
        assert_eq!(k.gpu_lanes.or(2), 2);
        assert_eq!(k.gpu_simulate.get(), Some(true));
        assert!(!k.gpu_backread.or(true));
        assert_eq!(k.gpu_sync.get(), Some(GpuSync::Spin));
        assert_eq!(k.gpu_simulate_delay_ms, Knob::Set(0));
        assert_eq!(k.auto_probe.get(), Some(ProbeVerdict::Ahead));
    }

    /// Every variable is read here and documented in README.md; no other
    /// source file reads a `GPUGREP_` variable.
    #[test]
    fn knobs_are_read_here_only_and_documented() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let here = include_str!("knobs.rs");
        let names: Vec<&str> = here
            .split("read(lookup, \"")
            .skip(1)
            .chain(here.split("read::<Millis>(lookup, \"").skip(1))
            .filter_map(|s| s.split('"').next())
            .filter(|n| n.starts_with("GPUGREP_"))
            .collect();
        assert_eq!(names.len(), 22, "{names:?}");
        for n in &names {
            assert!(
                readme.contains(&format!("| `{n}")),
                "{n} missing from README.md's table"
            );
        }
        let mut dirs = vec![root.join("src")];
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(dir).unwrap() {
                let path = e.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|x| x == "rs") && !path.ends_with("knobs.rs")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    assert!(
                        !text.contains("env::var(\"GPUGREP_"),
                        "{path:?} reads a knob itself"
                    );
                    assert!(
                        !text.contains("env::var_os(\"GPUGREP_"),
                        "{path:?} reads a knob itself"
                    );
                }
            }
        }
    }

    #[test]
    fn switches_are_only_zero_or_one() {
        let k = knobs(&[("GPUGREP_GPU_SIMULATE", "yes")]);
        assert!(!k.gpu_simulate.or(false));
        assert!(k.gpu_backread.or(true));
    }
}
