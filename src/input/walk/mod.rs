//! From operands to an ordered list of inputs.
//!
//! grep's rules: `-` is standard input; a directory is an error unless
//! recursing; when recursing, symbolic links met inside directories are
//! followed only with `-R`, devices and FIFOs met there are skipped, names
//! are filtered by `--include`/`--exclude`/`--exclude-dir`, and (opt-in,
//! gpugrep's own) `.gitignore` rules apply with `--gitignore`. Directory
//! entries are sorted by name, so output order never depends on the file
//! system or on thread timing.
//!
//! Two walkers give that order. `walk` hands inputs out one by one as a
//! single thread finds them in name order (the CPU engine searches while it
//! walks); `collect` lists a tree unsorted, with the run's threads, then
//! sorts what they found by path, component by component, which is the
//! same depth-first, name-sorted order, in less time: on 16 cores, 100,000
//! files were listed in 0.07-0.10 s this way against 0.12-0.17 s by the
//! name-sorted walk (`rg --sort path --files` took 0.13-0.18 s against
//! 0.06 s unsorted: the walker's own sort costs more than the walk).

use super::glob::Glob;
use super::same_file::{self, OutputFile};
use crate::config::{os_to_bytes, Config};
use std::ffi::OsString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One thing to search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// Its path; `None` for standard input.
    pub path: Option<PathBuf>,
    /// The name printed for it where that is not its path (standard
    /// input's label). A copy of each path for its name cost an allocation
    /// and 48 bytes per file, held while a large directory's results wait.
    label: Option<Box<[u8]>>,
    /// Bytes of the path not printed (a `./` the user did not type).
    hidden: u8,
    /// Found by descending into a directory.
    pub from_recursion: bool,
}

impl Input {
    /// Standard input, printed as `label`.
    pub fn stdin(label: Vec<u8>) -> Input {
        Input {
            path: None,
            label: Some(label.into_boxed_slice()),
            hidden: 0,
            from_recursion: false,
        }
    }

    /// The file at `path`, printed as its path.
    pub fn file(path: PathBuf, from_recursion: bool) -> Input {
        Input {
            path: Some(path),
            label: None,
            hidden: 0,
            from_recursion,
        }
    }

    /// The name printed for it.
    pub fn name(&self) -> &[u8] {
        match (&self.label, &self.path) {
            (Some(label), _) => label,
            (None, Some(path)) => path
                .as_os_str()
                .as_encoded_bytes()
                .get(usize::from(self.hidden)..)
                .unwrap_or_default(),
            (None, None) => &[],
        }
    }
}

/// An input to search, or an error to report in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Input(Input),
    /// A message `NAME: reason`, already worded.
    Error(String),
}

/// File-name filters.
pub(crate) struct Filters {
    include: Vec<Glob>,
    exclude: Vec<Glob>,
    exclude_dir: Vec<Glob>,
    /// The file standard output writes to, when inputs are checked
    /// against it (`same_file`): found files are checked here, where the
    /// directory entry's inode spares a `stat` for every other file.
    output: Option<OutputFile>,
}

impl Filters {
    pub(crate) fn new(cfg: &Config) -> Filters {
        let g = |v: &Vec<String>| v.iter().map(|s| Glob::new(s)).collect();
        Filters {
            include: g(&cfg.include),
            exclude: g(&cfg.exclude),
            exclude_dir: g(&cfg.exclude_dir),
            output: same_file::output_file(cfg),
        }
    }

    /// A file passes when no --exclude matches and, if any --include was
    /// given, one matches.
    pub(crate) fn file_ok(&self, name: &[u8], operand: bool) -> bool {
        let m = |g: &Glob| {
            if operand {
                g.matches_suffix(name)
            } else {
                g.matches(name)
            }
        };
        !self.exclude.iter().any(m) && (self.include.is_empty() || self.include.iter().any(m))
    }

    pub(crate) fn dir_ok(&self, name: &[u8], operand: bool) -> bool {
        !self.exclude_dir.iter().any(|g| {
            if operand {
                g.matches_suffix(name)
            } else {
                g.matches(name)
            }
        })
    }
}

fn base_name(path: &std::path::Path) -> Vec<u8> {
    path.file_name()
        .map(|n| os_to_bytes(n.to_os_string()))
        .unwrap_or_default()
}

/// Every input, in output order; trees are walked with the run's threads.
pub fn collect(cfg: &Config) -> Vec<Item> {
    let mut items = Vec::new();
    let trees = match cfg.threads > 1 {
        true => Trees::List(None),
        false => Trees::Walk,
    };
    operands(cfg, &mut |item, _| items.push(item), &|| false, trees);
    items
}

/// Every input, in output order, with the size of each regular file
/// (following links; `None` for anything else), read by the threads that
/// find the files and told to `heard` as they are: the GPU pipeline plans
/// its chunks from the sizes, and auto may start CUDA before the listing
/// ends (`run::gpu::prewarm::OpenAt`).
pub fn collect_sized(cfg: &Config, heard: &(dyn Fn(u64) + Sync)) -> (Vec<Item>, Vec<Option<u64>>) {
    let mut found = (Vec::new(), Vec::new());
    let mut emit = |item, size| {
        found.0.push(item);
        found.1.push(size);
    };
    operands(cfg, &mut emit, &|| false, Trees::List(Some(heard)));
    found
}

/// Hands every input to `emit`, in output order, as it is found (so that
/// searching can start before a large tree is walked), until `stop` says so.
pub fn walk(cfg: &Config, emit: &mut dyn FnMut(Item), stop: &dyn Fn() -> bool) {
    operands(cfg, &mut |item, _| emit(item), stop, Trees::Walk);
}

/// The operands in order, with each directory to walk left whole
/// ([`Start::Tree`]) for the ordered parallel walk (`tree::list`).
pub fn starts(cfg: &Config) -> Vec<Start> {
    let starts = std::cell::RefCell::new(Vec::new());
    operands(
        cfg,
        &mut |item, _| starts.borrow_mut().push(Start::Item(item)),
        &|| false,
        Trees::Hand(&mut |dir| starts.borrow_mut().push(Start::Tree(dir))),
    );
    starts.into_inner()
}

/// Where a walk starts: an operand to search (or its error), or a tree.
#[derive(Debug, PartialEq, Eq)]
pub enum Start {
    Item(Item),
    Tree(PathBuf),
}

/// What becomes of a directory operand's tree.
enum Trees<'a> {
    /// Walked by one thread, inputs handed out as they are found.
    Walk,
    /// Walked by the run's threads, handed out once all are found and
    /// sorted; with the files' sizes where `Some`, each told to the
    /// function as the size is read (`collect_sized`).
    List(Option<&'a (dyn Fn(u64) + Sync)>),
    /// Handed out unwalked.
    Hand(&'a mut dyn FnMut(PathBuf)),
}

/// The operands in order, directories' trees as `trees` says; with each
/// its size where it is known (a regular file named as an operand, or found
/// in a tree listed with sizes).
fn operands(
    cfg: &Config,
    emit: &mut dyn FnMut(Item, Option<u64>),
    stop: &dyn Fn() -> bool,
    mut trees: Trees,
) {
    let filters = Filters::new(cfg);
    let operands: Vec<OsString> = if cfg.implicit_path {
        vec![OsString::from(if cfg.recursive { "." } else { "-" })]
    } else {
        cfg.paths.clone()
    };
    for op in operands {
        if stop() {
            return;
        }
        if op == "-" {
            emit(
                Item::Input(Input::stdin(os_to_bytes(cfg.label.clone()))),
                None,
            );
            continue;
        }
        let path = PathBuf::from(&op);
        let name = os_to_bytes(op.clone());
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                emit(path_error(&path, &e), None);
                continue;
            }
        };
        if meta.is_dir() && cfg.skip_directories && !cfg.recursive {
            continue;
        }
        if cfg.skip_devices && !meta.is_dir() && !meta.is_file() {
            continue;
        }
        if meta.is_dir() {
            if !cfg.recursive {
                // Opening it reports "Is a directory"; -c and -L still
                // print it, as GNU grep does.
                emit(Item::Input(Input::file(path, false)), None);
            } else if filters.dir_ok(&name, true) {
                match &mut trees {
                    Trees::List(heard) => list_dir(cfg, &filters, path, *heard)
                        .into_iter()
                        .for_each(|(item, size)| emit(item, size)),
                    Trees::Walk => {
                        walk_dir(cfg, &filters, path, &mut |item| emit(item, None), stop)
                    }
                    Trees::Hand(hand) => hand(path),
                }
            }
        } else if filters.file_ok(&name, true) {
            let size = meta.is_file().then_some(meta.len());
            if let (Trees::List(Some(heard)), Some(bytes)) = (&trees, size) {
                heard(bytes);
            }
            emit(Item::Input(Input::file(path, false)), size);
        }
    }
}

/// The walker for the tree at `root`: grep's rules, `--gitignore`, and
/// `--exclude-dir` applied before descending.
fn builder(cfg: &Config, filters: &Filters, root: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .standard_filters(false)
        .hidden(false)
        .follow_links(cfg.follow_links);
    if cfg.gitignore {
        builder
            .git_ignore(true)
            .git_exclude(true)
            .git_global(true)
            .ignore(true)
            .parents(true)
            .require_git(false);
    }
    let exclude_dir: Vec<Glob> = filters.exclude_dir.clone();
    if !exclude_dir.is_empty() {
        builder.filter_entry(move |e| {
            let is_dir = e.file_type().is_some_and(|t| t.is_dir());
            e.depth() == 0
                || !is_dir
                || !exclude_dir.iter().any(|g| g.matches(&base_name(e.path())))
        });
    }
    builder
}

/// What the walker's `entry` gives to search, if anything.
fn item_of(
    cfg: &Config,
    filters: &Filters,
    entry: Result<ignore::DirEntry, ignore::Error>,
) -> Option<Item> {
    let entry = match entry {
        Ok(e) => e,
        Err(e) => return Some(Item::Error(walk_error(&e))),
    };
    let ft = entry.file_type()?;
    if !ft.is_file() {
        return None; // directories, unfollowed links, devices, FIFOs, sockets
    }
    // The entry's own inode, unless a link was followed to the file.
    let ino = (!entry.path_is_symlink()).then(|| entry.ino()).flatten();
    found_file(cfg, filters, entry.into_path(), ino)
}

/// `PATH: reason`, grep's words for a path that cannot be read.
pub(crate) fn path_error(path: &Path, e: &std::io::Error) -> Item {
    Item::Error(format!(
        "{}: {}",
        path.to_string_lossy(),
        super::io_reason(e)
    ))
}

/// The input for a regular file found in a tree, unless a name filter
/// (`--include`, `--exclude`) leaves it out; the output file's error in
/// its place when it is standard output's file. `ino`: the inode its
/// directory entry gives (not through a link), which spares a `stat`
/// wherever it differs from the output's (one `statx` per file was a
/// sixth of the system time of `-n` over 20,000 files into a file, 2
/// threads); `run::one` checks only inputs not found here.
pub(crate) fn found_file(
    cfg: &Config,
    filters: &Filters,
    path: PathBuf,
    ino: Option<u64>,
) -> Option<Item> {
    let filtered = !filters.include.is_empty() || !filters.exclude.is_empty();
    if filtered && !filters.file_ok(&base_name(&path), false) {
        return None;
    }
    let mut input = Input::file(path, true);
    if cfg.implicit_path && input.name().starts_with(b"./") {
        input.hidden = 2;
    }
    if let Some(output) = &filters.output {
        if output.may_be(ino) && input.path.as_deref().is_some_and(|p| output.is(p)) {
            let name = String::from_utf8_lossy(input.name());
            return Some(Item::Error(same_file::message(&name)));
        }
    }
    Some(Item::Input(input))
}

/// The tree under a directory the walker could not read because its path
/// is longer than `PATH_MAX`, walked by `long_path` in name order (grep's
/// filters apply; `.gitignore` rules are not read down there).
fn long_tree(
    cfg: &Config,
    filters: &Filters,
    entry: &Result<ignore::DirEntry, ignore::Error>,
) -> Option<Vec<Item>> {
    let e = entry.as_ref().err()?;
    if !e.io_error().is_some_and(super::long_path::too_long) {
        return None;
    }
    Some(long_items(cfg, filters, &error_path(e)?))
}

/// The tree under `dir`, whose path is too long to open whole, walked by
/// `long_path` in name order; its errors after its inputs.
pub(crate) fn long_items(cfg: &Config, filters: &Filters, dir: &Path) -> Vec<Item> {
    let mut items = Vec::new();
    let enter = |name: &std::ffi::OsStr| filters.dir_ok(&os_to_bytes(name.to_os_string()), false);
    let mut errors = Vec::new();
    super::long_path::walk(
        dir,
        cfg.follow_links,
        &enter,
        &mut |path| items.extend(found_file(cfg, filters, path, None)),
        &mut |path, e| errors.push(path_error(&path, &e)),
    );
    items.extend(errors);
    items
}

/// One thread walks the tree, in name order, handing out inputs as it goes.
fn walk_dir(
    cfg: &Config,
    filters: &Filters,
    root: PathBuf,
    emit: &mut dyn FnMut(Item),
    stop: &dyn Fn() -> bool,
) {
    let mut builder = builder(cfg, filters, &root);
    // Siblings share their parent's path, so comparing whole paths as bytes
    // orders them by name, without taking each name apart again at every
    // comparison (which cost 7% of a search of 100,000 small files).
    builder.sort_by_file_path(|a, b| a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes()));
    for entry in builder.build() {
        if stop() {
            return;
        }
        if let Some(items) = long_tree(cfg, filters, &entry) {
            items.into_iter().for_each(&mut *emit);
            continue;
        }
        if let Some(item) = item_of(cfg, filters, entry) {
            emit(item);
        }
    }
}

/// The path an error names, if any.
fn error_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

/// `PATH: reason` as grep words it: the walker's wrapping ("IO error for
/// operation on PATH: ...", "(os error N)") is dropped.
fn walk_error(e: &ignore::Error) -> String {
    let mut err = e;
    let mut path = None;
    loop {
        match err {
            ignore::Error::WithPath {
                path: p,
                err: inner,
            } => {
                path = Some(p.display().to_string());
                err = inner;
            }
            ignore::Error::WithDepth { err: inner, .. }
            | ignore::Error::WithLineNumber { err: inner, .. } => err = inner,
            _ => break,
        }
    }
    let text = err.to_string();
    let mut reason = match text.find(" (os error") {
        Some(i) => &text[..i],
        None => &text[..],
    };
    if let Some(p) = &path {
        let wrapped = format!("IO error for operation on {p}: ");
        reason = reason.strip_prefix(wrapped.as_str()).unwrap_or(reason);
    }
    match path {
        Some(p) => format!("{p}: {reason}"),
        None => reason.to_string(),
    }
}

mod list;
#[cfg(test)]
mod tests;
pub(crate) mod tree;

use list::list_dir;
pub(crate) use list::tree_key;
