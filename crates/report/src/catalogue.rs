//! The catalogue editor's reading of a ruleset's catalogue (the table file whose
//! entries a scenario names: weapons, vehicles): every entry with its fields in the
//! rules' words ([`CatalogueShape`], declared by the ruleset), its edits made on the
//! text, and the loader's verdict on the result beside the field it is about.
//!
//! The editor never checks a value itself: an edited file is read by the same loader
//! as `--rules DIR` reads it, so the page refuses exactly what the command line
//! refuses and the file the page exports answers exactly as the page did. An entry
//! the player changes or adds is marked as theirs in the file's `[source]` (`own`),
//! so answers stop calling its values invented while the shipped entries it kept
//! still say so.

use serde::{Deserialize, Serialize};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use combat_odds_core::error::Error as CoreError;
use combat_odds_core::tables::Source;
use combat_odds_rules::Rules;
use combat_odds_rules::ruleset::CatalogueShape;

use crate::error::Error as ReportError;

/// A change the editor asks of a catalogue's text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum Edit {
    /// Field `key` (a path within the entry, e.g. `close.hit`) of entry `entry`
    /// (`list.id`, e.g. `weapon.us_75mm_m3`) set to `value` as the player typed it.
    Set {
        /// The entry, as `list.id`.
        entry: String,
        /// The field's path within it.
        key: String,
        /// The value as typed: a number, `true` or `false` is written as one, anything
        /// else as text.
        value: String,
    },
    /// A copy of entry `entry` added under a new id, for the player to change.
    Copy {
        /// The entry copied, as `list.id`.
        entry: String,
    },
}

/// What the editor shows of a catalogue.
#[derive(Debug, Serialize)]
pub struct CatalogueForm {
    /// The ruleset.
    ruleset: String,
    /// The table file, e.g. `catalogue.toml`: what `--rules DIR` reads under the
    /// ruleset's folder.
    file: &'static str,
    /// The file's title, from its `[source]`.
    title: String,
    /// The text in hand, after the edit asked for.
    text: String,
    /// Whether it differs from the rules' own file.
    yours: bool,
    /// Every entry, in the file's order.
    entries: Vec<Entry>,
    /// Why the loader refuses the text, if it does, with the entry and field it is
    /// about where the message has a place in the file.
    error: Option<Refusal>,
}

/// One entry of the catalogue.
#[derive(Debug, Serialize)]
struct Entry {
    /// Its list (`weapon`, `vehicle`).
    list: String,
    /// Its id, what a scenario names it by.
    id: String,
    /// Its `label`, or its id where it has none.
    label: String,
    /// Its values are invented (an illustrative file's, not the player's own).
    invented: bool,
    /// The player changed or added it.
    own: bool,
    /// Its fields, in the file's order.
    fields: Vec<Field>,
}

/// One value of an entry.
#[derive(Debug, Serialize)]
struct Field {
    /// Its path within the entry, e.g. `close.hit`, `direct.range[1]`.
    key: String,
    /// What it is, in the rules' words.
    words: String,
    /// `integer`, `float`, `boolean` or `string`.
    kind: &'static str,
    /// Its value as the player reads it (a string without its quotes).
    text: String,
}

/// The loader's refusal of the text.
#[derive(Debug, Serialize)]
struct Refusal {
    /// The whole line, as the command line prints it.
    message: String,
    /// What is wrong, without the file and place.
    words: String,
    /// The entry it is about (`list.id`), where its place is in one.
    entry: Option<String>,
    /// The field it is about, where its place is in one.
    key: Option<String>,
}

/// A value of the text with where it stands.
struct Leaf {
    key: String,
    start: usize,
    end: usize,
    kind: &'static str,
    text: String,
}

/// An entry of the text with its values.
struct Spot {
    list: String,
    id: String,
    /// Its place in its list where the list is an array of tables (named by `name`).
    index: Option<usize>,
    leaves: Vec<Leaf>,
}

impl Spot {
    fn name(&self) -> String {
        format!("{}.{}", self.list, self.id)
    }

    /// The bytes from its first value to its last.
    fn extent(&self) -> (usize, usize) {
        let start = self.leaves.iter().map(|l| l.start).min().unwrap_or(0);
        (start, self.leaves.iter().map(|l| l.end).max().unwrap_or(start))
    }

    fn leaf(&self, key: &str) -> Option<&Leaf> {
        self.leaves.iter().find(|l| l.key == key)
    }
}

/// The catalogue of `ruleset` as `rules` read it: its shape and the rules' own text.
pub fn shipped(rules: &Rules, ruleset: &str) -> Result<(&'static CatalogueShape, String), ReportError> {
    let loaded = rules.load(ruleset)?;
    let shape = loaded.catalogue().ok_or_else(|| {
        ReportError::Core(CoreError::input(ruleset, "this ruleset has no catalogue of weapons or vehicles to edit"))
    })?;
    let file = loaded.files().iter().find(|f| f.name == shape.file).ok_or_else(|| {
        ReportError::Core(CoreError::input(ruleset, format!("this ruleset has no table file {}", shape.file)))
    })?;
    Ok((shape, file.text.clone()))
}

/// The entries of `text`, each with its values; an error where the text is not TOML.
fn spots(text: &str, said: &str) -> Result<Vec<Spot>, ReportError> {
    let table = DeTable::parse(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        ReportError::Core(CoreError::at(said, text, at, e.message().trim().replace('\n', " ")))
    })?;
    let mut out = Vec::new();
    for (list, entries) in table.get_ref().iter().filter(|(list, _)| list.get_ref() != "source") {
        let list = list.get_ref().to_string();
        match entries.get_ref() {
            DeValue::Table(entries) => {
                for (id, entry) in entries.iter() {
                    let mut leaves = Vec::new();
                    leaf(text, "", entry, &mut leaves);
                    out.push(Spot { list: list.clone(), id: id.get_ref().to_string(), index: None, leaves });
                }
            }
            DeValue::Array(entries) => {
                for (index, entry) in entries.iter().enumerate() {
                    let mut leaves = Vec::new();
                    leaf(text, "", entry, &mut leaves);
                    let id = leaves.iter().find(|l| l.key == "name").map(|l| l.text.clone()).unwrap_or_default();
                    out.push(Spot { list: list.clone(), id, index: Some(index), leaves });
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|s| s.extent().0);
    Ok(out)
}

/// Every scalar under `value` (at path `key`) with its place, in text order.
fn leaf(text: &str, key: &str, value: &Spanned<DeValue>, out: &mut Vec<Leaf>) {
    leaves(text, key, value, out);
    out.sort_by_key(|l| l.start);
}

fn leaves(text: &str, key: &str, value: &Spanned<DeValue>, out: &mut Vec<Leaf>) {
    let join = |sub: &str| if key.is_empty() { sub.to_string() } else { format!("{key}.{sub}") };
    let span = value.span();
    let (kind, shown) = match value.get_ref() {
        DeValue::Table(t) => {
            for (k, v) in t.iter() {
                leaves(text, &join(k.get_ref()), v, out);
            }
            return;
        }
        DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(text, &format!("{key}[{i}]"), item, out);
            }
            return;
        }
        DeValue::String(s) => ("string", s.to_string()),
        DeValue::Integer(_) => ("integer", text[span.clone()].to_string()),
        DeValue::Float(_) => ("float", text[span.clone()].to_string()),
        DeValue::Boolean(b) => ("boolean", b.to_string()),
        DeValue::Datetime(_) => ("string", text[span.clone()].to_string()),
    };
    out.push(Leaf { key: key.to_string(), start: span.start, end: span.end, kind, text: shown });
}

/// `value` as typed (trimmed), as a TOML value: a number, `true` or `false` as one,
/// anything else as text; a name (`label`, `name`) always as text.
fn literal(key: &str, value: &str) -> String {
    let t = value.trim();
    if !(key == "label" || key == "name" || key.ends_with(".label")) {
        if let Ok(n) = t.parse::<i64>() {
            return n.to_string();
        }
        if t.parse::<f64>().is_ok_and(f64::is_finite) && t.contains('.') {
            return t.to_string();
        }
        if t == "true" || t == "false" {
            return t.to_string();
        }
    }
    toml::Value::String(t.to_string()).to_string()
}

/// `text` with `start..end` replaced by `with`.
fn replaced(text: &str, (start, end): (usize, usize), with: &str) -> String {
    format!("{}{with}{}", &text[..start], &text[end..])
}

/// The shipped catalogues' way of marking an invented entry in its label; a
/// player's own entry drops it.
const ILLUSTRATIVE: &str = " (illustrative)";

/// `text` with entry `entry` (`list.id`) marked as the player's own: named in
/// `[source]`'s `own`, and its label no longer saying it is illustrative.
fn marked_own(text: &str, said: &str, entry: &str) -> Result<String, ReportError> {
    // An entry the edit left without a name it can be found by (an id emptied) is not
    // marked: the loader's refusal of it is what the player reads.
    let Some(spot) = spots(text, said)?.into_iter().find(|s| s.name() == entry) else { return Ok(text.to_string()) };
    let mut text = text.to_string();
    if let Some(label) = spot.leaf("label").filter(|l| l.text.ends_with(ILLUSTRATIVE)) {
        let plain = label.text.trim_end_matches(ILLUSTRATIVE);
        text = replaced(&text, (label.start, label.end), &toml::Value::String(plain.to_string()).to_string());
    }
    let table = DeTable::parse(&text).map_err(|e| ReportError::Core(CoreError::input(said, e.message().trim())))?;
    let Some(source) = table.get_ref().get("source") else { return Ok(text) };
    let DeValue::Table(source) = source.get_ref() else { return Ok(text) };
    let mut own: Vec<String> = Vec::new();
    let mut own_at = None;
    let mut last_end = 0;
    for (key, value) in source.iter() {
        last_end = last_end.max(value.span().end);
        if key.get_ref() == "own" {
            own_at = Some((value.span().start, value.span().end));
            if let DeValue::Array(items) = value.get_ref() {
                own = items.iter().filter_map(|i| i.get_ref().as_str().map(str::to_string)).collect();
            }
        }
    }
    if own.iter().any(|o| o == entry) {
        return Ok(text);
    }
    own.push(entry.to_string());
    let list = toml::Value::Array(own.into_iter().map(toml::Value::String).collect()).to_string();
    Ok(match own_at {
        Some(at) => replaced(&text, at, &list),
        None => {
            // On the line after `[source]`'s last key, with a word on why it is there.
            let line_end = text[last_end..].find('\n').map_or(text.len(), |n| last_end + n + 1);
            let line = format!("# The entries whose values are yours, not invented.\nown = {list}\n");
            let glue = if line_end == text.len() && !text.ends_with('\n') { "\n" } else { "" };
            format!("{}{glue}{line}{}", &text[..line_end], &text[line_end..])
        }
    })
}

/// `text` with `edit` made; a field or entry it does not have is refused by name.
pub fn edited(text: &str, shape: &CatalogueShape, said: &str, edit: &Edit) -> Result<String, ReportError> {
    let refuse = |m: String| ReportError::Core(CoreError::input(said, m));
    let spots = spots(text, said)?;
    let (Edit::Set { entry, .. } | Edit::Copy { entry }) = edit;
    let spot = spots
        .iter()
        .find(|s| &s.name() == entry)
        .ok_or_else(|| refuse(format!("{}: no entry `{entry}` in {}", "the catalogue editor", shape.file)))?;
    match edit {
        Edit::Set { key, value, .. } => {
            let at = spot.leaf(key).ok_or_else(|| refuse(format!("entry `{entry}` has no field `{key}`")))?;
            let text = replaced(text, (at.start, at.end), &literal(key, value));
            // A new name is a new id: the player's own entry is the one it now names.
            let own = if key == "name" { format!("{}.{}", spot.list, value.trim()) } else { entry.clone() };
            marked_own(&text, said, &own)
        }
        Edit::Copy { .. } => {
            let whole: toml::Table = toml::from_str(text).map_err(|e| refuse(e.message().trim().to_string()))?;
            let taken = |id: &str| spots.iter().any(|s| s.list == spot.list && s.id == id);
            let id = (1..)
                .map(|n| if n == 1 { format!("{}_yours", spot.id) } else { format!("{}_yours_{n}", spot.id) })
                .find(|id| !taken(id))
                .expect("an unused id");
            let list = whole.get(&spot.list);
            let copied = match (list, spot.index) {
                (Some(toml::Value::Table(entries)), None) => entries.get(&spot.id),
                (Some(toml::Value::Array(entries)), Some(index)) => entries.get(index),
                _ => None,
            };
            let (Some(list), Some(mut copy)) = (list, copied.cloned()) else {
                return Err(refuse(format!("entry `{entry}` cannot be read to copy it")));
            };
            let label = spot.leaf("label").map_or(spot.id.as_str(), |l| l.text.as_str()).trim_end_matches(ILLUSTRATIVE);
            if let toml::Value::Table(t) = &mut copy {
                t.insert("label".into(), toml::Value::String(format!("{label}, copy")));
                if t.contains_key("name") {
                    t.insert("name".into(), toml::Value::String(id.clone()));
                }
            }
            let added = match list {
                toml::Value::Table(_) => toml::Table::from_iter([(
                    spot.list.clone(),
                    toml::Value::Table(toml::Table::from_iter([(id.clone(), copy)])),
                )]),
                _ => toml::Table::from_iter([(spot.list.clone(), toml::Value::Array(vec![copy]))]),
            };
            let added = toml::to_string(&added).map_err(|e| refuse(e.to_string()))?;
            let glue = if text.ends_with('\n') { "\n" } else { "\n\n" };
            marked_own(&format!("{text}{glue}{added}"), said, &format!("{}.{id}", spot.list))
        }
    }
}

impl CatalogueForm {
    /// The editor's view of `text`, the catalogue of `ruleset` (its rules' own text
    /// `shipped`), with `loaded` the loader's verdict on it.
    pub fn of(
        ruleset: &str,
        shape: &'static CatalogueShape,
        text: String,
        shipped: &str,
        loaded: Result<(), ReportError>,
    ) -> Result<CatalogueForm, ReportError> {
        let said = format!("your {} ({ruleset})", shape.file);
        let spots = spots(&text, &said)?;
        let whole: Option<toml::Table> = toml::from_str(&text).ok();
        let source: Option<Source> = whole.and_then(|t| t.get("source").cloned()).and_then(|s| s.try_into().ok());
        let title = source.as_ref().map_or_else(|| shape.file.to_string(), |s| s.table.clone());
        let error = loaded.err().map(|e| {
            let message = e.to_string();
            let (words, at) = match &e {
                ReportError::Core(CoreError::Input { message: words, place, .. }) => {
                    (words.clone(), place.map(|p| offset(&text, p.line, p.column)))
                }
                _ => (message.clone(), None),
            };
            let spot = at.and_then(|at| {
                spots.iter().find(|s| s.extent().0 <= at && at <= s.extent().1).or_else(|| {
                    // A place before an entry's first value (its header) is the entry's.
                    spots.iter().find(|s| s.extent().0 > at)
                })
            });
            let key = spot.zip(at).and_then(|(s, at)| s.leaves.iter().find(|l| l.start <= at && at <= l.end));
            Refusal { message, words, entry: spot.map(Spot::name), key: key.map(|l| l.key.clone()) }
        });
        let entries = spots
            .into_iter()
            .map(|s| {
                let invented = source.as_ref().is_some_and(|src| src.invents(&s.list, &s.id));
                let own = source.as_ref().is_some_and(|src| src.own.contains(&s.name()));
                let label = s.leaf("label").map_or_else(|| s.id.clone(), |l| l.text.clone());
                let fields = s
                    .leaves
                    .iter()
                    .map(|l| Field {
                        key: l.key.clone(),
                        words: shape
                            .words(&format!("{}.{}", s.list, l.key))
                            .map_or_else(|| l.key.replace(['_', '.'], " "), str::to_string),
                        kind: l.kind,
                        text: l.text.clone(),
                    })
                    .collect();
                Entry { list: s.list, id: s.id, label, invented, own, fields }
            })
            .collect();
        let yours = text != shipped;
        Ok(CatalogueForm { ruleset: ruleset.to_string(), file: shape.file, title, text, yours, entries, error })
    }
}

/// The byte offset of 1-based `line` and `column` (in characters) of `text`.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let rest = &text[start.min(text.len())..];
    start + rest.char_indices().nth(column.saturating_sub(1)).map_or(rest.len(), |(i, _)| i)
}
