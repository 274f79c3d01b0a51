//! Rules *anchored at their literal*: every match begins with one of the
//! rule's literals. The `confirm` kernel runs such a rule's automaton from
//! the literal start that led to it, entering its start states there only,
//! and stops where the state dies, instead of walking the line from its
//! start to a match: every match begins at a start the `multi` kernel
//! marked (it marks every position where a literal occurs), and that
//! start runs the rule in turn.
//!
//! Why: of loghub's 1,733 templates 1,575 begin with a literal, and a log
//! line's header (time, process, level, component: about half its bytes)
//! sits before it; the whole-line runs were most of the kernel's time.
//!
//! Decided by regex-syntax's prefix extraction: a finite sequence of
//! prefixes is one every match begins with; each must begin with one of
//! the rule's literals (as the kernels look literals up: lowered under
//! `-i`). Anything else (an infinite sequence, a prefix shorter than the
//! literal) leaves the rule as it was.

use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::Hir;

/// Whether every match of `hir` begins with one of `literals` (lowered
/// when `fold`).
pub fn begins_with_one(hir: &Hir, literals: &[&[u8]], fold: bool) -> bool {
    let seq = Extractor::new().kind(ExtractKind::Prefix).extract(hir);
    let Some(prefixes) = seq.literals() else {
        return false;
    };
    let begins = |p: &[u8], l: &[u8]| match fold {
        true => p.len() >= l.len() && p[..l.len()].to_ascii_lowercase() == l,
        false => p.starts_with(l),
    };
    !prefixes.is_empty()
        && prefixes
            .iter()
            .all(|p| literals.iter().any(|l| begins(p.as_bytes(), l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hir(re: &str) -> Hir {
        regex_syntax::ParserBuilder::new()
            .unicode(false)
            .utf8(false)
            .build()
            .parse(re)
            .unwrap()
    }

    #[test]
    fn a_rule_beginning_with_its_literal_is_anchored() {
        assert!(begins_with_one(
            &hir(r"acquire lock=\S+, flags"),
            &[b"acquire lock="],
            false
        ));
        assert!(begins_with_one(
            &hir(r"(?:foo|bar)\d+"),
            &[b"foo", b"bar"],
            false
        ));
        // Literals shorter than the prefixes they begin.
        assert!(begins_with_one(&hir(r"abcdef\s"), &[b"abc"], false));
        assert!(begins_with_one(&hir(r"^abc$"), &[b"abc"], false));
    }

    #[test]
    fn a_rule_whose_match_may_begin_elsewhere_is_not() {
        assert!(!begins_with_one(
            &hir(r"\S+: Must execute"),
            &[b": Must execute"],
            false
        ));
        assert!(!begins_with_one(&hir(r"x?abc"), &[b"abc"], false));
        assert!(!begins_with_one(&hir(r"(?:foo|bar)\d+"), &[b"foo"], false));
        assert!(!begins_with_one(&hir(r"ab\d+cdef"), &[b"cdef"], false));
        assert!(!begins_with_one(&hir(r"[^a]"), &[b"abc"], false));
    }

    #[test]
    fn folded_literals_are_compared_lowered() {
        assert!(begins_with_one(&hir(r"(?i)key=\w"), &[b"key="], true));
        assert!(begins_with_one(&hir(r"Key=\w"), &[b"key="], true));
        assert!(!begins_with_one(&hir(r"Key=\w"), &[b"key="], false));
    }
}
