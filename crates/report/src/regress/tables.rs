//! `diff-tables`: which table cells two rules directories differ in, and which
//! reference scenarios each changed cell reaches.
//!
//! A cell reaches a scenario when the scenario's rows change with that one cell
//! changed alone. Evaluations share the seed and trial count, and the Monte Carlo is a
//! pure function of them, so a scenario the cell does not reach gives the very same
//! counts: the comparison is exact, not statistical.

use std::path::Path;

use toml::{Table, Value};

use super::{Rulesets, Suite, evaluate_one};
use crate::error::Result;
use combat_odds_core::document::Document;
use combat_odds_core::engine::MonteCarlo;
use combat_odds_core::run::Run;
use combat_odds_rules::Rules;

/// One changed cell of one table file.
#[derive(Debug, Clone, PartialEq)]
pub struct CellChange {
    /// The ruleset.
    pub ruleset: String,
    /// The table file.
    pub file: String,
    /// Where in the file, e.g. `row[quality=regular].eliminated`.
    pub cell: String,
    /// The old value (`-` where the cell is new).
    pub old: String,
    /// The new value (`-` where the cell is gone).
    pub new: String,
    /// The suite's scenarios whose outcomes the change moves.
    pub reaches: Vec<String>,
    /// Why the cell was judged with its file's other changes rather than alone (the
    /// tables do not load with it alone).
    pub note: Option<String>,
}

/// The keys that name an element of an array of tables, most telling first.
const NAMING_KEYS: [&str; 5] = ["name", "quality", "band", "weapon", "roll"];

/// Every leaf path where `a` and `b` differ: (path, old, new), `None` for absent.
fn leaf_diffs(path: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<(String, Option<Value>, Option<Value>)>) {
    match (a, b) {
        (Some(Value::Table(x)), Some(Value::Table(y))) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                leaf_diffs(&join(path, k), x.get(k), y.get(k), out);
            }
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() && x.iter().all(Value::is_table) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                leaf_diffs(&format!("{path}[{}]", element_name(p, i)), Some(p), Some(q), out);
            }
        }
        (x, y) if x != y => out.push((path.to_string(), x.cloned(), y.cloned())),
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_string() } else { format!("{path}.{key}") }
}

fn element_name(v: &Value, i: usize) -> String {
    NAMING_KEYS
        .iter()
        .find_map(|k| v.get(k).and_then(Value::as_str).map(|n| format!("{k}={n}")))
        .unwrap_or_else(|| i.to_string())
}

/// `table` with the cell at `path` set to `value` (removed for `None`).
fn with_cell(table: &Table, path: &str, value: Option<&Value>) -> Table {
    let mut t = table.clone();
    set(&mut t, &steps(path), value);
    t
}

/// A path's steps: keys, and array elements as `[name=x]` or `[i]`.
fn steps(path: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').expect("paths close their brackets");
            out.push(format!("[{}", &r[..end]));
            rest = r[end + 1..].trim_start_matches('.');
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = rest[end..].trim_start_matches('.');
        }
    }
    out
}

fn set(t: &mut Table, steps: &[String], value: Option<&Value>) {
    let Some((key, rest)) = steps.split_first() else { return };
    if rest.is_empty() {
        match value {
            Some(v) => t.insert(key.clone(), v.clone()),
            None => t.remove(key),
        };
        return;
    }
    match (t.get_mut(key), rest.split_first()) {
        (Some(Value::Array(items)), Some((element, deeper))) if element.starts_with('[') => {
            let wanted = &element[1..];
            let found = items.iter_mut().enumerate().find(|(i, v)| element_name(v, *i) == wanted);
            if let Some((_, Value::Table(inner))) = found {
                set(inner, deeper, value);
            }
        }
        (Some(Value::Table(inner)), _) => set(inner, rest, value),
        _ => {}
    }
}

fn shown(v: &Option<Value>) -> String {
    v.as_ref().map_or("-".to_string(), |v| v.to_string())
}

/// The cells `new_dir` changes from `old_dir` (each laid out like `rulesets/`, over the
/// rulesets of `rules`), and the scenarios of `suite` each reaches.
pub fn diff_tables(
    rules: &Rules,
    (old_dir, new_dir): (&Path, &Path),
    suite: &Suite,
    (monte_carlo, run): (&MonteCarlo, &Run),
) -> Result<Vec<CellChange>> {
    let old = Rulesets::load(&rules.clone().overridden_by(Some(old_dir.to_path_buf())))?;
    let new = Rulesets::load(&rules.clone().overridden_by(Some(new_dir.to_path_buf())))?;
    let mut changes = Vec::new();
    for name in rules.names() {
        let (before, after) = (old.get(name).expect("loaded"), new.get(name).expect("loaded"));
        let scenarios: Vec<&Path> = suite
            .scenarios
            .iter()
            .map(|p| p.as_path())
            .filter(|p| {
                Document::read(p).ok().and_then(|d| super::header(&d).ok()).is_some_and(|h| h.ruleset.get_ref() == name)
            })
            .collect();
        let mut reference = None;
        for (a, b) in before.files().iter().zip(after.files()) {
            if a.text == b.text {
                continue;
            }
            let (ta, tb): (Table, Table) = (a.parse()?, b.parse()?);
            let mut cells = Vec::new();
            leaf_diffs("", Some(&Value::Table(ta.clone())), Some(&Value::Table(tb)), &mut cells);
            if reference.is_none() {
                reference = Some(
                    scenarios.iter().map(|p| evaluate_one(p, &old, monte_carlo, run)).collect::<Result<Vec<_>>>()?,
                );
            }
            let reference = reference.as_ref().expect("just made");
            for (cell, x, y) in cells {
                let text = toml::to_string(&with_cell(&ta, &cell, y.as_ref())).expect("a table serializes");
                let alone = rules
                    .with_file(before, Document::new(a.name.clone(), format!("{} (one cell changed)", a.name), text));
                let (variant, note) = match alone {
                    Ok(r) => (old.with(r), None),
                    Err(e) => {
                        let whole = rules.with_file(before, b.clone())?;
                        (old.with(whole), Some(format!("judged with the file's other changes: alone, {e}")))
                    }
                };
                let mut reaches = Vec::new();
                for (path, rows) in scenarios.iter().zip(reference) {
                    // The rules hash differs by construction; the odds are what count.
                    let odds =
                        |rows: &[super::Row]| rows.iter().map(|r| (r.exact.clone(), r.count)).collect::<Vec<_>>();
                    if odds(&evaluate_one(path, &variant, monte_carlo, run)?) != odds(rows) {
                        reaches.push(path.to_string_lossy().replace('\\', "/"));
                    }
                }
                changes.push(CellChange {
                    ruleset: name.to_string(),
                    file: a.name.clone(),
                    cell,
                    old: shown(&x),
                    new: shown(&y),
                    reaches,
                    note,
                });
            }
        }
    }
    Ok(changes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_cell_in_an_array_of_tables_is_named_by_its_row() {
        let a: Table =
            "[[row]]\nquality = \"green\"\neliminated = \"6+\"\n[[row]]\nquality = \"regular\"\neliminated = \"7+\"\n"
                .parse()
                .unwrap();
        let b: Table =
            "[[row]]\nquality = \"green\"\neliminated = \"6+\"\n[[row]]\nquality = \"regular\"\neliminated = \"8+\"\n"
                .parse()
                .unwrap();
        let mut out = Vec::new();
        leaf_diffs("", Some(&Value::Table(a.clone())), Some(&Value::Table(b.clone())), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, "row[quality=regular].eliminated");
        // Setting that one cell on the old table gives the new one.
        assert_eq!(with_cell(&a, &out[0].0, out[0].2.as_ref()), b);
    }
}
