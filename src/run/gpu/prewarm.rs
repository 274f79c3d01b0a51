//! CUDA opened while the patterns compile, for `--engine gpu`: the run
//! opens it anyway (to search, or to say there is no GPU), and a rule
//! pack's compile (0.15 s for 1,000 rules, 0.4-0.5 s for 10,000 on the
//! H100 host) came before CUDA's start (0.2-0.3 s), one after the other
//! (16 GiB, 10,000 rules: 3.26-3.45 s → 3.00-3.13 s). The first [`open`]
//! takes the engine opened here.
//!
//! Not under auto, not even for a rule pack: there the GPU may not be
//! used (few bytes), and a start still under way holds the process at its
//! exit. Measured with packs of 1,000 / 10,000 rules under auto: 16 GiB
//! 1.78-1.82 → 1.54-1.55 s / 3.46-3.49 → 3.31-3.44 s, but 1 MB 0.21 →
//! 0.36 s / 0.55-0.63 → 0.75-0.78 s. Auto would need the inputs' size
//! before the compile ends (listing beside it) to open early only where
//! it pays.

use crate::config::{Config, EngineChoice};
use crate::engine::gpu::{GpuEngine, GpuError};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;

/// The engine being opened ahead, if any (one per process).
static AHEAD: Mutex<Option<Receiver<Result<GpuEngine, GpuError>>>> = Mutex::new(None);

/// Starts opening CUDA in its own thread when the run asked for the GPU
/// (not when simulated: the pipeline is the CPU mirror and opens nothing).
pub fn prewarm(cfg: &Config) {
    if cfg.engine != EngineChoice::Gpu || super::choose::simulated() {
        return;
    }
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("gpu-prewarm".into())
        .spawn(move || {
            let _ = tx.send(GpuEngine::open());
        });
    if let (Ok(_), Ok(mut ahead)) = (spawned, AHEAD.lock()) {
        *ahead = Some(rx);
    }
}

/// The GPU engine: the one opened ahead when there is one, else opened
/// now.
pub fn open() -> Result<GpuEngine, GpuError> {
    let ahead = AHEAD.lock().ok().and_then(|mut a| a.take());
    match ahead.and_then(|rx| rx.recv().ok()) {
        Some(opened) => opened,
        None => GpuEngine::open(),
    }
}
