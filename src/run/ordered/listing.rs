//! Listing one directory of the ordered walk: its subdirectories become
//! tasks, its files batches to search, and the printer gets its children
//! in name order.

use super::queue::{Key, Queue, Task, Work};
use super::{Child, Ids, Msg};
use crate::input::walk::tree::{self, Entry};
use crate::input::walk::{tree_key, Filters, Item};
use crate::run::parallel::WALK_BATCH;
use crate::run::Shared;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Lists directory `path` (node `node`) as a task: its subdirectories
/// become tasks, its files batches to search, and the printer gets its
/// children in name order. In a large directory (more than
/// [`STREAM_AFTER`] entries), the later files are queued in batches as
/// they are read: searching needs no order, only printing does, and one
/// thread reading 20,512 names took 21 ms on the H100 host, half of the
/// whole search, while the other threads waited (with 2,048 files
/// streamed: 44 ms, with all: 36 ms, ripgrep 38.6 ms). The first entries
/// are batched in name order after the sort; the printer's next file may
/// be in any streamed batch, which the throttle's trades look for by id.
#[allow(clippy::too_many_arguments)]
pub(super) fn list(
    shared: &Shared,
    filters: &Filters,
    ids: &Ids,
    queue: &Queue,
    op: usize,
    node: usize,
    path: &Path,
    workers: usize,
) -> Msg {
    let mut lister = Lister {
        ids,
        op,
        dir: path,
        batch: Vec::new(),
        key: None,
        tasks: Vec::new(),
        children: Vec::new(),
        batch_len: WALK_BATCH,
    };
    let mut rest = Vec::new();
    let mut streamed = Named::default();
    let read = tree::read(&shared.cfg, filters, path, |entry| match entry {
        Entry::Item(item) if rest.len() >= STREAM_AFTER => {
            let name = streamed.keep(entry_name(&item));
            streamed.children.push((name, lister.file(item)));
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
    // Spread a directory over the threads: its files may be large (64 logs
    // of 32 MiB in one batch ran on one of 16 threads), but a batch of a
    // few small files costs more to hand out than to search.
    lister.batch_len = rest
        .len()
        .div_ceil(workers.max(1))
        .clamp(MIN_BATCH, WALK_BATCH);
    if streamed.children.is_empty() {
        for entry in rest.into_iter().chain(errors) {
            lister.take(entry);
        }
    } else {
        // The order is known only now: the streamed files not begun yet
        // are batched again with the first ones, in name order. Left in
        // the order read, each batch the printer's next file was in held
        // about 127 files it would print much later, and the threads ran
        // into the files bound and traded and slept for the rest of the
        // directory (20,516 files in one directory, `-c -i josé`,
        // 2 threads: 111 ms, with no files bound 78 ms, ripgrep 86 ms).
        let mut named = streamed;
        let mut files = Vec::new();
        for entry in rest {
            let name = named.keep(child_name(&entry));
            let child = match entry {
                Entry::Item(item) => {
                    let id = ids.item();
                    files.push((id, item));
                    Child::File(id)
                }
                Entry::Dir(dir) => lister.dir(dir),
            };
            named.children.push((name, child));
        }
        named.sort();
        let ranks = Ranks::new(&named.children);
        // Room for all at once: grown by doubling, the freed steps stayed
        // resident in the allocator (2 MB for 18,000 files).
        let taken = queue.take_batches(|id| ranks.get(id).is_some());
        files.reserve_exact(taken.iter().map(Vec::len).sum());
        taken.into_iter().for_each(|batch| files.extend(batch));
        ranks.sort(&mut files);
        for (id, item) in files {
            lister.batch_file(id, item);
        }
        lister.children = named.children.into_iter().map(|(_, child)| child).collect();
        for entry in errors {
            lister.take(entry);
        }
    }
    let mut tasks = std::mem::take(&mut lister.tasks);
    tasks.extend(lister.flush());
    queue.add(tasks, true);
    Msg::Listed(node, lister.children)
}

/// Each file's place among a large directory's sorted children, by id:
/// the directory's file ids span a range (other directories listed
/// meanwhile take ids in between), so a table over that range serves.
/// Files sorted by a `HashMap`'s ranks took 7-9 ms of a 20,512-file
/// listing's 27-43 ms on 2 threads (two lookups a comparison), its build
/// 2 ms more.
struct Ranks {
    first: usize,
    rank: Vec<u32>,
}

impl Ranks {
    fn new(named: &[(Range<usize>, Child)]) -> Ranks {
        let ids = || {
            named.iter().filter_map(|(_, child)| match child {
                Child::File(id) => Some(*id),
                Child::Dir(_) => None,
            })
        };
        let first = ids().min().unwrap_or(0);
        let last = ids().max().unwrap_or(0);
        let mut rank = vec![u32::MAX; last + 1 - first];
        for (at, (_, child)) in named.iter().enumerate() {
            if let Child::File(id) = child {
                rank[id - first] = u32::try_from(at).unwrap_or(u32::MAX);
            }
        }
        Ranks { first, rank }
    }

    /// File `id`'s place among the children, if it is one of them.
    fn get(&self, id: usize) -> Option<usize> {
        let at = id.checked_sub(self.first)?;
        self.rank
            .get(at)
            .filter(|&&r| r != u32::MAX)
            .map(|&r| r as usize)
    }

    /// `files` in their places' order (any not among the children last).
    fn sort(&self, files: &mut [(usize, Item)]) {
        files.sort_unstable_by_key(|(id, _)| self.get(*id).unwrap_or(usize::MAX));
    }
}

/// The fewest files a batch of a directory's sorted files holds.
const MIN_BATCH: usize = 8;

/// A directory with more entries than this has its next files searched
/// while it is still being read (`list`).
const STREAM_AFTER: usize = 1024;

/// The name of a file found in a directory, as bytes (its sort key there:
/// siblings share their directory's path).
fn entry_name(item: &Item) -> &[u8] {
    match item {
        Item::Input(input) => input
            .path
            .as_deref()
            .and_then(Path::file_name)
            .map_or(&[], |p| p.as_encoded_bytes()),
        Item::Error(_) => &[],
    }
}

/// What [`entry_name`] is for any entry.
fn child_name(entry: &Entry) -> &[u8] {
    match entry {
        Entry::Dir(path) => path.file_name().map_or(&[], |p| p.as_encoded_bytes()),
        Entry::Item(item) => entry_name(item),
    }
}

/// A large directory's children with their names, all names in one
/// buffer: a `Vec` for each cost an allocation per entry while the
/// directory was read, and a sort through scattered memory after.
#[derive(Default)]
struct Named {
    bytes: Vec<u8>,
    children: Vec<(Range<usize>, Child)>,
}

impl Named {
    /// Keeps `name`, for a child pushed with the range returned.
    fn keep(&mut self, name: &[u8]) -> Range<usize> {
        let at = self.bytes.len();
        self.bytes.extend_from_slice(name);
        at..self.bytes.len()
    }

    /// The children in name order.
    fn sort(&mut self) {
        let bytes = &self.bytes;
        self.children
            .sort_unstable_by(|a, b| bytes[a.0.clone()].cmp(&bytes[b.0.clone()]));
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
    /// Files per batch.
    batch_len: usize,
}

impl Lister<'_> {
    /// Takes the next entry: a child of the directory, and work to do.
    fn take(&mut self, entry: Entry) {
        let child = match entry {
            Entry::Item(item) => {
                let id = self.ids.item();
                self.batch_file(id, item);
                Child::File(id)
            }
            Entry::Dir(dir) => self.dir(dir),
        };
        self.children.push(child);
    }

    /// A subdirectory: a child, and a task that lists it.
    fn dir(&mut self, dir: PathBuf) -> Child {
        let (child, task) = self.ids.directory(self.op, dir);
        self.tasks.push(task);
        child
    }

    /// Puts file `id` in the batch being filled, a task once full.
    fn batch_file(&mut self, id: usize, item: Item) {
        self.push(id, item);
        if self.batch.len() >= self.batch_len {
            if let Some(task) = self.flush() {
                self.tasks.push(task);
            }
        }
    }

    /// Puts a file read while the directory is still read in the batch
    /// being filled (queued by the caller).
    fn file(&mut self, item: Item) -> Child {
        let id = self.ids.item();
        self.push(id, item);
        Child::File(id)
    }

    /// Puts file `id` in the batch being filled.
    fn push(&mut self, id: usize, item: Item) {
        if self.key.is_none() {
            let at = match &item {
                Item::Input(input) => input.path.as_deref(),
                Item::Error(_) => None,
            };
            self.key = Some((self.op, tree_key(at.unwrap_or(self.dir))));
            // Room for the whole batch at once, not grown by doubling.
            self.batch.reserve_exact(self.batch_len);
        }
        self.batch.push((id, item));
    }

    /// The batch filled so far, as a task.
    fn flush(&mut self) -> Option<Task> {
        self.key.take().map(|key| Task {
            key,
            work: Work::Search(std::mem::take(&mut self.batch)),
        })
    }
}
