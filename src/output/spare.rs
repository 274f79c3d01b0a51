//! Large output buffers of printed files, kept for files yet to search.
//!
//! A file's output waits whole in its buffer until every earlier file is
//! printed. With dense output (`-n` over logs: 618 MB printed from 840 MB
//! in 8 files, 2 threads) every buffer was new memory, faulted in 4 KiB
//! at a time as it grew: 0.6 s of system time where ripgrep, which keeps
//! one buffer per thread, spent 0.2 s. The printer now hands buffers of
//! at least [`KEEP_FROM`] back, and a file whose output passes
//! [`ADOPT_AT`] moves into the largest one kept. A buffer is only kept
//! once it is free, so this never holds more than was held at once before.
//!
//! Smaller outputs are written into the thread's own buffer, reused from
//! file to file, and leave it as a copy of their length ([`settle`]): a
//! new buffer for each file grew by doubling, reallocated at each step and
//! with its slack kept where the output waited whole (20,512 prose files in
//! one directory, `-c -F kernel`, 16 threads, GPU host: 19.2 → 17.5 MB).
//!
//! The printers of a split file's pieces (`search::split`) take their
//! buffers from [`piece_buffer`] and hand them back when the file is done
//! ([`give_piece_buffer`]): made anew for each file, every piece printer
//! grew its buffer from nothing to a piece's output, and the allocator
//! had handed the last file's pages back by then (`-n` of 1,000 rules over
//! 64 logs of 256 MiB on the GPU path, 16 threads: 1.35-1.46 M page
//! faults, 12-20 s of system time, where `-c` took 57 k and 7.4-7.9 s).

use std::sync::Mutex;

/// Buffers at least this large are kept when their file is printed.
const KEEP_FROM: usize = 4 << 20;

/// A file's output moves into a kept buffer past this size.
pub const ADOPT_AT: usize = 1 << 20;

/// Most buffers kept.
const KEEP: usize = 16;

static SPARE: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

thread_local! {
    /// The thread's buffer for the output of the file it searches.
    static OWN: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The thread's output buffer, empty, for one file's output.
pub fn own() -> Vec<u8> {
    OWN.with(|own| own.take())
}

/// A file's output written into [`own`]'s buffer, as it will wait to be
/// printed: a copy of its length, the buffer kept for the thread's next
/// file; an output of [`ADOPT_AT`] or more keeps the buffer.
pub fn settle(mut out: Vec<u8>) -> Vec<u8> {
    if out.len() >= ADOPT_AT || out.capacity() == 0 {
        return out;
    }
    let exact = out.as_slice().to_vec();
    out.clear();
    OWN.with(|own| own.set(out));
    exact
}

/// Keeps `buf` (its file printed) when it is large and room is left.
pub fn give(mut buf: Vec<u8>) {
    if buf.capacity() < KEEP_FROM {
        return;
    }
    if let Ok(mut spare) = SPARE.lock() {
        if spare.len() < KEEP {
            buf.clear();
            spare.push(buf);
        }
    }
}

/// Moves `out` into the largest kept buffer, when that is larger.
pub fn adopt(out: &mut Vec<u8>) {
    let Ok(mut spare) = SPARE.lock() else {
        return;
    };
    let largest = (0..spare.len()).max_by_key(|&i| spare[i].capacity());
    let Some(i) = largest.filter(|&i| spare[i].capacity() > out.capacity()) else {
        return;
    };
    let mut kept = spare.swap_remove(i);
    drop(spare);
    kept.extend_from_slice(out);
    std::mem::swap(out, &mut kept);
}

/// Piece printers' buffers kept, all together, at most this large.
const PIECE_BYTES_KEPT: usize = 128 << 20;

/// Piece printers' buffers handed back and not yet taken again.
static PIECES: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// An empty buffer for a split piece's printer: one a piece printer of an
/// earlier file handed back, or a new one.
pub fn piece_buffer() -> Vec<u8> {
    PIECES
        .lock()
        .ok()
        .and_then(|mut kept| kept.pop())
        .unwrap_or_default()
}

/// Keeps a piece printer's buffer for the next split file's pieces while
/// the buffers kept stay under [`PIECE_BYTES_KEPT`]. Only buffers that
/// were in use at once come back, so keeping them never holds more than
/// the run held before.
pub fn give_piece_buffer(mut buf: Vec<u8>) {
    if buf.capacity() == 0 {
        return;
    }
    let Ok(mut kept) = PIECES.lock() else {
        return;
    };
    let held: usize = kept.iter().map(Vec::capacity).sum();
    if held + buf.capacity() <= PIECE_BYTES_KEPT {
        buf.clear();
        kept.push(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_output_is_a_copy_and_the_buffer_is_kept() {
        let mut out = own();
        out.extend_from_slice(b"a line\n");
        let grown = out.capacity().max(1024);
        out.reserve(grown);
        let settled = settle(out);
        assert_eq!(settled, b"a line\n");
        assert!(settled.capacity() < grown);
        let again = own();
        assert!(again.is_empty() && again.capacity() >= grown);
    }

    #[test]
    fn a_kept_buffer_takes_the_output_in_order() {
        give(Vec::with_capacity(64 << 20));
        let mut out = b"first lines\n".repeat(1000);
        let before = out.clone();
        adopt(&mut out);
        assert_eq!(out, before);
        // The buffer may have been taken by another test; when it was
        // adopted here, the output moved into it.
        assert!(out.capacity() >= before.len());
    }
}
