//! Confirmation: turning candidates into exact matches on one line.
//!
//! A prefilter (memchr, Aho-Corasick or the GPU) reports where a literal
//! occurs; whether the line really matches may depend on more: `-w` (the
//! match is a whole word), `-x` (the whole line). These matchers answer that
//! on a single line, so they can afford to look at every occurrence.
//!
//! Word characters are GNU grep's (`_` and `[:alnum:]`), not the `regex`
//! crate's `\w`, which also holds marks and connector punctuation: a `-w`
//! regex accepts one of those beside the match and reports the match
//! without it ([`WordRegex`]).

use crate::engine::Matcher;
use aho_corasick::AhoCorasick;
use std::collections::HashSet;
use std::ops::Range;

mod word;
mod word_rules;

pub use word::{is_word_char, word_regex, WordRegex};
pub use word_rules::WordRules;

/// The character ending just before `pos`, when UTF-8.
pub(crate) fn char_before(hay: &[u8], pos: usize) -> Option<char> {
    let tail = &hay[pos.saturating_sub(4)..pos];
    (0..tail.len()).find_map(|i| {
        std::str::from_utf8(&tail[i..])
            .ok()
            .and_then(|s| s.chars().next_back())
    })
}

/// The character starting at `pos`, when UTF-8.
pub(crate) fn char_after(hay: &[u8], pos: usize) -> Option<char> {
    let head = &hay[pos..(pos + 4).min(hay.len())];
    (1..=head.len()).find_map(|n| {
        std::str::from_utf8(&head[..n])
            .ok()
            .and_then(|s| s.chars().next())
    })
}

/// The character before `pos` is a word character, as GNU grep decides it:
/// the character holding the byte before `pos`, so that inside `é` (an
/// empty match between its bytes) `é` is before, and inside `«` it is `«`.
pub fn word_before(hay: &[u8], pos: usize) -> bool {
    let Some(last) = pos.checked_sub(1) else {
        return false;
    };
    if let Some(&b) = hay.get(last).filter(|b| b.is_ascii()) {
        return is_ascii_word(b);
    }
    (0..=3.min(last))
        .find_map(|back| {
            let start = last - back;
            let width = utf8_width(hay[start]);
            if width <= back {
                return None;
            }
            let bytes = hay.get(start..start + width)?;
            std::str::from_utf8(bytes).ok()?.chars().next()
        })
        .is_some_and(is_word_char)
}

/// The character starting at `pos` is a word character.
pub fn word_after(hay: &[u8], pos: usize) -> bool {
    match hay.get(pos) {
        Some(&b) if b.is_ascii() => is_ascii_word(b),
        _ => char_after(hay, pos).is_some_and(is_word_char),
    }
}

/// [`is_word_char`] for an ASCII byte (the common case, without decoding):
/// `[0-9A-Za-z_]`, the word bytes of `-w` on ASCII text wherever it is
/// decided (the GPU's automata, its tallies).
pub fn is_ascii_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the UTF-8 sequence a byte leads (0 for a continuation or
/// invalid byte).
pub(crate) fn utf8_width(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// `-w` over a set of literals: the leftmost occurrence (longest first at a
/// position) with no word character on either side.
pub struct WordLiterals {
    /// Standard semantics, so overlapping occurrences are all reported.
    ac: AhoCorasick,
}

impl WordLiterals {
    pub fn new(ac: AhoCorasick) -> WordLiterals {
        WordLiterals { ac }
    }
}

impl WordLiterals {
    /// Every occurrence at or after `at` that is a whole word.
    fn words<'h>(&'h self, hay: &'h [u8], at: usize) -> impl Iterator<Item = Range<usize>> + 'h {
        let input = aho_corasick::Input::new(hay).range(at.min(hay.len())..);
        self.ac
            .find_overlapping_iter(input)
            .map(|m| m.range())
            .filter(move |r| !word_before(hay, r.start) && !word_after(hay, r.end))
    }
}

impl Matcher for WordLiterals {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        self.words(hay, at)
            .min_by_key(|r| (r.start, usize::MAX - r.end))
    }

    /// Any whole-word occurrence decides the line: no need for the longest.
    fn is_match_line(&self, line: &[u8]) -> bool {
        self.words(line, 0).next().is_some()
    }
}

/// `-x` over a set of literals: the line equals one of them.
pub struct LineLiterals {
    set: HashSet<Vec<u8>>,
    ascii_case_insensitive: bool,
}

impl LineLiterals {
    pub fn new(patterns: &[Vec<u8>], ascii_case_insensitive: bool) -> LineLiterals {
        let fold = |p: &Vec<u8>| {
            if ascii_case_insensitive {
                p.to_ascii_lowercase()
            } else {
                p.clone()
            }
        };
        LineLiterals {
            set: patterns.iter().map(fold).collect(),
            ascii_case_insensitive,
        }
    }
}

impl Matcher for LineLiterals {
    fn find_at(&self, line: &[u8], at: usize) -> Option<Range<usize>> {
        if at != 0 {
            return None;
        }
        let hit = if self.ascii_case_insensitive {
            self.set.contains(&line.to_ascii_lowercase())
        } else {
            self.set.contains(line)
        };
        hit.then_some(0..line.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_neighbours_decode_utf8() {
        let s = "é-x".as_bytes();
        assert!(word_before(s, 2));
        assert!(!word_after(s, 2));
        assert!(word_after(s, 0));
        assert!(!word_before(s, 0));
        assert!(!word_before(b"\xff", 1));
    }

    #[test]
    fn word_literals_fall_back_to_shorter_occurrence() {
        let ac = AhoCorasick::new(["a", "a-b"]).unwrap();
        let m = WordLiterals::new(ac);
        // "a-b" is followed by a word character; "a" is followed by '-'.
        assert_eq!(m.find_at(b"a-bc", 0), Some(0..1));
        assert_eq!(m.find_at(b"xa-b", 0), None);
        assert_eq!(m.find_at(b"x a-b", 0), Some(2..5));
    }

    #[test]
    fn word_before_inside_a_character_is_that_character() {
        // Between the two bytes of "é" (a word character) and of "«" (not).
        assert!(word_before("é".as_bytes(), 1));
        assert!(!word_before("a«b".as_bytes(), 2));
        assert!(!word_after("a«b".as_bytes(), 2));
        assert!(word_before("a€".as_bytes(), 1) && !word_before("a€".as_bytes(), 3));
    }

    #[test]
    fn line_literals_fold_ascii() {
        let m = LineLiterals::new(&[b"Foo".to_vec()], true);
        assert_eq!(m.find_at(b"fOO", 0), Some(0..3));
        assert_eq!(m.find_at(b"fOO ", 0), None);
    }
}
