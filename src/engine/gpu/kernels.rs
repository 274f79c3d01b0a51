//! The kernels' host-side contract: embedded PTX, shared constants, the
//! automatic choice of kernel, and the launch arithmetic.
//!
//! Everything here is pure (no CUDA calls) so it is unit-tested on any
//! machine. The constants mirror `kernels/common.cuh`; the PTX of each
//! `kernels/*.cu` family is checked against the SHA-256 of its source and
//! the headers it includes by `build.rs`, and embedded through
//! `$OUT_DIR/kernels.rs` (one `NAME_PTX` constant per family).

include!(concat!(env!("OUT_DIR"), "/kernels.rs"));

/// Text bytes per tile: the unit of per-tile match counts (common.cuh `TILE_BYTES`).
pub const TILE_BYTES: u64 = 32768;
/// 32-bit bitmap words per tile (common.cuh `TILE_WORDS`).
pub const TILE_WORDS: u64 = TILE_BYTES / 32;
/// Readable bytes the device text buffer holds past the last tile
/// (`prefix4` reads 4 bytes past each 32-byte word).
pub const PAD_BYTES: u64 = 64;
/// Threads per block of `prefix4_*` and `compact`.
pub const BLOCK: u32 = 256;
/// Longest pattern the Boyer-Moore kernel takes (its tables live in shared
/// memory: 1 KiB + 5 bytes per pattern byte). Longer patterns go to
/// `prefix4`, which is exact for any length (it verifies from global memory).
pub const BM_MAX_LEN: usize = 4096;
/// Shortest pattern the automatic choice sends to Boyer-Moore (up to
/// `BM_MAX_LEN`), or `None` for never. Measured on an H100
/// (benches/RESULTS.md): on 4 GiB of English-like text `prefix4` ran at
/// 2.3-2.6 TB/s at every length 2..1024 and Boyer-Moore (portion 64) at
/// 0.7 TB/s (m = 2), 1.7 (m = 8) and 2.0-2.4 TB/s (m >= 16). But `prefix4`
/// verifies every position whose first 4 bytes match, so on periodic text
/// it degrades with m: on 64 MiB of 'a' searching a^255 b its search phase
/// took 19.3 ms against Boyer-Moore's 0.23 ms (a^15 b: 0.98 against 0.23).
/// From 16 bytes on, Boyer-Moore costs at most ~20% of kernel time (under
/// 1% of a search that includes the upload) and removes that worst case.
pub const BM_AUTO_MIN_LEN: Option<usize> = Some(16);
/// Default bytes per thread for Boyer-Moore (a multiple of 32 so a thread
/// owns whole bitmap words; the published design used 200). 64 was fastest
/// or near it at m = 16, 256 and 1024 on an H100 (benches/RESULTS.md).
pub const BM_DEFAULT_PORTION: u32 = 64;

/// A search kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// 4-byte prefix compare at every position, then verification: short
    /// patterns, and the exact path for patterns longer than `BM_MAX_LEN`.
    Prefix4,
    /// Boyer-Moore, one text portion per thread, tables in shared memory.
    BoyerMoore,
}

impl Kernel {
    /// The kernel's name as `--debug` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Prefix4 => "prefix4",
            Kernel::BoyerMoore => "boyer-moore",
        }
    }

    /// Parses a name as `name` prints it.
    pub fn from_name(s: &str) -> Option<Kernel> {
        match s {
            "prefix4" => Some(Kernel::Prefix4),
            "boyer-moore" | "bm" => Some(Kernel::BoyerMoore),
            _ => None,
        }
    }
}

/// The kernel the engine runs for a pattern of `m` bytes when none is forced.
pub fn choose(m: usize) -> Kernel {
    match BM_AUTO_MIN_LEN {
        Some(min) if m >= min && m <= BM_MAX_LEN => Kernel::BoyerMoore,
        _ => Kernel::Prefix4,
    }
}

/// The kernel that actually runs when `wanted` is asked for: Boyer-Moore
/// cannot take patterns over `BM_MAX_LEN`, `prefix4` takes everything.
pub fn effective(wanted: Kernel, m: usize) -> Kernel {
    match wanted {
        Kernel::BoyerMoore if m > BM_MAX_LEN => Kernel::Prefix4,
        k => k,
    }
}

/// Tiles covering `n` text bytes (at least one, so buffers are never empty).
pub fn tiles_for(n: u64) -> u64 {
    n.div_ceil(TILE_BYTES).max(1)
}

/// Device text buffer size for `n` bytes: whole tiles plus padding.
pub fn text_capacity(n: u64) -> u64 {
    tiles_for(n) * TILE_BYTES + PAD_BYTES
}

/// `prefix4`'s prefix and mask: `pat[..min(m, 4)]` as a little-endian word,
/// and the mask selecting those bytes.
pub fn prefix_word(pat: &[u8]) -> (u32, u32) {
    let k = pat.len().min(4);
    let mut b = [0u8; 4];
    b[..k].copy_from_slice(&pat[..k]);
    let mask = if k == 4 {
        u32::MAX
    } else {
        (1u32 << (8 * k)) - 1
    };
    (u32::from_le_bytes(b), mask)
}

/// Dynamic shared memory of the `bm` kernel for a pattern of `m` bytes.
pub fn bm_shared_bytes(m: usize) -> u32 {
    (256 * 4 + m * 4 + m.div_ceil(4) * 4) as u32
}

/// True for a Boyer-Moore portion the kernel accepts.
pub fn valid_portion(portion: u32) -> bool {
    portion.is_power_of_two() && (32..=1024).contains(&portion)
}

/// The automatic choice in words, for `--debug`.
pub fn describe_choice() -> String {
    match BM_AUTO_MIN_LEN {
        Some(min) => format!("boyer-moore for {min} <= m <= {BM_MAX_LEN}, else prefix4"),
        None => "prefix4 at every length (boyer-moore only when forced, m <= 4096)".into(),
    }
}

/// Ship offsets (true) or the bitmap (false)? Whichever is fewer bytes:
/// `count` offsets of 8 bytes against the bitmap's `ceil(n/64)` u64 words.
pub fn ship_offsets(count: u64, n: u64) -> bool {
    count.saturating_mul(8) < n.div_ceil(64) * 8
}

/// Grid size for a kernel walking `tiles` tiles: every tile gets a block up
/// to `cap` blocks, beyond which blocks loop (grid-stride over tiles).
pub fn grid_for(tiles: u64, cap: u32) -> u32 {
    tiles.min(u64::from(cap.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_is_embedded_and_has_every_kernel() {
        for (ptx, names) in [
            (LITERAL_PTX, &["prefix4_full", "prefix4_short", "bm"][..]),
            (MULTI_PTX, &["multi"]),
            (AUTOMATON_PTX, &["automaton"]),
            (TALLY_PTX, &["tally"]),
            (BACKREAD_PTX, &["backread"]),
            (COMPACT_PTX, &["scan_counts", "compact"]),
        ] {
            assert!(ptx.starts_with("// gpugrep-ptx source-sha256: "));
            for name in names {
                assert!(
                    ptx.contains(&format!(".entry {name}(")),
                    "missing kernel {name}"
                );
            }
            assert!(ptx.contains(".target sm_70"));
            assert!(!ptx.contains('\0'));
        }
    }

    #[test]
    fn constants_match_the_cuda_source() {
        let src = include_str!("../../../kernels/common.cuh");
        assert!(src.contains(&format!("#define TILE_BYTES {TILE_BYTES}u")));
        assert!(src.contains("#define TILE_WORDS (TILE_BYTES / 32u)"));
    }

    #[test]
    fn choice_by_length() {
        for m in 1..=8192 {
            let k = choose(m);
            if m > BM_MAX_LEN || BM_AUTO_MIN_LEN.is_none_or(|min| m < min) {
                assert_eq!(k, Kernel::Prefix4, "m = {m}");
            } else {
                assert_eq!(k, Kernel::BoyerMoore, "m = {m}");
            }
        }
        assert_eq!(effective(Kernel::BoyerMoore, 4096), Kernel::BoyerMoore);
        assert_eq!(effective(Kernel::BoyerMoore, 4097), Kernel::Prefix4);
        assert_eq!(effective(Kernel::Prefix4, 5), Kernel::Prefix4);
        assert_eq!(Kernel::from_name("boyer-moore"), Some(Kernel::BoyerMoore));
        assert_eq!(
            Kernel::from_name(Kernel::Prefix4.name()),
            Some(Kernel::Prefix4)
        );
    }

    #[test]
    fn launch_arithmetic() {
        assert_eq!(tiles_for(0), 1);
        assert_eq!(tiles_for(1), 1);
        assert_eq!(tiles_for(TILE_BYTES), 1);
        assert_eq!(tiles_for(TILE_BYTES + 1), 2);
        assert_eq!(text_capacity(1), TILE_BYTES + PAD_BYTES);
        // The bitmap readback (ceil(n/64) u64 words) fits in tiles*TILE_WORDS u32 words.
        for n in [
            1u64,
            63,
            64,
            65,
            TILE_BYTES - 1,
            TILE_BYTES,
            5 * TILE_BYTES + 7,
        ] {
            assert!(n.div_ceil(64) * 2 <= tiles_for(n) * TILE_WORDS);
        }
        assert_eq!(prefix_word(b"a"), (0x61, 0xff));
        assert_eq!(prefix_word(b"ab"), (0x6261, 0xffff));
        assert_eq!(prefix_word(b"abc"), (0x636261, 0xff_ffff));
        assert_eq!(prefix_word(b"abcdef"), (0x6463_6261, u32::MAX));
        assert_eq!(bm_shared_bytes(4096), 1024 + 16384 + 4096);
        assert!(bm_shared_bytes(BM_MAX_LEN) <= 48 * 1024);
        assert!(valid_portion(32) && valid_portion(128) && valid_portion(1024));
        assert!(!valid_portion(200) && !valid_portion(16) && !valid_portion(2048));
        assert_eq!(grid_for(5, 100), 5);
        assert_eq!(grid_for(500, 100), 100);
    }

    #[test]
    fn transfer_choice() {
        // 1 MiB of text: bitmap is 128 KiB = 16384 offsets' worth.
        let n = 1 << 20;
        assert!(ship_offsets(0, n));
        assert!(ship_offsets(16383, n));
        assert!(!ship_offsets(16384, n));
        assert!(!ship_offsets(u64::MAX, n));
    }
}
