//! Up to three bytes one of which every match of a regular expression
//! holds: a line finder for alternations whose literals are too short to
//! search as literals.
//!
//! The meta engine finds a lone regex's inner literal by itself (`\w+@\w+`:
//! memchr for `@`, then its reverse DFA), but not an alternation's: two
//! e-mail forms ran ten times slower than one, in rg alike (benches/
//! RESULTS.md, forty-eighth session). Literal extraction (`required`) gives
//! `@` for one branch and `.com`, `.net`, `.org` for the other, too short
//! a set for Teddy. Bytes are simpler: every match of each branch holds an
//! `@`, so a memchr for it finds every line the pair can match.
//!
//! For each node of the expression two things are kept: the bytes every
//! match of it holds (`must`: a concatenation's union, an alternation's
//! intersection), and the cheapest set of at most [`BYTES_MAX`] bytes one of
//! which every match holds (`best`: a concatenation's cheapest part, an
//! alternation's union of its branches' sets, a small class's bytes). Cost
//! is the bytes' expected share of text (`window::share`).

use regex_syntax::hir::{Class, Hir, HirKind};

use super::window::{share, ByteSet};

/// Most bytes in a set (memchr3).
pub const BYTES_MAX: usize = 3;

/// Bytes, at most [`BYTES_MAX`], one of which every match of `hir` holds,
/// with their summed share of text; `None` where there are none (a match
/// may be empty, or may consist of bytes of broad classes only).
pub fn required_bytes(hir: &Hir) -> Option<(Vec<u8>, f64)> {
    walk(hir).best
}

/// What a node of the expression guarantees of its matches.
struct Holds {
    /// Bytes every match holds.
    must: ByteSet,
    /// The cheapest set one of whose bytes every match holds.
    best: Option<(Vec<u8>, f64)>,
}

impl Holds {
    fn nothing() -> Holds {
        Holds {
            must: ByteSet::default(),
            best: None,
        }
    }

    /// `must` and `best`, the latter replaced by `must`'s rarest byte where
    /// that is cheaper.
    fn new(must: ByteSet, best: Option<(Vec<u8>, f64)>) -> Holds {
        let rarest = must
            .bytes()
            .map(|b| (vec![b], share(b)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        Holds {
            must,
            best: cheaper(best, rarest),
        }
    }
}

fn cheaper(a: Option<(Vec<u8>, f64)>, b: Option<(Vec<u8>, f64)>) -> Option<(Vec<u8>, f64)> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.1 < a.1 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// A set of bytes as `best`: when it has at most [`BYTES_MAX`].
fn as_best(set: &ByteSet) -> Option<(Vec<u8>, f64)> {
    let bytes: Vec<u8> = set.bytes().take(BYTES_MAX + 1).collect();
    (!bytes.is_empty() && bytes.len() <= BYTES_MAX).then(|| {
        let cost = bytes.iter().map(|&b| share(b)).sum();
        (bytes, cost)
    })
}

fn walk(hir: &Hir) -> Holds {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Holds::nothing(),
        HirKind::Literal(lit) => {
            let mut must = ByteSet::default();
            lit.0.iter().for_each(|&b| must.insert_range(b, b));
            Holds::new(must, None)
        }
        HirKind::Class(class) => {
            // A match is one character: it holds one of its first bytes,
            // and a first byte shared by all holds that one.
            let firsts = first_bytes(class);
            let mut must = ByteSet::default();
            if let [only] = firsts.bytes().take(2).collect::<Vec<_>>()[..] {
                must.insert_range(only, only);
            }
            Holds::new(must, as_best(&firsts))
        }
        HirKind::Repetition(rep) if rep.min >= 1 => walk(&rep.sub),
        HirKind::Repetition(_) => Holds::nothing(),
        HirKind::Capture(cap) => walk(&cap.sub),
        HirKind::Concat(subs) => {
            let mut must = ByteSet::default();
            let mut best = None;
            for h in subs.iter().map(walk) {
                must.union(&h.must);
                best = cheaper(best, h.best);
            }
            Holds::new(must, best)
        }
        HirKind::Alternation(subs) => {
            let branches: Vec<Holds> = subs.iter().map(walk).collect();
            let mut must = branches[0].must;
            branches.iter().for_each(|h| must.intersect(&h.must));
            // One set per branch, joined.
            let mut joined = ByteSet::default();
            for h in &branches {
                match &h.best {
                    Some((bytes, _)) => bytes.iter().for_each(|&b| joined.insert_range(b, b)),
                    None => return Holds::new(must, None),
                }
            }
            Holds::new(must, as_best(&joined))
        }
    }
}

/// The first bytes of a class's characters (its bytes, for a byte class):
/// a superset for a Unicode range past ASCII, whose characters' leading
/// bytes run from its first's to its last's.
fn first_bytes(class: &Class) -> ByteSet {
    let mut set = ByteSet::default();
    match class {
        Class::Bytes(c) => c.iter().for_each(|r| set.insert_range(r.start(), r.end())),
        Class::Unicode(c) => {
            for r in c.iter() {
                let lead = |ch: char| ch.encode_utf8(&mut [0; 4]).as_bytes()[0];
                set.insert_range(lead(r.start()), lead(r.end()));
            }
        }
    }
    set
}

#[cfg(test)]
mod tests;
