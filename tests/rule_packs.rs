//! Rule packs (issue 17): random packs of 1 to 2,000 extended regular
//! expressions (literals, classes, alternations, repetitions, anchors) over
//! random text, through the binary with each of the three CPU engines
//! (`GPUGREP_RULE_PACK=alternation|pack|rules`), against a naive oracle:
//! every rule's `regex::bytes::Regex` tried on every line, a line selected
//! when any rule matches. `-o` is the alternation's leftmost-first answer:
//! the leftmost start among the rules, and at that start the first rule in
//! order (each with its own match there). Flags: `-c`, `-n`, `-o`, `-w`,
//! `-x`, `-v`, `-i` (`-w` with `-c`/`-n` only: which match `-w -o` prints
//! is the word matcher's, pinned by the CLI tests).
//!
//! `GPUGREP_RULE_PACK_CASES` sets the number of random cases (default 8,
//! packs of up to 400 rules: a few seconds; set, up to 2,000 rules);
//! `GPUGREP_RULE_PACK_SEED` the first seed. With
//! `GPUGREP_TEST_ENGINE=gpu` (tests/common) the same cases run on the GPU.
//! Also here: an invalid expression in a pattern file is named by its
//! file and line, exit 2; a pack past the size limit is a clear error.

mod common;

use common::Sandbox;
use regex::bytes::Regex;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const WORDS: &[&str] = &[
    "abc", "bca", "cab", "xyz", "ab", "ba", "a", "b", "c", "x", "abx", "cyx", "bb", "aab",
];

/// One atom of a rule: the same text in ERE and in the `regex` crate.
fn atom(rng: &mut Rng, depth: usize) -> String {
    match rng.below(if depth > 1 { 3 } else { 5 }) {
        0 | 1 => rng.pick(WORDS).to_string(),
        2 => rng
            .pick(&[
                "[abc]",
                "[a-c]",
                "[^ab ]",
                "[xy]",
                "[[:alpha:]]",
                "[0-9]",
                ".",
            ])
            .to_string(),
        3 => format!(
            "({}|{})",
            rule_body(rng, depth + 1),
            rule_body(rng, depth + 1)
        ),
        _ => {
            let inner = atom(rng, depth + 1);
            let rep = rng.pick(&["*", "+", "?", "{1,3}", "{2}", "{0,2}", "{2,}"]);
            format!("({inner}){rep}")
        }
    }
}

fn rule_body(rng: &mut Rng, depth: usize) -> String {
    let n = 1 + rng.below(3);
    (0..n).map(|_| atom(rng, depth)).collect()
}

/// A rule that cannot match the empty string (so `-o` never prints an
/// empty match), with anchors now and then, and its oracle regex.
fn rule(rng: &mut Rng) -> (String, Regex) {
    loop {
        let mut r = rule_body(rng, 0);
        if rng.below(8) == 0 {
            r = format!("^{r}");
        }
        if rng.below(8) == 0 {
            r.push('$');
        }
        let re = Regex::new(&r).expect("generated rule parses");
        if !re.is_match(b"") {
            return (r, re);
        }
    }
}

fn text(rng: &mut Rng) -> Vec<u8> {
    text_of(rng, b"abcxyz  _-.09AB")
}

/// Lines of random length made of `bytes`.
fn text_of(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..(20 + rng.below(200)) {
        for _ in 0..rng.below(30) {
            out.push(bytes[rng.below(bytes.len())]);
        }
        out.push(b'\n');
    }
    out
}

#[derive(Clone, Copy)]
struct Flags {
    count: bool,
    number: bool,
    only: bool,
    word: bool,
    line: bool,
    invert: bool,
    icase: bool,
    /// `-P` rather than `-E` (the rules read the same in both).
    perl: bool,
}

impl Flags {
    fn random(rng: &mut Rng) -> Flags {
        let only = rng.below(3) == 0;
        let word = !only && rng.below(4) == 0;
        Flags {
            count: !only && rng.below(2) == 0,
            number: rng.below(2) == 0,
            only,
            word,
            line: rng.below(5) == 0,
            invert: !only && rng.below(4) == 0,
            icase: rng.below(4) == 0,
            perl: rng.below(3) == 0,
        }
    }

    fn args(&self) -> Vec<&'static str> {
        let mut a = vec![if self.perl { "-P" } else { "-E" }];
        for (on, flag) in [
            (self.count, "-c"),
            (self.number, "-n"),
            (self.only, "-o"),
            (self.word, "-w"),
            (self.line, "-x"),
            (self.invert, "-v"),
            (self.icase, "-i"),
        ] {
            if on {
                a.push(flag);
            }
        }
        a
    }
}

/// Each rule as the oracle runs it under `flags`.
fn oracle_rules(rules: &[(String, Regex)], f: Flags) -> Vec<Regex> {
    rules
        .iter()
        .map(|(r, _)| {
            let body = match (f.line, f.word) {
                (true, _) => format!("^(?:{r})$"),
                (false, true) => format!(r"\b{{start-half}}(?:{r})\b{{end-half}}"),
                _ => format!("(?:{r})"),
            };
            let ci = if f.icase { "(?i)" } else { "" };
            Regex::new(&format!("{ci}{body}")).expect("oracle rule")
        })
        .collect()
}

/// The leftmost-first match across `rules` in `line` at or after `at`.
fn leftmost_first(rules: &[Regex], line: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for re in rules {
        if let Some(m) = re.find_at(line, at) {
            if best.is_none_or(|b| m.start() < b.0) {
                best = Some((m.start(), m.end()));
            }
        }
    }
    best
}

fn oracle(rules: &[(String, Regex)], text: &[u8], f: Flags) -> Vec<u8> {
    let res = oracle_rules(rules, f);
    let lines: Vec<&[u8]> = text
        .strip_suffix(b"\n")
        .unwrap_or(text)
        .split(|&b| b == b'\n')
        .collect();
    let mut out = Vec::new();
    let mut count = 0;
    for (i, line) in lines.iter().enumerate() {
        let selected = res.iter().any(|re| re.is_match(line)) != f.invert;
        if !selected {
            continue;
        }
        count += 1;
        if f.count {
            continue;
        }
        let prefix = if f.number {
            format!("{}:", i + 1)
        } else {
            String::new()
        };
        if f.only {
            let mut at = 0;
            while let Some((s, e)) = leftmost_first(&res, line, at) {
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
    if f.count {
        out = format!("{count}\n").into_bytes();
    }
    out
}

/// The number of random cases, and the largest pack: the default run
/// (a few seconds in a debug build) keeps large packs to 400 rules; with
/// `GPUGREP_RULE_PACK_CASES` set they go up to 2,000.
fn cases() -> (u64, usize) {
    match std::env::var("GPUGREP_RULE_PACK_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(n) => (n, 2000),
        None => (8, 400),
    }
}

#[test]
fn random_packs_agree_with_the_oracle() {
    packs_agree_with_the_oracle(rule, text);
}

/// Packs whose every rule holds an `@` (`x@y`, `(x@|y@)z`), so that their
/// lines are found through it (`--debug`: "a rare byte every rule's match
/// holds"), raced against their alternation.
#[test]
fn random_packs_sharing_a_rare_byte_agree_with_the_oracle() {
    let at_rule = |rng: &mut Rng| {
        let r = match rng.below(2) {
            0 => format!("{}@{}", rule_body(rng, 1), rule_body(rng, 1)),
            _ => format!(
                "({}@|@{}){}",
                rule_body(rng, 1),
                rule_body(rng, 1),
                atom(rng, 1)
            ),
        };
        let re = Regex::new(&r).expect("generated rule parses");
        (r, re)
    };
    packs_agree_with_the_oracle(at_rule, |rng| text_of(rng, b"abcxyz  @@_-.09AB"));
}

/// Random packs of `rule`s over `text`: every engine's output equal to
/// the oracle's.
fn packs_agree_with_the_oracle(
    rule: impl Fn(&mut Rng) -> (String, Regex),
    text: impl Fn(&mut Rng) -> Vec<u8>,
) {
    let first: u64 = std::env::var("GPUGREP_RULE_PACK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let sb = Sandbox::new();
    let (cases, largest) = cases();
    for seed in first..first + cases {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        // Mostly small packs, now and then a large one.
        let n = match rng.below(5) {
            0 => 200 + rng.below(largest - 199),
            _ => 1 + rng.below(60),
        };
        let rules: Vec<(String, Regex)> = (0..n).map(|_| rule(&mut rng)).collect();
        let data = text(&mut rng);
        let pack: String = rules.iter().map(|(r, _)| format!("{r}\n")).collect();
        sb.write("rules.txt", &pack);
        sb.write("text.txt", &data);
        for _ in 0..2 {
            let f = Flags::random(&mut rng);
            let want = oracle(&rules, &data, f);
            for engine in ["alternation", "pack", "rules"] {
                let mut args = f.args();
                args.extend(["-f", "rules.txt", "text.txt"]);
                let out = sb.grep(&args).env("GPUGREP_RULE_PACK", engine).run();
                assert!(
                    out.code == 0 || out.code == 1,
                    "seed {seed}, {engine}, {args:?}: exit {}: {}",
                    out.code,
                    out.stderr
                );
                assert!(
                    out.stdout == want,
                    "seed {seed} ({n} rules), engine {engine}, {args:?}\n{}\nrules (first 20):\n{}",
                    common::diff(&want, &out.stdout),
                    pack.lines().take(20).collect::<Vec<_>>().join("\n")
                );
            }
        }
    }
}

/// GNU grep names the pattern file and line of an invalid expression
/// (`grep: rules.txt:3: Unmatched ( or \(`), `-` for standard input, and
/// no place for `-e`. The first invalid pattern, in command-line order.
#[test]
fn invalid_rule_names_its_file_and_line() {
    let sb = Sandbox::new();
    let mut rules: String = (0..500).map(|i| format!("abc{i}[0-9]+\n")).collect();
    rules.push_str("ok\nba(r\nx{2,1}\n");
    sb.write("rules.txt", &rules);
    sb.write("in.txt", "abc1 2\n");
    sb.grep(&["-E", "-f", "rules.txt", "in.txt"]).expect(
        "",
        "gpugrep: rules.txt:502: Unmatched ( or \\(\n",
        2,
    );
    sb.grep(&["-E", "-e", "ok", "-f", "rules.txt", "in.txt"])
        .expect("", "gpugrep: rules.txt:502: Unmatched ( or \\(\n", 2);
    sb.grep(&["-E", "-e", "x(", "-f", "rules.txt", "in.txt"])
        .expect("", "gpugrep: Unmatched ( or \\(\n", 2);
    sb.grep(&["-E", "-f", "-", "in.txt"])
        .stdin("a\nb{2,1}\n")
        .expect("", "gpugrep: -:2: Invalid content of \\{\\}\n", 2);
    // Basic syntax, one pattern, as GNU grep.
    sb.write("one.txt", "x\\(\n");
    sb.grep(&["-f", "one.txt", "in.txt"])
        .expect("", "gpugrep: one.txt:1: Unmatched ( or \\(\n", 2);
}

/// Past the documented size limit a pack is refused with a clear error,
/// exit 2, in seconds (not a panic, not minutes of compiling).
#[test]
fn pack_past_the_size_limit_is_refused() {
    let sb = Sandbox::new();
    let rules: String = (0..300).map(|i| format!("abc{i}\\w{{2000}}\n")).collect();
    sb.write("rules.txt", &rules);
    sb.write("in.txt", "abc\n");
    let out = sb
        .grep(&["-E", "-c", "-f", "rules.txt", "in.txt"])
        .run_within(std::time::Duration::from_secs(60));
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("gpugrep: rule pack too large: its automata need more than 256 MiB"),
        "{}",
        out.stderr
    );
}

/// `--debug` names the rule-pack engine.
#[test]
fn debug_names_the_pack_engine() {
    let sb = Sandbox::new();
    let rules: String = (0..300)
        .map(|i| format!("error{i}: .* not found\n"))
        .collect();
    sb.write("rules.txt", &rules);
    sb.write("in.txt", "error7: x not found\n");
    let out = sb
        .grep(&[
            "--debug",
            "--engine",
            "cpu",
            "-E",
            "-c",
            "-f",
            "rules.txt",
            "in.txt",
        ])
        .run();
    assert_eq!(out.stdout, b"1\n");
    assert!(
        out.stderr.contains(
            "300 pattern(s), regex rule pack (per-rule regexes tried on lines holding their \
             literals), lines found by the rules' literal candidates"
        ),
        "{}",
        out.stderr
    );
}

/// Regression: the multi-pattern pack (built without capture states)
/// confirmed lines with a half search, which its reverse-inner strategy
/// answers `None` without capture states: `[0-9]+\.[0-9]+abc` found no
/// line on the pack engine. Lines are now decided by `is_match_with`.
#[test]
fn pack_confirms_lines_without_capture_states() {
    let sb = Sandbox::new();
    sb.write("rules.txt", "zzz: .* not found\n[0-9]+\\.[0-9]+abc\n");
    sb.write("in.txt", "12.5abc\nx\n");
    for engine in ["alternation", "pack", "rules"] {
        let out = sb
            .grep(&["-n", "-E", "-f", "rules.txt", "in.txt"])
            .env("GPUGREP_RULE_PACK", engine)
            .run();
        assert_eq!(out.stdout, b"1:12.5abc\n", "{engine}: {}", out.stderr);
    }
}

/// `-i` takes a pack's literals from its rules parsed without it, in the
/// case variants of a window each (compile time: 1,000 rules 1.3 → 0.5 s
/// on the dev VM): every case of a rule's text, the Kelvin sign and the
/// long s included, still finds its line, on every CPU engine.
#[test]
fn case_insensitive_pack_finds_every_case_of_its_literals() {
    let sb = Sandbox::new();
    let mut rules: Vec<(String, Regex)> = [
        "disk full on [a-z]+",
        "kiss me",
        "stra\u{df}e [0-9]+",
        "error: .* not found",
        "caf\u{e9} (open|closed)",
    ]
    .iter()
    .map(|r| (r.to_string(), Regex::new(r).unwrap()))
    .collect();
    // Enough rules for a pack (`PACK_MIN`), none matching the text.
    rules.extend((0..250).map(|i| {
        let r = format!("unused rule {i} [qz]+");
        (r.clone(), Regex::new(&r).unwrap())
    }));
    let text = "DISK FULL ON SDA\nDisk Full on sdb\n\u{212A}I\u{17F}S ME\nkiss ME\n\
                STRA\u{1E9E}E 12\nstrasse 12\nERROR: libfoo NOT FOUND\nCAF\u{c9} Open\n\
                cafe open\nnothing here\n";
    let pack: String = rules.iter().map(|(r, _)| format!("{r}\n")).collect();
    sb.write("rules.txt", &pack);
    sb.write("text.txt", text);
    let f = Flags {
        count: false,
        number: true,
        only: false,
        word: false,
        line: false,
        invert: false,
        icase: true,
        perl: false,
    };
    let want = oracle(&rules, text.as_bytes(), f);
    assert_eq!(want.split(|&b| b == b'\n').count() - 1, 7);
    for engine in ["alternation", "pack", "rules"] {
        let out = sb
            .grep(&["-i", "-n", "-E", "-f", "rules.txt", "text.txt"])
            .env("GPUGREP_RULE_PACK", engine)
            .run();
        assert_eq!(
            out.stdout,
            want,
            "{engine}: {}",
            common::diff(&want, &out.stdout)
        );
    }
    // The GPU's split, simulated: its `multi` kernel searches the case
    // variants lowered, with its fold flag (`SplitPlan::folded`), and the
    // rule book looks up the exact variant at each start.
    let out = sb
        .grep(&[
            "--engine",
            "gpu",
            "--debug",
            "-i",
            "-n",
            "-E",
            "-f",
            "rules.txt",
            "text.txt",
        ])
        .env("GPUGREP_GPU_SIMULATE", "1")
        .run();
    assert_eq!(out.stdout, want, "{}", common::diff(&want, &out.stdout));
    let debug = &out.stderr;
    assert!(debug.contains("by 1029 literal(s)"), "{debug}");
    assert!(debug.contains("multi kernel for 1029 literals"), "{debug}");
}

/// `-w` over a pack whose rules all have literals runs each rule as its
/// own word regex (`WordRegex::with_rules`), and still takes GNU's word
/// characters: a combining mark (a `\w` of the `regex` crate, not a word
/// character for grep) beside a match leaves it a word.
#[test]
fn word_pack_keeps_gnus_word_characters() {
    let sb = Sandbox::new();
    let mut pack = String::from("disk full\nerror [0-9]+\n");
    for i in 0..250 {
        pack.push_str(&format!("unused rule {i} [qz]+\n"));
    }
    sb.write("rules.txt", &pack);
    sb.write(
        "text.txt",
        "\u{301}disk full\u{301}\nxdisk full\ndisk full\nerror 42x\nan error 7\n",
    );
    for engine in ["alternation", "pack", "rules"] {
        let out = sb
            .grep(&["-n", "-w", "-E", "-f", "rules.txt", "text.txt"])
            .env("GPUGREP_RULE_PACK", engine)
            .run();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "1:\u{301}disk full\u{301}\n3:disk full\n5:an error 7\n",
            "{engine}: {}",
            out.stderr
        );
    }
}

/// `-w -o` of a pack whose rules are each their own word regex, near
/// characters where GNU's word characters and the `regex` crate's differ
/// (a combining mark, connector punctuation; `WordRules`): the matches
/// printed are those of the rules' one alternation (`alternation`, the
/// single regex's `WordRegex`), for packs of literal rules and mixed ones.
/// Before, a mixed pack under `-w` ran the alternation of its rules: for
/// gitleaks' rules it took 8.2 s and 2.3 GB to build and then 23 GB on 1
/// MB of logs (`-c`, killed after 670 s).
#[test]
fn word_rules_print_the_alternations_matches() {
    const PIECES: &[&str] = &[
        "abc", "x", "y", " ", "_", "-", "9", "\u{301}", "\u{203f}", "é", "ж", "B",
    ];
    let sb = Sandbox::new();
    for seed in 1..=24u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let n = 2 + rng.below(30);
        let pack: String = (0..n).map(|_| format!("{}\n", rule(&mut rng).0)).collect();
        let mut text = String::new();
        for _ in 0..40 {
            for _ in 0..rng.below(16) {
                text += rng.pick(PIECES);
            }
            text.push('\n');
        }
        sb.write("rules.txt", &pack);
        sb.write("text.txt", &text);
        for flags in [&["-w", "-o", "-n"][..], &["-w", "-c"][..]] {
            let run = |engine: &str| {
                let mut args = flags.to_vec();
                args.extend(["-E", "-f", "rules.txt", "text.txt"]);
                let out = sb.grep(&args).env("GPUGREP_RULE_PACK", engine).run();
                assert!(out.code <= 1, "seed {seed} {engine}: {}", out.stderr);
                out.stdout
            };
            let want = run("alternation");
            for engine in ["rules", "pack"] {
                let got = run(engine);
                assert!(
                    got == want,
                    "seed {seed}, {engine}, {flags:?}\n{}\nrules:\n{pack}",
                    common::diff(&want, &got)
                );
            }
        }
    }
}

/// Secret scanners' rules (gitleaks' shape: a lazy `[\w.-]{0,50}?` in
/// front, `[\w-]{8,300}` at the end, Unicode `\w`) compiled whole ran
/// past the pack's memory limit ("rule pack too large") for 221 real rules.
/// Where only lines count their ends are trimmed (`pattern::trim`), so the
/// pack fits and selects the same lines; `-o` still prints whole matches.
#[test]
fn secret_rules_fit_where_only_lines_count() {
    let sb = Sandbox::new();
    let rules: Vec<String> = (0..250)
        .map(|i| format!(r"(?i)[\w.-]{{0,50}}?(?:key{i}|token{i})[ =:'\x22]{{1,5}}[\w-]{{8,300}}"))
        .collect();
    sb.write("rules.txt", &(rules.join("\n") + "\n"));
    let secret = "Ab9_".repeat(10);
    let mut text = String::new();
    for i in 0..300 {
        match i % 3 {
            0 => text += &format!("cfg.KEY{i} = '{secret}'\n"),
            1 => text += &format!("token{i}: short\n"),
            _ => text += &format!("unrelated line {i}\n"),
        }
    }
    sb.write("in.txt", &text);
    // The text is ASCII: there `\w` is `[0-9A-Za-z_]`, and the oracle small.
    let ascii: Vec<String> = rules
        .iter()
        .map(|r| r.replace(r"\w", "0-9A-Za-z_"))
        .collect();
    let all = regex::bytes::RegexBuilder::new(&ascii.join("|"))
        .size_limit(1 << 30)
        .build()
        .expect("oracle");
    let want = text.lines().filter(|l| all.is_match(l.as_bytes())).count();
    assert!(want > 50, "the text holds matches");
    for engine in [None, Some("rules"), Some("pack")] {
        let mut cmd = sb.grep(&["-P", "-c", "-f", "rules.txt", "in.txt"]);
        if let Some(e) = engine {
            cmd = cmd.env("GPUGREP_RULE_PACK", e);
        }
        cmd.expect(format!("{want}\n"), "", 0);
    }
    // -o needs the whole matches: ASCII classes keep that pack small.
    sb.write("ascii.txt", &(ascii.join("\n") + "\n"));
    let mut want = String::new();
    for l in text.lines() {
        for m in all.find_iter(l.as_bytes()) {
            want += &String::from_utf8_lossy(m.as_bytes());
            want.push('\n');
        }
    }
    sb.grep(&["-P", "-o", "-f", "ascii.txt", "in.txt"])
        .expect(want, "", 0);
}

/// 220 secret rules, half of gitleaks' generic shape (Unicode `\w`), half
/// of its specific one, and 400 lines of text, ASCII and not, holding
/// their matches, some whole lines.
fn secret_pack() -> (Vec<String>, String) {
    let rules: Vec<String> = (0..220)
        .map(|i| match i % 2 {
            0 => format!(r"(?i)[\w.-]{{0,50}}?(?:key{i}|token{i})[ =:'\x22]{{1,5}}[\w-]{{8,40}}"),
            _ => format!(r"\b(?:key{i}|token{i})[ =:'\x22]{{1,5}}[A-Za-z0-9_-]{{8,40}}"),
        })
        .collect();
    let mut text = String::new();
    for i in 0..400 {
        let secret = ["Ab9_", "ñé_ß"][i % 2].repeat(1 + i % 7);
        let prefix = ["cfg.", "clé_ünïcode.", "中文-", "", "x\u{301}"][i % 5];
        match i % 4 {
            0 => text += &format!("{prefix}KEY{i} = '{secret}' and token{} {secret}\n", i / 2),
            1 => text += &format!("token{i}: short, {prefix}key{}={secret}\n", i % 220),
            2 => text += &format!("{prefix}key{}={secret}\n", i % 220),
            _ => text += &format!("unrelated line {i} ключ\n"),
        }
    }
    (rules, text)
}

/// The line numbers of `-n` output, one a line.
fn line_numbers(stdout: &[u8]) -> String {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| format!("{}\n", l.split(':').next().unwrap_or("")))
        .collect()
}

/// The same rules under `-w` and `-x`: their whole forms passed the pack's
/// limit ("rule pack too large" under `-x`), and under `-w` the rules'
/// alternation took 2.3 GB to build and 23 GB to search 1 MB (gitleaks).
/// Now each rule's large forward automaton is kept alone: the lines are
/// the oracle's.
#[test]
fn secret_rules_answer_under_w_and_x() {
    const NOT_GNU_WORD: &str = r"[\p{M}\p{Pc}\p{Join_Control}--[_\p{Alphabetic}]]";
    let sb = Sandbox::new();
    let (rules, text) = secret_pack();
    sb.write("rules.txt", &(rules.join("\n") + "\n"));
    sb.write("in.txt", &text);
    for (flag, wrap) in [
        (
            "-w",
            format!(
                r"(?:\b{{start-half}}|{NOT_GNU_WORD})(?:RULE)(?:\b{{end-half}}|{NOT_GNU_WORD})"
            ),
        ),
        ("-x", "^(?:RULE)$".to_string()),
    ] {
        let mut built: std::collections::HashMap<usize, Regex> = Default::default();
        let mut want = String::new();
        for (n, line) in text.lines().enumerate() {
            let lowered = line.to_lowercase();
            let hit = (0..rules.len())
                .filter(|i| {
                    lowered.contains(&format!("key{i}")) || lowered.contains(&format!("token{i}"))
                })
                .any(|i| {
                    let re = built.entry(i).or_insert_with(|| {
                        regex::bytes::RegexBuilder::new(&wrap.replace("RULE", &rules[i]))
                            .size_limit(1 << 30)
                            .build()
                            .expect("oracle rule")
                    });
                    re.is_match(line.as_bytes())
                });
            if hit {
                want += &format!("{}\n", n + 1);
            }
        }
        assert!(want.lines().count() > 20, "{flag}: the text holds matches");
        for engine in [None, Some("rules"), Some("pack")] {
            let mut cmd = sb.grep(&["-P", flag, "-n", "-f", "rules.txt", "in.txt"]);
            if let Some(e) = engine {
                cmd = cmd.env("GPUGREP_RULE_PACK", e);
            }
            let out = cmd.run();
            assert_eq!(out.code, 0, "{flag} {engine:?}: {}", out.stderr);
            assert_eq!(line_numbers(&out.stdout), want, "{flag} {engine:?}");
        }
    }
}

/// Secret rules under `-o`, `--count-matches` and colour stopped with "rule
/// pack too large" (gitleaks' 221 rules): the whole rules, which place the
/// matches, passed the limit. Lines are now decided by the trimmed rules
/// and the matches placed by the whole ones (`cpu::LinesAndSpans`),
/// through their cuts to ASCII on ASCII lines and, past ASCII, the large
/// rules' forward automata alone: the oracle's matches on both, with
/// Unicode `\w` in the matches. Half the rules have gitleaks' generic
/// shape, half its specific one, as in gitleaks.
#[test]
fn secret_rules_print_their_matches_under_o() {
    let sb = Sandbox::new();
    let (rules, text) = secret_pack();
    sb.write("rules.txt", &(rules.join("\n") + "\n"));
    sb.write("in.txt", &text);
    // The oracle: per line, the rules whose literal the line holds, each
    // its own Unicode regex, the leftmost start winning, then the first
    // rule.
    let mut built: std::collections::HashMap<usize, Regex> = Default::default();
    let mut want = String::new();
    let mut counts = String::new();
    for line in text.lines() {
        let lowered = line.to_lowercase();
        let candidates: Vec<usize> = (0..rules.len())
            .filter(|i| {
                lowered.contains(&format!("key{i}")) || lowered.contains(&format!("token{i}"))
            })
            .collect();
        let mut at = 0;
        let mut n = 0;
        loop {
            let best = candidates
                .iter()
                .filter_map(|&i| {
                    let re = built.entry(i).or_insert_with(|| {
                        regex::bytes::RegexBuilder::new(&rules[i])
                            .size_limit(1 << 30)
                            .build()
                            .expect("oracle rule")
                    });
                    re.find_at(line.as_bytes(), at)
                        .map(|m| (m.start(), m.end()))
                })
                .min_by_key(|&(start, _)| start);
            let Some((start, end)) = best else { break };
            want += &line[start..end];
            want.push('\n');
            n += 1;
            at = end;
        }
        if n > 0 {
            counts += &format!("{n}\n");
        }
    }
    assert!(
        want.lines().filter(|m| !m.is_ascii()).count() > 50,
        "matches past ASCII"
    );
    assert!(
        want.lines().filter(|m| m.is_ascii()).count() > 50,
        "ASCII matches"
    );
    let total: usize = counts.lines().map(|c| c.parse::<usize>().unwrap()).sum();
    // Forced, a pack's one automaton decides lines; its rules, too large
    // for one alternation, place the matches each on every line.
    for engine in [None, Some("rules"), Some("pack")] {
        let env = |mut cmd: common::Cmd| {
            if let Some(e) = engine {
                cmd = cmd.env("GPUGREP_RULE_PACK", e);
            }
            cmd
        };
        env(sb.grep(&["-P", "-o", "-f", "rules.txt", "in.txt"])).expect(&want, "", 0);
        env(sb.grep(&["-P", "--count-matches", "-f", "rules.txt", "in.txt"])).expect(
            format!("{total}\n"),
            "",
            0,
        );
        // Colour marks the same matches, in their lines.
        let colored = env(sb.grep(&["-P", "--color=always", "-f", "rules.txt", "in.txt"])).run();
        assert_eq!(colored.code, 0, "{engine:?}: {}", colored.stderr);
        let colored = String::from_utf8_lossy(&colored.stdout).into_owned();
        let marked: String = colored
            .split("\x1b[01;31m\x1b[K")
            .skip(1)
            .filter_map(|piece| piece.split_once("\x1b[m\x1b[K"))
            .map(|(m, _)| format!("{m}\n"))
            .collect();
        assert_eq!(marked, want, "{engine:?}");
        assert_eq!(colored.lines().count(), counts.lines().count());
    }
}

/// Where nearly every line is a candidate, a pack's finder is set aside for
/// a stretch of lines (`cpu::DenseLines`): dense, sparse and dense again,
/// in a mixed pack and one of literal rules only, with and without `-w`
/// (most candidate lines fail its word boundaries), the lines and their
/// numbers are the oracle's.
#[test]
fn dense_stretches_select_the_oracles_lines() {
    let sb = Sandbox::new();
    let mut rules: Vec<String> = (0..240).map(|i| format!(r"key{i}=[a-z]+")).collect();
    let mut text = String::new();
    for i in 0..6000 {
        let key = i % 240;
        match (i / 2000, i % 5) {
            (1, _) => text += &format!("quiet line {i}\n"),
            (_, 0) => text += &format!("key{key}=\n"),
            (_, 1) => text += &format!("at {i} xkey{key}=value done\n"),
            (_, 2) => text += &format!("at {i} key{key}=value done\n"),
            _ => text += &format!("at {i} key{key}=value{i} done\n"),
        }
    }
    sb.write("in.txt", &text);
    for mixed in [false, true] {
        if mixed {
            rules.push(r"[0-9]+\.[0-9]+ done".into());
            text.push_str("at 1.5 done\n");
            sb.write("in.txt", &text);
        }
        sb.write("rules.txt", &(rules.join("\n") + "\n"));
        for (flag, least) in [("", 2000), ("-w", 500)] {
            // GNU's word boundaries are the crate's on ASCII text.
            let all = match flag {
                "-w" => Regex::new(&format!(r"\b(?:{})\b", rules.join("|"))),
                _ => Regex::new(&rules.join("|")),
            }
            .expect("oracle");
            let want: String = text
                .lines()
                .enumerate()
                .filter(|(_, l)| all.is_match(l.as_bytes()))
                .map(|(n, l)| format!("{}:{l}\n", n + 1))
                .collect();
            assert!(want.lines().count() > least, "{flag}");
            let mut args = vec!["-E", "-n", "-f", "rules.txt", "in.txt"];
            if !flag.is_empty() {
                args.insert(0, flag);
            }
            sb.grep(&args).expect(want, "", 0);
        }
    }
}

/// Under `-x` a pack's lines also come from one lazy DFA of its rules'
/// alternation (`cpu::DfaLines`), timed against the rules dispatched. With
/// a Unicode word boundary in a rule that DFA gives up on the first byte
/// past ASCII and the rules answer instead; through the meta engine it
/// would have handed the buffer to the PikeVM. The lines are the oracle's
/// whichever finder runs (`GPUGREP_RETIMED`), and so are they under `-w`
/// (GNU's word characters beside the matches: a combining mark, a
/// connector) and without either flag, where no DFA is built.
#[test]
fn anchored_packs_answer_where_their_dfa_gives_up() {
    const NOT_GNU_WORD: &str = r"[\p{M}\p{Pc}\p{Join_Control}--[_\p{Alphabetic}]]";
    let sb = Sandbox::new();
    let mut rules: Vec<String> = (0..250)
        .map(|i| format!(r"(job|step)_{i} (failed|passed) in [0-9]+ ?s"))
        .collect();
    rules.push(r"\bwarn(ing)? \w+ é?\w*".to_string());
    let mut text = String::new();
    for n in 0..3000 {
        let line = match n % 8 {
            0 => format!("job_{} failed in {}s", n % 300, n),
            1 => format!("step_{} passed in {} s", n % 251, n * 7),
            2 => format!("warning disk{n} é{n}"),
            3 => format!("warn café{n}"),
            4 => format!("xwarn w{n}"),
            5 => format!("job_{} failed in {}s\u{301}x", n % 250, n),
            6 => format!("a\u{203F}step_{} passed in {} s", n % 250, n),
            _ => format!("job_{} failed in {}s, again", n % 250, n),
        };
        text += &line;
        text.push('\n');
    }
    sb.write("rules.txt", &(rules.join("\n") + "\n"));
    sb.write("in.txt", &text);
    for flag in ["-x", "-w", ""] {
        let wrap = match flag {
            "-x" => "^(?:RULE)$".to_string(),
            "-w" => format!(
                r"(?:\b{{start-half}}|{NOT_GNU_WORD})(?:RULE)(?:\b{{end-half}}|{NOT_GNU_WORD})"
            ),
            _ => "RULE".to_string(),
        };
        let oracle: Vec<Regex> = rules
            .iter()
            .map(|r| Regex::new(&wrap.replace("RULE", r)).unwrap())
            .collect();
        let want: String = text
            .lines()
            .enumerate()
            .filter(|(_, l)| oracle.iter().any(|re| re.is_match(l.as_bytes())))
            .map(|(n, _)| format!("{}\n", n + 1))
            .collect();
        assert!(want.lines().count() > 1000, "{flag}");
        let mut args = vec!["-E", "-n", "-f", "rules.txt", "in.txt"];
        if !flag.is_empty() {
            args.insert(0, flag);
        }
        let finders = match flag {
            "-x" => vec![None, Some("1"), Some("2")],
            _ => vec![None],
        };
        for finder in finders {
            let mut cmd = sb.grep(&args);
            if let Some(f) = finder {
                cmd = cmd.env("GPUGREP_RETIMED", f);
            }
            let out = cmd.run();
            assert_eq!(out.code, 0, "{args:?} {finder:?}: {}", out.stderr);
            assert_eq!(line_numbers(&out.stdout), want, "{args:?} {finder:?}");
        }
        args.insert(0, "--debug");
        let debug = sb.grep(&args).run().stderr;
        assert_eq!(
            debug.contains("whichever each thread last timed faster"),
            flag == "-x",
            "{debug}"
        );
    }
}
