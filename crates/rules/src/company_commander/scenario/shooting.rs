//! Direct and indirect fire scenarios: each weapon a firer may bring to bear, its
//! to-hit roll with every modifier, and what a hit does (penetration against armour,
//! or strength against a soft target, then the cover save).

use crate::company_commander::catalogue::{Mode, Mount, Penetration, Stabiliser, Weapon};
use crate::company_commander::fire::{
    Candidate, Chain, Effect, FireAction, Made, Next, Roll, Step, Strike, Volley, WeaponChoice,
};
use crate::company_commander::settings::Between;
use crate::company_commander::tables::{HitKind, QUALITIES};
use crate::setup::{Sum, present};
use combat_odds_core::error::Result;

use super::{Ctx, Firer, ScenarioFile, Target, refuse_close_assault_key};

/// The dice after a hit, as chain steps from index 1, for a target that is not
/// suppressed (`false`) or is (`true`).
type OnHit = Box<dyn Fn(bool) -> Vec<Step>>;

impl Ctx<'_> {
    /// A direct or indirect fire action by one unit at one target.
    ///
    /// Infantry able to close assault "may only attack adjacent armoured units by a
    /// close assault" (seed 003 "Close assault"; "ZOC's"): such direct fire at range 1
    /// is refused, naming the close assault scenario that asks it (CC-19).
    pub(super) fn fire(&mut self, mut s: ScenarioFile, indirect: bool) -> Result<FireAction> {
        let kind = if indirect { "indirect_fire" } else { "direct_fire" };
        let range = self.range(&s, kind)?;
        let raw = present(self.doc, s.firer.take(), "[firer]", kind)?;
        if indirect {
            refuse_close_assault_key(self.doc, raw.get_ref(), kind)?;
        }
        let firer = self.firer(raw)?;
        let target = self.target(present(self.doc, s.target.take(), "[target]", kind)?, indirect, "target")?;
        if let Some(class) = firer.close_assault
            && range.0 == 1
            && target.armour.is_some()
            && !indirect
        {
            let class = &self.tables.close_assault.weapons[class];
            return Err(self.doc.error_at(
                range.1,
                format!(
                    "range 1 is adjacent, and {} is infantry able to close assault ({}), which may attack the adjacent armoured {} only by close assault (seed 003); ask it with kind = \"close_assault\" and [assault] weapon_class = \"{}\", or, if it cannot close assault (a gun or machine gun team), give the firer close_assault = \"none\"",
                    firer.label, class.label, target.label, class.name
                ),
            ));
        }
        self.fire_action(&firer, &target, range, indirect, None)
    }

    /// Every weapon of `firer` at `target`, in the order listed.
    pub(super) fn fire_action(
        &mut self,
        firer: &Firer,
        target: &Target,
        range: (u32, usize),
        indirect: bool,
        gate: Option<u32>,
    ) -> Result<FireAction> {
        self.notes.push(self.describe_target(target, !indirect));
        let volleys = self.volleys(firer, target, range, indirect, gate)?;
        Ok(self.action(volleys, target))
    }

    /// One volley per weapon of `firer` that fires, in the order listed. With a `gate`
    /// the first weapon's volley rolls the chance and the others follow it: the unit
    /// becomes a target once, with every weapon, or not at all.
    ///
    /// Direct fire weighs how the weapons are mounted (seed 003 "How to select the
    /// weapon or weapons to fire"; CC-18): a `front_arc` weapon fires only at a target
    /// in the firer's front arc, and of the weapons that share a `one_of` group and can
    /// fire at this target exactly one is made, chosen by the action itself
    /// ([`FireAction::choosing`]) from the target's state. A mounted weapon that cannot
    /// fire at this target (out of range, no penetration against armour) is set aside
    /// with a note, as the computer would pass it over; an unmounted one is refused, as
    /// the user chose it. Indirect fire takes every weapon ("all its indirect fire
    /// weapons will attack").
    pub(in crate::company_commander) fn volleys(
        &mut self,
        firer: &Firer,
        target: &Target,
        range: (u32, usize),
        indirect: bool,
        gate: Option<u32>,
    ) -> Result<Vec<Volley>> {
        let mut firing: Vec<&Weapon> = Vec::with_capacity(firer.weapons.len());
        let mut set_aside = Vec::new();
        for weapon in &firer.weapons {
            if !indirect && weapon.mount.front_arc && firer.target_in_front_arc == Some(false) {
                set_aside.push(format!("{} does not fire: the target is outside the firer's front arc", weapon.label));
            } else if !indirect && weapon.mount != Mount::default() && !self.can_fire(firer, weapon, target, range.0) {
                set_aside.push(format!("{} cannot fire at this target and is passed over", weapon.label));
            } else {
                firing.push(weapon);
            }
        }
        if firing.is_empty() {
            // Every weapon was set aside: the first one's own reason if it has one.
            if let Some(first) = firer.weapons.iter().find(|w| !w.mount.front_arc) {
                self.volley(firer, first, target, range, indirect, Made::Always)?;
            }
            return Err(self.doc.error(format!(
                "{}: no weapon can fire at {} ({}); give it a weapon that can",
                firer.label,
                target.label,
                set_aside.join("; ")
            )));
        }
        let groups: Vec<&str> = if indirect {
            Vec::new()
        } else {
            let mut named: Vec<&str> = firing.iter().filter_map(|w| w.mount.one_of.as_deref()).collect();
            named.sort_unstable();
            // A group is a choice only with two or more members that can fire.
            named.chunk_by(|a, b| a == b).filter(|c| c.len() > 1).map(|c| c[0]).collect()
        };
        let mut volleys = Vec::with_capacity(firing.len());
        for (i, weapon) in firing.iter().enumerate() {
            let made = match gate {
                None => Made::Always,
                Some(percent) if i == 0 => Made::OnChance(percent),
                Some(_) => Made::WithPrevious,
            };
            let mut volley = self.volley(firer, weapon, target, range, indirect, made)?;
            volley.one_of = weapon.mount.one_of.as_deref().and_then(|g| groups.iter().position(|&n| n == g));
            volleys.push(volley);
        }
        for why in set_aside {
            self.notes.push(format!("  {why}"));
        }
        // The notes show the choice from the target's starting state; the caller's
        // action makes it for every state.
        let weighed = if groups.is_empty() {
            Vec::new()
        } else {
            self.unchosen(volleys.clone(), target).choices(self.settings.weapon_choice)
        };
        for chosen in weighed {
            let group = firing[chosen.volley].mount.one_of.as_deref().unwrap_or_default();
            let odds = |c: &Candidate| {
                format!(
                    "{} (destroys {:.4}, damages {:.4})",
                    firing[c.volley].label,
                    c.destroy.to_f64(),
                    c.damage.to_f64()
                )
            };
            let chosen_one = chosen.candidates.iter().find(|c| c.volley == chosen.volley).map(odds).unwrap_or_default();
            let others: Vec<String> =
                chosen.candidates.iter().filter(|c| c.volley != chosen.volley).map(odds).collect();
            self.notes.push(format!(
                "  one_of \"{group}\" ({}): fires {chosen_one} rather than {}; weighed against the target as it stands when the firer shoots",
                match self.settings.weapon_choice {
                    WeaponChoice::MostLikelyToDestroy => "most likely to destroy",
                    WeaponChoice::MostLikelyToDamage => "most likely to damage",
                },
                others.join(", ")
            ));
        }
        Ok(volleys)
    }

    /// Whether `weapon` can make direct fire at `target` at `range` hexes: the checks
    /// [`Ctx::volley`] refuses a scenario for, asked instead of refused, so that an
    /// engagement fires only the weapons that reach and can harm (seed 003 "How to select
    /// the weapon or weapons to fire"), and a hull MG only into the front arc.
    pub(in crate::company_commander) fn can_fire(
        &self,
        firer: &Firer,
        weapon: &Weapon,
        target: &Target,
        range: u32,
    ) -> bool {
        let Some(mode) = &weapon.direct else { return false };
        let (min, max) = mode.range;
        let rof = if firer.moved { mode.moving_rof } else { mode.stationary_rof };
        range <= max
            && (range >= min || self.settings.inside_minimum_range)
            && !(weapon.mount.front_arc && firer.target_in_front_arc == Some(false))
            && rof > 0
            && (target.armour.is_none() || mode.anti_armour.is_some())
    }

    /// The fire action of `volleys` at `target`, one weapon of each group chosen for
    /// every state the target may start in.
    pub(in crate::company_commander) fn action(&self, volleys: Vec<Volley>, target: &Target) -> FireAction {
        self.unchosen(volleys, target).choosing(self.settings.weapon_choice)
    }

    /// The fire action of `volleys` at `target` with every volley made: the form in
    /// which each group's members are weighed.
    pub(super) fn unchosen(&self, volleys: Vec<Volley>, target: &Target) -> FireAction {
        FireAction::new(
            volleys,
            target.strength,
            target.suppressed,
            self.settings.suppressed_again,
            self.settings.suppression_timing,
        )
    }

    /// The target as the notes show it; `facing_matters` is false where the facing is not
    /// read (indirect fire strikes the rear armour, a close assault reads no armour).
    pub(super) fn describe_target(&self, t: &Target, facing_matters: bool) -> String {
        let status = if t.suppressed {
            "suppressed"
        } else if t.cautious {
            "cautious"
        } else {
            "not cautious"
        };
        let body = match t.armour {
            Some([f, s, r]) => format!(
                "armour front {f} / side {s} / rear {r}{}{}{}",
                if facing_matters { format!(", struck on the {}", t.facing.name()) } else { String::new() },
                if t.open_topped { ", open topped" } else { "" },
                if t.hull_down { ", hull down" } else { "" }
            ),
            None => format!(
                "non-armoured{}{}",
                if t.front_line { ", front line" } else { "" },
                t.cover.map_or(String::new(), |c| format!(", {}", c.replace('_', " ")))
            ),
        };
        format!("{}: {} quality, strength {}, {status}, {body}", t.label, QUALITIES[t.quality], t.strength)
    }

    /// One weapon's attacks: how many, and the chain of dice for each.
    pub(super) fn volley(
        &mut self,
        firer: &Firer,
        weapon: &Weapon,
        target: &Target,
        (range, range_at): (u32, usize),
        indirect: bool,
        made: Made,
    ) -> Result<Volley> {
        let doc = self.doc;
        let part = if indirect { "indirect" } else { "direct" };
        let Some(mode) = (if indirect { &weapon.indirect } else { &weapon.direct }) else {
            return Err(
                doc.error(format!("weapon `{}` has no {part} fire part; it cannot make {part} fire", weapon.name))
            );
        };
        let (min, max) = mode.range;
        if range > max {
            // In the catalogue's words: this reason reaches players beside their answer.
            let why =
                format!("range {range} hexes is beyond the {part} reach of the {}: {max} hexes at most", weapon.label);
            doc.beyond_reach(why.clone());
            return Err(doc.error_at(range_at, why));
        }
        if range < min && !self.settings.inside_minimum_range {
            return Err(doc.error_at(
                range_at,
                format!("range {range} hexes is inside `{}`'s minimum range of {min} (setting inside_minimum_range = cannot_fire)", weapon.name),
            ));
        }
        let attacks = if indirect {
            if firer.moved {
                return Err(doc.error(format!(
                    "{}: only direct fire is allowed by a unit that moves; remove `moved`",
                    firer.label
                )));
            }
            self.tables.attacks.indirect_fire_per_strength_point * firer.strength
        } else {
            let rof = if firer.moved { mode.moving_rof } else { mode.stationary_rof };
            if rof == 0 {
                return Err(doc.error(if firer.moved {
                    format!("`{}` cannot fire after moving (its moving rate of fire is 0); remove `moved`", weapon.name)
                } else {
                    format!(
                        "`{}` cannot fire from a halt (its stationary rate of fire is 0); set `moved = true` if it fires on the move, or give it a stationary_rof",
                        weapon.name
                    )
                }));
            }
            rof * firer.strength
        };
        let [unsuppressed, suppressed] = self.to_hit(firer, weapon, mode, target, range, indirect);
        // The effect's notes follow the weapon's line and its to-hit line, under it.
        let keep = self.notes.len();
        let effect = self.on_hit(weapon, mode, target, range, indirect)?;
        let effect_notes = self.notes.split_off(keep);
        let rate = if indirect {
            "indirect fire".to_string()
        } else if firer.moved {
            format!("moving ROF {}", mode.moving_rof)
        } else {
            format!("stationary ROF {}", mode.stationary_rof)
        };
        self.notes.push(format!(
            "{} with {}: {rate} x strength {} = {attacks} attacks at {range} hexes{}",
            firer.label,
            weapon.label,
            firer.strength,
            match made {
                Made::Always => String::new(),
                Made::OnChance(p) => format!(", made with a {p}% chance"),
                Made::WithPrevious => ", made when the weapon before it is".into(),
            },
        ));
        let hit = |sum: &Sum| {
            let score = sum.total();
            let th = &self.tables.to_hit;
            Step::new(th.die, Roll::ToHit, move |face| {
                let hits = face == th.always_hits || (face != th.always_misses && face as i32 <= score);
                if hits { Next::Roll(1) } else { Next::End(Strike::MISS) }
            })
        };
        let note_score = |sum: &Sum| {
            let th = &self.tables.to_hit;
            let faces = (1..=th.die.sides())
                .filter(|&f| f == th.always_hits || (f != th.always_misses && f as i32 <= sum.total()))
                .count();
            format!("{} ({faces} in {})", sum.describe(), th.die.sides())
        };
        if target.suppressed || unsuppressed.total() == suppressed.total() {
            self.notes
                .push(format!("  to hit: {}", note_score(if target.suppressed { &suppressed } else { &unsuppressed })));
        } else {
            self.notes.push(format!(
                "  to hit: {}; once suppressed: {}",
                note_score(&unsuppressed),
                note_score(&suppressed)
            ));
        }
        self.notes.extend(effect_notes);
        let chains = [false, true].map(|s| {
            let mut steps = vec![hit(if s { &suppressed } else { &unsuppressed })];
            steps.extend(effect(s));
            Chain::new(steps)
        });
        Ok(Volley { attacks, made, chains, one_of: None })
    }

    /// The ballistic score against the target unsuppressed and suppressed.
    pub(super) fn to_hit(
        &self,
        firer: &Firer,
        weapon: &Weapon,
        mode: &Mode,
        target: &Target,
        range: u32,
        indirect: bool,
    ) -> [Sum; 2] {
        let th = &self.tables.to_hit;
        let mut sum = Sum::new(th.ballistic_score);
        let add = |sum: &mut Sum, chart: &combat_odds_core::tables::ModifierTable, name: &str, count: i32| {
            sum.add(name, chart.get(name).value(count));
        };
        let all = &th.all_shooting;
        match QUALITIES[firer.quality] {
            "green" => add(&mut sum, all, "shooter_green", 1),
            "trained" => add(&mut sum, all, "shooter_trained", 1),
            "veteran" => add(&mut sum, all, "shooter_veteran", 1),
            "elite" => add(&mut sum, all, "shooter_elite", 1),
            _ => {}
        }
        match QUALITIES[target.quality] {
            "green" => add(&mut sum, all, "target_green", 1),
            "trained" => add(&mut sum, all, "target_trained", 1),
            "veteran" => add(&mut sum, all, "target_veteran", 1),
            "elite" => add(&mut sum, all, "target_elite", 1),
            _ => {}
        }
        if weapon.smart {
            add(&mut sum, all, "smart_weapon", 1);
        }
        if indirect {
            let ind = &th.indirect_fire;
            let visible = target.visible.expect("indirect fire targets say whether they are visible");
            add(&mut sum, ind, if visible { "target_visible" } else { "target_not_visible" }, 1);
            if target.cover.is_some() {
                add(&mut sum, ind, "target_in_cover", 1);
            }
        } else {
            let d = &th.direct_fire;
            if weapon.rangefinder > 0 {
                add(&mut sum, d, "rangefinder", weapon.rangefinder as i32);
            }
            if mode.range_modifiers
                && let Some(row) = &th.range_band(range, mode.range.1).modifier
            {
                add(&mut sum, d, row, 1);
            }
            if firer.moved || firer.changed_facing {
                add(&mut sum, d, "shooter_moved", 1);
                match weapon.stabiliser {
                    Stabiliser::First => add(&mut sum, d, "stabiliser_first_generation", 1),
                    Stabiliser::Second => add(&mut sum, d, "stabiliser_second_generation", 1),
                    Stabiliser::None => {}
                }
                if weapon.overworked {
                    add(&mut sum, d, "overworked_moved", 1);
                }
            }
            for m in &firer.modifiers {
                if m != "smart_weapon_vs_ew" || weapon.smart {
                    add(&mut sum, d, m, 1);
                }
            }
            if target.cover.is_some() || target.hull_down {
                add(&mut sum, d, "target_in_cover_or_hull_down", 1);
            }
        }
        let mut suppressed = sum.clone();
        add(&mut suppressed, all, "target_cautious_or_suppressed", 1);
        if target.cautious {
            sum = suppressed.clone();
        }
        [sum, suppressed]
    }

    /// What a hit rolls next against `target`.
    pub(super) fn on_hit(
        &mut self,
        weapon: &Weapon,
        mode: &Mode,
        target: &Target,
        range: u32,
        indirect: bool,
    ) -> Result<OnHit> {
        let t = self.tables;
        match target.armour {
            Some(armour) => {
                let Some(aa) = mode.anti_armour else {
                    return Err(self.doc.error(format!(
                        "`{}` has no penetration, so it cannot harm the armoured target {}; give the weapon `penetration` and `ap`, or fire at a non-armoured target",
                        weapon.name, target.label
                    )));
                };
                let av = self.penetration_at(aa.penetration, mode.range, range);
                let facing =
                    if indirect || weapon.top_attack { t.armour.top_attack_and_indirect_fire } else { target.facing };
                let dv = armour[facing as usize];
                let die = t.armour.defence_die;
                let kinds: Vec<HitKind> = (1..=die.sides()).map(|f| t.armour.hit_kind(av - dv - f as i32)).collect();
                let success = |vulnerable: bool| {
                    t.hit_damage.success_for(aa.ap + if vulnerable { t.hit_damage.vulnerable_ap_bonus } else { 0 })
                };
                let always_vulnerable = target.open_topped || target.vulnerable;
                let why = if indirect {
                    " (indirect fire)"
                } else if weapon.top_attack {
                    " (top attack)"
                } else {
                    ""
                };
                let count = |k: HitKind| kinds.iter().filter(|x| **x == k).count();
                self.notes.push(format!(
                    "  armour: AV {av} - DV ({} armour {dv}{why} + d{}) = NPV: penetrating {} in {n}, glancing {} in {n}",
                    facing.name(),
                    die.sides(),
                    count(HitKind::Penetrating),
                    count(HitKind::Glancing),
                    n = die.sides()
                ));
                let ap_note = |v: bool| {
                    format!(
                        "AP {} succeeds on d{} <= {}",
                        aa.ap + if v { t.hit_damage.vulnerable_ap_bonus } else { 0 },
                        t.hit_damage.die.sides(),
                        success(v)
                    )
                };
                self.notes.push(if always_vulnerable {
                    format!("  hit damage (vulnerable): {}", ap_note(true))
                } else {
                    format!("  hit damage: {}; once suppressed (vulnerable): {}", ap_note(false), ap_note(true))
                });
                let (glancing, penetrating, d100) = (t.hit_damage.glancing, t.hit_damage.penetrating, t.hit_damage.die);
                let successes = [success(always_vulnerable), success(true)];
                Ok(Box::new(move |suppressed: bool| {
                    let up_to = successes[usize::from(suppressed)];
                    let kinds = kinds.clone();
                    let damage = move |[ok, fail]: [Effect; 2]| {
                        Step::new(d100, Roll::Effect, move |f| {
                            Next::End(Strike::hit(if f <= up_to { ok } else { fail }))
                        })
                    };
                    vec![
                        Step::new(die, Roll::Effect, move |f| match kinds[f as usize - 1] {
                            HitKind::NoEffect => Next::End(Strike::hit(Effect::NoEffect)),
                            HitKind::Glancing => Next::Roll(2),
                            HitKind::Penetrating => Next::Roll(3),
                        }),
                        damage(glancing),
                        damage(penetrating),
                    ]
                }))
            }
            None => {
                let saves = &t.cover_saves.values;
                let rows: Vec<&str> =
                    target.front_line.then_some("front_line").into_iter().chain(target.cover).collect();
                let values: Vec<i32> = rows.iter().map(|r| saves.get(r).value(1)).collect();
                let save = if self.settings.cover_saves_add_up {
                    values.iter().sum()
                } else {
                    values.iter().copied().max().unwrap_or(0)
                };
                let (save_die, strength_die) = (t.cover_saves.die, t.weapon_strength.die);
                let reading = self.settings.weapon_strength.clone();
                let effects: Vec<Effect> =
                    (1..=strength_die.sides()).map(|f| reading.effect(f, mode.strength)).collect();
                let faces = |e: Effect| effects.iter().filter(|x| **x == e).count();
                self.notes.push(format!(
                    "  cover save: {} = {save}, a d{} at or under it ignores the hit; strength {} ({}): damaged {} in {n}, suppressed {} in {n}",
                    if rows.is_empty() { "none".to_string() } else { rows.join(" + ") },
                    save_die.sides(),
                    mode.strength,
                    reading.name,
                    faces(Effect::Damaged),
                    faces(Effect::Suppressed),
                    n = strength_die.sides()
                ));
                Ok(Box::new(move |_suppressed: bool| {
                    let effects = effects.clone();
                    vec![
                        Step::new(save_die, Roll::Effect, move |f| {
                            if f as i32 <= save { Next::End(Strike::hit(Effect::NoEffect)) } else { Next::Roll(2) }
                        }),
                        Step::new(strength_die, Roll::Effect, move |f| Next::End(Strike::hit(effects[f as usize - 1]))),
                    ]
                }))
            }
        }
    }

    /// Penetration at `range` hexes of a weapon showing it at `(min, max)` range.
    pub(super) fn penetration_at(&mut self, p: Penetration, (min, max): (u32, u32), range: u32) -> i32 {
        let Penetration::Ranged { at_min, at_max } = p else {
            let Penetration::Constant(v) = p else { unreachable!() };
            return v;
        };
        if range <= min || max == min {
            return at_min;
        }
        // at_min + (at_max - at_min) * (range - min) / (max - min), rounded per setting.
        let num = i64::from(at_max - at_min) * i64::from(range - min);
        let den = i64::from(max - min);
        let drop = match self.settings.between {
            Between::Down => num.div_euclid(den),
            Between::Up => -(-num).div_euclid(den),
            // Halves toward the shooter: round half up.
            Between::Nearest => (2 * num + den).div_euclid(2 * den),
        };
        at_min + drop as i32
    }
}
