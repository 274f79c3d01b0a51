//! Running a search: patterns → engine → every input → ordered output.
//!
//! Inputs are searched in parallel, one per worker at a time; each worker
//! writes a file's output into its own buffer and the main thread prints the
//! buffers in input order, so the output is the same with 1 thread or 64.
//! A single input streams straight to stdout instead (`tail -f | gpugrep`).

mod gpu;
mod one;
mod ordered;

use crate::config::{Config, Mode};
use crate::engine::gpu::GpuError;
use crate::error::{Error, Message};
use crate::exit::ExitStatus;
use crate::input::same_file::{self, OutputFile};
use crate::input::walk::{self, Input, Item};
use crate::output::json::{write_summary, JsonStats};
use crate::output::standard::{write_separator, PrintOptions};
use crate::pattern::{self, Compiled};
use one::FileResult;
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What every worker reads.
pub struct Shared {
    pub cfg: Config,
    pub compiled: Compiled,
    pub print: PrintOptions,
    /// The program name for messages.
    pub prog: String,
    /// Threads that may split one large file (the run's only input).
    pub split_threads: usize,
    /// Threads that may decompress one file's members or frames: the
    /// run's threads shared among the inputs when there are fewer inputs
    /// than threads (known only when the inputs are listed first).
    pub decompress_threads: usize,
    /// Standard output's file, when inputs must not be it.
    pub output_file: Option<OutputFile>,
}

/// Runs the whole search and returns the exit status; `Err`: what ends
/// the run before or instead of searching, for `main` to print.
pub fn run(cfg: Config, prog: &str) -> Result<ExitStatus, Error> {
    let patterns = pattern::read_patterns(&cfg.patterns)?;
    if selects_nothing(&cfg, &patterns) {
        return Ok(ExitStatus::NothingSelected);
    }
    let compiled = pattern::compile(&patterns, &cfg)?;
    for w in &compiled.warnings {
        eprintln!("{prog}: warning: {w}");
    }
    if cfg.debug {
        eprintln!("{prog}: debug: patterns: {}", compiled.description);
    }
    let wanted = gpu::wanted(&cfg, &compiled, prog).map_err(Error::from)?;
    let gpu_possible = !matches!(wanted, gpu::Wanted::No);
    // Walking a tree overlaps with searching it when the CPU searches with
    // several threads: the first lines come out (and -q ends) before a
    // large tree is walked. Otherwise, and whenever the GPU may take part,
    // the inputs are listed first, by all threads. (Listing first was
    // faster on 100,000 small files, 0.26-0.27 s against 0.31-0.34 s on 16
    // cores, but prints nothing until the whole tree is listed.)
    let walk_while_searching =
        !gpu_possible && cfg.recursive && cfg.threads > 1 && !cfg.paths.iter().any(|p| p == "-");
    let started = std::time::Instant::now();
    // Listing, timed for --stats: the inputs, and for the GPU their sizes.
    let output_file = same_file::output_file(&cfg);
    let list = || {
        let t = std::time::Instant::now();
        let items = walk::collect(&cfg);
        // The GPU pipeline reads files itself: the output is taken out first.
        let items = match output_file {
            Some(o) if gpu_possible => without_output(items, o),
            _ => items,
        };
        let sizes = match gpu_possible {
            true => gpu::sizes(&items, cfg.threads),
            false => Vec::new(),
        };
        (items, sizes, Some(t.elapsed()))
    };
    let (wanted, (items, sizes, listed)) = match wanted {
        _ if walk_while_searching => (wanted, (Vec::new(), Vec::new(), None)),
        gpu::Wanted::Open => {
            // CUDA starts while the inputs are listed.
            let (opened, listed) = std::thread::scope(|s| {
                let opening = s.spawn(|| gpu::open(&cfg, prog));
                let listed = list();
                let opened = opening
                    .join()
                    .unwrap_or_else(|_| Err("the GPU failed to start".to_string()));
                (opened, listed)
            });
            (gpu::Wanted::Now(opened.map_err(Error::from)?), listed)
        }
        _ => (wanted, list()),
    };
    let gpu = gpu::start(wanted, &cfg, &sizes, prog);
    let mut print = PrintOptions::from_config(&cfg);
    print.decode = compiled.encoding.printed_decoding();
    let cfg_threads = cfg.threads;
    let shared = Shared {
        cfg,
        compiled,
        print,
        prog: prog.to_string(),
        split_threads: if items.len() == 1 { cfg_threads } else { 1 },
        decompress_threads: match items.len() {
            0 => 1,
            n => (cfg_threads / n).max(1),
        },
        output_file,
    };
    let quiet = shared.cfg.mode == Mode::Quiet;
    let inputs = match gpu {
        _ if walk_while_searching => Inputs::Walk,
        Some((backend, gpu_only)) => Inputs::Gpu(&items, &sizes, backend, gpu_only),
        None => Inputs::Listed(&items),
    };
    let (selected, had_error) = match search_all(&shared, inputs) {
        Ok(state) => {
            if shared.cfg.stats {
                state.print_stats(started.elapsed(), listed, gpu::why_cpu(&shared.cfg));
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
                Item::Error(same_file::message(&String::from_utf8_lossy(&input.name)))
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
    Gpu(
        &'a [Item],
        &'a [Option<u64>],
        mpsc::Receiver<Result<gpu::Backend, GpuError>>,
        bool,
    ),
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
        one::search_input(shared, input, None, prefilter, stream)
    };
    match inputs {
        Inputs::Gpu(items, sizes, backend, gpu_only) => {
            gpu::search(shared, backend, gpu_only, items, sizes, out, &mut state)?
        }
        Inputs::Listed(items) => search_items(shared, items, &job, out, &mut state)?,
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

/// Searches one input: the item's index, the input, and where to stream.
type Job<'a> = dyn Fn(usize, &Input, Option<&mut dyn Write>) -> io::Result<FileResult> + Sync + 'a;

/// Searches the items in order (in parallel when there are several).
pub(crate) fn search_items(
    shared: &Shared,
    items: &[Item],
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    // Standard input named twice (`- -`) must be read in order: the first
    // gets the data, the second finds it empty.
    let stdins = items
        .iter()
        .filter(|i| matches!(i, Item::Input(input) if input.path.is_none()))
        .count();
    let single = items.len() == 1 || shared.cfg.threads <= 1 || stdins > 1;
    if single {
        for (i, item) in items.iter().enumerate() {
            let mut result = match item {
                Item::Error(msg) => error_result(msg),
                Item::Input(input) => {
                    // Stream straight to stdout, unless a group separator
                    // may be owed before this file's first line.
                    let owes_separator = state.any_lines
                        && shared.cfg.context_given
                        && shared.cfg.mode == Mode::Lines;
                    let stream: Option<&mut dyn Write> = if owes_separator {
                        None
                    } else {
                        Some(&mut *out)
                    };
                    job(i, input, stream)?
                }
            };
            state.emit(shared, out, &mut result)?;
            if state.stop(shared) {
                break;
            }
        }
        return Ok(());
    }

    let workers = shared.cfg.threads.min(items.len()).max(1);
    let cursor = std::sync::Mutex::new(0);
    // Files named on the command line may be large: one at a time; files
    // found in a tree go in batches, as when walking while searching.
    let next = || {
        let Ok(mut i) = cursor.lock() else {
            return Vec::new();
        };
        let found = |item: &Item| matches!(item, Item::Input(input) if input.from_recursion);
        let n = match items.get(*i) {
            None => 0,
            Some(item) if found(item) => items[*i..]
                .iter()
                .take(batch_size(items.len() - *i, workers))
                .take_while(|item| found(item))
                .count(),
            Some(_) => 1,
        };
        let batch = (*i..*i + n).map(|k| (k, items[k].clone())).collect();
        *i += n;
        batch
    };
    search_parallel(shared, &next, workers, job, out, state)
}

/// Walks the tree in one thread while the others search what it found.
fn search_walking(
    shared: &Shared,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<(usize, Item)>>(256);
        let done = &done;
        scope.spawn(move || {
            // Items go out in batches: one hand-over per file costs more than
            // searching a small file (futex wake-ups).
            let mut batch = Vec::new();
            let mut i = 0;
            let mut emit = |item| {
                batch.push((i, item));
                i += 1;
                // A closed channel means the search stopped (-q, closed stdout).
                let full = batch.len() >= batch_size(i, shared.cfg.threads);
                if full && tx.send(std::mem::take(&mut batch)).is_err() {
                    done.store(true, Ordering::Relaxed);
                }
            };
            walk::walk(&shared.cfg, &mut emit, &|| done.load(Ordering::Relaxed));
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        });
        let rx = std::sync::Mutex::new(rx);
        let next = || {
            rx.lock()
                .ok()
                .and_then(|rx| rx.recv().ok())
                .unwrap_or_default()
        };
        let result = search_parallel(shared, &next, shared.cfg.threads, job, out, state);
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// How many files past the last one printed a worker may search, at least;
/// with many workers, each may hold two full batches ahead (with 16 workers
/// and a fixed 1,024, half of them slept while the others searched).
const AHEAD_LIMIT: usize = 1024;

/// Most files found in a tree handed to a search thread at once. Every
/// hand-over wakes threads: with batches of 16, 100,000 small files on 2
/// cores spent a fifth of their time switching threads, and took 0.31 s
/// against 0.25 s with 128.
const WALK_BATCH: usize = 128;

/// Files per batch when `known` files are found (walking) or left
/// (listed) for `workers`: small at first and for few files, so a tree of
/// a few large files is still shared by all threads.
fn batch_size(known: usize, workers: usize) -> usize {
    (known / (4 * workers.max(1))).clamp(1, WALK_BATCH)
}

/// Where workers take their next items from (index in output order, item);
/// empty when there are no more.
type NextItem<'a> = dyn Fn() -> Vec<(usize, Item)> + Sync + 'a;

/// Workers search items as `next` hands them out; the calling thread prints
/// the results in index order.
fn search_parallel(
    shared: &Shared,
    next: &NextItem,
    workers: usize,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let stop = AtomicBool::new(false);
    // Results wait in memory until every earlier file is printed; workers
    // stay at most this many files ahead of the printer, so one slow file
    // early in a large tree cannot make the others pile up.
    let printed = AtomicUsize::new(0);
    let ahead = AHEAD_LIMIT.max(2 * WALK_BATCH * workers);
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<Vec<(usize, io::Result<FileResult>)>>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (stop, printed) = (&stop, &printed);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let batch = next();
                let Some(&(first, _)) = batch.first() else {
                    break;
                };
                // The batch holding the next file to print never waits here.
                while first > printed.load(Ordering::Acquire) + ahead
                    && !stop.load(Ordering::Relaxed)
                {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                let results = batch
                    .into_iter()
                    .map(|(i, item)| match &item {
                        Item::Error(msg) => (i, Ok(error_result(msg))),
                        Item::Input(input) => (i, job(i, input, None)),
                    })
                    .collect();
                if tx.send(results).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, io::Result<FileResult>> = BTreeMap::new();
        let mut want = 0;
        let outcome = (|| -> io::Result<()> {
            for results in rx.iter() {
                pending.extend(results);
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    printed.store(want, Ordering::Release);
                    let mut r = r?;
                    state.emit(shared, out, &mut r)?;
                    if state.stop(shared) {
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        outcome
    })
}

fn error_result(msg: &str) -> FileResult {
    FileResult {
        messages: vec![Message::Error(msg.to_string())],
        had_error: true,
        ..FileResult::default()
    }
}

/// What has been printed so far, across files.
#[derive(Default)]
pub(crate) struct Printed {
    selected: bool,
    had_error: bool,
    files: u64,
    files_matched: u64,
    bytes: u64,
    lines: u64,
    any_lines: bool,
    json: JsonStats,
    /// The GPU searched at least one chunk.
    gpu: bool,
    /// `--stats` lines about the GPU pipeline's stages.
    stage_lines: Vec<String>,
}

impl Printed {
    /// Prints one file's result in order.
    fn emit(&mut self, shared: &Shared, out: &mut dyn Write, r: &mut FileResult) -> io::Result<()> {
        let cfg = &shared.cfg;
        if r.printed_lines || !r.out.is_empty() {
            let context = cfg.context_given && cfg.mode == Mode::Lines;
            if context && self.any_lines && r.printed_lines {
                let mut sep = Vec::new();
                write_separator(&mut sep, &shared.print);
                out.write_all(&sep)?;
            }
            out.write_all(&r.out)?;
            if cfg.line_buffered {
                out.flush()?;
            }
        }
        self.any_lines |= r.printed_lines;
        if let Some(stats) = &r.json {
            self.json.add(stats);
        }
        self.selected |= r.selected;
        self.had_error |= r.had_error;
        self.files += 1;
        self.files_matched += u64::from(r.selected);
        self.bytes += r.bytes;
        self.lines += r.lines;
        if !r.messages.is_empty() {
            out.flush()?;
            for m in &r.messages {
                if m.shown(cfg.no_messages, cfg.mode == Mode::Quiet) {
                    eprintln!("{}: {m}", shared.prog);
                }
            }
        }
        Ok(())
    }

    /// `--stats`, on stderr so that pipes see only results; `listed`: the
    /// time taken to list the inputs before searching them.
    fn print_stats(
        &self,
        elapsed: std::time::Duration,
        listed: Option<std::time::Duration>,
        why_cpu: Option<&str>,
    ) {
        let secs = elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            self.bytes as f64 / secs / 1e9
        } else {
            0.0
        };
        eprintln!(
            "{} matched lines\n{} files contained matches\n{} files searched\n\
             {} bytes searched\n{secs:.6} seconds\n{rate:.2} GB/s\nengine {}",
            self.lines,
            self.files_matched,
            self.files,
            self.bytes,
            if self.gpu { "gpu" } else { "cpu" }
        );
        if let (false, Some(why)) = (self.gpu, why_cpu) {
            eprintln!("engine cpu because {why}");
        }
        if let Some(w) = listed {
            eprintln!("inputs listed in {:.6} seconds", w.as_secs_f64());
        }
        for l in &self.stage_lines {
            eprintln!("{l}");
        }
    }

    /// With -q, the first selected line ends the run.
    pub(crate) fn stop(&self, shared: &Shared) -> bool {
        shared.cfg.mode == Mode::Quiet && self.selected
    }
}
