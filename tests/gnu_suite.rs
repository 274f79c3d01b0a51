//! GNU grep's own tests `yesno`, `in-eq-out-infloop` and `skip-read`,
//! adapted to run against gpugrep (issue 13, item 12). The scripts are GNU
//! grep's (run through `sh`, with `$GPUGREP` for `grep`); the expected
//! output is what GNU grep 3.8 prints, with the program name `gpugrep`
//! (GNU's `yesno` of 2013 predates 3.8's trailing context after `-m`).

mod common;
use common::{assert_output, sh, Sandbox};

const YESNO: &str = "[A01 no ]\n[B02 no ]\n[C03 yes]\n[D04 yes]\n[E05 yes]\n[F06 no ]\n\
[G07 no ]\n[H08 yes]\n[I09 yes]\n[J10 no ]\n[K11 no ]\n[L12 no ]\n[M13 yes]\n[N14 yes]\n";

/// (options, comma-separated; output of `{ grep -F -n -b OPTIONS yes;
/// echo "?$?"; sed 's!^!X!'; } < yesno.txt | tr '\n' /`): `-m` leaves the
/// standard input after the last selected line, which `sed` then prints.
const YESNO_CASES: &[(&str, &str)] = &[
    ("", "3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/8:70:[H08 yes]/9:80:[I09 yes]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/13:125:yes/14:135:yes/?0/"),
    ("-C,1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/--/12-110-[L12 no ]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-C,1,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/--/13:125:yes/14:135:yes/?0/"),
    ("-C,1,-o,--group=XYZ", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/XYZ/13:125:yes/14:135:yes/?0/"),
    ("-C,1,-o,--no-gr", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/13:125:yes/14:135:yes/?0/"),
    ("-C,4,-1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/--/12-110-[L12 no ]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-C,1,--group=XYZ", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/XYZ/12-110-[L12 no ]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-C,1,--no-gr", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/12-110-[L12 no ]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-m,4", "3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/8:70:[H08 yes]/?0/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,4,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/?0/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,4,-C,1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9-80-[I09 yes]/?0/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,4,-C,1,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/?0/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,5", "3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/8:70:[H08 yes]/9:80:[I09 yes]/?0/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,5,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/?0/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,5,-C,1,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/?0/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,6", "3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/8:70:[H08 yes]/9:80:[I09 yes]/13:120:[M13 yes]/?0/X[N14 yes]/"),
    ("-m,6,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/13:125:yes/?0/X[N14 yes]/"),
    ("-m,6,-C,1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/--/12-110-[L12 no ]/13:120:[M13 yes]/14-130-[N14 yes]/?0/X[N14 yes]/"),
    ("-m,6,-C,1,-o", "3:25:yes/4:35:yes/5:45:yes/8:75:yes/9:85:yes/--/13:125:yes/?0/X[N14 yes]/"),
    ("-v", "1:0:[A01 no ]/2:10:[B02 no ]/6:50:[F06 no ]/7:60:[G07 no ]/10:90:[J10 no ]/11:100:[K11 no ]/12:110:[L12 no ]/?0/"),
    ("-v,-o", "?0/"),
    ("-v,-C,1", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/--/5-40-[E05 yes]/6:50:[F06 no ]/7:60:[G07 no ]/8-70-[H08 yes]/9-80-[I09 yes]/10:90:[J10 no ]/11:100:[K11 no ]/12:110:[L12 no ]/13-120-[M13 yes]/?0/"),
    ("-v,-C,1,-o", "3-25-yes/--/5-45-yes/8-75-yes/9-85-yes/13-125-yes/?0/"),
    ("-v,-C,1,--group=XYZ", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/XYZ/5-40-[E05 yes]/6:50:[F06 no ]/7:60:[G07 no ]/8-70-[H08 yes]/9-80-[I09 yes]/10:90:[J10 no ]/11:100:[K11 no ]/12:110:[L12 no ]/13-120-[M13 yes]/?0/"),
    ("-v,-C,1,--no-gr", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/5-40-[E05 yes]/6:50:[F06 no ]/7:60:[G07 no ]/8-70-[H08 yes]/9-80-[I09 yes]/10:90:[J10 no ]/11:100:[K11 no ]/12:110:[L12 no ]/13-120-[M13 yes]/?0/"),
    ("-4,-1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/--/12-110-[L12 no ]/13:120:[M13 yes]/14:130:[N14 yes]/?0/"),
    ("-4,-v,-1", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/--/5-40-[E05 yes]/6:50:[F06 no ]/7:60:[G07 no ]/8-70-[H08 yes]/9-80-[I09 yes]/10:90:[J10 no ]/11:100:[K11 no ]/12:110:[L12 no ]/13-120-[M13 yes]/?0/"),
    ("-m,1,-v", "1:0:[A01 no ]/?0/X[B02 no ]/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,1,-v,-o", "?0/X[B02 no ]/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,1,-v,-C,1", "1:0:[A01 no ]/2-10-[B02 no ]/?0/X[B02 no ]/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,1,-v,-C,1,-o", "?0/X[B02 no ]/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,2,-v", "1:0:[A01 no ]/2:10:[B02 no ]/?0/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,2,-v,-o", "?0/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,3,-v", "1:0:[A01 no ]/2:10:[B02 no ]/6:50:[F06 no ]/?0/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,3,-v,-o", "?0/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,3,-v,-C,1", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/--/5-40-[E05 yes]/6:50:[F06 no ]/7-60-[G07 no ]/?0/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,3,-v,-C,1,-o", "3-25-yes/--/5-45-yes/?0/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,5,-C,1", "2-10-[B02 no ]/3:20:[C03 yes]/4:30:[D04 yes]/5:40:[E05 yes]/6-50-[F06 no ]/7-60-[G07 no ]/8:70:[H08 yes]/9:80:[I09 yes]/10-90-[J10 no ]/?0/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,2,-v,-C,1", "1:0:[A01 no ]/2:10:[B02 no ]/3-20-[C03 yes]/?0/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
    ("-m,2,-v,-C,1,-o", "3-25-yes/?0/X[C03 yes]/X[D04 yes]/X[E05 yes]/X[F06 no ]/X[G07 no ]/X[H08 yes]/X[I09 yes]/X[J10 no ]/X[K11 no ]/X[L12 no ]/X[M13 yes]/X[N14 yes]/"),
];

#[test]
fn gnu_yesno() {
    let s = Sandbox::new();
    s.write("yesno.txt", YESNO);
    let mut failures = Vec::new();
    for (opts, want) in YESNO_CASES {
        let opts = opts.replace(',', " ");
        let script = format!(
            r#"{{ "$GPUGREP" -F -n -b {opts} yes 2>/dev/null; echo "?$?"; sed 's!^!X!'; }} < yesno.txt | tr '\n' /"#
        );
        let out = sh(s.path(), &script);
        let got = String::from_utf8_lossy(&out.stdout);
        if got != *want {
            failures.push(format!("{opts}:\n  want {want}\n  got  {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn gnu_in_eq_out_infloop() {
    let s = Sandbox::new();
    // 4,096 lines of 64 bytes: larger than any buffer, as GNU's test wants.
    let line = format!("{:063}\n", 0);
    s.write("out", format!("{}\n", line.repeat(4096)));
    for arg in ["out", "-", ""] {
        let name = if arg == "out" {
            "out"
        } else {
            "(standard input)"
        };
        let err = format!("gpugrep: {name}: input file is also the output\n");
        let run = |opt: &str| {
            sh(
                s.path(),
                &format!(r#"timeout 10 "$GPUGREP" {opt} 0 {arg} < out >> out"#),
            )
        };
        assert_output(&format!("0 {arg}"), &run(""), b"", &err, 2);
        for opt in ["-q", "-m1", "-l", "-L"] {
            let out = run(opt);
            assert_ne!(out.code, 2, "{opt} 0 {arg}: {out:?}");
        }
        assert_eq!(run("-2").code, 2, "-2 0 {arg}");
    }
}

#[test]
fn gnu_skip_read() {
    let s = Sandbox::new();
    for opts in ["-m0 y", "-f /dev/null", "-v \"\""] {
        for matcher in ["", "-E", "-F"] {
            for file in ["/dev/null", "no-such-file"] {
                let run = |pre: &str| {
                    sh(
                        s.path(),
                        &format!(r#""$GPUGREP" {pre} {opts} {matcher} {file}"#),
                    )
                };
                let what = format!("{opts} {matcher} {file}");
                assert_output(&what, &run(""), b"", "", 1);
                assert_output(&format!("-l {what}"), &run("-l"), b"", "", 1);
            }
            let what = format!("-L {opts} {matcher} /dev/null");
            let out = sh(
                s.path(),
                &format!(r#""$GPUGREP" -L {opts} {matcher} /dev/null"#),
            );
            assert_output(&what, &out, b"/dev/null\n", "", 1);
        }
    }
}
