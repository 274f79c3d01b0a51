//! A pack's regexes for lines: each rule's own (`cpu::RuleSet`) or one
//! multi-pattern automaton (`cpu::Pack`), with a rule's cut to ASCII bytes
//! beside it where it reaches past ASCII and is large (`cpu::LineRegex`),
//! and then, past a bound, its forward automaton alone: on lines of ASCII
//! bytes the cut answers exactly, and only lines past ASCII reach the full
//! regex, where a large Unicode rule's lazy DFA thrashes anyway. Their
//! sizes together stay within `PACK_NFA_LIMIT`.

use regex_automata::meta;
use regex_automata::nfa::thompson::WhichCaptures;
use regex_syntax::hir::Hir;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{PACK_CACHE, PACK_NFA_LIMIT, RULE_CACHE};
use crate::engine::cpu;
use crate::parts::map_on_all_cores_as_free;
use crate::pattern::compile::PatternError;
use crate::pattern::glushkov::book::{ascii_only, past_ascii_weight, reaches_past_ascii};

/// Smallest regex (its `memory_usage`) that gets its cut to ASCII beside
/// it (`cpu::LineRegex`): gitleaks' 113 rules of 1 MiB or more (Unicode
/// `\w{10,150}` and the like) confirmed loghub's Mac lines 18 times faster
/// with it; loghub's templates (`\S+`, none over 1 MiB) ran 8 % slower
/// with every rule cut (2 cores, 1 GiB, session 41).
const ASCII_CUT_FROM: usize = 1 << 20;

/// Smallest forward automaton of a rule that reaches past ASCII whose full
/// regex is built without a lazy DFA (the reverse automaton that needs is
/// over twice as large): a line of ASCII bytes is searched by the rule's
/// cut, so only lines past ASCII reach the full regex, where the lazy DFA
/// of such a rule thrashes anyway (`cpu::LineRegex`). Gitleaks' generic
/// rules have forward automata of 1.2 MiB and full regexes of 3.8 MiB. So
/// the pack's 221 rules as written take 170 MiB instead of 519 (they
/// passed [`PACK_NFA_LIMIT`] under `-o`, `-w` and `-x`), its literal rules
/// trimmed for lines 64 MiB instead of 181, and `-c` over 1 GiB of loghub's logs took
/// 1.91-1.93 s instead of 2.10-2.21 (2 cores; 3,000 lines past ASCII in 13
/// MB: 1.43-1.48 s instead of 1.68-1.71).
const FORWARD_ONLY_FROM: usize = ASCII_CUT_FROM / 4;

/// Bytes of forward automaton below which a unit of `past_ascii_weight`
/// stays, with room (`the_weight_gate_lets_large_automata_through`): the forward
/// automaton alone is built, to be measured, only for rules that may pass
/// the bounds above. Built for every rule past ASCII, it cost 10,000
/// generated rules' compile 17 % (0.35 → 0.41 s, 2 cores; gated 0.37-0.39).
const WEIGHT_BYTES: usize = 64;

/// Each rule's own regex (for `cpu::RuleSet`), with its cut to ASCII
/// where it reaches past ASCII and is large (`ASCII_CUT_FROM`, or its
/// forward automaton alone from `FORWARD_ONLY_FROM`), built on all cores as
/// they get free, their automata together within [`PACK_NFA_LIMIT`]: the
/// first rule past it, or failing, in order, names the error, as if built
/// one by one. Once the rules built hold more than the limit the others
/// are not built (300 rules of `\w{2000}` would take minutes), except
/// where the error needs them.
pub(super) fn build_rules(hirs: &[Hir], t: u8) -> Result<Vec<cpu::LineRegex>, PatternError> {
    let config = meta::Config::new()
        .line_terminator(t)
        .utf8_empty(false)
        .which_captures(WhichCaptures::Implicit)
        .nfa_size_limit(Some(PACK_NFA_LIMIT))
        .hybrid_cache_capacity(RULE_CACHE);
    let built = |h: &Hir, config: &meta::Config| {
        meta::Builder::new()
            .configure(config.clone())
            .build_from_hir(h)
            .map_err(|e| too_large(e, hirs.len()))
    };
    let build = |h: &Hir| {
        let weight = past_ascii_weight(h);
        let either = |c: &meta::Config, cut: bool| match cut {
            true => built(&ascii_only(h), c),
            false => built(h, c),
        };
        regex_and_cut(
            either,
            &config,
            reaches_past_ascii(h),
            weight,
            FORWARD_ONLY_FROM,
        )
    };
    let size = |(full, ascii): &(meta::Regex, Option<meta::Regex>)| {
        full.memory_usage() + ascii.as_ref().map_or(0, meta::Regex::memory_usage)
    };
    let held = AtomicUsize::new(0);
    let built = map_on_all_cores_as_free(hirs, 1, |h| {
        if held.load(Ordering::Relaxed) > PACK_NFA_LIMIT {
            return None;
        }
        let re = build(h);
        if let Ok(re) = &re {
            held.fetch_add(size(re), Ordering::Relaxed);
        }
        Some(re)
    });
    let mut total = 0;
    built
        .into_iter()
        .zip(hirs)
        .map(|(re, h)| {
            let re = re.unwrap_or_else(|| build(h))?;
            total += size(&re);
            match total > PACK_NFA_LIMIT {
                true => Err(too_large_message(hirs.len())),
                false => Ok(cpu::LineRegex::new(re.0, re.1)),
            }
        })
        .collect()
}

fn too_large_message(rules: usize) -> PatternError {
    PatternError(format!(
        "rule pack too large: its automata need more than {} MiB (split the {rules} \
         expressions into several runs)",
        PACK_NFA_LIMIT >> 20
    ))
}

fn too_large(e: meta::BuildError, rules: usize) -> PatternError {
    match e.size_limit() {
        Some(_) => too_large_message(rules),
        None => PatternError(crate::pattern::compile::first_line_of_error(&e.to_string())),
    }
}

/// Smallest forward automaton of a pack reaching past ASCII that is kept
/// alone, as a large rule's ([`FORWARD_ONLY_FROM`]): gitleaks' 221 rules
/// as written, one pack, take 162 MiB so, and passed [`PACK_NFA_LIMIT`]
/// with their reverse automaton (`-x`, forced to one pack).
const PACK_FORWARD_ONLY_FROM: usize = PACK_NFA_LIMIT / 4;

/// The pack's meta regex: one pattern per rule, leftmost-first (so an
/// earlier rule wins at one start, as in an alternation), byte semantics,
/// multi-line anchors at `t`, bounded memory; with the rules cut to ASCII
/// beside it where some reach past ASCII and it is large (`ASCII_CUT_FROM`,
/// or its forward automaton alone from `PACK_FORWARD_ONLY_FROM`).
pub(super) fn build_pack(hirs: &[Hir], t: u8) -> Result<cpu::LineRegex, PatternError> {
    let config = meta::Config::new()
        .line_terminator(t)
        .utf8_empty(false)
        .which_captures(WhichCaptures::None)
        .nfa_size_limit(Some(PACK_NFA_LIMIT))
        .hybrid_cache_capacity(PACK_CACHE);
    let build = |hirs: &[Hir], config: &meta::Config| {
        meta::Builder::new()
            .configure(config.clone())
            .build_many_from_hir(hirs)
            .map_err(|e| too_large(e, hirs.len()))
    };
    let past = hirs.iter().any(reaches_past_ascii);
    let weight = hirs
        .iter()
        .map(past_ascii_weight)
        .fold(0, usize::saturating_add);
    let either = |c: &meta::Config, cut: bool| match cut {
        true => build(&hirs.iter().map(ascii_only).collect::<Vec<_>>(), c),
        false => build(hirs, c),
    };
    let (full, ascii) = regex_and_cut(either, &config, past, weight, PACK_FORWARD_ONLY_FROM)?;
    Ok(cpu::LineRegex::new(full, ascii))
}

/// A rule's or a pack's regex and its cut to ASCII (`cpu::LineRegex`):
/// where it reaches past ASCII (`past`), its forward automaton alone when
/// that takes `forward_from` bytes or more (measured only where `weight`,
/// its `past_ascii_weight`, says it may), and the cut beside it then or
/// where the full regex is large (`ASCII_CUT_FROM`). `build(config, cut)`
/// builds the regex, or with `cut` its cut.
fn regex_and_cut(
    build: impl Fn(&meta::Config, bool) -> Result<meta::Regex, PatternError>,
    config: &meta::Config,
    past: bool,
    weight: usize,
    forward_from: usize,
) -> Result<(meta::Regex, Option<meta::Regex>), PatternError> {
    let forward = match past && weight >= forward_from / WEIGHT_BYTES {
        true => Some(build(&config.clone().hybrid(false).dfa(false), false)?)
            .filter(|f| f.memory_usage() >= forward_from),
        false => None,
    };
    let forward_only = forward.is_some();
    let full = match forward {
        Some(f) => f,
        None => build(config, false)?,
    };
    let big = forward_only || full.memory_usage() >= ASCII_CUT_FROM;
    let ascii = match big && past {
        true => build(config, true).ok(),
        false => None,
    };
    Ok((full, ascii))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forward_bytes(h: &Hir) -> usize {
        let config = meta::Config::new()
            .utf8_empty(false)
            .nfa_size_limit(None)
            .hybrid(false)
            .dfa(false);
        let re = meta::Builder::new().configure(config).build_from_hir(h);
        re.map(|r| r.memory_usage()).unwrap_or(usize::MAX)
    }

    /// The gate before a rule's forward automaton is measured lets every
    /// rule through whose automaton is large enough to be kept alone
    /// (Unicode classes repeated, as in secret scanners' rules), and stops
    /// small ones.
    #[test]
    fn the_weight_gate_lets_large_automata_through() {
        let mut through = 0;
        for class in [
            r"\w",
            r"[\w.-]",
            r"\S",
            r"(?i)[a-z\w]",
            r"[\w=\.-]",
            r"\p{L}",
        ] {
            for n in [1, 4, 8, 16, 30, 50, 80, 150, 300] {
                for shape in ["X{0,N}?key", "X{N}", "aX{1,N}b", "(?:X|-){N,}"] {
                    let re = shape.replace('X', class).replace('N', &n.to_string());
                    let h = regex_syntax::parse(&re).unwrap();
                    let gated = past_ascii_weight(&h) >= FORWARD_ONLY_FROM / WEIGHT_BYTES;
                    if forward_bytes(&h) >= FORWARD_ONLY_FROM {
                        assert!(gated, "{re} is large but stopped");
                        through += 1;
                    }
                }
            }
        }
        assert!(through > 20, "large shapes tried: {through}");
        let small = regex_syntax::parse(r"\S+ error \d+ in [\w.]+").unwrap();
        assert!(past_ascii_weight(&small) < FORWARD_ONLY_FROM / WEIGHT_BYTES);
    }
}
