//! Line finders: how a regular expression finds its matching lines in a
//! whole buffer (ripgrep's design). The regex itself runs on whole buffers
//! only where nothing cheaper finds every matching line; the lines found
//! are then confirmed one by one by the regex (or, for `-w`, the word
//! matcher). Each finder is sound: it finds at least every line the regex
//! matches. `--debug` names the one chosen (`tests/engine_oracle.rs` checks
//! each against a per-line oracle).

use crate::engine::cpu;
use crate::engine::fastest::Fastest;
use crate::engine::shiftor::ShiftOr;
use crate::engine::Matcher;
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::look::LookMatcher;
use regex_automata::{hybrid, meta};
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{self, Hir, HirKind, Look};

use super::compile::minimal::substring_minimal;
use super::compile::{first_line_of_error, PatternError, REGEX_SIZE_LIMIT};
use super::compile::{
    CI_WINDOW_LITERALS_MAX, CI_WINDOW_VARIANTS, CI_WINDOW_VARIANTS_SLIM, TEDDY_LITERALS_MAX,
};
use super::fold;
use super::required::{Required, LITERALS_MAX};
use super::required_bytes::required_bytes;
use super::window;

/// The regex engine for a parsed, line-confined expression: the meta
/// engine the `regex` crate wraps, built from the HIR (no second parse),
/// with byte semantics, multi-line anchors at `t` and no capture groups.
pub(in crate::pattern) fn build_regex(hir: &Hir, t: u8) -> Result<meta::Regex, PatternError> {
    build_regex_within(hir, t, REGEX_SIZE_LIMIT)
}

/// [`build_regex`] reporting the longest match (`MatchKind::All`): a search
/// anchored where a match starts ends where the longest match there ends
/// (`-w`'s rule for patterns that can match the empty string).
pub(in crate::pattern) fn build_longest_regex(
    hir: &Hir,
    t: u8,
) -> Result<meta::Regex, PatternError> {
    let config = regex_config(t, REGEX_SIZE_LIMIT, WhichCaptures::Implicit);
    build_configured(hir, config.match_kind(regex_automata::MatchKind::All))
}

/// [`build_regex`] for a regex that runs over whole buffers (the line
/// finder's DFA): where every match starts a line (`^...`, `-x`) it gets a
/// full DFA if its NFA has up to `FULL_DFA_NFA_STATES` states and the DFA
/// fits `FULL_DFA_BYTES` (ripgrep's limits for every regex; the meta
/// engine's own, 30 states and 40 KiB, leave Unicode `.`, `\w` and `\s`
/// to the lazy DFA). Past a line's first bytes its state waits for the
/// line's end, which the full DFA skips to by memchr and the lazy one walks
/// to byte by byte: `-c -E '^.{0,3}$'` over the Linux tree, 2 threads,
/// 0.291 → 0.193 s (rg 0.250; session 58). With ripgrep's limits for every
/// regex, 4 of 13 unanchored regexes over logs and the tree ran 10-18 %
/// longer (why was not established), and a regex whose lines literals find
/// pays for its full DFA's build alone (`^.{0,80}error`: 8 → 18 ms).
pub(in crate::pattern) fn build_whole_buffer_regex(
    hir: &Hir,
    t: u8,
) -> Result<meta::Regex, PatternError> {
    let captures = WhichCaptures::Implicit;
    build_regex_with(hir, t, REGEX_SIZE_LIMIT, starts_lines(hir), captures)
}

const FULL_DFA_BYTES: usize = 1 << 20;
const FULL_DFA_NFA_STATES: usize = 1_000;

/// Whether every match of `hir` begins at a line's start.
fn starts_lines(hir: &Hir) -> bool {
    let prefix = hir.properties().look_set_prefix();
    prefix.contains(Look::StartLF)
        || prefix.contains(Look::StartCRLF)
        || prefix.contains(Look::Start)
}

/// [`build_regex`] with its capture groups, for `-w`'s exact regex (see
/// `confirm::word`), whose match is its group `w`.
pub(in crate::pattern) fn build_capturing_regex(
    hir: &Hir,
    t: u8,
) -> Result<meta::Regex, PatternError> {
    build_regex_with(hir, t, REGEX_SIZE_LIMIT, false, WhichCaptures::All)
}

/// [`build_regex`] with automata of at most `limit` bytes.
pub(in crate::pattern) fn build_regex_within(
    hir: &Hir,
    t: u8,
    limit: usize,
) -> Result<meta::Regex, PatternError> {
    build_regex_with(hir, t, limit, false, WhichCaptures::Implicit)
}

fn build_regex_with(
    hir: &Hir,
    t: u8,
    limit: usize,
    full_dfa: bool,
    captures: WhichCaptures,
) -> Result<meta::Regex, PatternError> {
    let mut config = regex_config(t, limit, captures);
    if full_dfa {
        config = config
            .dfa_size_limit(Some(FULL_DFA_BYTES))
            .dfa_state_limit(Some(FULL_DFA_NFA_STATES));
    }
    build_configured(hir, config)
}

/// What every regex here is built with: byte semantics, multi-line anchors
/// at `t`, automata of at most `limit` bytes, a large lazy-DFA cache.
fn regex_config(t: u8, limit: usize, captures: WhichCaptures) -> meta::Config {
    meta::Config::new()
        .line_terminator(t)
        .utf8_empty(false)
        .which_captures(captures)
        .nfa_size_limit(Some(limit))
        .hybrid_cache_capacity(REGEX_SIZE_LIMIT / 4)
}

fn build_configured(hir: &Hir, config: meta::Config) -> Result<meta::Regex, PatternError> {
    meta::Builder::new()
        .configure(config)
        .build_from_hir(hir)
        .map_err(|e| PatternError(first_line_of_error(&e.to_string())))
}

/// Most literals handed to the candidate finder (Teddy takes up to 64; a
/// larger set runs through an Aho-Corasick automaton).
const CANDIDATE_LITERALS_MAX: usize = 256;

/// How a regex finds matching lines in a whole buffer (ripgrep's design:
/// the regex runs on whole buffers only where nothing cheaper finds its
/// lines): occurrences of literals every match contains, each line holding
/// one confirmed by the regex (where the meta engine finds such a literal
/// itself, from a match's end or middle, those lines searched by its DFA
/// raced against the DFA alone); else, when the first bytes of every match
/// fall in byte classes rare in text (IPv4 addresses, hex hashes), windows
/// of such bytes found by a shift-or scan (`window`), confirmed the same
/// way; else the regex's forward DFA, stopped at the first match state,
/// over the buffer (that of `trimmed`, the expression with its ends cut
/// where only lines count, when it differs), raced against a memchr for
/// a few rare bytes every match holds where there are such, or against
/// the same DFA over only the lines that can hold a match: those whose
/// last bytes can end one where every match ends a line, else those as
/// long as the shortest match where that is 16 bytes or more, and those
/// holding one of a few bytes every match holds. A regex with
/// Unicode word boundaries runs relaxed there (boundaries dropped: the
/// lazy DFA gives up on them in non-ASCII text and would leave the rest of
/// the buffer to a slow engine) and the regex confirms the candidate
/// lines. `re`, the regex of `trimmed` (else `hir`) when the caller built
/// one, is shared rather than built again.
pub(super) fn line_finder(
    hir: &Hir,
    trimmed: Option<&Hir>,
    required: Option<&Required>,
    re: Option<&meta::Regex>,
    t: u8,
) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
    if let Some(mut lits) = exact_literals(hir) {
        // A line holds a match where it holds one of the literals in which
        // no other occurs: `(?i)the(re)?`'s 40 are 8 (of `the`), which
        // Slim Teddy takes rather than Fat, with twice the bytes a step
        // (`-c -i`, 2 threads, the Linux tree 0.144 → 0.113 s, rg 0.170).
        lits.sort();
        lits.dedup();
        let lits = substring_minimal(lits, false);
        if let Some(c) = (lits.len() > CI_WINDOW_VARIANTS_SLIM)
            .then(|| cpu::Candidates::exact_by_prefixes(&lits))
            .flatten()
        {
            return Ok((
                Box::new(c),
                "the distinct first bytes of its literals (Slim Teddy), each literal compared there",
            ));
        }
        // Case variants past Teddy's 64 (`(?i)colou?r`: 96) would go to
        // Aho-Corasick: a window of each word in every case finds the
        // lines with SIMD instead (over prose, 2 threads: 0.12 → 0.08 s).
        if let Some(w) = (lits.len() > TEDDY_LITERALS_MAX)
            .then(|| case_windows(&lits))
            .flatten()
        {
            if let Some(c) = cpu::Candidates::new(&w) {
                return Ok((
                    Box::new(c),
                    "case variants of a window of each word (Teddy)",
                ));
            }
        }
        if let Some(c) = cpu::Candidates::exact_by_affix(&lits, &shared_affix(&lits)) {
            return Ok((
                Box::new(c),
                "the prefix or suffix its literals share (memmem), each literal compared there",
            ));
        }
        if let Some(c) = cpu::Candidates::exact(&lits) {
            return Ok((Box::new(c), "its literals"));
        }
    }
    // Candidates that may hit too often: raced against the regex below.
    let mut maybe = None;
    if let Some(r) = required {
        // A set that shares a prefix or suffix (`error\[E[0-9]` gives
        // `error[E0` to `error[E9`, `[0-9]+ms` `0ms` to `9ms`) is searched
        // as that one literal when it is long or the set's are short:
        // memmem beats Teddy, whose fingerprint sees mostly shared bytes
        // (1.7x on `[0-9]+ms\b` in CI logs).
        let shared = shared_affix(&r.literals);
        let shortest = r.literals.iter().map(Vec::len).min().unwrap_or(0);
        let one = shared.len() >= 4 || (shared.len() >= 2 && shortest <= 3);
        let lits = match one && r.literals.len() > 1 {
            true => std::slice::from_ref(&shared),
            false => &r.literals[..],
        };
        if good_candidates(lits) {
            if let Some(c) = cpu::Candidates::new(lits) {
                // Where the meta engine looks for the literal itself, from
                // a match's end or middle, it may find the lines faster
                // than a confirmation a line (`cpu::CandidateLines`). Its
                // lazy DFA gives up on Unicode word boundaries.
                let exact = !has_unicode_word_boundaries(trimmed.unwrap_or(hir));
                if let Some(re) = re.filter(|re| exact && finds_literals_backwards(re)) {
                    let dfa = cpu::RegexLines::new(re.clone(), true);
                    let lines = cpu::CandidateLines::new(c, t, dfa.clone());
                    return Ok((
                        Box::new(Fastest::new(vec![
                            (LITERAL_LINES, Box::new(lines)),
                            ("the DFA alone", Box::new(dfa)),
                        ])),
                        "the regex over the lines holding a literal every match holds, or over every line (its engine finding the literal), whichever is faster on the first megabytes",
                    ));
                }
                return Ok((Box::new(c), "literal candidates"));
            }
        } else if maybe_good_candidates(lits) {
            maybe = cpu::Candidates::new(lits);
        }
    }
    // The regex run over whole buffers: without its Unicode word
    // boundaries when it has some (its lines are then candidates). The
    // shift-or scan's check is anchored at a window's start, so `hir`
    // itself, where a match starts.
    if let Some(sets) = window::position_sets(hir).filter(|s| window::worth_scanning(s)) {
        let shares = window::set_shares(&sets);
        let sets: Vec<_> = sets.iter().map(|s| move |b| s.contains(b)).collect();
        if let Some(scan) = ShiftOr::new(&sets).map(|s| s.rarest_first(&shares)) {
            let (whole, exact) = match (relax_word_boundaries(hir), re) {
                (Some(relaxed), _) => (build_whole_buffer_regex(&relaxed, t)?, false),
                (None, Some(re)) if trimmed.is_none() => (re.clone(), true),
                (None, _) => (build_whole_buffer_regex(hir, t)?, true),
            };
            // Which is faster depends on the text (`engine::fastest`).
            let dfa = cpu::RegexLines::new(whole.clone(), exact);
            let scan = scan.verified_by(whole, exact);
            return Ok((
                Box::new(Fastest::new(vec![
                    ("the windows", Box::new(scan)),
                    ("the DFA alone", Box::new(dfa)),
                ])),
                "a shift-or scan of byte classes by position, each window checked by the regex's DFA, or the DFA alone, whichever is faster on the first megabytes",
            ));
        }
    }
    // Run unanchored, the DFA needs only the lines: `trimmed`'s
    // (`\w+@\w+\.\w+|\w+@\w+\.(com|org|net)` cut to `\w@\w\.\w|...`, whose
    // shared `\w@` lets the meta engine find `@`: 2.3 s → 0.25 s).
    let lines = trimmed.unwrap_or(hir);
    let relaxed = relax_word_boundaries(lines);
    let (dfa_re, exact) = match (&relaxed, re) {
        (Some(relaxed), _) => (build_whole_buffer_regex(relaxed, t)?, false),
        (None, Some(re)) => (re.clone(), true),
        (None, None) => (build_whole_buffer_regex(lines, t)?, true),
    };
    let dfa_hir = relaxed.as_ref().unwrap_or(lines);
    let dfa = cpu::RegexLines::new(dfa_re.clone(), exact);
    // Candidates that may hit too often, raced against the DFA: which is
    // faster depends on the text (`engine::fastest`).
    let raced = maybe
        .map(|c| (c, "literal candidates or the regex, whichever is faster on the first megabytes"))
        .or_else(|| {
            let c = rare_byte_candidates(hir)?;
            Some((c, "a rare byte every match holds or the regex, whichever is faster on the first megabytes"))
        })
        .or_else(|| {
            let c = rare_literal_candidates(hir, &required?.literals)?;
            Some((c, "rare literal candidates or the regex, whichever is faster on the first megabytes"))
        });
    if let Some((c, how)) = raced {
        return Ok((
            Box::new(Fastest::candidates_or_dfa(Box::new(c), Box::new(dfa))),
            how,
        ));
    }
    // The DFA over fewer lines, raced against the DFA alone: those that can
    // end a match or else those long enough for one, and those holding a
    // byte every match holds. `dfa`'s clones: one cache a thread.
    let mut finders: Vec<(&'static str, Box<dyn Matcher>)> = Vec::new();
    if let Some(sets) = line_end_sets(hir) {
        let sets: Vec<_> = sets.iter().map(|s| move |b| s.contains(b)).collect();
        // Run from a line's end where `dfa_re`'s matches end lines too.
        let reverse = ends_lines(dfa_hir)
            .then(|| build_lazy_dfa(dfa_hir, t, REGEX_SIZE_LIMIT, REGEX_SIZE_LIMIT / 4, true))
            .flatten();
        if let Some(ends) = cpu::LineEnds::new(&sets, t, dfa.clone(), reverse) {
            finders.push((LINE_ENDS, Box::new(ends)));
        }
    }
    if let (Some(min), true) = (long_matches(hir), finders.is_empty()) {
        finders.push((
            LONG_LINES,
            Box::new(cpu::LongLines::new(min, t, dfa.clone())),
        ));
    }
    if let Some(bytes) = line_bytes(hir).and_then(|b| cpu::Candidates::any_byte(&b)) {
        let lines = cpu::CandidateLines::new(bytes, t, dfa.clone());
        finders.push((BYTE_LINES, Box::new(lines)));
    }
    let how = match finders.iter().map(|f| f.0).collect::<Vec<_>>()[..] {
        [LINE_ENDS] => Some("the regex over the lines whose last bytes can end a match, or over every line, whichever is faster on the first megabytes"),
        [LONG_LINES] => Some("the regex over the lines as long as its shortest match, or over every line, whichever is faster on the first megabytes"),
        [BYTE_LINES] => Some("the regex over the lines holding a byte every match holds, or over every line, whichever is faster on the first megabytes"),
        [LINE_ENDS, BYTE_LINES] => Some("the regex over the lines whose last bytes can end a match, over those holding a byte every match holds, or over every line, whichever is fastest on the first megabytes"),
        [LONG_LINES, BYTE_LINES] => Some("the regex over the lines as long as its shortest match, over those holding a byte every match holds, or over every line, whichever is fastest on the first megabytes"),
        _ => None,
    };
    if let Some(how) = how {
        finders.push(("the DFA alone", Box::new(dfa)));
        return Ok((Box::new(Fastest::new(finders)), how));
    }
    let how = match exact {
        true => "the regex",
        false => "the regex without word boundaries",
    };
    Ok((Box::new(dfa), how))
}

/// The bytes a match can end with, by position from its end, where every
/// match ends a line.
fn line_end_sets(hir: &Hir) -> Option<Vec<window::ByteSet>> {
    ends_lines(hir).then(|| window::end_sets(hir)).flatten()
}

/// Whether every match of `hir` ends a line (`$` or `\z` closes every
/// branch).
fn ends_lines(hir: &Hir) -> bool {
    let suffix = hir.properties().look_set_suffix();
    suffix.contains(Look::EndLF) || suffix.contains(Look::End)
}

/// A lazy DFA of `hir`, forward or `reverse`d, run directly rather than
/// through the meta engine (which hands a search whose cache thrashes to
/// the PikeVM without a word, `cpu::DfaLines`): multi-line anchors at
/// `t`, at most `limit` bytes of NFA and `cache` bytes of states a thread,
/// giving up after 3 cache clears at fewer than 10 bytes a state (the meta
/// engine's own bounds) or at a Unicode word boundary before a byte past
/// ASCII.
pub(in crate::pattern) fn build_lazy_dfa(
    hir: &Hir,
    t: u8,
    limit: usize,
    cache: usize,
    reverse: bool,
) -> Option<hybrid::dfa::DFA> {
    let mut look = LookMatcher::new();
    look.set_line_terminator(t);
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .reverse(reverse)
                .utf8(false)
                .which_captures(WhichCaptures::None)
                .nfa_size_limit(Some(limit))
                .look_matcher(look),
        )
        .build_from_hir(hir)
        .ok()?;
    hybrid::dfa::DFA::builder()
        .configure(
            hybrid::dfa::Config::new()
                .cache_capacity(cache)
                .minimum_cache_clear_count(Some(3))
                .minimum_bytes_per_state(Some(10))
                .unicode_word_boundary(true),
        )
        .build_from_nfa(nfa)
        .ok()
}

/// Shortest match, in bytes, from which lines shorter than it are skipped
/// rather than read by the DFA (`cpu::LongLines`): `.{200,}`, `\S{40,}`.
/// Below it most lines of source and logs are long enough, and the race
/// would keep the DFA alone.
const LONG_MATCH_MIN: usize = 16;

/// The shortest match's length in bytes where it is at least
/// [`LONG_MATCH_MIN`].
fn long_matches(hir: &Hir) -> Option<usize> {
    hir.properties()
        .minimum_len()
        .filter(|&n| n >= LONG_MATCH_MIN)
}

/// The line finders raced against the DFA alone, as `--stats` names them.
const LINE_ENDS: &str = "the lines whose last bytes can end a match";
const LONG_LINES: &str = "the lines as long as its shortest match";
const BYTE_LINES: &str = "the lines holding a byte every match holds";
const LITERAL_LINES: &str = "the lines holding a literal every match holds";

/// Whether the meta engine runs `re` from occurrences of a literal of its
/// matches' ends or middles, searching backwards from each for a match's
/// start (its reverse-suffix and reverse-inner strategies). No public API
/// names the strategy; its `Debug` text begins with it (read no further
/// than that; `tests::the_meta_engines_backward_strategies_are_seen` pins
/// the text to the `regex-automata` in use).
fn finds_literals_backwards(re: &meta::Regex) -> bool {
    /// Keeps a text's first bytes, then stops the formatting.
    struct Head(String);
    impl std::fmt::Write for Head {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let room = HEAD_BYTES.saturating_sub(self.0.len());
            self.0.extend(s.chars().take(room));
            match self.0.len() < HEAD_BYTES {
                true => Ok(()),
                false => Err(std::fmt::Error),
            }
        }
    }
    const HEAD_BYTES: usize = 80;
    let mut head = Head(String::new());
    let _ = std::fmt::write(&mut head, format_args!("{re:?}"));
    ["strat: ReverseSuffix", "strat: ReverseInner"]
        .iter()
        .any(|s| head.0.contains(s))
}

/// Most expected share of text bytes (`window::share`) in the bytes one of
/// which every match holds for the lines holding one to be raced against
/// the DFA alone: a letter such as `x` or `k` (1.5 %), digits, capitals and
/// punctuation; not `e` or a space, which nearly every line holds.
const LINE_BYTES_SHARE_MAX: f64 = 0.02;

/// Up to three bytes one of which every match of `hir` holds, rare enough
/// by [`LINE_BYTES_SHARE_MAX`] that many lines hold none.
fn line_bytes(hir: &Hir) -> Option<Vec<u8>> {
    let (bytes, share) = required_bytes(hir)?;
    (share <= LINE_BYTES_SHARE_MAX).then_some(bytes)
}

/// Most expected share of text bytes (`window::share`) in the bytes one
/// of which every match holds for a memchr of them to be raced against
/// the DFA: three punctuation bytes such as `@`, `#`, `%`, or one of `=`,
/// `:`, `/`; not a letter.
const RARE_BYTES_SHARE_MAX: f64 = 0.008;

/// Occurrences of up to three bytes every match holds one of
/// (`required_bytes`), when they are rare enough to race against the DFA:
/// an alternation whose literals are too short for Teddy (`\w+@\w+\.\w+|
/// \w+@\w+\.(com|org|net)`: `@`, where the DFA alone ran ten times slower).
/// A lone regex is left to the meta engine, which finds its inner literal
/// by itself (and ran a third faster than the race over logs where one
/// line in ten holds the `@` of `\w+@\w+\.\w+`).
fn rare_byte_candidates(hir: &Hir) -> Option<cpu::Candidates> {
    if !alternation_at_top(hir) {
        return None;
    }
    let (bytes, share) = required_bytes(hir)?;
    (share <= RARE_BYTES_SHARE_MAX)
        .then(|| cpu::Candidates::any_byte(&bytes))
        .flatten()
}

/// Candidates for an alternation whose required literals are short but
/// rare by [`window::share`] (their bytes' shares multiplied, summed over
/// the set, at most [`RARE_BYTES_SHARE_MAX`]): `\w+@\w+\.\w+|https?://[^ ]+`
/// gives `@` and `http`, whose rarest bytes together (`@`, `:`) are too
/// frequent for [`rare_byte_candidates`].
fn rare_literal_candidates(hir: &Hir, lits: &[Vec<u8>]) -> Option<cpu::Candidates> {
    let share: f64 = lits
        .iter()
        .map(|l| l.iter().map(|&b| window::share(b)).product::<f64>())
        .sum();
    (alternation_at_top(hir)
        && lits.len() <= CANDIDATE_LITERALS_MAX
        && share <= RARE_BYTES_SHARE_MAX)
        .then(|| cpu::Candidates::new(lits))
        .flatten()
}

/// Whether `hir` is an alternation, inside groups and assertions (`-w`'s,
/// `-x`'s): where the meta engine looks for no inner literal.
fn alternation_at_top(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Alternation(_) => true,
        HirKind::Capture(cap) => alternation_at_top(&cap.sub),
        HirKind::Concat(subs) => {
            let mut rest = subs
                .iter()
                .filter(|h| !matches!(h.kind(), HirKind::Look(_)));
            match (rest.next(), rest.next()) {
                (Some(one), None) => alternation_at_top(one),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Most literals in a rule pack's candidate set (Aho-Corasick builds
/// 100,000 in well under a second).
const PACK_LITERALS_MAX: usize = 100_000;

/// How a rule pack (`compile::pack`) finds its lines: occurrences of the
/// union of its rules' literals (`union`, when every rule has some), each
/// line holding one confirmed by the pack; else the forward DFA of the
/// rules' alternation `hir` over the buffer (`exact`: `hir` is the search,
/// not a relaxation of it), raced against a memchr for up to three rare
/// bytes one of which every match holds, where there are such. (The
/// pack's own automaton, built without capture states, reports no
/// offsets; see `cpu::Pack`.)
pub(super) fn pack_line_finder(
    union: Option<&[Vec<u8>]>,
    ascii_folded: bool,
    hir: &Hir,
    exact: bool,
    t: u8,
) -> Result<(Box<dyn Matcher>, &'static str), PatternError> {
    let good = |u: &[Vec<u8>]| {
        u.len() <= PACK_LITERALS_MAX && u.iter().map(Vec::len).min().unwrap_or(0) >= 3
    };
    let candidates = |u: &[Vec<u8>]| match ascii_folded {
        true => cpu::Candidates::ascii_folded(u),
        false => cpu::Candidates::new(u),
    };
    if let Some(c) = union.filter(|u| good(u)).and_then(candidates) {
        return Ok((Box::new(c), "the rules' literal candidates"));
    }
    let how = match exact {
        true => "the rules' alternation",
        false => "the rules' alternation without word boundaries",
    };
    let dfa = cpu::RegexLines::new(build_whole_buffer_regex(hir, t)?, exact);
    if let Some(c) = rare_byte_candidates(hir) {
        return Ok((
            Box::new(Fastest::candidates_or_dfa(Box::new(c), Box::new(dfa))),
            "a rare byte every rule's match holds or the rules' alternation, whichever is faster on the first megabytes",
        ));
    }
    Ok((Box::new(dfa), how))
}

/// The literals a regex without assertions matches exactly (an alternation
/// of words, `(?i)` variants of a short one), when it is such a finite set.
fn exact_literals(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    if !hir.properties().look_set().is_empty() {
        return None;
    }
    let seq = Extractor::new()
        .kind(ExtractKind::Prefix)
        .limit_total(LITERALS_MAX)
        .extract(hir);
    let lits = seq.literals().filter(|_| seq.is_exact())?;
    if lits.is_empty() || lits.iter().any(|l| l.as_bytes().is_empty()) {
        return None;
    }
    Some(lits.iter().map(|l| l.as_bytes().to_vec()).collect())
}

/// The longer of the literals' longest common prefix and suffix.
fn shared_affix(lits: &[Vec<u8>]) -> Vec<u8> {
    let Some((first, rest)) = lits.split_first() else {
        return Vec::new();
    };
    let common = |forward: bool| {
        rest.iter().fold(first.len(), |n, l| {
            let pairs: Box<dyn Iterator<Item = (&u8, &u8)>> = match forward {
                true => Box::new(first.iter().zip(l)),
                false => Box::new(first.iter().rev().zip(l.iter().rev())),
            };
            n.min(pairs.take_while(|(a, b)| a == b).count())
        })
    };
    let (prefix, suffix) = (common(true), common(false));
    match prefix >= suffix {
        true => first[..prefix].to_vec(),
        false => first[first.len() - suffix..].to_vec(),
    }
}

/// ASCII case variants of a window of each word of `lits` (literals that
/// are ASCII case variants of at most 16 words; windows hold no byte
/// beyond ASCII, so `(?i)errors?`'s long-s variants are covered by their
/// `error`), at most [`CI_WINDOW_VARIANTS`]: every one of `lits` holds one of them.
/// More words than [`CI_WINDOW_LITERALS_MAX`]: their shared prefixes.
fn case_windows(lits: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let mut words: Vec<Vec<u8>> = lits.iter().map(|l| l.to_ascii_lowercase()).collect();
    words.sort();
    words.dedup();
    if words.len() > CI_WINDOW_LITERALS_MAX {
        return case_prefixes(lits);
    }
    // Slim Teddy's count where that leaves windows of 3 bytes or more.
    let beyond_ascii: Vec<u8> = (0x80..=0xFF).collect();
    let windows = |cap| fold::ascii_window_variants_avoiding(&words, cap, &beyond_ascii);
    windows(CI_WINDOW_VARIANTS_SLIM)
        .or_else(|| windows(CI_WINDOW_VARIANTS))
        .or_else(|| case_prefixes(lits))
}

/// The case variants of the longest prefixes (3 characters or more) the
/// literals share once case-folded, at most [`CI_WINDOW_VARIANTS`]:
/// `(?i)(fail|pass)(ed|es)?`'s many words (with the long s) all begin
/// with `fail` or `pass` in some case.
fn case_prefixes(lits: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let folded: Vec<Vec<char>> = lits
        .iter()
        .map(|l| {
            Some(
                std::str::from_utf8(l)
                    .ok()?
                    .chars()
                    .map(fold::canonical)
                    .collect(),
            )
        })
        .collect::<Option<_>>()?;
    let shortest = folded.iter().map(Vec::len).min()?;
    (3..=shortest).rev().find_map(|n| {
        let mut prefixes: Vec<String> = folded.iter().map(|w| w[..n].iter().collect()).collect();
        prefixes.sort();
        prefixes.dedup();
        let prefixes: Vec<Vec<u8>> = prefixes.into_iter().map(String::into_bytes).collect();
        fold::set_variants(&prefixes, CI_WINDOW_VARIANTS)
    })
}

/// Literals rare enough to find lines by: 2-byte ones hit too often in a
/// set (IPv4's `0.` to `9.` made the search 1.3x slower than the DFA alone).
fn good_candidates(lits: &[Vec<u8>]) -> bool {
    let shortest = lits.iter().map(Vec::len).min().unwrap_or(0);
    lits.len() <= CANDIDATE_LITERALS_MAX && (shortest >= 3 || (shortest == 2 && lits.len() <= 2))
}

/// A few 2-byte literals: faster than the DFA on some text, slower on
/// other (`[a-z]+\.(c|h|rs)\b` over a source tree: the DFA 0.16 s, rg
/// 0.13 s), so the two are raced.
fn maybe_good_candidates(lits: &[Vec<u8>]) -> bool {
    let shortest = lits.iter().map(Vec::len).min().unwrap_or(0);
    shortest == 2 && lits.len() <= 4
}

/// Whether `hir` holds a Unicode word-boundary assertion (which the lazy
/// DFA gives up on at the first byte past ASCII).
fn has_unicode_word_boundaries(hir: &Hir) -> bool {
    hir.properties().look_set().iter().any(unicode_word)
}

fn unicode_word(l: Look) -> bool {
    matches!(
        l,
        Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordStartUnicode
            | Look::WordEndUnicode
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfUnicode
    )
}

/// `hir` with its Unicode word-boundary assertions replaced by the empty
/// expression (which matches wherever they do, and more), or `None` when
/// it has none.
pub(super) fn relax_word_boundaries(hir: &Hir) -> Option<Hir> {
    if !has_unicode_word_boundaries(hir) {
        return None;
    }
    fn relax(h: &Hir, word: &dyn Fn(Look) -> bool) -> Hir {
        match h.kind() {
            HirKind::Look(l) if word(*l) => Hir::empty(),
            HirKind::Repetition(rep) => Hir::repetition(hir::Repetition {
                sub: Box::new(relax(&rep.sub, word)),
                ..rep.clone()
            }),
            HirKind::Capture(cap) => Hir::capture(hir::Capture {
                sub: Box::new(relax(&cap.sub, word)),
                ..cap.clone()
            }),
            HirKind::Concat(subs) => Hir::concat(subs.iter().map(|s| relax(s, word)).collect()),
            HirKind::Alternation(subs) => {
                Hir::alternation(subs.iter().map(|s| relax(s, word)).collect())
            }
            _ => h.clone(),
        }
    }
    Some(relax(hir, &unicode_word))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Every literal of a case-insensitive regex's exact set holds one
        /// of the windows or prefixes that find its lines.
        #[test]
        fn case_windows_are_in_every_literal(
            words in prop::collection::vec("[a-eksKS]{3,7}", 1..6),
            optional in "[a-es]{0,2}",
        ) {
            let re = format!("(?i)({}){}{}", words.join("|"),
                if optional.is_empty() { "" } else { "(" },
                if optional.is_empty() { String::new() } else { format!("{optional})?") });
            let h = regex_syntax::ParserBuilder::new().utf8(false).build().parse(&re).unwrap();
            let Some(lits) = exact_literals(&h) else { return Ok(()) };
            let Some(windows) = case_windows(&lits) else { return Ok(()) };
            prop_assert!(windows.len() <= CI_WINDOW_VARIANTS);
            for l in &lits {
                prop_assert!(
                    windows.iter().any(|w| l.windows(w.len()).any(|x| x == &w[..])),
                    "{} holds no window of {:?}", String::from_utf8_lossy(l), windows
                );
            }
        }
    }

    /// `re` as the search parses it: multi-line, confined to one line.
    fn confined(re: &str) -> Hir {
        let h = regex_syntax::ParserBuilder::new()
            .multi_line(true)
            .utf8(false)
            .line_terminator(b'\n')
            .build()
            .parse(re)
            .unwrap();
        crate::pattern::compile::strip_terminator(h, b'\n')
    }

    #[test]
    fn regexes_that_start_lines_get_the_full_dfa_limits() {
        for re in [
            r"^.{0,3}$",
            r"^\s*$",
            r"^#define \w+\(",
            r"^(?:a|b)",
            r"^a|^b",
        ] {
            assert!(starts_lines(&confined(re)), "{re}");
        }
        for re in [r"https?://[^ ]+", r"^a|b", r"a^", r"\w+$", r"(?:^)?a"] {
            assert!(!starts_lines(&confined(re)), "{re}");
        }
    }

    /// The meta engine's strategy, read from its `Debug` text: a
    /// `regex-automata` that words it otherwise fails here, rather than
    /// leaving every regex silently to the confirmation a line.
    #[test]
    fn the_meta_engines_backward_strategies_are_seen() {
        let strategy =
            |re: &str| finds_literals_backwards(&build_regex(&confined(re), b'\n').unwrap());
        for re in [
            r"[A-Z][a-z]+ing",
            r"[A-Z]+_SUSPEND",
            r"\w+_lock\(",
            r"[0-9]{2}:[0-9]{2}:[0-9]{2}",
        ] {
            assert!(strategy(re), "{re}");
        }
        for re in [
            r"FATAL .*timeout",
            r"static int \w+\(",
            r"\w+->\w+|\w+::\w+",
            r"[a-z]+",
        ] {
            assert!(!strategy(re), "{re}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The lines a regex anchored at line starts finds over a whole
        /// buffer (its full DFA, skipping to line ends) are exactly those
        /// it matches line by line.
        #[test]
        fn a_line_anchored_regex_finds_exactly_its_lines(
            lines in prop::collection::vec("[ a\t\u{e9}\u{2003}\r]{0,6}", 0..40),
            re in prop::sample::select(vec![
                r"^.{0,3}$", r"^\s*$", r"^a\s*$", r"^(?:a|\u{e9})+", r"^[^a]{2,}$",
            ]),
        ) {
            let text = lines.join("\n");
            let hir = confined(re);
            let whole = build_whole_buffer_regex(&hir, b'\n').unwrap();
            let lines_re = cpu::RegexLines::new(whole, true);
            let line_re = build_regex(&hir, b'\n').unwrap();
            let hay = text.as_bytes();
            let found = crate::engine::selected_line_starts(&lines_re, hay);
            let mut want = Vec::new();
            let mut start = 0;
            for line in hay.split(|&b| b == b'\n') {
                if line_re.is_match(line) {
                    want.push(start);
                }
                start += line.len() + 1;
            }
            prop_assert_eq!(found, want, "{} over {:?}", re, text);
        }
    }

    #[test]
    fn shared_affix_is_the_longer_common_end() {
        let v = |s: &[&str]| s.iter().map(|x| x.as_bytes().to_vec()).collect::<Vec<_>>();
        assert_eq!(shared_affix(&v(&["error[E0", "error[E9"])), b"error[E");
        assert_eq!(shared_affix(&v(&["x_lock", "yy_lock"])), b"_lock");
        assert_eq!(shared_affix(&v(&["abc", "xyz"])), b"");
        assert_eq!(shared_affix(&v(&["same"])), b"same");
        assert_eq!(shared_affix(&[]), b"");
    }
}
