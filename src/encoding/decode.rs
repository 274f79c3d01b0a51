//! The slow path: a whole file decoded to UTF-8, with its offsets mapped
//! back to the file's own bytes.
//!
//! Used for UTF-16 and for searches the raw path cannot do exactly in a
//! legacy encoding (regexes, `-w`, `-i` with non-ASCII letters). Lines
//! correspond one to one: the terminator decodes to itself and is never
//! part of another character, in every encoding searched this way. So a
//! line's file offset is found by counting terminators from the nearest
//! checkpoint (one per 4 KiB of decoded text, at a line start), and an
//! offset inside a line by decoding that line's bytes again.

use super::is_utf16;
use encoding_rs::Encoding;

/// Decoded text is checkpointed about this often.
const CHECKPOINT_EVERY: usize = 4096;

/// A file decoded to UTF-8.
pub struct Decoded<'s> {
    /// The decoded text (invalid input as U+FFFD).
    pub text: Vec<u8>,
    source: &'s [u8],
    enc: &'static Encoding,
    terminator: u8,
    /// `(decoded offset, file offset)` of line starts, increasing.
    checkpoints: Vec<(usize, usize)>,
}

impl<'s> Decoded<'s> {
    /// Decodes `source[skip..]` (a BOM before `skip`) from `enc`.
    pub fn new(source: &'s [u8], skip: usize, enc: &'static Encoding, terminator: u8) -> Self {
        let mut d = Decoded {
            text: Vec::with_capacity(source.len() + source.len() / 2),
            source,
            enc,
            terminator,
            checkpoints: Vec::new(),
        };
        let mut decoder = enc.new_decoder_without_bom_handling();
        let mut pos = skip.min(source.len());
        loop {
            d.checkpoints.push((d.text.len(), pos));
            let end = d
                .terminator_at_or_after(pos + CHECKPOINT_EVERY)
                .map_or(source.len(), |t| t + d.unit());
            let last = end == source.len();
            let mut src = &source[pos..end];
            loop {
                let need = decoder
                    .max_utf8_buffer_length(src.len())
                    .unwrap_or(src.len() * 3 + 16);
                let old = d.text.len();
                d.text.resize(old + need, 0);
                let (_, read, written, _) = decoder.decode_to_utf8(src, &mut d.text[old..], last);
                d.text.truncate(old + written);
                src = &src[read..];
                if src.is_empty() {
                    break;
                }
            }
            if last {
                break;
            }
            pos = end;
        }
        d
    }

    /// Bytes per code unit (2 for UTF-16).
    fn unit(&self) -> usize {
        if is_utf16(self.enc) {
            2
        } else {
            1
        }
    }

    /// The terminator in the file's encoding.
    fn encoded_terminator(&self) -> Vec<u8> {
        let t = self.terminator;
        if self.enc == encoding_rs::UTF_16LE {
            vec![t, 0]
        } else if self.enc == encoding_rs::UTF_16BE {
            vec![0, t]
        } else {
            vec![t]
        }
    }

    /// The file offset of the first terminator at or after `from`, on a
    /// code unit of the text (which starts at the first checkpoint).
    fn terminator_at_or_after(&self, from: usize) -> Option<usize> {
        let unit = self.unit();
        let origin = self.checkpoints.first().map_or(0, |c| c.1);
        let mut from = from;
        if !(from - origin).is_multiple_of(unit) {
            from += unit - (from - origin) % unit;
        }
        if unit == 1 {
            return memchr::memchr(self.terminator, self.source.get(from..)?).map(|i| from + i);
        }
        let needle = self.encoded_terminator();
        let mut at = from;
        while at < self.source.len() {
            let i = at + memchr::memmem::find(&self.source[at..], &needle)?;
            if (i - origin).is_multiple_of(2) {
                return Some(i);
            }
            at = i + 1;
        }
        None
    }

    /// The file offset of the line starting at decoded offset `at`.
    pub fn line_offset(&self, at: usize) -> u64 {
        let k = self.checkpoints.partition_point(|c| c.0 <= at).max(1) - 1;
        let (dec, mut src) = self.checkpoints[k];
        let lines = memchr::memchr_iter(self.terminator, &self.text[dec..at]).count();
        for _ in 0..lines {
            match self.terminator_at_or_after(src) {
                Some(t) => src = t + self.unit(),
                None => return self.source.len() as u64,
            }
        }
        src as u64
    }

    /// The file offset of decoded byte `in_line` of the line that starts at
    /// file offset `line_offset`: where the bytes of the characters before it
    /// end. Exact for valid input, and for an ASCII byte reread after an
    /// invalid lead byte.
    pub fn offset_in_line(&self, line_offset: u64, in_line: usize) -> u64 {
        let start = line_offset as usize;
        if in_line == 0 || start >= self.source.len() {
            return line_offset;
        }
        let mut decoder = self.enc.new_decoder_without_bom_handling();
        let mut out = [0u8; 64];
        let mut produced = 0;
        for (i, b) in self.source[start..].iter().enumerate() {
            let (_, _, written, _) =
                decoder.decode_to_utf8(std::slice::from_ref(b), &mut out, false);
            produced += written;
            if produced == in_line {
                // The character before it ends with this byte.
                return (start + i + 1) as u64;
            }
            if produced > in_line {
                // Output for several characters at once: an error, then
                // this byte decoded on its own (an ASCII byte after a lead).
                return (start + i) as u64;
            }
        }
        self.source.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_lines_map_to_file_offsets() {
        let text = "ab\nソ\n\nx";
        let mut src = vec![0xff, 0xfe];
        for u in text.encode_utf16() {
            src.extend_from_slice(&u.to_le_bytes());
        }
        let d = Decoded::new(&src, 2, encoding_rs::UTF_16LE, b'\n');
        assert_eq!(d.text, text.as_bytes());
        // Decoded line starts: 0, 3, 7, 8 → file 2, 8, 12, 14.
        assert_eq!(d.line_offset(0), 2);
        assert_eq!(d.line_offset(3), 8);
        assert_eq!(d.line_offset(7), 12);
        assert_eq!(d.line_offset(8), 14);
        assert_eq!(d.offset_in_line(2, 1), 4);
        assert_eq!(d.offset_in_line(8, 3), 10);
    }

    #[test]
    fn sjis_offsets_inside_lines() {
        // "aソb\n表c": ソ = 83 5C, 表 = 95 5C.
        let src = b"a\x83\x5cb\n\x95\x5cc";
        let d = Decoded::new(src, 0, encoding_rs::SHIFT_JIS, b'\n');
        assert_eq!(d.text, "aソb\n表c".as_bytes());
        assert_eq!(d.line_offset(6), 5);
        assert_eq!(d.offset_in_line(0, 1), 1);
        assert_eq!(d.offset_in_line(0, 4), 3);
        assert_eq!(d.offset_in_line(5, 3), 7);
        // A lead byte before an ASCII byte: U+FFFD, then "0" at file offset 1.
        let d = Decoded::new(b"\x830", 0, encoding_rs::SHIFT_JIS, b'\n');
        assert_eq!(d.text, "\u{fffd}0".as_bytes());
        assert_eq!(d.offset_in_line(0, 3), 1);
    }

    #[test]
    fn many_checkpoints() {
        let line = "ソ表x\n".repeat(2000);
        let (src, _, _) = encoding_rs::SHIFT_JIS.encode(&line);
        let d = Decoded::new(&src, 0, encoding_rs::SHIFT_JIS, b'\n');
        assert!(d.checkpoints.len() > 2);
        // Line k starts at decoded 8k, file 6k.
        for k in [0usize, 1, 700, 1999] {
            assert_eq!(d.line_offset(8 * k), 6 * k as u64);
        }
    }
}
