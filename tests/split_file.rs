//! One large file is cut at line boundaries and searched by several threads
//! when nothing ties lines together. `GPUGREP_SPLIT_MIN` makes tiny files
//! split too: the output must be what one thread prints (line numbers
//! included: each piece numbers its lines from the counts of the others).

use proptest::prelude::*;
use std::process::Command;

fn run(args: &[String], file: &std::path::Path, threads: usize) -> (Vec<u8>, Vec<u8>, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpugrep"))
        .args(args)
        .arg(format!("-j{threads}"))
        .arg(file)
        .env("GPUGREP_SPLIT_MIN", "1")
        .output()
        .unwrap();
    (out.stdout, out.stderr, out.status.code().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(80))]

    #[test]
    fn split_file_prints_what_one_thread_prints(
        text in prop::collection::vec(prop::sample::select(b"aab\n\n".to_vec()), 1..200),
        nul_at in prop::option::of(0usize..200),
        threads in 2usize..5,
        mode in prop::sample::select(vec!["", "-c", "-l", "-L", "-q", "-o", "--count-matches"]),
        invert in any::<bool>(), offsets in any::<bool>(), late in any::<bool>(),
        numbers in any::<bool>(), nul_data in any::<bool>(),
    ) {
        let mut text = text;
        if let Some(i) = nul_at {
            let i = i.min(text.len() - 1);
            text[i] = 0;
        }
        if late {
            // Past the 32 KiB probe: the NUL is met while printing.
            let mut padded = b"zz ab\n".repeat(7000);
            padded.extend_from_slice(&text);
            text = padded;
        }
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, &text).unwrap();
        let mut args: Vec<String> = Vec::new();
        if !mode.is_empty() { args.push(mode.into()); }
        if invert { args.push("-v".into()); }
        if offsets { args.push("-b".into()); }
        if numbers { args.push("-n".into()); }
        if nul_data { args.push("-z".into()); }
        args.push("ab".into());
        let one = run(&args, &file, 1);
        let many = run(&args, &file, threads);
        prop_assert_eq!(String::from_utf8_lossy(&many.0), String::from_utf8_lossy(&one.0));
        prop_assert_eq!(String::from_utf8_lossy(&many.1), String::from_utf8_lossy(&one.1));
        prop_assert_eq!(many.2, one.2);
    }
}
