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

use super::cached::CachedRegex;
use super::Pack;
use crate::engine::Matcher;
use aho_corasick::AhoCorasick;
use regex_automata::{meta, Input};
use std::ops::Range;

/// Rules with their literals: every match of rule `r` contains one of the
/// literals whose `owners` hold `r`.
pub struct RuleSet {
    literals: AhoCorasick,
    owners: Vec<Vec<u32>>,
    rules: Vec<CachedRegex>,
}

impl RuleSet {
    /// `rules[r]` with `literals[r]`, the literals one of which each of its
    /// matches contains (none empty); `None` when Aho-Corasick cannot be
    /// built for them.
    pub fn new(rules: Vec<meta::Regex>, literals: &[Vec<Vec<u8>>]) -> Option<RuleSet> {
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
        let literals = aho_corasick::AhoCorasickBuilder::new()
            .match_kind(aho_corasick::MatchKind::Standard)
            .kind(super::dfa_kind(&lits))
            .build(&lits)
            .ok()?;
        Some(RuleSet {
            literals,
            owners,
            rules: rules.into_iter().map(CachedRegex::new).collect(),
        })
    }

    /// The rules one of whose literals occurs in `hay[at..]`, in order.
    fn candidates(&self, hay: &[u8], at: usize) -> Vec<u32> {
        let input = aho_corasick::Input::new(hay).range(at..);
        let mut rules: Vec<u32> = self
            .literals
            .find_overlapping_iter(input)
            .flat_map(|m| self.owners[m.pattern().as_usize()].iter().copied())
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

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.candidates(line, 0)
            .into_iter()
            .any(|r| self.rules[r as usize].is_match(line))
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
