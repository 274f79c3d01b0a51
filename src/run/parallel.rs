//! The CPU engine's inputs searched by several threads, printed in order:
//! inputs listed in advance (`search_items`), or a tree walked by one
//! thread in name order while the others search (`search_walking`, for
//! `-R` and `--gitignore`; `ordered` walks other trees with every thread).
//! With one thread, each item is searched in turn on the calling thread,
//! a walked tree's files as they are found (`search_walked_in_turn`).
//! Each worker writes a file's output into its own buffer (sent on in
//! parts of 1 MiB when it grows past that, `part`) and the calling thread
//! prints the buffers in input order, so the output is the same with 1
//! thread or 64.

pub(super) mod part;

use super::gathered::Gathered;
use super::one::FileResult;
use super::{Printed, Shared};
use crate::config::Mode;
use crate::error::Message;
use crate::input::walk::{self, Input, Item};
use part::{PartWriter, Sent, Shelf, Waiting};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, TryRecvError};
use std::sync::Mutex;

/// Searches one input: the item's index, the input, and where to stream.
pub(super) type Job<'a> =
    dyn Fn(usize, &Input, Option<&mut dyn Write>) -> io::Result<FileResult> + Sync + 'a;

/// Searches one item on the calling thread, its output streamed to `out`
/// where it can be; `Ok(true)`: the run stops here (`-q`, `-m` and such).
fn search_in_turn(
    shared: &Shared,
    i: usize,
    item: &Item,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<bool> {
    let mut result = match item {
        Item::Error(msg) => error_result(msg),
        Item::Input(input) => {
            // Stream straight to stdout, unless a group separator may be
            // owed before this file's first line.
            let owes_separator =
                state.any_lines && shared.cfg.context_given && shared.cfg.mode == Mode::Lines;
            let stream: Option<&mut dyn Write> = if owes_separator {
                None
            } else {
                Some(&mut *out)
            };
            job(i, input, stream)?
        }
    };
    state.emit(shared, out, &mut result)?;
    Ok(state.stop(shared))
}

/// One thread walks the trees and searches each file as it is found, as
/// GNU grep does (`-j1`): the first lines come out before a large tree is
/// walked, and no list of its files is kept (100,000 small files, `-j1 -c`:
/// 17.4 MB listed first, against ripgrep's 6.2 MB).
pub(super) fn search_walked_in_turn(
    shared: &Shared,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let stop = std::cell::Cell::new(false);
    let mut failed = None;
    let mut i = 0;
    let mut emit = |item: Item| {
        if stop.get() {
            return;
        }
        match search_in_turn(shared, i, &item, job, out, state) {
            Ok(done) => stop.set(done),
            Err(e) => {
                failed = Some(e);
                stop.set(true);
            }
        }
        i += 1;
    };
    walk::walk(&shared.cfg, &mut emit, &|| stop.get());
    failed.map_or(Ok(()), Err)
}

/// Searches the items in order (in parallel when there are several); at
/// most `bytes_ahead` of results wait to be printed (see [`BYTES_AHEAD`]).
pub(crate) fn search_items(
    shared: &Shared,
    items: &[Item],
    job: &Job,
    bytes_ahead: usize,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    // Standard input named twice (`- -`) must be read in order: the first
    // gets the data, the second finds it empty.
    let stdins = items
        .iter()
        .filter(|i| matches!(i, Item::Input(input) if input.path.is_none()))
        .count();
    let single = items.len() == 1 || shared.cfg.threads <= 1 || stdins > 1;
    if single {
        for (i, item) in items.iter().enumerate() {
            if search_in_turn(shared, i, item, job, out, state)? {
                break;
            }
        }
        return Ok(());
    }

    let workers = shared.cfg.threads.min(items.len()).max(1);
    let cursor = std::sync::Mutex::new(0);
    // Files named on the command line may be large: one at a time; files
    // found in a tree go in batches, as when walking while searching.
    let next = || {
        let Ok(mut i) = cursor.lock() else {
            return Vec::new();
        };
        let found = |item: &Item| matches!(item, Item::Input(input) if input.from_recursion);
        let n = match items.get(*i) {
            None => 0,
            Some(item) if found(item) => items[*i..]
                .iter()
                .take(batch_size(items.len() - *i, workers))
                .take_while(|item| found(item))
                .count(),
            Some(_) => 1,
        };
        let batch = (*i..*i + n).map(|k| (k, items[k].clone())).collect();
        *i += n;
        if items.len() - *i < workers {
            shared.helpers.reach_tail();
        }
        batch
    };
    search_parallel(shared, &next, workers, job, bytes_ahead, out, state)
}

/// Walks the tree in one thread while the others search what it found.
pub(super) fn search_walking(
    shared: &Shared,
    job: &Job,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Vec<(usize, Item)>>(256);
        let done = &done;
        scope.spawn(move || {
            // Items go out in batches: one hand-over per file costs more than
            // searching a small file (futex wake-ups).
            let mut batch = Vec::new();
            let mut i = 0;
            let mut emit = |item| {
                batch.push((i, item));
                i += 1;
                // A closed channel means the search stopped (-q, closed stdout).
                let full = batch.len() >= batch_size(i, shared.cfg.threads);
                if full && tx.send(std::mem::take(&mut batch)).is_err() {
                    done.store(true, Ordering::Relaxed);
                }
            };
            walk::walk(&shared.cfg, &mut emit, &|| done.load(Ordering::Relaxed));
            if !batch.is_empty() {
                let _ = tx.send(batch);
            }
        });
        let rx = std::sync::Mutex::new(rx);
        let next = || {
            rx.lock()
                .ok()
                .and_then(|rx| rx.recv().ok())
                .unwrap_or_default()
        };
        let result = search_parallel(
            shared,
            &next,
            shared.cfg.threads,
            job,
            BYTES_AHEAD,
            out,
            state,
        );
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// How many files past the last one printed a worker may search, at least;
/// with many workers, each may hold two full batches ahead (with 16 workers
/// and a fixed 1,024, half of them slept while the others searched).
pub(super) const AHEAD_LIMIT: usize = 1024;

/// Bytes of results that may wait to be printed (beyond the batch holding
/// the next file to print): dense output (`-n` over 16 GiB of prose, 1,000
/// words, 840 KB a file) held 3 GB in the ordered walk before, 5 GB on the
/// GPU path's listed files.
pub(super) const BYTES_AHEAD: usize = 64 << 20;

/// `default` bytes of results waiting, or `GPUGREP_LEAD_BYTES` (a test
/// knob, read once per run) for listed and walked inputs alike.
pub(super) fn bytes_ahead_or_knob(default: usize) -> usize {
    crate::knobs::get()
        .lead_bytes
        .get()
        .map_or(default, |b| usize::try_from(b).unwrap_or(usize::MAX))
}

/// Results holding this many bytes are sent to the printer before their
/// batch ends: a batch of 63 files of dense `-n` output (1 MB each) was
/// printed only once all of it was searched, and with the lead bounded the
/// threads then mostly waited (16 GiB of prose, 1,000 words, `-n`, 16
/// threads on the H100 host: 112 s, rg 9 s).
pub(super) const SEND_BYTES: usize = 1 << 20;

/// The memory a result waiting to be printed holds.
pub(super) fn held(result: &io::Result<FileResult>) -> usize {
    std::mem::size_of::<io::Result<FileResult>>() + result.as_ref().map_or(0, |r| r.out.capacity())
}

/// Most files found in a tree handed to a search thread at once. Every
/// hand-over wakes threads: with batches of 16, 100,000 small files on 2
/// cores spent a fifth of their time switching threads, and took 0.31 s
/// against 0.25 s with 128.
pub(super) const WALK_BATCH: usize = 128;

/// Files per batch when `known` files are found (walking) or left
/// (listed) for `workers`: small at first and for few files, so a tree of
/// a few large files is still shared by all threads.
fn batch_size(known: usize, workers: usize) -> usize {
    (known / (4 * workers.max(1))).clamp(1, WALK_BATCH)
}

/// Where workers take their next items from (index in output order, item);
/// empty when there are no more.
type NextItem<'a> = dyn Fn() -> Vec<(usize, Item)> + Sync + 'a;

/// Workers search items as `next` hands them out; the calling thread prints
/// the results in index order.
fn search_parallel(
    shared: &Shared,
    next: &NextItem,
    workers: usize,
    job: &Job,
    bytes_ahead: usize,
    out: &mut dyn Write,
    state: &mut Printed,
) -> io::Result<()> {
    let stop = AtomicBool::new(false);
    // Results wait in memory until every earlier file is printed; workers
    // stay at most this many files ahead of the printer, so one slow file
    // early in a large tree cannot make the others pile up.
    // So are their bytes (`bytes_ahead`): a worker sends what it holds
    // every `SEND_BYTES`, and waits before a file while too much waits, so
    // nothing it holds is what the printer needs.
    let bytes_ahead = bytes_ahead_or_knob(bytes_ahead);
    let printed = AtomicUsize::new(0);
    let shelf = Shelf::new(workers, bytes_ahead);
    let held_bytes = &shelf.held;
    let ahead = AHEAD_LIMIT.max(2 * WALK_BATCH * workers);
    // Items a worker could not search yet (the bounds), handed back so that
    // the files next to be printed are shared by every worker rather than
    // searched one after the other by the worker whose batch holds them
    // (GPU pipeline, `-n`, 16 GiB of prose in 20,000 files: 55 s, rg 10 s).
    let returned: Mutex<BTreeMap<usize, Item>> = Mutex::new(BTreeMap::new());
    // (A poisoned lock is taken as it is: no item may be lost.)
    let pool = || returned.lock().unwrap_or_else(|e| e.into_inner());
    let take = || match pool().pop_first() {
        Some(first) => vec![first],
        None => next(),
    };
    // Workers holding a batch (which they may hand back in part).
    let holding = AtomicUsize::new(0);
    // Workers waiting for the printer: a worker with files left in its
    // batch hands them back for them, file by file, so that the printer's
    // next files are searched by every worker, not by the one whose batch
    // holds them while the others wait with later ones (auto's CPU engine,
    // `-n`, 10,000 words over 2 GiB of prose in 2,500 files, 16 threads on
    // the 2-core VM: 20.2 s and 1.8 GB, the ordered walk 3.3 s).
    let waiting = AtomicUsize::new(0);
    // A file's output goes to the printer in parts as it is made (`part`).
    let in_parts = shared.output_in_parts();
    // A worker that would wait searches pieces of a large file another
    // splits (`search::help`), earliest first.
    let helpers = shared.helpers_of(workers);
    let help_or_wait = || helpers.help_or_sleep(std::time::Duration::from_millis(1));
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::channel::<Sent>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (stop, printed, shelf) = (&stop, &printed, &shelf);
            let (take, pool, holding, help_or_wait) = (&take, &pool, &holding, &help_or_wait);
            let (waiting, helpers) = (&waiting, &helpers);
            // The file `i` may be searched: it is among the next `workers`
            // to print, or neither too many files nor too many bytes wait.
            let may_search = move |i: usize| {
                let p = printed.load(Ordering::Acquire);
                i < p + workers
                    || (i <= p + ahead && held_bytes.load(Ordering::Acquire) <= bytes_ahead)
            };
            scope.spawn(move || 'work: loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let mut batch = take().into_iter();
                if batch.len() == 0 {
                    // Items may still come back from a worker that holds a
                    // batch; once none does, the pool is looked at once more
                    // (an item returned before that worker let go is there).
                    if holding.load(Ordering::Acquire) > 0 {
                        help_or_wait();
                        continue;
                    }
                    batch = take().into_iter();
                    if batch.len() == 0 {
                        break;
                    }
                }
                holding.fetch_add(1, Ordering::AcqRel);
                let _let_go = LetGo(holding);
                let mut unsent = Vec::new();
                let mut unsent_bytes = 0;
                while let Some((i, item)) = batch.next() {
                    if !may_search(i) {
                        // What this worker holds may be what the printer
                        // waits for; the rest of its batch goes back.
                        if !unsent.is_empty()
                            && tx.send(Sent::Done(std::mem::take(&mut unsent))).is_err()
                        {
                            break 'work;
                        }
                        // The file goes back too: a worker waiting with it
                        // would keep it from the others.
                        let mut r = pool();
                        r.insert(i, item);
                        r.extend(batch);
                        drop(r);
                        waiting.fetch_add(1, Ordering::AcqRel);
                        helpers.help_or_sleep(std::time::Duration::from_micros(100));
                        waiting.fetch_sub(1, Ordering::AcqRel);
                        continue 'work;
                    }
                    if batch.len() > 0 && waiting.load(Ordering::Acquire) > 0 {
                        pool().extend(&mut batch);
                    }
                    if stop.load(Ordering::Relaxed) {
                        break 'work;
                    }
                    let mut parted = false;
                    let r = match &item {
                        Item::Error(msg) => Ok(error_result(msg)),
                        Item::Input(input) if in_parts => {
                            let mut parts = PartWriter::new(i, &tx, shelf);
                            let mut r = job(i, input, Some(&mut parts));
                            parted = parts.finish(&mut r);
                            r
                        }
                        Item::Input(input) => job(i, input, None),
                    };
                    let bytes = held(&r);
                    held_bytes.fetch_add(bytes, Ordering::AcqRel);
                    unsent_bytes += bytes;
                    unsent.push((i, r));
                    // A file whose output went in parts: the printer may
                    // be writing it, and waits for its result to go on.
                    if parted || unsent_bytes >= SEND_BYTES {
                        unsent_bytes = 0;
                        if tx.send(Sent::Done(std::mem::take(&mut unsent))).is_err() {
                            break 'work;
                        }
                    }
                }
                if !unsent.is_empty() && tx.send(Sent::Done(unsent)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, io::Result<FileResult>> = BTreeMap::new();
        let mut parts = Waiting::default();
        let mut want = 0;
        state.gathered = Gathered::for_stdout(shared.cfg.line_buffered);
        let mut outcome = (|| -> io::Result<()> {
            loop {
                // What was gathered goes out before the printer waits.
                let sent = match rx.try_recv() {
                    Ok(sent) => sent,
                    Err(TryRecvError::Empty) => {
                        state.gathered.write(out)?;
                        match rx.recv() {
                            Ok(sent) => sent,
                            Err(_) => return Ok(()),
                        }
                    }
                    Err(TryRecvError::Disconnected) => return Ok(()),
                };
                match sent {
                    Sent::Part(i, part) => {
                        parts.take((i, part), want, out, &mut state.gathered, &shelf)?
                    }
                    Sent::Done(results) => pending.extend(results),
                }
                while let Some(r) = pending.remove(&want) {
                    want += 1;
                    printed.store(want, Ordering::Release);
                    held_bytes.fetch_sub(held(&r), Ordering::AcqRel);
                    let mut r = r?;
                    state.emit(shared, out, &mut r)?;
                    if state.stop(shared) {
                        return Ok(());
                    }
                    parts.write_ready(want, out, &mut state.gathered, &shelf)?;
                }
            }
        })();
        outcome = outcome.and(state.gathered.write(out));
        state.gathered = Gathered::off();
        stop.store(true, Ordering::Relaxed);
        shelf.stop();
        outcome
    })
}

/// Counts a worker's batch as let go when dropped (after any hand-back).
struct LetGo<'a>(&'a AtomicUsize);

impl Drop for LetGo<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

pub(super) fn error_result(msg: &str) -> FileResult {
    FileResult {
        messages: vec![Message::Error(msg.to_string())],
        had_error: true,
        ..FileResult::default()
    }
}
