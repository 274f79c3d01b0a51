//! A rule cut to its ASCII bytes: on a line of ASCII bytes no match can
//! hold another byte, so there the cut rule matches exactly where the
//! rule does (`book` runs it on such lines; it is much smaller: Unicode
//! classes become one position).

use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, HirKind, Repetition};

/// `h` with every class cut to its ASCII bytes and every non-ASCII
/// literal made to fail.
pub fn ascii_only(h: &Hir) -> Hir {
    let ascii = ClassBytes::new([ClassBytesRange::new(0, 0x7F)]);
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => h.clone(),
        HirKind::Literal(l) => match l.0.is_ascii() {
            true => h.clone(),
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
        HirKind::Repetition(r) => Hir::repetition(Repetition {
            sub: Box::new(ascii_only(&r.sub)),
            ..r.clone()
        }),
        HirKind::Capture(c) => ascii_only(&c.sub),
        HirKind::Concat(v) => Hir::concat(v.iter().map(ascii_only).collect()),
        HirKind::Alternation(v) => Hir::alternation(v.iter().map(ascii_only).collect()),
    }
}
