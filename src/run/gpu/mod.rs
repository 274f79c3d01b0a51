//! The GPU path: the GPU finds candidate offsets, the CPU does the rest.
//!
//! The GPU answers "where does the literal occur"; everything after that
//! (lines, `-w`/`-x` confirmation, context, output) is the CPU path
//! unchanged, driven by a [`Matcher`](crate::engine::Matcher) that reads
//! the offsets (`offsets`). So the GPU can never change what is printed,
//! only how fast candidates are found. CUDA starts in its own thread while
//! the CPU engine already searches the first files; any GPU failure hands
//! the remaining files to the CPU, with a note under `--debug`.
//!
//! One file per job:
//! - `choose`: whether the GPU takes part (`--engine`, auto's thresholds,
//!   the simulation knob) and starting it: the run's [`Backend`].
//! - `setup`: what the chunks are searched for and the pipeline's sizes.
//! - `pack`: laying files out in chunks, mapping offsets back to pieces.
//! - `ring`: the staging chunks and their loans (the pipeline's only
//!   `unsafe`).
//! - `board`: who searches each file, and what the GPU found in it.
//! - `flow`: the packer and the threads that move chunks along; `read`:
//!   the readers that fill chunks; `lane`: the lanes that search them;
//!   `start`: the backend awaited, the ring pinned, the lanes started.
//! - `trace`: `GPUGREP_GPU_TRACE`'s per-chunk timeline; `release`:
//!   CUDA's teardown in threads of its own, awaited before the exit.
//! - `searcher`: how one chunk is searched (GPU lane or CPU mirror).
//! - `stats`: stage counters and the `--stats`/`--debug` lines.
//! - `offsets`: a file's offsets as the prefilter of its CPU search;
//!   `lines`: under `-n`, the line counts the GPU took of each chunk, as
//!   spans of its files that number a split file's pieces.
//! - `unpack`, `pour`: `--decompress`: compressed files decompressed
//!   ahead of the packer, whole into chunks or poured in pieces.
//!
//! This file joins them: `search` runs the pipeline beside the ordered
//! workers, which print each file through the CPU engine's code.

mod board;
mod bom_line;
mod choose;
mod flow;
mod judge;
mod lane;
mod lines;
mod offsets;
mod pack;
mod pour;
mod prewarm;
mod probe;
mod read;
mod release;
mod ring;
mod searcher;
mod settle;
mod setup;
mod shape;
mod start;
mod stats;
mod trace;
mod unpack;

use super::one::{self, FileResult};
use super::parallel::BYTES_AHEAD;
use super::{search_items, Printed, Shared};
use crate::config::{Config, Mode};
use crate::encoding::{FilePlan, BOM_PROBE};
use crate::input::source::{self, Source};
use crate::input::walk::{Input, Item};
use crate::knobs::ProbeVerdict;
use crate::pattern::compile::GpuPlan;
use crate::search::Preloaded;
use board::{Entry, Take};
pub use choose::{open_in_background, start, wanted, Pending, Wanted};
use flow::Flow;
use offsets::{Counted, FileOffsets};
pub use prewarm::{beside_compile, prewarm, release as release_ahead, OpenAt};
pub use release::{awaited as await_released, driver_busy, AWAIT_MAX};
use ring::Ring;
use searcher::Target;
pub use settle::settle;
pub use setup::opens_at_once;
use shape::{PrintedLines, Search};
use stats::{Fallback, Stages};
use std::io::{self, Write};
use std::sync::OnceLock;

/// How much larger than its compressed size a file is taken to be when
/// sizing chunks under `--decompress` (logs compress 4 to 10 times).
const DECOMPRESSED_RATIO: u64 = 8;

/// Bytes of results that may wait to be printed on the GPU path, where
/// the staging ring already holds 1 GiB: with the CPU paths' 64 MiB
/// (`BYTES_AHEAD`) `-o` over 16 GiB of prose (1,000 words, 122 M matches,
/// into `wc -l`) took 12.6-13.7 s on the H100 host, with 256 MiB 10.6-11.4
/// s (rg 13.0 s); `-n` was the same either way (9.2-9.9 s), peak memory
/// 1.5-1.7 GB against 1.66-1.88 GB.
const GPU_BYTES_AHEAD: usize = 256 << 20;

/// What the binary does when a GPU pipeline starts ([`on_pipeline`]), and
/// what it did, for `--debug`.
static ON_PIPELINE: OnceLock<fn() -> Option<&'static str>> = OnceLock::new();

/// Sets what the binary does when a GPU pipeline starts: `gpugrep`'s
/// `main` has its allocator keep freed memory longer (the library does not
/// know the binary's allocator).
pub fn on_pipeline(started: fn() -> Option<&'static str>) {
    let _ = ON_PIPELINE.set(started);
}

fn debug(cfg: &Config, prog: &str, msg: &str) {
    if cfg.debug {
        eprintln!("{prog}: debug: {msg}");
    }
}

/// Searches every item through the pipeline, in order.
pub fn search(
    shared: &Shared,
    pending: Pending,
    items: &[Item],
    sizes: &[Option<u64>],
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let Pending {
        backend,
        gpu_only,
        gate,
        probed,
    } = pending;
    let cpu = &*shared.compiled.prefilter;
    let Some((target, exact)) = setup::target(&shared.compiled) else {
        let job = |_: usize, input: &Input, stream: Option<&mut dyn Write>| {
            one::search_input(shared, input, None, cpu, 0, stream)
        };
        return search_items(shared, items, &job, BYTES_AHEAD, out, state);
    };
    if let Target::Many(t) = &target {
        debug(
            &shared.cfg,
            &shared.prog,
            &format!(
                "gpu: multi kernel: {} literals of {} to {} bytes, {} distinct 4-byte keys{}{}",
                t.len(),
                t.minlen,
                t.maxlen,
                t.keys.len(),
                match t.fold {
                    true => ", ASCII case folded in the kernel",
                    false => "",
                },
                match &shared.compiled.gpu {
                    Some(GpuPlan::Split(p)) => format!(
                        " (rule pack: the literals of {} rules, no rule on the automaton)",
                        p.literal_rules
                    ),
                    _ => String::new(),
                }
            ),
        );
    }
    if let Target::Split(s) = &target {
        debug(
            &shared.cfg,
            &shared.prog,
            &format!(
                "gpu: rule pack split: multi kernel for {} literals of {} to {} bytes{}{}{}",
                s.literals.len(),
                s.literals.minlen,
                s.literals.maxlen,
                match &s.book {
                    Some(b) => format!(", then the confirm kernel: {}", b.describe(|r| r + 1)),
                    None => String::new(),
                },
                match &s.automaton {
                    Some(a) => format!(
                        ", then the automaton kernel merged into the result: {}",
                        a.describe()
                    ),
                    None => String::new(),
                },
                match s.exact_lines {
                    true => "; the marked lines are exact (counted on the GPU)",
                    false => "; the marked lines are candidates",
                }
            ),
        );
    }
    if let Target::Automaton(a) = &target {
        debug(
            &shared.cfg,
            &shared.prog,
            &format!("gpu: automaton kernel: {}", a.describe()),
        );
    }
    if let Some(done) = ON_PIPELINE.get().and_then(|started| started()) {
        debug(&shared.cfg, &shared.prog, &format!("gpu: {done}"));
    }
    let need: u64 = sizes.iter().flatten().map(|s| s + 1).sum();
    // Compressed files grow: sized for logs' ratio, so that a few small
    // archives do not make chunks smaller than their text.
    let need = match shared.cfg.decompress {
        true => need.saturating_mul(DECOMPRESSED_RATIO),
        false => need,
    };
    let tally = setup::tally_mode(shared, &target, exact);
    let plain = setup::final_matches(shared, exact);
    let shape = setup::shape(&shared.cfg, gpu_only, tally, need);
    let ring = Ring::new(shape.ring);
    let stages = Stages::default();
    let terminator = shared.cfg.terminator;
    let scheme = setup::backread_scheme(&shared.compiled, terminator);
    if tally.is_some() {
        debug(
            &shared.cfg,
            &shared.prog,
            "gpu: files in chunks of whole files are counted on the GPU",
        );
    }
    let search = Search {
        target: &target,
        line_matcher: shared.compiled.line_matcher(),
        scheme,
        terminator,
        tally,
        cut_tally: setup::cut_tally(shared, &target, tally.is_some()),
        encoding: shared.compiled.encoding,
        decompress: shared.cfg.decompress.then_some(shared.decompress_threads),
        // A probe's verdict (`settle`): the CPU engine waits for CUDA, or
        // shares the files while it starts at once, or goes by its pace.
        far_ahead: match probed {
            Some(ProbeVerdict::Ahead) => Some(0),
            _ => setup::gpu_far_ahead(&shared.cfg, &shared.compiled, &target),
        },
        paced: matches!(target, Target::Automaton(_))
            && !matches!(probed, Some(ProbeVerdict::Ahead | ProbeVerdict::Shared)),
        count_lines: shared.cfg.line_number
            && shared.cfg.mode == Mode::Lines
            && !shared.cfg.decompress,
        printed_lines: setup::prints_set_lines(&shared.cfg, &shared.compiled).then_some(
            PrintedLines {
                searched_again: !shared.cfg.lines_only(),
                threads: shared.cfg.threads,
            },
        ),
    };
    let half = sizes.iter().flatten().sum::<u64>() / 2;
    let flow = Flow::new(items, sizes, search, shape, &stages);
    let job = |i: usize, input: &Input, stream: Option<&mut dyn Write>| -> io::Result<FileResult> {
        match flow.board.take(i) {
            Take::Cpu => {
                let t = std::time::Instant::now();
                let r = one::search_input(shared, input, None, cpu, 0, stream);
                let lines = r.as_ref().map_or(0, |r| r.lines);
                let ns = t.elapsed().as_nanos() as u64;
                flow.board
                    .cpu_finished(flow.size_of(i).unwrap_or(0), lines, ns);
                r
            }
            Take::Gone => Ok(FileResult::default()),
            Take::Gpu(entry) => {
                let t = std::time::Instant::now();
                let r = match entry.decompressed && entry.bytes().is_none() {
                    true => search_poured(
                        shared,
                        input,
                        &entry,
                        plain,
                        (&target, exact, &stages),
                        stream,
                    ),
                    false => search_entry(
                        shared,
                        input,
                        &entry,
                        (&target, exact, half),
                        &stages,
                        stream,
                    ),
                };
                stats::add_since(&stages.output_ns, t);
                stages.trace.file(i, t);
                r
            }
        }
    };
    let result = std::thread::scope(|s| {
        let flow = &flow;
        let ring = &ring;
        s.spawn(move || flow.run(ring, backend, gate));
        // `--engine gpu` searches nothing if the GPU does not start (the
        // pipeline reads its first chunks meanwhile; none is printed).
        if gpu_only {
            if let Err(e) = flow.start.wait() {
                flow.board.abort();
                return Err(e);
            }
        }
        let r = search_items(shared, items, &job, GPU_BYTES_AHEAD, out, state);
        flow.board.abort();
        Ok(r)
    });
    let result = match result {
        Ok(r) => r,
        Err(e) => {
            state.gpu_unavailable = Some(e);
            return Ok(());
        }
    };
    let notes = flow.notes.lock().map(|n| n.clone()).unwrap_or_default();
    let ready_ms = flow.board.ready_ms();
    stats::report(shared, &stages, &notes, ready_ms, flow.shape, state);
    drop(flow);
    // The process exits next: leave the ring's memory to it (its pin went
    // with the pipeline's end, `Flow::run`).
    std::mem::forget(ring);
    result
}

/// Searches one GPU-claimed file: its bytes from the chunk (or a fresh
/// map), the GPU's tally or offsets as prefilter, or the CPU's when the
/// GPU passed; every such pass is a [`Fallback`] in `stages`.
fn search_entry(
    shared: &Shared,
    input: &Input,
    entry: &Entry,
    (target, exact, half): (&Target, bool, u64),
    stages: &Stages,
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let cpu = &*shared.compiled.prefilter;
    let fell = |why: Fallback, bytes: u64| {
        stages.fell_back(why, input.name(), bytes, shared.cfg.debug);
    };
    let mapped;
    let (bytes, preloaded) = match (entry.bytes(), &input.path) {
        (Some(b), _) => (b, Preloaded::held(b)),
        (None, Some(path)) => match source::open(path, true) {
            Ok(Source::Mapped(m)) => {
                mapped = m;
                (&mapped[..], Preloaded::map(&mapped))
            }
            _ => {
                fell(Fallback::Unreadable, 0);
                return one::search_input(shared, input, None, cpu, 0, stream);
            }
        },
        (None, None) => return one::search_input(shared, input, None, cpu, 0, stream),
    };
    let size = bytes.len() as u64;
    // The GPU searched raw bytes: a file decoded from UTF-16 goes to the
    // CPU; after a UTF-8 byte-order mark the tally started after it
    // (`Flow::tally_of`) and the offsets are shifted (`FileOffsets`).
    let head = &bytes[..bytes.len().min(BOM_PROBE)];
    let skip = match shared.compiled.encoding.for_file(head) {
        FilePlan::Raw { skip } => skip,
        _ => {
            fell(Fallback::ByteOrderMark, size);
            return one::search_input(shared, input, Some(preloaded), cpu, 0, stream);
        }
    };
    if let Some(why) = entry.cpu {
        fell(why, size);
        return one::search_input(shared, input, Some(preloaded), cpu, 0, stream);
    }
    // A rule pack's first line after the mark is the CPU's (`bom_line`).
    let first = (skip > 0 && target.cuts_at_lines())
        .then(|| bom_line::first_line_matches(shared, bytes, skip));
    if let Some(c) = entry.count.filter(|_| entry.untallied.is_none()) {
        let matching = c.lines + u64::from(first == Some(true));
        // -v: the lines without a selecting match.
        let lines = match shared.cfg.invert {
            true => c.total.saturating_sub(matching),
            false => matching,
        };
        let searched = size - skip as u64;
        return one::tallied(shared, input, searched, lines, c.matches, stream);
    }
    // Exact line marks of a file cut across chunks (not tallied, or some
    // of its pieces tallied): each is a selected line (`Lane::whole_lines`
    // kept only the lines each piece owns, as its tally counts them).
    let cut = matches!(
        entry.untallied,
        Some(Fallback::CutChunk | Fallback::LongLine)
    );
    if cut && target.exact_lines() && setup::counts_lines(shared) {
        let mut marked = entry.offsets.len() as u64 + entry.count.map_or(0, |c| c.lines);
        if let Some(first) = first {
            marked = marked - u64::from(entry.offsets.first() == Some(&0)) + u64::from(first);
        }
        let lines = match shared.cfg.invert {
            true => line_count(&bytes[skip..], shared.cfg.terminator).saturating_sub(marked),
            false => marked,
        };
        return one::tallied(shared, input, size, lines, 0, stream);
    }
    if let Some(why) = entry.untallied {
        fell(why, size);
        // Some pieces tallied, others' marks to confirm: the tallied
        // pieces left no marks, so the CPU searches the file.
        if entry.count.is_some() {
            return one::search_input(shared, input, Some(preloaded), cpu, 0, stream);
        }
    }
    let exact = exact || offsets::marks_are_lines(target, entry.untallied);
    let (offsets, exact) = bom_line::marks(&entry.offsets, exact, first.is_some());
    let matcher = FileOffsets {
        offsets: &offsets,
        target,
        exact,
        skip,
        counted: Some(Counted {
            spans: &entry.lines,
            terminator: shared.cfg.terminator,
        }),
        // Under `-z` NUL ends lines: its blocks carry no NUL flag.
        no_nul: shared.cfg.terminator != 0 && offsets::holds_no_nul(&entry.lines, bytes),
    };
    let split = confirm_threads(shared, size, half);
    one::search_split(
        shared,
        input,
        Some(preloaded),
        (&matcher, skip, split),
        stream,
    )
}

/// Threads that confirm a GPU file's marks. The run's threads where its
/// lines are printed (`search::split`, pieces taken by the run's threads,
/// earliest file first: `search::help`): the ordered printer waits for
/// its output while the others' pile up. Where lines are only counted or
/// files named, only for a file that holds more than `half` the run's
/// bytes, so that no two split at once: several files split at once, each
/// a light search (the GPU found the candidates), kept their owners
/// waiting for their pieces. 100 rules, 16 GiB of logs in 64 files of
/// uneven size (the largest about 1.8 GB), `-c`, H200 host, 16 threads:
/// 8.2-11.2 s every file split, 7.1-7.4 s those over a sixteenth of the
/// bytes, 1.7-2.2 s none (as here: none holds half); `-n` 2.0-2.2 s split,
/// 2.1-2.3 s not. One 4 GiB file alone, split: 1.25-1.39 s.
fn confirm_threads(shared: &Shared, size: u64, half: u64) -> usize {
    match shared.cfg.mode == Mode::Lines || size > half {
        true => shared.cfg.threads,
        false => 1,
    }
}

/// The lines of `bytes`: its terminators, plus one for a last line
/// without one.
fn line_count(bytes: &[u8], t: u8) -> u64 {
    let ends = memchr::memchr_iter(t, bytes).count() as u64;
    ends + u64::from(bytes.last().is_some_and(|&b| b != t))
}

/// Searches one decompressed file that was poured into pieces (larger than
/// a chunk): no chunk holds it whole and it cannot be mapped. Where the
/// GPU's verdict is the whole answer (its matches are final, and either
/// none was found or only the file's name is printed: `-l`, `-L`, `-q`),
/// the summary is printed from it; else from its pieces joined again,
/// with the GPU's offsets as prefilter, when the board kept them all;
/// otherwise the CPU engine decompresses the file again and searches it
/// on its own (also when the stream failed: then the CPU engine's
/// messages are the answer).
fn search_poured(
    shared: &Shared,
    input: &Input,
    entry: &Entry,
    plain: bool,
    (target, exact, stages): (&Target, bool, &Stages),
    stream: Option<&mut dyn Write>,
) -> io::Result<FileResult> {
    let cpu = &*shared.compiled.prefilter;
    let fell = |why: Fallback| stages.fell_back(why, input.name(), entry.total, shared.cfg.debug);
    if let Some(why) = entry.cpu {
        fell(why);
        return one::search_input(shared, input, None, cpu, 0, stream);
    }
    // As for a file in a chunk (`search_entry`): UTF-16 to the CPU, offsets
    // after a UTF-8 byte-order mark, and a rule pack's first line after it
    // the CPU's (`bom_line`: a candidate, so no verdict from the marks).
    let skip = match shared.compiled.encoding.for_file(&entry.head) {
        FilePlan::Raw { skip } => skip,
        FilePlan::Decode { .. } => {
            fell(Fallback::ByteOrderMark);
            return one::search_input(shared, input, None, cpu, 0, stream);
        }
    };
    let first_line = skip > 0 && target.cuts_at_lines();
    let matched = !entry.offsets.is_empty();
    let verdict = plain && !first_line && (!matched || shared.cfg.mode.first_match_ends());
    if !verdict {
        let Some(text) = pour::joined(&entry.kept, entry.total) else {
            return one::search_input(shared, input, None, cpu, 0, stream);
        };
        let exact = exact || offsets::marks_are_lines(target, entry.untallied);
        let (offsets, exact) = bom_line::marks(&entry.offsets, exact, first_line);
        let matcher = FileOffsets {
            offsets: &offsets,
            target,
            exact,
            skip,
            counted: None,
            no_nul: false,
        };
        return one::search_input(
            shared,
            input,
            Some(Preloaded::held(&text)),
            &matcher,
            skip,
            stream,
        );
    }
    let n = u64::from(matched);
    let searched = entry.total.saturating_sub(skip as u64);
    one::tallied(shared, input, searched, n, n, stream)
}
