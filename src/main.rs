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
    std::process::exit(status.code());
}
