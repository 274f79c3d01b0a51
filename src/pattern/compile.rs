//! Compiling a pattern list into a prefilter and a confirmer.
//!
//! The cheapest exact engine is chosen for what was typed: memmem for one
//! literal, Aho-Corasick for several, the `regex` crate otherwise. Literal
//! sets under `-w`/`-x` keep the literal prefilter and add a confirm step;
//! regexes fold `-w`/`-x`/`-i` into the expression itself. Regexes are made
//! line-confined by removing the line terminator from every class and
//! literal in the parsed expression, so no match can span lines (or files,
//! whose separator is the terminator).

use crate::config::{Config, Syntax};
use crate::confirm::{LineLiterals, WordLiterals};
use crate::engine::cpu;
use crate::engine::Matcher;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex_syntax::hir::{self, Hir, HirKind};

use super::translate::{escape_literal, translate};

/// A pattern that cannot be compiled; the message is for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError(pub String);

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The compiled search.
pub struct Compiled {
    /// Finds candidates in a whole buffer.
    pub prefilter: Box<dyn Matcher>,
    /// Decides one line exactly; `None` when the prefilter is already exact.
    pub confirm: Option<Box<dyn Matcher>>,
    /// The single case-sensitive literal the whole search reduces to, if any
    /// (`-w`/`-x` may still need `confirm`): what the GPU kernels can take.
    pub literal: Option<Vec<u8>>,
    /// What was built, for `--debug`.
    pub description: String,
    /// Warnings for the user (GNU grep's, such as "* at start of expression").
    pub warnings: Vec<String>,
}

impl Compiled {
    /// The matcher that is exact on one line.
    pub fn line_matcher(&self) -> &dyn Matcher {
        self.confirm.as_deref().unwrap_or(&*self.prefilter)
    }
}

/// Largest compiled regex accepted (bytes of automaton).
const REGEX_SIZE_LIMIT: usize = 1 << 30;

/// Compiles the patterns as the configuration says.
pub fn compile(patterns: &[Vec<u8>], cfg: &Config) -> Result<Compiled, PatternError> {
    if patterns.is_empty() {
        return Ok(Compiled {
            prefilter: Box::new(cpu::Nothing),
            confirm: None,
            literal: None,
            description: "no patterns: nothing matches".into(),
            warnings: Vec::new(),
        });
    }
    let t = cfg.terminator;
    let literals: Option<Vec<Vec<u8>>> = match cfg.syntax {
        Syntax::Fixed => Some(patterns.to_vec()),
        _ => patterns
            .iter()
            .map(|p| plain_literal(p, cfg.syntax))
            .collect(),
    };
    if let Some(lits) = literals {
        let holds_terminator = lits.iter().any(|l| l.contains(&t));
        // ASCII folding equals Unicode simple folding except for k and s,
        // whose orbits hold the Kelvin sign and the long s.
        let ascii_folds = lits
            .iter()
            .all(|l| l.is_ascii() && !l.iter().any(|b| b"kKsS".contains(b)));
        if !holds_terminator && (!cfg.ignore_case || ascii_folds) {
            return Ok(compile_literals(lits, cfg));
        }
        let alternatives: Vec<String> = lits.iter().map(|l| escape_literal(l)).collect();
        return compile_regex(&alternatives, cfg);
    }
    let basic = cfg.syntax == Syntax::Basic;
    let translated = patterns
        .iter()
        .map(|p| translate(p, basic))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PatternError)?;
    let alternatives: Vec<String> = translated.iter().map(|t| t.regex.clone()).collect();
    let mut compiled = compile_regex(&alternatives, cfg)?;
    compiled.warnings = translated.into_iter().flat_map(|t| t.warnings).collect();
    Ok(compiled)
}

/// The pattern as a literal when it has no regex meaning at all.
fn plain_literal(p: &[u8], syntax: Syntax) -> Option<Vec<u8>> {
    let special: &[u8] = match syntax {
        Syntax::Basic => b"\\.[]*^$",
        _ => b"\\.[]*^$(){}|+?",
    };
    (!p.iter().any(|b| special.contains(b))).then(|| p.to_vec())
}

fn compile_literals(mut lits: Vec<Vec<u8>>, cfg: &Config) -> Compiled {
    lits.sort();
    lits.dedup();
    let ci = cfg.ignore_case;
    let exact_single = lits.len() == 1 && !ci;
    let literal = exact_single.then(|| lits[0].clone());
    let prefilter: Box<dyn Matcher> = if exact_single {
        Box::new(cpu::Literal::new(&lits[0]))
    } else {
        Box::new(cpu::Literals::new(build_ac(
            &lits,
            ci,
            MatchKind::LeftmostLongest,
        )))
    };
    let (confirm, check): (Option<Box<dyn Matcher>>, &str) = if cfg.line {
        (Some(Box::new(LineLiterals::new(&lits, ci))), ", -x confirm")
    } else if cfg.word {
        (
            Some(Box::new(WordLiterals::new(build_ac(
                &lits,
                ci,
                MatchKind::Standard,
            )))),
            ", -w confirm",
        )
    } else {
        (None, "")
    };
    let engine = if exact_single {
        "memmem"
    } else {
        "aho-corasick"
    };
    Compiled {
        prefilter,
        confirm,
        literal,
        description: format!("{} literal(s), {engine}{check}", lits.len()),
        warnings: Vec::new(),
    }
}

/// Pattern bytes up to which a full DFA is built (it scans several times
/// faster than the NFA; its size grows with the pattern bytes).
const DFA_PATTERN_BYTES: usize = 256 * 1024;

fn build_ac(lits: &[Vec<u8>], ci: bool, kind: MatchKind) -> AhoCorasick {
    let bytes: usize = lits.iter().map(Vec::len).sum();
    let ac_kind = (bytes <= DFA_PATTERN_BYTES).then_some(AhoCorasickKind::DFA);
    AhoCorasickBuilder::new()
        .match_kind(kind)
        .kind(ac_kind)
        .ascii_case_insensitive(ci)
        .build(lits)
        .unwrap_or_else(|_| {
            // Only pattern-ID overflow can fail, far beyond any pattern file.
            AhoCorasick::new(Vec::<Vec<u8>>::new()).expect("empty automaton")
        })
}

fn compile_regex(alternatives: &[String], cfg: &Config) -> Result<Compiled, PatternError> {
    let joined = alternatives
        .iter()
        .map(|a| format!("(?:{a})"))
        .collect::<Vec<_>>()
        .join("|");
    let wrapped = if cfg.line {
        format!("^(?:{joined})$")
    } else if cfg.word {
        format!(r"\b{{start-half}}(?:{joined})\b{{end-half}}")
    } else {
        joined
    };
    let t = cfg.terminator;
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(cfg.ignore_case)
        .multi_line(true)
        .dot_matches_new_line(t != b'\n')
        .line_terminator(t)
        .utf8(false)
        .build()
        .parse(&wrapped)
        .map_err(|e| PatternError(first_line_of_error(&e.to_string())))?;
    let confined = strip_terminator(hir, t);
    let printed = confined.to_string();
    let re = regex::bytes::RegexBuilder::new(&printed)
        .multi_line(true)
        .line_terminator(t)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT / 4)
        .build()
        .map_err(|e| PatternError(first_line_of_error(&e.to_string())))?;
    Ok(Compiled {
        prefilter: Box::new(cpu::Regex::new(re)),
        confirm: None,
        literal: None,
        description: format!("regex of {} alternative(s)", alternatives.len()),
        warnings: Vec::new(),
    })
}

/// regex-syntax errors are multi-line drawings; grep prints one line.
fn first_line_of_error(msg: &str) -> String {
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
fn strip_terminator(h: Hir, t: u8) -> Hir {
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
