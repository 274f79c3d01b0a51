//! A rule's regex for whole lines, with its cut to ASCII bytes for lines of
//! ASCII bytes.
//!
//! A rule with Unicode classes (`\w{10,150}`, `\S+`) has a lazy DFA whose
//! states count Unicode classes' byte sequences: confirming lines, its
//! cache thrashes and the meta engine falls back to the PikeVM. Gitleaks'
//! generic-api-key rule took 72 us a line on the 1,248 lines of loghub's
//! Mac logs it matches (PikeVM 18 % of the CPU engine's profile). On a
//! line of ASCII bytes no match can hold another byte, so there the rule
//! cut to ASCII (`glushkov::book::ascii_only`, the GPU's rule book uses
//! it the same way) answers exactly, with a DFA of byte classes.
//!
//! The same holds for a match's offsets in a line of ASCII bytes: the cut
//! has the rule's paths through ASCII bytes, in the rule's order, so its
//! leftmost-first match there is the rule's. So a large rule past ASCII
//! keeps its full regex without a lazy DFA (`pattern::compile::pack`,
//! `FORWARD_ONLY_FROM`): only lines past ASCII reach it.

use super::cached::CachedRegex;
use regex_automata::{meta, Input, Match};

pub struct LineRegex {
    full: CachedRegex,
    /// The cut, for rules that reach past ASCII.
    ascii: Option<CachedRegex>,
}

impl LineRegex {
    pub fn new(full: meta::Regex, ascii: Option<meta::Regex>) -> LineRegex {
        LineRegex {
            full: CachedRegex::new(full),
            ascii: ascii.map(CachedRegex::new),
        }
    }

    /// Whether `line` (one whole line) holds a match.
    pub fn is_match_line(&self, line: &[u8]) -> bool {
        match &self.ascii {
            Some(ascii) if line.is_ascii() => ascii.is_match(line),
            _ => self.full.is_match(line),
        }
    }

    /// Bytes of automata held.
    pub fn memory_usage(&self) -> usize {
        self.full.memory_usage() + self.ascii.as_ref().map_or(0, CachedRegex::memory_usage)
    }

    /// The rule's leftmost-first match in `input`, whose haystack is one
    /// whole line.
    pub fn search(&self, input: &Input) -> Option<Match> {
        match &self.ascii {
            Some(ascii) if input.haystack().is_ascii() => ascii.search(input),
            _ => self.full.search(input),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::glushkov::book::ascii_only;
    use crate::pattern::trim::tests::hir;
    use proptest::prelude::*;

    fn built(h: &regex_syntax::hir::Hir) -> meta::Regex {
        meta::Builder::new()
            .configure(meta::Config::new().utf8_empty(false))
            .build_from_hir(h)
            .unwrap()
    }

    /// Expressions of Unicode classes, word boundaries, anchors, and
    /// literals within and past ASCII.
    fn expression() -> impl Strategy<Value = String> {
        let pick = |v: Vec<&'static str>| prop::sample::select(v).prop_map(String::from);
        let piece = pick(vec![
            r"\w", r"\S", r"\s", ".", "a", "é", "k", r"\b", "^", "$", r"\d", "[a-z]", "(?i:k)",
        ]);
        let rep =
            (piece, pick(vec!["", "+", "*", "?", "{2,4}"])).prop_map(|(p, r)| format!("{p}{r}"));
        prop::collection::vec(rep, 1..5).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// With its cut to ASCII, a rule answers every line as the rule, and
        /// finds the rule's match from every offset.
        #[test]
        fn the_cut_answers_as_the_rule(
            re in expression(),
            lines in prop::collection::vec(
                prop::collection::vec(prop::sample::select(vec![
                    "a", "k", "K", "\u{212A}", "é", " ", "_", "7", "-", "\u{a0}", "\t",
                ]), 0..10).prop_map(|v| v.concat()),
                1..6,
            ),
        ) {
            let h = hir(&re);
            let full = built(&h);
            let line_regex = LineRegex::new(full.clone(), Some(built(&ascii_only(&h))));
            for line in &lines {
                let line = line.as_bytes();
                prop_assert_eq!(
                    line_regex.is_match_line(line),
                    full.is_match(line),
                    "{} on {:?}", re, line
                );
                for at in 0..=line.len() {
                    let input = Input::new(line).range(at..);
                    prop_assert_eq!(line_regex.search(&input), full.search(&input), "{} at {}", re, at);
                }
            }
        }
    }
}
