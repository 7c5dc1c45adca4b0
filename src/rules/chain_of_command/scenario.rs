//! Chain of Command scenario files: a hand of Command Dice and a platoon, compiled
//! into one Phase's allocation ([`PhaseDice`]), the Phases until a full Chain of
//! Command die ([`ChainOfCommandDie`]) or the length of a Turn ([`TurnLength`]).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::command_dice::{Hand, PhaseDice, Platoon, Policy};
use super::phases::{ChainOfCommandDie, SIDES, TurnLength};
use super::tables::{MAX_HAND, Rank, Tables};
use crate::document::Document;
use crate::engine::Experiment;
use crate::error::{Result, unknown};
use crate::rules::Compiled;
use crate::rules::compile::{Sections, choice, count, present, scenario_kind};

/// The kinds of scenario this ruleset resolves, each with the sections it takes.
const SECTIONS: &Sections = &[
    ("command_dice", &["policy", "hand", "platoon"]),
    ("chain_of_command_die", &["hand", "points", "horizon"]),
    ("turn", &["side", "horizon"]),
];

/// Phases followed before a Chain of Command die's answer reports "more" (about 95%
/// of five-dice hands fill a die within it).
const DIE_HORIZON: u32 = 12;
/// Phases followed before a Turn's answer reports "more": a Turn ends on three 6s,
/// a few in a hundred Phases, so Turns run long.
const TURN_HORIZON: u32 = 60;
/// The longest horizon a scenario may ask for.
const MAX_HORIZON: u32 = 100;

/// The platoon when a scenario gives none: one Senior Leader, and three Sections of
/// two Teams each led by a Junior Leader.
pub const DEFAULT_PLATOON: [(&str, u32); 4] =
    [("senior_leader", 1), ("junior_leader", 3), ("sections", 3), ("teams", 6)];

#[derive(Deserialize)]
struct ScenarioFile {
    #[serde(default)]
    policy: Option<Spanned<String>>,
    #[serde(default)]
    hand: Option<Spanned<RawHand>>,
    #[serde(default)]
    platoon: Option<BTreeMap<String, Spanned<i64>>>,
    #[serde(default)]
    points: Option<Spanned<i64>>,
    #[serde(default)]
    horizon: Option<Spanned<i64>>,
    #[serde(default)]
    side: Vec<Spanned<RawHand>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHand {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    dice: Option<Spanned<i64>>,
    #[serde(default)]
    force_morale: Option<Spanned<i64>>,
    #[serde(default)]
    red_dice: bool,
    #[serde(default)]
    elite: bool,
}

/// Compiles `doc` against the loaded tables.
pub fn compile(doc: &Document, kind: &Spanned<String>, tables: &Tables) -> Result<Compiled> {
    let kind = scenario_kind(doc, kind, SECTIONS)?;
    let mut s: ScenarioFile = doc.parse()?;
    let mut notes = Vec::new();
    let experiment: Box<dyn Experiment> = match kind {
        "command_dice" => {
            let hand = hand(doc, tables, present(doc, s.hand.take(), "[hand]", kind)?, &mut notes)?;
            let policy = choice(doc, s.policy.as_ref(), "allocation policy", &Policy::NAMES, "max_senior")?;
            let policy = Policy::named(policy).expect("a listed policy");
            let platoon = platoon(doc, tables, s.platoon.take())?;
            notes.push(format!("policy {}: {}", policy.name(), describe_policy(policy)));
            notes.push(describe_platoon(&platoon));
            Box::new(PhaseDice::new(tables.dice.clone(), hand, &platoon, policy))
        }
        "chain_of_command_die" => {
            let hand = hand(doc, tables, present(doc, s.hand.take(), "[hand]", kind)?, &mut notes)?;
            let per_die = tables.dice.points_per_die;
            let points = count(doc, &s.points, "points", 0, per_die - 1, 0)?;
            let horizon = count(doc, &s.horizon, "horizon", 1, MAX_HORIZON, DIE_HORIZON)?;
            notes.push(format!(
                "{points} Chain of Command points held; a die is full at {per_die} points or when a hand's sixes grant one; followed for {horizon} Phases"
            ));
            Box::new(ChainOfCommandDie::new(tables.dice.clone(), hand, points, horizon))
        }
        _ => {
            let sides = std::mem::take(&mut s.side);
            let [first, second]: [Spanned<RawHand>; 2] = sides.try_into().map_err(|sides: Vec<_>| {
                doc.error(format!(
                    "a turn scenario needs exactly two `[[side]]` hands (the side that starts the Turn first); it has {}",
                    sides.len()
                ))
            })?;
            let first = hand(doc, tables, first, &mut notes)?;
            let second = hand(doc, tables, second, &mut notes)?;
            let horizon = count(doc, &s.horizon, "horizon", 1, MAX_HORIZON, TURN_HORIZON)?;
            notes.push(format!("the {} side starts the Turn; followed for {horizon} Phases", SIDES[0]));
            Box::new(TurnLength::new(tables.dice.clone(), [first, second], horizon))
        }
    };
    Ok(Compiled { experiment, notes })
}

/// A hand: `dice`, or the dice of a `force_morale` level; the Red Dice and Elite flags.
fn hand(doc: &Document, tables: &Tables, raw: Spanned<RawHand>, notes: &mut Vec<String>) -> Result<Hand> {
    let at = raw.span().start;
    let h = raw.into_inner();
    let dice = match (&h.dice, &h.force_morale) {
        (Some(_), Some(fm)) => {
            return Err(doc.error_at(fm.span().start, "give `dice` or `force_morale`, not both"));
        }
        (Some(d), None) => {
            let n = *d.get_ref();
            if !(1..=MAX_HAND as i64).contains(&n) {
                return Err(doc.error_at(
                    d.span().start,
                    format!("dice = {n}: a hand holds 1 to {MAX_HAND} Command Dice (add the Red Dice with `red_dice = true`)"),
                ));
            }
            n as u32
        }
        (None, Some(fm)) => {
            let levels = &tables.dice_by_force_morale;
            let level = u32::try_from(*fm.get_ref()).ok();
            level.and_then(|l| levels.dice_at(l)).ok_or_else(|| {
                let (hi, lo) = (levels.levels[0].0, levels.levels[levels.levels.len() - 1].0);
                doc.error_at(
                    fm.span().start,
                    format!("force_morale = {}: dice_by_force_morale.toml lists levels {lo} to {hi}", fm.get_ref()),
                )
            })?
        }
        (None, None) => return Err(doc.error_at(at, "a hand needs `dice` (1 to 12) or `force_morale`")),
    };
    let from = h.force_morale.as_ref().map_or(String::new(), |fm| format!(" (Force Morale {})", fm.get_ref()));
    notes.push(format!(
        "{}: {dice} Command Dice{from}{}{}",
        h.name.unwrap_or_else(|| "hand".into()),
        if h.red_dice { " and the Red Dice (5s and 6s discarded)" } else { "" },
        if h.elite { "; Elite: a single 6 becomes a 5" } else { "" }
    ));
    Ok(Hand { dice: dice as u8, red_dice: h.red_dice, elite: h.elite })
}

/// The platoon: a count for any Leader kind of `leaders.toml`, `sections` and `teams`.
fn platoon(doc: &Document, tables: &Tables, raw: Option<BTreeMap<String, Spanned<i64>>>) -> Result<Platoon> {
    let mut kinds: Vec<&str> = Vec::new();
    for l in &tables.dice.leaders {
        if !kinds.contains(&l.name.as_str()) {
            kinds.push(&l.name);
        }
    }
    let Some(raw) = raw else {
        let get = |k: &str| DEFAULT_PLATOON.iter().find(|(n, _)| *n == k).map_or(0, |(_, c)| *c);
        return Ok(Platoon {
            leaders: kinds.iter().map(|k| (k.to_string(), get(k))).collect(),
            sections: get("sections"),
            teams: get("teams"),
        });
    };
    let known: Vec<&str> = kinds.iter().copied().chain(["sections", "teams"]).collect();
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    for (key, value) in &raw {
        let Some(k) = known.iter().find(|k| **k == key) else {
            return Err(doc.error_at(value.span().start, unknown("platoon entry", key, known.iter().copied())));
        };
        counts.insert(k, count(doc, &Some(value.clone()), key, 0, 20, 0)?);
    }
    let platoon = Platoon {
        leaders: kinds.iter().map(|k| (k.to_string(), counts.get(k).copied().unwrap_or(0))).collect(),
        sections: counts.get("sections").copied().unwrap_or(0),
        teams: counts.get("teams").copied().unwrap_or(0),
    };
    let seniors = platoon
        .leaders
        .iter()
        .filter(|(name, _)| tables.dice.leaders.iter().any(|l| l.name == *name && l.rank == Rank::Senior))
        .map(|(_, n)| n)
        .sum::<u32>();
    if seniors == 0 {
        let names: Vec<&str> =
            tables.dice.leaders.iter().filter(|l| l.rank == Rank::Senior).map(|l| l.name.as_str()).collect();
        return Err(doc.error(format!(
            "the platoon has no Senior Leader; give one of {} a count of 1 or more",
            names.join(", ")
        )));
    }
    Ok(platoon)
}

fn describe_policy(p: Policy) -> &'static str {
    match p {
        Policy::MaxSenior => {
            "combine dice to activate every Senior Leader first, then as many Orders and activations as possible"
        }
        Policy::MaxOrders => {
            "combine dice for the most Orders and activations (each Order or die-activated Unit counts one), then Senior Leaders"
        }
        Policy::AsRolled => "no combining; each die used for its own face, for the most Orders and activations",
    }
}

fn describe_platoon(p: &Platoon) -> String {
    let leaders: Vec<String> = p.leaders.iter().filter(|(_, n)| *n > 0).map(|(k, n)| format!("{n} {k}")).collect();
    format!(
        "platoon: {}, {} sections, {} teams; none activates twice in a Phase",
        leaders.join(", "),
        p.sections,
        p.teams
    )
}
