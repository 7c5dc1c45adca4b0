//! Chain of Command scenario files: a hand of Command Dice and a platoon, set up
//! as one Phase's allocation ([`PhaseDice`]), the Phases until a full Chain of
//! Command die ([`ChainOfCommandDie`]) or the length of a Turn ([`TurnLength`]).

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::command_dice::{Hand, PhaseDice, Platoon, Policy};
use super::dice_tables::{MAX_HAND, Rank};
use super::force_morale::{self, RawForceMorale};
use super::phases::{ChainOfCommandDie, SIDES, TurnLength};
use super::settings::{RawSettings, Settings};
use super::shooting::{Fire, Firepower, HitEffect, QUALITIES, Shooting, ShootingPhases, ShootingTables};
use super::tables::Tables;
use crate::ruleset::SetUp;
use crate::setup::{Sections, article, choice, count, present, rests_on, scenario_kind};
use combat_odds_core::document::Document;
use combat_odds_core::engine::Experiment;
use combat_odds_core::error::{Result, unknown};

/// The kinds of scenario this ruleset resolves, each with the sections it takes.
pub(crate) const SECTIONS: &Sections = &[
    ("command_dice", &["policy", "hand", "platoon"]),
    ("chain_of_command_die", &["hand", "points", "horizon"]),
    ("turn", &["side", "horizon"]),
    ("shooting", &["range", "firer", "target"]),
    ("shooting_phases", &["range", "firer", "target", "horizon"]),
    ("force_morale", &["force"]),
    ("engagement", crate::engagement::scenario::SECTIONS),
];

/// Cover levels in `effect.toml`, least first, as a scenario names them.
pub(super) const MOST_FIGURES: u32 = 30;
/// The most firepower dice one fire may roll.
pub(super) const MOST_DICE: u32 = 100;

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
    settings: RawSettings,
    range: Option<Spanned<String>>,
    firer: Option<Spanned<RawFirer>>,
    target: Option<Spanned<RawTarget>>,
    policy: Option<Spanned<String>>,
    hand: Option<Spanned<RawHand>>,
    platoon: Option<BTreeMap<String, Spanned<i64>>>,
    points: Option<Spanned<i64>>,
    horizon: Option<Spanned<i64>>,
    #[serde(default)]
    side: Vec<Spanned<RawHand>>,
    force: Option<Spanned<RawForceMorale>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHand {
    name: Option<String>,
    dice: Option<Spanned<i64>>,
    force_morale: Option<Spanned<i64>>,
    #[serde(default)]
    red_dice: bool,
    #[serde(default)]
    elite: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFirer {
    name: Option<String>,
    quality: Option<Spanned<String>>,
    #[serde(default)]
    weapons: Vec<RawWeaponUse>,
    firepower: Option<Spanned<i64>>,
    shock: Option<Spanned<i64>>,
    #[serde(default)]
    moved: bool,
    #[serde(default)]
    pinned: bool,
}

/// One catalogue weapon a firer carries, `count` times.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWeaponUse {
    weapon: Spanned<String>,
    count: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTarget {
    name: Option<String>,
    quality: Option<Spanned<String>>,
    figures: Spanned<i64>,
    shock: Option<Spanned<i64>>,
    cover: Spanned<String>,
}

/// Compiles `doc` against the loaded tables.
pub fn set_up(doc: &Document, kind: &'static str, tables: &Tables) -> Result<SetUp> {
    let mut s: ScenarioFile = doc.parse()?;
    // Read for every kind, so a misspelt reading is refused even where it is not used.
    let settings = Settings::resolve(doc, &s.settings, kind, &tables.shooting)?;
    let mut notes = Vec::new();
    let experiment: Box<dyn Experiment> = match kind {
        "command_dice" => {
            let (hand, policy, platoon) = command_dice(doc, &mut s, tables, &mut notes)?;
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
        "shooting" | "shooting_phases" => {
            let firer = present(doc, s.firer.take(), "[firer]", kind)?;
            let target = present(doc, s.target.take(), "[target]", kind)?;
            let fire = fire(doc, tables, &settings, s.range.as_ref(), firer, target, &mut notes)?;
            if kind == "shooting" {
                Box::new(Shooting::new(fire))
            } else {
                let horizon = count(doc, &s.horizon, "horizon", 1, MAX_HORIZON, DIE_HORIZON)?;
                notes.push(format!(
                    "the same fire every Phase until the target Breaks or is wiped out; followed for {horizon} Phases"
                ));
                Box::new(ShootingPhases::new(fire, horizon))
            }
        }
        "force_morale" => {
            let section = present(doc, s.force.take(), "[force]", kind)?;
            let dice = &tables.dice_by_force_morale;
            Box::new(force_morale::set_up(doc, section, &tables.force_morale, dice, &mut notes)?)
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
    Ok(SetUp { experiment, notes })
}

/// The hand and platoon of a `command_dice` scenario, with notes, for the
/// `command-dice` view (which answers for every policy, so the scenario's own
/// `policy` is read only to check it).
pub(crate) fn command_dice_setup(
    doc: &Document,
    kind: &Spanned<String>,
    tables: &Tables,
) -> Result<(Hand, Platoon, Vec<String>)> {
    let kind = scenario_kind(doc, kind, SECTIONS)?;
    if kind != "command_dice" {
        return Err(doc.error(format!(
            "the rules answer of their own about a command_dice scenario; this one is {}",
            article(kind)
        )));
    }
    let mut s: ScenarioFile = doc.parse()?;
    Settings::resolve(doc, &s.settings, kind, &tables.shooting)?;
    let mut notes = Vec::new();
    let (hand, _, platoon) = command_dice(doc, &mut s, tables, &mut notes)?;
    notes.push(describe_platoon(&platoon));
    for p in Policy::ALL {
        notes.push(format!("policy {}: {}", p.name(), describe_policy(p)));
    }
    Ok((hand, platoon, notes))
}

/// A `command_dice` scenario's hand (its note added), allocation policy and platoon.
fn command_dice(
    doc: &Document,
    s: &mut ScenarioFile,
    tables: &Tables,
    notes: &mut Vec<String>,
) -> Result<(Hand, Policy, Platoon)> {
    let hand = hand(doc, tables, present(doc, s.hand.take(), "[hand]", "command_dice")?, notes)?;
    let policy = choice(doc, s.policy.as_ref(), "allocation policy", &Policy::NAMES, "max_senior")?;
    let policy = Policy::named(policy).expect("a listed policy");
    Ok((hand, policy, platoon(doc, tables, s.platoon.take())?))
}

/// One fire with every cell and setting read, and a note for each number reached.
fn fire(
    doc: &Document,
    tables: &Tables,
    settings: &Settings,
    range: Option<&Spanned<String>>,
    firer: Spanned<RawFirer>,
    target: Spanned<RawTarget>,
    notes: &mut Vec<String>,
) -> Result<Fire> {
    let t = &tables.shooting;
    let bands: Vec<&str> = t.to_hit.iter().map(|(b, ..)| b.as_str()).collect();
    let Some(range) = range else {
        return Err(
            doc.error(format!("a shooting scenario needs `range`, one of the to-hit bands ({})", bands.join(", ")))
        );
    };
    let band = choice(doc, Some(range), "range band", &bands, "")?;
    let (firer, target) = (firer.into_inner(), target.into_inner());
    let firer_quality = choice(doc, firer.quality.as_ref(), "troop quality", &QUALITIES, "regular")?;
    let target_quality = choice(doc, target.quality.as_ref(), "troop quality", &QUALITIES, "regular")?;
    let covers: Vec<&str> = t.effect.iter().map(|(c, ..)| c.as_str()).collect();
    let cover = choice(doc, Some(&target.cover), "cover", &covers, "")?;
    let cover = covers.iter().position(|c| *c == cover).expect("a listed cover");

    let base = base_firepower(doc, t, None, &firer.firepower, &firer.weapons, notes)?;
    let shock = count(doc, &firer.shock, "firer shock", 0, MOST_DICE, 0)?;
    let firepower = Firepower::new(t, settings.pinned_effects, settings.halves_round_up);
    let lost = firepower.lost(shock);
    let dice = firepower.dice(base, shock, firer.moved, firer.pinned);
    let mut how = format!("{base} firepower dice");
    if lost > 0 {
        how += &format!(" - {lost} for {shock} Shock (1 per {})", t.shock_per_lost_die);
    }
    if firer.moved {
        how += ", halved for moving and firing";
    }
    if firer.pinned && settings.pinned_effects {
        how += &format!(", divided by {} while Pinned", t.pinned_firepower_divisor);
    }
    let band_at = bands.iter().position(|b| *b == band).expect("a listed band");
    let (by, quality) = if settings.to_hit_by_target { ("target", target_quality) } else { ("firer", firer_quality) };
    let column = QUALITIES.iter().position(|q| *q == quality).expect("a listed quality");
    let figures = count(doc, &Some(target.figures.clone()), "figures", 1, MOST_FIGURES, 1)?;
    let target_shock = count(doc, &target.shock, "target shock", 0, MOST_DICE, 0)?;
    let fire = fire_at(t, settings, band_at, column, dice, cover, figures, target_shock);
    let hit_on = fire.hit_on;
    notes.push(format!(
        "{}: {how} = {dice}; each hits on {hit_on}+ ({} range, {quality} column by the {by}'s quality)",
        firer.name.unwrap_or_else(|| "firer".into()),
        t.to_hit[band_at].1
    ));
    let effect_by_cover = &fire.effect_by_cover;
    let describe = |faces: &[HitEffect; 6]| {
        let n = |e: HitEffect| faces.iter().filter(|f| **f == e).count();
        format!("miss {} / Shock {} / kill {} in 6", n(HitEffect::Miss), n(HitEffect::Shock), n(HitEffect::Kill))
    };
    let pinned_cover_up = fire.pinned_cover_up;
    notes.push(format!(
        "{}: {figures} figures, {target_shock} Shock, {} cover: {}; {}",
        target.name.unwrap_or_else(|| "target".into()),
        t.effect[cover].1,
        describe(&effect_by_cover[cover]),
        t.threshold_readings[settings.thresholds].1
    ));
    if pinned_cover_up > 0 {
        let up = (cover + pinned_cover_up).min(covers.len() - 1);
        notes.push(format!(
            "  while Pinned it fights from {} cover: {}",
            t.effect[up].1,
            describe(&effect_by_cover[up])
        ));
    }
    Ok(fire)
}

/// A firer's firepower dice before Shock and halving: its catalogue `weapons` summed,
/// or `firepower` given directly (one of the two). `at` is where the firer is written,
/// for the message when it gives both or neither.
pub(super) fn base_firepower(
    doc: &Document,
    t: &ShootingTables,
    at: Option<usize>,
    firepower: &Option<Spanned<i64>>,
    weapons: &[RawWeaponUse],
    notes: &mut Vec<String>,
) -> Result<u32> {
    match (firepower, weapons.is_empty()) {
        (Some(fp), true) => count(doc, &Some(fp.clone()), "firepower", 1, MOST_DICE, 1),
        (None, false) => {
            let mut sum = 0;
            for w in weapons {
                let names: Vec<&str> = t.weapons.iter().map(|(n, ..)| n.as_str()).collect();
                let name = choice(doc, Some(&w.weapon), "weapon", &names, "")?;
                let (_, label, dice) = t.weapons.iter().find(|(n, ..)| n == name).expect("a listed weapon");
                rests_on(doc, &t.weapons_source, ("weapon", name), label);
                let n = count(doc, &w.count, "count", 1, MOST_FIGURES, 1)?;
                notes.push(format!("  {n} x {label}: {} firepower dice", n * dice));
                sum += n * dice;
            }
            if sum > MOST_DICE {
                return Err(
                    doc.error(format!("the firer rolls {sum} firepower dice; at most {MOST_DICE} are resolved"))
                );
            }
            Ok(sum)
        }
        _ => {
            let message =
                "the firer needs `weapons = [{ weapon = \"lmg\" }, ...]` or `firepower = N`, not both or neither";
            Err(at.map_or_else(|| doc.error(message), |at| doc.error_at(at, message)))
        }
    }
}

/// One fire with every table cell read: the to-hit number of range band `band` in
/// quality column `column`, the effect of each face by cover (the lost Hard face
/// filled by the setting), the thresholds and Pinned cover rule in force, at a target
/// of `figures` figures and `shock` Shock in cover level `cover`.
#[allow(clippy::too_many_arguments)]
pub(super) fn fire_at(
    t: &ShootingTables,
    settings: &Settings,
    band: usize,
    column: usize,
    dice: u32,
    cover: usize,
    figures: u32,
    shock: u32,
) -> Fire {
    let effect_by_cover: Vec<[HitEffect; 6]> =
        t.effect.iter().map(|(.., faces)| faces.map(|f| f.unwrap_or(settings.hard_cover_four))).collect();
    Fire {
        dice,
        hit_on: t.to_hit[band].2[column],
        effect_by_cover,
        cover,
        pinned_cover_up: if settings.pinned_effects { t.pinned_cover_levels_up as usize } else { 0 },
        thresholds: t.thresholds[settings.thresholds],
        figures,
        shock,
    }
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
pub(super) fn platoon(doc: &Document, tables: &Tables, raw: Option<BTreeMap<String, Spanned<i64>>>) -> Result<Platoon> {
    let mut kinds: Vec<&str> = Vec::new();
    for l in &tables.dice.leaders {
        if !kinds.contains(&l.name.as_str()) {
            kinds.push(&l.name);
        }
    }
    let known: Vec<&str> = kinds.iter().copied().chain(["sections", "teams"]).collect();
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    match raw {
        None => counts.extend(DEFAULT_PLATOON.iter().copied().filter(|(k, _)| known.contains(k))),
        Some(raw) => {
            for (key, value) in &raw {
                let Some(k) = known.iter().find(|k| **k == key) else {
                    return Err(doc.error_at(value.span().start, unknown("platoon entry", key, known.iter().copied())));
                };
                counts.insert(k, count(doc, &Some(value.clone()), key, 0, 20, 0)?);
            }
        }
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
