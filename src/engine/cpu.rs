//! The CPU engine: the fastest exact matcher for each kind of pattern.
//!
//! One literal goes to `memchr::memmem` (SIMD, the same kernel ripgrep uses),
//! several to Aho-Corasick (leftmost-longest, as grep reports matches), and
//! regular expressions to the `regex` crate, which puts its own literal
//! prefilter in front of the automaton. Candidates for a regex or a `-i`
//! literal come from memmem, memchr or Teddy (`teddy_blocks`: over a large
//! buffer, block by block). All are line-confined: a pattern
//! never holds the line terminator after `pattern::compile`.

use super::Matcher;
use aho_corasick::AhoCorasick;
use cached::CachedRegex;
use memchr::memmem;
use regex_automata::{meta, Input};
use std::ops::Range;
use std::sync::OnceLock;

mod affix;
pub(crate) mod cached;
mod candidate_lines;
mod confirmed;
mod dense;
mod dfa_lines;
mod line_ends;
mod line_regex;
mod literal_lines;
mod long_lines;
mod rules;
mod spans;

pub use candidate_lines::CandidateLines;
pub use confirmed::ConfirmedLines;
pub use dense::DenseLines;
pub use dfa_lines::{gave_up as dfa_lines_gave_up, DfaLines};
pub use line_ends::LineEnds;
pub use line_regex::LineRegex;
pub use literal_lines::LiteralLines;
pub use long_lines::LongLines;

pub use rules::{RuleSet, SplitRules};
pub use spans::LinesAndSpans;

mod teddy_blocks;
use teddy_blocks::packed_find;

/// One literal, case-sensitive.
pub struct Literal {
    finder: memmem::Finder<'static>,
}

impl Literal {
    pub fn new(needle: &[u8]) -> Literal {
        Literal {
            finder: memmem::Finder::new(needle).into_owned(),
        }
    }
}

impl Matcher for Literal {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let hay_at = hay.get(at..)?;
        let start = at + self.finder.find(hay_at)?;
        Some(start..start + self.finder.needle().len())
    }
}

/// Several literals, leftmost-longest.
pub struct Literals {
    ac: AhoCorasick,
}

impl Literals {
    pub fn new(ac: AhoCorasick) -> Literals {
        Literals { ac }
    }
}

impl Matcher for Literals {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        let input = aho_corasick::Input::new(hay).range(at..);
        self.ac.find(input).map(|m| m.range())
    }
}

/// A regular expression (`regex-automata`'s meta engine, which the `regex`
/// crate wraps): exact matches for printing, `is_match` for deciding a line.
pub struct Regex {
    re: CachedRegex,
}

impl Regex {
    pub fn new(re: meta::Regex) -> Regex {
        Regex {
            re: CachedRegex::new(re),
        }
    }
}

impl Matcher for Regex {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        self.re
            .search(&Input::new(hay).range(at..))
            .map(|m| m.range())
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.re.is_match(line)
    }
}

/// Builds a regex on first use (`None`: it could not be built).
pub type LazyRegex = Box<dyn Fn() -> Option<meta::Regex> + Send + Sync>;

/// A rule pack (`pattern::compile::pack`): one multi-pattern meta regex
/// built without capture states decides lines (`is_match_line`). Without
/// them because the meta engine's PikeVM allocates a slot table of NFA
/// states times capture slots, which with one implicit group per pattern
/// grows with the square of the pack (10,000 rules: over 20 GB on the
/// first line the lazy DFA gave up on). Such a regex reports no offsets, so
/// `find_at` (`-o`, colour, `--json` submatches) uses the rules' one
/// alternation (same leftmost-first answer), built on first use: a `-c` or
/// `-l` run never pays for it.
pub struct Pack {
    pack: LineRegex,
    spans: OnceLock<Option<CachedRegex>>,
    build_spans: LazyRegex,
}

impl Pack {
    /// `pack`: the rules' automaton (with their cuts to ASCII, `LineRegex`).
    pub fn new(pack: LineRegex, build_spans: LazyRegex) -> Pack {
        Pack {
            pack,
            spans: OnceLock::new(),
            build_spans,
        }
    }
}

impl Matcher for Pack {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let rest = hay.get(at..)?;
        let spans = self
            .spans
            .get_or_init(|| (self.build_spans)().map(CachedRegex::new));
        match spans {
            Some(re) => re.search(&Input::new(hay).range(at..)).map(|m| m.range()),
            // The alternation is no larger than the pack, which was built:
            // should it fail all the same, a matching rest is one match.
            None => self.pack.is_match_line(rest).then_some(at..hay.len()),
        }
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.pack.is_match_line(line)
    }
}

/// Finds matching lines in a whole buffer with a regex that needs no
/// literal: the end of the earliest match (the forward DFA alone, stopped at
/// its first match state), whose line is the first matching one.
///
/// When `exact` is false the regex is a relaxation of the search's (Unicode
/// word boundaries dropped, which the lazy DFA cannot run on non-ASCII text:
/// it would give up and leave the whole buffer to a slow engine), and its
/// lines are candidates for the confirm step. A clone shares the regex's
/// cache on each thread (`CachedRegex`).
#[derive(Clone)]
pub struct RegexLines {
    re: CachedRegex,
    exact: bool,
}

impl RegexLines {
    pub fn new(re: meta::Regex, exact: bool) -> RegexLines {
        RegexLines {
            re: CachedRegex::new(re),
            exact,
        }
    }

    /// The end of the earliest match within `range` of `hay` (the bytes
    /// around it seen by the regex's look-around), as `find_at` answers.
    fn find_within(&self, hay: &[u8], range: Range<usize>) -> Option<Range<usize>> {
        let input = Input::new(hay).range(range).earliest(true);
        let end = self.re.search_half(&input)?.offset();
        Some(end..end)
    }
}

impl Matcher for RegexLines {
    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        if at > hay.len() {
            return None;
        }
        self.find_within(hay, at..hay.len())
    }

    fn is_exact(&self) -> bool {
        self.exact
    }

    fn selects_lines(&self) -> bool {
        self.exact
    }
}

/// Candidates for a regex or a case-insensitive literal: occurrences of
/// literals one of which every match contains (memmem for one, a byte they
/// all share, the SIMD Teddy searcher for a few dozen, Aho-Corasick for
/// more; memmem for the prefix or suffix a few exact ones share). The
/// confirm step decides each candidate's line.
pub struct Candidates {
    finder: CandidateFinder,
    /// The literals are the regex's whole language: a line holding one
    /// matches, and the confirm step only finds what to print.
    exact: bool,
    /// `Matcher::candidate_reach`, where the builder knows it.
    reach: Option<usize>,
}

enum CandidateFinder {
    One(memmem::Finder<'static>),
    /// Up to 64 literals: Teddy, directly. (Through `AhoCorasick` a set
    /// whose literals share a first byte, as case variants of ` time` do,
    /// gets a memchr prefilter for that byte instead.) `longest` is the
    /// longest literal's length.
    Packed {
        teddy: aho_corasick::packed::Searcher,
        longest: usize,
    },
    /// A byte every literal holds at one place: `Start(k)` bytes after its
    /// start, or at one distance from its end.
    RareByte {
        byte: u8,
        place: Place,
    },
    Many(AhoCorasick),
    /// Exact literals sharing a long prefix or suffix: memmem for it.
    Affix(affix::AffixLiterals),
    /// Exact literals past Slim Teddy's count whose first bytes are
    /// within it: Slim Teddy for those.
    Prefixes(affix::PrefixGroups),
    /// One to three bytes one of which every match holds
    /// (`pattern::required_bytes`): memchr, memchr2 or memchr3.
    AnyByte(Vec<u8>),
}

impl Candidates {
    /// A finder for `lits` (non-empty, none empty), or `None` when
    /// Aho-Corasick cannot be built for them.
    pub fn new(lits: &[Vec<u8>]) -> Option<Candidates> {
        Candidates::build(lits, false)
    }

    /// A finder for `lits` with their ASCII letters lowered, matching them
    /// in any ASCII case (Aho-Corasick's `ascii_case_insensitive`); `None`
    /// when it cannot be built.
    pub fn ascii_folded(lits: &[Vec<u8>]) -> Option<Candidates> {
        let ac = aho_corasick::AhoCorasickBuilder::new()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .kind(dfa_kind(lits))
            .ascii_case_insensitive(true)
            .build(lits)
            .ok()?;
        Some(Candidates {
            finder: CandidateFinder::Many(ac),
            exact: false,
            reach: None,
        })
    }

    /// A finder for one to three bytes, one of which every match holds
    /// (never exact); `None` for another count.
    pub fn any_byte(bytes: &[u8]) -> Option<Candidates> {
        (1..=3).contains(&bytes.len()).then(|| Candidates {
            finder: CandidateFinder::AnyByte(bytes.to_vec()),
            exact: false,
            reach: None,
        })
    }

    /// A finder for literals that are exactly what the regex matches.
    pub fn exact(lits: &[Vec<u8>]) -> Option<Candidates> {
        Candidates::build(lits, true)
    }

    /// A finder for literals that are exactly what the regex matches and
    /// all begin, or all end, with `affix` (`affix::AffixLiterals`: 2 to 16
    /// literals, an affix of 4 bytes or more); `None` otherwise.
    pub fn exact_by_affix(lits: &[Vec<u8>], affix: &[u8]) -> Option<Candidates> {
        Some(Candidates {
            finder: CandidateFinder::Affix(affix::AffixLiterals::new(lits, affix)?),
            exact: true,
            reach: None,
        })
    }

    /// A finder for literals that are exactly what the regex matches,
    /// found by Slim Teddy over their distinct first 4 bytes
    /// (`affix::PrefixGroups`: 32 at most); `None` otherwise.
    pub fn exact_by_prefixes(lits: &[Vec<u8>]) -> Option<Candidates> {
        Some(Candidates {
            finder: CandidateFinder::Prefixes(affix::PrefixGroups::new(lits)?),
            exact: true,
            reach: None,
        })
    }

    fn build(lits: &[Vec<u8>], exact: bool) -> Option<Candidates> {
        let aho_corasick = || {
            aho_corasick::AhoCorasickBuilder::new()
                .match_kind(aho_corasick::MatchKind::LeftmostFirst)
                .kind(dfa_kind(lits))
                .build(lits)
                .ok()
        };
        let teddy = || {
            let mut b = aho_corasick::packed::Config::new()
                .match_kind(aho_corasick::packed::MatchKind::LeftmostFirst)
                .builder();
            b.extend(lits);
            b.build()
        };
        let finder = if let [one] = lits {
            CandidateFinder::One(memmem::Finder::new(one).into_owned())
        } else if let Some((byte, place)) = shared_rare_byte(lits) {
            // Literals that all hold one non-ASCII byte at one place
            // (`(?i)müller`'s case variants: 0xC3 second) are found by
            // memchr for it: such bytes are rare in most text.
            CandidateFinder::RareByte { byte, place }
        } else if lits.iter().all(|l| !l.is_ascii()) {
            // Else, when every literal holds some non-ASCII byte,
            // Aho-Corasick's own rare-byte prefilter.
            CandidateFinder::Many(aho_corasick()?)
        } else {
            match (lits.len() <= 64).then(teddy).flatten() {
                Some(teddy) => CandidateFinder::Packed {
                    teddy,
                    longest: lits.iter().map(Vec::len).max().unwrap_or(1),
                },
                None => CandidateFinder::Many(aho_corasick()?),
            }
        };
        // A shared byte only points at candidates, whatever the literals.
        let exact = exact && !matches!(finder, CandidateFinder::RareByte { .. });
        Some(Candidates {
            finder,
            exact,
            reach: None,
        })
    }

    /// These candidates with `Matcher::candidate_reach` `reach`: the
    /// caller pairs them with a confirm whose every match holds one of
    /// them within `reach` bytes of its start.
    pub fn with_reach(self, reach: usize) -> Candidates {
        Candidates {
            reach: Some(reach),
            ..self
        }
    }
}

impl Matcher for Candidates {
    fn candidate_reach(&self) -> Option<usize> {
        self.reach
    }

    fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
        let hay_at = hay.get(at..)?;
        match &self.finder {
            CandidateFinder::One(f) => {
                let start = at + f.find(hay_at)?;
                Some(start..start + f.needle().len())
            }
            CandidateFinder::RareByte { byte, place } => {
                // A literal starting at or after `at` has the byte at or
                // after `at + k`; from its end, the byte itself stands for
                // the literal (same line).
                let skip = match *place {
                    Place::Start(k) => k,
                    Place::End => 0,
                };
                let pos = at_skip(hay, at, skip, *byte)?;
                let start = match *place {
                    Place::Start(k) => pos - k,
                    Place::End => pos,
                };
                Some(start..pos + 1)
            }
            CandidateFinder::Packed { teddy, longest } => packed_find(teddy, *longest, hay, at),
            CandidateFinder::AnyByte(bytes) => {
                let pos = at
                    + match bytes[..] {
                        [a] => memchr::memchr(a, hay_at),
                        [a, b] => memchr::memchr2(a, b, hay_at),
                        [a, b, c] => memchr::memchr3(a, b, c, hay_at),
                        _ => None,
                    }?;
                Some(pos..pos + 1)
            }
            CandidateFinder::Affix(lits) => lits.find_at(hay, at),
            CandidateFinder::Prefixes(groups) => groups.find_at(hay, at),
            CandidateFinder::Many(ac) => {
                let input = aho_corasick::Input::new(hay).range(at..);
                ac.find(input).map(|m| m.range())
            }
        }
    }

    fn is_exact(&self) -> bool {
        self.exact
    }

    fn selects_lines(&self) -> bool {
        self.exact
    }
}

/// Most literal bytes searched by an Aho-Corasick DFA rather than its
/// NFA (the crate's own choice above 100 literals): a DFA state per byte,
/// a few hundred bytes each, so at most ~50 MB. On a 1,000-rule pack's
/// literals (benches/rules.sh) the DFA took the search from 1.84 s to
/// 1.51 s (200 MB of CI logs, 2 threads).
const AC_DFA_BYTES: usize = 200_000;

/// A DFA for `lits` when they are few enough bytes; else the crate's choice.
pub fn dfa_kind<L: AsRef<[u8]>>(lits: &[L]) -> Option<aho_corasick::AhoCorasickKind> {
    let bytes: usize = lits.iter().map(|l| l.as_ref().len()).sum();
    (bytes <= AC_DFA_BYTES).then_some(aho_corasick::AhoCorasickKind::DFA)
}

/// Where a shared byte sits in each literal.
#[derive(Clone, Copy)]
enum Place {
    Start(usize),
    End,
}

/// The first `byte` at or after `from + skip`.
fn at_skip(hay: &[u8], from: usize, skip: usize, byte: u8) -> Option<usize> {
    let lo = from.checked_add(skip)?;
    Some(lo + memchr::memchr(byte, hay.get(lo..)?)?)
}

/// A non-ASCII byte that every literal holds at the same distance from its
/// start, or from its end.
fn shared_rare_byte(lits: &[Vec<u8>]) -> Option<(u8, Place)> {
    let (first, rest) = lits.split_first()?;
    let shortest = lits.iter().map(Vec::len).min()?;
    (0..shortest).find_map(|k| {
        let from_start = first[k];
        if from_start >= 0x80 && rest.iter().all(|l| l[k] == from_start) {
            return Some((from_start, Place::Start(k)));
        }
        let from_end = first[first.len() - 1 - k];
        let same = rest.iter().all(|l| l[l.len() - 1 - k] == from_end);
        (from_end >= 0x80 && same).then_some((from_end, Place::End))
    })
}

/// Matches nothing (an empty pattern file).
pub struct Nothing;

impl Matcher for Nothing {
    fn find_at(&self, _hay: &[u8], _at: usize) -> Option<Range<usize>> {
        None
    }
}
