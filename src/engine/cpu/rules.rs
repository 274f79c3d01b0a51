//! Large rule packs on the CPU: each rule's own regex, run only on lines
//! that hold one of its literals (Hyperscan's decomposition, simplified).
//!
//! One automaton for thousands of rules (the pack, or their alternation)
//! has lazy-DFA states that each hold thousands of NFA states: its cache
//! thrashes, the meta engine gives up on the DFA and every candidate line
//! goes through the PikeVM over the whole pack (10,000 generated rules: over
//! 5 minutes for 200 MB of CI logs). Here every literal knows the rules it
//! came from; a line is tried only against the rules whose literals occur
//! in it, each a small regex with a small DFA.
//!
//! `find_at` gives the alternation's leftmost-first answer without building
//! it: the leftmost start among the rules that match, and at that start the
//! first rule in order (each rule's own match there, as an alternation's
//! branch would give it).

use super::line_regex::LineRegex;
use super::Pack;
use crate::engine::Matcher;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex_automata::Input;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};
use std::thread::JoinHandle;

/// Rules with their literals: every match of rule `r` contains one of the
/// literals whose `owners` hold `r`. A rule given no literals is tried on
/// every line (`always`): a split pack's other rules, where each rule is
/// its own regex (`-o`, `-w`).
pub struct RuleSet {
    literals: Literals,
    owners: Vec<Vec<u32>>,
    always: Vec<u32>,
    rules: Vec<LineRegex>,
}

/// The literals' Aho-Corasick automaton. A DFA (`dfa_kind`) scans several
/// times faster than the NFA but is slow to build: a quarter of a
/// 1,000-rule pack's compile (dev VM: 0.20-0.23 s with it, 0.15-0.18 s
/// without), which a GPU run waited for before its pipeline began though
/// its CPU engine may never search a line. So a DFA is built on a thread
/// of its own, and the first search waits for it (H200 host, 16 GiB of
/// logs, 1,000 rules, `-c`: 1.054 → 1.034 s, the mean of 8 runs).
struct Literals {
    built: OnceLock<Option<AhoCorasick>>,
    building: Mutex<Option<JoinHandle<Option<AhoCorasick>>>>,
}

impl Literals {
    /// Builds the automaton of `lits`: on a thread when it is a DFA (and
    /// the thread starts), else here. `None` when it cannot be built.
    fn new(lits: Vec<Vec<u8>>, ascii_folded: bool) -> Option<Literals> {
        let kind = super::dfa_kind(&lits);
        let build = move |lits: &[Vec<u8>]| {
            let with = |kind| {
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::Standard)
                    .kind(kind)
                    .ascii_case_insensitive(ascii_folded)
                    .build(lits)
            };
            // A DFA too large after all falls back to the crate's choice.
            with(kind)
                .or_else(|e| kind.map_or(Err(e), |_| with(None)))
                .ok()
        };
        let lits = std::sync::Arc::new(lits);
        if kind == Some(AhoCorasickKind::DFA) {
            let mine = lits.clone();
            let started = std::thread::Builder::new()
                .name("rules-dfa".into())
                .spawn(move || build(&mine));
            if let Ok(handle) = started {
                return Some(Literals {
                    built: OnceLock::new(),
                    building: Mutex::new(Some(handle)),
                });
            }
        }
        Some(Literals {
            built: OnceLock::from(Some(build(&lits)?)),
            building: Mutex::new(None),
        })
    }

    /// The automaton, once built (`None` only if its thread failed to).
    fn get(&self) -> Option<&AhoCorasick> {
        self.built
            .get_or_init(|| {
                let handle = self.building.lock().ok().and_then(|mut h| h.take());
                handle.and_then(|h| h.join().ok()).flatten()
            })
            .as_ref()
    }
}

impl RuleSet {
    /// `rules[r]` with `literals[r]`, the literals one of which each of its
    /// matches contains (none empty; no literals: tried on every line);
    /// `None` when Aho-Corasick cannot be built for them. `ascii_folded`:
    /// the literals' ASCII letters are lowered, and they are found in any
    /// ASCII case.
    pub fn new(
        rules: Vec<LineRegex>,
        literals: &[Vec<Vec<u8>>],
        ascii_folded: bool,
    ) -> Option<RuleSet> {
        let mut all: Vec<(&[u8], u32)> = literals
            .iter()
            .enumerate()
            .flat_map(|(r, lits)| lits.iter().map(move |l| (l.as_slice(), r as u32)))
            .collect();
        all.sort_unstable();
        let mut lits: Vec<&[u8]> = Vec::new();
        let mut owners: Vec<Vec<u32>> = Vec::new();
        for (lit, r) in all {
            if lits.last() != Some(&lit) {
                lits.push(lit);
                owners.push(Vec::new());
            }
            if let Some(o) = owners.last_mut().filter(|o| o.last() != Some(&r)) {
                o.push(r);
            }
        }
        let always = (0..rules.len() as u32)
            .filter(|&r| literals.get(r as usize).is_none_or(Vec::is_empty))
            .collect();
        let literals = Literals::new(lits.into_iter().map(<[u8]>::to_vec).collect(), ascii_folded)?;
        Some(RuleSet {
            literals,
            owners,
            always,
            rules,
        })
    }

    /// The rules one of whose literals occurs in `hay[at..]`, and those
    /// without literals, in order (every rule, should the automaton's
    /// thread have failed).
    pub fn candidates(&self, hay: &[u8], at: usize) -> Vec<u32> {
        let Some(literals) = self.literals.get() else {
            return (0..self.rules.len() as u32).collect();
        };
        let input = aho_corasick::Input::new(hay).range(at..);
        let mut rules: Vec<u32> = literals
            .find_overlapping_iter(input)
            .flat_map(|m| self.owners[m.pattern().as_usize()].iter().copied())
            .chain(self.always.iter().copied())
            .collect();
        rules.sort_unstable();
        rules.dedup();
        rules
    }
}

impl Matcher for RuleSet {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let mut best: Option<Range<usize>> = None;
        for r in self.candidates(hay, at) {
            let input = Input::new(hay).range(at..);
            let Some(m) = self.rules[r as usize].search(&input) else {
                continue;
            };
            // Rules come in order: a later rule wins only further left.
            if best.as_ref().is_none_or(|b| m.start() < b.start) {
                best = Some(m.range());
            }
        }
        best
    }

    /// Each rule is tried as soon as one of its literals is found, and the
    /// first that matches ends the scan, rather than all the line's rules
    /// gathered first (2 cores, `-c`, 3 rounds: loghub's 1,733 event
    /// templates over 1 GiB of its logs 4.29-4.45 → 4.01-4.04 s; 1,000 and
    /// 10,000 generated rules over 200 MB of CI logs 0.67-0.68 → 0.61-0.62
    /// and 1.79-1.81 → 1.69-1.70 s).
    fn is_match_line(&self, line: &[u8]) -> bool {
        let Some(literals) = self.literals.get() else {
            return self.rules.iter().any(|r| r.is_match_line(line));
        };
        // Sorted, so that a line with thousands of candidate rules is not
        // quadratic.
        let mut tried: Vec<u32> = Vec::new();
        for m in literals.find_overlapping_iter(line) {
            for &r in &self.owners[m.pattern().as_usize()] {
                let Err(at) = tried.binary_search(&r) else {
                    continue;
                };
                if self.rules[r as usize].is_match_line(line) {
                    return true;
                }
                tried.insert(at, r);
            }
        }
        self.always
            .iter()
            .any(|&r| self.rules[r as usize].is_match_line(line))
    }
}

/// A pack whose rules are not all literal rules (`pattern::compile::split`):
/// the literal rules through their [`RuleSet`], the others through one
/// multi-pattern automaton of their own ([`Pack`], whose `find_at` is the
/// alternation of every rule, as the pack's without the split). A line
/// matches if either part matches it. The confirm step of the GPU's split
/// plan: a candidate line costs the Aho-Corasick pass over it, the few
/// rules whose literals it holds, and the small automaton of the rest,
/// instead of one automaton of the whole pack.
pub struct SplitRules {
    literal: RuleSet,
    rest: Pack,
}

impl SplitRules {
    /// `literal`: the literal rules; `rest`: the other rules' automaton,
    /// its spans built from the alternation of all the rules.
    pub fn new(literal: RuleSet, rest: Pack) -> SplitRules {
        SplitRules { literal, rest }
    }
}

impl Matcher for SplitRules {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        self.rest.find_at(hay, at)
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.literal.is_match_line(line) || self.rest.is_match_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use regex_automata::meta;

    fn lines(rules: Vec<meta::Regex>) -> Vec<LineRegex> {
        rules.into_iter().map(|r| LineRegex::new(r, None)).collect()
    }

    /// Rules `W[0-9]*X` (W two or three of `abc`, X one of `xy`), each
    /// with its literal W, and their alternation.
    fn pack(specs: &[(String, char)]) -> (Vec<meta::Regex>, Vec<Vec<Vec<u8>>>, meta::Regex) {
        let pats: Vec<String> = specs.iter().map(|(w, x)| format!("{w}[0-9]*{x}")).collect();
        let rules = pats.iter().map(|p| meta::Regex::new(p).unwrap()).collect();
        let lits = specs
            .iter()
            .map(|(w, _)| vec![w.as_bytes().to_vec()])
            .collect();
        let alt = pats
            .iter()
            .map(|p| format!("(?:{p})"))
            .collect::<Vec<_>>()
            .join("|");
        (rules, lits, meta::Regex::new(&alt).unwrap())
    }

    proptest! {
        /// `find_at` is the alternation's leftmost-first match and
        /// `is_match_line` its verdict, with the literals' automaton built
        /// on its thread and without one (every rule a candidate).
        #[test]
        fn a_rule_set_answers_as_the_alternation_with_or_without_its_automaton(
            specs in prop::collection::vec(("[abc]{2,3}", prop::sample::select(vec!['x', 'y'])), 1..12),
            text in "[abcxy01 \n]{0,200}",
        ) {
            let (rules, lits, alt) = pack(&specs);
            let built = RuleSet::new(lines(rules.clone()), &lits, false).unwrap();
            let mut missing = RuleSet::new(lines(rules), &lits, false).unwrap();
            missing.literals = Literals { built: OnceLock::from(None), building: Mutex::new(None) };
            let hay = text.as_bytes();
            for set in [&built, &missing] {
                for at in 0..=hay.len() {
                    let want = alt.search(&Input::new(hay).range(at..)).map(|m| m.range());
                    prop_assert_eq!(set.find_at(hay, at), want);
                }
                for line in hay.split(|&b| b == b'\n') {
                    prop_assert_eq!(set.is_match_line(line), alt.is_match(line));
                }
            }
        }

        /// Rules given no literals are tried on every line (a split pack's
        /// spans): the set still answers as the alternation.
        #[test]
        fn rules_without_literals_are_tried_everywhere(
            specs in prop::collection::vec(("[abc]{2,3}", prop::sample::select(vec!['x', 'y'])), 1..12),
            without in prop::collection::vec(any::<bool>(), 12),
            text in "[abcxy01 \n]{0,200}",
        ) {
            let (rules, mut lits, alt) = pack(&specs);
            for (l, &w) in lits.iter_mut().zip(&without) {
                if w {
                    l.clear();
                }
            }
            let set = RuleSet::new(lines(rules), &lits, false).unwrap();
            let hay = text.as_bytes();
            for at in 0..=hay.len() {
                let want = alt.search(&Input::new(hay).range(at..)).map(|m| m.range());
                prop_assert_eq!(set.find_at(hay, at), want);
            }
            for line in hay.split(|&b| b == b'\n') {
                prop_assert_eq!(set.is_match_line(line), alt.is_match(line));
            }
        }

        /// Under `-i` the literals are lowered and found in any ASCII case
        /// (`ascii_folded`): the set still answers as the case-insensitive
        /// alternation, whatever the case of the text.
        #[test]
        fn a_folded_rule_set_answers_as_the_case_insensitive_alternation(
            specs in prop::collection::vec(("[abcABC]{2,3}", prop::sample::select(vec!['x', 'Y'])), 1..12),
            text in "[abcxyABCXY01 \n]{0,200}",
        ) {
            let specs: Vec<(String, char)> =
                specs.into_iter().map(|(w, x)| (format!("(?i){w}"), x)).collect();
            let (rules, _, alt) = pack(&specs);
            let lits: Vec<Vec<Vec<u8>>> = specs
                .iter()
                .map(|(w, _)| vec![w[4..].to_ascii_lowercase().into_bytes()])
                .collect();
            let set = RuleSet::new(lines(rules), &lits, true).unwrap();
            let hay = text.as_bytes();
            for at in 0..=hay.len() {
                let want = alt.search(&Input::new(hay).range(at..)).map(|m| m.range());
                prop_assert_eq!(set.find_at(hay, at), want);
            }
        }
    }
}
