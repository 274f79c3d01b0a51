//! The `gpugrep` binary: parse, configure, run, exit.

use clap::Parser;
use gpugrep::cli::Cli;
use gpugrep::config::Config;
use gpugrep::exit::ExitStatus;

fn main() {
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
            let code = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => 0,
                _ => ExitStatus::Error.code(),
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let status = match Config::from_cli(cli) {
        Ok(cfg) => gpugrep::run::run(cfg, &prog),
        Err(e) => {
            eprintln!("{prog}: {e}");
            ExitStatus::Error
        }
    };
    std::process::exit(status.code());
}
