//! A TOML document a user can edit (a table file or a scenario), kept with its
//! origin so that every error can name the file, line and column.

use std::ops::Range;
use std::sync::Mutex;

use serde::de::DeserializeOwned;

use crate::error::{Error, Result, unknown};
use crate::user_file;

/// A TOML document's text and where it came from.
#[derive(Debug)]
pub struct Document {
    /// File name, e.g. `hit_results.toml`.
    pub name: String,
    /// For messages: the path as the user gave it, or `rulesets/.../x.toml (embedded)`.
    pub origin: String,
    /// The TOML text.
    pub text: String,
    /// The closed lists its values were checked against, and the settings it left
    /// at their defaults, as the rules read it.
    offers: Mutex<Offers>,
}

/// What a reading of the document found it could offer, the invented data it read,
/// and the fire it found beyond its weapon's reach.
#[derive(Debug, Clone, Default)]
struct Offers {
    placed: Vec<Offer>,
    unset: Vec<Unset>,
    uncounted: Vec<Uncounted>,
    invented: Vec<String>,
    beyond_reach: Vec<String>,
}

/// A setting the rules read that the document leaves at its default: what a form
/// offers to add under `[settings]`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unset {
    /// The setting's key in `[settings]`.
    pub key: String,
    /// Its readings, the default first.
    pub names: Vec<String>,
}

/// A unit's count (its stands, elements) that the document leaves out, so the rules
/// read it at its default: what a form offers to add to that unit's table.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Uncounted {
    /// The unit's table, as a key path into the document, e.g. `firer[0]` or
    /// `target.passengers[1]`.
    pub table: String,
    /// The count's key in that table, in the rules' own word, e.g. `stands`.
    pub key: String,
    /// What the rules read in its place.
    pub default: u32,
    /// The least it may be.
    pub min: u32,
    /// The most it may be.
    pub max: u32,
}

/// A value of the document that the rules take from a closed list (a catalogue
/// weapon, a quality, a modifier, a setting's reading), where it stands in the text
/// and every name the list holds: what a form offers in its place.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Offer {
    /// Byte offsets of the value, quotes included.
    pub start: usize,
    /// End of the value (exclusive).
    pub end: usize,
    /// What the list is, in the rules' words ("weapon", "troop quality").
    pub what: String,
    /// Every name it may be, in the list's order.
    pub names: Vec<String>,
}

impl Clone for Document {
    fn clone(&self) -> Self {
        let offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        Document {
            name: self.name.clone(),
            origin: self.origin.clone(),
            text: self.text.clone(),
            offers: Mutex::new(offers),
        }
    }
}

impl Document {
    /// A document from its parts.
    pub fn new(name: impl Into<String>, origin: impl Into<String>, text: impl Into<String>) -> Self {
        Document { name: name.into(), origin: origin.into(), text: text.into(), offers: Mutex::default() }
    }

    /// Records that `value`, written at `span`, was checked against `names`. A span
    /// lent to a value the text does not hold there (a message placed at a nearby
    /// key) is not recorded: nothing could be put in its place.
    pub fn offer<'n>(&self, span: Range<usize>, value: &str, what: &str, names: impl IntoIterator<Item = &'n str>) {
        let written = self.text.get(span.clone()).and_then(|t| t.get(1..t.len().checked_sub(1)?));
        if written != Some(value) {
            return;
        }
        let offer = Offer {
            start: span.start,
            end: span.end,
            what: what.to_string(),
            names: names.into_iter().map(str::to_string).collect(),
        };
        self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).placed.push(offer);
    }

    /// Records that setting `key`, not written, was read at its default (`readings[0]`).
    pub fn offer_unset(&self, key: &str, readings: &[&str]) {
        let mut offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !offers.unset.iter().any(|u| u.key == key) {
            offers.unset.push(Unset { key: key.to_string(), names: readings.iter().map(|r| r.to_string()).collect() });
        }
    }

    /// Records that the unit at `count.table` leaves `count.key` out, read at its
    /// default. Recorded once however often the rules read it.
    pub fn offer_count(&self, count: Uncounted) {
        let mut offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !offers.uncounted.iter().any(|u| u.table == count.table && u.key == count.key) {
            offers.uncounted.push(count);
        }
    }

    /// Every unit's count read at its default so far, in the order the rules read them.
    pub fn uncounted(&self) -> Vec<Uncounted> {
        self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).uncounted.clone()
    }

    /// Records that the document names `label`, an entry of a catalogue whose values
    /// are invented (illustrative), so every answer that rests on it says so.
    pub fn rests_on_invented(&self, label: &str) {
        let mut offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !offers.invented.iter().any(|l| l == label) {
            offers.invented.push(label.to_string());
        }
    }

    /// The invented catalogue entries read so far, by label, in the order first read.
    pub fn invented(&self) -> Vec<String> {
        self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).invented.clone()
    }

    /// Records that a fire the document gives is beyond its weapon's reach, and why.
    /// The rules still decide what such fire does (one ruleset carries it out with no
    /// effect, the others refuse it); a comparison, which sets the range itself, leaves
    /// such a cell out as "out of range" whatever the ruleset does with it.
    pub fn beyond_reach(&self, why: impl Into<String>) {
        let why = why.into();
        let mut offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !offers.beyond_reach.contains(&why) {
            offers.beyond_reach.push(why);
        }
    }

    /// Why the document's fire is beyond its weapon's reach, where a reading found it
    /// so: each firer's reason, joined.
    pub fn out_of_range(&self) -> Option<String> {
        let offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        (!offers.beyond_reach.is_empty()).then(|| offers.beyond_reach.join("; "))
    }

    /// Every value checked against a closed list so far, in the order the text holds them.
    pub fn offers(&self) -> Vec<Offer> {
        let mut offers = self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).placed.clone();
        offers.sort_by_key(|o| o.start);
        offers.dedup_by_key(|o| o.start);
        offers
    }

    /// Every setting read at its default so far, in the order the rules read them.
    pub fn unset(&self) -> Vec<Unset> {
        self.offers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).unset.clone()
    }

    /// Reads a user's file: a regular file of at most [`user_file::TOML`]'s size.
    pub fn read(path: &std::path::Path) -> Result<Self> {
        let text = user_file::read_to_string(path, user_file::TOML).map_err(|e| match e {
            Error::Io { source, .. } => {
                Error::input(path.display().to_string(), format!("cannot read the file: {source}"))
            }
            refused => refused,
        })?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(Document::new(name, path.display().to_string(), text))
    }

    /// Deserializes the document; syntax and shape errors carry line and column.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T> {
        toml::from_str(&self.text).map_err(|e| {
            let message = e.message().trim().replace('\n', " ");
            match e.span() {
                Some(span) => self.error_at(span.start, self.explain(&message, span.start)),
                None => self.error(self.explain(&message, 0)),
            }
        })
    }

    /// The TOML reader's message in the user's terms: an unknown key gets the nearest
    /// valid name, a missing or mistyped one says what to write, and the key on the
    /// line is named where the reader leaves it out.
    fn explain(&self, message: &str, offset: usize) -> String {
        let quoted = |s: &str| -> Vec<String> { s.split('`').skip(1).step_by(2).map(str::to_string).collect() };
        if let Some(rest) = message.strip_prefix("unknown field ") {
            let names = quoted(rest);
            if let Some((wanted, known)) = names.split_first() {
                return unknown("key", wanted, known.iter().map(String::as_str));
            }
        }
        if let Some(rest) = message.strip_prefix("missing field ") {
            let key = quoted(rest).into_iter().next().unwrap_or_default();
            return if key == "source" {
                "missing `[source]`: every table file names the seed file and table it was transcribed from (`seed = \"...\"`, `table = \"...\"`)".into()
            } else {
                format!("missing key `{key}`; add it")
            };
        }
        let key = self.key_on_line(offset);
        if let Some(rest) = message.strip_prefix("invalid type: ") {
            let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, "another type"));
            let expected = match expected {
                "i32" | "i64" | "u8" | "u32" | "u64" | "usize" => "a whole number",
                "f32" | "f64" => "a number",
                "a boolean" => "`true` or `false`",
                other => other,
            };
            return format!(
                "{}found {found} where {expected} is expected",
                key.map_or(String::new(), |k| format!("`{k}`: "))
            );
        }
        match key {
            Some(k) if message == "duplicate key" => format!("duplicate key `{k}`; give each key once"),
            _ => message.to_string(),
        }
    }

    /// The key written on the line holding `offset` (`key = value`), if any.
    fn key_on_line(&self, offset: usize) -> Option<&str> {
        let start = self.text[..offset.min(self.text.len())].rfind('\n').map_or(0, |i| i + 1);
        let line = self.text[start..].lines().next()?;
        let (key, _) = line.split_once('=')?;
        let key = key.trim();
        (!key.is_empty() && !key.starts_with('[')).then_some(key)
    }

    /// An error at a byte offset of this document.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> Error {
        Error::at(&self.origin, &self.text, offset, message)
    }

    /// An error about this document without a place.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::input(&self.origin, message)
    }
}
