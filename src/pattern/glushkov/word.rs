//! `-w` inside the automata, for lines of ASCII bytes.
//!
//! Under `-w` each rule `R` of a pack is `\b{start-half}(?:R)\b{end-half}`
//! (`pattern::compile::pack`), which on a line of ASCII bytes is GNU's
//! `-w` exactly (the word characters there are `[0-9A-Za-z_]` for both).
//! Dropping the boundaries made the GPU's marks candidates, and where
//! nearly every line holds a match (loghub's 1,733 templates over its own
//! logs) the CPU confirmed every line: 10-12 s over 16 GiB on 16 cores
//! against `-c`'s 1.8 s. The boundaries are a step's neighbours, so the automaton
//! keeps them: a start position is entered only after a byte that is not
//! a word byte (or at the line's start), and a final position reached at
//! a byte counts only when the next byte is not a word byte (or the line
//! ends there). That is exact on ASCII lines; a line with another byte is
//! left to the CPU (the ASCII part runs alone, `Automaton::cut_alone`).
//!
//! Only for rules whose inner `R` has no assertion but line anchors and
//! does not match the empty string (an empty match between two non-word
//! bytes would select lines no position reaches): others keep their
//! boundaries dropped. Branches are not absorbed (`absorb`): with the
//! boundaries kept, `\b(ab|b)` matches `ab` where `\b(b)` does not.

use super::{book, build_as_written, Automaton, MAX_POSITIONS};
use regex_syntax::hir::{Hir, HirKind, Look};

/// A UTF-8 byte-order mark: at a line's start the automata step over it
/// as a byte that is not a word byte, the line staying ASCII (a file's
/// first line, which the CPU judges again after the mark; the host sends
/// a chunk with such a line elsewhere to the CPU engine, `run::gpu::lane`).
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A word byte for `-w` on ASCII text: `[0-9A-Za-z_]`.
pub use crate::confirm::is_ascii_word as is_word_byte;

/// `R` when `h` is `\b{start-half}(?:R)\b{end-half}` as `-w` wraps a rule
/// and `R` suits the automaton's boundaries (the module doc).
pub fn inner(h: &Hir) -> Option<Hir> {
    let HirKind::Concat(parts) = h.kind() else {
        return None;
    };
    let [HirKind::Look(first), .., HirKind::Look(last)] =
        parts.iter().map(Hir::kind).collect::<Vec<_>>()[..]
    else {
        return None;
    };
    let starts = matches!(first, Look::WordStartHalfUnicode | Look::WordStartHalfAscii);
    let ends = matches!(last, Look::WordEndHalfUnicode | Look::WordEndHalfAscii);
    if !starts || !ends || parts.len() < 3 {
        return None;
    }
    let r = Hir::concat(parts[1..parts.len() - 1].to_vec());
    let anchors_only = r
        .properties()
        .look_set()
        .iter()
        .all(|l| matches!(l, Look::StartLF | Look::EndLF));
    let empty = r.properties().minimum_len().is_none_or(|n| n == 0);
    (anchors_only && !empty).then_some(r)
}

/// [`inner`] of every rule, or `None` if one lacks it.
pub fn inners(rules: &[Hir]) -> Option<Vec<Hir>> {
    rules.iter().map(inner).collect()
}

/// The automaton of regular expressions (as [`super::for_expressions`]
/// parses them) inside `-w`'s boundaries; `Err` for one that does not
/// suit them ([`inner`]).
pub fn for_expressions(rules: &[String], ignore_case: bool, t: u8) -> Result<Automaton, String> {
    let wrapped: Vec<String> = rules
        .iter()
        .map(|r| format!(r"\b{{start-half}}(?:{r})\b{{end-half}}"))
        .collect();
    let inner = inners(&super::parse(&wrapped, ignore_case, t)?)
        .ok_or("a rule with assertions of its own or matching the empty string")?;
    build(&inner, t)
}

/// The automaton of the inner rules `inner` with `-w` in it: the rules
/// cut to their ASCII bytes, alone (a line past ASCII is a candidate),
/// exact where the cut rules are.
pub fn build(inner: &[Hir], t: u8) -> Result<Automaton, String> {
    let cut: Vec<Hir> = inner.iter().map(book::ascii_only).collect();
    let a = build_as_written(&cut, t, MAX_POSITIONS, MAX_POSITIONS as u32)?;
    let exact = a.exact;
    let mut a = a.cut_alone();
    a.exact = exact;
    a.word = true;
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::trim::tests::hir;

    #[test]
    fn word_bytes_are_gnus_on_ascii() {
        let want = |b: u8| regex::bytes::Regex::new(r"^\w$").unwrap().is_match(&[b]);
        for b in 0..0x80u8 {
            assert_eq!(is_word_byte(b), want(b), "{b:#x}");
        }
    }

    #[test]
    fn only_the_w_wrapper_around_a_plain_rule_is_taken() {
        let wrapped = |r: &str| hir(&format!(r"\b{{start-half}}(?:{r})\b{{end-half}}"));
        assert_eq!(inner(&wrapped("ab+c")), Some(hir("ab+c")));
        assert_eq!(inner(&wrapped("a|bc")), Some(hir("a|bc")));
        assert_eq!(inner(&wrapped("(?m:^)x")), Some(hir("(?m:^)x")));
        assert_eq!(inner(&wrapped(r"a\bc")), None);
        assert_eq!(inner(&wrapped("a*")), None);
        assert_eq!(inner(&wrapped(r"\Ax")), None);
        assert_eq!(inner(&hir("abc")), None);
        assert_eq!(inner(&hir(r"\b{start-half}abc")), None);
    }
}
