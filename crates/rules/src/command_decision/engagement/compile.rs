//! An engagement scenario read and compiled into a [`CdBattle`] before the first turn:
//! its units, companies, orders and settings checked where they stand (Orders Summary,
//! CD-E13), every shot compiled through the one path a single fire takes (seed 000
//! "Combat"), and each `[[side.battery]]` through the one an indirect fire takes
//! (CD-E14). Readings CD-E1 to CD-E14.

use serde::Deserialize;
use toml::Spanned;

use super::batteries::{Attacks, Battery, MAX_BATTERIES};
use super::close_assault::MAX_CONTACT_STANDS;
use super::fire::{Shot, Variant};
use super::morale::MoraleChart;
use super::orders::{FirePhase, Order, Rally, weapon_line};
use super::{CdBattle, INCHES, Kind, MAX_COMPANIES};
use crate::command_decision::catalogue::{Afv, AntiArmour, Catalogue, RawVehicle, RawWeapon, Weapon};
use crate::command_decision::quality::Quality;
use crate::command_decision::scenario::{
    RawArtillery, RawFirer, RawTarget, ScenarioFile, direct_fire_resolution, indirect_fire_resolution,
};
use crate::command_decision::settings::{
    DemoralizedCompanies, RawSettings, Settings, ShakenCompanies, StationaryPersonnel,
};
use crate::command_decision::tables::{HitResult, Tables};
use crate::engagement::scenario::{self};
use crate::engagement::target::{Fires, Targeting};
use crate::engagement::{Engagement, SIDES, enemy};
use crate::setup::{choice, entry, named};
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::error::unknown;
use combat_odds_core::tables::Side;

/// The target modifiers that put personnel in cover, for suppression of vehicles.
const COVERS: [&str; 4] = ["light_cover", "medium_cover", "hard_cover", "fortification"];

/// The target modifiers a stand moving in cover loses to opportunity fire unless
/// under a Cautious Advance order (seed 000 "Opportunity Fire").
const MOVING_LOSES: [&str; 5] = ["light_cover", "medium_cover", "hard_cover", "fortification", "afv_hull_down_or_bua"];

/// Modifiers the engagement sets from a stand's condition, never named by the user.
const FROM_CONDITION: [(&str, &str); 8] = [
    ("pinned", "the company's morale status"),
    ("suppressed", "close proximity to enemy personnel in cover, and prep, opportunity and indirect fire"),
    ("pinned_personnel", "the target company's morale status"),
    ("rally_regroup", "the Rally orders of the `demoralized_companies` and `shaken_companies` settings"),
    ("hasty_advance", "the unit's `order`"),
    ("disengage", "the unit's `order`"),
    ("take_command", "the unit's `order`"),
    ("op_fire", "the unit's `fires_in`"),
];

/// Morale rows the engagement applies by itself.
const AUTOMATIC_MORALE: [(&str, &str); 7] = [
    ("pinned", "the company's status"),
    ("shaken", "the company's status"),
    ("demoralized", "the company's status"),
    ("stand_forced_back", "stands forced back this turn"),
    ("stand_eliminated", "stands eliminated this turn"),
    ("enemy_personnel_within_12", "the range and the enemy's stands"),
    ("enemy_afv_within_12", "the range and the enemy's stands"),
];

/// A unit entry: stands that fire as a `[[firer]]` and are fired at as a `[target]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStand {
    name: Spanned<String>,
    count: Option<Spanned<i64>>,
    company: Option<Spanned<String>>,
    quality: Spanned<String>,
    weapon: Option<Spanned<String>>,
    weapon_data: Option<Spanned<RawWeapon>>,
    mount: Option<Spanned<String>>,
    role: Option<Spanned<String>>,
    #[serde(default)]
    firing_modifiers: Vec<Spanned<String>>,
    vehicle: Option<Spanned<String>>,
    vehicle_data: Option<RawVehicle>,
    aspect: Option<Spanned<String>>,
    #[serde(default)]
    target_modifiers: Vec<Spanned<String>>,
    order: Option<Spanned<String>>,
    fires_in: Option<Spanned<String>>,
}

scenario::unit_entry!(RawStand);

/// A company: its morale number and the morale modifiers that hold all engagement.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCompany {
    name: Spanned<String>,
    morale: Spanned<i64>,
    #[serde(default)]
    modifiers: Vec<Spanned<String>>,
}

scenario::company_entry!(RawCompany);

#[derive(Deserialize)]
struct SettingsOnly {
    #[serde(default)]
    settings: RawSettings,
}

/// The engagement a scenario sets up, with the notes its set-up wrote.
pub(super) fn engagement(
    doc: &Document,
    tables: &Tables,
    catalogue: &Catalogue,
) -> Result<(Engagement<CdBattle>, Vec<String>)> {
    let setup = scenario::read::<RawStand, RawCompany, RawArtillery>(doc, INCHES)?;
    if let Some(at) = setup.first_at {
        return Err(doc.error_at(
            at,
            "Command Decision fire is simultaneous (seed 000 \"Combat\"): no side plays first; leave `first` out",
        ));
    }
    let raw_settings = doc.parse::<SettingsOnly>()?.settings;
    let settings = Settings::resolve(doc, &raw_settings, "engagement")?;
    let mut notes = vec![format!(
        "{} turns at most, range {}; targets: {}; ends when a side is {}",
        setup.turns,
        setup.schedule.describe(INCHES),
        setup.targets,
        match (setup.end.eliminated, setup.end.broken) {
            (true, true) => "eliminated or broken (every company demoralized or gone)",
            (true, false) => "eliminated",
            _ => "broken (every company demoralized or gone)",
        }
    )];
    notes.push(
        "not played (CD-E1): movement (the range schedule stands for it) and small-arms hits spread over the \
         4-inch target area (each stand fires at one stand)"
            .to_string(),
    );
    let chart = &tables.morale_modifiers;
    let automatic: Vec<(&str, &str)> = AUTOMATIC_MORALE.to_vec();
    let mut morale: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        let name = &setup.layout.sides[side].name;
        if setup.companies[side].is_empty() {
            return Err(doc.error(format!(
                "side `{name}`: Command Decision companies check morale; add a [[side.company]] with `name` and `morale`"
            )));
        }
        if setup.companies[side].len() > MAX_COMPANIES {
            return Err(doc.error(format!("side `{name}` has more than {MAX_COMPANIES} companies")));
        }
        for c in &setup.companies[side] {
            let c = c.get_ref();
            let base = *c.morale.get_ref();
            if !(0..=20).contains(&base) {
                return Err(doc.error_at(
                    c.morale.span().start,
                    format!("morale {base} is not a company morale number (0 to 20)"),
                ));
            }
            let mut total = base as i32;
            crate::setup::distinct(doc, &c.modifiers)?;
            for m in &c.modifiers {
                total += named(doc, m, &[chart], &automatic, None)?.value(1);
            }
            morale[side].push(total);
        }
    }
    let mut kinds: [Vec<Kind>; 2] = [Vec::new(), Vec::new()];
    for side in SIDES {
        for raw in &setup.units[side] {
            let raw = raw.get_ref();
            for m in raw.firing_modifiers.iter().chain(&raw.target_modifiers) {
                if let Some((_, from)) = FROM_CONDITION.iter().find(|(n, _)| n == m.get_ref()) {
                    return Err(doc.error_at(
                        m.span().start,
                        format!("`{}` is set by the engagement from {from}; leave it out", m.get_ref()),
                    ));
                }
            }
            let vehicle = vehicle_of(doc, catalogue, raw)?;
            let covered = raw.target_modifiers.iter().any(|m| COVERS.contains(&m.get_ref().as_str()));
            let assaults = vehicle.is_none() && raw.mount.as_ref().is_none_or(|m| m.get_ref() == "personnel");
            let (order, early) = order_of(doc, catalogue, raw, assaults)?;
            kinds[side].push(Kind {
                vehicle: vehicle.is_some(),
                afv: vehicle.is_some_and(|a| a != Afv::Soft),
                personnel_in_cover: vehicle.is_none() && covered,
                assaults,
                order,
                early,
            });
        }
    }
    let early_fire = kinds.iter().flatten().any(|k| k.early.is_some());
    // Prep, opportunity and indirect fire suppress; without them only vehicles are.
    let suppressible = SIDES.map(|side| {
        let foe = enemy(side);
        kinds[foe].iter().any(|k| k.early.is_some()) || !setup.supports[foe].is_empty()
    });
    let range_at = doc.parse::<RangeAt>()?.engagement.range.span();
    let mut shot_notes = Vec::new();
    // A stand under an order that fires only in contact, in an engagement that never
    // closes to it, holds its fire: said, not refused.
    let contact = setup.schedule.ranges.contains(&0.0);
    // A weapon with an asterisk after its ROF under an order that moves it is never
    // stationary in the previous Movement Phase: it never fires (seed 000, Restrictions).
    let mut towed_moving = [Vec::new(), Vec::new()];
    for side in SIDES {
        for (g, kind) in kinds[side].iter().enumerate() {
            let asterisk = weapon_of(doc, catalogue, setup.units[side][g].get_ref())?.stationary_only;
            towed_moving[side].push(asterisk && kind.order.moves());
        }
    }
    let holds_fire = |side: usize, g: usize| (kinds[side][g].order.contact_only() && !contact) || towed_moving[side][g];
    for side in SIDES {
        for (g, kind) in kinds[side].iter().enumerate().filter(|&(g, _)| holds_fire(side, g)) {
            let name = &setup.layout.sides[side].groups[g].name;
            notes.push(if towed_moving[side][g] {
                format!(
                    "{name} has an asterisk after its weapon's ROF, so it may not fire unless stationary in the \
                     previous Movement Phase (seed 000, Restrictions), and its `{}` order moves it: it holds its fire",
                    kind.order.name()
                )
            } else {
                format!(
                    "{name} fires only in physical contact under its `{}` order (Orders Summary \"*\"), and this \
                     engagement never closes to contact: it holds its fire",
                    kind.order.name()
                )
            });
        }
    }
    let fires = Fires::build(
        doc,
        (&setup.layout, &setup.schedule),
        INCHES,
        (|side, g| setup.units[side][g].span().start, holds_fire),
        |side, firer, target, r| {
            let range = setup.schedule.ranges[r];
            let f = setup.units[side][firer].get_ref();
            let t = setup.units[enemy(side)][target].get_ref();
            let (kind, aim) = (kinds[side][firer], kinds[enemy(side)][target]);
            // "May only fire if in physical contact" (Orders Summary "*").
            if (kind.order.contact_only() && range > 0.0) || towed_moving[side][firer] {
                return Ok(None);
            }
            let weapon = weapon_line(weapon_of(doc, catalogue, f)?, kind);
            // In contact, personnel stands close assault with their "C" or closest band
            // (CD-E12); vehicles fire at range 0 as at any other.
            let close_assault = range == 0.0 && kind.assaults;
            let band = match close_assault {
                true => weapon.bands.first(),
                // Beyond extreme range the fire has no effect: the stand cannot engage.
                false => weapon.bands.iter().find(|b| b.range.is_some_and(|max| range <= max)),
            };
            let Some(band) = band else {
                return Ok(None);
            };
            // A class hits AFVs only in close assault (CD-E8).
            if band.anti_armour == AntiArmour::A && kinds[enemy(side)][target].afv && !close_assault {
                return Ok(None);
            }
            // Conditions that do not apply to this pair (suppression of personnel, a
            // pinned vehicle target) are set up as the same fire without them.
            let applies = 1 | usize::from(kind.vehicle || suppressible[side]) << 1 | usize::from(!aim.vehicle) << 2;
            // The fire in one phase under one condition (see [`Shot`]).
            let compile = |phase: FirePhase, variant: usize| -> Result<(Variant, Vec<String>)> {
                let v = variant & applies;
                let at = f.name.span();
                let mark = |name: &str| Spanned::new(at.clone(), name.to_string());
                let mut firer = firer_of(f);
                firer.modifiers.extend((v & 1 != 0).then(|| mark("pinned")));
                firer.modifiers.extend((v & 2 != 0).then(|| mark("suppressed")));
                // A rallying stand fires only in contact, at the Orders Summary's -2,
                // which stands in for its own order's.
                match variant & 8 != 0 {
                    true => firer.modifiers.push(mark("rally_regroup")),
                    false => firer.modifiers.extend(kind.order.general_fire_modifier().map(mark)),
                }
                let mut aim = target_of(t, aim.order, phase, settings.stationary_personnel);
                aim.modifiers.extend((v & 4 != 0).then(|| mark("pinned_personnel")));
                let file = ScenarioFile {
                    settings: raw_settings.clone(),
                    phase: Some(Spanned::new(at.clone(), phase.name().to_string())),
                    range: (!close_assault).then(|| Spanned::new(range_at.clone(), range)),
                    close_assault: close_assault.then(|| Spanned::new(range_at.clone(), true)),
                    firer: Some(Spanned::new(at.clone(), vec![firer])),
                    target: Some(Spanned::new(t.name.span(), aim)),
                    ..ScenarioFile::default()
                };
                let (fire, lines) = direct_fire_resolution(doc, "engagement", file, tables, catalogue)?;
                let variant = Variant::new(fire).map_err(|_| {
                    doc.error_at(
                        f.name.span().start,
                        format!("unit `{}`: too many dice for one fire", f.name.get_ref()),
                    )
                })?;
                Ok((variant, lines))
            };
            let note = |phase: FirePhase, lines: Vec<String>, notes: &mut Vec<String>| {
                let at = if close_assault { "close assault".to_string() } else { format!("{range} {INCHES}") };
                let phase =
                    if phase == FirePhase::General { String::new() } else { format!(", {} fire", phase.name()) };
                notes.push(format!("{} at {}, {at}{phase}:", f.name.get_ref(), t.name.get_ref()));
                notes.extend(lines.into_iter().skip(1).map(|l| format!("  {l}")));
            };
            let conditions = if close_assault { 16 } else { 8 };
            let mut general = Vec::with_capacity(conditions);
            for variant in 0..conditions {
                let (fire, lines) = compile(FirePhase::General, variant)?;
                if variant == 0 {
                    note(FirePhase::General, lines, &mut shot_notes);
                }
                general.push(fire);
            }
            // Early fire (CD-E13): never in contact (close assault is general fire), prep
            // fire only with H class or HC, and no opportunity fire at a disengaging stand.
            let early = match kind.early {
                Some(phase)
                    if range > 0.0
                        && (phase != FirePhase::Prep || band.anti_armour.suppresses())
                        && !(phase == FirePhase::Opportunity && aim.order == Order::Disengage) =>
                {
                    let mut fires = Vec::with_capacity(4);
                    for variant in (0..8).step_by(2) {
                        let (fire, lines) = compile(phase, variant)?;
                        if variant == 0 {
                            note(phase, lines, &mut shot_notes);
                        }
                        fires.push(fire);
                    }
                    Some(fires)
                }
                _ => None,
            };
            let p_kill = general[0].exact.probability(|(r, _)| *r == HitResult::Eliminated).to_f64();
            Ok(Some((Shot { general, early }, p_kill)))
        },
    )?;
    notes.extend(shot_notes);
    if setup.schedule.ranges.contains(&0.0) {
        notes.push(
            "at 0 in. the sides are in contact: personnel stands close assault, one to an AFV, and demoralized \
             companies in contact with unpinned enemy personnel or AFVs are eliminated (CD-E12)"
                .to_string(),
        );
        if let Some(side) = setup.layout.sides.iter().find(|s| s.units() > MAX_CONTACT_STANDS) {
            return Err(doc.error(format!(
                "side `{}` has {} stands; a fight that reaches contact (range 0) takes at most {MAX_CONTACT_STANDS} a side",
                side.name,
                side.units()
            )));
        }
    }
    let batteries = SIDES.map(|side| {
        setup.supports[side]
            .iter()
            .map(|b| battery(doc, (tables, catalogue, &raw_settings), (&setup, &kinds), side, b, &mut notes))
            .collect::<Result<Vec<_>>>()
    });
    let [a, b] = batteries;
    let batteries = [a?, b?];
    for side in SIDES {
        if batteries[side].len() > MAX_BATTERIES {
            return Err(doc.error(format!(
                "side `{}` calls on {} batteries; an engagement takes at most {MAX_BATTERIES} a side",
                setup.layout.sides[side].name,
                batteries[side].len()
            )));
        }
    }
    let targeting = Targeting::new(setup.targets, &fires);
    let most = setup.layout.sides.iter().map(|s| s.units()).max().unwrap_or(0);
    let battle = CdBattle {
        chart: MoraleChart::new(tables, most),
        layout: setup.layout,
        schedule: setup.schedule,
        fires,
        targeting,
        kinds,
        morale,
        rally: Rally {
            demoralized: settings.demoralized_companies == DemoralizedCompanies::Rally,
            shaken: settings.shaken_companies == ShakenCompanies::Rally,
        },
        batteries,
        early_fire,
    };
    Ok((Engagement::new(battle, setup.turns, setup.end), notes))
}

#[derive(Deserialize)]
struct RangeAt {
    engagement: RangeKey,
}

#[derive(Deserialize)]
struct RangeKey {
    range: Spanned<f64>,
}

/// The stand as a `[[firer]]` of one stand.
fn firer_of(s: &RawStand) -> RawFirer {
    RawFirer {
        name: Some(s.name.get_ref().clone()),
        weapon: s.weapon.clone(),
        weapon_data: s.weapon_data.clone(),
        quality: s.quality.clone(),
        stands: None,
        mount: s.mount.clone(),
        role: s.role.clone(),
        modifiers: s.firing_modifiers.clone(),
    }
}

/// The stand as a `[target]` of fire in `phase`. A personnel stand whose order holds
/// it still and whose modifiers name no cover is fired at in light cover under the
/// `light_cover` reading (CD-E11); it still does not suppress vehicles ([`Kind`] reads
/// the scenario's own modifiers). A stand moving in cover keeps its cover against
/// opportunity fire only under a Cautious Advance order (seed 000 "Opportunity Fire").
fn target_of(s: &RawStand, order: Order, phase: FirePhase, stationary: StationaryPersonnel) -> RawTarget {
    let mut modifiers = s.target_modifiers.clone();
    // A towed weapon is not a personnel stand (seed 000, Fundamentals: "Each vehicle or
    // towed weapon represents four to six actual vehicles or towed weapons. Each full
    // personnel stand represents from 40 to 60 men"): no light cover of its own (CD-E11).
    let towed = s.mount.as_ref().is_some_and(|m| m.get_ref() == "towed");
    let personnel = s.vehicle.is_none() && s.vehicle_data.is_none() && !towed;
    if phase == FirePhase::Opportunity && order.moves() && order != Order::CautiousAdvance {
        modifiers.retain(|m| !MOVING_LOSES.contains(&m.get_ref().as_str()));
    }
    let in_the_open = !modifiers.iter().any(|m| COVERS.contains(&m.get_ref().as_str()));
    if stationary == StationaryPersonnel::LightCover && personnel && in_the_open && !order.moves() {
        modifiers.push(Spanned::new(s.name.span(), "light_cover".to_string()));
    }
    as_target(s, false, modifiers)
}

/// The stand as a `[target]`, `moving` or not, with `modifiers`.
fn as_target(s: &RawStand, moving: bool, modifiers: Vec<Spanned<String>>) -> RawTarget {
    RawTarget {
        name: Some(s.name.get_ref().clone()),
        quality: s.quality.clone(),
        vehicle: s.vehicle.clone(),
        vehicle_data: s.vehicle_data.clone(),
        aspect: s.aspect.clone(),
        moving,
        modifiers,
        passengers: Vec::new(),
    }
}

/// The stand's weapon: from the catalogue or its inline data line.
fn weapon_of(doc: &Document, catalogue: &Catalogue, s: &RawStand) -> Result<Weapon> {
    match (&s.weapon, &s.weapon_data) {
        (Some(n), None) => Ok(entry(doc, n, "weapon", &catalogue.weapons, &catalogue.source)?.clone()),
        (None, Some(d)) => {
            d.get_ref().clone().resolve(&format!("{} weapon_data", s.name.get_ref()), doc, d.span().start)
        }
        _ => Err(doc.error_at(
            s.name.span().start,
            format!(
                "unit `{}`: give either `weapon` from the catalogue or a `weapon_data` table, not both or neither",
                s.name.get_ref()
            ),
        )),
    }
}

/// The stand's vehicle class, or `None` for personnel; checks its quality and aspect
/// too, so a typo is reported once, where it stands.
fn vehicle_of(doc: &Document, catalogue: &Catalogue, s: &RawStand) -> Result<Option<Afv>> {
    Quality::read(doc, &s.quality)?;
    choice(doc, s.aspect.as_ref(), "aspect", &["front", "flank"], "front")?;
    Ok(match (&s.vehicle, &s.vehicle_data) {
        (Some(n), None) => Some(entry(doc, n, "vehicle", &catalogue.vehicles, &catalogue.source)?.afv),
        (None, Some(d)) => Some(d.clone().resolve(&format!("{} vehicle_data", s.name.get_ref()), doc)?.afv),
        (None, None) => None,
        (Some(n), Some(_)) => {
            return Err(doc.error_at(
                n.span().start,
                format!("unit `{}`: give `vehicle` or `vehicle_data`, not both", s.name.get_ref()),
            ));
        }
    })
}

/// The stand's order and the phase before general fire it fires in (CD-E13), checked
/// against the Orders Summary and the prep fire rule.
fn order_of(doc: &Document, catalogue: &Catalogue, s: &RawStand, assaults: bool) -> Result<(Order, Option<FirePhase>)> {
    let name = choice(doc, s.order.as_ref(), "order", &Order::NAMES, "hold")?;
    let order = Order::ALL[Order::NAMES.iter().position(|n| *n == name).expect("a listed order")];
    let who = s.name.get_ref();
    if order.contact_only() && !assaults {
        let at = s.order.as_ref().map_or(0, |o| o.span().start);
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: a stand under `{name}` fires only in physical contact (Orders Summary \"Yes(-2)*\"), \
                 which an engagement plays as close assault by personnel stands; give it another order"
            ),
        ));
    }
    let phase = choice(doc, s.fires_in.as_ref(), "fires_in", &FirePhase::NAMES, "general")?;
    let phase = FirePhase::ALL[FirePhase::NAMES.iter().position(|n| *n == phase).expect("a listed phase")];
    let at = s.fires_in.as_ref().map_or(0, |f| f.span().start);
    if phase != FirePhase::General && order != Order::Hold {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: only stands under a Hold order fire in prep or opportunity fire (Orders Summary); \
                 set order = \"hold\" or leave `fires_in` out"
            ),
        ));
    }
    if phase == FirePhase::Opportunity && weapon_of(doc, catalogue, s)?.stationary_only {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: its weapon has an asterisk after its ROF, so it never fires in the Opportunity Fire \
                 Phase (seed 000, Restrictions); set fires_in = \"prep\" or leave it out"
            ),
        ));
    }
    if phase == FirePhase::Prep && !weapon_of(doc, catalogue, s)?.bands.iter().any(|b| b.anti_armour.suppresses()) {
        return Err(doc.error_at(
            at,
            format!(
                "unit `{who}`: prep fire always consists of H class or HC ammunition [13.1.1], and its weapon has \
                 none; set fires_in = \"opportunity\" or \"general\""
            ),
        ));
    }
    Ok((order, (phase != FirePhase::General).then_some(phase)))
}

/// Compiles a `[[side.battery]]` of `side`: the `[artillery]` of an `indirect_fire`
/// scenario with `under_burst`, its mission at each enemy entry under its burst,
/// through the one path every indirect fire takes (CD-E14).
fn battery(
    doc: &Document,
    (tables, catalogue, settings): (&Tables, &Catalogue, &RawSettings),
    (setup, kinds): (&scenario::Setup<RawStand, RawCompany, RawArtillery>, &[Vec<Kind>; 2]),
    side: usize,
    raw: &Spanned<RawArtillery>,
    notes: &mut Vec<String>,
) -> Result<Battery> {
    let foe = enemy(side);
    let entries = &setup.layout.sides[foe];
    let name = raw.get_ref().name.clone().unwrap_or_else(|| "battery".into());
    let Some(under) = &raw.get_ref().under_burst else {
        return Err(doc.error_at(
            raw.span().start,
            format!(
                "battery `{name}`: say which stands its burst covers with `under_burst`, the entries of side `{}`",
                entries.name
            ),
        ));
    };
    if under.get_ref().is_empty() {
        return Err(doc.error_at(
            under.span().start,
            format!(
                "battery `{name}`: `under_burst` names no unit entry; list the entries of side `{}` its burst covers",
                entries.name
            ),
        ));
    }
    let under = under.get_ref();
    for (i, n) in under.iter().enumerate() {
        if under[..i].iter().any(|m| m.get_ref() == n.get_ref()) {
            return Err(
                doc.error_at(n.span().start, format!("`{}` is under the burst once; name it once", n.get_ref()))
            );
        }
    }
    let artillery = RawArtillery { under_burst: None, ..raw.get_ref().clone() };
    let mut response = None;
    let mut under_burst = Vec::with_capacity(under.len());
    for entry in under {
        let names = entries.groups.iter().map(|g| g.name.as_str());
        let g = entries.groups.iter().position(|g| g.name == *entry.get_ref()).ok_or_else(|| {
            doc.error_at(
                entry.span().start,
                unknown(&format!("unit entry of side `{}`", entries.name), entry.get_ref(), names),
            )
        })?;
        let t = setup.units[foe][g].get_ref();
        let file = ScenarioFile {
            settings: settings.clone(),
            artillery: Some(Spanned::new(raw.span(), artillery.clone())),
            target: Some(Spanned::new(t.name.span(), mission_target_of(t, kinds[foe][g].order, tables))),
            ..ScenarioFile::default()
        };
        let (fire, lines) = indirect_fire_resolution(doc, "engagement", file, tables, catalogue)?;
        notes.push(format!("battery {name} at {}, under its burst:", t.name.get_ref()));
        notes.extend(lines.into_iter().map(|l| format!("  {l}")));
        let (arrives, fire) = fire.split_response();
        response = arrives;
        let fire = Attacks::new(fire)
            .map_err(|_| doc.error_at(raw.span().start, format!("battery `{name}`: too many dice for one mission")))?;
        under_burst.push((g, fire));
    }
    Ok(Battery { response, under_burst })
}

/// The stand as the `[target]` of an indirect fire mission: moving when its order
/// moves it (one attack a battery stand), with those of its modifiers the Indirect
/// Fire To-Hit Modifiers list (light cover and hull down change no burst value).
fn mission_target_of(s: &RawStand, order: Order, tables: &Tables) -> RawTarget {
    let idf = &tables.indirect_fire;
    let mut modifiers = s.target_modifiers.clone();
    modifiers.retain(|m| idf.rows().iter().any(|r| r.name == *m.get_ref() && r.side == Some(Side::Target)));
    as_target(s, order.moves(), modifiers)
}
