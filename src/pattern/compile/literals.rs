//! Literal patterns: recognising them (fixed strings, plain words joined
//! by `|`), and the CPU engines and GPU plan for a literal set.
//!
//! The cheapest exact engine is chosen for what was typed: memmem for one
//! literal, the q-gram filter for large sets (their patterns under 4 bytes
//! through a small DFA beside it), Aho-Corasick otherwise, with
//! Teddy finding the lines for a few dozen literals and for `-i` windows.
//! Literal sets under `-w`/`-x` keep the literal prefilter and add a
//! confirm step.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::{Compiled, GpuPlan, PatternError};
use crate::config::{Config, Syntax};
use crate::confirm::{LineLiterals, WordLiterals};
use crate::encoding::EncodingPlan;
use crate::engine::cpu;
use crate::engine::qgram::split::{Split, SHORT_BELOW};
use crate::engine::qgram::QGram;
use crate::engine::Matcher;
use crate::pattern::fold;

/// Most case variants a `-i` literal search is expanded to for the GPU.
const CASE_VARIANTS_MAX: usize = 4096;

/// The exact set the GPU's `multi` kernel searches for these literals:
/// two or more case-sensitive ones as they are, or with `-i` every case
/// variant (Unicode simple folding, as the CPU engine's `-i`).
pub(super) fn gpu_set(lits: &[Vec<u8>], ci: bool) -> Option<Vec<Vec<u8>>> {
    if lits.iter().any(|l| l.is_empty()) {
        return None;
    }
    match ci {
        true => fold::set_variants(lits, CASE_VARIANTS_MAX),
        false => (lits.len() > 1).then(|| lits.to_vec()),
    }
}

/// The pattern as a literal when it has no regex meaning at all.
pub(super) fn plain_literal(p: &[u8], syntax: Syntax) -> Option<Vec<u8>> {
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
pub(super) fn plain_alternatives(p: &[u8], syntax: Syntax) -> Option<Vec<Vec<u8>>> {
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

pub(super) fn compile_literals(lits: Vec<Vec<u8>>, cfg: &Config) -> Result<Compiled, PatternError> {
    let words = lits.len();
    compile_literal_set(lits, words, cfg)
}

/// [`compile_literals`] for a set that stands for `words` typed literals
/// (fewer than its members when `-i` added case variants beyond ASCII):
/// the engine is chosen by that count (see [`literal_engine`]).
pub(super) fn compile_literal_set(
    mut lits: Vec<Vec<u8>>,
    words: usize,
    cfg: &Config,
) -> Result<Compiled, PatternError> {
    lits.sort();
    lits.dedup();
    let ci = cfg.ignore_case;
    let all = lits.len();
    if cfg.lines_only() && !cfg.word && !cfg.line {
        lits = super::minimal::substring_minimal(lits, ci);
    }
    let exact_single = lits.len() == 1 && !ci;
    let nonempty = lits.iter().all(|l| !l.is_empty());
    // An empty pattern selects every line: nothing for the GPU to find (its
    // engine refuses one, and the pipeline's CPU mirror found nothing).
    let gpu = if exact_single && nonempty {
        Some(GpuPlan::Literal(lits[0].clone()))
    } else if ci {
        // The engines fold ASCII; so does the `multi` kernel with its flag.
        let folded = || lits.iter().map(|l| l.to_ascii_lowercase()).collect();
        nonempty.then(|| GpuPlan::FoldedSet(folded()))
    } else {
        (lits.len() > 1 && nonempty).then(|| GpuPlan::LiteralSet(lits.clone()))
    };
    let words = words.min(lits.len());
    let word = cfg.word && !cfg.line;
    // A set the q-gram filter would take (`large_set`) has -w's lines found
    // by the lazy DFA (`cpu::LiteralLines::words`) as a smaller set's are,
    // where only lines matter, case counts, and the search does not stop at
    // a file's first selected line: 10,000 real words over 257 MB of prose
    // (300 files, `-r -F -f -j2`, 2-core VM, `perf stat -r 5`), `-w -c`
    // 1.89 s through the q-gram filter and the word matcher at every
    // candidate, 0.74 s so (rg 0.68 s); `-w -v -c` 2.15 → 0.98 s (rg 0.83
    // s). Its automata are then NFAs (only the DFA's fallback and the judge
    // of lines with a byte beyond ASCII beside a word use them; as DFAs,
    // 10,000 words took 0.58-0.72 s to start), but the set still compiles
    // twice into the lazy DFA: 0.10 s to start against the filter's 0.06 s,
    // which `-w -l` (0.08 s through the filter, 0.16 s so) does not win
    // back.
    let lazy_words =
        word && cfg.lines_only() && !cfg.mode.first_match_ends() && !ci && large_set(&lits, words);
    // -w's word matcher: the confirm, and the judge of a line the -w line
    // finder is unsure of (`engines`); one automaton for both.
    let word_ac = match word {
        true => Some(build_ac(&lits, ci, MatchKind::Standard, !lazy_words)?),
        false => None,
    };
    let Engine {
        exact,
        lines,
        name: mut engine,
    } = engines(
        &lits,
        ci,
        cfg.terminator,
        words,
        cfg.lines_only(),
        word_ac.as_ref().map(|ac| (ac, lazy_words)),
    )?;
    let mut prefilter = exact;
    let (mut confirm, check): (Option<Box<dyn Matcher>>, &str) = if cfg.line {
        (Some(Box::new(LineLiterals::new(&lits, ci))), ", -x confirm")
    } else if let Some(ac) = word_ac {
        (Some(Box::new(WordLiterals::new(ac))), ", -w confirm")
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
        // Slim Teddy (up to 32 literals) scans 1.4x faster than Fat (33 to
        // 64): -i 'connection timeout' over small logs, 6-letter windows
        // (64 variants) 0.19 s against 0.13 s for 4 or 5 letters (16, 32),
        // each window as rare. 32 variants while they leave every literal
        // two letters, 64 beyond.
        fold::ascii_window_variants(&lits, ci_window_cap(lits.len()))
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
        // Without -w/-x the exact engine confirms: each of its matches is
        // a literal, holding its window within its length, so a line is
        // confirmed from its first window back by the longest literal, not
        // from its start (`-i 'error|fail|fatal'` over 1 GiB of loghub, one
        // line in six matching, one thread: 0.77-0.96 → 0.47-0.66 s, rg
        // 0.49-0.63 s).
        let candidates = match (&confirm, ci) {
            (None, true) => {
                let longest = lits.iter().map(Vec::len).max().unwrap_or(1);
                candidates.with_reach(longest - 1)
            }
            _ => candidates,
        };
        let exact = std::mem::replace(&mut prefilter, Box::new(candidates));
        confirm.get_or_insert(exact);
        engine = how;
    } else {
        match (word, &confirm, lines) {
            // -w: the words' lines (the word matcher decides those where a
            // byte beyond ASCII is beside a word); it stays the confirm.
            (true, _, Some(lines)) => {
                prefilter = lines;
                engine = "-w lines by a lazy DFA (aho-corasick should it give up)";
            }
            // Lines are selected by any match in them; the exact engine
            // finds what to print.
            (false, None, Some(lines)) => {
                confirm = Some(std::mem::replace(&mut prefilter, lines));
                engine = match engine {
                    "aho-corasick" => {
                        "lines by a lazy DFA (aho-corasick should it give up), aho-corasick"
                    }
                    _ => {
                        "q-gram filter, aho-corasick for patterns under 4 bytes, lines by their first match"
                    }
                };
            }
            _ => {}
        }
    }
    Ok(Compiled {
        prefilter,
        confirm,
        gpu,
        description: match lits.len() == all {
            true => format!("{all} literal(s), {engine}{check}"),
            false => format!(
                "{all} literal(s), {} holding no other (only lines matter), {engine}{check}",
                lits.len()
            ),
        },
        warnings: Vec::new(),
        encoding: EncodingPlan::Raw { sniff_utf16: true },
        automaton_later: None,
    })
}

/// Teddy's pattern limit.
pub(in crate::pattern) const TEDDY_LITERALS_MAX: usize = 64;
/// Case variants searched for `-i` literals: Teddy's pattern limit, and
/// Slim Teddy's (its faster form).
pub(in crate::pattern) const CI_WINDOW_VARIANTS: usize = 64;
pub(in crate::pattern) const CI_WINDOW_VARIANTS_SLIM: usize = 32;

/// The case variants to search for `literals` `-i` literals' windows:
/// Slim Teddy's while they leave every literal two letters, Teddy's
/// beyond.
pub(super) fn ci_window_cap(literals: usize) -> usize {
    match literals <= CI_WINDOW_VARIANTS_SLIM / 4 {
        true => CI_WINDOW_VARIANTS_SLIM,
        false => CI_WINDOW_VARIANTS,
    }
}
/// Most `-i` literals searched through windows (16 leaves two letters each).
pub(in crate::pattern) const CI_WINDOW_LITERALS_MAX: usize = 16;

/// From this many patterns on, the q-gram filter beats the Aho-Corasick DFA
/// (measured: 1.3-1.8x at 10,000 patterns, even at 1,000; see qgram.rs),
/// and the DFA's construction becomes a cost of its own (0.11 s for 10,000
/// words, 85 % of a search of a small file).
const QGRAM_MIN_PATTERNS: usize = 2000;

/// From this many pattern bytes on, the set goes to the q-gram filter
/// whatever its count: 1,500 phrases of 40 bytes took 49 ms to build as a
/// DFA, which then scanned 100 MB of prose in 516 ms, against 0.3 ms and
/// 319 ms for the filter. (1,000 words, 8 KiB, stay with the DFA: 4 ms to
/// build, and it finds their dense matches 1.5x faster than the filter.)
const QGRAM_MIN_BYTES: usize = 32 * 1024;

/// The fastest leftmost-longest engine for a deduplicated literal set:
/// memmem for one (case-sensitive); for large sets the q-gram filter, with
/// patterns shorter than 4 bytes split off to a small DFA
/// (`qgram::Split`); an Aho-Corasick DFA otherwise. `words`: how many
/// typed literals the set stands for, which decides for the q-gram filter.
/// A `-i` set's case variants beyond ASCII share their word's shortest
/// prefixes: 1,000 real words (2,126 literals with the variants, two of 2
/// letters) took 4.6 s through the q-gram filter (the earlier regex: 2.6 s
/// in the same run) and 0.71-0.77 s through the DFA (`-c -i -F -f`, 514 MB
/// of prose, 2 threads, release build, on the 2-core development VM).
pub(super) fn literal_engine(
    lits: &[Vec<u8>],
    ci: bool,
    words: usize,
) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
    let e = engines(lits, ci, b'\n', words, false, None)?;
    Ok((e.exact, e.name))
}

/// Whether `lits` (standing for `words` typed literals) is large enough for
/// the q-gram filter (`QGRAM_MIN_*`).
fn large_set(lits: &[Vec<u8>], words: usize) -> bool {
    let bytes: usize = lits.iter().map(Vec::len).sum();
    words >= QGRAM_MIN_PATTERNS || bytes >= QGRAM_MIN_BYTES
}

/// A literal set's engines (see [`literal_engine`]); `lines_only`: only
/// which lines match matters (`Config::lines_only`); `word`: -w's word
/// matcher, when -w finds the lines, and whether a set the q-gram filter
/// would take finds them by the lazy DFA instead (`compile_literal_set`
/// says when).
struct Engine {
    /// Leftmost-longest matches.
    exact: Box<dyn Matcher>,
    /// Where cheaper, a finder of the lines holding a match (lines ended by
    /// the terminator given to [`engines`]), sharing `exact`'s parts.
    lines: Option<Box<dyn Matcher>>,
    name: &'static str,
}

fn engines(
    lits: &[Vec<u8>],
    ci: bool,
    terminator: u8,
    words: usize,
    lines_only: bool,
    word: Option<(&AhoCorasick, bool)>,
) -> Result<Engine, PatternError> {
    let engine = |exact: Box<dyn Matcher>, name| Engine {
        exact,
        lines: None,
        name,
    };
    if lits.len() == 1 && !ci {
        return Ok(engine(Box::new(cpu::Literal::new(&lits[0])), "memmem"));
    }
    let word_lines = word.is_some();
    let lazy_words = word.is_some_and(|(_, lazy)| lazy);
    let large = large_set(lits, words) && !lazy_words;
    // The q-gram filter keyed by 4 bytes or more: the short patterns, if
    // any, through their own DFA (`qgram::Split`). Not for a set with an
    // empty pattern or nothing of 4 bytes.
    if large && !lits.iter().any(Vec::is_empty) {
        let (short, long): (Vec<Vec<u8>>, Vec<Vec<u8>>) =
            lits.iter().cloned().partition(|l| l.len() < SHORT_BELOW);
        if let Some(long) = QGram::new(&long, ci) {
            if short.is_empty() {
                return Ok(engine(Box::new(long), "q-gram filter"));
            }
            let short = build_ac(&short, ci, MatchKind::LeftmostLongest, true)?;
            let split = Split::new(short, long);
            // (Lines of any match: not -w's candidates.)
            return Ok(Engine {
                lines: (!word_lines).then(|| Box::new(split.lines(terminator)) as Box<dyn Matcher>),
                exact: Box::new(split),
                name: "q-gram filter, aho-corasick for patterns under 4 bytes",
            });
        }
    }
    let ac = build_ac(lits, ci, MatchKind::LeftmostLongest, !lazy_words)?;
    // A case-sensitive set's lines: the lazy DFA over their alternation,
    // guarded (`cpu::LiteralLines`, which says why not with -i). Not when
    // matches are printed (`-o`, colour, JSON): the automaton would search
    // each selected line again (1,000 words, `-o`: 3.7 s to 4.5 s).
    // With -w (`word_lines`), the words' lines, the unsure ones decided by
    // the word matcher (`LiteralLines::words`).
    let lines = match (!ci && lines_only && lits.len() >= 2, word) {
        (false, _) => None,
        (true, None) => cpu::LiteralLines::new(lits, ac.clone()),
        (true, Some((word, _))) => {
            let confirm = WordLiterals::new(word.clone());
            cpu::LiteralLines::words(lits, ac.clone(), Box::new(confirm), terminator)
        }
    };
    Ok(Engine {
        exact: Box::new(cpu::Literals::new(ac)),
        lines: lines.map(|l| Box::new(l) as Box<dyn Matcher>),
        name: "aho-corasick",
    })
}

/// Pattern bytes up to which a full DFA is built (it scans several times
/// faster than the NFA; its size grows with the pattern bytes).
const DFA_PATTERN_BYTES: usize = 256 * 1024;

/// An Aho-Corasick automaton: a DFA when `dfa` and the set is small
/// enough, else whatever the crate builds; a set too large for either is
/// an error.
fn build_ac(
    lits: &[Vec<u8>],
    ci: bool,
    kind: MatchKind,
    dfa: bool,
) -> Result<AhoCorasick, PatternError> {
    let bytes: usize = lits.iter().map(Vec::len).sum();
    let build = |ac_kind| {
        AhoCorasickBuilder::new()
            .match_kind(kind)
            .kind(ac_kind)
            .ascii_case_insensitive(ci)
            .build(lits)
    };
    let dfa = (dfa && bytes <= DFA_PATTERN_BYTES).then(|| build(Some(AhoCorasickKind::DFA)));
    match dfa {
        Some(Ok(ac)) => Ok(ac),
        _ => build(None).map_err(|e| PatternError(format!("pattern set too large: {e}"))),
    }
}
