//! A rule book: each literal rule of a split pack as its own small
//! automata, and an index from the pack's literals to the rules owning
//! them, laid out for the `confirm` kernel (kernels/confirm.cu), which
//! turns the `multi` kernel's literal starts into the lines some rule
//! matches, on the GPU.
//!
//! Why: with the literals found on the GPU and the lines confirmed on the
//! CPU, the confirmation was the limit (1,000 rules over 2 GiB of logs:
//! one candidate line per 192 bytes, 0.8 µs each on a core). A rule's own
//! automaton is small, and a candidate line runs only the automata of the
//! rules owning the literals it holds, so the GPU confirms every candidate
//! and a pack whose rules are exact is counted on the GPU (`-c`, `-l`,
//! `-L`, `-q`, `-v`) like a literal.
//!
//! Each rule has two automata (`glushkov::build_within` of that rule
//! alone, up to [`RULE_POSITIONS`] positions; a counted repetition is
//! bounded by the positions, not by the pack's `MAX_REPEAT`):
//!
//! * the automaton of its ASCII bytes (`ascii_only`), which runs on lines
//!   of ASCII bytes, where no match can hold another byte, so it is exact
//!   there. It is the small one: `\S` is one position instead of 30, `.`
//!   one instead of 15, `\w` one instead of 661, and it has few follow
//!   exceptions (measured: the full automata made the kernel 12x slower);
//! * the full automaton, which runs on the other lines, up to
//!   [`FULL_POSITIONS`] positions or twice its ASCII automaton's
//!   (`full_limit`); a rule too large for it has none.
//!
//! A line where a rule has no automaton for it (an *open* rule's literal,
//! or a rule without full automaton on a line with other bytes) is marked
//! *unsure*: it stays a candidate for the CPU, and its chunk's marks are
//! not counted on the GPU (`Kind::sure`; `--stats` counts those files).
//! `run.rs` is the kernel step for step, on the flat tables.

use super::{build_as_written, build_within, Automaton};
use crate::config::Config;
use regex_syntax::hir::Hir;
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use trigrams::Mask;

mod anchor;
mod ascii;
mod run;
mod skip;
#[cfg(test)]
mod tests;
pub mod trigrams;

pub use ascii::{ascii_only, past_ascii_weight, reaches_past_ascii};

/// Most positions of one rule's automaton (the kernel's per-thread state,
/// `RULE_WORDS` in confirm.cu; automata over 4 words keep theirs in local
/// memory). At 512, 14 of loghub's 1,733 templates (messages of 500-1,000
/// bytes) had no automaton, and every chunk holding one of their literals
/// was unsure: its marks went to the CPU.
pub const RULE_POSITIONS: usize = 64 * 32;

/// Most positions of a full automaton whatever its ASCII one's size
/// (`full_limit`).
pub const FULL_POSITIONS: usize = 16 * 32;

/// Automata a queued run can name (confirm.cu: a line whose rule's
/// automaton is numbered past it is unsure).
const QUEUED_AUTOMATA: usize = 1 << 20;

/// Slot meaning "none" in the literal index and in `exc_map`.
pub const NO_SLOT: u32 = u32::MAX;

/// Words of an automaton's head in [`RuleBook::heads`]; rule `r`'s ASCII
/// automaton is head `2r`, its full one `2r + 1`.
pub const HEAD: usize = 8;

/// Head fields (`heads[a * HEAD + field]`).
pub mod head {
    /// Offset of the automaton's masks (classes x words) in `masks`.
    pub const MASKS: usize = 0;
    /// Offset of its seven word tables in `tables`, `words` words each:
    /// shift, self_loop, first_any, first_bol, last_any, last_eol, and the
    /// positions with follow exceptions.
    pub const TABLES: usize = 1;
    /// Its words of state.
    pub const WORDS: usize = 2;
    /// Offset of its exception map in `exc_map`: per position, the index of
    /// its exception (`exc_from`, `exc_to`) or `NO_SLOT`.
    pub const EXC_MAP: usize = 3;
    /// 1 when the automaton exists (else the rule is unsure on its lines).
    pub const PRESENT: usize = 4;
    /// 0 when a run of the automaton starts at its line's start; else 1 +
    /// the rule's lead (`anchor.rs`) on the lines it runs on: a run starts
    /// that many bytes before the literal start that led to it (or at the
    /// line's start), its start states entered up to the literal only.
    pub const LEAD: usize = 5;
    /// The bytes past the literal start where a run with a lead begins
    /// instead (`skip.rs`: they are the literal's, checked already); the
    /// automaton is built without them.
    pub const SKIP: usize = 6;
}

/// The word tables per automaton (`head::TABLES`).
pub const TABLES: usize = 7;

/// The flat tables of the `confirm` kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleBook {
    /// Tells books apart (a GPU lane keeps the last tables it uploaded).
    pub id: u64,
    /// Rules (the split pack's literal rules, in order).
    pub rules: usize,
    /// Rules with no automaton at all (unsure wherever their literal is).
    pub open: usize,
    /// Rules with an ASCII automaton only (unsure on other lines).
    pub ascii: usize,
    /// Why each open or ASCII-only rule (an index into the book's rules)
    /// has no full automaton.
    pub why: Vec<(usize, String)>,
    /// Every automaton is exact (no word boundary dropped): a sure line is
    /// marked iff one of its rules matches it.
    pub exact: bool,
    /// `-w`'s word boundaries are in the automata (`glushkov::word`): each
    /// rule's ASCII automaton only, a line past ASCII unsure.
    pub word: bool,
    pub terminator: u8,
    /// [`HEAD`] words per automaton, two per rule.
    pub heads: Vec<u32>,
    /// 256 bytes per automaton: each byte's class.
    pub class_of: Vec<u8>,
    /// 8 words per automaton: bit b when byte b may start a match (by
    /// byte, not class, so the kernel skips a byte without its class).
    pub byte_starts: Vec<u32>,
    pub masks: Vec<u32>,
    pub tables: Vec<u32>,
    /// Exception `e` adds `exc_mask[j]` to word `exc_word[j]` of the next
    /// state, `j` in `exc_from[e]..exc_to[e]` (words local to the rule).
    pub exc_map: Vec<u32>,
    pub exc_from: Vec<u32>,
    pub exc_to: Vec<u32>,
    pub exc_word: Vec<u32>,
    pub exc_mask: Vec<u32>,
    /// The literals are lowered (`-i`): the text is looked up with its
    /// ASCII capitals lowered (confirm.cu's `FOLD_FLAG`), so a literal stands
    /// for all its ASCII cases.
    pub fold: bool,
    /// The literal index: open addressing on a literal's first 3 bytes
    /// (`key3`), `slots[h]` an index into `keys` or [`NO_SLOT`]; key `i`'s
    /// literals are `first[i]..first[i + 1]`.
    pub slot_log2: u32,
    pub slots: Vec<u32>,
    pub keys: Vec<u32>,
    pub first: Vec<u32>,
    /// [`trigrams::MASK_WORDS`] words per rule: the trigrams every match
    /// holds (`trigrams::required`); a line lacking one skips the rule.
    pub required: Vec<u32>,
    /// Literal `k` is `bytes[starts[k]..starts[k + 1]]` (in byte order),
    /// owned by rules `owners[owner_start[k]..owner_start[k + 1]]`.
    pub starts: Vec<u32>,
    pub bytes: Vec<u8>,
    pub owner_start: Vec<u32>,
    pub owners: Vec<u32>,
    /// Literal `k`'s longest proper prefix among the literals, or
    /// [`NO_SLOT`]. The literals at a text position are the prefix chain of
    /// the greatest literal of their key not above the text there, so one
    /// binary search finds them (`multi.cuh`'s `group_longest` does the
    /// same): a key such as `htt` leads 1,125 literals of a 10,000-rule
    /// pack, and trying each was a third of the kernel's time.
    pub links: Vec<u32>,
}

/// The first 3 bytes of `b`, little-endian.
pub fn key3(b: &[u8]) -> u32 {
    u32::from(b[0]) | u32::from(b[1]) << 8 | u32::from(b[2]) << 16
}

/// The slot `key` hashes to (confirm.cu's `book_hash`).
pub fn book_hash(key: u32, log2: u32) -> u32 {
    key.wrapping_mul(0x9E37_79B1) >> (32 - log2)
}

/// One rule's automaton for the book, or why not; `word`: with `-w`'s
/// boundaries in it (`glushkov::word`, branches as written).
fn automaton(hir: &Hir, t: u8, limit: usize, word: bool) -> Result<Automaton, String> {
    let one = std::slice::from_ref(hir);
    let a = match word {
        true => build_as_written(one, t, limit, limit as u32),
        false => build_within(one, t, limit, limit as u32),
    }?;
    // A rule matching an empty line owns no literal; one that seems to is
    // left unsure rather than trusted.
    match a.empty_line {
        true => Err("it matches an empty line".into()),
        false => Ok(a),
    }
}

/// Most positions of a rule's full automaton where it reaches past ASCII:
/// [`FULL_POSITIONS`], or twice its ASCII automaton's up to
/// [`RULE_POSITIONS`]. A long message with one `\S` gets its full
/// automaton; a short rule with `\w` (661 positions whole) does not, as
/// before: 2,000 rules `failed<i> \w+ at \S+ code<i>` with full automata
/// of up to 2,048 positions took 10.6 M words of tables (46 K without) and
/// 0.77 s to build (0.06 s), and 10,000 of them over 4 s.
fn full_limit(ascii: Option<&Automaton>) -> usize {
    ascii.map_or(FULL_POSITIONS, |a| {
        (2 * a.positions).clamp(FULL_POSITIONS, RULE_POSITIONS)
    })
}

/// A rule's ASCII and full automata, its required trigrams, and the rule
/// cut to ASCII (`ascii_only`; its lead is taken from it, `anchor`).
type Built = (
    Result<Automaton, String>,
    Result<Automaton, String>,
    Mask,
    Hir,
);

/// Each rule's automata and trigrams, built on all cores (10,000 rules:
/// 0.66 s on one core of the dev VM, most of the GPU plan's compile).
/// `word`: `rules` are the inner rules of `-w` (`glushkov::word`), whose
/// boundaries the ASCII automata keep; they have no full automaton (their
/// lines past ASCII are unsure).
fn automata(rules: &[Cow<Hir>], t: u8, word: bool) -> Vec<Built> {
    let one = |h: &Cow<Hir>| {
        let cut = ascii_only(h);
        let ascii = automaton(&cut, t, RULE_POSITIONS, word);
        let full = match (word, reaches_past_ascii(h), &ascii) {
            (true, ..) => Err(WORD_PAST_ASCII.to_string()),
            (false, false, a) => a.clone(),
            (false, true, a) => automaton(h, t, full_limit(a.as_ref().ok()), false),
        };
        (ascii, full, trigrams::required(h), cut)
    };
    crate::parts::map_on_all_cores(rules, one)
}

/// Each rule's literals (`owners[k]`: the rules owning `literals[k]`).
fn owned<'l>(rules: usize, literals: &'l [Vec<u8>], owners: &[Vec<u32>]) -> Vec<Vec<&'l [u8]>> {
    let mut own: Vec<Vec<&[u8]>> = vec![Vec::new(); rules];
    for (lit, rs) in literals.iter().zip(owners) {
        for &r in rs {
            own[r as usize].push(lit);
        }
    }
    own
}

/// `re` parsed as the book's tests take a rule (bytes, not only UTF-8).
#[cfg(test)]
fn parsed(re: &str) -> Hir {
    regex_syntax::ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(re)
        .unwrap()
}

/// Why a rule of a `-w` book has no full automaton.
const WORD_PAST_ASCII: &str = "-w on a line past ASCII";

impl RuleBook {
    /// The book of `rules` (the split pack's literal rules, as the pack
    /// parsed them) whose
    /// literals are `literals` (each at least 3 bytes), literal `k` owned
    /// by rules `owners[k]` (indices into `rules`). `None` when no rule
    /// has an automaton (the book would confirm nothing).
    pub fn build(
        rules: &[Hir],
        literals: &[Vec<u8>],
        owners: &[Vec<u32>],
        cfg: &Config,
    ) -> Option<RuleBook> {
        if literals.iter().any(|l| l.len() < 3) {
            return None;
        }
        let inner = (cfg.word && !cfg.line)
            .then(|| super::word::inners(rules))
            .flatten();
        let word = inner.is_some();
        let rules = inner.as_deref().unwrap_or(rules);
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let mut b = RuleBook {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            rules: rules.len(),
            open: 0,
            ascii: 0,
            why: Vec::new(),
            exact: !cfg.word || cfg.line || word,
            word,
            terminator: cfg.terminator,
            heads: Vec::new(),
            class_of: Vec::new(),
            byte_starts: Vec::new(),
            masks: Vec::new(),
            tables: Vec::new(),
            exc_map: Vec::new(),
            exc_from: Vec::new(),
            exc_to: Vec::new(),
            exc_word: Vec::new(),
            exc_mask: Vec::new(),
            fold: cfg.ignore_case,
            slot_log2: 1,
            slots: Vec::new(),
            keys: Vec::new(),
            first: Vec::new(),
            starts: vec![0],
            bytes: Vec::new(),
            owner_start: vec![0],
            owners: Vec::new(),
            required: Vec::new(),
            links: Vec::new(),
        };
        let own = owned(rules.len(), literals, owners);
        // A run past its literal's bytes (not under -i, -w: skip.rs).
        let skips: Vec<usize> = match word || b.fold {
            true => vec![0; rules.len()],
            false => rules
                .iter()
                .zip(&own)
                .map(|(h, o)| skip::skip(h, o))
                .collect(),
        };
        let bodies: Vec<Cow<Hir>> = rules
            .iter()
            .zip(&skips)
            .map(|(h, &k)| match k {
                0 => Cow::Borrowed(h),
                k => Cow::Owned(skip::skipped(h, k)),
            })
            .collect();
        let built = automata(&bodies, cfg.terminator, word);
        for (r, (ascii, full, required, _)) in built.iter().enumerate() {
            b.required.extend_from_slice(required);
            match (&ascii, &full) {
                (_, Ok(_)) => {}
                (Ok(_), Err(_)) if word => b.ascii += 1,
                (Ok(_), Err(why)) => {
                    b.ascii += 1;
                    b.why.push((r, why.clone()));
                }
                (Err(_), Err(why)) => {
                    b.open += 1;
                    b.why.push((r, why.clone()));
                }
            }
            b.add(ascii.as_ref().ok());
            b.add(full.as_ref().ok());
        }
        if b.open == b.rules {
            return None;
        }
        b.index(literals, owners);
        if !word {
            let cuts: Vec<&Hir> = built.iter().map(|x| &x.3).collect();
            b.anchor(rules, &cuts, own, &skips);
        }
        Some(b)
    }

    /// Sets each automaton's lead (`anchor.rs`; not under `-w`, whose
    /// boundaries the automata hold): the full one's from the rule, the
    /// ASCII one's from the rule cut to ASCII (one byte a character); a
    /// rule whose runs skip its literal's bytes (`skips`) is anchored.
    fn anchor(&mut self, rules: &[Hir], cuts: &[&Hir], own: Vec<Vec<&[u8]>>, skips: &[usize]) {
        let fold = self.fold;
        let each: Vec<(&Hir, &Hir, Vec<&[u8]>, usize)> = rules
            .iter()
            .zip(cuts)
            .zip(own)
            .zip(skips)
            .map(|(((h, &cut), lits), &k)| (h, cut, lits, k))
            .collect();
        let leads = crate::parts::map_on_all_cores(&each, |(h, cut, lits, k)| {
            if *k > 0 {
                return [Some(0), Some(0)];
            }
            let lits = anchor::Literals::new(lits.clone(), fold);
            [anchor::lead(cut, &lits), anchor::lead(h, &lits)]
        });
        for (r, [ascii, full]) in leads.into_iter().enumerate() {
            for (a, lead) in [(2 * r, ascii), (2 * r + 1, full)] {
                // Bounded by LEAD_MOST (255).
                self.heads[a * HEAD + head::LEAD] = lead.map_or(0, |l| l as u32 + 1);
                self.heads[a * HEAD + head::SKIP] = skips[r] as u32;
            }
        }
    }

    /// Whether every line the `confirm` kernel may leave unsure holds a
    /// byte past ASCII: each rule has its ASCII automaton (so an ASCII
    /// line is decided), and every automaton's number fits the kernel's
    /// queue field (past it a line is unsure whatever its bytes).
    pub fn unsure_only_past_ascii(&self) -> bool {
        2 * self.rules < QUEUED_AUTOMATA
            && (0..self.rules).all(|r| self.heads[2 * r * HEAD + head::PRESENT] != 0)
    }

    /// Appends one automaton (`None`: absent) and its head.
    fn add(&mut self, a: Option<&Automaton>) {
        let mut h = [0u32; HEAD];
        let Some(a) = a else {
            self.heads.extend_from_slice(&h);
            self.class_of.extend_from_slice(&[0; 256]);
            self.byte_starts.extend_from_slice(&[0; 8]);
            return;
        };
        self.exact &= a.exact;
        h[head::MASKS] = self.masks.len() as u32;
        h[head::TABLES] = self.tables.len() as u32;
        h[head::WORDS] = a.words as u32;
        h[head::EXC_MAP] = self.exc_map.len() as u32;
        h[head::PRESENT] = 1;
        self.heads.extend_from_slice(&h);
        self.class_of.extend_from_slice(&a.class_of);
        let mut byte_starts = [0u32; 8];
        for (b, &c) in a.class_of.iter().enumerate() {
            let c = usize::from(c);
            byte_starts[b / 32] |= (a.class_starts[c / 32] >> (c % 32) & 1) << (b % 32);
        }
        self.byte_starts.extend_from_slice(&byte_starts);
        self.masks.extend_from_slice(&a.masks);
        let (base, first) = (self.exc_word.len() as u32, self.exc_from.len() as u32);
        for w in a.exc_start.windows(2) {
            self.exc_from.push(base + w[0]);
            self.exc_to.push(base + w[1]);
        }
        self.exc_word.extend_from_slice(&a.exc_word);
        self.exc_mask.extend_from_slice(&a.exc_mask);
        let map = a.exc_map.iter().map(|&e| match e {
            NO_SLOT => NO_SLOT,
            e => first + e,
        });
        self.exc_map.extend(map);
        for t in a.word_tables() {
            self.tables.extend_from_slice(t);
        }
        self.tables.extend_from_slice(&a.has_exc);
    }

    /// The literal index: literals sorted, grouped by their first 3 bytes,
    /// each linked to its longest proper prefix.
    fn index(&mut self, literals: &[Vec<u8>], owners: &[Vec<u32>]) {
        let mut order: Vec<usize> = (0..literals.len()).collect();
        order.sort_by(|&x, &y| literals[x].cmp(&literals[y]));
        // The literals before this one that are prefixes of the last, in
        // order: in byte order a prefix comes before what extends it.
        let mut prefixes: Vec<usize> = Vec::new();
        for (i, &k) in order.iter().enumerate() {
            while let Some(&q) = prefixes.last() {
                if literals[k].starts_with(&literals[order[q]]) {
                    break;
                }
                prefixes.pop();
            }
            self.links
                .push(prefixes.last().map_or(NO_SLOT, |&q| q as u32));
            prefixes.push(i);
            let key = key3(&literals[k]);
            if self.keys.last() != Some(&key) {
                self.keys.push(key);
                self.first.push((self.starts.len() - 1) as u32);
            }
            self.bytes.extend_from_slice(&literals[k]);
            self.starts.push(self.bytes.len() as u32);
            self.owners.extend_from_slice(&owners[k]);
            self.owner_start.push(self.owners.len() as u32);
        }
        self.first.push((self.starts.len() - 1) as u32);
        // At most half full.
        self.slot_log2 = (self.keys.len() * 2)
            .next_power_of_two()
            .trailing_zeros()
            .max(1);
        let mask = (1u32 << self.slot_log2) - 1;
        self.slots = vec![NO_SLOT; 1 << self.slot_log2];
        for (i, &key) in self.keys.iter().enumerate() {
            let mut h = book_hash(key, self.slot_log2);
            while self.slots[h as usize] != NO_SLOT {
                h = (h + 1) & mask;
            }
            self.slots[h as usize] = i as u32;
        }
    }

    /// For `--debug`: its size, and why the first rules without a full
    /// automaton have none (`number`: a book rule's number in the pack,
    /// from 1).
    pub fn describe(&self, number: impl Fn(usize) -> usize) -> String {
        let why: Vec<String> = self
            .why
            .iter()
            .take(3)
            .map(|(r, why)| format!("rule {}: {why}", number(*r)))
            .collect();
        format!(
            "{} rules' automata ({} of ASCII bytes only; {} words of tables), {} open{}{}",
            self.rules - self.open,
            self.ascii,
            self.masks.len() + self.tables.len(),
            self.open,
            match why.is_empty() {
                true => String::new(),
                false => format!(
                    " ({}{})",
                    why.join("; "),
                    if self.why.len() > 3 { "; ..." } else { "" }
                ),
            },
            match (self.exact, self.word) {
                (true, true) =>
                    ", exact, -w's word boundaries in the automata (lines past ASCII unsure)",
                (true, false) => ", exact",
                (false, _) => "",
            }
        )
    }
}
