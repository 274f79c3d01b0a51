//! From operands to an ordered list of inputs.
//!
//! grep's rules: `-` is standard input; a directory is an error unless
//! recursing; when recursing, symbolic links met inside directories are
//! followed only with `-R`, devices and FIFOs met there are skipped, names
//! are filtered by `--include`/`--exclude`/`--exclude-dir`, and (opt-in,
//! gpugrep's own) `.gitignore` rules apply with `--gitignore`. Directory
//! entries are sorted by name, so output order never depends on the file
//! system or on thread timing.

use super::glob::Glob;
use crate::config::{os_to_bytes, Config};
use std::ffi::OsString;
use std::path::PathBuf;

/// One thing to search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The name printed for it.
    pub name: Vec<u8>,
    /// Its path; `None` for standard input.
    pub path: Option<PathBuf>,
    /// Found by descending into a directory.
    pub from_recursion: bool,
}

/// An input to search, or an error to report in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Input(Input),
    /// A message `NAME: reason`, already worded.
    Error(String),
}

/// File-name filters.
struct Filters {
    include: Vec<Glob>,
    exclude: Vec<Glob>,
    exclude_dir: Vec<Glob>,
}

impl Filters {
    fn new(cfg: &Config) -> Filters {
        let g = |v: &Vec<String>| v.iter().map(|s| Glob::new(s)).collect();
        Filters {
            include: g(&cfg.include),
            exclude: g(&cfg.exclude),
            exclude_dir: g(&cfg.exclude_dir),
        }
    }

    /// A file passes when no --exclude matches and, if any --include was
    /// given, one matches.
    fn file_ok(&self, name: &[u8], operand: bool) -> bool {
        let m = |g: &Glob| {
            if operand {
                g.matches_suffix(name)
            } else {
                g.matches(name)
            }
        };
        !self.exclude.iter().any(m) && (self.include.is_empty() || self.include.iter().any(m))
    }

    fn dir_ok(&self, name: &[u8], operand: bool) -> bool {
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

/// Every input, in output order.
pub fn collect(cfg: &Config) -> Vec<Item> {
    let mut items = Vec::new();
    walk(cfg, &mut |item| items.push(item), &|| false);
    items
}

/// Hands every input to `emit`, in output order, as it is found (so that
/// searching can start before a large tree is walked), until `stop` says so.
pub fn walk(cfg: &Config, emit: &mut dyn FnMut(Item), stop: &dyn Fn() -> bool) {
    let filters = Filters::new(cfg);
    let operands: Vec<OsString> = if cfg.paths.is_empty() {
        vec![OsString::from(if cfg.recursive { "." } else { "-" })]
    } else {
        cfg.paths.clone()
    };
    for op in operands {
        if stop() {
            return;
        }
        if op == "-" {
            emit(Item::Input(Input {
                name: os_to_bytes(cfg.label.clone()),
                path: None,
                from_recursion: false,
            }));
            continue;
        }
        let path = PathBuf::from(&op);
        let name = os_to_bytes(op.clone());
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) => {
                emit(Item::Error(format!(
                    "{}: {}",
                    op.to_string_lossy(),
                    super::io_reason(&e)
                )));
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
                emit(Item::Input(Input {
                    name,
                    path: Some(path),
                    from_recursion: false,
                }));
            } else if filters.dir_ok(&name, true) {
                walk_dir(cfg, &filters, path, emit, stop);
            }
        } else if filters.file_ok(&name, true) {
            emit(Item::Input(Input {
                name,
                path: Some(path),
                from_recursion: false,
            }));
        }
    }
}

fn walk_dir(
    cfg: &Config,
    filters: &Filters,
    root: PathBuf,
    emit: &mut dyn FnMut(Item),
    stop: &dyn Fn() -> bool,
) {
    let implicit = cfg.implicit_path;
    let mut builder = ignore::WalkBuilder::new(&root);
    builder
        .standard_filters(false)
        .hidden(false)
        .follow_links(cfg.follow_links)
        .sort_by_file_name(|a, b| a.cmp(b));
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
    builder.filter_entry(move |e| {
        let is_dir = e.file_type().is_some_and(|t| t.is_dir());
        e.depth() == 0 || !is_dir || !exclude_dir.iter().any(|g| g.matches(&base_name(e.path())))
    });
    for entry in builder.build() {
        if stop() {
            return;
        }
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                emit(Item::Error(walk_error(&e)));
                continue;
            }
        };
        let Some(ft) = entry.file_type() else {
            continue;
        };
        if !ft.is_file() {
            continue; // directories, unfollowed links, devices, FIFOs, sockets
        }
        if !filters.file_ok(&base_name(entry.path()), false) {
            continue;
        }
        let path = entry.into_path();
        let mut name = os_to_bytes(path.clone().into_os_string());
        if implicit && name.starts_with(b"./") {
            name.drain(..2);
        }
        emit(Item::Input(Input {
            name,
            path: Some(path),
            from_recursion: true,
        }));
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
