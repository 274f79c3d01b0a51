//! The kernels' host-side contract: embedded PTX and cubins, which of them
//! a GPU loads, shared constants, the automatic choice of kernel, and the
//! launch arithmetic.
//!
//! Everything here is pure (no CUDA calls) so it is unit-tested on any
//! machine. The constants mirror `kernels/common.cuh`; the PTX and cubins
//! of each `kernels/*.cu` family are checked against the SHA-256 of its
//! source and the headers it includes by `build.rs`, and embedded through
//! `$OUT_DIR/kernels.rs` (one `NAME_PTX` and one `NAME_CUBINS` constant per
//! family). Cubins are shipped because the driver's JIT compile of the PTX
//! took about 1.2 s on an H100's first run ([`pick_cubin`] says which GPUs
//! can skip it).

include!(concat!(env!("OUT_DIR"), "/kernels.rs"));

/// A kernel family compiled for one GPU architecture (`kernels/NAME.sm_XY.cubin`).
#[derive(Clone, Copy, Debug)]
pub struct Cubin {
    /// The compute capability it was built for (major, minor).
    pub arch: (u32, u32),
    /// The ELF image, as `cuModuleLoadData` takes it.
    pub image: &'static [u8],
}

impl Cubin {
    /// `sm_90` and the like, as `--debug` prints it.
    pub fn name(&self) -> String {
        format!("sm_{}{}", self.arch.0, self.arch.1)
    }
}

/// The cubin of `cubins` a GPU of compute capability `cc` runs, or `None`
/// for the PTX (JIT-compiled by the driver). Machine code is compatible
/// within one major version from the minor it was built for on, so the pick
/// has the device's major and the highest minor not above the device's:
/// sm_80's runs on 8.0, 8.6, 8.7 and 8.9, sm_90's on 9.0; Volta (7.x),
/// Turing (7.5), Blackwell (10.x, 12.x) and an unknown capability get none.
pub fn pick_cubin(cc: (i32, i32), cubins: &[Cubin]) -> Option<&Cubin> {
    let (Ok(major), Ok(minor)) = (u32::try_from(cc.0), u32::try_from(cc.1)) else {
        return None;
    };
    cubins
        .iter()
        .filter(|c| c.arch.0 == major && c.arch.1 <= minor)
        .max_by_key(|c| c.arch.1)
}

/// Text bytes per tile: the unit of per-tile match counts (common.cuh `TILE_BYTES`).
pub const TILE_BYTES: u64 = 32768;
/// 32-bit bitmap words per tile (common.cuh `TILE_WORDS`).
pub const TILE_WORDS: u64 = TILE_BYTES / 32;
/// Readable bytes the device text buffer holds past the last tile
/// (`prefix4` reads 4 bytes past each 32-byte word).
pub const PAD_BYTES: u64 = 64;
/// Threads per block of `prefix4_*` and `compact`.
pub const BLOCK: u32 = 256;
/// Bytes past its piece (an eighth of a tile) a `confirm` warp stages
/// (confirm.cu `SPILL`).
pub const CONFIRM_SPILL: u32 = 256;
/// Automaton runs a `confirm` warp queues (confirm.cu `QUEUE`).
pub const CONFIRM_QUEUE: u32 = 128;
/// Words of a queued `confirm` run (confirm.cu `RUN_WORDS`).
pub const CONFIRM_RUN_WORDS: u32 = 3;
/// Dynamic shared memory of a `confirm` block (confirm.cu `SHARED_BYTES`):
/// each of its 8 warps' staged bytes and queue of runs (3 words each), a
/// column of 8 words per thread, and each warp's marks (a bit per byte of
/// its piece): 59,392 bytes.
pub const CONFIRM_SHARED: u32 = TILE_BYTES as u32
    + 8 * CONFIRM_SPILL
    + 8 * CONFIRM_QUEUE * CONFIRM_RUN_WORDS * 4
    + 8 * BLOCK * 4
    + TILE_BYTES as u32 / 32 * 4;
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
            (CONFIRM_PTX, &["confirm"]),
            (TALLY_PTX, &["tally", "count_terminators"]),
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

    /// Every family: its PTX and its cubins (the architectures build.rs
    /// ships), with the kernels the PTX declares.
    fn families() -> [(&'static str, &'static str, &'static [Cubin]); 7] {
        [
            ("literal", LITERAL_PTX, LITERAL_CUBINS),
            ("multi", MULTI_PTX, MULTI_CUBINS),
            ("automaton", AUTOMATON_PTX, AUTOMATON_CUBINS),
            ("confirm", CONFIRM_PTX, CONFIRM_CUBINS),
            ("tally", TALLY_PTX, TALLY_CUBINS),
            ("backread", BACKREAD_PTX, BACKREAD_CUBINS),
            ("compact", COMPACT_PTX, COMPACT_CUBINS),
        ]
    }

    fn entries(ptx: &str) -> Vec<&str> {
        ptx.lines()
            .filter_map(|l| l.split_once(".entry ").map(|(_, rest)| rest))
            .filter_map(|rest| rest.split('(').next())
            .map(str::trim)
            .collect()
    }

    #[test]
    fn cubins_are_embedded_current_and_have_every_kernel() {
        let manifest = include_str!("../../../kernels/cubins.sha256");
        for (family, ptx, cubins) in families() {
            let archs: Vec<_> = cubins.iter().map(|c| c.arch).collect();
            assert_eq!(archs, [(8, 0), (9, 0)], "{family}");
            // build.rs checked the PTX's header against the current sources.
            let source = ptx
                .lines()
                .next()
                .and_then(|l| l.split_once("source-sha256: "))
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .unwrap();
            let names = entries(ptx);
            assert!(!names.is_empty(), "{family}: no .entry in the PTX");
            for c in cubins {
                let file = format!("{family}.{}.cubin", c.name());
                let image = c.image;
                // A 64-bit little-endian ELF for EM_CUDA (190) whose flags
                // name the architecture (low byte: 80, 90).
                assert!(image.starts_with(b"\x7fELF\x02\x01"), "{file}");
                assert_eq!(u16::from_le_bytes([image[18], image[19]]), 190, "{file}");
                assert_eq!(u32::from(image[48]), c.arch.0 * 10 + c.arch.1, "{file}");
                let line = manifest
                    .lines()
                    .find(|l| l.split_whitespace().next() == Some(file.as_str()))
                    .unwrap_or_else(|| panic!("{file} missing from cubins.sha256"));
                assert_eq!(line.split_whitespace().nth(1), Some(source), "{file}");
                for name in &names {
                    let symbol = format!("\0{name}\0");
                    assert!(
                        image.windows(symbol.len()).any(|w| w == symbol.as_bytes()),
                        "{file}: no kernel {name}"
                    );
                }
            }
        }
    }

    #[test]
    fn cubin_choice_by_compute_capability() {
        let cubins = LITERAL_CUBINS;
        let pick = |cc| pick_cubin(cc, cubins).map(|c| c.name());
        for cc in [(8, 0), (8, 6), (8, 7), (8, 9)] {
            assert_eq!(pick(cc).as_deref(), Some("sm_80"), "{cc:?}");
        }
        assert_eq!(pick((9, 0)).as_deref(), Some("sm_90"));
        // Volta, Turing, Blackwell, unknown: the PTX.
        for cc in [(7, 0), (7, 5), (10, 0), (12, 0), (0, 0), (-1, 0), (8, -1)] {
            assert_eq!(pick(cc), None, "{cc:?}");
        }
        // The highest minor not above the device's.
        let img: &[u8] = b"";
        let set = [
            Cubin {
                arch: (8, 6),
                image: img,
            },
            Cubin {
                arch: (8, 0),
                image: img,
            },
            Cubin {
                arch: (8, 9),
                image: img,
            },
        ];
        let arch = |cc| pick_cubin(cc, &set).map(|c| c.arch);
        assert_eq!(arch((8, 7)), Some((8, 6)));
        assert_eq!(arch((8, 9)), Some((8, 9)));
        assert_eq!(arch((8, 5)), Some((8, 0)));
        assert_eq!(pick_cubin((8, 9), &set[..1]).map(|c| c.arch), Some((8, 6)));
        assert_eq!(pick_cubin((8, 5), &set[..1]).map(|c| c.arch), None);
        assert_eq!(pick_cubin((9, 0), &[]).map(|c| c.arch), None);
    }

    #[test]
    fn constants_match_the_cuda_source() {
        let src = include_str!("../../../kernels/common.cuh");
        assert!(src.contains(&format!("#define TILE_BYTES {TILE_BYTES}u")));
        assert!(src.contains("#define TILE_WORDS (TILE_BYTES / 32u)"));
        let confirm = include_str!("../../../kernels/confirm.cu");
        assert!(confirm.contains(&format!("#define SPILL {CONFIRM_SPILL}u")));
        assert!(confirm.contains(&format!("#define QUEUE {CONFIRM_QUEUE}u")));
        assert!(confirm.contains(&format!("#define RUN_WORDS {CONFIRM_RUN_WORDS}u")));
        assert!(confirm.contains(
            "#define SHARED_BYTES (8u * STAGED + 8u * QUEUE * RUN_WORDS * 4u + 8u * 256u * 4u + 8u * MARK_WORDS * 4u)"
        ));
        assert!(confirm.contains("#define STAGED (PIECE_BYTES + SPILL)"));
        assert!(confirm.contains("#define PIECE_BYTES (32u * BYTES_PER_THREAD)"));
        assert!(confirm.contains("#define MARK_WORDS (PIECE_BYTES / 32u)"));
        assert_eq!(BLOCK, 256);
    }

    /// NVRTC 12.0's `sm_90` automaton kernel summed its tile counts with
    /// shuffles on a warp its line loop had left split, and `-n` printed
    /// wrong lines (sessions 56-57); ptxas 12.4 and every `sm_75` build
    /// leave the same gap. `block_sum` (common.cuh) now takes no warp
    /// collective and waits at non-aligned barriers: the kernels whose only
    /// collectives were its shuffles hold none, in the PTX every driver
    /// compiles and the cubins come from.
    #[test]
    fn tile_counts_do_not_rest_on_a_reconverged_warp() {
        for (family, ptx) in [
            ("automaton", AUTOMATON_PTX),
            ("literal", LITERAL_PTX),
            ("backread", BACKREAD_PTX),
        ] {
            for collective in ["shfl.sync", "vote.sync", "bar.warp.sync", "redux.sync"] {
                assert!(!ptx.contains(collective), "{family}: {collective}");
            }
            assert!(
                ptx.contains("barrier.sync 0;"),
                "{family}: no non-aligned barrier"
            );
        }
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
