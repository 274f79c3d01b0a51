//! The GPU path: decide whether the GPU takes part, start it, and search
//! the inputs through the streaming pipeline (`pipeline`), whose per-file
//! offsets drive the same per-file search as the CPU engine.
//!
//! The GPU answers "where does the literal occur"; everything after that
//! (lines, `-w`/`-x` confirmation, context, output) is the CPU path
//! unchanged, driven by a [`Matcher`] that reads the offsets. So the GPU can
//! never change what is printed, only how fast candidates are found.
//! CUDA starts in its own thread while the CPU engine already searches the
//! first files; any GPU failure hands the remaining files to the CPU, with a
//! note under `--debug`.

mod pack;
mod pipeline;

use super::one::{self, FileResult};
use super::{search_items, Printed, Shared};
use crate::config::{BinaryMode, Config, EngineChoice, Mode};
use crate::encoding::boundary::Scheme;
use crate::encoding::EncodingPlan;
use crate::engine::gpu::{GpuEngine, GpuError};
use crate::engine::gpu::{MatchCount, Target};
use crate::engine::Matcher;
use crate::input::source::{self, Source};
use crate::input::walk::{Input, Item};
use crate::pattern::compile::GpuPlan;
use crate::pattern::Compiled;
use crate::search::prefilter_selects;
pub use pipeline::Backend;
use pipeline::{Flow, Shape, Take};
use std::io::{self, Write};
use std::ops::Range;
use std::sync::atomic::Ordering;
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

/// Default chunk: the unit of reading, transfer and kernel launch.
const CHUNK_BYTES: u64 = 64 << 20;
/// Default page-locked staging ring.
const STAGING_BYTES: u64 = 1 << 30;
/// Most chunks in the staging ring.
const MAX_RING_CHUNKS: usize = 64;
/// GPU streams (each with one chunk's buffers) working at once.
const LANES: usize = 2;
/// Device memory per lane, in chunks: text, bitmap (1/8), offsets (1/4).
const LANE_CHUNKS: f64 = 1.5;

/// What the run will do with the GPU.
pub enum Wanted {
    No,
    /// `--engine auto`: start the GPU if the files hold this many bytes.
    Auto(u64),
    /// `--engine gpu`: the GPU is open (or simulated).
    Now(Backend),
    /// `--engine gpu`: open it (`open`) while the inputs are listed.
    Open,
}

fn debug(cfg: &Config, prog: &str, msg: &str) {
    if cfg.debug {
        eprintln!("{prog}: debug: {msg}");
    }
}

/// `GPUGREP_GPU_SIMULATE=1`: the pipeline with a CPU search per chunk.
fn simulated() -> bool {
    std::env::var_os("GPUGREP_GPU_SIMULATE").is_some_and(|v| v == "1")
}

/// First decision, before the inputs are listed. `Err`: `--engine gpu`
/// and no usable GPU (exit status 2).
pub fn wanted(cfg: &Config, compiled: &Compiled, prog: &str) -> Result<Wanted, String> {
    if cfg.engine == EngineChoice::Cpu {
        debug(cfg, prog, "engine: cpu (--engine cpu)");
        return Ok(Wanted::No);
    }
    // A search the GPU does not take runs on the CPU engine; a user who
    // asked for the GPU still learns whether it exists.
    let cpu_instead = |why: &str| {
        debug(cfg, prog, &format!("engine: cpu ({why})"));
        if cfg.engine == EngineChoice::Gpu && !simulated() {
            GpuEngine::open().map_err(|e| e.to_string())?;
        }
        Ok(Wanted::No)
    };
    if cfg.decompress {
        // Compressed files reach the searcher as streams of decompressed
        // blocks, which the CPU engine takes as they come; the GPU
        // pipeline lays out whole files it can map or read.
        return cpu_instead("--decompress: decompressed streams are searched by the CPU engine");
    }
    if cfg.json && cfg.max_count.is_some() {
        // --json's bytes_searched under -m counts what the CPU engine had
        // read when it stopped (in blocks, for a file found by -r); the
        // GPU would read every file whole, for a search that stops early.
        return cpu_instead("--json with -m");
    }
    let c = compiled;
    if c.gpu.is_none() {
        return cpu_instead(&format!(
            "the GPU engine takes literals, with -i as their case variants, and regexes whose every match contains one of a few literals; this search is {}",
            compiled.description
        ));
    }
    if simulated() {
        debug(
            cfg,
            prog,
            "engine: gpu pipeline, simulated on the CPU (GPUGREP_GPU_SIMULATE)",
        );
        return Ok(match cfg.engine {
            EngineChoice::Auto => Wanted::Auto(0),
            _ => Wanted::Now(Backend::Simulated),
        });
    }
    if cfg.engine == EngineChoice::Auto {
        // Sets measured to pay: case-sensitive literals. `-i` (case
        // variants) and regexes with few required literals measured slower
        // on the GPU, or were not measured: they stay on the CPU.
        let set = match (&compiled.gpu, cfg.ignore_case) {
            (Some(GpuPlan::LiteralSet(s)), false) => s.len(),
            _ => 0,
        };
        let required = match &compiled.gpu {
            Some(GpuPlan::Required(s)) => s.len(),
            _ => 0,
        };
        let min = if set >= AUTO_SET_MIN_PATTERNS || required >= AUTO_REGEX_MIN_LITERALS {
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
        // SAFETY: is_culib_present only tries to dlopen the driver library.
        let present =
            std::panic::catch_unwind(|| unsafe { cudarc::driver::sys::is_culib_present() })
                .unwrap_or(false);
        if !present {
            debug(cfg, prog, "engine: cpu (auto: libcuda not found)");
            return Ok(Wanted::No);
        }
        return Ok(Wanted::Auto(min));
    }
    Ok(Wanted::Open)
}

/// Opens the GPU for `Wanted::Open`; `Err`: no usable GPU (exit status 2).
/// CUDA takes 0.2-0.3 s to start: the caller lists the inputs meanwhile.
pub fn open(cfg: &Config, prog: &str) -> Result<Backend, String> {
    let t = std::time::Instant::now();
    let engine = GpuEngine::open().map_err(|e| e.to_string())?;
    let took = t.elapsed().as_secs_f64();
    debug(
        cfg,
        prog,
        &format!(
            "engine: gpu ({}; started in {took:.3} s)",
            engine.describe()
        ),
    );
    Ok(Backend::Gpu(Box::new(engine)))
}

/// Sizes of the regular files among the inputs (`None` for anything else),
/// read with the run's threads.
pub fn sizes(items: &[Item], threads: usize) -> Vec<Option<u64>> {
    let size = |item: &Item| match item {
        Item::Input(Input { path: Some(p), .. }) => std::fs::metadata(p)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.len()),
        _ => None,
    };
    let per = items.len().div_ceil(threads.max(1)).max(256);
    std::thread::scope(|s| {
        let parts: Vec<_> = items
            .chunks(per)
            .map(|c| s.spawn(move || c.iter().map(size).collect::<Vec<_>>()))
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// Second decision, once the inputs are listed: where the backend comes
/// from (already open, or starting in its own thread), or `None` for the CPU.
pub fn start(
    wanted: Wanted,
    cfg: &Config,
    sizes: &[Option<u64>],
    prog: &str,
) -> Option<(mpsc::Receiver<Result<Backend, GpuError>>, bool)> {
    let (tx, rx) = mpsc::channel();
    match wanted {
        Wanted::No | Wanted::Open => None,
        Wanted::Now(backend) => {
            let _ = tx.send(Ok(backend));
            Some((rx, true))
        }
        Wanted::Auto(min) => {
            let bytes: u64 = sizes.iter().flatten().sum();
            // Simulated: from any size, the backend after a delay (ms).
            let sim_delay = simulated().then(|| {
                std::env::var("GPUGREP_GPU_SIMULATE_DELAY")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0u64)
            });
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
                    "engine: auto: {bytes} bytes of files; CPU until the GPU is ready, then both"
                ),
            );
            // Detached: if the CPU finishes first, the run ends without
            // waiting for CUDA.
            let spawned = std::thread::Builder::new()
                .name("gpu-init".into())
                .spawn(move || {
                    let backend = match sim_delay {
                        Some(ms) => {
                            std::thread::sleep(std::time::Duration::from_millis(ms));
                            Ok(Backend::Simulated)
                        }
                        None => GpuEngine::open().map(|e| Backend::Gpu(Box::new(e))),
                    };
                    let _ = tx.send(backend);
                });
            spawned.ok().map(|_| (rx, false))
        }
    }
}

/// The pipeline's sizes for `need` bytes of files (with separators): a
/// small search gets a small ring (allocating and pinning 1 GiB costs
/// about 0.1 s).
fn shape(cfg: &Config, gpu_only: bool, tally: Option<MatchCount>, need: u64) -> Shape {
    let lists = matches!(cfg.mode, Mode::FilesWithMatches | Mode::FilesWithoutMatch);
    // Auto starts the GPU only for searches measured several times faster
    // there (sets, regexes with many literals); once it is ready the CPU
    // stops taking files, unless it stops early in a file (-l, -L, -q, -m),
    // which the GPU cannot (16 GiB, 1,000 literals, -c: auto 1.66 s with the
    // CPU taking files throughout, --engine gpu 1.16 s).
    let stops_early = lists || cfg.mode == Mode::Quiet || cfg.max_count.is_some();
    let env = |k: &str| {
        std::env::var(k)
            .ok()
            .and_then(|v| crate::config::parse_size(&v))
    };
    let mut chunk = env("GPUGREP_GPU_CHUNK").unwrap_or(CHUNK_BYTES);
    if let Some(budget) = cfg.gpu_memory {
        chunk = chunk.min((budget as f64 / (LANES as f64 * LANE_CHUNKS)) as u64);
    }
    let chunk = chunk.min(need).max(1);
    let staging = cfg.gpu_staging.unwrap_or(STAGING_BYTES);
    let lanes = std::env::var("GPUGREP_GPU_LANES")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(LANES);
    Shape {
        chunk: usize::try_from(chunk).unwrap_or(usize::MAX),
        // Enough chunks for every lane plus one filling; tiny test chunks
        // do not make a huge ring.
        ring: usize::try_from((staging / chunk).min(need.div_ceil(chunk) + lanes as u64))
            .unwrap_or(usize::MAX)
            .clamp(1, MAX_RING_CHUNKS),
        lanes,
        readers: cfg.threads.max(1),
        gpu_only,
        yield_when_ready: !stops_early,
        // With final matches, -l and -L need one per file (-q stops the
        // whole pipeline at the first).
        settle: lists && tally.is_some(),
    }
}

/// A file's GPU offsets as the prefilter of its search.
struct FileOffsets<'s> {
    offsets: &'s [u64],
    target: &'s Target,
    /// False when the offsets are a regex's required literals: candidates,
    /// whose whole line the regex confirms (the literal may sit anywhere
    /// in the match).
    exact: bool,
}

impl Matcher for FileOffsets<'_> {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let i = self.offsets.partition_point(|&o| o < at as u64);
        for &g in &self.offsets[i..] {
            let g = g as usize;
            // `hay` is the file or a prefix of it (a piece of a split search).
            let len = match self.target {
                // Exact: inside the file by the pieces' bounds. Offsets
                // ascend: if this one runs past the end, so do all later.
                Target::One(p) => return (g + p.len() <= hay.len()).then(|| g..g + p.len()),
                // The kernel checked patterns against the whole chunk: one
                // may have run past the file's end into the next. Checked
                // again inside `hay`, which also gives the longest.
                Target::Many(t) => t.longest_at(hay, g),
            };
            if let Some(len) = len {
                return Some(g..g + len);
            }
        }
        None
    }

    fn is_exact(&self) -> bool {
        self.exact
    }
}

/// What the GPU searches for in this run, if it can, and whether what it
/// finds are matches (else candidates for the regex).
fn target(compiled: &Compiled) -> Option<(Target, bool)> {
    let plan = compiled.gpu.as_ref()?;
    Target::new(plan).map(|t| (t, plan.offsets_are_matches()))
}

/// Whether chunks report counts per file instead of match offsets, and
/// how they count matches: the output is a count or a file name, and what
/// the GPU finds is final: exact literals, no confirm step (`-w`, `-x`, a
/// character boundary; a regex that is exactly its literals confirms only
/// what to print), raw bytes, no inverted or JSON output, no binary
/// probe (`-I`). `--count-matches` counts non-overlapping matches, which
/// are the match starts for one literal that cannot overlap itself.
fn tally_mode(shared: &Shared, target: &Target, exact: bool) -> Option<MatchCount> {
    let (cfg, c) = (&shared.cfg, &shared.compiled);
    let plain = exact
        && prefilter_selects(&*c.prefilter, c.confirm.is_some())
        && matches!(c.encoding, EncodingPlan::Raw { .. })
        && !cfg.invert
        && !cfg.json
        && cfg.binary != BinaryMode::WithoutMatch
        && cfg.max_count != Some(0);
    if !plain {
        return None;
    }
    match cfg.mode {
        Mode::Count | Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet => {
            Some(MatchCount::Starts)
        }
        Mode::CountMatches if cfg.max_count.is_none() => match target {
            Target::One(p) if !overlaps_itself(p) => Some(MatchCount::Starts),
            _ => Some(MatchCount::NonOverlapping),
        },
        Mode::CountMatches | Mode::Lines => None,
    }
}

/// Two occurrences of `p` can overlap (`p` has a border: "aa", "abab").
fn overlaps_itself(p: &[u8]) -> bool {
    (1..p.len()).any(|k| p[k..] == p[..p.len() - k])
}

/// The scheme of the character-boundary back-read the GPU runs on its
/// candidates: for patterns transcoded into a multi-byte encoding. The
/// terminator separates packed files, so the walk back must stop at it:
/// `\n` and NUL are sure bytes in every scheme; with a terminator that is
/// not, the GPU would leave the check to the CPU.
fn backread_scheme(compiled: &Compiled, terminator: u8) -> Option<Scheme> {
    // GPUGREP_GPU_BACKREAD=0: candidates go to the CPU unfiltered (to
    // measure what the GPU's check saves).
    if std::env::var_os("GPUGREP_GPU_BACKREAD").is_some_and(|v| v == "0") {
        return None;
    }
    match compiled.encoding {
        EncodingPlan::Transcoded(enc) => Scheme::of(enc).filter(|s| s.sure_after(terminator)),
        _ => None,
    }
}

/// Searches every item through the pipeline, in order.
pub fn search(
    shared: &Shared,
    backend: mpsc::Receiver<Result<Backend, GpuError>>,
    gpu_only: bool,
    items: &[Item],
    sizes: &[Option<u64>],
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let cpu = &*shared.compiled.prefilter;
    let Some((target, exact)) = target(&shared.compiled) else {
        let job = |_: usize, input: &Input, stream: Option<&mut dyn Write>| {
            one::search_input(shared, input, None, cpu, stream)
        };
        return search_items(shared, items, &job, out, state);
    };
    if let Target::Many(t) = &target {
        debug(
            &shared.cfg,
            &shared.prog,
            &format!(
                "gpu: multi kernel: {} literals of {} to {} bytes, {} distinct 4-byte keys",
                t.len(),
                t.minlen,
                t.maxlen,
                t.keys.len()
            ),
        );
    }
    let need = sizes.iter().flatten().map(|s| s + 1).sum();
    let tally = tally_mode(shared, &target, exact);
    let shape = shape(&shared.cfg, gpu_only, tally, need);
    let ring = pipeline::ring(shape.ring);
    let terminator = shared.cfg.terminator;
    let scheme = backread_scheme(&shared.compiled, terminator);
    if tally.is_some() {
        debug(
            &shared.cfg,
            &shared.prog,
            "gpu: files in chunks of whole files are counted on the GPU",
        );
    }
    let flow = Flow::new(items, sizes, &target, scheme, terminator, tally, shape);
    let job = |i: usize, input: &Input, stream: Option<&mut dyn Write>| -> io::Result<FileResult> {
        match flow.take(i) {
            Take::Cpu => one::search_input(shared, input, None, cpu, stream),
            Take::Gone => Ok(FileResult::default()),
            Take::Gpu(entry) => {
                let t = std::time::Instant::now();
                let r = search_entry(shared, input, &entry, &target, exact, stream);
                flow.stages
                    .output_ns
                    .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
                r
            }
        }
    };
    let result = std::thread::scope(|s| {
        let flow = &flow;
        let ring = &ring;
        s.spawn(move || flow.run(ring, backend));
        let r = search_items(shared, items, &job, out, state);
        flow.abort();
        r
    });
    report(shared, &flow, shape, state);
    drop(flow);
    // The process exits next: leave the ring to it (unpinning and freeing
    // 1 GiB took 0.1-0.2 s on the H100 host).
    std::mem::forget(ring);
    result
}

/// Searches one GPU-claimed file: its bytes from the chunk (or a fresh
/// map), the GPU's offsets as prefilter, or the CPU's when the GPU passed.
fn search_entry(
    shared: &Shared,
    input: &Input,
    entry: &pipeline::Entry,
    target: &Target,
    exact: bool,
    mut stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let cpu = &*shared.compiled.prefilter;
    let mapped;
    let bytes = match (entry.bytes(), &input.path) {
        (Some(b), _) => b,
        (None, Some(path)) => match source::open(path, true) {
            Ok(Source::Mapped(m)) => {
                mapped = m;
                &mapped[..]
            }
            _ => return one::search_input(shared, input, None, cpu, stream),
        },
        (None, None) => return one::search_input(shared, input, None, cpu, stream),
    };
    if entry.cpu {
        return one::search_input(shared, input, Some(bytes), cpu, stream);
    }
    if let Some(c) = entry.count {
        let (lines, matches) = (u64::from(c.lines), u64::from(c.matches));
        if let Some(r) = one::tallied(shared, input, bytes, lines, matches, stream.as_deref_mut())?
        {
            return Ok(r);
        }
        // No offsets were kept for this file: the CPU searches it.
        return one::search_input(shared, input, Some(bytes), cpu, stream);
    }
    let matcher = FileOffsets {
        offsets: &entry.offsets,
        target,
        exact,
    };
    one::search_input(shared, input, Some(bytes), &matcher, stream)
}

/// `--debug` notes and the `--stats` lines for the pipeline's stages.
fn report(shared: &Shared, flow: &Flow, shape: Shape, state: &mut Printed) {
    let prog = &shared.prog;
    if shared.cfg.debug {
        for n in flow.notes.lock().map(|n| n.clone()).unwrap_or_default() {
            eprintln!("{prog}: debug: gpu: {n}");
        }
    }
    let st = &flow.stages;
    let get = |a: &std::sync::atomic::AtomicU64| a.load(Ordering::Relaxed);
    let secs = |ns: u64| ns as f64 / 1e9;
    let lanes = st.lanes.lock().map(|t| *t).unwrap_or_default();
    let lines = vec![
        format!(
            "gpu: {} bytes in {} chunks of at most {} MiB ({} dense, searched by the CPU; {} tallied on the GPU), {} files ({} bytes of them unread: settled by a match); {}",
            get(&st.gpu_bytes),
            get(&st.chunks),
            shape.chunk >> 20,
            get(&st.dense_chunks),
            get(&st.tallied_chunks),
            get(&st.gpu_files),
            get(&st.settled_bytes),
            match get(&st.ready_ms) {
                0 => "GPU never ready".to_string(),
                ms => format!("ready after {:.3} s", (ms - 1) as f64 / 1e3),
            },
        ),
        format!(
            "gpu stages: read/copy {:.3} s over {} threads, transfer {:.3} s and kernel {:.3} s over {} streams, readback {:.3} s, lines and output {:.3} s over {} threads",
            secs(get(&st.read_ns)),
            shape.readers,
            lanes.upload_ms / 1e3,
            lanes.search_ms / 1e3,
            shape.lanes,
            lanes.readback_ms / 1e3,
            secs(get(&st.output_ns)),
            shared.cfg.threads,
        ),
        format!("cpu: {} files searched by the CPU engine", get(&st.cpu_files)),
    ];
    if shared.cfg.debug {
        eprintln!(
            "{prog}: debug: gpu: packer waited {:.3} s for chunks, {:.3} s of it allocating; lanes busy {:.3} s",
            secs(get(&st.slot_wait_ns)),
            secs(get(&st.alloc_ns)),
            secs(get(&st.lane_ns)),
        );
        for l in &lines {
            eprintln!("{prog}: debug: {l}");
        }
    }
    state.stage_lines = lines;
    state.gpu = get(&st.chunks) > 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use crate::engine::gpu::MultiTables;
    use crate::search::{Line, SearchOptions, Searcher, Sink};
    use proptest::prelude::*;

    #[derive(Default)]
    struct Lines(Vec<u64>);
    impl Sink for Lines {
        fn selected(&mut self, line: &Line) -> io::Result<bool> {
            self.0.push(line.offset);
            Ok(true)
        }
        fn context(&mut self, _: &Line) -> io::Result<()> {
            Ok(())
        }
        fn gap(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn selected(data: &[u8], m: &dyn Matcher, line: &dyn Matcher) -> Vec<u64> {
        let opts = SearchOptions {
            terminator: b'\n',
            invert: false,
            max_count: None,
            before: 0,
            after: 0,
            line_numbers: false,
            stop_on_nul: false,
            separators: false,
        };
        let mut sink = Lines::default();
        Searcher::with_line_matcher(opts, m, line, true)
            .search_slice(data, &mut sink)
            .unwrap();
        sink.0
    }

    proptest! {
        /// Every occurrence (overlapping ones included, as the GPU reports
        /// them) selects exactly the lines memmem selects.
        #[test]
        fn file_offsets_select_the_same_lines_as_memmem(
            file in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..60),
            pattern in prop::collection::vec(prop::sample::select(b"ab".to_vec()), 1..4),
        ) {
            let offsets: Vec<u64> = (0..file.len())
                .filter(|&i| file[i..].starts_with(&pattern))
                .map(|i| i as u64)
                .collect();
            let target = Target::One(pattern.clone());
            let gpu = FileOffsets { offsets: &offsets, target: &target, exact: true };
            let lit = Literal::new(&pattern);
            prop_assert_eq!(selected(&file, &gpu, &lit), selected(&file, &lit, &lit));
        }

        /// For a set, offsets may also hold positions where a pattern only
        /// matched across the file's end (in the chunk): those are checked
        /// again, and the lines selected are a naive search's.
        #[test]
        fn set_offsets_are_checked_again(
            file in prop::collection::vec(prop::sample::select(b"ab\n".to_vec()), 0..60),
            pats in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab".to_vec()), 1..4), 2..5),
            noise in prop::collection::vec(0usize..70, 0..10),
        ) {
            let naive = NaiveSet(pats.clone());
            let mut offsets: Vec<u64> = (0..file.len())
                .filter(|&i| naive.longest_at(&file, i).is_some())
                .map(|i| i as u64)
                .chain(noise.iter().map(|&n| n as u64))
                .collect();
            offsets.sort_unstable();
            offsets.dedup();
            let target = Target::Many(Box::new(MultiTables::new(&pats).unwrap()));
            let gpu = FileOffsets { offsets: &offsets, target: &target, exact: true };
            prop_assert_eq!(selected(&file, &gpu, &naive), selected(&file, &naive, &naive));
        }
    }

    /// The longest pattern at the leftmost position: obviously correct.
    struct NaiveSet(Vec<Vec<u8>>);

    impl NaiveSet {
        fn longest_at(&self, hay: &[u8], at: usize) -> Option<usize> {
            self.0
                .iter()
                .filter(|p| hay[at..].starts_with(p))
                .map(|p| p.len())
                .max()
        }
    }

    impl Matcher for NaiveSet {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            (at..hay.len()).find_map(|i| self.longest_at(hay, i).map(|l| i..i + l))
        }
    }

    /// Regression: a split search hands each thread a prefix of the file;
    /// offsets past the prefix made the searcher slice out of bounds.
    #[test]
    fn offsets_past_a_prefix_of_the_file_are_not_reported() {
        let offsets = [2, 10];
        let target = Target::One(b"xx".to_vec());
        let m = FileOffsets {
            offsets: &offsets,
            target: &target,
            exact: true,
        };
        let file = [b'x'; 20];
        assert_eq!(m.find_at(&file, 0), Some(2..4));
        assert_eq!(m.find_at(&file[..8], 3), None);
        assert_eq!(m.find_at(&file[..12], 3), Some(10..12));
        assert_eq!(m.find_at(&file[..11], 3), None);
    }

    #[test]
    fn sizes_are_given_only_for_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("f");
        std::fs::write(&f, b"hello").unwrap();
        let input = |p: Option<std::path::PathBuf>| {
            Item::Input(Input {
                name: b"x".to_vec(),
                path: p,
                from_recursion: false,
            })
        };
        let items = vec![
            input(Some(f)),
            input(Some(dir.path().to_path_buf())),
            input(None),
            Item::Error("e".into()),
        ];
        assert_eq!(sizes(&items, 2), vec![Some(5), None, None, None]);
    }

    /// Under auto the CPU stops taking files once the GPU is ready, except
    /// where it stops early in a file and the GPU cannot.
    #[test]
    fn the_cpu_yields_to_a_ready_gpu_unless_it_stops_early() {
        let yields = |args: &[&str]| {
            let cfg = Config::from_args(&[&["-F", "x", "f"], args].concat());
            shape(&cfg, false, None, 1 << 30).yield_when_ready
        };
        assert!(yields(&[]));
        assert!(yields(&["-c"]));
        assert!(yields(&["--count-matches"]));
        assert!(!yields(&["-l"]));
        assert!(!yields(&["-L"]));
        assert!(!yields(&["-q"]));
        assert!(!yields(&["-c", "-m", "3"]));
    }
}
