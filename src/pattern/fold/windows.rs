//! Literal windows for `-i` required literals found on the expression
//! parsed without `-i` (`required::required_case_insensitive`), lowered
//! for matchers that fold ASCII (Aho-Corasick's `ascii_case_insensitive`,
//! the `multi` kernel's fold flag, the `confirm` kernel's lookup).
//!
//! Every case-insensitive occurrence of a literal holds a case-insensitive
//! occurrence of each of its windows, and such an occurrence, its ASCII
//! letters lowered, is one of the window's variants for an ASCII-folding
//! matcher (`ascii_folded_variants`: Unicode simple case folding, as `(?i)`
//! matches, with explicit variants only beyond ASCII). So one window per
//! literal finds a superset of what the literals find under `-i`. Each
//! window is the longest (in bytes of its shortest variant) whose variants
//! fit a literal's share: ASCII letters other than k and s cost nothing,
//! so the windows are most often the whole literals. (Every case variant of
//! windows of a few letters, the thirty-fifth session's, gave 10,000
//! generated rules 642,032 literals and short windows.)

use super::ascii_folded_variants;
use super::ascii_set::folded_orbit;

/// One window per literal of `lits`, each replaced by its variants for a
/// matcher that folds ASCII, sorted and deduplicated, and whether every
/// window is its whole literal; `None` when a literal is not UTF-8 or the
/// share leaves some literal's window empty.
pub fn window_lowered_variants(lits: &[Vec<u8>], cap: usize) -> Option<(Vec<Vec<u8>>, bool)> {
    let share = cap.checked_div(lits.len())?.min(LOWERED_VARIANTS_MAX);
    let mut all = Vec::new();
    let mut whole = true;
    for lit in lits {
        let text = std::str::from_utf8(lit).ok()?;
        let window = longest_window(text, share)?;
        whole &= window.len() == text.len();
        all.extend(ascii_folded_variants(window.as_bytes(), share)?);
    }
    all.sort_unstable();
    all.dedup();
    Some((all, whole))
}

/// Most variants of one literal's window in [`window_lowered_variants`]:
/// one letter with an orbit beyond ASCII (k, s, é) at most. 10,000
/// generated rules, `-c -i` over 16 GiB of CI logs, H200 host (thirty-sixth
/// session): 3.80-4.02 s with every case variant of windows of a few
/// letters, 3.34-3.38 s with lowered windows of any number of variants
/// (55,531 literals), 2.83-2.94 s with at most 2 (compile 0.99-1.03 →
/// 0.78-0.94 s).
const LOWERED_VARIANTS_MAX: usize = 2;

/// A character's variants for an ASCII-folding matcher and its shortest
/// one's bytes.
fn weight(c: char) -> (usize, usize) {
    if c.is_ascii() && !matches!(c.to_ascii_lowercase(), 'k' | 's') {
        return (1, 1);
    }
    let o = folded_orbit(c);
    (o.len(), o.iter().map(Vec::len).min().unwrap_or(0))
}

/// The window of `text` whose variants number at most `share` and whose
/// shortest variant is longest (the last such on a tie: a literal's end is
/// often rarer than its start); `None` when none holds a character.
fn longest_window(text: &str, share: usize) -> Option<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let weights: Vec<(usize, usize)> = chars.iter().map(|&(_, c)| weight(c)).collect();
    let (mut start, mut variants, mut bytes) = (0, 1usize, 0);
    let mut best: Option<(usize, usize, usize)> = None;
    for (end, &(n, b)) in weights.iter().enumerate() {
        variants = variants.saturating_mul(n);
        bytes += b;
        while variants > share && start <= end {
            variants /= weights[start].0;
            bytes -= weights[start].1;
            start += 1;
        }
        if start <= end && best.is_none_or(|(_, _, most)| bytes >= most) {
            best = Some((start, end, bytes));
        }
    }
    let (s, e, _) = best?;
    let to = chars.get(e + 1).map_or(text.len(), |&(i, _)| i);
    Some(&text[chars[s].0..to])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn windows_are_whole_literals_but_for_letters_beyond_ascii() {
        assert_eq!(
            longest_window("Connection Timeout", 2),
            Some("Connection Timeout")
        );
        // k and s have two variants each (the Kelvin sign, the long s).
        assert_eq!(longest_window("disk full", 2), Some("k full"));
        assert_eq!(longest_window("disk full", 4), Some("disk full"));
        assert_eq!(longest_window("k", 1), None);
        assert_eq!(longest_window("12", 1), Some("12"));
    }

    #[test]
    fn variants_are_lowered_and_within_the_share() {
        let lits = [b"Connection Timeout".to_vec(), b"KISS".to_vec()];
        let (set, whole) = window_lowered_variants(&lits, 256).unwrap();
        assert!(!whole);
        assert!(set.contains(&b"connection timeout".to_vec()));
        // At most 2 variants: one of k and s in the window of `KISS`, the
        // last of the longest (`is`, with the long s).
        assert!(set.contains(&b"is".to_vec()) && set.contains(&"i\u{17F}".as_bytes().to_vec()));
        assert_eq!(set.len(), 3);
        assert_eq!(window_lowered_variants(&[b"\xff".to_vec()], 16), None);
        assert_eq!(window_lowered_variants(&[], 16), None);
    }

    proptest! {
        /// Every string that holds a literal case-insensitively holds one
        /// of the variants, ASCII letters lowered.
        #[test]
        fn variants_find_every_case_insensitive_occurrence(
            lits in prop::collection::vec("[a-zA-Z0-9kKsSß _é\u{212A}\u{17F}]{1,8}", 1..4),
            pick in 0usize..4,
            cap in 1usize..300,
            before in "[a-z ]{0,3}",
            after in "[a-z ]{0,3}",
        ) {
            let bytes: Vec<Vec<u8>> = lits.iter().map(|l| l.as_bytes().to_vec()).collect();
            let Some((set, _)) = window_lowered_variants(&bytes, cap) else { return Ok(()) };
            prop_assert!(set.len() <= cap.max(lits.len()) * LOWERED_VARIANTS_MAX);
            // The chosen literal written in another case.
            let lit = &lits[pick % lits.len()];
            let re = regex::Regex::new(&format!("(?i:{})", regex::escape(lit))).unwrap();
            let swapped: String = lit.chars().map(|c| match c.is_lowercase() {
                true => c.to_uppercase().next().unwrap_or(c),
                false => c.to_lowercase().next().unwrap_or(c),
            }).collect();
            let hay = format!("{before}{swapped}{after}").to_ascii_lowercase();
            if re.is_match(&hay) {
                prop_assert!(
                    set.iter().any(|v| hay.as_bytes().windows(v.len()).any(|w| w == &v[..])),
                    "{hay:?} holds {lit:?} but none of {set:?}"
                );
            }
        }
    }
}
