//! Running a search: patterns → engine → every input → ordered output.
//!
//! Inputs are searched in parallel; each worker writes a file's output into
//! its own buffer and the main thread prints the buffers in input order, so
//! the output is the same with 1 thread or 64: listed inputs and the
//! one-thread walk in `parallel`, trees walked by every thread in
//! `ordered`, the GPU pipeline in `gpu`. A single input streams straight to
//! stdout instead (`tail -f | gpugrep`).

mod gathered;
mod gpu;
mod one;
mod ordered;
mod packed;
mod parallel;
mod printed;

use crate::config::{Config, Mode};
use crate::error::Error;
use crate::exit::ExitStatus;
use crate::input::same_file::{self, OutputFile};
use crate::input::walk::{self, Input, Item};
use crate::output::json::write_summary;
use crate::output::standard::PrintOptions;
use crate::pattern::{self, Compiled};
use crate::search::Helpers;
pub use gpu::driver_busy as gpu_driver_busy;
pub use gpu::on_pipeline as on_gpu_pipeline;
use parallel::{search_items, search_walked_in_turn, search_walking, BYTES_AHEAD};
use printed::Printed;
use std::io::{self, IsTerminal, Write};
use std::mem::ManuallyDrop;

/// What every worker reads.
pub struct Shared {
    pub cfg: Config,
    pub compiled: Compiled,
    pub print: PrintOptions,
    /// The program name for messages.
    pub prog: String,
    /// Threads that may split one large file: the run's threads, for the
    /// only input, or among many when lines are printed (a tree of 64 logs
    /// of 270 MB printed with `-n`, each read by one thread, kept the
    /// others waiting for the ordered printer: 16 cores, 24-49 s, split
    /// 16-18 s, rg 6 s). Not for counts and names: nothing waits there, and
    /// mapping and splitting made `-c` slower (2.36-2.52 s → 2.81-2.84 s).
    pub split_threads: usize,
    /// The run's only input is mapped whatever its size (with several
    /// threads: it may be split); among many, files from
    /// `source::map_from` are.
    pub map_inputs: bool,
    /// Threads that may decompress one file's members or frames: the
    /// run's threads shared among the inputs when there are fewer inputs
    /// than threads (known only when the inputs are listed first).
    pub decompress_threads: usize,
    /// Standard output's file, when inputs must not be it.
    pub output_file: Option<OutputFile>,
    /// The search threads' offers of a split file's pieces (`search::help`),
    /// enabled where several threads search many inputs.
    pub helpers: Helpers,
}

impl Shared {
    /// Whether a file's output may go to the printer in parts while it is
    /// searched: not where a group separator may be owed before it
    /// (context), which is known only once the file is searched.
    fn output_in_parts(&self) -> bool {
        !(self.cfg.context_given && self.cfg.mode == Mode::Lines)
    }

    /// The helpers of `workers` search threads: enabled when there are
    /// several (`search::help`).
    fn helpers_of(&self, workers: usize) -> &Helpers {
        if workers > 1 {
            self.helpers.enable();
        }
        &self.helpers
    }
}

/// Runs the whole search and returns the exit status; `Err`: what ends
/// the run before or instead of searching, for `main` to print. The
/// process exits next.
pub fn run(cfg: Config, prog: &str) -> Result<ExitStatus, Error> {
    let status = search_run(cfg, prog);
    // CUDA's teardown, begun beside the output, ends before the exit.
    gpu::await_released(gpu::AWAIT_MAX);
    status
}

fn search_run(cfg: Config, prog: &str) -> Result<ExitStatus, Error> {
    let located = pattern::read::read_patterns_located(&cfg.patterns)?;
    let patterns = &located.list;
    if selects_nothing(&cfg, patterns) {
        return Ok(ExitStatus::NothingSelected);
    }
    gpu::prewarm(&cfg);
    crate::search::set_read_threads(cfg.threads);
    let started = std::time::Instant::now();
    // Listing, timed for --stats: the inputs, and for the GPU their sizes,
    // each told to `heard` as it is read.
    let output_file = same_file::output_file(&cfg);
    let list = |heard: Option<&(dyn Fn(u64) + Sync)>| {
        let t = std::time::Instant::now();
        let (items, sizes) = match heard {
            Some(heard) => walk::collect_sized(&cfg, heard),
            None => (walk::collect(&cfg), Vec::new()),
        };
        (items, sizes, Some(t.elapsed()))
    };
    // A large rule pack under auto: the inputs are listed while it
    // compiles, and CUDA opens as soon as they prove large
    // (`gpu::beside_compile`).
    let (compiled, listed_early) = std::thread::scope(|s| {
        let early = gpu::beside_compile(&cfg, patterns).then(|| {
            s.spawn(|| {
                let open = gpu::OpenAt::beside_compile(patterns);
                (list(Some(&|bytes| open.heard(bytes))), open.opened())
            })
        });
        let compiled = pattern::compile(patterns, &cfg);
        (compiled, early.and_then(|h| h.join().ok()))
    });
    let mut compiled = compiled.map_err(|e| pattern::compile::locate(e, &located, &cfg))?;
    for w in &compiled.warnings {
        eprintln!("{prog}: warning: {w}");
    }
    if cfg.debug {
        eprintln!("{prog}: debug: patterns: {}", compiled.description);
    }
    let wanted = gpu::wanted(&cfg, &compiled, patterns.len(), prog).map_err(Error::from)?;
    let gpu_possible = !matches!(wanted, gpu::Wanted::No);
    let listed_early = listed_early.map(|(listed, opened)| {
        if let (Some(bytes), true) = (opened, cfg.debug) {
            eprintln!("{prog}: debug: engine: auto: CUDA opened beside the compile ({bytes} bytes of files, {} patterns)", patterns.len());
        }
        if !gpu_possible {
            gpu::release_ahead();
        }
        listed
    });
    // Walking a tree overlaps with searching it on the CPU: the first lines
    // come out (and -q ends) before a large tree is walked, and one thread
    // (`-j1`) keeps no list of the tree's files. Whenever the GPU may take
    // part, the inputs are listed first, by all threads. (Listing first was
    // faster on 100,000 small files, 0.26-0.27 s against 0.31-0.34 s on 16
    // cores, but prints nothing until the whole tree is listed.)
    let walk_while_searching = !gpu_possible
        && listed_early.is_none()
        && cfg.recursive
        && !cfg.paths.iter().any(|p| p == "-");
    // The GPU pipeline reads files itself: the output is taken out first.
    let for_gpu = |(items, sizes, t): (Vec<Item>, Vec<Option<u64>>, _)| match output_file {
        Some(o) if gpu_possible => (without_output(items, o), sizes, t),
        _ => (items, sizes, t),
    };
    let (wanted, (items, sizes, listed)) = match (wanted, listed_early) {
        (wanted, _) if walk_while_searching => (wanted, (Vec::new(), Vec::new(), None)),
        (wanted, Some(listed)) => (wanted, for_gpu(listed)),
        // CUDA starts while the inputs are listed and the pipeline reads
        // its first chunks; if it cannot start, the run ends with its error
        // before printing anything (`gpu::search`).
        (gpu::Wanted::Open, None) => (
            gpu::open_in_background(cfg.debug, prog),
            for_gpu(list(Some(&|_| {}))),
        ),
        // Auto opens CUDA while the inputs are listed once they hold the
        // bytes from which the pipeline starts it at once
        // (`gpu::opens_at_once`).
        (gpu::Wanted::Auto(min), None) => {
            let from = gpu::opens_at_once(&cfg, &compiled, min).unwrap_or(u64::MAX);
            let open = gpu::OpenAt::new(from);
            let listed = list(Some(&|bytes| open.heard(bytes)));
            if let (Some(bytes), true) = (open.opened(), cfg.debug) {
                eprintln!("{prog}: debug: engine: auto: CUDA opened while the inputs were listed (from {from} bytes of files; {bytes} found)");
            }
            (gpu::Wanted::Auto(min), for_gpu(listed))
        }
        (wanted, None) => (wanted, for_gpu(list(gpu_possible.then_some(&|_| {})))),
    };
    let wanted = gpu::settle(wanted, &mut compiled, &cfg, (&items, &sizes), prog);
    let gpu = gpu::start(wanted, &cfg, &sizes, prog);
    let mut print = PrintOptions::from_config(&cfg);
    print.decode = compiled.encoding.printed_decoding();
    let cfg_threads = cfg.threads;
    // Among many files, a large one is split unless its first selected
    // line ends its search (`search::split`; README, "Engines").
    let split_any = items.len() == 1 || !cfg.mode.first_match_ends();
    // Never dropped: the process exits after the run, and frees it at no
    // cost; dropping a pack of 10,000 rules took 37-150 ms after the last
    // output (H200 host, `benches/RESULTS.md`, thirty-third session).
    let shared = ManuallyDrop::new(Shared {
        cfg,
        compiled,
        print,
        prog: prog.to_string(),
        split_threads: match split_any {
            true => cfg_threads,
            false => 1,
        },
        map_inputs: items.len() == 1 && cfg_threads > 1,
        decompress_threads: match items.len() {
            0 => 1,
            n => (cfg_threads / n).max(1),
        },
        output_file,
        helpers: Helpers::default(),
    });
    let quiet = shared.cfg.mode == Mode::Quiet;
    let inputs = match gpu {
        _ if walk_while_searching => Inputs::Walk,
        Some(pending) => Inputs::Gpu(&items, &sizes, pending),
        None => Inputs::Listed(&items),
    };
    let (selected, had_error) = match search_all(&shared, inputs) {
        Ok(mut state) => {
            if let Some(e) = state.gpu_unavailable.take() {
                return Err(Error::from(e));
            }
            if shared.cfg.stats {
                state.print_stats(started.elapsed(), listed);
            }
            (state.selected, state.had_error)
        }
        // stdout closed (`| head -1`): stop quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => (true, false),
        Err(e) => return Err(Error::Write(e)),
    };
    Ok(ExitStatus::from_outcome(selected, had_error, quiet))
}

/// The items with the output file reported in its place.
fn without_output(items: Vec<Item>, output: OutputFile) -> Vec<Item> {
    items
        .into_iter()
        .map(|item| match item {
            Item::Input(input) if output.is_input(&input) => {
                Item::Error(same_file::message(&String::from_utf8_lossy(input.name())))
            }
            item => item,
        })
        .collect()
}

/// GNU grep's skip-read: when no line can be selected (`-m 0`, no patterns
/// at all as with an empty `-f` file, or `-v` with only empty patterns,
/// which match every line), it exits with status 1 at once, opening no
/// file, unless `-L` must list the files.
fn selects_nothing(cfg: &Config, patterns: &[Vec<u8>]) -> bool {
    if cfg.mode == Mode::FilesWithoutMatch {
        return false;
    }
    let no_patterns = patterns.is_empty() && !cfg.invert;
    let all_empty = !patterns.is_empty()
        && patterns.iter().all(Vec::is_empty)
        && cfg.invert
        && !cfg.line
        && !cfg.word;
    cfg.max_count == Some(0) || no_patterns || all_empty
}

/// The inputs: listed in advance, or walked while searching, or listed
/// with their sizes for the GPU pipeline (with its backend, and whether
/// the GPU alone searches).
enum Inputs<'a> {
    Listed(&'a [Item]),
    Walk,
    Gpu(&'a [Item], &'a [Option<u64>], gpu::Pending),
}

/// Searches every item; returns what was printed and found.
fn search_all(shared: &Shared, inputs: Inputs) -> io::Result<Printed> {
    let started = std::time::Instant::now();
    let stdout = io::stdout().lock();
    // Block-buffer into pipes and files (one write per 64 KiB, not one per
    // line or file); a terminal and --line-buffered get every line at once.
    let mut out: Box<dyn Write> = if crate::stdio::stdout_closed() {
        Box::new(crate::stdio::ClosedOutput)
    } else if shared.cfg.line_buffered || stdout.is_terminal() {
        Box::new(stdout)
    } else {
        Box::new(io::BufWriter::with_capacity(64 * 1024, stdout))
    };
    let out = &mut *out;
    let mut state = Printed::default();
    let prefilter = &*shared.compiled.prefilter;
    let job = |_: usize, input: &Input, stream: Option<&mut dyn Write>| {
        one::search_input(shared, input, None, prefilter, 0, stream)
    };
    match inputs {
        Inputs::Gpu(items, sizes, pending) => {
            gpu::search(shared, pending, items, sizes, out, &mut state)?
        }
        Inputs::Listed(items) => search_items(shared, items, &job, BYTES_AHEAD, out, &mut state)?,
        Inputs::Walk if shared.cfg.threads <= 1 => {
            search_walked_in_turn(shared, &job, out, &mut state)?
        }
        // Trees without `-R` or `--gitignore`: walked by every thread.
        Inputs::Walk if !shared.cfg.follow_links && !shared.cfg.gitignore => {
            let starts = walk::starts(&shared.cfg);
            ordered::search_trees(shared, starts, shared.cfg.threads, &job, out, &mut state)?
        }
        Inputs::Walk => search_walking(shared, &job, out, &mut state)?,
    }
    if shared.cfg.json && shared.cfg.mode != Mode::Quiet {
        let mut summary = Vec::new();
        write_summary(&mut summary, &state.json, started.elapsed());
        out.write_all(&summary)?;
    }
    out.flush()?;
    Ok(state)
}
