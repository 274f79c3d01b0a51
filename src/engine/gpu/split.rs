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
//! Everything the kind reports is a candidate: a literal's start (the line
//! around it is confirmed against the rules owning the literal) or the
//! start of a line the automaton selected. Like the automaton's, a match
//! has no bounded length, so cut files overlap by whole lines
//! (`Target::cut_overlap`).

use super::automaton;
use super::context::Device;
use super::kind::{Chain, Kind};
use super::multi::{self, MultiTables};
use super::GpuError;
use crate::pattern::glushkov::Automaton;

/// A split pack on the GPU: the literals of the rules that have good ones,
/// and the automaton of the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub literals: MultiTables,
    pub automaton: Automaton,
}

/// Both kernels' tables on the GPU (a lane keeps one kind's tables).
#[derive(Default)]
struct Tables {
    literals: multi::Tables,
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

    /// The CPU mirror: the union of both kernels' starts, ascending.
    fn reference(&self, text: &[u8]) -> Vec<u64> {
        let mut starts = self.literals.reference(text);
        starts.extend(self.automaton.reference(text));
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError> {
        let mut t = dev.take_tables::<Tables>();
        let r = (|| {
            self.literals.upload(dev, &mut t.literals)?;
            automaton::upload(&self.automaton, dev, &mut t.automaton)?;
            self.literals.launch_with(dev, &t.literals)?;
            automaton::launch_with(&self.automaton, dev, &t.automaton, true)
        })();
        dev.keep_tables(t);
        r.map(|()| "multi+automaton")
    }

    fn chain(&self, _: &Device) -> Result<Chain, GpuError> {
        // Never tallied (its offsets are candidates, never final).
        Ok(Chain::fixed(1))
    }
}
