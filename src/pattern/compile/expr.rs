//! Regular expressions: the confined expression, its line finder and
//! confirmer, and the literals every match contains (the GPU's plan).
//!
//! Regexes fold `-w`/`-x`/`-i` into the expression and always confirm
//! candidate lines: a *line finder* (see `finder::line_finder`) scans whole
//! buffers with the cheapest thing that finds every matching line. Regexes
//! are made line-confined by removing the line terminator from every class
//! and literal in the parsed expression, so no match can span lines (or
//! files, whose separator is the terminator).

use regex_syntax::hir::{self, Hir, HirKind};

use super::{Compiled, GpuPlan, PatternError};
use crate::config::Config;
use crate::confirm::{word_regex, WordRegex};
use crate::encoding::EncodingPlan;
use crate::engine::cpu;
use crate::engine::Matcher;
use crate::pattern::finder::{
    build_capturing_regex, build_longest_regex, build_regex, build_whole_buffer_regex, line_finder,
};
use crate::pattern::required::required_literals;
use crate::pattern::trim;

/// Largest compiled regex accepted (bytes of automaton).
pub(in crate::pattern) const REGEX_SIZE_LIMIT: usize = 1 << 30;

pub(super) fn compile_regex(
    alternatives: &[String],
    cfg: &Config,
) -> Result<Compiled, PatternError> {
    let joined = alternatives
        .iter()
        .map(|a| format!("(?:{a})"))
        .collect::<Vec<_>>()
        .join("|");
    // Under -x, -w changes nothing.
    let word = cfg.word && !cfg.line;
    let wrapped = if cfg.line {
        format!("^(?:{joined})$")
    } else if word {
        format!(r"\b{{start-half}}(?:{joined})\b{{end-half}}")
    } else {
        joined.clone()
    };
    let t = cfg.terminator;
    let confined = trim::where_lines_count(parse_confined(&wrapped, cfg)?, cfg, trim::Cut::Large);
    let required = required_literals(&confined);
    // Where only lines count, the regex that confirms them and runs over
    // whole buffers has every end cut (`confined`, which chooses the line
    // finder by its shape, only the large ones: see `trim::Cut`).
    let trimmed = Some(trim::where_lines_count(
        confined.clone(),
        cfg,
        trim::Cut::All,
    ))
    .filter(|h| h != &confined);
    // The meta regex confirms lines, except under -w, where the lines the
    // finder gives (word boundaries dropped, or through literals) are
    // confirmed by the word matcher (see WordRegex): not built there.
    // Shared with the line finder, which runs it over whole buffers where
    // no literal finds the lines.
    let re = (!word)
        .then(|| {
            let h = trimmed.as_ref().unwrap_or(&confined);
            match required {
                None => build_whole_buffer_regex(h, t),
                Some(_) => build_regex(h, t),
            }
        })
        .transpose()?;
    let (prefilter, how) = line_finder(
        &confined,
        trimmed.as_ref(),
        required.as_ref(),
        re.as_ref(),
        t,
    )?;
    let confirm: Box<dyn Matcher> = match re {
        Some(re) => Box::new(cpu::Regex::new(re)),
        None => Box::new(word_matcher(&confined, &joined, cfg)?),
    };
    Ok(Compiled {
        prefilter,
        confirm: Some(confirm),
        description: format!(
            "{} pattern(s), regex, lines found by {how}{}",
            alternatives.len(),
            match &required {
                Some(r) => format!(
                    ", {} {} literal(s) for the GPU",
                    r.literals.len(),
                    r.position.name()
                ),
                None => ", no literal that every match contains".into(),
            }
        ),
        gpu: required.map(|r| GpuPlan::Required(r.literals)),
        warnings: Vec::new(),
        encoding: EncodingPlan::Raw { sniff_utf16: true },
        automaton_later: None,
    })
}

/// Parses `wrapped` as the configuration says and confines it to one line.
pub(super) fn parse_confined(wrapped: &str, cfg: &Config) -> Result<Hir, PatternError> {
    let t = cfg.terminator;
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(cfg.ignore_case)
        .multi_line(true)
        .dot_matches_new_line(t != b'\n')
        .line_terminator(t)
        .utf8(false)
        .build()
        .parse(wrapped)
        .map_err(|e| PatternError(first_line_of_error(&e.to_string())))?;
    Ok(strip_terminator(hir, t))
}

/// `-w`'s matcher (`WordRegex`) for the alternation `joined`: `fast` is
/// that alternation, parsed, between the `regex` crate's word boundaries;
/// the exact regex is [`word_regex`]`(joined)`. One for single regexes and
/// for rule packs whose rules have no literals.
pub(super) fn word_matcher(
    fast: &Hir,
    joined: &str,
    cfg: &Config,
) -> Result<WordRegex, PatternError> {
    let t = cfg.terminator;
    let full = build_capturing_regex(&parse_confined(&word_regex(joined), cfg)?, t)?;
    // The boundaries around `joined` match nothing: `fast` can match the
    // empty string where `joined` can.
    let empty = match fast.properties().minimum_len() {
        Some(0) => {
            let inner = parse_confined(joined, cfg)?;
            Some((build_regex(&inner, t)?, build_longest_regex(&inner, t)?))
        }
        _ => None,
    };
    WordRegex::new(build_regex(fast, t)?, full, empty, t)
        .ok_or_else(|| PatternError("internal error: no -w group".into()))
}

/// regex-syntax errors are multi-line drawings; grep prints one line.
pub(in crate::pattern) fn first_line_of_error(msg: &str) -> String {
    let detail = msg
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("error:"));
    match detail {
        Some(d) => d.trim().trim_start_matches("error:").trim().to_string(),
        None => msg.lines().next().unwrap_or("invalid pattern").to_string(),
    }
}

/// Removes the terminator byte from every class and literal, so the
/// expression matches only within one line.
pub(in crate::pattern) fn strip_terminator(h: Hir, t: u8) -> Hir {
    match h.into_kind() {
        HirKind::Literal(hir::Literal(bytes)) => {
            if bytes.contains(&t) {
                Hir::fail()
            } else {
                Hir::literal(bytes)
            }
        }
        HirKind::Class(hir::Class::Unicode(mut cls)) => {
            let c = char::from(t);
            cls.difference(&hir::ClassUnicode::new([hir::ClassUnicodeRange::new(c, c)]));
            Hir::class(hir::Class::Unicode(cls))
        }
        HirKind::Class(hir::Class::Bytes(mut cls)) => {
            cls.difference(&hir::ClassBytes::new([hir::ClassBytesRange::new(t, t)]));
            Hir::class(hir::Class::Bytes(cls))
        }
        HirKind::Repetition(mut rep) => {
            let sub = std::mem::replace(&mut rep.sub, Box::new(Hir::empty()));
            rep.sub = Box::new(strip_terminator(*sub, t));
            Hir::repetition(rep)
        }
        HirKind::Capture(mut cap) => {
            let sub = std::mem::replace(&mut cap.sub, Box::new(Hir::empty()));
            cap.sub = Box::new(strip_terminator(*sub, t));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => {
            Hir::concat(subs.into_iter().map(|s| strip_terminator(s, t)).collect())
        }
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(|s| strip_terminator(s, t)).collect())
        }
        kind @ (HirKind::Empty | HirKind::Look(_)) => match kind {
            HirKind::Look(l) => Hir::look(l),
            _ => Hir::empty(),
        },
    }
}
