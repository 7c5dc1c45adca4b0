//! Command Decision: Test of Battle (seeds 000 and 001): direct and indirect fire,
//! the Hit Results Chart with AP penetration, ammo depletion, and company morale.

mod catalogue;
mod engagement;
mod fire;
mod morale;
mod quality;
mod scenario;
mod settings;
mod tables;

pub use catalogue::{AntiArmour, Catalogue, Vehicle, Weapon};
pub use engagement::{CdBattle, Morale, Stand};
pub use fire::{EffectByFace, FireResolution, FireState, Volley};
pub use morale::morale_check;
pub use quality::Quality;
pub use settings::{ENGAGEMENT_SETTINGS, SETTINGS};
pub use tables::{EMBEDDED, HitResult, Tables};

use crate::ruleset::{Automatic, Chart, Load, Peer, Ruleset, SetUp, TableView};
use crate::setup::Sections;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{Embedded, TableFile};

/// The loaded ruleset.
pub struct CommandDecision {
    files: Vec<TableFile>,
    tables: Tables,
    catalogue: Catalogue,
}

/// Which rows the rules apply by themselves, per chart, and from what.
const AUTOMATIC: &[(&str, &str, &str)] = &[
    ("rate_of_fire", "elite", "firer quality elite"),
    ("rate_of_fire", "op_fire", "phase = \"opportunity\", not for passengers"),
    ("rate_of_fire", "personnel_close_assault_vs_afv", "close assault by personnel on an AFV"),
    ("direct_fire", "veteran_elite", "firer quality"),
    ("direct_fire", "trained_green", "firer quality"),
    ("direct_fire", "h_class_vs_weak_afv", "H class band against a weak AFV"),
    ("direct_fire", "h_class_vs_all_afv", "H class band against any AFV, times its weight class"),
    ("direct_fire", "a_class_vs_strong_afv", "A class band against a strong AFV"),
    ("direct_fire", "w_class_vs_weak_afv", "W class band against a weak AFV"),
    ("indirect_fire", "vs_weak_afv", "target is a weak AFV"),
    ("indirect_fire", "vs_all_afv", "target is an AFV, times its weight class"),
    ("artillery_response", "elite_veteran", "firer quality"),
    ("artillery_response", "trained_green", "firer quality"),
    ("ammo_depletion", "armoured_car", "mount = \"armoured_car\""),
    ("ammo_depletion", "tank", "mount = \"tank\""),
    ("ap", "armour_value", "target armour on the facing fired at"),
    ("ap", "weapon_penetration", "numeric anti-armour value of the band"),
    ("morale", "stand_forced_back", "stands_forced_back = N"),
    ("morale", "stand_eliminated", "stands_eliminated = N"),
    ("morale", "pinned", "status = \"pinned\""),
    ("morale", "shaken", "status = \"shaken\""),
    ("morale", "demoralized", "status = \"demoralized\""),
];

impl Load for CommandDecision {
    const EMBEDDED: &'static Embedded = &EMBEDDED;

    fn from_files(files: Vec<TableFile>) -> Result<Self> {
        let tables = Tables::load(&files)?;
        let catalogue = Catalogue::load(combat_odds_core::tables::file(&files, "catalogue.toml"))?;
        Ok(CommandDecision { files, tables, catalogue })
    }
}

impl CommandDecision {
    /// The validated tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The peer comparison's resolution (the README's speed targets are set for it):
    /// ROF 3 at hit number 5 against a Regular stand (three to-hit dice and an
    /// effect die per hit), on the unmodified Regular row.
    pub fn peer_resolution(&self) -> FireResolution {
        let row = self.tables.hit_row(Quality::Regular);
        let effect = std::array::from_fn(|i| row.result(i as i32 + 1));
        FireResolution::new(vec![Volley { dice: 3, hit_at_most: 5, effect, ammo: None }], None, vec![], false)
    }

    /// The example catalogue.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }
}

impl Ruleset for CommandDecision {
    fn catalogue(&self) -> Option<&'static crate::ruleset::CatalogueShape> {
        Some(&catalogue::SHAPE)
    }

    fn name(&self) -> &'static str {
        EMBEDDED.ruleset
    }

    fn files(&self) -> &[TableFile] {
        &self.files
    }

    fn table_views(&self) -> Vec<TableView> {
        let t = &self.tables;
        let hit = TableView {
            file: "hit_results.toml".into(),
            source: t.hit_results_source.clone(),
            columns: {
                let band =
                    |i: usize| Quality::ALL.iter().map(|q| t.hit_row(*q).bands.ranges()[i].to_string()).collect();
                vec![
                    ("quality".into(), Quality::NAMES.iter().map(|s| s.to_string()).collect()),
                    ("no_effect".into(), band(0)),
                    ("forced_back".into(), band(1)),
                    ("eliminated".into(), band(2)),
                    ("*".into(), Quality::ALL.iter().map(|q| t.hit_row(*q).natural.to_string()).collect()),
                ]
            },
        };
        let morale = TableView {
            file: "morale_results.toml".into(),
            source: t.morale_results_source.clone(),
            columns: vec![
                ("exceed".into(), t.morale_results.bands.ranges().iter().map(|r| r.to_string()).collect()),
                ("result".into(), t.morale_results.results.iter().map(|(r, _)| r.clone()).collect()),
                ("forced_back".into(), t.morale_results.results.iter().map(|(_, b)| b.to_string()).collect()),
            ],
        };
        let response = TableView {
            file: "artillery_response.toml".into(),
            source: t.artillery_response.source.clone(),
            columns: vec![
                ("artillery".into(), vec!["organic".into(), "supporting".into()]),
                ("label".into(), t.artillery_response.labels.to_vec()),
                (
                    "success".into(),
                    vec![t.artillery_response.organic.to_string(), t.artillery_response.supporting.to_string()],
                ),
            ],
        };
        let ammo = TableView {
            file: "ammo_depletion.toml".into(),
            source: t.ammo.source.clone(),
            columns: vec![
                ("trigger".into(), vec![format!("natural {} on a to-hit die", t.ammo.trigger)]),
                ("min_caliber_mm".into(), vec![t.ammo.min_caliber_mm.to_string()]),
                ("depletes_at_or_below".into(), vec![format!("caliber / {}, fractions dropped", t.ammo.divisor)]),
            ],
        };
        let natural = TableView {
            file: "ap_modifiers.toml".into(),
            source: t.ap.source.clone(),
            columns: vec![
                ("close_range".into(), vec![HitResult::NAMES[t.natural.close_range as usize].into()]),
                ("other_ranges_at_least".into(), vec![HitResult::NAMES[t.natural.other_ranges as usize].into()]),
            ],
        };
        vec![hit, natural, morale, response, ammo]
    }

    fn charts(&self) -> Vec<Chart<'_>> {
        let t = &self.tables;
        vec![
            ("rate_of_fire", "rate_of_fire_modifiers.toml", &t.rate_of_fire),
            ("direct_fire", "direct_fire_modifiers.toml", &t.direct_fire),
            ("indirect_fire", "indirect_fire_modifiers.toml", &t.indirect_fire),
            ("artillery_response", "artillery_response.toml", &t.artillery_response.modifiers),
            ("ammo_depletion", "ammo_depletion.toml", &t.ammo.modifiers),
            ("ap", "ap_modifiers.toml", &t.ap),
            ("morale", "morale_modifiers.toml", &t.morale_modifiers),
            ("orders", "orders.toml", &t.orders),
        ]
    }

    fn automatic(&self) -> &'static [Automatic] {
        AUTOMATIC
    }

    fn catalogue_views(&self) -> Vec<TableView> {
        let c = &self.catalogue;
        let weapons: Vec<&Weapon> = c.weapons.values().collect();
        let band = |w: &Weapon, i: usize| {
            let b = w.bands[i];
            format!("{}({}){}", b.range.map_or("C".into(), |r| r.to_string()), b.hit, b.anti_armour.label())
        };
        let rof = |w: &Weapon| {
            let star = if w.stationary_only { "*" } else { "" };
            if w.rof == w.rof_close_assault {
                format!("{}{star}", w.rof)
            } else {
                format!("{}/{}{star}", w.rof_close_assault, w.rof)
            }
        };
        let band_col = |i: usize| weapons.iter().map(|w| band(w, i)).collect();
        let weapons_view = TableView {
            file: "catalogue.toml (weapons, illustrative)".into(),
            source: c.source.clone(),
            columns: vec![
                ("weapon".into(), weapons.iter().map(|w| w.name.clone()).collect()),
                ("rof".into(), weapons.iter().map(|w| rof(w)).collect()),
                ("close".into(), band_col(0)),
                ("medium".into(), band_col(1)),
                ("long".into(), band_col(2)),
                ("extreme".into(), band_col(3)),
                (
                    "idf".into(),
                    weapons
                        .iter()
                        .map(|w| w.idf.map_or(String::new(), |i| format!("{}\"/{}", i.burst, i.he)))
                        .collect(),
                ),
                (
                    "other".into(),
                    weapons
                        .iter()
                        .map(|w| {
                            w.other.as_deref().map_or(String::new(), |o| {
                                format!("{} {}", rof(o), (0..4).map(|i| band(o, i)).collect::<Vec<_>>().join(" "))
                            })
                        })
                        .collect(),
                ),
            ],
        };
        let vehicles: Vec<&Vehicle> = c.vehicles.values().collect();
        let vehicles_view = TableView {
            file: "catalogue.toml (vehicles, illustrative)".into(),
            source: c.source.clone(),
            columns: vec![
                ("vehicle".into(), vehicles.iter().map(|v| v.name.clone()).collect()),
                ("armour_front".into(), vehicles.iter().map(|v| v.armour_front.to_string()).collect()),
                ("armour_flank".into(), vehicles.iter().map(|v| v.armour_flank.to_string()).collect()),
                ("afv".into(), vehicles.iter().map(|v| format!("{:?}", v.afv).to_lowercase()).collect()),
                ("weight_class".into(), vehicles.iter().map(|v| v.weight_class.to_string()).collect()),
            ],
        };
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

    fn peer(&self) -> Option<Peer> {
        let by_trial = combat_odds_core::engine::ByTrial(Box::new(self.peer_resolution()));
        Some(Peer { fire: Box::new(self.peer_resolution()), by_trial: Box::new(by_trial) })
    }
}
