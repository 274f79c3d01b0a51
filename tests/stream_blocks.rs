//! Streams are searched in blocks; memory-mapped files in one piece. Tiny
//! blocks (GPUGREP_STREAM_CHUNK) put a block boundary at every position:
//! the output must not change — context, line numbers, offsets, -m, -v.

mod common;

use proptest::prelude::*;
use std::io::Write;
use std::process::Stdio;

fn run(args: &[String], file: &std::path::Path, chunk: Option<usize>) -> (Vec<u8>, i32) {
    let mut cmd = common::gpugrep();
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::null());
    match chunk {
        Some(n) => {
            cmd.env("GPUGREP_STREAM_CHUNK", n.to_string())
                .stdin(Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            let data = std::fs::read(file).unwrap();
            // `-m0` exits without reading (GNU's skip-read): a closed pipe.
            let _ = child.stdin.take().unwrap().write_all(&data);
            let out = child.wait_with_output().unwrap();
            (out.stdout, out.status.code().unwrap())
        }
        None => {
            let out = cmd.arg(file).output().unwrap();
            (out.stdout, out.status.code().unwrap())
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn tiny_stream_blocks_print_what_a_mapped_file_prints(
        text in prop::collection::vec(prop::sample::select(b"aab\n".to_vec()), 1..200),
        chunk in 1usize..9,
        before in 0usize..3, after in 0usize..3,
        invert in any::<bool>(), max in prop::option::of(0u64..4),
        numbers in any::<bool>(), offsets in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, &text).unwrap();
        let mut args = vec![format!("-B{before}"), format!("-A{after}")];
        if invert { args.push("-v".into()); }
        if numbers { args.push("-n".into()); }
        if offsets { args.push("-b".into()); }
        if let Some(m) = max { args.push(format!("-m{m}")); }
        args.push("ab".into());
        let mapped = run(&args, &file, None);
        let streamed = run(&args, &file, Some(chunk));
        prop_assert_eq!(String::from_utf8_lossy(&streamed.0), String::from_utf8_lossy(&mapped.0));
        prop_assert_eq!(streamed.1, mapped.1);
    }
}
