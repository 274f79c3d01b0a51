//! Alternation branches that another branch absorbs, where only whether a
//! line matches counts (the automata select lines).
//!
//! An alternation that begins the expression (after captures and word
//! boundaries, which the automaton drops) selects the same lines without a
//! branch `P B` when `B` is a branch too: a line holding a match of
//! `P B R` holds one of `B R`. Likewise at the expression's end, `B P`
//! beside `B`. Gitleaks' `(?i)\b(\b(sgp_(?:[a-f0-9]{16}|local)_[a-f0-9]{40}|
//! sgp_[a-f0-9]{40}|[a-f0-9]{40})\b)...` is so `\b(\b([a-f0-9]{40})\b)...`
//! for the automaton: 5 words of state where 2 do (session 41).
//!
//! Branches compare structurally (regex-syntax's `Hir` equality): the end
//! of `P B` must be `B`'s elements themselves.
//!
//! Only for the automata, which drop word boundaries (and are then not
//! exact): with `\b` kept, `\b(ab|b)` matches `ab` where `\b(b)` does not.

use regex_syntax::hir::{Capture, Hir, HirKind, Look};

/// Which end of the expression.
#[derive(Clone, Copy)]
enum End {
    Start,
    Finish,
}

/// `h` with the branches absorbed at its start and its end.
pub fn absorbed(h: &Hir) -> Hir {
    let h = at(h, End::Start);
    at(&h, End::Finish)
}

/// Zero-width items the automaton drops (word boundaries): an alternation
/// after (or before) them still begins (ends) the expression.
fn dropped(h: &Hir) -> bool {
    matches!(h.kind(), HirKind::Look(l) if !matches!(
        l,
        Look::Start | Look::End | Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF
    ))
}

fn at(h: &Hir, end: End) -> Hir {
    match h.kind() {
        HirKind::Capture(c) => Hir::capture(Capture {
            index: c.index,
            name: c.name.clone(),
            sub: Box::new(at(&c.sub, end)),
        }),
        HirKind::Concat(elems) => {
            let mut elems = elems.clone();
            let order: Vec<usize> = match end {
                End::Start => (0..elems.len()).collect(),
                End::Finish => (0..elems.len()).rev().collect(),
            };
            if let Some(&k) = order.iter().find(|&&k| !dropped(&elems[k])) {
                elems[k] = at(&elems[k], end);
            }
            Hir::concat(elems)
        }
        HirKind::Alternation(branches) => {
            let kept: Vec<Hir> = branches
                .iter()
                .enumerate()
                .filter(|&(i, a)| {
                    !branches
                        .iter()
                        .enumerate()
                        .any(|(j, b)| j != i && absorbs(b, a, end))
                })
                .map(|(_, a)| a.clone())
                .collect();
            Hir::alternation(kept)
        }
        _ => h.clone(),
    }
}

/// Whether branch `b` absorbs branch `a`: `a`'s elements end (start,
/// `End::Finish`) with all of `b`'s and hold more.
fn absorbs(b: &Hir, a: &Hir, end: End) -> bool {
    let (a, b) = (atoms(a), atoms(b));
    a.len() > b.len()
        && match end {
            End::Start => a.ends_with(&b),
            End::Finish => a.starts_with(&b),
        }
}

/// A branch's elements in order, each literal byte one (`abc` ends with
/// `bc`).
fn atoms(h: &Hir) -> Vec<Hir> {
    match h.kind() {
        HirKind::Concat(elems) => elems.iter().flat_map(atoms).collect(),
        HirKind::Literal(l) => l.0.iter().map(|&b| Hir::literal([b])).collect(),
        _ => vec![h.clone()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::trim::tests::hir;
    use proptest::prelude::*;

    fn absorbed_text(re: &str) -> String {
        absorbed(&hir(re)).to_string()
    }

    #[test]
    fn branches_ending_with_another_branch_are_absorbed() {
        let rule = r"(?i)\b(\b(sgp_(?:[a-f0-9]{16}|local)_[a-f0-9]{40}|sgp_[a-f0-9]{40}|[a-f0-9]{40})\b)(?:[;\s]|$)";
        let short = r"(?i)\b(\b([a-f0-9]{40})\b)(?:[;\s]|$)";
        assert_eq!(absorbed_text(rule), hir(short).to_string());
        // At the end: a branch beginning with another.
        assert_eq!(absorbed_text("x(ab|abc|d)"), hir("x(ab|d)").to_string());
        // Not inside: `x(abc|c)y` needs `ab` before `c` or not.
        assert_eq!(absorbed_text("x(abc|c)y"), hir("x(abc|c)y").to_string());
        // Not after an anchor: `^b` misses `ab`.
        assert_eq!(absorbed_text("^(ab|b)"), hir("^(ab|b)").to_string());
    }

    /// A random expression that may begin or end with an alternation of
    /// branches sharing ends.
    fn expression() -> impl Strategy<Value = String> {
        let pick = |v: Vec<&'static str>| prop::sample::select(v).prop_map(String::from);
        let piece = pick(vec![
            "a", "b", "ab", "[ab]", "x", ".", r"\w", "a+", "b?", "(?:a|b)",
        ]);
        let branch = prop::collection::vec(piece.clone(), 1..4).prop_map(|v| v.concat());
        let alternation = (
            branch.clone(),
            prop::collection::vec(piece.clone(), 0..3),
            0..3usize,
        )
            .prop_map(|(b, extra, shape)| {
                let e = extra.concat();
                match shape {
                    0 => format!("(?:{e}{b}|{b})"),
                    1 => format!("({b}{e}|{b}|x{b})"),
                    _ => format!("(?:{b}|{e}{b}{e})"),
                }
            });
        let look = pick(vec!["", r"\b", "^", "$", r"\B"]);
        (look.clone(), alternation.clone(), piece, alternation, look)
            .prop_map(|(l1, a1, mid, a2, l2)| format!("{l1}{a1}{mid}{a2}{l2}"))
    }

    /// `h` with its word boundaries dropped, as the automaton drops them.
    fn without_word_looks(h: &Hir) -> Hir {
        match h.kind() {
            _ if dropped(h) => Hir::empty(),
            HirKind::Capture(c) => without_word_looks(&c.sub),
            HirKind::Concat(e) => Hir::concat(e.iter().map(without_word_looks).collect()),
            HirKind::Alternation(b) => Hir::alternation(b.iter().map(without_word_looks).collect()),
            HirKind::Repetition(r) => Hir::repetition(regex_syntax::hir::Repetition {
                sub: Box::new(without_word_looks(&r.sub)),
                ..r.clone()
            }),
            _ => h.clone(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Word boundaries dropped (as by the automaton), the absorbed
        /// expression matches in exactly the lines the expression matches
        /// in.
        #[test]
        fn absorbed_selects_the_same_lines(
            re_text in expression(),
            lines in prop::collection::vec(
                prop::collection::vec(prop::sample::select(vec![
                    "a", "b", "x", " ", "ab", "ba", "_",
                ]), 0..12).prop_map(|v| v.concat()),
                1..6,
            ),
        ) {
            let h = hir(&format!("(?m){re_text}"));
            let whole_text = without_word_looks(&h).to_string();
            let short_text = without_word_looks(&absorbed(&h)).to_string();
            let whole = regex::bytes::Regex::new(&whole_text).unwrap();
            let short = regex::bytes::Regex::new(&short_text).unwrap();
            for line in &lines {
                prop_assert_eq!(
                    whole.is_match(line.as_bytes()),
                    short.is_match(line.as_bytes()),
                    "{} / {} on {:?}", whole_text, short_text, line
                );
            }
        }
    }
}
