//! A `-i` literal set for matchers that fold ASCII themselves: each literal
//! with its ASCII letters lowered, plus explicit variants only where
//! Unicode simple case folding goes beyond ASCII.
//!
//! Enumerating every case variant (`fold::case_variants`) doubles a
//! literal per letter, so a real word list exceeds any cap and `-i` fell
//! back to a regex alternation (slow on the CPU, no GPU). An ASCII-folding
//! matcher (Aho-Corasick's `ascii_case_insensitive`, the q-gram filter,
//! the GPU's `multi` kernel with its fold flag) matches `A` and `a` at a
//! lowered `a` and leaves bytes >= 0x80 alone, so only the non-ASCII members
//! of a character's orbit need a variant of their own: `é` gives {é, É},
//! `k` gives {k, U+212A KELVIN SIGN}, `s` {s, U+017F LONG S} (and the
//! Kelvin sign, in a pattern, gives {k, U+212A}). The orbits are the
//! `regex` crate's simple case folding, which is what the CPU engine's
//! `-i` regex matches, so the set finds exactly what `(?i)` finds: every
//! ASCII letter's orbit holds both its cases, and the folding matcher
//! accepts exactly those two at a lowered letter.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

/// The orbit of `c` under simple case folding, ASCII members lowered and
/// deduplicated, each as UTF-8.
pub(super) fn folded_orbit(c: char) -> Vec<Vec<u8>> {
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    class.case_fold_simple();
    let mut out: Vec<Vec<u8>> = class
        .iter()
        .flat_map(|r| r.start()..=r.end())
        .map(|o| o.to_ascii_lowercase().to_string().into_bytes())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `lit`'s variants for an ASCII-folding matcher, or `None` when it is not
/// UTF-8 or needs more than `cap` of them.
pub fn ascii_folded_variants(lit: &[u8], cap: usize) -> Option<Vec<Vec<u8>>> {
    let text = std::str::from_utf8(lit).ok()?;
    let mut variants: Vec<Vec<u8>> = vec![Vec::with_capacity(lit.len())];
    for c in text.chars() {
        if c.is_ascii() {
            let b = c.to_ascii_lowercase() as u8;
            // Only k and s have orbits beyond ASCII.
            if b != b'k' && b != b's' {
                variants.iter_mut().for_each(|v| v.push(b));
                continue;
            }
        }
        let orbit = folded_orbit(c);
        if orbit.len() == 1 {
            variants
                .iter_mut()
                .for_each(|v| v.extend_from_slice(&orbit[0]));
            continue;
        }
        variants = super::each_followed_by(&variants, &orbit, cap)?;
    }
    Some(variants)
}

/// [`ascii_folded_variants`] of every literal, sorted and deduplicated;
/// `None` when any literal has none (not UTF-8, or over `cap_per_literal`).
pub fn ascii_folded_set(lits: &[Vec<u8>], cap_per_literal: usize) -> Option<Vec<Vec<u8>>> {
    let mut all = Vec::with_capacity(lits.len());
    for l in lits {
        all.extend(ascii_folded_variants(l, cap_per_literal)?);
    }
    all.sort();
    all.dedup();
    Some(all)
}

/// `lits` (case variants of literals) with their ASCII letters lowered,
/// sorted and deduplicated: an ASCII-folding matcher finds in any text what
/// `lits` find there, and variants that differ only in ASCII case become
/// one literal.
pub fn ascii_lowered(lits: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut lowered: Vec<Vec<u8>> = lits.iter().map(|l| l.to_ascii_lowercase()).collect();
    lowered.sort_unstable();
    lowered.dedup();
    lowered
}

#[cfg(test)]
mod tests;
