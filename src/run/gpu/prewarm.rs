//! CUDA opened while the patterns compile. For `--engine gpu`: the run
//! opens it anyway (to search, or to say there is no GPU), and a rule
//! pack's compile (0.15 s for 1,000 rules, 0.4-0.5 s for 10,000 on the
//! H100 host) came before CUDA's start (0.2-0.3 s), one after the other
//! (16 GiB, 10,000 rules: 3.26-3.45 s → 3.00-3.13 s). The first [`open`]
//! takes the engine opened here.
//!
//! Under auto not for every run: there the GPU may not be used (few
//! bytes), and a start still under way holds the process at its exit.
//! Measured with packs of 1,000 / 10,000 rules under auto, opening at
//! once: 16 GiB 1.78-1.82 → 1.54-1.55 s / 3.46-3.49 → 3.31-3.44 s, but
//! 1 MB 0.21 → 0.36 s / 0.55-0.63 → 0.75-0.78 s. So auto opens early only
//! where it pays, while the inputs are listed, as soon as the files found
//! so far hold enough bytes ([`OpenAt`]): for a large rule pack the inputs
//! are listed beside the compile ([`beside_compile`]), and CUDA opens once
//! they hold enough (`OpenAt::beside_compile`); if the compiled search then
//! stays on the CPU, the engine is released in its own thread ([`release`])
//! while the CPU searches, which leaves the exit the driver's own teardown.
//! A search auto sends to the GPU opens it once the files hold the bytes
//! from which the pipeline would start CUDA at once
//! (`setup::opens_at_once`): 400,000 files of 43 KB took 0.30 s to list,
//! and auto, which opened CUDA only after, ran 13-17 % behind `--engine
//! gpu`.

use super::choose::{driver_present, simulated, AUTO_SET_MIN_BYTES, AUTO_SPLIT_MIN_BYTES};
use crate::config::{Config, EngineChoice, Mode};
use crate::encoding::EncodingChoice;
use crate::engine::gpu::{GpuEngine, GpuError};
use crate::pattern::compile::PACK_MIN;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;

/// The engine being opened ahead, if any (one per process).
static AHEAD: Mutex<Option<Receiver<Result<GpuEngine, GpuError>>>> = Mutex::new(None);

/// Starts opening CUDA in its own thread when the run asked for the GPU
/// (not when simulated: the pipeline is the CPU mirror and opens nothing).
pub fn prewarm(cfg: &Config) {
    if cfg.engine == EngineChoice::Gpu && !simulated() {
        open_ahead();
    }
}

/// Under auto: whether the inputs are listed beside the compile, so that
/// CUDA may open before it ends ([`OpenAt::beside_compile`]). Only where a
/// GPU may be (the driver loads, or the pipeline is simulated): listing first
/// instead of searching as the tree is walked made the CPU engine slower
/// (dev VM, 2 cores, 1,200 words over 100,000 small files: 0.66 → 0.79 s).
/// Only for rule packs (`PACK_MIN` expressions or more, not all literals):
/// literal sets compile in milliseconds, and gained nothing from it and
/// lost auto some of the CPU engine's share (H200 host, 16 GiB of prose,
/// 10,000 words, `-c`: 1.26-1.40 → 1.46-1.54 s). From 1,000 expressions
/// until the forty-first session: gitleaks' 221 rules compile in 0.3 s
/// on 16 cores, and auto, which opened CUDA after, trailed `--engine gpu`
/// by 0.2 s over 16 GiB (2.21-2.22 against 1.97-2.09 s). Not where auto
/// keeps such a set on the CPU whatever the bytes, or the CPU engine is
/// seldom slower than CUDA's start: `-l`,
/// `-L`, `-q` and `-m` (a file's first lines settle it), files decoded
/// from another encoding. Nor for a pack with a one-byte pattern where
/// only lines are counted or named: `choose::wanted` keeps a literal set
/// with one on the CPU, and such a pack was not measured (its compiled
/// plan is not a literal set, so auto may still take the GPU for it).
pub fn beside_compile(cfg: &Config, patterns: &[Vec<u8>]) -> bool {
    let one_byte = patterns.iter().any(|p| p.len() <= 1);
    cfg.engine == EngineChoice::Auto
        && patterns.len() >= PACK_MIN
        && !crate::pattern::compile::all_literal(patterns, cfg.syntax)
        && !cfg.mode.first_match_ends()
        && cfg.max_count.is_none()
        && !(one_byte && cfg.lines_only() && cfg.mode != Mode::Lines)
        && match cfg.encoding {
            EncodingChoice::Label(enc) => enc == encoding_rs::UTF_8,
            _ => true,
        }
        && (simulated() || driver_present())
}

/// Under auto, while the inputs are listed: opens CUDA in its own thread
/// once the files found so far hold `at` bytes (never when simulated: the
/// pipeline opens nothing).
pub struct OpenAt {
    at: u64,
    found: AtomicU64,
}

impl OpenAt {
    pub fn new(at: u64) -> OpenAt {
        OpenAt {
            at,
            found: AtomicU64::new(0),
        }
    }

    /// For the inputs listed beside the compile of a rule pack: when they
    /// are enough for the GPU to take it. A pack with a rule that has no
    /// run of 3 plain bytes (gitleaks' `SK[0-9a-fA-F]{32}`, loghub's
    /// `\S+:\S+ ...`) likely has rules on the automaton, and auto takes
    /// such a pack from `AUTO_SPLIT_MIN_BYTES` (gitleaks over 256 files of
    /// 1 MiB, H200 host: auto 0.74-0.79 s with CUDA opened after the
    /// compile at 1 GiB, 0.58-0.61 s beside it, `--engine gpu` 0.56-0.57
    /// s). Otherwise at `AUTO_SET_MIN_BYTES`, below which auto keeps a
    /// pack of literal rules on the CPU: opening CUDA for nothing cost the
    /// generated 1,000 rules over 256 MiB 0.43 → 0.55-0.60 s (the CPU
    /// engine 0.41 s). The test is a guess from the text, before the
    /// compile knows: a wrong one costs time, never an answer.
    pub fn beside_compile(patterns: &[Vec<u8>]) -> OpenAt {
        match patterns.iter().any(|p| !holds_plain_run(p)) {
            true => OpenAt::new(AUTO_SPLIT_MIN_BYTES),
            false => OpenAt::new(AUTO_SET_MIN_BYTES),
        }
    }

    /// A listing thread found a file of `bytes`.
    pub fn heard(&self, bytes: u64) {
        let before = self.found.fetch_add(bytes, Ordering::Relaxed);
        if before < self.at && before.saturating_add(bytes) >= self.at && !simulated() {
            open_ahead();
        }
    }

    /// Whether CUDA was opened: the bytes found by the end of the listing,
    /// when it was.
    pub fn opened(&self) -> Option<u64> {
        let found = self.found.load(Ordering::Relaxed);
        (found >= self.at && self.at > 0 && !simulated()).then_some(found)
    }
}

/// Whether a regular expression's text holds 3 plain bytes in a row (not
/// a class, group, escape of a letter or operator, nor made optional by a
/// quantifier after them): likely a literal every match holds.
fn holds_plain_run(p: &[u8]) -> bool {
    let mut run = 0usize;
    let mut i = 0;
    while i < p.len() {
        let b = p[i];
        i += 1;
        match b {
            b'\\' => match p.get(i) {
                Some(c) if c.is_ascii_punctuation() => {
                    run += 1;
                    i += 1;
                }
                _ => {
                    run = 0;
                    i += 1;
                }
            },
            b'?' | b'*' => run = run.saturating_sub(1),
            b'{' => {
                // A counted repetition: its bounds are no literal.
                run = run.saturating_sub(1);
                while i < p.len() && p[i] != b'}' {
                    i += 1;
                }
                i += 1;
            }
            b'[' => {
                run = 0;
                // To the class's end (a `]` first is a member).
                i += usize::from(p.get(i) == Some(&b'^'));
                i += usize::from(p.get(i) == Some(&b']'));
                while i < p.len() && p[i] != b']' {
                    i += 1 + usize::from(p[i] == b'\\');
                }
                i += 1;
            }
            b'.' | b'(' | b')' | b'}' | b'+' | b'|' | b'^' | b'$' | b']' => run = 0,
            _ => run += 1,
        }
        if run >= 3 {
            return true;
        }
    }
    false
}

/// The engine opened ahead, where the run will not take it: dropped in
/// its own thread once open, while the CPU engine searches (a gigabyte
/// or more under a rule pack: seconds). Left to the exit, the context's
/// teardown holds it: an explicit reset took 58-88 ms of the exit's
/// 0.1-0.15 s (H200 host).
pub fn release() {
    if let Some(rx) = AHEAD.lock().ok().and_then(|mut a| a.take()) {
        let _ = std::thread::Builder::new()
            .name("gpu-release".into())
            .spawn(move || {
                let _in_driver = super::release::InDriver::enter();
                drop(rx.recv())
            });
    }
}

/// Opens the engine in its own thread; [`open`] takes it.
fn open_ahead() {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("gpu-prewarm".into())
        .spawn(move || {
            // Until the engine is taken (`open`) or released: dropped
            // here when the receiver went away.
            let _in_driver = super::release::InDriver::enter();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules whose literals make them literal rules hold a plain run;
    /// gitleaks' and loghub's rules on the automaton do not.
    #[test]
    fn plain_runs_tell_likely_literal_rules() {
        for re in [
            "error: .* not found",
            r"FAILED .*test_\w+",
            r"exit code [1-9][0-9]*",
            r"\bfoo\.bar",
            r"a\.\-b",
            r"[a-z]+_SUSPEND",
        ] {
            assert!(holds_plain_run(re.as_bytes()), "{re}");
        }
        for re in [
            r"SK[0-9a-fA-F]{32}",
            r"\S+:\S+ \S+:\S+",
            r"(?i)\b(\d{15,16}(\||%)[0-9a-z\-_]{27,40})",
            r"ab?c",
            r"[abc][]de]x",
            r"\w\w\w",
        ] {
            assert!(!holds_plain_run(re.as_bytes()), "{re}");
        }
    }
}
