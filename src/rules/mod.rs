//! The rulesets, one module each, behind the [`Ruleset`] trait. The engine and the
//! CLI see only the trait; each ruleset's quirks stay in its own module.

pub mod chain_of_command;
pub mod command_decision;
pub mod company_commander;
pub mod compile;
pub mod mission_command;
pub mod test_roll;

use std::path::Path;

use crate::document::Document;
use crate::engine::Experiment;
use crate::error::{Error, Result, unknown};
use crate::tables::{ModifierTable, Source, TableFile};

/// A table prepared for listing: its title, provenance and columns of text.
#[derive(Debug, Clone)]
pub struct TableView {
    /// The data file it was loaded from.
    pub file: String,
    /// Provenance.
    pub source: Source,
    /// (column name, cells).
    pub columns: Vec<(String, Vec<String>)>,
}

impl TableView {
    /// A listing of `file` from (column name, cells) pairs.
    pub fn new(file: &str, source: &Source, columns: Vec<(&str, Vec<String>)>) -> Self {
        TableView {
            file: file.to_string(),
            source: source.clone(),
            columns: columns.into_iter().map(|(name, cells)| (name.to_string(), cells)).collect(),
        }
    }
}

/// One modifier as `combat-odds modifiers` lists it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ModifierInfo {
    /// The chart it belongs to.
    pub chart: String,
    /// Stable snake_case name.
    pub name: String,
    /// The row as printed on the card.
    pub label: String,
    /// Its value as the card gives it.
    pub value: String,
    /// "named" (scenarios list it) or how the rules apply it by themselves.
    pub applied: String,
    /// Provenance: seed file and table.
    pub source: String,
}

/// A scenario turned into something the engine can run.
pub struct Compiled {
    /// The resolution.
    pub experiment: Box<dyn Experiment>,
    /// How every number was reached, one line each.
    pub notes: Vec<String>,
}

/// A ruleset: its tables, its modifiers, and its scenario compiler.
pub trait Ruleset: Sync {
    /// The name scenarios and the CLI use, e.g. `command-decision`.
    fn name(&self) -> &'static str;
    /// The loaded table files (for the rules hash).
    fn files(&self) -> &[TableFile];
    /// Every table, for listing.
    fn tables(&self) -> Vec<TableView>;
    /// Every modifier with its stable name, value and source.
    fn modifiers(&self) -> Vec<ModifierInfo>;
    /// Compiles a scenario of kind `kind` from `doc`.
    fn compile(&self, doc: &Document, kind: &toml::Spanned<String>) -> Result<Compiled>;
}

/// Names of the rulesets this build resolves.
pub const RULESETS: [&str; 4] = ["command-decision", "mission-command", "company-commander", "chain-of-command"];

/// Loads a ruleset's tables (with overrides from `rules_dir`) by name.
pub fn load(name: &str, rules_dir: Option<&Path>) -> std::result::Result<Box<dyn Ruleset>, LoadError> {
    if let Some(dir) = rules_dir {
        check_override_folders(dir).map_err(LoadError::Tables)?;
    }
    match name {
        "command-decision" => {
            Ok(Box::new(command_decision::CommandDecision::load(rules_dir).map_err(LoadError::Tables)?))
        }
        "mission-command" => Ok(Box::new(mission_command::MissionCommand::load(rules_dir).map_err(LoadError::Tables)?)),
        "company-commander" => {
            Ok(Box::new(company_commander::CompanyCommander::load(rules_dir).map_err(LoadError::Tables)?))
        }
        "chain-of-command" => {
            Ok(Box::new(chain_of_command::ChainOfCommand::load(rules_dir).map_err(LoadError::Tables)?))
        }
        other => Err(LoadError::Unknown(unknown("ruleset", other, RULESETS))),
    }
}

/// `ruleset` reloaded with `file` in place of its table file of the same name: the
/// in-memory form of a `--rules` override, validated by the same loader. Every other
/// file keeps the text `ruleset` was loaded with (embedded or overridden).
pub fn with_file(ruleset: &dyn Ruleset, file: TableFile) -> Result<Box<dyn Ruleset>> {
    let mut files = ruleset.files().to_vec();
    let Some(slot) = files.iter_mut().find(|f| f.name == file.name) else {
        let known = ruleset.files().iter().map(|f| f.name.as_str());
        return Err(Error::input(file.origin.clone(), unknown("table file", &file.name, known)));
    };
    *slot = file;
    Ok(match ruleset.name() {
        "command-decision" => Box::new(command_decision::CommandDecision::from_files(files)?),
        "mission-command" => Box::new(mission_command::MissionCommand::from_files(files)?),
        "company-commander" => Box::new(company_commander::CompanyCommander::from_files(files)?),
        "chain-of-command" => Box::new(chain_of_command::ChainOfCommand::from_files(files)?),
        other => unreachable!("every loaded ruleset is one of {RULESETS:?}, not {other}"),
    })
}

/// Every folder of an override directory must be named after a ruleset: a misspelt
/// folder would otherwise be ignored and the embedded tables used without a word.
fn check_override_folders(dir: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()) {
        let folder = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !RULESETS.contains(&folder.as_str()) {
            return Err(Error::input(path.display().to_string(), unknown("ruleset folder", &folder, RULESETS)));
        }
    }
    Ok(())
}

/// Why a ruleset could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// No such ruleset (the message suggests the nearest).
    Unknown(String),
    /// Its tables failed validation.
    Tables(Error),
}

/// A modifier chart as a listing.
pub fn modifier_view(file: &str, chart: &ModifierTable) -> TableView {
    let rows = chart.rows();
    let col = |f: &dyn Fn(&crate::tables::Modifier) -> String| rows.iter().map(f).collect::<Vec<_>>();
    let mut columns = vec![
        ("name".to_string(), col(&|m| m.name.clone())),
        ("label".to_string(), col(&|m| m.label.clone())),
        ("value".to_string(), col(&|m| m.display_value())),
    ];
    if rows.iter().any(|m| m.side.is_some()) {
        columns.push(("side".into(), col(&|m| m.side.map_or(String::new(), |s| format!("{s:?}").to_lowercase()))));
    }
    if rows.iter().any(|m| m.he_ignores) {
        columns.push(("he_ignores".into(), col(&|m| if m.he_ignores { "*".into() } else { String::new() })));
    }
    TableView { file: file.to_string(), source: chart.source.clone(), columns }
}

/// Every modifier of a ruleset's charts as listing entries: `charts` are (chart name,
/// file, chart) and `automatic` (chart name, row, what applies it).
pub fn modifier_listing(
    charts: &[(&str, &str, &ModifierTable)],
    automatic: &[(&str, &str, &str)],
) -> Vec<ModifierInfo> {
    charts
        .iter()
        .flat_map(|(name, _, chart)| {
            let applied: Vec<(&str, &str)> =
                automatic.iter().filter(|(c, ..)| c == name).map(|(_, m, why)| (*m, *why)).collect();
            modifier_infos(name, chart, &applied)
        })
        .collect()
}

/// A modifier chart's rows as listing entries; `automatic` says which rows the rules
/// apply by themselves and from what.
fn modifier_infos(chart_name: &str, chart: &ModifierTable, automatic: &[(&str, &str)]) -> Vec<ModifierInfo> {
    chart
        .rows()
        .iter()
        .map(|m| ModifierInfo {
            chart: chart_name.to_string(),
            name: m.name.clone(),
            label: m.label.clone(),
            value: m.display_value(),
            applied: automatic
                .iter()
                .find(|(n, _)| *n == m.name)
                .map_or("named".to_string(), |(_, why)| format!("automatic: {why}")),
            source: format!("{}, {}", chart.source.seed, chart.source.table),
        })
        .collect()
}
