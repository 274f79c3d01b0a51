//! Real-world file shapes through the GPU pipeline (issue 16): prose with
//! UTF-8 byte-order marks, CRLF line ends, files without a last newline,
//! non-ASCII words, empty files and files cut across chunks, searched with
//! `-c`, `-l`, `-L`, `-q` and `--count-matches`, alone and with `-w`, `-x`,
//! `-v`, `-m` and `-i` (words in other cases, with the Kelvin sign, the
//! long s and `É`, which `-i` folds beyond ASCII). Each case runs the pipeline (simulated on the CPU
//! everywhere; the real GPU too where there is one) against `--engine cpu`
//! (stdout, stderr, exit status byte for byte), and `-c` against a naive
//! count written here from GNU grep's rules. Searches the GPU tallies must
//! report tallied chunks in `--stats` when every file fits in one chunk.
//! `GPUGREP_E2E_CASES` sets the number of cases (default 120 simulated,
//! 300 on the GPU); the binary is `GPUGREP_BIN` when set.

mod common;

use common::{run_engine, XorShift};

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "then",
    "there",
    "search",
    "kernel",
    "thread",
    "café",
    "naïve",
    "«the»",
    "the_end",
    "x2",
    "The",
    "KERNEL",
    "Search",
    "CAFÉ",
    "\u{212A}ernel",
    "thread\u{17F}",
    "Is",
];

/// A prose file: words, spaces, LF or CRLF line ends (`crlf`), sometimes
/// a line that is one word (for `-x`), a byte-order mark, no last newline.
fn prose(rng: &mut XorShift, len: usize, crlf: bool, bom: bool) -> Vec<u8> {
    let mut v = Vec::new();
    if bom {
        v.extend_from_slice(b"\xef\xbb\xbf");
    }
    let eol: &[u8] = if crlf { b"\r\n" } else { b"\n" };
    while v.len() < len {
        v.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        match rng.below(8) {
            0 => v.extend_from_slice(eol),
            1 => {
                v.extend_from_slice(eol);
                v.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
                v.extend_from_slice(eol);
            }
            _ => v.push(b' '),
        }
    }
    if rng.below(3) == 0 {
        while v.last().is_some_and(|b| b"\r\n".contains(b)) {
            v.pop();
        }
    }
    v
}

/// GNU grep's `-c` from its rules, on the file's lines (after a UTF-8
/// byte-order mark; `\r` is part of a line): a line is selected when a
/// pattern occurs in it (`-x`: it is a pattern; `-w`: an occurrence with
/// no word character, alphanumeric or `_`, on either side), or with `-v`
/// when not; `-m` caps the count.
fn naive_count(
    file: &[u8],
    pats: &[&str],
    word: bool,
    line: bool,
    invert: bool,
    max: Option<usize>,
) -> usize {
    let text = file.strip_prefix(b"\xef\xbb\xbf").unwrap_or(file);
    let text = String::from_utf8_lossy(text);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    if file.is_empty() || text.is_empty() && !file.ends_with(b"\n") {
        return 0;
    }
    let wordy = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let selects = |l: &str| {
        pats.iter().any(|p| {
            if line {
                return l == *p;
            }
            l.match_indices(p).any(|(at, m)| {
                !word
                    || (!wordy(l[..at].chars().next_back())
                        && !wordy(l[at + m.len()..].chars().next()))
            })
        })
    };
    // Occurrences overlap: `match_indices` skips those, so try every start.
    let selects = |l: &str| {
        selects(l)
            || (word
                && !line
                && (0..l.len()).filter(|&i| l.is_char_boundary(i)).any(|i| {
                    pats.iter().any(|p| {
                        l[i..].starts_with(p)
                            && !wordy(l[..i].chars().next_back())
                            && !wordy(l[i + p.len()..].chars().next())
                    })
                }))
    };
    let n = text.split('\n').filter(|l| selects(l) != invert).count();
    max.map_or(n, |m| n.min(m))
}

/// Whether the tallies cover this search (what `run::gpu::setup::tally_mode`
/// decides): a count or a list; `--count-matches` alone.
fn tallies(mode: &str, word: bool, line: bool, invert: bool, max: bool) -> bool {
    match mode {
        "--count-matches" => !word && !line && !invert && !max,
        _ => true,
    }
}

fn differential(cases: usize, simulate: bool) -> usize {
    let mut rng = XorShift(0x0b0e_c81f_2024);
    let (mut mismatches, mut tallied_cases) = (0, 0);
    for case in 0..cases {
        let dir = tempfile::tempdir().unwrap();
        let crlf = rng.below(2) == 0;
        let mut files = Vec::new();
        for f in 0..1 + rng.below(8) {
            let (big, small, bom) = (
                20_000 + rng.below(40_000),
                rng.below(3000),
                rng.below(3) == 0,
            );
            let data = match rng.below(12) {
                0 => Vec::new(),
                1 => b"\xef\xbb\xbf".to_vec(),
                2 => prose(&mut rng, big, crlf, bom),
                _ => prose(&mut rng, small, crlf, bom),
            };
            let name = format!("f{f}");
            std::fs::write(dir.path().join(&name), &data).unwrap();
            files.push((name, data));
        }
        let pats: Vec<&str> = (0..1 + rng.below(2) * rng.below(4))
            .map(|_| WORDS[rng.below(WORDS.len())])
            .collect();
        let mode = rng.pick(&["-c", "-c", "-l", "-L", "-q", "--count-matches"]);
        let (word, line, invert) = (rng.below(3) == 0, rng.below(4) == 0, rng.below(3) == 0);
        let max = (rng.below(5) == 0).then(|| 1 + rng.below(3));
        let ci = rng.below(3) == 0;
        let mut args = vec!["-F".to_string(), mode.to_string()];
        if ci {
            args.push("-i".into());
        }
        for (on, flag) in [(word, "-w"), (line, "-x"), (invert, "-v")] {
            if on {
                args.push(flag.into());
            }
        }
        if let Some(m) = max {
            args.push(format!("-m{m}"));
        }
        for p in &pats {
            args.extend(["-e".to_string(), p.to_string()]);
        }
        args.extend(files.iter().map(|(n, _)| n.clone()));
        // Chunks of the default size, or small enough to cut the larger files.
        let chunk = match rng.below(3) {
            0 => 1 << 20,
            1 => 4096 + rng.below(20_000),
            _ => 64 << 20,
        };
        let mut env = vec![("GPUGREP_GPU_CHUNK", chunk.to_string())];
        if simulate {
            env.push(("GPUGREP_GPU_SIMULATE", "1".into()));
        }
        let mut gpu_args = args.clone();
        gpu_args.push("--stats".into());
        let gpu = run_engine("gpu", &gpu_args, dir.path(), &env);
        let cpu = run_engine("cpu", &args, dir.path(), &[]);
        let stats = String::from_utf8_lossy(&gpu.stderr).into_owned();
        let tallied = stats
            .lines()
            .find_map(|l| {
                l.split("; ")
                    .nth(1)?
                    .split(" tallied")
                    .next()?
                    .parse::<u32>()
                    .ok()
            })
            .unwrap_or(0);
        let mut wrong = Vec::new();
        if gpu.stdout != cpu.stdout || gpu.status.code() != cpu.status.code() {
            wrong.push(format!(
                "gpu rc {:?} {:?}, cpu rc {:?} {:?}",
                gpu.status.code(),
                String::from_utf8_lossy(&gpu.stdout),
                cpu.status.code(),
                String::from_utf8_lossy(&cpu.stdout)
            ));
        }
        // Only the statistics differ on stderr.
        let first_stat = stats
            .find("matched lines")
            .map_or(0, |i| stats[..i].rfind('\n').map_or(0, |j| j + 1));
        if &stats.as_bytes()[..first_stat] != cpu.stderr.as_slice() {
            wrong.push(format!(
                "stderr {:?} against {:?}",
                &stats[..first_stat],
                String::from_utf8_lossy(&cpu.stderr)
            ));
        }
        // The naive count is case-sensitive; `-i` is checked against the
        // CPU engine only (whose `-i` literal sets are tested against the
        // regex crate's `(?i)` in `pattern::fold`).
        if mode == "-c" && !ci {
            let want: String = files
                .iter()
                .map(|(n, d)| {
                    let count = naive_count(d, &pats, word, line, invert, max);
                    match files.len() {
                        1 => format!("{count}\n"),
                        _ => format!("{n}:{count}\n"),
                    }
                })
                .collect();
            if String::from_utf8_lossy(&cpu.stdout) != want {
                wrong.push(format!(
                    "naive {want:?}, cpu {:?}",
                    String::from_utf8_lossy(&cpu.stdout)
                ));
            }
        }
        tallied_cases += usize::from(tallied > 0);
        let fits = files.iter().all(|(_, d)| d.len() < chunk);
        let nonempty = files.iter().any(|(_, d)| !d.is_empty());
        // -i: a folded set (tallied) when ASCII folding is Unicode's for
        // every letter; otherwise, with a few literals, the regex (whose
        // candidates are confirmed line by line).
        let folds = !ci
            || pats
                .iter()
                .all(|p| p.is_ascii() && !p.contains(['k', 'K', 's', 'S']));
        if fits
            && nonempty
            && folds
            && tallies(mode, word, line, invert, max.is_some())
            && tallied == 0
            && !stats.contains("0 chunks")
        {
            wrong.push("not tallied".into());
        }
        if !wrong.is_empty() {
            mismatches += 1;
            if mismatches <= 5 {
                eprintln!(
                    "case {case}: args {args:?} env {env:?}: {}",
                    wrong.join("; ")
                );
            }
        }
    }
    eprintln!("gpu_real_world: {cases} cases ({tallied_cases} tallied on the GPU), {mismatches} mismatches");
    assert!(
        cases < 40 || tallied_cases > cases / 4,
        "too few tallied cases"
    );
    mismatches
}

fn cases(default: usize) -> usize {
    std::env::var("GPUGREP_E2E_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn simulated_pipeline_counts_real_world_files_as_cpu_engine() {
    assert_eq!(differential(cases(120), true), 0);
}

#[test]
fn gpu_counts_real_world_files_as_cpu_engine() {
    if !common::real_gpu() {
        return;
    }
    assert_eq!(differential(cases(300), false), 0);
}
