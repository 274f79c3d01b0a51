//! POSIX basic and extended regular expressions → the `regex` crate's syntax.
//!
//! grep's users type POSIX syntax; the `regex` crate speaks a Perl-like one.
//! The translation is a single left-to-right pass that knows the few places
//! the two disagree: BRE's backslashed operators, literal `*`, `^` and `$`
//! where POSIX says so, `{` that does not open an interval, and bracket
//! expressions (where `\`, `[`, `&&`, `--` and `~~` are not special in
//! POSIX). Back-references have no equivalent and are rejected clearly.
//! Bytes that are not UTF-8 become `(?-u:\xNN)`.

/// A translated pattern and the warnings GNU grep would print for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub regex: String,
    pub warnings: Vec<String>,
}

/// Translates one pattern. `basic` selects BRE (`-G`), else ERE (`-E`).
pub fn translate(pat: &[u8], basic: bool) -> Result<Translated, String> {
    let mut t = Translator {
        pat,
        i: 0,
        out: String::with_capacity(pat.len() * 2),
        basic,
        depth: 0,
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
        push_char(&mut out, ch, lit[i]);
        i += len;
    }
    out
}

struct Translator<'a> {
    pat: &'a [u8],
    i: usize,
    out: String,
    basic: bool,
    /// Open ERE groups: a `)` with none open is literal, as in GNU grep.
    depth: usize,
    warnings: Vec<String>,
}

/// One character of a pattern: a Unicode scalar or a byte that is not UTF-8.
#[derive(Clone, Copy)]
enum Ch {
    Char(char),
    Byte(u8),
}

fn decode(bytes: &[u8]) -> (Ch, usize) {
    let max = bytes.len().min(4);
    for len in 1..=max {
        if let Ok(s) = std::str::from_utf8(&bytes[..len]) {
            if let Some(c) = s.chars().next() {
                return (Ch::Char(c), len);
            }
        }
    }
    (Ch::Byte(bytes[0]), 1)
}

fn push_char(out: &mut String, ch: Ch, _first: u8) {
    match ch {
        Ch::Char(c) => {
            let mut buf = [0u8; 4];
            out.push_str(&regex_syntax::escape(c.encode_utf8(&mut buf)));
        }
        Ch::Byte(b) => out.push_str(&format!("(?-u:\\x{b:02X})")),
    }
}

impl Translator<'_> {
    fn peek(&self, k: usize) -> Option<u8> {
        self.pat.get(self.i + k).copied()
    }

    fn literal(&mut self, b: u8) {
        push_char(&mut self.out, Ch::Char(b as char), b);
    }

    fn run(&mut self) -> Result<(), String> {
        // True where a `*` (or, in BRE, a `^`) starts a new expression.
        let mut at_start = true;
        while self.i < self.pat.len() {
            let b = self.pat[self.i];
            let was_start = at_start;
            at_start = false;
            match b {
                b'\\' => {
                    let Some(next) = self.peek(1) else {
                        return Err("trailing backslash".into());
                    };
                    self.i += 2;
                    match next {
                        b'{' if self.basic && was_start => self.literal(b'{'),
                        b'(' | b')' | b'{' | b'}' | b'|' | b'+' | b'?' if self.basic => {
                            if next == b'{' {
                                self.interval(true)?;
                                continue;
                            }
                            self.out.push(next as char);
                            at_start = next == b'(' || next == b'|';
                        }
                        b'<' => self.out.push_str(r"\b{start}"),
                        b'>' => self.out.push_str(r"\b{end}"),
                        b'b' | b'B' | b'w' | b'W' | b's' | b'S' => {
                            self.out.push('\\');
                            self.out.push(next as char);
                        }
                        b'`' => self.out.push_str(r"\A"),
                        b'\'' => self.out.push_str(r"\z"),
                        b'1'..=b'9' => {
                            return Err("back-references (\\1 to \\9) are not supported".into())
                        }
                        _ => {
                            let (ch, len) = decode(&self.pat[self.i - 1..]);
                            push_char(&mut self.out, ch, next);
                            self.i += len - 1;
                        }
                    }
                    continue;
                }
                b'[' => {
                    self.i += 1;
                    self.bracket()?;
                    continue;
                }
                b'*' if was_start && self.basic => self.literal(b'*'),
                b'*' | b'+' | b'?' if was_start && !self.basic => {
                    // GNU grep ignores a repetition with nothing to repeat.
                    self.warnings
                        .push(format!("{} at start of expression", b as char));
                    at_start = true;
                }
                b'*' | b'.' => self.out.push(b as char),
                b'^' => {
                    if !self.basic || was_start {
                        self.out.push('^');
                        at_start = true;
                    } else {
                        self.literal(b'^');
                    }
                }
                b'$' => {
                    let rest = &self.pat[self.i + 1..];
                    if !self.basic
                        || rest.is_empty()
                        || rest.starts_with(b"\\)")
                        || rest.starts_with(b"\\|")
                    {
                        self.out.push('$');
                    } else {
                        self.literal(b'$');
                    }
                }
                b'(' | b')' | b'|' | b'{' | b'}' | b'+' | b'?' if self.basic => self.literal(b),
                b'{' => {
                    self.i += 1;
                    if was_start || !self.interval(false)? {
                        self.literal(b'{');
                    }
                    continue;
                }
                b'(' | b'|' => {
                    self.depth += usize::from(b == b'(');
                    self.out.push(b as char);
                    at_start = true;
                }
                b')' if self.depth == 0 => self.literal(b')'),
                b')' => {
                    self.depth -= 1;
                    self.out.push(')');
                }
                b'+' | b'?' | b'}' => self.out.push(b as char),
                _ => {
                    let (ch, len) = decode(&self.pat[self.i..]);
                    push_char(&mut self.out, ch, b);
                    self.i += len;
                    continue;
                }
            }
            self.i += 1;
        }
        Ok(())
    }

    /// After `{` (or BRE's `\{`): an interval `n`, `n,`, `,m` or `n,m` closed
    /// by `}` (BRE: `\}`). Returns false (consuming nothing) when ERE text is
    /// not an interval, so `{` is literal; BRE's `\{` must open one.
    fn interval(&mut self, basic: bool) -> Result<bool, String> {
        let rest = &self.pat[self.i..];
        let close: &[u8] = if basic { b"\\}" } else { b"}" };
        let end = rest.windows(close.len()).position(|w| w == close);
        let body = end.map(|e| &rest[..e]);
        let valid = body.is_some_and(|body| {
            let mut parts = body.splitn(2, |&c| c == b',');
            let lo = parts.next().unwrap_or_default();
            let hi = parts.next();
            let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit);
            digits(lo)
                && hi.is_none_or(digits)
                && !(lo.is_empty() && hi.is_none_or(<[u8]>::is_empty))
        });
        match (valid, body, end) {
            (true, Some(body), Some(end)) => {
                let text = String::from_utf8_lossy(body);
                let text = if text.starts_with(',') {
                    format!("0{text}")
                } else {
                    text.into_owned()
                };
                self.out.push('{');
                self.out.push_str(&text);
                self.out.push('}');
                self.i += end + close.len();
                Ok(true)
            }
            _ if basic => Err("invalid content of \\{\\}".into()),
            _ => Ok(false),
        }
    }

    /// After `[`: a bracket expression, up to its closing `]`.
    fn bracket(&mut self) -> Result<(), String> {
        let unmatched = || "unmatched [, [^, [:, [., or [=".to_string();
        let mut out = String::from("[");
        if self.peek(0) == Some(b'^') {
            out.push('^');
            self.i += 1;
        }
        let mut first = true;
        loop {
            let Some(b) = self.peek(0) else {
                return Err(unmatched());
            };
            if b == b']' && !first {
                self.i += 1;
                break;
            }
            first = false;
            if b == b'[' && matches!(self.peek(1), Some(b':') | Some(b'=') | Some(b'.')) {
                let kind = self.pat[self.i + 1];
                let rest = &self.pat[self.i + 2..];
                let close = [kind, b']'];
                let Some(end) = rest.windows(2).position(|w| w == close) else {
                    return Err(unmatched());
                };
                let name = &rest[..end];
                match kind {
                    b':' => {
                        out.push_str("[:");
                        out.push_str(&String::from_utf8_lossy(name));
                        out.push_str(":]");
                    }
                    _ => {
                        // [=c=] and [.c.] name one character here.
                        if name.is_empty() {
                            return Err(
                                "unsupported collating element in bracket expression".into()
                            );
                        }
                        let (ch, len) = decode(name);
                        if len != name.len() {
                            return Err(
                                "unsupported collating element in bracket expression".into()
                            );
                        }
                        push_class_char(&mut out, ch)?;
                    }
                }
                self.i += 2 + end + 2;
                continue;
            }
            let (ch, len) = decode(&self.pat[self.i..]);
            self.i += len;
            push_class_char(&mut out, ch)?;
            // A range `a-z`, unless `-` is last (then it is literal).
            if self.peek(0) == Some(b'-') && self.peek(1).is_some_and(|c| c != b']') {
                self.i += 1;
                let (hi, len) = decode(&self.pat[self.i..]);
                self.i += len;
                out.push('-');
                push_class_char(&mut out, hi)?;
            }
        }
        out.push(']');
        self.out.push_str(&out);
        Ok(())
    }
}

fn push_class_char(out: &mut String, ch: Ch) -> Result<(), String> {
    match ch {
        Ch::Char(c) if c.is_ascii_punctuation() => {
            out.push('\\');
            out.push(c);
        }
        Ch::Char(c) => out.push(c),
        Ch::Byte(_) => return Err("bytes that are not UTF-8 inside [...] are not supported".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bre(p: &str) -> String {
        translate(p.as_bytes(), true).unwrap().regex
    }
    fn ere(p: &str) -> String {
        translate(p.as_bytes(), false).unwrap().regex
    }

    #[test]
    fn bre_operators_are_backslashed() {
        assert_eq!(bre(r"\(ab\)\{2\}"), "(ab){2}");
        assert_eq!(bre(r"a\|b"), "a|b");
        assert_eq!(bre(r"a\+b\?"), "a+b?");
        assert_eq!(bre("(a)|b+?{"), r"\(a\)\|b\+\?\{");
    }

    #[test]
    fn bre_star_and_anchors_are_literal_where_posix_says() {
        assert_eq!(bre("*a"), r"\*a");
        assert_eq!(bre("^*a"), r"^\*a");
        assert_eq!(bre("a^b$c"), r"a\^b\$c");
        assert_eq!(bre("^ab$"), "^ab$");
        assert_eq!(bre(r"\(^a$\)"), "(^a$)");
    }

    #[test]
    fn ere_braces_that_are_not_intervals_are_literal() {
        assert_eq!(ere("a{2}"), "a{2}");
        assert_eq!(ere("a{,3}"), "a{0,3}");
        assert_eq!(ere("a{x"), r"a\{x");
        assert_eq!(ere("{a"), r"\{a");
    }

    #[test]
    fn brackets_escape_what_regex_treats_specially() {
        assert_eq!(ere(r"[\]"), r"[\\]");
        assert_eq!(ere("[]a]"), r"[\]a]");
        assert_eq!(ere("[^]a]"), r"[^\]a]");
        assert_eq!(ere("[a-z&&[]"), r"[a-z\&\&\[]");
        assert_eq!(ere("[[:digit:]x-]"), r"[[:digit:]x\-]");
    }

    #[test]
    fn gnu_ere_leniencies() {
        assert_eq!(ere("a)"), r"a\)");
        assert_eq!(ere("(a))"), r"(a)\)");
        let t = translate(b"*a|+b", false).unwrap();
        assert_eq!(t.regex, "a|b");
        assert_eq!(
            t.warnings,
            vec!["* at start of expression", "+ at start of expression"]
        );
        assert_eq!(bre(r"\{1"), r"\{1");
    }

    #[test]
    fn word_boundaries_and_errors() {
        assert_eq!(ere(r"\<a\>"), r"\b{start}a\b{end}");
        assert!(translate(br"(a)\1", false).is_err());
        assert!(translate(b"a\\", false).is_err());
        assert!(translate(b"[abc", false).is_err());
    }

    #[test]
    fn non_utf8_bytes_become_byte_escapes() {
        assert_eq!(ere("a\u{e9}"), "a\u{e9}");
        assert_eq!(translate(b"a\xff", false).unwrap().regex, r"a(?-u:\xFF)");
        assert_eq!(escape_literal(b"a.b\xff"), r"a\.b(?-u:\xFF)");
    }
}
