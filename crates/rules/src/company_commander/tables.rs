//! Company Commander's tables, loaded from `rulesets/company-commander/` and checked
//! against the shape of seed 003. Every cell is read into what it means here (a die
//! threshold, a result name, a band of faces), so the rules never see a cell's text.

use serde::Deserialize;
use toml::Spanned;

use super::fire::Effect;
use combat_odds_core::dice::Die;
use combat_odds_core::error::{Result, listing, unknown};
use combat_odds_core::tables::{Bands, Embedded, ModifierRow, ModifierTable, RollRange, Source, TableFile, file};

/// The embedded table files of this ruleset.
pub const EMBEDDED: Embedded = Embedded {
    ruleset: "company-commander",
    files: &[
        ("quality.toml", include_str!("../../../../rulesets/company-commander/quality.toml")),
        ("to_hit.toml", include_str!("../../../../rulesets/company-commander/to_hit.toml")),
        ("attacks.toml", include_str!("../../../../rulesets/company-commander/attacks.toml")),
        ("armour.toml", include_str!("../../../../rulesets/company-commander/armour.toml")),
        ("hit_damage.toml", include_str!("../../../../rulesets/company-commander/hit_damage.toml")),
        ("cover_saves.toml", include_str!("../../../../rulesets/company-commander/cover_saves.toml")),
        ("weapon_strength.toml", include_str!("../../../../rulesets/company-commander/weapon_strength.toml")),
        ("close_assault.toml", include_str!("../../../../rulesets/company-commander/close_assault.toml")),
        ("barrage.toml", include_str!("../../../../rulesets/company-commander/barrage.toml")),
        ("aa_fire.toml", include_str!("../../../../rulesets/company-commander/aa_fire.toml")),
        ("catalogue.toml", include_str!("../../../../rulesets/company-commander/catalogue.toml")),
        ("equivalents.toml", include_str!("../../../../rulesets/company-commander/equivalents.toml")),
    ],
};

/// Unit qualities from lowest to highest ("Unit Quality"); every table is keyed by
/// these names.
pub const QUALITIES: [&str; 5] = ["green", "trained", "experienced", "veteran", "elite"];

/// The lists whose quality letters the seed prints, in `quality.toml`'s order.
pub(crate) const LETTER_LISTS: [&str; 4] = ["unit_quality", "shooter_modifier", "target_modifier", "close_assault"];

/// A die of `sides` read from a table file (2 to 100 faces).
fn die(file: &TableFile, sides: &Spanned<u32>, what: &str) -> Result<Die> {
    match *sides.get_ref() {
        n @ 2..=100 => Ok(Die::new(n)),
        n => Err(file.error_at(sides.span().start, format!("{what}: a d{n} cannot be rolled; use 2 to 100 faces"))),
    }
}

/// "N or less" (or a bare N) as the highest face that succeeds, within the die.
fn at_most(file: &TableFile, text: &Spanned<String>, d: Die) -> Result<u32> {
    let t = text.get_ref().trim();
    let n = t.strip_suffix("or less").unwrap_or(t).trim().parse::<u32>().ok().filter(|n| *n <= d.sides());
    n.ok_or_else(|| {
        file.error_at(
            text.span().start,
            format!("`{t}` is not a score on a d{}; write `N or less` with N from 0 to {}", d.sides(), d.sides()),
        )
    })
}

/// "N or more" (or a bare N) as the lowest face that succeeds, within the die.
fn at_least(file: &TableFile, text: &Spanned<String>, d: Die) -> Result<u32> {
    let t = text.get_ref().trim();
    let n = t.strip_suffix("or more").unwrap_or(t).trim().parse::<u32>().ok().filter(|n| (1..=d.sides()).contains(n));
    n.ok_or_else(|| {
        file.error_at(
            text.span().start,
            format!("`{t}` is not a score on a d{}; write `N or more` with N from 1 to {}", d.sides(), d.sides()),
        )
    })
}

/// A result name (`no_effect`, `suppressed`, `damaged`, `destroyed`) among `allowed`.
fn effect(file: &TableFile, name: &Spanned<String>, allowed: &[Effect]) -> Result<Effect> {
    let names: Vec<&str> = allowed.iter().map(|e| e.name()).collect();
    Effect::named(name.get_ref())
        .filter(|e| allowed.contains(e))
        .ok_or_else(|| file.error_at(name.span().start, unknown("result", name.get_ref(), names)))
}

/// One quality and the letter each of the seed's lists gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quality {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// Letters in [`LETTER_LISTS`] order; empty where a list has no row.
    pub letters: [String; 4],
}

/// Unit Quality.
#[derive(Debug, Clone)]
pub struct Qualities {
    /// In [`QUALITIES`] order.
    pub rows: Vec<Quality>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQualities {
    source: Source,
    quality: Vec<RawQuality>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuality {
    name: Spanned<String>,
    label: String,
    letters: RawLetters,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLetters {
    unit_quality: String,
    shooter_modifier: String,
    target_modifier: String,
    close_assault: String,
}

impl Qualities {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawQualities = f.parse()?;
        let names: Vec<&Spanned<String>> = raw.quality.iter().map(|q| &q.name).collect();
        in_order(f, &names, &QUALITIES, "quality")?;
        let rows = raw
            .quality
            .into_iter()
            .map(|q| Quality {
                name: q.name.into_inner(),
                label: q.label,
                letters: [
                    q.letters.unit_quality,
                    q.letters.shooter_modifier,
                    q.letters.target_modifier,
                    q.letters.close_assault,
                ],
            })
            .collect();
        Ok(Qualities { rows, source: raw.source })
    }

    /// Why a letter is not accepted as a quality: what each list means by it.
    pub(crate) fn letter_conflict(&self, letter: &str) -> Option<String> {
        let upper = letter.to_ascii_uppercase();
        let found: Vec<(&str, &str)> = LETTER_LISTS
            .iter()
            .enumerate()
            .filter_map(|(i, list)| self.rows.iter().find(|q| q.letters[i] == upper).map(|q| (q.name.as_str(), *list)))
            .collect();
        let first = found.first()?.0;
        let why = if found.iter().all(|(name, _)| *name == first) {
            // This letter happens to agree everywhere; others (C, D, E) do not, so
            // letters are refused alike and every table is keyed on names.
            format!("means {first} in every list, but other letters mean different qualities in different lists")
        } else {
            let meanings: Vec<String> = found.iter().map(|(name, list)| format!("{name} in {list}")).collect();
            format!("means {} in the seed's lists, which disagree", meanings.join(", "))
        };
        Some(format!("quality letter `{letter}` {why}; write the name instead ({})", listing(QUALITIES)))
    }
}

/// Requires exactly the names `expected`, in that order.
fn in_order(f: &TableFile, names: &[&Spanned<String>], expected: &[&str], what: &str) -> Result<()> {
    for (i, want) in expected.iter().enumerate() {
        match names.get(i) {
            Some(n) if n.get_ref() == want => {}
            Some(n) => {
                return Err(f.error_at(
                    n.span().start,
                    format!(
                        "{what} row {} is `{}`; the rows must be {} in that order",
                        i + 1,
                        n.get_ref(),
                        listing(expected.iter().copied())
                    ),
                ));
            }
            None => {
                return Err(f.error(format!(
                    "missing {what} row `{want}`; the rows must be {}",
                    listing(expected.iter().copied())
                )));
            }
        }
    }
    if let Some(extra) = names.get(expected.len()) {
        return Err(f.error_at(extra.span().start, unknown(what, extra.get_ref(), expected.iter().copied())));
    }
    Ok(())
}

/// One band of direct fire range as a share of maximum range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeBand {
    /// Ranges up to this percentage of the maximum (and above the band before).
    pub up_to_percent: u32,
    /// Its modifier row, if it has one.
    pub modifier: Option<String>,
}

/// The Ballistic Score and its modifiers.
#[derive(Debug, Clone)]
pub struct ToHit {
    /// The to-hit die.
    pub die: Die,
    /// The base score.
    pub ballistic_score: i32,
    /// A natural roll of this always hits.
    pub always_hits: u32,
    /// A natural roll of this always misses.
    pub always_misses: u32,
    /// Range bands, nearest first, the last at 100%.
    pub range_bands: Vec<RangeBand>,
    /// "All shooting".
    pub all_shooting: ModifierTable,
    /// "Direct fire only".
    pub direct_fire: ModifierTable,
    /// "Indirect fire only".
    pub indirect_fire: ModifierTable,
    /// Provenance.
    pub source: Source,
}

/// The rows of each to-hit chart the rules apply.
pub const ALL_SHOOTING: [&str; 10] = [
    "target_cautious_or_suppressed",
    "shooter_elite",
    "shooter_veteran",
    "target_trained",
    "target_green",
    "target_elite",
    "target_veteran",
    "shooter_trained",
    "shooter_green",
    "smart_weapon",
];
/// Direct fire rows.
pub const DIRECT_FIRE: [&str; 13] = [
    "rangefinder",
    "range_up_to_20_percent",
    "range_40_to_60_percent",
    "range_60_to_80_percent",
    "range_over_80_percent",
    "shooter_moved",
    "stabiliser_first_generation",
    "stabiliser_second_generation",
    "overworked_moved",
    "low_ammo",
    "target_in_cover_or_hull_down",
    "smoke",
    "smart_weapon_vs_ew",
];
/// Indirect fire rows.
pub const INDIRECT_FIRE: [&str; 3] = ["target_visible", "target_not_visible", "target_in_cover"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToHit {
    die: Spanned<u32>,
    ballistic_score: Spanned<i32>,
    always_hits: Spanned<u32>,
    always_misses: Spanned<u32>,
    source: Source,
    range_band: Vec<RawRangeBand>,
    all_shooting: Vec<ModifierRow>,
    direct_fire: Vec<ModifierRow>,
    indirect_fire: Vec<ModifierRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRangeBand {
    up_to_percent: Spanned<u32>,
    modifier: Option<Spanned<String>>,
}

impl ToHit {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawToHit = f.parse()?;
        let die = die(f, &raw.die, "die")?;
        let face = |v: &Spanned<u32>, what: &str| {
            if (1..=die.sides()).contains(v.get_ref()) {
                Ok(*v.get_ref())
            } else {
                Err(f.error_at(v.span().start, format!("{what} {} is not a face of a d{}", v.get_ref(), die.sides())))
            }
        };
        let always_hits = face(&raw.always_hits, "always_hits")?;
        let always_misses = face(&raw.always_misses, "always_misses")?;
        let score = *raw.ballistic_score.get_ref();
        if !(0..=i32::try_from(die.sides()).unwrap_or(i32::MAX)).contains(&score) {
            return Err(f.error_at(
                raw.ballistic_score.span().start,
                format!("ballistic_score {score} is off a d{}", die.sides()),
            ));
        }
        let direct_fire = ModifierTable::from_rows(f, raw.source.clone(), raw.direct_fire, &DIRECT_FIRE)?;
        let mut range_bands = Vec::with_capacity(raw.range_band.len());
        let mut previous = 0;
        for b in &raw.range_band {
            let up_to = *b.up_to_percent.get_ref();
            if up_to <= previous || up_to > 100 {
                return Err(f.error_at(
                    b.up_to_percent.span().start,
                    format!("range band up to {up_to}% must rise above {previous}% and stay within 100%"),
                ));
            }
            previous = up_to;
            if let Some(m) = &b.modifier
                && !DIRECT_FIRE[1..5].contains(&m.get_ref().as_str())
            {
                return Err(f.error_at(
                    m.span().start,
                    unknown("range modifier", m.get_ref(), DIRECT_FIRE[1..5].iter().copied()),
                ));
            }
            range_bands
                .push(RangeBand { up_to_percent: up_to, modifier: b.modifier.as_ref().map(|m| m.get_ref().clone()) });
        }
        if previous != 100 {
            return Err(f.error("the last range band must reach `up_to_percent = 100` (the weapon's maximum range)"));
        }
        Ok(ToHit {
            die,
            ballistic_score: score,
            always_hits,
            always_misses,
            range_bands,
            all_shooting: ModifierTable::from_rows(f, raw.source.clone(), raw.all_shooting, &ALL_SHOOTING)?,
            direct_fire,
            indirect_fire: ModifierTable::from_rows(f, raw.source.clone(), raw.indirect_fire, &INDIRECT_FIRE)?,
            source: raw.source,
        })
    }

    /// The band holding `range` of `max` (both in hexes; `range <= max`).
    pub fn range_band(&self, range: u32, max: u32) -> &RangeBand {
        // range / max <= p / 100, in integers.
        self.range_bands
            .iter()
            .find(|b| u64::from(range) * 100 <= u64::from(b.up_to_percent) * u64::from(max))
            .expect("the last band reaches 100%")
    }
}

/// Find the number of attacks.
#[derive(Debug, Clone)]
pub struct Attacks {
    /// Indirect fire attacks per strength point of the shooting unit.
    pub indirect_fire_per_strength_point: u32,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttacks {
    indirect_fire_per_strength_point: Spanned<u32>,
    source: Source,
}

/// The most attacks one entry makes per strength point: past this is a typo.
pub(crate) const MAX_RATE_OF_FIRE: u32 = 20;

impl Attacks {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawAttacks = f.parse()?;
        let n = *raw.indirect_fire_per_strength_point.get_ref();
        if !(1..=MAX_RATE_OF_FIRE).contains(&n) {
            return Err(f.error_at(
                raw.indirect_fire_per_strength_point.span().start,
                format!("indirect_fire_per_strength_point must be from 1 to {MAX_RATE_OF_FIRE}, not {n}"),
            ));
        }
        Ok(Attacks { indirect_fire_per_strength_point: n, source: raw.source })
    }
}

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
    fn load(f: &TableFile) -> Result<Self> {
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
    fn load(f: &TableFile) -> Result<Self> {
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
    fn load(f: &TableFile) -> Result<Self> {
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
    fn load(f: &TableFile) -> Result<Self> {
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

/// One weapon class of close assault's weapon effectiveness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssaultWeapon {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// The highest roll that succeeds.
    pub success_up_to: u32,
}

/// Close assault.
#[derive(Debug, Clone)]
pub struct CloseAssault {
    /// The die of all three rolls.
    pub die: Die,
    /// Added to the hit roll against an open topped target.
    pub open_topped_bonus: u32,
    /// The lowest successful hit roll by quality, in [`QUALITIES`] order.
    pub hit_score: Vec<u32>,
    /// The hit score rows' labels, in [`QUALITIES`] order.
    pub hit_labels: Vec<String>,
    /// Weapon classes.
    pub weapons: Vec<AssaultWeapon>,
    /// The outcome of each face of the last die.
    pub outcome: Vec<Effect>,
    /// The outcome bands as written.
    pub outcome_bands: Vec<(RollRange, Effect)>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCloseAssault {
    die: Spanned<u32>,
    open_topped_bonus: Spanned<u32>,
    source: Source,
    hit_score: Vec<RawHitScore>,
    weapon_class: Vec<RawAssaultWeapon>,
    outcome: Vec<RawOutcome>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHitScore {
    quality: Spanned<String>,
    label: String,
    score: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAssaultWeapon {
    name: Spanned<String>,
    label: String,
    success: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome {
    roll: Spanned<String>,
    result: Spanned<String>,
}

impl CloseAssault {
    /// The index of the weapon class named `name`.
    pub(crate) fn class(&self, name: &str) -> std::result::Result<usize, String> {
        self.weapons
            .iter()
            .position(|w| w.name == name)
            .ok_or_else(|| unknown("weapon class", name, self.weapons.iter().map(|w| w.name.as_str())))
    }

    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawCloseAssault = f.parse()?;
        let d = die(f, &raw.die, "die")?;
        let mut hit_score = vec![None; QUALITIES.len()];
        let mut hit_labels = vec![String::new(); QUALITIES.len()];
        for row in &raw.hit_score {
            let q = row.quality.get_ref();
            let Some(i) = QUALITIES.iter().position(|n| n == q) else {
                return Err(f.error_at(row.quality.span().start, unknown("quality", q, QUALITIES)));
            };
            if hit_score[i].is_some() {
                return Err(f.error_at(row.quality.span().start, format!("quality `{q}` appears twice; keep one row")));
            }
            hit_score[i] = Some(at_least(f, &row.score, d)?);
            hit_labels[i] = row.label.clone();
        }
        let hit_score = hit_score
            .into_iter()
            .zip(QUALITIES)
            .map(|(s, q)| s.ok_or_else(|| f.error(format!("missing the hit score of quality `{q}`"))))
            .collect::<Result<_>>()?;
        combat_odds_core::tables::grid::unique(f, raw.weapon_class.iter().map(|w| &w.name))?;
        let weapons = raw
            .weapon_class
            .iter()
            .map(|w| {
                Ok(AssaultWeapon {
                    name: w.name.get_ref().clone(),
                    label: w.label.clone(),
                    success_up_to: at_most(f, &w.success, d)?,
                })
            })
            .collect::<Result<_>>()?;
        let mut outcome = vec![None; d.sides() as usize];
        let mut outcome_bands = Vec::new();
        for row in &raw.outcome {
            let band: RollRange =
                row.roll.get_ref().parse().map_err(|m: String| f.error_at(row.roll.span().start, m))?;
            let e =
                effect(f, &row.result, &[Effect::NoEffect, Effect::Suppressed, Effect::Damaged, Effect::Destroyed])?;
            for face in 1..=d.sides() {
                if band.contains(face as i32) {
                    if outcome[face as usize - 1].is_some() {
                        return Err(f.error_at(row.roll.span().start, format!("face {face} is in two outcome bands")));
                    }
                    outcome[face as usize - 1] = Some(e);
                }
            }
            outcome_bands.push((band, e));
        }
        let outcome = outcome
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                o.ok_or_else(|| {
                    f.error(format!(
                        "face {} of the outcome die is in no band; the bands must cover 1 to {}",
                        i + 1,
                        d.sides()
                    ))
                })
            })
            .collect::<Result<_>>()?;
        Ok(CloseAssault {
            die: d,
            open_topped_bonus: *raw.open_topped_bonus.get_ref(),
            hit_score,
            hit_labels,
            weapons,
            outcome,
            outcome_bands,
            source: raw.source,
        })
    }
}

/// One barrage type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrageType {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// Blast radius in hexes.
    pub radius: u32,
    /// The chance in 100 that each unit within it becomes a target.
    pub percent: u32,
}

/// Barrage types.
#[derive(Debug, Clone)]
pub struct Barrages {
    /// In table order.
    pub types: Vec<BarrageType>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBarrages {
    source: Source,
    barrage: Vec<RawBarrage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBarrage {
    name: Spanned<String>,
    label: String,
    radius: u32,
    percent: Spanned<u32>,
}

/// A percentage cell within 0..=100.
fn percent(f: &TableFile, v: &Spanned<u32>) -> Result<u32> {
    if *v.get_ref() <= 100 {
        Ok(*v.get_ref())
    } else {
        Err(f.error_at(v.span().start, format!("{}% is not a chance in 100", v.get_ref())))
    }
}

impl Barrages {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawBarrages = f.parse()?;
        combat_odds_core::tables::grid::unique(f, raw.barrage.iter().map(|b| &b.name))?;
        let types = raw
            .barrage
            .iter()
            .map(|b| {
                Ok(BarrageType {
                    name: b.name.get_ref().clone(),
                    label: b.label.clone(),
                    radius: b.radius,
                    percent: percent(f, &b.percent)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Barrages { types, source: raw.source })
    }

    /// The type named `name`.
    pub fn get(&self, name: &str) -> std::result::Result<&BarrageType, String> {
        self.types
            .iter()
            .find(|b| b.name == name)
            .ok_or_else(|| unknown("barrage type", name, self.types.iter().map(|b| b.name.as_str())))
    }
}

/// One A.A. effectiveness level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AaLevel {
    /// Stable name.
    pub name: String,
    /// As printed.
    pub label: String,
    /// The chance in 100 of hitting and damaging.
    pub percent: u32,
}

/// A.A. fire and aircraft saves.
#[derive(Debug, Clone)]
pub struct AaFire {
    /// The aircraft's save die.
    pub save_die: Die,
    /// Levels a twin mount adds.
    pub twin_levels: usize,
    /// Levels a quad mount adds.
    pub quad_levels: usize,
    /// Levels, lowest first.
    pub levels: Vec<AaLevel>,
    /// Provenance.
    pub source: Source,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaFire {
    save_die: Spanned<u32>,
    twin_levels: usize,
    quad_levels: usize,
    source: Source,
    level: Vec<RawAaLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAaLevel {
    name: Spanned<String>,
    label: String,
    percent: Spanned<u32>,
}

impl AaFire {
    fn load(f: &TableFile) -> Result<Self> {
        let raw: RawAaFire = f.parse()?;
        combat_odds_core::tables::grid::unique(f, raw.level.iter().map(|l| &l.name))?;
        if raw.level.is_empty() {
            return Err(f.error("aa_fire.toml needs at least one `[[level]]`"));
        }
        let levels: Vec<AaLevel> = raw
            .level
            .iter()
            .map(|l| {
                Ok(AaLevel { name: l.name.get_ref().clone(), label: l.label.clone(), percent: percent(f, &l.percent)? })
            })
            .collect::<Result<_>>()?;
        if let Some(i) = levels.windows(2).position(|w| w[1].percent < w[0].percent) {
            return Err(f.error_at(
                raw.level[i + 1].percent.span().start,
                "levels must not fall: a higher level is at least as effective",
            ));
        }
        Ok(AaFire {
            save_die: die(f, &raw.save_die, "save_die")?,
            twin_levels: raw.twin_levels,
            quad_levels: raw.quad_levels,
            levels,
            source: raw.source,
        })
    }
}

/// Every Company Commander table.
#[derive(Debug, Clone)]
pub struct Tables {
    /// Unit Quality.
    pub quality: Qualities,
    /// Find the number of hits.
    pub to_hit: ToHit,
    /// Find the number of attacks.
    pub attacks: Attacks,
    /// Armoured targets.
    pub armour: Armour,
    /// Hit damage.
    pub hit_damage: HitDamage,
    /// Cover save values.
    pub cover_saves: CoverSaves,
    /// Weapon strength outcome.
    pub weapon_strength: WeaponStrength,
    /// Close assault.
    pub close_assault: CloseAssault,
    /// Barrage types.
    pub barrage: Barrages,
    /// A.A. fire.
    pub aa_fire: AaFire,
}

impl Tables {
    /// Loads every table from the loaded files.
    pub fn load(files: &[TableFile]) -> Result<Self> {
        Ok(Tables {
            quality: Qualities::load(file(files, "quality.toml"))?,
            to_hit: ToHit::load(file(files, "to_hit.toml"))?,
            attacks: Attacks::load(file(files, "attacks.toml"))?,
            armour: Armour::load(file(files, "armour.toml"))?,
            hit_damage: HitDamage::load(file(files, "hit_damage.toml"))?,
            cover_saves: CoverSaves::load(file(files, "cover_saves.toml"))?,
            weapon_strength: WeaponStrength::load(file(files, "weapon_strength.toml"))?,
            close_assault: CloseAssault::load(file(files, "close_assault.toml"))?,
            barrage: Barrages::load(file(files, "barrage.toml"))?,
            aa_fire: AaFire::load(file(files, "aa_fire.toml"))?,
        })
    }
}
