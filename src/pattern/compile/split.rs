//! A rule pack's GPU plan: the pack split by what finds each rule's lines
//! (issue 17).
//!
//! One bit-parallel automaton for a whole pack is exact but costs one GPU
//! thread per line and work per word of state: 1,000 rules over 2 GiB of
//! logs took 24.7 s on an H100 where Hyperscan took 2.9 s. Most real rules
//! carry a literal every match contains (`error: .* not found` →
//! `error: `), and the `multi` literal kernel's cost barely grows with the
//! set. So each rule goes one of two ways:
//!
//! * a **literal rule**: its required literals (`required::required_literals`,
//!   the extraction the CPU's per-rule dispatch uses) are all 3 bytes or
//!   longer and at most [`RULE_LITERALS_MAX`] of them: the union of those
//!   literals goes to the `multi` kernel, and a line holding one is
//!   confirmed on the CPU against the rules owning the literals it holds
//!   (`cpu::RuleSet`'s dispatch, in the pipeline's ordered workers). For
//!   the GPU alone, a rule without such a set may have one whose literals
//!   are the case variants of at most that many ([`gpu_choice`]);
//! * an **automaton rule**, otherwise: those rules alone make the
//!   automaton (`glushkov::for_rules`), which then has few positions.
//!
//! The GPU runs both over each chunk and merges their results
//! (`engine::gpu::Split`): a line is a candidate if either part points at
//! it, and the pack's exact line matcher decides, so output is the CPU
//! engine's. A pack with no automaton rule is the literals alone (the
//! `multi` kernel); one with no literal rule the automaton alone (with
//! `--engine gpu`, as before the split). When the automaton refuses its
//! rules (a counted repetition over 64, more than `MAX_POSITIONS`, a rule
//! matching every line) the pack keeps the plan it had without the split.

use super::GpuPlan;
use super::SplitPlan;
use crate::config::{Config, EngineChoice};
use crate::parts::map_on_all_cores;
use crate::pattern::fold;
use crate::pattern::glushkov;
use crate::pattern::glushkov::book::RuleBook;
use crate::pattern::required::{
    lowered_count, required_case_insensitive, required_literals_avoiding,
    required_literals_by_variants, required_literals_within,
};
use regex_syntax::hir::Hir;
use std::collections::{HashMap, HashSet};

/// Most literals one rule may bring to the GPU's set and still count as a
/// literal rule: more are a small class expanded (`[0-9a-f]{3}`), which
/// finds many lines; such a rule goes to the automaton.
pub const RULE_LITERALS_MAX: usize = 64;

/// Most literals one rule may bring where they are case variants of at most
/// [`RULE_LITERALS_MAX`] literals lowered (gitleaks' `(?i)` rules: 157 and
/// 480 literals, 8 and 3 lowered): variants of one literal find the lines
/// it finds in any case, and the `multi` kernel's cost barely grows with
/// the set.
pub const RULE_VARIANTS_MAX: usize = 512;

/// Shortest literal a literal rule may have (as `cpu::RuleSet`'s dispatch).
pub const RULE_LITERAL_MIN: usize = 3;

/// Which rules go where.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Halves {
    /// Indices of the literal rules, ascending.
    pub literal_rules: Vec<usize>,
    /// Indices of the automaton rules, ascending.
    pub automaton_rules: Vec<usize>,
    /// The union of the literal rules' literals, sorted, no duplicates.
    pub literals: Vec<Vec<u8>>,
    /// Per literal, the literal rules holding it (indices into
    /// `literal_rules`), ascending.
    pub owners: Vec<Vec<u32>>,
}

/// Whether a rule with required literals `lits` is a literal rule of the
/// CPU's split: at most [`RULE_LITERALS_MAX`], none shorter than
/// [`RULE_LITERAL_MIN`].
pub fn good_within(lits: &[Vec<u8>]) -> bool {
    lits.len() <= RULE_LITERALS_MAX && good(lits)
}

/// Whether a rule with required literals `lits` is a literal rule of the
/// GPU's split: [`good_within`], or at most [`RULE_VARIANTS_MAX`] that are
/// case variants of at most [`RULE_LITERALS_MAX`].
pub fn good(lits: &[Vec<u8>]) -> bool {
    !lits.is_empty()
        && lits.len() <= RULE_VARIANTS_MAX
        && lits.iter().all(|l| l.len() >= RULE_LITERAL_MIN)
        && (lits.len() <= RULE_LITERALS_MAX || lowered_count(lits) <= RULE_LITERALS_MAX)
}

/// One rule's literals for the split before any is found shared (see
/// [`gpu_literals`]; `lits`: its required literals).
pub fn first_choice(h: &Hir, lits: Option<&[Vec<u8>]>) -> Option<Vec<Vec<u8>>> {
    match lits {
        Some(l) if good_within(l) => Some(l.to_vec()),
        _ => required_literals_within(h, RULE_LITERALS_MAX)
            .map(|r| r.literals)
            .filter(|l| good_within(l)),
    }
}

/// For the GPU's split only, a rule without a [`first_choice`]: its own
/// literals (`lits`) or the best set counting case variants once and
/// crossing larger classes (`required_literals_by_variants`), if [`good`].
/// Gitleaks: `SK[0-9a-fA-F]{32}` by `SK0` to `SKf`, its `(?i)` rules by
/// their case variants; 5 of its 7 rules without a set leave the automaton,
/// which goes from 26 words to 7.
///
/// Not the CPU's: there those sets' lines (gitleaks' `s\.[a-z0-9]`,
/// `(?i)key`: 7 % and 12 % of loghub's lines) go to the rules' own regexes,
/// where one DFA over the buffer ran the rules (session 41: the CPU engine
/// 36.7 s over 16 GiB with them, 11-13 s without).
fn gpu_choice(h: &Hir, lits: Option<&[Vec<u8>]>) -> Option<Vec<Vec<u8>>> {
    lits.map(<[_]>::to_vec).filter(|l| good(l)).or_else(|| {
        required_literals_by_variants(h, RULE_LITERALS_MAX, RULE_VARIANTS_MAX)
            .map(|r| r.literals)
            .filter(|l| good(l))
    })
}

/// The GPU's split where it differs from the CPU's (`each`, the rules'
/// literals for it; `own`, the rules' required literals where every rule
/// has some): [`gpu_choice`] for the rules without literals, on all
/// cores.
pub fn gpu_halves(
    hirs: &[Hir],
    each: &[Option<Vec<Vec<u8>>>],
    own: Option<&[Vec<Vec<u8>>]>,
) -> Option<Halves> {
    let lacking: Vec<usize> = (0..hirs.len()).filter(|&r| each[r].is_none()).collect();
    let found = map_on_all_cores(&lacking, |&r| {
        gpu_choice(&hirs[r], own.map(|o| o[r].as_slice()))
    });
    if found.iter().all(Option::is_none) {
        return None;
    }
    let mut gpu_each = each.to_vec();
    for (r, lits) in lacking.into_iter().zip(found) {
        gpu_each[r] = lits;
    }
    Some(halves(&gpu_each))
}

/// [`first_choice`] under `-i`: `h` is the rule, `cs` the rule parsed
/// without `-i` and `lits` its literals under `-i`
/// (`required_case_insensitive`). Where the windows of the literals found
/// without `-i` are too short, the walk of the rule itself (71 of 1,000
/// generated rules: without it they went to the automaton, and auto
/// kept the pack on the CPU), its case variants lowered: every set this
/// returns is lowered, for the kernels' ASCII folding.
pub fn first_choice_folded(h: &Hir, cs: &Hir, lits: Option<&[Vec<u8>]>) -> Option<Vec<Vec<u8>>> {
    match lits {
        Some(l) if good_within(l) => Some(l.to_vec()),
        _ => required_case_insensitive(cs, RULE_LITERALS_MAX)
            .map(|r| r.literals)
            .filter(|l| good_within(l))
            .or_else(|| first_choice(h, None).map(|l| fold::ascii_lowered(&l))),
    }
}

/// Each rule's literals for the split: its required literals
/// when they make it a literal rule, else the best set of at most
/// [`RULE_LITERALS_MAX`] (a rule whose prefixes are many may have one good
/// inner literal), else `None`.
///
/// Then a rule whose literals many rules share (more than
/// [`SHARED_MAX`]: a line holding one runs every owner's automaton on the
/// GPU, `glushkov::book`) takes another good set without them, if it has
/// one: of 10,000 generated rules, 256 began `out of memory allocating
/// [0-9]+`, and each such line ran all 256, where the suffix ` bytes in
/// NAME` is the rule's own.
///
/// `chosen`: each rule's [`first_choice`], which the pack's compile finds
/// on all cores.
pub fn gpu_literals(
    hirs: &[Hir],
    mut chosen: Vec<Option<Vec<Vec<u8>>>>,
) -> Vec<Option<Vec<Vec<u8>>>> {
    // A few rounds: a rule's next best set may be shared too (`out of
    // memory allocating [0-9]` by the digits, then `out of memory
    // allocating ` without them).
    let mut shared: HashSet<Vec<u8>> = HashSet::new();
    for _ in 0..SHARED_ROUNDS {
        let mut owners: HashMap<&[u8], usize> = HashMap::new();
        for l in chosen.iter().flatten().flatten() {
            *owners.entry(l).or_default() += 1;
        }
        let more: Vec<Vec<u8>> = owners
            .into_iter()
            .filter(|&(_, n)| n > SHARED_MAX)
            .map(|(l, _)| l.to_vec())
            .filter(|l| !shared.contains(l))
            .collect();
        if more.is_empty() {
            break;
        }
        shared.extend(more);
        let sharing: Vec<usize> = (0..hirs.len())
            .filter(|&r| {
                chosen[r]
                    .as_ref()
                    .is_some_and(|l| l.iter().any(|x| shared.contains(x)))
            })
            .collect();
        let others = map_on_all_cores(&sharing, |&r| {
            required_literals_avoiding(&hirs[r], RULE_LITERALS_MAX, &shared)
                .map(|r| r.literals)
                .filter(|l| good_within(l) && !l.iter().any(|x| shared.contains(x)))
        });
        for (r, other) in sharing.into_iter().zip(others) {
            if other.is_some() {
                chosen[r] = other;
            }
        }
    }
    chosen
}

/// Rounds of `gpu_literals`' search for unshared literals.
const SHARED_ROUNDS: usize = 3;

/// Most rules a literal may be shared by before its rules look for
/// another (`gpu_literals`).
pub const SHARED_MAX: usize = 4;

/// Splits the rules by their required literals (`each[r]`, `None` when
/// rule `r` has none).
pub fn halves(each: &[Option<Vec<Vec<u8>>>]) -> Halves {
    let mut h = Halves::default();
    let mut owned: Vec<(&[u8], u32)> = Vec::new();
    for (r, lits) in each.iter().enumerate() {
        match lits.as_deref().filter(|l| good(l)) {
            Some(l) => {
                let book_rule = h.literal_rules.len() as u32;
                h.literal_rules.push(r);
                owned.extend(l.iter().map(|x| (&x[..], book_rule)));
            }
            None => h.automaton_rules.push(r),
        }
    }
    owned.sort_unstable();
    owned.dedup();
    for (lit, rule) in owned {
        if h.literals.last().map(Vec::as_slice) != Some(lit) {
            h.literals.push(lit.to_vec());
            h.owners.push(Vec::new());
        }
        if let Some(o) = h.owners.last_mut() {
            o.push(rule);
        }
    }
    h
}

/// The GPU plan of a pack whose rules split into `h` (`hirs`: the rules
/// as the pack parsed them, `-x` and `-w` included), and what `--debug`
/// says of it; `fallback` is the plan without the split. `None` plan: the
/// CPU only.
pub fn plan(
    h: &Halves,
    hirs: &[Hir],
    cfg: &Config,
    fallback: Option<GpuPlan>,
) -> (Option<GpuPlan>, String) {
    let numbers = |rules: &[usize]| {
        rules
            .iter()
            .map(|r| (r + 1).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    if h.literal_rules.is_empty() {
        // The automaton alone, which only --engine gpu runs (auto: not
        // measured to pay).
        if cfg.engine != EngineChoice::Gpu {
            return (fallback, String::new());
        }
        return match glushkov::for_hirs(hirs, cfg) {
            Ok(a) => {
                let d = format!(", {} for the GPU", a.describe());
                (Some(GpuPlan::Automaton(Box::new(a))), d)
            }
            Err(why) => (fallback, format!(", no GPU automaton: {why}")),
        };
    }
    let literal_rules: Vec<Hir> = h.literal_rules.iter().map(|&r| hirs[r].clone()).collect();
    let book = RuleBook::build(&literal_rules, &h.literals, &h.owners, cfg);
    let head = format!(
        ", GPU split: {} rule(s) by {} literal(s) on the multi kernel, {}",
        h.literal_rules.len(),
        h.literals.len(),
        match &book {
            Some(b) => format!(
                "confirmed on the GPU by {}",
                b.describe(|r| h.literal_rules[r] + 1)
            ),
            None => "no rule confirmed on the GPU".into(),
        }
    );
    // -i: the literals are lowered (`first_choice_folded`); the kernels
    // fold the text.
    let folded = cfg.ignore_case;
    let split = |automaton: Option<Box<glushkov::Automaton>>| {
        GpuPlan::Split(Box::new(SplitPlan {
            literals: h.literals.clone(),
            literal_rules: h.literal_rules.len(),
            folded,
            book: book.clone().map(Box::new),
            automaton,
        }))
    };
    if h.automaton_rules.is_empty() {
        return (Some(split(None)), format!("{head}, none on the automaton"));
    }
    let rest: Vec<Hir> = h.automaton_rules.iter().map(|&r| hirs[r].clone()).collect();
    match glushkov::for_hirs(&rest, cfg) {
        Ok(a) => {
            let d = format!(
                "{head}, rule(s) {} on the {}",
                numbers(&h.automaton_rules),
                a.describe()
            );
            (Some(split(Some(Box::new(a)))), d)
        }
        Err(why) => (
            fallback,
            format!(
                ", no GPU split: the automaton refuses rule(s) {}: {why}",
                numbers(&h.automaton_rules)
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(l: &[&str]) -> Option<Vec<Vec<u8>>> {
        Some(l.iter().map(|s| s.as_bytes().to_vec()).collect())
    }

    #[test]
    fn rules_split_by_their_literals() {
        let many: Vec<String> = (0..65).map(|i| format!("x{i:02}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let each = vec![
            lits(&["error: "]),
            None,
            lits(&["ab", "abc"]),
            lits(&["FAILED", "PASSED"]),
            lits(&many),
        ];
        let h = halves(&each);
        assert_eq!(h.literal_rules, vec![0, 3]);
        assert_eq!(h.automaton_rules, vec![1, 2, 4]);
        assert_eq!(h.literals, lits(&["FAILED", "PASSED", "error: "]).unwrap());
    }

    /// Gitleaks' rules that made its automaton 26 words (session 41): a
    /// prefix crossed with a class of 22 bytes, and `(?i)` rules whose
    /// case variants are many literals but few lowered. The CPU's split
    /// keeps them without literals.
    #[test]
    fn rules_by_crossed_classes_and_case_variants_are_gpu_literal_rules() {
        let parse = |re: &str| {
            regex_syntax::ParserBuilder::new()
                .utf8(false)
                .build()
                .parse(re)
                .unwrap()
        };
        let sk = parse("SK[0-9a-fA-F]{32}");
        assert_eq!(first_choice(&sk, Some(&[b"SK".to_vec()])), None);
        let sk = gpu_choice(&sk, Some(&[b"SK".to_vec()])).unwrap();
        assert_eq!(sk.len(), 22);
        let key = parse(r"(?i)(?:api|key|token)[ \t\w.-]{0,20}=[\w.=-]{10,150}");
        let own = crate::pattern::required::required_literals(&key).map(|r| r.literals);
        assert_eq!(first_choice(&key, own.as_deref()), None);
        let variants = gpu_choice(&key, own.as_deref()).unwrap();
        assert!(variants.len() > RULE_LITERALS_MAX, "{}", variants.len());
        assert!(good(&variants) && !good_within(&variants));
        // 65 literals that differ lowered stay too many.
        let many: Vec<Vec<u8>> = (0..65).map(|i| format!("x{i:02}").into_bytes()).collect();
        assert!(!good(&many));
        let each = vec![Some(sk), None, Some(variants)];
        assert_eq!(halves(&each).literal_rules, vec![0, 2]);
    }

    #[test]
    fn plans_by_halves() {
        let cfg = Config::from_args(&["--engine", "gpu", "-E", "x"]);
        let alts: Vec<String> = ["error: .* not found", r"\d+\.\d+", "FAILED"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let each = vec![lits(&["error: "]), None, lits(&["FAILED"])];
        let parsed = |a: &[String], cfg: &Config| glushkov::parse_rules(a, cfg).unwrap();
        let (p, d) = plan(&halves(&each), &parsed(&alts, &cfg), &cfg, None);
        match p {
            Some(GpuPlan::Split(s)) => {
                assert_eq!(s.literal_rules, 2);
                assert_eq!(s.automaton.map(|a| a.rules), Some(1));
                assert_eq!(s.literals.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        assert!(d.contains("2 rule(s) by 2 literal(s)"), "{d}");
        assert!(d.contains("rule(s) 2 on the automaton of 1 rule(s)"), "{d}");
        // Every rule has a literal: the literals alone.
        let each = vec![lits(&["error: "]), lits(&["FAILED"])];
        let (p, _) = plan(&halves(&each), &parsed(&alts[..2], &cfg), &cfg, None);
        assert!(
            matches!(p, Some(GpuPlan::Split(ref s)) if s.automaton.is_none() && s.literals.len() == 2)
        );
        // The automaton refuses its rule: the fallback stays.
        let alts2 = vec!["error: ".to_string(), "[ab]{200}".to_string()];
        let each = vec![lits(&["error: "]), lits(&["aa"])];
        let (p, d) = plan(&halves(&each), &parsed(&alts2, &cfg), &cfg, None);
        assert!(p.is_none());
        assert!(
            d.contains("no GPU split: the automaton refuses rule(s) 2"),
            "{d}"
        );
        // No literal rule under auto: the fallback.
        let auto = Config::from_args(&["-E", "x"]);
        let (p, d) = plan(&halves(&[None]), &parsed(&alts[1..2], &auto), &auto, None);
        assert!(p.is_none() && d.is_empty());
    }
}
