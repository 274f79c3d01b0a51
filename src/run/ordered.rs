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

use super::one::FileResult;
use super::parallel::{error_result, Job, AHEAD_LIMIT, WALK_BATCH};
use super::{Printed, Shared};
use crate::input::walk::tree::{self, Entry};
use crate::input::walk::{tree_key, Filters, Item, Start};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// A place in the output order: the operand's index, then the path's
/// `tree_key` (depth first, names in byte order).
type Key = (usize, Vec<u8>);

/// Work for a search thread.
enum Work {
    /// List the directory (node id, path).
    List(usize, PathBuf),
    /// Search these files (item id, item).
    Search(Vec<(usize, Item)>),
}

/// A task in the queue, earliest first.
struct Task {
    key: Key,
    work: Work,
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

/// The tasks, and how many threads are listing (and may add more).
struct Queue {
    state: Mutex<QueueState>,
    ready: Condvar,
}

struct QueueState {
    tasks: BinaryHeap<Reverse<Task>>,
    listing: usize,
    closed: bool,
}

impl Queue {
    /// The earliest task, waiting while threads still listing may add one;
    /// `None` when all is done or the search stopped.
    fn take(&self) -> Option<Task> {
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
            s = self.ready.wait(s).ok()?;
        }
    }

    /// Adds tasks; `listed`: a listing task ended with them.
    fn add(&self, tasks: Vec<Task>, listed: bool) {
        let n = tasks.len();
        let last = match self.state.lock() {
            Ok(mut s) => {
                s.listing -= usize::from(listed);
                s.tasks.extend(tasks.into_iter().map(Reverse));
                s.listing == 0 && s.tasks.is_empty()
            }
            Err(_) => true,
        };
        // Wake a thread per new task (all of them once nothing is left to
        // wait for), not every thread for every directory listed.
        match last {
            true => self.ready.notify_all(),
            false => (0..n).for_each(|_| self.ready.notify_one()),
        }
    }

    /// Gives `task` back for an earlier one, if there is one.
    fn trade(&self, task: Task) -> Task {
        let Ok(mut s) = self.state.lock() else {
            return task;
        };
        match s.tasks.peek() {
            Some(Reverse(first)) if first.key < task.key => {
                let Some(Reverse(first)) = s.tasks.pop() else {
                    return task;
                };
                if matches!(first.work, Work::List(..)) {
                    s.listing += 1;
                }
                s.tasks.push(Reverse(task));
                first
            }
            _ => task,
        }
    }

    fn close(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.closed = true;
        }
        self.ready.notify_all();
    }
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
                let node = ids.node();
                top.push(Child::Dir(node));
                tasks.push(Task {
                    key: (op, tree_key(&path)),
                    work: Work::List(node, path),
                });
            }
        }
    }
    let queue = Queue {
        state: Mutex::new(QueueState {
            tasks: tasks.into_iter().map(Reverse).collect(),
            listing: 0,
            closed: false,
        }),
        ready: Condvar::new(),
    };
    let unprinted = AtomicUsize::new(known.len());
    let waiting_for = AtomicUsize::new(usize::MAX);
    let stop = AtomicBool::new(false);
    let ahead = AHEAD_LIMIT.max(2 * WALK_BATCH * workers);
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<Msg>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (queue, ids, filters) = (&queue, &ids, &filters);
            let (unprinted, waiting_for, stop) = (&unprinted, &waiting_for, &stop);
            scope.spawn(move || {
                while let Some(mut task) = queue.take() {
                    // Too far ahead of the printer: earlier work first, or
                    // wait for it to catch up.
                    while unprinted.load(Ordering::Acquire) > ahead && !stop.load(Ordering::Relaxed)
                    {
                        task = queue.trade(task);
                        let Work::Search(batch) = &task.work else {
                            break;
                        };
                        let wanted = waiting_for.load(Ordering::Acquire);
                        if batch.iter().any(|(id, _)| *id == wanted) {
                            break;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    let sent = match task.work {
                        Work::List(node, path) => {
                            let op = task.key.0;
                            let (children, tasks) = list(shared, filters, ids, op, &path);
                            queue.add(tasks, true);
                            tx.send(Msg::Listed(node, children))
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
                            tx.send(Msg::Found(results))
                        }
                    };
                    if sent.is_err() || stop.load(Ordering::Relaxed) {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let printer = Printer {
            shared,
            rx,
            listings: HashMap::from([(0, top)]),
            results: known,
            unprinted: &unprinted,
            waiting_for: &waiting_for,
        };
        let outcome = printer.print(out, state);
        stop.store(true, Ordering::Relaxed);
        queue.close();
        outcome
    })
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
                let node = ids.node();
                children.push(Child::Dir(node));
                tasks.push(Task {
                    key: (op, tree_key(&dir)),
                    work: Work::List(node, dir),
                });
            }
        }
    }
    flush(&mut batch, &mut batch_key, &mut tasks);
    (children, tasks)
}

/// The printing thread's view: the tree as listed so far, and results
/// waiting for their turn.
struct Printer<'a> {
    shared: &'a Shared,
    rx: mpsc::Receiver<Msg>,
    listings: HashMap<usize, Vec<Child>>,
    results: HashMap<usize, io::Result<FileResult>>,
    unprinted: &'a AtomicUsize,
    waiting_for: &'a AtomicUsize,
}

impl Printer<'_> {
    /// Walks the tree depth first as it comes in, printing each result in
    /// turn; ends when all is printed or the search must stop.
    fn print(mut self, out: &mut dyn Write, state: &mut Printed) -> io::Result<()> {
        // (directory, next child) from the top down.
        let mut path: Vec<(usize, usize)> = vec![(0, 0)];
        while let Some(&(node, next)) = path.last() {
            let Some(children) = self.listings.get(&node) else {
                self.waiting_for.store(usize::MAX, Ordering::Release);
                if !self.receive() {
                    break;
                }
                continue;
            };
            let Some(&child) = children.get(next) else {
                self.listings.remove(&node);
                path.pop();
                continue;
            };
            match child {
                Child::Dir(dir) => {
                    if let Some(last) = path.last_mut() {
                        last.1 += 1;
                    }
                    path.push((dir, 0));
                }
                Child::File(id) => match self.results.remove(&id) {
                    Some(result) => {
                        if let Some(last) = path.last_mut() {
                            last.1 += 1;
                        }
                        self.unprinted.fetch_sub(1, Ordering::AcqRel);
                        let mut result = result?;
                        state.emit(self.shared, out, &mut result)?;
                        if state.stop(self.shared) {
                            return Ok(());
                        }
                    }
                    None => {
                        self.waiting_for.store(id, Ordering::Release);
                        if !self.receive() {
                            break;
                        }
                    }
                },
            }
        }
        Ok(())
    }

    /// Takes the next message; false when every search thread has ended.
    fn receive(&mut self) -> bool {
        match self.rx.recv() {
            Ok(Msg::Listed(node, children)) => {
                self.listings.insert(node, children);
                true
            }
            Ok(Msg::Found(found)) => {
                self.results.extend(found);
                true
            }
            Err(_) => false,
        }
    }
}
