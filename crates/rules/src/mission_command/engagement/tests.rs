//! Unit tests of the Mission Command engagement: lumped states against the labelled
//! chain, and area fire with the reaction rows the fight gives (MC-E10, MC-E11).

use super::*;
use crate::engagement::markov::lumping;
use crate::ruleset::Load;

/// Two rifle sections against two MG 42s closing from 15cm to 5cm, each side
/// spreading its fire.
const PAIRS: &str = include_str!("../../../fixtures/lumping_mc.toml");

/// Mortars and rifles against rifles holding a hut: area fire and the reaction
/// rows the fight gives.
const AREA: &str = include_str!("../../../fixtures/lumping_mc_area.toml");

#[test]
fn lumped_states_give_the_labelled_chains_odds() {
    let m = crate::mission_command::MissionCommand::load(None).expect("embedded tables load");
    for text in [PAIRS, AREA] {
        let e = lumping::engagement::<McBattle>(text, |doc| engagement(doc, m.tables(), m.catalogue()));
        lumping::assert_lumping_changes_nothing(&e);
    }
}

#[test]
fn the_fights_own_rows_reach_the_reaction_test() {
    let m = crate::mission_command::MissionCommand::load(None).expect("embedded tables load");
    let set_up = |text: &str| lumping::engagement::<McBattle>(text, |doc| engagement(doc, m.tables(), m.catalogue()));
    let e = set_up(AREA);
    let b = e.battle();
    // The Germans' hut: green (-1). Its first element is hit with a marker (-1 for
    // a suppressed element) and fired at from within 15cm by an AFV (-3); a British
    // rifle section is retreating (+1, an enemy seen retreating); the second hut
    // element moved away last turn (-1): -1 - 1 - 3 + 1 - 1 = -5.
    let mut field = b.initial();
    field.sides[1].units[0] = Element { markers: 1, hit: true, afv_fire: true, ..Element::default() };
    field.sides[1].units[1].moved = true;
    field.sides[0].units[1].status = Status::Retreating;
    let ready = field.clone();
    let moved_away = McBattle::start_of_turn(&mut field, 1);
    assert!(moved_away && !field.sides[1].units[1].moved, "the move is read once, then forgotten");
    let test = b.test_of(&mut field, 1, 0, moved_away).expect("a hit group tests");
    assert_eq!(test.shift, -5);
    assert!(!field.sides[1].units[0].hit && !field.sides[1].units[0].afv_fire, "triggers are cleared");
    // Named instead (derived_reaction_rows = "named"), the fight counts none of
    // them: green and one suppressed element, -2.
    let named = set_up(&AREA.replace("[engagement]", "[settings]\nderived_reaction_rows = \"named\"\n[engagement]"));
    let mut field = ready;
    let moved_away = McBattle::start_of_turn(&mut field, 1);
    assert_eq!(named.battle().test_of(&mut field, 1, 0, moved_away).expect("tests").shift, -2);
}
