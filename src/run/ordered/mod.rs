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
//! trades it for an earlier task, unless its batch holds the file the
//! printer waits for. Past twice the byte bound a thread takes only what
//! the printer waits for, or the earliest file nobody began while the
//! files begun so are few (`Lead::front_room`), one file at a time, or
//! waits (`far_step`); it takes nothing out of the queue only to look at
//! it, so nothing the printer needs next is hidden or left unbegun.
//!
//! A file's output goes to the printer in parts of 1 MiB as it is made
//! (`parallel::part`), which the printer writes at once for the file it
//! waits for. A large file is split into pieces that the threads search
//! earliest file first (`search::help`): a thread that would wait, or that
//! holds a later file, searches pieces of the earliest. Before, each
//! file's output was kept whole until its turn and each thread split its
//! file with threads of its own (16 GiB of logs in 64 files printed with
//! `-n`, 16 cores: 12-18 s, 4 M page faults; now 4.5 s; rg 5.5-6.4 s).

mod found;
mod inbox;
mod lead;
mod listing;
mod printer;
mod queue;

use super::parallel::part::PartWriter;
use super::parallel::part::Waiting;
use super::parallel::{error_result, Job, SEND_BYTES};
use super::{Printed, Shared};
use crate::input::walk::{tree_key, Filters, Item, Start};
use found::{exact, Batch, Found};
use inbox::{Inbox, Want};
use lead::Lead;
use listing::list;
use printer::Printer;
use queue::{Idle, Queue, Task, Work};
use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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
    /// Files were searched (item id, result); a result's output follows
    /// its parts.
    Found(Batch),
    /// Part of a file's output (item id), in order, sent while the file is
    /// searched (`parallel::part`).
    Part(usize, Vec<u8>),
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
    let mut known = Vec::new();
    for (op, start) in starts.into_iter().enumerate() {
        match start {
            Start::Item(Item::Error(msg)) => {
                let id = ids.item();
                known.push((id, Ok(error_result(&msg))));
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
    let queue = Queue::new(tasks, workers);
    let lead = Lead::new(known.iter().map(|(_, r)| r), workers);
    let stop = AtomicBool::new(false);
    let ahead = crate::knobs::get()
        .lead_files
        .or(lead::files_ahead(workers));
    let prompt = shared.cfg.line_buffered || io::stdout().is_terminal();
    let inbox = Inbox::new(workers, prompt);
    // A file's output goes to the printer in parts as it is made.
    let in_parts = shared.output_in_parts();
    // A thread that would wait searches pieces of a large file another
    // splits (`search::help`), earliest first.
    let helpers = shared.helpers_of(workers);
    std::thread::scope(|scope| -> io::Result<()> {
        for w in 0..workers {
            let (queue, ids, filters, inbox) = (&queue, &ids, &filters, &inbox);
            let (lead, stop) = (&lead, &stop);
            scope.spawn(move || {
                // Tells the printer this thread ended, however it ends.
                let _closing = Closing(inbox);
                let mut searched = false;
                let idle = || {
                    inbox.nudge();
                    match (helpers.help_any(), helpers.offered()) {
                        (true, _) => Idle::Helped,
                        (false, true) => Idle::Offered,
                        (false, false) => Idle::Nothing,
                    }
                };
                loop {
                    let stopped = stop.load(Ordering::Relaxed);
                    let task = if lead.far_too_many_bytes() && !stopped {
                        // Far ahead of the printer: one file at a time of
                        // those it needs next, or wait for it to catch up.
                        if std::mem::take(&mut searched) {
                            queue.finished_search();
                        }
                        let Some(task) = far_step(queue, lead, inbox) else {
                            inbox.nudge();
                            helpers.help_or_sleep(std::time::Duration::from_micros(100));
                            continue;
                        };
                        task
                    } else {
                        let Some(task) = queue.take(searched, idle) else {
                            break;
                        };
                        // Too far ahead of the printer: earlier work first.
                        match lead.too_far(ahead) && !stopped {
                            true => catch_up(task, queue, inbox),
                            false => task,
                        }
                    };
                    searched = matches!(task.work, Work::Search(_));
                    match task.work {
                        Work::List(node, path) => {
                            let op = task.key.0;
                            inbox.send(list(shared, filters, ids, queue, op, node, &path, workers));
                        }
                        Work::Search(batch) => {
                            // What is left of a batch goes back to the
                            // queue when its output passes the lead (dense
                            // output); idle threads may take part of it.
                            let mut results = Vec::with_capacity(batch.len());
                            let mut unsent = 0;
                            queue.hold(w, task.key, batch);
                            while let Some((id, item)) = queue.next_held(w) {
                                if queue.in_tail() && !helpers.in_tail() {
                                    helpers.reach_tail();
                                }
                                let mut parted = false;
                                let mut part_bytes = 0;
                                let mut result = match &item {
                                    Item::Error(msg) => Ok(error_result(msg)),
                                    Item::Input(input) if in_parts => {
                                        let mut parts = PartWriter::new(id, inbox, &lead.parts);
                                        let mut r = job(id, input, Some(&mut parts));
                                        part_bytes = parts.sent();
                                        parted = parts.finish(&mut r);
                                        r
                                    }
                                    Item::Input(input) => job(id, input, None),
                                };
                                // Output waiting for a listing is packed.
                                if let Ok(r) = &mut result {
                                    if !parted
                                        && crate::run::packed::packable(r)
                                        && lead.worth_packing()
                                    {
                                        crate::run::packed::pack(r);
                                    }
                                }
                                let bytes = lead.add(&result);
                                lead.front_searched(id, bytes + part_bytes);
                                unsent += bytes;
                                results.push((id, result));
                                // Dense output goes to the printer as it
                                // is found, not once per batch; so does
                                // the result of a file whose output went
                                // in parts, which the printer may be
                                // writing (held to the batch's end, the
                                // printer kept every later file's parts:
                                // 8 logs, `-n ERROR`, 2 threads, 25 of 30).
                                if parted || unsent >= SEND_BYTES {
                                    inbox.send(Msg::Found(exact(&mut results)));
                                    unsent = 0;
                                }
                                if lead.too_many_bytes() {
                                    queue.release_held(w);
                                    break;
                                }
                            }
                            inbox.send(Msg::Found(exact(&mut results)));
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
            results: {
                let mut found = Found::default();
                found.add(known);
                found
            },
            parts: Waiting::default(),
            lead: &lead,
        };
        let outcome = printer.print(out, state);
        stop.store(true, Ordering::Relaxed);
        lead.parts.stop();
        inbox.printer_stopped();
        queue.close();
        outcome
    })
}

/// What a thread too far ahead of the printer (within twice the byte
/// bound) searches instead of `task`: the task holding what the printer
/// waits for, or else one file of the earliest batch.
fn catch_up(task: Task, queue: &Queue, inbox: &Inbox) -> Task {
    let want = inbox.want();
    let task = queue.trade(task, want);
    let Work::Search(batch) = &task.work else {
        return task;
    };
    if matches!(want, Want::Result(id) if batch.iter().any(|(i, _)| *i == id)) {
        return task;
    }
    // Nothing unbegun comes before `task` (`trade` gave the earliest
    // queued) once no held batch has files left: its first file is among
    // the printer's next few, which listed inputs' threads may always
    // search (`search_parallel`). Waiting here, 16 threads kept 7 busy:
    // 20,000 files of 860 KB, `-n`, 11.1 s, now 7.0-8.3 s (rg 9.1 s).
    match queue.trade_front(task) {
        Ok(next) => next,
        Err(same) => queue.first_only(same),
    }
}

/// What a thread searches past twice the byte bound: what the printer
/// waits for, if nobody began it; else, while the printer waits for no
/// listing and the files begun so leave room (`Lead::front_room`), the
/// earliest file nobody began. `None`: nothing
/// (the caller waits). Nothing is taken out of the queue only to be
/// looked at (`Queue::take_earliest_file`).
///
/// While the printer waits for a listing, the files begun here would be a
/// large directory's, in the order read, and its next few places stayed
/// taken by files it printed much later (20,512 files in one directory,
/// `-n the`, 16 threads on 2 cores: all 16 places).
fn far_step(queue: &Queue, lead: &Lead, inbox: &Inbox) -> Option<Task> {
    let want = inbox.want();
    if let Some(task) = queue.take_wanted(want) {
        return Some(task);
    }
    if matches!(want, Want::Listing(_)) {
        return None;
    }
    let task = queue.take_earliest_file(|| lead.front_room())?;
    if let Work::Search(batch) = &task.work {
        if let Some((id, _)) = batch.first() {
            lead.front_file(*id);
        }
    }
    Some(task)
}

/// Closes the inbox for its thread when dropped, or fails it when the
/// thread panicked.
struct Closing<'a>(&'a Inbox);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        // A thread that panicked may have held what the printer waits for:
        // waiting for it hung the run (a worker's panic on a closed stderr).
        match std::thread::panicking() {
            true => self.0.fail(),
            false => self.0.close(),
        }
    }
}

#[cfg(test)]
mod tests;
