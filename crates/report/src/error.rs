//! The report layer's error: the engine's and the rules' errors, and what can go wrong
//! making frames and charts, placing results, and reading results back.
//!
//! Like the engine's, it knows no flag names and no exit codes: a refused output
//! place says what it found ([`Refusal`]), and the binary says which flag to change.

use std::path::PathBuf;

#[cfg(feature = "files")]
use polars::prelude::PolarsError;

/// An error of the report layer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An error of the engine or the rules (input, I/O, interrupted, a setting).
    #[error(transparent)]
    Core(#[from] combat_odds_core::Error),
    /// A frame could not be built or written.
    #[cfg(feature = "files")]
    #[error("cannot make {what}: {source}")]
    Frame {
        /// Which frame, e.g. `the comparison frame`.
        what: &'static str,
        /// What polars said.
        source: PolarsError,
    },
    /// An output place was refused, before the work or when the results were placed;
    /// nothing there was touched.
    #[error("{}: {refusal}", .path.display())]
    Refused {
        /// The place as the user gave it.
        path: PathBuf,
        /// Whether a results directory or a single file was to go there.
        output: Output,
        /// What was found there.
        refusal: Refusal,
    },
    /// A regression baseline that is missing, of another version, or of another
    /// suite: the fix is a new baseline.
    #[error("{file}: {problem}; make a new baseline")]
    Baseline {
        /// The baseline file.
        file: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Results that cannot be charted, merged or read back as they are.
    #[error("{0}")]
    Results(String),
}

/// What an output place was to receive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// A results directory.
    Directory,
    /// One file.
    File,
}

/// Why an output place was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The root of the file system was named.
    #[error("the root is not a place for results")]
    Root,
    /// Something is there, and replacing it was not asked for.
    #[error("already exists")]
    Exists,
    /// A file is there, where only a results directory this tool wrote is replaced.
    #[error("is not a directory")]
    NotADirectory,
    /// A directory is there that this tool did not write (the reason says how it
    /// can tell).
    #[error("{0}")]
    NotOurs(String),
    /// A directory is there, where a file was to go.
    #[error("is a directory")]
    IsADirectory,
    /// A file stands where a directory above the place would have to be.
    #[error("cannot be written: {} is a file, not a directory", .0.display())]
    UnderAFile(PathBuf),
    /// The nearest existing directory above the place refuses new entries.
    #[error("cannot be written ({0})")]
    NotWritable(String),
    /// A directory to be replaced changed while the work ran.
    #[error("{0}; it changed during the run and was left as it was")]
    Changed(String),
    /// Something appeared at a free place while the work ran.
    #[error("appeared during the run and was left as it was")]
    Appeared,
}

impl Error {
    /// An input error without a known place.
    pub fn input(file: impl Into<String>, message: impl Into<String>) -> Self {
        combat_odds_core::Error::input(file, message).into()
    }

    /// A file that could not be read or written.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        combat_odds_core::Error::Io { path: path.into(), source }.into()
    }

    /// A frame that could not be built or written.
    #[cfg(feature = "files")]
    pub fn frame(what: &'static str) -> impl Fn(PolarsError) -> Self + Copy {
        move |source| Error::Frame { what, source }
    }
}

/// The report layer's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
