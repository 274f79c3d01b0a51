//! A split pack's candidate lines confirmed on the GPU: the `confirm`
//! kernel (kernels/confirm.cu) reads the `multi` kernel's literal starts
//! and marks the start of each line that one of the literals' rules
//! matches, running each rule's own automaton (`glushkov::book`). The
//! tables are built and mirrored on the CPU (`RuleBook::reference`); here
//! they are uploaded once per lane and the kernel launched.
//!
//! A line the book cannot decide (an open rule's literal, an ASCII rule's
//! on a line with other bytes) is marked and flagged: `sure` says whether
//! the chunk had none, so its marks can be counted as lines.
//!
//! The kernel reads one bitmap and writes another, so the multi kernel's
//! result is left where it is and the confirmed lines go to a second
//! bitmap held with these tables, which then becomes the device's bitmap
//! (the buffers are swapped, not copied).

use cudarc::driver::{result, LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels::{self, BLOCK, TILE_WORDS};
use super::memory::{ptr, up, Buf};
use super::GpuError;
use crate::pattern::glushkov::book::RuleBook;

/// confirm.cu's `FOLD_FLAG`, OR'd into `slot_log2`: the literals are
/// lowered and the text is looked up folded (`RuleBook::fold`).
const FOLD_FLAG: u32 = 0x100;

/// confirm.cu's `WORD_FLAG`, OR'd into `slot_log2`: `-w`'s boundaries are in
/// the automata (`RuleBook::word`).
const WORD_FLAG: u32 = 0x200;

/// The kernel's tables on the GPU, and its output bitmap.
#[derive(Default)]
pub(super) struct Tables {
    class_of: Buf<u8>,
    bytes: Buf<u8>,
    /// heads, byte_starts, masks, tables, exc_map, exc_from, exc_to,
    /// exc_word, exc_mask, slots, keys, first, starts, owner_start, owners,
    /// required, links.
    words: [Buf<u32>; 17],
    /// The confirmed lines' bitmap (swapped with the device's).
    out: Buf<u32>,
    /// Set by the kernel when it marked a line unsure.
    unsure: Buf<u32>,
    loaded: Option<u64>,
}

/// `v`, or one zero for an empty table (a buffer is never empty).
fn nonempty<T: Copy + Default>(v: &[T]) -> Vec<T> {
    if v.is_empty() {
        vec![T::default()]
    } else {
        v.to_vec()
    }
}

pub(super) fn upload(b: &RuleBook, dev: &Device, t: &mut Tables) -> Result<(), GpuError> {
    if t.loaded == Some(b.id) {
        return Ok(());
    }
    t.loaded = None;
    let s = &dev.stream;
    up(s, &mut t.class_of, &nonempty(&b.class_of))?;
    up(s, &mut t.bytes, &nonempty(&b.bytes))?;
    let tables: [&[u32]; 17] = [
        &b.heads,
        &b.byte_starts,
        &b.masks,
        &b.tables,
        &b.exc_map,
        &b.exc_from,
        &b.exc_to,
        &b.exc_word,
        &b.exc_mask,
        &b.slots,
        &b.keys,
        &b.first,
        &b.starts,
        &b.owner_start,
        &b.owners,
        &b.required,
        &b.links,
    ];
    for (buf, data) in t.words.iter_mut().zip(tables) {
        up(s, buf, &nonempty(data))?;
    }
    // Pageable sources are staged when `up` returns; the wait keeps
    // `loaded` honest if a copy failed later on the stream.
    s.synchronize().map_err(cuda("copying tables"))?;
    t.loaded = Some(b.id);
    Ok(())
}

/// Launches `confirm` over the resident text, reading the bitmap the
/// multi kernel left; the confirmed lines then are the device's bitmap
/// and counts.
pub(super) fn launch_with(b: &RuleBook, dev: &mut Device, t: &mut Tables) -> Result<(), GpuError> {
    let n = dev.resident;
    let tiles = kernels::tiles_for(n);
    let words = usize::try_from(tiles * TILE_WORDS)
        .map_err(|_| GpuError::Cuda("text too large for this platform".into()))?;
    t.out
        .ensure(&dev.stream, words, "allocating the confirmed bitmap")?;
    up(&dev.stream, &mut t.unsure, &[0u32])?;
    // The kernel adds each warp's marks to its tile's count.
    let counts = ptr(dev.counts.get("confirm")?, &dev.stream);
    let count_bytes = words / TILE_WORDS as usize * std::mem::size_of::<u32>();
    // SAFETY: counts holds a u32 per tile of the resident text
    // (reserve(n)), so `tiles` words from its start.
    unsafe { result::memset_d8_async(counts, 0, count_bytes, dev.stream.cu_stream()) }
        .map_err(cuda("clearing the confirmed counts"))?;
    let cfg = LaunchConfig {
        grid_dim: (kernels::grid_for(tiles, dev.sm_count * 8), 1, 1),
        block_dim: (BLOCK, 1, 1),
        shared_mem_bytes: kernels::CONFIRM_SHARED,
    };
    let term = u32::from(b.terminator);
    let g = |i: usize| t.words[i].get("confirm");
    let mut l = dev.stream.launch_builder(&dev.f.confirm);
    l.arg(dev.text.get("confirm")?)
        .arg(&n)
        .arg(&term)
        .arg(dev.bitmap.get("confirm")?)
        .arg(g(0)?)
        .arg(t.class_of.get("confirm")?);
    for i in 1..9 {
        l.arg(g(i)?);
    }
    let slots =
        b.slot_log2 | if b.fold { FOLD_FLAG } else { 0 } | if b.word { WORD_FLAG } else { 0 };
    l.arg(&slots);
    for i in 9..13 {
        l.arg(g(i)?);
    }
    l.arg(t.bytes.get("confirm")?)
        .arg(g(13)?)
        .arg(g(14)?)
        .arg(g(15)?)
        .arg(g(16)?)
        .arg(t.out.get("confirm")?)
        .arg(dev.counts.get("confirm")?)
        .arg(&tiles)
        .arg(t.unsure.get("confirm")?);
    // SAFETY: arguments match confirm's launch contract (confirm.cu): the
    // book's tables (book.rs: heads of 8 words per automaton, two per
    // rule, class maps of 256 bytes, every automaton at most RULE_WORDS
    // words with an exception map entry per position, exception and
    // literal ranges inside their arrays, slots at most half full, 8
    // trigram words per rule, a link per literal: NO_SLOT or an earlier
    // literal of its key) were uploaded by `upload`; text (allocated by
    // the driver, so aligned, with PAD_BYTES past its tiles), the multi
    // kernel's bitmap (read) and counts sized by reserve(n), `out` by the
    // ensure above to the same words, counts and `unsure` zeroed above; the
    // dynamic shared memory is CONFIRM_SHARED, which modules.rs allowed;
    // the multi kernel that filled the bitmap ran before on this stream.
    unsafe { l.launch(cfg) }.map_err(cuda("launching confirm"))?;
    std::mem::swap(&mut dev.bitmap, &mut t.out);
    Ok(())
}

/// The flag `launch_with` clears and its kernel sets where a line is
/// unsure (the split's automaton kernel sets it too, after it).
pub(super) fn unsure_flag(t: &Tables) -> &Buf<u32> {
    &t.unsure
}

/// Whether the last `launch_with` marked no line unsure (its marks are
/// then exactly the lines its rules match). Waits for the stream.
pub(super) fn sure(dev: &Device, t: &Tables) -> Result<bool, GpuError> {
    let mut host = [1u32];
    let src = ptr(t.unsure.get("confirm")?, &dev.stream);
    // SAFETY: `unsure` holds one u32 (launch_with); the copy is waited for
    // just below, before `host` is read.
    unsafe { result::memcpy_dtoh_async(&mut host[..], src, dev.stream.cu_stream()) }
        .map_err(cuda("reading the unsure flag"))?;
    dev.stream
        .synchronize()
        .map_err(cuda("reading the unsure flag"))?;
    Ok(host[0] == 0)
}
