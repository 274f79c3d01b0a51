//! The CPU engine: the fastest exact matcher for each kind of pattern.
//!
//! One literal goes to `memchr::memmem` (SIMD, the same kernel ripgrep uses),
//! several to Aho-Corasick (leftmost-longest, as grep reports matches), and
//! regular expressions to the `regex` crate, which puts its own literal
//! prefilter in front of the automaton. All are line-confined: a pattern
//! never holds the line terminator after `pattern::compile`.

use super::Matcher;
use aho_corasick::AhoCorasick;
use memchr::memmem;
use std::ops::Range;

/// One literal, case-sensitive.
pub struct Literal {
    finder: memmem::Finder<'static>,
}

impl Literal {
    pub fn new(needle: &[u8]) -> Literal {
        Literal {
            finder: memmem::Finder::new(needle).into_owned(),
        }
    }
}

impl Matcher for Literal {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let hay_at = hay.get(at..)?;
        let start = at + self.finder.find(hay_at)?;
        Some(start..start + self.finder.needle().len())
    }
}

/// Several literals, leftmost-longest.
pub struct Literals {
    ac: AhoCorasick,
}

impl Literals {
    pub fn new(ac: AhoCorasick) -> Literals {
        Literals { ac }
    }
}

impl Matcher for Literals {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let input = aho_corasick::Input::new(hay).range(at..);
        self.ac.find(input).map(|m| m.range())
    }
}

/// A regular expression.
pub struct Regex {
    re: regex::bytes::Regex,
}

impl Regex {
    pub fn new(re: regex::bytes::Regex) -> Regex {
        Regex { re }
    }
}

impl Matcher for Regex {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        self.re.find_at(hay, at).map(|m| m.range())
    }
}

/// Matches nothing (an empty pattern file).
pub struct Nothing;

impl Matcher for Nothing {
    fn find_at(&self, _hay: &[u8], _at: usize) -> Option<Range<usize>> {
        None
    }
}
