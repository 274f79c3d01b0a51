//! `-w` for a rule pack where GNU's word characters and the `regex`
//! crate's differ (a mark or a joiner beside a match, `WordRegex`): each
//! rule's own [`word_regex`](super::word_regex), tried on the lines
//! holding its literals, instead of one regex of them all.
//!
//! That one regex, `word_regex` of the rules' alternation, took 8.2 s and
//! 2.3 GB to build for gitleaks' 221 rules (Unicode `\w{0,50}` and the
//! like): every `-w` search paid it, though only lines holding such a
//! character use it. A rule's own is built on first use, with its forward
//! automaton alone (those lines are rare, and the lazy DFA gives up on
//! Unicode word boundaries past ASCII anyway), and without a size limit:
//! it is the rule, which was built within the pack's limit, and two small
//! classes.
//!
//! The answer is the alternation's. `word_regex(R1|R2)` is `(?:\b|D)(?P<w>
//! R1|R2)(?:\b|D)`: at one start it prefers a match beginning at the
//! boundary (`\b`) to one taking a character `D` first, and only then the
//! earlier rule. So among the rules' own matches the leftmost start wins,
//! then one whose group starts there, then the earlier rule.

use crate::engine::cpu::RuleSet;
use regex_automata::meta;
use regex_automata::nfa::thompson::WhichCaptures;
use regex_automata::Input;
use regex_syntax::hir::Hir;
use std::ops::Range;
use std::sync::OnceLock;

pub struct WordRules {
    /// Each rule's `word_regex`, parsed.
    hirs: Vec<Hir>,
    built: Vec<OnceLock<Option<meta::Regex>>>,
    terminator: u8,
}

impl WordRules {
    /// `hirs[r]`: `word_regex` of rule `r`, parsed as the pack's rules are.
    pub fn new(hirs: Vec<Hir>, terminator: u8) -> WordRules {
        let built = hirs.iter().map(|_| OnceLock::new()).collect();
        WordRules {
            hirs,
            built,
            terminator,
        }
    }

    fn rule(&self, r: usize) -> Option<&meta::Regex> {
        self.built[r]
            .get_or_init(|| {
                let config = meta::Config::new()
                    .line_terminator(self.terminator)
                    .utf8_empty(false)
                    .which_captures(WhichCaptures::All)
                    .nfa_size_limit(None)
                    .hybrid(false)
                    .dfa(false);
                meta::Builder::new()
                    .configure(config)
                    .build_from_hir(&self.hirs[r])
                    .ok()
            })
            .as_ref()
    }

    /// The group `w` of the alternation's leftmost-first match at or after
    /// `at`, among the rules `rules` names as candidates there.
    pub fn find_at(&self, rules: &RuleSet, hay: &[u8], at: usize) -> Option<Range<usize>> {
        // (start, group start after it, rule) ranks the rules' matches.
        let mut best: Option<((usize, bool, u32), Range<usize>)> = None;
        for r in rules.candidates(hay, at) {
            // Unreachable (the module doc): a rule that failed to build
            // would be left out here.
            let Some(re) = self.rule(r as usize) else {
                continue;
            };
            let mut caps = re.create_captures();
            re.search_captures(&Input::new(hay).range(at..), &mut caps);
            let (Some(m), Some(w)) = (caps.get_match(), caps.get_group_by_name("w")) else {
                continue;
            };
            let rank = (m.start(), w.start > m.start(), r);
            if best.as_ref().is_none_or(|(b, _)| rank < *b) {
                best = Some((rank, w.range()));
            }
        }
        best.map(|(_, w)| w)
    }
}
