//! `--decompress`: compressed files searched by their content.
//!
//! The format is chosen by the file's first bytes (its magic number), never
//! by its name: a rotated log `build.log.1` that is gzip is decompressed, a
//! text file named `notes.gz` is searched as it is. The decoders are the
//! ecosystem's crates (flate2 on zlib-rs, zstd, bzip2 on libbz2-rs, liblzma
//! built from its bundled sources, lz4_flex), each wrapped as a `Read` so the
//! decompressed bytes go through the same stream search as a pipe: every
//! output option works and `-b` offsets count decompressed bytes.
//!
//! Concatenated members (multi-member gzip as written by `pigz` or by
//! `cat a.gz b.gz`, several zstd/xz/bzip2/lz4 frames) are read as one stream.
//! A decoder's error, or an archive that ends before its end marker, becomes
//! an I/O error worded for the user ("truncated gzip data", "corrupt xz
//! data: ..."); the stream search reports it for that file and searches only
//! the complete lines before it. (lz4_flex stops at each frame's end and
//! takes a frame cut between two blocks for a whole one: `lz4` reads on and
//! checks that frames end; `xz` hands out each stream's text before
//! decoding the next.)

mod lz4;
mod parallel;
mod xz;

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

/// A compression format recognised by its magic number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Gzip,
    Zstd,
    Bzip2,
    Xz,
    Lz4,
}

impl Format {
    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Zstd => "zstd",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
            Format::Lz4 => "lz4",
        }
    }
}

/// Magic numbers, longest first where one could shadow another.
const MAGICS: [(&[u8], Format); 5] = [
    (b"\xFD7zXZ\x00", Format::Xz),
    (b"\x28\xB5\x2F\xFD", Format::Zstd),
    (b"\x04\x22\x4D\x18", Format::Lz4),
    (b"BZh", Format::Bzip2),
    (b"\x1F\x8B", Format::Gzip),
];

/// The most bytes a magic number needs.
const MAGIC_LEN: usize = 6;

/// The format whose magic number `head` starts with, if any.
pub fn sniff(head: &[u8]) -> Option<Format> {
    if let [0x50..=0x5F, 0x2A, 0x4D, 0x18, ..] = head {
        // A skippable frame (`50..5F 2A 4D 18`), as `pzstd` writes before
        // each frame. lz4 shares the form; zstd is what writes it first.
        return Some(Format::Zstd);
    }
    MAGICS
        .iter()
        .find(|(magic, _)| head.starts_with(magic))
        .map(|&(_, f)| f)
}

/// True while `head` is too short to rule out every magic number.
fn may_grow_into_magic(head: &[u8]) -> bool {
    if let [0x50..=0x5F] | [0x50..=0x5F, 0x2A] | [0x50..=0x5F, 0x2A, 0x4D] = head {
        return true;
    }
    MAGICS
        .iter()
        .any(|(m, _)| m.len() > head.len() && m.starts_with(head))
}

/// Reads the start of `reader`: as much as one read gives, more only while
/// it could still be a magic number's prefix (a slow pipe's short first
/// line is not held back).
fn read_magic(reader: &mut dyn Read) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(MAGIC_LEN);
    let mut buf = [0u8; MAGIC_LEN];
    loop {
        let want = MAGIC_LEN - head.len();
        match reader.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        if head.len() >= MAGIC_LEN || !may_grow_into_magic(&head) {
            break;
        }
    }
    Ok(head)
}

/// A stream, decompressed when it starts with a known magic number (the
/// bytes read to tell are given back either way). Returns the format found.
pub fn wrap(
    mut reader: Box<dyn Read + Send>,
) -> io::Result<(Box<dyn Read + Send>, Option<Format>)> {
    let head = read_magic(&mut reader)?;
    let format = sniff(&head);
    let whole: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(reader));
    Ok(match format {
        Some(f) => (decoder(f, whole), Some(f)),
        None => (whole, None),
    })
}

/// Opens `path` for `--decompress`: a regular file holding a known format
/// as its decompressed stream, and a FIFO or device as a stream sniffed
/// like standard input (it can be opened only once); `None` for a plain
/// regular file or a directory, which the caller opens as usual. With
/// `threads` above 1, a gzip or zstd file made of several members or
/// frames is decompressed on that many threads (`parallel`).
pub fn open(path: &Path, threads: usize) -> io::Result<Option<Box<dyn Read + Send>>> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Ok(None);
    }
    let mut file = File::open(path)?;
    if !meta.is_file() {
        return wrap(Box::new(file)).map(|(reader, _)| Some(reader));
    }
    let head = read_magic(&mut file)?;
    let Some(format) = sniff(&head) else {
        return Ok(None);
    };
    let splittable = matches!(format, Format::Gzip | Format::Zstd);
    if splittable && threads > 1 && meta.len() > parallel::job_bytes() as u64 {
        if let Some(reader) = parallel::open(path, format, threads) {
            return Ok(Some(reader));
        }
    }
    let whole: Box<dyn Read + Send> = Box::new(io::Cursor::new(head).chain(file));
    Ok(Some(decoder(format, whole)))
}

/// The decoder for `format` over the compressed stream `inner`.
fn decoder(format: Format, inner: Box<dyn Read + Send>) -> Box<dyn Read + Send> {
    let inner = BufReader::with_capacity(128 * 1024, inner);
    let decoded: io::Result<Box<dyn Read + Send>> = match format {
        Format::Gzip => Ok(Box::new(flate2::bufread::MultiGzDecoder::new(inner))),
        Format::Zstd => zstd::stream::read::Decoder::with_buffer(inner)
            .map(|d| Box::new(d) as Box<dyn Read + Send>),
        Format::Bzip2 => Ok(Box::new(bzip2::bufread::MultiBzDecoder::new(inner))),
        Format::Xz => Ok(Box::new(xz::Streams::new(inner))),
        Format::Lz4 => Ok(Box::new(lz4::Frames::new(inner))),
    };
    match decoded {
        Ok(d) => Box::new(Worded { inner: d, format }),
        Err(e) => Box::new(Failed(Some(worded(format, e)))),
    }
}

/// A decoder whose errors name the format and say what went wrong.
struct Worded {
    inner: Box<dyn Read + Send>,
    format: Format,
}

impl Read for Worded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(worded(self.format, e)),
                Ok(n) => return Ok(n),
            }
        }
    }
}

/// A decoder that could not start: its error, once.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _buf: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// `e` from the `format` decoder, as the user reads it.
fn worded(format: Format, e: io::Error) -> io::Error {
    // Reading the file failed (not its content): grep's usual message.
    if e.raw_os_error().is_some() {
        return e;
    }
    let name = format.name();
    let text = super::io_reason(&e);
    let lower = text.to_ascii_lowercase();
    let truncated = e.kind() == io::ErrorKind::UnexpectedEof
        || lower.contains("unexpected end")
        || lower.contains("incomplete")
        || lower.contains("truncated")
        || lower.contains("premature");
    let reason = if truncated {
        format!("truncated {name} data ({text})")
    } else {
        format!("corrupt {name} data ({text})")
    };
    io::Error::new(io::ErrorKind::InvalidData, reason)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers_choose_the_format() {
        assert_eq!(sniff(b"\x1F\x8B\x08"), Some(Format::Gzip));
        assert_eq!(sniff(b"\x28\xB5\x2F\xFD\x00"), Some(Format::Zstd));
        assert_eq!(sniff(b"BZh9"), Some(Format::Bzip2));
        assert_eq!(sniff(b"\xFD7zXZ\x00\x00"), Some(Format::Xz));
        assert_eq!(sniff(b"\x04\x22\x4D\x18"), Some(Format::Lz4));
        assert_eq!(sniff(b"\x50\x2A\x4D\x18\x04"), Some(Format::Zstd));
        assert_eq!(sniff(b"\x5F\x2A\x4D\x18"), Some(Format::Zstd));
        assert_eq!(sniff(b"\x60\x2A\x4D\x18"), None);
        assert_eq!(sniff(b"hello"), None);
        assert_eq!(sniff(b"\x1F"), None);
        assert_eq!(sniff(b""), None);
    }

    #[test]
    fn a_short_head_is_read_only_while_it_may_be_a_magic() {
        assert!(may_grow_into_magic(b""));
        assert!(may_grow_into_magic(b"\xFD7z"));
        assert!(may_grow_into_magic(b"B"));
        assert!(may_grow_into_magic(b"\x52\x2A"));
        assert!(!may_grow_into_magic(b"\x52\x2B"));
        assert!(!may_grow_into_magic(b"hi"));
        assert!(!may_grow_into_magic(b"BZh"));
    }

    /// `text` compressed in `format` by the crates themselves.
    fn compress(format: Format, text: &[u8]) -> Vec<u8> {
        use std::io::Write;
        match format {
            Format::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            Format::Zstd => zstd::encode_all(text, 3).unwrap(),
            Format::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), Default::default());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            Format::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
            Format::Lz4 => {
                let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
                e.write_all(text).unwrap();
                e.finish().unwrap()
            }
        }
    }

    fn decompress(data: &[u8]) -> io::Result<Vec<u8>> {
        let (mut r, _) = wrap(Box::new(io::Cursor::new(data.to_vec())))?;
        let mut out = Vec::new();
        r.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn every_format_round_trips_and_every_cut_is_an_error() {
        let text: Vec<u8> = (0..3000)
            .flat_map(|i: u32| format!("line {} {}\n", i, i.wrapping_mul(2654435761)).into_bytes())
            .collect();
        for format in [
            Format::Gzip,
            Format::Zstd,
            Format::Bzip2,
            Format::Xz,
            Format::Lz4,
        ] {
            let packed = compress(format, &text);
            assert_eq!(sniff(&packed), Some(format));
            assert!(decompress(&packed).unwrap() == text, "{format:?}");
            let twice = [packed.clone(), packed.clone()].concat();
            let back = decompress(&twice).unwrap();
            assert!(back.len() == 2 * text.len(), "{format:?}: {}", back.len());
            let step = (packed.len() / 97).max(1);
            for cut in (MAGIC_LEN..packed.len())
                .step_by(step)
                .chain([packed.len() - 1])
            {
                let e = decompress(&packed[..cut]).expect_err(&format!("{format:?} cut at {cut}"));
                let reason = e.to_string();
                assert!(
                    reason.starts_with(&format!("truncated {} data", format.name())),
                    "{format:?} cut at {cut}: {reason}"
                );
            }
        }
    }

    #[test]
    fn plain_streams_come_back_whole() {
        let data = b"plain text\n".to_vec();
        let (mut r, f) = wrap(Box::new(io::Cursor::new(data.clone()))).unwrap();
        assert_eq!(f, None);
        let mut back = Vec::new();
        r.read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
    }
}
