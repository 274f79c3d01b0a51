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

use super::super::one::FileResult;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

/// Output a worker gathers before sending it as a part.
pub(super) const PART_BYTES: usize = 1 << 20;

/// What workers send the printer.
pub(super) enum Sent {
    /// Part of file `.0`'s output, in order.
    Part(usize, Vec<u8>),
    /// Searched files (index, result); a result's output follows its parts.
    Done(Vec<(usize, io::Result<FileResult>)>),
}

/// The stream a worker searches file `i` into.
pub(super) struct PartWriter<'a> {
    i: usize,
    block: Vec<u8>,
    tx: &'a Sender<Sent>,
    held: &'a AtomicUsize,
}

impl<'a> PartWriter<'a> {
    pub(super) fn new(i: usize, tx: &'a Sender<Sent>, held: &'a AtomicUsize) -> Self {
        PartWriter {
            i,
            block: Vec::new(),
            tx,
            held,
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
        self.held.fetch_add(part.capacity(), Ordering::AcqRel);
        self.tx
            .send(Sent::Part(self.i, part))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Write for PartWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.block.extend_from_slice(buf);
        if self.block.len() >= PART_BYTES {
            self.send()?;
        }
        Ok(buf.len())
    }

    /// `--line-buffered`: what was written goes out now.
    fn flush(&mut self) -> io::Result<()> {
        match self.block.is_empty() {
            true => Ok(()),
            false => self.send(),
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
        held: &AtomicUsize,
    ) -> io::Result<()> {
        match i == want {
            true => write(part, out, held),
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
        held: &AtomicUsize,
    ) -> io::Result<()> {
        for part in self.0.remove(&want).unwrap_or_default() {
            write(part, out, held)?;
        }
        Ok(())
    }
}

fn write(part: Vec<u8>, out: &mut dyn Write, held: &AtomicUsize) -> io::Result<()> {
    held.fetch_sub(part.capacity(), Ordering::AcqRel);
    out.write_all(&part)
}
