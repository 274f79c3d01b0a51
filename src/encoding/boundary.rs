//! Character boundaries in legacy multi-byte encodings: the back-read.
//!
//! A raw byte search for a transcoded pattern can hit across characters: in
//! Shift-JIS "ソ" is `83 5C` and `5C` is `\`, so `\` occurs inside "ソ".
//! An occurrence is a match only when it starts (and ends) where a character
//! starts. Deciding that at an arbitrary offset is the back-read:
//!
//! 1. Walk back from the offset to a *sure* boundary: a byte after which
//!    the decoder is always between characters (one that can never be a
//!    lead byte, such as ASCII punctuation or the line terminator).
//! 2. Walk forward from there character by character, exactly as the WHATWG
//!    decoder (encoding_rs) segments bytes, invalid ones included (a lead
//!    byte followed by an ASCII byte that does not complete a character is
//!    an error of one byte, and the ASCII byte is a character of its own).
//! 3. The offset is a boundary when the walk lands on it.
//!
//! The line terminator (`\n`, or NUL) is never part of a multi-byte
//! character in these encodings, so every line start is a boundary and a
//! line can be checked on its own: that is what lets GPU candidates feed the
//! same check. The unit tests compare [`Scheme::is_boundary`] with decoding
//! by encoding_rs.

use crate::engine::Matcher;
use encoding_rs::Encoding;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

/// The byte structure of an ASCII-compatible multi-byte encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Shift_JIS (also windows-31j, sjis, ms_kanji).
    ShiftJis,
    /// EUC-JP (two bytes, `8E` half-width kana, `8F` three-byte JIS X 0212).
    EucJp,
    /// EUC-KR (with the UHC extension, whose trail bytes include letters).
    EucKr,
    /// Big5 (HKSCS).
    Big5,
    /// GBK and gb18030 (one decoder: two bytes, or four with digits).
    Gb18030,
}

impl Scheme {
    /// Every scheme.
    pub const ALL: [Scheme; 5] = [
        Scheme::ShiftJis,
        Scheme::EucJp,
        Scheme::EucKr,
        Scheme::Big5,
        Scheme::Gb18030,
    ];

    /// The scheme of `enc`; `None` when every byte offset is a boundary
    /// (single-byte encodings) or the encoding is not searched raw.
    pub fn of(enc: &'static Encoding) -> Option<Scheme> {
        use encoding_rs::*;
        if enc == SHIFT_JIS {
            Some(Scheme::ShiftJis)
        } else if enc == EUC_JP {
            Some(Scheme::EucJp)
        } else if enc == EUC_KR {
            Some(Scheme::EucKr)
        } else if enc == BIG5 {
            Some(Scheme::Big5)
        } else if enc == GBK || enc == GB18030 {
            Some(Scheme::Gb18030)
        } else {
            None
        }
    }

    fn encoding(self) -> &'static Encoding {
        match self {
            Scheme::ShiftJis => encoding_rs::SHIFT_JIS,
            Scheme::EucJp => encoding_rs::EUC_JP,
            Scheme::EucKr => encoding_rs::EUC_KR,
            Scheme::Big5 => encoding_rs::BIG5,
            Scheme::Gb18030 => encoding_rs::GB18030,
        }
    }

    /// `b` may start a multi-byte character.
    #[inline]
    pub fn is_lead(self, b: u8) -> bool {
        match self {
            Scheme::ShiftJis => matches!(b, 0x81..=0x9f | 0xe0..=0xfc),
            Scheme::EucJp => matches!(b, 0x8e | 0x8f | 0xa1..=0xfe),
            Scheme::EucKr | Scheme::Big5 | Scheme::Gb18030 => matches!(b, 0x81..=0xfe),
        }
    }

    /// After `b`, whatever came before, the decoder is between characters.
    #[inline]
    pub(crate) fn sure_after(self, b: u8) -> bool {
        match self {
            // A digit may be the second byte of a four-byte sequence.
            Scheme::Gb18030 => !self.is_lead(b) && !b.is_ascii_digit(),
            _ => !self.is_lead(b),
        }
    }

    /// A lead byte followed by the ASCII byte `t` forms one character (not
    /// an error of one byte with `t` decoded on its own).
    fn ascii_pair(self, lead: u8, t: u8) -> bool {
        lead >= 0x80 && t < 0x80 && self.pair_table()[usize::from(lead - 0x80)] >> t & 1 == 1
    }

    /// The `ascii_pair` table as the GPU takes it (`backread` in
    /// kernels/backread.cu):
    /// for lead byte `0x80 + l`, bit `t % 32` of word `4 * l + t / 32` is
    /// `ascii_pair(0x80 + l, t)`.
    pub(crate) fn ascii_pair_words(self) -> [u32; 512] {
        let mut words = [0u32; 512];
        for (l, bits) in self.pair_table().iter().enumerate() {
            for k in 0..4 {
                words[4 * l + k] = (bits >> (32 * k)) as u32;
            }
        }
        words
    }

    /// Per lead byte `0x80 + l`: bit `t` says whether `[0x80 + l, t]`
    /// decodes as one character (encoding_rs, computed once).
    fn pair_table(self) -> &'static [u128] {
        static TABLES: [OnceLock<Vec<u128>>; 5] = [const { OnceLock::new() }; 5];
        TABLES[self as usize].get_or_init(|| {
            let enc = self.encoding();
            (0x80..=0xffu8)
                .map(|l| {
                    (0..0x80u8).fold(0u128, |bits, t| {
                        let whole = enc
                            .decode_without_bom_handling_and_without_replacement(&[l, t])
                            .is_some();
                        bits | (u128::from(whole) << t)
                    })
                })
                .collect()
        })
    }

    /// The length of the character (or error) starting at `hay[p]`, the
    /// decoder being between characters there. The end of `hay` is read as
    /// a line terminator.
    pub fn char_len(self, hay: &[u8], p: usize) -> usize {
        let b = hay[p];
        if !self.is_lead(b) {
            return 1;
        }
        let Some(&t) = hay.get(p + 1) else {
            return 1;
        };
        match self {
            Scheme::ShiftJis | Scheme::EucKr | Scheme::Big5 => {
                if t >= 0x80 || self.ascii_pair(b, t) {
                    2
                } else {
                    1
                }
            }
            Scheme::EucJp => match b {
                0x8f if matches!(t, 0xa1..=0xfe) => match hay.get(p + 2) {
                    Some(&u) if u >= 0x80 => 3,
                    _ => 2,
                },
                _ if t >= 0x80 => 2,
                _ => 1,
            },
            Scheme::Gb18030 => {
                if t.is_ascii_digit() {
                    // A complete four-byte shape is one character, or one
                    // error of four bytes (as encoding_rs decodes it).
                    match (hay.get(p + 2), hay.get(p + 3)) {
                        (Some(0x81..=0xfe), Some(v)) if v.is_ascii_digit() => 4,
                        _ => 1,
                    }
                } else if t >= 0x80 || self.ascii_pair(b, t) {
                    2
                } else {
                    1
                }
            }
        }
    }

    /// True when a character starts at `pos` (or `pos` is the end of `hay`
    /// and a character ends there). `hay[0]` must start a character.
    pub fn is_boundary(self, hay: &[u8], pos: usize) -> bool {
        self.walk(hay, 0, pos).0 == pos
    }

    /// Walks to `pos` from the nearest sure boundary at or after `floor` (a
    /// known boundary): the first character start at or after `pos`, and
    /// the last one at or before it.
    fn walk(self, hay: &[u8], floor: usize, pos: usize) -> (usize, usize) {
        let mut s = pos.min(hay.len());
        while s > floor && !self.sure_after(hay[s - 1]) {
            s -= 1;
        }
        let mut p = s;
        let mut last = s;
        while p < pos && p < hay.len() {
            last = p;
            p += self.char_len(hay, p);
        }
        if p == pos {
            last = p;
        }
        (p, last)
    }
}

/// Wraps a raw-byte matcher (memmem, Aho-Corasick, the GPU's offsets) and
/// keeps only candidates that start and end on character boundaries,
/// searching on after a rejected one.
pub struct BoundaryMatcher {
    inner: Arc<dyn Matcher>,
    scheme: Scheme,
}

impl BoundaryMatcher {
    pub fn new(inner: Arc<dyn Matcher>, scheme: Scheme) -> BoundaryMatcher {
        BoundaryMatcher { inner, scheme }
    }
}

impl Matcher for BoundaryMatcher {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let mut at = at;
        // A character start at or before every candidate still to come.
        let mut floor = 0;
        loop {
            let m = self.inner.find_at(hay, at)?;
            let (next, last) = self.scheme.walk(hay, floor, m.start);
            floor = last;
            if next == m.start {
                let (end, _) = self.scheme.walk(hay, m.start, m.end);
                if end == m.end {
                    return Some(m);
                }
                at = m.start + 1;
            } else {
                // Nothing starts inside the character holding `m.start`.
                at = next.max(m.start + 1);
            }
            if at > hay.len() {
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use proptest::prelude::*;

    #[derive(Debug, PartialEq)]
    enum Tok {
        Char(char),
        /// A malformed sequence of this many bytes.
        Bad(u8),
    }

    /// What encoding_rs decodes `bytes` into, errors with their lengths.
    fn tokens(enc: &'static Encoding, bytes: &[u8]) -> Vec<Tok> {
        let mut d = enc.new_decoder_without_bom_handling();
        let mut out = vec![0u8; bytes.len() * 4 + 16];
        let mut src = bytes;
        let mut toks = Vec::new();
        loop {
            let (r, read, written) = d.decode_to_utf8_without_replacement(src, &mut out, true);
            let text = std::str::from_utf8(&out[..written]).unwrap();
            toks.extend(text.chars().map(Tok::Char));
            src = &src[read..];
            match r {
                encoding_rs::DecoderResult::Malformed(n, _) => toks.push(Tok::Bad(n)),
                _ => return toks,
            }
        }
    }

    /// Character starts as encoding_rs decodes `hay` as a line (followed by
    /// a newline): `i` is one when decoding `hay[..i]` and the rest of the
    /// line as lines of their own gives the same characters and errors as
    /// decoding the whole line.
    fn oracle_starts(enc: &'static Encoding, hay: &[u8]) -> Vec<usize> {
        let line = |b: &[u8]| {
            let mut v = b.to_vec();
            v.push(b'\n');
            tokens(enc, &v)
        };
        let whole = line(hay);
        (0..=hay.len())
            .filter(|&i| {
                // The head as a line of its own, less its newline: a cut
                // reads like a line end, as the searcher's lines do.
                let mut head = line(&hay[..i]);
                head.pop();
                head.extend(line(&hay[i..]));
                head == whole
            })
            .collect()
    }

    fn starts(s: Scheme, hay: &[u8]) -> Vec<usize> {
        (0..=hay.len()).filter(|&i| s.is_boundary(hay, i)).collect()
    }

    #[test]
    fn shift_jis_trail_bytes() {
        let s = Scheme::ShiftJis;
        // "ソ" = 83 5C, "表" = 95 5C, "ア" = 83 41.
        let hay = b"a\x83\x5c\x95\x5c\x83\x41\\";
        assert_eq!(starts(s, hay), vec![0, 1, 3, 5, 7, 8]);
        // A lead byte before an ASCII byte that cannot be a trail.
        assert_eq!(starts(s, b"\x83 x"), vec![0, 1, 2, 3]);
    }

    #[test]
    fn ascii_pair_words_hold_ascii_pair() {
        for s in Scheme::ALL {
            let words = s.ascii_pair_words();
            for lead in 0x80..=0xffu8 {
                for t in 0..0x80u8 {
                    let l = usize::from(lead - 0x80);
                    let bit = words[4 * l + usize::from(t / 32)] >> (t % 32) & 1 == 1;
                    assert_eq!(bit, s.ascii_pair(lead, t), "{s:?} {lead:02x} {t:02x}");
                }
            }
        }
    }

    #[test]
    fn boundary_matcher_skips_trail_hits() {
        let m = BoundaryMatcher::new(Arc::new(Literal::new(b"\\")), Scheme::ShiftJis);
        let hay = b"\x83\x5c\x95\x5c-\\";
        assert_eq!(m.find_at(hay, 0), Some(5..6));
        let m = BoundaryMatcher::new(Arc::new(Literal::new(b"A")), Scheme::ShiftJis);
        assert_eq!(m.find_at(b"\x83\x41\x83\x41", 0), None);
        // EUC-JP: "ア" is A5 A2, "「" is A1 D6; "「" hit across "ア" and "「"?
        let m = BoundaryMatcher::new(Arc::new(Literal::new(b"\xa2\xa1")), Scheme::EucJp);
        assert_eq!(m.find_at(b"\xa5\xa2\xa1\xd6", 0), None);
        assert_eq!(m.find_at(b"\xa5\xa2\xa2\xa1", 0), Some(2..4));
    }

    #[test]
    fn agrees_with_encoding_rs_on_hand_picked_bytes() {
        let cases: &[&[u8]] = &[
            b"\x81\x30\x81\x30x",
            b"\x81\x30\x81x",
            b"\x81\x30\x20",
            b"\x8f\xa1\xa1a\x8f\xa1a",
            b"\x8e\xa1\x8e\x41",
            b"\x85\x40\x88\x62\x81\x41",
            b"\xff\x80\xa0\xfd",
        ];
        for s in Scheme::ALL {
            for hay in cases {
                assert_eq!(
                    starts(s, hay),
                    oracle_starts(s.encoding(), hay),
                    "{s:?} {hay:02x?}"
                );
            }
        }
    }

    fn bytes() -> impl Strategy<Value = Vec<u8>> {
        let interesting = prop::sample::select(vec![
            0x20u8, 0x30, 0x39, 0x40, 0x41, 0x5c, 0x62, 0x7e, 0x7f, 0x80, 0x81, 0x85, 0x8e, 0x8f,
            0x9f, 0xa0, 0xa1, 0xa4, 0xb0, 0xc8, 0xdf, 0xe0, 0xfc, 0xfd, 0xfe, 0xff,
        ]);
        prop::collection::vec(prop_oneof![interesting, any::<u8>()], 0..24)
            .prop_map(|v| v.into_iter().filter(|&b| b != b'\n').collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        /// On any bytes (a line), the back-read finds the character starts
        /// encoding_rs's decoding implies.
        #[test]
        fn back_read_equals_decoder(hay in bytes(), k in 0usize..5) {
            let s = Scheme::ALL[k];
            prop_assert_eq!(starts(s, &hay), oracle_starts(s.encoding(), &hay));
        }
    }
}
