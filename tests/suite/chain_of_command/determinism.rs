//! Chain of Command Monte Carlo is deterministic: the same seed gives bit-identical
//! tallies on any number of threads, for trial counts that do and do not fill whole
//! chunks, through the library and through `combat-odds fire --threads`; and the
//! counts of one hand of Command Dice at a fixed seed are pinned.

use crate::common::determinism::{
    assert_cli_thread_independent, assert_every_scenario_varies, assert_pinned, assert_seed_matters,
    assert_thread_independent,
};

/// One Phase's hand: five Command Dice and the Red Dice, an Elite force, dice combined
/// for the most Orders, a platoon with a Superior Junior Leader:
/// `senior_leaders`, `junior_leaders`, `sections`, `teams`, `orders`, `activations`,
/// `chain_of_command_points`, `sixes` and `turn`.
const COMMAND_DICE: &str = r#"ruleset = "chain-of-command"
kind = "command_dice"
name = "Elite, Red Dice, a Superior Junior Leader: most Orders"
policy = "max_orders"

[hand]
dice = 5
red_dice = true
elite = true

[platoon]
senior_leader = 1
junior_leader = 2
superior_junior_leader = 1
sections = 3
teams = 6
"#;

/// The length of a Turn: an Elite side with the Red Dice against a side rolling the
/// dice of Force Morale 9 (the Red Dice's roll is drawn though discarded).
const TURN: &str = r#"ruleset = "chain-of-command"
kind = "turn"
name = "Turn length: Elite five dice and the Red Dice against Force Morale 9"
horizon = 30

[[side]]
name = "British"
dice = 5
red_dice = true
elite = true

[[side]]
name = "Germans"
force_morale = 9
"#;

/// The same fire each Phase until the target Breaks: a moving LMG team at a team
/// starting Pinned in light cover (so it fights from hard cover, the lost face a Shock).
const SHOOTING_PHASES: &str = r#"ruleset = "chain-of-command"
kind = "shooting_phases"
name = "A moving LMG team at a Pinned team in light cover"
range = "close"
horizon = 8

[settings]
hard_cover_four = "shock"
halved_firepower = "round_up"

[firer]
name = "Bren team"
quality = "regular"
weapons = [{ weapon = "lmg" }, { weapon = "rifle", count = 1 }]
moved = true
shock = 1

[target]
name = "German team"
quality = "green"
figures = 4
shock = 5
cover = "light"
"#;

/// Force Morale rolled for an Elite force, then four setbacks.
const FORCE_MORALE: &str = r#"ruleset = "chain-of-command"
kind = "force_morale"
name = "Elite force: four setbacks"

[force]
quality = "elite"
setbacks = ["team_breaks", "junior_leader_killed", "section_wiped_out", "senior_leader_routs"]
"#;

/// Phases to a full Chain of Command die from two points held.
const CHAIN_OF_COMMAND_DIE: &str = r#"ruleset = "chain-of-command"
kind = "chain_of_command_die"
name = "Phases to a full Chain of Command die, four dice, two points held"
points = 2
horizon = 10

[hand]
dice = 4
"#;

/// One fire by firepower dice at a Section in the open, first-edition thresholds.
const SHOOTING: &str = r#"ruleset = "chain-of-command"
kind = "shooting"
name = "Eight dice at a Section in the open"
range = "effective"

[settings]
shock_thresholds = "first_edition"

[firer]
quality = "elite"
firepower = 8

[target]
quality = "regular"
figures = 4
shock = 2
cover = "open"
"#;

const SCENARIOS: [(&str, &str); 6] = [
    ("command_dice", COMMAND_DICE),
    ("turn", TURN),
    ("shooting_phases", SHOOTING_PHASES),
    ("force_morale", FORCE_MORALE),
    ("chain_of_command_die", CHAIN_OF_COMMAND_DIE),
    ("shooting", SHOOTING),
];

#[test]
fn every_kind_gives_identical_tallies_on_1_2_and_8_threads() {
    assert_thread_independent(&SCENARIOS);
}

#[test]
fn a_different_seed_gives_different_tallies() {
    assert_seed_matters(&SCENARIOS);
}

#[test]
fn every_scenario_can_end_more_than_one_way() {
    assert_every_scenario_varies(&SCENARIOS);
}

#[test]
fn the_cli_gives_identical_json_on_1_2_and_8_threads() {
    assert_cli_thread_independent(&SCENARIOS, "chain-of-command");
}

/// The Command Dice scenario's counts at seed 1, 1,000 trials, one thread, each
/// measure in the order the report lists it: `senior_leaders`, `junior_leaders`,
/// `sections`, `teams`, `orders`, `activations` (each 0 up), `chain_of_command_points`
/// (0 to 5), `sixes` (0, 1, 2, 3, 4_or_more) and `turn` (passes, keeps_phase, ends).
///
/// A change here means the order in which randomness is consumed changed (the order
/// of the rolls within a trial, the streams they draw from, stream derivation or the
/// die algorithm), the allocation policy's choice among equally good allocations
/// changed, or the tables this scenario reads (`command_dice.toml`, `leaders.toml`,
/// `sixes.toml`) changed. That must be deliberate: update these numbers only with such
/// a change, and say so in its commit message.
///
/// Two zeros are impossible outcomes: `sixes` = 1 (an Elite force converts a single 6
/// to a 5) and `orders` = 1 (every Leader issues two or three); the others are rare.
const PINNED_COMMAND_DICE: [&[u64]; 9] = [
    &[80, 920],
    &[146, 346, 363, 145],
    &[767, 198, 31, 4],
    &[736, 176, 72, 15, 1, 0, 0],
    &[20, 0, 29, 126, 22, 122, 204, 90, 251, 39, 97],
    &[2, 9, 25, 34, 78, 121, 140, 141, 186, 129, 88, 40, 7],
    &[248, 382, 277, 86, 6, 1],
    &[790, 0, 172, 32, 6],
    &[790, 172, 38],
];

#[test]
fn chain_of_command_command_dice_counts_are_pinned() {
    assert_pinned("pinned command_dice", COMMAND_DICE, &PINNED_COMMAND_DICE, "PINNED_COMMAND_DICE");
}
