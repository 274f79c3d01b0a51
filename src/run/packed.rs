//! A file's output packed (LZ4) while it waits for a directory's listing.
//!
//! The printer prints a directory's files in name order, so nothing of a
//! large directory is printed before its listing ends; on 16 cores every
//! file of such a directory has been searched by then (20,512 prose files:
//! one thread lists them in about 21 ms, half of the search), and their
//! whole output waits: `-n -F kernel` held 7 MB of it, and gpugrep's peak
//! memory was about twice ripgrep's (which prints in the order its threads
//! finish). So once more than `Lead`'s packing bound waits for a listing,
//! each result found is packed by the thread that searched it, and
//! unpacked by the printer as it writes it (that output packs to 35 % of
//! its size with `lz4 -1`; on the H200 host the peak went 23.4 → 21.5 MB
//! against ripgrep's 11.9 MB, at the same speed).

use super::one::FileResult;
use std::cell::RefCell;
use std::io::{self, Write};

/// Outputs shorter than this are left as they are (a count, a name).
const PACK_FROM: usize = 256;

/// Outputs longer than this are left as they are: a file's output past a
/// part (1 MiB) goes to the printer in parts as it is found.
const PACK_UP_TO: usize = 1 << 20;

thread_local! {
    /// Room for the longest packed output, reused from file to file.
    static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Whether `r`'s output is of a size worth packing (checked before the
/// printer's lead, which all threads update).
pub(super) fn packable(r: &FileResult) -> bool {
    !r.packed && (PACK_FROM..=PACK_UP_TO).contains(&r.out.len())
}

/// Packs `r`'s output, when it is worth it, into an exact-size buffer: its
/// length as 4 bytes (little-endian), then the LZ4 block. Left as it is
/// unless packing saves a quarter.
pub(super) fn pack(r: &mut FileResult) {
    if !packable(r) {
        return;
    }
    let len = r.out.len();
    let packed = SCRATCH.with(|s| {
        let mut scratch = s.borrow_mut();
        scratch.resize(4 + lz4_flex::block::get_maximum_output_size(len), 0);
        let n = lz4_flex::block::compress_into(&r.out, &mut scratch[4..]).ok()?;
        let at = u32::try_from(len).ok()?;
        scratch[..4].copy_from_slice(&at.to_le_bytes());
        (4 + n < len / 4 * 3).then(|| scratch[..4 + n].to_vec())
    });
    if let Some(packed) = packed {
        r.out = packed;
        r.packed = true;
    }
}

/// Writes a packed output to `out`, unpacked into `buf` (the printer's).
pub(super) fn unpack_into(packed: &[u8], buf: &mut Vec<u8>, out: &mut dyn Write) -> io::Result<()> {
    let broken = |what: &str| io::Error::other(format!("internal error: packed output: {what}"));
    let (len, block) =
        lz4_flex::block::uncompressed_size(packed).map_err(|e| broken(&e.to_string()))?;
    buf.clear();
    buf.resize(len, 0);
    let n = lz4_flex::block::decompress_into(block, buf).map_err(|e| broken(&e.to_string()))?;
    if n != len {
        return Err(broken("short block"));
    }
    out.write_all(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn result(out: Vec<u8>) -> FileResult {
        FileResult {
            out,
            ..FileResult::default()
        }
    }

    fn unpacked(r: &FileResult) -> Vec<u8> {
        let mut written = Vec::new();
        match r.packed {
            true => unpack_into(&r.out, &mut Vec::new(), &mut written).unwrap(),
            false => written.extend_from_slice(&r.out),
        }
        written
    }

    proptest! {
        /// Whatever is packed unpacks to itself; lines that repeat (a
        /// file's name before each) are packed.
        #[test]
        fn packed_output_unpacks_to_itself(
            lines in prop::collection::vec(prop::collection::vec(prop::sample::select(b"ab:\n".to_vec()), 0..40), 0..200),
        ) {
            let mut out = Vec::new();
            for l in &lines {
                out.extend_from_slice(b"some/dir/name.txt:");
                out.extend_from_slice(l);
                out.push(b'\n');
            }
            let mut r = result(out.clone());
            pack(&mut r);
            prop_assert_eq!(r.packed, out.len() >= PACK_FROM);
            prop_assert_eq!(unpacked(&r), out);
            // Packed once only.
            let before = r.out.clone();
            pack(&mut r);
            prop_assert_eq!(&r.out, &before);
        }
    }

    #[test]
    fn short_long_and_incompressible_outputs_stay_as_they_are() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let noise: Vec<u8> = (0..4096)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng as u8
            })
            .collect();
        for out in [b"name:3\n".to_vec(), noise, vec![b'a'; PACK_UP_TO + 1]] {
            let mut r = result(out.clone());
            pack(&mut r);
            assert!(!r.packed);
            assert_eq!(r.out, out);
        }
    }

    #[test]
    fn a_packed_output_is_an_exact_size_buffer() {
        let mut r = result(b"dir/file:1:the same line\n".repeat(100));
        pack(&mut r);
        assert!(r.packed);
        assert_eq!(r.out.capacity(), r.out.len());
        assert!(r.out.len() < 2500 / 4);
    }
}
