//! The rule-pack search kind: a pack's Glushkov automaton
//! (`pattern::glushkov`) run over every line of the chunk by the
//! `automaton` kernel (kernels/automaton.cu), which marks the start of each
//! line it selects. Those are candidates: the pipeline's per-file matcher
//! hands each line to the regex to confirm, so output never depends on the
//! automaton being exact.
//!
//! The tables are built and tested on the CPU (`glushkov`, whose
//! `reference` is this kernel step for step); here they are uploaded once
//! per lane and the kernel launched. The mask table goes to shared memory
//! when it fits ([`SHARED_MASK_BYTES`]).
//!
//! A match has no bounded length: the kind's lengths are one byte (a
//! line start inside its piece), and files cut across chunks overlap by
//! whole lines instead (`Target::cut_overlap`, `run::gpu::lane`).

use cudarc::driver::{LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels::{self, BLOCK};
use super::kind::{Chain, Kind};
use super::memory::{up, Buf};
use super::GpuError;
use crate::pattern::glushkov::Automaton;

/// Most bytes of masks put in shared memory (beside the 256-byte class
/// map and the block's scratch, under the default 48 KiB).
pub const SHARED_MASK_BYTES: usize = 40 * 1024;

/// The kernel's tables on the GPU.
#[derive(Default)]
pub(super) struct Tables {
    class_of: Buf<u8>,
    /// masks, class_starts, shift, self_loop, first_any, first_bol,
    /// last_any, last_eol, has_exc, exc_map, exc_start, exc_word, exc_mask.
    words: [Buf<u32>; 13],
    /// The kernel's `unsure` flag where no other is given (`launch_with`).
    unsure: Buf<u32>,
    loaded: Option<u64>,
}

/// `v`, or one zero word for an empty table (a buffer is never empty).
fn nonempty(v: &[u32]) -> &[u32] {
    if v.is_empty() {
        &[0]
    } else {
        v
    }
}

pub(super) fn upload(a: &Automaton, dev: &Device, t: &mut Tables) -> Result<(), GpuError> {
    if t.loaded == Some(a.id) {
        return Ok(());
    }
    t.loaded = None;
    let s = &dev.stream;
    up(s, &mut t.class_of, &a.class_of)?;
    let [shift, self_loop, first_any, first_bol, last_any, last_eol] = a.word_tables();
    let tables: [&[u32]; 13] = [
        &a.masks,
        &a.class_starts,
        shift,
        self_loop,
        first_any,
        first_bol,
        last_any,
        last_eol,
        &a.has_exc,
        &a.exc_map,
        &a.exc_start,
        &a.exc_word,
        &a.exc_mask,
    ];
    for (buf, data) in t.words.iter_mut().zip(tables) {
        up(s, buf, nonempty(data))?;
    }
    up(s, &mut t.unsure, &[0])?;
    s.synchronize().map_err(cuda("copying tables"))?;
    t.loaded = Some(a.id);
    Ok(())
}

/// Launches `automaton` over the resident text; with `merge`, its lines are
/// added to the bitmap and counts another kernel left (`split`). Under
/// `-w` it sets `unsure` (else a flag of its own, never read) where it
/// selects a line past ASCII as a candidate.
pub(super) fn launch_with(
    a: &Automaton,
    dev: &Device,
    t: &Tables,
    merge: bool,
    unsure: Option<&Buf<u32>>,
) -> Result<(), GpuError> {
    let n = dev.resident;
    let tiles = kernels::tiles_for(n);
    let mask_bytes = a.masks.len() * 4;
    let masks_shared = u32::from(mask_bytes <= SHARED_MASK_BYTES);
    let shared = 256 + if masks_shared == 1 { mask_bytes } else { 0 };
    let cfg = LaunchConfig {
        grid_dim: (kernels::grid_for(tiles, dev.sm_count * 8), 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: shared as u32,
    };
    let (term, words, classes) = (u32::from(a.terminator), a.words as u32, a.classes as u32);
    let ascii_words = a.ascii_words as u32;
    let empty_line = u32::from(a.empty_line);
    let merge = u32::from(merge);
    let word = u32::from(a.word);
    let unsure = unsure.unwrap_or(&t.unsure);
    let g = |i: usize| t.words[i].get("automaton");
    let mut b = dev.stream.launch_builder(&dev.f.automaton);
    b.arg(dev.text.get("automaton")?)
        .arg(&n)
        .arg(&term)
        .arg(&words)
        .arg(&classes)
        .arg(t.class_of.get("automaton")?);
    for i in 0..13 {
        b.arg(g(i)?);
    }
    b.arg(&ascii_words)
        .arg(&empty_line)
        .arg(&masks_shared)
        .arg(&merge)
        .arg(&word)
        .arg(unsure.get("automaton")?)
        .arg(dev.bitmap.get("automaton")?)
        .arg(dev.counts.get("automaton")?)
        .arg(&tiles);
    // SAFETY: arguments match automaton's launch contract (automaton.cu):
    // the tables of `a` (glushkov::build: masks of classes*words words,
    // word tables of `words` words, words <= MAX_WORDS by MAX_POSITIONS,
    // exc_map of words*32 entries naming exceptions of exc_start (one
    // start more than exceptions) into exc_word/exc_mask, ascii_words <=
    // words)
    // were uploaded by `upload`; the dynamic shared memory holds the class
    // map and, when masks_shared, the masks; text, bitmap and counts sized
    // by reserve(n); with merge, the bitmap and counts were filled for the
    // same text by a kernel launched before on this stream; `unsure` holds
    // one u32 (`upload`, or the confirm kernel's flag).
    // word is set only with ascii_words = words (`glushkov::word::build`).
    unsafe { b.launch(cfg) }.map_err(cuda("launching automaton"))?;
    Ok(())
}

impl Kind for Automaton {
    fn shortest(&self) -> usize {
        1
    }

    fn longest(&self) -> usize {
        1
    }

    fn match_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        (at < hay.len()).then_some(0)
    }

    fn reference(&self, text: &[u8]) -> Vec<u64> {
        Automaton::reference(self, text)
    }

    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError> {
        let mut t = dev.take_tables::<Tables>();
        let r = upload(self, dev, &mut t).and_then(|()| launch_with(self, dev, &t, false, None));
        dev.keep_tables(t);
        r.map(|()| "automaton")
    }

    fn chain(&self, _: &Device) -> Result<Chain, GpuError> {
        // Tallied only when its marks are exactly the selected lines' starts
        // (`Target::exact_lines`): one "match" of one byte per line.
        Ok(Chain::fixed(1))
    }
}
