//! Unit tests of the Chain of Command engagement: lumped states against the labelled
//! chain (CoC-E1).

use super::*;
use crate::engagement::markov::lumping;
use crate::ruleset::Load;

/// Two rifle teams against two LMG teams at 12 in., each side spreading its
/// fire, for two Phases.
const PAIRS: &str = include_str!("../../../fixtures/lumping_coc.toml");

#[test]
fn interchangeable_units_count_as_multisets_of_conditions() {
    // Two units over 3 conditions: {aa, ab, ac, bb, bc, cc} = C(4, 2) = 6, not 3^2.
    assert_eq!(multisets(3, 2), 6);
    // One unit: its k conditions; none: the one empty line.
    assert_eq!(multisets(7, 1), 7);
    assert_eq!(multisets(7, 0), 1);
    // Five over 20: C(24, 5) = 24 x 23 x 22 x 21 x 20 / 120 = 42,504.
    assert_eq!(multisets(20, 5), 42_504);
    assert_eq!(multisets(u64::MAX / 2, 3), u64::MAX, "saturates");
}

#[test]
fn lumped_states_give_the_labelled_chains_odds() {
    let m = crate::chain_of_command::ChainOfCommand::load(None).expect("embedded tables load");
    let never = format!("{PAIRS}\n[settings]\nrally = \"never\"\n");
    // Rallying keeps every point of Shock: with Force Morale 1 and 2-dice LMG teams
    // the field stays within the exact solver's bound.
    let rallying = PAIRS.replace("force_morale = 8", "force_morale = 1").replace("firepower = 4", "firepower = 2");
    for text in [never, rallying] {
        let e = lumping::engagement::<Skirmish>(&text, |doc| engagement(doc, m.tables()));
        lumping::assert_lumping_changes_nothing(&e);
    }
}
use crate::chain_of_command::shooting::Threshold;

#[test]
fn setbacks_come_once_on_breaking_and_again_when_wiped_out() {
    let second = Thresholds {
        pinned: Threshold { at_least: false, multiple: 1 },
        broken: Threshold { at_least: true, multiple: 2 },
    };
    let u = |figures, shock| Unit { figures, shock };
    assert_eq!(event(&second, &u(2, 0), &u(2, 3), true), None, "3 Shock on 2 figures: Pinned only");
    assert_eq!(event(&second, &u(2, 0), &u(2, 4), true), Some(0), "4 Shock breaks a 2-figure team");
    assert_eq!(event(&second, &u(2, 0), &u(1, 2), true), Some(0), "a kill lowers the line");
    assert_eq!(event(&second, &u(2, 0), &u(0, 0), true), Some(1), "wiped out unbroken: one setback");
    assert_eq!(event(&second, &u(1, 2), &u(0, 0), true), Some(1));
    assert_eq!(event(&second, &u(1, 2), &u(0, 0), false), None, "break_only");
    assert_eq!(event(&second, &u(1, 2), &u(1, 3), true), None, "already Broken");
}

#[test]
fn rallying_works_down_from_broken_to_pinned_to_any_shock() {
    let m = crate::chain_of_command::ChainOfCommand::load(None).expect("embedded tables load");
    let e = lumping::engagement::<Skirmish>(PAIRS, |doc| engagement(doc, m.tables()));
    let battle = e.battle();
    let mut force = battle.initial().sides[0].clone();
    // Two figures each (2e): Broken at 4 Shock, Pinned past 2.
    force.units = smallvec::smallvec![Unit { figures: 2, shock: 4 }, Unit { figures: 2, shock: 3 }];
    let (before, after) = battle.rallies();
    assert_eq!(battle.rally, Rally::BrokenFirst, "the default");
    // Before fire, 3 Orders: only the Broken unit, 4 -> 3, no longer Broken.
    let mut orders = 3;
    battle.rally(&mut force, &mut orders, before);
    assert_eq!((force.units[0].shock, force.units[1].shock, orders), (3, 3, 2));
    // After fire, 2 Orders: both Pinned, 3 -> 2 each, in listed order.
    battle.rally(&mut force, &mut orders, after);
    assert_eq!((force.units[0].shock, force.units[1].shock, orders), (2, 2, 0));
    // With Orders to spare, any Shock goes; an Order with nothing to rally is unspent.
    let mut orders = 5;
    battle.rally(&mut force, &mut orders, after);
    assert_eq!((force.units[0].shock, force.units[1].shock, orders), (0, 0, 1));
}

#[test]
fn activations_spend_a_units_own_die_before_an_order() {
    let mut a = Activations { teams: 1, sections: 0, orders: 1 };
    assert!(a.can(Kind::Section));
    a.take(Kind::Team);
    assert_eq!(a, Activations { teams: 0, sections: 0, orders: 1 });
    a.take(Kind::Team);
    assert!(!a.can(Kind::Team) && !a.can(Kind::Section));
}
