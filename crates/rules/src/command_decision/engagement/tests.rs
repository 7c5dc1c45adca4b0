//! Unit tests of the Command Decision engagement: orders, light cover, op fire held
//! by a pin (CD-E11, CD-E13), and lumped states against the labelled chain.

use super::*;
use crate::engagement::markov::lumping;
use crate::engagement::{Battle, Engagement};
use crate::ruleset::Load;
use combat_odds_core::dice::Ratio;

/// Two Shermans against two Panthers closing from 24 in. to 8 in., each side
/// spreading its fire.
const PAIRS: &str = include_str!("../../../fixtures/lumping_cd.toml");

/// Two regular HMG stands facing each other at 16 in., one company a side,
/// with `settings` under `[settings]`.
fn hmg_duel(settings: &str) -> String {
    let side = |name: &str| {
        format!(
            "[[side]]\nname = \"{name}\"\n[[side.company]]\nname = \"{name}\"\nmorale = 20\n\
             [[side.unit]]\nname = \"MG {name}\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\n"
        )
    };
    format!(
        "ruleset = \"command-decision\"\nkind = \"engagement\"\n[engagement]\nrange = 16\nturns = 1\n\
         [settings]\n{settings}\n{}{}",
        side("A"),
        side("B")
    )
}

fn duel(settings: &str) -> Engagement<CdBattle> {
    let m = crate::command_decision::CommandDecision::load(None).expect("embedded tables load");
    lumping::engagement::<CdBattle>(&hmg_duel(settings), |doc| engagement(doc, m.tables(), m.catalogue()))
}

/// P(B's stand is eliminated) in turn 1 from `field`.
fn p_b_eliminated(e: &Engagement<CdBattle>, field: &FieldOf<CdBattle>) -> Ratio {
    let next = e.battle().turn_exact::<num_bigint::BigUint>(field, 1).expect("a turn of two stands");
    next.probability(|f| f.sides[1].units[0].eliminated)
}

#[test]
fn a_shaken_company_given_a_rally_order_is_pinned_and_holds_its_fire() {
    // Seed 000 "Rally Orders": a Rally order recovers a company "from shaken to
    // pinned", and a rallying stand fires only in contact. A is shaken at the
    // start of the turn: under `rally` it ends the turn pinned at worst (its check
    // can only pin it again) and B is never eliminated; under `keep_firing` A fires.
    for (setting, a_fires) in [("rally", false), ("keep_firing", true)] {
        let e = duel(&format!("shaken_companies = \"{setting}\"\nstationary_personnel = \"in_the_open\""));
        let mut field = e.battle().initial();
        field.sides[0].companies[0] = Morale::Shaken;
        assert_eq!(!p_b_eliminated(&e, &field).is_zero(), a_fires, "{setting}");
        if !a_fires {
            let next = e.battle().turn_exact::<num_bigint::BigUint>(&field, 1).expect("a turn of two stands");
            // A's check (morale 20 - 2 pinned - 2 per stand lost) always passes,
            // and a pass takes the pin off: steady or gone.
            assert!(next.iter().all(
                |(f, _)| f.sides[0].companies[0] <= Morale::Steady || f.sides[0].companies[0] == Morale::Eliminated
            ));
        }
    }
}

#[test]
fn personnel_in_the_open_are_fired_at_in_light_cover_by_default() {
    // One HMG fire at 16 in.: three dice, each hitting on the long band's 4 (in the
    // open) or 4 - 1 = 3 (light cover), a hit eliminating a regular stand on 7+
    // (4/10). In the open: 1 - (1 - 16/100)^3 = 6364/15625; in light cover:
    // 1 - (1 - 12/100)^3 = 1 - 10648/15625 = 4977/15625.
    for (setting, kill) in [("", 4977), ("stationary_personnel = \"in_the_open\"", 6364)] {
        let e = duel(setting);
        let p = p_b_eliminated(&e, &e.battle().initial());
        assert_eq!(p, Ratio::new(kill, 15625), "{setting:?}");
    }
}

#[test]
fn a_towed_weapon_is_not_a_personnel_stand_and_takes_no_light_cover() {
    // B's stand a towed weapon, stationary in the open: A's HMG fire as in the open
    // under the default `light_cover`, 1 - (1 - 16/100)^3 = 6364/15625 (it was
    // 4977/15625, the light cover of stationary personnel).
    let m = crate::command_decision::CommandDecision::load(None).expect("embedded tables load");
    let text = hmg_duel("").replacen(
        "name = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\n",
        "name = \"MG B\"\nquality = \"regular\"\nweapon = \"hmg_platoon\"\nmount = \"towed\"\n",
        1,
    );
    assert!(text.contains("mount = \"towed\""));
    let e = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
    assert_eq!(p_b_eliminated(&e, &e.battle().initial()), Ratio::new(6364, 15625));
}

#[test]
fn a_pinned_stand_holds_its_opportunity_fire_for_the_general_phase() {
    // Both MGs hold for opportunity fire; A starts pinned, so it fires in the
    // General Fire Phase, after B's op fire has landed. B's op fire: ROF 3 +1 = 4
    // dice at 4 -1 pinned personnel = 3, a hit eliminating on 7+: 3/25 a die, A
    // left with (22/25)^4 = 234256/390625. A's general fire: 3 dice at 4 -2 pinned
    // = 2: 1 - (23/25)^3 = 3458/15625. Both fired in one phase, B would fall with
    // 3458/15625 alone.
    let e = duel("stationary_personnel = \"in_the_open\"");
    let text = hmg_duel("stationary_personnel = \"in_the_open\"")
        .replace("weapon = \"hmg_platoon\"\n", "weapon = \"hmg_platoon\"\nfires_in = \"opportunity\"\n");
    let m = crate::command_decision::CommandDecision::load(None).expect("embedded tables load");
    let op = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
    for (e, want) in [(&op, Ratio::new(234_256 * 3458, 390_625 * 15_625)), (&e, Ratio::new(3458, 15_625))] {
        let mut field = e.battle().initial();
        field.sides[0].companies[0] = Morale::Pinned;
        assert_eq!(p_b_eliminated(e, &field), want);
    }
}

#[test]
fn lumped_states_give_the_labelled_chains_odds() {
    let m = crate::command_decision::CommandDecision::load(None).expect("embedded tables load");
    let e = lumping::engagement::<CdBattle>(PAIRS, |doc| engagement(doc, m.tables(), m.catalogue()));
    lumping::assert_lumping_changes_nothing(&e);
}

#[test]
fn five_shermans_at_a_panther_fold_to_the_labelled_chains_odds() {
    // The shipped platoon grown to five and closed to 4 in., two turns (the
    // labelled reference grows fast): endings decided in the first turn are folded
    // into the tallies at once, and five Shermans make one field per count.
    let shipped = include_str!("../../../../../experiments/cd_engagement_shermans_vs_panther.toml");
    let text = shipped.replacen("range = 17.5", "range = 4", 1).replacen("turns = 8", "turns = 2", 1).replacen(
        "count = 3",
        "count = 5",
        1,
    );
    let m = crate::command_decision::CommandDecision::load(None).expect("embedded tables load");
    let e = lumping::engagement::<CdBattle>(&text, |doc| engagement(doc, m.tables(), m.catalogue()));
    lumping::assert_lumping_changes_nothing(&e);
}
