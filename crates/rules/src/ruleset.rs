//! The [`Ruleset`] trait every ruleset implements, what it makes of a scenario
//! ([`SetUp`]), and the listings of its tables and modifiers. Whatever runs a
//! scenario sees only the trait; each ruleset's quirks stay in its own module.

use std::path::Path;

use combat_odds_core::document::Document;
use combat_odds_core::engine::Experiment;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{self, Embedded, Modifier, ModifierTable, Source, TableFile};
use serde::Serialize;
use toml::Spanned;

use crate::setup::{Sections, scenario_kind};

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

/// A scenario set up by its ruleset: something the engine can run.
pub struct SetUp {
    /// The resolution.
    pub experiment: Box<dyn Experiment>,
    /// How every number was reached, one line each.
    pub notes: Vec<String>,
}

/// One of a ruleset's own answers about a scenario: the case it holds for ("any" when
/// none matters), the question, and its exact value.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Answer {
    /// The case, e.g. a Chain of Command allocation policy (`max_senior`).
    pub policy: String,
    /// Stable name of the question.
    pub answer: String,
    /// The value: a probability, or an expected count.
    pub value: f64,
    /// The same value as an exact fraction.
    pub exact_fraction: String,
}

/// Every answer a ruleset gives of its own about one scenario (Chain of Command's
/// about a hand of Command Dice), exact, in report order.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Answers {
    /// What they answer, as a listing heads them: `chain-of-command (command dice)`.
    /// Not in the JSON, which has always been the answers alone.
    #[serde(skip)]
    pub about: String,
    /// Scenario name.
    pub scenario: String,
    /// How each number was reached.
    pub notes: Vec<String>,
    /// In report order.
    pub answers: Vec<Answer>,
}

/// The resolution the README's speed targets are set for (`bench`'s peer comparison),
/// with the same resolution run trial by trial as the literal reference.
pub struct Peer {
    /// The resolution, with an exact distribution and a compiled form.
    pub fire: Box<dyn Experiment>,
    /// The same resolution run trial by trial (`engine::ByTrial`).
    pub by_trial: Box<dyn Experiment>,
}

/// A modifier chart as a ruleset lists it: (chart name, the file it is loaded from, the
/// chart).
pub type Chart<'a> = (&'static str, &'static str, &'a ModifierTable);

/// A chart row the rules apply by themselves: (chart name, row, what applies it).
pub type Automatic = (&'static str, &'static str, &'static str);

/// A ruleset's catalogue as an editor offers it: the table file whose entries a
/// scenario names (`weapon = "..."`, `vehicle = "..."`), and what each field of an
/// entry is, in the rules' words. The loader alone checks the values (an editor asks
/// it, so a value is refused as `--rules DIR` refuses it); this says only what each is.
#[derive(Debug)]
pub struct CatalogueShape {
    /// The table file, e.g. `catalogue.toml`.
    pub file: &'static str,
    /// Each field as (its key: the entry's list, then the path within the entry, an
    /// array's item by its index or by `[]` for any, e.g. `weapon.close.hit`,
    /// `weapon.direct.range[0]`, `weapon.casualty[].row`; what it is).
    pub fields: &'static [(&'static str, &'static str)],
}

impl CatalogueShape {
    /// What field `key` (as [`fields`](CatalogueShape::fields) keys it, an index
    /// written out) is: its own words, else those of the key with each index as `[]`.
    pub fn words(&self, key: &str) -> Option<&'static str> {
        let any_index = {
            let mut out = String::with_capacity(key.len());
            let mut in_index = false;
            for c in key.chars() {
                match c {
                    '[' => {
                        in_index = true;
                        out.push_str("[]");
                    }
                    ']' => in_index = false,
                    _ if in_index => {}
                    _ => out.push(c),
                }
            }
            out
        };
        self.fields.iter().find(|(k, _)| *k == key || *k == any_index).map(|(_, words)| *words)
    }
}

/// A ruleset: its tables, its modifiers, and how it sets a scenario up.
pub trait Ruleset: Sync + Send {
    /// The name scenarios and the CLI use, e.g. `command-decision`.
    fn name(&self) -> &'static str;
    /// The loaded table files (for the rules hash).
    fn files(&self) -> &[TableFile];
    /// Its tables for listing in their own shapes, those before its modifier charts:
    /// every table but the charts (listed from [`charts`](Ruleset::charts)) and the
    /// catalogue (from [`catalogue_views`](Ruleset::catalogue_views)).
    fn table_views(&self) -> Vec<TableView>;
    /// The kinds of scenario it sets up, each with the sections it takes (an
    /// engagement's are `engagement::scenario::SECTIONS`, shared by every ruleset).
    fn kinds(&self) -> &'static Sections;
    /// Sets up a scenario of kind `kind` from `doc`: one of its [`kinds`](Ruleset::kinds),
    /// with the file's keys already checked against that kind's sections.
    fn set_up_kind(&self, doc: &Document, kind: &'static str) -> Result<SetUp>;

    /// Sets up a scenario of kind `kind` from `doc`. The kind and the file's sections are
    /// checked against [`kinds`](Ruleset::kinds) here, once for every ruleset, so a
    /// typo or a section of another kind gets the same message whatever the game.
    fn set_up(&self, doc: &Document, kind: &Spanned<String>) -> Result<SetUp> {
        let kind = scenario_kind(doc, kind, self.kinds())?;
        self.set_up_kind(doc, kind)
    }

    /// Its modifier charts in listing order; none by default (Chain of Command's Command
    /// Dice carry no modifiers).
    fn charts(&self) -> Vec<Chart<'_>> {
        Vec::new()
    }

    /// The rows of its charts the rules apply by themselves, each (chart name, row, what
    /// applies it); a row not listed is one a scenario names.
    fn automatic(&self) -> &'static [Automatic] {
        &[]
    }

    /// Its catalogue's listing, after its modifier charts; none by default.
    fn catalogue_views(&self) -> Vec<TableView> {
        Vec::new()
    }

    /// Its catalogue's file and fields, where scenarios name entries from one; none by
    /// default.
    fn catalogue(&self) -> Option<&'static CatalogueShape> {
        None
    }

    /// Every table, for listing: its own, then its modifier charts, then its catalogue.
    fn listing(&self) -> Vec<TableView> {
        let mut views = self.table_views();
        views.extend(self.charts().iter().map(|(_, file, chart)| modifier_view(file, chart)));
        views.extend(self.catalogue_views());
        views
    }

    /// Every modifier of its charts with its stable name, value, source and how it is
    /// applied.
    fn modifiers(&self) -> Vec<ModifierInfo> {
        modifier_listing(&self.charts(), self.automatic())
    }

    /// Whether its own play reads a fire's destroy chance as a whole percentage
    /// (Company Commander's "percentage chance of destroying"), so the page shows
    /// that view (`percent-destroy`) beside a fire's answer. No by default: another
    /// game's screen on this ruleset's answer would mislead.
    fn shows_percent(&self) -> bool {
        false
    }

    /// The scenario kind this ruleset answers questions of its own about (Chain of
    /// Command's `command_dice`), where it has such answers.
    fn answers_kind(&self) -> Option<&'static str> {
        None
    }

    /// Its own answers about the scenario `scenario` of kind `kind` from `doc`; asked
    /// only of a ruleset with an [`answers_kind`](Ruleset::answers_kind).
    fn answers(&self, doc: &Document, _kind: &Spanned<String>, _scenario: String) -> Result<Answers> {
        Err(doc.error(format!("the {} ruleset has no answers of its own", self.name())))
    }

    /// The resolution the README's speed targets are set for, where this ruleset holds
    /// it (Command Decision's peer comparison).
    fn peer(&self) -> Option<Peer> {
        None
    }
}

/// A ruleset's type as the registry builds it: its embedded tables, and how it is
/// made from a full set of table files. Loading is the same for every ruleset.
pub trait Load: Ruleset + Sized + 'static {
    /// The ruleset's embedded table files; `EMBEDDED.ruleset` is its name.
    const EMBEDDED: &'static Embedded;

    /// Validates a full set of the ruleset's table files (every embedded name, each
    /// text embedded or replaced): the in-memory form of a table override.
    fn from_files(files: Vec<TableFile>) -> Result<Self>;

    /// Loads and validates every table (embedded, with overrides from `rules_dir`).
    fn load(rules_dir: Option<&Path>) -> Result<Self> {
        Self::from_files(tables::load(Self::EMBEDDED, rules_dir)?)
    }
}

/// A modifier chart as a listing.
fn modifier_view(file: &str, chart: &ModifierTable) -> TableView {
    let rows = chart.rows();
    let col = |f: &dyn Fn(&Modifier) -> String| rows.iter().map(f).collect::<Vec<_>>();
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

/// Every modifier of a ruleset's charts as listing entries.
fn modifier_listing(charts: &[Chart], automatic: &[Automatic]) -> Vec<ModifierInfo> {
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
