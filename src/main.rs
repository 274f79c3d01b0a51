//! The `gpugrep` binary: parse, configure, run, exit.

use clap::Parser;
use gpugrep::cli::Cli;
use gpugrep::config::Config;
use gpugrep::error::Error;
use gpugrep::exit::ExitStatus;
use std::io::Write;

/// mimalloc, not glibc's malloc: a tree search hands each file from the
/// walking thread to a search thread and its output on to the printing
/// thread, so memory is freed by a thread other than the one that took it,
/// and glibc's per-arena locks serialised 16 threads. On the 16-core host,
/// 100,000 small files (`-r -c ERROR`): 0.284 s with glibc, 0.130 s with
/// mimalloc (rg 0.134 s); the Linux tree 0.095 s → 0.043 s; one 1 GiB file
/// unchanged (0.248 s / 0.250 s). Peak memory 11 → 22 MB there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// mimalloc's option calls (its C API; `libmimalloc-sys` declares them only
// with a feature that needs another crate).
extern "C" {
    fn mi_option_get(option: std::os::raw::c_int) -> std::os::raw::c_long;
    fn mi_option_set(option: std::os::raw::c_int, value: std::os::raw::c_long);
}

/// `mi_option_purge_delay` (15 in mimalloc 2 and 3), its default in the
/// mimalloc 3 we build (milliseconds), and the delay we set: mimalloc 2's
/// default.
const MI_OPTION_PURGE_DELAY: std::os::raw::c_int = 15;
const MI_PURGE_DELAY_DEFAULT: std::os::raw::c_long = 1000;
const MI_PURGE_DELAY: std::os::raw::c_long = 10;

/// Pages mimalloc frees go back to the system after 10 ms rather than a
/// second: a search of small files lasts a few tens of milliseconds, and
/// each thread's freed pages stayed resident all through it (20,512 prose
/// files in one directory, `-n -F kernel`, dev VM, 4 runs: `-j16` peak
/// 24.5-24.8 → 22.2-23.7 MB, `-j2` 15.6-16.1 → 14.7-15.2 MB; ripgrep
/// 12-15 MB). 1 ms gave 2 MB more back, but 8 logs of 128 MiB with `-n`
/// (split pieces' buffers freed and faulted in again) went 66 → 74 ms on
/// 2 threads; 10 ms kept them at 68 ms, and the Linux tree, that directory
/// and 100,000 small logs at their speed (10 rounds alternating, 2 and 16
/// threads). Changed only where the option holds that default (not a
/// user's `MIMALLOC_PURGE_DELAY`, nor another option should the numbering
/// change).
fn tune_allocator() {
    // SAFETY: plain C calls on mimalloc's option table, before any thread
    // is started.
    unsafe {
        if mi_option_get(MI_OPTION_PURGE_DELAY) == MI_PURGE_DELAY_DEFAULT {
            mi_option_set(MI_OPTION_PURGE_DELAY, MI_PURGE_DELAY);
        }
    }
}

/// While a GPU pipeline runs, freed pages go back to the system after
/// mimalloc's own default delay (a second), not 10 ms: memory freed and
/// taken again all through `-n` (output, mark lists) was faulted in and
/// zeroed anew each time. H200 hosts, 16 GiB of logs, `-h -n`, 3 rounds
/// alternating: 1,000 rules 1.73-1.97 → 1.61-1.79 s (set by
/// `MIMALLOC_PURGE_DELAY`) and 1.72-1.82 → 1.68-1.74 s (as built), page
/// faults 0.85-1.01 M → 0.66-0.75 M; 10,000 rules 3.18-3.44 → 2.92-3.03 s
/// and 2.96-3.27 → 2.70-3.19 s, faults 1.85-2.17 M → 0.84-1.61 M. Peak
/// memory 2.2-2.9 → 2.6-3.0 GB for 1,000 rules, 4.0-5.0 → 3.1-5.4 GB for
/// 10,000 (10.4 GB printed; the staging ring alone holds 1 GiB). Left as
/// it is where the user set the option (to anything but `main`'s 10 ms).
fn keep_freed_memory() -> Option<&'static str> {
    // SAFETY: plain C calls on mimalloc's option table. Other threads may
    // be running: mimalloc reads the option as one aligned `long` when it
    // schedules a purge, so a reader sees the old delay or the new one.
    unsafe {
        if mi_option_get(MI_OPTION_PURGE_DELAY) != MI_PURGE_DELAY {
            return None;
        }
        mi_option_set(MI_OPTION_PURGE_DELAY, MI_PURGE_DELAY_DEFAULT);
    }
    Some("freed memory goes back to the system after 1 s, not 10 ms (mimalloc's purge delay)")
}

/// Before Rust's runtime fills closed standard descriptors with
/// `/dev/null`, note which were closed (`gpugrep::stdio`).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDIO: extern "C" fn() = note_closed_stdio;

#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdio() {
    for fd in [0, 1] {
        // SAFETY: F_GETFD only asks whether the descriptor is open.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            gpugrep::stdio::note_closed(fd);
        }
    }
}

fn main() {
    tune_allocator();
    gpugrep::run::on_gpu_pipeline(keep_freed_memory);
    let prog = std::env::args_os()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "gpugrep".to_string());
    let args = gpugrep::cli::expand_context_shorthand(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                std::process::exit(0);
            }
            eprintln!("{}", gpugrep::usage::clap_message(&e, &prog));
            std::process::exit(ExitStatus::Error.code());
        }
    };
    if let Some(kind) = &cli.generate {
        let mut out = std::io::stdout().lock();
        let written = gpugrep::generate::generate(kind, &mut out).and_then(|()| out.flush());
        // A closed pipe (`| head`) ends the output quietly, as grep does.
        if let Err(e) = written.or_else(|e| match e.kind() {
            std::io::ErrorKind::BrokenPipe => Ok(()),
            _ => Err(e),
        }) {
            eprintln!("{prog}: {}", gpugrep::input::io_reason(&e));
            std::process::exit(ExitStatus::Error.code());
        }
        std::process::exit(0);
    }
    let status = Config::from_cli(cli)
        .map_err(Error::from)
        .and_then(|cfg| gpugrep::run::run(cfg, &prog));
    // The one place a run's error is printed.
    let status = status.unwrap_or_else(|e| {
        eprintln!("{prog}: {e}");
        ExitStatus::Error
    });
    if gpugrep::run::gpu_driver_busy() {
        // A CUDA start or release still under way: leave without the exit
        // handlers, the driver's among them (`run::gpu::release::InDriver`);
        // the kernel frees what the process held.
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: _exit ends the process at once; every output was written
        // and flushed above.
        unsafe { libc::_exit(status.code()) }
    }
    std::process::exit(status.code());
}
