//! One chunk's search on a lane: copy the text up, run the kind's kernel
//! (and the back-read), count, then bring home what the caller asked for
//! (kernels/compact.cu: `scan_counts`, `compact`).
//!
//! Result shapes: every search kernel leaves a bitmap (one bit per text
//! byte where a match or candidate starts) and per-tile counts of its bits.
//! `scan_counts` sums the counts; with a `Tally` the `tally` kernel turns
//! the bitmap into per-file counts and nothing else ships; over `cap`
//! starts the chunk is `Dense` and nothing ships (the CPU searches it);
//! else the starts ship as offsets (compacted on the GPU) or as the bitmap
//! itself, whichever is fewer bytes (`kernels::ship_offsets`), and come out
//! of here as ascending offsets either way.

use std::sync::Arc;

use cudarc::driver::{result, CudaEvent, CudaStream, LaunchConfig, PushKernelArg};

use super::backread::Backread;
use super::context::{cuda, Device};
use super::kernels::{self, BLOCK};
use super::kind::Kind;
use super::memory::ptr;
use super::{unsure, ChunkFound, FileCount, GpuError, Tally};

impl Device {
    /// Searches one chunk for `kind`: copies `text` (pinned memory for an
    /// asynchronous copy, or pageable) to the GPU, runs the kernel (and the
    /// back-read, which drops candidates inside characters) and counts;
    /// with a `tally`, returns one count per file (unless a line is too
    /// long to walk); else ships the match starts back unless there are
    /// more than `cap`. Returns when the GPU has finished reading `text`.
    pub(crate) fn search_chunk(
        &mut self,
        text: &[u8],
        kind: &dyn Kind,
        backread: Option<Backread>,
        cap: u64,
        tally: Option<&Tally>,
    ) -> Result<ChunkFound, GpuError> {
        let n = text.len() as u64;
        // Nothing of `text` is on the GPU yet (`lines` asks).
        self.resident = 0;
        self.last_kernel = "none";
        self.last_shipped = "none";
        let none = || match tally {
            Some(t) => ChunkFound::Counts(vec![FileCount::default(); t.starts.len()]),
            None => ChunkFound::Offsets(Vec::new()),
        };
        if n < kind.shortest() as u64 {
            // No match; lines counted (-v) on the host: fewer bytes than
            // the shortest pattern.
            let counted = tally.map(|t| t.reference(text, &[], &|_| vec![1]));
            return Ok(counted.flatten().map_or_else(none, ChunkFound::Counts));
        }
        self.reserve(n)?;
        let base = ptr(self.text.get("upload")?, &self.stream);
        let record = |ev: Option<&CudaEvent>, stream: &Arc<CudaStream>| -> Result<(), GpuError> {
            ev.map_or(Ok(()), |e| {
                e.record(stream).map_err(cuda("recording an event"))
            })
        };
        record(self.events.as_ref().map(|e| &e[0]), &self.stream)?;
        // SAFETY: dst holds n bytes (reserve); `text` stays alive and
        // unchanged until this function returns, and count() below
        // synchronises the stream, so the copy has finished reading it.
        unsafe { result::memcpy_htod_async(base, text, self.stream.cu_stream()) }
            .map_err(cuda("copying text to the GPU"))?;
        self.zero_tail(n)?;
        self.resident = n;
        record(self.events.as_ref().map(|e| &e[1]), &self.stream)?;
        self.last_kernel = kind.launch(self)?;
        if let Some(b) = backread {
            self.launch_backread(b)?;
        }
        record(self.events.as_ref().map(|e| &e[2]), &self.stream)?;
        let count = self.count()?;
        if let Some([a, b, c]) = &self.events {
            self.timings.upload_ms += f64::from(a.elapsed_ms(b).unwrap_or(0.0));
            self.timings.search_ms += f64::from(b.elapsed_ms(c).unwrap_or(0.0));
        }
        self.timings.segments += 1;
        // Without matches the tally still counts the files' lines (-v).
        if count == 0 && !tally.is_some_and(|t| t.total) {
            return Ok(none());
        }
        // A mark the kind is unsure of: never counted, and said so; unless
        // it can only be on a line past ASCII, which the host finds
        // (`unsure`): the other lines are counted.
        let unsure = !kind.sure(self)?;
        if let Some(t) = tally {
            let started = std::time::Instant::now();
            let counts = match unsure {
                true if kind.unsure_only_past_ascii() => match self.tally(t, kind)? {
                    Some(mut c) => {
                        let marks = self.fetch(n, count)?;
                        unsure::take_lines_past_ascii(text, &marks, t, &mut c)
                            .map(|lines| ChunkFound::CountsUnsure(c, lines))
                    }
                    None => None,
                },
                true => None,
                false => self.tally(t, kind)?.map(ChunkFound::Counts),
            };
            self.timings.readback_ms += started.elapsed().as_secs_f64() * 1e3;
            if let Some(c) = counts {
                self.last_shipped = "counts";
                return Ok(c);
            }
        }
        if count > cap {
            self.last_shipped = "dense";
            return Ok(ChunkFound::Dense(count));
        }
        let t = std::time::Instant::now();
        let found = self.fetch(n, count)?;
        self.timings.readback_ms += t.elapsed().as_secs_f64() * 1e3;
        Ok(match unsure {
            true => ChunkFound::Unsure(found),
            false => ChunkFound::Offsets(found),
        })
    }

    /// Scans the tile counts; returns the total number of matches.
    pub(super) fn count(&mut self) -> Result<u64, GpuError> {
        let tiles = kernels::tiles_for(self.resident);
        let counts = self.counts.get("count")?;
        let offs = self.tile_offsets.get("count")?;
        let total = self.total.get("count")?;
        let cfg = LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (1024, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = self.stream.launch_builder(&self.f.scan);
        b.arg(counts).arg(&tiles).arg(offs).arg(total);
        // SAFETY: scan_counts' contract: counts and offsets hold `tiles` entries, total one.
        unsafe { b.launch(cfg) }.map_err(cuda("launching scan_counts"))?;
        let mut host = [0u64; 1];
        // SAFETY: `total` holds one u64; the copy is waited for just below.
        unsafe {
            result::memcpy_dtoh_async(
                &mut host[..],
                ptr(total, &self.stream),
                self.stream.cu_stream(),
            )
        }
        .map_err(cuda("reading the match count"))?;
        self.stream.synchronize().map_err(cuda("searching"))?;
        Ok(host[0])
    }

    /// Brings the `count` (> 0) match starts of the last search home, as
    /// offsets compacted on the GPU or as the bitmap, whichever is fewer
    /// bytes; ascending offsets either way.
    fn fetch(&mut self, n: u64, count: u64) -> Result<Vec<u64>, GpuError> {
        let count_us =
            usize::try_from(count).map_err(|_| GpuError::Cuda("too many matches".into()))?;
        if self
            .force_offsets
            .unwrap_or_else(|| kernels::ship_offsets(count, n))
        {
            let tiles = kernels::tiles_for(n);
            let out = self
                .out
                .ensure(&self.stream, count_us, "allocating offsets")?;
            let out_ptr = ptr(out, &self.stream);
            let bitmap = self.bitmap.get("compact")?;
            let offs = self.tile_offsets.get("compact")?;
            let cfg = LaunchConfig {
                grid_dim: (kernels::grid_for(tiles, self.sm_count * 16), 1, 1),
                block_dim: (BLOCK, 1, 1),
                shared_mem_bytes: 0,
            };
            let out = self.out.get("compact")?;
            let mut b = self.stream.launch_builder(&self.f.compact);
            b.arg(bitmap).arg(offs).arg(&tiles).arg(out);
            // SAFETY: compact's contract: bitmap of tiles*TILE_WORDS words,
            // offsets of `tiles` entries, out holds `count` u64s (the total
            // the same bitmap's counts add up to).
            unsafe { b.launch(cfg) }.map_err(cuda("launching compact"))?;
            self.last_shipped = "offsets";
            // out holds at least count u64s.
            self.read_back(out_ptr, count_us, "reading offsets")
        } else {
            let words = usize::try_from(n.div_ceil(64))
                .map_err(|_| GpuError::Cuda("text too large".into()))?;
            // The bitmap holds tiles*TILE_WORDS u32 words, at least
            // 2*ceil(n/64) (kernels::tests::launch_arithmetic).
            let src = ptr(self.bitmap.get("readback")?, &self.stream);
            let v = self.read_back(src, words, "reading the bitmap")?;
            self.last_shipped = "bitmap";
            Ok(bitmap_offsets(&v, count_us))
        }
    }
}

/// The set bits of a bitmap (bit b of word w: offset 64*w + b), ascending;
/// `count` is how many there are (a capacity hint).
fn bitmap_offsets(words: &[u64], count: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(count);
    for (w, &word) in words.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            out.push(w as u64 * 64 + u64::from(bits.trailing_zeros()));
            bits &= bits - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::bitmap_offsets;

    #[test]
    fn bitmap_offsets_are_the_set_bits_ascending() {
        assert_eq!(bitmap_offsets(&[], 0), Vec::<u64>::new());
        assert_eq!(bitmap_offsets(&[0, 0], 0), Vec::<u64>::new());
        let words = [1 | 1 << 63, 0, 1 << 5];
        assert_eq!(bitmap_offsets(&words, 3), vec![0, 63, 133]);
        assert_eq!(bitmap_offsets(&[u64::MAX], 64), (0..64).collect::<Vec<_>>());
    }
}
