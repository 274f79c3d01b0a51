//! From a rule's HIR to Glushkov positions: one position per byte-class
//! occurrence, the follow edges between them, and which positions can
//! start or end a match, with the line anchors each path crosses.
//!
//! Zero-width assertions are tracked as *combos*: the set of assertions a
//! path crosses without consuming a byte (line start `^`, line end `$`),
//! one bit per achievable combination. Since the automaton runs over one
//! line at a time, most combinations are impossible and are dropped as
//! they appear: an edge between two bytes can cross neither anchor (a line
//! start or end cannot lie between two bytes of one line), a first
//! position can only have crossed `^`, a last position only `$`. Word
//! boundaries (`-w`, `\b`) are dropped (treated as empty), which only adds
//! matches: the automaton is then a candidate filter, not exact
//! (`Positions::exact`), and the CPU's confirmation decides.
//!
//! Unicode classes become UTF-8 byte sequences, hash-consed (`unicode`).
//!
//! One file of about 420 lines: the builder is one recursion over the HIR's
//! kinds, and every case of it relies on the combos algebra above; apart,
//! neither half can be read alone.

mod unicode;

use regex_syntax::hir::{Class, ClassBytes, Hir, HirKind, Look};

/// The largest repetition count a pack's automaton unrolls (`x{m,n}` with
/// m or n above it is refused: the CPU searches it). One rule's own
/// automaton (`book`) is bounded by its positions instead.
pub const MAX_REPEAT: u32 = 64;

/// A set of bytes.
pub type ByteSet = [u64; 4];

/// Achievable assertion combinations: bit `i` set when a path crossing
/// assertion set `i` exists (`i & 1`: line start, `i & 2`: line end).
type Combos = u8;
/// Only the empty combination (no assertion crossed).
const FREE: Combos = 1;
const BOL: Combos = 1 << 1;
const EOL: Combos = 1 << 2;
const BOTH: Combos = 1 << 3;

/// Every combination of one from `a` and one from `b`.
fn compose(a: Combos, b: Combos) -> Combos {
    let mut r = 0;
    for i in 0..4 {
        for j in 0..4 {
            if a >> i & 1 == 1 && b >> j & 1 == 1 {
                r |= 1 << (i | j);
            }
        }
    }
    r
}

/// Zero or more of `n`: every combination of any number of them.
fn closure(n: Combos) -> Combos {
    let mut c = FREE;
    loop {
        let next = c | compose(c, n);
        if next == c {
            return c;
        }
        c = next;
    }
}

/// The positions of a rule pack, before they are laid out in words.
#[derive(Debug, Default, Clone)]
pub struct Positions {
    /// The bytes each position may hold.
    pub bytes: Vec<ByteSet>,
    /// Follow edges `p -> q`: q may hold the byte right after p's.
    pub edges: Vec<(u32, u32)>,
    /// Positions that may hold a match's first byte anywhere in a line.
    pub first_any: Vec<u32>,
    /// ... only at the line's start (after `^`).
    pub first_bol: Vec<u32>,
    /// Positions that may hold a match's last byte anywhere.
    pub last_any: Vec<u32>,
    /// ... only at the line's end (before `$`).
    pub last_eol: Vec<u32>,
    /// Some rule matches an empty line only (`^$`).
    pub empty_line: bool,
    /// Some rule matches the empty string in every line (`a*`, `^`).
    pub every_line: bool,
    /// No assertion was dropped: a line is selected iff some rule matches.
    pub exact: bool,
}

/// What a sub-expression contributes: whether (and across which anchors)
/// it matches empty, and its first and last positions.
struct Info {
    nullable: Combos,
    first: Vec<(u32, Combos)>,
    last: Vec<(u32, Combos)>,
}

impl Info {
    fn empty() -> Info {
        Info {
            nullable: FREE,
            first: Vec::new(),
            last: Vec::new(),
        }
    }

    fn fail() -> Info {
        Info {
            nullable: 0,
            first: Vec::new(),
            last: Vec::new(),
        }
    }
}

/// Builds the positions of `rules`, at most `limit` of them, unrolling
/// counted repetitions up to `max_repeat`.
pub fn positions(rules: &[Hir], limit: usize, max_repeat: u32) -> Result<Positions, String> {
    let mut b = Builder {
        out: Positions {
            exact: true,
            ..Positions::default()
        },
        limit,
        max_repeat,
    };
    for rule in rules {
        let info = b.info(rule)?;
        let p = &mut b.out;
        if info.nullable & (FREE | BOL | EOL) != 0 {
            p.every_line = true;
        }
        if info.nullable & BOTH != 0 {
            p.empty_line = true;
        }
        for (q, c) in info.first {
            if c & FREE != 0 {
                p.first_any.push(q);
            } else if c & BOL != 0 {
                p.first_bol.push(q);
            }
        }
        for (q, c) in info.last {
            if c & FREE != 0 {
                p.last_any.push(q);
            } else if c & EOL != 0 {
                p.last_eol.push(q);
            }
        }
    }
    let p = &mut b.out;
    for v in [
        &mut p.first_any,
        &mut p.first_bol,
        &mut p.last_any,
        &mut p.last_eol,
    ] {
        v.sort_unstable();
        v.dedup();
    }
    p.edges.sort_unstable();
    p.edges.dedup();
    Ok(b.out)
}

struct Builder {
    out: Positions,
    limit: usize,
    max_repeat: u32,
}

fn range_set(lo: u8, hi: u8) -> ByteSet {
    let mut s = [0u64; 4];
    for b in lo..=hi {
        s[usize::from(b >> 6)] |= 1 << (b & 63);
    }
    s
}

fn union(a: &mut ByteSet, b: &ByteSet) {
    for (x, y) in a.iter_mut().zip(b) {
        *x |= y;
    }
}

impl Builder {
    fn pos(&mut self, set: ByteSet) -> Result<u32, String> {
        if self.out.bytes.len() >= self.limit {
            return Err(format!("more than {} positions", self.limit));
        }
        self.out.bytes.push(set);
        Ok((self.out.bytes.len() - 1) as u32)
    }

    /// One position: a match of exactly one byte of `set`.
    fn single(&mut self, set: ByteSet) -> Result<Info, String> {
        if set == [0; 4] {
            return Ok(Info::fail());
        }
        let p = self.pos(set)?;
        Ok(Info {
            nullable: 0,
            first: vec![(p, FREE)],
            last: vec![(p, FREE)],
        })
    }

    fn info(&mut self, h: &Hir) -> Result<Info, String> {
        match h.kind() {
            HirKind::Empty => Ok(Info::empty()),
            HirKind::Literal(l) => {
                let mut acc = Info::empty();
                for &b in l.0.iter() {
                    let one = self.single(range_set(b, b))?;
                    acc = self.concat(acc, one);
                }
                Ok(acc)
            }
            HirKind::Class(Class::Bytes(c)) => self.bytes_class(c),
            HirKind::Class(Class::Unicode(c)) => self.unicode_class(c),
            HirKind::Look(look) => Ok(match look {
                Look::StartLF | Look::StartCRLF => Info {
                    nullable: BOL,
                    ..Info::fail()
                },
                Look::EndLF => Info {
                    nullable: EOL,
                    ..Info::fail()
                },
                // Text anchors imply line anchors (a superset); `$` before
                // CRLF, word boundaries: dropped (a superset).
                Look::Start => {
                    self.out.exact = false;
                    Info {
                        nullable: BOL,
                        ..Info::fail()
                    }
                }
                Look::End => {
                    self.out.exact = false;
                    Info {
                        nullable: EOL,
                        ..Info::fail()
                    }
                }
                _ => {
                    self.out.exact = false;
                    Info::empty()
                }
            }),
            HirKind::Capture(c) => self.info(&c.sub),
            HirKind::Concat(subs) => {
                let mut acc = Info::empty();
                for s in subs {
                    let next = self.info(s)?;
                    acc = self.concat(acc, next);
                }
                Ok(acc)
            }
            HirKind::Alternation(subs) => {
                let mut acc = Info::fail();
                for s in subs {
                    let next = self.info(s)?;
                    acc.nullable |= next.nullable;
                    acc.first.extend(next.first);
                    acc.last.extend(next.last);
                }
                Ok(acc)
            }
            HirKind::Repetition(r) => {
                let (min, max) = (r.min, r.max);
                let limit = self.max_repeat;
                if min > limit || max.is_some_and(|m| m > limit) {
                    return Err(format!(
                        "a counted repetition above {limit} ({})",
                        max.unwrap_or(min)
                    ));
                }
                let mut acc = Info::empty();
                for _ in 0..min {
                    let copy = self.info(&r.sub)?;
                    acc = self.concat(acc, copy);
                }
                match max {
                    None => {
                        let copy = self.info(&r.sub)?;
                        let star = self.star(copy);
                        acc = self.concat(acc, star);
                    }
                    Some(max) => {
                        for _ in min..max {
                            let mut copy = self.info(&r.sub)?;
                            copy.nullable |= FREE;
                            acc = self.concat(acc, copy);
                        }
                    }
                }
                Ok(acc)
            }
        }
    }

    /// `a` then `b`: edges from a's last positions to b's first.
    fn concat(&mut self, a: Info, b: Info) -> Info {
        for &(p, cp) in &a.last {
            if cp & FREE == 0 {
                continue;
            }
            for &(q, cq) in &b.first {
                if cq & FREE != 0 {
                    self.out.edges.push((p, q));
                }
            }
        }
        // A first position can only have crossed `^`; a last only `$`.
        let mut first = a.first;
        if a.nullable != 0 {
            first.extend(
                b.first
                    .iter()
                    .map(|&(q, c)| (q, compose(a.nullable, c) & (FREE | BOL))),
            );
        }
        let mut last = b.last;
        if b.nullable != 0 {
            last.extend(
                a.last
                    .iter()
                    .map(|&(p, c)| (p, compose(c, b.nullable) & (FREE | EOL))),
            );
        }
        first.retain(|&(_, c)| c != 0);
        last.retain(|&(_, c)| c != 0);
        Info {
            nullable: compose(a.nullable, b.nullable),
            first,
            last,
        }
    }

    /// Zero or more of `x`.
    fn star(&mut self, x: Info) -> Info {
        for &(p, cp) in &x.last {
            if cp & FREE == 0 {
                continue;
            }
            for &(q, cq) in &x.first {
                if cq & FREE != 0 {
                    self.out.edges.push((p, q));
                }
            }
        }
        let n = closure(x.nullable);
        let first = x
            .first
            .iter()
            .map(|&(q, c)| (q, compose(n, c) & (FREE | BOL)))
            .filter(|&(_, c)| c != 0)
            .collect();
        let last = x
            .last
            .iter()
            .map(|&(p, c)| (p, compose(c, n) & (FREE | EOL)))
            .filter(|&(_, c)| c != 0)
            .collect();
        Info {
            nullable: n,
            first,
            last,
        }
    }

    fn bytes_class(&mut self, c: &ClassBytes) -> Result<Info, String> {
        let mut set = [0u64; 4];
        for r in c.ranges() {
            union(&mut set, &range_set(r.start(), r.end()));
        }
        self.single(set)
    }
}
