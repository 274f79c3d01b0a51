//! The ordered walk's tasks: listing a directory or searching a batch of
//! files, each with its place in the output order, taken earliest first.

use crate::input::walk::{tree_key, Item};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often a thread waiting for a task looks for pieces to search
/// while a large file is on offer (`search::help`)...
const HELP_POLL: Duration = Duration::from_millis(1);

/// ... and while others search, one of which may offer one (the offer
/// wakes no one here): often enough not to miss much of a large file, and
/// seldom enough that 16 threads waiting through a 40 ms search of a
/// source tree do not wake hundreds of times.
const OFFER_POLL: Duration = Duration::from_millis(10);

/// What a thread about to wait for a task found to do meanwhile.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Idle {
    /// It searched a piece of a large file.
    Helped,
    /// A large file is on offer, with nothing to take right now.
    Offered,
    Nothing,
}

/// A place in the output order: the operand's index, then the path's
/// `tree_key` (depth first, names in byte order).
pub(super) type Key = (usize, Vec<u8>);

/// The key of a batch (of operand `key.0`) that begins with `first`: its
/// path's, else `key` (a file with no path). A part split off a batch had
/// the batch's key, earlier than its own first file's; past the far bound
/// "the earliest file nobody began" was then often a later part's, up to
/// hundreds of files ahead of the printer, and its place among the
/// printer's next few stayed taken until then (20,512 files in one
/// directory, `-n the`, 16 threads on 2 cores: the printer waited for one
/// file at a time, 2.6-2.9 s against ripgrep's 1.0 s).
fn key_at(key: &Key, first: Option<&(usize, Item)>) -> Key {
    let path = match first {
        Some((_, Item::Input(input))) => input.path.as_deref(),
        _ => None,
    };
    path.map_or_else(|| key.clone(), |p| (key.0, tree_key(p)))
}

/// Work for a search thread.
pub(super) enum Work {
    /// List the directory (node id, path).
    List(usize, PathBuf),
    /// Search these files (item id, item).
    Search(Vec<(usize, Item)>),
}

/// A task in the queue, earliest first.
pub(super) struct Task {
    pub(super) key: Key,
    pub(super) work: Work,
}

impl PartialEq for Task {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for Task {}
impl PartialOrd for Task {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Task {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

/// The tasks, and how many threads are listing (and may add more).
pub(super) struct Queue {
    pub(super) state: Mutex<QueueState>,
    pub(super) ready: Condvar,
    /// Each worker's batch under way (`hold`), open to [`Queue::steal`].
    pub(super) held: Vec<Mutex<Option<Held>>>,
    /// Each worker's file under way (its id; `usize::MAX`: none), which no
    /// queued or held batch holds any more ([`Queue::trade`]).
    searching: Vec<AtomicUsize>,
    /// The run's tail: every directory listed, no more files left to
    /// begin than workers ([`Queue::in_tail`]).
    tail: AtomicBool,
}

/// The files of a batch a worker has not begun yet.
pub(super) struct Held {
    key: Key,
    items: VecDeque<(usize, Item)>,
}

pub(super) struct QueueState {
    pub(super) tasks: BinaryHeap<Reverse<Task>>,
    pub(super) listing: usize,
    /// Threads searching a batch, which they may still share.
    pub(super) searching: usize,
    pub(super) closed: bool,
    /// Threads waiting for a task (a wake-up is a system call: only
    /// they are woken).
    pub(super) idle: usize,
}

impl Queue {
    /// A queue holding `tasks`, for `workers` threads.
    pub(super) fn new(tasks: Vec<Task>, workers: usize) -> Queue {
        Queue {
            state: Mutex::new(QueueState {
                tasks: tasks.into_iter().map(Reverse).collect(),
                listing: 0,
                searching: 0,
                closed: false,
                idle: 0,
            }),
            ready: Condvar::new(),
            held: (0..workers).map(|_| Mutex::new(None)).collect(),
            searching: (0..workers).map(|_| AtomicUsize::new(usize::MAX)).collect(),
            tail: AtomicBool::new(false),
        }
    }

    /// Whether the run is in its tail (`Helpers::reach_tail`): every
    /// directory is listed and no more files are left to begin than there
    /// are workers. Told where a worker takes the last batch or runs out
    /// of its own (counted then, not for every file begun: a shared count
    /// written for every file, or the batches counted at every file once
    /// the queue was empty, cost the Linux tree's rows at 16 threads).
    pub(super) fn in_tail(&self) -> bool {
        self.tail.load(Ordering::Relaxed)
    }

    /// Marks the tail if the workers hold no more than `workers - more`
    /// unbegun files (`more`: a batch just taken).
    fn mark_tail(&self, more: usize) {
        if self.unbegun().sum::<usize>() + more <= self.held.len() {
            self.tail.store(true, Ordering::Relaxed);
        }
    }

    /// The earliest task, else part of a batch another worker holds
    /// ([`Queue::steal`]), waiting while threads still listing may add
    /// tasks or threads searching may take more batches; `None` when all
    /// is done or the search stopped. `searched`: the caller's last task
    /// was a search; `idle` runs before the caller waits (unlocked), and
    /// says what it found to do meanwhile (`search::help`).
    pub(super) fn take(&self, searched: bool, idle: impl Fn() -> Idle) -> Option<Task> {
        let mut s = self.state.lock().ok()?;
        s.searching -= usize::from(searched);
        let mut nudged = false;
        let mut found = Idle::Nothing;
        loop {
            if s.closed {
                return None;
            }
            if let Some(Reverse(task)) = s.tasks.pop() {
                match task.work {
                    Work::List(..) => s.listing += 1,
                    Work::Search(_) => s.searching += 1,
                }
                if let Work::Search(batch) = &task.work {
                    if s.listing == 0 && s.tasks.is_empty() && !self.in_tail() {
                        self.mark_tail(batch.len());
                    }
                }
                return Some(task);
            }
            if s.listing == 0 && !self.in_tail() {
                self.mark_tail(0);
            }
            if let Some(task) = self.steal() {
                s.searching += 1;
                return Some(task);
            }
            if s.listing == 0 && s.searching == 0 {
                drop(s);
                self.ready.notify_all();
                return None;
            }
            if !nudged {
                // Unlocked, then everything is looked at again: tasks or
                // files to steal may have come meanwhile.
                drop(s);
                found = idle();
                nudged = found != Idle::Helped;
                s = self.state.lock().ok()?;
                continue;
            }
            nudged = false;
            s.idle += 1;
            s = match (found, s.searching) {
                (Idle::Offered, _) => self.ready.wait_timeout(s, HELP_POLL).ok()?.0,
                (_, 0) => self.ready.wait(s).ok()?,
                _ => self.ready.wait_timeout(s, OFFER_POLL).ok()?.0,
            };
            s.idle -= 1;
        }
    }

    /// Adds tasks; `listed`: a listing task ended with them.
    pub(super) fn add(&self, tasks: Vec<Task>, listed: bool) {
        let (last, wake) = match self.state.lock() {
            Ok(mut s) => {
                s.listing -= usize::from(listed);
                let wake = tasks.len().min(s.idle);
                s.tasks.extend(tasks.into_iter().map(Reverse));
                (
                    s.listing == 0 && s.searching == 0 && s.tasks.is_empty(),
                    wake,
                )
            }
            Err(_) => (true, 0),
        };
        // Wake an idle thread per new task (all of them once nothing is
        // left to wait for), not every thread for every directory listed.
        match last {
            true => self.ready.notify_all(),
            false => (0..wake).for_each(|_| self.ready.notify_one()),
        }
    }

    /// Takes the queued batches whose first file `pick` accepts out of the
    /// queue, and the files not begun of the batches workers hold whose
    /// next file it accepts (a large directory's batches queued in the
    /// order read, to be queued again in name order: `listing.rs`). Held
    /// ones left in the order read kept their first file's key: a thread
    /// past the far bound given "the earliest file nobody began" from one
    /// got a file the printer wanted much later, and its place among the
    /// printer's next few stayed taken until then (20,512 files in one
    /// directory, `-n the`, 16 threads, with `key_at`'s and `far_step`'s
    /// faults: 2.1 s, rg 0.17 s; `benches/RESULTS.md`, fifty-third
    /// session).
    pub(super) fn take_batches(&self, pick: impl Fn(usize) -> bool) -> Vec<Vec<(usize, Item)>> {
        let Ok(mut s) = self.state.lock() else {
            return Vec::new();
        };
        let picked = |t: &Task| matches!(&t.work, Work::Search(b) if b.first().is_some_and(|(id, _)| pick(*id)));
        let (taken, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut s.tasks)
            .into_vec()
            .into_iter()
            .partition(|Reverse(t)| picked(t));
        s.tasks = kept.into();
        // Under the queue's lock (taken before a slot's, as everywhere), so
        // no batch moves between the queue and a slot meanwhile.
        let held = self.held.iter().filter_map(|slot| {
            let mut slot = slot.lock().ok()?;
            let h = slot.as_mut()?;
            h.items
                .front()
                .is_some_and(|(id, _)| pick(*id))
                .then(|| Vec::from(std::mem::take(&mut h.items)))
        });
        let held: Vec<_> = held.collect();
        drop(s);
        taken
            .into_iter()
            .filter_map(|Reverse(t)| match t.work {
                Work::Search(batch) => Some(batch),
                Work::List(..) => None,
            })
            .chain(held)
            .collect()
    }

    /// Worker `w` begins on `batch` (`key`): its files wait in the
    /// worker's slot, where an idle thread may take the later half (see
    /// [`Queue::steal`]); one is woken if some wait.
    pub(super) fn hold(&self, w: usize, key: Key, batch: Vec<(usize, Item)>) {
        let many = batch.len() > 1;
        if let Ok(mut held) = self.held[w].lock() {
            *held = Some(Held {
                key,
                items: batch.into(),
            });
        }
        if many {
            // Under the lock, so a thread about to wait sees the files or
            // is woken.
            if let Ok(s) = self.state.lock() {
                if s.idle > 0 {
                    self.ready.notify_one();
                }
            }
        }
    }

    /// The next file of worker `w`'s batch.
    pub(super) fn next_held(&self, w: usize) -> Option<(usize, Item)> {
        let mut held = self.held[w].lock().ok()?;
        let next = held.as_mut().and_then(|h| h.items.pop_front());
        if next.is_none() {
            *held = None;
        }
        let id = next.as_ref().map_or(usize::MAX, |(id, _)| *id);
        self.searching[w].store(id, Ordering::Release);
        next
    }

    /// What is left of worker `w`'s batch goes back to the queue (its
    /// output passed the lead's bound).
    pub(super) fn release_held(&self, w: usize) {
        let held = self.held[w].lock().ok().and_then(|mut h| h.take());
        if let Some(Held { key, items }) = held.filter(|h| !h.items.is_empty()) {
            let key = key_at(&key, items.front());
            let work = Work::Search(items.into());
            self.add(vec![Task { key, work }], false);
        }
    }

    /// The later half of the fullest batch a worker holds (its last file
    /// too), as a task. Batches hold at least 8 files (a batch of tiny
    /// files costs more to hand out than to search), so 64 logs of 32 MiB
    /// in one directory were 8 batches for 16 threads: 100 rules over
    /// 2 GiB took 2.0 s (rg 1.0 s), with batches of 4 files 1.2 s. A last
    /// file was left to its batch's thread, after the one it searched:
    /// 64 logs of 16 MiB, the four slowest last, two of them one after the
    /// other on each of two threads while fourteen had nothing to do.
    fn steal(&self) -> Option<Task> {
        let fullest = self
            .unbegun()
            .enumerate()
            .max_by_key(|&(_, n)| n)
            .filter(|&(_, n)| n > 0)?
            .0;
        let mut held = self.held[fullest].lock().ok()?;
        let h = held.as_mut().filter(|h| !h.items.is_empty())?;
        let rest = h.items.split_off(h.items.len() / 2);
        Some(Task {
            key: key_at(&h.key, rest.front()),
            work: Work::Search(rest.into()),
        })
    }

    /// The files each worker holds and has not begun (a poisoned slot
    /// left out), each slot locked in turn.
    fn unbegun(&self) -> impl Iterator<Item = usize> + '_ {
        self.held
            .iter()
            .filter_map(|h| h.lock().ok())
            .map(|h| h.as_ref().map_or(0, |h| h.items.len()))
    }

    pub(super) fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.closed = true;
        }
        self.ready.notify_all();
    }
}

mod behind;
#[cfg(test)]
pub(super) mod tests;
