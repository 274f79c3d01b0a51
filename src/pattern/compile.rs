//! Compiling a pattern list into a prefilter, a confirmer and a GPU plan.
//!
//! The cheapest exact engine is chosen for what was typed: literals
//! (`literals`: memmem for one, Aho-Corasick or the q-gram filter for
//! several) or the `regex` crate's engines otherwise (`expr`: a line finder,
//! then the regex confirms candidate lines). Beside the CPU matchers, the
//! same pass decides what the GPU can search ([`GpuPlan`], `gpu_plan`).
//! This file chooses between them and handles encodings.
//!
//! With `--encoding` naming a legacy encoding, literal patterns are
//! transcoded into it and searched as raw bytes behind a
//! [`BoundaryMatcher`] (the back-read); other searches in such an encoding
//! compile for UTF-8 and are run on decoded files (see `crate::encoding`).

use crate::config::{Config, EngineChoice, Mode, Syntax};
use crate::confirm::LineLiterals;
use crate::encoding::boundary::{BoundaryMatcher, Scheme};
use crate::encoding::{self, EncodingChoice, EncodingPlan};
use crate::engine::cpu;
use crate::engine::Matcher;
use encoding_rs::Encoding;
use std::sync::Arc;

use super::fold;
use super::glushkov;
use super::translate::{escape_literal, translate, Translated};

mod expr;
mod gpu_plan;
mod literals;
pub(in crate::pattern) mod minimal;
mod pack;
mod split;

#[cfg(test)]
pub(super) use expr::strip_terminator;
use expr::{compile_regex, parse_confined};
pub(super) use expr::{first_line_of_error, REGEX_SIZE_LIMIT};
pub use gpu_plan::{GpuPlan, SplitPlan};
use literals::{
    compile_literal_set, compile_literals, gpu_set, literal_engine, plain_alternatives,
    plain_literal,
};
pub(super) use literals::{
    CI_WINDOW_LITERALS_MAX, CI_WINDOW_VARIANTS, CI_WINDOW_VARIANTS_SLIM, TEDDY_LITERALS_MAX,
};
pub use pack::{PACK_CACHE, PACK_MIN, PACK_NFA_LIMIT, RULE_CACHE};

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
    /// What the GPU can search for (a literal, a literal set, or literals
    /// every match contains), if anything; `None`: the CPU engine only.
    pub gpu: Option<GpuPlan>,
    /// What was built, for `--debug`.
    pub description: String,
    /// Warnings for the user (GNU grep's, such as "* at start of expression").
    pub warnings: Vec<String>,
    /// How files are searched: as they are, raw in a legacy encoding, or
    /// decoded to UTF-8.
    pub encoding: EncodingPlan,
    /// Under auto, a regex without good literals whose automaton the GPU
    /// may run (`--engine gpu` builds it at once, into `gpu`): its
    /// alternatives, built only once the inputs prove large
    /// (`run::gpu::settle`).
    pub automaton_later: Option<Vec<String>>,
}

impl Compiled {
    /// The matcher that is exact on one line.
    pub fn line_matcher(&self) -> &dyn Matcher {
        self.confirm.as_deref().unwrap_or(&*self.prefilter)
    }

    /// Whether a confirm step decides the lines: not one that only finds
    /// what to print, beside a prefilter whose hits select their lines
    /// (a large literal set's `SplitLines`, Teddy's exact literals).
    pub fn confirm_decides_lines(&self) -> bool {
        self.confirm.is_some() && !self.prefilter.selects_lines()
    }
}

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

/// Whether every pattern is a literal (`-F`, or no metacharacter in it):
/// such a set compiles in milliseconds, where a rule pack of regular
/// expressions takes a tenth of a second per 1,000.
pub fn all_literal(patterns: &[Vec<u8>], syntax: Syntax) -> bool {
    syntax == Syntax::Fixed || patterns.iter().all(|p| plain_literal(p, syntax).is_some())
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
    c.gpu = None;
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
    let (inner, engine) = literal_engine(&lits, ci, lits.len())?;
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
        gpu: exact_single.then(|| GpuPlan::Literal(lits[0].clone())),
        description: format!(
            "{} literal(s) in {}, {engine}, character-boundary check{}",
            lits.len(),
            enc.name(),
            if cfg.line { ", -x confirm" } else { "" }
        ),
        warnings: Vec::new(),
        encoding: EncodingPlan::Transcoded(enc),
        automaton_later: None,
    }))
}

/// Under `-w` (not `-x`), plain words of which one is empty and which an
/// alternation joins (`-E '#|'`, `-e '#|x' -e ''`): GNU grep searches
/// patterns of plain words alone (`-e '#' -e ''`) with its fixed-string
/// matcher, which takes an empty match wherever no longer word at its
/// place will do (as the literal set does), and any with an alternation
/// with its regex matcher, which takes it only where it is the longest
/// match there (`confirm::word`'s `EmptyRule`): those stay regexes.
fn empty_beside_words(sets: &[Vec<Vec<u8>>], cfg: &Config) -> bool {
    let lits = || sets.iter().flatten();
    cfg.word
        && !cfg.line
        && sets.iter().any(|alternatives| alternatives.len() > 1)
        && lits().any(Vec::is_empty)
        && lits().any(|l| !l.is_empty())
}

/// Patterns for UTF-8 (or ASCII-compatible) bytes as they are.
fn compile_utf8(patterns: &[Vec<u8>], cfg: &Config) -> Result<Compiled, PatternError> {
    if patterns.is_empty() {
        return Ok(Compiled {
            prefilter: Box::new(cpu::Nothing),
            confirm: None,
            gpu: None,
            description: "no patterns: nothing matches".into(),
            warnings: Vec::new(),
            encoding: EncodingPlan::Raw { sniff_utf16: true },
            automaton_later: None,
        });
    }
    let t = cfg.terminator;
    let literals: Option<Vec<Vec<u8>>> = match cfg.syntax {
        Syntax::Fixed => Some(patterns.to_vec()),
        _ => patterns
            .iter()
            .map(|p| plain_alternatives(p, cfg.syntax))
            .collect::<Option<Vec<_>>>()
            .filter(|sets| !empty_beside_words(sets, cfg))
            .map(|sets| sets.concat()),
    };
    if let Some(lits) = literals {
        let holds_terminator = lits.iter().any(|l| l.contains(&t));
        // ASCII folding equals Unicode simple folding except for k and s,
        // whose orbits hold the Kelvin sign and the long s.
        let ascii_folds = lits
            .iter()
            .all(|l| l.is_ascii() && !l.iter().any(|b| b"kKsS".contains(b)));
        // `-x ''` (blank lines): the literal engines would find the empty
        // literal at every byte and confirm each line; the regex `^(?:)$`
        // finds the lines itself (the Linux tree, `-c -x ''`, 2 threads:
        // 0.27 s as literals, 0.20 s as the regex, rg 0.24 s).
        let empty_line = cfg.line && lits.iter().any(Vec::is_empty);
        if !holds_terminator && (!cfg.ignore_case || ascii_folds) && !empty_line {
            return compile_literals(lits, cfg);
        }
        // -i beyond ASCII folding, for more literals than the regex's own
        // case-variant prefilter takes: the literals lowered, with variants
        // for the non-ASCII members of their characters' orbits (`fold`).
        // Up to CI_WINDOW_LITERALS_MAX the regex stays (`-c -i kiss`, 514
        // MB, 2 threads: 0.24 s as a regex, 0.46 s as the folded set
        // through Aho-Corasick, which has no prefilter that folds case).
        let many = lits.len() > CI_WINDOW_LITERALS_MAX;
        if let Some(set) = fold::ascii_folded_set(&lits, FOLDED_VARIANTS_MAX)
            .filter(|_| many && !holds_terminator && cfg.ignore_case)
        {
            let mut c = compile_literal_set(set, lits.len(), cfg)?;
            c.description += &format!(
                " (-i: {} literal(s) as ASCII-folded literals and their case variants beyond ASCII)",
                lits.len()
            );
            return Ok(c);
        }
        let alternatives: Vec<String> = lits.iter().map(|l| escape_literal(l)).collect();
        let mut c = compile_regex(&alternatives, cfg)?;
        if cfg.ignore_case && !holds_terminator && !many {
            case_window_finder(&mut c, &lits);
        }
        if let Some(set) = gpu_set(&lits, cfg.ignore_case).filter(|_| !holds_terminator) {
            // Candidates whose lines the regex confirms and whose matches
            // it finds: the alternation reports the first listed literal
            // at a place, not the longest (`-o`, `--count-matches`), so an
            // occurrence of a variant is not the match the CPU engine
            // prints, and (with -w/-x) not always one at all.
            c.gpu = Some(GpuPlan::Required(set));
        }
        return Ok(c);
    }
    let translated = patterns
        .iter()
        .map(|p| to_regex_syntax(p, cfg))
        .collect::<Result<Vec<_>, _>>()
        .map_err(PatternError)?;
    let alternatives: Vec<String> = translated.iter().map(|t| t.regex.clone()).collect();
    let is_pack = pack::wanted(alternatives.len());
    let mut compiled = match is_pack {
        true => pack::compile_pack(&alternatives, cfg)?,
        false => compile_regex(&alternatives, cfg)?,
    };
    compiled.warnings = translated.into_iter().flat_map(|t| t.warnings).collect();
    // A pack's GPU plan is its own (`split`). Otherwise `--engine gpu`
    // runs the automaton; auto may, for a count, and builds it only once
    // the inputs prove large (0.3-4 ms on the development VM: more than
    // some small everyday searches' margin over rg).
    let weak = !is_pack
        && match &compiled.gpu {
            None => true,
            Some(GpuPlan::Required(lits)) => weak_literals(lits),
            Some(_) => false,
        };
    if weak && cfg.engine == EngineChoice::Gpu {
        automaton_plan(&mut compiled, &alternatives, cfg);
    } else if weak && automaton_under_auto(cfg, alternatives.len()) {
        compiled.automaton_later = Some(alternatives);
    }
    Ok(compiled)
}

/// One pattern in the `regex` crate's syntax: POSIX's translated (`-G`,
/// `-E`), `-P`'s as it is, which must then be UTF-8 as the crate's syntax is.
fn to_regex_syntax(p: &[u8], cfg: &Config) -> Result<Translated, String> {
    match cfg.syntax {
        Syntax::Perl => match std::str::from_utf8(p) {
            Ok(regex) => Ok(Translated {
                regex: regex.to_owned(),
                warnings: Vec::new(),
            }),
            Err(_) => Err("-P supports only UTF-8 patterns".into()),
        },
        syntax => translate(p, syntax == Syntax::Basic, cfg.ignore_case),
    }
}

/// A few `-i` literals with `k` or `s` stay a case-insensitive regex,
/// whose own finder searches every case variant of each literal (80 for
/// `todo|fixme|hack|xxx`: past Teddy's 64, 0.22 s over the Linux tree on
/// 2 threads, rg 0.15 s). Where each literal has a window of 3 bytes or
/// more without `k` or `s` (whose case orbits go beyond ASCII), the
/// ASCII case variants of those windows find the lines instead, with SIMD,
/// and the regex confirms them (0.08 s).
fn case_window_finder(c: &mut Compiled, lits: &[Vec<u8>]) {
    if c.confirm.is_none() {
        return;
    }
    let cap = literals::ci_window_cap(lits.len());
    let windows = fold::ascii_window_variants_avoiding(lits, cap, b"kKsS");
    if let Some(candidates) = windows.and_then(|w| cpu::Candidates::new(&w)) {
        c.prefilter = Box::new(candidates);
        c.description += " (-i: the lines found instead by case variants of a window of each literal without k or s (Teddy), the regex confirming them)";
    }
}

/// Most variants one `-i` literal is expanded to beyond ASCII folding
/// (8 letters among k, s and cased non-ASCII ones); past it the set is
/// a case-insensitive regex (`fold::ascii_folded_set`).
const FOLDED_VARIANTS_MAX: usize = 256;

/// Required literals that make poor GPU candidates: some of one or two
/// bytes, or more than [`MAX_STRONG_LITERALS`] (a regex's small classes
/// expanded). With `--engine gpu` the automaton replaces them (its lines
/// are the matching lines, not every occurrence of a short literal);
/// under auto the measured literal path stays.
fn weak_literals(lits: &[Vec<u8>]) -> bool {
    lits.len() > MAX_STRONG_LITERALS || lits.iter().any(|l| l.len() < 3)
}

/// See [`weak_literals`].
const MAX_STRONG_LITERALS: usize = 64;

/// Whether auto may run the automaton of `rules` regular expressions on
/// the GPU: for `-c` (lines, with or without `-v`), whose count the GPU
/// tallies from the automaton's marks, for two expressions or more, over
/// files named (not `-r`). Printed lines were not faster on the GPU (16
/// GiB of loghub, 3 and 10 regexes, `-n`: 4.62 / 6.40 s, the CPU engine
/// 4.61 / 5.45 s); `-l`, `-L`, `-q` were not measured. Wherever auto may
/// start the GPU it lists the inputs first, with their sizes, where the
/// CPU engine alone walks a tree while searching it; for a regex, or a
/// tree, that cost more than the GPU was seen to save (H200 host, 16
/// threads, `-c`; benches/RESULTS.md, forty-seventh session): one hex id,
/// IPv4 or e-mail regex over the Linux tree 0.031-0.033 → 0.046-0.054 s,
/// over 100,000 small logs 0.105-0.129 → 0.174-0.204 s; 3 and 10
/// regexes without literals 0.046-0.056 → 0.063-0.074 s and 0.113-0.125
/// → 0.185-0.210 s.
fn automaton_under_auto(cfg: &Config, rules: usize) -> bool {
    cfg.engine == EngineChoice::Auto
        && cfg.mode == Mode::Count
        && !cfg.json
        && cfg.max_count.is_none()
        && !cfg.recursive
        && rules >= 2
}

/// A regex without literals for the GPU (or, with `--engine gpu`, with
/// weak ones) gets its rules' automaton, when it can be built; `--debug`
/// (the description) says which, or why not.
fn automaton_plan(compiled: &mut Compiled, alternatives: &[String], cfg: &Config) {
    match glushkov::for_rules(alternatives, cfg) {
        Ok(a) => {
            compiled.description += &format!(", {} for the GPU", a.describe());
            compiled.gpu = Some(GpuPlan::Automaton(Box::new(a)));
        }
        Err(why) => compiled.description += &format!(", no GPU automaton: {why}"),
    }
}

/// `e`, the error compiling all of `patterns`, with the place of the
/// pattern that caused it when that is a pattern file's line, as GNU grep
/// prints it (`rules.txt:17: Unmatched ( or \(`; `-:17:` for standard
/// input; no place for `-e`). Like GNU grep, the patterns are checked one
/// by one, in order, only once the whole set has failed: the first that
/// fails alone is named. An error no single pattern causes (a pack over its
/// size limit) is returned as it is.
pub fn locate(e: PatternError, patterns: &super::read::Patterns, cfg: &Config) -> PatternError {
    use super::read::Origin;
    if !patterns
        .origins
        .iter()
        .any(|o| matches!(o, Origin::File { .. }))
    {
        return e;
    }
    let fails = |p: &[u8]| -> Option<PatternError> {
        if cfg.syntax == Syntax::Fixed {
            return None;
        }
        let t = to_regex_syntax(p, cfg).map_err(PatternError);
        t.and_then(|t| parse_confined(&t.regex, cfg)).err()
    };
    let first = patterns
        .list
        .iter()
        .zip(&patterns.origins)
        .find_map(|(p, origin)| fails(p).map(|err| (err, origin)));
    match first {
        Some((err, origin)) => match origin.place() {
            Some(place) => PatternError(format!("{place}: {err}")),
            None => err,
        },
        None => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_is_all_literal_only_without_metacharacters_or_under_fixed() {
        let set = |ps: &[&str]| ps.iter().map(|p| p.as_bytes().to_vec()).collect::<Vec<_>>();
        assert!(all_literal(&set(&["a.b", "c("]), Syntax::Fixed));
        assert!(all_literal(&set(&["error", "timed out"]), Syntax::Extended));
        assert!(!all_literal(&set(&["error", "ne+dle"]), Syntax::Extended));
        assert!(!all_literal(&set(&["error", "a.b"]), Syntax::Basic));
        // `+` is a literal in a basic expression.
        assert!(all_literal(&set(&["ne+dle"]), Syntax::Basic));
    }

    fn compiled(args: &[&str]) -> Compiled {
        let cfg = Config::from_args(args);
        let pattern = args.last().unwrap().as_bytes().to_vec();
        compile(&[pattern], &cfg).unwrap()
    }

    /// With --engine gpu, a regex with no required literal (or weak ones)
    /// gets the rules' automaton (issue 17); auto and cpu never build it.
    #[test]
    fn regex_without_literals_gets_an_automaton() {
        let c = compiled(&["--engine", "gpu", "-E", "[0-9]+\\.[0-9]+|x[a-f]{2,4}"]);
        match &c.gpu {
            Some(GpuPlan::Automaton(a)) => assert_eq!(a.rules, 1),
            other => panic!("{other:?}"),
        }
        assert!(
            c.description.contains("automaton of 1 rule(s)"),
            "{}",
            c.description
        );
        let c = compiled(&["-E", "[0-9]+\\.[0-9]+|x[a-f]{2,4}"]);
        assert!(!matches!(c.gpu, Some(GpuPlan::Automaton(_))));
        assert!(!c.description.contains("automaton"), "{}", c.description);
        let c = compiled(&["--engine", "gpu", "-E", "[ab]{200}"]);
        assert!(
            c.description
                .contains("no GPU automaton: a counted repetition"),
            "{}",
            c.description
        );
        // Refused: the weak literals stay the plan.
        assert!(matches!(c.gpu, Some(GpuPlan::Required(_))));
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
        assert_eq!(c.gpu, Some(GpuPlan::Required(vec![b"_SUSPEND".to_vec()])));
        assert_eq!(
            c.description,
            "1 pattern(s), regex, lines found by the regex over the lines holding a literal every match holds, or over every line (its engine finding the literal), whichever is faster on the first megabytes, 1 suffix literal(s) for the GPU"
        );
    }

    /// `-w` and `-x` wrap the expression in zero-width assertions, which
    /// leave its literals as they are.
    #[test]
    fn word_and_line_regexes_keep_their_literals() {
        let c = compiled(&["-w", "-E", r"Sherlock [A-Z]\w+"]);
        assert_eq!(c.gpu, Some(GpuPlan::Required(vec![b"Sherlock ".to_vec()])));
        let c = compiled(&["-x", "-E", r"[a-z]+ing"]);
        assert_eq!(c.gpu, Some(GpuPlan::Required(vec![b"ing".to_vec()])));
        let c = compiled(&["-E", ".*"]);
        assert_eq!(c.gpu, None);
        assert!(c
            .description
            .ends_with("no literal that every match contains"));
        // With --engine gpu the automaton refuses it too, and says why.
        let c = compiled(&["--engine", "gpu", "-E", ".*"]);
        assert_eq!(c.gpu, None);
        assert!(c.description.ends_with(
            "no literal that every match contains, no GPU automaton: a rule matches the empty string (every line matches)"
        ), "{}", c.description);
    }
}
