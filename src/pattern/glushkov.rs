//! Rule packs as one bit-parallel automaton: the Glushkov (position)
//! automaton of every expression, laid out for shift-and on the GPU.
//!
//! Each expression (a *rule*) is parsed with the CPU engine's parser
//! settings and turned into positions (`positions`): one per byte-class
//! occurrence. All rules' positions share one state vector of 32-bit
//! words, bit `p` set when position `p` holds the byte just read. One step
//! over a byte of class `c`:
//!
//! ```text
//! reach = ((D << 1) & shift) | (D & self_loop) | exceptions(D)
//!       | first_any | (at line start ? first_bol : 0)
//! D'    = reach & mask[c]
//! ```
//!
//! `shift` holds the edges `p -> p + 1` (concatenation, the common case),
//! `self_loop` the edges `p -> p` (`x+`, `x*`), and the *exceptions* every
//! other edge, as per-position lists of (word, mask). A line matches when
//! some `last_any` bit is set after a byte, or a `last_eol` bit at its end,
//! or (`empty_line`) it is empty. The state is cleared at every line
//! terminator: matching is line-based, so a run may start at any line
//! start. Bytes are grouped into classes of equal masks (at most 256), so
//! the mask table is classes x words.
//!
//! Refused (the search stays on the CPU, `--debug` says why): more than
//! [`MAX_POSITIONS`] positions, repetitions counted above
//! [`positions::MAX_REPEAT`] (unless the rules cut to their ASCII bytes
//! fit: [`build`]), and a rule that matches the empty string in
//! every line (every line would be a candidate). Word boundaries are
//! dropped, which makes the automaton a candidate filter; `Automaton::exact`
//! says when nothing was dropped. Under `-w`, rules that are each its
//! boundaries around a plain rule keep them in the automaton (`word`),
//! exact on lines of ASCII bytes. `simulate` is the CPU reference of the
//! kernel (`kernels/automaton.cu`), tested against the `regex` crate.

mod absorb;
pub mod book;
mod layout;
mod positions;
mod simulate;
#[cfg(test)]
mod tests;
pub mod word;

use crate::config::Config;
use layout::{assemble, Tables};
use regex_syntax::hir::Hir;

pub use positions::MAX_REPEAT;

/// Most positions of a pack the GPU kernel takes (its state lives in
/// per-thread arrays of `automaton.cu`'s `MAX_WORDS` words).
pub const MAX_POSITIONS: usize = 256 * 32;

/// A rule pack's automaton, in the layout of the `automaton` kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Automaton {
    /// Tells automata apart (a GPU lane keeps the last tables it uploaded).
    pub id: u64,
    pub rules: usize,
    pub positions: usize,
    /// 32-bit words of state.
    pub words: usize,
    /// Byte classes.
    pub classes: usize,
    /// The class of each byte.
    pub class_of: Vec<u8>,
    /// Per class, `words` words: the positions a byte of the class may hold.
    pub masks: Vec<u32>,
    /// Per class bit: some `first_any` position may hold it (a step from
    /// an empty state elsewhere than a line start can be skipped if not).
    pub class_starts: Vec<u32>,
    pub shift: Vec<u32>,
    pub self_loop: Vec<u32>,
    pub first_any: Vec<u32>,
    pub first_bol: Vec<u32>,
    pub last_any: Vec<u32>,
    pub last_eol: Vec<u32>,
    /// Positions with other followers; their lists `exc_start[e]..[e+1]`
    /// into `exc_word`/`exc_mask`.
    pub exc_pos: Vec<u32>,
    pub exc_start: Vec<u32>,
    pub exc_word: Vec<u32>,
    pub exc_mask: Vec<u32>,
    /// Per word, a bit for each of its positions in `exc_pos`; per
    /// position, its index there or [`book::NO_SLOT`] (a step visits only
    /// the live ones).
    pub has_exc: Vec<u32>,
    pub exc_map: Vec<u32>,
    /// Words of the ASCII part in front (0: none): the rules cut to their
    /// ASCII bytes (`book::ascii_only`), run on a line until a byte past
    /// ASCII, where the line runs again on the words after them; all the
    /// words when the rules were too large whole, and such a line is then a
    /// candidate ([`build`]).
    pub ascii_words: usize,
    /// An empty line matches.
    pub empty_line: bool,
    /// A line is selected iff some rule matches it (no assertion dropped).
    pub exact: bool,
    /// `-w` in the automaton ([`word`]): a match starts only after a byte
    /// that is not a word byte (or at the line's start) and ends only
    /// before one (or at the line's end). Only with the ASCII part alone:
    /// a line past ASCII is a candidate.
    pub word: bool,
    /// The line terminator (state resets there).
    pub terminator: u8,
}

/// Parses each rule as `expr` does for the CPU engine (the same parser
/// settings; `-x` anchors each rule; `-w`'s boundaries are left to the
/// confirmation) and builds their automaton. `Err`: why the GPU cannot
/// take the pack.
pub fn for_rules(rules: &[String], cfg: &Config) -> Result<Automaton, String> {
    for_hirs(&parse_rules(rules, cfg)?, cfg)
}

/// [`for_rules`] of rules already parsed (as [`parse_rules`] or a pack's
/// compile parses them). Under `-w`, rules that are each GNU's word
/// boundaries around a rule without assertions of its own ([`word::inner`])
/// get the boundaries in the automaton ([`word::build`], if it fits);
/// others have them dropped, and the automaton is not exact.
pub fn for_hirs(rules: &[Hir], cfg: &Config) -> Result<Automaton, String> {
    if !cfg.word || cfg.line {
        return build(rules, cfg.terminator);
    }
    if let Some(Ok(a)) = word::inners(rules).map(|inner| word::build(&inner, cfg.terminator)) {
        return Ok(a);
    }
    let mut a = build(rules, cfg.terminator)?;
    a.exact = false;
    Ok(a)
}

/// Each rule parsed as `expr` parses it for the CPU engine, anchored to
/// the whole line under `-x`.
pub fn parse_rules(rules: &[String], cfg: &Config) -> Result<Vec<Hir>, String> {
    let anchored: Vec<String>;
    let rules = match cfg.line {
        true => {
            anchored = rules.iter().map(|r| format!("^(?:{r})$")).collect();
            &anchored[..]
        }
        false => rules,
    };
    parse(rules, cfg.ignore_case, cfg.terminator)
}

/// The automaton of regular expressions (the `regex` crate's syntax),
/// parsed with the CPU engine's settings for lines ended by `t`.
pub fn for_expressions(rules: &[String], ignore_case: bool, t: u8) -> Result<Automaton, String> {
    build(&parse(rules, ignore_case, t)?, t)
}

/// Regular expressions parsed with the CPU engine's settings for lines
/// ended by `t`.
fn parse(rules: &[String], ignore_case: bool, t: u8) -> Result<Vec<Hir>, String> {
    rules
        .iter()
        .map(|r| {
            regex_syntax::ParserBuilder::new()
                .case_insensitive(ignore_case)
                .multi_line(true)
                .dot_matches_new_line(t != b'\n')
                .line_terminator(t)
                .utf8(false)
                .build()
                .parse(&format!("(?:{r})"))
                .map_err(|e| format!("parse error: {e}"))
        })
        .collect()
}

/// The automaton of `rules` (parsed expressions) for lines ended by `t`,
/// with an ASCII part in front when the rules cut to their ASCII bytes
/// take fewer words: loghub's three templates without a literal
/// (`\S+:\S+ \S+:\S+ ...`) take 32 words and 988 exception positions
/// whole, where each `\S` is 30 positions, and 2 words cut, where it is
/// one. On a line of ASCII bytes no match can hold another byte, so the
/// cut rules select exactly the lines the rules select there; and any
/// line they select, the rules select (the cut's matches are the rules').
///
/// Rules refused whole (too many positions, or a repetition counted above
/// [`MAX_REPEAT`]) whose cut fits (repetitions bounded by the positions
/// there) get the cut alone: a line with a byte past ASCII is then
/// selected as a candidate, and the automaton is not exact. Gitleaks' 7
/// rules without a good literal (`[\w.=-]{10,150}`, `hvs\.[\w-]{90,120}`)
/// kept its whole pack of 221 on the CPU; cut, they are 815 positions.
pub fn build(rules: &[Hir], t: u8) -> Result<Automaton, String> {
    let wider = rules.iter().any(book::reaches_past_ascii);
    let cut = || rules.iter().map(book::ascii_only).collect::<Vec<Hir>>();
    let full = match build_within(rules, t, MAX_POSITIONS, MAX_REPEAT) {
        Ok(full) => full,
        Err(_) if wider => {
            return build_within(&cut(), t, MAX_POSITIONS, MAX_POSITIONS as u32)
                .map(Automaton::cut_alone);
        }
        Err(why) => return Err(why),
    };
    if !wider {
        return Ok(full);
    }
    let room = MAX_POSITIONS - full.words * 32;
    Ok(match build_within(&cut(), t, room, MAX_REPEAT) {
        Ok(ascii) if ascii.words < full.words => ascii.in_front_of(full),
        _ => full,
    })
}

/// [`build`] with at most `limit` positions and repetitions counted up to
/// `max_repeat`.
pub fn build_within(
    rules: &[Hir],
    t: u8,
    limit: usize,
    max_repeat: u32,
) -> Result<Automaton, String> {
    let rules: Vec<Hir> = rules.iter().map(absorb::absorbed).collect();
    build_as_written(&rules, t, limit, max_repeat)
}

/// [`build_within`] without absorbing branches (`absorb`), which only
/// lines without word boundaries allow.
fn build_as_written(
    rules: &[Hir],
    t: u8,
    limit: usize,
    max_repeat: u32,
) -> Result<Automaton, String> {
    let p = positions::positions(rules, limit, max_repeat)?;
    if p.every_line {
        return Err("a rule matches the empty string (every line matches)".into());
    }
    let n = p.bytes.len();
    let words = n.div_ceil(32).max(1);
    let bits = |list: &[u32]| {
        let mut v = vec![0u32; words];
        for &q in list {
            v[q as usize / 32] |= 1 << (q % 32);
        }
        v
    };
    // Per-byte masks, then byte classes of equal masks.
    let mut per_byte = vec![0u32; 256 * words];
    for (q, set) in p.bytes.iter().enumerate() {
        for (w, &bits) in set.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let b = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                per_byte[b * words + q / 32] |= 1 << (q % 32);
            }
        }
    }
    let mut shift = vec![0u32; words];
    let mut self_loop = vec![0u32; words];
    let mut others: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &p.edges {
        if b == a + 1 {
            shift[b as usize / 32] |= 1 << (b % 32);
        } else if b == a {
            self_loop[b as usize / 32] |= 1 << (b % 32);
        } else {
            others[a as usize].push(b);
        }
    }
    let (mut exc_pos, mut exc_start, mut exc_word, mut exc_mask) =
        (Vec::new(), vec![0u32], Vec::new(), Vec::new());
    for (a, follow) in others.iter().enumerate() {
        if follow.is_empty() {
            continue;
        }
        let mut ws: Vec<(u32, u32)> = Vec::new();
        for &q in follow {
            let w = q / 32;
            match ws.iter_mut().find(|(x, _)| *x == w) {
                Some((_, m)) => *m |= 1 << (q % 32),
                None => ws.push((w, 1 << (q % 32))),
            }
        }
        exc_pos.push(a as u32);
        for (w, m) in ws {
            exc_word.push(w);
            exc_mask.push(m);
        }
        exc_start.push(exc_word.len() as u32);
    }
    Ok(assemble(
        Tables {
            rules: rules.len(),
            positions: n,
            words,
            per_byte,
            word_tables: [
                shift,
                self_loop,
                bits(&p.first_any),
                bits(&p.first_bol),
                bits(&p.last_any),
                bits(&p.last_eol),
            ],
            exc_pos,
            exc_start,
            exc_word,
            exc_mask,
            ascii_words: 0,
        },
        p.empty_line,
        p.exact,
        t,
    ))
}

impl Automaton {
    /// Its marks are exactly the selected lines: exact, and not `-w`'s
    /// word automaton, whose lines past ASCII are candidates (with no
    /// unsure flag of its own where it runs alone).
    pub fn exact_lines(&self) -> bool {
        self.exact && !self.word
    }

    /// The words a step runs on a line of ASCII bytes.
    pub fn ascii_run_words(&self) -> usize {
        match self.ascii_words {
            0 => self.words,
            w => w,
        }
    }

    /// The per-word tables in the kernels' order: shift, self_loop,
    /// first_any, first_bol, last_any, last_eol (`automaton.cu`, and each
    /// rule's in `book`).
    pub fn word_tables(&self) -> [&[u32]; 6] {
        [
            &self.shift,
            &self.self_loop,
            &self.first_any,
            &self.first_bol,
            &self.last_any,
            &self.last_eol,
        ]
    }

    /// For `--debug`.
    pub fn describe(&self) -> String {
        format!(
            "automaton of {} rule(s): {} positions in {} words{}, {} byte classes, {} exception positions{}",
            self.rules,
            self.positions,
            self.words,
            match self.ascii_words {
                0 => String::new(),
                w if w == self.words => {
                    " (the rules cut to their ASCII bytes: a line with another byte is a candidate)"
                        .to_string()
                }
                w => format!(" ({w} of them run on lines of ASCII bytes, the rest on other lines)"),
            },
            self.classes,
            self.exc_pos.len(),
            match (self.exact, self.word) {
                (true, true) => ", -w's word boundaries in the automaton",
                (true, false) => "",
                (false, _) => ", word boundaries left to the confirmation",
            }
        )
    }
}
