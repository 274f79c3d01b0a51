//! GNU grep's word characters for `-w`, on top of the `regex` crate's.
//!
//! GNU's word characters are `_` and `[:alnum:]` (alphabetic characters
//! and decimal digits). The crate's `\w`, which its word boundaries use,
//! also holds marks that are not alphabetic (U+0301), connector punctuation
//! other than `_` (U+203F) and the joiners: beside one of those, GNU's `-w`
//! holds where `\b{start-half}` fails. Such characters are rare, so `-w`
//! regexes run the crate's fast boundaries and switch to an exact (slower)
//! regex only where one is near (see [`WordRegex`]); finding them must cost
//! little, hence a bitmap of the Basic Multilingual Plane.

use super::{char_after, char_before, word_after, word_before, WordRules};
use crate::engine::cpu::cached::CachedRegex;
use crate::engine::cpu::RuleSet;
use crate::engine::Matcher;
use regex_automata::meta::Regex;
use regex_automata::Input;
use std::ops::Range;

/// True when `c` is a word character for `-w`: `_`, `Alphabetic` and
/// decimal digits (as `pattern::posix_class`'s `[:alnum:]`).
pub fn is_word_char(c: char) -> bool {
    c == '_' || c.is_alphabetic() || (c.is_numeric() && regex_syntax::is_word_character(c))
}

/// In the crate's `\w` and not a word character: the characters where the
/// two boundaries differ. All are U+0300 or above.
fn regex_only(c: char) -> bool {
    regex_syntax::is_word_character(c) && !is_word_char(c)
}

/// [`regex_only`] as a class for the `regex` crate.
const REGEX_ONLY: &str = r"[\p{M}\p{Pc}\p{Join_Control}--[_\p{Alphabetic}]]";

/// The regex for `-w` around `inner`: GNU's word boundaries (one of the
/// [`regex_only`] characters may stand beside the match, and is then part
/// of the regex's match), the match itself in the capture group `w`.
pub fn word_regex(inner: &str) -> String {
    let d = REGEX_ONLY;
    format!(r"(?:\b{{start-half}}|{d})(?P<w>{inner})(?:\b{{end-half}}|{d})")
}

/// [`regex_only`] for the BMP, one bit per code point (8 KiB).
struct Bitmap(Box<[u64]>);

impl Bitmap {
    fn new() -> Bitmap {
        let mut bits = vec![0u64; 0x10000 / 64].into_boxed_slice();
        for cp in 0x300..0x10000u32 {
            if char::from_u32(cp).is_some_and(regex_only) {
                bits[cp as usize / 64] |= 1 << (cp % 64);
            }
        }
        Bitmap(bits)
    }

    fn has(&self, cp: u32) -> bool {
        match char::from_u32(cp) {
            Some(c) if cp >= 0x10000 => regex_only(c),
            Some(_) => self.0[cp as usize / 64] & (1 << (cp % 64)) != 0,
            None => false,
        }
    }

    /// `bytes` hold a [`regex_only`] character (whole, as UTF-8).
    fn any_in(&self, bytes: &[u8]) -> bool {
        // Most text is ASCII, or nearly: only lead bytes from 0xCC on start
        // characters from U+0300 on.
        if bytes.is_ascii() {
            return false;
        }
        let mut i = 0;
        while let Some(skip) = bytes[i..].iter().position(|&b| b >= 0xCC) {
            i += skip;
            let width = super::utf8_width(bytes[i]);
            let c = bytes
                .get(i..i + width)
                .and_then(|s| std::str::from_utf8(s).ok())
                .and_then(|s| s.chars().next());
            match c {
                Some(c) if self.has(c as u32) => return true,
                Some(_) => i += width,
                None => i += 1,
            }
        }
        false
    }
}

/// GNU grep's `-w` for a pattern that can match the empty string. GNU
/// takes the longest match at the leftmost place a match starts; when
/// a word character stands beside it, the longest shorter one there that
/// is not empty, and so on; when none will do, it looks on from the next
/// byte. So an empty match counts only where it is the longest match at
/// its place: `-w -E '#?'` does not select `#ifdef` (the `#` is followed
/// by `i`), where the boundaries around the pattern (`\b{start-half}`,
/// leftmost-first) would take the empty match before the `#`.
struct EmptyRule {
    /// The pattern, leftmost-first: where the next match starts.
    starts: CachedRegex,
    /// The pattern reporting its longest match (`MatchKind::All`),
    /// searched anchored where a match starts.
    longest: CachedRegex,
}

impl EmptyRule {
    /// The end of the longest match starting at `start` and ending by
    /// `bound`; what lies beyond `bound` is still its context.
    fn longest_end(&self, hay: &[u8], start: usize, bound: usize) -> Option<usize> {
        let input = Input::new(hay)
            .span(start..bound)
            .anchored(regex_automata::Anchored::Yes);
        self.longest.search_half(&input).map(|h| h.offset())
    }

    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let mut next = at;
        while next <= hay.len() {
            let start = self.starts.search(&from(hay, next))?.start();
            let mut end = self.longest_end(hay, start, hay.len());
            while let Some(e) = end {
                if !word_before(hay, start) && !word_after(hay, e) {
                    return Some(start..e);
                }
                end = e
                    .checked_sub(1)
                    .and_then(|bound| self.longest_end(hay, start, bound))
                    .filter(|&shorter| shorter > start);
            }
            next = start + 1;
        }
        None
    }
}

/// `-w` as a regex, on one candidate line: exact on GNU's
/// word characters, at the speed of the `regex` crate's own boundaries.
///
/// `fast` is `\b{start-half}(?:P)\b{end-half}` and `full` is
/// [`word_regex`]`(P)`. They can differ only next to a [`regex_only`]
/// character, and matches never cross lines: where the text from just
/// before `at` to the end of the line of `fast`'s match holds none, `fast`
/// answers; else `full`, whose match is its group `w`.
pub struct WordRegex {
    regexes: Regexes,
    others: Bitmap,
    terminator: u8,
    /// GNU's rule for a pattern that can match the empty string.
    empty: Option<EmptyRule>,
}

/// `fast` and `full`: one regex each (`full`'s match in its group `w`),
/// each with a cache per search thread (`-o -w -E '[a-z]+ing'` asks them
/// once per match: through the regexes' own pools, 16 threads on the GPU
/// host spent 0.73 s of CPU where ripgrep spent 0.33 s; now 0.33 s), or a
/// rule pack's rules, each its own regex (`engine::cpu::RuleSet`: a line
/// holding a rule's literals tries that rule alone), which answer as their
/// alternation does, and their own `full` regexes (`WordRules`).
enum Regexes {
    One {
        fast: CachedRegex,
        full: CachedRegex,
        group: usize,
    },
    Rules {
        fast: RuleSet,
        full: WordRules,
    },
}

impl WordRegex {
    /// `None` when `full` has no group `w`. `empty`: where the pattern can
    /// match the empty string, the pattern alone, leftmost-first and
    /// reporting its longest match (`MatchKind::All`).
    pub fn new(
        fast: Regex,
        full: Regex,
        empty: Option<(Regex, Regex)>,
        terminator: u8,
    ) -> Option<WordRegex> {
        let group = full
            .group_info()
            .to_index(regex_automata::PatternID::ZERO, "w")?;
        let (fast, full) = (CachedRegex::new(fast), CachedRegex::new(full));
        let mut word = WordRegex::with(Regexes::One { fast, full, group }, terminator);
        word.empty = empty.map(|(starts, longest)| EmptyRule {
            starts: CachedRegex::new(starts),
            longest: CachedRegex::new(longest),
        });
        Some(word)
    }

    /// [`WordRegex::new`] for a rule pack: its rules as `fast`, each
    /// `\b{start-half}(?:R)\b{end-half}`, answering as the alternation of
    /// them, and as `full` each rule's own [`word_regex`]. 1,000 generated
    /// rules, `-w -c` over 4 GiB of CI logs, H200 host, 16 threads, CPU
    /// engine: 9.5-9.7 s with the alternation's regex, 3.0-3.8 s this way
    /// (rg 5.5 s).
    pub fn with_rules(fast: RuleSet, full: WordRules, terminator: u8) -> WordRegex {
        WordRegex::with(Regexes::Rules { fast, full }, terminator)
    }

    fn with(regexes: Regexes, terminator: u8) -> WordRegex {
        WordRegex {
            regexes,
            others: Bitmap::new(),
            terminator,
            empty: None,
        }
    }

    fn fast_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        match &self.regexes {
            Regexes::One { fast, .. } => fast.search(&from(hay, at)).map(|m| m.range()),
            Regexes::Rules { fast, .. } => fast.find_at(hay, at),
        }
    }

    fn full_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let (full, group) = match &self.regexes {
            Regexes::One { full, group, .. } => (full, *group),
            Regexes::Rules { fast, full } => return full.find_at(fast, hay, at),
        };
        let input = from(hay, at);
        let m = full.search(&input)?;
        let taken = |c: Option<char>| c.is_some_and(regex_only);
        // Only a match that starts or ends with such a character may hold
        // more than the group (captures are slower: the rare case).
        if !taken(char_after(hay, m.start())) && !taken(char_before(hay, m.end())) {
            return Some(m.range());
        }
        full.group_at(&input, group).map(|s| s.range())
    }
}

impl Matcher for WordRegex {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        if let Some(rule) = &self.empty {
            return rule.find_at(hay, at);
        }
        let fast = self.fast_at(hay, at);
        // What a match from `at` on can touch: the character before `at`
        // (4 bytes at most) to the end of the line where `fast` matched.
        let to = match &fast {
            Some(m) => {
                memchr::memchr(self.terminator, &hay[m.start..]).map_or(hay.len(), |i| m.start + i)
            }
            None => hay.len(),
        };
        if !self.others.any_in(&hay[at.saturating_sub(4)..to]) {
            return fast;
        }
        self.full_at(hay, at)
    }

    /// As `find_at(line, 0)`: `fast` answers for a line without a
    /// [`regex_only`] character, without finding the match's bounds (one
    /// regex: no reverse search; a rule pack: its rules' own answer); a
    /// line with one goes to `full` at once (`find_at` would look again).
    fn is_match_line(&self, line: &[u8]) -> bool {
        match &self.regexes {
            _ if self.empty.is_some() => self.find_at(line, 0).is_some(),
            _ if self.others.any_in(line) => self.full_at(line, 0).is_some(),
            Regexes::One { fast, .. } => fast.is_match(line),
            Regexes::Rules { fast, .. } => fast.is_match_line(line),
        }
    }
}

/// A search of `hay` from `at` on, the text before `at` its context (as
/// `regex::bytes::Regex::find_at`).
fn from(hay: &[u8], at: usize) -> Input<'_> {
    Input::new(hay).span(at..hay.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_characters_are_gnus() {
        assert!(is_word_char('_') && is_word_char('é') && is_word_char('٣'));
        assert!(!is_word_char('\u{301}') && !is_word_char('\u{203f}') && !is_word_char('²'));
    }

    #[test]
    fn bitmap_finds_exactly_the_regex_only_characters() {
        let re = regex::Regex::new(&format!("^{REGEX_ONLY}$")).unwrap();
        let map = Bitmap::new();
        for c in (0..0x30000).filter_map(char::from_u32) {
            assert_eq!(map.has(c as u32), re.is_match(&c.to_string()), "{c:?}");
        }
        assert!(map.any_in("abcdefghé e\u{301}".as_bytes()));
        assert!(!map.any_in("abcdefghé Жж".as_bytes()));
        assert!(map.any_in("x\u{203f}".as_bytes()));
        assert!(!map.any_in(b"\xcc"));
    }

    /// The word regexes keep a cache per search thread (they went through
    /// their pools, fresh caches for threads that found theirs locked:
    /// `-o -w` at 16 threads spent twice ripgrep's CPU): from many threads
    /// at once each match is the `regex` crate's, GNU's boundaries beside
    /// a combining mark included (`full`'s group).
    #[test]
    fn word_regex_from_many_threads_finds_every_match_of_one() {
        let cfg = crate::config::Config::from_args(&["-w", "-E", "[a-z]+ing", "x"]);
        let compiled = crate::pattern::compile(&[b"[a-z]+ing".to_vec()], &cfg).unwrap();
        let word = compiled.confirm.as_deref().unwrap();
        let oracle = regex::Regex::new(r"[a-z]+ing").unwrap();
        let lines: Vec<String> = (0..300)
            .map(|i| match i % 3 {
                0 => format!("sing{i} bring ring-ding singing"),
                1 => format!("cafe\u{301}ing ring\u{301} x\u{301}ring {i}king"),
                _ => format!("nothing_ here, going? thing{i}"),
            })
            .collect();
        // GNU's words: a run of `[_[:alnum:]]` (a combining mark ends it).
        let want = |line: &str| -> Vec<std::ops::Range<usize>> {
            oracle
                .find_iter(line)
                .map(|m| m.range())
                .filter(|m| {
                    !super::super::char_before(line.as_bytes(), m.start).is_some_and(is_word_char)
                        && !super::super::char_after(line.as_bytes(), m.end)
                            .is_some_and(is_word_char)
                })
                .collect()
        };
        std::thread::scope(|s| {
            for _ in 0..24 {
                s.spawn(|| {
                    for line in &lines {
                        let mut got = Vec::new();
                        crate::output::for_each_match(word, line.as_bytes(), |m| {
                            got.push(m);
                            true
                        });
                        assert_eq!(got, want(line), "{line:?}");
                    }
                });
            }
        });
    }
}
