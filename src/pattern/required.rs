//! Literals one of which every match of a regular expression contains: what
//! the GPU's literal kernels search, so that the regex only confirms the
//! lines holding a candidate.
//!
//! Three kinds of set are weighed, all built on regex-syntax's literal
//! extraction: the match's prefixes, its suffixes, and inner sets from a
//! walk of the expression (any element of a concatenation, or a run of
//! elements; a repetition taken at least once; an alternation as the union
//! of one set per branch). Each keeps the invariant the searcher relies on:
//! every match of the whole expression contains one of the literals,
//! entirely within the match and so within its line. The best by `How::score`
//! is kept.

use regex_syntax::hir::literal::{ExtractKind, Extractor, Literal, Seq};
use regex_syntax::hir::{Hir, HirKind};
use std::cmp::Reverse;
use std::collections::HashSet;

/// Literals to avoid: scored as if empty (`required_literals_avoiding`).
type Avoid<'a> = Option<&'a HashSet<Vec<u8>>>;

/// Most literals handed to the GPU for one regular expression.
pub const LITERALS_MAX: usize = 4096;

/// regex-syntax's default extraction limits, set explicitly: runs of
/// concatenated elements are crossed here by hand under the same limits.
const LIMIT_TOTAL: usize = 250;
const LIMIT_LITERAL_LEN: usize = 100;
/// Largest class crossed into literals by the walk of
/// [`required_literals_by_variants`] (every ASCII byte; regex-syntax's
/// default, 10, leaves `SK[0-9a-fA-F]` at `SK`).
const CLASS_LIMIT_VARIANTS: usize = 128;
/// Most elements crossed in one run: only zero-width ones (`\b\b\b...`)
/// keep a run exact that long, and every run from each element is tried.
/// Stopping early is sound: every match of the run still begins (ends)
/// with one of the literals crossed so far.
const RUN_MAX: usize = 64;

/// Where the chosen literals sit in a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// Every match begins with one of them.
    Prefix,
    /// Every match contains one of them.
    Inner,
    /// Every match ends with one of them.
    Suffix,
}

impl Position {
    pub fn name(self) -> &'static str {
        match self {
            Position::Prefix => "prefix",
            Position::Inner => "inner",
            Position::Suffix => "suffix",
        }
    }
}

/// A literal set every match contains one of: finite, non-empty, at most
/// [`LITERALS_MAX`] literals, none empty, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Required {
    pub position: Position,
    pub literals: Vec<Vec<u8>>,
}

/// The best set of literals one of which every match of `hir` contains,
/// or `None` when there is none (`a*`, `.*`, `\w+`; an expression that can
/// match the empty string never has one).
pub fn required_literals(hir: &Hir) -> Option<Required> {
    Walk::new(LITERALS_MAX, None).best(hir)
}

/// [`required_literals`] among the sets of at most `max` literals (a rule
/// pack's GPU split: `error\[E00[0-9]{2}\]: cannot find` has 100
/// prefixes, but one inner literal, `]: cannot find`).
pub fn required_literals_within(hir: &Hir, max: usize) -> Option<Required> {
    Walk::new(max.min(LITERALS_MAX), None).best(hir)
}

/// [`required_literals_within`], scoring a set that holds a literal of
/// `avoid` below every other (a rule pack's literals that many rules
/// share: a line holding one runs every owner's automaton).
pub fn required_literals_avoiding(
    hir: &Hir,
    max: usize,
    avoid: &HashSet<Vec<u8>>,
) -> Option<Required> {
    Walk::new(max.min(LITERALS_MAX), Some(avoid)).best(hir)
}

/// [`required_literals_within`] for a rule pack's GPU split, weighing a set
/// by its literals ASCII-lowered: the case variants of one literal count
/// once (gitleaks' `(?i)...(?:access|auth|...|token)` has 157 literals, 8
/// lowered), at most `max` of them and `raw_max` literals in all; classes
/// of up to 128 bytes are crossed (`SK[0-9a-fA-F]{32}`: 22 literals of 3
/// bytes rather than `SK`). The literals themselves are as found, not
/// lowered: the kernels search them as they are.
pub fn required_literals_by_variants(hir: &Hir, max: usize, raw_max: usize) -> Option<Required> {
    let mut walk = Walk::new(max.min(LITERALS_MAX), None);
    walk.how.raw_max = Some(raw_max.min(LITERALS_MAX));
    walk.prefix.limit_class(CLASS_LIMIT_VARIANTS);
    walk.suffix.limit_class(CLASS_LIMIT_VARIANTS);
    walk.best(hir)
}

/// How many literals `lits` holds once ASCII-lowered.
pub fn lowered_count(lits: &[Vec<u8>]) -> usize {
    let lowered: HashSet<Vec<u8>> = lits.iter().map(|l| l.to_ascii_lowercase()).collect();
    lowered.len()
}

/// `-i`: literals one of which every match of the case-insensitive
/// expression contains, with ASCII folding (the literals' ASCII letters
/// lowered, for matchers that fold ASCII), from `cs`, the same expression
/// parsed without `-i`, at most `max` of them (and the extractor's 250).
/// Its best set, one window of each literal in its variants beyond ASCII
/// (`fold::window_lowered_variants`): `(?i)` turns each literal character
/// into its case orbit, so a match of the case-insensitive expression
/// holds some literal in some case. (All case variants of the windows,
/// thirty-fifth session, cut the windows to a few letters each and gave
/// 10,000 generated rules 642,032 literals.)
///
/// The walk of the case-insensitive expression itself meets every letter
/// as a class of its own and crosses every run of them: 1,000 generated
/// rules took 1.3 s to compile under `-i` (0.13 s without), 10,000 took
/// 16 s (dev VM, 2 cores; `rg -i` 0.1 and 0.95 s). This way 0.46 and 4.0
/// s (H200 host: 0.56-0.61 → 0.22-0.25 s and 4.4-4.8 → 2.0-2.4 s).
pub fn required_case_insensitive(cs: &Hir, max: usize) -> Option<Required> {
    // As many variants as the extractor crosses (the walk of the
    // case-insensitive expression met the same bound), from sets small
    // enough to leave each literal 8 of them (three letters).
    let cap = max.min(LIMIT_TOTAL);
    let found = Walk::new((cap / 8).max(1), None).best(cs)?;
    let (variants, whole) = crate::pattern::fold::window_lowered_variants(&found.literals, cap)?;
    let literals = minimized(variants)?;
    // A window cut from a prefix (or suffix) is only inside the match.
    Some(Required {
        position: if whole {
            found.position
        } else {
            Position::Inner
        },
        literals,
    })
}

/// How a walk weighs a set: at most `max` literals (counted lowered where
/// `raw_max` bounds the literals themselves), and those to avoid.
#[derive(Clone, Copy)]
struct How<'a> {
    max: usize,
    raw_max: Option<usize>,
    avoid: Avoid<'a>,
}

impl How<'_> {
    fn fits(&self, lits: &[Vec<u8>]) -> bool {
        match self.raw_max {
            None => lits.len() <= self.max,
            Some(raw) => lits.len() <= raw && lowered_count(lits) <= self.max,
        }
    }

    /// Higher is better. The longest shortest literal first: a longer
    /// literal occurs less often, so fewer candidate lines reach the regex.
    /// Then the fewest literals (counted lowered with `raw_max`), the
    /// lighter set for the kernel. On a tie the set offered first stays:
    /// prefix, then suffix, then inner. A literal of `avoid` counts as
    /// empty.
    fn score(&self, lits: &[Vec<u8>]) -> (usize, Reverse<usize>) {
        let len = |l: &Vec<u8>| match self.avoid.is_some_and(|a| a.contains(l)) {
            true => 0,
            false => l.len(),
        };
        let shortest = lits.iter().map(len).min().unwrap_or(0);
        let count = match self.raw_max {
            Some(_) => lowered_count(lits),
            None => lits.len(),
        };
        (shortest, Reverse(count))
    }
}

/// Keeps `lits` in `best` if it scores higher (and fits `how`).
fn offer(best: &mut Option<Required>, position: Position, lits: Option<Vec<Vec<u8>>>, how: How) {
    let Some(literals) = lits.filter(|l| how.fits(l)) else {
        return;
    };
    if best
        .as_ref()
        .is_none_or(|b| how.score(&literals) > how.score(&b.literals))
    {
        *best = Some(Required { position, literals });
    }
}

/// Offers an extracted sequence, without building its set when its
/// shortest literal already loses (minimizing never shortens it).
fn offer_seq(best: &mut Option<Required>, position: Position, seq: &Seq, how: How) {
    let shortest = best.as_ref().map_or(1, |b| how.score(&b.literals).0);
    if seq.min_literal_len().is_some_and(|n| n >= shortest) {
        offer(best, position, usable(seq), how);
    }
}

/// A sub-expression's set, inside the whole one.
fn offer_inner(best: &mut Option<Required>, found: Option<Required>, how: How) {
    offer(best, Position::Inner, found.map(|r| r.literals), how);
}

/// False when `h` can match the empty string, so that no literal is sure
/// to be in its matches (or never matches: no set worth searching).
fn can_hold_literal(h: &Hir) -> bool {
    h.properties().minimum_len().is_some_and(|n| n > 0)
}

/// The literals of an extracted sequence when they make a usable set: a
/// finite sequence (an infinite one says nothing) without the empty string
/// (which every position holds).
fn usable(seq: &Seq) -> Option<Vec<Vec<u8>>> {
    let lits = seq.literals()?;
    if lits.iter().any(Literal::is_empty) {
        return None;
    }
    minimized(lits.iter().map(|l| l.as_bytes().to_vec()).collect())
}

/// Sorted and deduplicated, without literals that begin or end with
/// another one of the set (whatever holds them holds the shorter one);
/// `None` when empty or too large.
fn minimized(mut lits: Vec<Vec<u8>>) -> Option<Vec<Vec<u8>>> {
    // Sorted, a literal beginning with a kept one follows it, before any
    // literal that does not.
    fn drop_extensions(lits: &mut Vec<Vec<u8>>) {
        lits.sort_unstable();
        lits.dedup_by(|later, kept| later.starts_with(kept));
    }
    drop_extensions(&mut lits);
    lits.iter_mut().for_each(|l| l.reverse());
    drop_extensions(&mut lits);
    lits.iter_mut().for_each(|l| l.reverse());
    lits.sort_unstable();
    (!lits.is_empty() && lits.len() <= LITERALS_MAX).then_some(lits)
}

struct Walk<'a> {
    prefix: Extractor,
    suffix: Extractor,
    how: How<'a>,
}

impl<'a> Walk<'a> {
    fn new(max: usize, avoid: Avoid<'a>) -> Walk<'a> {
        let extractor = |kind| {
            let mut e = Extractor::new();
            e.kind(kind)
                .limit_total(LIMIT_TOTAL)
                .limit_literal_len(LIMIT_LITERAL_LEN);
            e
        };
        Walk {
            prefix: extractor(ExtractKind::Prefix),
            suffix: extractor(ExtractKind::Suffix),
            how: How {
                max,
                raw_max: None,
                avoid,
            },
        }
    }

    /// The best set for `h`. Sub-expressions count as inner sets: every
    /// match of `h` contains a match of each one named here.
    fn best(&self, h: &Hir) -> Option<Required> {
        if !can_hold_literal(h) {
            return None;
        }
        let prefixes = self.prefix.extract(h);
        self.best_of(h, &prefixes, &self.suffix.extract(h))
    }

    /// `best` for `h` whose prefixes and suffixes are extracted already.
    fn best_of(&self, h: &Hir, prefixes: &Seq, suffixes: &Seq) -> Option<Required> {
        if !can_hold_literal(h) {
            return None;
        }
        let mut best = None;
        let how = self.how;
        offer_seq(&mut best, Position::Prefix, prefixes, how);
        offer_seq(&mut best, Position::Suffix, suffixes, how);
        match h.kind() {
            HirKind::Capture(cap) => offer_inner(&mut best, self.best(&cap.sub), how),
            // Taken at least once: a match holds a match of `sub`.
            HirKind::Repetition(rep) if rep.min >= 1 => {
                offer_inner(&mut best, self.best(&rep.sub), how)
            }
            HirKind::Concat(elems) => self.concat(elems, &mut best),
            HirKind::Alternation(branches) => {
                offer(&mut best, Position::Inner, self.union(branches), how)
            }
            _ => {}
        }
        best
    }

    /// A concatenation's match holds a match of every element, and of
    /// every run of consecutive elements: the prefixes of each run to the
    /// end, the suffixes of each run from the start (literal elements
    /// joined to their neighbours, as in `\w+ab[cd]\w+`: `abc`, `abd`).
    fn concat(&self, elems: &[Hir], best: &mut Option<Required>) {
        let prefixes: Vec<Seq> = elems.iter().map(|e| self.prefix.extract(e)).collect();
        let suffixes: Vec<Seq> = elems.iter().map(|e| self.suffix.extract(e)).collect();
        for (k, e) in elems.iter().enumerate() {
            offer_inner(best, self.best_of(e, &prefixes[k], &suffixes[k]), self.how);
        }
        // The whole run (from 0, to the end) was offered by `best_of`.
        for i in 1..elems.len() {
            let run = cross(prefixes[i..].iter(), ExtractKind::Prefix);
            offer_seq(best, Position::Inner, &run, self.how);
        }
        for j in 1..elems.len() {
            let run = cross(suffixes[..j].iter().rev(), ExtractKind::Suffix);
            offer_seq(best, Position::Inner, &run, self.how);
        }
    }

    /// An alternation's match is a match of one branch: the union of one
    /// set per branch, when every branch has one.
    fn union(&self, branches: &[Hir]) -> Option<Vec<Vec<u8>>> {
        let mut all = Vec::new();
        for b in branches {
            all.extend(self.best(b)?.literals);
            if all.len() > 2 * LITERALS_MAX {
                all = minimized(all)?;
            }
        }
        minimized(all)
    }
}

/// The prefixes (or suffixes) of a run of concatenated elements, from each
/// element's own sequence in the order of extraction, as regex-syntax's
/// extractor crosses a concatenation (same limits, same early stop once
/// no literal can grow).
fn cross<'a>(seqs: impl Iterator<Item = &'a Seq>, kind: ExtractKind) -> Seq {
    let mut acc = Seq::singleton(Literal::exact(vec![]));
    for s in seqs.take(RUN_MAX) {
        if acc.is_inexact() {
            break;
        }
        let mut s = s.clone();
        if acc.max_cross_len(&s).is_some_and(|n| n > LIMIT_TOTAL) {
            s.make_infinite();
        }
        match kind {
            ExtractKind::Suffix => {
                acc.cross_reverse(&mut s);
                acc.keep_last_bytes(LIMIT_LITERAL_LEN);
            }
            _ => {
                acc.cross_forward(&mut s);
                acc.keep_first_bytes(LIMIT_LITERAL_LEN);
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Parsed as `compile_regex` parses (multi-line, bytes allowed).
    fn hir(re: &str, ci: bool) -> Hir {
        regex_syntax::ParserBuilder::new()
            .case_insensitive(ci)
            .multi_line(true)
            .utf8(false)
            .build()
            .parse(re)
            .unwrap()
    }

    fn lits(re: &str) -> Option<(Position, Vec<String>)> {
        required_literals(&hir(re, false)).map(|r| {
            let l = r.literals.iter().map(|l| String::from_utf8_lossy(l).into());
            (r.position, l.collect())
        })
    }

    fn set(position: Position, l: &[&str]) -> Option<(Position, Vec<String>)> {
        Some((position, l.iter().map(|s| s.to_string()).collect()))
    }

    /// A rule pack's GPU split asks for at most 64 literals: a rule whose
    /// best set is its 100 prefixes gets its one inner literal instead.
    #[test]
    fn within_a_bound_the_best_smaller_set() {
        let h = hir(r"error\[E00[0-9]{2}\]: cannot find", false);
        assert_eq!(required_literals(&h).map(|r| r.literals.len()), Some(100));
        let r = required_literals_within(&h, 64).unwrap();
        assert_eq!(r.position, Position::Inner);
        assert_eq!(r.literals, vec![b"]: cannot find".to_vec()]);
        assert_eq!(
            required_literals_within(&hir("[ab][cd][ef]", false), 1),
            None
        );
    }

    /// Gitleaks' rules without a set of at most 64 literals of 3 bytes
    /// (session 41): a class of 22 bytes crossed, and case variants
    /// counted once.
    #[test]
    fn by_variants_classes_crossed_and_case_variants_counted_once() {
        let r = required_literals_by_variants(&hir("SK[0-9a-fA-F]{32}", false), 64, 512).unwrap();
        assert_eq!(r.position, Position::Prefix);
        assert_eq!(r.literals.len(), 22);
        assert!(r
            .literals
            .iter()
            .all(|l| l.len() == 3 && l.starts_with(b"SK")));
        // Not within 64 literals counted one by one: `SK` alone.
        let within = required_literals_within(&hir("SK[0-9a-fA-F]{32}", false), 64).unwrap();
        assert_eq!(within.literals, vec![b"SK".to_vec()]);
        let h = hir(r"[\w.-]{0,5}(?:access|auth|token)[ \t\w.-]{0,20}=", true);
        let r = required_literals_by_variants(&h, 64, 512).unwrap();
        // 208 literals; lowered, the ASCII ones and those with the long s
        // or the Kelvin sign (`accesſ`, `to\u{212A}en`).
        assert_eq!(r.literals.len(), 208);
        assert_eq!(lowered_count(&r.literals), 7);
        // Fewer allowed: the one suffix left.
        let eq = Some(vec![b"=".to_vec()]);
        assert_eq!(
            required_literals_by_variants(&h, 6, 512).map(|r| r.literals),
            eq
        );
        assert_eq!(
            required_literals_by_variants(&h, 64, 64).map(|r| r.literals),
            eq
        );
    }

    #[test]
    fn literals_of_typical_expressions() {
        use Position::*;
        assert_eq!(lits("[A-Z]+_SUSPEND"), set(Suffix, &["_SUSPEND"]));
        // {ERROR, FATAL} would do as well: the longer literal wins.
        assert_eq!(lits("(ERROR|FATAL).*timeout"), set(Suffix, &["timeout"]));
        assert_eq!(
            lits(r"\b{start-half}(?:Sherlock [A-Z]\w+)\b{end-half}"),
            set(Prefix, &["Sherlock "])
        );
        assert_eq!(lits(r"\w+ing"), set(Suffix, &["ing"]));
        assert_eq!(lits(r"\w+ab(c|d)"), set(Suffix, &["abc", "abd"]));
        assert_eq!(lits(r"\w+ab[cd]\w+"), set(Inner, &["abc", "abd"]));
        assert_eq!(
            lits(r"^\d+ (GET|POST) \S+$"),
            set(Inner, &[" GET ", " POST "])
        );
        assert_eq!(lits(r"(\w+foo|bar\d)\s"), set(Inner, &["bar", "foo"]));
        // A run of elements up to a literal: suffixes crossed right to left.
        assert_eq!(lits("(?:ab)+cd."), set(Inner, &["abcd"]));
        assert_eq!(lits(".x"), set(Suffix, &["x"]));
        assert_eq!(lits("(ab){2,3}"), set(Prefix, &["abab"]));
        assert_eq!(lits("a*"), None);
        assert_eq!(lits(".*"), None);
        assert_eq!(lits(r"\w+"), None);
        assert_eq!(lits("a|"), None);
        assert_eq!(lits(r"(\w+foo|\d)"), None);
    }

    /// `-i` folds letters into classes, which extraction expands.
    #[test]
    fn case_insensitive_literals_are_case_variants() {
        let r = required_literals(&hir(r"\w+_ab", true)).unwrap();
        assert_eq!(r.position, Position::Suffix);
        assert_eq!(r.literals, [&b"_AB"[..], b"_Ab", b"_aB", b"_ab"]);
    }

    /// Regression (issue 7): `[A-Z]+_SUSPEND` had no literal prefix and so
    /// never reached the GPU; its suffix is one literal.
    #[test]
    fn suspend_regex_has_inner_literal() {
        let r = required_literals(&hir("[A-Z]+_SUSPEND", false)).unwrap();
        assert_eq!(r.literals, [b"_SUSPEND".to_vec()]);
    }

    #[test]
    fn extensions_of_a_literal_are_dropped() {
        let v = |l: &[&str]| l.iter().map(|s| s.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(
            minimized(v(&["ab", "abc", "xab", "ab", "cd"])),
            Some(v(&["ab", "cd"]))
        );
        assert_eq!(minimized(Vec::new()), None);
    }

    /// A random expression from literals, classes, anchors, groups,
    /// alternations and repetitions, literals drawn most often.
    fn expression() -> impl Strategy<Value = String> {
        let pick = |v: Vec<&'static str>| prop::sample::select(v).prop_map(String::from);
        let leaf = prop_oneof![
            3 => pick(vec!["a", "b", "ab", "ba", "x", "_", "abx", "ks", "s"]),
            2 => pick(vec!["[ab]", "[a-c]", "[^a]", ".", r"\w", r"\W"]),
            1 => pick(vec!["^", "$", r"\b", r"\B"]),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                3 => prop::collection::vec(inner.clone(), 2..6).prop_map(|v| v.concat()),
                1 => prop::collection::vec(inner.clone(), 2..4)
                    .prop_map(|v| format!("(?:{})", v.join("|"))),
                1 => inner.clone().prop_map(|e| format!("({e})")),
                2 => (
                    inner,
                    prop::sample::select(vec!["*", "+", "?", "{2,3}", "{0,}", "{1}", "+?"])
                )
                    .prop_map(|(e, r)| format!("(?:{e}){r}")),
            ]
        })
    }

    /// `-i`: a rule's literals lowered, with variants beyond ASCII, at
    /// most 2 a window (`LOWERED_VARIANTS_MAX`): one letter with an orbit
    /// beyond ASCII (s and k: the long s and the Kelvin sign).
    #[test]
    fn case_insensitive_literals_are_lowered_with_variants_beyond_ascii() {
        let r = required_case_insensitive(&hir("Error: DISK full", false), 64).unwrap();
        assert_eq!(r.position, Position::Inner);
        assert_eq!(
            r.literals,
            vec![
                b"error: dis".to_vec(),
                "error: di\u{17F}".as_bytes().to_vec()
            ]
        );
        let r = required_case_insensitive(&hir("[0-9]+-4711", false), 64).unwrap();
        // No letter; sets of at most 64 / 8 literals: not the 10 suffixes
        // `0-4711` to `9-4711`, the one inner literal.
        assert_eq!(
            (r.position, r.literals),
            (Position::Inner, vec![b"-4711".to_vec()])
        );
        assert_eq!(required_case_insensitive(&hir(r"\w+", false), 64), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Every match of the expression under `-i`, its ASCII letters
        /// lowered, contains one of the literals found on it parsed without
        /// `-i`.
        #[test]
        fn every_case_insensitive_match_contains_a_literal(
            re_text in expression(),
            max in prop::sample::select(vec![4usize, 64, 250]),
            text in prop::collection::vec(prop::sample::select(vec![
                "a", "B", "Ab", "bA", "X", "_", " ", "\n", "A", "c", "bx", "K", "k",
                "\u{212A}", "s", "\u{17F}",
            ]), 0..60).prop_map(|v| v.concat().into_bytes()),
        ) {
            let Some(req) = required_case_insensitive(&hir(&re_text, false), max) else {
                return Ok(());
            };
            prop_assert!(!req.literals.is_empty() && req.literals.len() <= max);
            let re = crate::pattern::window::tests::oracle(&hir(&re_text, true));
            for start in 0..=text.len() {
                let Some(m) = crate::pattern::window::tests::find_at(&re, &text, start) else { break };
                let span = text[m.clone()].to_ascii_lowercase();
                prop_assert!(
                    req.literals.iter().any(|l| span.windows(l.len()).any(|w| w == &l[..])),
                    "{re_text}: match {:?} holds none of {:?}",
                    String::from_utf8_lossy(&span), req.literals
                );
            }
        }

        /// Every match of the regex contains one of the literals handed
        /// to the GPU, within the match (the candidates miss no line).
        #[test]
        fn every_match_contains_a_required_literal(
            re_text in expression(),
            ci in prop::bool::weighted(0.2),
            text in prop::collection::vec(prop::sample::select(vec![
                "a", "b", "ab", "ba", "x", "_", " ", "\n", "A", "c", "bx",
            ]), 0..60).prop_map(|v| v.concat().into_bytes()),
            by_variants in prop::bool::ANY,
        ) {
            let h = hir(&re_text, ci);
            let found = match by_variants {
                true => required_literals_by_variants(&h, 4, 16),
                false => required_literals(&h),
            };
            let Some(req) = found else {
                return Ok(());
            };
            prop_assert!(!req.literals.is_empty() && req.literals.len() <= LITERALS_MAX);
            prop_assert!(
                !by_variants || (req.literals.len() <= 16 && lowered_count(&req.literals) <= 4)
            );
            prop_assert!(req.literals.iter().all(|l| !l.is_empty()));
            // From the HIR, not its text (`window::tests::oracle`).
            let re = crate::pattern::window::tests::oracle(&h);
            // Every match starting anywhere, not only the leftmost-first
            // ones: the invariant holds for any string the regex matches.
            for start in 0..=text.len() {
                let Some(m) = crate::pattern::window::tests::find_at(&re, &text, start) else { break };
                let span = &text[m.clone()];
                let found = req.literals.iter().any(|l| {
                    span.windows(l.len()).any(|w| w == &l[..])
                });
                prop_assert!(
                    found,
                    "{re_text} (ci {ci}): match {:?} at {} holds none of {:?} ({:?})",
                    String::from_utf8_lossy(span), m.start, req.literals, req.position
                );
            }
        }
    }
}
