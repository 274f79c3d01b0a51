//! Opening an input, and what its bytes are searched as: a [`Haystack`].
//!
//! A haystack is a slice (a caller's bytes, a map, or a small file read
//! whole into the thread's reused buffer), a stream (pipes, devices,
//! decompressed data, large files read in blocks), or decoded text (a file
//! with a UTF-16 byte-order mark, whose offsets map back to the file's).
//! The byte-order mark is sniffed here, once: from a slice's first bytes,
//! or from a stream's first read, read further only while it could still
//! be the start of a mark.
//!
//! Per file this costs one `open` and the reads (no `stat` for a file the
//! walker found, no allocation for a small file): 100,000 small files are
//! a benchmark case.

pub use super::recycled::{Recycled, FIRST_BLOCK};
use crate::encoding::decode::Decoded;
use crate::encoding::{EncodingPlan, FilePlan, BOM_PROBE};
use crate::error::Message;
use crate::input::decompress;
use crate::input::source::{self, Mapped, Source};
use crate::input::walk::Input;
use memchr::memrchr;
use std::cell::Cell;
use std::io::{self, Read};

/// Bytes read at a time from a stream, as ripgrep reads: a regular file's
/// first block ([`FIRST_BLOCK`], read whole into the thread's buffer and
/// searched as a slice when the file ends there) is its stream's first.
pub const STREAM_CHUNK: usize = FIRST_BLOCK;

/// What an input is searched as.
pub enum Haystack<'d> {
    /// Bytes in memory, searched raw; `base` is the file offset of the
    /// first (a UTF-8 byte-order mark before it is skipped); `mapped`: the
    /// bytes are a file's read-only map, whose pages may be released as
    /// they are searched (`source::release_mapped`).
    Slice {
        bytes: &'d [u8],
        base: usize,
        mapped: bool,
        /// The mapped file itself (a walked one), which a split count's
        /// pieces are read from rather than through the map
        /// (`split::ReadFrom`).
        file: Option<&'d std::fs::File>,
    },
    /// A stream, searched block by block; `base` as for a slice. The
    /// reader is taken out when searched (a haystack is searched through a
    /// shared reference, so that a printer may borrow a decoded one's
    /// offsets meanwhile).
    Stream {
        reader: Cell<Option<Box<dyn Read + Send>>>,
        base: usize,
        /// The stream's first bytes, already read into the thread's buffer
        /// (`buf.0[..n]`, from `base` on): searched before reading more.
        head: Cell<Option<(Recycled, usize)>>,
    },
    /// Text decoded to UTF-8 from `bytes` bytes of the file.
    Decoded { text: Decoded<'d>, bytes: u64 },
}

impl<'d> Haystack<'d> {
    fn stream(reader: Box<dyn Read + Send>, base: usize) -> Haystack<'d> {
        Haystack::Stream {
            reader: Cell::new(Some(reader)),
            base,
            head: Cell::new(None),
        }
    }

    /// The decoded text, whose offsets the printer maps to the file's.
    pub fn decoded(&self) -> Option<&Decoded<'d>> {
        match self {
            Haystack::Decoded { text, .. } => Some(text),
            _ => None,
        }
    }
}

/// An input that could not be opened or first read.
pub struct Unopened {
    pub error: io::Error,
    /// GNU grep still prints the summary (`-c`, `-L`) of an operand that
    /// turns out to be a directory.
    pub summarise: bool,
}

/// An opened input: where its bytes are, until searched.
pub struct Opened<'d> {
    storage: Storage<'d>,
    /// The text read whole from a stream that is decoded.
    read: Vec<u8>,
}

/// An input's bytes a caller already holds: in its memory (a GPU chunk,
/// decompressed text), or the file's read-only map (a GPU file too large
/// for a chunk), whose pages a split search releases once each piece is
/// searched, as it does for the maps it makes (`split`): a 16 GiB file's
/// `-o` held 17.5 GB resident.
#[derive(Clone, Copy)]
pub struct Preloaded<'d> {
    bytes: &'d [u8],
    /// `bytes` is a file's map ([`Mapped::Map`]): only [`Preloaded::map`]
    /// says so.
    map: bool,
}

impl<'d> Preloaded<'d> {
    pub fn held(bytes: &'d [u8]) -> Preloaded<'d> {
        Preloaded { bytes, map: false }
    }

    /// A file's bytes as `source` gave them: a map, or read whole.
    pub fn map(mapped: &'d Mapped) -> Preloaded<'d> {
        Preloaded {
            bytes: mapped,
            map: matches!(mapped, Mapped::Map(..)),
        }
    }
}

enum Storage<'d> {
    Borrowed(Preloaded<'d>),
    /// A map, and the file when it is kept (a walked file mapped as large).
    Mapped(Mapped, Option<std::fs::File>),
    /// A small file read whole: the thread's buffer and its length.
    Whole(Recycled, usize),
    /// A stream whose first bytes were read: the thread's buffer and their
    /// length, and the rest (a file larger than what is read whole, or a
    /// stream once its head is read for the byte-order mark).
    Started(Recycled, usize, Box<dyn Read + Send>),
    /// A stream nothing was read from yet.
    Stream(Box<dyn Read + Send>),
}

/// How inputs are opened in this run.
#[derive(Debug, Clone, Copy)]
pub struct OpenOptions {
    /// `--decompress`.
    pub decompress: bool,
    /// Threads that may decompress one file (its members or frames).
    pub decompress_threads: usize,
    /// Map regular files: one large file split between threads.
    pub map: bool,
    /// Map a file read here from this size on (`split::map_from`: its
    /// lines may be split between threads); else it is read in blocks.
    pub map_from: Option<u64>,
}

/// Opens `input`, or takes `preloaded`, its bytes when the caller has them
/// (a GPU chunk, or the GPU's map of it).
pub fn open<'d>(
    input: &Input,
    preloaded: Option<Preloaded<'d>>,
    o: OpenOptions,
) -> Result<Opened<'d>, Unopened> {
    let quiet = |error| Unopened {
        error,
        summarise: false,
    };
    let summarised = |error| Unopened {
        error,
        summarise: true,
    };
    let decompressed = match (o.decompress, preloaded, &input.path) {
        (false, _, _) | (true, Some(_), _) => None,
        (true, None, Some(path)) => decompress::open(path, o.decompress_threads).map_err(quiet)?,
        (true, None, None) => Some(decompress::wrap(source::stdin_reader()).map_err(quiet)?.0),
    };
    let file = match (decompressed, preloaded, &input.path) {
        (Some(reader), _, _) => return Ok(Opened::new(Storage::Stream(reader))),
        (None, Some(pre), _) => return Ok(Opened::new(Storage::Borrowed(pre))),
        (None, None, None) => return Ok(Opened::new(Storage::Stream(source::stdin_reader()))),
        // The walker saw a regular file: read it without asking the file
        // system again (one `statx` less per file in large trees).
        (None, None, Some(path)) if input.from_recursion && !o.map => {
            source::open_file(path).map_err(quiet)?
        }
        (None, None, Some(path)) => match source::open(path, o.map).map_err(summarised)? {
            Source::Mapped(m) => return Ok(Opened::new(Storage::Mapped(m, None))),
            Source::Stream(r) => return Ok(Opened::new(Storage::Stream(r))),
            // Read in blocks through a buffer that stays in cache: with
            // many threads, memory bandwidth is what runs out first.
            Source::File(file, _) => file,
        },
    };
    read_small(file, o.map_from)
        .map(Opened::new)
        .map_err(summarised)
}

/// A regular file of up to [`FIRST_BLOCK`] read whole, without the
/// stream's copies; a larger one streams on from what was read, its first
/// block searched in place, or is mapped when it is large.
///
/// Files up to 256 KiB (the stream's block until the sixty-first session)
/// were read whole, each search thread's buffer growing to a block and a
/// half (384 KiB) at its first such file: on the 16-core host, 16 threads
/// over the Linux tree (404 of its 20,061 files over 64 KiB) peaked at
/// 15.3 MB for `-c -w int` and 22.1 MB for `-n -w int`, with 5,870 and
/// 7,660 page faults; streamed in 64 KiB blocks as rg reads them, 13.1 and
/// 21.1 MB, 2,640 and 4,720 faults, in the same time (rg 9.7 and 10.4 MB).
fn read_small(mut file: std::fs::File, map_from: Option<u64>) -> io::Result<Storage<'static>> {
    let mut buf = Recycled::take();
    if buf.0.len() < FIRST_BLOCK {
        buf.0.resize(FIRST_BLOCK, 0);
    }
    let mut n = 0;
    while n < FIRST_BLOCK {
        match file.read(&mut buf.0[n..FIRST_BLOCK]) {
            Ok(0) => return Ok(Storage::Whole(buf, n)),
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    // Larger than the first block: a large file is mapped, as a listed one
    // is (`source::open`), so that its lines may be split between threads
    // (64 logs of 270 MB, `-n`, 16 cores: 24 s read by one thread each, rg
    // 5.1 s). Asked whatever the size of the thread's buffer: asked only
    // while it was the first block's size, a large file after a streamed
    // one (whose buffer had grown) was read by one thread (19 of 49 large
    // logs on 16 threads).
    if let Some(mapped) = map_from.and_then(|from| large_mapped(&file, from)) {
        return Ok(Storage::Mapped(mapped, Some(file)));
    }
    // The stream goes on from here, its first block searched where it was
    // read (before, it read the file again from its start).
    Ok(Storage::Started(buf, n, Box::new(file)))
}

/// `file` mapped when it is at least `from` bytes long.
fn large_mapped(file: &std::fs::File, from: u64) -> Option<Mapped> {
    let len = file.metadata().ok()?.len();
    (len >= from).then(|| source::map_file(file))?
}

impl<'d> Opened<'d> {
    fn new(storage: Storage<'d>) -> Opened<'d> {
        Opened {
            storage,
            read: Vec::new(),
        }
    }

    /// The map, to ask after the search whether the file shrank.
    pub fn map(&self) -> Option<&Mapped> {
        match &self.storage {
            Storage::Mapped(m, _) => Some(m),
            _ => None,
        }
    }

    /// What to search, after sniffing the byte-order mark as `plan` says.
    /// A stream's read errors go to `messages` (a stream that fails at its
    /// first read is searched as empty, as GNU grep prints an empty file's
    /// summary; a decoded stream keeps its complete lines).
    pub fn haystack(
        &mut self,
        plan: EncodingPlan,
        terminator: u8,
        name: &str,
        messages: &mut Vec<Message>,
    ) -> Haystack<'_> {
        if let Storage::Stream(reader) = &mut self.storage {
            let mut reader = std::mem::replace(reader, Box::new(io::empty()));
            let sniff = plan != EncodingPlan::Raw { sniff_utf16: false };
            match read_head(&mut *reader, sniff) {
                Ok((buf, n)) => self.storage = Storage::Started(buf, n, reader),
                Err(e) => {
                    messages.push(Message::io(name, &e));
                    return Haystack::stream(Box::new(io::empty()), 0);
                }
            }
        }
        if matches!(self.storage, Storage::Started(..)) {
            return self.started_haystack(plan, terminator, name, messages);
        }
        let bytes: &[u8] = match &self.storage {
            Storage::Borrowed(pre) => pre.bytes,
            Storage::Mapped(m, _) => m,
            Storage::Whole(buf, n) => &buf.0[..*n],
            // Streams were taken above.
            Storage::Started(..) | Storage::Stream(_) => &[],
        };
        let (mapped, file) = match &self.storage {
            Storage::Mapped(Mapped::Map(..), file) => (true, file.as_ref()),
            Storage::Borrowed(pre) => (pre.map, None),
            _ => (false, None),
        };
        match plan.for_file(&bytes[..bytes.len().min(BOM_PROBE)]) {
            FilePlan::Raw { skip } => Haystack::Slice {
                bytes: &bytes[skip..],
                base: skip,
                mapped,
                file,
            },
            FilePlan::Decode { enc, skip } => Haystack::Decoded {
                text: Decoded::new(bytes, skip, enc, terminator),
                bytes: bytes.len() as u64,
            },
        }
    }

    /// A stream whose first bytes were read (`Storage::Started`): searched
    /// from those bytes on, or read whole and decoded (the slow path; a
    /// read error is a message, and a line it cut off is not searched as if
    /// whole).
    fn started_haystack(
        &mut self,
        plan: EncodingPlan,
        terminator: u8,
        name: &str,
        messages: &mut Vec<Message>,
    ) -> Haystack<'_> {
        let Storage::Started(mut buf, n, mut rest) =
            std::mem::replace(&mut self.storage, Storage::Borrowed(Preloaded::held(&[])))
        else {
            return Haystack::stream(Box::new(io::empty()), 0);
        };
        match plan.for_file(&buf.0[..n.min(BOM_PROBE)]) {
            FilePlan::Raw { skip } => {
                // The head is the stream's first block: the binary probe
                // sees the same first buffer as a file's first read.
                buf.0.copy_within(skip..n, 0);
                Haystack::Stream {
                    reader: Cell::new(Some(rest)),
                    base: skip,
                    head: Cell::new(Some((buf, n - skip))),
                }
            }
            FilePlan::Decode { enc, skip } => {
                let mut read = buf.0[..n].to_vec();
                drop(buf);
                if let Err(e) = rest.read_to_end(&mut read) {
                    messages.push(Message::io(name, &e));
                    read.truncate(complete_lines(&read, enc, terminator));
                }
                self.read = read;
                let text = Decoded::new(&self.read, skip, enc, terminator);
                let bytes = self.read.len() as u64;
                Haystack::Decoded { text, bytes }
            }
        }
    }
}

/// The length of `data`'s complete lines: up to its last terminator, a
/// whole code unit in UTF-16.
fn complete_lines(data: &[u8], enc: &'static encoding_rs::Encoding, terminator: u8) -> usize {
    let unit = match enc {
        e if e == encoding_rs::UTF_16LE => [terminator, 0],
        e if e == encoding_rs::UTF_16BE => [0, terminator],
        _ => return memrchr(terminator, data).map_or(0, |i| i + 1),
    };
    data.chunks_exact(2)
        .rposition(|c| c == unit)
        .map_or(0, |i| 2 * i + 2)
}

/// The first read of a stream (what grep calls its first buffer), into the
/// thread's buffer, read further only while it could still be the start of
/// a byte-order mark: the buffer and how many bytes arrived (none without
/// `sniff`). A slow pipe gives what it has (a short first line is not held
/// back), a file gives up to 64 KiB, and the binary probe then sees that
/// same first buffer.
fn read_head(reader: &mut dyn Read, sniff: bool) -> io::Result<(Recycled, usize)> {
    const BOMS: [&[u8]; 3] = [b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"];
    let may_grow_into_bom = |head: &[u8]| {
        BOMS.iter()
            .any(|b| b.len() > head.len() && b.starts_with(head))
    };
    let mut buf = Recycled::take();
    if !sniff {
        return Ok((buf, 0));
    }
    if buf.0.len() < FIRST_BLOCK {
        buf.0.resize(FIRST_BLOCK, 0);
    }
    let mut n = 0;
    while may_grow_into_bom(&buf.0[..n]) {
        match reader.read(&mut buf.0[n..FIRST_BLOCK]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok((buf, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `read_small` makes of a file of `len` bytes (zeros) when the
    /// thread's buffer holds `buffer` bytes beforehand and files are mapped
    /// from `from` bytes on.
    fn read_as(len: u64, buffer: usize, from: u64) -> &'static str {
        let file = tempfile::tempfile().unwrap();
        file.set_len(len).unwrap();
        let mut held = Recycled::take();
        held.0 = vec![0; buffer];
        drop(held);
        match read_small(file, Some(from)).unwrap() {
            Storage::Mapped(..) => "mapped",
            Storage::Whole(..) => "whole",
            Storage::Started(..) => "streamed",
            _ => "other",
        }
    }

    /// Only a file's map is released piece by piece: bytes read whole
    /// into memory would read back as zeros.
    #[test]
    fn only_a_maps_preloaded_bytes_count_as_mapped() {
        let mapped_of = |pre: Preloaded| {
            let mut opened = Opened::new(Storage::Borrowed(pre));
            let plan = EncodingPlan::Raw { sniff_utf16: false };
            match opened.haystack(plan, b'\n', "f", &mut Vec::new()) {
                Haystack::Slice { mapped, bytes, .. } => (mapped, bytes.len()),
                _ => panic!("not a slice"),
            }
        };
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &[b'x'; 4096]).unwrap();
        let map = source::map_file(&file).unwrap();
        assert!(matches!(map, Mapped::Map(..)));
        assert_eq!(mapped_of(Preloaded::map(&map)), (true, 4096));
        let owned = Mapped::Owned(vec![b'x'; 10]);
        assert_eq!(mapped_of(Preloaded::map(&owned)), (false, 10));
        assert_eq!(mapped_of(Preloaded::held(&[b'x'; 7])), (false, 7));
    }

    #[test]
    fn a_large_file_after_a_streamed_one_is_still_mapped() {
        let large = source::map_from();
        // A fresh thread's buffer, and one a streamed file grew.
        for buffer in [0, FIRST_BLOCK, 2 * STREAM_CHUNK + 100] {
            assert_eq!(read_as(large, buffer, large), "mapped", "buffer {buffer}");
            assert_eq!(
                read_as(large - 1, buffer, large),
                "streamed",
                "buffer {buffer}"
            );
            // Read whole up to the first block, whatever the buffer holds.
            let first = FIRST_BLOCK as u64;
            assert_eq!(read_as(first - 1, buffer, large), "whole");
            assert_eq!(read_as(first + 1, buffer, large), "streamed");
        }
    }

    #[test]
    fn a_file_begun_in_the_runs_tail_is_mapped_from_a_smaller_size() {
        let tail = crate::search::split_map_from(true);
        assert!(tail < crate::search::split_map_from(false));
        assert_eq!(read_as(tail, 0, tail), "mapped");
        assert_eq!(read_as(tail - 1, 0, tail), "streamed");
    }
}
