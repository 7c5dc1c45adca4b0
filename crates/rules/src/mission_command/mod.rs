//! Mission Command (seed 004, d20): point-to-point fire by range band, conversion of
//! hits to casualties (foot) and KOs (armour class 1-10), area fire against AFVs and
//! buildings, reaction tests, and anti-aircraft fire.

mod catalogue;
mod engagement;
mod fire;
mod scenario;
mod settings;
mod tables;

pub use catalogue::{Catalogue, Weapon};
pub use engagement::{Element, McBattle, Status};
pub use fire::{Counts, Fire, FireState, Shot, effect_by_face};
pub use settings::{ENGAGEMENT_SETTINGS, SETTINGS};
pub use tables::{
    AaCell, AaDamage, AreaKoCell, BUILDING_RESULTS, BuildingCell, CASUALTY_COLUMNS, CasualtyCell, EMBEDDED, KoCell,
    KoValue, REACTION_RESULTS, RangeClause, Tables, ToHitCell,
};

use crate::ruleset::{Automatic, Chart, Load, Ruleset, SetUp, TableView};
use crate::setup::Sections;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{Embedded, Source, TableFile};

/// The loaded ruleset.
pub struct MissionCommand {
    files: Vec<TableFile>,
    tables: Tables,
    catalogue: Catalogue,
}

/// Which rows the rules apply by themselves, per chart, and from what.
const AUTOMATIC: &[(&str, &str, &str)] = &[
    ("to_hit", "suppression_marker", "suppression_markers = N on the firer"),
    ("reaction", "not_elite_out_of_command", "out_of_command = true, quality not elite"),
    ("reaction", "raw", "quality = \"raw\""),
    ("reaction", "green", "quality = \"green\""),
    ("reaction", "veteran", "quality = \"veteran\""),
    ("reaction", "elite", "quality = \"elite\""),
    ("reaction", "elite_out_of_command", "out_of_command = true, quality elite"),
    ("reaction", "element_eliminated", "elements_eliminated = N"),
    ("reaction", "element_suppressed", "elements_suppressed = N"),
    ("reaction", "enemy_afv_knocked_out", "enemy_afvs_knocked_out = N"),
    ("reaction", "friendly_afv_knocked_out", "friendly_afvs_knocked_out = N"),
];

impl Load for MissionCommand {
    const EMBEDDED: &'static Embedded = &EMBEDDED;

    fn from_files(files: Vec<TableFile>) -> Result<Self> {
        let tables = Tables::load(&files)?;
        let catalogue = Catalogue::load(combat_odds_core::tables::file(&files, "catalogue.toml"), &tables)?;
        Ok(MissionCommand { files, tables, catalogue })
    }
}

impl MissionCommand {
    /// The validated tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The example catalogue.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }
}

/// A grid as a listing: a name column, a label column, then one column per heading.
fn grid_view<T: ToString>(
    file: &str,
    source: &Source,
    headings: &[String],
    rows: &[&combat_odds_core::tables::grid::NamedRow<T>],
) -> TableView {
    let mut columns = vec![
        ("name".to_string(), rows.iter().map(|r| r.name.clone()).collect()),
        ("label".to_string(), rows.iter().map(|r| r.label.clone()).collect()),
    ];
    for (i, h) in headings.iter().enumerate() {
        columns.push((
            h.clone(),
            rows.iter().map(|r| r.cells.get(i).map_or(String::new(), ToString::to_string)).collect(),
        ));
    }
    TableView { file: file.to_string(), source: source.clone(), columns }
}

impl Ruleset for MissionCommand {
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
        let bands: Vec<String> = t.to_hit.ranges_cm.iter().map(|r| format!("up_to_{r}cm")).collect();
        let to_hit_rows: Vec<_> = t.to_hit.rows.iter().map(|r| &r.row).collect();
        let mut views = vec![grid_view("to_hit.toml", &t.to_hit.source, &bands, &to_hit_rows)];
        let casualty: Vec<_> = t.casualty.rows.iter().collect();
        views.push(grid_view("casualty.toml", &t.casualty.source, &t.casualty.columns, &casualty));
        let classes: Vec<String> = tables::ARMOUR_CLASSES.map(|a| format!("ac_{a}")).collect();
        for (part, file) in ["ko_part1.toml", "ko_part2.toml"].iter().enumerate() {
            let rows: Vec<_> = t.ko.rows.iter().zip(&t.ko.part).filter(|(_, p)| **p == part).map(|(r, _)| r).collect();
            views.push(grid_view(file, &t.ko.sources[part], &classes, &rows));
        }
        let area = |file: &str, source: &Source, bands: Vec<String>, classes: Vec<(&str, Vec<[String; 2]>)>| {
            let mut columns = vec![
                ("class".to_string(), Vec::new()),
                ("band".to_string(), Vec::new()),
                ("standard".to_string(), Vec::new()),
                ("bombardment".to_string(), Vec::new()),
            ];
            for (name, cells) in classes {
                for (band, [standard, bombardment]) in bands.iter().zip(cells) {
                    for (col, v) in columns.iter_mut().zip([name.to_string(), band.clone(), standard, bombardment]) {
                        col.1.push(v);
                    }
                }
            }
            TableView { file: file.to_string(), source: source.clone(), columns }
        };
        let afv = &t.area_afv;
        views.push(area(
            "area_fire_afv.toml",
            &afv.source,
            afv.armour_bands.ranges().iter().map(|r| format!("armour {r}")).collect(),
            afv.classes
                .iter()
                .map(|c| (c.name.as_str(), c.cells.iter().map(|p| p.map(|x| x.to_string())).collect()))
                .collect(),
        ));
        let bld = &t.area_buildings;
        views.push(area(
            "area_fire_buildings.toml",
            &bld.source,
            bld.structures.clone(),
            bld.classes
                .iter()
                .map(|c| (c.name.as_str(), c.cells.iter().map(|p| p.clone().map(|x| x.to_string())).collect()))
                .collect(),
        ));
        let systems = |file: &str, source: &Source, list: &[tables::AreaSystem], classes: Vec<&str>| TableView {
            file: format!("{file} (systems)"),
            source: source.clone(),
            columns: vec![
                ("system".into(), list.iter().map(|s| s.name.clone()).collect()),
                ("label".into(), list.iter().map(|s| s.label.clone()).collect()),
                (
                    "class".into(),
                    list.iter().map(|s| s.class.map_or("no effect".into(), |c| classes[c].to_string())).collect(),
                ),
                (
                    "intensity".into(),
                    list.iter()
                        .map(|s| s.intensity.map_or(String::new(), |i| tables::Intensity::NAMES[i as usize].into()))
                        .collect(),
                ),
                (
                    "facing".into(),
                    list.iter().map(|s| s.facing.map_or(String::new(), |f| format!("{f:?}").to_lowercase())).collect(),
                ),
            ],
        };
        views.push(systems(
            "area_fire_afv.toml",
            &afv.source,
            &afv.systems,
            afv.classes.iter().map(|c| c.name.as_str()).collect(),
        ));
        views.push(systems(
            "area_fire_buildings.toml",
            &bld.source,
            &bld.systems,
            bld.classes.iter().map(|c| c.name.as_str()).collect(),
        ));
        views.push(TableView {
            file: "area_fire_buildings.toml (results)".into(),
            source: bld.source.clone(),
            columns: vec![
                ("letter".into(), bld.results.iter().map(|r| r.letter.to_string()).collect()),
                ("result".into(), bld.results.iter().map(|r| r.name.clone()).collect()),
                ("effects".into(), bld.results.iter().map(|r| r.effects.join("; ")).collect()),
            ],
        });
        views.push(TableView {
            file: "area_fire_ranges.toml".into(),
            source: t.area_ranges_source.clone(),
            columns: vec![
                ("weapon".into(), t.area_ranges.iter().map(|w| w.name.clone()).collect()),
                ("type".into(), t.area_ranges.iter().map(|w| w.weapon_type.clone()).collect()),
                ("calibre".into(), t.area_ranges.iter().map(|w| w.calibre.clone()).collect()),
                ("max_cm".into(), t.area_ranges.iter().map(|w| w.max_cm.to_string()).collect()),
            ],
        });
        let r = &t.reaction;
        views.push(TableView {
            file: "reaction_results.toml".into(),
            source: r.results_source.clone(),
            columns: vec![
                ("roll".into(), r.results.iter().map(|x| x.roll.to_string()).collect()),
                ("result".into(), r.results.iter().map(|x| x.name.clone()).collect()),
                ("label".into(), r.results.iter().map(|x| x.label.clone()).collect()),
                ("summary".into(), r.results.iter().map(|x| x.summary.clone()).collect()),
            ],
        });
        let aa = &t.anti_aircraft;
        let aa_hit: Vec<_> = aa.to_hit.iter().collect();
        views.push(grid_view("aa_to_hit.toml", &aa.sources[0], &aa.altitudes, &aa_hit));
        let aa_dmg: Vec<_> = aa.damage.iter().collect();
        views.push(grid_view("aa_damage.toml", &aa.sources[1], &aa.sizes, &aa_dmg));
        views
    }

    fn charts(&self) -> Vec<Chart<'_>> {
        let t = &self.tables;
        vec![
            ("to_hit", "to_hit_modifiers.toml", &t.to_hit.modifiers),
            ("reaction", "reaction_modifiers.toml", &t.reaction.modifiers),
            ("anti_aircraft", "aa_to_hit.toml", &t.anti_aircraft.modifiers),
        ]
    }

    fn automatic(&self) -> &'static [Automatic] {
        AUTOMATIC
    }

    fn catalogue_views(&self) -> Vec<TableView> {
        let t = &self.tables;
        let weapons: Vec<&Weapon> = self.catalogue.weapons.values().collect();
        vec![TableView {
            file: "catalogue.toml (illustrative)".into(),
            source: self.catalogue.source.clone(),
            columns: vec![
                ("weapon".into(), weapons.iter().map(|w| w.name.clone()).collect()),
                ("to_hit".into(), weapons.iter().map(|w| t.to_hit.rows[w.to_hit].row.name.clone()).collect()),
                (
                    "casualty".into(),
                    weapons
                        .iter()
                        .map(|w| {
                            let parts: Vec<String> = w
                                .casualty
                                .iter()
                                .map(|(r, up)| {
                                    format!(
                                        "{}{}",
                                        t.casualty.rows[*r].name,
                                        up.map_or(String::new(), |u| format!(" (to {u}cm)"))
                                    )
                                })
                                .collect();
                            parts.join(", ")
                        })
                        .collect(),
                ),
                (
                    "ko".into(),
                    weapons.iter().map(|w| w.ko.map_or(String::new(), |k| t.ko.rows[k].name.clone())).collect(),
                ),
                (
                    "artillery".into(),
                    weapons.iter().map(|w| if w.artillery { "yes".into() } else { String::new() }).collect(),
                ),
            ],
        }]
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
