//! A request's own table files: a player's catalogue (or any other table file of a
//! ruleset) loaded on the page in place of the rules' own. They are handed to the rules
//! in memory for the one request, over the front door's own `--rules` override
//! where it has one, each named as the player's file ("your catalogue.toml (command-decision)"),
//! so they are checked by the same loader as `--rules DIR`, with the same one-line
//! messages, and a message names the player's file with nothing to rewrite.

use std::collections::BTreeMap;

use crate::error::Error as ReportError;
use combat_odds_core::error::{Error as CoreError, unknown};
use combat_odds_core::tables::TableFile;
use combat_odds_rules::Rules;

/// Table files by ruleset, then by the name of the file each replaces:
/// `{"command-decision": {"catalogue.toml": "..."}}`.
pub type OwnTables = BTreeMap<String, BTreeMap<String, String>>;

/// The rules a request is read by: the server's own (`server`), with the request's own
/// table files read in place of the rules' files of the same names. A ruleset or file
/// name the rules do not have is refused by the player's name for the file.
pub fn rules_for(server: &Rules, own: &OwnTables) -> Result<Rules, ReportError> {
    let mut rules = server.clone();
    for (ruleset, files) in own.iter().filter(|(_, files)| !files.is_empty()) {
        let loaded = server.clone().overridden_by(None).load(ruleset)?;
        let known: Vec<&str> = loaded.files().iter().map(|f| f.name.as_str()).collect();
        for (name, text) in files {
            if !known.contains(&name.as_str()) {
                return Err(ReportError::Core(CoreError::input(
                    format!("your {name}"),
                    format!("{} of {ruleset}", unknown("table file", name, known.iter().copied())),
                )));
            }
            let said = format!("your {name} ({ruleset})");
            rules = rules.with_table(ruleset, TableFile::new(name.as_str(), said, text.as_str()));
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn own(ruleset: &str, name: &str, text: &str) -> OwnTables {
        BTreeMap::from([(ruleset.to_string(), BTreeMap::from([(name.to_string(), text.to_string())]))])
    }

    #[test]
    fn no_tables_of_its_own_reads_the_server_s_folder() {
        let server = Rules::builtin().overridden_by(Some("/srv/rules".into()));
        let rules = rules_for(&server, &OwnTables::new()).unwrap();
        assert_eq!(rules.overrides(), Some(Path::new("/srv/rules")));
    }

    #[test]
    fn the_player_s_tables_are_read_over_the_server_s_folder_with_no_folder_of_their_own() {
        let server = Rules::builtin().overridden_by(Some("/srv/rules".into()));
        let catalogue = Rules::builtin().load("command-decision").unwrap().files()[0].clone();
        let rules = rules_for(&server, &own("command-decision", &catalogue.name, &catalogue.text)).unwrap();
        assert_eq!(rules.overrides(), Some(Path::new("/srv/rules")), "no temporary folder stands in for it");
    }

    #[test]
    fn a_file_the_ruleset_does_not_have_is_refused_by_its_name() {
        let e = rules_for(&Rules::builtin(), &own("command-decision", "catalog.toml", "")).unwrap_err();
        let line = e.to_string();
        assert!(line.starts_with("your catalog.toml: unknown table file `catalog.toml`"), "{line}");
        assert!(line.contains("did you mean `catalogue.toml`?"), "{line}");
    }

    #[test]
    fn an_error_in_the_player_s_file_names_it_not_the_folder() {
        let rules = rules_for(&Rules::builtin(), &own("command-decision", "catalogue.toml", "[source]\nseed = 1\n"));
        let line = rules.unwrap().load("command-decision").map(|_| ()).unwrap_err().to_string();
        assert!(line.starts_with("your catalogue.toml (command-decision):"), "{line}");
        assert!(!line.contains("combat-odds-own-"), "{line}");
    }
}
