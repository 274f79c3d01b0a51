//! Case variants of a literal, so a case-insensitive literal search can run
//! as an exact search for a set (the GPU's `multi` kernel).
//!
//! Each character is replaced by its orbit under Unicode simple case
//! folding, as the `regex` crate computes it for `(?i)` (so `k` also gives
//! the Kelvin sign U+212A, `s` the long s U+017F); the variants are every
//! combination, encoded as UTF-8. A byte sequence matches the literal
//! case-insensitively exactly when it equals one of them, which is what the
//! CPU engine's `-i` matches. For a matcher that folds ASCII itself, the
//! variants beyond ASCII alone are enough (`ascii_set`).

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

mod ascii_set;
mod windows;
pub use ascii_set::{ascii_folded_set, ascii_folded_variants, ascii_lowered};
pub use windows::window_lowered_variants;

/// Every case variant of `lit`, or `None` when it is not UTF-8 or has more
/// than `cap` variants.
pub fn case_variants(lit: &[u8], cap: usize) -> Option<Vec<Vec<u8>>> {
    let text = std::str::from_utf8(lit).ok()?;
    let mut variants: Vec<Vec<u8>> = vec![Vec::new()];
    for c in text.chars() {
        variants = each_followed_by(&variants, &orbit(c), cap)?;
    }
    Some(variants)
}

/// The orbit of `c` under simple case folding, each member as UTF-8 (an
/// ASCII character's from a table of them, built once: a rule pack's
/// literals ask for thousands).
fn orbit(c: char) -> Vec<Vec<u8>> {
    static ASCII: std::sync::OnceLock<Vec<Vec<Vec<u8>>>> = std::sync::OnceLock::new();
    match u8::try_from(c).ok().filter(u8::is_ascii) {
        Some(b) => ASCII.get_or_init(|| (0..128u8).map(|b| fold_orbit(char::from(b))).collect())
            [usize::from(b)]
        .clone(),
        None => fold_orbit(c),
    }
}

fn fold_orbit(c: char) -> Vec<Vec<u8>> {
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    class.case_fold_simple();
    class
        .iter()
        .flat_map(|r| r.start()..=r.end())
        .map(|o| o.encode_utf8(&mut [0; 4]).as_bytes().to_vec())
        .collect()
}

/// One character of `c`'s orbit under simple case folding, the same for
/// every character of it (`ſ`, `s` and `S` all give `s`).
pub fn canonical(c: char) -> char {
    let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    class.case_fold_simple();
    let least = class.iter().map(|r| r.start()).min().unwrap_or(c);
    least.to_ascii_lowercase()
}

/// Every one of `variants` followed by each of `orbit`; `None` when that
/// makes more than `cap`.
fn each_followed_by(variants: &[Vec<u8>], orbit: &[Vec<u8>], cap: usize) -> Option<Vec<Vec<u8>>> {
    if variants.len().checked_mul(orbit.len())? > cap {
        return None;
    }
    let next = variants.iter().flat_map(|v| {
        orbit.iter().map(move |o| {
            let mut v = v.clone();
            v.extend_from_slice(o);
            v
        })
    });
    Some(next.collect())
}

/// Candidates for ASCII literals searched with ASCII case folding: for each
/// literal, every case variant of its longest window holding few enough
/// letters that all variants together stay within `cap` (Teddy's 64
/// patterns is the point: a SIMD search for a few dozen short strings).
/// Every case-insensitive occurrence of a literal holds a variant of its
/// window, so the set finds a superset of the matches. `None` when a
/// literal is not ASCII or the budget leaves fewer than two letters each.
pub fn ascii_window_variants(lits: &[Vec<u8>], cap: usize) -> Option<Vec<Vec<u8>>> {
    ascii_window_variants_avoiding(lits, cap, &[])
}

/// [`ascii_window_variants`] with windows that hold none of the bytes
/// `avoid` (`kKsS`, whose Unicode case orbits go beyond ASCII: their
/// windows' ASCII variants would miss the Kelvin sign and the long s; or
/// the bytes beyond ASCII, which literals may then hold); with bytes to
/// avoid, `None` also when a literal's window is shorter than 3 bytes.
pub fn ascii_window_variants_avoiding(
    lits: &[Vec<u8>],
    cap: usize,
    avoid: &[u8],
) -> Option<Vec<Vec<u8>>> {
    let allowed = |l: &Vec<u8>| l.iter().all(|b| b.is_ascii() || avoid.contains(b));
    if lits.is_empty() || lits.iter().any(|l| l.is_empty() || !allowed(l)) {
        return None;
    }
    let per_literal = cap / lits.len();
    // Letters a window may hold: 2^letters variants each.
    let letters_max = usize::BITS - 1 - per_literal.max(1).leading_zeros();
    if letters_max < 2 {
        return None;
    }
    let mut out = Vec::new();
    for lit in lits {
        let window = longest_window(lit, letters_max as usize, avoid);
        if !avoid.is_empty() && window.len() < 3 {
            return None;
        }
        let mut variants: Vec<Vec<u8>> = vec![Vec::with_capacity(window.len())];
        for &b in window {
            if b.is_ascii_alphabetic() {
                variants = variants
                    .into_iter()
                    .flat_map(|v| {
                        let mut upper = v.clone();
                        upper.push(b.to_ascii_uppercase());
                        let mut lower = v;
                        lower.push(b.to_ascii_lowercase());
                        [lower, upper]
                    })
                    .collect();
            } else {
                variants.iter_mut().for_each(|v| v.push(b));
            }
        }
        out.extend(variants);
    }
    out.sort();
    out.dedup();
    Some(out)
}

/// The longest run of `lit` holding at most `letters` ASCII letters and
/// none of `avoid` (the last such run on a tie: a literal's end is often
/// rarer than its start).
fn longest_window<'l>(lit: &'l [u8], letters: usize, avoid: &[u8]) -> &'l [u8] {
    let mut best = 0..0;
    let mut start = 0;
    let mut held = 0;
    for (end, &b) in lit.iter().enumerate() {
        if avoid.contains(&b) {
            start = end + 1;
            held = 0;
            continue;
        }
        held += usize::from(b.is_ascii_alphabetic());
        while held > letters {
            held -= usize::from(lit[start].is_ascii_alphabetic());
            start += 1;
        }
        if end + 1 - start >= best.len() {
            best = start..end + 1;
        }
    }
    &lit[best]
}

/// Case variants of every literal, together; `None` when any literal has
/// none or the set would exceed `cap`.
pub fn set_variants(lits: &[Vec<u8>], cap: usize) -> Option<Vec<Vec<u8>>> {
    let mut all = Vec::new();
    for l in lits {
        all.extend(case_variants(l, cap.checked_sub(all.len())?)?);
    }
    all.sort();
    all.dedup();
    Some(all)
}

/// Every combination of cases of `l`'s ASCII letters, other bytes as they
/// are (a naive oracle for the tests).
#[cfg(test)]
pub(crate) fn ascii_case_combinations(l: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for &b in l {
        let cases = [b.to_ascii_lowercase(), b.to_ascii_uppercase()];
        let cases = &cases[..1 + usize::from(cases[0] != cases[1])];
        out = out
            .into_iter()
            .flat_map(|v| {
                cases.iter().map(move |&c| {
                    let mut v = v.clone();
                    v.push(c);
                    v
                })
            })
            .collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn strs(v: Vec<Vec<u8>>) -> Vec<String> {
        v.into_iter()
            .map(|b| String::from_utf8(b).unwrap())
            .collect()
    }

    #[test]
    fn ascii_letters_and_the_two_unicode_orbits() {
        assert_eq!(strs(case_variants(b"a1", 10).unwrap()), ["A1", "a1"]);
        assert_eq!(
            strs(case_variants(b"k", 10).unwrap()),
            ["K", "k", "\u{212A}"]
        );
        assert_eq!(
            strs(case_variants(b"S", 10).unwrap()),
            ["S", "s", "\u{17F}"]
        );
        assert_eq!(case_variants(b"abcdefgh", 255), None);
        assert_eq!(case_variants(b"abcdefgh", 256).unwrap().len(), 256);
        assert_eq!(case_variants(b"\xff", 10), None);
        assert_eq!(
            set_variants(&[b"ab".to_vec(), b"AB".to_vec()], 10)
                .unwrap()
                .len(),
            4
        );
    }

    proptest! {
        /// A string matches `(?i)lit` exactly when it is one of the variants.
        #[test]
        fn variants_are_what_regex_ignore_case_matches(
            lit in "[a-zA-Z0-9kKsSß _é]{1,4}",
            other in "[a-zA-Z0-9kKsSß _é\u{212A}\u{17F}]{1,4}",
        ) {
            let re = regex::Regex::new(&format!("^(?i:{})$", regex::escape(&lit))).unwrap();
            let variants = case_variants(lit.as_bytes(), 1 << 16).unwrap();
            for v in &variants {
                prop_assert!(re.is_match(std::str::from_utf8(v).unwrap()), "{:?}", v);
            }
            prop_assert_eq!(re.is_match(&other), variants.contains(&other.as_bytes().to_vec()));
        }
    }

    #[test]
    fn window_variants_cover_every_case_insensitive_occurrence() {
        let lits = [b"connection timeout".to_vec(), b"to-do".to_vec()];
        let set = ascii_window_variants(&lits, 64).unwrap();
        assert!(set.len() <= 64);
        let ac = aho_corasick::AhoCorasick::new(&set).unwrap();
        for hay in [
            &b"CONNECTION TIMEOUT"[..],
            b"Connection Timeout",
            b"TO-do",
            b"to-DO",
        ] {
            assert!(ac.is_match(hay), "{}", String::from_utf8_lossy(hay));
        }
        // 32 literals leave one letter each: not worth a prefilter.
        let many: Vec<Vec<u8>> = (0..40).map(|i| format!("word{i}").into_bytes()).collect();
        assert_eq!(ascii_window_variants(&many, 64), None);
        assert_eq!(
            ascii_window_variants(&[b"\xc3\xa9t\xc3\xa9".to_vec()], 64),
            None
        );
    }

    #[test]
    fn canonical_is_one_for_each_orbit() {
        assert_eq!(canonical('\u{17F}'), 's');
        assert_eq!(canonical('S'), 's');
        assert_eq!(canonical('\u{212A}'), 'k');
        assert_eq!(canonical('K'), 'k');
        assert_eq!(canonical('é'), canonical('É'));
        assert_eq!(canonical('1'), '1');
    }

    #[test]
    fn longest_window_holds_at_most_the_letters() {
        assert_eq!(longest_window(b"abcdef", 3, &[]), b"def");
        assert_eq!(longest_window(b"a b c", 2, &[]), b" b c");
        assert_eq!(longest_window(b"12345", 0, &[]), b"12345");
        assert_eq!(longest_window(b"hack the box", 4, b"kKsS"), b" the b");
        assert_eq!(longest_window(b"kiss", 4, b"kKsS"), b"i");
    }
}
