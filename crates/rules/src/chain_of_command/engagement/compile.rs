//! A Chain of Command engagement scenario read and set up into a [`Skirmish`] before
//! the first Phase: its forces, units and settings checked where they stand, the hand
//! of Command Dice by Force Morale (7.1) and every fire compiled (CoC-E1).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use num_bigint::BigUint;
use num_traits::Zero;
use serde::Deserialize;
use toml::Spanned;

use super::{Command, Entry, HandSize, INCHES, KINDS, Kind, Skirmish, field_bound};
use crate::chain_of_command::command_dice::{Hand, PhaseDice, Policy};
use crate::chain_of_command::scenario::{MOST_DICE, MOST_FIGURES, RawWeaponUse, base_firepower, fire_at, platoon};
use crate::chain_of_command::settings::{Rally, RawSettings, Settings};
use crate::chain_of_command::shooting::{Fire, Firepower, QUALITIES, Unit, Volley};
use crate::chain_of_command::tables::Tables;
use crate::engagement::scenario::{self, NoSupport, read};
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Engagement, SIDES, enemy};
use crate::setup::{choice, count};
use combat_odds_core::dice::Ratio;
use combat_odds_core::document::Document;
use combat_odds_core::error::{Result, unknown};

/// A unit entry as a scenario writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnit {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    kind: Spanned<String>,
    quality: Option<Spanned<String>>,
    figures: Spanned<i64>,
    shock: Option<Spanned<i64>>,
    cover: Spanned<String>,
    firepower: Option<Spanned<i64>>,
    #[serde(default)]
    weapons: Vec<RawWeaponUse>,
    range_bands: Spanned<BTreeMap<String, Spanned<f64>>>,
}

scenario::unit_entry!(RawUnit);

/// A side's force: its Force Morale and its hand of Command Dice.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawForce {
    name: Spanned<String>,
    force_morale: Option<Spanned<i64>>,
    #[serde(default)]
    red_dice: bool,
    #[serde(default)]
    elite: bool,
    policy: Option<Spanned<String>>,
    leaders: Option<BTreeMap<String, Spanned<i64>>>,
}

scenario::company_entry!(RawForce);

/// The rest of the document an engagement reads: the settings.
#[derive(Deserialize)]
pub(super) struct RawRest {
    #[serde(default)]
    settings: RawSettings,
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
pub(super) fn engagement(doc: &Document, tables: &Tables) -> Result<(Engagement<Skirmish>, Vec<String>)> {
    let setup = read::<RawUnit, RawForce, NoSupport>(doc, INCHES)?;
    let rest: RawRest = doc.parse()?;
    let settings = Settings::resolve(doc, &rest.settings, "engagement", &tables.shooting)?;
    let Settings { wiped_out_after_breaking, rally, .. } = settings;
    let t = &tables.shooting;
    let mut notes = vec![format!(
        "one turn is one Phase: the active side rolls its Command Dice, its activated Teams and Sections fire in the order listed, and its 6s say who takes the next Phase; the {} side takes Phase 1; range {}",
        setup.layout.sides[setup.first].name,
        setup.schedule.describe(INCHES)
    )];
    let bands: Vec<&str> = t.to_hit.iter().map(|(b, ..)| b.as_str()).collect();
    let covers: Vec<&str> = t.effect.iter().map(|(c, ..)| c.as_str()).collect();

    // Unit entries: kind, figures, firepower, quality, cover and range bands.
    let mut entries: [Vec<Entry>; 2] = [Vec::new(), Vec::new()];
    let mut quality = [Vec::new(), Vec::new()];
    let mut cover = [Vec::new(), Vec::new()];
    let mut edges: [Vec<Vec<f64>>; 2] = [Vec::new(), Vec::new()];
    for s in SIDES {
        for raw in &setup.units[s] {
            let (at, u) = (raw.span().start, raw.get_ref());
            let name = u.name.get_ref();
            let kind =
                if choice(doc, Some(&u.kind), "unit kind", &KINDS, "")? == "team" { Kind::Team } else { Kind::Section };
            let q = choice(doc, u.quality.as_ref(), "troop quality", &QUALITIES, "regular")?;
            let c = choice(doc, Some(&u.cover), "cover", &covers, "")?;
            let figures = count(doc, &Some(u.figures.clone()), "figures", 1, MOST_FIGURES, 1)?;
            let shock = count(doc, &u.shock, "shock", 0, MOST_DICE, 0)?;
            let mut weapon_notes = Vec::new();
            let base = base_firepower(doc, t, Some(at), &u.firepower, &u.weapons, &mut weapon_notes)?;
            let mut edge = vec![f64::NAN; bands.len()];
            for (key, value) in u.range_bands.get_ref() {
                let Some(b) = bands.iter().position(|b| b == key) else {
                    return Err(doc.error_at(value.span().start, unknown("range band", key, bands.iter().copied())));
                };
                let v = *value.get_ref();
                if !(v.is_finite() && v >= 0.0) {
                    return Err(
                        doc.error_at(value.span().start, format!("range band `{key}` must reach 0 {INCHES} or more"))
                    );
                }
                edge[b] = v;
            }
            if let Some(missing) = edge.iter().position(|e| e.is_nan()) {
                return Err(doc.error_at(
                    u.range_bands.span().start,
                    format!(
                        "unit `{name}`: `range_bands` gives no `{}`; give the outer edge in inches of every to-hit band ({}), none being found in any source",
                        bands[missing],
                        bands.join(", ")
                    ),
                ));
            }
            if let Some(w) = edge.windows(2).position(|w| w[1] < w[0]) {
                return Err(doc.error_at(
                    u.range_bands.span().start,
                    format!(
                        "unit `{name}`: range band `{}` ends at {} {INCHES}, short of `{}` at {} {INCHES}; each band must reach at least as far as the one before",
                        bands[w + 1],
                        edge[w + 1],
                        bands[w],
                        edge[w]
                    ),
                ));
            }
            notes.push(format!(
                "{}: {} x {} ({kind:?}), {figures} figures, {shock} Shock, {q}, {} cover, {base} firepower dice; {}",
                setup.layout.sides[s].name,
                u.count.as_ref().map_or(1, |c| *c.get_ref()),
                name,
                t.effect[covers.iter().position(|x| *x == c).expect("a listed cover")].1,
                bands.iter().zip(&edge).map(|(b, e)| format!("{b} to {e} {INCHES}")).collect::<Vec<_>>().join(", ")
            ));
            notes.extend(weapon_notes);
            entries[s].push(Entry { kind, base, start: Unit { figures, shock } });
            quality[s].push(QUALITIES.iter().position(|x| *x == q).expect("a listed quality"));
            cover[s].push(covers.iter().position(|x| *x == c).expect("a listed cover"));
            edges[s].push(edge);
        }
    }

    // Each (firer, target, range): the band the range falls in, the to-hit column by
    // the setting, and the target's cover; ranked by the chance one volley from fresh
    // firers Breaks or wipes out a fresh target.
    let firepower = Firepower::new(t, settings.pinned_effects, settings.halves_round_up);
    let thresholds = t.thresholds[settings.thresholds];
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        INCHES,
        (|s, g| setup.units[s][g].span().start, |_, _| false),
        |s, g, tg, r| {
            let range = setup.schedule.ranges[r];
            let Some(band) = edges[s][g].iter().position(|e| range <= *e) else { return Ok(None) };
            let e = enemy(s);
            let column = if settings.to_hit_by_target { quality[e][tg] } else { quality[s][g] };
            let target = entries[e][tg].start;
            let fire =
                fire_at(t, &settings, band, column, entries[s][g].base, cover[e][tg], target.figures, target.shock);
            let weights = fire.effect_dist_of(entries[s][g].base, fire.cover_of(&target));
            let (mut out, mut total) = (BigUint::zero(), BigUint::zero());
            for ((shock, kills), w) in weights {
                let after = Fire::after(&target, &Volley { hits: shock + kills, shock, kills });
                if after.figures == 0 || thresholds.broken.reached(after.figures, after.shock) {
                    out += &w;
                }
                total += w;
            }
            Ok(Some((fire, Ratio::from_big(out, total).to_f64())))
        },
    )?;
    let targeting = Targeting::new(setup.targets, &fires);

    // Forces: Force Morale, hand, leaders, policy.
    let levels = &tables.dice_by_force_morale;
    let highest = levels.levels.iter().map(|(fm, _)| *fm).max().expect("the dice table lists levels");
    let mut start = [0; 2];
    let mut command = Vec::new();
    for s in SIDES {
        let side = &setup.layout.sides[s];
        let force = match setup.companies[s].as_slice() {
            [] => {
                return Err(doc.error(format!(
                    "side `{}` has no force: add one [[side.company]] with its `force_morale` (1 to {highest}) and Command Dice",
                    side.name
                )));
            }
            [one] => one,
            [_, second, ..] => {
                return Err(doc.error_at(
                    second.get_ref().name.span().start,
                    format!(
                        "side `{}`: a Chain of Command side is one force with one Force Morale and one hand of Command Dice; list one [[side.company]]",
                        side.name
                    ),
                ));
            }
        };
        let (at, f) = (force.span().start, force.get_ref());
        let Some(fm) = &f.force_morale else {
            return Err(doc.error_at(at, format!("force `{}` needs `force_morale` (1 to {highest})", f.name.get_ref())));
        };
        let fm_value = *fm.get_ref();
        let level = u32::try_from(fm_value).ok().filter(|l| levels.dice_at(*l).is_some()).ok_or_else(|| {
            let lowest = levels.levels.iter().map(|(fm, _)| *fm).min().expect("listed");
            doc.error_at(
                fm.span().start,
                format!("force_morale = {fm_value}: dice_by_force_morale.toml lists levels {lowest} to {highest}"),
            )
        })?;
        let policy = choice(doc, f.policy.as_ref(), "allocation policy", &Policy::NAMES, "max_senior")?;
        let policy = Policy::named(policy).expect("a listed policy");
        let units = &entries[s];
        let n_of = |k: Kind| side.group_of.iter().filter(|&&g| units[g].kind == k).count();
        let (sections, teams) = (n_of(Kind::Section), n_of(Kind::Team));
        let mut leaders = match &f.leaders {
            None => {
                let defaults = [("senior_leader", 1), ("junior_leader", sections as i64)];
                let raw = defaults.iter().map(|(k, n)| (k.to_string(), Spanned::new(0..0, *n))).collect();
                platoon(doc, tables, Some(raw))?
            }
            Some(raw) => {
                if let Some((key, v)) = raw.iter().find(|(k, _)| k.as_str() == "sections" || k.as_str() == "teams") {
                    return Err(doc.error_at(
                        v.span().start,
                        format!("`{key}` in `leaders`: the force's Sections and Teams are its [[side.unit]] entries; list only Leaders here"),
                    ));
                }
                platoon(doc, tables, Some(raw.clone()))?
            }
        };
        let described: Vec<String> =
            leaders.leaders.iter().filter(|(_, n)| *n > 0).map(|(k, n)| format!("{n} {k}")).collect();
        notes.push(format!(
            "{}: Force Morale {level}; {}{}{}; policy {}; leaders {} (never hit: no source gives Leader casualties)",
            side.name,
            describe_dice(levels, level),
            if f.red_dice { ", the Red Dice" } else { "" },
            if f.elite { ", Elite" } else { "" },
            policy.name(),
            described.join(", ")
        ));
        // One hand per distinct size at the levels this force can reach (Force Morale
        // only falls), each for every count of Sections and Teams able to act.
        let mut by_level = vec![None; level as usize + 1];
        let mut sizes: Vec<(u32, HandSize)> = Vec::new();
        for l in 0..=level {
            let Some(dice) = levels.dice_at(l) else { continue };
            let i = match sizes.iter().position(|(d, _)| *d == dice) {
                Some(i) => i,
                None => {
                    let cap = dice as usize + usize::from(f.red_dice);
                    let (s_max, t_max) = (sections.min(cap), teams.min(cap));
                    let hand = Hand { dice: dice as u8, red_dice: f.red_dice, elite: f.elite };
                    let mut phases = Vec::new();
                    for sc in 0..=s_max {
                        for tc in 0..=t_max {
                            leaders.sections = sc as u32;
                            leaders.teams = tc as u32;
                            phases.push(PhaseDice::new(tables.dice.clone(), hand, &leaders, policy));
                        }
                    }
                    let exact = phases.iter().map(|_| OnceLock::new()).collect();
                    sizes.push((dice, HandSize { s_max, t_max, phases, exact }));
                    sizes.len() - 1
                }
            };
            by_level[l as usize] = Some(i);
        }
        start[s] = level;
        command.push(Command { by_level, sizes: sizes.into_iter().map(|(_, h)| h).collect() });
    }

    // Setbacks: a Team or Section Breaking or wiped out (setbacks.toml).
    let rows = &tables.force_morale.setbacks.rows;
    let row = |event: &str| -> Result<[i32; 6]> {
        let r = rows.iter().find(|r| r.event == event).ok_or_else(|| {
            doc.error(format!("an engagement needs setback `{event}` of setbacks.toml, which the tables in use lack"))
        })?;
        r.known().ok_or_else(|| {
            doc.error(format!(
                "an engagement rolls setback `{event}`, and a cell of its row is \"?\" (cut off in the source); supply it through a table override of chain-of-command/setbacks.toml"
            ))
        })
    };
    let setbacks = [[row("team_breaks")?, row("team_wiped_out")?], [row("section_breaks")?, row("section_wiped_out")?]];
    notes.push(format!(
        "a Team or Section that Breaks or is wiped out rolls its setback on its force's Force Morale{}; a force at Force Morale 0 is broken",
        if wiped_out_after_breaking { " (a Broken one wiped out later rolls again)" } else { " (once: a Broken one wiped out later rolls nothing more)" }
    ));
    notes.push(match rally {
        Rally::Never => "no Leader rallies (rally = \"never\"): Shock stays, so Pinned and Broken last".to_string(),
        r => format!(
            "Leaders' Orders rally one point of Shock each (7.5.2), {}; Orders left after firing rally the rest, Broken units first, then Pinned, then any Shock",
            match r {
                Rally::BrokenFirst => "Broken units first, before anyone fires, until no longer Broken",
                Rally::PinnedFirst => "Broken then Pinned units first, before anyone fires, until no longer Pinned",
                _ => "only with Orders no unit needed to fire",
            }
        ),
    });
    notes.push(
        "not played: Teams sharing a Section's Shock (no Team is placed in a Section: write a Section as one `kind = \"section\"` unit), Overwatch, grenades and Section anti-tank weapons, transferring figures, Scout Teams, moving (CoC-E11)".to_string(),
    );
    let [c0, c1]: [Command; 2] = command.try_into().unwrap_or_else(|_| unreachable!("two sides"));
    let bound = field_bound(&entries, &setup.layout, &start, &thresholds, rally != Rally::Never, setup.turns);
    let battle = Skirmish {
        first: setup.first,
        layout: setup.layout,
        schedule: setup.schedule,
        entries,
        start,
        command: [c0, c1],
        fires,
        targeting,
        firepower,
        thresholds,
        sixes: tables.dice.sixes.clone(),
        setbacks,
        wiped_out_after_breaking,
        rally,
        bound,
    };
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

/// "5 Command Dice (4 below Force Morale 6)": the dice of a level and below.
pub(super) fn describe_dice(levels: &crate::chain_of_command::dice_tables::DiceByForceMorale, level: u32) -> String {
    let at = levels.dice_at(level).unwrap_or(0);
    let fewer: Vec<String> =
        levels.levels.iter().filter(|(fm, d)| *fm < level && *d != at).map(|(fm, d)| format!("{d} at {fm}")).collect();
    if fewer.is_empty() { format!("{at} Command Dice") } else { format!("{at} Command Dice ({})", fewer.join(", ")) }
}
