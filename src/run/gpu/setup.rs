//! Setting a run's pipeline up: what the chunks are searched for
//! (`target`), whether chunks of whole files are tallied on the GPU instead
//! of shipping offsets (`tally_mode`), the character-boundary back-read
//! (`backread_scheme`), and the sizes of chunks, ring and lanes (`shape`).
//! Each is decided once per run, before the first chunk.

use super::choose::{AUTO_REGEX_MIN_LITERALS, AUTO_SPLIT_MIN_BYTES};
use super::searcher::Target;
use super::shape::Shape;
use crate::config::{BinaryMode, Config, Mode};
use crate::encoding::boundary::Scheme;
use crate::encoding::EncodingPlan;
use crate::engine::gpu::{MatchCount, Select};
use crate::knobs;
use crate::pattern::compile::GpuPlan;
use crate::pattern::Compiled;
use crate::run::Shared;
use crate::search::prefilter_selects;

/// Default chunk: the unit of reading, transfer and kernel launch.
const CHUNK_BYTES: u64 = 64 << 20;
/// Default page-locked staging ring.
const STAGING_BYTES: u64 = 1 << 30;
/// Most chunks in the staging ring.
const MAX_RING_CHUNKS: usize = 64;
/// GPU streams (each with one chunk's buffers) working at once: 4, not 2,
/// so that a chunk's copy overlaps other chunks' kernels and readbacks
/// (16 GiB, 1,000 words, `-c`, H100: medians of 3, 1.12 s with 2 lanes,
/// 1.07 s with 4, 1.05-1.09 s with 3, 6 or 8; 10,000 words 2.75 → 2.48 s).
const LANES: usize = 4;
/// Device memory per lane, in chunks: text, bitmap (1/8), offsets (1/4).
const LANE_CHUNKS: f64 = 1.5;

/// From how many bytes of files the GPU is known far ahead of the CPU
/// engine on this search, so that under auto the CPU waits for CUDA
/// (`None`: not known): a rule pack's split, exact or not, from
/// `AUTO_SPLIT_MIN_BYTES`; a rule pack's exact lines, or a regex every
/// match of which holds one of `AUTO_REGEX_MIN_LITERALS` literals or more
/// (the CPU engine runs the regex over every byte; the GPU finds the
/// candidate lines), from `flow::EARLY_GPU_AHEAD_BYTES`, where those
/// measurements are. Where the GPU then lags, the CPU takes files after
/// all (`lag`).
///
/// The split since the forty-first session (H200 host, 16 cores, `-c`):
/// gitleaks' 221 rules over 16 GiB of loghub's logs, auto 2.9-3.1 s against
/// `--engine gpu`'s 2.2-2.5 s while 15 CPU workers took a file of 256 MiB
/// each before CUDA was ready (the CPU engine: 9-12 s); over 64 files of
/// 1 MiB, `--engine gpu` 0.47-0.52 s, the CPU engine 0.83-0.89 s, and auto
/// 0.92-0.97 s with the CPU taking every file (the templates: 0.39-0.40,
/// 0.55-0.66 and 0.38-0.43 s).
pub fn gpu_far_ahead(cfg: &Config, compiled: &Compiled, target: &Target) -> Option<u64> {
    let early = super::flow::EARLY_GPU_AHEAD_BYTES;
    match &compiled.gpu {
        Some(GpuPlan::Split(_)) if !cfg.ignore_case || target.exact_lines() => {
            Some(AUTO_SPLIT_MIN_BYTES)
        }
        Some(GpuPlan::Required(set))
            if set.len() >= AUTO_REGEX_MIN_LITERALS && !cfg.ignore_case =>
        {
            Some(early)
        }
        // An exact automaton alone (a regex without good literals) is not
        // known to be far ahead: auto's gate decides as before.
        Some(GpuPlan::Automaton(_)) => None,
        _ => target.exact_lines().then_some(early),
    }
}

/// Whether the lines of a literal set are printed: the GPU finds the
/// matches, the CPU formats their lines (`shape::PrintedLines`).
pub fn prints_set_lines(cfg: &Config, compiled: &Compiled) -> bool {
    cfg.mode == Mode::Lines
        && matches!(
            compiled.gpu,
            Some(GpuPlan::LiteralSet(_) | GpuPlan::FoldedSet(_))
        )
}

/// Under auto, before the inputs are listed: from how many bytes of files
/// the pipeline will start CUDA at once (`flow::at_once_from`, with the
/// ring a large search gets), and at least `min`, from which auto starts
/// the GPU at all; `None` where it waits on the CPU engine's pace, or the
/// GPU has nothing to search.
pub fn opens_at_once(cfg: &Config, compiled: &Compiled, min: u64) -> Option<u64> {
    if compiled.automaton_later.is_some() {
        // Built once the inputs are listed; its start goes by pace.
        return None;
    }
    let (target, _) = target(compiled)?;
    let large = shape(cfg, false, None, u64::MAX);
    let ring_bytes = (large.ring as u64).saturating_mul(large.chunk.max(target.longest()) as u64);
    let far_ahead = gpu_far_ahead(cfg, compiled, &target);
    super::flow::at_once_from(
        &large,
        ring_bytes,
        far_ahead,
        prints_set_lines(cfg, compiled),
    )
    .map(|from| from.max(min))
}

/// The pipeline's sizes for `need` bytes of files (with separators): a
/// small search gets a small ring (allocating and pinning 1 GiB costs
/// about 0.1 s).
pub fn shape(cfg: &Config, gpu_only: bool, tally: Option<TallyMode>, need: u64) -> Shape {
    let lists = matches!(cfg.mode, Mode::FilesWithMatches | Mode::FilesWithoutMatch);
    // Auto starts the GPU only for searches measured several times faster
    // there (sets, regexes with many literals); once it is ready the CPU
    // stops taking files, unless it stops early in a file (-l, -L, -q, -m),
    // which the GPU cannot (16 GiB, 1,000 literals, -c: auto 1.66 s with the
    // CPU taking files throughout, --engine gpu 1.16 s).
    let stops_early = lists || cfg.mode == Mode::Quiet || cfg.max_count.is_some();
    let knobs = knobs::get();
    let mut chunk = knobs.gpu_chunk.or(CHUNK_BYTES);
    if let Some(budget) = cfg.gpu_memory {
        chunk = chunk.min((budget as f64 / (LANES as f64 * LANE_CHUNKS)) as u64);
    }
    let chunk = chunk.min(need).max(1);
    let staging = cfg.gpu_staging.unwrap_or(STAGING_BYTES);
    // No more lanes than chunks: each lane is a stream with its own
    // device buffers, made and freed for nothing in a small search.
    let lanes = knobs
        .gpu_lanes
        .or(LANES)
        .min(usize::try_from(need.div_ceil(chunk)).unwrap_or(usize::MAX))
        .max(1);
    Shape {
        chunk: usize::try_from(chunk).unwrap_or(usize::MAX),
        // Enough chunks for every lane plus one filling; tiny test chunks
        // do not make a huge ring.
        ring: usize::try_from((staging / chunk).min(need.div_ceil(chunk) + lanes as u64))
            .unwrap_or(usize::MAX)
            .clamp(1, MAX_RING_CHUNKS),
        lanes,
        readers: cfg.threads.max(1),
        gpu_only,
        yield_when_ready: !stops_early,
        // With final matches, -l and -L need one per file (-q stops the
        // whole pipeline at the first); not where a match may not select
        // its line (-w, -x) or selects the others (-v).
        settle: lists && tally.is_some_and(|t| t.select == Select::Any && !t.total),
    }
}

/// What the GPU searches for in this run, if it can, and whether what it
/// finds are matches (else candidates for the regex).
pub fn target(compiled: &Compiled) -> Option<(Target, bool)> {
    let plan = compiled.gpu.as_ref()?;
    Target::new(plan).map(|t| (t, plan.offsets_are_matches()))
}

/// What the tallies of a run count: matches how (`--count-matches`),
/// which matches select a line (`-w`, `-x`), and whether every file's
/// lines are counted too (`-v`: the selected lines are the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyMode {
    pub count: MatchCount,
    pub select: Select,
    pub total: bool,
}

/// Whether chunks report counts per file instead of match offsets, and
/// what they count: the output is a count or a file name, and what the
/// GPU finds decides it: exact literals, no confirm step beyond `-x` or
/// `-w` (a non-ASCII byte beside a match sends its file to the CPU), raw
/// bytes, no JSON output, no binary probe
/// (`-I`). `-v` counts every file's lines too; `--count-matches` (not with
/// `-w`, `-x`, `-v` or `-m`) counts non-overlapping matches, which are the
/// match starts for one literal that cannot overlap itself.
///
/// A split rule pack whose marks are exactly the selected lines' starts
/// (`Target::exact_lines`: `-x` is in its automata, and so is `-w` where its
/// rules are plain ones, `glushkov::word`) is
/// tallied as one-byte matches selecting their lines, for every mode but
/// `--count-matches` (it knows lines, not matches).
pub fn tally_mode(shared: &Shared, target: &Target, exact: bool) -> Option<TallyMode> {
    let (cfg, c) = (&shared.cfg, &shared.compiled);
    if target.exact_lines() {
        return counts_lines(shared).then_some(TallyMode {
            count: MatchCount::Starts,
            select: Select::Any,
            total: cfg.invert,
        });
    }
    let select = if cfg.line {
        Select::Line
    } else if cfg.word {
        Select::Word
    } else {
        Select::Any
    };
    // -w and -x confirm literals, which the kernel decides for itself.
    let confirmed = match (select, target) {
        // A folded (-i) set comes from `compile_literals`, whose confirm
        // without -w/-x is the set's own exact matcher behind a candidate
        // prefilter (Teddy over case variants of windows): the kernel's
        // matches select their lines.
        (Select::Any, Target::Many(t)) if t.fold => true,
        (Select::Any, _) => prefilter_selects(&*c.prefilter, c.confirm.is_some()),
        (_, Target::One(_) | Target::Many(_)) => true,
        (_, Target::Automaton(_) | Target::Split(_)) => false,
    };
    if !(exact && confirmed && plain(shared)) {
        return None;
    }
    let mode = |count| {
        Some(TallyMode {
            count,
            select,
            total: cfg.invert,
        })
    };
    match cfg.mode {
        Mode::Count | Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet => {
            mode(MatchCount::Starts)
        }
        Mode::CountMatches if cfg.max_count.is_some() || cfg.invert => None,
        Mode::CountMatches if select != Select::Any => None,
        Mode::CountMatches => match target {
            Target::One(p) if !overlaps_itself(p) => mode(MatchCount::Starts),
            _ => mode(MatchCount::NonOverlapping),
        },
        Mode::Lines => None,
    }
}

/// Whether files cut across chunks are tallied piece by piece (each piece
/// counts the lines it owns): for a kind whose marks are exactly the
/// selected lines, or literals (their pieces then overlap by a line's
/// worth, `Search::overlap`); under `-c` and `--count-matches` (`-l`,
/// `-L`, `-q` keep offsets, one of which settles a file and spares reading
/// the rest), and not for decompressed files (their pieces are poured,
/// `search_poured`, which reads offsets).
pub fn cut_tally(shared: &Shared, target: &Target, tallies: bool) -> bool {
    let kind = target.exact_lines() || matches!(target, Target::One(_) | Target::Many(_));
    let counts = matches!(shared.cfg.mode, Mode::Count | Mode::CountMatches);
    tallies && kind && counts && !shared.cfg.decompress
}

/// The output is a count of selected lines or a file name (`-c`, `-l`,
/// `-L`, `-q`, not `--count-matches`), and `plain`: a search the exact
/// lines a kind marks can answer alone.
pub fn counts_lines(shared: &Shared) -> bool {
    matches!(
        shared.cfg.mode,
        Mode::Count | Mode::FilesWithMatches | Mode::FilesWithoutMatch | Mode::Quiet
    ) && plain(shared)
}

/// Raw bytes, no JSON output, no binary probe (`-I`), not `-m 0`: what
/// the GPU found can stand for the file without the CPU reading it.
fn plain(shared: &Shared) -> bool {
    let cfg = &shared.cfg;
    matches!(shared.compiled.encoding, EncodingPlan::Raw { .. })
        && !cfg.json
        && cfg.binary != BinaryMode::WithoutMatch
        && cfg.max_count != Some(0)
}

/// What the GPU finds is the whole answer for a file's selected lines:
/// exact literals, no confirm step, raw bytes, no inverted or JSON
/// output, no binary probe (`-I`); so a file where it found nothing
/// selects nothing, and one where it found a match selects a line.
pub fn final_matches(shared: &Shared, exact: bool) -> bool {
    let (cfg, c) = (&shared.cfg, &shared.compiled);
    exact && prefilter_selects(&*c.prefilter, c.confirm.is_some()) && !cfg.invert && plain(shared)
}

/// Two occurrences of `p` can overlap (`p` has a border: "aa", "abab").
fn overlaps_itself(p: &[u8]) -> bool {
    (1..p.len()).any(|k| p[k..] == p[..p.len() - k])
}

/// The scheme of the character-boundary back-read the GPU runs on its
/// candidates: for patterns transcoded into a multi-byte encoding. The
/// terminator separates packed files, so the walk back must stop at it:
/// `\n` and NUL are sure bytes in every scheme; with a terminator that is
/// not, the GPU would leave the check to the CPU.
pub fn backread_scheme(compiled: &Compiled, terminator: u8) -> Option<Scheme> {
    // GPUGREP_GPU_BACKREAD=0 (a measurement knob): candidates go to the
    // CPU unfiltered (to measure what the GPU's check saves).
    if !knobs::get().gpu_backread.or(true) {
        return None;
    }
    match compiled.encoding {
        EncodingPlan::Transcoded(enc) => Scheme::of(enc).filter(|s| s.sure_after(terminator)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Under auto the CPU stops taking files once the GPU is ready, except
    /// where it stops early in a file and the GPU cannot.
    #[test]
    fn the_cpu_yields_to_a_ready_gpu_unless_it_stops_early() {
        let yields = |args: &[&str]| {
            let cfg = Config::from_args(&[&["-F", "x", "f"], args].concat());
            shape(&cfg, false, None, 1 << 30).yield_when_ready
        };
        assert!(yields(&[]));
        assert!(yields(&["-c"]));
        assert!(yields(&["--count-matches"]));
        assert!(!yields(&["-l"]));
        assert!(!yields(&["-L"]));
        assert!(!yields(&["-q"]));
        assert!(!yields(&["-c", "-m", "3"]));
    }

    /// Auto opens CUDA while listing only where the pipeline would start
    /// it at once for that many bytes: never before `min`, never for a
    /// search that waits on the CPU's pace (`-l`, a set's lines printed).
    #[test]
    fn cuda_opens_while_listing_only_where_the_pipeline_starts_it_at_once() {
        let words: Vec<Vec<u8>> = (0..1000)
            .map(|i| format!("word{i}x").into_bytes())
            .collect();
        let from = |args: &[&str], min: u64| {
            let cfg = Config::from_args(&[&["-F", "x", "f"], args].concat());
            let compiled = crate::pattern::compile(&words, &cfg).unwrap();
            opens_at_once(&cfg, &compiled, min)
        };
        let four_rings = 4 * STAGING_BYTES;
        assert_eq!(from(&["-c"], 1 << 30), Some(four_rings));
        assert_eq!(
            from(&["-c", "--gpu-staging", "512M"], 1 << 30),
            Some(2 << 30)
        );
        assert_eq!(from(&["-c"], 8 << 30), Some(8 << 30));
        assert_eq!(from(&["-c", "-w"], 1 << 30), Some(four_rings));
        assert_eq!(from(&["-l"], 1 << 30), None);
        assert_eq!(from(&["-q"], 1 << 30), None);
        assert_eq!(from(&["-c", "-m", "1"], 1 << 30), None);
        assert_eq!(from(&[], 1 << 30), None);
        assert_eq!(from(&["-n"], 1 << 30), None);
    }

    /// A rule pack's split is far ahead from `AUTO_SPLIT_MIN_BYTES` (the
    /// CPU waits for CUDA there, and the pipeline starts it at once); a
    /// regex with few literals not at all.
    #[test]
    fn a_rule_packs_split_is_far_ahead_from_the_splits_bytes() {
        let ahead = |patterns: Vec<String>, args: &[&str]| {
            let cfg = Config::from_args(&[&["--engine", "gpu", "-E", "x", "f"], args].concat());
            let p: Vec<Vec<u8>> = patterns.into_iter().map(String::into_bytes).collect();
            let compiled = crate::pattern::compile(&p, &cfg).unwrap();
            let (target, _) = target(&compiled).unwrap();
            gpu_far_ahead(&cfg, &compiled, &target)
        };
        let mut pack: Vec<String> = (0..300)
            .map(|i| format!("error{i}: .* not found"))
            .collect();
        pack.push(r"\d+\.\d+\.\d+".into());
        assert_eq!(ahead(pack.clone(), &["-c"]), Some(AUTO_SPLIT_MIN_BYTES));
        assert_eq!(ahead(vec!["ab[0-9]+cd".into()], &["-c"]), None);
    }
}
