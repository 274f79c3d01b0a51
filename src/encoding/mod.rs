//! Encodings: `--encoding`, BOM sniffing, patterns transcoded into a file's
//! encoding, and the plan each file is searched with.
//!
//! Three ways to search a file, chosen once from the patterns and
//! `--encoding` ([`EncodingPlan`]) and refined per file by its BOM
//! ([`FilePlan`]):
//!
//! * **Raw** (UTF-8, and `auto` without a UTF-16 BOM): bytes as they are. A
//!   UTF-8 BOM is left out of the search; offsets stay file offsets.
//! * **Transcoded** (a legacy ASCII-compatible encoding and literal
//!   patterns): each pattern is encoded into the file's encoding and the raw
//!   bytes are searched by the usual literal engines (or the GPU); a
//!   candidate counts only if it starts and ends on a character boundary,
//!   which [`boundary::BoundaryMatcher`] decides with the back-read. Printed
//!   lines are decoded to UTF-8. This is as fast as a plain byte search.
//! * **Decode** (UTF-16, or a legacy encoding with a regex, `-w`, or a
//!   non-ASCII `-i` pattern): the file is decoded to UTF-8 and searched with
//!   the UTF-8 matcher; offsets are mapped back to the file's own bytes
//!   ([`decode::Decoded`]). Correct for everything, but it decodes every byte.

pub mod boundary;
pub mod decode;

use encoding_rs::Encoding;

/// What `--encoding` asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingChoice {
    /// BOM sniffing (UTF-8, UTF-16LE/BE), else bytes as they are.
    Auto,
    /// This encoding (its BOM, if any, is skipped).
    Label(&'static Encoding),
}

/// Parses a WHATWG label (`shift_jis`, `sjis`, `windows-31j`, `euc-jp`,
/// `gbk`, `utf-16le`, ...) or `auto`.
pub fn parse_label(label: &str) -> Result<EncodingChoice, String> {
    if label.trim().eq_ignore_ascii_case("auto") {
        return Ok(EncodingChoice::Auto);
    }
    match Encoding::for_label(label.as_bytes()) {
        Some(e) if e == encoding_rs::REPLACEMENT => Err(format!("unknown encoding: {label}")),
        // Its decoder keeps state across lines (a newline inside a JIS run
        // is an error), so lines cannot be searched one by one.
        Some(e) if e == encoding_rs::ISO_2022_JP => Err(format!(
            "unsupported encoding: {label} (stateful; convert it with iconv first)"
        )),
        Some(e) => Ok(EncodingChoice::Label(e)),
        None => Err(format!("unknown encoding: {label}")),
    }
}

/// True for UTF-16LE and UTF-16BE.
pub fn is_utf16(enc: &'static Encoding) -> bool {
    enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE
}

/// How the compiled patterns expect files to be searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingPlan {
    /// Bytes as they are (UTF-8 or `auto`); `sniff_utf16`: a UTF-16 BOM
    /// switches a file to decoding (`auto` only).
    Raw { sniff_utf16: bool },
    /// Patterns transcoded into this ASCII-compatible encoding; raw search
    /// with boundary checks; printed text decoded.
    Transcoded(&'static Encoding),
    /// Files decoded from this encoding to UTF-8 and searched there.
    Decode(&'static Encoding),
}

impl EncodingPlan {
    /// The encoding printed lines are decoded from, when lines are raw
    /// bytes in an encoding other than UTF-8.
    pub fn printed_decoding(self) -> Option<&'static Encoding> {
        match self {
            EncodingPlan::Transcoded(e) => Some(e),
            _ => None,
        }
    }

    /// How one file whose first bytes are `head` is searched.
    pub fn for_file(self, head: &[u8]) -> FilePlan {
        let bom = Encoding::for_bom(head);
        match self {
            EncodingPlan::Raw { sniff_utf16 } => match bom {
                Some((e, n)) if e == encoding_rs::UTF_8 => FilePlan::Raw { skip: n },
                Some((e, n)) if sniff_utf16 && is_utf16(e) => FilePlan::Decode { enc: e, skip: n },
                _ => FilePlan::Raw { skip: 0 },
            },
            EncodingPlan::Transcoded(_) => FilePlan::Raw { skip: 0 },
            EncodingPlan::Decode(enc) => {
                let skip = match bom {
                    Some((e, n)) if e == enc => n,
                    _ => 0,
                };
                FilePlan::Decode { enc, skip }
            }
        }
    }
}

/// How one file is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilePlan {
    /// The bytes from `skip` on (a BOM before it), as they are.
    Raw { skip: usize },
    /// The bytes from `skip` on, decoded from `enc` to UTF-8.
    Decode { enc: &'static Encoding, skip: usize },
}

/// Bytes read from the start of a stream to sniff a BOM.
pub const BOM_PROBE: usize = 3;

/// `pattern` (UTF-8) in `enc`, or the message for a character `enc` cannot
/// represent (or a pattern that is not UTF-8).
pub fn transcode(pattern: &[u8], enc: &'static Encoding) -> Result<Vec<u8>, String> {
    let shown = String::from_utf8_lossy(pattern);
    let cannot = || format!("{shown}: cannot be represented in {}", enc.name());
    let text = std::str::from_utf8(pattern).map_err(|_| cannot())?;
    if is_utf16(enc) || enc == encoding_rs::UTF_8 {
        // Searched as UTF-8 after decoding: every character is representable.
        return Ok(pattern.to_vec());
    }
    let (bytes, _, unmappable) = enc.encode(text);
    if unmappable {
        return Err(cannot());
    }
    Ok(bytes.into_owned())
}

/// `bytes` decoded from `enc` (UTF-8 when `None`: as they are), invalid
/// sequences as U+FFFD.
pub fn decoded<'b>(enc: Option<&'static Encoding>, bytes: &'b [u8]) -> std::borrow::Cow<'b, [u8]> {
    use std::borrow::Cow;
    match enc {
        None => Cow::Borrowed(bytes),
        Some(e) => match e.decode_without_bom_handling(bytes).0 {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(parse_label("auto"), Ok(EncodingChoice::Auto));
        assert_eq!(
            parse_label("sjis"),
            Ok(EncodingChoice::Label(encoding_rs::SHIFT_JIS))
        );
        assert_eq!(
            parse_label("windows-31j"),
            Ok(EncodingChoice::Label(encoding_rs::SHIFT_JIS))
        );
        assert_eq!(
            parse_label("UTF-16"),
            Ok(EncodingChoice::Label(encoding_rs::UTF_16LE))
        );
        assert_eq!(
            parse_label("klingon"),
            Err("unknown encoding: klingon".to_string())
        );
        assert!(parse_label("iso-2022-kr").is_err());
        assert!(parse_label("iso-2022-jp").is_err());
    }

    #[test]
    fn transcodes_or_refuses() {
        assert_eq!(
            transcode("ソ".as_bytes(), encoding_rs::SHIFT_JIS),
            Ok(vec![0x83, 0x5c])
        );
        assert_eq!(
            transcode("€".as_bytes(), encoding_rs::SHIFT_JIS),
            Err("€: cannot be represented in Shift_JIS".to_string())
        );
        assert_eq!(transcode(b"abc", encoding_rs::EUC_KR), Ok(b"abc".to_vec()));
    }

    #[test]
    fn file_plans() {
        let auto = EncodingPlan::Raw { sniff_utf16: true };
        assert_eq!(auto.for_file(b"\xef\xbb\xbfx"), FilePlan::Raw { skip: 3 });
        assert_eq!(
            auto.for_file(b"\xff\xfex\x00"),
            FilePlan::Decode {
                enc: encoding_rs::UTF_16LE,
                skip: 2
            }
        );
        assert_eq!(auto.for_file(b"abc"), FilePlan::Raw { skip: 0 });
        let utf8 = EncodingPlan::Raw { sniff_utf16: false };
        assert_eq!(utf8.for_file(b"\xff\xfex\x00"), FilePlan::Raw { skip: 0 });
        let be = EncodingPlan::Decode(encoding_rs::UTF_16BE);
        assert_eq!(
            be.for_file(b"\xfe\xff\x00x"),
            FilePlan::Decode {
                enc: encoding_rs::UTF_16BE,
                skip: 2
            }
        );
    }
}
