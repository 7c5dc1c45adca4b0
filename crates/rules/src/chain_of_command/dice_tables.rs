//! Chain of Command's Command Dice tables: the seed's section 7 (Command Dice,
//! Leaders) and, where the seed is silent, the reference sheet
//! `chain-of-command-facts.md` with its sources named in each file's provenance
//! (sixes, Chain of Command points, dice by Force Morale).

use serde::Deserialize;
use toml::Spanned;

use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Source, TableFile};

/// What a face of the Command Dice does (7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Activate one Team.
    ActivateTeam,
    /// Activate one Section.
    ActivateSection,
    /// Activate one Junior Leader.
    ActivateJuniorLeader,
    /// Activate one Senior Leader.
    ActivateSeniorLeader,
    /// Add one Chain of Command Point.
    ChainOfCommandPoint,
    /// Turn Sequence.
    TurnSequence,
}

impl Use {
    const ALL: [Use; 6] = [
        Use::ActivateTeam,
        Use::ActivateSection,
        Use::ActivateJuniorLeader,
        Use::ActivateSeniorLeader,
        Use::ChainOfCommandPoint,
        Use::TurnSequence,
    ];
    const NAMES: [&'static str; 6] = [
        "activate_team",
        "activate_section",
        "activate_junior_leader",
        "activate_senior_leader",
        "chain_of_command_point",
        "turn_sequence",
    ];

    /// The stable name.
    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|u| *u == self).expect("every use is listed")]
    }
}

/// A Leader's rank: which activations count as a Senior Leader's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rank {
    /// Junior Leaders, Superior or not.
    Junior,
    /// Senior Leaders, Inferior or not.
    Senior,
}

/// One row of the Leaders table: a kind of Leader, the roll that activates it and the
/// Orders it then issues. A kind may have several rows (a Superior Junior Leader on a
/// 3 or a 4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderRow {
    /// Stable name of the kind (`senior_leader`, ...).
    pub name: String,
    /// As printed.
    pub label: String,
    /// Its rank.
    pub rank: Rank,
    /// The Command Dice result that activates it.
    pub activates_on: u32,
    /// Orders it issues on that result.
    pub orders: u32,
    /// Command range in inches.
    pub range: u32,
}

/// One row of the sixes table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SixesRow {
    /// How many 6s (the last row is "or more").
    pub count: u32,
    /// As the source words it.
    pub label: String,
    /// The same player takes the next Phase.
    pub keeps_phase: bool,
    /// The Turn ends after this Phase.
    pub turn_ends: bool,
    /// Whole Chain of Command dice gained.
    pub chain_of_command_dice: u32,
    /// A random event is rolled.
    pub random_event: bool,
}

/// The sixes table, rows for 0, 1, 2, ... 6s; the last row holds for that many or more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sixes {
    /// By count.
    pub rows: Vec<SixesRow>,
    /// Provenance.
    pub source: Source,
}

impl Sixes {
    /// The row that applies to `sixes` 6s.
    pub fn row_of(&self, sixes: u8) -> usize {
        (sixes as usize).min(self.rows.len() - 1)
    }
}

/// Everything a hand of Command Dice is read against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceRules {
    /// Combined dice make results up to this (4: "cannot be combined to make a 5 or 6").
    pub highest_combined: u32,
    /// The face that activates a Team, if any.
    pub team_face: Option<u32>,
    /// The face that activates a Section, if any.
    pub section_face: Option<u32>,
    /// The face that adds a Chain of Command point.
    pub point_face: u32,
    /// The face that drives the turn sequence.
    pub sequence_face: u32,
    /// Faces of the Red Dice that are used; the rest are discarded.
    pub red_used: Vec<u32>,
    /// Every Leader row.
    pub leaders: Vec<LeaderRow>,
    /// The sixes table.
    pub sixes: Sixes,
    /// Points that make one Chain of Command die.
    pub points_per_die: u32,
    /// Provenance of the faces table.
    pub source: Source,
    /// Provenance of the Leaders table.
    pub leaders_source: Source,
    /// Provenance of the points rule.
    pub points_source: Source,
    /// The faces as printed, by roll.
    pub face_labels: Vec<(u32, String, Use)>,
}

/// Command Dice by Force Morale level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiceByForceMorale {
    /// (Force Morale, dice), highest level first.
    pub levels: Vec<(u32, u32)>,
    /// Provenance.
    pub source: Source,
}

impl DiceByForceMorale {
    /// The dice rolled at `force_morale`, if the table lists the level.
    pub fn dice_at(&self, force_morale: u32) -> Option<u32> {
        self.levels.iter().find(|(fm, _)| *fm == force_morale).map(|(_, d)| *d)
    }
}

/// The most Command Dice a hand may hold (before the Red Dice).
pub const MAX_HAND: u32 = 12;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCommandDice {
    die: Spanned<u32>,
    highest_combined: Spanned<u32>,
    source: Source,
    face: Vec<RawFace>,
    red_dice: RawRedDice,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFace {
    roll: Spanned<u32>,
    label: String,
    #[serde(rename = "use")]
    use_: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRedDice {
    used: Spanned<Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeaders {
    source: Source,
    leader: Vec<RawLeader>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeader {
    name: String,
    label: String,
    rank: Spanned<String>,
    activates_on: Spanned<u32>,
    orders: Spanned<u32>,
    range: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSixes {
    source: Source,
    sixes: Vec<RawSixesRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSixesRow {
    count: Spanned<u32>,
    label: String,
    keeps_phase: bool,
    turn_ends: bool,
    #[serde(default)]
    chain_of_command_dice: u32,
    #[serde(default)]
    random_event: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPoints {
    points_per_die: Spanned<u32>,
    source: Source,
}

impl DiceRules {
    pub(super) fn load(faces: &TableFile, leaders: &TableFile, sixes: &TableFile, points: &TableFile) -> Result<Self> {
        let raw: RawCommandDice = faces.parse()?;
        if *raw.die.get_ref() != 6 {
            return Err(faces.error_at(raw.die.span().start, "Command Dice are d6 (7.2); set `die = 6`"));
        }
        let mut face_labels = Vec::new();
        for (i, f) in raw.face.iter().enumerate() {
            let want = i as u32 + 1;
            if *f.roll.get_ref() != want {
                return Err(faces.error_at(
                    f.roll.span().start,
                    format!("face rows run 1 to 6 in order; expected roll {want} here"),
                ));
            }
            let u = Use::NAMES
                .iter()
                .position(|n| *n == f.use_.get_ref())
                .map(|i| Use::ALL[i])
                .ok_or_else(|| faces.error_at(f.use_.span().start, unknown("use", f.use_.get_ref(), Use::NAMES)))?;
            if face_labels.iter().any(|(_, _, seen)| *seen == u) {
                return Err(faces
                    .error_at(f.use_.span().start, format!("`{}` is on two faces; give each use one face", u.name())));
            }
            face_labels.push((want, f.label.clone(), u));
        }
        if face_labels.len() != 6 {
            return Err(faces.error(format!("a d6 has six faces; the table lists {}", face_labels.len())));
        }
        let face_of =
            |u: Use| face_labels.iter().find(|(_, _, x)| *x == u).map(|(r, ..)| *r).expect("six uses on six faces");
        let highest = *raw.highest_combined.get_ref();
        let (point_face, sequence_face) = (face_of(Use::ChainOfCommandPoint), face_of(Use::TurnSequence));
        if !(2..point_face.min(sequence_face)).contains(&highest) {
            return Err(faces.error_at(
                raw.highest_combined.span().start,
                format!(
                    "highest_combined {highest}: combined dice make results from 2 up to below the Chain of Command point and turn sequence faces ({point_face}, {sequence_face}), which are never made by combining"
                ),
            ));
        }
        // A used Red Dice face joins the hand's 1 to `highest_combined` results.
        if let Some(bad) = raw.red_dice.used.get_ref().iter().find(|f| !(1..=highest).contains(*f)) {
            return Err(faces.error_at(
                raw.red_dice.used.span().start,
                format!("red_dice.used lists {bad}; the Red Dice is used only for results 1 to {highest}"),
            ));
        }
        let leader_file: RawLeaders = leaders.parse()?;
        let mut leader_rows = Vec::new();
        for l in leader_file.leader {
            let rank = match l.rank.get_ref().as_str() {
                "junior" => Rank::Junior,
                "senior" => Rank::Senior,
                other => {
                    return Err(leaders.error_at(l.rank.span().start, unknown("rank", other, ["junior", "senior"])));
                }
            };
            let on = *l.activates_on.get_ref();
            if !(1..=highest).contains(&on) {
                return Err(leaders.error_at(
                    l.activates_on.span().start,
                    format!("activates_on {on}: a Leader activates on a result from 1 to {highest}"),
                ));
            }
            if *l.orders.get_ref() == 0 {
                return Err(
                    leaders.error_at(l.orders.span().start, "orders 0: an activated Leader issues at least one Order")
                );
            }
            leader_rows.push(LeaderRow {
                name: l.name,
                label: l.label,
                rank,
                activates_on: on,
                orders: *l.orders.get_ref(),
                range: l.range,
            });
        }
        if !leader_rows.iter().any(|l| l.rank == Rank::Senior) {
            return Err(leaders.error("no `rank = \"senior\"` row: every platoon has a Senior Leader to activate"));
        }
        let sixes = Sixes::load(sixes)?;
        let raw_points: RawPoints = points.parse()?;
        if *raw_points.points_per_die.get_ref() == 0 {
            return Err(points.error_at(raw_points.points_per_die.span().start, "points_per_die must be at least 1"));
        }
        let face_for =
            |u: Use| face_labels.iter().find(|(_, _, x)| *x == u).map(|(r, ..)| *r).filter(|r| *r <= highest);
        Ok(DiceRules {
            highest_combined: highest,
            team_face: face_for(Use::ActivateTeam),
            section_face: face_for(Use::ActivateSection),
            point_face,
            sequence_face,
            red_used: raw.red_dice.used.into_inner(),
            leaders: leader_rows,
            sixes,
            points_per_die: raw_points.points_per_die.into_inner(),
            source: raw.source,
            leaders_source: leader_file.source,
            points_source: raw_points.source,
            face_labels,
        })
    }
}

impl Sixes {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawSixes = f.parse()?;
        let mut rows = Vec::new();
        for (i, r) in raw.sixes.into_iter().enumerate() {
            if *r.count.get_ref() != i as u32 {
                return Err(f.error_at(
                    r.count.span().start,
                    format!("sixes rows run 0, 1, 2, ... in order; expected count {i} here"),
                ));
            }
            rows.push(SixesRow {
                count: i as u32,
                label: r.label,
                keeps_phase: r.keeps_phase,
                turn_ends: r.turn_ends,
                chain_of_command_dice: r.chain_of_command_dice,
                random_event: r.random_event,
            });
        }
        if rows.len() < 2 {
            return Err(f.error("the sixes table needs rows for 0 sixes and at least one more"));
        }
        Ok(Sixes { rows, source: raw.source })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDiceByForceMorale {
    source: Source,
    level: Vec<RawLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLevel {
    force_morale: Spanned<u32>,
    dice: Spanned<u32>,
}

impl DiceByForceMorale {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawDiceByForceMorale = f.parse()?;
        let mut levels: Vec<(u32, u32)> = Vec::new();
        for l in &raw.level {
            let (fm, dice) = (*l.force_morale.get_ref(), *l.dice.get_ref());
            if levels.iter().any(|(seen, _)| *seen == fm) {
                return Err(f.error_at(l.force_morale.span().start, format!("Force Morale {fm} is listed twice")));
            }
            if !(1..=MAX_HAND).contains(&dice) {
                return Err(
                    f.error_at(l.dice.span().start, format!("dice {dice}: a hand holds 1 to {MAX_HAND} Command Dice"))
                );
            }
            levels.push((fm, dice));
        }
        if levels.is_empty() {
            return Err(f.error("no `[[level]]` rows: list the dice rolled at each Force Morale level"));
        }
        levels.sort_by_key(|l| std::cmp::Reverse(l.0));
        // "As Force Morale decreases, fewer Command Dice will be rolled" (7.1): never
        // more dice at a lower level, so dice lost to a setback is never negative.
        if let Some(w) = levels.windows(2).find(|w| w[1].1 > w[0].1) {
            let ((hi, a), (lo, b)) = (w[0], w[1]);
            let at = raw.level.iter().find(|l| *l.force_morale.get_ref() == lo).map_or(0, |l| l.dice.span().start);
            return Err(f.error_at(
                at,
                format!("{b} dice at Force Morale {lo} but {a} at {hi}: fewer Command Dice are rolled as Force Morale falls (7.1), never more"),
            ));
        }
        Ok(DiceByForceMorale { levels, source: raw.source })
    }
}
