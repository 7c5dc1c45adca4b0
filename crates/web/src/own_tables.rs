//! A request's own table files: a player's catalogue (or any other table file of a
//! ruleset) loaded on the page in place of the rules' own. For the one request they
//! are laid out in a temporary folder shaped like `rulesets/`, over the server's own
//! `--rules` override where it has one, and read through the same path as `--rules
//! DIR`: checked alike, with the same one-line messages, which name the player's file
//! rather than the folder. The folder goes as soon as the scenario is set up: the
//! tables are in memory by then.

use std::collections::BTreeMap;
use std::path::Path;

use combat_odds_core::error::{Error as CoreError, unknown};
use combat_odds_report::error::Error as ReportError;
use combat_odds_rules::Rules;

/// Table files by ruleset, then by the name of the file each replaces:
/// `{"command-decision": {"catalogue.toml": "..."}}`.
pub(crate) type OwnTables = BTreeMap<String, BTreeMap<String, String>>;

/// How a request's own tables' folder is named, so its paths can be said in words.
const PREFIX: &str = "combat-odds-own-";

/// Runs `work` with the rules to read: the server's own (`server`), or, where the
/// request brings tables of its own, the same rulesets overridden from a temporary
/// folder with them over the server's. An error naming that folder names the player's
/// file instead.
pub(crate) fn with_rules<T>(
    server: &Rules,
    own: &OwnTables,
    work: impl FnOnce(&Rules) -> Result<T, ReportError>,
) -> Result<T, ReportError> {
    if own.values().all(BTreeMap::is_empty) {
        return work(server);
    }
    let folder = tempfile::Builder::new()
        .prefix(PREFIX)
        .tempdir()
        .map_err(|source| ReportError::Core(CoreError::Io { path: std::env::temp_dir(), source }))?;
    lay_out(folder.path(), server, own)?;
    work(&server.clone().overridden_by(Some(folder.path().to_path_buf()))).map_err(named)
}

/// Writes the server's override and then the request's files into `folder`, one
/// subfolder per ruleset, refusing a ruleset or file name the rules do not have.
fn lay_out(folder: &Path, server: &Rules, own: &OwnTables) -> Result<(), ReportError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Core(CoreError::Io { path, source })
    };
    if let Some(dir) = server.overrides() {
        for ruleset in server.names() {
            let Ok(entries) = std::fs::read_dir(dir.join(ruleset)) else { continue };
            std::fs::create_dir_all(folder.join(ruleset)).map_err(io(folder))?;
            for entry in entries.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "toml")) {
                std::fs::copy(entry.path(), folder.join(ruleset).join(entry.file_name())).map_err(io(&entry.path()))?;
            }
        }
    }
    for (ruleset, files) in own {
        let loaded = server.clone().overridden_by(None).load(ruleset)?;
        let known: Vec<&str> = loaded.files().iter().map(|f| f.name.as_str()).collect();
        std::fs::create_dir_all(folder.join(ruleset)).map_err(io(folder))?;
        for (name, text) in files {
            if !known.contains(&name.as_str()) {
                return Err(ReportError::Core(CoreError::input(
                    format!("your {name}"),
                    format!("{} of {ruleset}", unknown("table file", name, known.iter().copied())),
                )));
            }
            let path = folder.join(ruleset).join(name);
            std::fs::write(&path, text).map_err(io(&path))?;
        }
    }
    Ok(())
}

/// `e` with the temporary folder's paths turned into the player's words.
fn named(e: ReportError) -> ReportError {
    let ReportError::Core(CoreError::Input { file, place, message }) = e else { return e };
    ReportError::Core(CoreError::Input { file: in_words(&file), place, message: in_words(&message) })
}

/// `text` with every path into a request's own tables' folder said as the player's
/// file: "your catalogue.toml (command-decision)". Such a path outlives its folder in
/// what was read from it (a loaded table's origin), so it is found by the folder's
/// name, not by a folder at hand.
pub(crate) fn in_words(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(PREFIX) {
        // The path starts after the last space (or the start) before the folder's name.
        let start = rest[..at].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let Some((_, path)) = rest[at..].split_once('/') else { break };
        let (ruleset, after) = path.split_once('/').unwrap_or(("", path));
        let end = after.find(".toml").map_or(after.len(), |i| i + ".toml".len());
        out += &rest[..start];
        out += &format!("your {} ({ruleset})", &after[..end]);
        rest = &after[end..];
    }
    out + rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(ruleset: &str, name: &str, text: &str) -> OwnTables {
        BTreeMap::from([(ruleset.to_string(), BTreeMap::from([(name.to_string(), text.to_string())]))])
    }

    #[test]
    fn no_tables_of_its_own_reads_the_server_s_folder() {
        let server = Rules::builtin().overridden_by(Some("/srv/rules".into()));
        let seen = with_rules(&server, &OwnTables::new(), |rules| Ok(rules.overrides().map(Path::to_path_buf)));
        assert_eq!(seen.unwrap().as_deref(), Some(Path::new("/srv/rules")));
    }

    #[test]
    fn a_file_the_ruleset_does_not_have_is_refused_by_its_name() {
        let e = with_rules(&Rules::builtin(), &own("command-decision", "catalog.toml", ""), |_| Ok(())).unwrap_err();
        let line = e.to_string();
        assert!(line.starts_with("your catalog.toml: unknown table file `catalog.toml`"), "{line}");
        assert!(line.contains("did you mean `catalogue.toml`?"), "{line}");
    }

    #[test]
    fn an_error_in_the_player_s_file_names_it_not_the_folder() {
        let e = with_rules(
            &Rules::builtin(),
            &own("command-decision", "catalogue.toml", "[source]\nseed = 1\n"),
            |rules| Ok(rules.load("command-decision").map(|_| ())?),
        )
        .unwrap_err();
        let line = e.to_string();
        assert!(line.starts_with("your catalogue.toml (command-decision):"), "{line}");
        assert!(!line.contains("combat-odds-own-"), "{line}");
    }
}
