//! `--decompress` in the pipeline: compressed files decompressed ahead of
//! the packer, in order, on their own threads.
//!
//! A compressed file has no size until its stream ends and can be read
//! only once, in order, so the packer cannot plan it from the listing nor
//! have readers `pread` its parts. Instead [`Ahead`] runs a few files ahead
//! of the packer: its threads sniff each regular file (`decompress::open`,
//! which decompresses gzip members and zstd frames on several threads) and
//! decompress up to `whole_max` bytes of it. What they find, handed to the
//! packer in the files' order:
//!
//! - `Plain`: not compressed; packed from its listed size and `pread` as
//!   before.
//! - `Whole`: the decompressed bytes, up to `whole_max`: packed like a
//!   file of that size (small ones many to a chunk); the readers copy them
//!   into the chunk instead of reading the file, and the CPU prints the
//!   file from the chunk as any other.
//! - `Stream`: more than `whole_max` bytes: the packer pours the rest of
//!   the stream into chunks of its own (`Flow::pour`), one piece each,
//!   pieces overlapping as a cut file's; the last piece is known when the
//!   stream ends.
//! - `Cpu`: the file could not be opened, or its data is damaged: the CPU
//!   engine searches it and reports exactly what it reports on its own.
//!
//! Memory: at most `window` files are in flight (twice the threads, or
//! every file when there are fewer), each holding at most `whole_max + 1`
//! decompressed bytes (`whole_max` is chosen so that the window holds
//! about `AHEAD_BYTES`, and is at most a chunk: 16 MiB each with 16
//! threads and many files, a whole chunk for one file).

use super::stats::{self, Stages};
use crate::input::decompress;
use crate::input::walk::{Input, Item};
use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

/// Decompressed bytes the look-ahead may hold at once, over all its files.
pub const AHEAD_BYTES: usize = 512 << 20;

/// What the look-ahead found in one file.
pub enum Unpacked {
    Plain,
    Whole(Vec<u8>),
    /// The first `whole_max + 1` bytes, and the rest of the stream.
    Stream(Vec<u8>, Box<dyn Read + Send>),
    Cpu,
    /// Claimed by a CPU worker before the look-ahead reached it.
    Taken,
}

type Task = (usize, SyncSender<Unpacked>);

/// The files decompressed ahead of the packer, in order.
pub struct Ahead {
    tasks: Option<mpsc::Sender<Task>>,
    pending: VecDeque<(usize, Receiver<Unpacked>)>,
    next: std::vec::IntoIter<usize>,
    window: usize,
}

/// How the look-ahead's threads decompress.
pub struct Opening<'a> {
    pub items: &'a [Item],
    /// Threads for one file's members or frames.
    pub threads: usize,
    /// The most bytes of one file held whole.
    pub whole_max: usize,
    pub stages: &'a Stages,
}

impl Ahead {
    /// The look-ahead over `files` (item indices, ascending), `window`
    /// files at most in flight; `workers` run in `scope` until the
    /// returned `Ahead` is dropped. `taken(i)`: a CPU worker has item `i`.
    pub fn start<'s, 'e: 's>(
        scope: &'s std::thread::Scope<'s, 'e>,
        files: Vec<usize>,
        window: usize,
        workers: usize,
        opening: &'e Opening<'e>,
        taken: &'e (dyn Fn(usize) -> bool + Sync),
    ) -> Ahead {
        let (tx, rx) = mpsc::channel::<Task>();
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..workers.max(1) {
            let rx = rx.clone();
            scope.spawn(move || {
                while let Some((i, back)) = super::flow::next(&rx) {
                    let got = match taken(i) {
                        true => Unpacked::Taken,
                        false => unpack(opening, i),
                    };
                    let _ = back.send(got);
                }
            });
        }
        let mut ahead = Ahead {
            tasks: Some(tx),
            pending: VecDeque::new(),
            next: files.into_iter(),
            window: window.max(1),
        };
        ahead.fill();
        ahead
    }

    fn fill(&mut self) {
        while self.pending.len() < self.window {
            let Some(i) = self.next.next() else {
                self.tasks = None;
                return;
            };
            let (tx, rx) = mpsc::sync_channel(1);
            if let Some(tasks) = &self.tasks {
                let _ = tasks.send((i, tx));
            }
            self.pending.push_back((i, rx));
        }
    }

    /// What was found in item `i` (the next of the files given, in order;
    /// `Cpu` for any other).
    pub fn take(&mut self, i: usize) -> Unpacked {
        let got = match self.pending.front() {
            Some((j, _)) if *j == i => self.pending.pop_front(),
            _ => None,
        };
        self.fill();
        got.and_then(|(_, rx)| rx.recv().ok())
            .unwrap_or(Unpacked::Cpu)
    }
}

/// Opens and decompresses item `i` as far as `whole_max` bytes.
fn unpack(o: &Opening, i: usize) -> Unpacked {
    let Some(Item::Input(Input {
        path: Some(path), ..
    })) = o.items.get(i)
    else {
        return Unpacked::Cpu;
    };
    let t = std::time::Instant::now();
    let got = match decompress::open(path, o.threads) {
        Ok(None) => Unpacked::Plain,
        Ok(Some(mut reader)) => {
            let mut head = Vec::new();
            let limit = o.whole_max as u64 + 1;
            match (&mut reader).take(limit).read_to_end(&mut head) {
                Ok(n) if (n as u64) < limit => Unpacked::Whole(head),
                Ok(_) => Unpacked::Stream(head, reader),
                Err(_) => Unpacked::Cpu,
            }
        }
        Err(_) => Unpacked::Cpu,
    };
    stats::add_since(&o.stages.decompress_ns, t);
    got
}

/// Reads into `dst` until it is full or the stream ends; the bytes read.
pub fn fill(reader: &mut dyn Read, dst: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < dst.len() {
        match reader.read(&mut dst[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_reads_until_full_or_the_end() {
        let mut r = io::Cursor::new(b"abcdef".to_vec()).chain(io::Cursor::new(b"gh".to_vec()));
        let mut buf = [0u8; 7];
        assert_eq!(fill(&mut r, &mut buf).unwrap(), 7);
        assert_eq!(&buf, b"abcdefg");
        assert_eq!(fill(&mut r, &mut buf).unwrap(), 1);
        assert_eq!(fill(&mut r, &mut buf).unwrap(), 0);
    }
}
