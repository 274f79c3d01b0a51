//! The ordered walk's tasks: listing a directory or searching a batch of
//! files, each with its place in the output order, taken earliest first.

use super::inbox::Want;
use crate::input::walk::Item;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};

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
}

pub(super) struct QueueState {
    pub(super) tasks: BinaryHeap<Reverse<Task>>,
    pub(super) listing: usize,
    pub(super) closed: bool,
    /// Threads waiting for a task (a wake-up is a system call: only
    /// they are woken).
    pub(super) idle: usize,
}

impl Queue {
    /// The earliest task, waiting while threads still listing may add one;
    /// `None` when all is done or the search stopped.
    pub(super) fn take(&self) -> Option<Task> {
        let mut s = self.state.lock().ok()?;
        loop {
            if s.closed {
                return None;
            }
            if let Some(Reverse(task)) = s.tasks.pop() {
                if matches!(task.work, Work::List(..)) {
                    s.listing += 1;
                }
                return Some(task);
            }
            if s.listing == 0 {
                return None;
            }
            s.idle += 1;
            let woken = self.ready.wait(s);
            s = woken.ok()?;
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
                (s.listing == 0 && s.tasks.is_empty(), wake)
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
        let wanted = match want {
            Want::Nothing => None,
            _ => s.tasks.iter().position(|Reverse(t)| holds(t)),
        };
        let first = match wanted {
            Some(at) => {
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
        if matches!(first.work, Work::List(..)) {
            s.listing += 1;
        }
        s.tasks.push(Reverse(task));
        first
    }

    pub(super) fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.closed = true;
        }
        self.ready.notify_all();
    }
}
