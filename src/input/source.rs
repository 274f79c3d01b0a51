//! The bytes of one input: a memory map or one read for regular files, a
//! reader for everything else (stdin, pipes, devices).
//!
//! Mapping wins for one large file; for many files searched by many
//! threads, each `munmap` stalls every thread (TLB shootdowns), so reading
//! into a reused buffer wins (measured on 16 cores: 2000 files of 2 MiB,
//! mmap 0.19 s vs ripgrep's reads 0.08 s). The caller chooses.

use super::truncation::Watch;
use memmap2::Mmap;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// An opened input.
pub enum Source {
    /// A regular file mapped into memory (or read whole when mapping failed).
    Mapped(Mapped),
    /// Something to read as a stream.
    Stream(Box<dyn Read + Send>),
    /// A regular file of known size, for the caller to read whole.
    File(File, u64),
}

/// A regular file's bytes.
pub enum Mapped {
    /// A map, watched for the file shrinking under it (the watch is
    /// dropped first, then the map).
    Map(Watch, Mmap),
    Owned(Vec<u8>),
}

impl Mapped {
    /// The file shrank while its map was read: zeros were read in place
    /// of its lost end (see `truncation`).
    pub fn truncated(&self) -> bool {
        match self {
            Mapped::Map(watch, _) => watch.truncated(),
            Mapped::Owned(_) => false,
        }
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Mapped::Map(_, m) => m,
            Mapped::Owned(v) => v,
        }
    }
}

/// Files at least this large are always mapped (reading them would need a
/// buffer as large), and may be split between threads (`search::split`).
const ALWAYS_MAP_BYTES: u64 = 64 << 20;

/// The size from which files are mapped: [`ALWAYS_MAP_BYTES`], or less
/// with `GPUGREP_SPLIT_MIN` (a test knob), so that tests can split small
/// files among many.
pub fn map_from() -> u64 {
    let knob = crate::knobs::get().split_min.get();
    knob.map_or(ALWAYS_MAP_BYTES, |n| n.min(ALWAYS_MAP_BYTES))
}

/// Opens `path` for searching: mapped when `map` or when large, else left
/// to read. Directories are an error ("Is a directory").
pub fn open(path: &Path, map: bool) -> io::Result<Source> {
    let file = open_file(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::from_raw_os_error(21)); // EISDIR: "Is a directory"
    }
    if !meta.is_file() || meta.len() == 0 {
        // Pipes, devices and files that claim no size (/proc) are streamed.
        return Ok(Source::Stream(Box::new(file)));
    }
    if !map && meta.len() < map_from() {
        return Ok(Source::File(file, meta.len()));
    }
    match map_file(&file) {
        Some(mapped) => Ok(Source::Mapped(mapped)),
        None => {
            let mut buf = Vec::with_capacity(meta.len() as usize);
            let mut file = file;
            file.read_to_end(&mut buf)?;
            Ok(Source::Mapped(Mapped::Owned(buf)))
        }
    }
}

/// Drops this process's page-table entries for the whole pages inside
/// `bytes` (`MADV_DONTNEED`): the pages stay in the page cache and read
/// back as they were, but stop counting as the process's resident memory.
/// A split file's pieces are released once searched: its whole map
/// counted (one 415 MB log with `-n`: 430 MB peak, ripgrep 27 MB).
///
/// # Safety
/// `bytes` lies in a read-only file mapping ([`Mapped::Map`]): anonymous
/// or written memory would read back as zeros.
pub unsafe fn release_mapped(bytes: &[u8]) {
    // SAFETY: the caller vouches `bytes` is a read-only file mapping: the
    // pages read back from the file.
    unsafe { drop_pages(bytes) }
}

/// Maps the pages of `bytes` (a part of a file's read-only map) into this
/// process's page tables in one call (`MADV_POPULATE_READ`, Linux 5.14)
/// before they are read, for a map that faults a page at a time
/// (`search::split::faults`: a file on tmpfs held in single pages; dev
/// VM, one 70 MB log, `-n`: 17,405 faults against 884 for the same file on
/// ext4, 38 ms against 16). A failure (an older kernel, a file cut short)
/// is left to the reads.
pub fn populate_mapped(bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    let page = page_size();
    let start = bytes.as_ptr() as usize / page * page;
    let end = (bytes.as_ptr() as usize + bytes.len()).next_multiple_of(page);
    // SAFETY: populating reads the pages of a mapping that holds `bytes`
    // (a map covers whole pages, so the rounded range lies in it) and
    // changes no byte of it.
    unsafe {
        libc::madvise(
            start as *mut libc::c_void,
            end - start,
            libc::MADV_POPULATE_READ,
        )
    };
}

/// Hands the whole pages inside a buffer of this process back to the
/// system (`MADV_DONTNEED`): they read as zeros afterwards, and stop
/// counting as resident until written again (a thread's read buffer's
/// grown part: `search::recycled`).
pub fn release_scratch(bytes: &mut [u8]) {
    // SAFETY: `bytes` is this process's private anonymous memory, which
    // this `&mut` borrows alone; zeros are a valid value for every byte.
    unsafe { drop_pages(bytes) }
}

/// `MADV_DONTNEED` over the whole pages inside `bytes`.
///
/// # Safety
/// The caller accepts what those pages read back as afterwards: a file
/// mapping's bytes from the file, anonymous memory's as zeros.
unsafe fn drop_pages(bytes: &[u8]) {
    if let Some((start, len)) = whole_pages(bytes) {
        // SAFETY: whole pages inside `bytes`; the caller accepts what they
        // read back as.
        unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    }
}

/// The whole pages inside `bytes` (address, length), if any.
pub fn whole_pages(bytes: &[u8]) -> Option<(usize, usize)> {
    let page = page_size();
    let at = bytes.as_ptr() as usize;
    let start = at.next_multiple_of(page);
    let end = (at + bytes.len()) / page * page;
    (end > start).then(|| (start, end - start))
}

/// The system's page size (4 KiB where it cannot be read).
pub fn page_size() -> usize {
    static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    // SAFETY: sysconf only reads a system value.
    *PAGE.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        n if n > 0 => n as usize,
        _ => 4096,
    })
}

/// `file` mapped, watched for shrinking; `None` when it cannot be mapped.
pub fn map_file(file: &File) -> Option<Mapped> {
    // SAFETY: the map is read-only and private to this process; a file
    // truncated by another process while we search it faults (SIGBUS) past
    // its new end, which `truncation` turns into zeros and a report.
    let map = unsafe { Mmap::map(file) }.ok()?;
    Some(Mapped::Map(Watch::new(map.as_ptr(), map.len()), map))
}

/// Opens a file for reading, also when its path is longer than `PATH_MAX`
/// (found deep in a tree: `long_path`).
pub fn open_file(path: &Path) -> io::Result<File> {
    match File::open(path) {
        Err(e) if super::long_path::too_long(&e) => super::long_path::open_file(path),
        other => other,
    }
}

/// Standard input, as a stream.
pub fn stdin_reader() -> Box<dyn Read + Send> {
    if crate::stdio::stdin_closed() {
        return Box::new(crate::stdio::ClosedInput);
    }
    Box::new(io::stdin())
}

/// The read offset of standard input, when it is a regular file (where
/// `-m` must leave it after the last selected line).
pub fn stdin_offset() -> Option<u64> {
    if crate::stdio::stdin_closed() {
        return None;
    }
    let mut st = std::mem::MaybeUninit::<libc::stat>::uninit();
    // SAFETY: fstat fills `st` when it returns 0; lseek with SEEK_CUR only
    // reads the offset.
    unsafe {
        if libc::fstat(0, st.as_mut_ptr()) != 0
            || st.assume_init().st_mode & libc::S_IFMT != libc::S_IFREG
        {
            return None;
        }
        u64::try_from(libc::lseek(0, 0, libc::SEEK_CUR)).ok()
    }
}

/// Moves standard input's offset to `offset` (a regular file's).
pub fn seek_stdin(offset: u64) {
    if let Ok(offset) = libc::off_t::try_from(offset) {
        // SAFETY: lseek on descriptor 0 changes only its offset.
        unsafe { libc::lseek(0, offset, libc::SEEK_SET) };
    }
}
