//! A tree is walked while other threads search it (each directory listed
//! by whichever thread is free, files handed out in batches): the output
//! must be the one-thread output, byte for byte.

mod common;

use common::XorShift;
use std::process::Command;

fn run(args: &[&str], dir: &std::path::Path) -> (Vec<u8>, i32) {
    run_with(args, dir, None)
}

/// `run`, with `GPUGREP_LEAD_FILES` set to `lead` when given.
fn run_with(args: &[&str], dir: &std::path::Path, lead: Option<&str>) -> (Vec<u8>, i32) {
    let mut cmd = Command::new(common::bin());
    if let Some(lead) = lead {
        cmd.env("GPUGREP_LEAD_FILES", lead);
    }
    let out = cmd.args(args).current_dir(dir).output().unwrap();
    (out.stdout, out.status.code().unwrap())
}

#[test]
fn walking_while_searching_prints_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for i in 0..300 {
        let sub = dir
            .path()
            .join(format!("d{}/e{}", rng.below(5), rng.below(3)));
        std::fs::create_dir_all(&sub).unwrap();
        let len = rng.below(300);
        std::fs::write(sub.join(format!("f{i}.txt")), rng.bytes(len, b"ab\n")).unwrap();
    }
    for args in [
        &["-rn", "ab"][..],
        &["-rc", "ba"],
        &["-rl", "aab"],
        &["-rL", "bbb"],
        &["-rq", "a"],
        &["-r", "-C1", "abab"],
    ] {
        let one = run(&[&["-j1"][..], args].concat(), dir.path());
        for threads in ["-j2", "-j5"] {
            let many = run(&[&[threads][..], args].concat(), dir.path());
            assert_eq!(
                String::from_utf8_lossy(&many.0),
                String::from_utf8_lossy(&one.0),
                "{args:?} {threads}"
            );
            assert_eq!(many.1, one.1, "{args:?} {threads}");
        }
    }
}

/// More files than the printer lets threads run ahead by (1,024), in a flat
/// directory and nested ones, with operands around the tree: threads trade
/// later batches for earlier work and wait, and the order still holds.
#[test]
fn thousands_of_files_in_many_threads_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for i in 0..3000 {
        let sub = match rng.below(3) {
            0 => dir.path().join("flat"),
            _ => dir
                .path()
                .join(format!("t/d{}/e{}", rng.below(7), rng.below(4))),
        };
        std::fs::create_dir_all(&sub).unwrap();
        let len = rng.below(200);
        std::fs::write(sub.join(format!("f{i}")), rng.bytes(len, b"ab\n")).unwrap();
    }
    std::fs::write(dir.path().join("top"), "ab\n").unwrap();
    for args in [
        &["-rc", "ab", "top", ".", "missing", "t"][..],
        &["-rn", "aba"],
        &["-rl", "bab"],
        &["-r", "-m1", "-o", "ab+"],
        &["-rc", "--exclude-dir=e1", "ab"],
        &["-Rc", "ab"],
        &["-rc", "--gitignore", "ab"],
    ] {
        let one = run(&[&["-j1"][..], args].concat(), dir.path());
        for threads in ["-j3", "-j16"] {
            let many = run(&[&[threads][..], args].concat(), dir.path());
            assert!(many.0 == one.0, "{args:?} {threads}");
            assert_eq!(many.1, one.1, "{args:?} {threads}");
        }
    }
}

/// A flat directory of more files than threads may run ahead of the printer
/// (`GPUGREP_LEAD_FILES`, 4,096 with 16 threads; 300 here): its
/// batches are searched while it is still being read, before the printer
/// knows its order, and threads then wait.
#[test]
fn directory_larger_than_the_lead_allowed_prints_in_name_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x5851_f42d_4c95_7f2d);
    for i in 0..5000 {
        let len = rng.below(60);
        let name = format!("f{}-{i}", rng.below(1000));
        std::fs::write(dir.path().join(name), rng.bytes(len, b"ab\n")).unwrap();
    }
    for args in [
        &["-rc", "ab", "."][..],
        &["-rl", "bab"],
        &["-rn", "-m1", "aba"],
    ] {
        let one = run(&[&["-j1"][..], args].concat(), dir.path());
        for (threads, lead) in [
            ("-j2", None),
            ("-j16", None),
            ("-j16", Some("4096")),
            ("-j4", Some("300")),
        ] {
            let many = run_with(&[&[threads][..], args].concat(), dir.path(), lead);
            assert!(many.0 == one.0, "{args:?} {threads} {lead:?}");
            assert_eq!(many.1, one.1, "{args:?} {threads} {lead:?}");
        }
    }
}

/// A large directory with dense output: results found while the printer
/// waits for its listing are packed past 2 MiB waiting (`run::packed`) and
/// unpacked as they are printed; the output is the one-thread output.
#[test]
fn dense_output_waiting_for_a_listing_prints_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x2f6b_1d3a_9c85_e407);
    for i in 0..3000 {
        let mut text = Vec::new();
        for _ in 0..(10 + rng.below(30)) {
            text.extend_from_slice(b"the match and ");
            let len = rng.below(60);
            text.extend_from_slice(&rng.bytes(len, b"abcdefgh "));
            text.push(b'\n');
        }
        std::fs::write(dir.path().join(format!("f{}-{i}", rng.below(100))), text).unwrap();
    }
    for args in [
        &["-rn", "match", "."][..],
        &["-rb", "-o", "-E", "the m[a-z]+|a[bc]+", "."],
    ] {
        let one = run(&[&["-j1"][..], args].concat(), dir.path());
        assert!(one.0.len() > 5 << 19, "{args:?}: {} bytes", one.0.len());
        for threads in ["-j4", "-j16"] {
            let many = run(&[&[threads][..], args].concat(), dir.path());
            assert!(many.0 == one.0, "{args:?} {threads}");
            assert_eq!(many.1, one.1, "{args:?} {threads}");
        }
    }
}

/// Regression: with the byte bound on listed inputs reached, the worker
/// whose batch held the files the printer waited for searched them one
/// after the other while the others slept (the GPU path's `-n` over 16 GiB
/// of prose: 55 s). Now the next files to print may always be searched and
/// a stopped worker hands the rest of its batch back to a pool. With a
/// 2 KiB bound (`GPUGREP_LEAD_BYTES`) the pool is used all the time: the
/// output must still be the one-thread output, for files listed by the GPU
/// pipeline (simulated; files found in a tree go in batches) and by
/// `--files-from` (one at a time). Also (session 28): a stopped worker
/// gives back the file it would wait with, and one searching a batch
/// hands the rest back while any waits; and the tree walked by every
/// thread, whose waiting threads slept with the printer's next files (16
/// GiB of prose, 10,000 words, `-n`, 16 threads: 40 s, rg 13.5 s).
#[test]
fn listed_files_past_the_byte_bound_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut list = String::new();
    for i in 0..600 {
        let sub = format!("d{}", rng.below(4));
        std::fs::create_dir_all(dir.path().join(&sub)).unwrap();
        let len = rng.below(2000);
        let name = format!("{sub}/f{i}.txt");
        std::fs::write(dir.path().join(&name), rng.bytes(len, b"ab\n")).unwrap();
        list.push_str(&name);
        list.push('\n');
    }
    std::fs::write(dir.path().join("list"), list).unwrap();
    let one = run(&["-j1", "-rn", "ab", "d0", "d1", "d2", "d3"], dir.path());
    let listed = run(&["-j1", "-n", "--files-from", "list", "ab"], dir.path());
    for threads in ["-j2", "-j8"] {
        for bound in ["2K", "64M"] {
            let mut cmd = Command::new(common::bin());
            cmd.env("GPUGREP_LEAD_BYTES", bound)
                .env("GPUGREP_GPU_SIMULATE", "1")
                .env("GPUGREP_GPU_CHUNK", "4K")
                .env("GPUGREP_GPU_STAGING", "16K")
                .current_dir(dir.path());
            let out = cmd
                .args([
                    "--engine", "gpu", threads, "-rn", "ab", "d0", "d1", "d2", "d3",
                ])
                .output()
                .unwrap();
            assert!(out.stdout == one.0, "gpu {threads} {bound}");
            // The tree walked by every thread (`--engine cpu`): past twice
            // the bound a thread begins the printer's next files, or gives
            // its task back and waits.
            let out = Command::new(common::bin())
                .env("GPUGREP_LEAD_BYTES", bound)
                .current_dir(dir.path())
                .args([
                    "--engine", "cpu", threads, "-rn", "ab", "d0", "d1", "d2", "d3",
                ])
                .output()
                .unwrap();
            assert!(out.stdout == one.0, "walked {threads} {bound}");
            let out = Command::new(common::bin())
                .env("GPUGREP_LEAD_BYTES", bound)
                .current_dir(dir.path())
                .args([threads, "-n", "--files-from", "list", "ab"])
                .output()
                .unwrap();
            assert!(out.stdout == listed.0, "--files-from {threads} {bound}");
        }
    }
}

/// A file with more output than a part (1 MiB) sends it to the printer in
/// parts while it is searched, which the printer writes when the file is
/// next and keeps otherwise: with several such files, dense and sparse,
/// searched by several threads (and a 2 KiB bound on what waits, which
/// stops threads while parts wait), the output is the one-thread output.
#[test]
fn files_printed_in_parts_print_what_one_thread_prints() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x51_7cc1_b727_220a);
    let mut list = String::new();
    for i in 0..10 {
        let len = [100, 1_500_000, 3_000_000][rng.below(3)];
        let name = format!("f{i}.txt");
        std::fs::write(dir.path().join(&name), rng.bytes(len, b"aab\n")).unwrap();
        list.push_str(&name);
        list.push('\n');
    }
    std::fs::write(dir.path().join("list"), list).unwrap();
    for flags in [&["-n"][..], &["-b", "--line-buffered"], &["-o"]] {
        let args = |threads: &'static str| {
            let mut a = vec![threads, "--files-from", "list", "ab"];
            a.extend(flags);
            a
        };
        let one = run(&args("-j1"), dir.path());
        assert!(one.0.len() > 4 << 20, "{flags:?}: {} bytes", one.0.len());
        for threads in ["-j3", "-j8"] {
            for bound in [None, Some("2K")] {
                let mut cmd = Command::new(common::bin());
                if let Some(b) = bound {
                    cmd.env("GPUGREP_LEAD_BYTES", b);
                }
                let out = cmd
                    .args(args(threads))
                    .current_dir(dir.path())
                    .output()
                    .unwrap();
                assert!(out.stdout == one.0, "{flags:?} {threads} {bound:?}");
            }
        }
    }
}

/// Outputs are gathered and written together (`run::gathered`) by the
/// printers of a tree and of listed files: small files' outputs between
/// files printed in parts (over 1 MiB of output), with context separators,
/// must come out in the one-thread order; a part written before the
/// outputs gathered ahead of it would break it.
#[test]
fn gathered_outputs_keep_their_place_around_files_printed_in_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = XorShift(0x0dd_ba11_cafe_f00d);
    let mut names = Vec::new();
    for i in 0..400 {
        let len = match i % 50 {
            7 | 31 => 2_500_000,
            _ => [40, 900, 3_000, 20_000][rng.below(4)],
        };
        let name = format!("f{i:03}.txt");
        std::fs::write(dir.path().join(&name), rng.bytes(len, b"aab\n")).unwrap();
        names.push(name);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for flags in [&["-n", "ab"][..], &["-C1", "-n", "aaab"], &["-c", "b"]] {
        for listed in [false, true] {
            let args = |threads: &'static str| match listed {
                false => [&[threads, "-r"][..], flags, &["."]].concat(),
                true => [&[threads][..], flags, &names].concat(),
            };
            let one = run(&args("-j1"), dir.path());
            assert!(!one.0.is_empty(), "{flags:?}");
            for threads in ["-j3", "-j8"] {
                let many = run(&args(threads), dir.path());
                assert!(
                    many == one,
                    "{flags:?} {threads} listed {listed}: differs from -j1"
                );
            }
        }
    }
}
