//! The character-boundary back-read on the GPU (`backread` in
//! `kernels/backread.cu`), its launch, and its CPU mirror.
//!
//! In a legacy multi-byte encoding a raw search for a transcoded pattern
//! also hits inside characters (an ASCII letter is the trail byte of many
//! kanji). The `backread` kernel runs after the search kernel and before the
//! counts: it clears the candidates that the back-read of
//! [`crate::encoding::boundary`] proves are not character starts, so they
//! never ship back, and a chunk dense only in false candidates stays on the
//! GPU instead of falling back to the CPU.
//!
//! The filter is sound, not exact: it never clears a character start, and
//! it keeps a candidate it cannot decide (no sure byte within [`WALK_CAP`]
//! bytes before it, or the chunk's start reached when that is not a
//! character start). The CPU's `BoundaryMatcher` still confirms every
//! survivor, start and end. Only starts are checked here: the pattern is
//! whole characters, so from a character start its end is one too.
//!
//! [`filter`] is the kernel line by line on the CPU: the simulated
//! pipeline runs it, and tests/gpu_differential.rs compares the two.

use cudarc::driver::{LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels::{self, BLOCK};
use super::memory::up;
use super::GpuError;
use crate::encoding::boundary::Scheme;

/// Most bytes the walk back goes before it keeps the candidate undecided
/// (backread.cu `WALK_CAP`).
pub const WALK_CAP: usize = 4096;

/// Text bytes whose candidates one kernel thread checks with one walk
/// (four bitmap words: the kernel's thread ownership).
pub const GROUP_BYTES: u64 = 128;

/// The back-read a chunk gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backread {
    pub scheme: Scheme,
    /// The chunk's first byte starts a character (it starts a file); false
    /// for a piece that continues a file cut at the previous chunk's end.
    pub start_is_boundary: bool,
}

/// The kernel's id for `scheme` (backread.cu `SHIFT_JIS` ... `GB18030`).
pub(crate) fn scheme_id(scheme: Scheme) -> i32 {
    match scheme {
        Scheme::ShiftJis => 0,
        Scheme::EucJp => 1,
        Scheme::EucKr => 2,
        Scheme::Big5 => 3,
        Scheme::Gb18030 => 4,
    }
}

/// The walk back from candidate `p` (backread.cu `walk_back`): just after
/// the nearest sure byte before `p`, or 0 when the text starts a character;
/// `None` when undecidable. `fence` is 0 or an earlier candidate whose walk
/// was undecided: reaching it without a sure byte is undecided too.
fn walk_back(text: &[u8], p: usize, fence: usize, b: Backread) -> Option<usize> {
    let mut s = p;
    while s > fence && !b.scheme.sure_after(text[s - 1]) {
        if p - s == WALK_CAP {
            return None;
        }
        s -= 1;
    }
    (s > fence || (s == 0 && b.start_is_boundary)).then_some(s)
}

/// The `backread` kernel on the CPU: removes from `starts` (ascending
/// candidate starts in `text`) those that are provably not character
/// starts. Candidates are visited in groups of [`GROUP_BYTES`] with one
/// walk each, as the kernel's threads do.
pub fn filter(text: &[u8], starts: &mut Vec<u64>, b: Backread) {
    let mut group = u64::MAX;
    // A character start reached by the group's walk (`known` in the kernel).
    let mut at: Option<usize> = None;
    let mut fence = 0;
    starts.retain(|&o| {
        if o / GROUP_BYTES != group {
            group = o / GROUP_BYTES;
            at = None;
            fence = 0;
        }
        let p = match usize::try_from(o) {
            Ok(p) if p < text.len() => p,
            _ => return true, // never set by the search kernels
        };
        if at.is_none() {
            at = walk_back(text, p, fence, b);
        }
        let Some(q) = at.as_mut() else {
            fence = p;
            return true; // undecidable: kept
        };
        while *q < p {
            *q += b.scheme.char_len(text, *q);
        }
        *q == p
    });
}

impl Device {
    /// Launches `backread` over the resident text and the bitmap a search
    /// kernel just filled (uploading the scheme's pair table when needed):
    /// clears candidates inside characters and rewrites the tile counts.
    pub(super) fn launch_backread(&mut self, b: Backread) -> Result<(), GpuError> {
        if self.pairs_loaded != Some(b.scheme) {
            self.pairs_loaded = None;
            // The table is on the stack, pageable: staged when `up` returns.
            up(&self.stream, &mut self.pairs, &b.scheme.ascii_pair_words())?;
            self.pairs_loaded = Some(b.scheme);
        }
        let n = self.resident;
        let tiles = kernels::tiles_for(n);
        let scheme = scheme_id(b.scheme);
        let start = i32::from(b.start_is_boundary);
        let cfg = LaunchConfig {
            grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut l = self.stream.launch_builder(&self.f.backread);
        l.arg(self.text.get("backread")?)
            .arg(&n)
            .arg(self.bitmap.get("backread")?)
            .arg(self.counts.get("backread")?)
            .arg(&tiles)
            .arg(&scheme)
            .arg(self.pairs.get("backread")?)
            .arg(&start);
        // SAFETY: arguments match backread's launch contract (backread.cu):
        // block of BLOCK = 256 threads; text holds n bytes, bitmap
        // tiles*TILE_WORDS words (16-byte aligned: a fresh allocation, tiles
        // of 4 KiB) filled by the search kernel just launched on this
        // stream, counts `tiles`, pairs 512 words (ascii_pair_words); scheme is
        // 0..4 (scheme_id).
        unsafe { l.launch(cfg) }.map_err(cuda("launching backread"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kept(text: &[u8], cands: &[u64], b: Backread) -> Vec<u64> {
        let mut v = cands.to_vec();
        filter(text, &mut v, b);
        v
    }

    /// Bytes biased towards lead, trail and digit bytes and ASCII.
    fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
        let interesting = prop::sample::select(vec![
            0x0au8, 0x20, 0x30, 0x35, 0x39, 0x40, 0x41, 0x5c, 0x62, 0x7e, 0x7f, 0x80, 0x81, 0x85,
            0x8e, 0x8f, 0x9f, 0xa0, 0xa1, 0xa4, 0xb0, 0xc8, 0xdf, 0xe0, 0xfc, 0xfd, 0xfe, 0xff,
        ]);
        let leads = prop::sample::select(vec![0x81u8, 0x8f, 0x95, 0xa1, 0xb3, 0xe0, 0xfe]);
        prop::collection::vec(
            prop_oneof![3 => interesting, 3 => leads, 1 => any::<u8>()],
            0..max,
        )
    }

    /// Ascending distinct candidates in `0..len`, from a mask.
    fn candidates(mask: &[bool], len: usize) -> Vec<u64> {
        (0..len)
            .filter(|&i| mask.get(i).copied().unwrap_or(true))
            .map(|i| i as u64)
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Soundness: the filter never removes a character start of the
        /// whole file, whatever the chunk holds of it (`text` between
        /// `before` and `after`, as a piece of a cut file), for every
        /// scheme.
        #[test]
        fn never_removes_a_character_start(
            before in bytes(12), text in bytes(300), after in bytes(6),
            mask in prop::collection::vec(any::<bool>(), 300), k in 0usize..5,
        ) {
            let scheme = Scheme::ALL[k];
            let file: Vec<u8> = [&before[..], &text[..], &after[..]].concat();
            let b = Backread { scheme, start_is_boundary: before.is_empty() };
            let cands = candidates(&mask, text.len());
            let kept = kept(&text, &cands, b);
            for c in cands.iter().filter(|c| !kept.contains(c)) {
                let p = before.len() + *c as usize;
                prop_assert!(!scheme.is_boundary(&file, p), "{scheme:?} removed {c} of {text:02x?}");
            }
        }

        /// Exactness: when the walk is decidable (the text starts a
        /// character, no walk reaches the cap), the survivors are exactly
        /// the candidates `Scheme::is_boundary` accepts.
        #[test]
        fn equals_is_boundary_when_decidable(
            text in bytes(600),
            mask in prop::collection::vec(any::<bool>(), 600), k in 0usize..5,
        ) {
            let scheme = Scheme::ALL[k];
            let b = Backread { scheme, start_is_boundary: true };
            let cands = candidates(&mask, text.len());
            let want: Vec<u64> = cands
                .iter()
                .copied()
                .filter(|&c| scheme.is_boundary(&text, c as usize))
                .collect();
            prop_assert_eq!(kept(&text, &cands, b), want);
        }
    }

    #[test]
    fn shift_jis_trail_letters_are_removed() {
        // ア = 83 41, 院 = 89 40 (`@`), then a real `A`.
        let text = b"\x83\x41\x89\x40A\x83\x41";
        let b = Backread {
            scheme: Scheme::ShiftJis,
            start_is_boundary: true,
        };
        assert_eq!(kept(text, &[1, 3, 4, 6], b), vec![4]);
        // A continuation piece: the walk from 1 reaches the chunk's start
        // (kept); the one from 3 stops at the sure byte `A` before it.
        let cont = Backread {
            start_is_boundary: false,
            ..b
        };
        assert_eq!(kept(text, &[1, 3, 4, 6], cont), vec![1, 4]);
    }

    #[test]
    fn the_walk_back_stops_at_the_cap() {
        // Lead bytes pair up; the last one pairs with `A` (81 41 is one
        // character), so `A` is a trail byte.
        let b = Backread {
            scheme: Scheme::ShiftJis,
            start_is_boundary: true,
        };
        for (leads, kept_a) in [(WALK_CAP - 1, false), (WALK_CAP + 1, true)] {
            let mut text = vec![0x81u8; leads];
            text.push(b'A');
            assert!(!Scheme::ShiftJis.is_boundary(&text, leads));
            let a = leads as u64;
            assert_eq!(kept(&text, &[a], b) == [a], kept_a, "{leads} leads");
        }
    }

    #[test]
    fn one_walk_serves_a_group() {
        // Candidates after an undecidable one walk back again; a decided
        // walk carries on to the group's later candidates.
        let mut text = vec![0x81u8; WALK_CAP + 1];
        text.extend_from_slice(b"A\x81A-A\x81A");
        let at = |i: usize| (WALK_CAP + 1 + i) as u64;
        let b = Backread {
            scheme: Scheme::ShiftJis,
            start_is_boundary: true,
        };
        let cands = [at(0), at(2), at(4), at(6)];
        // `A` after 81 is a trail. at(0) is undecided (the cap); at(2)
        // walks back to the `A` before its 81, and at(4) and at(6) go on
        // from there.
        let want: Vec<u64> = cands
            .iter()
            .copied()
            .filter(|&c| c == at(0) || Scheme::ShiftJis.is_boundary(&text, c as usize))
            .collect();
        assert_eq!(kept(&text, &cands, b), want);
        assert_eq!(want, vec![at(0), at(4)]);
    }

    #[test]
    fn undecided_walks_fence_the_next() {
        // One group (128 bytes) in a run of lead bytes longer than the cap:
        // every candidate is undecided, the later ones at their fence.
        let text = vec![0x81u8; 2 * WALK_CAP];
        let g = (WALK_CAP + 512) as u64;
        let cands = [g, g + 1, g + 2, g + 127];
        for start_is_boundary in [true, false] {
            let b = Backread {
                scheme: Scheme::ShiftJis,
                start_is_boundary,
            };
            assert_eq!(kept(&text, &cands, b), cands);
        }
        // Not a continuation, within reach of the start: decided, exactly.
        let b = Backread {
            scheme: Scheme::ShiftJis,
            start_is_boundary: true,
        };
        assert_eq!(kept(&text, &[1, 2, 3, 130], b), vec![2, 130]);
        // A continuation: undecided up to the first sure byte; after the
        // `-` at 200, 201 and 202 are one character.
        let mut text = vec![0x81u8; 300];
        text[200] = b'-';
        let b = Backread {
            start_is_boundary: false,
            ..b
        };
        assert_eq!(
            kept(&text, &[1, 2, 3, 130, 202, 203], b),
            vec![1, 2, 3, 130, 203]
        );
    }

    /// The separator between packed files (the line terminator, `\n` or
    /// NUL) is a sure byte and never completes a character, in every
    /// scheme: the walk stops at it, and reading it past a line's end is
    /// reading the line's end.
    #[test]
    fn terminators_separate_characters() {
        for s in Scheme::ALL {
            for t in [b'\n', 0] {
                assert!(s.sure_after(t), "{s:?}");
                for lead in 0x80..=0xffu8 {
                    assert_eq!(s.char_len(&[lead, t], 0), 1, "{s:?} {lead:02x}");
                }
            }
        }
    }

    #[test]
    fn scheme_ids_are_distinct_and_in_range() {
        let ids: Vec<i32> = Scheme::ALL.iter().map(|&s| scheme_id(s)).collect();
        assert_eq!(ids, vec![0, 1, 2, 3, 4]);
    }
}
