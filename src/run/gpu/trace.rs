//! `GPUGREP_GPU_TRACE=1` (a measurement knob): when each chunk was
//! leased, filled, searched and posted, and when each GPU file's lines
//! and output were made, printed under `--debug` as one line per chunk
//! and per file, so a stall in the pipeline shows where it is (the
//! `--stats` stage totals are sums over threads and cannot). Off, every
//! call is one branch on a `None`; on, one lock per chunk and stage.

use std::sync::Mutex;
use std::time::Instant;

/// A chunk's stages, in pipeline order.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// The packer got a free chunk from the ring.
    Leased,
    /// Its last read is in.
    Filled,
    /// A lane began searching it.
    Searching,
    /// The GPU's answer is home (the lane then sorts it into pieces).
    Searched,
    /// Its results are on the board.
    Posted,
}

const EVENTS: usize = 5;

/// Per chunk: microseconds since the pipeline started at each event, and
/// the ring's free slots when it was leased.
#[derive(Clone, Copy, Default)]
struct Row {
    at_us: [Option<u64>; EVENTS],
    free_at_lease: usize,
}

pub struct Trace {
    t0: Instant,
    /// `t0` on the wall clock, to line the trace up with the process's
    /// start and end as a script timed them.
    t0_unix: f64,
    rows: Option<Mutex<Vec<Row>>>,
    /// Per GPU file: its index and when its lines and output began and
    /// ended (microseconds since `t0`).
    files: Option<Mutex<Vec<(usize, u64, u64)>>>,
}

impl Trace {
    pub fn new(on: bool) -> Trace {
        Trace {
            t0: Instant::now(),
            t0_unix: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64()),
            rows: on.then(|| Mutex::new(Vec::new())),
            files: on.then(|| Mutex::new(Vec::new())),
        }
    }

    /// Notes `event` of chunk `id` (the packer numbers chunks from 0).
    pub fn note(&self, id: usize, event: Event) {
        self.note_with(id, event, None);
    }

    /// Notes a lease, with the ring's free slots left.
    pub fn leased(&self, id: usize, free: usize) {
        self.note_with(id, Event::Leased, Some(free));
    }

    /// Notes file `i`'s lines and output, begun at `began`, as done now.
    pub fn file(&self, i: usize, began: Instant) {
        let Some(files) = &self.files else { return };
        let us = |t: Instant| t.saturating_duration_since(self.t0).as_micros() as u64;
        if let Ok(mut f) = files.lock() {
            f.push((i, us(began), us(Instant::now())));
        }
    }

    fn note_with(&self, id: usize, event: Event, free: Option<usize>) {
        let Some(rows) = &self.rows else { return };
        let us = self.t0.elapsed().as_micros() as u64;
        if let Ok(mut rows) = rows.lock() {
            if rows.len() <= id {
                rows.resize(id + 1, Row::default());
            }
            rows[id].at_us[event as usize] = Some(us);
            if let Some(f) = free {
                rows[id].free_at_lease = f;
            }
        }
    }

    /// The timeline, one line per chunk (empty when off).
    pub fn lines(&self) -> Vec<String> {
        let Some(rows) = &self.rows else {
            return Vec::new();
        };
        let rows = rows.lock().map(|r| r.clone()).unwrap_or_default();
        let ms = |t: Option<u64>| t.map_or("-".to_string(), |us| format!("{:.1}", us as f64 / 1e3));
        let mut lines = vec![
            format!(
                "trace: began at unix {:.6}, reported {:.1} ms later",
                self.t0_unix,
                self.t0.elapsed().as_secs_f64() * 1e3
            ),
            "trace: chunk leased filled searching searched posted (ms) free-slots".into(),
        ];
        lines.extend(rows.iter().enumerate().map(|(id, r)| {
            format!(
                "trace: {id} {} {} {} {} {} {}",
                ms(r.at_us[0]),
                ms(r.at_us[1]),
                ms(r.at_us[2]),
                ms(r.at_us[3]),
                ms(r.at_us[4]),
                r.free_at_lease
            )
        }));
        let mut files = self
            .files
            .as_ref()
            .and_then(|f| f.lock().ok().map(|f| f.clone()))
            .unwrap_or_default();
        files.sort_unstable();
        lines.push("trace: file output-began output-ended (ms)".into());
        lines.extend(
            files
                .iter()
                .map(|&(i, a, b)| format!("trace: file {i} {} {}", ms(Some(a)), ms(Some(b)))),
        );
        lines
    }
}

impl Default for Trace {
    /// On when `GPUGREP_GPU_TRACE=1`.
    fn default() -> Trace {
        Trace::new(crate::knobs::get().gpu_trace.or(false))
    }
}
