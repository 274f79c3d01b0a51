//! The bytes of a rule's leading literal that its runs skip: a rule every
//! match of which begins with one literal `B` (`Receiving block \S+ src:
//! ...`), whose owned literals are all prefixes of `B`, runs only where
//! the `multi` kernel found one of them, and the `confirm` kernel has
//! checked that literal whole before the run. Its automaton is built
//! without the first `k` bytes of `B` (`k`: the shortest owned literal's
//! length less one, so that what is left never matches the empty line)
//! and its run begins `k` bytes past the literal start, its start states
//! entered there only.
//!
//! Why: the templates' literals are long (a rule's first words), and each
//! of their bytes was a position of the automaton and a step of its run:
//! 1,233 of the 1,730 templates in loghub's book skip 37 bytes on average,
//! and many of their automata went from 2-4 words, run one lane a run, to
//! one, run flattened over the warp (confirm.cu). Of the generated packs
//! 429 of 1,000 and 4,126 of 10,000 rules skip, of gitleaks' 219 only 34
//! (its rules begin with classes).
//!
//! Not under `-i` (the literals are lowered, the rule's bytes are not) or
//! `-w` (its boundaries sit before the literal), and only for ASCII bytes
//! skipped, so that the cut falls between characters.

use regex_syntax::hir::{Capture, Hir, HirKind};

/// The bytes a run of `hir` may skip past each start of one of its
/// literals `own` (0: none): the shortest literal's length less one, when
/// every match of `hir` begins with a literal of which each of `own` is a
/// prefix, and those bytes are ASCII.
pub fn skip(hir: &Hir, own: &[&[u8]]) -> usize {
    let (Some(lead), Some(shortest)) = (leading_literal(hir), own.iter().map(|l| l.len()).min())
    else {
        return 0;
    };
    let k = shortest.saturating_sub(1);
    match own.iter().all(|l| lead.starts_with(l)) && lead[..k].is_ascii() {
        true => k,
        false => 0,
    }
}

/// `hir` without the first `k` bytes of its leading literal (`k` from
/// [`skip`], shorter than that literal).
pub fn skipped(hir: &Hir, k: usize) -> Hir {
    match hir.kind() {
        HirKind::Capture(c) => Hir::capture(Capture {
            sub: Box::new(skipped(&c.sub, k)),
            ..c.clone()
        }),
        HirKind::Literal(l) => Hir::literal(&l.0[k..]),
        HirKind::Concat(items) => {
            let mut items = items.clone();
            if let Some(first) = items.first_mut() {
                *first = skipped(first, k);
            }
            Hir::concat(items)
        }
        _ => hir.clone(),
    }
}

/// The literal every match of `hir` begins with, as written first in it.
fn leading_literal(hir: &Hir) -> Option<&[u8]> {
    match hir.kind() {
        HirKind::Capture(c) => leading_literal(&c.sub),
        HirKind::Literal(l) => Some(&l.0),
        HirKind::Concat(items) => leading_literal(items.first()?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parsed as hir;
    use super::*;

    #[test]
    fn a_rule_beginning_with_its_literal_skips_all_but_its_last_byte() {
        let h = hir(r"Receiving block \S+ src: /\S+");
        assert_eq!(skip(&h, &[b"Receiving block "]), 15);
        assert_eq!(skipped(&h, 15), hir(r" \S+ src: /\S+"));
        // The shortest of several literals, each a prefix.
        assert_eq!(skip(&h, &[b"Receiving", b"Receiving block "]), 8);
        // A literal alone keeps its last byte.
        assert_eq!(skipped(&hir("abcdef"), 3), hir("def"));
        assert_eq!(skip(&hir("(abc)d+"), &[b"abc"]), 2);
        assert_eq!(skipped(&hir("(abc)d+"), 2), hir("(c)d+"));
    }

    #[test]
    fn other_rules_skip_nothing() {
        // A literal that is not where every match begins.
        assert_eq!(skip(&hir(r"\S+ src: "), &[b" src: "]), 0);
        assert_eq!(skip(&hir(r"x?abc"), &[b"abc"]), 0);
        assert_eq!(skip(&hir(r"^abc"), &[b"abc"]), 0);
        assert_eq!(skip(&hir(r"abc|abd"), &[b"abc", b"abd"]), 0);
        // An owned literal that is not a prefix of the leading one.
        assert_eq!(skip(&hir(r"abc\d+xyz"), &[b"abc", b"xyz"]), 0);
        // Bytes past ASCII are not cut.
        assert_eq!(skip(&hir("éabc"), &["éab".as_bytes()]), 0);
        assert_eq!(skip(&hir("abé"), &[b"ab"]), 1);
        assert_eq!(skip(&hir("abc"), &[]), 0);
    }
}
