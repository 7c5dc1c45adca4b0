//! Every ruleset by name: the `REGISTRY` lists them (one line
//! each, in lib.rs), and this module loads one with its tables, embedded or
//! overridden from a directory laid out like `rulesets/`.

use std::path::Path;

use combat_odds_core::document::Document;
use combat_odds_core::error::{Error, Result, unknown};
use combat_odds_core::tables::{self, Embedded, TableFile};
use toml::Spanned;

use crate::REGISTRY;
use crate::ruleset::{Peer, Ruleset};

/// A ruleset's line in the registry.
pub(crate) struct Registered {
    /// Its embedded table files; `embedded.ruleset` is its name.
    pub embedded: &'static Embedded,
    /// Validates a full set of its table files into the ruleset.
    pub from_files: fn(Vec<TableFile>) -> Result<Box<dyn Ruleset>>,
}

/// The names of every registered ruleset, e.g. `command-decision`.
pub fn names() -> impl Iterator<Item = &'static str> + Clone {
    REGISTRY.iter().map(|r| r.embedded.ruleset)
}

/// The registry line of ruleset `name`, or an error suggesting the nearest name.
fn find(name: &str) -> Result<&'static Registered> {
    REGISTRY
        .iter()
        .find(|r| r.embedded.ruleset == name)
        .ok_or_else(|| Error::Unknown { what: "ruleset", message: unknown("ruleset", name, names()) })
}

/// Loads ruleset `name` with its tables (overrides from `rules_dir`).
pub fn load(name: &str, rules_dir: Option<&Path>) -> Result<Box<dyn Ruleset>> {
    let registered = find(name)?;
    if let Some(dir) = rules_dir {
        check_override_folders(dir)?;
    }
    (registered.from_files)(tables::load(registered.embedded, rules_dir)?)
}

/// Every registered ruleset, loaded with its embedded tables.
fn embedded() -> Result<Vec<Box<dyn Ruleset>>> {
    REGISTRY.iter().map(|r| (r.from_files)(tables::load(r.embedded, None)?)).collect()
}

/// The rulesets with answers of their own, each with the scenario kind it answers.
pub fn answering() -> Result<Vec<(&'static str, &'static str)>> {
    Ok(embedded()?.iter().filter_map(|r| Some((r.name(), r.answers_kind()?))).collect())
}

/// The resolution the README's speed targets are set for, from the ruleset that holds
/// it, on its embedded tables.
pub fn peer() -> Result<Peer> {
    embedded()?.iter().find_map(|r| r.peer()).ok_or_else(|| Error::Unknown {
        what: "ruleset",
        message: "no registered ruleset holds the peer comparison's resolution".to_string(),
    })
}

/// Loads the ruleset a scenario file names at `name`; an unknown name is reported
/// at its place in the file.
pub(crate) fn load_named(doc: &Document, name: &Spanned<String>, rules_dir: Option<&Path>) -> Result<Box<dyn Ruleset>> {
    find(name.get_ref()).map_err(|e| doc.error_at(name.span().start, e.to_string()))?;
    load(name.get_ref(), rules_dir)
}

/// `ruleset` reloaded with `file` in place of its table file of the same name: the
/// in-memory form of a table override, validated by the same loader. Every other
/// file keeps the text `ruleset` was loaded with (embedded or overridden).
pub fn with_file(ruleset: &dyn Ruleset, file: TableFile) -> Result<Box<dyn Ruleset>> {
    let mut files = ruleset.files().to_vec();
    let Some(slot) = files.iter_mut().find(|f| f.name == file.name) else {
        let known = ruleset.files().iter().map(|f| f.name.as_str());
        return Err(Error::input(file.origin.clone(), unknown("table file", &file.name, known)));
    };
    *slot = file;
    (find(ruleset.name())?.from_files)(files)
}

/// Every folder of an override directory must be named after a ruleset: a misspelt
/// folder would otherwise be ignored and the embedded tables used without a word.
fn check_override_folders(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()) {
        let folder = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if find(&folder).is_err() {
            return Err(Error::input(path.display().to_string(), unknown("ruleset folder", &folder, names())));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{answering, peer};

    #[test]
    fn a_rulesets_own_answers_and_the_peer_resolution_are_found_through_the_trait() {
        assert_eq!(answering().unwrap(), [("chain-of-command", "command_dice")]);
        let peer = peer().unwrap();
        let exact = peer.fire.exact().expect("the peer resolution is exact");
        assert_eq!(peer.by_trial.exact(), Some(exact), "trial by trial, the same resolution");
    }
}
