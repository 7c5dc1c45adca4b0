//! Modifier charts: named rows with a value (optionally per counted thing) or a cap.

use serde::Deserialize;
use toml::Spanned;

use super::{Source, TableFile};
use crate::error::{Result, unknown};

/// Which column of a to-hit chart a modifier sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Describes the target.
    Target,
    /// Describes the firer.
    Firer,
}

/// What a modifier does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModifierEffect {
    /// Adds `value`, times the count named by `per` when there is one.
    Add {
        /// The value, e.g. -2.
        value: i32,
        /// A counted quantity, e.g. `weight_class` for "-Weight Class".
        per: Option<String>,
    },
    /// Caps the total, e.g. "1 max." on the ROF chart.
    Max(u32),
}

/// One modifier row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    /// Stable snake_case name that scenarios use.
    pub name: String,
    /// The row as the card prints it.
    pub label: String,
    /// Target or firer column, for charts that have both.
    pub side: Option<Side>,
    /// What it does.
    pub effect: ModifierEffect,
    /// Marked "*" on the card: HE (H and W class) fire ignores it.
    pub he_ignores: bool,
    /// The card's footnote for this row, if any.
    pub note: Option<String>,
    /// The target kinds the row describes (`personnel`, `afv`, `soft_vehicle`), where
    /// the card's wording limits it; `None` for any target.
    pub targets: Option<Vec<String>>,
}

/// The target kinds a modifier row may be limited to.
pub(crate) const TARGET_KINDS: [&str; 3] = ["personnel", "afv", "soft_vehicle"];

impl Modifier {
    /// Whether the row may describe a target of `kind` (one of `TARGET_KINDS`).
    pub fn fits_target(&self, kind: &str) -> bool {
        self.targets.as_ref().is_none_or(|kinds| kinds.iter().any(|k| k == kind))
    }

    /// Its additive value for a count (1 when the row has no `per`); 0 for caps.
    pub fn value(&self, count: i32) -> i32 {
        match &self.effect {
            ModifierEffect::Add { value, per: Some(_) } => value * count,
            ModifierEffect::Add { value, per: None } => *value,
            ModifierEffect::Max(_) => 0,
        }
    }

    /// The value as the card would print it: `+1`, `-2`, `-1 x weight_class`, `1 max`.
    pub fn display_value(&self) -> String {
        match &self.effect {
            ModifierEffect::Add { value, per: None } => format!("{value:+}"),
            ModifierEffect::Add { value, per: Some(per) } => format!("{value:+} x {per}"),
            ModifierEffect::Max(cap) => format!("{cap} max"),
        }
    }
}

/// A modifier row as written in a table file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModifierRow {
    name: Spanned<String>,
    label: String,
    side: Option<Spanned<String>>,
    value: Option<i32>,
    per: Option<String>,
    max: Option<u32>,
    #[serde(default)]
    he_ignores: bool,
    note: Option<String>,
    targets: Option<Vec<Spanned<String>>>,
}

/// The values a modifier row may carry: a die roll moved further than this is a typo,
/// and the bound keeps every sum of modifiers far inside 32 bits.
const MODIFIER_VALUES: std::ops::RangeInclusive<i32> = -100..=100;

/// A modifier chart as loaded: its rows in card order and where it came from.
#[derive(Debug, Clone)]
pub struct ModifierTable {
    /// Provenance.
    pub source: Source,
    /// The file it was loaded from, for messages.
    pub origin: String,
    rows: Vec<Modifier>,
}

/// A file holding one modifier chart and nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifierFile {
    source: Source,
    modifier: Vec<ModifierRow>,
}

impl ModifierTable {
    /// Loads a file that holds one chart (a `[source]` and its `[[modifier]]` rows),
    /// requiring exactly the rows in `expected`.
    pub fn load(file: &TableFile, expected: &[&str]) -> Result<Self> {
        let raw: ModifierFile = file.parse()?;
        Self::from_rows(file, raw.source, raw.modifier, expected)
    }

    /// Builds the chart from the `modifier` rows of a file, requiring exactly the
    /// names in `expected` (the rows the rules know how to apply).
    pub fn from_rows(file: &TableFile, source: Source, rows: Vec<ModifierRow>, expected: &[&str]) -> Result<Self> {
        let mut out: Vec<Modifier> = Vec::with_capacity(rows.len());
        for raw in rows {
            let at = raw.name.span().start;
            let name = raw.name.into_inner();
            if !expected.contains(&name.as_str()) {
                return Err(file.error_at(at, unknown("modifier row", &name, expected.iter().copied())));
            }
            if out.iter().any(|m| m.name == name) {
                return Err(file.error_at(at, format!("modifier `{name}` appears twice; keep one row")));
            }
            let effect = match (raw.value, raw.max, raw.per) {
                (Some(value), None, _) if !MODIFIER_VALUES.contains(&value) => {
                    return Err(file.error_at(
                        at,
                        format!(
                            "modifier `{name}`: value {value} is outside {} to {}; no die roll is moved that far",
                            MODIFIER_VALUES.start(),
                            MODIFIER_VALUES.end()
                        ),
                    ));
                }
                (Some(value), None, per) => ModifierEffect::Add { value, per },
                (None, Some(cap), None) => ModifierEffect::Max(cap),
                _ => {
                    return Err(file.error_at(
                        at,
                        format!("modifier `{name}` needs exactly one of `value` (with an optional `per`) or `max`"),
                    ));
                }
            };
            let side = match raw.side {
                None => None,
                Some(s) => Some(match s.get_ref().as_str() {
                    "target" => Side::Target,
                    "firer" => Side::Firer,
                    other => return Err(file.error_at(s.span().start, unknown("side", other, ["target", "firer"]))),
                }),
            };
            let targets = match raw.targets {
                None => None,
                Some(kinds) => {
                    for kind in &kinds {
                        if !TARGET_KINDS.contains(&kind.get_ref().as_str()) {
                            return Err(
                                file.error_at(kind.span().start, unknown("target kind", kind.get_ref(), TARGET_KINDS))
                            );
                        }
                    }
                    Some(kinds.into_iter().map(Spanned::into_inner).collect())
                }
            };
            out.push(Modifier {
                name,
                label: raw.label,
                side,
                effect,
                he_ignores: raw.he_ignores,
                note: raw.note,
                targets,
            });
        }
        if let Some(missing) = expected.iter().find(|n| !out.iter().any(|m| m.name == **n)) {
            return Err(file.error(format!("missing modifier row `{missing}`; every row of the card must be present")));
        }
        Ok(ModifierTable { source, origin: file.origin.clone(), rows: out })
    }

    /// The rows in card order.
    pub fn rows(&self) -> &[Modifier] {
        &self.rows
    }

    /// The row named `name`; the name is one the rules asked for at load, so it exists.
    pub fn get(&self, name: &str) -> &Modifier {
        self.rows.iter().find(|m| m.name == name).expect("row names are checked at load")
    }
}
