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
//! [`positions::MAX_REPEAT`], and a rule that matches the empty string in
//! every line (every line would be a candidate). Word boundaries are
//! dropped, which makes the automaton a candidate filter; `Automaton::exact`
//! says when nothing was dropped. `simulate` is the CPU reference of the
//! kernel (`kernels/automaton.cu`), tested against the `regex` crate.

pub mod book;
mod positions;
mod simulate;
#[cfg(test)]
mod tests;

use crate::config::Config;
use regex_syntax::hir::Hir;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// An empty line matches.
    pub empty_line: bool,
    /// A line is selected iff some rule matches it (no assertion dropped).
    pub exact: bool,
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
/// compile parses them).
pub fn for_hirs(rules: &[Hir], cfg: &Config) -> Result<Automaton, String> {
    let mut a = build(rules, cfg.terminator)?;
    if cfg.word && !cfg.line {
        a.exact = false;
    }
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

/// The automaton of `rules` (parsed expressions) for lines ended by `t`.
pub fn build(rules: &[Hir], t: u8) -> Result<Automaton, String> {
    build_within(rules, t, MAX_POSITIONS, MAX_REPEAT)
}

/// [`build`] with at most `limit` positions and repetitions counted up to
/// `max_repeat`.
pub fn build_within(
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
    let mut class_of = vec![0u8; 256];
    let mut masks: Vec<u32> = Vec::new();
    let mut seen: std::collections::HashMap<&[u32], u8> = std::collections::HashMap::new();
    for b in 0..256 {
        let m = &per_byte[b * words..(b + 1) * words];
        let next = seen.len();
        let c = *seen.entry(m).or_insert_with(|| {
            masks.extend_from_slice(m);
            next as u8
        });
        class_of[b] = c;
    }
    let classes = seen.len();
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
    let first_any = bits(&p.first_any);
    let mut class_starts = vec![0u32; 8];
    for c in 0..classes {
        let m = &masks[c * words..(c + 1) * words];
        if m.iter().zip(&first_any).any(|(x, y)| x & y != 0) {
            class_starts[c / 32] |= 1 << (c % 32);
        }
    }
    static NEXT_ID: AtomicU64 = AtomicU64::new(1);
    Ok(Automaton {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        rules: rules.len(),
        positions: n,
        words,
        classes,
        class_of,
        masks,
        class_starts,
        shift,
        self_loop,
        first_any,
        first_bol: bits(&p.first_bol),
        last_any: bits(&p.last_any),
        last_eol: bits(&p.last_eol),
        exc_pos,
        exc_start,
        exc_word,
        exc_mask,
        empty_line: p.empty_line,
        exact: p.exact,
        terminator: t,
    })
}

impl Automaton {
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
            "automaton of {} rule(s): {} positions in {} words, {} byte classes, {} exception positions{}",
            self.rules,
            self.positions,
            self.words,
            self.classes,
            self.exc_pos.len(),
            if self.exact { "" } else { ", word boundaries left to the confirmation" }
        )
    }
}
