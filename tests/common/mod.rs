//! A tiny harness for gpugrep's integration tests.
//!
//! A [`Sandbox`] is a temporary directory to write files into; [`Sandbox::grep`]
//! builds a command that runs the real binary there (with `GREP_COLORS` and
//! `GREP_COLOR` cleared, the default engine, and a fixed UTF-8 locale), and
//! [`Cmd::expect`] runs it and compares stdout, stderr and the exit code
//! exactly, printing a readable line-by-line diff when they differ.
//!
//! Expected values are literals taken from GNU grep 3.8 (with the program
//! name `gpugrep`), never computed by calling grep at test time.

#![allow(dead_code)]

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// The binary under test: `GPUGREP_BIN` when set (test executables carried
/// to a GPU machine, where the build path does not exist), else Cargo's.
pub fn bin() -> OsString {
    std::env::var_os("GPUGREP_BIN").unwrap_or_else(|| OsString::from(env!("CARGO_BIN_EXE_gpugrep")))
}

/// A command running the binary under test with the engine
/// `GPUGREP_TEST_ENGINE` names (for tests that compare runs of their own
/// rather than a [`Sandbox`] case).
pub fn gpugrep() -> Command {
    let mut c = Command::new(bin());
    c.args(engine_args());
    c
}

/// `GPUGREP_TEST_ENGINE=gpu` runs every case with `--engine gpu` first on
/// the command line (a case's own `--engine` still wins): the same expected
/// output must come out of the GPU engine.
fn engine_args() -> Vec<String> {
    match std::env::var("GPUGREP_TEST_ENGINE") {
        Ok(e) if !e.is_empty() => vec![format!("--engine={e}")],
        _ => Vec::new(),
    }
}

/// A temporary directory holding a test's files.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Default for Sandbox {
    fn default() -> Self {
        Self::new()
    }
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().expect("create temp dir"),
        }
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `rel` inside the sandbox.
    pub fn join(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Writes `contents` to `rel`, creating parent directories.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) {
        let p = self.join(rel);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent dirs");
        }
        std::fs::write(&p, contents).expect("write file");
    }

    /// Creates the directory `rel` (and its parents).
    pub fn dir(&self, rel: &str) {
        std::fs::create_dir_all(self.join(rel)).expect("create dir");
    }

    /// Creates a symbolic link at `link` pointing to `target` (as written).
    pub fn symlink(&self, target: &str, link: &str) {
        let p = self.join(link);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent dirs");
        }
        std::os::unix::fs::symlink(target, p).expect("create symlink");
    }

    /// A gpugrep command with `args`, run in the sandbox.
    pub fn grep(&self, args: &[&str]) -> Cmd {
        let mut cmd = Cmd::new(args);
        cmd.cwd = self.path().to_path_buf();
        cmd
    }
}

/// Runs `script` with `sh -c` in `dir`, where `$GPUGREP` is the binary
/// under test (for redirections such as `>&-` or `{ gpugrep; cat; } < f`).
pub fn sh(dir: &Path, script: &str) -> Output {
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("GPUGREP", bin())
        .env_remove("GREP_COLORS")
        .env_remove("GREP_COLOR")
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::null())
        .output()
        .expect("run sh");
    Output {
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// What a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The exit code; -1 when killed by a signal.
    pub code: i32,
}

/// A gpugrep invocation being built.
pub struct Cmd {
    args: Vec<OsString>,
    stdin: Option<Vec<u8>>,
    cwd: PathBuf,
    env: Vec<(String, String)>,
}

impl Cmd {
    pub fn new(args: &[&str]) -> Cmd {
        Cmd {
            args: args.iter().map(OsString::from).collect(),
            stdin: None,
            cwd: std::env::temp_dir(),
            env: Vec::new(),
        }
    }

    /// Feeds `data` on standard input (else stdin is empty).
    pub fn stdin(mut self, data: impl AsRef<[u8]>) -> Cmd {
        self.stdin = Some(data.as_ref().to_vec());
        self
    }

    /// Runs in `rel`, relative to the current working directory set so far.
    pub fn current_dir(mut self, rel: &str) -> Cmd {
        self.cwd = self.cwd.join(rel);
        self
    }

    /// Sets an environment variable for the run.
    pub fn env(mut self, key: &str, value: &str) -> Cmd {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    /// The `std::process::Command`, not yet started (stdio not set).
    pub fn command(&self) -> Command {
        let mut c = Command::new(bin());
        c.args(engine_args())
            .args(&self.args)
            .current_dir(&self.cwd)
            .env_remove("GREP_COLORS")
            .env_remove("GREP_COLOR")
            .env("LC_ALL", "C.UTF-8");
        for (k, v) in &self.env {
            c.env(k, v);
        }
        c
    }

    /// Starts the command with piped stdout/stderr and the stdin given.
    pub fn spawn(&self) -> Child {
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn gpugrep");
        let data = self.stdin.clone().unwrap_or_default();
        let mut pipe = child.stdin.take().expect("stdin pipe");
        std::thread::spawn(move || {
            // gpugrep may exit without reading it all (-q, -m).
            let _ = pipe.write_all(&data);
        });
        child
    }

    /// Runs to completion.
    pub fn run(&self) -> Output {
        let out = self.spawn().wait_with_output().expect("wait for gpugrep");
        Output {
            stdout: out.stdout,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        }
    }

    /// Runs to completion, or kills the run and panics after `limit`.
    pub fn run_within(&self, limit: std::time::Duration) -> Output {
        let mut child = self.spawn();
        let (mut out, mut err) = (child.stdout.take(), child.stderr.take());
        let readers = std::thread::spawn(move || {
            let mut o = Vec::new();
            let mut e = Vec::new();
            let t = std::thread::spawn(move || {
                if let Some(err) = err.as_mut() {
                    let _ = std::io::Read::read_to_end(err, &mut e);
                }
                e
            });
            if let Some(out) = out.as_mut() {
                let _ = std::io::Read::read_to_end(out, &mut o);
            }
            (o, t.join().unwrap_or_default())
        });
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for gpugrep") {
                break status;
            }
            if start.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{} ran longer than {limit:?}", self.describe());
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let (stdout, stderr) = readers.join().expect("output readers");
        Output {
            stdout,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            code: status.code().unwrap_or(-1),
        }
    }

    /// Runs and asserts stdout, stderr and exit code exactly.
    #[track_caller]
    pub fn expect(&self, stdout: impl AsRef<[u8]>, stderr: &str, code: i32) -> Output {
        let out = self.run();
        assert_output(&self.describe(), &out, stdout.as_ref(), stderr, code);
        out
    }

    fn describe(&self) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| format!("{:?}", a.to_string_lossy()))
            .collect();
        format!("gpugrep {}", args.join(" "))
    }
}

/// Asserts a run's output exactly, with a readable diff on failure.
#[track_caller]
pub fn assert_output(what: &str, out: &Output, stdout: &[u8], stderr: &str, code: i32) {
    let mut report = String::new();
    if out.stdout != stdout {
        report += &format!("stdout differs:\n{}", diff(stdout, &out.stdout));
    }
    if out.stderr != stderr {
        report += &format!(
            "stderr differs:\n{}",
            diff(stderr.as_bytes(), out.stderr.as_bytes())
        );
    }
    if out.code != code {
        report += &format!("exit code: expected {code}, got {}\n", out.code);
    }
    if !report.is_empty() {
        panic!("{what}\n{report}");
    }
}

/// A line-by-line diff of `want` and `got`: `-` lines expected, `+` lines
/// produced, ` ` lines shared; bytes shown escaped, so `\r`, NUL and escape
/// sequences are visible.
pub fn diff(want: &[u8], got: &[u8]) -> String {
    let a: Vec<&[u8]> = want.split_inclusive(|&b| b == b'\n').collect();
    let b: Vec<&[u8]> = got.split_inclusive(|&b| b == b'\n').collect();
    // Longest common subsequence table, fine for test-sized outputs.
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut out = String::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out += &format!("   {}\n", show(a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out += &format!("  -{}\n", show(a[i]));
            i += 1;
        } else {
            out += &format!("  +{}\n", show(b[j]));
            j += 1;
        }
    }
    if n == 0 && m == 0 {
        out += "   (both empty)\n";
    }
    out
}

/// Bytes as an escaped string (`"\n"`, `\0`, `\x1b`, ...).
pub fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => format!("{s:?}"),
        Err(_) => format!("b\"{}\"", bytes.escape_ascii()),
    }
}

/// A tiny deterministic generator for random test cases (fixed seeds, no
/// dependency): xorshift64.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// `len` bytes drawn from `alphabet`.
    pub fn bytes(&mut self, len: usize, alphabet: &[u8]) -> Vec<u8> {
        (0..len)
            .map(|_| alphabet[self.below(alphabet.len())])
            .collect()
    }

    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// The formats `--decompress` reads, by the extension their files get.
pub const COMPRESSED: [&str; 5] = ["gz", "zst", "bz2", "xz", "lz4"];

/// `text` compressed as `ext` says, by the crates gpugrep decompresses
/// with (archives are made from known text; nothing binary is committed).
pub fn compress(ext: &str, text: &[u8]) -> Vec<u8> {
    match ext {
        "gz" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        "zst" => zstd::encode_all(text, 3).unwrap(),
        "bz2" => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        "xz" => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        "lz4" => {
            // With the content checksum, as the `lz4` tool writes frames.
            let info = lz4_flex::frame::FrameInfo::new().content_checksum(true);
            let mut e = lz4_flex::frame::FrameEncoder::with_frame_info(info, Vec::new());
            e.write_all(text).unwrap();
            e.finish().unwrap()
        }
        other => panic!("no format {other}"),
    }
}

/// Whether `--engine gpu` runs here (a GPU, its driver, our kernels);
/// says so on stderr when it does not, so GPU tests skip visibly.
pub fn real_gpu() -> bool {
    let probe = tempfile::tempdir().unwrap();
    std::fs::write(probe.path().join("x"), b"x\n").unwrap();
    let out = Command::new(bin())
        .args(["--engine=gpu", "-q", "x", "x"])
        .current_dir(probe.path())
        .output()
        .expect("run gpugrep");
    let ok = out.status.code() == Some(0);
    if !ok {
        eprintln!(
            "GPU part skipped: no GPU: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    ok
}

/// gpugrep with `--engine=ENGINE`, `args` and `env`, in `dir`, under
/// `LC_ALL=C.UTF-8` and without `GREP_COLORS`: one side of a GPU-against-CPU
/// differential test.
#[allow(dead_code)]
pub fn run_engine(
    engine: &str,
    args: &[String],
    dir: &Path,
    env: &[(&str, String)],
) -> std::process::Output {
    Command::new(bin())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .arg(format!("--engine={engine}"))
        .args(args)
        .current_dir(dir)
        .env("LC_ALL", "C.UTF-8")
        .env_remove("GREP_COLORS")
        .output()
        .expect("run gpugrep")
}

/// Whether two runs of a differential test printed and exited alike
/// (stdout, stderr, exit status).
#[allow(dead_code)]
pub fn same_run(a: &std::process::Output, b: &std::process::Output) -> bool {
    (&a.stdout, &a.stderr, a.status.code()) == (&b.stdout, &b.stderr, b.status.code())
}

/// Two runs side by side, for a mismatch's report: each one's exit status,
/// the first 300 characters of its stdout, and its stderr.
#[allow(dead_code)]
pub fn show_runs(gpu: &std::process::Output, cpu: &std::process::Output) -> String {
    let side = |o: &std::process::Output| {
        format!(
            "rc {:?} {:?} {:?}",
            o.status.code(),
            String::from_utf8_lossy(&o.stdout)
                .chars()
                .take(300)
                .collect::<String>(),
            String::from_utf8_lossy(&o.stderr),
        )
    };
    format!("  gpu: {}\n  cpu: {}", side(gpu), side(cpu))
}

/// Whether a GPU run's `--stats` say that every one of its chunks, more
/// than one, was tallied on the GPU (`N bytes in C chunks ...; C tallied`).
#[allow(dead_code)]
pub fn every_chunk_tallied(stats: &str) -> bool {
    let chunks = stats
        .split(" bytes in ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .unwrap_or("?");
    chunks != "1" && stats.contains(&format!("{chunks} tallied on the GPU"))
}
