//! Standard input and output closed when the program starts (`<&-`, `>&-`).
//!
//! grep reports both as errors ("Bad file descriptor", exit status 2). Rust
//! cannot see them: before `main`, its runtime opens `/dev/null` on closed
//! standard descriptors (so that a file opened later cannot take their
//! numbers), after which stdin reads as empty and stdout swallows
//! everything. The binary therefore checks descriptors 0 and 1 in an ELF
//! constructor, which runs before the runtime does, and records here which
//! were closed (`note_closed`); reads and writes then fail as grep's do.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Descriptor `fd` was closed when the process started (called before
/// `main`; only stores a flag).
pub fn note_closed(fd: i32) {
    match fd {
        0 => STDIN_CLOSED.store(true, Ordering::Relaxed),
        1 => STDOUT_CLOSED.store(true, Ordering::Relaxed),
        _ => {}
    }
}

/// Standard input was closed at start.
pub fn stdin_closed() -> bool {
    STDIN_CLOSED.load(Ordering::Relaxed)
}

/// Standard output was closed at start.
pub fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

fn bad_descriptor() -> io::Error {
    io::Error::from_raw_os_error(libc::EBADF)
}

/// Standard output when it was closed: writing anything fails.
pub struct ClosedOutput;

impl Write for ClosedOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match buf.is_empty() {
            true => Ok(0),
            false => Err(bad_descriptor()),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Standard input when it was closed: reading fails.
pub struct ClosedInput;

impl Read for ClosedInput {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(bad_descriptor())
    }
}
