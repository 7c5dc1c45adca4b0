//! Chain of Command (seed 002, section 7; d6): the hand of Command Dice each Phase,
//! combining dice, Leaders' Orders, the Red Dice and Elite forces, with the turn
//! sequence and Chain of Command points from the reference sheet where the seed
//! points elsewhere. Anti-tank fire has no source and is not resolved.

mod answers;
mod command_dice;
mod dice_tables;
mod engagement;
mod force_morale;
mod phases;
mod scenario;
mod settings;
mod shooting;
mod tables;

pub use command_dice::{Allocation, Allocator, Hand, PhaseDice, PhaseRoll, Platoon, Policy, TURN_OUTCOMES};
pub use dice_tables::{DiceByForceMorale, DiceRules, LeaderRow, MAX_HAND, Rank, Sixes, SixesRow, Use};
pub use engagement::{ForceState, Skirmish};
pub use force_morale::{
    Change, ForceMorale, ForceMoraleTables, QUALITIES, Quality, RawForceMorale, SetbackRow, Setbacks, Start, Starting,
};
pub use phases::{ChainOfCommandDie, EndOutcome, Horizon, HorizonState, Phases, SIDES, Step, TurnLength};
pub use scenario::DEFAULT_PLATOON;
pub use settings::{ENGAGEMENT_SETTINGS, SETTINGS};
pub use shooting::{Fire, Firepower, HitEffect, Shooting, ShootingPhases, ShootingTables, Threshold, Thresholds};
pub use tables::{EMBEDDED, Tables};

use crate::ruleset::{Answers, Load, Ruleset, SetUp, TableView};
use crate::setup::Sections;
use combat_odds_core::document::Document;
use combat_odds_core::error::Result;
use combat_odds_core::tables::{Embedded, Source, TableFile};

/// The loaded ruleset.
pub struct ChainOfCommand {
    files: Vec<TableFile>,
    tables: Tables,
}

/// Where anti-tank fire would be read from, and why it is not.
pub(crate) const ANTI_TANK_SOURCE: (&str, &str, &str) = (
    "chain-of-command-facts.md",
    "5. Anti-tank / AFV",
    "NOT FOUND: the to-hit numbers, armour, how strikes compare and the damage results have no source",
);

impl Load for ChainOfCommand {
    const EMBEDDED: &'static Embedded = &EMBEDDED;

    fn from_files(files: Vec<TableFile>) -> Result<Self> {
        let tables = Tables::load(&files)?;
        Ok(ChainOfCommand { files, tables })
    }
}

impl ChainOfCommand {
    /// The validated tables.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }
}

impl Ruleset for ChainOfCommand {
    fn catalogue(&self) -> Option<&'static crate::ruleset::CatalogueShape> {
        Some(&shooting::SHAPE)
    }

    fn name(&self) -> &'static str {
        EMBEDDED.ruleset
    }

    fn files(&self) -> &[TableFile] {
        &self.files
    }

    fn table_views(&self) -> Vec<TableView> {
        let d = &self.tables.dice;
        let yes = |b: bool| if b { "yes".to_string() } else { String::new() };
        let faces = &d.face_labels;
        let sixes = &d.sixes.rows;
        let levels = &self.tables.dice_by_force_morale;
        let (at_seed, at_table, at_status) = ANTI_TANK_SOURCE;
        let mut views = vec![
            TableView::new(
                "command_dice.toml",
                &d.source,
                vec![
                    ("roll", faces.iter().map(|(r, ..)| r.to_string()).collect()),
                    ("result", faces.iter().map(|(_, l, _)| l.clone()).collect()),
                    ("use", faces.iter().map(|(.., u)| u.name().to_string()).collect()),
                    (
                        "combine",
                        faces
                            .iter()
                            .map(|(r, ..)| {
                                if (2..=d.highest_combined).contains(r) {
                                    "can be made by combining".into()
                                } else if *r > d.highest_combined {
                                    "never made by combining".into()
                                } else {
                                    String::new()
                                }
                            })
                            .collect(),
                    ),
                    (
                        "red_dice",
                        faces
                            .iter()
                            .map(|(r, ..)| if d.red_used.contains(r) { "used" } else { "discarded" }.to_string())
                            .collect(),
                    ),
                ],
            ),
            TableView::new(
                "leaders.toml",
                &d.leaders_source,
                vec![
                    ("leader", d.leaders.iter().map(|l| l.label.clone()).collect()),
                    ("name", d.leaders.iter().map(|l| l.name.clone()).collect()),
                    ("activates_on", d.leaders.iter().map(|l| l.activates_on.to_string()).collect()),
                    ("orders", d.leaders.iter().map(|l| l.orders.to_string()).collect()),
                    ("range_inches", d.leaders.iter().map(|l| l.range.to_string()).collect()),
                ],
            ),
            TableView::new(
                "sixes.toml",
                &d.sixes.source,
                vec![
                    ("sixes", d.sixes.measure().outcomes),
                    ("result", sixes.iter().map(|r| r.label.clone()).collect()),
                    ("keeps_phase", sixes.iter().map(|r| yes(r.keeps_phase)).collect()),
                    ("turn_ends", sixes.iter().map(|r| yes(r.turn_ends)).collect()),
                    ("chain_of_command_dice", sixes.iter().map(|r| r.chain_of_command_dice.to_string()).collect()),
                    ("random_event", sixes.iter().map(|r| yes(r.random_event)).collect()),
                ],
            ),
            TableView::new(
                "chain_of_command_points.toml",
                &d.points_source,
                vec![("points_per_die", vec![d.points_per_die.to_string()])],
            ),
            TableView::new(
                "dice_by_force_morale.toml",
                &levels.source,
                vec![
                    ("force_morale", levels.levels.iter().map(|(fm, _)| fm.to_string()).collect()),
                    ("command_dice", levels.levels.iter().map(|(_, n)| n.to_string()).collect()),
                ],
            ),
        ];
        views.extend(self.tables.shooting.views());
        views.extend(self.tables.force_morale.views());
        views.push(TableView {
            file: "(none: anti-tank fire)".into(),
            source: Source {
                seed: at_seed.into(),
                table: at_table.into(),
                rules: Some(at_status.into()),
                invented: false,
                own: Vec::new(),
            },
            columns: vec![(
                "status".into(),
                vec!["not resolved: no source gives anti-tank fire's mechanics, and none are invented".into()],
            )],
        });
        views
    }

    fn kinds(&self) -> &'static Sections {
        scenario::SECTIONS
    }

    fn set_up_kind(&self, doc: &Document, kind: &'static str) -> Result<SetUp> {
        // An engagement's `[[side]]` is the shared engagement shape, not a `turn`
        // scenario's hand, so it is read by the engagement's own set-up.
        match kind {
            "engagement" => engagement::set_up(doc, &self.tables),
            k => scenario::set_up(doc, k, &self.tables),
        }
    }

    fn answers_kind(&self) -> Option<&'static str> {
        Some("command_dice")
    }

    /// Every answer about the hand of Command Dice, exactly, under every allocation
    /// policy.
    fn answers(&self, doc: &Document, kind: &toml::Spanned<String>, scenario: String) -> Result<Answers> {
        let (hand, platoon, notes) = scenario::command_dice_setup(doc, kind, &self.tables)?;
        Ok(answers::answers(scenario, notes, &self.tables, hand, &platoon))
    }
}
