//! What the pipeline measures as it runs, and how `--stats` and `--debug`
//! report it. Counters are relaxed atomics bumped once per chunk, file or
//! stage (never per byte); the report reads them once the pipeline is done.

use super::flow::Shape;
use crate::engine::gpu::Timings;
use crate::pattern::compile::GpuPlan;
use crate::run::{Printed, Shared};
use std::sync::atomic::{AtomicU64, Ordering};
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
    pub output_ns: AtomicU64,
    pub chunks: AtomicU64,
    pub gpu_bytes: AtomicU64,
    pub gpu_files: AtomicU64,
    pub cpu_files: AtomicU64,
    pub dense_chunks: AtomicU64,
    /// Chunks whose files the GPU tallied (no offsets shipped).
    pub tallied_chunks: AtomicU64,
    /// Bytes left unread: pieces of files a match had settled.
    pub settled_bytes: AtomicU64,
    pub lanes: Mutex<Timings>,
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
            match ready_ms {
                None => "GPU never ready".to_string(),
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
        format!("cpu: {} files searched by the CPU engine", get(&st.cpu_files)),
    ];
    let mut lines = lines;
    if let Some(l) = rule_pack_line(shared.compiled.gpu.as_ref()) {
        lines.push(l);
    }
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

/// The `--stats` line of a rule pack on the GPU: how many rules its
/// literals find (the `multi` kernel) and how many the automaton does.
fn rule_pack_line(plan: Option<&GpuPlan>) -> Option<String> {
    let (literal, automaton, literals) = match plan? {
        GpuPlan::Split(p) => (
            p.literal_rules,
            p.automaton.as_ref().map_or(0, |a| a.rules),
            p.literals.len(),
        ),
        GpuPlan::Automaton(a) => (0, a.rules, 0),
        _ => return None,
    };
    Some(format!(
        "gpu rule pack: {literal} rules by {literals} literals on the multi kernel, {automaton} rules on the automaton"
    ))
}
