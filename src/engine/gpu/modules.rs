//! The kernel modules of one GPU: which image each `kernels/*.cu` family
//! loads (a shipped cubin, or the PTX the driver JIT-compiles) and the
//! functions in them.
//!
//! Why cubins: on an H100's first run the driver spent about 1.2 s
//! JIT-compiling our PTX before the first kernel could run (later runs hit
//! its cache in `~/.nv/ComputeCache`, ~5 ms, but only where that is
//! writable: not in many containers and CI jobs). A cubin is machine code
//! and loads without it. `kernels::pick_cubin` chooses one by compute
//! capability; a GPU with none that fits, or a driver that refuses the one
//! picked, loads the PTX as before, family by family, so shipping cubins can
//! never make a GPU unusable. `Functions::image` says what happened, for
//! `--debug`. `GPUGREP_GPU_CUBIN=0` loads the PTX everywhere (the fallback
//! path, testable and timeable on a GPU that has a cubin).

use std::sync::Arc;

use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaContext, CudaFunction, CudaModule};
use cudarc::nvrtc::Ptx;

use super::context::unavailable;
use super::kernels::{self, Cubin};
use super::GpuError;

/// The loaded kernels (shared by every lane of a device), one module per
/// `kernels/*.cu` family.
#[derive(Clone)]
pub(super) struct Functions {
    pub(super) prefix_full: CudaFunction,
    pub(super) prefix_short: CudaFunction,
    pub(super) bm: CudaFunction,
    pub(super) scan: CudaFunction,
    pub(super) compact: CudaFunction,
    pub(super) multi: CudaFunction,
    pub(super) automaton: CudaFunction,
    pub(super) confirm: CudaFunction,
    pub(super) tally: CudaFunction,
    pub(super) count_terminators: CudaFunction,
    pub(super) backread: CudaFunction,
    /// Which images were loaded, in words (`summary`), for `--debug`.
    pub(super) image: String,
}

impl Functions {
    /// Loads every family on a GPU of compute capability `cc`.
    pub(super) fn load(ctx: &Arc<CudaContext>, cc: (i32, i32)) -> Result<Functions, GpuError> {
        let mut l = Loader {
            ctx,
            cc,
            cubins: crate::knobs::get().gpu_cubin.or(true),
            loaded: Loaded::default(),
        };
        let literal = l.module("literal", kernels::LITERAL_PTX, kernels::LITERAL_CUBINS)?;
        let multi = l.module("multi", kernels::MULTI_PTX, kernels::MULTI_CUBINS)?;
        let automaton = l.module(
            "automaton",
            kernels::AUTOMATON_PTX,
            kernels::AUTOMATON_CUBINS,
        )?;
        let confirm = l.module("confirm", kernels::CONFIRM_PTX, kernels::CONFIRM_CUBINS)?;
        let tally = l.module("tally", kernels::TALLY_PTX, kernels::TALLY_CUBINS)?;
        let backread = l.module("backread", kernels::BACKREAD_PTX, kernels::BACKREAD_CUBINS)?;
        let compact = l.module("compact", kernels::COMPACT_PTX, kernels::COMPACT_CUBINS)?;
        let f = |m: &Arc<CudaModule>, name: &str| m.load_function(name).map_err(unavailable(name));
        let confirm_fn = f(&confirm, "confirm")?;
        // Over 48 KiB of dynamic shared memory must be asked for.
        confirm_fn
            .set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                kernels::CONFIRM_SHARED as i32,
            )
            .map_err(unavailable("confirm's shared memory"))?;
        Ok(Functions {
            prefix_full: f(&literal, "prefix4_full")?,
            prefix_short: f(&literal, "prefix4_short")?,
            bm: f(&literal, "bm")?,
            scan: f(&compact, "scan_counts")?,
            compact: f(&compact, "compact")?,
            multi: f(&multi, "multi")?,
            automaton: f(&automaton, "automaton")?,
            confirm: confirm_fn,
            tally: f(&tally, "tally")?,
            count_terminators: f(&tally, "count_terminators")?,
            backread: f(&backread, "backread")?,
            image: summary(&l.loaded, cc, l.cubins),
        })
    }
}

/// Loads families one at a time, noting which image each got.
struct Loader<'a> {
    ctx: &'a Arc<CudaContext>,
    cc: (i32, i32),
    /// False: `GPUGREP_GPU_CUBIN=0`, the PTX everywhere.
    cubins: bool,
    loaded: Loaded,
}

/// What the families loaded.
#[derive(Default, Debug)]
struct Loaded {
    /// The cubin loaded (every family has the same architectures, so a
    /// GPU that takes one takes the same for all).
    cubin: Option<String>,
    /// Families whose cubin the driver refused, and its error.
    refused: Vec<(&'static str, String)>,
    /// Families loaded from PTX.
    ptx: Vec<&'static str>,
}

impl Loader<'_> {
    fn module(
        &mut self,
        family: &'static str,
        ptx: &'static str,
        cubins: &'static [Cubin],
    ) -> Result<Arc<CudaModule>, GpuError> {
        if let Some(c) = kernels::pick_cubin(self.cc, cubins).filter(|_| self.cubins) {
            match self.ctx.load_module(Ptx::from_binary(c.image.to_vec())) {
                Ok(m) => {
                    self.loaded.cubin = Some(c.name());
                    return Ok(m);
                }
                Err(e) => self.loaded.refused.push((family, e.to_string())),
            }
        }
        self.loaded.ptx.push(family);
        self.ctx
            .load_module(Ptx::from_src(ptx))
            .map_err(unavailable("loading the kernels' PTX"))
    }
}

const JIT: &str = "PTX, JIT-compiled by the driver";

/// `--debug`'s words for what was loaded on a GPU of capability `cc`
/// (`cubins`: false when `GPUGREP_GPU_CUBIN=0` switched them off).
fn summary(loaded: &Loaded, cc: (i32, i32), cubins: bool) -> String {
    let refused = || {
        loaded
            .refused
            .iter()
            .map(|(family, e)| format!("{family}: {e}"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    match &loaded.cubin {
        Some(c) if loaded.ptx.is_empty() => format!("cubin {c}"),
        Some(c) => format!(
            "cubin {c}; {JIT} for {} (the driver refused its cubin: {})",
            loaded.ptx.join(", "),
            refused()
        ),
        None if !cubins => format!("{JIT} (GPUGREP_GPU_CUBIN=0)"),
        None if !loaded.refused.is_empty() => {
            format!("{JIT} (the driver refused the cubin: {})", refused())
        }
        None => format!("{JIT} (no cubin for compute {}.{})", cc.0, cc.1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_the_image() {
        let all = Loaded {
            cubin: Some("sm_90".into()),
            ..Loaded::default()
        };
        assert_eq!(summary(&all, (9, 0), true), "cubin sm_90");
        let none = Loaded {
            ptx: vec!["literal", "multi"],
            ..Loaded::default()
        };
        assert_eq!(
            summary(&none, (12, 0), true),
            "PTX, JIT-compiled by the driver (no cubin for compute 12.0)"
        );
        assert_eq!(
            summary(&none, (9, 0), false),
            "PTX, JIT-compiled by the driver (GPUGREP_GPU_CUBIN=0)"
        );
        let some = Loaded {
            cubin: Some("sm_80".into()),
            refused: vec![("multi", "CUDA_ERROR_INVALID_IMAGE".into())],
            ptx: vec!["multi"],
        };
        assert_eq!(
            summary(&some, (8, 6), true),
            "cubin sm_80; PTX, JIT-compiled by the driver for multi \
             (the driver refused its cubin: multi: CUDA_ERROR_INVALID_IMAGE)"
        );
        let refused = Loaded {
            cubin: None,
            refused: vec![("literal", "E".into())],
            ptx: vec!["literal"],
        };
        assert_eq!(
            summary(&refused, (8, 0), true),
            "PTX, JIT-compiled by the driver (the driver refused the cubin: literal: E)"
        );
    }
}
