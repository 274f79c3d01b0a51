//! Device memory: grow-only buffers, table uploads, the text buffer's
//! layout, and the readback of results.
//!
//! Buffers only grow (to the largest chunk seen) and are reused across
//! chunks: allocating on the GPU costs more than a small chunk's search.
//! Results over 1 MiB come home through one pinned buffer, emptied by
//! several threads (a pageable readback was the slow part of dense searches).

use std::sync::Arc;

use cudarc::driver::{result, sys, CudaSlice, CudaStream, DevicePtr, DeviceRepr};

use super::context::{cuda, Device};
use super::kernels::{self, TILE_WORDS};
use super::GpuError;

/// u64 words per pinned readback chunk (16 MiB).
const READ_CHUNK_WORDS: usize = 2 << 20;

/// A grow-only device buffer.
pub(crate) struct Buf<T> {
    slice: Option<CudaSlice<T>>,
}

impl<T> Default for Buf<T> {
    fn default() -> Self {
        Buf { slice: None }
    }
}

impl<T: DeviceRepr> Buf<T> {
    pub(super) fn new() -> Self {
        Buf { slice: None }
    }

    /// The buffer, reallocated (contents lost) when it holds fewer than `len` elements.
    pub(super) fn ensure(
        &mut self,
        stream: &Arc<CudaStream>,
        len: usize,
        what: &str,
    ) -> Result<&mut CudaSlice<T>, GpuError> {
        let len = len.max(1);
        if self.slice.as_ref().is_none_or(|s| s.len() < len) {
            self.slice = None; // free first: the old one may be most of the card
                               // SAFETY: the memory is uninitialised; every kernel writes each
                               // element before any read of it (see the launch contracts), and the
                               // host zeroes the text buffer's tail itself.
            let s = unsafe { stream.alloc::<T>(len) }.map_err(cuda(what))?;
            self.slice = Some(s);
        }
        self.slice
            .as_mut()
            .ok_or_else(|| GpuError::Cuda(format!("{what}: buffer missing")))
    }

    pub(super) fn get(&self, what: &str) -> Result<&CudaSlice<T>, GpuError> {
        self.slice
            .as_ref()
            .ok_or_else(|| GpuError::Cuda(format!("{what}: buffer missing")))
    }
}

/// Copies `data` into `buf` (grown as needed) on `stream`. The caller
/// synchronises the stream before `data` goes away, unless `data` is
/// pageable memory (the driver has staged it when the copy returns).
pub(super) fn up<T: DeviceRepr>(
    stream: &Arc<CudaStream>,
    buf: &mut Buf<T>,
    data: &[T],
) -> Result<(), GpuError> {
    let dst = ptr(buf.ensure(stream, data.len(), "allocating tables")?, stream);
    // SAFETY: the buffer holds at least data.len() elements; callers
    // synchronise the stream before `data` can go away, or pass pageable
    // memory, which the driver has staged when the call returns.
    unsafe { result::memcpy_htod_async(dst, data, stream.cu_stream()) }
        .map_err(cuda("copying tables"))
}

pub(super) fn ptr<T>(s: &CudaSlice<T>, stream: &CudaStream) -> sys::CUdeviceptr {
    // Event tracking is off, so the returned guard records nothing.
    s.device_ptr(stream).0
}

/// `dst.copy_from_slice(src)` on up to `threads` threads (at least 1 MiB
/// each); falls back to copying inline if a thread cannot be started.
fn parallel_copy<T: Copy + Send + Sync>(dst: &mut [T], src: &[T], threads: usize) {
    let t = threads.min(std::mem::size_of_val(src) >> 20).max(1);
    if t == 1 {
        dst.copy_from_slice(src);
        return;
    }
    let per = src.len().div_ceil(t);
    let mut failed = Vec::new();
    std::thread::scope(|s| {
        for (i, (d, c)) in dst.chunks_mut(per).zip(src.chunks(per)).enumerate() {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || d.copy_from_slice(c));
            if spawned.is_err() {
                failed.push(i);
            }
        }
    });
    for i in failed {
        let r = i * per..((i + 1) * per).min(src.len());
        dst[r.clone()].copy_from_slice(&src[r]);
    }
}

impl Device {
    /// Makes room for `n` text bytes and the per-tile buffers.
    pub(super) fn reserve(&mut self, n: u64) -> Result<(), GpuError> {
        let tiles = kernels::tiles_for(n);
        let too_big = |_| GpuError::Cuda("text too large for this platform".into());
        let cap = usize::try_from(kernels::text_capacity(n)).map_err(too_big)?;
        let words = usize::try_from(tiles * TILE_WORDS).map_err(too_big)?;
        let tiles_us = usize::try_from(tiles).map_err(too_big)?;
        self.text
            .ensure(&self.stream, cap, "allocating the text buffer")?;
        self.bitmap
            .ensure(&self.stream, words, "allocating the bitmap")?;
        self.counts
            .ensure(&self.stream, tiles_us, "allocating tile counts")?;
        self.tile_offsets
            .ensure(&self.stream, tiles_us, "allocating tile offsets")?;
        self.total.ensure(&self.stream, 1, "allocating the total")?;
        Ok(())
    }

    /// Zeroes the text buffer from `n` to the end of the last tile plus padding.
    pub(super) fn zero_tail(&mut self, n: u64) -> Result<(), GpuError> {
        let text = self.text.get("zero tail")?;
        let end = kernels::text_capacity(n);
        let base = ptr(text, &self.stream);
        // SAFETY: [n, end) lies inside the allocation, sized by reserve(n).
        unsafe { result::memset_d8_async(base + n, 0, (end - n) as usize, self.stream.cu_stream()) }
            .map_err(cuda("clearing the text tail"))
    }

    /// Copies `len` u64s from device memory at `src` into a new vector:
    /// straight for small results, else through the pinned readback buffer
    /// (a pageable readback was the slow part of dense searches).
    pub(super) fn read_back(
        &mut self,
        src: sys::CUdeviceptr,
        len: usize,
        what: &str,
    ) -> Result<Vec<u64>, GpuError> {
        let mut v = vec![0u64; len];
        if len <= (1 << 17) {
            // SAFETY: `src` holds at least `len` u64s (callers); the copy is
            // waited for before `v` is touched.
            unsafe { result::memcpy_dtoh_async(&mut v[..], src, self.stream.cu_stream()) }
                .map_err(cuda(what))?;
            self.stream.synchronize().map_err(cuda(what))?;
            return Ok(v);
        }
        if self.readback.is_none() {
            let ctx = self.stream.context().clone();
            // SAFETY: uninitialised u64s, only read after a DMA wrote them.
            let buf = unsafe { ctx.alloc_pinned_with_flags::<u64>(READ_CHUNK_WORDS, 0) }
                .map_err(cuda("allocating pinned memory"))?;
            self.readback = Some(buf);
        }
        let threads = self.upload_threads.max(1);
        let buf = self
            .readback
            .as_mut()
            .ok_or_else(|| GpuError::Cuda("readback buffer missing".into()))?;
        let mut done = 0usize;
        for chunk in v.chunks_mut(READ_CHUNK_WORDS) {
            let host = buf.as_mut_slice().map_err(cuda(what))?;
            let host = &mut host[..chunk.len()];
            // SAFETY: src + done*8 .. + chunk.len()*8 lies inside the device
            // buffer (callers); `host` is pinned memory we own, read only after
            // the synchronize below.
            unsafe {
                result::memcpy_dtoh_async(
                    &mut *host,
                    src + (done as u64) * 8,
                    self.stream.cu_stream(),
                )
            }
            .map_err(cuda(what))?;
            self.stream.synchronize().map_err(cuda(what))?;
            parallel_copy(chunk, host, threads);
            done += chunk.len();
        }
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::parallel_copy;

    #[test]
    fn parallel_copy_copies_everything() {
        for len in [0usize, 1, (1 << 20) - 1, 3 << 20, (5 << 20) + 7] {
            let src: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            for threads in [1, 2, 4, 8] {
                let mut dst = vec![0u8; len];
                parallel_copy(&mut dst, &src, threads);
                assert!(dst == src, "len {len} threads {threads}");
            }
        }
    }
}
