//! Confirmation: turning candidates into exact matches on one line.
//!
//! A prefilter (memchr, Aho-Corasick or the GPU) reports where a literal
//! occurs; whether the line really matches may depend on more: `-w` (the
//! match is a whole word), `-x` (the whole line). These matchers answer that
//! on a single line, so they can afford to look at every occurrence.

use crate::engine::Matcher;
use aho_corasick::AhoCorasick;
use std::collections::HashSet;
use std::ops::Range;

/// True when `c` is a word character for `-w`: Unicode `\w`, as the regex
/// path's `\b{start-half}`/`\b{end-half}` use.
fn is_word_char(c: char) -> bool {
    regex_syntax::is_word_character(c)
}

/// The character ending just before `pos` is a word character.
pub fn word_before(hay: &[u8], pos: usize) -> bool {
    let start = pos.saturating_sub(4);
    let tail = &hay[start..pos];
    (0..tail.len())
        .find_map(|i| {
            std::str::from_utf8(&tail[i..])
                .ok()
                .and_then(|s| s.chars().next_back())
        })
        .is_some_and(is_word_char)
}

/// The character starting at `pos` is a word character.
pub fn word_after(hay: &[u8], pos: usize) -> bool {
    let end = (pos + 4).min(hay.len());
    let head = &hay[pos..end];
    (1..=head.len())
        .find_map(|n| {
            std::str::from_utf8(&head[..n])
                .ok()
                .and_then(|s| s.chars().next())
        })
        .is_some_and(is_word_char)
}

/// `pos` falls inside a UTF-8 character (after its first byte): no match
/// may start or end there (GNU grep's matcher steps by characters, so
/// `-w ''` does not match between the two bytes of `é`).
pub fn inside_char(hay: &[u8], pos: usize) -> bool {
    (1..=3.min(pos)).any(|back| {
        let start = pos - back;
        let width = utf8_width(hay[start]);
        width > back
            && hay
                .get(start..start + width)
                .is_some_and(|c| std::str::from_utf8(c).is_ok())
    })
}

/// The length of the UTF-8 sequence a byte leads (0 for a continuation or
/// invalid byte).
fn utf8_width(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// `-w` over a set of literals: the leftmost occurrence (longest first at a
/// position) with no word character on either side, on character
/// boundaries.
pub struct WordLiterals {
    /// Standard semantics, so overlapping occurrences are all reported.
    ac: AhoCorasick,
}

impl WordLiterals {
    pub fn new(ac: AhoCorasick) -> WordLiterals {
        WordLiterals { ac }
    }
}

impl Matcher for WordLiterals {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let input = aho_corasick::Input::new(hay).range(at..);
        self.ac
            .find_overlapping_iter(input)
            .map(|m| m.range())
            .filter(|r| !word_before(hay, r.start) && !word_after(hay, r.end))
            .filter(|r| !inside_char(hay, r.start) && !inside_char(hay, r.end))
            .min_by_key(|r| (r.start, usize::MAX - r.end))
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
    fn inside_char_finds_positions_within_utf8_sequences() {
        let s = "aé€😀".as_bytes();
        let inside: Vec<usize> = (0..=s.len()).filter(|&p| inside_char(s, p)).collect();
        assert_eq!(inside, [2, 4, 5, 7, 8, 9]);
        assert!(!inside_char(b"\xC3", 1) && !inside_char(b"a\xA9", 1));
    }

    #[test]
    fn line_literals_fold_ascii() {
        let m = LineLiterals::new(&[b"Foo".to_vec()], true);
        assert_eq!(m.find_at(b"fOO", 0), Some(0..3));
        assert_eq!(m.find_at(b"fOO ", 0), None);
    }
}
