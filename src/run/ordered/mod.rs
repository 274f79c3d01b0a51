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
use inbox::{Inbox, Want};
use printer::Printer;
use queue::{Key, Queue, QueueState, Task, Work};
use std::cmp::Reverse;
use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
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
                        let want = inbox.want();
                        task = queue.trade(task, want);
                        let Work::Search(batch) = &task.work else {
                            break;
                        };
                        if matches!(want, Want::Result(id) if batch.iter().any(|(i, _)| *i == id)) {
                            break;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    match task.work {
                        Work::List(node, path) => {
                            let op = task.key.0;
                            inbox.send(list(
                                shared,
                                filters,
                                ids,
                                queue,
                                op,
                                node,
                                &path,
                                ahead / 2,
                            ));
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

/// Lists directory `path` (node `node`) as a task: its subdirectories
/// become tasks, its files batches to search, and the printer gets its
/// children in name order. In a large directory (more than
/// [`STREAM_AFTER`] entries), up to `early` more files are queued in
/// batches as they are read, while the rest is still being read: searching
/// needs no order, only printing does, and one thread reading and sorting
/// 20,000 names would otherwise keep every other thread waiting. The rest
/// is batched in name order after the sort, so the printer's next file is
/// in the earliest batch (what the throttle's trades rely on), and the
/// early batches stay within what threads may run ahead by.
#[allow(clippy::too_many_arguments)]
fn list(
    shared: &Shared,
    filters: &Filters,
    ids: &Ids,
    queue: &Queue,
    op: usize,
    node: usize,
    path: &Path,
    early: usize,
) -> Msg {
    let mut lister = Lister {
        ids,
        op,
        dir: path,
        batch: Vec::new(),
        key: None,
        tasks: Vec::new(),
        children: Vec::new(),
    };
    let mut rest = Vec::new();
    let mut streamed = Vec::new();
    let read = tree::read(&shared.cfg, filters, path, |entry| match entry {
        Entry::Item(item) if rest.len() >= STREAM_AFTER && streamed.len() < early => {
            let name = entry_name(&item);
            streamed.push((name, lister.file(item)));
            if lister.batch.len() >= WALK_BATCH {
                queue.add(lister.flush().into_iter().collect(), false);
            }
        }
        entry => rest.push(entry),
    });
    queue.add(lister.flush().into_iter().collect(), false);
    let errors = match read {
        tree::Read::Whole(entries) => {
            rest = entries;
            Vec::new()
        }
        // Siblings share `path/`: their paths compare as their names do.
        tree::Read::Streamed { errors } => {
            rest.sort_unstable_by(|a, b| tree::path_bytes(a).cmp(tree::path_bytes(b)));
            errors
        }
    };
    if streamed.is_empty() {
        for entry in rest.into_iter().chain(errors) {
            lister.take(entry);
        }
    } else {
        let mut named = streamed;
        for entry in rest {
            let name = tree::path_bytes(&entry).to_vec();
            named.push((name, lister.take(entry)));
        }
        named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        lister.children = named.into_iter().map(|(_, child)| child).collect();
        for entry in errors {
            lister.take(entry);
        }
    }
    let mut tasks = std::mem::take(&mut lister.tasks);
    tasks.extend(lister.flush());
    queue.add(tasks, true);
    Msg::Listed(node, lister.children)
}

/// A directory with more entries than this has its next files searched
/// while it is still being read (`list`).
const STREAM_AFTER: usize = 1024;

/// The path of a file found in a directory, as bytes (its sort key there).
fn entry_name(item: &Item) -> Vec<u8> {
    match item {
        Item::Input(input) => input
            .path
            .as_deref()
            .map_or_else(Vec::new, |p| p.as_os_str().as_encoded_bytes().to_vec()),
        Item::Error(_) => Vec::new(),
    }
}

/// One directory's listing under way: its children in the order taken,
/// the batch being filled, and the tasks for its subdirectories.
struct Lister<'a> {
    ids: &'a Ids,
    op: usize,
    dir: &'a Path,
    batch: Vec<(usize, Item)>,
    key: Option<Key>,
    tasks: Vec<Task>,
    children: Vec<Child>,
}

impl Lister<'_> {
    /// Takes the next entry: a child of the directory, and work to do.
    fn take(&mut self, entry: Entry) -> Child {
        let child = match entry {
            Entry::Item(item) => self.file(item),
            Entry::Dir(dir) => {
                let (child, task) = self.ids.directory(self.op, dir);
                self.tasks.push(task);
                child
            }
        };
        self.children.push(child);
        if self.batch.len() >= WALK_BATCH {
            if let Some(task) = self.flush() {
                self.tasks.push(task);
            }
        }
        child
    }

    /// Puts a file in the batch being filled.
    fn file(&mut self, item: Item) -> Child {
        let id = self.ids.item();
        if self.key.is_none() {
            let at = match &item {
                Item::Input(input) => input.path.as_deref(),
                Item::Error(_) => None,
            };
            self.key = Some((self.op, tree_key(at.unwrap_or(self.dir))));
        }
        self.batch.push((id, item));
        Child::File(id)
    }

    /// The batch filled so far, as a task.
    fn flush(&mut self) -> Option<Task> {
        self.key.take().map(|key| Task {
            key,
            work: Work::Search(std::mem::take(&mut self.batch)),
        })
    }
}
