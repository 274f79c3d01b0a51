//! POSIX basic and extended regular expressions → the `regex` crate's syntax.
//!
//! grep's users type POSIX syntax; the `regex` crate speaks a Perl-like one.
//! The translation is a single left-to-right pass that reads the pattern as
//! GNU grep does (its DFA's lexer, and glibc's parser for what is an error)
//! and writes only plain `regex` syntax, so nothing of the crate's own
//! (lazy `+?`, flag groups `(?i)`, `\d`, `\p{..}`) can come from the user:
//!
//! - BRE's backslashed operators; `^` an anchor only first (or after `\(`,
//!   `\|`), `$` only last (or before `\)`, `\|`); ERE's anchors anywhere.
//! - A repetition with nothing before it but anchors (`*a`, `^*`, `\<*`,
//!   `(+a)`) is a literal character in BRE; in ERE it repeats the empty
//!   string, with GNU's warning "* at start of expression".
//! - Stacked repetitions (`a+?`, `a*{2}`) repeat the repetition; a repeated
//!   anchor (`a^*`) is grouped, as the crate repeats no bare assertion.
//! - Intervals as glibc reads them (see `interval`), brackets and POSIX
//!   classes as Unicode sets (see `bracket`, `posix_class`); `\w`, `\s` are
//!   GNU's `[_[:alnum:]]` and `[[:space:]]`; `` \` `` and `\'` are line
//!   anchors, as GNU grep matches line by line.
//!
//! Back-references have no equivalent and are rejected clearly. Bytes that
//! are not UTF-8 become `(?-u:\xNN)`. Errors carry GNU grep's messages.

use super::bracket::bracket;
use super::interval::{interval, Interval};
use super::posix_class;

/// A translated pattern and the warnings GNU grep would print for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub regex: String,
    pub warnings: Vec<String>,
}

/// Translates one pattern. `basic` selects BRE (`-G`), else ERE (`-E`);
/// under `ignore_case` GNU grep matches `[:upper:]`/`[:lower:]` as `[:alpha:]`.
pub fn translate(pat: &[u8], basic: bool, ignore_case: bool) -> Result<Translated, String> {
    let mut t = Translator {
        pat,
        i: 0,
        out: String::with_capacity(pat.len() * 2),
        basic,
        ignore_case,
        groups: Vec::new(),
        operand: None,
        caret: true,
        warnings: Vec::new(),
    };
    t.run()?;
    Ok(Translated {
        regex: t.out,
        warnings: t.warnings,
    })
}

/// Escapes a fixed string into a regex that matches it literally.
pub fn escape_literal(lit: &[u8]) -> String {
    let mut out = String::with_capacity(lit.len() * 2);
    let mut i = 0;
    while i < lit.len() {
        let (ch, len) = decode(&lit[i..]);
        push_char(&mut out, ch);
        i += len;
    }
    out
}

/// One character of a pattern: a Unicode scalar or a byte that is not UTF-8.
#[derive(Clone, Copy)]
pub(super) enum Ch {
    Char(char),
    Byte(u8),
}

/// The character at the start of `bytes` (not empty) and its length.
pub(super) fn decode(bytes: &[u8]) -> (Ch, usize) {
    let max = bytes.len().min(4);
    for len in 1..=max {
        if let Ok(s) = std::str::from_utf8(&bytes[..len]) {
            if let Some(c) = s.chars().next() {
                return (Ch::Char(c), len);
            }
        }
    }
    (Ch::Byte(bytes.first().copied().unwrap_or_default()), 1)
}

fn push_char(out: &mut String, ch: Ch) {
    match ch {
        Ch::Char(c) => {
            let mut buf = [0u8; 4];
            out.push_str(&regex_syntax::escape(c.encode_utf8(&mut buf)));
        }
        Ch::Byte(b) => out.push_str(&format!("(?-u:\\x{b:02X})")),
    }
}

/// What a repetition at this point of the pattern repeats.
#[derive(Clone, Copy)]
struct Operand {
    /// Where it starts in the output.
    start: usize,
    /// It must be grouped to be repeated: an assertion, or a repetition.
    group: bool,
}

struct Translator<'a> {
    pat: &'a [u8],
    i: usize,
    out: String,
    basic: bool,
    ignore_case: bool,
    /// Output offsets of the open groups.
    groups: Vec<usize>,
    /// `None` where GNU's lexer is at a "start" (nothing but anchors since
    /// the beginning, `(` or `|`): a repetition there has no operand.
    operand: Option<Operand>,
    /// BRE: a `^` here is an anchor (first, or after `\(` or `\|`).
    caret: bool,
    warnings: Vec<String>,
}

impl Translator<'_> {
    fn run(&mut self) -> Result<(), String> {
        while let Some(&b) = self.pat.get(self.i) {
            self.i += 1;
            if b != b'\\' {
                self.plain(b)?;
                continue;
            }
            let Some(&next) = self.pat.get(self.i) else {
                return Err("Trailing backslash".into());
            };
            self.i += 1;
            self.escaped(next)?;
        }
        if !self.groups.is_empty() {
            return Err("Unmatched ( or \\(".into());
        }
        Ok(())
    }

    /// A character without a backslash (already consumed).
    fn plain(&mut self, b: u8) -> Result<(), String> {
        let ere = !self.basic;
        match b {
            b'[' => {
                let (class, next) = bracket(self.pat, self.i, self.ignore_case)?;
                self.i = next;
                self.atom(&class);
            }
            b'.' => self.atom("."),
            b'*' => self.repeat("*"),
            b'+' if ere => self.repeat("+"),
            b'?' if ere => self.repeat("?"),
            b'{' if ere => self.interval()?,
            b'(' if ere => self.open(),
            b')' if ere && !self.groups.is_empty() => self.close(),
            b'|' if ere => self.alternate(),
            b'^' if ere || self.caret => self.anchor("^"),
            b'$' if ere || self.dollar_ends() => self.anchor("$"),
            _ => self.literal_at(self.i - 1),
        }
        Ok(())
    }

    /// The character after a backslash (both consumed).
    fn escaped(&mut self, next: u8) -> Result<(), String> {
        let bre = self.basic;
        match next {
            b'(' if bre => self.open(),
            b')' if bre && self.groups.is_empty() => return Err("Unmatched ) or \\)".into()),
            b')' if bre => self.close(),
            b'|' if bre => self.alternate(),
            b'{' if bre => self.interval()?,
            b'+' if bre => self.repeat("+"),
            b'?' if bre => self.repeat("?"),
            b'<' => self.anchor(r"\b{start}"),
            b'>' => self.anchor(r"\b{end}"),
            b'b' => self.anchor(r"\b"),
            b'B' => self.anchor(r"\B"),
            // GNU grep matches each line alone: buffer anchors are line anchors.
            b'`' => self.anchor("^"),
            b'\'' => self.anchor("$"),
            b'w' => self.atom(&posix_class::word()),
            b'W' => self.atom(&format!("[^{}]", posix_class::word())),
            b's' => self.atom(&posix_class::space()),
            b'S' => self.atom(&format!("[^{}]", posix_class::space())),
            b'1'..=b'9' => return Err("back-references (\\1 to \\9) are not supported".into()),
            _ => self.literal_at(self.i - 1),
        }
        Ok(())
    }

    /// The character at `pat[at]`, literally.
    fn literal_at(&mut self, at: usize) {
        let (ch, len) = decode(&self.pat[at..]);
        self.i = at + len;
        let mut s = String::new();
        push_char(&mut s, ch);
        self.atom(&s);
    }

    /// Something that matches text (a repetition may follow).
    fn atom(&mut self, s: &str) {
        let start = self.out.len();
        self.out.push_str(s);
        self.operand = Some(Operand {
            start,
            group: false,
        });
        self.caret = false;
    }

    /// A zero-width assertion: at a start it leaves the start as it is.
    fn anchor(&mut self, s: &str) {
        let start = self.out.len();
        self.out.push_str(s);
        if self.operand.is_some() {
            self.operand = Some(Operand { start, group: true });
        }
        self.caret = false;
    }

    fn open(&mut self) {
        self.groups.push(self.out.len());
        self.out.push('(');
        self.operand = None;
        self.caret = true;
    }

    fn close(&mut self) {
        let start = self.groups.pop().unwrap_or_default();
        self.out.push(')');
        self.operand = Some(Operand {
            start,
            group: false,
        });
        self.caret = false;
    }

    fn alternate(&mut self) {
        self.out.push('|');
        self.operand = None;
        self.caret = true;
    }

    /// BRE: `$` is an anchor last, or before `\)` or `\|`.
    fn dollar_ends(&self) -> bool {
        let rest = &self.pat[self.i..];
        rest.is_empty() || rest.starts_with(b"\\)") || rest.starts_with(b"\\|")
    }

    /// `*`, `+` or `?`, just consumed.
    fn repeat(&mut self, op: &str) {
        match self.operand {
            // BRE: a character at a start.
            None if self.basic => self.literal_at(self.i - 1),
            // ERE: repeats the empty string.
            None => self.warnings.push(format!("{op} at start of expression")),
            Some(operand) => self.apply(operand, op),
        }
    }

    fn apply(&mut self, operand: Operand, op: &str) {
        if operand.group {
            self.out.insert_str(operand.start, "(?:");
            self.out.push(')');
        }
        self.out.push_str(op);
        self.operand = Some(Operand {
            start: operand.start,
            group: true,
        });
        self.caret = false;
    }

    /// After ERE's `{` or BRE's `\{`.
    fn interval(&mut self) -> Result<(), String> {
        if self.operand.is_none() && self.basic {
            self.atom(r"\{");
            return Ok(());
        }
        match (interval(self.pat, self.i, self.basic), self.operand) {
            (Interval::Valid { min, max, end }, operand) => {
                self.i = end;
                let op = match max {
                    Some(max) if max == min => format!("{{{min}}}"),
                    Some(max) => format!("{{{min},{max}}}"),
                    None => format!("{{{min},}}"),
                };
                match operand {
                    Some(operand) => self.apply(operand, &op),
                    None => self.warnings.push("{...} at start of expression".into()),
                }
            }
            (Interval::Error(e), Some(_)) => return Err(e.into()),
            // At a start glibc reads the brace as a character.
            (Interval::Error(_) | Interval::Literal, _) => self.atom(r"\{"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
