//! POSIX bracket expressions (`[a-z[:alpha:]]`) → the `regex` crate's classes.
//!
//! Inside POSIX brackets `\`, `&&`, `--`, `~~` and a lone `[` are ordinary
//! characters, `]` first is literal, and `[:name:]`, `[.c.]`, `[=c=]` are
//! classes, collating symbols and equivalence classes; in the `regex` crate
//! several of those are operators. Every character is therefore emitted
//! escaped where the crate would read it otherwise, and each POSIX class as
//! a nested Unicode class (see `posix_class`). Errors are GNU grep's, with
//! its messages.

use super::posix_class;
use super::translate::{decode, Ch};

pub const UNMATCHED: &str = "Unmatched [, [^, [:, [., or [=";
const BAD_CLASS: &str = "Invalid character class name";
const BAD_RANGE: &str = "Invalid range end";
const BAD_COLLATION: &str = "Invalid collation character";
const CONFUSING: &str = "character class syntax is [[:space:]], not [:space:]";

/// One item of a bracket expression.
enum Item {
    Char(char),
    Class(String),
}

/// Parses the bracket expression whose `[` is just before `pat[i]`.
/// Returns the class for the `regex` crate and the index after its `]`.
pub fn bracket(pat: &[u8], mut i: usize, ignore_case: bool) -> Result<(String, usize), String> {
    let mut out = String::from("[");
    if pat.get(i) == Some(&b'^') {
        out.push('^');
        i += 1;
    }
    let body_start = i;
    let mut ranged = false;
    let mut first = true;
    loop {
        let Some(&b) = pat.get(i) else {
            return Err(UNMATCHED.into());
        };
        if b == b']' && !first {
            i += 1;
            break;
        }
        first = false;
        let (lo, next) = item(pat, i, ignore_case)?;
        i = next;
        // A range `a-z`, unless `-` is last (then it is literal).
        let is_range = pat.get(i) == Some(&b'-') && pat.get(i + 1).is_some_and(|&c| c != b']');
        if !is_range {
            push_item(&mut out, lo);
            continue;
        }
        ranged = true;
        let (hi, next) = item(pat, i + 1, ignore_case)?;
        i = next;
        match (lo, hi) {
            (Item::Char(lo), Item::Char(hi)) if lo <= hi => {
                push_char(&mut out, lo);
                out.push('-');
                push_char(&mut out, hi);
            }
            _ => return Err(BAD_RANGE.into()),
        }
    }
    // GNU rejects `[:alpha:]` (meant as `[[:alpha:]]`): the body starts
    // and ends with `:`, holds something else, and has no range.
    let body = &pat[body_start..i - 1];
    if !ranged
        && body.len() >= 2
        && body.starts_with(b":")
        && body.ends_with(b":")
        && body.iter().any(|&c| c != b':')
    {
        return Err(CONFUSING.into());
    }
    out.push(']');
    Ok((out, i))
}

/// The item at `pat[i]`: a character, `[:class:]`, `[.c.]` or `[=c=]`.
fn item(pat: &[u8], i: usize, ignore_case: bool) -> Result<(Item, usize), String> {
    let Some(&b) = pat.get(i) else {
        return Err(UNMATCHED.into());
    };
    let kind = pat.get(i + 1).copied();
    if b == b'[' && matches!(kind, Some(b':' | b'.' | b'=')) {
        let kind = kind.unwrap_or_default();
        let rest = &pat[i + 2..];
        let close = [kind, b']'];
        let Some(end) = rest.windows(2).position(|w| w == close) else {
            return Err(UNMATCHED.into());
        };
        let name = &rest[..end];
        let next = i + 2 + end + 2;
        if kind == b':' {
            let class = posix_class::class(name, ignore_case).ok_or(BAD_CLASS)?;
            return Ok((Item::Class(class), next));
        }
        // [.c.] and [=c=] name one character in this locale.
        return match decode(name) {
            (Ch::Char(c), len) if len == name.len() => Ok((Item::Char(c), next)),
            _ => Err(BAD_COLLATION.into()),
        };
    }
    match decode(&pat[i..]) {
        (Ch::Char(c), len) => Ok((Item::Char(c), i + len)),
        (Ch::Byte(_), _) => Err("bytes that are not UTF-8 inside [...] are not supported".into()),
    }
}

fn push_item(out: &mut String, item: Item) {
    match item {
        Item::Char(c) => push_char(out, c),
        Item::Class(class) => out.push_str(&class),
    }
}

/// A character inside a class, escaped where the `regex` crate would read
/// it as syntax (`[`, `]`, `\`, `-`, `^`, `&`, `~` ...).
fn push_char(out: &mut String, c: char) {
    if regex_syntax::is_meta_character(c) {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn br(p: &str) -> Result<String, String> {
        // The pattern here starts after `[`.
        bracket(p.as_bytes(), 0, false).map(|(s, _)| s)
    }

    #[test]
    fn posix_specials_are_escaped() {
        assert_eq!(br(r"\]").unwrap(), r"[\\]");
        assert_eq!(br("]a]").unwrap(), r"[\]a]");
        assert_eq!(br("^]a]").unwrap(), r"[^\]a]");
        assert_eq!(br("a-z&&[]").unwrap(), r"[a-z\&\&\[]");
        assert_eq!(br("<>~-]").unwrap(), r"[<>\~\-]");
        assert_eq!(br("!--]").unwrap(), r"[!-\-]");
        assert_eq!(br("a-[.z.]]").unwrap(), "[a-z]");
    }

    #[test]
    fn classes_and_errors_are_gnus() {
        assert_eq!(br("[:digit:]x-]").unwrap(), r"[[0-9]x\-]");
        assert_eq!(br("[:digits:]]").unwrap_err(), BAD_CLASS);
        assert_eq!(br("[:alpha:]-z]").unwrap_err(), BAD_RANGE);
        assert_eq!(br("a-[:alpha:]]").unwrap_err(), BAD_RANGE);
        assert_eq!(br("z-a]").unwrap_err(), BAD_RANGE);
        assert_eq!(br("[.ab.]]").unwrap_err(), BAD_COLLATION);
        assert_eq!(br(":alpha:]").unwrap_err(), CONFUSING);
        assert_eq!(br("^:alpha:]").unwrap_err(), CONFUSING);
        assert!(br("::]").is_ok() && br(":a-b:]").is_ok());
        assert_eq!(br("[:alpha:]").unwrap_err(), UNMATCHED);
        assert_eq!(br("abc").unwrap_err(), UNMATCHED);
    }
}
