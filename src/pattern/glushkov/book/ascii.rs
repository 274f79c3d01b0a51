//! A rule cut to its ASCII bytes: on a line of ASCII bytes no match can
//! hold another byte, so there the cut rule matches exactly where the
//! rule does (`book` runs it on such lines; it is much smaller: Unicode
//! classes become one position).

use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, HirKind, Repetition};

/// `h` with every class cut to its ASCII bytes and every non-ASCII
/// literal made to fail.
pub fn ascii_only(h: &Hir) -> Hir {
    let ascii = ClassBytes::new([ClassBytesRange::new(0, 0x7F)]);
    map_leaves(h, &|leaf| match leaf.kind() {
        HirKind::Literal(l) => match l.0.is_ascii() {
            true => leaf.clone(),
            false => Hir::fail(),
        },
        HirKind::Class(c) => {
            let mut bytes = match c {
                Class::Bytes(b) => b.clone(),
                Class::Unicode(u) => ClassBytes::new(
                    u.iter()
                        .filter(|r| r.start() <= '\x7f')
                        .map(|r| ClassBytesRange::new(r.start() as u8, r.end().min('\x7f') as u8)),
                ),
            };
            bytes.intersect(&ascii);
            Hir::class(Class::Bytes(bytes))
        }
        _ => leaf.clone(),
    })
}

/// `h` with each literal and class replaced by `leaf` of it, its groups
/// dropped (captures mean nothing to the automata).
pub fn map_leaves(h: &Hir, leaf: &dyn Fn(&Hir) -> Hir) -> Hir {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => h.clone(),
        HirKind::Literal(_) | HirKind::Class(_) => leaf(h),
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(map_leaves(&r.sub, leaf)),
            ..r.clone()
        }),
        HirKind::Capture(c) => map_leaves(&c.sub, leaf),
        HirKind::Concat(v) => Hir::concat(v.iter().map(|x| map_leaves(x, leaf)).collect()),
        HirKind::Alternation(v) => {
            Hir::alternation(v.iter().map(|x| map_leaves(x, leaf)).collect())
        }
    }
}

/// Whether `h` holds a byte past ASCII (a literal's, or a class's): else
/// [`ascii_only`] of it matches the same (a Unicode class of ASCII ranges
/// becomes a byte class, which compares unequal).
pub fn reaches_past_ascii(h: &Hir) -> bool {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(l) => !l.0.is_ascii(),
        HirKind::Class(Class::Bytes(b)) => b.ranges().last().is_some_and(|r| r.end() > 0x7F),
        HirKind::Class(Class::Unicode(u)) => u.ranges().last().is_some_and(|r| r.end() > '\x7f'),
        HirKind::Repetition(r) => reaches_past_ascii(&r.sub),
        HirKind::Capture(c) => reaches_past_ascii(&c.sub),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().any(reaches_past_ascii),
    }
}

/// How much of `h`'s automaton lies past ASCII, roughly: each Unicode
/// class's ranges past ASCII once for every copy a repetition makes of it
/// (its most, or its fewest and one more when open), summed. Unicode `\w`
/// compiles to about 24 KiB of forward automaton a copy (gitleaks'
/// `[\w.-]{0,50}?` ... rules: 1.2 MiB), some tens of bytes a range.
pub fn past_ascii_weight(h: &Hir) -> usize {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) | HirKind::Class(Class::Bytes(_)) => 0,
        HirKind::Literal(l) => usize::from(!l.0.is_ascii()),
        HirKind::Class(Class::Unicode(u)) => u.iter().filter(|r| r.end() > '\x7f').count(),
        HirKind::Repetition(r) => {
            let copies = r.max.unwrap_or(r.min.saturating_add(1)).max(1);
            past_ascii_weight(&r.sub).saturating_mul(copies as usize)
        }
        HirKind::Capture(c) => past_ascii_weight(&c.sub),
        HirKind::Concat(v) | HirKind::Alternation(v) => v
            .iter()
            .map(past_ascii_weight)
            .fold(0, usize::saturating_add),
    }
}
