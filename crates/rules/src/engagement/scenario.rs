//! The part of an engagement scenario every ruleset shares: the `[engagement]`
//! section (range, closing, turn limit, end conditions, target policy) and the two
//! `[[side]]` lists of companies and unit entries. Each ruleset reads its own keys
//! of a unit entry or company (weapon, quality, armour, morale) and sets them up.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use toml::Spanned;

use super::schedule::Schedule;
use super::target::TargetPolicy;
use super::{EndConditions, Group, Layout, SideLayout};
use crate::setup::{choice, count, present, unwritten_count};
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};

/// The longest engagement accepted, in turns.
pub(crate) const MAX_TURNS: u32 = 200;
/// The most units one entry may hold.
pub(crate) const MAX_COUNT: u32 = 50;
/// The most unit entries one side may have. A ruleset sets up every firer's fire at
/// every target at every range, so set-up grows with the square of the entries (25 a
/// side of Command Decision took 433 MB, 200 a side past 3 GB); sixteen, four times
/// the most any shipped engagement has, is refused before any of it, and identical
/// stands are one entry with a `count`.
pub(crate) const MAX_ENTRIES: usize = 16;

/// The sections an engagement scenario takes, for [`crate::setup::scenario_kind`].
pub(crate) const SECTIONS: &[&str] = &["engagement", "side"];

/// A ruleset's unit entry: the shared keys it must carry besides its own.
pub(crate) trait UnitEntry: DeserializeOwned {
    /// `name`: what the entry is called in results.
    fn name(&self) -> &Spanned<String>;
    /// `count`: how many identical units (default 1).
    fn count(&self) -> &Option<Spanned<i64>>;
    /// `company`: which of the side's `[[side.company]]` it belongs to.
    fn company(&self) -> Option<&Spanned<String>>;
}

/// A ruleset's company entry: a name besides its own keys (morale, Force Morale).
pub(crate) trait CompanyEntry: DeserializeOwned {
    /// `name`: what units name in `company = "..."`.
    fn name(&self) -> &Spanned<String>;
}

/// The off-table support entry (`[[side.battery]]`) of a ruleset whose engagements
/// play none: any such entry is refused where it is written.
pub(crate) enum NoSupport {}

impl<'de> Deserialize<'de> for NoSupport {
    fn deserialize<D: Deserializer<'de>>(_: D) -> std::result::Result<Self, D::Error> {
        Err(D::Error::custom(
            "this ruleset's engagements play no off-table batteries; remove the [[side.battery]] entry",
        ))
    }
}

/// Implements [`UnitEntry`] for a ruleset's unit struct, whose shared keys are the
/// fields `name`, `count` and `company`.
macro_rules! unit_entry {
    ($entry:ty) => {
        impl $crate::engagement::scenario::UnitEntry for $entry {
            fn name(&self) -> &toml::Spanned<String> {
                &self.name
            }
            fn count(&self) -> &Option<toml::Spanned<i64>> {
                &self.count
            }
            fn company(&self) -> Option<&toml::Spanned<String>> {
                self.company.as_ref()
            }
        }
    };
}
pub(crate) use unit_entry;

/// Implements [`CompanyEntry`] for a ruleset's company struct with a `name` field.
macro_rules! company_entry {
    ($entry:ty) => {
        impl $crate::engagement::scenario::CompanyEntry for $entry {
            fn name(&self) -> &toml::Spanned<String> {
                &self.name
            }
        }
    };
}
pub(crate) use company_entry;

/// A company that is a name and nothing more, for rulesets whose companies carry no
/// state of their own (Mission Command and Company Commander track their groups).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NamedCompany {
    name: Spanned<String>,
}

company_entry!(NamedCompany);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEngagement {
    range: Spanned<f64>,
    closing: Option<Spanned<f64>>,
    min_range: Option<Spanned<f64>>,
    turns: Spanned<i64>,
    end: Option<Vec<Spanned<String>>>,
    targets: Option<Spanned<String>>,
    first: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, bound = "U: UnitEntry, C: CompanyEntry, S: DeserializeOwned")]
struct RawSide<U, C, S> {
    name: Spanned<String>,
    #[serde(default)]
    company: Vec<Spanned<C>>,
    #[serde(default)]
    unit: Vec<Spanned<U>>,
    #[serde(default)]
    battery: Vec<Spanned<S>>,
}

/// The `[[side]]` tables with the span of the whole array, for "no sides" errors.
type RawSides<U, C, S> = Spanned<Vec<Spanned<RawSide<U, C, S>>>>;

#[derive(Deserialize)]
#[serde(bound = "U: UnitEntry, C: CompanyEntry, S: DeserializeOwned")]
struct RawFile<U, C, S> {
    engagement: Option<Spanned<RawEngagement>>,
    side: Option<RawSides<U, C, S>>,
}

/// An engagement scenario read as far as every ruleset shares it.
pub(crate) struct Setup<U, C, S = NoSupport> {
    /// Names of sides, companies and unit entries.
    pub layout: Layout,
    /// Range per turn.
    pub schedule: Schedule,
    /// The turn limit.
    pub turns: u32,
    /// When a side is out.
    pub end: EndConditions,
    /// How units pick targets.
    pub targets: TargetPolicy,
    /// The side that plays first, where a ruleset's turn is played side by side in
    /// turn: `first = "<side>"`, or the side listed first.
    pub first: usize,
    /// Where `first` is written, for a ruleset whose sides act at once to refuse it.
    pub first_at: Option<usize>,
    /// Each side's unit entries as written, in [`Layout`] order.
    pub units: [Vec<Spanned<U>>; 2],
    /// Each side's company entries as written (none where the side lists none, and
    /// its one company is named after the side).
    pub companies: [Vec<Spanned<C>>; 2],
    /// Each side's off-table support entries as written (`[[side.battery]]`).
    pub supports: [Vec<Spanned<S>>; 2],
}

/// A unit of distance as a sentence says it: "in." is "inches", the rest as written.
fn spelled(unit: &str) -> &str {
    if unit == "in." { "inches" } else { unit }
}

/// Reads the shared part of an engagement scenario. `unit` names the ruleset's unit
/// of distance for messages ("in.", "cm", "hexes"); `S` is the ruleset's off-table
/// support entry, or [`NoSupport`].
pub fn read<U: UnitEntry, C: CompanyEntry, S: DeserializeOwned>(doc: &Document, unit: &str) -> Result<Setup<U, C, S>> {
    let file: RawFile<U, C, S> = doc.parse()?;
    let e = present(doc, file.engagement, "[engagement]", "engagement")?;
    let at = e.span().start;
    let e = e.into_inner();
    let distance = |v: &Option<Spanned<f64>>, what: &str, default: f64| -> Result<f64> {
        match v {
            None => Ok(default),
            Some(v) if v.get_ref().is_finite() && *v.get_ref() >= 0.0 => Ok(*v.get_ref()),
            Some(v) => {
                Err(doc.error_at(v.span().start, format!("{what} must be a distance in {}, 0 or more", spelled(unit))))
            }
        }
    };
    let start = distance(&Some(e.range.clone()), "range", 0.0)?;
    let closing = distance(&e.closing, "closing", 0.0)?;
    let floor = distance(&e.min_range, "min_range", 0.0)?;
    if floor > start {
        let place = e.min_range.as_ref().map_or(at, |m| m.span().start);
        return Err(
            doc.error_at(place, format!("min_range {floor} {unit} is beyond the starting range {start} {unit}"))
        );
    }
    let turns = match *e.turns.get_ref() {
        t if (1..=i64::from(MAX_TURNS)).contains(&t) => t as u32,
        t => {
            return Err(doc.error_at(
                e.turns.span().start,
                format!("turns must be from 1 to {MAX_TURNS}, not {t}: an engagement lasts at least one turn"),
            ));
        }
    };
    let end = match &e.end {
        None => EndConditions { eliminated: true, broken: true },
        Some(list) => {
            let mut end = EndConditions { eliminated: false, broken: false };
            for name in list {
                match choice(doc, Some(name), "end condition", &["eliminated", "broken"], "")? {
                    "eliminated" => end.eliminated = true,
                    _ => end.broken = true,
                }
            }
            if list.is_empty() {
                return Err(doc.error_at(at, "`end` lists no condition; give \"eliminated\", \"broken\" or both"));
            }
            end
        }
    };
    let targets = TargetPolicy::parse(doc, e.targets.as_ref())?;
    let sides = present(doc, file.side, "[[side]]", "engagement")?;
    let sides_at = sides.span().start;
    let sides = sides.into_inner();
    let [a, b]: [Spanned<RawSide<U, C, S>>; 2] = sides.try_into().map_err(|s: Vec<_>| {
        doc.error_at(sides_at, format!("an engagement has two sides, each a [[side]]; this one has {}", s.len()))
    })?;
    let (a, units_a, companies_a, supports_a) = side(doc, a)?;
    let (b, units_b, companies_b, supports_b) = side(doc, b)?;
    // The unit entries that leave their count out, for the form (`side[1].unit[0]`).
    for (s, units) in [&units_a, &units_b].into_iter().enumerate() {
        for (i, u) in units.iter().enumerate() {
            unwritten_count(doc, u.get_ref().count(), &format!("side[{s}].unit[{i}]"), "count", (1, MAX_COUNT, 1));
        }
    }
    let reserved = ["draw", "undecided", "both", "none"];
    for name in [&a.name, &b.name] {
        if reserved.contains(&name.as_str()) {
            return Err(doc.error(format!("side name `{name}` is a word results use; call the side something else")));
        }
    }
    if a.name == b.name {
        return Err(doc.error(format!("both sides are called `{}`; give each its own name", a.name)));
    }
    let first = match &e.first {
        None => 0,
        Some(f) => [&a.name, &b.name].iter().position(|n| *n == f.get_ref()).ok_or_else(|| {
            doc.error_at(f.span().start, unknown("side", f.get_ref(), [a.name.as_str(), b.name.as_str()]))
        })?,
    };
    let mut slugs: Vec<&str> = Vec::new();
    for g in a.groups.iter().chain(&b.groups) {
        if slugs.contains(&g.slug.as_str()) {
            return Err(doc.error(format!(
                "two unit entries are called `{}` (as a results name); give each entry its own name",
                g.slug
            )));
        }
        slugs.push(&g.slug);
    }
    Ok(Setup {
        layout: Layout { sides: [a, b] },
        schedule: Schedule::new(start, closing, floor, turns),
        turns,
        end,
        targets,
        first,
        first_at: e.first.as_ref().map(|f| f.span().start),
        units: [units_a, units_b],
        companies: [companies_a, companies_b],
        supports: [supports_a, supports_b],
    })
}

type ReadSide<U, C, S> = (SideLayout, Vec<Spanned<U>>, Vec<Spanned<C>>, Vec<Spanned<S>>);

fn side<U: UnitEntry, C: CompanyEntry, S>(doc: &Document, raw: Spanned<RawSide<U, C, S>>) -> Result<ReadSide<U, C, S>> {
    let at = raw.span().start;
    let raw = raw.into_inner();
    let name = raw.name.get_ref().clone();
    if raw.unit.is_empty() {
        return Err(doc.error_at(at, format!("side `{name}` has no units; add at least one [[side.unit]]")));
    }
    if raw.unit.len() > MAX_ENTRIES {
        return Err(doc.error_at(
            at,
            format!(
                "side `{name}` has {} unit entries; an engagement takes at most {MAX_ENTRIES} a side (give identical stands one entry with a `count`)",
                raw.unit.len()
            ),
        ));
    }
    let companies: Vec<String> = if raw.company.is_empty() {
        vec![name.clone()]
    } else {
        raw.company.iter().map(|c| c.get_ref().name().get_ref().clone()).collect()
    };
    for (i, c) in raw.company.iter().enumerate() {
        if companies[..i].contains(c.get_ref().name().get_ref()) {
            return Err(doc.error_at(c.get_ref().name().span().start, "company named twice; give each its own name"));
        }
    }
    let mut groups = Vec::new();
    let mut group_of = Vec::new();
    for (i, u) in raw.unit.iter().enumerate() {
        let u = u.get_ref();
        let count = count(doc, u.count(), "count", 1, MAX_COUNT, 1)?;
        let company = match u.company() {
            None if raw.company.len() > 1 => {
                return Err(doc.error_at(
                    u.name().span().start,
                    format!(
                        "unit `{}`: side `{name}` has several companies; say which with `company`",
                        u.name().get_ref()
                    ),
                ));
            }
            None => 0,
            Some(c) if raw.company.is_empty() => {
                return Err(doc.error_at(
                    c.span().start,
                    format!(
                        "company `{}`: side `{name}` lists no [[side.company]]; add one or leave `company` out",
                        c.get_ref()
                    ),
                ));
            }
            Some(c) => companies.iter().position(|n| n == c.get_ref()).ok_or_else(|| {
                doc.error_at(c.span().start, unknown("company", c.get_ref(), companies.iter().map(String::as_str)))
            })?,
        };
        let start = group_of.len();
        group_of.extend(std::iter::repeat_n(i, count as usize));
        groups.push(Group {
            name: u.name().get_ref().clone(),
            slug: slug(u.name().get_ref()),
            count,
            company,
            units: start..group_of.len(),
        });
    }
    Ok((SideLayout { name, companies, groups, group_of }, raw.unit, raw.company, raw.battery))
}

/// A name as a results key: lower case letters and digits, other runs as one `_`.
pub(crate) fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    s.trim_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_results_keys() {
        assert_eq!(slug("Sherman platoon (76mm)"), "sherman_platoon_76mm");
        assert_eq!(slug("  Panther "), "panther");
    }
}
