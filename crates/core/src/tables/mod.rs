//! Loading and validating table data: no rules logic lives here.
//!
//! Every ruleset ships its tables as TOML files under `rulesets/<ruleset>/`, embedded
//! in the binary. `--rules DIR` replaces any of them with a file of the same name from
//! `DIR/<ruleset>/`. Each file opens with a `[source]` block naming the seed file and
//! the table title it was transcribed from; files without one are rejected.

mod bands;
pub mod grid;
mod modifiers;

pub use bands::{Bands, RollRange};
pub use modifiers::{Modifier, ModifierEffect, ModifierRow, ModifierTable, Side};

use std::path::Path;

use serde::Deserialize;

pub use crate::document::Document as TableFile;
use crate::error::{Error, Result, unknown};

/// Each seed file the tables cite, with what it is: the title a player knows it by
/// (shared/seeds/README.md lists them), shown wherever a table's source is named.
const SEED_TITLES: [(&str, &str); 5] = [
    ("000_454cbf3bc8f68184.txt", "Command Decision: Test of Battle, Battalion Commander's Summary"),
    ("001_b275c1225bd05435.txt", "Command Decision: Test of Battle, General Reference Card"),
    ("002_5e16b8a8908c3b26.txt", "Chain of Command, section 7: the Command Dice"),
    ("003_4209dbf3d2b9cbd0.txt", "Company Commander v1.05"),
    ("004_c8a32eb3bda45530.txt", "Mission Command"),
];

/// The title of seed file `seed`, or the file's name where it is not one of the seeds
/// (a `--rules` override may cite another source).
pub fn seed_title(seed: &str) -> &str {
    SEED_TITLES.iter().find(|(file, _)| *file == seed).map_or(seed, |(_, title)| title)
}

/// Where a table was transcribed from.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// The seed file name, e.g. `001_b275c1225bd05435.txt`.
    pub seed: String,
    /// The table's title in that file.
    pub table: String,
    /// Rule numbers the card cites, where it cites any.
    pub rules: Option<String>,
    /// True when the values are made up to show the format (an illustrative catalogue
    /// the seeds hold no chart for), not the published rules' values: every answer
    /// that reads them says so.
    #[serde(default)]
    pub invented: bool,
    /// In an invented file, the entries whose values are the player's own rather than
    /// invented (each as `list.id`, e.g. `weapon.my_gun`): a player's copy of the
    /// shipped catalogue keeps the invented entries it did not change, and its answers
    /// name only those as invented.
    #[serde(default)]
    pub own: Vec<String>,
}

impl Source {
    /// Whether the values of entry `id` of list `list` (`weapon`, `vehicle`) are
    /// invented: the file's are, and the entry is not one of the player's own.
    pub fn invents(&self, list: &str, id: &str) -> bool {
        self.invented && !self.own.iter().any(|own| own.split_once('.') == Some((list, id)))
    }
}

/// A ruleset's embedded table files.
#[derive(Debug, Clone, Copy)]
pub struct Embedded {
    /// The ruleset's folder name under `rulesets/`.
    pub ruleset: &'static str,
    /// (file name, text) pairs.
    pub files: &'static [(&'static str, &'static str)],
}

/// The ruleset's table files: embedded, with any override from `rules_dir` applied.
pub fn load(embedded: &Embedded, rules_dir: Option<&Path>) -> Result<Vec<TableFile>> {
    let mut files: Vec<TableFile> = embedded
        .files
        .iter()
        .map(|(name, text)| TableFile::new(*name, format!("rulesets/{}/{name} (embedded)", embedded.ruleset), *text))
        .collect();
    let Some(dir) = rules_dir else { return Ok(files) };
    if !dir.is_dir() {
        return Err(Error::input(
            dir.display().to_string(),
            "a rules override must be a directory laid out like `rulesets/` (one folder per ruleset)",
        ));
    }
    let folder = dir.join(embedded.ruleset);
    if !folder.is_dir() {
        return Ok(files);
    }
    let entries = std::fs::read_dir(&folder).map_err(|source| Error::Io { path: folder.clone(), source })?;
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(slot) = files.iter_mut().find(|f| f.name == name) else {
            let known = embedded.files.iter().map(|(n, _)| *n);
            return Err(Error::input(path.display().to_string(), unknown("table file", &name, known)));
        };
        slot.text = crate::user_file::read_to_string(&path, crate::user_file::TOML)?;
        slot.origin = path.display().to_string();
    }
    Ok(files)
}

/// A loaded file by name; every embedded name is present after [`load`].
pub fn file<'a>(files: &'a [TableFile], name: &str) -> &'a TableFile {
    files.iter().find(|f| f.name == name).expect("every embedded table file is loaded")
}

/// A stable fingerprint of the loaded tables (FNV-1a over names and texts), so
/// results can say which rules produced them.
pub fn rules_hash<'a>(files: impl IntoIterator<Item = &'a TableFile>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        for b in f.name.bytes().chain([0]).chain(f.text.bytes()).chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::seed_title;

    #[test]
    fn a_seed_is_named_by_its_title_and_another_source_by_its_file() {
        assert_eq!(seed_title("001_b275c1225bd05435.txt"), "Command Decision: Test of Battle, General Reference Card");
        assert_eq!(seed_title("my_house_rules.txt"), "my_house_rules.txt");
    }
}
