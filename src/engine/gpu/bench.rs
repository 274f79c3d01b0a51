//! Kernel-only timing over text kept resident on the GPU, for the
//! `gpugrep-kernel-bench` binary (feature `bench-tools`; nothing here is
//! in the shipped binary). The text is one block uploaded once and
//! replicated on the GPU, so a 16 GiB run needs no 16 GiB on the host.

use cudarc::driver::{result, sys};

use super::context::{cuda, Device};
use super::kernels::{self, Kernel};
use super::kind::Kind;
use super::literal::{self, Literal};
use super::memory::ptr;
use super::multi::MultiTables;
use super::{panicked, GpuEngine, GpuError};

impl Device {
    /// Makes `block` repeated `copies` times the resident text (one
    /// upload, then device-to-device copies); returns its length.
    fn load_repeated(&mut self, block: &[u8], copies: u64) -> Result<u64, GpuError> {
        let len = block.len() as u64;
        let n = len
            .checked_mul(copies)
            .ok_or_else(|| GpuError::Cuda("resident text too large".into()))?;
        self.reserve(n)?;
        let base = ptr(self.text.get("replicate")?, &self.stream);
        // SAFETY: the allocation holds n >= block.len() bytes; a copy from
        // pageable memory has read its source when the call returns.
        unsafe { result::memcpy_htod_async(base, block, self.stream.cu_stream()) }
            .map_err(cuda("copying text to the GPU"))?;
        for c in 1..copies {
            // SAFETY: both ranges lie inside the allocation sized for n bytes
            // and do not overlap (copy c starts where copy c-1 ends).
            unsafe {
                result::memcpy_dtod_async(
                    base + c * len,
                    base,
                    len as usize,
                    self.stream.cu_stream(),
                )
            }
            .map_err(cuda("replicating the text"))?;
        }
        self.zero_tail(n)?;
        self.resident = n;
        self.stream.synchronize().map_err(cuda("synchronising"))?;
        Ok(n)
    }

    /// Device-to-device copy of half the resident text onto the other half
    /// (unchanged content when the text is a repeated block and each half
    /// holds whole copies), `reps` times; returns the median GB/s counting
    /// bytes read plus bytes written: the memory-bandwidth ceiling.
    fn time_copy(&mut self, reps: usize) -> Result<f64, GpuError> {
        let half = (self.resident / 2) & !255;
        if half == 0 {
            return Err(GpuError::Cuda("no resident text".into()));
        }
        let base = ptr(self.text.get("copy")?, &self.stream);
        let ctx = self.stream.context().clone();
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = ctx.new_event(flags).map_err(cuda("event"))?;
        let stop = ctx.new_event(flags).map_err(cuda("event"))?;
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps.max(1) + 1 {
            start.record(&self.stream).map_err(cuda("event"))?;
            // SAFETY: [0, half) and [half, 2*half) are disjoint and inside the
            // resident text's allocation.
            unsafe {
                result::memcpy_dtod_async(base + half, base, half as usize, self.stream.cu_stream())
            }
            .map_err(cuda("copy"))?;
            stop.record(&self.stream).map_err(cuda("event"))?;
            stop.synchronize().map_err(cuda("copy"))?;
            times.push(start.elapsed_ms(&stop).map_err(cuda("event"))?);
        }
        times.remove(0); // warm-up
        times.sort_by(|a, b| a.total_cmp(b));
        let ms = f64::from(times[times.len() / 2]);
        Ok(2.0 * half as f64 / (ms * 1e-3) / 1e9)
    }

    /// Times the search kernel alone over the resident text, `reps` times,
    /// with CUDA events; returns the kernel that ran, the times in ms and
    /// the match count.
    fn time_kernel(
        &mut self,
        pat: &[u8],
        kernel: Kernel,
        reps: usize,
    ) -> Result<(Kernel, Vec<f32>, u64), GpuError> {
        let ran = kernels::effective(kernel, pat.len());
        let lit = Literal(pat);
        lit.load(self, ran)?;
        let (times, count) = self.time_launches(reps, |dev| {
            let tables = dev
                .tables::<literal::Tables>()
                .ok_or_else(|| GpuError::Cuda("pattern not loaded".into()))?;
            lit.launch_with(dev, tables, ran)
        })?;
        Ok((ran, times, count))
    }

    /// Runs `launch` once (a warm-up), then `reps` times each between two
    /// CUDA events; returns the times in ms and the match count the last
    /// launch left.
    fn time_launches(
        &mut self,
        reps: usize,
        mut launch: impl FnMut(&mut Device) -> Result<(), GpuError>,
    ) -> Result<(Vec<f32>, u64), GpuError> {
        let flags = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let ctx = self.stream.context().clone();
        let start = ctx.new_event(flags).map_err(cuda("event"))?;
        let stop = ctx.new_event(flags).map_err(cuda("event"))?;
        launch(self)?;
        let mut times = Vec::with_capacity(reps);
        for _ in 0..reps {
            start.record(&self.stream).map_err(cuda("event"))?;
            launch(self)?;
            stop.record(&self.stream).map_err(cuda("event"))?;
            stop.synchronize().map_err(cuda("kernel"))?;
            times.push(start.elapsed_ms(&stop).map_err(cuda("event"))?);
        }
        let count = self.count()?;
        Ok((times, count))
    }
}

impl GpuEngine {
    /// Makes `block` repeated `copies` times the resident text; returns its length.
    pub fn bench_load_repeated(&mut self, block: &[u8], copies: u64) -> Result<u64, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.load_repeated(block, copies)
    }

    /// Runs `kernel` over the resident text `reps` times (after one warm-up),
    /// timing each launch with CUDA events. Returns the kernel that ran, the
    /// times in milliseconds and the number of matches.
    pub fn bench_kernel(
        &mut self,
        pattern: &[u8],
        kernel: Kernel,
        reps: usize,
    ) -> Result<(Kernel, Vec<f32>, u64), GpuError> {
        if pattern.is_empty() {
            return Err(GpuError::Cuda("empty pattern".into()));
        }
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.time_kernel(pattern, kernel, reps)
    }

    /// Runs the `multi` kernel with `tables` over the resident text `reps`
    /// times (after one warm-up that uploads the tables), timing each
    /// launch with CUDA events. Returns the times in milliseconds and the
    /// number of positions marked.
    pub fn bench_multi(
        &mut self,
        tables: &MultiTables,
        reps: usize,
    ) -> Result<(Vec<f32>, u64), GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.time_launches(reps, |dev| tables.launch(dev).map(|_| ()))
    }

    /// Forces the result shape of the lanes made after this call:
    /// Some(true) offsets, Some(false) bitmap, None automatic (fewer bytes).
    pub fn bench_force_offsets(&mut self, force: Option<bool>) {
        if let Some(d) = self.dev.as_mut() {
            d.force_offsets = force;
        }
    }

    /// Device-to-device copy bandwidth over the resident text (GB/s, bytes
    /// read plus written, median of `reps`): the ceiling for the kernels.
    pub fn bench_copy_ceiling(&mut self, reps: usize) -> Result<f64, GpuError> {
        let dev = self
            .dev
            .as_mut()
            .ok_or_else(|| panicked("an earlier search"))?;
        dev.time_copy(reps)
    }
}
