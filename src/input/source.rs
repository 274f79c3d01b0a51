//! The bytes of one input: a memory map for regular files, a reader for
//! everything else (stdin, pipes, devices, files mmap refuses).

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
}

/// A regular file's bytes.
pub enum Mapped {
    Map(Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Mapped::Map(m) => m,
            Mapped::Owned(v) => v,
        }
    }
}

/// Opens `path` for searching. Directories are an error ("Is a directory").
pub fn open(path: &Path) -> io::Result<Source> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::from_raw_os_error(21)); // EISDIR: "Is a directory"
    }
    if !meta.is_file() || meta.len() == 0 {
        // Pipes, devices and files that claim no size (/proc) are streamed.
        return Ok(Source::Stream(Box::new(file)));
    }
    // SAFETY: the map is read-only and private to this process; like grep and
    // ripgrep, we accept that a file truncated by another process while we
    // search it can fault (SIGBUS) rather than give a wrong answer.
    match unsafe { Mmap::map(&file) } {
        Ok(map) => Ok(Source::Mapped(Mapped::Map(map))),
        Err(_) => {
            let mut buf = Vec::with_capacity(meta.len() as usize);
            let mut file = file;
            file.read_to_end(&mut buf)?;
            Ok(Source::Mapped(Mapped::Owned(buf)))
        }
    }
}

/// Standard input, as a stream.
pub fn stdin_reader() -> Box<dyn Read + Send> {
    Box::new(io::stdin())
}
