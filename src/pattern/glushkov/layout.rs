//! The automaton's tables laid out: bytes grouped into classes of equal
//! masks, the classes that may start a match, the exceptions indexed by
//! position; and an ASCII part put in front of the whole rules (or alone),
//! as [`super::build`] chooses.

use super::{book, Automaton};
use std::sync::atomic::{AtomicU64, Ordering};

/// What [`assemble`] lays out: the positions' masks per byte (`words`
/// words a byte), the word tables in [`Automaton::word_tables`]' order,
/// and the exception lists.
pub(super) struct Tables {
    pub rules: usize,
    pub positions: usize,
    pub words: usize,
    pub per_byte: Vec<u32>,
    pub word_tables: [Vec<u32>; 6],
    pub exc_pos: Vec<u32>,
    pub exc_start: Vec<u32>,
    pub exc_word: Vec<u32>,
    pub exc_mask: Vec<u32>,
    pub ascii_words: usize,
}

/// The automaton of `t`: bytes grouped into classes of equal masks, the
/// classes that may start a match, the exceptions indexed by position.
pub(super) fn assemble(t: Tables, empty_line: bool, exact: bool, terminator: u8) -> Automaton {
    let words = t.words;
    let mut class_of = vec![0u8; 256];
    let mut masks: Vec<u32> = Vec::new();
    let mut seen: std::collections::HashMap<&[u32], u8> = std::collections::HashMap::new();
    for (class, m) in class_of.iter_mut().zip(t.per_byte.chunks_exact(words)) {
        let next = seen.len();
        *class = *seen.entry(m).or_insert_with(|| {
            masks.extend_from_slice(m);
            next as u8
        });
    }
    let classes = seen.len();
    let [shift, self_loop, first_any, first_bol, last_any, last_eol] = t.word_tables;
    let mut class_starts = vec![0u32; 8];
    for c in 0..classes {
        let m = &masks[c * words..(c + 1) * words];
        if m.iter().zip(&first_any).any(|(x, y)| x & y != 0) {
            class_starts[c / 32] |= 1 << (c % 32);
        }
    }
    let mut has_exc = vec![0u32; words];
    let mut exc_map = vec![book::NO_SLOT; words * 32];
    for (e, &p) in t.exc_pos.iter().enumerate() {
        has_exc[p as usize / 32] |= 1 << (p % 32);
        exc_map[p as usize] = e as u32;
    }
    static NEXT_ID: AtomicU64 = AtomicU64::new(1);
    Automaton {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        rules: t.rules,
        positions: t.positions,
        words,
        classes,
        class_of,
        masks,
        class_starts,
        shift,
        self_loop,
        first_any,
        first_bol,
        last_any,
        last_eol,
        exc_pos: t.exc_pos,
        exc_start: t.exc_start,
        exc_word: t.exc_word,
        exc_mask: t.exc_mask,
        has_exc,
        exc_map,
        ascii_words: t.ascii_words,
        empty_line,
        exact,
        word: false,
        terminator,
    }
}

impl Automaton {
    /// `self` (the rules cut to their ASCII bytes) as the ASCII part in
    /// front of `full` (the same rules whole): one set of tables, `full`'s
    /// positions and words after `self`'s.
    pub(super) fn in_front_of(self, full: Automaton) -> Automaton {
        let (wa, wf) = (self.words, full.words);
        let words = wa + wf;
        let mut per_byte = Vec::with_capacity(256 * words);
        for b in 0..256 {
            let (ca, cf) = (usize::from(self.class_of[b]), usize::from(full.class_of[b]));
            per_byte.extend_from_slice(&self.masks[ca * wa..(ca + 1) * wa]);
            per_byte.extend_from_slice(&full.masks[cf * wf..(cf + 1) * wf]);
        }
        let (mine, theirs) = (self.word_tables(), full.word_tables());
        let lists = self.exc_word.len() as u32;
        let t = Tables {
            rules: full.rules,
            positions: self.positions + full.positions,
            words,
            per_byte,
            word_tables: std::array::from_fn(|k| [mine[k], theirs[k]].concat()),
            exc_pos: self
                .exc_pos
                .iter()
                .copied()
                .chain(full.exc_pos.iter().map(|p| p + 32 * wa as u32))
                .collect(),
            exc_start: self
                .exc_start
                .iter()
                .copied()
                .chain(full.exc_start[1..].iter().map(|s| s + lists))
                .collect(),
            exc_word: self
                .exc_word
                .iter()
                .copied()
                .chain(full.exc_word.iter().map(|w| w + wa as u32))
                .collect(),
            exc_mask: [&self.exc_mask[..], &full.exc_mask[..]].concat(),
            ascii_words: wa,
        };
        assemble(
            t,
            full.empty_line,
            self.exact && full.exact,
            full.terminator,
        )
    }

    /// `self` (the rules cut to their ASCII bytes) alone, for rules too
    /// large whole: a line with a byte past ASCII is selected as a
    /// candidate, so the automaton is not exact.
    pub(super) fn cut_alone(mut self) -> Automaton {
        self.ascii_words = self.words;
        self.exact = false;
        self
    }
}
