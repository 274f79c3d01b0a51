//! `--generate`: the man page and shell completions, made from the clap
//! definitions in `cli` at run time, so they never drift from the options
//! the binary really takes (ripgrep's convention: `rg --generate man`).
//! Nothing is written at build time; packagers run the binary.

use crate::cli::Cli;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// Writes what `kind` names (`man`, `complete-bash`, `complete-zsh`,
/// `complete-fish`, `complete-powershell`) to `out`.
pub fn generate(kind: &str, out: &mut dyn Write) -> io::Result<()> {
    let mut cmd = Cli::command();
    let shell = match kind {
        "man" => return clap_mangen::Man::new(cmd).render(out),
        "complete-bash" => Shell::Bash,
        "complete-zsh" => Shell::Zsh,
        "complete-fish" => Shell::Fish,
        "complete-powershell" => Shell::PowerShell,
        other => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("unknown --generate kind '{other}'"),
            ))
        }
    };
    let name = cmd.get_name().to_string();
    // clap_complete panics when its writer fails (`| head`): it writes to
    // memory, and the write to `out` reports the error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut script);
    out.write_all(&script)
}
