//! Trees walked and searched by all threads, printed in name order.
//!
//! One thread walking a tree in name order while the others search was the
//! limit with many small files on many cores: on 16 cores the walk alone
//! took as long as ripgrep's whole search of the Linux tree. Here every
//! directory is a task: whichever search thread is free lists it (in name
//! order, `walk::tree`), queues its subdirectories as tasks and its files
//! as batches to search. The printing thread keeps the tree's shape as the
//! listings come in and walks it depth first, printing each file's result
//! when it arrives, so the output is exactly what one thread walking in
//! name order prints.
//!
//! Tasks are taken earliest first (by their place in that order), so the
//! printer's next file is never stuck behind later work. Once more results
//! wait to be printed than `ahead` allows, a thread holding a later batch
//! trades it for an earlier task, or waits, unless its batch holds the file
//! the printer waits for.

mod inbox;
mod printer;
mod queue;

use super::parallel::{error_result, Job, AHEAD_LIMIT, WALK_BATCH};
use super::{Printed, Shared};
use crate::input::walk::tree::{self, Entry};
use crate::input::walk::{tree_key, Filters, Item, Start};
use crate::run::one::FileResult;
use inbox::Inbox;
use printer::Printer;
use queue::{Key, Queue, QueueState, Task, Work};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// A directory's children in order, as the printer walks them.
#[derive(Clone, Copy)]
enum Child {
    File(usize),
    Dir(usize),
}

/// What search threads tell the printer.
enum Msg {
    /// A directory (node id) was listed.
    Listed(usize, Vec<Child>),
    /// Files were searched (item id, result).
    Found(Vec<(usize, io::Result<FileResult>)>),
}

/// Ids for directories and files, shared by the threads.
struct Ids {
    nodes: AtomicUsize,
    items: AtomicUsize,
}

impl Ids {
    fn node(&self) -> usize {
        self.nodes.fetch_add(1, Ordering::Relaxed)
    }
    fn item(&self) -> usize {
        self.items.fetch_add(1, Ordering::Relaxed)
    }

    /// A directory of operand `op` to list: its place among its parent's
    /// children, and the task that lists it.
    fn directory(&self, op: usize, path: PathBuf) -> (Child, Task) {
        let node = self.node();
        let task = Task {
            key: (op, tree_key(&path)),
            work: Work::List(node, path),
        };
        (Child::Dir(node), task)
    }
}

/// Searches the operands, walking their trees with `workers` threads;
/// prints in name order.
pub(super) fn search_trees(
    shared: &Shared,
    starts: Vec<Start>,
    workers: usize,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let filters = Filters::new(&shared.cfg);
    let ids = Ids {
        nodes: AtomicUsize::new(1),
        items: AtomicUsize::new(0),
    };
    // The operands are the children of node 0, which the printer knows.
    let mut top = Vec::new();
    let mut tasks = Vec::new();
    let mut known = HashMap::new();
    for (op, start) in starts.into_iter().enumerate() {
        match start {
            Start::Item(Item::Error(msg)) => {
                let id = ids.item();
                known.insert(id, Ok(error_result(&msg)));
                top.push(Child::File(id));
            }
            Start::Item(item) => {
                let id = ids.item();
                top.push(Child::File(id));
                tasks.push(Task {
                    key: (op, Vec::new()),
                    work: Work::Search(vec![(id, item)]),
                });
            }
            Start::Tree(path) => {
                let (child, task) = ids.directory(op, path);
                top.push(child);
                tasks.push(task);
            }
        }
    }
    let queue = Queue {
        state: Mutex::new(QueueState {
            tasks: tasks.into_iter().map(Reverse).collect(),
            listing: 0,
            closed: false,
            idle: 0,
        }),
        ready: Condvar::new(),
    };
    let unprinted = AtomicUsize::new(known.len());
    let stop = AtomicBool::new(false);
    let ahead = AHEAD_LIMIT.max(2 * WALK_BATCH * workers);
    let inbox = Inbox::new(workers);
    std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..workers {
            let (queue, ids, filters, inbox) = (&queue, &ids, &filters, &inbox);
            let (unprinted, stop) = (&unprinted, &stop);
            scope.spawn(move || {
                // Tells the printer this thread ended, however it ends.
                let _closing = Closing(inbox);
                while let Some(mut task) = queue.take() {
                    // Too far ahead of the printer: earlier work first, or
                    // wait for it to catch up.
                    while unprinted.load(Ordering::Acquire) > ahead && !stop.load(Ordering::Relaxed)
                    {
                        task = queue.trade(task);
                        let Work::Search(batch) = &task.work else {
                            break;
                        };
                        if inbox.waits_for_any(batch.iter().map(|(id, _)| *id)) {
                            break;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    match task.work {
                        Work::List(node, path) => {
                            let op = task.key.0;
                            let (children, tasks) = list(shared, filters, ids, op, &path);
                            queue.add(tasks, true);
                            inbox.send(Msg::Listed(node, children));
                        }
                        Work::Search(batch) => {
                            let results: Vec<_> = batch
                                .into_iter()
                                .map(|(id, item)| match &item {
                                    Item::Error(msg) => (id, Ok(error_result(msg))),
                                    Item::Input(input) => (id, job(id, input, None)),
                                })
                                .collect();
                            unprinted.fetch_add(results.len(), Ordering::AcqRel);
                            inbox.send(Msg::Found(results));
                        }
                    }
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
            });
        }
        let printer = Printer {
            shared,
            inbox: &inbox,
            listings: HashMap::from([(0, top)]),
            results: known,
            unprinted: &unprinted,
        };
        let outcome = printer.print(out, state);
        stop.store(true, Ordering::Relaxed);
        queue.close();
        outcome
    })
}

/// Closes the inbox for its thread when dropped.
struct Closing<'a>(&'a Inbox);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Lists one directory: its children for the printer, and the tasks it
/// makes (its files in batches, its subdirectories).
fn list(
    shared: &Shared,
    filters: &Filters,
    ids: &Ids,
    op: usize,
    path: &std::path::Path,
) -> (Vec<Child>, Vec<Task>) {
    let mut children = Vec::new();
    let mut tasks = Vec::new();
    let mut batch: Vec<(usize, Item)> = Vec::new();
    let mut batch_key = None;
    let flush = |batch: &mut Vec<(usize, Item)>, key: &mut Option<Key>, tasks: &mut Vec<Task>| {
        if let Some(key) = key.take() {
            tasks.push(Task {
                key,
                work: Work::Search(std::mem::take(batch)),
            });
        }
    };
    for entry in tree::list(&shared.cfg, filters, path) {
        match entry {
            Entry::Item(item) => {
                let id = ids.item();
                children.push(Child::File(id));
                if batch_key.is_none() {
                    let at = match &item {
                        Item::Input(input) => input.path.as_deref().map(tree_key),
                        Item::Error(_) => None,
                    };
                    batch_key = Some((op, at.unwrap_or_else(|| tree_key(path))));
                }
                batch.push((id, item));
                if batch.len() >= WALK_BATCH {
                    flush(&mut batch, &mut batch_key, &mut tasks);
                }
            }
            Entry::Dir(dir) => {
                let (child, task) = ids.directory(op, dir);
                children.push(child);
                tasks.push(task);
            }
        }
    }
    flush(&mut batch, &mut batch_key, &mut tasks);
    (children, tasks)
}
