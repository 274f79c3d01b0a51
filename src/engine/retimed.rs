//! Two exact finders of the same lines, each thread keeping the one that
//! was faster on its own recent text and timing both again now and then.
//!
//! Built for a rule pack under `-x`: its rules dispatched by their
//! literals against one DFA of their alternation (`cpu::ConfirmedLines`,
//! `pattern::compile::pack`). Unlike `Fastest`'s one choice for the run,
//! the better of these can change with the text, and the worse can be
//! slower by thousands of times: a lazy DFA that thrashes its cache hands
//! the search to the PikeVM (10,000 generated rules unanchored: 100 us a
//! byte), and a cold one builds states for microseconds a byte. So a
//! trial gives each finder a few milliseconds at most, a run keeps
//! watching its finder's time (slower than the other was in the trial, it
//! ends), and runs grow while trials agree.

use super::Matcher;
use std::cell::Cell;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Finds lines with whichever of two finders each thread last timed faster.
pub struct Retimed {
    finders: [Box<dyn Matcher>; 2],
    /// The line terminator: calls end at one ([`TRIAL_WINDOW`]).
    t: u8,
    /// The finder run without trials (`GPUGREP_RETIMED`), if any.
    forced: Option<usize>,
}

/// The trials' choices in this process, for `--stats` ([`stats_line`]):
/// per finder, how many runs it was chosen for. One `Retimed` is built a
/// run (a rule pack's under `-x`); its names are kept beside.
static CHOSEN: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static NAMES: OnceLock<[&'static str; 2]> = OnceLock::new();

/// `--stats`' line on the trials' choices, if a [`Retimed`] ran any.
pub fn stats_line() -> Option<String> {
    let [a, b] = CHOSEN.each_ref().map(|c| c.load(Ordering::Relaxed));
    let [na, nb] = NAMES.get()?;
    (a + b > 0).then(|| format!("lines found by trials' choice: {a} run(s) by {na}, {b} by {nb}"))
}

/// Calls of each finder untimed on a thread's first trial (the first one
/// waits for a rule set's Aho-Corasick automaton, built on a thread).
const WARM_CALLS: u32 = 4;
/// A trial ends once each finder searched this many bytes timed...
const TRIAL_BYTES: u64 = 1 << 20;
/// ...or took this long.
const TRIAL_NANOS: u64 = 4_000_000;
/// Bytes searched by the chosen finder before the next trial; doubled
/// while trials keep choosing it, up to [`LONGEST_RUN`].
const FIRST_RUN: u64 = 32 << 20;
const LONGEST_RUN: u64 = 512 << 20;
/// Bytes a call searches at most, to the end of a line, in a trial and
/// in a run: a finder without a match in a file would search all of it
/// in one call, which no clock could stop (a lazy DFA building states
/// at microseconds a byte without giving up).
const TRIAL_WINDOW: usize = 64 << 10;
const RUN_WINDOW: usize = 1 << 20;
/// A run looks at the clock every this many calls or bytes, and judges
/// its finder once that much time has passed since its last judgement.
const WATCH_CALLS: u32 = 8;
const WATCH_BYTES: u64 = 256 << 10;
const WATCH_NANOS: u64 = 2_000_000;
/// A run ends where its finder takes this many times the other's time a
/// byte in the trial.
const SLOWER: u128 = 2;

/// One thread's trial of a [`Retimed`], or its run with the chosen finder.
#[derive(Clone, Copy)]
struct Trial {
    owner: usize,
    calls: [u32; 2],
    bytes: [u64; 2],
    nanos: [u64; 2],
    /// The thread's first trial (its first calls untimed).
    first: bool,
    chosen: usize,
    /// Bytes left in the run (0: in a trial).
    left: u64,
    /// The run's length (0: none yet).
    run: u64,
    /// The run's watch: since when, over how many calls and bytes.
    since: Option<Instant>,
    watched_calls: u32,
    watched_bytes: u64,
}

thread_local! {
    static TRIAL: Cell<Option<Trial>> = const { Cell::new(None) };
}

impl Trial {
    fn new(owner: usize) -> Trial {
        Trial {
            owner,
            calls: [0; 2],
            bytes: [0; 2],
            nanos: [0; 2],
            first: true,
            chosen: 0,
            left: 0,
            run: 0,
            since: None,
            watched_calls: 0,
            watched_bytes: 0,
        }
    }

    /// Whether finder `i` has had its trial.
    fn tried(&self, i: usize) -> bool {
        self.bytes[i] >= TRIAL_BYTES || self.nanos[i] >= TRIAL_NANOS
    }

    /// The finder to time next: one not yet tried, the one that took less
    /// time so far.
    fn next(&self) -> usize {
        match (self.tried(0), self.tried(1)) {
            (true, false) => 1,
            (false, true) => 0,
            _ => usize::from(self.nanos[1] < self.nanos[0]),
        }
    }

    /// After a trial's call of finder `i`.
    fn timed(&mut self, i: usize, bytes: u64, nanos: u64) {
        self.calls[i] += 1;
        if self.first && self.calls[i] <= WARM_CALLS {
            return;
        }
        self.bytes[i] += bytes;
        self.nanos[i] += nanos;
        if !(self.tried(0) && self.tried(1)) {
            return;
        }
        // Nanoseconds a byte, cross-multiplied: n0 / b0 against n1 / b1.
        let faster = usize::from(self.rate(1) < self.rate(0));
        let run = match (self.run, faster == self.chosen) {
            (0, _) | (_, false) => FIRST_RUN,
            (run, true) => (run * 2).min(LONGEST_RUN),
        };
        CHOSEN[faster].fetch_add(1, Ordering::Relaxed);
        self.first = false;
        self.chosen = faster;
        self.left = run;
        self.run = run;
        self.since = Some(Instant::now());
        (self.watched_calls, self.watched_bytes) = (0, 0);
    }

    /// Finder `i`'s nanoseconds a byte times the other's bytes.
    fn rate(&self, i: usize) -> u128 {
        u128::from(self.nanos[i]) * u128::from(self.bytes[1 - i].max(1))
    }

    /// After a run's call that searched `bytes`: the run goes on, or ends
    /// where it is done or its finder got slower than the other was.
    fn ran(&mut self, bytes: u64) {
        self.left = self.left.saturating_sub(bytes.max(1));
        if self.left == 0 {
            return self.end_run();
        }
        self.watched_calls += 1;
        self.watched_bytes += bytes;
        if self.watched_calls < WATCH_CALLS && self.watched_bytes < WATCH_BYTES {
            return;
        }
        self.watched_calls = 0;
        let now = Instant::now();
        let since = *self.since.get_or_insert(now);
        let nanos = now.duration_since(since).as_nanos();
        if nanos < u128::from(WATCH_NANOS) {
            return;
        }
        // nanos / watched against the other's n / b in the trial.
        let other = 1 - self.chosen;
        let slower = nanos * u128::from(self.bytes[other].max(1))
            > SLOWER * u128::from(self.nanos[other]) * u128::from(self.watched_bytes.max(1));
        (self.since, self.watched_bytes) = (Some(now), 0);
        if slower {
            self.end_run();
        }
    }

    /// A trial next.
    fn end_run(&mut self) {
        self.left = 0;
        self.calls = [0; 2];
        self.bytes = [0; 2];
        self.nanos = [0; 2];
    }
}

impl Retimed {
    /// `first` and `second`: exact finders of the same lines, ended by
    /// `t`; `names` say what they are, for `--stats`.
    pub fn new(
        first: Box<dyn Matcher>,
        second: Box<dyn Matcher>,
        names: [&'static str; 2],
        t: u8,
    ) -> Retimed {
        let _ = NAMES.set(names);
        let forced = crate::knobs::get().retimed.get().filter(|&f| f <= 2);
        Retimed {
            finders: [first, second],
            t,
            forced: forced.map(|f| f - 1),
        }
    }

    /// One timed call (a trial's) or one watched call (a run's) of a
    /// finder on `part`, a window of whole lines.
    fn call(&self, trial: &mut Trial, part: &[u8], at: usize) -> Option<Range<usize>> {
        if let Some(f) = self.forced {
            return self.finders[f].find_at(part, at);
        }
        let searched = |found: &Option<Range<usize>>| {
            let end = found.as_ref().map_or(part.len(), |m| m.end);
            end.saturating_sub(at) as u64
        };
        match trial.left {
            0 => {
                let i = trial.next();
                let start = Instant::now();
                let found = self.finders[i].find_at(part, at);
                let nanos = start.elapsed().as_nanos() as u64;
                trial.timed(i, searched(&found), nanos);
                found
            }
            _ => {
                let found = self.finders[trial.chosen].find_at(part, at);
                trial.ran(searched(&found));
                found
            }
        }
    }
}

/// Where a window of `size` bytes from `at` ends: at the terminator `t`
/// ending the line it reaches into (so its lines are whole, the last one
/// without its terminator: a `$` at the window's end is that line's), or
/// at the end of `hay`.
fn window_end(hay: &[u8], at: usize, size: usize, t: u8) -> usize {
    let from = at.saturating_add(size).min(hay.len());
    memchr::memchr(t, &hay[from..]).map_or(hay.len(), |i| from + i)
}

impl Matcher for Retimed {
    /// Window by window ([`TRIAL_WINDOW`], [`RUN_WINDOW`]), each a call.
    fn find_at(&self, hay: &[u8], mut at: usize) -> Option<Range<usize>> {
        let owner = self as *const Retimed as usize;
        let mut trial = TRIAL
            .get()
            .filter(|t| t.owner == owner)
            .unwrap_or(Trial::new(owner));
        let found = loop {
            if at > hay.len() {
                break None;
            }
            let size = match trial.left {
                0 => TRIAL_WINDOW,
                _ => RUN_WINDOW,
            };
            let end = window_end(hay, at, size, self.t);
            let found = self.call(&mut trial, &hay[..end], at);
            if found.is_some() || end == hay.len() {
                break found;
            }
            at = end + 1;
        };
        TRIAL.set(Some(trial));
        found
    }

    fn is_exact(&self) -> bool {
        self.finders.iter().all(|f| f.is_exact())
    }

    fn selects_lines(&self) -> bool {
        self.finders.iter().all(|f| f.selects_lines())
    }

    fn is_match_line(&self, line: &[u8]) -> bool {
        self.finders[0].is_match_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::Literal;
    use std::sync::Arc;

    /// A finder that sleeps `micros` a call.
    struct Slow {
        inner: Literal,
        micros: AtomicU64,
    }

    impl Matcher for Slow {
        fn find_at(&self, hay: &[u8], at: usize) -> Option<Range<usize>> {
            match self.micros.load(Ordering::Relaxed) {
                0 => {}
                us => std::thread::sleep(std::time::Duration::from_micros(us)),
            }
            self.inner.find_at(hay, at)
        }
    }

    fn slow(on: bool) -> Slow {
        Slow {
            inner: Literal::new(b"ab"),
            micros: AtomicU64::new(if on { 200 } else { 0 }),
        }
    }

    /// The finder this thread runs with now, if in a run.
    fn running(r: &Retimed) -> Option<usize> {
        let owner = r as *const Retimed as usize;
        TRIAL
            .get()
            .filter(|t| t.owner == owner && t.left > 0)
            .map(|t| t.chosen)
    }

    /// Searches `hay` through: every `ab`, and nothing else.
    fn all_hits(r: &Retimed, hay: &[u8]) -> usize {
        let (mut at, mut hits) = (0, 0);
        while let Some(m) = r.find_at(hay, at) {
            assert_eq!(&hay[m.clone()], b"ab");
            hits += 1;
            at = m.end;
        }
        hits
    }

    #[test]
    fn each_thread_runs_the_faster_and_answers_stay_the_same() {
        let mut line = vec![b'x'; 1 << 10];
        line.extend_from_slice(b"\nab\n");
        let hay = line.repeat(4000);
        for slow_first in [true, false] {
            let (a, b): (Box<dyn Matcher>, Box<dyn Matcher>) = match slow_first {
                true => (Box::new(slow(true)), Box::new(slow(false))),
                false => (Box::new(slow(false)), Box::new(slow(true))),
            };
            let r = Retimed::new(a, b, ["a", "b"], b'\n');
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(|| {
                        assert_eq!(all_hits(&r, &hay), 4000);
                        assert_eq!(running(&r), Some(usize::from(slow_first)));
                    });
                }
            });
        }
    }

    /// A run whose finder gets slower than the other was in the trial
    /// ends before its length (longer than the text: only the watch can
    /// end it), and the next trial picks the other.
    #[test]
    fn a_run_that_gets_slow_gives_way() {
        let mut line = vec![b'x'; 1 << 10];
        line.extend_from_slice(b"\nab\n");
        let hay = line.repeat(4000);
        assert!((hay.len() as u64) < FIRST_RUN);
        let first = Arc::new(slow(false));
        let r = Retimed::new(
            Box::new(first.clone()),
            Box::new(slow(true)),
            ["a", "b"],
            b'\n',
        );
        assert_eq!(all_hits(&r, &hay), 4000);
        assert_eq!(running(&r), Some(0));
        // 100 times the other's sleep: a loaded machine (the CI's tests
        // beside it) stretched the other's 200 us in the trial enough that
        // 2 ms was not twice as slow.
        first.micros.store(20_000, Ordering::Relaxed);
        assert_eq!(all_hits(&r, &hay), 4000);
        assert_eq!(running(&r), Some(1));
    }

    /// Calls end at a line's end, past the windows' sizes: an empty line
    /// (`^$`) is matched where it is, never at a window's end, and every
    /// line is found whole, on either side of the windows.
    #[test]
    fn windows_end_where_lines_end() {
        use crate::engine::cpu::RegexLines;
        use regex_automata::meta;
        let mut hay = Vec::new();
        let mut want = Vec::new();
        let mut seed = 12345u64;
        while hay.len() < 5 * RUN_WINDOW {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let line: Vec<u8> = match seed % 5 {
                0 => Vec::new(),
                1 => b"ab".to_vec(),
                _ => vec![b'x'; (seed >> 8) as usize % 40_000],
            };
            if line.is_empty() || line == b"ab" {
                want.push(hay.len());
            }
            hay.extend_from_slice(&line);
            hay.push(b'\n');
        }
        let re = || {
            let re = meta::Builder::new()
                .configure(meta::Config::new().line_terminator(b'\n'))
                .build(r"(?m)^(?:ab)?$")
                .unwrap();
            Box::new(RegexLines::new(re, true)) as Box<dyn Matcher>
        };
        let r = Retimed::new(re(), re(), ["a", "b"], b'\n');
        let mut got = crate::engine::selected_line_starts(&r, &hay);
        // The empty end after the last terminator, which `^$` matches: no
        // line for a searcher.
        assert_eq!(got.pop(), Some(hay.len()));
        assert_eq!(got, want);
    }
}
