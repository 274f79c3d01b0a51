//! Auto: whether the GPU's kernels bound the run, so that idle CPU workers
//! should take files rather than wait for the packer to claim them.
//!
//! Once the GPU is ready, auto's CPU workers leave the unclaimed files to
//! it: a CPU thread that takes a 256 MiB file holds the run at a GPU's
//! pace of 15 GB/s (`flow.rs`). But a rule pack's confirmation can bound
//! the GPU far below the CPU engine: loghub's 1,733 event templates over 16
//! GiB of its logs (every line a match, each holding literals of dozens of
//! templates) ran 36.6 s on the GPU, its lanes busy all along, where the
//! CPU engine took 18.9 s. So when the GPU has searched for a while below
//! [`SLOW_BYTES_PER_S`] with its lanes busy (or, sooner, when the lanes'
//! own pace, the chunks they are searching counted, is under half that),
//! the CPU takes files too, and each takes the next file when free.
//! Printed output that holds the GPU back (its lanes then wait) does not
//! count as lagging. Files the GPU claimed but would finish later than
//! the CPU engine are taken back (`takes_back`, `Board::take_back`).

use super::super::stats::Stages;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Below this the GPU searches slower than the CPU engine can help with
/// (a rule pack's CPU engine: 0.9-1.5 GB/s on 16 cores).
pub const SLOW_GIB_PER_S: u64 = 2;
const SLOW_BYTES_PER_S: u64 = SLOW_GIB_PER_S << 30;
/// How long after the GPU is ready its pace is judged.
const JUDGED_AFTER_MS: u64 = 1000;
/// Bytes the lanes must have searched or be searching, and time they must
/// have spent on them, all lanes together, before their own pace may say
/// sooner that the GPU lags ([`Lag::plainly_slow`]): four of the
/// pipeline's 64 MiB chunks, and a quarter of a second a lane.
const EARLY_BYTES: u64 = 256 << 20;
const EARLY_LANE_NS: u64 = 250_000_000;
/// Lanes busy at least this share of the time (per mille). Not more: a
/// lane's count leaves out its work between chunks, and with 80 % the
/// templates above were judged lagging after 18 s of a 30 s run (transfer,
/// kernel and readback were 79 % of its lanes' time).
const BUSY_PER_MILLE: u64 = 500;

/// Which rule saw the GPU lag (`--stats` names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Verdict {
    /// The lanes' own pace, chunks in flight counted, under half of
    /// [`SLOW_GIB_PER_S`] ([`Lag::plainly_slow`]).
    PlainlySlow = 1,
    /// After [`JUDGED_AFTER_MS`], the lanes busy and the bytes under
    /// [`SLOW_GIB_PER_S`].
    SlowAndBusy = 2,
}

impl Verdict {
    /// For `--stats`, from the value stored in `Stages::lagged_by`.
    pub fn describe(stored: u8) -> String {
        match stored {
            s if s == Verdict::PlainlySlow as u8 => format!(
                "its lanes' own pace under {} GiB/s",
                SLOW_GIB_PER_S as f64 / 2.0
            ),
            _ => format!("its lanes busy, under {SLOW_GIB_PER_S} GiB/s"),
        }
    }
}

/// The GPU's pace, judged for auto (`None` of it under `--engine gpu`).
pub struct Lag {
    pub lanes: u64,
    /// The CPU engine's threads.
    pub threads: u64,
}

/// What the CPU engine has done so far: bytes of the files it finished,
/// and the time its threads spent on them, summed.
#[derive(Clone, Copy)]
pub struct CpuPace {
    pub bytes: u64,
    pub ns: u64,
}

impl Lag {
    /// Whether, `since_ms` after the GPU was ready, its lanes have been
    /// busy and its bytes few (`stages`); or, also sooner, whether their
    /// own pace is plainly slow ([`Self::plainly_slow`]); and by which.
    pub fn lags(&self, since_ms: u64, stages: &Stages) -> Option<Verdict> {
        if self.plainly_slow(stages) {
            return Some(Verdict::PlainlySlow);
        }
        if since_ms < JUDGED_AFTER_MS {
            return None;
        }
        let bytes = stages.gpu_bytes.load(Ordering::Relaxed);
        let busy_ns = stages.lane_ns.load(Ordering::Relaxed);
        let slow = bytes.saturating_mul(1000) < SLOW_BYTES_PER_S.saturating_mul(since_ms);
        let busy = busy_ns.saturating_mul(1000)
            >= self
                .lanes
                .saturating_mul(since_ms * 1_000_000 * BUSY_PER_MILLE);
        (slow && busy).then_some(Verdict::SlowAndBusy)
    }

    /// Whether the lanes' own pace (by their time, which leaves out their
    /// waits for the packer and the output) is under half of
    /// [`SLOW_BYTES_PER_S`] on all lanes together, even were the chunks
    /// they are searching now done this instant, once [`EARLY_BYTES`] and
    /// [`EARLY_LANE_NS`] a lane are behind that pace. The templates' first
    /// chunks were not done a second after the GPU was ready (H200 host),
    /// so that finished chunks alone said nothing sooner.
    fn plainly_slow(&self, stages: &Stages) -> bool {
        let lanes = self.lanes.max(1);
        let (flying_bytes, flying_ns) = stages.in_flight.so_far();
        let bytes = stages.gpu_bytes.load(Ordering::Relaxed) + flying_bytes;
        let busy_ns = stages.lane_ns.load(Ordering::Relaxed) + flying_ns;
        if bytes < EARLY_BYTES || busy_ns < lanes.saturating_mul(EARLY_LANE_NS) {
            return false;
        }
        // bytes / (busy_ns / lanes) < SLOW / 2, in bytes a second.
        let pace = bytes as u128 * lanes as u128 * 1_000_000_000 / busy_ns as u128;
        pace < (SLOW_BYTES_PER_S / 2) as u128
    }

    /// While the GPU lags: whether a file it claimed goes back to the CPU
    /// engine. One not begun (`begun` `None`) always; one begun, whose
    /// pieces reached byte `reached` of `size`, when the CPU engine (at its
    /// pace so far on all its threads, `cpu`; [`SLOW_BYTES_PER_S`], the
    /// pace the lag is judged by, while it has finished nothing) would
    /// search it whole before the GPU (at its pace since ready) finished
    /// the rest: a single large file otherwise stays at the GPU's pace to
    /// its end (the templates above in one 16 GiB file).
    pub fn takes_back(
        &self,
        begun: Option<(u64, u64)>,
        since_ms: u64,
        stages: &Stages,
        cpu: CpuPace,
    ) -> bool {
        let Some((reached, size)) = begun else {
            return true;
        };
        if size == 0 || since_ms == 0 {
            return false;
        }
        let gpu = stages.gpu_bytes.load(Ordering::Relaxed) as f64 / (since_ms as f64 * 1e6);
        let cpu = match cpu.ns {
            0 => SLOW_BYTES_PER_S as f64 / 1e9,
            ns => cpu.bytes as f64 / ns as f64 * self.threads.max(1) as f64,
        };
        // Bytes a nanosecond: the GPU's rest against the CPU's whole.
        let (rest, whole) = (size.saturating_sub(reached) as f64, size as f64);
        whole / cpu < rest / gpu
    }
}

/// The chunks the lanes are searching now, by job: bytes, and when each
/// began.
#[derive(Default)]
pub struct InFlight(Mutex<HashMap<usize, (u64, Instant)>>);

impl InFlight {
    /// A lane began searching job `id`'s `bytes`.
    pub fn begin(&self, id: usize, bytes: u64) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, (bytes, Instant::now()));
    }

    /// It is done (its bytes and time now count in `Stages`).
    pub fn end(&self, id: usize) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&id);
    }

    /// The bytes being searched, and the time spent on them so far, summed.
    fn so_far(&self) -> (u64, u64) {
        let now = Instant::now();
        let flying = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        flying.values().fold((0, 0), |(b, ns), (bytes, began)| {
            let spent = now.saturating_duration_since(*began).as_nanos() as u64;
            (b + bytes, ns + spent)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bytes` searched by lanes busy `busy_ms` in all.
    fn stages(bytes: u64, busy_ms: u64) -> Stages {
        let s = Stages::default();
        s.gpu_bytes.store(bytes, Ordering::Relaxed);
        s.lane_ns.store(busy_ms * 1_000_000, Ordering::Relaxed);
        s
    }

    #[test]
    fn lags_only_when_slow_and_busy_after_a_while() {
        let lag = Lag {
            lanes: 4,
            threads: 16,
        };
        // 10 s after ready: 4 GiB searched (0.4 GiB/s), lanes busy 40 s.
        assert!(lag.lags(10_000, &stages(4 << 30, 40_000)).is_some());
        // Too early to judge.
        assert!(lag.lags(500, &stages(0, 2_000)).is_none());
        // Fast: 160 GiB in 10 s.
        assert!(lag.lags(10_000, &stages(160 << 30, 40_000)).is_none());
        // Slow but the lanes wait (printing holds the run back).
        assert!(lag.lags(10_000, &stages(4 << 30, 10_000)).is_none());
        // Lanes busy 60 % of the time count as busy.
        assert!(lag.lags(10_000, &stages(4 << 30, 24_000)).is_some());
        // Which rule saw it: 12 GiB in 10 s, the lanes at 2 GiB/s by their
        // own time, busy 60 %: judged, not plainly slow.
        assert_eq!(
            lag.lags(10_000, &stages(12 << 30, 24_000)),
            Some(Verdict::SlowAndBusy)
        );
    }

    #[test]
    fn lags_early_when_the_lanes_own_pace_is_plainly_slow() {
        let lag = Lag {
            lanes: 4,
            threads: 16,
        };
        let chunk = 64 << 20;
        // 4 chunks done, 0.45 s each: 0.6 GB/s on 4 lanes.
        assert_eq!(
            lag.lags(500, &stages(4 * chunk, 1800)),
            Some(Verdict::PlainlySlow)
        );
        // Too few bytes to judge (tiny chunks, as in tests).
        assert!(lag.lags(500, &stages(40 << 10, 1800)).is_none());
        // Too little time: the lanes' first chunks (tables uploaded).
        assert!(lag.lags(500, &stages(4 * chunk, 400)).is_none());
        // 1.3 GB/s: slower than SLOW, but not plainly; left to the
        // judgement after JUDGED_AFTER_MS.
        assert!(lag.lags(500, &stages(8 * chunk, 1600)).is_none());
        // Nothing done, 4 chunks in flight for 0.3 s each: at most 0.9 GB/s.
        let flying = stages(0, 0);
        for id in 0..4 {
            flying.in_flight.begin(id, chunk);
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(lag.lags(500, &flying).is_some());
        for id in 0..4 {
            flying.in_flight.end(id);
        }
        assert!(lag.lags(500, &flying).is_none());
    }

    #[test]
    fn takes_back_what_the_cpu_finishes_first() {
        let lag = Lag {
            lanes: 4,
            threads: 16,
        };
        // The GPU at 0.4 GiB/s since ready; the CPU engine at 0.1 GB/s a
        // thread, 1.6 GB/s on 16.
        let gpu = stages(4 << 30, 40_000);
        let cpu = CpuPace {
            bytes: 1_000_000_000,
            ns: 10_000_000_000,
        };
        let size = 1 << 30;
        assert!(lag.takes_back(None, 10_000, &gpu, cpu));
        // A tenth done: the GPU's rest 2.1 s, the CPU's whole 0.7 s.
        assert!(lag.takes_back(Some((size / 10, size)), 10_000, &gpu, cpu));
        // Nine tenths done: the GPU's rest 0.23 s.
        assert!(!lag.takes_back(Some((size / 10 * 9, size)), 10_000, &gpu, cpu));
        // A file of unknown size.
        assert!(!lag.takes_back(Some((0, 0)), 10_000, &gpu, cpu));
        // A CPU engine that finished nothing yet counts as 2 GiB/s: half
        // done, the GPU's rest 1.25 s, the CPU's whole 0.5 s.
        let idle = CpuPace { bytes: 0, ns: 0 };
        assert!(lag.takes_back(Some((size / 2, size)), 10_000, &gpu, idle));
        assert!(!lag.takes_back(Some((size / 10 * 9, size)), 10_000, &gpu, idle));
    }
}
