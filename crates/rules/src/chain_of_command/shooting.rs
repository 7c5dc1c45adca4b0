//! Shooting and Shock (chain-of-command-facts.md sections 1 and 2): firepower dice to
//! hit by quality and range band, one effect die per hit by the target's cover (miss,
//! Shock or kill), a firepower die lost per 2 Shock, and the Pinned and Broken
//! thresholds under either source's reading. One fire is [`Shooting`]; the same fire
//! repeated each Phase until the target breaks is [`ShootingPhases`].

use num_bigint::BigUint;
use num_traits::{One, Zero};
use serde::Deserialize;
use toml::Spanned;

use super::phases::{Horizon, Phases};
use crate::ruleset::TableView;
use combat_odds_core::dice::D6;
use combat_odds_core::engine::{Measure, Resolution, Streams};
use combat_odds_core::error::{Result, unknown};
use combat_odds_core::exact::{Dist, TooLarge};
use combat_odds_core::tables::{Source, TableFile};

/// Troop qualities, the to-hit table's columns.
pub const QUALITIES: [&str; 3] = ["green", "regular", "elite"];

/// What one hit does on the effect roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitEffect {
    /// No effect.
    Miss,
    /// One point of Shock.
    Shock,
    /// One figure killed.
    Kill,
}

/// The shooting tables.
#[derive(Debug, Clone)]
pub struct ShootingTables {
    /// Range bands: (name, label, lowest face that hits by quality in `QUALITIES` order).
    pub to_hit: Vec<(String, String, [u32; 3])>,
    /// Provenance of the to-hit table.
    pub to_hit_source: Source,
    /// Cover rows, least cover first: (name, label, effect of each face; `None` for a
    /// face the source lost).
    pub effect: Vec<(String, String, [Option<HitEffect>; 6])>,
    /// Provenance of the effect table.
    pub effect_source: Source,
    /// Shock that costs one firepower die.
    pub shock_per_lost_die: u32,
    /// The Pinned and Broken readings, the default first.
    pub thresholds: Vec<Thresholds>,
    /// Their (reading name, label), in the same order.
    pub threshold_readings: Vec<(String, String)>,
    /// Cover levels a Pinned target moves up.
    pub pinned_cover_levels_up: u32,
    /// A Pinned unit's firepower dice are divided by this.
    pub pinned_firepower_divisor: u32,
    /// Provenance of the Shock rules.
    pub shock_source: Source,
    /// Illustrative firepower by weapon: (name, label, dice).
    pub weapons: Vec<(String, String, u32)>,
    /// Provenance of the weapons list.
    pub weapons_source: Source,
}

/// One source's Pinned and Broken thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// Pinned when Shock passes this.
    pub pinned: Threshold,
    /// Broken when Shock passes this.
    pub broken: Threshold,
}

/// Shock compared with figures x `multiple`, at least or more than.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threshold {
    /// `Shock >= figures x multiple` (true) or `Shock > figures x multiple`.
    pub at_least: bool,
    /// The multiple of the figures.
    pub multiple: u32,
}

impl Threshold {
    /// Whether `shock` on `figures` reaches the threshold.
    pub fn reached(&self, figures: u32, shock: u32) -> bool {
        let line = figures * self.multiple;
        if self.at_least { shock >= line } else { shock > line }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToHit {
    die: Spanned<u32>,
    source: Source,
    range: Vec<RawBand>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBand {
    band: String,
    label: String,
    green: Spanned<String>,
    regular: Spanned<String>,
    elite: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEffect {
    die: Spanned<u32>,
    source: Source,
    cover: Vec<RawCover>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCover {
    name: String,
    label: String,
    miss: Spanned<String>,
    shock: Spanned<String>,
    kill: Spanned<String>,
    lost_face: Option<Spanned<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShock {
    shock_per_lost_die: Spanned<u32>,
    source: Source,
    thresholds: Vec<RawThresholds>,
    pinned: RawPinned,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawThresholds {
    reading: String,
    label: String,
    pinned: RawThreshold,
    broken: RawThreshold,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawThreshold {
    compare: Spanned<String>,
    multiple: Spanned<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPinned {
    cover_levels_up: u32,
    firepower_divisor: Spanned<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapons {
    source: Source,
    weapon: Vec<RawWeapon>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWeapon {
    name: String,
    label: String,
    firepower: Spanned<u32>,
}

/// "a-b" or "a" as the faces of a d6 from a to b.
fn faces(f: &TableFile, cell: &Spanned<String>) -> Result<std::ops::RangeInclusive<u32>> {
    let t = cell.get_ref().trim();
    let (lo, hi) = t.split_once('-').unwrap_or((t, t));
    match (lo.trim().parse::<u32>(), hi.trim().parse::<u32>()) {
        (Ok(lo), Ok(hi)) if 1 <= lo && lo <= hi && hi <= 6 => Ok(lo..=hi),
        _ => Err(
            f.error_at(cell.span().start, format!("`{t}` is not a face or run of faces of a d6; write `N` or `N-M`"))
        ),
    }
}

fn d6(f: &TableFile, die: &Spanned<u32>) -> Result<()> {
    if *die.get_ref() == 6 {
        Ok(())
    } else {
        Err(f.error_at(die.span().start, "Chain of Command rolls d6; set `die = 6`"))
    }
}

impl ShootingTables {
    /// Loads and validates `to_hit.toml`, `effect.toml`, `shock.toml` and `weapons.toml`.
    pub fn load(to_hit: &TableFile, effect: &TableFile, shock: &TableFile, weapons: &TableFile) -> Result<Self> {
        let raw: RawToHit = to_hit.parse()?;
        d6(to_hit, &raw.die)?;
        let mut bands = Vec::new();
        for b in &raw.range {
            let mut need = [0; 3];
            for (i, cell) in [&b.green, &b.regular, &b.elite].into_iter().enumerate() {
                let run = faces(to_hit, cell)?;
                if *run.end() != 6 {
                    return Err(
                        to_hit.error_at(cell.span().start, "a to-hit cell is a run of faces up to 6 (`N-6` or `6`)")
                    );
                }
                need[i] = *run.start();
            }
            bands.push((b.band.clone(), b.label.clone(), need));
        }
        if bands.is_empty() {
            return Err(to_hit.error("no `[[range]]` bands"));
        }
        let raw_effect: RawEffect = effect.parse()?;
        d6(effect, &raw_effect.die)?;
        let mut rows = Vec::new();
        for c in &raw_effect.cover {
            let mut by_face: [Option<HitEffect>; 6] = [None; 6];
            for (cell, e) in [(&c.miss, HitEffect::Miss), (&c.shock, HitEffect::Shock), (&c.kill, HitEffect::Kill)] {
                for face in faces(effect, cell)? {
                    if by_face[face as usize - 1].replace(e).is_some() {
                        return Err(effect
                            .error_at(cell.span().start, format!("face {face} is in two columns of `{}`", c.name)));
                    }
                }
            }
            let lost: Vec<u32> = (1..=6).filter(|f| by_face[*f as usize - 1].is_none()).collect();
            match (&c.lost_face, lost.as_slice()) {
                (None, []) => {}
                (Some(l), [face]) if l.get_ref() == face => {}
                (Some(l), _) => {
                    return Err(effect.error_at(
                        l.span().start,
                        format!(
                            "lost_face {} must be the one face of `{}` no column holds ({lost:?})",
                            l.get_ref(),
                            c.name
                        ),
                    ));
                }
                (None, _) => {
                    return Err(effect.error(format!(
                        "cover `{}` leaves faces {lost:?} in no column; put each face 1-6 in miss, shock or kill",
                        c.name
                    )));
                }
            }
            rows.push((c.name.clone(), c.label.clone(), by_face));
        }
        if rows.is_empty() {
            return Err(effect.error("no `[[cover]]` rows"));
        }
        let raw_shock: RawShock = shock.parse()?;
        if *raw_shock.shock_per_lost_die.get_ref() == 0 {
            return Err(
                shock.error_at(raw_shock.shock_per_lost_die.span().start, "shock_per_lost_die must be at least 1")
            );
        }
        if *raw_shock.pinned.firepower_divisor.get_ref() == 0 {
            return Err(
                shock.error_at(raw_shock.pinned.firepower_divisor.span().start, "firepower_divisor must be at least 1")
            );
        }
        let threshold = |t: &RawThreshold| -> Result<Threshold> {
            let at_least = match t.compare.get_ref().as_str() {
                "at_least" => true,
                "more_than" => false,
                other => {
                    return Err(
                        shock.error_at(t.compare.span().start, unknown("comparison", other, ["at_least", "more_than"]))
                    );
                }
            };
            if *t.multiple.get_ref() == 0 {
                return Err(shock.error_at(t.multiple.span().start, "multiple must be at least 1"));
            }
            Ok(Threshold { at_least, multiple: *t.multiple.get_ref() })
        };
        let mut thresholds = Vec::new();
        let mut readings = Vec::new();
        for t in &raw_shock.thresholds {
            thresholds.push(Thresholds { pinned: threshold(&t.pinned)?, broken: threshold(&t.broken)? });
            readings.push((t.reading.clone(), t.label.clone()));
        }
        if thresholds.is_empty() {
            return Err(shock.error("no `[[thresholds]]` readings"));
        }
        let raw_weapons: RawWeapons = weapons.parse()?;
        let mut list = Vec::new();
        for w in raw_weapons.weapon {
            if *w.firepower.get_ref() == 0 {
                return Err(weapons.error_at(
                    w.firepower.span().start,
                    format!("`{}` has firepower 0; a weapon rolls at least one die", w.name),
                ));
            }
            list.push((w.name, w.label, w.firepower.into_inner()));
        }
        Ok(ShootingTables {
            to_hit: bands,
            to_hit_source: raw.source,
            effect: rows,
            effect_source: raw_effect.source,
            shock_per_lost_die: raw_shock.shock_per_lost_die.into_inner(),
            thresholds,
            threshold_readings: readings,
            pinned_cover_levels_up: raw_shock.pinned.cover_levels_up,
            pinned_firepower_divisor: raw_shock.pinned.firepower_divisor.into_inner(),
            shock_source: raw_shock.source,
            weapons: list,
            weapons_source: raw_weapons.source,
        })
    }
}

impl ShootingTables {
    /// The four tables as listings.
    pub fn views(&self) -> Vec<TableView> {
        let col = |name: &str, cells: Vec<String>| (name.to_string(), cells);
        let effect_name = |e: &Option<HitEffect>| match e {
            Some(HitEffect::Miss) => "miss",
            Some(HitEffect::Shock) => "shock",
            Some(HitEffect::Kill) => "kill",
            None => "lost in the source (hard_cover_four)",
        };
        let mut effect = vec![col("cover", self.effect.iter().map(|(_, l, _)| l.clone()).collect())];
        for face in 0..6 {
            effect.push(col(
                &format!("d6_{}", face + 1),
                self.effect.iter().map(|(.., faces)| effect_name(&faces[face]).to_string()).collect(),
            ));
        }
        let mut to_hit = vec![col("range", self.to_hit.iter().map(|(_, l, _)| l.clone()).collect())];
        for (q, quality) in QUALITIES.iter().enumerate() {
            to_hit.push(col(
                quality,
                self.to_hit
                    .iter()
                    .map(|(.., need)| if need[q] == 6 { "6".into() } else { format!("{}-6", need[q]) })
                    .collect(),
            ));
        }
        let compare = |t: &Threshold| format!("Shock {} {} x figures", if t.at_least { ">=" } else { ">" }, t.multiple);
        let readings = &self.threshold_readings;
        vec![
            TableView { file: "to_hit.toml".into(), source: self.to_hit_source.clone(), columns: to_hit },
            TableView { file: "effect.toml".into(), source: self.effect_source.clone(), columns: effect },
            TableView {
                file: "shock.toml".into(),
                source: self.shock_source.clone(),
                columns: vec![
                    col("reading", readings.iter().map(|(n, _)| n.clone()).collect()),
                    col("pinned", self.thresholds.iter().map(|t| compare(&t.pinned)).collect()),
                    col("broken", self.thresholds.iter().map(|t| compare(&t.broken)).collect()),
                    col(
                        "also",
                        readings
                            .iter()
                            .map(|_| {
                                format!(
                                    "-1 firepower die per {} Shock; Pinned: +{} cover level, firepower / {}",
                                    self.shock_per_lost_die, self.pinned_cover_levels_up, self.pinned_firepower_divisor
                                )
                            })
                            .collect(),
                    ),
                ],
            },
            TableView {
                file: "weapons.toml".into(),
                source: self.weapons_source.clone(),
                columns: vec![
                    col("weapon", self.weapons.iter().map(|(n, ..)| n.clone()).collect()),
                    col("label", self.weapons.iter().map(|(_, l, _)| l.clone()).collect()),
                    col("firepower_dice", self.weapons.iter().map(|(.., d)| d.to_string()).collect()),
                ],
            },
        ]
    }
}

/// A target's condition after fire.
pub const TARGET_OUTCOMES: [&str; 4] = ["steady", "pinned", "broken", "wiped_out"];

/// Everything one fire needs, with every table cell and setting already read.
#[derive(Debug, Clone)]
pub struct Fire {
    /// Firepower dice rolled.
    pub dice: u32,
    /// Lowest face that hits.
    pub hit_on: u32,
    /// The effect of each face, by cover level (least cover first), lost faces filled
    /// by the setting.
    pub effect_by_cover: Vec<[HitEffect; 6]>,
    /// The target's cover level (index into `effect_by_cover`) when not Pinned.
    pub cover: usize,
    /// Cover levels a Pinned target moves up (capped at the best cover).
    pub pinned_cover_up: usize,
    /// The thresholds in force.
    pub thresholds: Thresholds,
    /// The target's figures at the start.
    pub figures: u32,
    /// The target's Shock at the start.
    pub shock: u32,
}

/// What one fire does: hits, Shock and kills (kills beyond the figures count here).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Hash, Ord)]
pub struct Volley {
    /// Dice that hit.
    pub hits: u32,
    /// Hits that caused Shock.
    pub shock: u32,
    /// Hits that killed.
    pub kills: u32,
}

impl Volley {
    /// One hit with effect `e`.
    fn of(e: HitEffect) -> Self {
        match e {
            HitEffect::Miss => Volley { hits: 1, shock: 0, kills: 0 },
            HitEffect::Shock => Volley { hits: 1, shock: 1, kills: 0 },
            HitEffect::Kill => Volley { hits: 1, shock: 0, kills: 1 },
        }
    }

    /// Two volleys' sum.
    fn plus(&self, other: &Volley) -> Volley {
        Volley { hits: self.hits + other.hits, shock: self.shock + other.shock, kills: self.kills + other.kills }
    }
}

/// n! / (c1! c2! ...) for counts summing to n.
fn multinomial(n: u32, counts: &[u32]) -> BigUint {
    let fact = |k: u32| (1..=k).fold(BigUint::one(), |acc, i| acc * i);
    counts.iter().fold(fact(n), |acc, &c| acc / fact(c))
}

/// `base^exp` as a BigUint.
fn pow(base: u32, exp: u32) -> BigUint {
    BigUint::from(base).pow(exp)
}

/// A target: figures left and Shock on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash, Ord)]
pub struct Unit {
    /// Figures left.
    pub figures: u32,
    /// Shock.
    pub shock: u32,
}

impl Fire {
    /// The target's condition index into `TARGET_OUTCOMES`.
    pub(crate) fn condition(&self, u: &Unit) -> usize {
        if u.figures == 0 {
            3
        } else if self.thresholds.broken.reached(u.figures, u.shock) {
            2
        } else {
            usize::from(self.thresholds.pinned.reached(u.figures, u.shock))
        }
    }

    /// The cover the target fights from: one or more levels better while Pinned.
    pub(super) fn cover_of(&self, u: &Unit) -> usize {
        let pinned = self.thresholds.pinned.reached(u.figures, u.shock);
        let up = if pinned { self.pinned_cover_up } else { 0 };
        (self.cover + up).min(self.effect_by_cover.len() - 1)
    }

    /// Each die's weights over 36 at a cover level: no hit, then a hit read as a
    /// miss, a Shock or a kill (each effect face counts the faces that hit).
    fn die_weights(&self, cover: usize) -> [u32; 4] {
        let hit_faces = 7 - self.hit_on;
        let count = |e: HitEffect| self.effect_by_cover[cover].iter().filter(|f| **f == e).count() as u32 * hit_faces;
        [6 * (self.hit_on - 1), count(HitEffect::Miss), count(HitEffect::Shock), count(HitEffect::Kill)]
    }

    /// The exact distribution of one fire's volley at a cover level, in closed form:
    /// the dice fall into four kinds (no hit, a hit that misses, Shock, kill), so
    /// (hits, Shock, kills) is multinomial, weighted over 36^dice.
    fn volley_dist(&self, cover: usize) -> Dist<Volley, BigUint> {
        let [none, miss, shock, kill] = self.die_weights(cover);
        let n = self.dice;
        let mut pairs = Vec::new();
        for hits in 0..=n {
            for s in 0..=hits {
                for k in 0..=hits - s {
                    let ways = multinomial(n, &[n - hits, hits - s - k, s, k]);
                    let w = ways * pow(none, n - hits) * pow(miss, hits - s - k) * pow(shock, s) * pow(kill, k);
                    pairs.push((Volley { hits, shock: s, kills: k }, w));
                }
            }
        }
        Dist::from_weights(pairs).expect("arbitrary-precision weights do not overflow")
    }

    /// The (Shock, kills) of one fire at a cover level over 36^dice: what a target
    /// carries into the next Phase (hits alone change nothing). Trinomial, so a
    /// hundred dice make about five thousand outcomes.
    fn effect_dist(&self, cover: usize) -> Vec<((u32, u32), BigUint)> {
        self.effect_dist_of(self.dice, cover)
    }

    /// [`Fire::effect_dist`] for `dice` firepower dice rather than the set-up
    /// number: an engagement's firer loses dice to Shock and Pinning as it goes.
    pub(super) fn effect_dist_of(&self, dice: u32, cover: usize) -> Vec<((u32, u32), BigUint)> {
        let [none, miss, shock, kill] = self.die_weights(cover);
        let (n, nothing) = (dice, none + miss);
        let mut out = Vec::new();
        for s in 0..=n {
            for k in 0..=n - s {
                let w = multinomial(n, &[n - s - k, s, k]) * pow(nothing, n - s - k) * pow(shock, s) * pow(kill, k);
                if !w.is_zero() {
                    out.push(((s, k), w));
                }
            }
        }
        out
    }

    /// One literal fire at `u`: each die to hit, then its effect.
    fn roll(&self, u: &Unit, streams: &mut Streams) -> Volley {
        self.roll_dice(self.dice, u, streams)
    }

    /// One literal fire of `dice` firepower dice at `u` (see [`Fire::effect_dist_of`]).
    pub(super) fn roll_dice(&self, dice: u32, u: &Unit, streams: &mut Streams) -> Volley {
        let effect = &self.effect_by_cover[self.cover_of(u)];
        let mut v = Volley::default();
        for _ in 0..dice {
            if D6.roll(&mut streams.fire) >= self.hit_on {
                v = v.plus(&Volley::of(effect[D6.roll(&mut streams.effect) as usize - 1]));
            }
        }
        v
    }

    /// `u` after a volley: kills remove figures, Shock adds up.
    pub(super) fn after(u: &Unit, v: &Volley) -> Unit {
        Unit { figures: u.figures - v.kills.min(u.figures), shock: u.shock + v.shock }
    }

    fn start(&self) -> Unit {
        Unit { figures: self.figures, shock: self.shock }
    }
}

/// How Shock, moving and Pinning cut a firer's firepower dice (CoC-8 to CoC-10), with
/// the table's numbers and the settings read: one rule for a single fire and for a
/// firer whose Shock grows through an engagement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Firepower {
    /// Shock that costs one die (`shock.toml`).
    pub shock_per_lost_die: u32,
    /// A Pinned firer's dice are divided by this, when Pinning has effects (CoC-8).
    pub pinned_divisor: Option<u32>,
    /// Halves round up (CoC-9).
    pub round_up: bool,
}

impl Firepower {
    /// Shock and Pinning from the tables, as the settings read them.
    pub fn new(t: &ShootingTables, pinned_effects: bool, round_up: bool) -> Self {
        Firepower {
            shock_per_lost_die: t.shock_per_lost_die,
            pinned_divisor: pinned_effects.then_some(t.pinned_firepower_divisor),
            round_up,
        }
    }

    /// Dice lost to `shock` (one per `shock_per_lost_die`), before any halving.
    pub fn lost(&self, shock: u32) -> u32 {
        shock / self.shock_per_lost_die
    }

    fn divide(&self, n: u32, by: u32) -> u32 {
        if self.round_up { n.div_ceil(by) } else { n / by }
    }

    /// The dice a firer of `base` dice rolls with `shock` on it, halved for moving and
    /// divided again while Pinned (where Pinning has effects).
    pub fn dice(&self, base: u32, shock: u32, moved: bool, pinned: bool) -> u32 {
        let mut dice = base.saturating_sub(self.lost(shock));
        if moved {
            dice = self.divide(dice, 2);
        }
        match self.pinned_divisor {
            Some(by) if pinned => self.divide(dice, by),
            _ => dice,
        }
    }
}

/// One fire at one target.
#[derive(Debug, Clone)]
pub struct Shooting {
    fire: Fire,
    measures: Vec<Measure>,
}

impl Shooting {
    /// The fire, reporting `target`, `kills`, `shock` and `hits`.
    pub fn new(fire: Fire) -> Self {
        let measures = vec![
            Measure::new("target", TARGET_OUTCOMES),
            Measure::counts("kills", fire.figures),
            Measure::counts("shock", fire.dice),
            Measure::counts("hits", fire.dice),
        ];
        Shooting { fire, measures }
    }
}

impl Resolution for Shooting {
    type State = Volley;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    /// The worst outcome, wiped out; `target` also reports Broken.
    fn kill(&self) -> (usize, usize) {
        (0, 3)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> Volley {
        self.fire.roll(&self.fire.start(), streams)
    }

    #[inline(always)]
    fn index(&self, v: &Volley, out: &mut [usize]) {
        let u = Fire::after(&self.fire.start(), v);
        out[0] = self.fire.condition(&u);
        out[1] = (self.fire.figures - u.figures) as usize;
        out[2] = v.shock as usize;
        out[3] = v.hits as usize;
    }

    fn exact_state(&self) -> Result<Dist<Volley, BigUint>, TooLarge> {
        Ok(self.fire.volley_dist(self.fire.cover_of(&self.fire.start())))
    }
}

/// The same fire every Phase until the target Breaks or is wiped out.
#[derive(Debug, Clone)]
pub struct ShootingPhases {
    fire: Fire,
    /// One fire's (Shock, kills) by cover level, each over 36^dice.
    per_cover: Vec<Vec<((u32, u32), BigUint)>>,
}

impl ShootingPhases {
    /// Followed for `horizon` Phases; the event is the target Broken (or wiped out).
    pub fn new(fire: Fire, horizon: u32) -> Horizon<Self> {
        let per_cover = (0..fire.effect_by_cover.len()).map(|c| fire.effect_dist(c)).collect();
        Horizon::new(ShootingPhases { fire, per_cover }, horizon, "broken", None)
    }

    fn after(&self, u: &Unit, v: &Volley) -> Result<Unit, ()> {
        let next = Fire::after(u, v);
        if self.fire.condition(&next) >= 2 { Err(()) } else { Ok(next) }
    }
}

impl Phases for ShootingPhases {
    /// The target's figures and Shock.
    type Held = Unit;
    type End = ();

    fn start(&self) -> Result<Unit, ()> {
        self.after(&self.fire.start(), &Volley::default())
    }

    fn phase(&self, u: &Unit, streams: &mut Streams) -> Result<Unit, ()> {
        self.after(u, &self.fire.roll(u, streams))
    }

    /// The volley at the cover the target holds now (better while Pinned), brought back
    /// to 36^dice.
    fn phase_exact(&self, u: &Unit) -> Vec<(Result<Unit, ()>, BigUint)> {
        let volley = |&(shock, kills): &(u32, u32)| Volley { hits: shock + kills, shock, kills };
        self.per_cover[self.fire.cover_of(u)].iter().map(|(sk, w)| (self.after(u, &volley(sk)), w.clone())).collect()
    }

    /// Held states (figures x Shock below Broken) times one Phase's outcomes.
    fn phase_cost(&self) -> u64 {
        let held = u64::from(self.fire.figures) * u64::from(2 * self.fire.figures + 1);
        held * self.per_cover.iter().map(|d| d.len() as u64).max().unwrap_or(1)
    }

    fn phase_total(&self) -> BigUint {
        BigUint::from(36u32).pow(self.fire.dice)
    }
}

/// The weapons file as the page's editor offers it: each weapon's firepower dice
/// (chain-of-command-facts.md, "Firepower dice per weapon": invented, none found).
pub(crate) const SHAPE: crate::ruleset::CatalogueShape = crate::ruleset::CatalogueShape {
    file: "weapons.toml",
    fields: &[
        ("weapon.name", "Its name in scenarios (letters, digits and _)"),
        ("weapon.label", "The weapon's name, as answers say it"),
        ("weapon.firepower", "Firepower dice each figure with it rolls"),
    ],
};
