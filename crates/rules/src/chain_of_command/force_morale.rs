//! Force Morale (first edition, from the reference sheet `chain-of-command-facts.md`,
//! section 4): the starting value rolled on a d6 with the force's quality, then each
//! setback of the "Bad Things Happen" table rolled on its own d6 and taken off, and the
//! Command Dice the final level rolls (`dice_by_force_morale.toml`).
//!
//! The level at which a force breaks was not found in any source, so none is applied:
//! Force Morale only floors at 0, and the report gives the whole distribution of the
//! final level for the reader to apply whatever break level they play.

use serde::Deserialize;
use toml::Spanned;

use super::dice_tables::DiceByForceMorale;
use crate::ruleset::TableView;
use crate::setup::{choice, count};
use combat_odds_core::dice::D6;
use combat_odds_core::document::Document;
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::exact::{Dist, TooLarge};
use combat_odds_core::tables::{Bands, RollRange, Source, TableFile};

/// The qualities the starting table knows, lowest first; a scenario names one.
pub const QUALITIES: [&str; 3] = ["green", "regular", "elite"];

/// Where a "?" cell must be supplied, for the refusal message.
const OVERRIDE: &str = "a rules override directory, file `chain-of-command/setbacks.toml`";

/// One force quality's modifier to the starting roll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quality {
    /// One of [`QUALITIES`].
    pub name: String,
    /// As printed.
    pub label: String,
    /// Added to the starting d6.
    pub modifier: i32,
}

/// The starting Force Morale table: quality modifiers, and bands of the modified d6.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starting {
    /// Every quality of [`QUALITIES`], in file order.
    pub qualities: Vec<Quality>,
    /// Modified-roll bands, open at both ends so every modified roll finds one.
    pub bands: Bands,
    /// The Force Morale of each band.
    pub force_morale: Vec<u32>,
    /// Provenance.
    pub source: Source,
}

impl Starting {
    /// The starting Force Morale for a modified roll.
    pub fn at(&self, modified: i32) -> u32 {
        self.force_morale[self.bands.index(modified)]
    }

    /// Every level the table gives, lowest first.
    pub fn levels(&self) -> Vec<u32> {
        let mut levels = self.force_morale.clone();
        levels.sort_unstable();
        levels.dedup();
        levels
    }
}

/// One cell of the setback table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The change to Force Morale (0 or negative).
    Known(i32),
    /// "?": cut off in the source text.
    Unknown,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Known(c) => write!(f, "{c}"),
            Change::Unknown => f.write_str("?"),
        }
    }
}

/// One row of the setback table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetbackRow {
    /// Stable snake_case name scenarios use.
    pub event: String,
    /// As printed.
    pub label: String,
    /// The change for each face of the d6, 1 to 6.
    pub change: [Change; 6],
}

impl SetbackRow {
    /// The six changes, if no cell was cut off in the source.
    pub fn known(&self) -> Option<[i32; 6]> {
        let known: Vec<i32> = self
            .change
            .iter()
            .filter_map(|c| match c {
                Change::Known(c) => Some(*c),
                Change::Unknown => None,
            })
            .collect();
        <[i32; 6]>::try_from(known).ok()
    }
}

/// The setback ("Bad Things Happen") table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setbacks {
    /// In file order.
    pub rows: Vec<SetbackRow>,
    /// Provenance.
    pub source: Source,
}

/// Both Force Morale tables, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForceMoraleTables {
    /// `force_morale.toml`.
    pub starting: Starting,
    /// `setbacks.toml`.
    pub setbacks: Setbacks,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStarting {
    source: Source,
    quality: Vec<RawQuality>,
    band: Vec<RawBand>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuality {
    name: Spanned<String>,
    label: String,
    modifier: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    roll: Spanned<String>,
    force_morale: Spanned<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetbacks {
    source: Source,
    setback: Vec<RawSetback>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetback {
    event: Spanned<String>,
    label: String,
    change: Spanned<Vec<Spanned<toml::Value>>>,
}

impl ForceMoraleTables {
    /// Loads and validates `force_morale.toml` and `setbacks.toml`.
    pub fn load(start: &TableFile, setbacks: &TableFile) -> Result<Self> {
        Ok(ForceMoraleTables { starting: Starting::load(start)?, setbacks: Setbacks::load(setbacks)? })
    }

    /// Both tables for listing, with their provenance.
    pub fn views(&self) -> Vec<TableView> {
        let (s, q, rows) = (&self.starting, &self.starting.qualities, &self.setbacks.rows);
        let mut setback_columns = vec![
            ("event", rows.iter().map(|r| r.event.clone()).collect()),
            ("label", rows.iter().map(|r| r.label.clone()).collect()),
        ];
        const FACES: [&str; 6] = ["d6_1", "d6_2", "d6_3", "d6_4", "d6_5", "d6_6"];
        for (i, face) in FACES.iter().enumerate() {
            setback_columns.push((face, rows.iter().map(|r| r.change[i].to_string()).collect()));
        }
        vec![
            TableView::new(
                "force_morale.toml (quality)",
                &s.source,
                vec![
                    ("quality", q.iter().map(|q| q.name.clone()).collect()),
                    ("label", q.iter().map(|q| q.label.clone()).collect()),
                    ("d6_modifier", q.iter().map(|q| format!("{:+}", q.modifier)).collect()),
                ],
            ),
            TableView::new(
                "force_morale.toml (starting value)",
                &s.source,
                vec![
                    ("modified_d6", s.bands.ranges().iter().map(ToString::to_string).collect()),
                    ("force_morale", s.force_morale.iter().map(ToString::to_string).collect()),
                ],
            ),
            TableView::new("setbacks.toml", &self.setbacks.source, setback_columns),
        ]
    }
}

impl Starting {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawStarting = f.parse()?;
        let mut qualities: Vec<Quality> = Vec::new();
        for q in raw.quality {
            let name = q.name.get_ref();
            if !QUALITIES.contains(&name.as_str()) {
                return Err(f.error_at(q.name.span().start, unknown("quality", name, QUALITIES)));
            }
            if qualities.iter().any(|seen| seen.name == *name) {
                return Err(f.error_at(q.name.span().start, format!("quality `{name}` is listed twice")));
            }
            qualities.push(Quality { name: name.clone(), label: q.label, modifier: q.modifier });
        }
        if let Some(missing) = QUALITIES.iter().find(|n| !qualities.iter().any(|q| q.name == **n)) {
            return Err(f.error(format!(
                "no `{missing}` quality: list each of {} once with its modifier to the starting d6",
                QUALITIES.join(", ")
            )));
        }
        // The lowest band must be open below and the highest open above, so that a
        // Green force's -2 and an Elite force's +2 still land in a band.
        let Some(first) = raw.band.first() else {
            return Err(f.error("no `[[band]]` rows: list the Force Morale for each modified d6"));
        };
        if first.roll.get_ref().parse::<RollRange>().is_ok_and(|r| r.lo != i32::MIN) {
            return Err(f.error_at(
                first.roll.span().start,
                format!(
                    "the first band must be open below, like `{} or less`, so every modified roll finds a band",
                    first.roll.get_ref()
                ),
            ));
        }
        let labels: Vec<String> = (1..=raw.band.len()).map(|i| format!("band {i}")).collect();
        let cells: Vec<(&str, &Spanned<String>)> =
            labels.iter().zip(&raw.band).map(|(l, b)| (l.as_str(), &b.roll)).collect();
        let bands = Bands::parse(f, "starting Force Morale", &cells, i32::MIN)?;
        if let Some(zero) = raw.band.iter().find(|b| *b.force_morale.get_ref() == 0) {
            return Err(f.error_at(zero.force_morale.span().start, "a force starts with a Force Morale of 1 or more"));
        }
        Ok(Starting {
            qualities,
            bands,
            force_morale: raw.band.iter().map(|b| *b.force_morale.get_ref()).collect(),
            source: raw.source,
        })
    }
}

impl Setbacks {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawSetbacks = f.parse()?;
        if raw.setback.is_empty() {
            return Err(f.error("no `[[setback]]` rows: list each event with its six changes"));
        }
        let mut rows: Vec<SetbackRow> = Vec::new();
        for r in raw.setback {
            let (event, at) = (r.event.get_ref(), r.event.span().start);
            if event.is_empty() || !event.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                return Err(f.error_at(at, format!("event `{event}`: write names in snake_case (a-z, 0-9, _)")));
            }
            if rows.iter().any(|seen| seen.event == *event) {
                return Err(f.error_at(at, format!("event `{event}` is listed twice")));
            }
            let cells = r.change.get_ref();
            if cells.len() != 6 {
                return Err(f.error_at(
                    r.change.span().start,
                    format!("event `{event}`: `change` has {} cells; give six, one per face of the d6", cells.len()),
                ));
            }
            let mut change = [Change::Unknown; 6];
            for (slot, cell) in change.iter_mut().zip(cells) {
                *slot = match cell.get_ref() {
                    toml::Value::String(s) if s == "?" => Change::Unknown,
                    toml::Value::Integer(c) if (i64::from(i32::MIN)..=0).contains(c) => Change::Known(*c as i32),
                    other => {
                        return Err(f.error_at(
                            cell.span().start,
                            format!("event `{event}`: cell {other} is not a change; write 0, a negative whole number, or \"?\" where the source is cut off"),
                        ));
                    }
                };
            }
            rows.push(SetbackRow { event: event.clone(), label: r.label, change });
        }
        Ok(Setbacks { rows, source: raw.source })
    }
}

/// How a force's starting Force Morale is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Rolled on the starting table.
    Rolled {
        /// The Force Morale for each face of the d6, the quality's modifier applied.
        by_face: [u32; 6],
        /// Every level the table gives, lowest first: the `starting` outcomes, the
        /// same for every quality so reports line up.
        levels: Vec<u32>,
    },
    /// Known, no roll.
    Given(u32),
}

/// A force's Force Morale through a list of setbacks, from a rolled or known start.
///
/// The kill (`p_kill`) is the `force_morale` outcome "0": Force Morale driven to the
/// floor. No source gives the level at which a force breaks, so no outcome can be
/// called "broken"; 0 is the one outcome needing no such level, and since every break
/// level is 0 or more, P(final 0) is a lower bound on the chance of breaking whatever
/// level is played. `dice_lost` would not serve: with the default dice table (five
/// dice at every listed level) no die is ever lost.
#[derive(Debug, Clone)]
pub struct ForceMorale {
    start: Start,
    setbacks: Vec<[i32; 6]>,
    /// The `starting` outcomes, lowest first.
    levels: Vec<u32>,
    dice: DiceByForceMorale,
    /// The distinct dice counts of the dice table, fewest first.
    dice_counts: Vec<u32>,
    measures: Vec<Measure>,
}

/// Force Morale after a change, floored at 0: the level at which a force breaks was
/// not found, and nothing lower than none is meaningful.
pub(super) fn lowered(force_morale: u32, change: i32) -> u32 {
    force_morale.saturating_add_signed(change)
}

impl ForceMorale {
    /// From the start, the setbacks' changes for faces 1 to 6 in the order they happen,
    /// and the dice table (levels highest first, never more dice at a lower level, as
    /// `dice_by_force_morale.toml` loads), so `dice_lost` is never negative.
    pub fn new(start: Start, setbacks: Vec<[i32; 6]>, dice: DiceByForceMorale) -> Self {
        let mut dice_counts: Vec<u32> = dice.levels.iter().map(|(_, d)| *d).collect();
        dice_counts.sort_unstable();
        dice_counts.dedup();
        let levels = match &start {
            Start::Rolled { by_face, levels } => {
                assert!(by_face.iter().all(|l| levels.contains(l)), "every face's level is a `starting` outcome");
                levels.clone()
            }
            Start::Given(s) => vec![*s],
        };
        let top = *levels.last().expect("a start has a level");
        let most_lost = dice_counts.last().expect("the dice table lists a level") - dice_counts[0];
        let measures = vec![
            Measure::counts("force_morale", top),
            Measure::new("starting", levels.iter().map(ToString::to_string)),
            Measure::new(
                "command_dice",
                dice_counts.iter().map(ToString::to_string).chain(std::iter::once("not_listed".into())),
            ),
            Measure::new(
                "dice_lost",
                (0..=most_lost).map(|n| n.to_string()).chain(std::iter::once("not_listed".into())),
            ),
        ];
        ForceMorale { start, setbacks, levels, dice, dice_counts, measures }
    }

    /// The highest Force Morale a trial can end on: the highest start.
    fn top(&self) -> u32 {
        *self.levels.last().expect("a start has a level")
    }
}

impl Resolution for ForceMorale {
    /// (starting Force Morale, final Force Morale).
    type State = (u32, u32);
    type Weight = u128;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    fn kill(&self) -> (usize, usize) {
        (0, 0)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> (u32, u32) {
        let rng = &mut streams.morale;
        let start = match &self.start {
            Start::Rolled { by_face, .. } => by_face[D6.roll(rng) as usize - 1],
            Start::Given(s) => *s,
        };
        let end = self.setbacks.iter().fold(start, |fm, row| lowered(fm, row[D6.roll(rng) as usize - 1]));
        (start, end)
    }

    #[inline(always)]
    fn index(&self, &(start, end): &(u32, u32), out: &mut [usize]) {
        out[0] = end as usize;
        out[1] = self.levels.iter().position(|l| *l == start).expect("a start is a listed level");
        let (at_start, at_end) = (self.dice.dice_at(start), self.dice.dice_at(end));
        out[2] = at_end.map_or(self.dice_counts.len(), |d| {
            self.dice_counts.iter().position(|c| *c == d).expect("every count of the table is an outcome")
        });
        out[3] = match (at_start, at_end) {
            (Some(a), Some(b)) => (a - b) as usize,
            _ => self.measures[3].outcomes.len() - 1,
        };
    }

    /// The start's d6 (or certainty), then each setback's d6 independently: 6^(n+1)
    /// at most, within 128 bits for up to 48 setbacks (more fall back to Monte Carlo).
    fn exact_state(&self) -> std::result::Result<Dist<(u32, u32)>, TooLarge> {
        let start: Dist<(u32, u32)> = match &self.start {
            Start::Rolled { by_face, .. } => Dist::roll(D6, |f| (by_face[f as usize - 1], by_face[f as usize - 1])),
            Start::Given(s) => Dist::certain((*s, *s)),
        };
        self.setbacks.iter().try_fold(start, |dist, row| {
            dist.combine(&Dist::roll(D6, |f| row[f as usize - 1]), |&(s, fm), &c| (s, lowered(fm, c)))
        })
    }
}

/// A scenario's `[force]` section.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawForceMorale {
    quality: Option<Spanned<String>>,
    starting: Option<Spanned<i64>>,
    #[serde(default)]
    setbacks: Vec<Spanned<String>>,
}

/// "1-4: 8, 5-6: 9": runs of consecutive keys with the same value.
fn runs(items: impl IntoIterator<Item = (u32, String)>) -> String {
    let mut out: Vec<(u32, u32, String)> = Vec::new();
    for (k, v) in items {
        match out.last_mut() {
            Some((_, hi, last)) if *last == v && *hi + 1 == k => *hi = k,
            _ => out.push((k, k, v)),
        }
    }
    let run =
        |(lo, hi, v): &(u32, u32, String)| if lo == hi { format!("{lo}: {v}") } else { format!("{lo}-{hi}: {v}") };
    out.iter().map(run).collect::<Vec<_>>().join(", ")
}

/// Compiles a `[force]` section: the starting Force Morale rolled for `quality`
/// (default regular) or a known `starting` value, then `setbacks` in order. An event
/// whose d6 could land on a "?" cell is refused: every face may be rolled.
pub fn set_up(
    doc: &Document,
    section: Spanned<RawForceMorale>,
    tables: &ForceMoraleTables,
    dice: &DiceByForceMorale,
    notes: &mut Vec<String>,
) -> Result<ForceMorale> {
    let raw = section.into_inner();
    let starting = &tables.starting;
    let start = match (&raw.quality, &raw.starting) {
        (Some(q), Some(_)) => {
            return Err(doc.error_at(
                q.span().start,
                "give `quality` (the starting Force Morale is rolled) or `starting` (a known value, no roll), not both",
            ));
        }
        (None, Some(_)) => {
            let highest = starting.levels().into_iter().chain(dice.levels.iter().map(|(fm, _)| *fm)).max();
            let given = count(doc, &raw.starting, "starting", 1, highest.expect("the tables list levels"), 1)?;
            notes.push(format!("starting Force Morale {given}, as given: no starting roll"));
            Start::Given(given)
        }
        (q, None) => {
            let name = choice(doc, q.as_ref(), "quality", &QUALITIES, "regular")?;
            let quality = starting.qualities.iter().find(|q| q.name == name).expect("the table lists every quality");
            let by_face: [u32; 6] = std::array::from_fn(|i| starting.at(i as i32 + 1 + quality.modifier));
            notes.push(format!(
                "starting Force Morale: a d6 {:+} ({}) on the starting table; faces {}",
                quality.modifier,
                quality.label,
                runs((1..).zip(by_face.iter().map(ToString::to_string)))
            ));
            Start::Rolled { by_face, levels: starting.levels() }
        }
    };
    let mut changes = Vec::new();
    for (i, name) in raw.setbacks.iter().enumerate() {
        let (n, at) = (name.get_ref(), name.span().start);
        let rows = &tables.setbacks.rows;
        let row = rows
            .iter()
            .find(|r| r.event == *n)
            .ok_or_else(|| doc.error_at(at, unknown("setback event", n, rows.iter().map(|r| r.event.as_str()))))?;
        let Some(change) = row.known() else {
            let cut: Vec<String> =
                (1..=6).filter(|f| row.change[f - 1] == Change::Unknown).map(|f| f.to_string()).collect();
            let faces = if cut.len() == 1 {
                format!("face {} of its d6 is", cut[0])
            } else {
                format!("faces {} of its d6 are", cut.join(", "))
            };
            return Err(doc.error_at(
                at,
                format!(
                    "setback `{n}` ({}): {faces} \"?\" (cut off in the source) and any face may be rolled; supply the cells through a table override ({OVERRIDE})",
                    row.label
                ),
            ));
        };
        notes.push(format!(
            "setback {}, {n} ({}): d6 faces {}",
            i + 1,
            row.label,
            runs((1..).zip(change.map(|c| c.to_string())))
        ));
        changes.push(change);
    }
    if changes.is_empty() {
        notes.push("no setbacks: the final Force Morale is the starting one".into());
    }
    let force = ForceMorale::new(start, changes, dice.clone());
    let top = force.top();
    notes.push(
        "Force Morale never falls below 0; no break level is applied (the level at which a force breaks has no source)"
            .into(),
    );
    notes.push(format!(
        "Command Dice at Force Morale {} (dice_by_force_morale.toml)",
        runs((0..=top).map(|fm| (fm, dice.dice_at(fm).map_or("not listed".into(), |d| format!("{d} dice")))))
    ));
    Ok(force)
}

#[cfg(test)]
mod tests {
    use super::*;
    use combat_odds_core::dice::Ratio;
    use combat_odds_core::engine::Experiment;

    const START: &str = include_str!("../../../../rulesets/chain-of-command/force_morale.toml");
    const SETBACKS: &str = include_str!("../../../../rulesets/chain-of-command/setbacks.toml");

    fn file(name: &str, text: &str) -> TableFile {
        TableFile::new(name, name, text)
    }

    fn tables() -> ForceMoraleTables {
        ForceMoraleTables::load(&file("force_morale.toml", START), &file("setbacks.toml", SETBACKS)).unwrap()
    }

    /// Five dice at every level from 11 down to 1, as the shipped table.
    fn five_dice() -> DiceByForceMorale {
        dice(&(1..=11).rev().map(|fm| (fm, 5)).collect::<Vec<_>>())
    }

    fn dice(levels: &[(u32, u32)]) -> DiceByForceMorale {
        let source =
            Source { seed: "test".into(), table: "test".into(), rules: None, invented: false, own: Vec::new() };
        DiceByForceMorale { levels: levels.to_vec(), source }
    }

    #[derive(Deserialize)]
    struct Scenario {
        force: Spanned<RawForceMorale>,
    }

    /// Compiles `[force]` with `body`, against the shipped tables and `dice`.
    fn set_up_with(body: &str, dice: &DiceByForceMorale) -> Result<(ForceMorale, Vec<String>)> {
        let doc = Document::new("s.toml", "s.toml", format!("[force]\n{body}\n"));
        let s: Scenario = doc.parse()?;
        let mut notes = Vec::new();
        set_up(&doc, s.force, &tables(), dice, &mut notes).map(|f| (f, notes))
    }

    /// The exact probability of every outcome of measure `m`, by label.
    fn exact(body: &str, dice: &DiceByForceMorale, m: usize) -> Vec<(String, Ratio)> {
        let (force, _) = set_up_with(body, dice).unwrap();
        let table = force.exact().unwrap();
        Resolution::measures(&force)[m].outcomes.iter().cloned().zip(table[m].iter().cloned()).collect()
    }

    fn p(outcomes: &[(String, Ratio)], label: &str) -> Ratio {
        outcomes.iter().find(|(l, _)| l == label).unwrap_or_else(|| panic!("no outcome {label}")).1.clone()
    }

    #[test]
    fn the_shipped_tables_transcribe_the_reference_sheet() {
        let t = tables();
        assert_eq!(t.setbacks.rows.len(), 18);
        let row = |e: &str| t.setbacks.rows.iter().find(|r| r.event == e).unwrap().change;
        assert_eq!(row("senior_leader_killed"), [-1, -2, -2, -2, -2, -3].map(Change::Known));
        let cut = row("afv_immobilised_or_main_gun_knocked_out");
        assert_eq!(cut[3..], [Change::Known(-1), Change::Unknown, Change::Unknown]);
        assert_eq!(row("command_afv_knocked_out")[1..], [Change::Unknown; 5]);
        // The bands: <=1 8, 2 8, 3 9, 4 9, 5 10, >=6 11, open at both ends.
        let got: Vec<u32> = (-1..=8).map(|r| t.starting.at(r)).collect();
        assert_eq!(got, [8, 8, 8, 8, 9, 9, 10, 11, 11, 11]);
        let views = t.views();
        assert_eq!(views.len(), 3);
        // Every column of a listing is as long as the table: 3 qualities, 6 bands, 18 rows.
        for (v, rows) in views.iter().zip([3, 6, 18]) {
            assert!(v.columns.iter().all(|(_, cells)| cells.len() == rows), "{}", v.file);
        }
        assert_eq!(views[2].columns.len(), 8);
        assert_eq!(views[2].columns[7].1[17], "?");
    }

    #[test]
    fn green_starts_at_8_on_four_faces_in_six() {
        // Green: d6 - 2 runs -1..4; <= 2 gives 8 (faces 1-4), 3-4 give 9 (faces 5-6).
        let s = exact("quality = \"green\"", &five_dice(), 1);
        assert_eq!(p(&s, "8"), Ratio::new(4, 6));
        assert_eq!(p(&s, "9"), Ratio::new(2, 6));
        assert_eq!(p(&s, "11"), Ratio::new(0, 1));
        // Elite: d6 + 2 runs 3..8: 3, 4 give 9; 5 gives 10; 6, 7, 8 give 11.
        let s = exact("quality = \"elite\"", &five_dice(), 1);
        assert_eq!((p(&s, "9"), p(&s, "10"), p(&s, "11")), (Ratio::new(2, 6), Ratio::new(1, 6), Ratio::new(3, 6)));
        // Regular by default: one face each for 10 and 11, two each for 8 and 9.
        let s = exact("", &five_dice(), 1);
        assert_eq!((p(&s, "8"), p(&s, "10")), (Ratio::new(2, 6), Ratio::new(1, 6)));
    }

    #[test]
    fn a_section_breaking_costs_one_on_two_faces_and_two_on_four() {
        // Section breaks: faces 1-2 give -1, 3-6 give -2. From 10: P(9) = 2/6, P(8) = 4/6.
        let fm = exact("starting = 10\nsetbacks = [\"section_breaks\"]", &five_dice(), 0);
        assert_eq!(fm.len(), 11, "outcomes 0 to 10");
        assert_eq!(p(&fm, "9"), Ratio::new(2, 6));
        assert_eq!(p(&fm, "8"), Ratio::new(4, 6));
        assert_eq!(p(&fm, "10"), Ratio::new(0, 1));
    }

    #[test]
    fn setbacks_chain_and_force_morale_floors_at_zero() {
        // From 2, two Team wiped out rolls (faces 1-2: 0, 3-6: -1): 0 needs both to take
        // one, (4/6)^2 = 16/36 = 4/9; 2 needs neither, (2/6)^2 = 1/9; 1 the rest, 4/9.
        let body = "starting = 2\nsetbacks = [\"team_wiped_out\", \"team_wiped_out\"]";
        let fm = exact(body, &five_dice(), 0);
        assert_eq!((p(&fm, "0"), p(&fm, "1"), p(&fm, "2")), (Ratio::new(4, 9), Ratio::new(4, 9), Ratio::new(1, 9)));
        // From 1, a Senior Leader routing (-2 or -3) always leaves 0, never below.
        let (force, _) = set_up_with("starting = 1\nsetbacks = [\"senior_leader_routs\"]", &five_dice()).unwrap();
        let table = force.exact().unwrap();
        let (m, o) = Experiment::kill(&force);
        assert_eq!(table[m][o], Ratio::new(1, 1));
        // Level 0 is not in the dice table: the dice are not_listed, as is the loss.
        assert_eq!(table[2].last().unwrap(), &Ratio::new(1, 1));
        assert_eq!(table[3].last().unwrap(), &Ratio::new(1, 1));
    }

    #[test]
    fn dice_follow_the_final_level_and_count_what_was_lost() {
        // 6 dice at 10, 5 at 9, 4 at 8. From 10, Section breaks: 9 (2/6) keeps 5 dice,
        // one lost; 8 (4/6) keeps 4, two lost.
        let d = dice(&[(10, 6), (9, 5), (8, 4)]);
        let body = "starting = 10\nsetbacks = [\"section_breaks\"]";
        let held = exact(body, &d, 2);
        assert_eq!(held.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["4", "5", "6", "not_listed"]);
        assert_eq!((p(&held, "5"), p(&held, "4")), (Ratio::new(1, 3), Ratio::new(2, 3)));
        let lost = exact(body, &d, 3);
        assert_eq!(
            (p(&lost, "1"), p(&lost, "2"), p(&lost, "0")),
            (Ratio::new(1, 3), Ratio::new(2, 3), Ratio::new(0, 1))
        );
    }

    #[test]
    fn monte_carlo_trials_follow_the_exact_distribution() {
        // Green with two setbacks: 60,000 trials land within 1% of each exact outcome.
        let (force, _) =
            set_up_with("quality = \"green\"\nsetbacks = [\"section_breaks\", \"team_breaks\"]", &five_dice()).unwrap();
        let exact = force.exact().unwrap();
        let mut streams = Streams::for_chunk(7, 0);
        let mut counts = [0u32; 12];
        let trials = 60_000;
        for _ in 0..trials {
            counts[force.trial(&mut streams).1 as usize] += 1;
        }
        for (fm, c) in counts.iter().enumerate() {
            let freq = f64::from(*c) / f64::from(trials);
            assert!((freq - exact[0][fm].to_f64()).abs() < 0.01, "Force Morale {fm}: {freq} vs {}", exact[0][fm]);
        }
    }

    #[test]
    fn a_setback_that_could_roll_a_cut_off_cell_is_refused() {
        let err = set_up_with("setbacks = [\"afv_knocked_out\"]", &five_dice()).unwrap_err().to_string();
        assert!(err.contains("faces 2, 3, 4, 5, 6 of its d6 are \"?\""), "{err}");
        assert!(err.contains("chain-of-command/setbacks.toml"), "{err}");
        assert!(!err.contains('\n'), "one line: {err}");
        let err = set_up_with("setbacks = [\"afv_immobilised_or_main_gun_knocked_out\"]", &five_dice()).unwrap_err();
        assert!(err.to_string().contains("faces 5, 6 of its d6"), "{err}");
    }

    #[test]
    fn scenario_mistakes_name_the_fix() {
        let err = set_up_with("setbacks = [\"section_break\"]", &five_dice()).unwrap_err().to_string();
        assert!(err.contains("did you mean `section_breaks`"), "{err}");
        let err = set_up_with("quality = \"veteran\"", &five_dice()).unwrap_err().to_string();
        assert!(err.contains("unknown quality `veteran`"), "{err}");
        let err = set_up_with("quality = \"elite\"\nstarting = 9", &five_dice()).unwrap_err().to_string();
        assert!(err.contains("not both"), "{err}");
        let err = set_up_with("starting = 12", &five_dice()).unwrap_err().to_string();
        assert!(err.contains("starting must be from 1 to 11"), "{err}");
    }

    #[test]
    fn notes_record_every_number_reached() {
        let (_, notes) = set_up_with("quality = \"green\"\nsetbacks = [\"section_breaks\"]", &five_dice()).unwrap();
        assert_eq!(notes[0], "starting Force Morale: a d6 -2 (Green) on the starting table; faces 1-4: 8, 5-6: 9");
        assert_eq!(notes[1], "setback 1, section_breaks (Section breaks): d6 faces 1-2: -1, 3-6: -2");
        assert_eq!(notes[3], "Command Dice at Force Morale 0: not listed, 1-11: 5 dice (dice_by_force_morale.toml)");
    }

    #[test]
    fn malformed_tables_are_refused_with_the_reason() {
        let setbacks = |text: &str| {
            ForceMoraleTables::load(&file("force_morale.toml", START), &file("setbacks.toml", text))
                .unwrap_err()
                .to_string()
        };
        let src = "[source]\nseed = \"s\"\ntable = \"t\"\n";
        let row =
            |event: &str, change: &str| format!("[[setback]]\nevent = \"{event}\"\nlabel = \"x\"\nchange = {change}\n");
        let err = setbacks(&format!("{src}{}", row("a", "[0, -1, -1, -1, -1]")));
        assert!(err.contains("`change` has 5 cells; give six"), "{err}");
        let err = setbacks(&format!("{src}{}", row("a", "[0, -1, -1, -1, -1, 2]")));
        assert!(err.contains("cell 2 is not a change"), "{err}");
        let err = setbacks(&format!("{src}{}", row("a", "[0, -1, -1, -1, -1, \"x\"]")));
        assert!(err.contains("is not a change"), "{err}");
        let err = setbacks(&format!("{src}{}{}", row("a", "[0, 0, 0, 0, 0, 0]"), row("a", "[0, 0, 0, 0, 0, 0]")));
        assert!(err.contains("event `a` is listed twice"), "{err}");
        let starting = |text: String| {
            ForceMoraleTables::load(&file("force_morale.toml", &text), &file("setbacks.toml", SETBACKS))
                .unwrap_err()
                .to_string()
        };
        let err = starting(START.replace("name = \"elite\"", "name = \"green\""));
        assert!(err.contains("quality `green` is listed twice"), "{err}");
        let err = starting(START.replace("name = \"elite\"", "name = \"elit\""));
        assert!(err.contains("did you mean `elite`"), "{err}");
        let err = starting(START.replace("roll = \"1 or less\"", "roll = \"1\""));
        assert!(err.contains("the first band must be open below"), "{err}");
        let err = starting(START.replace("roll = \"3\"", "roll = \"4\""));
        assert!(err.contains("band `4` leaves a gap"), "{err}");
        let err = starting(START.replace("roll = \"6+\"", "roll = \"6\""));
        assert!(err.contains("must be open at the top"), "{err}");
    }
}
