//! Rule packs: hundreds to thousands of regular expressions (issue 17,
//! `gpugrep -E -f rules.txt`), each parsed and confined on its own, found
//! by the union of the rules' own literals, and confirmed by one of two
//! engines chosen by measurement (benches/RESULTS.md, "rule packs on the
//! CPU"; 200 MB of CI logs, 2 threads, `-c`):
//!
//! | rules  | alternation | pack    | per-rule |
//! |--------|-------------|---------|----------|
//! | 100    | 0.55 s      | 0.84 s  | 0.90 s   |
//! | 300    | 1.36 s      | 1.17 s  | 1.19 s   |
//! | 1,000  | 4.13 s      | 2.42 s  | 1.66 s   |
//! | 10,000 | > 600 s     | > 300 s | 4.16 s   |
//!
//! (CPU seconds.) So fewer than [`PACK_MIN`] expressions stay one
//! alternation (`expr::compile_regex`); from there:
//!
//! * **per-rule** (`cpu::RuleSet`): when every rule has literals of 3 bytes
//!   or more, each rule is its own small regex and a candidate line is
//!   tried only against the rules whose literals it holds. One automaton for
//!   thousands of rules has lazy-DFA states of thousands of NFA states: its
//!   cache thrashes, the meta engine gives up on it and runs the PikeVM
//!   over the whole pack on every candidate line (the > 300 s above).
//! * **split** (`cpu::SplitRules`, `split`): when some rules have such
//!   literals and others not, the first are dispatched as per-rule and the
//!   others are one multi-pattern meta regex of their own; one forward DFA
//!   over the literals and those rules finds the candidate lines (1,000
//!   generated rules and 27 without literals: 285 us per candidate line
//!   confirmed by the whole pack, 0.75 us split). The GPU's plan splits
//!   the same way (`split::plan`).
//! * **pack** (`cpu::Pack`): otherwise (or forced), one multi-pattern meta
//!   regex (`meta::Builder::build_many_from_hir`) decides lines, and the
//!   rules' alternation finds them where their literals cannot.
//!
//! Memory is bounded by documented limits ([`PACK_NFA_LIMIT`],
//! [`PACK_CACHE`], [`RULE_CACHE`]): past them the compile stops with
//! "rule pack too large" (exit 2) instead of growing. `-w` keeps GNU's word
//! characters: the rules' literals (or their alternation without word
//! boundaries) find candidate lines and the alternation's word matcher
//! confirms them, as for one regex.
//!
//! `-o` is the alternation's: the leftmost match, and at one start the
//! first rule (in order) that matches there, as the `regex` crate's
//! leftmost-first alternation reports it. Lines are decided by the rules
//! with their ends trimmed (`trim`) whatever the output; where matches are
//! printed (`-o`, colour, `--count-matches`, JSON) the rules as written
//! place them (`cpu::LinesAndSpans`): each rule's own regex tried on the
//! lines holding its literals (every line for a split pack's other rules),
//! or, for a pack without literal rules, their alternation. These have
//! limits of their own: [`PACK_NFA_LIMIT`] again. In both, the large rules
//! past ASCII keep only their forward automata (`regexes::FORWARD_ONLY_FROM`;
//! gitleaks' 221 rules as written: 519 MiB whole, 170 MiB so).
//!
//! `GPUGREP_RULE_PACK=alternation|pack|rules` overrides the choice (for
//! measuring, and for the differential test's small packs); `--debug`
//! names the engine used.

use regex_automata::hybrid;
use regex_syntax::hir::Hir;
use std::sync::Arc;
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use super::expr::{parse_confined, word_matcher};
use super::split;
use super::{Compiled, GpuPlan, PatternError};
use crate::config::{Config, EngineChoice};
use crate::confirm::{word_regex, WordRegex, WordRules};
use crate::encoding::EncodingPlan;
use crate::engine::retimed::Retimed;
use crate::engine::{cpu, Matcher};
use crate::knobs::RulePack;
use crate::parts::map_on_all_cores;
use crate::pattern::finder::{
    build_lazy_dfa, build_regex, build_regex_within, pack_line_finder, relax_word_boundaries,
};
use crate::pattern::fold;
use crate::pattern::glushkov;
use crate::pattern::required::{required_case_insensitive, required_literals, LITERALS_MAX};
use crate::pattern::trim;
use regexes::{build_pack, build_rules};

mod regexes;

/// Fewest regular expressions compiled as a pack; fewer are joined into
/// one alternation (faster at 100 rules, slower at 300: the table above).
pub const PACK_MIN: usize = 200;

/// The engine `GPUGREP_RULE_PACK` asks for, if any.
fn forced() -> Option<RulePack> {
    crate::knobs::get().rule_pack.get()
}

/// Whether `n` regular expressions are compiled as a pack.
pub(super) fn wanted(n: usize) -> bool {
    match forced() {
        Some(RulePack::Alternation) => false,
        Some(RulePack::Pack | RulePack::Rules) => n >= 2,
        None => n >= PACK_MIN,
    }
}

/// Most bytes of Thompson NFA a pack may compile to (`nfa_size_limit`):
/// 10,000 real-shaped rules take about 60 MiB. Past it: "rule pack too
/// large" (exit 2), after at most a second or two of compiling.
pub const PACK_NFA_LIMIT: usize = 256 << 20;

/// Lazy DFA cache per search thread (`hybrid_cache_capacity`). The lazy DFA
/// clears a full cache and goes on; a pack whose DFA thrashes it falls
/// back to slower engines on the lines that need them, never to more
/// memory.
pub const PACK_CACHE: usize = 64 << 20;

/// Lazy DFA cache of one rule's regex in a [`cpu::RuleSet`], per search
/// thread (the rules are small; thousands of them share a thread).
pub const RULE_CACHE: usize = 256 << 10;

/// Compiles `alternatives` (already in the `regex` crate's syntax, one per
/// rule) as a pack.
///
/// The GPU's plan (its rule book, most of the compile after the CPU's
/// regexes) is built beside the CPU's side, and within that the line finder
/// beside the rules' regexes: each has a serial part. 10,000 generated
/// rules, empty input, 2-core VM, auto: 0.89 s in turn, 0.59 s beside
/// (with the rule book's automata sped up too, `glushkov::positions`).
pub(super) fn compile_pack(
    alternatives: &[String],
    cfg: &Config,
) -> Result<Compiled, PatternError> {
    let started = Instant::now();
    let p = Parts::parse(alternatives, cfg)?;
    let parsed = started.elapsed();
    // Without the split, the GPU searches the union (if not too large).
    let fallback = p.gpu_union.clone().map(GpuPlan::Required);
    let literal_note = match (&fallback, cfg.engine) {
        // The split says what goes to the GPU.
        (_, EngineChoice::Gpu | EngineChoice::Auto) => String::new(),
        (Some(GpuPlan::Required(l)), EngineChoice::Cpu) => {
            format!(", {} literal(s) for the GPU", l.len())
        }
        (_, EngineChoice::Cpu) => ", no literal set for the GPU".into(),
    };
    let (cpu_side, gpu) = std::thread::scope(|s| {
        let plan = match cfg.engine {
            EngineChoice::Cpu => Err(fallback),
            _ => {
                let p = &p;
                Ok(s.spawn(move || {
                    let relaxed = p.relaxed_for_gpu();
                    let hirs = relaxed.as_deref().unwrap_or(&p.hirs);
                    // The GPU's own literal sets (`split::gpu_halves`), found
                    // here beside the CPU's side and only for the GPU.
                    let gpu_halves = match cfg.ignore_case {
                        true => None,
                        false => split::gpu_halves(hirs, &p.gpu_each, p.per_rule.as_deref()),
                    };
                    let halves = gpu_halves.as_ref().unwrap_or(&p.halves);
                    let plan = split::plan(halves, hirs, cfg, fallback);
                    (plan, started.elapsed() - parsed)
                }))
            }
        };
        let cpu_side = p.cpu_side(s);
        let cpu_time = started.elapsed() - parsed;
        let plan = match plan {
            Err(fallback) => ((fallback, String::new()), Duration::ZERO),
            Ok(h) => joined(h),
        };
        ((cpu_side, cpu_time), plan)
    });
    let ((cpu_side, cpu_time), ((gpu, gpu_note), plan_time)) = (cpu_side, gpu);
    let times = format!(
        "; compiled in {:.2} s: rules parsed {:.2} s, then beside each other the CPU's side {:.2} s and the GPU's plan {:.2} s",
        started.elapsed().as_secs_f64(),
        parsed.as_secs_f64(),
        cpu_time.as_secs_f64(),
        plan_time.as_secs_f64()
    );
    let ((finder, how, confirm), spans_note) = cpu_side?;
    let word = p.word();
    let split_confirm = p.split().is_some();
    let engine = match (word, p.per_rule_wanted, split_confirm) {
        (true, true, _) => "-w: per-rule regexes tried on lines holding their literals, with GNU's word characters",
        (true, false, true) => "-w: per-rule regexes, the rules with literals tried on lines holding them, with GNU's word characters",
        (true, false, false) => "-w: confirmed by the rules' alternation and GNU's word matcher",
        (false, true, _) => "per-rule regexes tried on lines holding their literals",
        (false, false, true) => {
            "per-rule regexes for the rules with literals, one multi-pattern automaton for the others"
        }
        (false, false, false) => "one multi-pattern automaton",
    };
    Ok(Compiled {
        prefilter: finder,
        confirm: Some(confirm),
        description: format!(
            "{} pattern(s), regex rule pack ({engine}), lines found by {how}{spans_note}{literal_note}{gpu_note}{times}",
            alternatives.len(),
        ),
        gpu,
        warnings: Vec::new(),
        encoding: EncodingPlan::Raw { sniff_utf16: true },
        automaton_later: None,
    })
}

/// A pack's rules parsed, and what both engines' plans are built from.
struct Parts<'a> {
    alternatives: &'a [String],
    cfg: &'a Config,
    /// The rules trimmed for lines (as written under -w).
    hirs: Vec<Hir>,
    /// The rules as written, where matches are printed (not under -w).
    spans: Option<Vec<Hir>>,
    /// Each rule's own required literals, when every rule has some. Under
    /// `-i` they (and `union`) are lowered (`required_case_insensitive`),
    /// for matchers that fold ASCII ([`Parts::folded`]). As case variants,
    /// 10,000 generated rules had 642,032: compiling them took 3.8-4.8 s
    /// (dev VM), where the variants' alternation replaced the union past
    /// its 100,000 literals, and searching 100 MB of CI logs took over 3
    /// minutes.
    per_rule: Option<Vec<Vec<Vec<u8>>>>,
    /// Their union, sorted: the pack's candidate lines.
    union: Option<Vec<Vec<u8>>>,
    /// The union as exact bytes (under `-i`, its case variants), when it has
    /// at most [`LITERALS_MAX`] literals: the GPU's plan without a split.
    gpu_union: Option<Vec<Vec<u8>>>,
    /// Each rule's literals for the split (`split::gpu_literals`).
    gpu_each: Vec<Option<Vec<Vec<u8>>>>,
    /// The split (`split`): rules with good literals and the others. The
    /// GPU searches the halves with two kernels; a mixed pack's lines are
    /// confirmed by them on every engine.
    halves: split::Halves,
    mixed: bool,
    per_rule_wanted: bool,
    alternation: Hir,
}

/// A line finder or confirmer, a line finder's description, a confirmer.
type CpuSide = (Box<dyn Matcher>, &'static str, Box<dyn Matcher>);

impl<'a> Parts<'a> {
    /// Each rule, on all cores: its HIR, its own literals, and its first
    /// choice of literals for the GPU's split; then what joins them.
    fn parse(alternatives: &'a [String], cfg: &'a Config) -> Result<Parts<'a>, PatternError> {
        let word = cfg.word && !cfg.line;
        // Lines are decided by the rules with their ends trimmed (`trim`):
        // all of them, as measured on the real packs (RESULTS, session 37).
        // Where matches are printed, the rules as written place them
        // (`cpu::LinesAndSpans`); under -w the word matcher does both, from
        // the rules as written.
        let spans_wanted = !cfg.lines_only() && !word;
        let lines = |h: Hir| match word {
            true => trim::where_lines_count(h, cfg, trim::Cut::All),
            false => trim::for_lines(h, trim::Cut::All),
        };
        // -i: literals from each rule parsed without it, in their case
        // variants (`required_case_insensitive`).
        let case_sensitive = cfg.ignore_case.then(|| Config {
            ignore_case: false,
            ..cfg.clone()
        });
        let parsed = map_on_all_cores(alternatives, |a| {
            let wrapped = match (cfg.line, word) {
                (true, _) => format!("^(?:{a})$"),
                (false, true) => format!(r"\b{{start-half}}(?:{a})\b{{end-half}}"),
                (false, false) => a.clone(),
            };
            let whole = parse_confined(&wrapped, cfg)?;
            let (h, whole) = match spans_wanted {
                true => (lines(whole.clone()), Some(whole)),
                false => (lines(whole), None),
            };
            let (own, gpu) = match &case_sensitive {
                Some(cs_cfg) => {
                    let cs = lines(parse_confined(&wrapped, cs_cfg)?);
                    let own = required_case_insensitive(&cs, LITERALS_MAX).map(|r| r.literals);
                    let gpu = split::first_choice_folded(&h, &cs, own.as_deref());
                    (own, gpu)
                }
                None => {
                    let own = required_literals(&h).map(|r| r.literals);
                    let gpu = split::first_choice(&h, own.as_deref());
                    (own, gpu)
                }
            };
            Ok((h, whole, own, gpu))
        });
        let mut hirs = Vec::with_capacity(parsed.len());
        let (mut wholes, mut each, mut first) = (Vec::new(), Vec::new(), Vec::new());
        for p in parsed {
            let (h, whole, own, gpu) = p?;
            hirs.push(h);
            wholes.push(whole);
            each.push(own);
            first.push(gpu);
        }
        let spans: Option<Vec<Hir>> = wholes.into_iter().collect();
        let per_rule: Option<Vec<Vec<Vec<u8>>>> = each.into_iter().collect();
        // -i: each rule keeps its first choice. The search for unshared
        // literals walks the case-insensitive rules, the cost that
        // `required_case_insensitive` takes out of the compile (1,000
        // generated rules, dev VM: 0.85 s with that search, 0.54 without).
        let gpu_each = match cfg.ignore_case {
            true => first,
            false => split::gpu_literals(&hirs, first),
        };
        let halves = split::halves(&gpu_each);
        let mixed = !halves.literal_rules.is_empty() && !halves.automaton_rules.is_empty();
        let union = per_rule.as_ref().map(|p| {
            let mut u = p.concat();
            u.sort_unstable();
            u.dedup();
            u
        });
        let gpu_union = union.as_deref().and_then(|u| match cfg.ignore_case {
            true => fold::set_variants(u, LITERALS_MAX),
            false => Some(u.to_vec()).filter(|u| u.len() <= LITERALS_MAX),
        });
        let per_rule_wanted = forced() != Some(RulePack::Pack) && good_union(union.as_deref());
        Ok(Parts {
            alternatives,
            cfg,
            alternation: Hir::alternation(hirs.clone()),
            hirs,
            spans,
            per_rule,
            union,
            gpu_union,
            gpu_each,
            halves,
            mixed,
            per_rule_wanted,
        })
    }

    fn word(&self) -> bool {
        self.cfg.word && !self.cfg.line
    }

    /// The split (`split`), where the CPU engine takes it: a mixed pack,
    /// not forced to one automaton. Its literal rules are dispatched by
    /// their literals, the others searched apart.
    fn split(&self) -> Option<&split::Halves> {
        Some(&self.halves).filter(|_| self.mixed && forced() != Some(RulePack::Pack))
    }

    /// -w: the rules for the GPU's plan where they are not the pack's own
    /// (`None`: the pack's). Where each rule is `-w`'s boundaries around a
    /// rule without assertions of its own (`glushkov::word`), the pack's:
    /// the automata keep the boundaries and are exact on lines of ASCII
    /// bytes (`RuleBook::build`, `glushkov::for_hirs`). Else their word
    /// boundaries dropped and then their ends trimmed, as where only lines
    /// count: the GPU's marks are candidates that the word matcher
    /// confirms; a boundary stops the trimming, and gitleaks' rules whole
    /// took 18.9 s of kernel over 16 GiB (4 streams), 7 s of wall against
    /// `-c`'s 2.
    fn relaxed_for_gpu(&self) -> Option<Vec<Hir>> {
        (self.word() && glushkov::word::inners(&self.hirs).is_none())
            .then(|| self.relaxed_for_lines())
    }

    /// -w: the rules relaxed and trimmed for the mixed pack's CPU line
    /// finder (as `relaxed_for_gpu` makes them where the boundaries are
    /// dropped).
    fn relaxed_for_lines(&self) -> Vec<Hir> {
        let relaxed = |h: &Hir| relax_word_boundaries(h).unwrap_or_else(|| h.clone());
        self.hirs
            .iter()
            .map(|h| trim::for_lines(relaxed(h), trim::Cut::All))
            .collect()
    }

    /// `-i`: the literal sets are lowered, for matchers that fold ASCII.
    fn folded(&self) -> bool {
        self.cfg.ignore_case
    }

    /// Every rule its own regex, tried on the lines holding its literals.
    fn rule_set(&self) -> Result<cpu::RuleSet, PatternError> {
        let per_rule = self.per_rule.as_deref().unwrap_or_default();
        rule_set(
            build_rules(&self.hirs, self.cfg.terminator)?,
            per_rule,
            self.folded(),
        )
    }

    /// The CPU engine's line finder and confirmer (the module doc's table),
    /// with the rules as written placing matches where they are printed.
    /// With a note for `--debug` on what places the matches.
    fn cpu_side<'s>(
        &'s self,
        s: &'s Scope<'s, '_>,
    ) -> Result<(CpuSide, &'static str), PatternError> {
        // Built beside the lines' side; each takes cores as they get free
        // (gitleaks `-o`, 2 cores: 0.97-1.00 s of compile either way).
        let spans = self
            .spans
            .as_deref()
            .map(|w| s.spawn(move || self.spans_of(w)));
        let (finder, how, lines) = self.lines_side(s)?;
        let Some(spans) = spans else {
            return Ok(((finder, how, lines), ""));
        };
        let (spans, note) = joined(spans)?;
        let confirm = Box::new(cpu::LinesAndSpans::new(lines, spans));
        Ok(((finder, how, confirm), note))
    }

    /// Where the matches of the rules as written (`whole`) are: their
    /// alternation where it is small ([`SPANS_ALTERNATION_MAX`]), else each
    /// rule's own regex tried on the lines holding its literals, as the
    /// lines' rule set tries them (a split pack's other rules, or every
    /// rule of a pack without literal rules, on every line).
    fn spans_of(&self, whole: &[Hir]) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
        let t = self.cfg.terminator;
        let rules = build_rules(whole, t)?;
        let held: usize = rules.iter().map(cpu::LineRegex::memory_usage).sum();
        if held <= SPANS_ALTERNATION_MAX {
            let alternation = Hir::alternation(whole.to_vec());
            if let Ok(re) = build_regex_within(&alternation, t, SPANS_ALTERNATION_MAX) {
                let note = ", matches placed by the alternation of the rules as written";
                return Ok((Box::new(cpu::Regex::new(re)), note));
            }
        }
        let literals = self
            .dispatch_literals()
            .unwrap_or_else(|| vec![Vec::new(); whole.len()]);
        let set = rule_set(rules, &literals, self.folded())?;
        let note =
            ", matches placed by the rules as written, each on the lines holding its literals";
        Ok((Box::new(set), note))
    }

    /// The literals that dispatch each rule to the lines holding them:
    /// its own where every rule has good ones, else a split pack's literal
    /// rules' (the others none: tried on every line); `None` for a pack
    /// without literal rules.
    fn dispatch_literals(&self) -> Option<Vec<Vec<Vec<u8>>>> {
        if self.per_rule_wanted {
            return self.per_rule.clone();
        }
        let halves = self.split()?;
        let mut each = vec![Vec::new(); self.hirs.len()];
        for &r in &halves.literal_rules {
            each[r] = self.gpu_each[r].clone().unwrap_or_default();
        }
        Some(each)
    }

    /// `-w`: the rules run without their word boundaries (the lazy DFA
    /// gives up on Unicode ones in non-ASCII text) to find candidate
    /// lines; GNU's word matcher confirms them. With literal rules, each
    /// rule (`\b{start-half}(?:R)\b{end-half}`) is its own regex, tried
    /// on the lines holding its literals, as their alternation would
    /// answer: the alternation of gitleaks' 221 rules took 8.2 s and 2.3
    /// GB to build, and on non-ASCII lines the PikeVM over it 23 GB. A
    /// pack with a rule that can match the empty string is confirmed by
    /// the alternation.
    fn word_side(&self) -> Result<CpuSide, PatternError> {
        let (hirs, t, folded) = (&self.hirs, self.cfg.terminator, self.folded());
        let alternation = &self.alternation;
        let literals = self.dispatch_literals();
        let (finder, how) = match self.split().filter(|_| !self.per_rule_wanted) {
            // The other rules as the GPU's plan takes them: boundaries
            // dropped, then ends trimmed.
            Some(h) => split_line_finder(&self.relaxed_for_lines(), h, folded, t)?,
            None => {
                let relaxed = relax_word_boundaries(alternation).unwrap_or(alternation.clone());
                pack_line_finder(self.union.as_deref(), folded, &relaxed, false, t)?
            }
        };
        let finder = dense_aware(finder, t);
        // A rule that can match the empty string takes it, with GNU, only
        // where it is the longest match of the rules' alternation there
        // (`confirm::word`'s `EmptyRule`), which rules tried one by one
        // cannot tell.
        let empty = alternation.properties().minimum_len() == Some(0);
        let Some(literals) = literals.filter(|_| !empty) else {
            let joined = self
                .alternatives
                .iter()
                .map(|a| format!("(?:{a})"))
                .collect::<Vec<_>>()
                .join("|");
            let word = word_matcher(alternation, &joined, self.cfg)?;
            return Ok((finder, how, Box::new(word)));
        };
        let set = rule_set(build_rules(hirs, t)?, &literals, folded)?;
        let full = map_on_all_cores(self.alternatives, |a| {
            parse_confined(&word_regex(a), self.cfg)
        })
        .into_iter()
        .collect::<Result<Vec<Hir>, PatternError>>()?;
        let word = WordRegex::with_rules(set, WordRules::new(full, t), t);
        Ok((finder, how, Box::new(word)))
    }

    /// The line finder and the confirmer of lines.
    fn lines_side<'s>(&'s self, s: &'s Scope<'s, '_>) -> Result<CpuSide, PatternError> {
        let (hirs, t) = (&self.hirs, self.cfg.terminator);
        let (union, alternation) = (self.union.as_deref(), &self.alternation);
        let folded = self.folded();
        if self.word() {
            return self.word_side();
        }
        // -x: the rules' alternation over the buffer too (`anchored_lines`),
        // a forward lazy DFA that gives up rather than run on by the PikeVM.
        let split = self.split();
        let whole = (self.cfg.line && (self.per_rule_wanted || split.is_some())).then(|| {
            s.spawn(move || {
                build_lazy_dfa(alternation, t, LINES_ALTERNATION_MAX, PACK_CACHE, false)
            })
        });
        let whole = move || whole.and_then(joined);
        if self.per_rule_wanted {
            let finder = s.spawn(move || pack_line_finder(union, folded, alternation, true, t));
            let set = self.rule_set()?;
            let (finder, how) = joined(finder)?;
            let side = (
                dense_aware(finder, t),
                how,
                Box::new(set) as Box<dyn Matcher>,
            );
            return Ok(anchored_lines(side, whole(), t));
        }
        // build_many_from_hir: one pattern per rule. The line finder and
        // the pack's automaton are built beside the literal rules' regexes
        // (gitleaks on 16 cores: 80 + 80 ms before them in turn).
        let finder = s.spawn(move || match split {
            Some(h) => split_line_finder(hirs, h, folded, t),
            None => pack_line_finder(union, folded, alternation, true, t),
        });
        let pack = s.spawn(move || match split {
            Some(h) => build_pack(&pick(hirs, &h.automaton_rules), t),
            None => build_pack(hirs, t),
        });
        let literal_rules = split.map(|h| build_rules(&pick(hirs, &h.literal_rules), t));
        let (finder, how) = joined(finder)?;
        let finder = dense_aware(finder, t);
        let pack = joined(pack)?;
        let alternation = alternation.clone();
        let spans = move || build_regex(&alternation, t).ok();
        let rest = cpu::Pack::new(pack, Box::new(spans));
        let confirm: Box<dyn Matcher> = match (split, literal_rules) {
            // The GPU's split: the literal rules dispatched by their
            // literals, the automaton of the others.
            (Some(h), Some(rules)) => {
                let lits = pick(&self.gpu_each, &h.literal_rules);
                let lits: Vec<Vec<Vec<u8>>> =
                    lits.into_iter().map(Option::unwrap_or_default).collect();
                let set = rule_set(rules?, &lits, self.folded())?;
                Box::new(cpu::SplitRules::new(set, rest))
            }
            _ => Box::new(rest),
        };
        Ok(anchored_lines((finder, how, confirm), whole(), t))
    }
}

/// -x: the lines of `side` (a finder of candidates and their confirm step)
/// found by it or by the lazy DFA of the rules' alternation over the buffer
/// (`whole`, `cpu::DfaLines`, which hands over to the rules where it gives
/// up), each thread timing both now and then (`engine::retimed`). Rules
/// anchored at both ends leave that DFA few states: 2 cores, `-c -x`,
/// loghub's 1,733 templates over 1 GiB of its logs 3.15 → 1.08 s (rg 0.89
/// s), 10,000 generated rules over 200 MB of CI logs 2.11 → 0.76 s.
///
/// Unanchored, the trials chose the rules on those packs every time (the
/// DFA's lazy states cost microseconds a byte until warm, or it thrashes:
/// over 60 s for 10,000 rules through the meta engine), and its build cost
/// 10,000 rules' compile 0.12 s, so it is not built there. Under `-w` (each
/// rule between GNU's word boundaries, exact on ASCII text) it was built
/// and timed in session 44 and withdrawn: the templates' DFA, forced, is
/// 2.5-3.4x faster than the rules wherever a thread searches one log type
/// for long (16 cores, 16 GiB in files of 256 MiB searched whole: 7.0
/// against 23.5 s), but where the pieces of split files put all 16 types
/// before each thread it clears its 64 MiB cache again and again and
/// rebuilds the states at microseconds a byte: 43 s against 19-24 s. The
/// trials could not keep that off (a cold DFA must be let build for 85 ms
/// before it is judged; a run over a type it had not seen took seconds a
/// call).
fn anchored_lines(side: CpuSide, whole: Option<hybrid::dfa::DFA>, t: u8) -> CpuSide {
    let (finder, how, confirm) = side;
    let Some(whole) = whole.filter(|_| !finder.is_exact()) else {
        return (finder, how, confirm);
    };
    let confirm: Arc<dyn Matcher> = Arc::from(confirm);
    let dispatched: Arc<dyn Matcher> =
        Arc::new(cpu::ConfirmedLines::new(finder, confirm.clone(), t));
    let dfa = cpu::DfaLines::new(whole, dispatched.clone());
    let names = ["the rules' literals", "the rules' alternation"];
    let finder = Retimed::new(Box::new(dispatched), Box::new(dfa), names, t);
    let how = "the rules' literals (each line confirmed by its rules) or the rules' alternation, whichever each thread last timed faster";
    (Box::new(finder), how, Box::new(confirm))
}

/// Largest alternation of a pack's rules (its NFA) run as one DFA over the
/// buffer under -x (`anchored_lines`): 10,000 generated rules are within
/// it, gitleaks' 221 secret rules not.
const LINES_ALTERNATION_MAX: usize = 64 << 20;

/// `rules` dispatched by `literals` (`cpu::RuleSet::new`).
fn rule_set(
    rules: Vec<cpu::LineRegex>,
    literals: &[Vec<Vec<u8>>],
    folded: bool,
) -> Result<cpu::RuleSet, PatternError> {
    cpu::RuleSet::new(rules, literals, folded)
        .ok_or_else(|| PatternError("rule pack too large for its literal set".into()))
}

/// A finder of candidate lines set aside where nearly every line is one
/// (`cpu::DenseLines`); an exact finder stays as it is.
fn dense_aware(finder: Box<dyn Matcher>, t: u8) -> Box<dyn Matcher> {
    match finder.is_exact() {
        true => finder,
        false => Box::new(cpu::DenseLines::new(finder, t)),
    }
}

/// A scoped thread's result; its panic goes on in the caller.
fn joined<T>(h: ScopedJoinHandle<'_, T>) -> T {
    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// How a mixed pack (`split`) finds candidate lines on the CPU: one
/// forward DFA over the buffer for the alternation of the literal rules'
/// literals and the other rules (their word boundaries dropped, which the
/// lazy DFA gives up on in non-ASCII text). Measured on 200 MB of CI logs
/// (1,000 generated rules and 27 literal-less ones, 2 cores): 1.9 s of
/// CPU, where the alternation of every rule took 75 s (its DFA thrashes).
/// Under -w the other rules come relaxed and trimmed (`relaxed_for_lines`):
/// with their ends kept at the boundaries, gitleaks' `-w -c` over 1 GiB of
/// loghub took 4.8 s on 2 cores, trimmed 4.1 s.
fn split_line_finder(
    hirs: &[Hir],
    h: &split::Halves,
    folded: bool,
    t: u8,
) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
    let mut parts = pick(hirs, &h.automaton_rules);
    parts.extend(h.literals.iter().map(|l| match folded {
        true => ascii_case_insensitive(l),
        false => Hir::literal(l.clone()),
    }));
    let alt = Hir::alternation(parts);
    let relaxed = relax_word_boundaries(&alt).unwrap_or(alt);
    let re = build_regex(&relaxed, t)?;
    Ok((
        Box::new(cpu::RegexLines::new(re, false)),
        "the literal rules' literals and the other rules",
    ))
}

/// A lowered literal matched in any ASCII case: each ASCII letter a class
/// of its two cases, the bytes between them literals (never cut inside a
/// UTF-8 sequence: they end at ASCII letters).
fn ascii_case_insensitive(lowered: &[u8]) -> Hir {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    let mut parts = Vec::new();
    let mut run = Vec::new();
    for &b in lowered {
        if !b.is_ascii_alphabetic() {
            run.push(b);
            continue;
        }
        if !run.is_empty() {
            parts.push(Hir::literal(std::mem::take(&mut run)));
        }
        let (lo, up) = (
            char::from(b.to_ascii_lowercase()),
            char::from(b.to_ascii_uppercase()),
        );
        parts.push(Hir::class(regex_syntax::hir::Class::Unicode(
            ClassUnicode::new([
                ClassUnicodeRange::new(lo, lo),
                ClassUnicodeRange::new(up, up),
            ]),
        )));
    }
    if !run.is_empty() {
        parts.push(Hir::literal(run));
    }
    Hir::concat(parts)
}

/// The items of `all` at `indices`.
fn pick<T: Clone>(all: &[T], indices: &[usize]) -> Vec<T> {
    indices.iter().map(|&i| all[i].clone()).collect()
}

/// Whether the rules' literals find lines well enough to dispatch them.
fn good_union(union: Option<&[Vec<u8>]>) -> bool {
    union.is_some_and(|u| u.iter().map(Vec::len).min().unwrap_or(0) >= 3)
}

/// Largest alternation of a pack's rules as written that places its
/// matches: one lazy DFA a line, where per-rule regexes run Aho-Corasick
/// and each candidate rule (loghub's 1,733 templates, 12 MiB, over 1 GiB
/// `-o`, 2 cores: 10.1-10.5 s against 10.7-10.9 s). Gitleaks' rules whole
/// take 515 MiB: built to the limit in 0.23 s before failing, so the
/// alternation is tried only when the rules' own regexes are within it.
/// That gate also keeps off the alternation whose lazy DFA would thrash:
/// tried wherever the rules' weight past ASCII allowed (session 44), 10,000
/// generated rules placed their `-o` matches over 16 MB in 83 s instead of
/// 2.6 s, for 0.14 s less compile.
const SPANS_ALTERNATION_MAX: usize = 64 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    /// Under -w the GPU's plan keeps the boundaries in its automata where
    /// every rule is a plain one inside them (`relaxed_for_gpu`): its marks
    /// are the lines, counted on the GPU. A rule with a word boundary of its
    /// own has the pack's relaxed and trimmed, which select more lines than
    /// the words do: the marks stay candidates, never counted as the lines.
    #[test]
    fn a_word_packs_gpu_plan_is_exact_only_with_its_boundaries_in_the_automata() {
        let mut rules: Vec<Vec<u8>> = (0..PACK_MIN)
            .map(|i| match i % 2 {
                0 => format!(r"(?i)[\w.-]{{0,50}}?key{i}[ =]{{1,3}}[\w-]{{8,40}}"),
                _ => format!(r"token{i}[ =]{{1,3}}[A-Za-z0-9_-]{{8,40}}"),
            })
            .map(String::into_bytes)
            .collect();
        rules.push(br"\d{15,16}\|[0-9a-z]{27,40}".to_vec());
        let inner_boundary = br"\bsecret[0-9]{8}".to_vec();
        for (word, inner, exact) in [
            (false, false, true),
            (true, false, true),
            (true, true, false),
        ] {
            let mut args = vec!["--engine", "gpu", "-P"];
            if word {
                args.push("-w");
            }
            args.push("x");
            let mut rules = rules.clone();
            if inner {
                rules.push(inner_boundary.clone());
            }
            let cfg = Config::from_args(&args);
            let compiled = crate::pattern::compile(&rules, &cfg).unwrap();
            let plan = compiled.gpu.expect("a GPU plan");
            assert!(
                matches!(plan, GpuPlan::Split(_)),
                "{}",
                compiled.description
            );
            assert_eq!(
                plan.exact_lines(),
                exact,
                "-w {word}, inner boundary {inner}: {}",
                compiled.description
            );
        }
    }
}
