//! A file's output sent to the printer in parts while it is searched.
//!
//! Workers used to hand the printer each file's whole output at its end.
//! One large file with dense output (a GPU run's 1.8 GB log file printed
//! with `-n`: 700 MB of lines) then grew one buffer of that size while the
//! printer waited for it and every other thread, past the bound on what
//! may wait, slept (16 GiB of logs on 16 cores: 8.5 s, under five cores
//! busy, 17.7 s of system time beside 23 s of user time). Now a worker's
//! output goes out in parts of
//! [`PART_BYTES`]: the printer writes the parts of the file it waits for
//! as they come and keeps the others' until their turn. A file with less
//! output than a part sends none: its output stays in its result, as
//! before (one message per file, for trees of small files).
//!
//! Parts are filled to the size they were made with and the printer hands
//! them back emptied ([`Shelf`]): grown by doubling and freed on the
//! printer's thread, fresh parts cost a page fault per 4 KiB of output and
//! a copy per doubling (GPU `-n`, 16 GiB of logs, 1,000 rules, H100 host:
//! 1.9 M minor faults before, 1.15 M with this and `search::split`'s
//! pieces streamed).

use super::super::one::FileResult;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Mutex;

/// Output a worker gathers before sending it as a part.
pub(super) const PART_BYTES: usize = 1 << 20;

/// A part's room: a part is sent once it holds [`PART_BYTES`]; the
/// printer's writes come in about 64 KiB.
const PART_ROOM: usize = PART_BYTES + PART_BYTES / 4;

/// What workers send the printer.
pub(super) enum Sent {
    /// Part of file `.0`'s output, in order.
    Part(usize, Vec<u8>),
    /// Searched files (index, result); a result's output follows its parts.
    Done(Vec<(usize, io::Result<FileResult>)>),
}

/// What workers and the printer share: the bytes waiting to be printed
/// (parts and results: the bound on searching ahead) and emptied parts.
pub(super) struct Shelf {
    pub(super) held: AtomicUsize,
    spare: Mutex<Vec<Vec<u8>>>,
    /// Most emptied parts kept.
    keep: usize,
}

impl Shelf {
    pub(super) fn new(workers: usize) -> Self {
        Shelf {
            held: AtomicUsize::new(0),
            spare: Mutex::new(Vec::new()),
            keep: 2 * workers + 2,
        }
    }

    fn spare(&self) -> Option<std::sync::MutexGuard<'_, Vec<Vec<u8>>>> {
        self.spare.lock().ok()
    }

    /// An empty part to fill.
    fn take(&self) -> Vec<u8> {
        let spare = self.spare().and_then(|mut s| s.pop());
        spare.unwrap_or_else(|| Vec::with_capacity(PART_ROOM))
    }

    /// Takes back a written part, emptied, unless enough are kept.
    fn give(&self, mut part: Vec<u8>) {
        if part.capacity() == PART_ROOM {
            if let Some(mut spare) = self.spare().filter(|s| s.len() < self.keep) {
                part.clear();
                spare.push(part);
            }
        }
    }
}

/// The stream a worker searches file `i` into.
pub(super) struct PartWriter<'a> {
    i: usize,
    block: Vec<u8>,
    tx: &'a Sender<Sent>,
    shelf: &'a Shelf,
}

impl<'a> PartWriter<'a> {
    pub(super) fn new(i: usize, tx: &'a Sender<Sent>, shelf: &'a Shelf) -> Self {
        PartWriter {
            i,
            block: Vec::new(),
            tx,
            shelf,
        }
    }

    /// Puts what was not sent in front of `result`'s own output.
    pub(super) fn finish(self, result: &mut io::Result<FileResult>) {
        if let Ok(r) = result {
            if !self.block.is_empty() {
                let mut out = self.block;
                out.append(&mut r.out);
                r.out = out;
            }
        }
    }

    fn send(&mut self) -> io::Result<()> {
        let part = std::mem::take(&mut self.block);
        self.send_part(part)
    }

    fn send_part(&self, part: Vec<u8>) -> io::Result<()> {
        self.shelf.held.fetch_add(part.capacity(), Ordering::AcqRel);
        self.tx
            .send(Sent::Part(self.i, part))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Write for PartWriter<'_> {
    /// Fills parts to their room (a split file's piece, megabytes, is cut
    /// into parts rather than growing one).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut rest = buf;
        while !rest.is_empty() {
            if self.block.capacity() == 0 {
                self.block = self.shelf.take();
            }
            let room = self.block.capacity() - self.block.len();
            let (now, later) = rest.split_at(room.min(rest.len()));
            self.block.extend_from_slice(now);
            rest = later;
            if self.block.len() >= PART_BYTES {
                self.send()?;
            }
        }
        Ok(buf.len())
    }

    /// `--line-buffered`: what was written goes out now, a line or so
    /// as a copy of its size (a part's room for each line of a file that
    /// waits its turn ran out of memory).
    fn flush(&mut self) -> io::Result<()> {
        match self.block.len() {
            0 => Ok(()),
            n if n < PART_BYTES / 4 => {
                let line = self.block.clone();
                self.block.clear();
                self.send_part(line)
            }
            _ => self.send(),
        }
    }
}

/// Parts of files the printer does not print yet.
#[derive(Default)]
pub(super) struct Waiting(HashMap<usize, Vec<Vec<u8>>>);

impl Waiting {
    /// Takes part of file `i` when it is `want`'s (written now) or keeps it.
    pub(super) fn take(
        &mut self,
        (i, part): (usize, Vec<u8>),
        want: usize,
        out: &mut dyn Write,
        shelf: &Shelf,
    ) -> io::Result<()> {
        match i == want {
            true => write(part, out, shelf),
            false => {
                self.0.entry(i).or_default().push(part);
                Ok(())
            }
        }
    }

    /// Writes the parts of `want` that came before it was the next file.
    pub(super) fn write_ready(
        &mut self,
        want: usize,
        out: &mut dyn Write,
        shelf: &Shelf,
    ) -> io::Result<()> {
        for part in self.0.remove(&want).unwrap_or_default() {
            write(part, out, shelf)?;
        }
        Ok(())
    }
}

fn write(part: Vec<u8>, out: &mut dyn Write, shelf: &Shelf) -> io::Result<()> {
    shelf.held.fetch_sub(part.capacity(), Ordering::AcqRel);
    out.write_all(&part)?;
    shelf.give(part);
    Ok(())
}
