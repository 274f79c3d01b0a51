//! lz4 frames, read one after another and checked for their end.
//!
//! `lz4_flex`'s frame decoder stops at the end of each frame as if the input
//! ended (`lz4 -c a b > ab.lz4` holds two frames), and takes an input that
//! stops between two blocks for a frame that ended there, so an archive cut
//! after a block (its end mark and checksum lost) would pass as whole.
//! [`Frames`] reads on past frame ends (and skippable frames, which the
//! decoder leaves to its caller) until the input really ends, and
//! [`Lz4End`] follows the frame layout (header, block sizes, end mark,
//! checksums) of the compressed bytes the decoder reads, failing at end of
//! input unless that input ended between frames.

use lz4_flex::frame::FrameDecoder;
use std::io::{self, Read};

/// The decompressed content of every lz4 frame in `R`, in order.
pub struct Frames<R: Read> {
    decoder: FrameDecoder<Lz4End<R>>,
}

impl<R: Read> Frames<R> {
    pub fn new(inner: R) -> Self {
        Frames {
            decoder: FrameDecoder::new(Lz4End::new(inner)),
        }
    }
}

impl<R: Read> Read for Frames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = match self.decoder.read(buf) {
                Ok(n) => n,
                Err(e) => match skippable(&e) {
                    // The decoder reads a skippable frame's header and leaves
                    // its content to the caller.
                    Some(len) => {
                        let inner = self.decoder.get_mut();
                        let skipped = io::copy(&mut inner.take(len), &mut io::sink())?;
                        if skipped < len {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                "unexpected end of lz4 skippable frame",
                            ));
                        }
                        continue;
                    }
                    None => return Err(e),
                },
            };
            // 0 at a frame's end mark: the next frame may follow.
            if n > 0 || buf.is_empty() || self.decoder.get_ref().ended {
                return Ok(n);
            }
        }
    }
}

/// The length of the skippable frame `e` reports, if it is that.
fn skippable(e: &io::Error) -> Option<u64> {
    match e.get_ref()?.downcast_ref::<lz4_flex::frame::Error>()? {
        lz4_flex::frame::Error::SkippableFrame(len) => Some(u64::from(*len)),
        _ => None,
    }
}

const LZ4_MAGIC: u32 = 0x184D_2204;
const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;

/// The next field of the frame layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// A frame's magic number (or the end of input).
    Magic,
    /// The frame descriptor's flag and block-descriptor bytes.
    Descriptor,
    /// A skippable frame's length.
    SkippableSize,
    /// A block's size, or the end mark (0).
    BlockSize,
    /// The content checksum after the end mark.
    ContentChecksum,
    /// A layout this reader does not follow (legacy frames, garbage: the
    /// decoder judges those).
    Untracked,
}

/// Passes `inner` on, following its lz4 frame layout.
pub struct Lz4End<R> {
    inner: R,
    step: Step,
    field: Vec<u8>,
    need: usize,
    skip: u64,
    flags: u8,
    /// The input has ended (between frames).
    ended: bool,
}

impl<R: Read> Lz4End<R> {
    pub fn new(inner: R) -> Self {
        Lz4End {
            inner,
            step: Step::Magic,
            field: Vec::with_capacity(4),
            need: 4,
            skip: 0,
            flags: 0,
            ended: false,
        }
    }

    /// Follows the layout over `data`, the next bytes of the input.
    fn follow(&mut self, data: &[u8]) {
        let mut i = 0;
        while i < data.len() && self.step != Step::Untracked {
            if self.skip > 0 {
                let n = self.skip.min((data.len() - i) as u64);
                self.skip -= n;
                i += n as usize;
                continue;
            }
            let take = (self.need - self.field.len()).min(data.len() - i);
            self.field.extend_from_slice(&data[i..i + take]);
            i += take;
            if self.field.len() == self.need {
                self.advance();
                self.field.clear();
            }
        }
    }

    /// The field just read is whole: decides what comes next.
    fn advance(&mut self) {
        let word = |f: &[u8]| match f {
            [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
            _ => 0,
        };
        let (step, need) = match self.step {
            Step::Magic => match word(&self.field) {
                LZ4_MAGIC => (Step::Descriptor, 2),
                m if m & SKIPPABLE_MASK == SKIPPABLE_MAGIC => (Step::SkippableSize, 4),
                _ => (Step::Untracked, 0),
            },
            Step::Descriptor => {
                self.flags = self.field[0];
                let content_size = if self.flags & 0x08 != 0 { 8 } else { 0 };
                let dict_id = if self.flags & 0x01 != 0 { 4 } else { 0 };
                // And the header checksum byte.
                self.skip = content_size + dict_id + 1;
                (Step::BlockSize, 4)
            }
            Step::SkippableSize => {
                self.skip = u64::from(word(&self.field));
                (Step::Magic, 4)
            }
            Step::BlockSize => match word(&self.field) {
                0 if self.flags & 0x04 != 0 => (Step::ContentChecksum, 4),
                0 => (Step::Magic, 4),
                size => {
                    let checksum = if self.flags & 0x10 != 0 { 4 } else { 0 };
                    self.skip = u64::from(size & 0x7FFF_FFFF) + checksum;
                    (Step::BlockSize, 4)
                }
            },
            Step::ContentChecksum => (Step::Magic, 4),
            Step::Untracked => (Step::Untracked, 0),
        };
        self.step = step;
        self.need = need;
    }

    /// True when the input may end here.
    fn at_boundary(&self) -> bool {
        match self.step {
            Step::Untracked => true,
            Step::Magic => self.field.is_empty() && self.skip == 0,
            _ => false,
        }
    }
}

impl<R: Read> Read for Lz4End<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            if !self.at_boundary() {
                // Not UnexpectedEof: the decoder takes that for a frame's end.
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "unexpected end of lz4 frame",
                ));
            }
            self.ended = true;
        }
        self.follow(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lz4_flex::frame::{BlockMode, BlockSize, FrameEncoder, FrameInfo};
    use std::io::Write;

    fn frame(info: FrameInfo, text: &[u8]) -> Vec<u8> {
        let mut e = FrameEncoder::with_frame_info(info, Vec::new());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    }

    fn read_all(data: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Frames::new(data).read_to_end(&mut out)?;
        Ok(out)
    }

    /// Every header flag (content size, block and content checksums, linked
    /// blocks), a skippable frame between two frames: whole input reads
    /// back, every cut fails.
    #[test]
    fn every_layout_is_followed_to_its_end() {
        // About 130 KB: three blocks of 64 KiB.
        let text: Vec<u8> = (0..8_000u32)
            .flat_map(|i| format!("{i} {}\n", i.wrapping_mul(2654435761)).into_bytes())
            .collect();
        let small = || FrameInfo::new().block_size(BlockSize::Max64KB);
        let infos = [
            small(),
            small()
                .content_checksum(true)
                .block_checksums(true)
                .content_size(Some(text.len() as u64)),
            small().block_mode(BlockMode::Linked),
        ];
        let skippable = [
            &0x184D_2A53u32.to_le_bytes()[..],
            &3u32.to_le_bytes(),
            b"xyz",
        ]
        .concat();
        for info in infos {
            let one = frame(info, &text);
            let all = [one.clone(), skippable.clone(), one.clone()].concat();
            assert!(read_all(&all).unwrap() == [&text[..], &text[..]].concat());
            let cuts = (1..all.len()).step_by(all.len() / 150 + 1);
            let boundaries = [one.len(), one.len() + skippable.len()];
            for cut in cuts.chain(boundaries).chain(boundaries.map(|b| b + 1)) {
                let whole = boundaries.contains(&cut);
                let read = read_all(&all[..cut]);
                assert_eq!(read.is_ok(), whole, "cut at {cut} of {}", all.len());
            }
        }
    }
}
