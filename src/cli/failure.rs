//! Why a command failed, in the command line's own terms: the only place that knows
//! flag names and exit codes. The library layers report what went wrong; this says
//! which flag to change and how the process ends.

use combat_odds_core::error::Error as CoreError;
use combat_odds_report::error::{Error as ReportError, Output, Refusal};

/// A failed command.
#[derive(Debug)]
pub enum Failure {
    /// Flags that clap accepted but that do not make sense together or in range.
    Usage(String),
    /// What the library reported.
    Report(ReportError),
    /// The regression gate found `n` reference probabilities that moved (or a stale
    /// baseline); what moved has been printed.
    Moved(usize),
}

/// A command's result.
pub type Result<T, E = Failure> = std::result::Result<T, E>;

impl From<ReportError> for Failure {
    fn from(e: ReportError) -> Self {
        Failure::Report(e)
    }
}

impl From<CoreError> for Failure {
    fn from(e: CoreError) -> Self {
        Failure::Report(e.into())
    }
}

/// The exit status of an interrupted run: the shell's code for SIGINT.
pub const INTERRUPTED: i32 = 130;

impl Failure {
    /// Exit status: 2 for anything the user can fix in their input or flags, 1 for
    /// I/O and a failed gate, 130 when interrupted.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Moved(_) => 1,
            Failure::Report(e) => match e {
                ReportError::Core(CoreError::Io { .. }) | ReportError::Frame { .. } => 1,
                ReportError::Core(CoreError::Interrupted) => INTERRUPTED,
                ReportError::Refused { refusal: Refusal::NotWritable(_), .. } => 1,
                _ => 2,
            },
        }
    }

    /// One line saying what is wrong and which flag fixes it.
    pub fn message(&self) -> String {
        match self {
            Failure::Usage(m) => m.clone(),
            Failure::Moved(n) => format!(
                "the gate failed: {n} reference probabilities moved; if the change is intended, run `combat-odds regress --update` and commit the baseline"
            ),
            // Each bounded setting has the flag of its own name: `--trials`, `--threads`, `--top`.
            Failure::Report(ReportError::Core(CoreError::Setting { setting, message })) => {
                format!("--{} {message}", setting.name())
            }
            Failure::Report(ReportError::Refused { path, output, refusal }) => refused(path, *output, refusal),
            Failure::Report(ReportError::Baseline { file, problem }) => {
                format!("{file}: {problem}; run `combat-odds regress --update`")
            }
            Failure::Report(e) => e.to_string(),
        }
    }
}

/// A refused output place, with the flag that names it and what `--force` does.
fn refused(path: &std::path::Path, output: Output, refusal: &Refusal) -> String {
    let shown = path.display();
    let flag = match output {
        Output::Directory => "--out",
        Output::File => "--output",
    };
    match refusal {
        Refusal::Root => format!("{flag} {shown}: give a directory or file name, not the root"),
        Refusal::Exists => match output {
            Output::Directory => format!(
                "{shown} already exists; pass --force to replace it (only a results directory combat-odds wrote) or choose another {flag}"
            ),
            Output::File => format!("{shown} already exists; pass --force to replace it or choose another {flag}"),
        },
        Refusal::NotADirectory => format!(
            "{shown} is not a directory; --force replaces only a results directory combat-odds wrote: choose another {flag}"
        ),
        Refusal::NotOurs(why) => format!(
            "{shown}: {why}; --force replaces only a results directory combat-odds wrote, so nothing was touched: move your files or choose another {flag}"
        ),
        Refusal::IsADirectory => format!("{shown} is a directory; give a file name to {flag}"),
        Refusal::UnderAFile(ancestor) => format!(
            "{shown} cannot be written: {} is a file, not a directory; choose another {flag}",
            ancestor.display()
        ),
        Refusal::NotWritable(why) => format!("{shown}: cannot be written ({why}); choose another {flag}"),
        Refusal::Changed(why) => format!("{shown}: {why}; it changed during the run and was left as it was"),
        Refusal::Appeared => {
            format!("{shown} appeared during the run and was left as it was; choose another {flag}")
        }
    }
}
