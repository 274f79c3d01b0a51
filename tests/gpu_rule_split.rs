//! Rule packs split for the GPU (issue 17, `pattern::compile::split`):
//! rules with a literal of 3 bytes or more found by the `multi` kernel, the
//! others by the automaton, merged into one result.
//!
//! * `simulated_split_packs_agree`: random packs mixing rules with and
//!   without good literals (literals, classes, alternations, repetitions,
//!   anchors) over random text, `--engine gpu` through the pipeline
//!   simulated on the CPU (`GPUGREP_GPU_SIMULATE=1`, chunks forced small
//!   now and then so files are cut) against `--engine cpu` and a naive
//!   oracle (every rule's `regex` on every line; `-o` leftmost-first across
//!   the rules). Flags among `-c -l -n -o -w -i -x -v`.
//!   `gpu_split_packs_agree` is the same on a GPU (skips without one).
//!   `GPUGREP_SPLIT_CASES` = cases (default 20).
//! * `kernels_match_reference`: the split target (multi kernel, the
//!   confirm kernel's rule book, then the automaton merged into its
//!   bitmap) on a GPU lane against its CPU mirror, offsets and tallies
//!   (counted, or `Unsure` where the mirror is unsure); skips without a
//!   GPU.
//! * `printed_lines_match_the_cpu_over_chunks_of_many_tiles`: `-n` of a
//!   pack with an automaton rule over chunks of 4,096 tiles (skips without
//!   a GPU).
//! * `tile_counts_hold_where_lanes_own_no_line_start`: a regression on
//!   loghub's Proxifier log and templates, where a chunk's tile count went
//!   wrong (skips without a GPU or without that data).
//! * `mixed_pack_goes_both_ways`: a fixed pack; `--debug` names the rules
//!   on the automaton, `--stats` counts both halves, lines only a
//!   literal-less rule selects are printed.
//! * `measure_split` (ignored; a measurement aid, run with `--release`):
//!   `GPUGREP_SPLIT_DUMP=rules.txt` writes the pack's literal half to
//!   `rules.txt.lits` (`gpugrep -c -F -f rules.txt.lits` then counts the
//!   `multi` kernel's candidate lines); with `GPUGREP_SPLIT_LINES=file`,
//!   the confirm step's time per line of `file`, split and `--engine cpu`.

mod common;

use common::{bin, XorShift};
use gpugrep::engine::gpu::{ChunkFound, GpuEngine, Target};
use regex::bytes::Regex;
use std::process::{Command, Output};

/// Markers of 3+ bytes: rules holding one are literal rules.
const MARKERS: &[&str] = &["err", "FAIL", "timeout", "abx", "zq9"];
/// Pieces with no literal of 3 bytes.
const PIECES: &[&str] = &[
    "a", "b", "ab", "x", "[ab]", "[^a ]", ".", "[0-9]", "[a-cx]", "(a|b)", "[A-Z]",
];
/// Unicode classes, put beside a marker only (a rule without one goes to
/// the pack's automaton, where `\w` alone is 661 positions): the rule
/// book gives such a rule the automaton of its ASCII bytes.
const WIDE: &[&str] = &["\\w+", "\\S+", "\\w", "[^x]+"];
/// Long repetitions, put beside a marker: automata of 2 to 4 words and
/// wider (the confirm kernel keeps up to 4 words in registers, more in
/// local memory).
const LONG: &[&str] = &[
    "[0-9a-f]{32}",
    "[abx0-9 ]{20,45}",
    "[a-z ]{60,110}",
    "(ab|x| ){12,40}",
];
const OPS: &[&str] = &["", "", "*", "+", "?", "{2}", "{1,3}"];

fn piece(rng: &mut XorShift) -> String {
    let p = rng.pick(PIECES);
    match rng.pick(OPS) {
        "" => p.to_string(),
        op => format!("({p}){op}"),
    }
}

/// A rule (ERE, also the `regex` crate's syntax) that cannot match the
/// empty string; about half hold a marker.
fn rule(rng: &mut XorShift) -> (String, Regex) {
    loop {
        let mut r = String::new();
        if rng.below(6) == 0 {
            r.push('^');
        }
        for _ in 0..1 + rng.below(2) {
            r += &piece(rng);
        }
        let marked = rng.below(5) < 3;
        match rng.below(5) {
            _ if !marked => r += &piece(rng),
            0..=2 => r += rng.pick(MARKERS),
            _ => r += &format!("({}|{})", rng.pick(MARKERS), rng.pick(MARKERS)),
        }
        match rng.below(3) {
            0 => r += &piece(rng),
            1 if marked => r += rng.pick(WIDE),
            2 if marked && rng.below(2) == 0 => r += rng.pick(LONG),
            _ => {}
        }
        if rng.below(6) == 0 {
            r.push('$');
        }
        let re = Regex::new(&r).expect("generated rule parses");
        if !re.is_match(b"") {
            return (r, re);
        }
    }
}

fn text(rng: &mut XorShift, lines: usize) -> Vec<u8> {
    const BITS: &[&str] = &[
        "a", "b", "x", "ab", "0", "7", " ", "A", "Z", "err", "FAIL", "timeout", "abx", "zq9", "q",
        "é",
    ];
    let mut out = Vec::new();
    for _ in 0..lines {
        for _ in 0..rng.below(14) {
            out.extend_from_slice(rng.pick(BITS).as_bytes());
        }
        out.push(b'\n');
    }
    out
}

#[derive(Clone, Copy, Debug)]
struct Flags {
    count: bool,
    list: bool,
    number: bool,
    only: bool,
    word: bool,
    line: bool,
    invert: bool,
    icase: bool,
}

impl Flags {
    fn random(rng: &mut XorShift) -> Flags {
        let only = rng.below(3) == 0;
        let list = !only && rng.below(6) == 0;
        Flags {
            count: !only && !list && rng.below(3) == 0,
            list,
            number: rng.below(2) == 0,
            only,
            // -w -o prints the word matcher's choice (pinned by CLI tests).
            word: !only && rng.below(4) == 0,
            line: rng.below(6) == 0,
            invert: !only && rng.below(6) == 0,
            icase: rng.below(4) == 0,
        }
    }

    fn args(&self) -> Vec<String> {
        let mut a = vec!["-E".to_string()];
        for (on, flag) in [
            (self.count, "-c"),
            (self.list, "-l"),
            (self.number, "-n"),
            (self.only, "-o"),
            (self.word, "-w"),
            (self.line, "-x"),
            (self.invert, "-v"),
            (self.icase, "-i"),
        ] {
            if on {
                a.push(flag.to_string());
            }
        }
        a
    }
}

/// What GNU grep prints for one file `name` (operand order, no -H).
fn oracle(rules: &[(String, Regex)], text: &[u8], f: Flags, name: &str) -> Vec<u8> {
    let res: Vec<Regex> = rules
        .iter()
        .map(|(r, _)| {
            let body = match (f.line, f.word) {
                (true, _) => format!("^(?:{r})$"),
                (false, true) => format!(r"\b{{start-half}}(?:{r})\b{{end-half}}"),
                _ => format!("(?:{r})"),
            };
            let ci = if f.icase { "(?i)" } else { "" };
            Regex::new(&format!("(?m){ci}{body}")).expect("oracle rule")
        })
        .collect();
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    let lines: Vec<&[u8]> = match body.is_empty() && text.is_empty() {
        true => Vec::new(),
        false => body.split(|&b| b == b'\n').collect(),
    };
    let mut out = Vec::new();
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        if res.iter().any(|re| re.is_match(line)) == f.invert {
            continue;
        }
        count += 1;
        let prefix = if f.number {
            format!("{}:", i + 1)
        } else {
            String::new()
        };
        if f.only {
            let mut at = 0;
            loop {
                let mut best: Option<(usize, usize)> = None;
                for re in &res {
                    if let Some(m) = re.find_at(line, at) {
                        if best.is_none_or(|b| m.start() < b.0) {
                            best = Some((m.start(), m.end()));
                        }
                    }
                }
                let Some((s, e)) = best else { break };
                out.extend_from_slice(prefix.as_bytes());
                out.extend_from_slice(&line[s..e]);
                out.push(b'\n');
                at = e;
            }
        } else {
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    match (f.count, f.list) {
        (true, _) => format!("{count}\n").into_bytes(),
        (_, true) if count > 0 => format!("{name}\n").into_bytes(),
        (_, true) => Vec::new(),
        _ => out,
    }
}

fn run(engine: &str, args: &[String], dir: &std::path::Path, env: &[(&str, String)]) -> Output {
    Command::new(bin())
        .arg(format!("--engine={engine}"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .env_remove("GREP_COLORS")
        .env_remove("GPUGREP_TEST_ENGINE")
        .output()
        .expect("run gpugrep")
}

/// Runs `args` on the GPU (with `env`) and on the CPU engine; asserts
/// equal output; returns the GPU run's stderr.
fn same_as_cpu(
    args: &[String],
    dir: &std::path::Path,
    env: &[(&str, String)],
    flags: &[&str],
) -> String {
    let gpu = run("gpu", args, dir, env);
    let cpu = run("cpu", args, dir, &[]);
    let err = String::from_utf8_lossy(&gpu.stderr).into_owned();
    assert!(
        gpu.stdout == cpu.stdout,
        "{flags:?}\n{err}\n{}",
        common::diff(&cpu.stdout, &gpu.stdout)
    );
    err
}

/// The environment of a GPU run of a pack (`GPUGREP_RULE_PACK=rules`) in
/// chunks of `chunk` bytes, files split from `split` bytes (none: the
/// default); simulated where there is no GPU.
fn pack_env(chunk: &str, split: &str) -> Vec<(&'static str, String)> {
    let mut env = vec![
        ("GPUGREP_RULE_PACK", "rules".to_string()),
        ("GPUGREP_GPU_CHUNK", chunk.to_string()),
    ];
    if !split.is_empty() {
        env.push(("GPUGREP_SPLIT_MIN", split.to_string()));
    }
    if !have_gpu() {
        eprintln!("no GPU: simulated");
        env.push(("GPUGREP_GPU_SIMULATE", "1".to_string()));
    }
    env
}

/// Writes `files` (name, text) and the pack `rules` (as rules.txt) into
/// `dir`.
fn write_case(dir: &std::path::Path, files: &[(&str, String)], rules: &str) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    std::fs::write(dir.join("rules.txt"), rules).unwrap();
}

/// The CPU engine's `-c -E -f rules.txt` over `names` in `dir`: the
/// answer a test's GPU runs matched, pinned against counts made by hand.
fn cpu_counts(dir: &std::path::Path, names: &[&str]) -> String {
    let mut args: Vec<String> = ["-c", "-E", "-f", "rules.txt"].map(String::from).to_vec();
    args.extend(names.iter().map(|n| n.to_string()));
    String::from_utf8_lossy(&run("cpu", &args, dir, &[]).stdout).into_owned()
}

fn cases() -> usize {
    std::env::var("GPUGREP_SPLIT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

fn differential(simulated: bool) {
    let n = cases();
    let mut rng = XorShift(0x17_5e11);
    let mut split = 0;
    for case in 0..n {
        let dir = tempfile::tempdir().unwrap();
        // Small packs forced into the pack path (GPUGREP_RULE_PACK=rules
        // from 2 rules), now and then a pack past PACK_MIN on its own.
        let big = rng.below(6) == 0;
        let rules: Vec<(String, Regex)> = (0..if big {
            200 + rng.below(300)
        } else {
            2 + rng.below(40)
        })
            .map(|_| rule(&mut rng))
            .collect();
        let lines = 20 + rng.below(600);
        let mut data = text(&mut rng, lines);
        // Now and then a UTF-8 byte-order mark, which the CPU engine skips
        // and the GPU's lines hold (the first line is the CPU's).
        let bom = rng.below(4) == 0;
        if bom {
            data.splice(0..0, *b"\xEF\xBB\xBF");
        }
        let pack: String = rules.iter().map(|(r, _)| format!("{r}\n")).collect();
        std::fs::write(dir.path().join("rules.txt"), &pack).unwrap();
        std::fs::write(dir.path().join("in.txt"), &data).unwrap();
        let f = Flags::random(&mut rng);
        let mut args = f.args();
        args.extend(["--debug", "-f", "rules.txt", "in.txt"].map(String::from));
        let mut env = Vec::new();
        if !big {
            env.push(("GPUGREP_RULE_PACK", "rules".to_string()));
        }
        let cpu = run("cpu", &args, dir.path(), &env);
        if simulated {
            env.push(("GPUGREP_GPU_SIMULATE", "1".to_string()));
        }
        let chunk = [0, 64, 1000][rng.below(3)];
        if chunk > 0 {
            env.push((
                "GPUGREP_GPU_CHUNK",
                chunk.max(data.len() / 2000).to_string(),
            ));
        }
        let gpu = run("gpu", &args, dir.path(), &env);
        let err = String::from_utf8_lossy(&gpu.stderr);
        if err.contains("gpu: rule pack split") {
            split += 1;
        }
        let want = oracle(&rules, &data[if bom { 3 } else { 0 }..], f, "in.txt");
        let show = || {
            format!(
                "case {case} ({} rules, {f:?}, bom {bom}, env {env:?})\nrules (first 20):\n{}\n{err}",
                rules.len(),
                pack.lines().take(20).collect::<Vec<_>>().join("\n")
            )
        };
        assert!(
            cpu.stdout == want,
            "cpu vs oracle: {}\n{}",
            show(),
            common::diff(&want, &cpu.stdout)
        );
        assert!(
            gpu.status.code() == cpu.status.code() && gpu.stdout == cpu.stdout,
            "gpu vs cpu (exit {:?} vs {:?}): {}\n{}",
            gpu.status.code(),
            cpu.status.code(),
            show(),
            common::diff(&cpu.stdout, &gpu.stdout)
        );
    }
    eprintln!("{n} cases, {split} of them split between the multi kernel and the automaton");
    assert!(split * 3 >= n, "{split} of {n} cases were split");
}

#[test]
fn simulated_split_packs_agree() {
    differential(true);
}

fn have_gpu() -> bool {
    let probe = tempfile::tempdir().unwrap();
    std::fs::write(probe.path().join("x"), b"x\n").unwrap();
    let args = ["-q".to_string(), "x".to_string(), "x".to_string()];
    run("gpu", &args, probe.path(), &[]).status.code() == Some(0)
}

#[test]
fn gpu_split_packs_agree() {
    if !have_gpu() {
        eprintln!("skipped: no GPU");
        return;
    }
    differential(false);
}

/// The split target on a GPU lane against its CPU mirror (the literal
/// starts confirmed by the rule book, and the automaton's lines): the
/// marks, and the tally of one file per chunk (or `Unsure`, as the mirror
/// says).
#[test]
fn kernels_match_reference() {
    use gpugrep::engine::gpu::{unsure, MatchCount, Select, Tally};
    use gpugrep::pattern::compile::GpuPlan;
    let mut rng = XorShift(0x17_5e12);
    let engine = GpuEngine::open();
    // GPUGREP_DIFF_SMALL=1: a few small cases (for compute-sanitizer);
    // without a GPU as few, for the books alone.
    let small = std::env::var("GPUGREP_DIFF_SMALL").is_ok_and(|v| v == "1") || engine.is_err();
    let n = if small { 12 } else { 120 };
    // The cases, built on the CPU (the books are checked without a GPU).
    let mut cases = Vec::new();
    for _ in 0..n {
        let rules: Vec<Vec<u8>> = (0..200 + rng.below(60))
            .map(|_| rule(&mut rng).0.into_bytes())
            .collect();
        let args: &[&str] = match rng.below(4) {
            0 => &["--engine", "gpu", "-E", "-i", "x"],
            // -w's boundaries in the automata; half the texts ASCII only,
            // whose chunks are sure.
            1 => &["--engine", "gpu", "-E", "-w", "x"],
            _ => &["--engine", "gpu", "-E", "x"],
        };
        let c = compiled(args, &rules);
        let lines = [10, 500, 5000, 50000][rng.below(if small { 3 } else { 4 })];
        let mut txt = text(&mut rng, lines);
        if args.contains(&"-w") && rng.below(2) == 0 {
            txt.retain(u8::is_ascii);
            // Some lines start with a byte-order mark, which the automata
            // step over.
            if rng.below(2) == 0 {
                let mut marked = b"\xEF\xBB\xBF".to_vec();
                for (k, line) in txt.split_inclusive(|&b| b == b'\n').enumerate() {
                    if k % 7 == 3 {
                        marked.extend_from_slice(b"\xEF\xBB\xBF");
                    }
                    marked.extend_from_slice(line);
                }
                txt = marked;
            }
        }
        if let Some(t) = c.gpu.as_ref().and_then(Target::new) {
            if matches!(c.gpu, Some(GpuPlan::Split(_))) {
                cases.push((t, txt));
            }
        }
    }
    let books = cases
        .iter()
        .filter(|(t, _)| matches!(t, Target::Split(s) if s.book.is_some()))
        .count();
    assert!(books * 2 >= n, "{books} of {n} cases had a book");
    // The kernel runs one-word automata flattened, those of 2 to 4 words
    // with their words in registers, wider ones from local memory: the
    // books hold each.
    let held = |words: std::ops::RangeInclusive<u32>| {
        use gpugrep::pattern::glushkov::book::{head, HEAD};
        cases.iter().any(|(t, _)| match t {
            Target::Split(s) => s.book.as_ref().is_some_and(|b| {
                b.heads
                    .chunks(HEAD)
                    .any(|h| h[head::PRESENT] != 0 && words.contains(&h[head::WORDS]))
            }),
            _ => false,
        })
    };
    assert!(held(1..=1) && held(2..=4) && held(5..=u32::MAX));
    let engine = match engine {
        Ok(e) => e,
        Err(e) => {
            eprintln!("skipped: no GPU: {e}");
            return;
        }
    };
    let mut lane = engine.lane().expect("a lane");
    let (mut mismatches, mut unsure, mut unsure_tallied) = (0, 0, 0);
    for (case, (target, txt)) in cases.iter().enumerate() {
        let (want, sure) = target.reference_sure(txt);
        let got = match lane.search_target(txt, target, None, u64::MAX, None) {
            Ok(ChunkFound::Offsets(v) | ChunkFound::Unsure(v)) => v,
            other => panic!("case {case}: unexpected {other:?}"),
        };
        if got != want {
            mismatches += 1;
            eprintln!(
                "case {case}: gpu {} starts, reference {}",
                got.len(),
                want.len()
            );
        }
        if !target.exact_lines() {
            continue;
        }
        let tally = Tally {
            starts: vec![0],
            ends: vec![txt.len() as u64],
            term: b'\n',
            count: MatchCount::Starts,
            select: Select::Any,
            total: true,
        };
        unsure += usize::from(!sure);
        match lane.search_target(txt, target, None, u64::MAX, Some(&tally)) {
            Ok(ChunkFound::Counts(c)) if sure => {
                let lines = txt.split(|&b| b == b'\n').count() as u64 - 1;
                if c[0].lines != want.len() as u64 || c[0].total != lines {
                    mismatches += 1;
                    eprintln!(
                        "case {case}: tally {:?}, want {} of {lines}",
                        c[0],
                        want.len()
                    );
                }
            }
            Ok(ChunkFound::Unsure(v)) if !sure => assert_eq!(&v, &want, "case {case}"),
            // Unsure only of lines past ASCII: those lines taken out of the
            // tally of the reference's marks (`engine::gpu::unsure`).
            Ok(ChunkFound::CountsUnsure(c, taken)) if !sure => {
                let mut counts = tally.reference(txt, &want, &|_| vec![1]).unwrap();
                let lines = unsure::take_lines_past_ascii(txt, &want, &tally, &mut counts);
                assert!(target.unsure_only_past_ascii(), "case {case}");
                assert_eq!((c, Some(taken)), (counts, lines), "case {case}");
                unsure_tallied += 1;
            }
            other => panic!("case {case} (sure: {sure}): unexpected {other:?}"),
        }
    }
    eprintln!("{n} cases, {books} with a rule book, {unsure} unsure ({unsure_tallied} tallied)");
    assert_eq!(mismatches, 0);
}

/// Literal rules and literal-less ones in one pack: both halves find their
/// lines, `--debug` says which rules went where, `--stats` counts them.
#[test]
fn mixed_pack_goes_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = String::new();
    for i in 0..250 {
        pack += &format!("error{i}: .* not found\n");
    }
    pack += "^[0-9]+\\.[0-9]+$\n"; // rule 251: no literal
    pack += "FAILED [a-z_]+\n";
    pack += "x[ab]?y\n"; // rule 253: "xy" is 2 bytes
    std::fs::write(dir.path().join("rules.txt"), &pack).unwrap();
    let data = "error7: libfoo not found\n12.5\nnothing here\nxby and more\nFAILED test_x\nerror9: found\n";
    std::fs::write(dir.path().join("in.txt"), data).unwrap();
    let env = [("GPUGREP_GPU_SIMULATE", "1".to_string())];
    for flags in [
        &["-n"][..],
        &["-c"],
        &["-o"],
        &["-l"],
        &["-i", "-n"],
        &["-w", "-n"],
    ] {
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["--debug", "--stats", "-E", "-f", "rules.txt", "in.txt"].map(String::from));
        let err = same_as_cpu(&args, dir.path(), &env, flags);
        assert!(
            err.contains("GPU split: 251 rule(s) by "),
            "{flags:?}\n{err}"
        );
        assert!(
            err.contains("on the multi kernel, confirmed on the GPU by 251 rules' automata"),
            "{flags:?}\n{err}"
        );
        assert!(
            err.contains(", rule(s) 251,253 on the automaton of 2 rule(s)"),
            "{flags:?}\n{err}"
        );
        assert!(err.contains("gpu: rule pack split"), "{err}");
        assert!(err.contains("gpu rule pack: 251 rules by "), "{err}");
        assert!(err.contains(", 2 rules on the automaton"), "{err}");
        // Under -w the book's automata keep the boundaries, on ASCII lines.
        let ascii_only = if flags.contains(&"-w") { 251 } else { 0 };
        assert!(
            err.contains(&format!(
                "251 confirmed on the GPU ({ascii_only} of ASCII bytes only, 0 open)"
            )),
            "{err}"
        );
    }
    let gpu = run(
        "gpu",
        &["-n", "-E", "-f", "rules.txt", "in.txt"].map(String::from),
        dir.path(),
        &env,
    );
    assert_eq!(
        String::from_utf8_lossy(&gpu.stdout),
        "1:error7: libfoo not found\n2:12.5\n4:xby and more\n5:FAILED test_x\n"
    );
}

/// Under `-w` a pack of plain rules keeps the boundaries in its automata
/// (`glushkov::word`): its marks on lines of ASCII bytes are exactly the
/// selected lines, so a file of them is counted on the GPU, where before
/// every marked line went to the CPU's word matcher. In a file with lines
/// past ASCII (`é` beside a match, which GNU counts as a word character,
/// and `é` apart from one) the GPU counts the other lines and the CPU
/// judges those two (`engine::gpu::unsure`), as the word matcher. A file that
/// starts with a byte-order mark is counted on the GPU too (its first line
/// judged again after the mark); one with a mark starting a later line goes
/// to the CPU engine, named under `--stats`.
#[test]
fn word_packs_are_counted_on_the_gpu_on_ascii_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut pack = String::new();
    for i in 0..250 {
        pack += &format!("job{i} [a-z]+ in [0-9]+s\n");
    }
    pack += "[0-9]+-[0-9]+\n"; // no literal: the automaton kernel
    std::fs::write(dir.path().join("rules.txt"), &pack).unwrap();
    let mut ascii = String::new();
    for n in 0..4000 {
        let line = match n % 6 {
            0 => format!("job{} done in {}s", n % 250, n),
            1 => format!("xjob{} done in {}s", n % 250, n),
            2 => format!("job{} done in {}sx", n % 250, n),
            3 => format!("a_{}-{}", n, n + 1),
            4 => format!("({}-{})", n, n + 1),
            _ => format!("job{} done in {}s, again", n % 250, n),
        };
        ascii += &line;
        ascii.push('\n');
    }
    std::fs::write(dir.path().join("ascii.txt"), &ascii).unwrap();
    let other = format!("{ascii}job1 done in 5sé\nzjob2 done in 7s\né job4 done in 9s\n");
    std::fs::write(dir.path().join("bom.txt"), format!("\u{feff}{ascii}")).unwrap();
    // A byte-order mark starting a line inside a file: the automata step
    // over it only at a file's start, so this file goes to the CPU.
    let inside = format!("{ascii}\u{feff}job3 done in 4s\n\u{feff}(1-2)\n");
    std::fs::write(dir.path().join("inside.txt"), &inside).unwrap();
    std::fs::write(dir.path().join("other.txt"), &other).unwrap();
    // GNU's -w on ASCII: lines 0, 4 and 5 of every 6.
    let want = 4000 / 6 * 3 + 1;
    let env = [("GPUGREP_GPU_SIMULATE", "1".to_string())];
    for (file, count, tallied) in [
        ("ascii.txt", want, 1),
        ("other.txt", want + 1, 1),
        ("bom.txt", want, 1),
        ("inside.txt", want + 2, 0),
    ] {
        let args = ["--stats", "-w", "-c", "-E", "-f", "rules.txt", file].map(String::from);
        let err = same_as_cpu(&args, dir.path(), &env, &["-w", "-c"]);
        let gpu = run("gpu", &args, dir.path(), &env);
        assert_eq!(String::from_utf8_lossy(&gpu.stdout), format!("{count}\n"));
        assert!(
            err.contains(&format!(
                "dense, searched by the CPU; {tallied} tallied on the GPU)"
            )),
            "{file}: {err}"
        );
        assert_eq!(
            err.contains("a byte-order mark starting a line other than a file's first"),
            file == "inside.txt",
            "{file}: {err}"
        );
        // The two lines past ASCII, judged on the CPU (`engine::gpu::unsure`).
        assert_eq!(
            err.contains("gpu unsure lines: 2 lines past ASCII"),
            file == "other.txt",
            "{file}: {err}"
        );
    }
    for flags in [&["-w", "-n"][..], &["-w", "-v", "-c"], &["-w", "-o"]] {
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(
            [
                "-E",
                "-f",
                "rules.txt",
                "ascii.txt",
                "other.txt",
                "bom.txt",
                "inside.txt",
            ]
            .map(String::from),
        );
        same_as_cpu(&args, dir.path(), &env, flags);
    }
    // Printed, other.txt's marks stand but for its two lines past ASCII,
    // judged on the CPU: the one that matches is printed, not the other.
    let args = ["--stats", "-w", "-n", "-E", "-f", "rules.txt", "other.txt"].map(String::from);
    let err = same_as_cpu(&args, dir.path(), &env, &["-w", "-n"]);
    assert!(
        err.contains("gpu unsure lines: 2 lines past ASCII"),
        "{err}"
    );
    assert!(!err.contains("could not decide in the chunk"), "{err}");
    let gpu = String::from_utf8(run("gpu", &args, dir.path(), &env).stdout).unwrap();
    assert!(
        gpu.contains(":é job4 done in 9s\n") && !gpu.contains("5sé"),
        "{gpu}"
    );
}

/// Regression: a file that starts with a UTF-8 byte-order mark went whole
/// to the CPU engine under a rule pack (the GPU's first line holds the
/// mark). Now it stays on the GPU and its first line is judged after the
/// mark on the CPU: `^err [0-9]+` selects the first line there, `^.err`
/// would select it only with the mark in it. Tallied, cut into pieces
/// (chunk 64: marks counted, `-l` settled by a later line) and printed.
#[test]
fn bom_first_line_is_judged_after_the_mark() {
    let dir = tempfile::tempdir().unwrap();
    let filler = "abc def\n".repeat(40);
    let files = [
        ("first.txt", format!("\u{feff}err 12\n{filler}err 7\n")),
        ("only.txt", format!("\u{feff}err 1\n{filler}")),
        ("dot.txt", format!("\u{feff}err\n{filler}")),
        ("empty.txt", "\u{feff}".to_string()),
    ];
    write_case(dir.path(), &files, "^err [0-9]+\n^.err\nFAIL.*x\n");
    let names = files.map(|(n, _)| n.to_string());
    for chunk in ["", "64"] {
        for flags in [
            &["-c"][..],
            &["-v", "-c"],
            &["-x", "-c"],
            &["-l"],
            &["-L"],
            &["-q"],
            &["-n"],
        ] {
            let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            args.extend(["--stats", "-E", "-f", "rules.txt"].map(String::from));
            args.extend(names.iter().cloned());
            let mut env = vec![
                ("GPUGREP_GPU_SIMULATE", "1".to_string()),
                ("GPUGREP_RULE_PACK", "rules".to_string()),
            ];
            if !chunk.is_empty() {
                env.push(("GPUGREP_GPU_CHUNK", chunk.to_string()));
            }
            let gpu = run("gpu", &args, dir.path(), &env);
            let cpu = run("cpu", &args, dir.path(), &env[1..]);
            let err = String::from_utf8_lossy(&gpu.stderr);
            assert!(
                gpu.stdout == cpu.stdout && gpu.status.code() == cpu.status.code(),
                "chunk {chunk:?} {flags:?}\n{err}\n{}",
                common::diff(&cpu.stdout, &gpu.stdout)
            );
            assert!(!err.contains("byte-order mark"), "{flags:?}\n{err}");
        }
    }
    // The CPU engine's answer, which the GPU's matched above.
    assert_eq!(
        cpu_counts(
            dir.path(),
            &["first.txt", "only.txt", "dot.txt", "empty.txt"]
        ),
        "first.txt:2\nonly.txt:1\ndot.txt:0\nempty.txt:0\n"
    );
}

/// `-c` over files cut across chunks is counted on the GPU piece by piece
/// (each piece counts the lines it owns): every chunk tallied, no offsets
/// shipped, and the counts (with `-v`, with a byte-order mark, with a
/// piece whose chunk ships offsets after a long line) equal the CPU
/// engine's. Before, a cut file's chunks shipped every marked line's
/// offset (`CutChunk` under `--stats`).
#[test]
fn cut_files_are_tallied_piece_by_piece() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..3000)
        .map(|i| match i % 7 {
            0 => format!("error: job {i} timed out\n"),
            3 => format!("FAILED tests/test_{i}.py\n"),
            5 => format!("exit code {}\n", i % 3),
            _ => format!("step {i} ok\n"),
        })
        .collect();
    let long = format!("{lines}{}\n{lines}", "x".repeat(300_000));
    let files = [
        ("plain.log", lines.clone()),
        (
            "bom.log",
            format!("\u{feff}error: job 0 timed out\n{lines}"),
        ),
        ("long.log", long),
    ];
    let rules = "^error: .* timed out\nFAILED .*test_\\w+\nexit code [1-9][0-9]*\n";
    write_case(dir.path(), &files, rules);
    for name in files.map(|(n, _)| n) {
        for flags in [&["-c"][..], &["-v", "-c"]] {
            let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            args.extend(["--stats", "-E", "-f", "rules.txt", name].map(String::from));
            let env = [
                ("GPUGREP_GPU_SIMULATE", "1".to_string()),
                ("GPUGREP_RULE_PACK", "rules".to_string()),
                ("GPUGREP_GPU_CHUNK", "8192".to_string()),
            ];
            let gpu = run("gpu", &args, dir.path(), &env);
            let cpu = run("cpu", &args, dir.path(), &env[1..2]);
            let err = String::from_utf8_lossy(&gpu.stderr);
            assert!(
                gpu.stdout == cpu.stdout && gpu.status.code() == cpu.status.code(),
                "{name} {flags:?}\n{err}\n{}",
                common::diff(&cpu.stdout, &gpu.stdout)
            );
            assert!(
                !err.contains("cut at a chunk end"),
                "{name} {flags:?}\n{err}"
            );
            if name != "long.log" {
                assert!(
                    common::every_chunk_tallied(&err),
                    "{name} {flags:?}: not every chunk tallied\n{err}"
                );
            }
        }
    }
    assert_eq!(
        cpu_counts(dir.path(), &["plain.log", "bom.log", "long.log"]),
        "plain.log:1143\nbom.log:1144\nlong.log:2286\n"
    );
}

/// A pack the GPU decides exactly prints its marked lines as they are
/// (`-n`, `-v`, `-o`, context, `-b`), with no confirm on the CPU, over
/// whole and cut files, a file's lines split between threads; but a file where a line was unsure (`FAIL\w+` has
/// only its ASCII automaton, so a FAIL on a line with other bytes is a
/// candidate) has its marks confirmed, and `--stats` names it. Were its
/// marks printed as they are, "FAIL é" (no word byte after FAIL) would be.
/// On a GPU, else simulated.
#[test]
fn printed_lines_of_an_exact_pack_are_its_marks() {
    let dir = tempfile::tempdir().unwrap();
    let lines = |tail: &str| -> String {
        (0..1500)
            .map(|i| match i % 5 {
                0 => format!("error: job {i} timed out\n"),
                1 => format!("FAIL{tail}{i}\n"),
                2 => format!("exit code {}\n", i % 3),
                3 => format!("FAIL {tail}\n"),
                _ => format!("step {i} ok\n"),
            })
            .collect()
    };
    let files = [("ascii.log", lines("")), ("mixed.log", lines("é"))];
    let rules = "^error: .* timed out\nFAIL\\w+\nexit code [1-9][0-9]*\n";
    write_case(dir.path(), &files, rules);
    // Files of 4 KiB and more are split between the threads (as 32 MiB
    // and more are): each thread prints the marked lines of its part.
    let env = pack_env("8192", "4096");
    for name in ["ascii.log", "mixed.log"] {
        for flags in [&["-n"][..], &["-n", "-v"], &["-o"], &["-n", "-C1"], &["-b"]] {
            let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            let rest = ["-j4", "--debug", "--stats", "-E", "-f", "rules.txt", name];
            args.extend(rest.map(String::from));
            let err = same_as_cpu(&args, dir.path(), &env, flags);
            assert!(
                err.contains("the marked lines are exact"),
                "{name} {flags:?}\n{err}"
            );
            let unsure = err.contains("gpu fallback: a rule-pack line the GPU could not decide");
            assert_eq!(unsure, name == "mixed.log", "{name} {flags:?}\n{err}");
            assert!(
                err.contains("cpu: 0 files searched by the CPU engine"),
                "{name} {flags:?}\n{err}"
            );
        }
    }
    // The answer both engines gave, counted by hand: FAIL<i> or FAILé<i>
    // (300; é is a word byte), the error lines (300) and exit codes 1 and
    // 2 (200); "FAIL " and "FAIL é" are none.
    let n = |name: &str| {
        let args = ["-c", "-E", "-f", "rules.txt", name].map(String::from);
        String::from_utf8_lossy(&run("cpu", &args, dir.path(), &[]).stdout).into_owned()
    };
    assert_eq!(n("ascii.log"), "800\n");
    assert_eq!(n("mixed.log"), "800\n");
}

/// A split pack with an automaton rule, `-n` over chunks where the
/// automaton kernel's blocks walk several tiles each and the marks come
/// home as offsets compacted by the tiles' counts: 170 MB of lines of
/// about 100 bytes, nearly all selected, in chunks of 128 MiB (4,096
/// tiles), three runs against the CPU engine. On a GPU only (the simulated
/// pipeline has no tile counts).
#[test]
fn printed_lines_match_the_cpu_over_chunks_of_many_tiles() {
    if !have_gpu() {
        eprintln!("skipped: no GPU");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // About 100 bytes a line, nearly all selected: one mark per 64 bytes
    // or fewer, so the marks come home as offsets (`ship_offsets`).
    let pad = "payload=0123456789abcdef0123456789abcdef0123456789abcdef";
    let text: String = (0..1_700_000u64)
        .map(|i| match i % 4 {
            0 => format!(
                "2026-11-30 1{}:00 job {i} timed out after {} ms {pad}\n",
                i % 10,
                i % 997
            ),
            1 => format!(
                "step {i} of {} ok, request {} served {pad}\n",
                i % 31,
                i % 89
            ),
            2 => format!("job {i} exit code {} on node{} {pad}\n", i % 4, i % 13),
            _ => format!(
                "retry {i} at 2026-11-30 0{}:15 for host{} {pad}\n",
                i % 10,
                i % 7
            ),
        })
        .collect();
    assert!(text.len() > 150 << 20);
    // Literal rules, and one with no literal of 3 bytes (the automaton).
    let rules =
        "job \\d+ timed out\nexit code [1-3] on\nrequest \\d+ served\n[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}\n";
    write_case(dir.path(), &[("big.log", text)], rules);
    let env = [
        ("GPUGREP_RULE_PACK", "rules".to_string()),
        ("GPUGREP_GPU_CHUNK", "128M".to_string()),
    ];
    let args = ["-n", "-j8", "--debug", "-E", "-f", "rules.txt", "big.log"].map(String::from);
    for _ in 0..3 {
        let err = same_as_cpu(&args, dir.path(), &env, &["-n"]);
        assert!(err.contains("on the automaton of 1 rule"), "{err}");
    }
}

/// Regression: the automaton kernel's count of a tile was read from stale
/// shared memory, so `-n` printed other lines than the bitmap held (lines
/// missing, lines no rule matches; `-c` right). Found on loghub's
/// Proxifier log repeated to 256 MiB under its templates (1,733 rules, 3
/// on the automaton kernel, merged after the confirm kernel): in tile 6,999
/// two lanes of a warp own no line start (lines of 202 bytes) and, in the
/// sm_90 code NVRTC 12.0 built, went on to block_sum's shuffles and
/// barrier without the rest of their warp (compute-sanitizer synccheck:
/// "Divergent thread(s) in warp"). Built by NVRTC 12.9 (kernels/build-ptx)
/// it is right, and since session 58 block_sum takes no warp collective:
/// NVRTC 12.0's build of those kernels passes too. Here: that tile and 10
/// on each side, cut from the log repeated as `benches/rules/real.py`
/// repeats it, `-n` against the CPU engine (2,930 lines; 2,914 with 12.0's
/// kernels and without the `recount` kernel session 56 had put after the
/// merge as a workaround). Needs `GPUGREP_LOGHUB` (a directory holding
/// loghub's `Proxifier_2k.log`) and `GPUGREP_TEMPLATES` (real.py's
/// `rules-templates.txt`); skips, saying so, without them or without a
/// GPU.
#[test]
fn tile_counts_hold_where_lanes_own_no_line_start() {
    let (Some(loghub), Some(rules)) = (
        std::env::var_os("GPUGREP_LOGHUB"),
        std::env::var_os("GPUGREP_TEMPLATES"),
    ) else {
        eprintln!("skipped: GPUGREP_LOGHUB and GPUGREP_TEMPLATES not set");
        return;
    };
    if !have_gpu() {
        eprintln!("skipped: no GPU");
        return;
    }
    let mut log = std::fs::read(std::path::Path::new(&loghub).join("Proxifier_2k.log")).unwrap();
    if !log.ends_with(b"\n") {
        log.push(b'\n');
    }
    const TILE: usize = gpugrep::engine::gpu::kernels::TILE_BYTES as usize;
    let (from, to) = ((6_999 - 10) * TILE, (6_999 + 10) * TILE);
    let text: Vec<u8> = log
        .iter()
        .copied()
        .cycle()
        .skip(from)
        .take(to - from)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("proxifier.log"), text).unwrap();
    std::fs::copy(rules, dir.path().join("rules.txt")).unwrap();
    let args = ["-n", "--debug", "-E", "-f", "rules.txt", "proxifier.log"].map(String::from);
    let err = same_as_cpu(&args, dir.path(), &[], &["-n"]);
    assert!(err.contains("on the automaton of 3 rule"), "{err}");
}

/// Printed lines of a file the GPU saw whole (`-n` counts its line ends
/// per 64 KiB block, and whether a block holds a NUL) print as on the CPU
/// engine: a file with no NUL prints every line without the watch for
/// binary data (`FileOffsets::holds_no_nul`); one with a NUL after its
/// first 32 KiB, in a printed line or between printed lines, ends its
/// output where the CPU engine's does. Files of 7 MB in chunks of 2 MiB
/// (whole blocks cover most of each piece), each split between the
/// threads. On a GPU, else simulated.
#[test]
fn a_late_nul_ends_printed_lines_as_on_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..400_000)
        .map(|i| match i % 4 {
            0 => format!("error: job {i} timed out\n"),
            1 => format!("exit code {}\n", i % 3),
            _ => format!("step {i} ok\n"),
        })
        .collect();
    let with_nul = |at: &str| lines.replacen(at, &format!("{at}\0"), 1);
    let files = [
        ("clean.log", lines.clone()),
        ("printed.log", with_nul("error: job 30000 timed out")),
        ("between.log", with_nul("step 30002 ")),
    ];
    write_case(
        dir.path(),
        &files,
        "^error: .* timed out\nexit code [1-9][0-9]*\n",
    );
    let env = pack_env("2097152", "4096");
    for (name, _) in files {
        for flags in [&["-n"][..], &["-n", "-C1"], &["-n", "-v"]] {
            let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
            let rest = ["-j4", "--stats", "-E", "-f", "rules.txt", name];
            args.extend(rest.map(String::from));
            let err = same_as_cpu(&args, dir.path(), &env, flags);
            assert!(
                err.contains("line terminators counted on the GPU"),
                "{name} {flags:?}\n{err}"
            );
        }
    }
    // The answers both engines gave: the last line printed and the
    // message. A NUL between printed lines matters only where it is
    // printed as context (`cli_binary`'s `nul_late_*`).
    let tail = |flags: &[&str], name: &str| {
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["-E", "-f", "rules.txt", name].map(String::from));
        let out = run("cpu", &args, dir.path(), &[]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last().unwrap_or_default().to_string();
        (last, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let binary = |name: &str| format!("gpugrep: {name}: binary file matches\n");
    let printed = |last: &str| (last.to_string(), String::new());
    assert_eq!(tail(&["-n"], "clean.log"), printed("399998:exit code 1"));
    assert_eq!(
        tail(&["-n"], "printed.log"),
        (
            "29997:error: job 29996 timed out".to_string(),
            binary("printed.log")
        )
    );
    assert_eq!(tail(&["-n"], "between.log"), printed("399998:exit code 1"));
    assert_eq!(
        tail(&["-n", "-C1"], "between.log"),
        ("30002:exit code 1".to_string(), binary("between.log"))
    );
}

/// Sparse printed lines of a file the GPU saw whole are numbered from its
/// per-block line counts (`Matcher::terminators_at`: the gaps between them
/// are neither counted nor mapped on the CPU), as the CPU engine numbers
/// them: selected lines 400 KB apart, with and without context and byte
/// offsets, the last one near the end. On a GPU, else simulated.
#[test]
fn sparse_lines_are_numbered_as_on_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..400_000)
        .map(|i| match i % 25_000 {
            11 => format!("error: job {i} timed out\n"),
            _ => format!("step {i} ok\n"),
        })
        .collect();
    let bom = format!("\u{feff}{lines}");
    write_case(
        dir.path(),
        &[("sparse.log", lines), ("bom.log", bom)],
        "^error: .* timed out\n",
    );
    // The file searched whole, and split into pieces of about 1 MiB (as
    // 16 threads split 32 MiB and more): its lines far apart either way.
    for split in ["", "1M"] {
        let env = pack_env("2097152", split);
        for name in ["sparse.log", "bom.log"] {
            for flags in [
                &["-n"][..],
                &["-n", "-C2"],
                &["-n", "-b"],
                &["-n", "-m", "7"],
            ] {
                let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
                let rest = ["-j4", "--stats", "-E", "-f", "rules.txt", name];
                args.extend(rest.map(String::from));
                let err = same_as_cpu(&args, dir.path(), &env, flags);
                let counted = err.contains("line terminators counted on the GPU");
                assert!(counted, "{name} {flags:?} {split}\n{err}");
            }
        }
    }
    let args = ["-n", "-E", "-f", "rules.txt", "sparse.log"].map(String::from);
    let out = run("cpu", &args, dir.path(), &[]).stdout;
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 16);
    assert!(out.ends_with(b"375012:error: job 375011 timed out\n"));
}

fn compiled(args: &[&str], rules: &[Vec<u8>]) -> gpugrep::pattern::Compiled {
    use clap::Parser;
    let argv = std::iter::once("gpugrep").chain(args.iter().copied());
    let cli = gpugrep::cli::Cli::try_parse_from(argv).unwrap();
    let cfg = gpugrep::config::Config::from_cli(cli).unwrap();
    gpugrep::pattern::compile::compile(rules, &cfg).unwrap()
}

#[test]
#[ignore]
fn measure_split() {
    use gpugrep::pattern::compile::GpuPlan;
    let Ok(path) = std::env::var("GPUGREP_SPLIT_DUMP") else {
        return;
    };
    let text = std::fs::read_to_string(&path).unwrap();
    let rules: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    let c = compiled(&["--engine", "gpu", "-E", "x"], &rules);
    eprintln!("{}", c.description);
    let literals = match &c.gpu {
        Some(GpuPlan::Split(p)) => &p.literals,
        _ => panic!("no split"),
    };
    let mut lits = Vec::new();
    for l in literals {
        lits.extend_from_slice(l);
        lits.push(b'\n');
    }
    std::fs::write(format!("{path}.lits"), lits).unwrap();
    // The literals owned by the most rules (each holding one runs them all).
    if let Some(GpuPlan::Split(p)) = &c.gpu {
        if let Some(b) = &p.book {
            let mut owned: Vec<(usize, String)> = (0..b.starts.len() - 1)
                .map(|k| {
                    let n = (b.owner_start[k + 1] - b.owner_start[k]) as usize;
                    let l = &b.bytes[b.starts[k] as usize..b.starts[k + 1] as usize];
                    (n, String::from_utf8_lossy(l).into_owned())
                })
                .collect();
            owned.sort_unstable_by(|a, b| b.cmp(a));
            eprintln!("most owners: {:?}", &owned[..owned.len().min(12)]);
        }
    }
    let Ok(lines) = std::env::var("GPUGREP_SPLIT_LINES") else {
        return;
    };
    let text = std::fs::read(lines).unwrap();
    let cpu = compiled(&["--engine", "cpu", "-E", "x"], &rules);
    for (name, m) in [("split", c.line_matcher()), ("cpu", cpu.line_matcher())] {
        let t = std::time::Instant::now();
        let (mut n, mut hits) = (0, 0);
        for line in text.split(|&b| b == b'\n') {
            n += 1;
            hits += usize::from(m.is_match_line(line));
        }
        let s = t.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {n} lines, {hits} match, {s:.3} s, {:.2} us/line",
            s * 1e6 / n as f64
        );
    }
}

/// Regression for the confirm kernel's full queue: every line here queues
/// a run for each of 240 rules (all own `common`, none is turned away by
/// its trigrams), so a warp's queue of 128 runs fills on nearly every
/// line, and its threads stall and go on from the literal where they
/// stopped; runs of wide automata (`.{200}`: 7 words) and narrow ones
/// mix. Only the rule whose length fits matches a line, so a run skipped
/// or run twice on resuming changes the answer. On a GPU, else simulated.
#[test]
fn full_queue_stalls_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let pack: String = (1..=240).map(|k| format!("^common.{{{k}}}$\n")).collect();
    std::fs::write(dir.path().join("rules.txt"), pack).unwrap();
    let lengths: Vec<usize> = (0..2000).map(|i| (i * 37) % 260).collect();
    let text: String = lengths
        .iter()
        .map(|&l| format!("common{}\n", "x".repeat(l)))
        .collect();
    std::fs::write(dir.path().join("in.txt"), text).unwrap();
    let want = lengths.iter().filter(|&&l| (1..=240).contains(&l)).count();
    let env = match have_gpu() {
        true => vec![],
        false => {
            eprintln!("no GPU: simulated");
            vec![("GPUGREP_GPU_SIMULATE", "1".to_string())]
        }
    };
    for flags in [&["-c"][..], &["-n"], &["-v", "-c"]] {
        let mut args: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
        args.extend(["--stats", "-E", "-f", "rules.txt", "in.txt"].map(String::from));
        let err = same_as_cpu(&args, dir.path(), &env, flags);
        assert!(err.contains("240 confirmed on the GPU"), "{err}");
        assert!(!err.contains("fallback"), "{err}");
    }
    let count = run(
        "gpu",
        &["-c", "-E", "-f", "rules.txt", "in.txt"].map(String::from),
        dir.path(),
        &env,
    );
    assert_eq!(String::from_utf8_lossy(&count.stdout), format!("{want}\n"));
}
