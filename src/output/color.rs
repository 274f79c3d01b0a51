//! Colours: GNU grep's defaults, overridden by `GREP_COLORS`.
//!
//! The escape sequences are byte-for-byte those of GNU grep (SGR start, then
//! `\x1b[K` unless `ne` is set), so scripts and eyes that know grep's
//! output see the same thing.

/// The SGR parameters for each part of the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Colors {
    pub selected_match: String,
    pub context_match: String,
    pub selected_line: String,
    pub context_line: String,
    pub file_name: String,
    pub line_number: String,
    pub byte_offset: String,
    pub separator: String,
    /// `rv`: swap `sl` and `cx` under `-v`.
    pub reverse: bool,
    /// `ne`: no `\x1b[K` after each SGR sequence.
    pub no_erase: bool,
}

impl Default for Colors {
    fn default() -> Self {
        Colors {
            selected_match: "01;31".into(),
            context_match: "01;31".into(),
            selected_line: String::new(),
            context_line: String::new(),
            file_name: "35".into(),
            line_number: "32".into(),
            byte_offset: "32".into(),
            separator: "36".into(),
            reverse: false,
            no_erase: false,
        }
    }
}

impl Colors {
    /// Defaults overridden by a `GREP_COLORS` value such as `ms=01;32:fn=34:ne`.
    /// Unknown or malformed entries are ignored, as GNU grep does.
    pub fn parse(spec: &str) -> Colors {
        let mut c = Colors::default();
        for item in spec.split(':') {
            let (key, value) = match item.split_once('=') {
                Some((k, v)) => (k, Some(v)),
                None => (item, None),
            };
            let valid = value.is_none_or(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b';'));
            if !valid {
                continue;
            }
            let v = value.unwrap_or_default().to_string();
            match (key, value.is_some()) {
                ("mt", true) => {
                    c.selected_match = v.clone();
                    c.context_match = v;
                }
                ("ms", true) => c.selected_match = v,
                ("mc", true) => c.context_match = v,
                ("sl", true) => c.selected_line = v,
                ("cx", true) => c.context_line = v,
                ("fn", true) => c.file_name = v,
                ("ln", true) => c.line_number = v,
                ("bn", true) => c.byte_offset = v,
                ("se", true) => c.separator = v,
                ("rv", false) => c.reverse = true,
                ("ne", false) => c.no_erase = true,
                _ => {}
            }
        }
        c
    }

    /// From the environment.
    pub fn from_env() -> Colors {
        match std::env::var("GREP_COLORS") {
            Ok(spec) if !spec.is_empty() => Colors::parse(&spec),
            _ => Colors::default(),
        }
    }

    /// Writes `text` wrapped in the SGR sequence `sgr` (nothing if empty).
    pub fn paint(&self, out: &mut Vec<u8>, sgr: &str, text: &[u8]) {
        if sgr.is_empty() || text.is_empty() {
            out.extend_from_slice(text);
            return;
        }
        self.start(out, sgr);
        out.extend_from_slice(text);
        self.end(out);
    }

    /// Starts the SGR sequence `sgr` (nothing if empty).
    pub fn start(&self, out: &mut Vec<u8>, sgr: &str) {
        if sgr.is_empty() {
            return;
        }
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(sgr.as_bytes());
        out.push(b'm');
        if !self.no_erase {
            out.extend_from_slice(b"\x1b[K");
        }
    }

    /// Ends an SGR sequence.
    pub fn end(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"\x1b[m");
        if !self.no_erase {
            out.extend_from_slice(b"\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grep_colors_overrides_and_flags() {
        let c = Colors::parse("mt=01;32:fn=34:ne:bogus=zz:ln=x");
        assert_eq!(c.selected_match, "01;32");
        assert_eq!(c.context_match, "01;32");
        assert_eq!(c.file_name, "34");
        assert_eq!(c.line_number, "32");
        assert!(c.no_erase);
    }

    #[test]
    fn paint_matches_gnu_bytes() {
        let mut out = Vec::new();
        Colors::default().paint(&mut out, "01;31", b"foo");
        assert_eq!(out, b"\x1b[01;31m\x1b[Kfoo\x1b[m\x1b[K");
    }
}
