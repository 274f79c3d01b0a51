//! The queue's side of the throttle, for threads too far ahead of the
//! printer (`ordered::catch_up`, `ordered::far_step`): within twice the
//! byte bound they trade their task for earlier work; past it they take
//! one file at a time, what the printer waits for first, under one lock,
//! taking nothing out of the queue only to look at it.

use super::{key_at, Key, Queue, Task, Work};
use crate::run::ordered::inbox::Want;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::Ordering;

impl Queue {
    /// Gives `task` back for the queued task holding what the printer
    /// waits for, else for an earlier one, if there is one. (A large
    /// directory's batches are queued while it is read, before its order
    /// is known: their keys only roughly follow the printing order.)
    pub(in crate::run::ordered) fn trade(&self, task: Task, want: Want) -> Task {
        let Ok(mut s) = self.state.lock() else {
            return task;
        };
        if holds(&task, want) {
            return task;
        }
        // Looked for in every queued batch only when it is neither under
        // way nor in the earliest batch: past the bound on waiting output
        // threads trade often, and over a flat directory of 20,512 files
        // with dense output (`-n the`, 936 MB, 16 threads) that scan, under
        // this lock, took a third of their time.
        let wanted = match want {
            Want::Nothing => None,
            Want::Result(id) if self.under_way(id) => None,
            _ => position(&s.tasks, want),
        };
        let first = match wanted {
            Some(at) => remove(&mut s.tasks, at),
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

    /// Gives `task` back for the next unbegun file of the earliest batch a
    /// worker holds (`Err(task)`: none). For a thread too far ahead of the
    /// printer: with dense output the printer's next files are the ones
    /// after the file a worker is searching in its batch, and nobody else
    /// began them, so one thread's batch was printed file after file while
    /// the others waited (16 GiB of prose, 20,000 files, 1,000 words,
    /// `-n`, 16 threads: 91 s, rg 8.3 s).
    pub(in crate::run::ordered) fn trade_front(&self, task: Task) -> Result<Task, Task> {
        let Ok(mut s) = self.state.lock() else {
            return Err(task);
        };
        let Some(file) = self.take_held_next() else {
            return Err(task);
        };
        // The counts follow the tasks, as in `trade`.
        if let Work::List(..) = task.work {
            s.listing -= 1;
            s.searching += 1;
        }
        s.tasks.push(Reverse(task));
        Ok(file)
    }

    /// `task` with its first file only, the rest of its batch queued again.
    pub(in crate::run::ordered) fn first_only(&self, task: Task) -> Task {
        let Task {
            key,
            work: Work::Search(mut batch),
        } = task
        else {
            return task;
        };
        if batch.len() > 1 {
            let rest = batch.split_off(1);
            let rest = Task {
                key: key_at(&key, rest.first()),
                work: Work::Search(rest),
            };
            // As any task queued: an idle thread is woken for it.
            self.add(vec![rest], false);
        }
        Task {
            key,
            work: Work::Search(batch),
        }
    }

    /// The caller's search ended (as `take` counts it for a thread that
    /// searched): for a thread that goes on with [`Queue::take_wanted`] or
    /// [`Queue::take_earliest_file`].
    pub(in crate::run::ordered) fn finished_search(&self) {
        let Ok(mut s) = self.state.lock() else {
            return;
        };
        s.searching -= 1;
        if s.searching == 0 && s.listing == 0 && s.tasks.is_empty() {
            drop(s);
            self.ready.notify_all();
        }
    }

    /// Past the far bound: what the printer waits for, if nobody began it:
    /// its listing's task, or the file alone, the rest of its batch left
    /// where it was (queued, or held by a worker). Counted as under way.
    pub(in crate::run::ordered) fn take_wanted(&self, want: Want) -> Option<Task> {
        let mut s = self.state.lock().ok()?;
        let id = match want {
            Want::Nothing => return None,
            Want::Result(id) if self.under_way(id) => return None,
            Want::Result(id) => id,
            Want::Listing(_) => {
                let at = position(&s.tasks, want)?;
                let task = remove(&mut s.tasks, at);
                s.listing += 1;
                return Some(task);
            }
        };
        let file = match self.take_held(id) {
            Some(file) => file,
            None => {
                let at = position(&s.tasks, want)?;
                // `position` finds a batch holding `id`; anything else goes
                // back as it was.
                let (key, mut batch) = match remove(&mut s.tasks, at) {
                    Task {
                        key,
                        work: Work::Search(batch),
                    } => (key, batch),
                    other => {
                        s.tasks.push(Reverse(other));
                        return None;
                    }
                };
                let Some(at) = batch.iter().position(|(i, _)| *i == id) else {
                    let work = Work::Search(batch);
                    s.tasks.push(Reverse(Task { key, work }));
                    return None;
                };
                let mut after = batch.split_off(at);
                let file = after.remove(0);
                let file = Task {
                    key: key_at(&key, Some(&file)),
                    work: Work::Search(vec![file]),
                };
                if !after.is_empty() {
                    let key = key_at(&key, after.first());
                    s.tasks.push(Reverse(Task {
                        key,
                        work: Work::Search(after),
                    }));
                }
                if !batch.is_empty() {
                    let work = Work::Search(batch);
                    s.tasks.push(Reverse(Task { key, work }));
                }
                file
            }
        };
        s.searching += 1;
        Some(file)
    }

    /// Past the far bound: the earliest file nobody began, alone (the
    /// first of the earliest queued batch, or the next of the earliest
    /// batch a worker holds, whichever comes first), if `room` says it may
    /// be begun (called only then); a listing queued before it, whole.
    /// Counted as under way. Looked for and taken under one lock: a thread
    /// that took the earliest batch out of the queue to look at it and
    /// then gave it back hid it meanwhile, and another began the next
    /// batch's first file as "the earliest" (20,512 files in one
    /// directory, `-n the`, 16 threads: its places among the printer's
    /// next few were taken by files 64 and 128 on, and the printer waited
    /// for the files between, one at a time).
    pub(in crate::run::ordered) fn take_earliest_file(
        &self,
        room: impl FnOnce() -> bool,
    ) -> Option<Task> {
        let mut s = self.state.lock().ok()?;
        let held = self.earliest_held();
        let queued_first = match (s.tasks.peek(), &held) {
            (Some(Reverse(first)), Some((_, key))) => first.key < *key,
            (queued, _) => queued.is_some(),
        };
        if !queued_first {
            let (w, _) = held?;
            let file = self.take_held_front(w, room)?;
            s.searching += 1;
            return Some(file);
        }
        let (key, mut batch) = match s.tasks.pop()? {
            Reverse(Task {
                key,
                work: Work::Search(batch),
            }) => (key, batch),
            Reverse(listing) => {
                s.listing += 1;
                return Some(listing);
            }
        };
        if !room() {
            let work = Work::Search(batch);
            s.tasks.push(Reverse(Task { key, work }));
            return None;
        }
        if batch.len() > 1 {
            let rest = batch.split_off(1);
            s.tasks.push(Reverse(Task {
                key: key_at(&key, rest.first()),
                work: Work::Search(rest),
            }));
        }
        s.searching += 1;
        Some(Task {
            key,
            work: Work::Search(batch),
        })
    }

    /// Whether file `id` is a worker's file under way.
    fn under_way(&self, id: usize) -> bool {
        self.searching
            .iter()
            .any(|f| f.load(Ordering::Acquire) == id)
    }

    /// The next file of the earliest batch a worker holds, alone.
    fn take_held_next(&self) -> Option<Task> {
        let (w, _) = self.earliest_held()?;
        self.take_held_front(w, || true)
    }

    /// The next file of worker `w`'s batch, alone, if `room` says it may
    /// be taken (asked only when there is one). Its worker may have begun
    /// the file [`Queue::earliest_held`] saw: the slot is looked at again
    /// under its lock, and the file taken keyed by itself.
    fn take_held_front(&self, w: usize, room: impl FnOnce() -> bool) -> Option<Task> {
        let mut slot = self.held[w].lock().ok()?;
        let h = slot.as_mut().filter(|h| !h.items.is_empty())?;
        if !room() {
            return None;
        }
        let key = key_at(&h.key, h.items.front());
        let item = h.items.pop_front()?;
        Some(Task {
            key,
            work: Work::Search(vec![item]),
        })
    }

    /// File `id` out of the batch a worker holds it in, alone.
    fn take_held(&self, id: usize) -> Option<Task> {
        self.held.iter().find_map(|slot| {
            let mut slot = slot.lock().ok()?;
            let h = slot.as_mut()?;
            let at = h.items.iter().position(|(i, _)| *i == id)?;
            let item = h.items.remove(at)?;
            let key = key_at(&h.key, Some(&item));
            Some(Task {
                key,
                work: Work::Search(vec![item]),
            })
        })
    }

    /// The worker holding the earliest batch with files not begun, and
    /// the key of its next file.
    fn earliest_held(&self) -> Option<(usize, Key)> {
        let mut earliest: Option<(usize, Key)> = None;
        for (w, slot) in self.held.iter().enumerate() {
            let Ok(h) = slot.lock() else { continue };
            if let Some(h) = h.as_ref().filter(|h| !h.items.is_empty()) {
                let key = key_at(&h.key, h.items.front());
                if earliest.as_ref().is_none_or(|(_, k)| key < *k) {
                    earliest = Some((w, key));
                }
            }
        }
        earliest
    }
}

/// Whether `task` holds what the printer waits for.
fn holds(task: &Task, want: Want) -> bool {
    match (&task.work, want) {
        (Work::List(node, _), Want::Listing(n)) => *node == n,
        (Work::Search(batch), Want::Result(id)) => batch.iter().any(|(i, _)| *i == id),
        _ => false,
    }
}

/// Where in the heap's order of storage the task holding what the printer
/// waits for is: the earliest looked at first (it usually is).
fn position(tasks: &BinaryHeap<Reverse<Task>>, want: Want) -> Option<usize> {
    match tasks.peek() {
        Some(Reverse(first)) if holds(first, want) => Some(0),
        _ => tasks.iter().position(|Reverse(t)| holds(t, want)),
    }
}

/// The task at `at` in the heap's order of storage (0: the earliest),
/// taken out.
fn remove(tasks: &mut BinaryHeap<Reverse<Task>>, at: usize) -> Task {
    if at == 0 {
        if let Some(Reverse(first)) = tasks.pop() {
            return first;
        }
    }
    let mut all = std::mem::take(tasks).into_vec();
    let Reverse(task) = all.swap_remove(at);
    *tasks = all.into();
    task
}
