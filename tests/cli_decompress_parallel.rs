//! `--decompress` on several threads within one file: gzip members and
//! zstd frames decoded in parallel give exactly the single-threaded output
//! (line numbers, `-b` offsets of the decompressed stream, context, `-m`,
//! lines cut by a member or frame boundary), and damage in a middle member
//! is an error for that file alone.
//!
//! `GPUGREP_DECOMPRESS_BLOCK=1` makes every member or frame its own job,
//! so these small files are cut everywhere; `-j1` is the single-threaded
//! path to compare with.

mod common;

use common::Sandbox;
use proptest::prelude::*;

/// Offsets: a1 0, b2 9, c3 23, d4 29, e5 42, f6 48, g7 61.
const TEXT: &str = "a1 start\nb2 ERROR disk\nc3 ok\nd4 ERROR net\ne5 ok\nf6 ERROR cpu\ng7 end\n";

/// Member and frame cuts, each inside a line.
const CUTS: [usize; 5] = [5, 14, 30, 44, 60];

fn gzip(text: &[u8]) -> Vec<u8> {
    common::compress("gz", text)
}

fn zstd(text: &[u8]) -> Vec<u8> {
    common::compress("zst", text)
}

/// A skippable frame, as pzstd writes before each frame.
fn skippable(payload: &[u8]) -> Vec<u8> {
    let len = u32::try_from(payload.len()).unwrap().to_le_bytes();
    [&[0x50, 0x2A, 0x4D, 0x18][..], &len, payload].concat()
}

/// `text` cut at `cuts`, each piece packed by `pack`.
fn pieces(text: &[u8], cuts: &[usize], pack: impl Fn(&[u8]) -> Vec<u8>) -> Vec<Vec<u8>> {
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().copied().filter(|&c| c > 0 && c < text.len()));
    bounds.push(text.len());
    bounds.dedup();
    bounds.windows(2).map(|w| pack(&text[w[0]..w[1]])).collect()
}

fn archives(s: &Sandbox) -> [&'static str; 3] {
    let t = TEXT.as_bytes();
    s.write("multi.gz", pieces(t, &CUTS, gzip).concat());
    s.write("multi.zst", pieces(t, &CUTS, zstd).concat());
    let hinted: Vec<u8> = pieces(t, &CUTS, zstd)
        .into_iter()
        .flat_map(|f| [skippable(&(f.len() as u32).to_le_bytes()), f].concat())
        .collect();
    s.write("pzstd.zst", hinted);
    ["multi.gz", "multi.zst", "pzstd.zst"]
}

/// gpugrep --decompress `args`, cut into one job per member, on `threads`.
fn run(s: &Sandbox, threads: &str, args: &[&str]) -> common::Cmd {
    let mut all = vec!["--decompress", threads];
    all.extend_from_slice(args);
    s.grep(&all).env("GPUGREP_DECOMPRESS_BLOCK", "1")
}

#[test]
fn members_and_frames_on_several_threads_print_what_one_thread_prints() {
    let s = Sandbox::new();
    let cases: [(&[&str], &str); 9] = [
        (
            &["-n", "ERROR"],
            "2:b2 ERROR disk\n4:d4 ERROR net\n6:f6 ERROR cpu\n",
        ),
        (
            &["-b", "ERROR"],
            "9:b2 ERROR disk\n29:d4 ERROR net\n48:f6 ERROR cpu\n",
        ),
        (&["-c", "ERROR"], "3\n"),
        (&["-c", "-v", "ERROR"], "4\n"),
        (&["-ob", "ERROR"], "12:ERROR\n32:ERROR\n51:ERROR\n"),
        (
            &["-n", "-C1", "c3"],
            "2-b2 ERROR disk\n3:c3 ok\n4-d4 ERROR net\n",
        ),
        (&["-m2", "-n", "ERROR"], "2:b2 ERROR disk\n4:d4 ERROR net\n"),
        (&["-A1", "f6"], "f6 ERROR cpu\ng7 end\n"),
        (&["-x", "e5 ok"], "e5 ok\n"),
    ];
    for name in archives(&s) {
        for (args, want) in cases {
            let args = [args, &[name]].concat();
            for threads in ["-j1", "-j2", "-j4"] {
                run(&s, threads, &args).expect(want, "", 0);
            }
        }
    }
}

/// A member whose header is damaged, after one that ends inside a line:
/// the whole lines before it are searched, the cut line is not printed as
/// if whole, the file is reported, and the next file is searched.
#[test]
fn a_damaged_middle_member_is_an_error_for_its_file_alone() {
    let s = Sandbox::new();
    s.write("good.txt", "b2 ERROR good\n");
    let mut members = pieces(TEXT.as_bytes(), &[15, 40], gzip);
    members[1][2] = 9; // an unknown compression method
    s.write("damaged.gz", members.concat());
    let reason = "gpugrep: damaged.gz: corrupt gzip data (invalid gzip header)\n";
    for threads in ["-j1", "-j2", "-j4"] {
        run(&s, threads, &["-n", "ERR", "damaged.gz", "good.txt"]).expect(
            "good.txt:1:b2 ERROR good\n",
            reason,
            2,
        );
        run(&s, threads, &["-n", "a1", "damaged.gz", "good.txt"]).expect(
            "damaged.gz:1:a1 start\n",
            reason,
            2,
        );
        run(&s, threads, &["-c", "ERROR", "damaged.gz", "good.txt"]).expect(
            "damaged.gz:0\ngood.txt:1\n",
            reason,
            2,
        );
    }
}

/// Damage inside a middle member's or frame's data: what one thread
/// prints, several print, and nothing from the members after it.
#[test]
fn damaged_data_in_a_middle_piece_reads_as_on_one_thread() {
    let s = Sandbox::new();
    let text: String = (0..3000)
        .map(|i| format!("row {i} ERROR {}\n", i * 7))
        .collect();
    let cuts = [20_000, 40_000, 60_000];
    let lines_in = |n: usize| text.as_bytes()[..n].iter().filter(|&&b| b == b'\n').count();
    let (before, through) = (lines_in(cuts[0]), lines_in(cuts[1]));
    for (name, pack) in [("bad.gz", gzip as fn(&[u8]) -> Vec<u8>), ("bad.zst", zstd)] {
        let mut parts = pieces(text.as_bytes(), &cuts, pack);
        // gzip: bytes flipped inside the deflate data (its CRC catches what
        // inflate does not); zstd (no checksum here): the frame's content.
        let mid = parts[1].len() / 2;
        match name {
            "bad.gz" => parts[1][mid - 4..mid + 4]
                .iter_mut()
                .for_each(|b| *b ^= 0x5A),
            _ => parts[1][4..].fill(0xA5),
        }
        s.write(name, parts.concat());
        let one = run(&s, "-j1", &["-c", "ERROR", name]).run();
        assert_eq!(one.code, 2, "{name}: {}", one.stderr);
        let corrupt = format!("gpugrep: {name}: corrupt ");
        assert!(one.stderr.starts_with(&corrupt), "{}", one.stderr);
        let count: usize = String::from_utf8_lossy(&one.stdout).trim().parse().unwrap();
        assert!(count >= before && count <= through, "{name}: {count}");
        for threads in ["-j2", "-j4"] {
            let many = run(&s, threads, &["-c", "ERROR", name]).run();
            assert_eq!(many.code, 2, "{name} {threads}");
            assert!(many.stderr.starts_with(&corrupt), "{}", many.stderr);
            let n: usize = String::from_utf8_lossy(&many.stdout)
                .trim()
                .parse()
                .unwrap();
            // Where inflate notices the damage depends on its buffers; the
            // members before it are always searched, the one after never.
            assert!(n >= before && n <= through, "{name} {threads}: {n}");
        }
        run(&s, "-j4", &["row 2999 ", name]).expect("", &one.stderr, 2);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Any text cut anywhere into members or frames: every thread count
    /// prints what `-j1` prints. On the CPU engine whatever
    /// `GPUGREP_TEST_ENGINE` says: these 240 runs check the decompressor's
    /// threads, and on a GPU each run would start CUDA (it took over 60 s
    /// on the H100); `gpu_decompress.rs` checks the GPU engine with
    /// members and frames on several threads.
    #[test]
    fn block_parallel_output_equals_single_threaded(
        lines in proptest::collection::vec("[a-c ]{0,12}", 1..60),
        cuts in proptest::collection::vec(0usize..400, 0..8),
        zst in any::<bool>(),
    ) {
        let s = Sandbox::new();
        let text = lines.join("\n");
        let mut cuts = cuts;
        cuts.sort_unstable();
        let packed = match zst {
            true => pieces(text.as_bytes(), &cuts, zstd).concat(),
            false => pieces(text.as_bytes(), &cuts, gzip).concat(),
        };
        s.write("f", packed);
        for args in [&["-nb", "ab"][..], &["-c", "c"], &["-on", "a+"], &["-C1", "-n", "bc"], &["-m3", "-b", "a"]] {
            let args = [&["--engine=cpu"], args, &["f"]].concat();
            let one = run(&s, "-j1", &args).run();
            for threads in ["-j2", "-j3"] {
                let many = run(&s, threads, &args).run();
                prop_assert!(many == one, "{:?} {}: {:?} vs {:?}", args, threads, many, one);
            }
        }
    }
}
