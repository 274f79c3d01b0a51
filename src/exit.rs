//! Exit statuses, as one type: grep's contract with shell scripts.
//!
//! 0: a line was selected; 1: none was; 2: an error occurred (except that
//! `-q` with a selected line still exits 0).

/// The process exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// At least one line was selected.
    Selected,
    /// No line was selected.
    NothingSelected,
    /// Something went wrong (bad arguments, unreadable files, ...).
    Error,
}

impl ExitStatus {
    /// The status for a run that selected lines or not, had errors or not.
    pub fn from_outcome(selected: bool, had_error: bool, quiet: bool) -> ExitStatus {
        match (selected, had_error) {
            (true, true) if quiet => ExitStatus::Selected,
            (_, true) => ExitStatus::Error,
            (true, false) => ExitStatus::Selected,
            (false, false) => ExitStatus::NothingSelected,
        }
    }

    /// The number the process exits with.
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Selected => 0,
            ExitStatus::NothingSelected => 1,
            ExitStatus::Error => 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_match_beats_error() {
        assert_eq!(ExitStatus::from_outcome(true, true, true).code(), 0);
        assert_eq!(ExitStatus::from_outcome(true, true, false).code(), 2);
        assert_eq!(ExitStatus::from_outcome(false, false, false).code(), 1);
        assert_eq!(ExitStatus::from_outcome(true, false, false).code(), 0);
    }
}
