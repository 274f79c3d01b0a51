//! A rule's required trigrams as a 256-bit mask, and a line's trigrams as
//! another: a rule whose mask is not inside its line's cannot match there,
//! so the `confirm` kernel skips its automaton.
//!
//! Why: most candidate lines hold a literal of some rule that does not
//! match them (1,000 rules over CI logs: 2.4 automata ran per candidate
//! line, 0.3 lines matched), and each automaton walked the whole line. A
//! rule usually fixes more than the literal that brought it (`stalled \S+
//! mount`), so the mask test, a few instructions, turns most of those
//! walks away.
//!
//! A trigram is 3 adjacent bytes, ASCII letters folded to lower case (so
//! one mask serves `-i` too), hashed to one of 256 bits ([`bit`]). A
//! rule's required trigrams are those of the strings every match holds:
//! runs of bytes a concatenation fixes (literals, one-byte classes, an
//! ASCII letter in both cases), what a repetition of at least one holds,
//! and the bits every branch of an alternation holds. Anything else
//! requires nothing, so a mask may be empty but never claims a trigram a
//! match can lack.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Words of a mask.
pub const MASK_WORDS: usize = 8;

/// 256 bits: bit `bit(t)` for each trigram `t`.
pub type Mask = [u32; MASK_WORDS];

/// The bit of trigram `t` (its 3 folded bytes, first byte highest;
/// confirm.cu's `trigram_bit`).
pub fn bit(t: u32) -> u32 {
    (t & 0xFF_FFFF).wrapping_mul(0x9E37_79B1) >> 24
}

/// Every trigram's bit in `bytes`, already folded, into `m`.
fn add_trigrams(bytes: impl IntoIterator<Item = u8>, m: &mut Mask) {
    let mut t = 0u32;
    for (i, b) in bytes.into_iter().enumerate() {
        t = t << 8 | u32::from(b);
        if i >= 2 {
            let h = bit(t);
            m[h as usize / 32] |= 1 << (h % 32);
        }
    }
}

/// The trigrams of `line` (as confirm.cu finds them in its walk to the
/// line's end).
pub fn line_mask(line: &[u8]) -> Mask {
    let mut m = [0; MASK_WORDS];
    add_trigrams(line.iter().map(u8::to_ascii_lowercase), &mut m);
    m
}

/// Whether a line of trigrams `line` may hold a match of a rule requiring
/// `rule`.
pub fn may_match(rule: &[u32], line: &Mask) -> bool {
    rule.iter().zip(line).all(|(r, l)| r & !l == 0)
}

/// The trigrams every match of `h` holds.
pub fn required(h: &Hir) -> Mask {
    let mut m = [0; MASK_WORDS];
    match h.kind() {
        HirKind::Capture(c) => return required(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => return required(&r.sub),
        HirKind::Alternation(v) => {
            let mut all = [u32::MAX; MASK_WORDS];
            for x in v {
                for (a, r) in all.iter_mut().zip(required(x)) {
                    *a &= r;
                }
            }
            return all;
        }
        HirKind::Literal(_) | HirKind::Concat(_) => {
            let parts = match h.kind() {
                HirKind::Concat(v) => v.as_slice(),
                _ => std::slice::from_ref(h),
            };
            let mut run = Vec::new();
            for x in parts {
                if let Some(s) = fixed(x) {
                    run.extend_from_slice(&s);
                    continue;
                }
                add_trigrams(run.iter().copied(), &mut m);
                run.clear();
                for (a, r) in m.iter_mut().zip(required(x)) {
                    *a |= r;
                }
            }
            add_trigrams(run.iter().copied(), &mut m);
        }
        _ => {}
    }
    m
}

/// The one string `h` matches, folded, when it matches one.
fn fixed(h: &Hir) -> Option<Vec<u8>> {
    match h.kind() {
        HirKind::Empty => Some(Vec::new()),
        HirKind::Literal(l) => Some(l.0.to_ascii_lowercase()),
        HirKind::Capture(c) => fixed(&c.sub),
        HirKind::Class(c) => one_byte(c).map(|b| vec![b]),
        HirKind::Concat(v) => v
            .iter()
            .map(fixed)
            .collect::<Option<Vec<_>>>()
            .map(|p| p.concat()),
        _ => None,
    }
}

/// The folded byte of a class of one byte, or of one ASCII letter in both
/// cases (`-i`); `None` for any other class (`k` under `-i` holds the
/// Kelvin sign too).
fn one_byte(c: &Class) -> Option<u8> {
    let mut bytes = Vec::new();
    match c {
        Class::Bytes(b) => {
            for r in b.iter() {
                bytes.extend(r.start()..=r.end());
                if bytes.len() > 2 {
                    return None;
                }
            }
        }
        Class::Unicode(u) => {
            for r in u.iter() {
                if r.end() > '\x7f' {
                    return None;
                }
                bytes.extend(r.start() as u8..=r.end() as u8);
                if bytes.len() > 2 {
                    return None;
                }
            }
        }
    }
    match bytes[..] {
        [b] => Some(b.to_ascii_lowercase()),
        [a, b] if a.is_ascii_alphabetic() && a != b && a.eq_ignore_ascii_case(&b) => {
            Some(a.to_ascii_lowercase())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hir(re: &str, ci: bool) -> Hir {
        regex_syntax::ParserBuilder::new()
            .case_insensitive(ci)
            .build()
            .parse(re)
            .unwrap()
    }

    fn or(a: Mask, b: Mask) -> Mask {
        std::array::from_fn(|k| a[k] | b[k])
    }

    #[test]
    fn a_rules_fixed_runs_are_required() {
        let m = required(&hir(r"stalled \S+ mount", false));
        assert_eq!(m, or(line_mask(b"stalled "), line_mask(b" mount")));
        // Folded: under -i too, and a line in capitals holds the rule.
        let folded = required(&hir(r"(?:Dire) (full|FULL)", true));
        assert_eq!(folded, or(line_mask(b"dire "), line_mask(b"full")));
        assert!(may_match(&m, &line_mask(b"x STALLED y MOUNT z")));
        assert!(!may_match(&m, &line_mask(b"stalled y")));
    }

    #[test]
    fn what_a_match_may_skip_requires_nothing() {
        for (re, ci) in [
            (r"a?bcd?", false),
            (r"(abc)*", false),
            (r"[a-z]+", false),
            (r"\bab", false),
            // k and s under -i hold the Kelvin sign and the long s.
            (r"kas", true),
        ] {
            assert_eq!(required(&hir(re, ci)), [0; MASK_WORDS], "{re}");
        }
        let alt = required(&hir(r"abc|xyz", false));
        assert!(may_match(&alt, &line_mask(b"abc")) && may_match(&alt, &line_mask(b"xyz")));
    }

    proptest! {
        /// Every line a rule matches holds the rule's mask.
        #[test]
        fn a_matching_line_holds_the_rule(
            parts in prop::collection::vec(
                prop_oneof![
                    "[a-dA-D ]{1,5}",
                    Just(r"\S+".to_string()),
                    Just("(ab|abd)".to_string()),
                    Just("[cC]".to_string()),
                    Just("(xa)?".to_string()),
                    Just("(da){1,2}".to_string()),
                ],
                1..5,
            ),
            line in "[a-dA-Dx ]{0,40}",
            ci in any::<bool>(),
        ) {
            let re = parts.concat();
            let rx = regex::bytes::RegexBuilder::new(&re).case_insensitive(ci).build().unwrap();
            if rx.is_match(line.as_bytes()) {
                prop_assert!(may_match(&required(&hir(&re, ci)), &line_mask(line.as_bytes())), "{re} {line}");
            }
        }
    }
}
