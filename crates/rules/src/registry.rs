//! Every ruleset by name, as a value: [`Rules`] holds the registered rulesets (the
//! `rulesets!` list in lib.rs gives the built-in ones, one line each; a ruleset kept out
//! of the binary, such as the test suite's, is added with [`Rules::with`]), the folder
//! overriding their tables, laid out like `rulesets/`, and table files given in memory
//! over the folder's (a player's own on the page). Every command, analysis and page is
//! handed one, so two in one process may know different rulesets and tables.

use std::path::{Path, PathBuf};

use combat_odds_core::document::Document;
use combat_odds_core::error::{Error, Result, unknown};
use combat_odds_core::tables::{self, Embedded, TableFile};
use toml::Spanned;

use crate::ruleset::{Load, Peer, Ruleset};

/// A ruleset's line in the registry.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Registered {
    /// Its embedded table files; `embedded.ruleset` is its name.
    embedded: &'static Embedded,
    /// Validates a full set of its table files into the ruleset.
    from_files: fn(Vec<TableFile>) -> Result<Box<dyn Ruleset>>,
}

impl Registered {
    /// The line of ruleset `R`.
    pub(crate) fn of<R: Load>() -> Self {
        Registered { embedded: R::EMBEDDED, from_files: |files| Ok(Box::new(R::from_files(files)?)) }
    }
}

/// The rulesets a command may load, by name, the folder overriding their tables, and
/// the table files given in memory over the folder's.
#[derive(Debug, Clone)]
pub struct Rules {
    registered: Vec<Registered>,
    overrides: Option<PathBuf>,
    /// (ruleset name, file), each read in place of the ruleset's file of its name.
    given: Vec<(String, TableFile)>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::builtin()
    }
}

impl Rules {
    /// The rulesets this build ships, with their embedded tables.
    pub fn builtin() -> Self {
        Rules { registered: crate::builtin(), overrides: None, given: Vec::new() }
    }

    /// These rulesets and `R` after them.
    pub fn with<R: Load>(mut self) -> Self {
        self.registered.push(Registered::of::<R>());
        self
    }

    /// These rulesets with their tables overridden from `dir` (`--rules DIR`), laid out
    /// like `rulesets/`, or embedded alone for `None`.
    pub fn overridden_by(mut self, dir: Option<PathBuf>) -> Self {
        self.overrides = dir;
        self
    }

    /// These rulesets with `file` read in place of ruleset `ruleset`'s table file of the
    /// same name, over the folder's: the in-memory form of a table override. Messages
    /// about it name it by its `origin` (the page's "your catalogue.toml
    /// (command-decision)"), as they name a file read from the folder by its path.
    pub fn with_table(mut self, ruleset: &str, file: TableFile) -> Self {
        self.given.push((ruleset.to_string(), file));
        self
    }

    /// The folder overriding the tables, if any.
    pub fn overrides(&self) -> Option<&Path> {
        self.overrides.as_deref()
    }

    /// The names of every registered ruleset in listing order, e.g. `command-decision`.
    pub fn names(&self) -> impl Iterator<Item = &'static str> + Clone + '_ {
        self.registered.iter().map(|r| r.embedded.ruleset)
    }

    /// The registry line of ruleset `name`, or an error suggesting the nearest name.
    fn find(&self, name: &str) -> Result<&Registered> {
        self.registered
            .iter()
            .find(|r| r.embedded.ruleset == name)
            .ok_or_else(|| Error::Unknown { what: "ruleset", message: unknown("ruleset", name, self.names()) })
    }

    /// Loads ruleset `name` with its tables (overridden where the folder says).
    pub fn load(&self, name: &str) -> Result<Box<dyn Ruleset>> {
        let registered = self.find(name)?;
        if let Some(dir) = self.overrides() {
            self.check_override_folders(dir)?;
        }
        let mut files = tables::load(registered.embedded, self.overrides())?;
        for (_, file) in self.given.iter().filter(|(ruleset, _)| ruleset == name) {
            replace(&mut files, file.clone())?;
        }
        (registered.from_files)(files)
    }

    /// Every registered ruleset, loaded with its embedded tables.
    fn embedded(&self) -> Result<Vec<Box<dyn Ruleset>>> {
        self.registered.iter().map(|r| (r.from_files)(tables::load(r.embedded, None)?)).collect()
    }

    /// The rulesets with answers of their own, each with the scenario kind it answers.
    pub fn answering(&self) -> Result<Vec<(&'static str, &'static str)>> {
        Ok(self.embedded()?.iter().filter_map(|r| Some((r.name(), r.answers_kind()?))).collect())
    }

    /// The resolution the README's speed targets are set for, from the ruleset that
    /// holds it, on its embedded tables.
    pub fn peer(&self) -> Result<Peer> {
        self.embedded()?.iter().find_map(|r| r.peer()).ok_or_else(|| Error::Unknown {
            what: "ruleset",
            message: "no registered ruleset holds the peer comparison's resolution".to_string(),
        })
    }

    /// Loads the ruleset a scenario file names at `name`; an unknown name is reported
    /// at its place in the file.
    pub(crate) fn load_named(&self, doc: &Document, name: &Spanned<String>) -> Result<Box<dyn Ruleset>> {
        self.find(name.get_ref()).map_err(|e| doc.error_at(name.span().start, e.to_string()))?;
        self.load(name.get_ref())
    }

    /// `ruleset` reloaded with `file` in place of its table file of the same name: the
    /// in-memory form of a table override, validated by the same loader. Every other
    /// file keeps the text `ruleset` was loaded with (embedded or overridden).
    pub fn with_file(&self, ruleset: &dyn Ruleset, file: TableFile) -> Result<Box<dyn Ruleset>> {
        let mut files = ruleset.files().to_vec();
        replace(&mut files, file)?;
        (self.find(ruleset.name())?.from_files)(files)
    }

    /// Every folder of an override directory must be named after a ruleset: a misspelt
    /// folder would otherwise be ignored and the embedded tables used without a word.
    fn check_override_folders(&self, dir: &Path) -> Result<()> {
        let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()) {
            let folder = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if self.find(&folder).is_err() {
                return Err(Error::input(path.display().to_string(), unknown("ruleset folder", &folder, self.names())));
            }
        }
        Ok(())
    }
}

/// `file` put in place of the file of its name among `files`; a name none of them has
/// is refused where `file` comes from, with the nearest name.
fn replace(files: &mut [TableFile], file: TableFile) -> Result<()> {
    let Some(at) = files.iter().position(|f| f.name == file.name) else {
        let known = files.iter().map(|f| f.name.as_str());
        return Err(Error::input(file.origin.clone(), unknown("table file", &file.name, known)));
    };
    files[at] = file;
    Ok(())
}

#[cfg(test)]
mod tests {
    use combat_odds_core::tables::TableFile;

    use super::Rules;

    #[test]
    fn a_rulesets_own_answers_and_the_peer_resolution_are_found_through_the_trait() {
        let rules = Rules::builtin();
        assert_eq!(rules.answering().unwrap(), [("chain-of-command", "command_dice")]);
        let peer = rules.peer().unwrap();
        let exact = peer.fire.exact().expect("the peer resolution is exact");
        assert_eq!(peer.by_trial.exact(), Some(exact), "trial by trial, the same resolution");
    }

    #[test]
    fn a_table_given_in_memory_is_read_in_place_of_the_ruleset_s_and_named_as_given() {
        let given = |text: &str| TableFile::new("catalogue.toml", "your catalogue.toml (command-decision)", text);
        let shipped = Rules::builtin().load("command-decision").unwrap();
        let catalogue = shipped.files().iter().find(|f| f.name == "catalogue.toml").unwrap();
        let rules = Rules::builtin().with_table("command-decision", given(&catalogue.text));
        let loaded = rules.load("command-decision").unwrap();
        let read = loaded.files().iter().find(|f| f.name == "catalogue.toml").unwrap();
        assert_eq!(read.origin, "your catalogue.toml (command-decision)");
        assert!(rules.load("mission-command").unwrap().files().iter().all(|f| f.origin.ends_with("(embedded)")));

        let broken = Rules::builtin().with_table("command-decision", given("[source]\nseed = 1\n"));
        let line = broken.load("command-decision").map(|_| ()).unwrap_err().to_string();
        assert!(line.starts_with("your catalogue.toml (command-decision):"), "{line}");
    }
}
