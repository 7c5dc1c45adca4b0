//! Company Commander v1.05 (seed 003; d10, d6, d100): the ballistic score to hit,
//! penetration against armour plus a d6, d100 hit damage by AP, cover saves and weapon
//! strength against everything else, suppression turning into damage, close assault,
//! barrages and A.A. fire. Scale: 1 hex = 100 m.

mod barrage;
mod catalogue;
mod engagement;
mod fire;
mod scenario;
mod settings;
mod tables;

pub use barrage::{Barrage, BarrageState};
pub use catalogue::{AntiArmour, Catalogue, Mode, Penetration, Stabiliser, Vehicle, Weapon};
pub use engagement::{CcBattle, Unit};
pub use fire::{
    Chain, Effect, FireAction, Made, Next, Roll, Step, Strike, SuppressedAgain, TARGET_OUTCOMES, TargetState, Volley,
};
pub use settings::{ENGAGEMENT_SETTINGS, SETTINGS};
pub use tables::{AP_VALUES, EMBEDDED, Facing, HitKind, QUALITIES, StrengthReading, Tables};

use crate::ruleset::{Automatic, Chart, Load, Ruleset, SetUp, TableView};
use crate::setup::Sections;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{Embedded, TableFile};

/// The loaded ruleset.
pub struct CompanyCommander {
    files: Vec<TableFile>,
    tables: Tables,
    catalogue: Catalogue,
}

impl Load for CompanyCommander {
    const EMBEDDED: &'static Embedded = &EMBEDDED;

    fn from_files(files: Vec<TableFile>) -> Result<Self> {
        let tables = Tables::load(&files)?;
        let catalogue = Catalogue::load(combat_odds_core::tables::file(&files, "catalogue.toml"), &tables)?;
        Ok(CompanyCommander { files, tables, catalogue })
    }
}

impl CompanyCommander {
    /// The validated tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The example catalogue.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }
}

impl Ruleset for CompanyCommander {
    fn catalogue(&self) -> Option<&'static crate::ruleset::CatalogueShape> {
        Some(&catalogue::SHAPE)
    }

    fn name(&self) -> &'static str {
        EMBEDDED.ruleset
    }

    /// Its fire screen gives the destroy chance as a whole percentage.
    fn shows_percent(&self) -> bool {
        true
    }

    fn files(&self) -> &[TableFile] {
        &self.files
    }

    fn table_views(&self) -> Vec<TableView> {
        let t = &self.tables;
        let q = &t.quality;
        let mut views = vec![TableView::new(
            "quality.toml",
            &q.source,
            std::iter::once(("quality", q.rows.iter().map(|r| r.name.clone()).collect()))
                .chain(
                    tables::LETTER_LISTS
                        .iter()
                        .enumerate()
                        .map(|(i, list)| (*list, q.rows.iter().map(|r| r.letters[i].clone()).collect())),
                )
                .collect(),
        )];
        let th = &t.to_hit;
        views.push(TableView::new(
            "to_hit.toml (score and range bands)",
            &th.source,
            vec![
                ("up_to_percent", th.range_bands.iter().map(|b| format!("{}%", b.up_to_percent)).collect()),
                (
                    "modifier",
                    th.range_bands.iter().map(|b| b.modifier.clone().unwrap_or_else(|| "none (0)".into())).collect(),
                ),
                (
                    "ballistic_score",
                    th.range_bands
                        .iter()
                        .map(|_| {
                            format!(
                                "{} on a d{}; {} always hits, {} always misses",
                                th.ballistic_score,
                                th.die.sides(),
                                th.always_hits,
                                th.always_misses
                            )
                        })
                        .collect(),
                ),
            ],
        ));
        views.push(TableView::new(
            "attacks.toml",
            &t.attacks.source,
            vec![
                ("fire", vec!["direct, stationary".into(), "direct, moved".into(), "indirect".into()]),
                (
                    "attacks",
                    vec![
                        "stationary rate of fire x strength points".into(),
                        "moving rate of fire x strength points".into(),
                        format!("{} x strength points", t.attacks.indirect_fire_per_strength_point),
                    ],
                ),
            ],
        ));
        let a = &t.armour;
        views.push(TableView::new(
            "armour.toml",
            &a.source,
            vec![
                ("npv", a.npv.ranges().iter().map(ToString::to_string).collect()),
                ("hit", a.kinds.iter().map(|k| k.name().to_string()).collect()),
                ("label", a.labels.clone()),
                (
                    "defence",
                    a.labels
                        .iter()
                        .map(|_| {
                            format!(
                                "armour + d{}; front {}°, rear {}°, top attack and indirect fire: {}",
                                a.defence_die.sides(),
                                a.front_arc_degrees,
                                a.rear_arc_degrees,
                                a.top_attack_and_indirect_fire.name()
                            )
                        })
                        .collect(),
                ),
            ],
        ));
        let h = &t.hit_damage;
        views.push(TableView::new(
            "hit_damage.toml",
            &h.source,
            vec![
                ("ap", (AP_VALUES.0..=AP_VALUES.1).rev().map(|ap| ap.to_string()).collect()),
                (
                    "success",
                    (AP_VALUES.0..=AP_VALUES.1).rev().map(|ap| format!("{} or less", h.success_for(ap))).collect(),
                ),
                (
                    "results",
                    (AP_VALUES.0..=AP_VALUES.1)
                        .map(|_| {
                            format!(
                                "glancing: {} / {}; penetrating: {} / {}; vulnerable +{} AP",
                                h.glancing[0].name(),
                                h.glancing[1].name(),
                                h.penetrating[0].name(),
                                h.penetrating[1].name(),
                                h.vulnerable_ap_bonus
                            )
                        })
                        .collect(),
                ),
            ],
        ));
        let w = &t.weapon_strength;
        views.push(TableView::new(
            "weapon_strength.toml",
            &w.source,
            vec![
                ("reading", w.readings.iter().map(|r| r.name.clone()).collect()),
                ("label", w.readings.iter().map(|r| r.label.clone()).collect()),
                (
                    "by_strength",
                    w.readings
                        .iter()
                        .map(|r| {
                            (w.strengths.0..=w.strengths.1)
                                .map(|s| {
                                    let faces: String = (1..=w.die.sides())
                                        .map(|f| ['-', 'S', 'D', 'X'][r.effect(f, s) as usize])
                                        .collect();
                                    format!("{s}:{faces}")
                                })
                                .collect::<Vec<_>>()
                                .join(" ")
                        })
                        .collect(),
                ),
            ],
        ));
        let c = &t.close_assault;
        views.push(TableView::new(
            "close_assault.toml (hit score)",
            &c.source,
            vec![
                ("quality", QUALITIES.iter().map(|q| q.to_string()).collect()),
                ("label", c.hit_labels.clone()),
                ("score", c.hit_score.iter().map(|s| format!("{s} or more")).collect()),
            ],
        ));
        views.push(TableView::new(
            "close_assault.toml (weapon effectiveness)",
            &c.source,
            vec![
                ("weapon_class", c.weapons.iter().map(|w| w.name.clone()).collect()),
                ("label", c.weapons.iter().map(|w| w.label.clone()).collect()),
                ("success", c.weapons.iter().map(|w| format!("{} or less", w.success_up_to)).collect()),
            ],
        ));
        views.push(TableView::new(
            "close_assault.toml (outcome)",
            &c.source,
            vec![
                ("roll", c.outcome_bands.iter().map(|(b, _)| b.to_string()).collect()),
                ("result", c.outcome_bands.iter().map(|(_, e)| e.name().to_string()).collect()),
            ],
        ));
        let b = &t.barrage;
        views.push(TableView::new(
            "barrage.toml",
            &b.source,
            vec![
                ("barrage", b.types.iter().map(|x| x.name.clone()).collect()),
                ("radius", b.types.iter().map(|x| x.radius.to_string()).collect()),
                ("percent", b.types.iter().map(|x| format!("{}%", x.percent)).collect()),
            ],
        ));
        let aa = &t.aa_fire;
        views.push(TableView::new(
            "aa_fire.toml",
            &aa.source,
            vec![
                ("level", aa.levels.iter().map(|l| l.name.clone()).collect()),
                ("label", aa.levels.iter().map(|l| l.label.clone()).collect()),
                ("percent", aa.levels.iter().map(|l| format!("{}%", l.percent)).collect()),
            ],
        ));
        views
    }

    fn charts(&self) -> Vec<Chart<'_>> {
        let t = &self.tables;
        vec![
            ("all_shooting", "to_hit.toml", &t.to_hit.all_shooting),
            ("direct_fire", "to_hit.toml", &t.to_hit.direct_fire),
            ("indirect_fire", "to_hit.toml", &t.to_hit.indirect_fire),
            ("cover_save", "cover_saves.toml", &t.cover_saves.values),
        ]
    }

    fn automatic(&self) -> &'static [Automatic] {
        scenario::AUTOMATIC
    }

    fn catalogue_views(&self) -> Vec<TableView> {
        let cat = &self.catalogue;
        let weapons: Vec<&Weapon> = cat.weapons.values().collect();
        let c_names: Vec<String> = self.tables.close_assault.weapons.iter().map(|w| w.name.clone()).collect();
        let mode = |m: &Option<Mode>| {
            m.as_ref().map_or(String::new(), |m| {
                let pen = match m.anti_armour {
                    None => "no penetration".to_string(),
                    Some(AntiArmour { penetration: Penetration::Constant(p), ap }) => format!("pen {p}, AP {ap}"),
                    Some(AntiArmour { penetration: Penetration::Ranged { at_min, at_max }, ap }) => {
                        format!("pen {at_min}-{at_max}, AP {ap}")
                    }
                };
                format!(
                    "ROF {}/{}, range {}-{}, {pen}, strength {}",
                    m.stationary_rof, m.moving_rof, m.range.0, m.range.1, m.strength
                )
            })
        };
        let weapons_view = TableView::new(
            "catalogue.toml (weapons, illustrative)",
            &cat.source,
            vec![
                ("weapon", weapons.iter().map(|w| w.name.clone()).collect()),
                ("direct", weapons.iter().map(|w| mode(&w.direct)).collect()),
                ("indirect", weapons.iter().map(|w| mode(&w.indirect)).collect()),
                (
                    "close_assault",
                    weapons.iter().map(|w| w.close_assault.map_or(String::new(), |c| c_names[c].clone())).collect(),
                ),
            ],
        );
        let vehicles: Vec<&Vehicle> = cat.vehicles.values().collect();
        let vehicles_view = TableView::new(
            "catalogue.toml (vehicles, illustrative)",
            &cat.source,
            vec![
                ("vehicle", vehicles.iter().map(|v| v.name.clone()).collect()),
                (
                    "armour",
                    vehicles.iter().map(|v| format!("{} / {} / {}", v.armour[0], v.armour[1], v.armour[2])).collect(),
                ),
                ("open_topped", vehicles.iter().map(|v| v.open_topped.to_string()).collect()),
                ("strength", vehicles.iter().map(|v| v.strength.to_string()).collect()),
            ],
        );
        vec![weapons_view, vehicles_view]
    }

    fn kinds(&self) -> &'static Sections {
        scenario::SECTIONS
    }

    fn set_up_kind(&self, doc: &Document, kind: &'static str) -> Result<SetUp> {
        match kind {
            "engagement" => engagement::set_up(doc, &self.tables, &self.catalogue),
            k => scenario::set_up(doc, k, &self.tables, &self.catalogue),
        }
    }
}
