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
//! back (its lanes then wait) does not count as lagging. Files the GPU
//! claimed but would finish later than the CPU engine are taken back
//! (`takes_back`, `Board::take_back`).

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
        let lag = Lag {
            lanes: 4,
            threads: 16,
        };
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

    #[test]
    fn takes_back_what_the_cpu_finishes_first() {
        let lag = Lag {
            lanes: 4,
            threads: 16,
        };
        // The GPU at 0.4 GiB/s since ready; the CPU engine at 0.1 GB/s a
        // thread, 1.6 GB/s on 16.
        let gpu = stages(4 << 30, 40);
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
