//! The split rule-pack search kind: a pack's rules with a good literal
//! (`pattern::compile::split`) found by the `multi` kernel, the others by
//! the `automaton` kernel, one after the other over the same resident
//! chunk. The automaton runs second with `merge` set (kernels/automaton.cu):
//! it ORs the lines it selects into the bitmap the `multi` kernel left and
//! counts the union, so the result is one bitmap and its tile counts, as
//! for every kind, and nothing after the launch knows there were two.
//!
//! Why two kernels rather than one automaton: the automaton costs one
//! thread per line and work per state word, so thousands of rules are
//! slow there (1,000 rules over 2 GiB: 24.7 s), while the literal kernel's
//! cost barely grows with the set. Only the rules without a literal of 3
//! bytes or more are left to the automaton, which then has few positions.
//!
//! With a rule book (`glushkov::book`), the `confirm` kernel runs between
//! the two: it turns the literal starts into the starts of the lines whose
//! rules match (`confirm.rs`), so what the kind reports are line starts.
//! Everything the kind reports is a candidate for the CPU's printing: a
//! literal's start (the line around it is confirmed against the rules
//! owning the literal) or the start of a line the book or the automaton
//! selected; when every rule is exact on the GPU (`GpuPlan::exact_lines`),
//! they are exactly the selected lines, and counts are tallied on the GPU. Like the automaton's, a match
//! has no bounded length, so cut files overlap by whole lines
//! (`Target::cut_overlap`).

use super::automaton;
use super::confirm;
use super::context::Device;
use super::kind::{Chain, Kind};
use super::multi::{self, MultiTables};
use super::GpuError;
use crate::pattern::glushkov::book::RuleBook;
use crate::pattern::glushkov::Automaton;

/// A split pack on the GPU: the literals of the rules that have good ones,
/// those rules' own automata that confirm their lines (if any), and the
/// automaton of the rest (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub literals: MultiTables,
    pub book: Option<RuleBook>,
    pub automaton: Option<Automaton>,
    /// The marks are exactly the selected lines' starts.
    pub exact_lines: bool,
}

/// The kernels' tables on the GPU (a lane keeps one kind's tables).
#[derive(Default)]
struct Tables {
    literals: multi::Tables,
    book: confirm::Tables,
    automaton: automaton::Tables,
}

impl Kind for Split {
    fn shortest(&self) -> usize {
        1
    }

    fn longest(&self) -> usize {
        (self.literals.maxlen as usize).max(1)
    }

    fn match_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        // A candidate point (a line start or a literal's start).
        (at < hay.len()).then_some(0)
    }

    fn reference(&self, text: &[u8]) -> Vec<u64> {
        self.reference_sure(text).0
    }

    /// The CPU mirror: the literal starts (or, with a book, the lines it
    /// confirms from them, and whether it was sure of each) and the
    /// automaton's lines, ascending.
    fn reference_sure(&self, text: &[u8]) -> (Vec<u64>, bool) {
        let mut starts = self.literals.reference(text);
        let mut sure = true;
        if let Some(b) = &self.book {
            let (lines, unsure) = b.confirm(text, &starts);
            (starts, sure) = (lines, !unsure);
        }
        if let Some(a) = &self.automaton {
            let (lines, a_sure) = a.reference_sure(text);
            // Its flag is the book's (`launch`).
            sure &= a_sure || self.book.is_none();
            starts.extend(lines);
            starts.sort_unstable();
            starts.dedup();
        }
        (starts, sure)
    }

    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError> {
        let mut t = dev.take_tables::<Tables>();
        let r = (|| {
            self.literals.upload(dev, &mut t.literals)?;
            if let Some(b) = &self.book {
                confirm::upload(b, dev, &mut t.book)?;
            }
            if let Some(a) = &self.automaton {
                automaton::upload(a, dev, &mut t.automaton)?;
            }
            self.literals.launch_with(dev, &t.literals)?;
            if let Some(b) = &self.book {
                confirm::launch_with(b, dev, &mut t.book)?;
            }
            if let Some(a) = &self.automaton {
                // Under -w its lines past ASCII are unsure as the book's are.
                let unsure = self.book.as_ref().map(|_| confirm::unsure_flag(&t.book));
                automaton::launch_with(a, dev, &t.automaton, true, unsure)?;
            }
            Ok(())
        })();
        dev.keep_tables(t);
        r.map(|()| match (&self.book, &self.automaton) {
            (Some(_), Some(_)) => "multi+confirm+automaton",
            (Some(_), None) => "multi+confirm",
            _ => "multi+automaton",
        })
    }

    /// The book's unsure lines, and under `-w` the automaton's (its lines
    /// past ASCII, which it leaves to the book's flag).
    fn unsure_only_past_ascii(&self) -> bool {
        self.book
            .as_ref()
            .is_some_and(RuleBook::unsure_only_past_ascii)
    }

    fn sure(&self, dev: &Device) -> Result<bool, GpuError> {
        match (&self.book, dev.tables::<Tables>()) {
            (Some(_), Some(t)) => confirm::sure(dev, &t.book),
            (Some(_), None) => Ok(false),
            (None, _) => Ok(true),
        }
    }

    fn chain(&self, _: &Device) -> Result<Chain, GpuError> {
        // Tallied only when its marks are exactly the selected lines' starts
        // (`Target::exact_lines`): one "match" of one byte per line.
        Ok(Chain::fixed(1))
    }
}
