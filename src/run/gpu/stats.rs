//! What the pipeline measures as it runs, and how `--stats` and `--debug`
//! report it. Counters are relaxed atomics bumped once per chunk, file or
//! stage (never per byte); the report reads them once the pipeline is done.
//!
//! Every way a file the pipeline claimed ends up on a slower path is a
//! [`Fallback`], counted per reason in files and bytes: `--stats` prints a
//! line per reason that happened, `--debug` names each file, so no cliff
//! hides (issue 16).

use super::board::InFlight;
use super::shape::Shape;
use super::trace::Trace;
use crate::engine::gpu::Timings;
use crate::pattern::compile::GpuPlan;
use crate::run::{Printed, Shared};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Per-stage totals for `--stats` and `--debug`.
#[derive(Default)]
pub struct Stages {
    pub read_ns: AtomicU64,
    /// The packer waiting for a free chunk, and allocating chunks.
    pub slot_wait_ns: AtomicU64,
    pub alloc_ns: AtomicU64,
    /// Lanes busy (copy, kernel, results) in wall time, summed.
    pub lane_ns: AtomicU64,
    /// The chunks the lanes are searching now (auto's early lag verdict).
    pub in_flight: InFlight,
    pub output_ns: AtomicU64,
    pub chunks: AtomicU64,
    pub gpu_bytes: AtomicU64,
    pub gpu_files: AtomicU64,
    pub cpu_files: AtomicU64,
    /// Auto: when the CPU began taking files again because the GPU lagged
    /// (`board/lag.rs`), in milliseconds from the start, plus 1 (0: never),
    /// and the `board::Verdict` that saw it first (as its `u8`).
    pub lagged_ms: AtomicU64,
    pub lagged_by: AtomicU8,
    /// Auto, while the GPU lagged: files it had claimed, taken back by the
    /// CPU engine (`Lag::takes_back`; counted in `cpu_files` too).
    pub taken_back: AtomicU64,
    pub dense_chunks: AtomicU64,
    /// Chunks whose files the GPU tallied (no offsets shipped).
    pub tallied_chunks: AtomicU64,
    /// `-n`: chunks whose line terminators the GPU counted (`lines`).
    pub line_counted_chunks: AtomicU64,
    /// Chunks whose kind was unsure only of lines past ASCII, and those
    /// lines, judged on the CPU (`engine::gpu::unsure`).
    pub unsure_chunks: AtomicU64,
    pub unsure_lines: AtomicU64,
    /// Bytes left unread: pieces of files a match had settled.
    pub settled_bytes: AtomicU64,
    /// Bytes left unread: pieces of files given to the CPU engine.
    pub given_up_bytes: AtomicU64,
    /// `--decompress`: time decompressing (look-ahead threads and pouring,
    /// summed), compressed files searched through the pipeline, their
    /// decompressed bytes, those cut into pieces (poured), and those left
    /// to the CPU engine (unreadable or damaged).
    pub decompress_ns: AtomicU64,
    pub decompressed_files: AtomicU64,
    pub decompressed_bytes: AtomicU64,
    pub poured_files: AtomicU64,
    pub decompress_cpu_files: AtomicU64,
    pub lanes: Mutex<Timings>,
    /// `GPUGREP_GPU_TRACE`: each chunk's timeline.
    pub trace: Trace,
    /// Per [`Fallback`] (by `index`): files and bytes.
    fallbacks: [[AtomicU64; 2]; Fallback::ALL.len()],
    /// `--debug`: each fallen-back file and why.
    pub fallen: Mutex<Vec<String>>,
}

/// Why a file the pipeline claimed went to a slower path. The first group
/// sends the file to the CPU engine (the GPU's results are unused); the
/// second leaves it on the GPU's offsets, but not tallied there: the CPU
/// finds the lines of every match (the CPU line pass a tally avoids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// More than one match per 32 bytes of its chunk.
    Dense,
    /// The rule-pack automaton: a line longer than the overlap crosses a cut.
    LineAcrossCut,
    /// A read error in the pipeline.
    Unreadable,
    /// A GPU error (the CPU engine takes the rest of the run).
    GpuFailed,
    /// More than 16 M offsets in the file, or as many foretold from the
    /// pace of its first pieces (`board::foretells_too_many`).
    TooManyOffsets,
    /// The pipeline stopped before the file was laid out.
    Stopped,
    /// A UTF-16 byte-order mark (the file is decoded), or a UTF-8 one
    /// before the lines the rule-pack automaton marked (its first line
    /// starts before the mark, the CPU's after it).
    ByteOrderMark,
    /// `-w`: a byte beside a match is not ASCII (the GPU checks ASCII word
    /// characters only).
    NonAsciiBesideWord,
    /// `-w` in a rule pack's automata: a UTF-8 byte-order mark starts a
    /// line of the chunk that is not a file's first (the automata step
    /// over it as they may only there, `glushkov::word::BOM`).
    LineByteOrderMark,
    /// `--decompress`: the stream failed while poured into chunks (the CPU
    /// engine decompresses it again and reports the damage).
    Damaged,
    /// Not tallied: its chunk holds a piece of a file cut at a chunk end.
    CutChunk,
    /// Not tallied: a line longer than 256 KiB in its chunk.
    LongLine,
    /// Not tallied: a rule pack's line the GPU could not decide in its
    /// chunk (a rule without automaton, or of ASCII bytes only on a line
    /// with others: `glushkov::book`).
    UnsureLines,
}

impl Fallback {
    pub const ALL: [Fallback; 13] = [
        Fallback::Dense,
        Fallback::LineAcrossCut,
        Fallback::Unreadable,
        Fallback::GpuFailed,
        Fallback::TooManyOffsets,
        Fallback::Stopped,
        Fallback::ByteOrderMark,
        Fallback::NonAsciiBesideWord,
        Fallback::LineByteOrderMark,
        Fallback::Damaged,
        Fallback::CutChunk,
        Fallback::LongLine,
        Fallback::UnsureLines,
    ];

    fn index(self) -> usize {
        Fallback::ALL.iter().position(|&f| f == self).unwrap_or(0)
    }

    /// The file is searched by the CPU engine (else: GPU offsets, no tally).
    pub fn to_cpu(self) -> bool {
        !matches!(
            self,
            Fallback::CutChunk | Fallback::LongLine | Fallback::UnsureLines
        )
    }

    /// The reason in words, for `--stats` and `--debug`.
    pub fn describe(self) -> &'static str {
        match self {
            Fallback::Dense => "dense chunk (more than one match per 32 bytes)",
            Fallback::LineAcrossCut => "a line longer than the overlap across a chunk cut",
            Fallback::Unreadable => "read error in the pipeline",
            Fallback::GpuFailed => "GPU failure",
            Fallback::TooManyOffsets => {
                "more than 16 M matches in the file (or foretold from its first pieces)"
            }
            Fallback::Stopped => "pipeline stopped before the file was searched",
            Fallback::ByteOrderMark => {
                "byte-order mark (UTF-16, decoded)"
            }
            Fallback::NonAsciiBesideWord => "-w: a non-ASCII byte beside a match",
            Fallback::LineByteOrderMark => {
                "-w: a byte-order mark starting a line other than a file's first in the chunk"
            }
            Fallback::Damaged => "a compressed file damaged or cut short",
            Fallback::CutChunk => "chunk holds a piece of a file cut at a chunk end",
            Fallback::LongLine => "a line longer than 256 KiB in the chunk",
            Fallback::UnsureLines => {
                "a rule-pack line the GPU could not decide in the chunk (an open rule's literal, or an ASCII rule's on a line with other bytes)"
            }
        }
    }
}

/// Adds the time since `t` to `total`.
pub fn add_since(total: &AtomicU64, t: Instant) {
    total.fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
}

/// Adds `n` to `total`.
pub fn add(total: &AtomicU64, n: u64) {
    total.fetch_add(n, Ordering::Relaxed);
}

impl Stages {
    /// A lane's device timings, summed over lanes.
    pub fn add_lane(&self, l: Timings) {
        if let Ok(mut t) = self.lanes.lock() {
            t.upload_ms += l.upload_ms;
            t.search_ms += l.search_ms;
            t.readback_ms += l.readback_ms;
            t.segments += l.segments;
        }
    }

    /// File `name` of `bytes` bytes went to a slower path (`why`); named
    /// under `--debug` (`debug`).
    pub fn fell_back(&self, why: Fallback, name: &[u8], bytes: u64, debug: bool) {
        let [files, total] = &self.fallbacks[why.index()];
        add(files, 1);
        add(total, bytes);
        if debug {
            if let Ok(mut f) = self.fallen.lock() {
                let to = match why.to_cpu() {
                    true => "searched by the CPU engine",
                    false => "not tallied on the GPU",
                };
                let name = String::from_utf8_lossy(name);
                f.push(format!("{name}: {to}: {}", why.describe()));
            }
        }
    }

    /// One `--stats` line per reason that happened.
    fn fallback_lines(&self) -> Vec<String> {
        Fallback::ALL
            .iter()
            .filter_map(|&why| {
                let [files, bytes] = &self.fallbacks[why.index()];
                let (files, bytes) = (files.load(Ordering::Relaxed), bytes.load(Ordering::Relaxed));
                let to = match why.to_cpu() {
                    true => "searched by the CPU engine",
                    false => "not tallied (offsets shipped, lines found on the CPU)",
                };
                (files > 0).then(|| {
                    format!(
                        "gpu fallback: {}: {files} files, {bytes} bytes {to}",
                        why.describe()
                    )
                })
            })
            .collect()
    }
}

/// `--debug` notes and the `--stats` lines for the pipeline's stages;
/// `ready_ms` is when the GPU became ready (`None`: never).
pub fn report(
    shared: &Shared,
    st: &Stages,
    notes: &[String],
    ready_ms: Option<u64>,
    shape: Shape,
    state: &mut Printed,
) {
    let prog = &shared.prog;
    if shared.cfg.debug {
        for n in notes {
            eprintln!("{prog}: debug: gpu: {n}");
        }
    }
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    let secs = |ns: u64| ns as f64 / 1e9;
    let lanes = st.lanes.lock().map(|t| *t).unwrap_or_default();
    let mut lines = vec![
        format!(
            "gpu: {} bytes in {} chunks of at most {} MiB ({} dense, searched by the CPU; {} tallied on the GPU), {} files ({} bytes of them unread: settled by a match; {} given to the CPU); {}",
            get(&st.gpu_bytes),
            get(&st.chunks),
            shape.chunk >> 20,
            get(&st.dense_chunks),
            get(&st.tallied_chunks),
            get(&st.gpu_files),
            get(&st.settled_bytes),
            get(&st.given_up_bytes),
            match ready_ms {
                // Auto's gate kept it shut: why.
                None => notes
                    .iter()
                    .find(|n| n.starts_with("GPU not started"))
                    .map_or("GPU never ready".to_string(), |n| n.clone()),
                Some(ms) => format!("ready after {:.3} s", ms as f64 / 1e3),
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
        format!(
            "cpu: {} files searched by the CPU engine{}",
            get(&st.cpu_files),
            match get(&st.lagged_ms).checked_sub(1) {
                Some(ms) => format!(
                    "; from {:.3} s on beside the GPU, whose kernels bound the run ({}); {} of them taken back from the GPU",
                    ms as f64 / 1e3,
                    super::board::Verdict::describe(st.lagged_by.load(Ordering::Relaxed)),
                    get(&st.taken_back),
                ),
                None => String::new(),
            }
        ),
    ];
    if get(&st.line_counted_chunks) > 0 {
        lines.push(format!(
            "gpu lines: {} chunks' line terminators counted on the GPU (-n)",
            get(&st.line_counted_chunks)
        ));
    }
    if get(&st.unsure_chunks) > 0 {
        lines.push(format!(
            "gpu unsure lines: {} lines past ASCII the GPU could not decide, judged on the CPU (in {} chunks, whose other marks stand)",
            get(&st.unsure_lines),
            get(&st.unsure_chunks)
        ));
    }
    lines.extend(st.fallback_lines());
    if shared.cfg.decompress {
        lines.push(format!(
            "decompress: {} compressed files decompressed into the GPU's chunks ({} bytes, {} of them cut into pieces; {:.3} s decompressing over {} threads), {} left to the CPU engine (unreadable or damaged)",
            get(&st.decompressed_files),
            get(&st.decompressed_bytes),
            get(&st.poured_files),
            secs(get(&st.decompress_ns)),
            shape.readers,
            get(&st.decompress_cpu_files),
        ));
    }
    if let Some(l) = rule_pack_line(shared.compiled.gpu.as_ref()) {
        lines.push(l);
    }
    if shared.cfg.debug {
        // Sorted: workers finish files in any order.
        let mut fallen = st.fallen.lock().map(|f| f.clone()).unwrap_or_default();
        fallen.sort();
        for f in fallen {
            eprintln!("{prog}: debug: gpu: {f}");
        }
        eprintln!(
            "{prog}: debug: gpu: packer waited {:.3} s for chunks, {:.3} s of it allocating; lanes busy {:.3} s",
            secs(get(&st.slot_wait_ns)),
            secs(get(&st.alloc_ns)),
            secs(get(&st.lane_ns)),
        );
        for l in lines.iter().chain(&st.trace.lines()) {
            eprintln!("{prog}: debug: {l}");
        }
    }
    state.stage_lines = lines;
    state.gpu = get(&st.chunks) > 0;
}

/// The `--stats` line of a rule pack on the GPU: how many rules its
/// literals find (the `multi` kernel) and how many the automaton does.
fn rule_pack_line(plan: Option<&GpuPlan>) -> Option<String> {
    let (literal, automaton, literals, book) = match plan? {
        GpuPlan::Split(p) => (
            p.literal_rules,
            p.automaton.as_ref().map_or(0, |a| a.rules),
            p.literals.len(),
            p.book.as_deref(),
        ),
        GpuPlan::Automaton(a) => (0, a.rules, 0, None),
        _ => return None,
    };
    let confirmed = book.map_or("none confirmed on the GPU".to_string(), |b| {
        format!(
            "{} confirmed on the GPU ({} of ASCII bytes only, {} open)",
            b.rules - b.open,
            b.ascii,
            b.open
        )
    });
    Some(format!(
        "gpu rule pack: {literal} rules by {literals} literals on the multi kernel ({confirmed}), {automaton} rules on the automaton"
    ))
}
