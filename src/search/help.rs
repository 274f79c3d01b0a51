//! The run's search threads lending themselves to a thread that splits a
//! large file, earliest file first.
//!
//! Among many files (a log directory, listed files), each search thread
//! used to split a large file between threads of its own: 16 threads each
//! splitting a 1.7 GB log started 256 threads, every file got the same
//! share of the cores, and the file the ordered printer waited for got no
//! more than the 15 behind it, whose output piled up in memory (16 GiB of
//! logs printed with `-n` on 16 cores: 13-18 s, 18-25 s of system time,
//! rg 5-6 s). Here a thread splitting a file offers its pieces
//! ([`Helpers::offer`]) and searches them itself; threads with nothing
//! else to do, or only a later file to search, take pieces of the oldest
//! offer first ([`Helpers::help`]). The files are then searched about in
//! the order they are printed, by every core, with a few pieces' output
//! waiting.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// What one call of an offer's work did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// It searched a piece (or counted one's lines).
    Ran,
    /// Nothing to take now (every piece printer is out).
    Busy,
    /// Nothing is left to take.
    Done,
}

/// An offer's work: takes and does one piece.
pub type Work<'a> = dyn Fn() -> Step + Sync + 'a;

/// Offers of the threads splitting a file, open to the run's other
/// search threads.
#[derive(Default)]
pub struct Helpers {
    /// The run's search threads help (set by the runs that have several).
    enabled: AtomicBool,
    /// Oldest first.
    offers: Mutex<Vec<Arc<Offer>>>,
    /// Offers open now.
    open: AtomicUsize,
    next: AtomicU64,
    /// The run is in its tail ([`Helpers::reach_tail`]).
    tail: AtomicBool,
}

struct Offer {
    /// Older offers have smaller numbers.
    seq: u64,
    lent: Mutex<Lent>,
    /// A helper left the work.
    left: Condvar,
    /// Nothing is left to take.
    done: AtomicBool,
}

struct Lent {
    /// The owner's work, while offered (see [`Helpers::offer`]).
    work: Option<&'static Work<'static>>,
    /// Helpers running it now.
    inside: usize,
}

impl Helpers {
    /// Threads of this run help each other from now on.
    pub fn enable(&self) {
        self.enabled.store(true, Ordering::Relaxed);
    }

    /// These helpers, when the run's threads help.
    pub fn enabled(&self) -> Option<&Helpers> {
        self.enabled.load(Ordering::Relaxed).then_some(self)
    }

    /// The run's last files are begun: every directory is listed, and no
    /// more files are left to begin than there are threads. A file begun
    /// now may be what the others wait for at the end, so a smaller one is
    /// split (`split::TAIL_SPLIT_MIN_BYTES`): 64 logs of 16 MiB in name
    /// order, 16 threads, the last four the slowest to search, each searched
    /// whole by one thread while the others had nothing to do.
    pub fn reach_tail(&self) {
        self.tail.store(true, Ordering::Relaxed);
    }

    /// Whether the run is in its tail ([`Helpers::reach_tail`]).
    pub fn in_tail(&self) -> bool {
        self.tail.load(Ordering::Relaxed)
    }

    /// Whether some thread offers work now.
    pub fn offered(&self) -> bool {
        self.open.load(Ordering::Acquire) > 0
    }

    /// Offers `work` to the other threads while `owner` runs; `owner` gets
    /// the offer (its number, to help older ones first with
    /// [`Helpers::help`], and how many help now). Returns once no helper
    /// runs `work` any more.
    pub fn offer<'w, R>(&self, work: &'w Work<'w>, owner: impl FnOnce(&Offered) -> R) -> R {
        let seq = self.next.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the reference is held only in the offer's `lent.work`,
        // and read only under that lock into a call counted in `inside`.
        // `Withdraw`, which runs before this function returns or unwinds,
        // clears `work` under the lock and waits until `inside` is 0: no
        // call of `work` outlives its borrow.
        let work = unsafe { std::mem::transmute::<&'w Work<'w>, &'static Work<'static>>(work) };
        let offer = Arc::new(Offer {
            seq,
            lent: Mutex::new(Lent {
                work: Some(work),
                inside: 0,
            }),
            left: Condvar::new(),
            done: AtomicBool::new(false),
        });
        lock(&self.offers).push(Arc::clone(&offer));
        self.open.fetch_add(1, Ordering::AcqRel);
        let _withdraw = Withdraw {
            helpers: self,
            offer: &offer,
        };
        owner(&Offered(&offer))
    }

    /// Runs one step of the oldest offer older than `before` that has
    /// something to take; false when none had.
    pub fn help(&self, before: u64) -> bool {
        let offers: Vec<Arc<Offer>> = lock(&self.offers)
            .iter()
            .filter(|o| o.seq < before && !o.done.load(Ordering::Acquire))
            .cloned()
            .collect();
        for offer in offers {
            let Some(work) = offer.enter() else {
                continue;
            };
            let _leave = Leave(&offer);
            match work() {
                Step::Ran => return true,
                Step::Busy => {}
                Step::Done => offer.done.store(true, Ordering::Release),
            }
        }
        false
    }

    /// Helps any offer; false when none had anything to take.
    pub fn help_any(&self) -> bool {
        self.help(u64::MAX)
    }

    /// Helps any offer, or else sleeps for `wait` (a thread that must wait
    /// for the printer to catch up).
    pub fn help_or_sleep(&self, wait: std::time::Duration) {
        if !self.help_any() {
            std::thread::sleep(wait);
        }
    }
}

/// An offer as its owner sees it.
pub struct Offered<'a>(&'a Offer);

impl Offered<'_> {
    /// The offer's number: older offers have smaller ones.
    pub fn seq(&self) -> u64 {
        self.0.seq
    }

    /// Threads running the offer's work now.
    pub fn helping(&self) -> usize {
        lock(&self.0.lent).inside
    }
}

impl Offer {
    /// The work, counted as run by one more helper; `None` once withdrawn.
    fn enter(&self) -> Option<&'static Work<'static>> {
        let mut lent = lock(&self.lent);
        let work = lent.work?;
        lent.inside += 1;
        Some(work)
    }
}

/// Takes a lock whether or not a thread panicked holding it: the guarded
/// state stays consistent (counts and lists changed in one step).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A helper leaving an offer's work, however the work ends.
struct Leave<'a>(&'a Offer);

impl Drop for Leave<'_> {
    fn drop(&mut self) {
        let mut lent = lock(&self.0.lent);
        lent.inside -= 1;
        if lent.inside == 0 {
            self.0.left.notify_all();
        }
    }
}

/// Withdraws an offer and waits for its helpers, however the owner ends.
struct Withdraw<'a> {
    helpers: &'a Helpers,
    offer: &'a Arc<Offer>,
}

impl Drop for Withdraw<'_> {
    fn drop(&mut self) {
        lock(&self.helpers.offers).retain(|o| !Arc::ptr_eq(o, self.offer));
        self.helpers.open.fetch_sub(1, Ordering::AcqRel);
        let mut lent = lock(&self.offer.lent);
        lent.work = None;
        while lent.inside > 0 {
            lent = self
                .offer
                .left
                .wait(lent)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_take_the_oldest_offer_first_and_never_run_a_withdrawn_one() {
        let helpers = Helpers::default();
        let taken = Mutex::new(Vec::new());
        let old_left = AtomicUsize::new(2);
        let old = || match old_left.fetch_sub(1, Ordering::Relaxed) {
            0 => {
                old_left.store(0, Ordering::Relaxed);
                Step::Done
            }
            _ => {
                lock(&taken).push("old");
                Step::Ran
            }
        };
        let new = || {
            lock(&taken).push("new");
            Step::Ran
        };
        helpers.offer(&old, |old| {
            let old_seq = old.seq();
            helpers.offer(&new, |new| {
                let new_seq = new.seq();
                assert!(old_seq < new_seq);
                // The newer offer's owner helps only older ones.
                assert!(helpers.help(new_seq));
                assert!(helpers.help_any());
                // The old offer is done: the new one is next.
                assert!(helpers.help_any());
                assert!(!helpers.help(new_seq));
            });
            assert!(helpers.offered());
        });
        assert!(!helpers.offered());
        assert!(!helpers.help_any());
        assert_eq!(*lock(&taken), ["old", "old", "new"]);
    }

    #[test]
    fn an_offer_waits_for_its_helpers_before_it_returns() {
        let helpers = Helpers::default();
        let running = AtomicUsize::new(0);
        let finished = AtomicUsize::new(0);
        let started = AtomicBool::new(false);
        let work = || {
            running.fetch_add(1, Ordering::SeqCst);
            started.store(true, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(20));
            running.fetch_sub(1, Ordering::SeqCst);
            finished.fetch_add(1, Ordering::SeqCst);
            Step::Ran
        };
        std::thread::scope(|s| {
            helpers.offer(&work, |_| {
                s.spawn(|| helpers.help_any());
                while !started.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
            });
            // The helper's call ended before `offer` returned.
            assert_eq!(running.load(Ordering::SeqCst), 0);
            assert_eq!(finished.load(Ordering::SeqCst), 1);
        });
    }
}
