//! A regex's ends trimmed where only whether a line matches counts.
//!
//! A search that asks only *which lines* match (`Config::lines_only`: no
//! `-o`, colour, JSON or `--count-matches`) needs no more of a leading or
//! trailing repetition than its fewest copies: if `X{2,50}Y` matches, the
//! last two copies of `X` and `Y` match too, inside the same line; an
//! `X{0,50}?` in front can go. Real rule packs are written that way:
//! gitleaks' secret rules begin with `[\w.-]{0,50}?` and end with
//! `[\w-]{50,1000}`, and with Unicode `\w` such a rule compiled to 130 MB of
//! automaton, so that its 221 rules together overran the pack's limit (rule
//! pack too large) where trimmed they need a fraction of it.
//!
//! Only the very start and end of the expression are trimmed: the first
//! (last) item of a concatenation, through groups and into every branch
//! of an alternation. An anchor or a word boundary there (`-x`, `-w`, `^`)
//! stops it, as it ties the match to its place.

use crate::config::Config;
use regex_syntax::hir::{Hir, HirKind, Repetition};

/// Which repetitions at the ends are cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Every one (a rule pack's rules).
    All,
    /// Only counted ones of [`LARGE_SPAN`] copies or more between their
    /// fewest and most (one regex). A small or open one is left: the
    /// regex's finder is chosen from its shape, and `[0-9]{1,3}\.` cut to
    /// `[0-9]\.` made IPv4's 100 three-byte prefixes its literals instead of
    /// windows of byte classes (200 MB of CI logs, 2 cores: 0.09 → 0.41 s).
    Large,
}

/// Fewest copies a repetition must be able to drop to be cut under
/// [`Cut::Large`]: the size of a counted repetition's automaton, which an
/// open one (a loop) does not have.
pub const LARGE_SPAN: u32 = 16;

/// `h`, matching in the same lines, with the repetitions at its ends (those
/// `cut` names) cut to their fewest copies.
pub fn for_lines(h: Hir, cut: Cut) -> Hir {
    let h = trim(h, End::Front, cut);
    trim(h, End::Back, cut)
}

/// `h` trimmed as [`for_lines`] where `cfg` asks only which lines match
/// (`Config::lines_only`), else as it is.
pub fn where_lines_count(h: Hir, cfg: &Config, cut: Cut) -> Hir {
    match cfg.lines_only() {
        true => for_lines(h, cut),
        false => h,
    }
}

#[derive(Clone, Copy)]
enum End {
    Front,
    Back,
}

fn trim(h: Hir, end: End, cut: Cut) -> Hir {
    if !trimmable(&h, end, cut) {
        return h;
    }
    match h.into_kind() {
        HirKind::Repetition(rep) => fewest(rep),
        HirKind::Capture(mut cap) => {
            let sub = std::mem::replace(&mut *cap.sub, Hir::empty());
            cap.sub = Box::new(trim(sub, end, cut));
            Hir::capture(cap)
        }
        HirKind::Concat(mut subs) => {
            let at = match end {
                End::Front => 0,
                End::Back => subs.len() - 1,
            };
            let item = std::mem::replace(&mut subs[at], Hir::empty());
            subs[at] = trim(item, end, cut);
            Hir::concat(subs)
        }
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(|s| trim(s, end, cut)).collect())
        }
        // `trimmable` is false for the others: they come back as they were.
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(l) => Hir::literal(l.0),
        HirKind::Class(c) => Hir::class(c),
        HirKind::Look(l) => Hir::look(l),
    }
}

/// Whether trimming `h` at `end` could change it (so rebuilding is due).
fn trimmable(h: &Hir, end: End, cut: Cut) -> bool {
    match h.kind() {
        HirKind::Repetition(rep) => match (cut, rep.max) {
            (_, Some(max)) if max == rep.min => false,
            (Cut::All, _) => true,
            (Cut::Large, Some(max)) => max - rep.min >= LARGE_SPAN,
            (Cut::Large, None) => false,
        },
        HirKind::Capture(cap) => trimmable(&cap.sub, end, cut),
        HirKind::Concat(subs) => {
            let item = match end {
                End::Front => subs.first(),
                End::Back => subs.last(),
            };
            item.is_some_and(|s| trimmable(s, end, cut))
        }
        HirKind::Alternation(subs) => subs.iter().any(|s| trimmable(s, end, cut)),
        _ => false,
    }
}

/// `X{n,m}` as `X{n}`; `X{0,m}` as nothing.
fn fewest(rep: Repetition) -> Hir {
    match rep.min {
        0 => Hir::empty(),
        n => Hir::repetition(Repetition {
            min: n,
            max: Some(n),
            greedy: true,
            sub: rep.sub,
        }),
    }
}

#[cfg(test)]
pub(crate) mod tests;
