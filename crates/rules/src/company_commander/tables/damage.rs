//! What a hit does (seed 003, Armour, Hit Damage, Cover Saves and Weapon Strength): the
//! armour by facing, penetration and damage by AP, the saves of cover, and the readings
//! of a weapon's strength.

use serde::Deserialize;
use toml::Spanned;

use super::{at_most, die, effect};
use crate::company_commander::fire::Effect;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::tables::{Bands, ModifierRow, ModifierTable, Source, TableFile};

/// The kind of hit on an armoured target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitKind {
    /// NPV below 0.
    NoEffect,
    /// NPV = 0.
    Glancing,
    /// NPV above 0.
    Penetrating,
}

impl HitKind {
    /// Its name as the table file writes it.
    pub fn name(self) -> &'static str {
        match self {
            HitKind::NoEffect => "no_effect",
            HitKind::Glancing => "glancing",
            HitKind::Penetrating => "penetrating",
        }
    }
}

/// The facing an attack strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    /// The front 120 degrees.
    Front,
    /// Neither front nor rear.
    Side,
    /// The rear 120 degrees.
    Rear,
}

impl Facing {
    /// Facing names as scenarios write them.
    pub const NAMES: [&'static str; 3] = ["front", "side", "rear"];
    const ALL: [Facing; 3] = [Facing::Front, Facing::Side, Facing::Rear];

    /// The facing named `name`.
    pub fn named(name: &str) -> Option<Self> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Net penetration, defence die and facings.
#[derive(Debug, Clone)]
pub struct Armour {
    /// Added to the armour for the defence value.
    pub defence_die: Die,
    /// The front arc, in degrees.
    pub front_arc_degrees: f64,
    /// The rear arc, in degrees.
    pub rear_arc_degrees: f64,
    /// The facing top attack and indirect fire strike.
    pub top_attack_and_indirect_fire: Facing,
    /// NPV bands, lowest first.
    pub npv: Bands,
    /// The kind of hit of each band.
    pub kinds: Vec<HitKind>,
    /// Each band's label.
    pub labels: Vec<String>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmour {
    defence_die: Spanned<u32>,
    front_arc_degrees: Spanned<f64>,
    rear_arc_degrees: Spanned<f64>,
    top_attack_and_indirect_fire: Spanned<String>,
    source: Source,
    npv: Vec<RawNpv>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNpv {
    band: Spanned<String>,
    hit: Spanned<String>,
    label: String,
}

impl Armour {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawArmour = f.parse()?;
        let arc = |v: &Spanned<f64>, what: &str| {
            let a = *v.get_ref();
            if a.is_finite() && (0.0..=360.0).contains(&a) {
                Ok(a)
            } else {
                Err(f.error_at(v.span().start, format!("{what} {a} must be from 0 to 360 degrees")))
            }
        };
        let (front, rear) =
            (arc(&raw.front_arc_degrees, "front_arc_degrees")?, arc(&raw.rear_arc_degrees, "rear_arc_degrees")?);
        if front + rear > 360.0 {
            return Err(f.error_at(
                raw.rear_arc_degrees.span().start,
                "the front and rear arcs overlap (together past 360 degrees)",
            ));
        }
        let facing = &raw.top_attack_and_indirect_fire;
        let top = Facing::named(facing.get_ref())
            .ok_or_else(|| f.error_at(facing.span().start, unknown("facing", facing.get_ref(), Facing::NAMES)))?;
        let cells: Vec<(&str, &Spanned<String>)> = raw.npv.iter().map(|n| (n.label.as_str(), &n.band)).collect();
        let npv = Bands::parse(f, "NPV", &cells, i32::MIN)?;
        let kinds = raw
            .npv
            .iter()
            .map(|n| match n.hit.get_ref().as_str() {
                "no_effect" => Ok(HitKind::NoEffect),
                "glancing" => Ok(HitKind::Glancing),
                "penetrating" => Ok(HitKind::Penetrating),
                other => Err(f.error_at(
                    n.hit.span().start,
                    unknown("kind of hit", other, ["no_effect", "glancing", "penetrating"]),
                )),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Armour {
            defence_die: die(f, &raw.defence_die, "defence_die")?,
            front_arc_degrees: front,
            rear_arc_degrees: rear,
            top_attack_and_indirect_fire: top,
            npv,
            kinds,
            labels: raw.npv.into_iter().map(|n| n.label).collect(),
            source: raw.source,
        })
    }

    /// The kind of hit for a net penetration value.
    pub fn hit_kind(&self, npv: i32) -> HitKind {
        self.kinds[self.npv.index(npv)]
    }

    /// The facing struck from `bearing` degrees off the target's nose (0 head on, 180
    /// from behind). The edge of an arc belongs to that arc.
    pub fn facing_at(&self, bearing: f64) -> Facing {
        let off_nose = bearing.rem_euclid(360.0);
        let off_nose = off_nose.min(360.0 - off_nose);
        if off_nose <= self.front_arc_degrees / 2.0 {
            Facing::Front
        } else if 180.0 - off_nose <= self.rear_arc_degrees / 2.0 {
            Facing::Rear
        } else {
            Facing::Side
        }
    }
}

/// The lowest and highest AP value the hit damage table prints.
pub const AP_VALUES: (u32, u32) = (2, 6);

/// Hit damage: the d100 against the shooter's AP, and what success does.
#[derive(Debug, Clone)]
pub struct HitDamage {
    /// The damage die.
    pub die: Die,
    /// Added to the AP against a vulnerable target.
    pub vulnerable_ap_bonus: u32,
    /// `success_up_to[ap - 2]`: the highest roll that succeeds.
    pub success_up_to: Vec<u32>,
    /// A glancing hit's (success, failure).
    pub glancing: [Effect; 2],
    /// A penetrating hit's (success, failure).
    pub penetrating: [Effect; 2],
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHitDamage {
    die: Spanned<u32>,
    vulnerable_ap_bonus: Spanned<u32>,
    source: Source,
    ap: Vec<RawAp>,
    glancing: RawOutcomes,
    penetrating: RawOutcomes,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAp {
    ap: Spanned<u32>,
    success: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcomes {
    success: Spanned<String>,
    failure: Spanned<String>,
}

impl HitDamage {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawHitDamage = f.parse()?;
        let d = die(f, &raw.die, "die")?;
        let mut success_up_to = vec![None; (AP_VALUES.1 - AP_VALUES.0 + 1) as usize];
        for row in &raw.ap {
            let ap = *row.ap.get_ref();
            let Some(slot) = ap.checked_sub(AP_VALUES.0).and_then(|i| success_up_to.get_mut(i as usize)) else {
                return Err(f.error_at(
                    row.ap.span().start,
                    format!(
                        "AP {ap} has no row in the seed's table, which runs from {} to {}",
                        AP_VALUES.0, AP_VALUES.1
                    ),
                ));
            };
            if slot.is_some() {
                return Err(f.error_at(row.ap.span().start, format!("AP {ap} appears twice; keep one row")));
            }
            *slot = Some(at_most(f, &row.success, d)?);
        }
        let success_up_to: Vec<u32> = success_up_to
            .into_iter()
            .enumerate()
            .map(|(i, s)| s.ok_or_else(|| f.error(format!("missing the row for AP {}", i as u32 + AP_VALUES.0))))
            .collect::<Result<_>>()?;
        if let Some(i) = success_up_to.windows(2).position(|w| w[1] < w[0]) {
            return Err(f.error(format!(
                "AP {} succeeds on fewer rolls than AP {}; a higher AP never does worse",
                i as u32 + AP_VALUES.0 + 1,
                i as u32 + AP_VALUES.0
            )));
        }
        let allowed = [Effect::NoEffect, Effect::Suppressed, Effect::Damaged];
        let pair = |o: &RawOutcomes| {
            Ok::<_, combat_odds_core::error::Error>([
                effect(f, &o.success, &allowed)?,
                effect(f, &o.failure, &allowed)?,
            ])
        };
        let bonus = *raw.vulnerable_ap_bonus.get_ref();
        if bonus > AP_VALUES.1 {
            return Err(f.error_at(
                raw.vulnerable_ap_bonus.span().start,
                format!("vulnerable_ap_bonus {bonus} is past the AP scale"),
            ));
        }
        Ok(HitDamage {
            die: d,
            vulnerable_ap_bonus: bonus,
            success_up_to,
            glancing: pair(&raw.glancing)?,
            penetrating: pair(&raw.penetrating)?,
            source: raw.source,
        })
    }

    /// The highest successful roll for `ap`, which may exceed the table after the
    /// vulnerable bonus: it then reads the top row (CC-5 in docs/interpretations.md).
    pub fn success_for(&self, ap: u32) -> u32 {
        let top = self.success_up_to.len() - 1;
        self.success_up_to[((ap - AP_VALUES.0) as usize).min(top)]
    }
}

/// Cover save values.
#[derive(Debug, Clone)]
pub struct CoverSaves {
    /// The save die.
    pub die: Die,
    /// front_line, soft_cover, hard_cover, fortification.
    pub values: ModifierTable,
}

/// The rows of the cover save chart.
pub(crate) const COVER_SAVE_ROWS: [&str; 4] = ["front_line", "soft_cover", "hard_cover", "fortification"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCoverSaves {
    die: Spanned<u32>,
    source: Source,
    modifier: Vec<ModifierRow>,
}

impl CoverSaves {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawCoverSaves = f.parse()?;
        Ok(CoverSaves {
            die: die(f, &raw.die, "die")?,
            values: ModifierTable::from_rows(f, raw.source, raw.modifier, &COVER_SAVE_ROWS)?,
        })
    }
}

/// One reading of the garbled weapon-strength outcome lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrengthReading {
    /// Stable name (the `weapon_strength_outcome` setting).
    pub name: String,
    /// What it says.
    pub label: String,
    /// A roll at or under strength + this damages.
    pub damaged_up_to: i32,
    /// Otherwise a roll at or under strength + this suppresses; `None`: every roll does.
    pub suppressed_up_to: Option<i32>,
}

impl StrengthReading {
    /// The effect of a strength-die face for a weapon of `strength`.
    pub fn effect(&self, face: u32, strength: u32) -> Effect {
        let (face, strength) = (face as i32, strength as i32);
        if face <= strength + self.damaged_up_to {
            Effect::Damaged
        } else if self.suppressed_up_to.is_none_or(|s| face <= strength + s) {
            Effect::Suppressed
        } else {
            Effect::NoEffect
        }
    }
}

/// The weapon strength outcome.
#[derive(Debug, Clone)]
pub struct WeaponStrength {
    /// The strength die.
    pub die: Die,
    /// The lowest and highest weapon strength.
    pub strengths: (u32, u32),
    /// The readings, the default first.
    pub readings: Vec<StrengthReading>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeaponStrength {
    die: Spanned<u32>,
    strengths: Spanned<[u32; 2]>,
    source: Source,
    reading: Vec<RawReading>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReading {
    name: Spanned<String>,
    label: String,
    damaged_up_to: Spanned<i32>,
    suppressed_up_to: Option<Spanned<i32>>,
}

impl WeaponStrength {
    pub(super) fn load(f: &TableFile) -> Result<Self> {
        let raw: RawWeaponStrength = f.parse()?;
        let d = die(f, &raw.die, "die")?;
        let [lo, hi] = *raw.strengths.get_ref();
        if lo < 1 || hi < lo || hi > d.sides() {
            return Err(f.error_at(
                raw.strengths.span().start,
                format!("strengths [{lo}, {hi}] must rise from 1 within the d{}", d.sides()),
            ));
        }
        combat_odds_core::tables::grid::unique(f, raw.reading.iter().map(|r| &r.name))?;
        if raw.reading.is_empty() {
            return Err(f.error("weapon_strength.toml needs at least one `[[reading]]`"));
        }
        let span = d.sides() as i32;
        let offset = |v: &Spanned<i32>| {
            if (-span..=span).contains(v.get_ref()) {
                Ok(*v.get_ref())
            } else {
                Err(f.error_at(v.span().start, format!("offset {} reaches off the d{}", v.get_ref(), d.sides())))
            }
        };
        let readings = raw
            .reading
            .iter()
            .map(|r| {
                let damaged_up_to = offset(&r.damaged_up_to)?;
                let suppressed_up_to = r.suppressed_up_to.as_ref().map(offset).transpose()?;
                if let (Some(s), Some(raw_s)) = (suppressed_up_to, &r.suppressed_up_to)
                    && s < damaged_up_to
                {
                    return Err(f.error_at(
                        raw_s.span().start,
                        "suppressed_up_to lies below damaged_up_to; suppression takes the rolls just above damage",
                    ));
                }
                Ok(StrengthReading {
                    name: r.name.get_ref().clone(),
                    label: r.label.clone(),
                    damaged_up_to,
                    suppressed_up_to,
                })
            })
            .collect::<Result<_>>()?;
        Ok(WeaponStrength { die: d, strengths: (lo, hi), readings, source: raw.source })
    }
}
