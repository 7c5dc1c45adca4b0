//! The engine's and the rules' error, and nearest-name suggestions for misspelt names.
//!
//! Every error renders as one line naming the file, the place where known, what is
//! wrong and how to fix it. It knows no flag names and no exit codes: whatever
//! drives the library (the binary, a server) maps each kind to its own terms.

use std::fmt;
use std::path::PathBuf;

/// Where in a user's file something went wrong (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

impl Place {
    /// The line and column of a byte offset into `text`.
    pub(crate) fn of_offset(text: &str, offset: usize) -> Self {
        let before = &text[..offset.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Place { line, column }
    }
}

/// An error caused by the user's input or environment.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bad content in a named file (scenario or table).
    #[error("{}", located(.file, .place, .message))]
    Input {
        /// The file, as the user named it (or `embedded:...` for built-in tables).
        file: String,
        /// Line and column where known.
        place: Option<Place>,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// A name given outside any file (a ruleset asked for by name) that matches
    /// nothing known.
    #[error("{message}")]
    Unknown {
        /// What kind of name it was, e.g. `ruleset`.
        what: &'static str,
        /// The name, the nearest known one and the valid ones.
        message: String,
    },
    /// A run setting out of its bounds.
    #[error("{} {message}", .setting.name())]
    Setting {
        /// Which setting.
        setting: Setting,
        /// What is wrong with it and what to give instead.
        message: String,
    },
    /// The user stopped the run (Ctrl-C) before it finished; nothing was written.
    #[error("interrupted: the run stopped before it finished and wrote no result files")]
    Interrupted,
    /// A file could not be read or written.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The path involved.
        path: PathBuf,
        /// The underlying failure.
        source: std::io::Error,
    },
}

fn located(file: &str, place: &Option<Place>, message: &str) -> String {
    match place {
        Some(p) => format!("{file}:{p}: {message}"),
        None => format!("{file}: {message}"),
    }
}

impl Error {
    /// An input error without a known place.
    pub fn input(file: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Input { file: file.into(), place: None, message: message.into() }
    }

    /// An input error at a byte span of the file's text.
    pub fn at(file: impl Into<String>, text: &str, offset: usize, message: impl Into<String>) -> Self {
        Error::Input { file: file.into(), place: Some(Place::of_offset(text, offset)), message: message.into() }
    }

    /// A setting out of bounds.
    pub fn setting(setting: Setting, message: impl Into<String>) -> Self {
        Error::Setting { setting, message: message.into() }
    }
}

/// The run settings the library bounds (each is a flag of the binary, a field of a
/// page's form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// Monte Carlo trials.
    Trials,
    /// Worker threads.
    Threads,
    /// How many results a ranking keeps.
    Top,
}

impl Setting {
    /// The setting's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Setting::Trials => "trials",
            Setting::Threads => "threads",
            Setting::Top => "top",
        }
    }
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A "did you mean" clause for `wanted` among `known`, or "" when nothing is close.
pub fn suggest<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let wanted_lower = wanted.to_ascii_lowercase();
    let best =
        known.into_iter().map(|k| (edit_distance(&wanted_lower, &k.to_ascii_lowercase()), k)).min_by_key(|(d, _)| *d);
    match best {
        // Within a third of the name (at least 2 edits), the user probably meant it.
        Some((d, k)) if d <= (wanted.len() / 3).max(2) => format!("; did you mean `{k}`?"),
        _ => String::new(),
    }
}

/// A list of valid names for messages: `a`, `b`, `c`.
pub fn listing<'a>(known: impl IntoIterator<Item = &'a str>) -> String {
    known.into_iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

/// "unknown X `name`; did you mean `y`? (valid: ...)" in one place for every lookup.
pub fn unknown<'a>(what: &str, wanted: &str, known: impl IntoIterator<Item = &'a str> + Clone) -> String {
    format!("unknown {what} `{wanted}`{} (valid: {})", suggest(wanted, known.clone()), listing(known))
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_name_for_a_typo() {
        let known = ["regular", "veteran", "elite"];
        assert_eq!(suggest("veteren", known), "; did you mean `veteran`?");
        assert_eq!(suggest("zzzzzzzzzz", known), "");
    }

    #[test]
    fn places_count_lines_and_columns_from_one() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(Place::of_offset(text, 0), Place { line: 1, column: 1 });
        // "bb" starts at byte 6: line 2, column 1; the "2" is at byte 11, column 6.
        assert_eq!(Place::of_offset(text, 11), Place { line: 2, column: 6 });
    }
}
