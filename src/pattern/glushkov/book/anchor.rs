//! A rule's *lead*: the most bytes a match may begin before one of the
//! rule's literals that it holds. The `confirm` kernel runs such a rule's
//! automaton only over that window before each literal start that led to
//! it, entering its start states there only, and stops where the state
//! dies past the literal, instead of walking the line from its start to a
//! match: every match holds a literal whose start the `multi` kernel
//! marked (it marks every position where a literal occurs), at most the
//! lead past the match's start, and that start runs the rule in turn. A
//! rule *anchored at its literal* (every match begins with one) has a lead
//! of 0.
//!
//! Why: of loghub's 1,733 templates 1,575 begin with a literal, and a log
//! line's header (time, process, level, component: about half its bytes)
//! sits before it; the whole-line runs were most of the kernel's time.
//! Gitleaks' vault token (`s\.[a-z0-9]{24}`, its literals `s.0` ... `s.z`)
//! ran over whole lines and took 70 % of its automata's steps over loghub;
//! 70 of its rules have a lead of 1-52 bytes on ASCII lines (such as
//! `[\w.-]{0,50}?` before a keyword).
//!
//! Decided by regex-syntax: a rule (each branch of an alternation) is a
//! concatenation whose first items have a bounded longest match (the
//! lead) and whose rest begins with one of the rule's literals: its
//! prefix sequence is finite and each prefix begins with one of them (as
//! the kernels look literals up: lowered under `-i`). An inline `(?i)`
//! makes a keyword's prefixes all its case variants (256 of an 8-letter
//! word, past the extractor's limits): the rule's prefixes are then also
//! taken case-folded, and one passes when it begins with a literal all of
//! whose ASCII case variants are the rule's literals. Anything else (an
//! infinite sequence, a prefix shorter than the literal, an unbounded
//! lead) leaves the rule to run from the line's start.

use super::ascii::map_leaves;
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{
    Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
};
use std::collections::HashMap;

/// Leads past this run from the line's start: a rule runs once per
/// literal start in a line, each run over its lead, where a run from the
/// line's start runs once a line.
pub const LEAD_MOST: usize = 255;

/// Classes of up to this many characters spelled out in a second look at
/// a rule's prefixes (the extractor's own limit is 10): a literal chosen
/// by `split` may end in one of `[a-zA-Z0-9]`.
const WIDE_CLASS: usize = 64;

/// A rule's literals, as the lead's prefixes are compared with them.
pub struct Literals<'a> {
    /// As the book holds them (lowered under `fold`).
    exact: Vec<&'a [u8]>,
    fold: bool,
    /// Lowered, those whose every ASCII case variant the rule owns.
    closed: Vec<Vec<u8>>,
}

impl<'a> Literals<'a> {
    /// The literals `own` of a rule (lowered when `fold`).
    pub fn new(own: Vec<&'a [u8]>, fold: bool) -> Literals<'a> {
        let mut groups: HashMap<Vec<u8>, usize> = HashMap::new();
        for l in &own {
            *groups.entry(l.to_ascii_lowercase()).or_default() += 1;
        }
        let closed = groups
            .into_iter()
            .filter(|(l, n)| {
                let letters = l.iter().filter(|c| c.is_ascii_alphabetic()).count();
                fold || (letters < 20 && *n == 1 << letters)
            })
            .map(|(l, _)| l)
            .collect();
        Literals {
            exact: own,
            fold,
            closed,
        }
    }
}

/// The lead of `hir` for `literals`: the most bytes a match may begin
/// before the start of one of them that it holds; `None` when that is
/// unbounded, unknown or past [`LEAD_MOST`].
pub fn lead(hir: &Hir, literals: &Literals) -> Option<usize> {
    match hir.kind() {
        HirKind::Capture(c) => lead(&c.sub, literals),
        HirKind::Alternation(branches) => branches
            .iter()
            .try_fold(0, |most, b| Some(most.max(lead(b, literals)?))),
        HirKind::Concat(items) => {
            let mut before = 0;
            for (k, item) in items.iter().enumerate() {
                if begins_with_one(&Hir::concat(items[k..].to_vec()), literals) {
                    return Some(before);
                }
                before += item.properties().maximum_len()?;
                if before > LEAD_MOST {
                    return None;
                }
            }
            None
        }
        _ => begins_with_one(hir, literals).then_some(0),
    }
}

/// Whether every match of `hir` begins with one of `literals`.
fn begins_with_one(hir: &Hir, literals: &Literals) -> bool {
    let begins = |p: &[u8], l: &[u8]| match literals.fold {
        true => p.len() >= l.len() && p[..l.len()].eq_ignore_ascii_case(l),
        false => p.starts_with(l),
    };
    // The extractor's limits first, then classes of up to WIDE_CLASS
    // spelled out: `s\.[a-z0-9]` begins `s.` by the first, and with
    // one of `s.0` ... `s.z` by the second.
    let all_begin = |hir: &Hir, with: &dyn Fn(&[u8]) -> bool| {
        [10, WIDE_CLASS].into_iter().any(|class| {
            let seq = Extractor::new()
                .kind(ExtractKind::Prefix)
                .limit_class(class)
                .extract(hir);
            seq.literals()
                .is_some_and(|ps| !ps.is_empty() && ps.iter().all(|p| with(p.as_bytes())))
        })
    };
    all_begin(hir, &|p| literals.exact.iter().any(|l| begins(p, l)))
        || !literals.closed.is_empty()
            && all_begin(&lowered(hir), &|p| {
                literals.closed.iter().any(|l| p.starts_with(l))
            })
}

/// `h` with its ASCII capitals lowered: every match of `h`, lowered, is a
/// match of what this returns. An inline `(?i)` keyword becomes one
/// literal.
fn lowered(h: &Hir) -> Hir {
    map_leaves(h, &|leaf| match leaf.kind() {
        HirKind::Literal(l) => Hir::literal(l.0.to_ascii_lowercase()),
        HirKind::Class(Class::Bytes(c)) => {
            let upper = ClassBytes::new([ClassBytesRange::new(b'A', b'Z')]);
            let mut capitals = c.clone();
            capitals.intersect(&upper);
            let mut rest = c.clone();
            rest.difference(&upper);
            rest.union(&ClassBytes::new(
                capitals
                    .iter()
                    .map(|r| ClassBytesRange::new(r.start() + 32, r.end() + 32)),
            ));
            Hir::class(Class::Bytes(rest))
        }
        HirKind::Class(Class::Unicode(c)) => {
            let upper = ClassUnicode::new([ClassUnicodeRange::new('A', 'Z')]);
            let mut capitals = c.clone();
            capitals.intersect(&upper);
            let mut rest = c.clone();
            rest.difference(&upper);
            let low = |ch: char| ch.to_ascii_lowercase();
            rest.union(&ClassUnicode::new(
                capitals
                    .iter()
                    .map(|r| ClassUnicodeRange::new(low(r.start()), low(r.end()))),
            ));
            Hir::class(Class::Unicode(rest))
        }
        _ => leaf.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::parsed as hir;
    use super::*;

    fn lead_of(re: &str, lits: &[&[u8]], fold: bool) -> Option<usize> {
        lead(&hir(re), &Literals::new(lits.to_vec(), fold))
    }

    fn anchored(re: &str, lits: &[&[u8]], fold: bool) -> bool {
        lead_of(re, lits, fold) == Some(0)
    }

    #[test]
    fn a_rule_beginning_with_its_literal_is_anchored() {
        assert!(anchored(
            r"acquire lock=\S+, flags",
            &[b"acquire lock="],
            false
        ));
        assert!(anchored(r"(?:foo|bar)\d+", &[b"foo", b"bar"], false));
        // Literals shorter than the prefixes they begin.
        assert!(anchored(r"abcdef\s", &[b"abc"], false));
        assert!(anchored(r"^abc$", &[b"abc"], false));
    }

    #[test]
    fn a_rule_whose_match_may_begin_anywhere_before_has_no_lead() {
        assert_eq!(
            lead_of(r"\S+: Must execute", &[b": Must execute"], false),
            None
        );
        assert_eq!(lead_of(r"(?:foo|bar)\d+", &[b"foo"], false), None);
        assert_eq!(lead_of(r"ab\d+cdef", &[b"cdef"], false), None);
        assert_eq!(lead_of(r"[^a]", &[b"abc"], false), None);
        assert_eq!(lead_of(r"x{0,300}abc", &[b"abc"], false), None);
    }

    #[test]
    fn a_bounded_lead_is_its_longest_match_in_bytes() {
        assert_eq!(lead_of(r"x?abc", &[b"abc"], false), Some(1));
        assert_eq!(lead_of(r"[0-9]{2,4}-?abc\s", &[b"abc"], false), Some(5));
        // Unicode \d: digits of up to 4 bytes.
        assert_eq!(lead_of(r"\d{2,4}-?abc\s", &[b"abc"], false), Some(17));
        // Unicode \w: up to 4 bytes a character; ASCII-only, one.
        assert_eq!(lead_of(r"\w{0,50}abc", &[b"abc"], false), Some(200));
        assert_eq!(lead_of(r"(?-u:\w){0,50}abc", &[b"abc"], false), Some(50));
        // Each branch of an alternation: the longest lead.
        assert_eq!(
            lead_of(r"a?foo|\bbar\d|x{3}foo", &[b"foo", b"bar"], false),
            Some(3)
        );
        assert_eq!(lead_of(r"a?foo|.*bar", &[b"foo", b"bar"], false), None);
    }

    /// gitleaks' vault token: `s\.` and a class (the extractor's first
    /// look stops at `s.`, shorter than the literals).
    #[test]
    fn a_literal_ending_in_a_class_is_spelled_out() {
        let lits: Vec<Vec<u8>> = (b'0'..=b'9')
            .chain(b'a'..=b'z')
            .map(|c| vec![b's', b'.', c])
            .collect();
        let mut own: Vec<&[u8]> = lits.iter().map(Vec::as_slice).collect();
        assert_eq!(lead_of(r"\bs\.[a-z0-9]{24}", &own, false), Some(0));
        own.pop();
        assert_eq!(lead_of(r"\bs\.[a-z0-9]{24}", &own, false), None);
    }

    #[test]
    fn folded_literals_are_compared_lowered() {
        assert!(anchored(r"(?i)id=\w", &[b"id="], true));
        assert!(anchored(r"Id=\w", &[b"id="], true));
        assert!(!anchored(r"Id=\w", &[b"id="], false));
        // Unicode `(?i)k` holds the Kelvin sign, which lowers to no `k`.
        assert!(!anchored(r"(?i)key=\w", &[b"key="], true));
        assert!(anchored(r"(?i-u)key=\w", &[b"key="], true));
    }

    /// gitleaks' shape: an inline `(?i)` keyword (256 case variants of
    /// `adafruit`, past the extractor's limits) owning all its variants.
    #[test]
    fn an_inline_case_insensitive_keyword_is_compared_folded() {
        let rule = r#"(?i)(?-u:[\w.-]){0,50}?(?:adafruit)(?:[ \t\w.-]{0,20})[\s'"]{0,3}="#;
        let variants = crate::pattern::fold::ascii_case_combinations(b"adafruit");
        let all: Vec<&[u8]> = variants.iter().map(Vec::as_slice).collect();
        assert_eq!(lead_of(rule, &all, false), Some(50));
        // Not every variant owned: a match may begin with one not marked.
        assert_eq!(lead_of(rule, &all[1..], false), None);
        assert_eq!(lead_of(rule, &[b"adafruit"], true), Some(50));
    }
}
