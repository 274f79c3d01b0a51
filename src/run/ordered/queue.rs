//! The ordered walk's tasks: listing a directory or searching a batch of
//! files, each with its place in the output order, taken earliest first.

use super::inbox::Want;
use crate::input::walk::Item;
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
    /// queue (a large directory's batches queued in the order read, to be
    /// queued again in name order: `listing.rs`).
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
        drop(s);
        taken
            .into_iter()
            .filter_map(|Reverse(t)| match t.work {
                Work::Search(batch) => Some(batch),
                Work::List(..) => None,
            })
            .collect()
    }

    /// Gives `task` back for the queued task holding what the printer
    /// waits for, else for an earlier one, if there is one. (A large
    /// directory's batches are queued while it is read, before its order
    /// is known: their keys only roughly follow the printing order.)
    pub(super) fn trade(&self, task: Task, want: Want) -> Task {
        let Ok(mut s) = self.state.lock() else {
            return task;
        };
        let holds = |t: &Task| match (&t.work, want) {
            (Work::List(node, _), Want::Listing(n)) => *node == n,
            (Work::Search(batch), Want::Result(id)) => batch.iter().any(|(i, _)| *i == id),
            _ => false,
        };
        if holds(&task) {
            return task;
        }
        // Looked for in every queued batch only when it is neither under
        // way nor in the earliest batch: past the bound on waiting output
        // threads trade often, and over a flat directory of 20,512 files
        // with dense output (`-n the`, 936 MB, 16 threads) that scan, under
        // this lock, took a third of their time.
        let under_way = |id| {
            self.searching
                .iter()
                .any(|f| f.load(Ordering::Acquire) == id)
        };
        let wanted = match want {
            Want::Nothing => None,
            Want::Result(id) if under_way(id) => None,
            _ => match s.tasks.peek() {
                Some(Reverse(first)) if holds(first) => Some(None),
                _ => s.tasks.iter().position(|Reverse(t)| holds(t)).map(Some),
            },
        };
        let first = match wanted {
            // The earliest task holds it.
            Some(None) => match s.tasks.pop() {
                Some(Reverse(first)) => first,
                None => return task,
            },
            Some(Some(at)) => {
                let mut tasks = std::mem::take(&mut s.tasks).into_vec();
                let Reverse(found) = tasks.swap_remove(at);
                s.tasks = tasks.into();
                found
            }
            None => match s.tasks.peek() {
                Some(Reverse(first)) if first.key < task.key => match s.tasks.pop() {
                    Some(Reverse(first)) => first,
                    None => return task,
                },
                _ => return task,
            },
        };
        // The counts follow the tasks: a listing given back is no longer
        // under way.
        for (t, sign) in [(&task, -1), (&first, 1)] {
            let count = match t.work {
                Work::List(..) => &mut s.listing,
                Work::Search(_) => &mut s.searching,
            };
            *count = count.wrapping_add_signed(sign);
        }
        s.tasks.push(Reverse(task));
        first
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
            let work = Work::Search(items.into());
            self.add(vec![Task { key, work }], false);
        }
    }

    /// Gives `task` back for the next unbegun file of the earliest batch a
    /// worker holds (`Err(task)`: none). For a thread too far ahead of the
    /// printer: with dense output the printer's next files are the ones
    /// after the file a worker is searching in its batch, and nobody else
    /// began them, so one thread's batch was printed file after file while
    /// the others waited (16 GiB of prose, 20,000 files, 1,000 words,
    /// `-n`, 16 threads: 91 s, rg 8.3 s).
    pub(super) fn trade_front(&self, task: Task) -> Result<Task, Task> {
        self.take_held_front(task, false)
    }

    /// [`Queue::trade_front`]; `earlier_only`: only for a file of a batch
    /// that comes before `task`.
    fn take_held_front(&self, task: Task, earlier_only: bool) -> Result<Task, Task> {
        let Ok(mut s) = self.state.lock() else {
            return Err(task);
        };
        let earliest = self.earliest_held();
        let Some((w, key)) = earliest.filter(|(_, key)| !earlier_only || *key < task.key) else {
            return Err(task);
        };
        let item = self.held[w]
            .lock()
            .ok()
            .and_then(|mut h| h.as_mut().and_then(|h| h.items.pop_front()));
        let Some(item) = item else {
            return Err(task);
        };
        // The counts follow the tasks, as in `trade`.
        if let Work::List(..) = task.work {
            s.listing -= 1;
            s.searching += 1;
        }
        s.tasks.push(Reverse(task));
        Ok(Task {
            key,
            work: Work::Search(vec![item]),
        })
    }

    /// The worker holding the earliest batch with files not begun, and
    /// that batch's key.
    fn earliest_held(&self) -> Option<(usize, Key)> {
        let mut earliest: Option<(usize, Key)> = None;
        for (w, slot) in self.held.iter().enumerate() {
            let Ok(h) = slot.lock() else { continue };
            if let Some(h) = h.as_ref().filter(|h| !h.items.is_empty()) {
                if earliest.as_ref().is_none_or(|(_, k)| h.key < *k) {
                    earliest = Some((w, h.key.clone()));
                }
            }
        }
        earliest
    }

    /// The earliest file not begun: the first of `task` (a batch no queued
    /// task comes before, as [`Queue::trade`] leaves it), or the next of an
    /// earlier batch a worker holds; the rest of `task` queued again.
    pub(super) fn earliest_file(&self, task: Task) -> Task {
        self.take_held_front(task, true)
            .unwrap_or_else(|task| self.first_only(task))
    }

    /// `task` goes back to the queue, waking no one: its thread waits for
    /// the printer, and work hidden by a waiting thread is work nobody
    /// does (a thread asleep with the batch holding the printer's next
    /// files began each only when the printer asked for it).
    pub(super) fn put_back(&self, task: Task) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        let count = match task.work {
            Work::List(..) => &mut s.listing,
            Work::Search(_) => &mut s.searching,
        };
        *count -= 1;
        s.tasks.push(Reverse(task));
    }

    /// `task` with its first file only, the rest of its batch queued again.
    pub(super) fn first_only(&self, task: Task) -> Task {
        let Task {
            key,
            work: Work::Search(mut batch),
        } = task
        else {
            return task;
        };
        if batch.len() > 1 {
            let rest = Task {
                key: key.clone(),
                work: Work::Search(batch.split_off(1)),
            };
            // As any task queued: an idle thread is woken for it.
            self.add(vec![rest], false);
        }
        Task {
            key,
            work: Work::Search(batch),
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
            key: h.key.clone(),
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

#[cfg(test)]
mod tests;
