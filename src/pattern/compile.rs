//! Compiling a pattern list into a prefilter and a confirmer.
//!
//! The cheapest exact engine is chosen for what was typed: memmem for one
//! literal, Aho-Corasick for several, the `regex` crate's engine otherwise.
//! Literal sets under `-w`/`-x` keep the literal prefilter and add a confirm
//! step; `-i` literals get a SIMD prefilter over case variants of a window
//! and the exact engine confirms. Regexes fold `-w`/`-x`/`-i` into the
//! expression and always confirm candidate lines: a *line finder* (see
//! [`line_finder`]) scans whole buffers with the cheapest thing that finds
//! every matching line. Regexes are made line-confined by removing the line
//! terminator from every class and literal in the parsed expression, so no
//! match can span lines (or files, whose separator is the terminator).
//!
//! With `--encoding` naming a legacy encoding, literal patterns are
//! transcoded into it and searched as raw bytes behind a
//! [`BoundaryMatcher`] (the back-read); other searches in such an encoding
//! compile for UTF-8 and are run on decoded files (see `crate::encoding`).

use crate::config::{Config, Syntax};
use crate::confirm::{word_regex, LineLiterals, WordLiterals, WordRegex};
use crate::encoding::boundary::{BoundaryMatcher, Scheme};
use crate::encoding::{self, EncodingChoice, EncodingPlan};
use crate::engine::cpu;
use crate::engine::qgram::QGram;
use crate::engine::Matcher;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use encoding_rs::Encoding;
use regex_syntax::hir::{self, Hir, HirKind};
use std::sync::Arc;

use super::finder::{build_regex, line_finder};
use super::fold;
use super::required::required_literals;
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
    /// The exact set of non-empty literals the search reduces to, when not
    /// `literal`: several literals, or the case variants of `-i` literals
    /// (`-w`/`-x` may still need `confirm`): what the GPU's `multi` kernel takes.
    pub literal_set: Option<Vec<Vec<u8>>>,
    /// For a regular expression: literals one of which every match contains
    /// (its prefixes, suffixes or an inner set; see `required`). Not exact:
    /// a prefilter whose candidate lines the regex confirms (the GPU's
    /// `multi` kernel).
    pub prefilter_set: Option<Vec<Vec<u8>>>,
    /// What was built, for `--debug`.
    pub description: String,
    /// Warnings for the user (GNU grep's, such as "* at start of expression").
    pub warnings: Vec<String>,
    /// How files are searched: as they are, raw in a legacy encoding, or
    /// decoded to UTF-8.
    pub encoding: EncodingPlan,
}

impl Compiled {
    /// The matcher that is exact on one line.
    pub fn line_matcher(&self) -> &dyn Matcher {
        self.confirm.as_deref().unwrap_or(&*self.prefilter)
    }
}

/// Largest compiled regex accepted (bytes of automaton).
pub(super) const REGEX_SIZE_LIMIT: usize = 1 << 30;

/// Compiles the patterns as the configuration says.
pub fn compile(patterns: &[Vec<u8>], cfg: &Config) -> Result<Compiled, PatternError> {
    match cfg.encoding {
        EncodingChoice::Label(enc) if enc != encoding_rs::UTF_8 => {
            compile_encoded(patterns, cfg, enc)
        }
        choice => {
            let mut c = compile_utf8(patterns, cfg)?;
            c.encoding = EncodingPlan::Raw {
                sniff_utf16: choice == EncodingChoice::Auto,
            };
            Ok(c)
        }
    }
}

/// Patterns for files in `enc` (not UTF-8): transcoded literals searched
/// raw when that is exact, else UTF-8 matchers for decoded files.
fn compile_encoded(
    patterns: &[Vec<u8>],
    cfg: &Config,
    enc: &'static Encoding,
) -> Result<Compiled, PatternError> {
    let transcoded = patterns
        .iter()
        .map(|p| encoding::transcode(p, enc))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PatternError)?;
    let raw_searchable = enc.is_ascii_compatible()
        && !encoding::is_utf16(enc)
        && (enc.is_single_byte() || Scheme::of(enc).is_some());
    if raw_searchable && !patterns.is_empty() {
        if let Some(c) = compile_transcoded(patterns, transcoded, cfg, enc)? {
            return Ok(c);
        }
    }
    let mut c = compile_utf8(patterns, cfg)?;
    // The GPU sees raw bytes; this search needs decoded text.
    c.literal = None;
    c.literal_set = None;
    c.prefilter_set = None;
    c.description = format!(
        "{}, on files decoded from {} to UTF-8",
        c.description,
        enc.name()
    );
    c.encoding = EncodingPlan::Decode(enc);
    Ok(c)
}

/// Literal patterns (already transcoded into `enc`) searched in raw bytes,
/// when that is exactly the search on decoded text: no `-w` (word
/// characters need decoding), `-i` only for ASCII letters (whose bytes never
/// occur inside a multi-byte character that starts on a boundary).
fn compile_transcoded(
    patterns: &[Vec<u8>],
    transcoded: Vec<Vec<u8>>,
    cfg: &Config,
    enc: &'static Encoding,
) -> Result<Option<Compiled>, PatternError> {
    let t = cfg.terminator;
    let literal =
        |p: &Vec<u8>| cfg.syntax == Syntax::Fixed || plain_literal(p, cfg.syntax).is_some();
    if cfg.word || !patterns.iter().all(literal) {
        return Ok(None);
    }
    if transcoded.iter().any(|l| l.contains(&t)) {
        return Ok(None);
    }
    let ascii_folds = patterns
        .iter()
        .all(|l| l.is_ascii() && !l.iter().any(|b| b"kKsS".contains(b)));
    if cfg.ignore_case && !ascii_folds {
        return Ok(None);
    }
    let Some(scheme) = Scheme::of(enc) else {
        // Single-byte: every offset is a character boundary.
        let mut c = compile_literals(transcoded, cfg)?;
        c.description = format!("{} in {}", c.description, enc.name());
        c.encoding = EncodingPlan::Transcoded(enc);
        return Ok(Some(c));
    };
    let mut lits = transcoded;
    lits.sort();
    lits.dedup();
    let ci = cfg.ignore_case;
    let exact_single = lits.len() == 1 && !ci;
    let (inner, engine) = literal_engine(&lits, ci)?;
    let inner: Arc<dyn Matcher> = Arc::from(inner);
    // The confirm step always runs, so raw candidates from any engine
    // (the GPU's offsets included) are checked for boundaries there.
    let confirm: Box<dyn Matcher> = if cfg.line {
        Box::new(LineLiterals::new(&lits, ci))
    } else {
        Box::new(BoundaryMatcher::new(inner.clone(), scheme))
    };
    Ok(Some(Compiled {
        prefilter: Box::new(BoundaryMatcher::new(inner, scheme)),
        confirm: Some(confirm),
        literal: exact_single.then(|| lits[0].clone()),
        literal_set: None,
        prefilter_set: None,
        description: format!(
            "{} literal(s) in {}, {engine}, character-boundary check{}",
            lits.len(),
            enc.name(),
            if cfg.line { ", -x confirm" } else { "" }
        ),
        warnings: Vec::new(),
        encoding: EncodingPlan::Transcoded(enc),
    }))
}

/// Patterns for UTF-8 (or ASCII-compatible) bytes as they are.
fn compile_utf8(patterns: &[Vec<u8>], cfg: &Config) -> Result<Compiled, PatternError> {
    if patterns.is_empty() {
        return Ok(Compiled {
            prefilter: Box::new(cpu::Nothing),
            confirm: None,
            literal: None,
            literal_set: None,
            prefilter_set: None,
            description: "no patterns: nothing matches".into(),
            warnings: Vec::new(),
            encoding: EncodingPlan::Raw { sniff_utf16: true },
        });
    }
    let t = cfg.terminator;
    let literals: Option<Vec<Vec<u8>>> = match cfg.syntax {
        Syntax::Fixed => Some(patterns.to_vec()),
        _ => patterns
            .iter()
            .map(|p| plain_alternatives(p, cfg.syntax))
            .collect::<Option<Vec<_>>>()
            .map(|sets| sets.concat()),
    };
    if let Some(lits) = literals {
        let holds_terminator = lits.iter().any(|l| l.contains(&t));
        // ASCII folding equals Unicode simple folding except for k and s,
        // whose orbits hold the Kelvin sign and the long s.
        let ascii_folds = lits
            .iter()
            .all(|l| l.is_ascii() && !l.iter().any(|b| b"kKsS".contains(b)));
        if !holds_terminator && (!cfg.ignore_case || ascii_folds) {
            return compile_literals(lits, cfg);
        }
        let alternatives: Vec<String> = lits.iter().map(|l| escape_literal(l)).collect();
        let mut c = compile_regex(&alternatives, cfg)?;
        if let Some(set) = gpu_set(&lits, cfg.ignore_case).filter(|_| !holds_terminator) {
            // An occurrence of a variant is a match only without -w/-x;
            // with them it is a candidate whose line the regex confirms.
            if cfg.line || cfg.word {
                c.prefilter_set = Some(set);
            } else {
                c.literal_set = Some(set);
            }
        }
        return Ok(c);
    }
    let basic = cfg.syntax == Syntax::Basic;
    let translated = patterns
        .iter()
        .map(|p| translate(p, basic, cfg.ignore_case))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PatternError)?;
    let alternatives: Vec<String> = translated.iter().map(|t| t.regex.clone()).collect();
    let mut compiled = compile_regex(&alternatives, cfg)?;
    compiled.warnings = translated.into_iter().flat_map(|t| t.warnings).collect();
    Ok(compiled)
}

/// Most case variants a `-i` literal search is expanded to for the GPU.
const CASE_VARIANTS_MAX: usize = 4096;

/// The exact set the GPU's `multi` kernel searches for these literals:
/// two or more case-sensitive ones as they are, or with `-i` every case
/// variant (Unicode simple folding, as the CPU engine's `-i`).
fn gpu_set(lits: &[Vec<u8>], ci: bool) -> Option<Vec<Vec<u8>>> {
    if lits.iter().any(|l| l.is_empty()) {
        return None;
    }
    match ci {
        true => fold::set_variants(lits, CASE_VARIANTS_MAX),
        false => (lits.len() > 1).then(|| lits.to_vec()),
    }
}

/// The pattern as a literal when it has no regex meaning at all.
fn plain_literal(p: &[u8], syntax: Syntax) -> Option<Vec<u8>> {
    let special: &[u8] = match syntax {
        Syntax::Basic => b"\\.[]*^$",
        _ => b"\\.[]*^$(){}|+?",
    };
    (!p.iter().any(|b| special.contains(b))).then(|| p.to_vec())
}

/// The pattern as literals when it is plain words joined by `|` (ERE) or
/// `\|` (BRE): an alternation of 100,000 words is then a literal set for
/// the literal engines (0.1 s) instead of a regex to compile (1.2 s; the
/// issue measured 20x ripgrep's time), and `-o` reports the longest
/// alternative, as POSIX wants.
fn plain_alternatives(p: &[u8], syntax: Syntax) -> Option<Vec<Vec<u8>>> {
    let separator: &[u8] = match syntax {
        Syntax::Basic => b"\\|",
        _ => b"|",
    };
    let mut out = Vec::new();
    let mut start = 0;
    for at in memchr::memmem::find_iter(p, separator) {
        out.push(plain_literal(&p[start..at], syntax)?);
        start = at + separator.len();
    }
    out.push(plain_literal(&p[start..], syntax)?);
    Some(out)
}

fn compile_literals(mut lits: Vec<Vec<u8>>, cfg: &Config) -> Result<Compiled, PatternError> {
    lits.sort();
    lits.dedup();
    let ci = cfg.ignore_case;
    let exact_single = lits.len() == 1 && !ci;
    let literal = exact_single.then(|| lits[0].clone());
    let literal_set =
        (lits.len() > 1 && !ci && lits.iter().all(|l| !l.is_empty())).then(|| lits.clone());
    let (mut prefilter, mut engine) = literal_engine(&lits, ci)?;
    let (mut confirm, check): (Option<Box<dyn Matcher>>, &str) = if cfg.line {
        (Some(Box::new(LineLiterals::new(&lits, ci))), ", -x confirm")
    } else if cfg.word {
        (
            Some(Box::new(WordLiterals::new(build_ac(
                &lits,
                ci,
                MatchKind::Standard,
            )?))),
            ", -w confirm",
        )
    } else {
        (None, "")
    };
    // Aho-Corasick's own prefilter cannot fold case (-i), and for a few
    // dozen literals it memchr's their first bytes (`TODO|FIXME|XXX` in C
    // source took 1.5x the CPU time): Teddy finds the lines there, over
    // case variants of a window of each literal with -i, and the automaton
    // confirms them and finds what to print. Exact literals without -w/-x
    // select their lines.
    let teddy = if ci && lits.len() <= CI_WINDOW_LITERALS_MAX {
        fold::ascii_window_variants(&lits, CI_WINDOW_VARIANTS)
            .and_then(|windows| cpu::Candidates::new(&windows))
            .map(|c| {
                (
                    c,
                    "case variants of a window of each literal (Teddy), then aho-corasick",
                )
            })
    } else if !ci && (2..=TEDDY_LITERALS_MAX).contains(&lits.len()) {
        let candidates = match confirm {
            None => cpu::Candidates::exact(&lits),
            Some(_) => cpu::Candidates::new(&lits),
        };
        candidates.map(|c| (c, "Teddy, then aho-corasick"))
    } else {
        None
    };
    if let Some((candidates, how)) = teddy {
        let exact = std::mem::replace(&mut prefilter, Box::new(candidates));
        confirm.get_or_insert(exact);
        engine = how;
    }
    Ok(Compiled {
        prefilter,
        confirm,
        literal,
        literal_set,
        prefilter_set: None,
        description: format!("{} literal(s), {engine}{check}", lits.len()),
        warnings: Vec::new(),
        encoding: EncodingPlan::Raw { sniff_utf16: true },
    })
}

/// Teddy's pattern limit.
const TEDDY_LITERALS_MAX: usize = 64;
/// Case variants searched for `-i` literals: Teddy's pattern limit.
const CI_WINDOW_VARIANTS: usize = 64;
/// Most `-i` literals searched through windows (16 leaves two letters each).
const CI_WINDOW_LITERALS_MAX: usize = 16;

/// From this many patterns on, the q-gram filter beats the Aho-Corasick DFA
/// (measured: 1.3-1.8x at 10,000 patterns, even at 1,000; see qgram.rs).
const QGRAM_MIN_PATTERNS: usize = 2000;

/// The fastest leftmost-longest engine for a deduplicated literal set:
/// memmem for one (case-sensitive), the q-gram filter for large sets of
/// patterns of 2 bytes or more, an Aho-Corasick DFA otherwise.
fn literal_engine(
    lits: &[Vec<u8>],
    ci: bool,
) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
    if lits.len() == 1 && !ci {
        return Ok((Box::new(cpu::Literal::new(&lits[0])), "memmem"));
    }
    if lits.len() >= QGRAM_MIN_PATTERNS {
        if let Some(q) = QGram::new(lits, ci) {
            return Ok((Box::new(q), "q-gram filter"));
        }
    }
    let ac = build_ac(lits, ci, MatchKind::LeftmostLongest)?;
    Ok((Box::new(cpu::Literals::new(ac)), "aho-corasick"))
}

/// Pattern bytes up to which a full DFA is built (it scans several times
/// faster than the NFA; its size grows with the pattern bytes).
const DFA_PATTERN_BYTES: usize = 256 * 1024;

/// An Aho-Corasick automaton: a DFA when the set is small enough, else
/// whatever the crate builds; a set too large for either is an error.
fn build_ac(lits: &[Vec<u8>], ci: bool, kind: MatchKind) -> Result<AhoCorasick, PatternError> {
    let bytes: usize = lits.iter().map(Vec::len).sum();
    let build = |ac_kind| {
        AhoCorasickBuilder::new()
            .match_kind(kind)
            .kind(ac_kind)
            .ascii_case_insensitive(ci)
            .build(lits)
    };
    let dfa = (bytes <= DFA_PATTERN_BYTES).then(|| build(Some(AhoCorasickKind::DFA)));
    match dfa {
        Some(Ok(ac)) => Ok(ac),
        _ => build(None).map_err(|e| PatternError(format!("pattern set too large: {e}"))),
    }
}

fn compile_regex(alternatives: &[String], cfg: &Config) -> Result<Compiled, PatternError> {
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
    let confined = parse_confined(&wrapped, cfg)?;
    let required = required_literals(&confined);
    // The meta regex confirms lines, except under -w, where the lines the
    // finder gives (word boundaries dropped, or through literals) are
    // confirmed by the word matcher (see WordRegex): not built there.
    let re = (!word).then(|| build_regex(&confined, t)).transpose()?;
    let (prefilter, how) = line_finder(&confined, required.as_ref(), re.as_ref(), t)?;
    let confirm: Box<dyn Matcher> = match re {
        Some(re) => Box::new(cpu::Regex::new(re)),
        None => {
            let fast = bytes_regex(&confined, t)?;
            let full = bytes_regex(&parse_confined(&word_regex(&joined), cfg)?, t)?;
            let word = WordRegex::new(fast, full, t)
                .ok_or_else(|| PatternError("internal error: no -w group".into()))?;
            Box::new(word)
        }
    };
    Ok(Compiled {
        prefilter,
        confirm: Some(confirm),
        literal: None,
        literal_set: None,
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
        prefilter_set: required.map(|r| r.literals),
        warnings: Vec::new(),
        encoding: EncodingPlan::Raw { sniff_utf16: true },
    })
}

/// Parses `wrapped` as the configuration says and confines it to one line.
fn parse_confined(wrapped: &str, cfg: &Config) -> Result<Hir, PatternError> {
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

/// The `regex` crate's regex for an expression (the `-w` matcher needs its
/// capture groups), built from the expression printed back.
fn bytes_regex(hir: &Hir, t: u8) -> Result<regex::bytes::Regex, PatternError> {
    regex::bytes::RegexBuilder::new(&group_nested_repetitions(hir.clone()).to_string())
        .multi_line(true)
        .line_terminator(t)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT / 4)
        .build()
        .map_err(|e| PatternError(first_line_of_error(&e.to_string())))
}

/// regex-syntax prints `(?:x+)?` as `x+?`, which reads back as a lazy
/// `x+`: before printing, a repeated repetition is put in a group.
fn group_nested_repetitions(h: Hir) -> Hir {
    match h.into_kind() {
        HirKind::Repetition(mut rep) => {
            let sub = group_nested_repetitions(std::mem::replace(&mut *rep.sub, Hir::empty()));
            rep.sub = Box::new(match sub.kind() {
                HirKind::Repetition(_) => Hir::capture(hir::Capture {
                    index: 0,
                    name: None,
                    sub: Box::new(sub),
                }),
                _ => sub,
            });
            Hir::repetition(rep)
        }
        HirKind::Capture(mut cap) => {
            cap.sub = Box::new(group_nested_repetitions(std::mem::replace(
                &mut *cap.sub,
                Hir::empty(),
            )));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => {
            Hir::concat(subs.into_iter().map(group_nested_repetitions).collect())
        }
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(group_nested_repetitions).collect())
        }
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(l) => Hir::literal(l.0),
        HirKind::Class(c) => Hir::class(c),
        HirKind::Look(l) => Hir::look(l),
    }
}

/// regex-syntax errors are multi-line drawings; grep prints one line.
pub(super) fn first_line_of_error(msg: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(args: &[&str]) -> Compiled {
        let cfg = Config::from_args(args);
        let pattern = args.last().unwrap().as_bytes().to_vec();
        compile(&[pattern], &cfg).unwrap()
    }

    /// Regression (issue 13, item 10): a large alternation of words was
    /// compiled as a regex (1.2 s for 100,000 words); it is a literal set.
    #[test]
    fn alternation_of_words_is_a_literal_set() {
        let c = compiled(&["-E", "foo|bar|"]);
        assert!(
            c.description.starts_with("3 literal(s)"),
            "{}",
            c.description
        );
        let c = compiled(&["foo\\|bar"]);
        assert!(
            c.description.starts_with("2 literal(s)"),
            "{}",
            c.description
        );
        let c = compiled(&["-E", "foo|ba.r"]);
        assert!(c.description.contains("regex"), "{}", c.description);
        let c = compiled(&["foo|bar"]);
        assert!(
            c.description.starts_with("1 literal(s)"),
            "{}",
            c.description
        );
    }

    /// Regression (issue 7): `[A-Z]+_SUSPEND` has no literal prefix and ran
    /// on the CPU engine; every match ends with `_SUSPEND`, which the GPU
    /// now searches.
    #[test]
    fn suspend_regex_has_inner_literal() {
        let c = compiled(&["-E", "[A-Z]+_SUSPEND"]);
        assert_eq!(c.prefilter_set, Some(vec![b"_SUSPEND".to_vec()]));
        assert!(c.literal.is_none() && c.literal_set.is_none());
        assert_eq!(
            c.description,
            "1 pattern(s), regex, lines found by literal candidates, 1 suffix literal(s) for the GPU"
        );
    }

    /// `-w` and `-x` wrap the expression in zero-width assertions, which
    /// leave its literals as they are.
    #[test]
    fn word_and_line_regexes_keep_their_literals() {
        let c = compiled(&["-w", "-E", r"Sherlock [A-Z]\w+"]);
        assert_eq!(c.prefilter_set, Some(vec![b"Sherlock ".to_vec()]));
        let c = compiled(&["-x", "-E", r"[a-z]+ing"]);
        assert_eq!(c.prefilter_set, Some(vec![b"ing".to_vec()]));
        let c = compiled(&["-E", ".*"]);
        assert_eq!(c.prefilter_set, None);
        assert!(c
            .description
            .ends_with("no literal that every match contains"));
    }
}
