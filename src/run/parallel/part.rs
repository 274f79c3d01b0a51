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
//! The file the printer writes as its parts come (its next) may not run
//! further ahead of the printer than the byte bound on what waits: its
//! writer waits while more of its own parts than that are unwritten
//! ([`Shelf::wait_for_front`]). Before, only a thread beginning a file
//! looked at the bound, so one large file with dense output into a slow
//! pipe held all of it: one 16 GiB prose file, 10,000 words, `-n` into
//! `wc -l`, 16 threads on the H100 host, peaked at 7.6 GB; 1 GiB on the
//! dev VM at 272 MB. A file that is not the printer's next does not wait
//! (its parts are not written before its turn: it would wait for good).
//!
//! Parts are filled to the size they were made with and the printer hands
//! them back emptied ([`Shelf`]): grown by doubling and freed on the
//! printer's thread, fresh parts cost a page fault per 4 KiB of output and
//! a copy per doubling (GPU `-n`, 16 GiB of logs, 1,000 rules, H100 host:
//! 1.9 M minor faults before, 1.15 M with this and `search::split`'s
//! pieces streamed).

use super::super::gathered::Gathered;
use super::super::one::FileResult;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Mutex;
use std::time::Duration;

/// Where a worker's parts go: to the printer, which writes them in turn.
pub(in crate::run) trait SendPart: Sync {
    /// Sends part of file `i`'s output; an error when the printer is gone.
    fn send_part(&self, i: usize, part: Vec<u8>) -> io::Result<()>;
}

impl SendPart for Sender<Sent> {
    fn send_part(&self, i: usize, part: Vec<u8>) -> io::Result<()> {
        self.send(Sent::Part(i, part))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

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
pub(in crate::run) struct Shelf {
    pub(in crate::run) held: AtomicUsize,
    spare: Mutex<Vec<Vec<u8>>>,
    /// Most emptied parts kept.
    keep: usize,
    /// The file whose parts the printer writes as they come, and the
    /// bytes of its parts written since it became so.
    front: AtomicUsize,
    front_written: AtomicUsize,
    /// Bytes of its parts the front file's writer may have unwritten.
    front_bound: usize,
    /// The printer has stopped: nobody waits for it any more.
    stopped: AtomicBool,
}

impl Shelf {
    /// A shelf for `workers` whose output may wait up to `bytes_ahead`:
    /// it keeps as many emptied parts as that bound holds. Keeping two a
    /// worker, the parts of files waiting behind the printer's were freed
    /// once printed and new ones faulted in (the allocator hands freed
    /// pages back after 10 ms): `-n` of 1,000 rules over 16 GiB of logs on
    /// the GPU path, 16 threads, wrote most of its 6.6 GB of output into
    /// fresh pages (1.35-1.46 M faults). A part is kept only once emptied,
    /// so the shelf never holds more than waited at once.
    pub(in crate::run) fn new(workers: usize, bytes_ahead: usize) -> Self {
        Shelf {
            held: AtomicUsize::new(0),
            spare: Mutex::new(Vec::new()),
            keep: (2 * workers + 2).max(bytes_ahead / PART_ROOM),
            front: AtomicUsize::new(0),
            front_written: AtomicUsize::new(0),
            front_bound: bytes_ahead,
            stopped: AtomicBool::new(false),
        }
    }

    /// The printer's next file is `i` (it writes `i`'s parts as they come).
    fn set_front(&self, i: usize) {
        if self.front.load(Ordering::Acquire) != i {
            self.front_written.store(0, Ordering::Release);
            self.front.store(i, Ordering::Release);
        }
    }

    /// The printer has stopped (done, or failed): writers stop waiting.
    pub(in crate::run) fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
    }

    /// While file `i` is the printer's next and more than the bound of the
    /// `sent` bytes of its parts are unwritten, waits (100 us at a time,
    /// as the walk's throttle). Its parts are all written in turn, so the
    /// wait ends.
    fn wait_for_front(&self, i: usize, sent: usize) {
        while self.front.load(Ordering::Acquire) == i
            && !self.stopped.load(Ordering::Acquire)
            && sent.saturating_sub(self.front_written.load(Ordering::Acquire)) > self.front_bound
        {
            std::thread::sleep(Duration::from_micros(100));
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

/// Output up to this size is gathered in a buffer of its own size, not in
/// a part: a part for each small file's line or count (100,000 small
/// files, `-c`) cost a 1.25 MiB allocation per file, and 15 times the time.
const SMALL_BYTES: usize = 64 << 10;

/// The stream a worker searches file `i` into.
pub(in crate::run) struct PartWriter<'a> {
    i: usize,
    /// Bytes of parts sent.
    sent: usize,
    /// What is not sent yet: small output, or a part from the shelf.
    block: Vec<u8>,
    /// `block` is a part (the output outgrew [`SMALL_BYTES`]).
    parted: bool,
    tx: &'a dyn SendPart,
    shelf: &'a Shelf,
}

impl<'a> PartWriter<'a> {
    pub(in crate::run) fn new(i: usize, tx: &'a dyn SendPart, shelf: &'a Shelf) -> Self {
        PartWriter {
            i,
            sent: 0,
            block: Vec::new(),
            parted: false,
            tx,
            shelf,
        }
    }

    /// The bytes of the parts sent so far.
    pub(in crate::run) fn sent(&self) -> usize {
        self.sent
    }

    /// Puts what was not sent in front of `result`'s own output; true
    /// when parts were sent (the printer may be writing this file's
    /// output and wait for its result).
    pub(in crate::run) fn finish(self, result: &mut io::Result<FileResult>) -> bool {
        let parted = self.parted;
        if let Ok(r) = result {
            if !self.block.is_empty() {
                let mut out = self.block;
                out.append(&mut r.out);
                r.out = out;
            }
        }
        parted
    }

    fn send(&mut self) -> io::Result<()> {
        let part = std::mem::take(&mut self.block);
        self.send_part(part)
    }

    fn send_part(&mut self, part: Vec<u8>) -> io::Result<()> {
        self.shelf.held.fetch_add(part.capacity(), Ordering::AcqRel);
        self.sent += part.len();
        self.tx.send_part(self.i, part)?;
        self.shelf.wait_for_front(self.i, self.sent);
        Ok(())
    }
}

impl Write for PartWriter<'_> {
    /// Fills parts to their room (a split file's piece, megabytes, is cut
    /// into parts rather than growing one).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.parted {
            if self.block.len() + buf.len() <= SMALL_BYTES {
                self.block.extend_from_slice(buf);
                return Ok(buf.len());
            }
            self.parted = true;
            let mut part = self.shelf.take();
            part.append(&mut self.block);
            self.block = part;
        }
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
pub(in crate::run) struct Waiting(HashMap<usize, Vec<Vec<u8>>>);

impl Waiting {
    /// Takes part of file `i` when it is `want`'s (written now, after the
    /// outputs `gathered` before it) or keeps it.
    pub(in crate::run) fn take(
        &mut self,
        (i, part): (usize, Vec<u8>),
        want: usize,
        out: &mut dyn Write,
        gathered: &mut Gathered,
        shelf: &Shelf,
    ) -> io::Result<()> {
        match i == want {
            true => write(part, out, gathered, shelf),
            false => {
                self.0.entry(i).or_default().push(part);
                Ok(())
            }
        }
    }

    /// Writes the parts of `want` that came before it was the next file
    /// (after the outputs `gathered` before it).
    pub(in crate::run) fn write_ready(
        &mut self,
        want: usize,
        out: &mut dyn Write,
        gathered: &mut Gathered,
        shelf: &Shelf,
    ) -> io::Result<()> {
        shelf.set_front(want);
        for part in self.0.remove(&want).unwrap_or_default() {
            write(part, out, gathered, shelf)?;
        }
        Ok(())
    }
}

/// Writes a part of the printer's next file, after the outputs gathered
/// before it.
fn write(
    part: Vec<u8>,
    out: &mut dyn Write,
    gathered: &mut Gathered,
    shelf: &Shelf,
) -> io::Result<()> {
    gathered.write(out)?;
    shelf.held.fetch_sub(part.capacity(), Ordering::AcqRel);
    out.write_all(&part)?;
    shelf.front_written.fetch_add(part.len(), Ordering::AcqRel);
    shelf.give(part);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Writes `chunks` to file 7's stream; returns the parts sent and the
    /// result's output.
    fn stream(chunks: &[&[u8]], shelf: &Shelf) -> (Vec<Vec<u8>>, Vec<u8>) {
        let (tx, rx) = mpsc::channel();
        let mut w = PartWriter::new(7, &tx, shelf);
        for c in chunks {
            w.write_all(c).unwrap();
        }
        let mut r = Ok(FileResult {
            out: b"tail".to_vec(),
            ..FileResult::default()
        });
        w.finish(&mut r);
        drop(tx);
        let parts = rx
            .iter()
            .map(|sent| match sent {
                Sent::Part(7, part) => part,
                _ => panic!("only parts of file 7 are sent"),
            })
            .collect();
        (parts, r.unwrap().out)
    }

    #[test]
    fn small_output_stays_in_the_result_without_taking_a_part() {
        let shelf = Shelf::new(2, 0);
        let (parts, out) = stream(&[b"a:1\n", b"b:2\n"], &shelf);
        assert!(parts.is_empty());
        assert_eq!(out, b"a:1\nb:2\ntail");
        // Not a part's room: a small file's output holds its own size.
        assert!(out.capacity() < PART_ROOM);
        assert_eq!(shelf.held.load(Ordering::Relaxed), 0);
    }

    /// Regression: the printer's next file sent every part at once however
    /// slowly the printer wrote them (one 16 GiB file's `-n` into a pipe
    /// held 7.6 GB). Its writer now waits while more than the bound of its
    /// parts are unwritten; a later file's writer does not (the printer
    /// keeps its parts for its turn: waiting, it would hang here).
    #[test]
    fn the_printers_next_file_waits_for_its_parts_to_be_written() {
        let bound = 3 * PART_ROOM;
        let shelf = Shelf::new(1, bound);
        let (tx, rx) = mpsc::channel::<Sent>();
        std::thread::scope(|s| {
            let writer = s.spawn(|| {
                let mut w = PartWriter::new(0, &tx, &shelf);
                let mut most = 0;
                for _ in 0..40 * PART_BYTES / 1000 {
                    w.write_all(&[b'x'; 1000]).unwrap();
                    let unwritten = w.sent - shelf.front_written.load(Ordering::Acquire);
                    most = most.max(unwritten);
                }
                let sent = w.sent;
                w.finish(&mut Ok(FileResult::default()));
                let mut later = PartWriter::new(1, &tx, &shelf);
                later.write_all(&vec![b'y'; 8 * PART_BYTES]).unwrap();
                drop(tx);
                (most, sent)
            });
            let mut waiting = Waiting::default();
            let mut out = Vec::new();
            for sent in rx.iter() {
                if let Sent::Part(i, part) = sent {
                    std::thread::sleep(Duration::from_micros(300));
                    waiting
                        .take((i, part), 0, &mut out, &mut Gathered::off(), &shelf)
                        .unwrap();
                }
            }
            let (most, sent) = writer.join().unwrap();
            assert!(most > 0 && most <= bound, "{most}");
            assert!(sent > 30 * PART_BYTES);
            assert_eq!(out.len(), sent);
            assert!(out.iter().all(|&b| b == b'x'));
        });
    }

    #[test]
    fn large_output_goes_out_in_parts_in_order() {
        let shelf = Shelf::new(2, 0);
        let line: Vec<u8> = (0..=255u8).cycle().take(40_000).collect();
        let chunks: Vec<&[u8]> = (0..100).map(|_| &line[..]).collect();
        let (parts, out) = stream(&chunks, &shelf);
        assert!(parts.len() >= 3);
        assert!(parts
            .iter()
            .all(|p| (PART_BYTES..=PART_ROOM).contains(&p.len())));
        let mut all: Vec<u8> = parts.concat();
        all.extend_from_slice(&out);
        let mut want = line.repeat(100);
        want.extend_from_slice(b"tail");
        assert_eq!(all, want);
        assert_eq!(
            shelf.held.load(Ordering::Relaxed),
            parts.iter().map(Vec::capacity).sum::<usize>()
        );
    }
}
