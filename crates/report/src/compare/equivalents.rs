//! A ruleset's `equivalents.toml`: its ground scale, and what the comparison
//! vocabulary's weapons, targets, qualities and situations are in its own scenario
//! language. Each entry is a fragment of a scenario document; compare merges the
//! fragments into one scenario and compiles it like any other.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use toml::{Spanned, Table, Value};

use super::Comparison;
use combat_odds_core::error::listing;

use crate::error::Result;
use combat_odds_core::tables::{Source, TableFile};
use combat_odds_rules::Ruleset;

/// The file every ruleset carries for compare.
pub const FILE: &str = "equivalents.toml";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEquivalents {
    #[serde(rename = "source")]
    _source: Source,
    scale: Option<RawScale>,
    #[serde(default)]
    weapon: BTreeMap<String, Spanned<Entry>>,
    #[serde(default)]
    target: BTreeMap<String, Spanned<Entry>>,
    #[serde(default)]
    quality: BTreeMap<String, Spanned<Entry>>,
    #[serde(default)]
    situation: BTreeMap<String, Spanned<Entry>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScale {
    unit: String,
    metres_per_unit: Spanned<f64>,
    #[serde(default = "range_key")]
    key: String,
    #[serde(default)]
    whole_units: bool,
}

fn range_key() -> String {
    "range".into()
}

/// One word's meaning in the ruleset.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// What the ruleset's entry is, for the reader.
    #[serde(default)]
    label: Option<String>,
    /// A weapon's shots in one turn's fire, where they are independent: its one-shot
    /// kill chance then follows from the turn's.
    #[serde(default)]
    shots_per_turn: Option<u32>,
    /// The scenario fragment.
    #[serde(default)]
    scenario: Table,
}

/// The ground scale: metres per table unit, the scenario key ranges go in.
#[derive(Debug, Clone, PartialEq)]
struct Scale {
    unit: String,
    metres_per_unit: f64,
    key: String,
    whole_units: bool,
}

/// A ruleset's equivalents, checked.
#[derive(Debug, Clone)]
pub struct Equivalents {
    ruleset: String,
    scale: Option<Scale>,
    weapon: BTreeMap<String, Entry>,
    target: BTreeMap<String, Entry>,
    quality: BTreeMap<String, Entry>,
    situation: BTreeMap<String, Entry>,
}

/// The words of the comparison vocabulary a ruleset has, each with what it is there,
/// and its ground scale: what a form offers before anything is compared.
#[derive(Debug, Clone, Serialize)]
pub struct Words {
    /// The ruleset.
    pub ruleset: String,
    /// Its range unit and metres per unit, where it has a ground scale.
    pub scale: Option<(String, f64)>,
    /// Weapons: (word, what the ruleset's entry is).
    pub weapon: Vec<(String, String)>,
    /// Targets, likewise.
    pub target: Vec<(String, String)>,
    /// Qualities, likewise.
    pub quality: Vec<(String, String)>,
    /// Situations, likewise.
    pub situation: Vec<(String, String)>,
}

/// A scenario built for one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Built {
    /// The scenario document.
    pub text: String,
    /// Independent shots in the weapon's turn of fire, where known.
    pub shots_per_turn: Option<u32>,
    /// The range in the ruleset's unit, e.g. "16 in.".
    pub table_range: Option<String>,
    /// What the ruleset's entries are, from their labels.
    pub equivalent: String,
}

impl Equivalents {
    /// Reads the ruleset's `equivalents.toml` (embedded, or its `--rules` override);
    /// `None` for a ruleset that has none, whose rules no comparison's word reaches.
    pub fn of(ruleset: &dyn Ruleset) -> Result<Option<Self>> {
        ruleset.files().iter().find(|f| f.name == FILE).map(|file| Self::read(ruleset.name(), file)).transpose()
    }

    /// Why this ruleset answers no cell of a comparison asked at `ranges_m` (none for
    /// fire without a range): past any word or weapon it may lack, a comparison at
    /// ranges needs its ground scale.
    pub fn cannot_answer(&self, ranges_m: &[f64]) -> Option<String> {
        (!ranges_m.is_empty() && self.scale.is_none()).then(|| {
            format!(
                "its rules give no ground scale, so no range in metres has a distance on its tables (a [scale] in its {FILE} would give one)"
            )
        })
    }

    fn read(ruleset: &str, file: &TableFile) -> Result<Self> {
        let raw: RawEquivalents = file.parse()?;
        let scale = match raw.scale {
            None => None,
            Some(s) => {
                let m = *s.metres_per_unit.get_ref();
                if !(m.is_finite() && m > 0.0) {
                    return Err(file
                        .error_at(s.metres_per_unit.span().start, "metres_per_unit must be above 0")
                        .into());
                }
                Some(Scale { unit: s.unit, metres_per_unit: m, key: s.key, whole_units: s.whole_units })
            }
        };
        for entry in raw.weapon.values() {
            if entry.get_ref().shots_per_turn == Some(0) {
                return Err(file.error_at(entry.span().start, "shots_per_turn must be 1 or more").into());
            }
        }
        let plain = |m: BTreeMap<String, Spanned<Entry>>| m.into_iter().map(|(k, v)| (k, v.into_inner())).collect();
        Ok(Equivalents {
            ruleset: ruleset.to_string(),
            scale,
            weapon: plain(raw.weapon),
            target: plain(raw.target),
            quality: plain(raw.quality),
            situation: plain(raw.situation),
        })
    }

    /// The words this ruleset has; an entry with no label is what its word says.
    pub fn words(&self) -> Words {
        let listed = |entries: &BTreeMap<String, Entry>| {
            entries.iter().map(|(word, e)| (word.clone(), e.label.clone().unwrap_or_else(|| word.clone()))).collect()
        };
        Words {
            ruleset: self.ruleset.clone(),
            scale: self.scale.as_ref().map(|s| (s.unit.clone(), s.metres_per_unit)),
            weapon: listed(&self.weapon),
            target: listed(&self.target),
            quality: listed(&self.quality),
            situation: listed(&self.situation),
        }
    }

    /// The ruleset's scenario for `weapon` in `comparison` at `range_m`, or why
    /// there is none (no equivalent entry, no ground scale).
    pub fn scenario(&self, comparison: &Comparison, weapon: &str, range_m: Option<f64>) -> Result<Built, String> {
        let range = match (range_m, &self.scale) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(format!(
                    "no ground scale: {} gives no metres per table unit (add [scale] to its {FILE} to compare at ranges)",
                    self.ruleset
                ));
            }
            (Some(m), Some(scale)) => {
                let units = m / scale.metres_per_unit;
                let value = if scale.whole_units {
                    Value::Integer(units.round().max(1.0) as i64)
                } else {
                    // Two decimals: a table range finer than that means nothing.
                    Value::Float((units * 100.0).round() / 100.0)
                };
                let shown = match &value {
                    Value::Integer(i) => format!("{i} {}", scale.unit),
                    v => format!("{} {}", v.as_float().unwrap_or(units), scale.unit),
                };
                Some((scale.key.clone(), value, shown))
            }
        };
        let w = self.entry("weapon", &self.weapon, weapon)?;
        let t = self.entry("target", &self.target, &comparison.target)?;
        let mut doc = Table::new();
        doc.insert("ruleset".into(), Value::String(self.ruleset.clone()));
        let range_text = range_m.map_or(String::new(), |m| format!(" at {m} m"));
        doc.insert("name".into(), Value::String(format!("{}: {weapon}{range_text}", comparison.name)));
        merge(&mut doc, &w.scenario, true);
        merge(&mut doc, &t.scenario, true);
        // Quality and situation only qualify what the weapon and target set up: a
        // firer's quality goes wherever this kind of fire keeps its firer.
        if let Some(q) = &comparison.quality {
            merge(&mut doc, &self.entry("quality", &self.quality, q)?.scenario, false);
        }
        if let Some(s) = &comparison.situation {
            merge(&mut doc, &self.entry("situation", &self.situation, s)?.scenario, false);
        }
        let table_range = range.map(|(key, value, shown)| {
            doc.insert(key, value);
            shown
        });
        let text = toml::to_string(&doc).map_err(|e| format!("cannot write the scenario: {e}"))?;
        let label = |e: &Entry, name: &str| e.label.clone().unwrap_or_else(|| name.to_string());
        let mut equivalent = format!("{} vs {}", label(w, weapon), label(t, &comparison.target));
        if let Some(s) = &comparison.situation {
            equivalent += &format!(", {}", label(self.entry("situation", &self.situation, s)?, s));
        }
        Ok(Built { text, shots_per_turn: w.shots_per_turn, table_range, equivalent })
    }

    fn entry<'a>(&self, what: &str, entries: &'a BTreeMap<String, Entry>, name: &str) -> Result<&'a Entry, String> {
        entries.get(name).ok_or_else(|| {
            let known = entries.keys().map(String::as_str);
            let has = if entries.is_empty() { "none".to_string() } else { listing(known.clone()) };
            format!(
                "no equivalent: {}'s {FILE} has no {what} `{name}`{} (it has {has}); add one rather than read another in its place",
                self.ruleset,
                combat_odds_core::error::suggest(name, known)
            )
        })
    }
}

/// Merges `from` into `into`: tables key by key, arrays of tables take a table into
/// every element, other arrays append, other values replace. With `create` false,
/// keys `into` lacks at the top are left out rather than added.
fn merge(into: &mut Table, from: &Table, create: bool) {
    for (key, value) in from {
        match (into.get_mut(key), value) {
            (Some(Value::Table(a)), Value::Table(b)) => merge(a, b, true),
            (Some(Value::Array(items)), Value::Table(b)) if items.iter().all(Value::is_table) => {
                for item in items.iter_mut() {
                    if let Value::Table(a) = item {
                        merge(a, b, true);
                    }
                }
            }
            (Some(Value::Array(a)), Value::Array(b)) => a.extend(b.iter().cloned()),
            (Some(slot), v) => *slot = v.clone(),
            (None, v) if create => {
                into.insert(key.clone(), v.clone());
            }
            (None, _) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> Table {
        text.parse().expect("a TOML table")
    }

    #[test]
    fn a_quality_goes_into_every_firer_and_never_adds_a_section() {
        let mut doc = table("[[firer]]\nweapon = \"a\"\n[[firer]]\nweapon = \"b\"\n[target]\nmodifiers = [\"x\"]\n");
        merge(&mut doc, &table("[firer]\nquality = \"veteran\"\n[artillery]\nquality = \"veteran\"\n"), false);
        merge(&mut doc, &table("[target]\nmodifiers = [\"light_cover\"]\n"), false);
        let want = table(
            "[[firer]]\nweapon = \"a\"\nquality = \"veteran\"\n[[firer]]\nweapon = \"b\"\nquality = \"veteran\"\n\
             [target]\nmodifiers = [\"x\", \"light_cover\"]\n",
        );
        assert_eq!(doc, want);
    }
}
