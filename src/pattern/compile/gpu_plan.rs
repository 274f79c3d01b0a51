//! What the GPU can search for a compiled pattern list: one plan, built in
//! the same pass as the CPU matchers, so the rule "which searches the GPU
//! takes, and whether what it finds are matches" lives in one place.
//!
//! The GPU searches literals (`crate::engine::gpu::Target`) or, for a
//! regex without required literals, a rule pack's automaton
//! (`pattern::glushkov`), or a rule pack split between the two
//! (`compile::split`); a plan says which and what its hits mean. Matches: an occurrence of the literal
//! (or of a member of the set) is a match of the pattern; `-w`/`-x` may
//! still confirm it (`Compiled::confirm`), and the per-file matcher reports
//! it without looking further. Candidates: an occurrence only says the line
//! may match; the line matcher confirms the whole line.

/// What the GPU searches for, when it can take part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GpuPlan {
    /// The single case-sensitive literal the search reduces to (`-w`/`-x`
    /// may still confirm): matches. The literal and Boyer-Moore kernels.
    Literal(Vec<u8>),
    /// The exact set of non-empty literals the search reduces to: several
    /// literals, or every case variant of `-i` literals: matches. The
    /// `multi` kernel.
    LiteralSet(Vec<Vec<u8>>),
    /// Non-empty literals with their ASCII letters lowered, matched with
    /// ASCII case folding (a `-i` literal set: with `fold::ascii_folded_set`
    /// the case variants beyond ASCII are members): matches. The `multi`
    /// kernel with its fold flag.
    FoldedSet(Vec<Vec<u8>>),
    /// Literals one of which every match contains: a regex's prefixes,
    /// suffixes or inner set (`required`), or a literal set under `-w`/`-x`
    /// that has to go through the regex: candidates, whose lines the regex
    /// confirms. The `multi` kernel.
    Required(Vec<Vec<u8>>),
    /// The rules' bit-parallel automaton (`pattern::glushkov`), for a regex
    /// with no literal every match contains: the start of each line it
    /// selects, candidates the regex confirms. The `automaton` kernel.
    Automaton(Box<crate::pattern::glushkov::Automaton>),
    /// A rule pack split in two (`compile::split`): the literals of the
    /// rules that have good ones (the `multi` kernel) and the automaton of
    /// the others, if any (the `automaton` kernel, merged into the same
    /// result): literal starts and selected lines' starts, candidates.
    Split(Box<SplitPlan>),
}

/// The two halves of a split rule pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitPlan {
    /// The union of the literal rules' literals (each of 3 bytes or more).
    pub literals: Vec<Vec<u8>>,
    /// How many rules those literals find.
    pub literal_rules: usize,
    /// `-i`: the literals are lowered (`fold::window_lowered_variants`);
    /// the `multi` kernel searches them with its fold flag and the rule
    /// book (`RuleBook::fold`) looks them up in the text as lowered.
    pub folded: bool,
    /// Those rules' own automata, which confirm the lines holding their
    /// literals on the GPU (`glushkov::book`); `None` when none can.
    pub book: Option<Box<crate::pattern::glushkov::book::RuleBook>>,
    /// The automaton of the other rules (`automaton.rules` of them);
    /// `None` when every rule is a literal rule (the `multi` kernel alone).
    pub automaton: Option<Box<crate::pattern::glushkov::Automaton>>,
}

impl GpuPlan {
    /// True when an offset the GPU reports is a match start, false when it
    /// is a candidate whose line must be confirmed.
    pub fn offsets_are_matches(&self) -> bool {
        match self {
            GpuPlan::Literal(_) | GpuPlan::LiteralSet(_) | GpuPlan::FoldedSet(_) => true,
            GpuPlan::Required(_) | GpuPlan::Automaton(_) | GpuPlan::Split(_) => false,
        }
    }

    /// The GPU marks exactly the selected lines (a split pack whose rules
    /// are all exact on the GPU; under `-w`, with its boundaries in their
    /// automata, `glushkov::word`; or an exact automaton alone, but for
    /// `-w`'s, whose lines past ASCII are candidates): in a chunk where no
    /// line was unsure, a line's start is marked iff the line matches, so
    /// counts need no CPU pass.
    pub fn exact_lines(&self) -> bool {
        match self {
            GpuPlan::Split(p) => {
                p.book.as_ref().is_some_and(|b| b.exact)
                    && p.automaton.as_ref().is_none_or(|a| a.exact)
            }
            GpuPlan::Automaton(a) => a.exact_lines(),
            _ => false,
        }
    }

    /// The number of literals searched (an automaton: its rules; a split
    /// pack: its literals and its automaton's rules).
    pub fn len(&self) -> usize {
        match self {
            GpuPlan::Literal(_) => 1,
            GpuPlan::LiteralSet(s) | GpuPlan::FoldedSet(s) | GpuPlan::Required(s) => s.len(),
            GpuPlan::Automaton(a) => a.rules,
            GpuPlan::Split(p) => p.literals.len() + p.automaton.as_ref().map_or(0, |a| a.rules),
        }
    }

    /// False: a plan has at least one literal, except a set built empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::GpuPlan;

    #[test]
    fn matches_or_candidates() {
        assert!(GpuPlan::Literal(b"a".to_vec()).offsets_are_matches());
        assert!(GpuPlan::LiteralSet(vec![b"a".to_vec(), b"b".to_vec()]).offsets_are_matches());
        assert!(!GpuPlan::Required(vec![b"a".to_vec()]).offsets_are_matches());
        assert_eq!(
            GpuPlan::Required(vec![b"a".to_vec(), b"b".to_vec()]).len(),
            2
        );
    }
}
