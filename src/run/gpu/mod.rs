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
//!   the readers that fill chunks; `lane`: the lanes that search them.
//! - `searcher`: how one chunk is searched (GPU lane or CPU mirror).
//! - `stats`: stage counters and the `--stats`/`--debug` lines.
//! - `offsets`: a file's offsets as the prefilter of its CPU search.
//!
//! This file joins them: `search` runs the pipeline beside the ordered
//! workers, which print each file through the CPU engine's code.

mod board;
mod choose;
mod flow;
mod lane;
mod offsets;
mod pack;
mod read;
mod ring;
mod searcher;
mod setup;
mod stats;

use super::one::{self, FileResult};
use super::{search_items, Printed, Shared};
use crate::config::Config;
use crate::engine::gpu::GpuError;
use crate::input::source::{self, Source};
use crate::input::walk::{Input, Item};
use crate::pattern::compile::GpuPlan;
use board::{Entry, Take};
pub use choose::{open, sizes, start, wanted, why_cpu, Wanted};
use flow::{Flow, Search};
use offsets::FileOffsets;
use ring::Ring;
pub use searcher::Backend;
use searcher::Target;
use stats::Stages;
use std::io::{self, Write};
use std::sync::mpsc;

fn debug(cfg: &Config, prog: &str, msg: &str) {
    if cfg.debug {
        eprintln!("{prog}: debug: {msg}");
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
    let Some((target, exact)) = setup::target(&shared.compiled) else {
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
                "gpu: multi kernel: {} literals of {} to {} bytes, {} distinct 4-byte keys{}",
                t.len(),
                t.minlen,
                t.maxlen,
                t.keys.len(),
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
                "gpu: rule pack split: multi kernel for {} literals of {} to {} bytes, then the automaton kernel merged into its result: {}",
                s.literals.len(),
                s.literals.minlen,
                s.literals.maxlen,
                s.automaton.describe()
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
    let need = sizes.iter().flatten().map(|s| s + 1).sum();
    let tally = setup::tally_mode(shared, &target, exact);
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
        scheme,
        terminator,
        tally,
    };
    let flow = Flow::new(items, sizes, search, shape, &stages);
    let job = |i: usize, input: &Input, stream: Option<&mut dyn Write>| -> io::Result<FileResult> {
        match flow.board.take(i) {
            Take::Cpu => one::search_input(shared, input, None, cpu, stream),
            Take::Gone => Ok(FileResult::default()),
            Take::Gpu(entry) => {
                let t = std::time::Instant::now();
                let r = search_entry(shared, input, &entry, &target, exact, stream);
                stats::add_since(&stages.output_ns, t);
                r
            }
        }
    };
    let result = std::thread::scope(|s| {
        let flow = &flow;
        let ring = &ring;
        s.spawn(move || flow.run(ring, backend));
        let r = search_items(shared, items, &job, out, state);
        flow.board.abort();
        r
    });
    let notes = flow.notes.lock().map(|n| n.clone()).unwrap_or_default();
    let ready_ms = flow.board.ready_ms();
    stats::report(shared, &stages, &notes, ready_ms, flow.shape, state);
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
    entry: &Entry,
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
