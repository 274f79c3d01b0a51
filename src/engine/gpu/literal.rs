//! The one-literal search kind (kernels/literal.cu): `prefix4` for short
//! patterns and as the exact path at any length, Boyer-Moore (`bm`) from
//! `BM_AUTO_MIN_LEN` bytes (the choice and its measurements:
//! `kernels::choose`). Its tables are the pattern and, for Boyer-Moore,
//! the bad-character and good-suffix tables (`tables`). Every occurrence is
//! a match, overlapping ones included; the CPU mirror is a plain search.

use cudarc::driver::{result, LaunchConfig, PushKernelArg};

use super::context::{cuda, Device};
use super::kernels::{self, Kernel, BLOCK, TILE_BYTES};
use super::kind::{Chain, Kind};
use super::memory::{ptr, Buf};
use super::{tables, GpuError};

/// One literal, as the GPU searches it.
pub(crate) struct Literal<'a>(pub &'a [u8]);

/// The literal kind's tables on the GPU.
#[derive(Default)]
pub(super) struct Tables {
    pat: Buf<u8>,
    bad: Buf<i32>,
    gs: Buf<i32>,
}

impl Literal<'_> {
    /// The kernel that runs on `dev`: its forced one, else the automatic
    /// choice, within what the kernel can take (`kernels::effective`).
    pub(super) fn kernel(&self, dev: &Device) -> Kernel {
        let m = self.0.len();
        kernels::effective(dev.kernel.unwrap_or_else(|| kernels::choose(m)), m)
    }

    /// Uploads the pattern (and Boyer-Moore's tables when `kernel` needs them).
    fn upload(&self, dev: &Device, t: &mut Tables, kernel: Kernel) -> Result<(), GpuError> {
        let pat = self.0;
        let stream = &dev.stream;
        let p = ptr(
            t.pat.ensure(stream, pat.len(), "allocating the pattern")?,
            stream,
        );
        // SAFETY: the allocation holds at least pat.len() bytes; a copy from
        // pageable memory has read its source when the call returns.
        unsafe { result::memcpy_htod_async(p, pat, stream.cu_stream()) }
            .map_err(cuda("copying the pattern"))?;
        if kernel == Kernel::BoyerMoore {
            let bad = tables::bad_char(pat);
            let gs = tables::good_suffix(pat);
            let b = ptr(t.bad.ensure(stream, 256, "allocating tables")?, stream);
            let g = ptr(t.gs.ensure(stream, gs.len(), "allocating tables")?, stream);
            // SAFETY: as above; the buffers hold 256 and gs.len() i32s.
            unsafe {
                result::memcpy_htod_async(b, &bad[..], stream.cu_stream())
                    .map_err(cuda("copying tables"))?;
                result::memcpy_htod_async(g, &gs[..], stream.cu_stream())
                    .map_err(cuda("copying tables"))?;
            }
        }
        Ok(())
    }

    /// Launches the search kernel over the resident text; fills the bitmap
    /// and the per-tile counts.
    pub(super) fn launch_with(
        &self,
        dev: &Device,
        t: &Tables,
        kernel: Kernel,
    ) -> Result<(), GpuError> {
        let pat = self.0;
        let n = dev.resident;
        let m = pat.len();
        let m32 =
            u32::try_from(m).map_err(|_| GpuError::Cuda("pattern longer than 4 GiB".into()))?;
        let tiles = kernels::tiles_for(n);
        let text = dev.text.get("search")?;
        let patb = t.pat.get("search")?;
        let bitmap = dev.bitmap.get("search")?;
        let counts = dev.counts.get("search")?;
        match kernel {
            Kernel::Prefix4 => {
                let (prefix, mask) = kernels::prefix_word(pat);
                let f = if m >= 4 {
                    &dev.f.prefix_full
                } else {
                    &dev.f.prefix_short
                };
                let cfg = LaunchConfig {
                    grid_dim: (kernels::grid_for(tiles, dev.sm_count * 16), 1, 1),
                    block_dim: (BLOCK, 1, 1),
                    shared_mem_bytes: 0,
                };
                let mut b = dev.stream.launch_builder(f);
                b.arg(text)
                    .arg(&n)
                    .arg(patb)
                    .arg(&m32)
                    .arg(&prefix)
                    .arg(&mask);
                b.arg(bitmap).arg(counts).arg(&tiles);
                // SAFETY: arguments match prefix4_*'s launch contract
                // (literal.cu): text holds tiles*TILE_BYTES + PAD_BYTES bytes,
                // pat m bytes, bitmap tiles*TILE_WORDS words, counts tiles.
                unsafe { b.launch(cfg) }.map_err(cuda("launching prefix4"))?;
            }
            Kernel::BoyerMoore => {
                let portion = dev.bm_portion;
                let bad = t.bad.get("search")?;
                let gs = t.gs.get("search")?;
                let cfg = LaunchConfig {
                    grid_dim: (kernels::grid_for(tiles, dev.sm_count * 16), 1, 1),
                    block_dim: ((TILE_BYTES / u64::from(portion)) as u32, 1, 1),
                    shared_mem_bytes: kernels::bm_shared_bytes(m),
                };
                let mut b = dev.stream.launch_builder(&dev.f.bm);
                b.arg(text)
                    .arg(&n)
                    .arg(patb)
                    .arg(&m32)
                    .arg(bad)
                    .arg(gs)
                    .arg(&portion);
                b.arg(bitmap).arg(counts).arg(&tiles);
                // SAFETY: arguments match bm's launch contract (literal.cu):
                // m <= BM_MAX_LEN (effective()), portion valid (set_portion),
                // tables of 256 and m i32s uploaded by `upload`.
                unsafe { b.launch(cfg) }.map_err(cuda("launching boyer-moore"))?;
            }
        }
        Ok(())
    }

    /// Uploads the tables for `kernel` and leaves them on `dev`.
    #[cfg(feature = "bench-tools")]
    pub(super) fn load(&self, dev: &mut Device, kernel: Kernel) -> Result<(), GpuError> {
        let mut t = dev.take_tables::<Tables>();
        let r = self.upload(dev, &mut t, kernel);
        dev.keep_tables(t);
        r
    }
}

impl Kind for Literal<'_> {
    fn shortest(&self) -> usize {
        self.0.len()
    }

    fn longest(&self) -> usize {
        self.0.len()
    }

    fn match_at(&self, hay: &[u8], at: usize) -> Option<usize> {
        hay.get(at..)?.starts_with(self.0).then_some(self.0.len())
    }

    fn reference(&self, text: &[u8]) -> Vec<u64> {
        if self.0.is_empty() {
            return Vec::new();
        }
        let finder = memchr::memmem::Finder::new(self.0);
        let mut starts = Vec::new();
        let mut at = 0;
        while let Some(i) = text.get(at..).and_then(|rest| finder.find(rest)) {
            starts.push((at + i) as u64);
            at += i + 1;
        }
        starts
    }

    fn launch(&self, dev: &mut Device) -> Result<&'static str, GpuError> {
        let kernel = self.kernel(dev);
        let mut t = dev.take_tables::<Tables>();
        let r = self
            .upload(dev, &mut t, kernel)
            .and_then(|()| self.launch_with(dev, &t, kernel));
        dev.keep_tables(t);
        r.map(|()| kernel.name())
    }

    fn chain(&self, _dev: &Device) -> Result<Chain, GpuError> {
        Ok(Chain::fixed(self.0.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_finds_overlapping_occurrences() {
        let lit = Literal(b"aa");
        assert_eq!(lit.reference(b"aaaa"), vec![0, 1, 2]);
        assert_eq!(lit.reference(b"xaxaa"), vec![3]);
        assert_eq!(lit.reference(b"a"), Vec::<u64>::new());
        assert_eq!(Literal(b"").reference(b"abc"), Vec::<u64>::new());
        assert_eq!(lit.match_at(b"xaa", 1), Some(2));
        assert_eq!(lit.match_at(b"xaa", 2), None);
        assert_eq!(lit.match_at(b"xaa", 9), None);
        assert_eq!((lit.shortest(), lit.longest()), (2, 2));
    }
}
