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
//! [`SLOW_BYTES_PER_S`] with its lanes busy, the CPU takes files too, and
//! each takes the next file when free. Printed output that holds the GPU
//! back (its lanes then wait) does not count as lagging.

use super::super::stats::Stages;
use std::sync::atomic::Ordering;

/// Below this the GPU searches slower than the CPU engine can help with
/// (a rule pack's CPU engine: 0.9-1.5 GB/s on 16 cores).
pub const SLOW_GIB_PER_S: u64 = 2;
const SLOW_BYTES_PER_S: u64 = SLOW_GIB_PER_S << 30;
/// How long after the GPU is ready its pace is judged.
const JUDGED_AFTER_MS: u64 = 1000;
/// Lanes busy at least this share of the time (per mille). Not more: a
/// lane's count leaves out its work between chunks, and with 80 % the
/// templates above were judged lagging after 18 s of a 30 s run (transfer,
/// kernel and readback were 79 % of its lanes' time).
const BUSY_PER_MILLE: u64 = 500;

/// The GPU's pace, judged for auto (`None` of it under `--engine gpu`).
pub struct Lag {
    pub lanes: u64,
}

impl Lag {
    /// Whether, `since_ms` after the GPU was ready, its lanes have been
    /// busy and its bytes few (`stages`).
    pub fn lags(&self, since_ms: u64, stages: &Stages) -> bool {
        if since_ms < JUDGED_AFTER_MS {
            return false;
        }
        let bytes = stages.gpu_bytes.load(Ordering::Relaxed);
        let busy_ns = stages.lane_ns.load(Ordering::Relaxed);
        let slow = bytes.saturating_mul(1000) < SLOW_BYTES_PER_S.saturating_mul(since_ms);
        let busy = busy_ns.saturating_mul(1000)
            >= self
                .lanes
                .saturating_mul(since_ms * 1_000_000 * BUSY_PER_MILLE);
        slow && busy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stages(bytes: u64, busy_s: u64) -> Stages {
        let s = Stages::default();
        s.gpu_bytes.store(bytes, Ordering::Relaxed);
        s.lane_ns.store(busy_s * 1_000_000_000, Ordering::Relaxed);
        s
    }

    #[test]
    fn lags_only_when_slow_and_busy_after_a_while() {
        let lag = Lag { lanes: 4 };
        // 10 s after ready: 4 GiB searched (0.4 GiB/s), lanes busy 40 s.
        assert!(lag.lags(10_000, &stages(4 << 30, 40)));
        // Too early to judge.
        assert!(!lag.lags(500, &stages(0, 2)));
        // Fast: 160 GiB in 10 s.
        assert!(!lag.lags(10_000, &stages(160 << 30, 40)));
        // Slow but the lanes wait (printing holds the run back).
        assert!(!lag.lags(10_000, &stages(4 << 30, 10)));
        // Lanes busy 60 % of the time count as busy.
        assert!(lag.lags(10_000, &stages(4 << 30, 24)));
    }
}
