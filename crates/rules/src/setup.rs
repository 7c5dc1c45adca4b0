//! What every ruleset's scenario set-up shares: required sections, closed choices,
//! whole-number counts, modifiers looked up by name, and the running sums that leave
//! an audit trail of every modifier applied. Rules logic stays in the rulesets.

use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use toml::Spanned;

use combat_odds_core::document::{Document, Uncounted};
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Modifier, ModifierTable, Side, Source};

/// The keys every scenario may have, whatever its kind (the CLI reads `ruleset`,
/// `kind` and `name`; `description` is for the reader; `settings` for the ruleset).
const HEADER: [&str; 5] = ["ruleset", "kind", "name", "description", "settings"];

/// The sections each kind of scenario takes, for [`scenario_kind`].
pub type Sections = [(&'static str, &'static [&'static str])];

/// Checks a scenario's kind against `by_kind` and its top-level keys against the
/// header and that kind's sections, and returns the kind. A section of another kind
/// is refused where it stands; a key no kind knows is refused with the nearest name.
pub fn scenario_kind(doc: &Document, kind: &Spanned<String>, by_kind: &Sections) -> Result<&'static str> {
    let kinds: Vec<&'static str> = by_kind.iter().map(|(k, _)| *k).collect();
    let k = choice(doc, Some(kind), "scenario kind", &kinds, "")?;
    let allowed = by_kind.iter().find(|(name, _)| *name == k).map(|(_, s)| *s).expect("a listed kind");
    let top: BTreeMap<String, Spanned<IgnoredAny>> = doc.parse()?;
    let mut stray: Vec<(&String, usize)> = top
        .iter()
        .filter(|(key, _)| !HEADER.contains(&key.as_str()) && !allowed.contains(&key.as_str()))
        .map(|(key, value)| (key, value.span().start))
        .collect();
    stray.sort_by_key(|(_, at)| *at);
    let Some(&(key, at)) = stray.first() else { return Ok(k) };
    if by_kind.iter().any(|(_, sections)| sections.contains(&key.as_str())) {
        return Err(doc.error_at(
            at,
            format!("`{key}` does not belong in {} scenario (it takes {})", article(k), allowed.join(", ")),
        ));
    }
    let known: Vec<&str> = HEADER.iter().chain(allowed).copied().collect();
    Err(doc.error_at(at, unknown("scenario key", key, known)))
}

/// "a KIND" or "an KIND", as English writes it before the kind's name.
pub(crate) fn article(kind: &str) -> String {
    let an = kind.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {kind}", if an { "an" } else { "a" })
}

/// A required section, or an error naming it.
pub fn required<T>(doc: &Document, section: Option<Spanned<T>>, name: &str, kind: &str) -> Result<T> {
    present(doc, section, name, kind).map(Spanned::into_inner)
}

/// A required section with its place in the file, or an error naming it.
pub fn present<T>(doc: &Document, section: Option<Spanned<T>>, name: &str, kind: &str) -> Result<Spanned<T>> {
    section.ok_or_else(|| doc.error(format!("{} scenario needs `{name}`", article(kind))))
}

/// One of a closed list of names (`default` when not written), suggesting the
/// nearest on a typo.
pub fn choice<'n>(
    doc: &Document,
    value: Option<&Spanned<String>>,
    what: &str,
    names: &[&'n str],
    default: &'n str,
) -> Result<&'n str> {
    let Some(v) = value else { return Ok(default) };
    doc.offer(v.span(), v.get_ref(), what, names.iter().copied());
    names
        .iter()
        .find(|n| **n == v.get_ref())
        .copied()
        .ok_or_else(|| doc.error_at(v.span().start, unknown(what, v.get_ref(), names.iter().copied())))
}

/// A setting: its name and its readings, the default first.
pub type Readings<'a> = (&'a str, &'a [&'a str]);

/// The index of the reading a scenario chose for setting `name` among `readings`
/// (the default first).
pub fn reading(doc: &Document, value: &Option<Spanned<String>>, (name, readings): Readings) -> Result<usize> {
    if value.is_none() {
        doc.offer_unset(name, readings);
    }
    let chosen = choice(doc, value.as_ref(), &format!("{name} reading"), readings, readings[0])?;
    Ok(readings.iter().position(|r| *r == chosen).expect("a listed reading"))
}

/// A catalogue entry a scenario may name: what players call it.
pub(crate) trait Labelled {
    /// The entry's name in the players' words, e.g. "M4 Sherman".
    fn label(&self) -> &str;
}

/// The entry of a catalogue's `entries` the file names at `name`, offered among all
/// of them; a typo gets the nearest name. An entry of an invented catalogue (its
/// `source`) is recorded on `doc`, so every answer that rests on it says so.
pub(crate) fn entry<'c, T: Labelled>(
    doc: &Document,
    name: &Spanned<String>,
    what: &str,
    entries: &'c BTreeMap<String, T>,
    source: &Source,
) -> Result<&'c T> {
    doc.offer(name.span(), name.get_ref(), what, entries.keys().map(String::as_str));
    let found = entries.get(name.get_ref()).ok_or_else(|| {
        doc.error_at(name.span().start, unknown(what, name.get_ref(), entries.keys().map(String::as_str)))
    })?;
    rests_on(doc, source, (what, name.get_ref()), found.label());
    Ok(found)
}

/// Records on `doc` that its answer reads `label` (entry `id` of list `list`) from
/// `source`, where that entry's values are invented (not the player's own). The labels
/// of the shipped illustrative catalogues say "(illustrative)" for the tables' listing;
/// the record says it once, for them all.
pub(crate) fn rests_on(doc: &Document, source: &Source, (list, id): (&str, &str), label: &str) {
    if source.invents(list, id) {
        doc.rests_on_invented(label.trim_end_matches(" (illustrative)"));
    }
}

/// A thing named from a catalogue (`weapon = "name"`) or written out inline
/// (`weapon_data = { ... }`): exactly one of the two.
pub(crate) fn catalogued<R, T>(
    doc: &Document,
    who: &str,
    key: &str,
    (by_name, inline): (&Option<Spanned<String>>, Option<Spanned<R>>),
    lookup: impl FnOnce(&Spanned<String>) -> Result<T>,
    resolve: impl FnOnce(Spanned<R>) -> Result<T>,
) -> Result<T> {
    match (by_name, inline) {
        (Some(name), None) => lookup(name),
        (None, Some(data)) => resolve(data),
        _ => Err(doc.error(format!(
            "{who}: give either `{key} = \"name\"` from the catalogue or a `{key}_data` table, not both or neither"
        ))),
    }
}

/// A count of things (stands, elements, markers) within `lo..=hi`; `default` when not
/// written.
pub fn count(doc: &Document, value: &Option<Spanned<i64>>, what: &str, lo: u32, hi: u32, default: u32) -> Result<u32> {
    match value {
        None => Ok(default),
        Some(v) if (i64::from(lo)..=i64::from(hi)).contains(v.get_ref()) => Ok(*v.get_ref() as u32),
        Some(v) => Err(doc.error_at(v.span().start, format!("{what} must be from {lo} to {hi}, not {}", v.get_ref()))),
    }
}

/// Records on `doc` that the unit written at `table` (a key path, e.g. `firer[0]`)
/// leaves its count `key` out, so the rules read `default` (within `lo..=hi`): a form
/// offers it in that unit's place. Nothing is recorded where the file gives it. Called
/// where a scenario's own unit is read, not where the rules make up a unit of their
/// own (an engagement's firer), which has no table in the file.
pub fn unwritten_count(
    doc: &Document,
    value: &Option<Spanned<i64>>,
    table: &str,
    key: &str,
    (lo, hi, default): (u32, u32, u32),
) {
    if value.is_none() {
        doc.offer_count(Uncounted { table: table.to_string(), key: key.to_string(), default, min: lo, max: hi });
    }
}

/// Refuses a modifier list that names the same modifier twice: each applies once.
pub fn distinct(doc: &Document, names: &[Spanned<String>]) -> Result<()> {
    for (i, n) in names.iter().enumerate() {
        if names[..i].iter().any(|m| m.get_ref() == n.get_ref()) {
            return Err(
                doc.error_at(n.span().start, format!("modifier `{}` is named twice; each applies once", n.get_ref()))
            );
        }
    }
    Ok(())
}

/// Resolves a named modifier against the charts it may come from. Names the rules
/// apply by themselves are refused with the reason, so nothing is counted twice;
/// `side` keeps firer rows out of the target's list and the other way round.
pub fn named<'t>(
    doc: &Document,
    name: &Spanned<String>,
    charts: &[&'t ModifierTable],
    automatic: &[(&str, &str)],
    side: Option<Side>,
) -> Result<&'t Modifier> {
    let n = name.get_ref();
    if let Some((_, why)) = automatic.iter().find(|(a, _)| a == n) {
        return Err(doc.error_at(
            name.span().start,
            format!("modifier `{n}` is applied automatically ({why}); remove it from the list"),
        ));
    }
    let candidates =
        charts.iter().flat_map(|c| c.rows()).filter(|m| side.is_none() || m.side.is_none() || m.side == side);
    let named_ones = candidates.clone().map(|m| m.name.as_str()).filter(|m| !automatic.iter().any(|(a, _)| a == m));
    doc.offer(name.span(), n, "modifier", named_ones);
    if let Some(m) = candidates.clone().find(|m| m.name == *n && !automatic.iter().any(|(a, _)| *a == m.name)) {
        return Ok(m);
    }
    let known: Vec<&str> =
        candidates.map(|m| m.name.as_str()).filter(|m| !automatic.iter().any(|(a, _)| a == m)).collect();
    Err(doc.error_at(name.span().start, unknown("modifier", n, known.iter().copied())))
}

/// A running list of additive modifiers, recorded for the audit trail:
/// "5 +1 veteran_elite = 6".
#[derive(Debug, Clone)]
pub struct Sum {
    base: i32,
    parts: Vec<(String, i32)>,
}

impl Sum {
    /// A sum starting at `base`.
    pub fn new(base: i32) -> Self {
        Sum { base, parts: Vec::new() }
    }

    /// Adds a named modifier.
    pub fn add(&mut self, name: &str, value: i32) {
        self.parts.push((name.to_string(), value));
    }

    /// The modifiers added so far, without the base.
    pub fn modifiers(&self) -> i32 {
        self.parts.iter().map(|(_, v)| v).sum()
    }

    /// Base plus every modifier.
    pub fn total(&self) -> i32 {
        self.base + self.modifiers()
    }

    /// The modifiers alone: "+2 veteran -1 green = +1", or "none".
    pub(crate) fn describe_modifiers(&self) -> String {
        if self.parts.is_empty() {
            return "none".into();
        }
        let parts: Vec<String> = self.parts.iter().map(|(n, v)| format!("{v:+} {n}")).collect();
        format!("{} = {:+}", parts.join(" "), self.modifiers())
    }

    /// "base +a name -b name = total", or just the base when nothing was added.
    pub(crate) fn describe(&self) -> String {
        let parts: String = self.parts.iter().map(|(n, v)| format!(" {v:+} {n}")).collect();
        if parts.is_empty() { self.base.to_string() } else { format!("{}{parts} = {}", self.base, self.total()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sum_describes_each_modifier_and_the_total() {
        let mut s = Sum::new(5);
        assert_eq!(s.describe(), "5");
        s.add("veteran", 2);
        s.add("suppression_marker", -1);
        assert_eq!((s.modifiers(), s.total()), (1, 6));
        assert_eq!(s.describe(), "5 +2 veteran -1 suppression_marker = 6");
        assert_eq!(s.describe_modifiers(), "+2 veteran -1 suppression_marker = +1");
        assert_eq!(Sum::new(3).describe_modifiers(), "none");
    }
}
