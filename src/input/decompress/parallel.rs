//! One compressed file decompressed on several threads, where the format
//! is made of independent pieces: zstd frames and gzip members.
//!
//! The file is mapped and cut into **jobs** of about [`JOB_BYTES`]
//! compressed bytes, each starting where a frame or member starts. Worker
//! threads decode the jobs in order of their start, each into its own
//! bounded channel of decompressed pieces; [`Parallel`] reads the channels
//! in file order, so the search sees exactly the bytes the single-threaded
//! decoder gives (line numbers, `-b` offsets, context and lines that cross
//! a job boundary are the stream search's as before).
//!
//! **zstd**: frame sizes come from the frame headers and block headers
//! (`ZSTD_findFrameCompressedSize`, which also sizes skippable frames, as
//! pzstd writes before each frame), so the cuts are exact. From the first
//! frame whose size cannot be found (a damaged or cut one), the rest of the
//! file is one last job, whose decoder reports the damage as the
//! single-threaded one does. `zstd -T0` writes one frame however many
//! threads compress it: such a file is one job.
//!
//! **gzip**: a member's length is known only by inflating it, so cuts are
//! guessed: the first place at or after each [`JOB_BYTES`] step where the
//! bytes look like a member header (`1F 8B 08`, no reserved flag, a known
//! XFL and OS byte). A job inflates members from its start until one ends
//! at or past the next job's start, and reports where it ended. A job is
//! used only if the job before it ended exactly at its start (then its
//! start is a real member start: the format says a member follows another);
//! a job that started on a false guess (bytes inside a member) is dropped,
//! and a stretch no used job covers is inflated by the reader itself. Wrong
//! guesses cost time, never output. A single-member file (what `gzip`,
//! and `pigz` even with `--independent`, write) has no second member to
//! find: it is one job, decoded by one thread as before (a second member
//! is looked for in the first [`FIRST_MEMBER_WINDOW`] only). Multi-member
//! files: `cat a.gz b.gz`, `bgzip` (members of 64 KiB), `gzip` of
//! concatenated logs.
//!
//! Memory: each job's channel holds at most [`QUEUED`] pieces of [`PIECE`]
//! bytes (8 MiB), and one worker per thread holds one job, so decompressed
//! data waiting for the search is at most threads × 8 MiB (a worker that
//! runs that far ahead waits). Jobs of 1 MiB compressed fit in that up to a
//! ratio of 8 (logs: about 4); more compressible data makes workers wait
//! on the search sooner, which costs speed, never memory. Dropping the
//! reader (`-m`, `-q`, an error) drops the channels: workers stop at their
//! next piece.
//!
//! One file of about 450 lines (its tests are in `parallel/tests.rs`): the
//! cutting, the job decoders, the workers and the ordered reader share one
//! invariant (a job is used only where the one before it ended), which is
//! easier to check in one place than across four files.

use super::{worded, Format};
use crate::input::source::{self, Mapped, Source};
use crate::knobs;
use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::path::Path;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex, PoisonError};

/// Compressed bytes per job (`GPUGREP_DECOMPRESS_BLOCK`, a test knob, makes
/// it smaller so that tests cut small files everywhere).
pub const JOB_BYTES: usize = 1 << 20;

/// How far into a gzip file a second member is looked for.
const FIRST_MEMBER_WINDOW: usize = 16 << 20;

/// Decompressed bytes per piece sent from a worker.
const PIECE: usize = 256 << 10;

/// Pieces waiting in one job's channel.
const QUEUED: usize = 32;

pub fn job_bytes() -> usize {
    knobs::get()
        .decompress_block
        .get()
        .map_or(JOB_BYTES, |n| usize::try_from(n).unwrap_or(usize::MAX))
        .max(1)
}

/// The compressed bytes, shared by the jobs.
type Shared = Arc<Mapped>;

/// One job: decoding starts at `start` and goes on until a member or frame
/// ends at or past `stop`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Job {
    start: usize,
    stop: usize,
}

/// Opens the regular file `path` of `format` to be decompressed by up to
/// `threads` threads; `None` when it is one job (a single member or frame,
/// a small file), or cannot be mapped: the caller decodes it on one thread.
pub fn open(path: &Path, format: Format, threads: usize) -> Option<Box<dyn Read + Send>> {
    let step = job_bytes();
    let data = match source::open(path, true).ok()? {
        Source::Mapped(m) => Arc::new(m),
        _ => return None,
    };
    let jobs = match format {
        Format::Gzip => gzip_jobs(&data, step),
        Format::Zstd => zstd_jobs(&data, step),
        _ => return None,
    };
    // One job is left to the caller's decoder on the searching thread:
    // decoding it on a worker beside the search was slower (128 MiB log,
    // one member, 2 cores: 0.26 s against 0.24 s for `-c ERROR` and for a
    // case-blind regex), the search costing less than the copy and hand-over.
    if jobs.len() < 2 {
        return None;
    }
    let reader = Parallel::start(data, format, jobs, threads)?;
    Some(Box::new(reader))
}

/// True where `head` looks like a gzip member header (RFC 1952: ID1 ID2
/// CM=8, FLG without reserved bits, XFL 0, 2 or 4, a known OS byte).
fn member_header(head: &[u8]) -> bool {
    match head {
        [0x1F, 0x8B, 8, flg, _, _, _, _, xfl, os, ..] => {
            flg & 0xE0 == 0 && matches!(xfl, 0 | 2 | 4) && (*os <= 13 || *os == 255)
        }
        _ => false,
    }
}

/// gzip jobs: cuts at the first likely member header after each step.
fn gzip_jobs(data: &[u8], step: usize) -> Vec<Job> {
    let finder = memchr::memmem::Finder::new(b"\x1F\x8B\x08");
    let mut starts = vec![0usize];
    let mut from = step;
    // A file with no second member in its first [`FIRST_MEMBER_WINDOW`]
    // (or 16 jobs) is taken for a single member: the rest is not scanned
    // (nor paged in). Members that large would not run in parallel anyway:
    // a worker stops 8 MiB ahead of the search.
    let window = step.saturating_mul(16).max(FIRST_MEMBER_WINDOW);
    loop {
        let limit = match starts.len() {
            1 => window.min(data.len()),
            _ => data.len(),
        };
        if from >= limit {
            break;
        }
        let Some(i) = finder.find(&data[from..limit]) else {
            break;
        };
        let at = from + i;
        if member_header(&data[at..]) {
            starts.push(at);
            from = at.saturating_add(step);
        } else {
            from = at + 1;
        }
    }
    jobs_from(starts, data.len())
}

/// zstd jobs: whole frames, grouped to about `step` bytes; from a frame
/// whose size cannot be read, the rest is one job.
fn zstd_jobs(data: &[u8], step: usize) -> Vec<Job> {
    let mut starts = vec![0usize];
    let mut pos = 0usize;
    let mut last = 0usize;
    while pos < data.len() {
        match zstd::zstd_safe::find_frame_compressed_size(&data[pos..]) {
            Ok(n) if n > 0 => pos += n,
            _ => break,
        }
        if pos < data.len() && pos - last >= step {
            starts.push(pos);
            last = pos;
        }
    }
    jobs_from(starts, data.len())
}

fn jobs_from(starts: Vec<usize>, len: usize) -> Vec<Job> {
    let stops = starts.iter().skip(1).copied().chain([len]);
    starts
        .iter()
        .zip(stops)
        .map(|(&start, stop)| Job { start, stop })
        .collect()
}

/// The shared bytes from `pos` to `end`, as a decoder's input.
struct Cursor {
    data: Shared,
    pos: usize,
    end: usize,
}

impl Read for Cursor {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.read(buf)?;
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Cursor {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(&self.data[self.pos..self.end])
    }
    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }
}

/// Decodes one job: members or frames from its start, and where it ended.
enum Decoder {
    /// gzip members, one decoder each, until one ends at or past `stop`.
    Gzip {
        data: Shared,
        pos: usize,
        stop: usize,
        member: Option<Box<flate2::bufread::GzDecoder<Cursor>>>,
    },
    /// zstd frames, exactly `start..stop`.
    Zstd {
        decoder: Box<zstd::stream::read::Decoder<'static, Cursor>>,
        stop: usize,
    },
}

impl Decoder {
    fn new(data: &Shared, format: Format, job: Job) -> io::Result<Decoder> {
        match format {
            Format::Zstd => {
                let cursor = Cursor {
                    data: data.clone(),
                    pos: job.start,
                    end: job.stop,
                };
                let decoder = zstd::stream::read::Decoder::with_buffer(cursor)?;
                Ok(Decoder::Zstd {
                    decoder: Box::new(decoder),
                    stop: job.stop,
                })
            }
            _ => Ok(Decoder::Gzip {
                data: data.clone(),
                pos: job.start,
                stop: job.stop,
                member: None,
            }),
        }
    }

    /// Where the last member or frame decoded ended (after `read` gave 0).
    fn end(&self) -> usize {
        match self {
            Decoder::Gzip { pos, .. } => *pos,
            Decoder::Zstd { stop, .. } => *stop,
        }
    }
}

impl Read for Decoder {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let (data, pos, stop, member) = match self {
            Decoder::Zstd { decoder, .. } => return decoder.read(buf),
            Decoder::Gzip {
                data,
                pos,
                stop,
                member,
            } => (data, pos, stop, member),
        };
        loop {
            let m = match member {
                Some(m) => m,
                None if *pos >= *stop || *pos >= data.len() => return Ok(0),
                None => member.insert(Box::new(flate2::bufread::GzDecoder::new(Cursor {
                    data: data.clone(),
                    pos: *pos,
                    end: data.len(),
                }))),
            };
            let n = m.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            *pos = m.get_ref().pos;
            *member = None;
        }
    }
}

/// What a worker sends for its job.
enum Piece {
    Data(Vec<u8>),
    /// The job is done; its last member or frame ended here.
    End(usize),
    Failed(io::Error),
}

/// Jobs not yet taken by a worker, in file order.
type Queue = Arc<Mutex<VecDeque<(Job, SyncSender<Piece>)>>>;

/// A worker: takes the next job, decodes it into its channel; stops when
/// the queue is empty. A closed channel (the reader dropped the job, or
/// was dropped) abandons the job.
fn work(data: Shared, format: Format, queue: Queue) {
    loop {
        let next = queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop_front();
        let Some((job, tx)) = next else {
            return;
        };
        let mut decoder = match Decoder::new(&data, format, job) {
            Ok(d) => d,
            Err(e) => {
                let _ = tx.send(Piece::Failed(e));
                continue;
            }
        };
        loop {
            let mut piece = Vec::with_capacity(PIECE);
            let read = (&mut decoder).take(PIECE as u64).read_to_end(&mut piece);
            let last = match read {
                Err(e) => {
                    if !piece.is_empty() {
                        let _ = tx.send(Piece::Data(piece));
                    }
                    let _ = tx.send(Piece::Failed(e));
                    break;
                }
                Ok(_) if piece.len() < PIECE => Some(Piece::End(decoder.end())),
                Ok(_) => None,
            };
            if !piece.is_empty() && tx.send(Piece::Data(piece)).is_err() {
                break;
            }
            if let Some(end) = last {
                let _ = tx.send(end);
                break;
            }
        }
    }
}

/// What the reader reads from now.
enum Now {
    Job(Receiver<Piece>),
    /// A stretch no used job covers, decoded here.
    Inline(Box<Decoder>),
    Done,
}

/// The decompressed file, read in order from the workers' channels.
pub struct Parallel {
    data: Shared,
    format: Format,
    /// Jobs after the current one: their start and channel.
    jobs: VecDeque<(usize, Receiver<Piece>)>,
    queue: Queue,
    now: Now,
    piece: Vec<u8>,
    at: usize,
}

impl Parallel {
    /// Starts up to `threads` workers over `jobs`; `None` if none starts.
    fn start(data: Shared, format: Format, jobs: Vec<Job>, threads: usize) -> Option<Parallel> {
        let mut receivers = VecDeque::with_capacity(jobs.len());
        let mut queue = VecDeque::with_capacity(jobs.len());
        for &job in &jobs {
            let (tx, rx) = mpsc::sync_channel(QUEUED);
            receivers.push_back((job.start, rx));
            queue.push_back((job, tx));
        }
        let queue = Arc::new(Mutex::new(queue));
        let mut started = 0;
        for _ in 0..threads.min(jobs.len()) {
            let (d, q) = (data.clone(), queue.clone());
            let spawned = std::thread::Builder::new()
                .name("decompress".into())
                .spawn(move || work(d, format, q));
            started += usize::from(spawned.is_ok());
        }
        if started == 0 {
            return None;
        }
        let mut reader = Parallel {
            data,
            format,
            jobs: receivers,
            queue,
            now: Now::Done,
            piece: Vec::new(),
            at: 0,
        };
        reader.next_from(0).ok()?;
        Some(reader)
    }

    /// The previous stretch ended at `end`: the job starting there, or a
    /// stretch to decode here up to the next job's start.
    fn next_from(&mut self, end: usize) -> io::Result<()> {
        while self.jobs.front().is_some_and(|&(start, _)| start < end) {
            self.jobs.pop_front();
        }
        self.now = match self.jobs.front() {
            _ if end >= self.data.len() => Now::Done,
            Some(&(start, _)) if start == end => match self.jobs.pop_front() {
                Some((_, rx)) => Now::Job(rx),
                None => Now::Done,
            },
            next => {
                let stop = next.map_or(self.data.len(), |&(start, _)| start);
                let job = Job { start: end, stop };
                Now::Inline(Box::new(Decoder::new(&self.data, self.format, job)?))
            }
        };
        Ok(())
    }

    /// Stops every worker: nothing is read after an error.
    fn stop(&mut self) {
        self.now = Now::Done;
        self.jobs.clear();
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// The next decompressed bytes into `buf`, from the current stretch;
    /// `None` when it ended (and the next one is set up).
    fn step(&mut self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        let end = match &mut self.now {
            Now::Done => return Ok(Some(0)),
            Now::Inline(decoder) => match decoder.read(buf)? {
                0 => decoder.end(),
                n => return Ok(Some(n)),
            },
            Now::Job(rx) => match rx.recv() {
                Ok(Piece::Data(piece)) => {
                    self.piece = piece;
                    self.at = 0;
                    return Ok(None);
                }
                Ok(Piece::End(end)) => end,
                Ok(Piece::Failed(e)) => return Err(e),
                Err(_) => return Err(io::Error::other("a decompression thread failed")),
            },
        };
        self.next_from(end)?;
        Ok(None)
    }
}

impl Read for Parallel {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.at < self.piece.len() {
                let n = (&self.piece[self.at..]).read(buf)?;
                self.at += n;
                return Ok(n);
            }
            if buf.is_empty() {
                return Ok(0);
            }
            match self.step(buf) {
                Ok(Some(n)) => return Ok(n),
                Ok(None) => continue,
                Err(e) => {
                    self.stop();
                    return Err(worded(self.format, e));
                }
            }
        }
    }
}

impl Drop for Parallel {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests;
