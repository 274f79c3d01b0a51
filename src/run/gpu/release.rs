//! CUDA's teardown beside the last of the output, not after it.
//!
//! Releasing the context and unpinning the staging ring cost about 90 ms
//! on the H200 host (unpinning 1 GiB 18-24 ms, the context's release
//! 60-80 ms after it). Left to the process's exit they came after the last
//! line was printed. Once the pipeline's lanes have ended nothing uses the
//! GPU again, so the ring's pin (which holds the context's last
//! reference) is dropped in a thread of its own while the CPU prints the
//! files still waiting. `-n` of 1,000 rules over 16 GiB of logs: the
//! exit after the last output 149-187 → 84-114 ms, the run 0.05-0.15 s
//! shorter in three rounds of four in one call, level within the spread
//! in another (`benches/RESULTS.md`, thirty-third session).
//!
//! The run waits for these threads before it returns ([`awaited`], at
//! most [`AWAIT_MAX`]), so that none is still inside the driver when the
//! process exits and the driver's own exit handlers run. (An engine
//! opened ahead and not used, `prewarm::release`, is not awaited: it may
//! still be starting when a short search ends.)

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Threads inside the CUDA driver beside the search: a start that auto's
/// gate opened, an engine opened ahead, a release ([`InDriver`]).
static IN_DRIVER: AtomicUsize = AtomicUsize::new(0);

/// Held by a thread while it opens or releases CUDA outside the pipeline.
/// Where one is still held when the run ends (a start the CPU engine
/// outran, a release past [`AWAIT_MAX`]), the process leaves without the
/// exit handlers ([`driver_busy`], `main`): the driver's own handlers,
/// run beside a thread still inside it, crashed the process (H200 host,
/// auto over 2 GiB, a CUDA start under way at the exit: status 139 in 1 of
/// 10 such runs; with `_exit`, none of 55).
pub struct InDriver(());

impl InDriver {
    pub fn enter() -> InDriver {
        IN_DRIVER.fetch_add(1, Ordering::AcqRel);
        InDriver(())
    }
}

impl Drop for InDriver {
    fn drop(&mut self) {
        IN_DRIVER.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Whether some thread is inside the driver (see [`InDriver`]).
pub fn driver_busy() -> bool {
    IN_DRIVER.load(Ordering::Acquire) > 0
}

/// Longest the run waits for the releases still under way (they took
/// about 0.1 s); past this the exit takes what is left.
pub const AWAIT_MAX: Duration = Duration::from_secs(2);

/// One receiver per release under way; each hears once its release ends.
static UNDER_WAY: Mutex<Vec<Receiver<()>>> = Mutex::new(Vec::new());

/// Runs `release` in a thread named `name`. Where no thread can start,
/// the closure is dropped at once, and what it holds with it: the same
/// release, here and now.
pub fn in_background(name: &str, release: impl FnOnce() + Send + 'static) {
    let (done, heard) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _in_driver = InDriver::enter();
            release();
            let _ = done.send(());
        });
    if let (Ok(_), Ok(mut under_way)) = (spawned, UNDER_WAY.lock()) {
        under_way.push(heard);
    }
}

/// Waits for every release under way, at most `max` in all.
pub fn awaited(max: Duration) {
    let under_way = match UNDER_WAY.lock() {
        Ok(mut u) => std::mem::take(&mut *u),
        Err(_) => return,
    };
    let until = Instant::now() + max;
    for heard in under_way {
        let left = until.saturating_duration_since(Instant::now());
        let _ = heard.recv_timeout(left);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    // One test: the list of releases under way is the process's.
    #[test]
    fn awaited_waits_for_a_release_and_no_longer_than_told() {
        let done = Arc::new(AtomicBool::new(false));
        let d = done.clone();
        in_background("test-release", move || {
            std::thread::sleep(Duration::from_millis(50));
            d.store(true, Ordering::Release);
        });
        awaited(Duration::from_secs(10));
        assert!(
            done.load(Ordering::Acquire),
            "returned before the release ended"
        );

        let (_hold, stuck) = mpsc::channel::<()>();
        in_background("test-stuck", move || {
            let _ = stuck.recv();
        });
        let t = Instant::now();
        awaited(Duration::from_millis(100));
        let waited = t.elapsed();
        assert!(waited >= Duration::from_millis(100), "{waited:?}");
        assert!(waited < Duration::from_secs(5), "{waited:?}");
        // Nothing is left to wait for.
        let t = Instant::now();
        awaited(Duration::from_secs(10));
        assert!(t.elapsed() < Duration::from_secs(1));
    }
}
