//! The form over a scenario file: [`Form::of`] reads the file as the rules do and
//! answers with every value the page can offer in place: each value the rules took
//! from a closed list (a catalogue weapon or vehicle, a quality, a modifier, a
//! setting's reading), with that list, each number or switch, with the range in
//! metres beside it where the ruleset has a ground scale, each name, and each unit's
//! count the file leaves at its default, with the unit's table to write it in; and the
//! names the ruleset's tables give their entries (a catalogue's `label`), each marked
//! when its file is illustrative data rather than the rules' own. Nothing here knows
//! a ruleset: the lists are the ones the ruleset's own checks used, the names the
//! ones its table files hold. The server's `POST /api/form` and the browser's engine
//! (crates/wasm) both answer with it, so the page's form is the same in either.

use std::collections::BTreeMap;

use serde::Serialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use combat_odds_core::document::{Document, Offer, Uncounted, Unset};
use combat_odds_core::engine::{Mode, MonteCarlo};
use combat_odds_core::tables::Source;
use combat_odds_rules::{Rules, Scenario};

use crate::compare::Equivalents;

/// What the page can offer for a scenario file.
#[derive(Debug, Serialize)]
pub struct Form {
    /// Values from closed lists, in the order the text holds them.
    choices: Vec<Choice>,
    /// Numbers and switches, in the order the text holds them.
    values: Vec<Value>,
    /// Settings the rules read for this file that it leaves at their defaults.
    settings: Vec<Unset>,
    /// Units' counts (stands, elements) the file leaves out, read at their defaults:
    /// each with its unit's table, so a form can write it there.
    counts: Vec<Uncounted>,
    /// The ruleset's range unit and metres per unit, where it has a ground scale.
    scale: Option<(String, f64)>,
    /// What the ruleset's table files call the entries the choices offer, by the
    /// choices' list (`weapon`, `vehicle`: a list of the files of that name) and id.
    labels: BTreeMap<String, BTreeMap<String, Label>>,
    /// The ruleset's own views of a fire's answer beside its odds (`answers`, where the
    /// file is of the kind the ruleset answers of its own; `percent`, where
    /// its screen gives whole percentages: [`combat_odds_rules::Ruleset::shows_percent`]).
    views: Vec<&'static str>,
    /// Why the file cannot be run as it stands, if it cannot: the offers up to that
    /// point still stand. Public so a caller that read the tables from a folder of its
    /// own can say that folder's files in the player's words.
    pub error: Option<String>,
}

/// An entry's name in its table file.
#[derive(Debug, Serialize)]
struct Label {
    /// The file's `label` for it, e.g. "75mm KwK 42 L/70 tank gun, AP (illustrative)".
    label: String,
    /// Its file says its values are illustrative: invented for examples, not the
    /// rules' own (the Command Decision catalogue's weapons and vehicles).
    illustrative: bool,
}

/// A value from a closed list.
#[derive(Debug, Serialize)]
struct Choice {
    /// Where it is in the file, e.g. `firer[0].weapon`.
    key: String,
    /// The list and the value's place in the text.
    #[serde(flatten)]
    offer: Offer,
}

/// A number or switch the file gives.
#[derive(Debug, Serialize)]
struct Value {
    /// Where it is in the file, e.g. `target.stands`.
    key: String,
    /// `integer`, `float`, `boolean`, or `name` (a unit's or the scenario's name).
    kind: &'static str,
    /// Its text.
    text: String,
    /// Byte offsets of the value.
    start: usize,
    /// End of the value (exclusive).
    end: usize,
}

/// The ruleset's own views of `doc`'s answer: `percent` where its screen shows a
/// whole percentage, `answers` where the file is of the kind the ruleset answers of its
/// own (a hand of Command Dice).
fn views(doc: &Document, ruleset: &dyn combat_odds_rules::Ruleset) -> Vec<&'static str> {
    let kind = DeTable::parse(&doc.text)
        .ok()
        .and_then(|t| t.get_ref().get("kind").and_then(|k| k.get_ref().as_str().map(str::to_string)));
    let answers = ruleset.answers_kind().is_some_and(|own| kind.as_deref() == Some(own));
    [(ruleset.shows_percent(), "percent"), (answers, "answers")]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, v)| v)
        .collect()
}

impl Form {
    /// The form over `doc`, its ruleset loaded from `rules` (tables overridden as
    /// `--rules` does). Never fails: a file the rules refuse still has the offers up
    /// to the refusal, and the refusal in [`Form`]'s `error`.
    pub fn of(doc: &Document, rules: &Rules) -> Form {
        // Set up only, never run: one trial is the least a plan may name.
        let plan = MonteCarlo { trials: 1, seed: 0, threads: None, mode: Mode::Compiled };
        let (scale, views, error) = match Scenario::new(doc, rules, plan) {
            Ok(scenario) => (
                Equivalents::of(scenario.ruleset.as_ref()).ok().flatten().and_then(|e| e.words().scale),
                views(doc, scenario.ruleset.as_ref()),
                None,
            ),
            Err(e) => (None, Vec::new(), Some(e.to_string())),
        };
        let mut leaves = Vec::new();
        if let Ok(table) = DeTable::parse(&doc.text) {
            walk(&doc.text, table.get_ref(), "", &mut leaves);
        }
        let key_at = |start: usize| leaves.iter().find(|l| l.start == start).map(|l| l.key.clone());
        let choices: Vec<Choice> = doc
            .offers()
            .into_iter()
            .filter_map(|offer| Some(Choice { key: key_at(offer.start)?, offer }))
            // A scenario's kind decides which sections it has: changed alone, it would
            // leave the file wrong.
            .filter(|choice| choice.key != "kind")
            .collect();
        let values = leaves
            .into_iter()
            .filter_map(|l| match l.kind {
                "string" if l.key == "name" || l.key.ends_with(".name") => Some(Value { kind: "name", ..l }),
                "string" => None,
                _ => Some(l),
            })
            .collect();
        let labels = DeTable::parse(&doc.text)
            .ok()
            .and_then(|t| t.get_ref().get("ruleset").and_then(|r| r.get_ref().as_str().map(str::to_string)))
            .and_then(|name| rules.load(&name).ok())
            .map(|ruleset| labels(ruleset.files()))
            .unwrap_or_default()
            .into_iter()
            .filter(|(list, _)| choices.iter().any(|c| &c.offer.what == list))
            .collect();
        Form { choices, values, settings: doc.unset(), counts: doc.uncounted(), scale, labels, views, error }
    }
}

/// The `label` of every entry of `files` that has one, by the list it is in and its
/// id: an entry is a table under a list's table (`[weapon.de_75mm_kwk42]`) or an
/// element of an array of tables with a `name` (`[[weapon]] name = "rifle"`).
fn labels(files: &[combat_odds_core::tables::TableFile]) -> BTreeMap<String, BTreeMap<String, Label>> {
    let mut out: BTreeMap<String, BTreeMap<String, Label>> = BTreeMap::new();
    for file in files {
        let Ok(table) = file.text.parse::<toml::Table>() else { continue };
        // The file's `[source]` says whether its values are invented, but for the
        // entries it names as the player's own (`Source::invents`).
        let source: Option<Source> = table.get("source").cloned().and_then(|s| s.try_into().ok());
        for (list, entries) in &table {
            let mut add = |id: &str, entry: &toml::Value| {
                if let Some(label) = entry.get("label").and_then(toml::Value::as_str) {
                    let illustrative = source.as_ref().is_some_and(|s| s.invents(list, id));
                    let label = Label { label: label.to_string(), illustrative };
                    out.entry(list.clone()).or_default().insert(id.to_string(), label);
                }
            };
            match entries {
                toml::Value::Table(entries) => entries.iter().for_each(|(id, entry)| add(id, entry)),
                toml::Value::Array(entries) => {
                    for entry in entries {
                        if let Some(id) = entry.get("name").and_then(toml::Value::as_str) {
                            add(id, entry);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// Every scalar of `table` (parsed from `text`) with its key path, in text order.
fn walk(text: &str, table: &DeTable, prefix: &str, out: &mut Vec<Value>) {
    for (key, value) in table.iter() {
        let key = match prefix {
            "" => key.get_ref().to_string(),
            p => format!("{p}.{}", key.get_ref()),
        };
        leaf(text, &key, value, out);
    }
    out.sort_by_key(|v| v.start);
}

fn leaf(text: &str, key: &str, value: &Spanned<DeValue>, out: &mut Vec<Value>) {
    let span = value.span();
    let kind = match value.get_ref() {
        DeValue::Table(t) => return walk(text, t, key, out),
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaf(text, &format!("{key}[{i}]"), item, out);
            }
            return;
        }
        DeValue::String(_) => "string",
        DeValue::Integer(_) => "integer",
        DeValue::Float(_) => "float",
        DeValue::Boolean(_) => "boolean",
        DeValue::Datetime(_) => return,
    };
    let text = text.get(span.clone()).unwrap_or_default().to_string();
    out.push(Value { key: key.to_string(), kind, text, start: span.start, end: span.end });
}
