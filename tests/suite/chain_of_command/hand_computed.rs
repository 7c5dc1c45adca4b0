//! Exact Chain of Command odds computed by hand from the shipped tables (seed 002
//! section 7 and `chain-of-command-facts.md`), checked against the exact engine.
//!
//! The arithmetic beside each expectation starts from the printed cells:
//!
//! * Command Dice are d6: 1 Team, 2 Section, 3 Junior Leader, 4 Senior Leader, 5 a Chain
//!   of Command point, 6 the turn sequence. 1-3s may be combined into results up to 4.
//!   A hand of n dice has 6^n equally likely ordered rolls (five dice: 7776).
//! * Sixes: 0 or 1 pass the Phase, 2 keep it, 3 end the Turn, 4 or more also give a
//!   whole Chain of Command die. Six points make a die.
//! * Elite: a single 6 becomes a 5. The Red Dice's 5s and 6s are discarded.
//! * Leaders: Junior on a 3 (2 Orders), Senior on a 4 (3 Orders), Superior Junior on a
//!   3 (2) or a 4 (3), Inferior Senior on a 4 (2).
//! * Shooting: a die hits at or above the to-hit cell (Close: Green 3, Regular 4, Elite
//!   5; Effective: 4, 5, 6), by the target's quality unless `to_hit_quality = "firer"`.
//!   Each hit rolls the effect on the cover row (Open 1-2 miss, 3-4 Shock, 5-6 kill;
//!   Light 1-3, 4-5, 6; Hard 1-3 miss, 4 lost, 5 Shock, 6 kill).
//! * 2e thresholds: Pinned at Shock > figures, Broken at Shock >= 2 x figures; 1e:
//!   Pinned at Shock >= figures, Broken at Shock > 2 x figures.
//! * Force Morale starts from a d6 (Green -2, Elite +2): <=2 8, 3-4 9, 5 10, 6+ 11.

use crate::common::exact::{Exact, r};
use combat_odds_core::dice::Ratio;

/// A Chain of Command scenario of `kind` with `body` after the kind line.
fn coc(kind: &str, body: &str) -> String {
    format!("ruleset = \"chain-of-command\"\nkind = \"{kind}\"\n{body}\n")
}

/// A `command_dice` scenario: `policy`, the `[hand]` body and, when not empty, the
/// `[platoon]` body (otherwise the default platoon: one Senior Leader, three Junior
/// Leaders, three Sections, six Teams).
fn dice(name: &str, policy: &str, hand: &str, platoon: &str) -> Exact {
    let platoon = if platoon.is_empty() { String::new() } else { format!("[platoon]\n{platoon}\n") };
    Exact::of(name, &coc("command_dice", &format!("policy = \"{policy}\"\n[hand]\n{hand}\n{platoon}")))
}

/// A `shooting` (or `shooting_phases`) scenario.
fn shooting(name: &str, kind: &str, head: &str, firer: &str, target: &str, settings: &str) -> Exact {
    Exact::of(name, &coc(kind, &format!("{head}\n[settings]\n{settings}\n[firer]\n{firer}\n[target]\n{target}\n")))
}

/// The sum of the given outcomes of `measure`.
fn sum(e: &Exact, measure: &str, outcomes: &[&str]) -> Ratio {
    outcomes.iter().fold(r(0, 1), |acc, o| &acc + &e.p(measure, o))
}

// ---------------------------------------------------------------------------
// Sixes and points of one hand
// ---------------------------------------------------------------------------

#[test]
fn sixes_of_five_dice_follow_the_binomial() {
    let e = dice("five dice", "max_senior", "dice = 5", "");
    // No 6: (5/6)^5 = 3125/7776.
    assert_eq!(e.p("sixes", "0"), r(3125, 7776));
    // Exactly k 6s: C(5,k) 5^(5-k) / 7776: one 5 x 625 = 3125, two 10 x 125 = 1250,
    // three 10 x 25 = 250, four or more 5 x 5 + 1 = 26.
    assert_eq!(e.p("sixes", "1"), r(3125, 7776));
    assert_eq!(e.p("sixes", "2"), r(1250, 7776));
    assert_eq!(e.p("sixes", "3"), r(250, 7776));
    assert_eq!(e.p("sixes", "4_or_more"), r(26, 7776));
    // At least one 6: 1 - (5/6)^5 = (7776 - 3125)/7776 = 4651/7776.
    assert_eq!(sum(&e, "sixes", &["1", "2", "3", "4_or_more"]), r(4651, 7776));
    // Two or more: 1 - (5/6)^5 - 5 (1/6)(5/6)^4 = (7776 - 3125 - 3125)/7776 = 1526/7776.
    assert_eq!(sum(&e, "sixes", &["2", "3", "4_or_more"]), r(1526, 7776));
    // The turn: two 6s keep the Phase (1250/7776); three or more end the Turn
    // (250 + 26 = 276/7776 = 23/648); none or one pass it (3125 + 3125 = 6250/7776).
    assert_eq!(e.p("turn", "keeps_phase"), r(1250, 7776));
    assert_eq!(e.p("turn", "ends"), r(276, 7776));
    assert_eq!(e.p("turn", "ends"), r(23, 648));
    assert_eq!(e.p("turn", "passes"), r(6250, 7776));
    // Points are the 5s, the same binomial: none (5/6)^5, one 5 x 625, five 1/7776.
    assert_eq!(e.p("chain_of_command_points", "0"), r(3125, 7776));
    assert_eq!(e.p("chain_of_command_points", "1"), r(3125, 7776));
    assert_eq!(e.p("chain_of_command_points", "5"), r(1, 7776));
}

#[test]
fn a_hand_sized_by_force_morale_rolls_five_dice() {
    // Every level rolls five dice (no official mapping): at Force Morale 3, no 6 is
    // (5/6)^5 = 3125/7776, as for `dice = 5`.
    let e = dice("force morale 3", "as_rolled", "force_morale = 3", "");
    assert_eq!(e.p("sixes", "0"), r(3125, 7776));
    assert_eq!(e.p("sixes", "4_or_more"), r(26, 7776));
}

// ---------------------------------------------------------------------------
// The Senior Leader under each policy
// ---------------------------------------------------------------------------

#[test]
fn the_senior_leader_activates_under_each_policy_with_five_dice_and_the_default_platoon() {
    // as_rolled: no combining, so the Senior Leader needs a 4:
    // 1 - (5/6)^5 = 4651/7776.
    let as_rolled = dice("as rolled", "as_rolled", "dice = 5", "");
    assert_eq!(as_rolled.p("senior_leaders", "1"), r(4651, 7776));
    assert_eq!(as_rolled.kill_names(), ("senior_leaders", "1"));
    assert_eq!(as_rolled.p_kill(), r(4651, 7776));

    // max_senior: fails only with no 4 and no set of 1-3s summing to 4 ({1,3}, {2,2},
    // {1,1,2}, {1,1,1,1}). With c1 ones, c2 twos, c3 threes that leaves: c3 > 0 with
    // c1 = 0 and c2 <= 1; c3 = 0 with c2 = 1 and c1 <= 1; or c2 = c3 = 0 with c1 <= 3.
    // Ordered hands with k dice from 1-3 (in the failing patterns) and 5 - k from {5, 6}:
    //   k = 0: 2^5 = 32
    //   k = 1: any one of 1, 2, 3: C(5,1) x 3 x 2^4 = 240
    //   k = 2: (3,3), (1,2), (2,1), (2,3), (3,2), (1,1): 6 of the 9 ordered pairs
    //          (only (2,2), (1,3), (3,1) make a 4): C(5,2) x 6 x 2^3 = 480
    //   k = 3: {3,3,3} 1 order, {2,3,3} 3 orders, {1,1,1} 1 order = 5 ordered triples:
    //          C(5,3) x 5 x 2^2 = 200
    //   k = 4: {3,3,3,3} 1, {2,3,3,3} 4 = 5 ordered: C(5,4) x 5 x 2 = 50
    //   k = 5: {3,3,3,3,3} 1, {2,3,3,3,3} 5 = 6
    // 32 + 240 + 480 + 200 + 50 + 6 = 1008; P = 1 - 1008/7776 = 6768/7776 = 47/54.
    let max_senior = dice("max senior", "max_senior", "dice = 5", "");
    assert_eq!(max_senior.p("senior_leaders", "1"), r(6768, 7776));
    assert_eq!(max_senior.p("senior_leaders", "1"), r(47, 54));

    // max_orders: most Orders and activations first, Senior Leader on a tie. A natural 4
    // always goes to him (3 Orders, nothing else uses a 4). Without one, making a 4
    // costs what its dice were worth on their own (1 -> a Team, 1; 2 -> a Section, 1;
    // 3 -> a Junior Leader, 2 Orders; the caps of 3 Sections and 3 Juniors bind only
    // with 4 or more 2s or 3s, and then the spare die costs nothing) and gains 3 Orders:
    //   {1,3}: costs 1 + 2 = 3, a tie -> Senior;  {2,2}: costs 2 -> Senior;
    //   {1,1,2}: costs 3, a tie -> Senior;        {1,1,1,1}: costs 4 > 3 -> no Senior.
    // So it fails where max_senior fails, plus hands whose only 4 is {1,1,1,1}: no 2
    // ({1,1,2} or {2,2}), no 3 ({1,3}), at least four 1s: four 1s and a 5 or 6,
    // C(5,4) x 2 = 10, and five 1s, 1. (Five 1s: 5 Teams beat 3 Orders + 1 Team.)
    // 1008 + 11 = 1019; P = 1 - 1019/7776 = 6757/7776.
    let max_orders = dice("max orders", "max_orders", "dice = 5", "");
    assert_eq!(max_orders.p("senior_leaders", "0"), r(1019, 7776));
    assert_eq!(max_orders.p("senior_leaders", "1"), r(6757, 7776));
}

// ---------------------------------------------------------------------------
// Elite forces and the Red Dice
// ---------------------------------------------------------------------------

#[test]
fn an_elite_forces_single_six_becomes_a_five() {
    // One die: a 6 is always a single 6, so it becomes a 5: no 6 is ever left and a
    // point comes on a 5 or a 6, 2/6.
    let one = dice("elite one die", "as_rolled", "dice = 1\nelite = true", "");
    assert_eq!(one.p("sixes", "0"), r(1, 1));
    assert_eq!(one.p("chain_of_command_points", "1"), r(2, 6));
    assert_eq!(one.p("turn", "passes"), r(1, 1));

    // Two dice (36 ordered rolls). Exactly one 6 (2 x 5 = 10) converts; two 6s (1) stay:
    // sixes 0: 25 + 10 = 35/36; sixes 2: 1/36, keeping the Phase.
    let two = dice("elite two dice", "as_rolled", "dice = 2\nelite = true", "");
    assert_eq!(two.p("sixes", "0"), r(35, 36));
    assert_eq!(two.p("sixes", "1"), r(0, 1));
    assert_eq!(two.p("sixes", "2"), r(1, 36));
    assert_eq!(two.p("turn", "keeps_phase"), r(1, 36));
    // Points: one point from a 5 with a 1-4 (2 x 4 = 8) or a converted 6 with a 1-4
    // (2 x 4 = 8): 16/36. Two points: 5,5 (1) or a 5 with a converted 6 (2): 3/36.
    // None: two 1-4s (16) or two 6s (1): 17/36.
    assert_eq!(two.p("chain_of_command_points", "1"), r(16, 36));
    assert_eq!(two.p("chain_of_command_points", "2"), r(3, 36));
    assert_eq!(two.p("chain_of_command_points", "0"), r(17, 36));

    // Five dice: the one-6 hands (5 x 625 = 3125) join the no-6 hands (3125):
    // sixes 0 = 6250/7776, sixes 1 = 0.
    let five = dice("elite five dice", "as_rolled", "dice = 5\nelite = true", "");
    assert_eq!(five.p("sixes", "0"), r(6250, 7776));
    assert_eq!(five.p("sixes", "1"), r(0, 1));
}

#[test]
fn the_red_dices_fives_and_sixes_are_discarded() {
    // One ordinary die and the Red Dice: 36 ordered rolls. The Red Dice's 5 or 6 adds no
    // point and no 6: points 1 = P(ordinary 5) = 1/6 (not 11/36), sixes 1 = 1/6.
    let rolled = dice("red as rolled", "as_rolled", "dice = 1\nred_dice = true", "");
    assert_eq!(rolled.p("chain_of_command_points", "1"), r(1, 6));
    assert_eq!(rolled.p("sixes", "1"), r(1, 6));
    // Its 1-4 are used: a 4 on either die, 1 - (5/6)^2 = 11/36.
    assert_eq!(rolled.p("senior_leaders", "1"), r(11, 36));
    // And combined: a 4 on either (11) or (1,3), (3,1), (2,2) (3): 14/36 = 7/18.
    let combined = dice("red max senior", "max_senior", "dice = 1\nred_dice = true", "");
    assert_eq!(combined.p("senior_leaders", "1"), r(7, 18));
}

// ---------------------------------------------------------------------------
// Leader variations
// ---------------------------------------------------------------------------

#[test]
fn a_superior_junior_leader_activates_on_a_three_or_a_four_with_three_orders_on_a_four() {
    // A Senior Leader and a Superior Junior Leader, no Sections or Teams, two dice as
    // rolled (36). A 4 goes to the Senior Leader first (3 Orders either way; the tie
    // falls to the Senior), a second 4 to the Superior Junior Leader (3 more).
    let platoon = "senior_leader = 1\nsuperior_junior_leader = 1";
    let e = dice("superior junior", "as_rolled", "dice = 2", platoon);
    // (4,4): 3 + 3 = 6 Orders, 1/36.
    assert_eq!(e.p("orders", "6"), r(1, 36));
    // (3,4), (4,3): 3 + 2 = 5, 2/36.
    assert_eq!(e.p("orders", "5"), r(2, 36));
    // One 4 and a 1, 2, 5 or 6: 3, 2 x 4 = 8/36.
    assert_eq!(e.p("orders", "3"), r(8, 36));
    // A 3 and no 4: (3,3) (one Junior, 2 Orders) and a 3 with a 1, 2, 5, 6: 1 + 8 = 9/36.
    assert_eq!(e.p("orders", "2"), r(9, 36));
    // Neither: 4 x 4 = 16/36.
    assert_eq!(e.p("orders", "0"), r(16, 36));
    // The Junior activates on any 3 (9 + 2) or the second 4 (1): 12/36 = 1/3.
    assert_eq!(e.p("junior_leaders", "1"), r(1, 3));
    // The Senior on any 4: 11/36.
    assert_eq!(e.p("senior_leaders", "1"), r(11, 36));
}

#[test]
fn an_inferior_senior_leader_activates_on_a_four_with_two_orders() {
    // With only an Inferior Senior Leader, max_senior makes a 4 exactly as for a Senior
    // Leader (47/54, above) but every activation gives 2 Orders, never 3.
    let e = dice("inferior senior", "max_senior", "dice = 5", "inferior_senior_leader = 1");
    assert_eq!(e.p("senior_leaders", "1"), r(47, 54));
    assert_eq!(e.p("orders", "2"), r(47, 54));
    assert_eq!(e.p("orders", "0"), r(7, 54));
    // A Senior Leader alone: the same 47/54, with 3 Orders.
    let senior = dice("senior alone", "max_senior", "dice = 5", "senior_leader = 1");
    assert_eq!(senior.p("orders", "3"), r(47, 54));

    // Both variations, one die. As rolled (most Orders first): a 4 goes to the
    // Superior Junior Leader (3 Orders beat the Inferior Senior's 2), a 3 too (2 Orders):
    // Junior 2/6, Orders 3 on 1/6, 2 on 1/6, 0 on 4/6, Senior never.
    let both = "inferior_senior_leader = 1\nsuperior_junior_leader = 1";
    let e = dice("both variations", "as_rolled", "dice = 1", both);
    assert_eq!(e.p("junior_leaders", "1"), r(2, 6));
    assert_eq!(e.p("orders", "3"), r(1, 6));
    assert_eq!(e.p("orders", "2"), r(1, 6));
    assert_eq!(e.p("orders", "0"), r(4, 6));
    assert_eq!(e.p("senior_leaders", "0"), r(1, 1));
    // So the Senior Leader is never activated: p_kill ("every Senior Leader activated")
    // is 0, not the 1 of a measure cut at the most a hand activates.
    assert_eq!(e.p("senior_leaders", "1"), r(0, 1));
    assert_eq!(e.p_kill(), r(0, 1));
    // max_senior: the 4 goes to the Inferior Senior (2 Orders): Senior 1/6, Junior 1/6
    // (the 3), Orders 2 on 2/6.
    let e = dice("both variations, senior first", "max_senior", "dice = 1", both);
    assert_eq!(e.p("senior_leaders", "1"), r(1, 6));
    assert_eq!(e.p("junior_leaders", "1"), r(1, 6));
    assert_eq!(e.p("orders", "2"), r(2, 6));
}

#[test]
fn p_kill_of_a_hand_counts_every_senior_leader_of_the_platoon() {
    // Two Senior Leaders and one die: a single 4 activates one of them (1/6); both, never.
    let e = dice("two seniors, one die", "max_senior", "dice = 1", "senior_leader = 2");
    assert_eq!(e.p("senior_leaders", "1"), r(1, 6));
    assert_eq!(e.p("senior_leaders", "2"), r(0, 1));
    assert_eq!(e.p_kill(), r(0, 1));
    // With two dice both are activated on two 4s, or a 4 and two dice that make one
    // (none here: two dice make one 4 at most): P(4, 4) = 1/36.
    let e = dice("two seniors, two dice", "max_senior", "dice = 2", "senior_leader = 2");
    assert_eq!(e.p_kill(), r(1, 36));
}

// ---------------------------------------------------------------------------
// Across Phases: a Chain of Command die, a Turn
// ---------------------------------------------------------------------------

#[test]
fn a_chain_of_command_die_in_the_first_phase_or_two() {
    let die = |name: &str, hand: &str, points: u32, horizon: u32| {
        Exact::of(
            name,
            &coc("chain_of_command_die", &format!("points = {points}\nhorizon = {horizon}\n[hand]\n{hand}")),
        )
    };
    // Six dice from no points, one Phase: a die comes from four or more 6s or six 5s
    // (6 points). Of 6^6 = 46656: four 6s C(6,4) 5^2 = 375, five 6s 6 x 5 = 30, six 6s 1;
    // six 5s 1: 407/46656.
    let six = die("six dice", "dice = 6", 0, 1);
    assert_eq!(six.p("full_die", "within_horizon"), r(407, 46656));
    assert_eq!(six.p("phases", "1"), r(407, 46656));
    assert_eq!(six.p_kill(), r(407, 46656));
    // Five dice from no points, one Phase: at most 5 points, so only four or more 6s:
    // 5 x 5 + 1 = 26/7776 = 13/3888.
    let five = die("five dice", "dice = 5", 0, 1);
    assert_eq!(five.p("full_die", "within_horizon"), r(13, 3888));
    // Five dice holding 5 points, two Phases: any 5, or four or more 6s, fills it. Not
    // full: no 5 (5^5 = 3125) less the no-5 hands with four or more 6s (5 x 4 + 1 = 21):
    // 3104/7776 = 97/243, so full 146/243; an empty Phase leaves 5 points, so
    // Phase 2 = 97/243 x 146/243 = 14162/59049, more than 2 = (97/243)^2 = 9409/59049.
    let held = die("five dice, five points", "dice = 5", 5, 2);
    assert_eq!(held.p("phases", "1"), r(146, 243));
    assert_eq!(held.p("phases", "2"), r(14162, 59049));
    assert_eq!(held.p("phases", "more_than_2"), r(9409, 59049));
    // One Elite die holding 5 points: a 5 or the single 6 (made a 5) fills it, 2/6.
    let elite = die("elite die", "dice = 1\nelite = true", 5, 1);
    assert_eq!(elite.p("phases", "1"), r(1, 3));
    // One die and the Red Dice holding 5 points: only the ordinary die's 5, 1/6.
    let red = die("red dice", "dice = 1\nred_dice = true", 5, 1);
    assert_eq!(red.p("phases", "1"), r(1, 6));
}

#[test]
fn a_turn_ends_on_three_sixes_within_one_or_two_phases() {
    let turn = |name: &str, second: u32, horizon: u32| {
        Exact::of(name, &coc("turn", &format!("horizon = {horizon}\n[[side]]\ndice = 5\n[[side]]\ndice = {second}")))
    };
    // One Phase: the first side's five dice end the Turn on three or more 6s,
    // 276/7776 = 23/648.
    let one = turn("one phase", 5, 1);
    assert_eq!(one.p("turn_ends", "within_horizon"), r(23, 648));
    assert_eq!(one.p("ended_by", "first"), r(23, 648));
    assert_eq!(one.p("phases", "more_than_1"), r(625, 648));
    // Two Phases, five dice each. Phase 1 passes (none or one 6: 6250/7776 = 3125/3888),
    // keeps (two 6s: 1250/7776 = 625/3888) or ends (23/648). Phase 2 ends on 23/648
    // whoever rolls: P(Phase 2) = 625/648 x 23/648 = 14375/419904.
    // Ended by first: 23/648 + 625/3888 x 23/648 = (89424 + 14375)/2519424 = 103799/2519424.
    // Ended by second: 3125/3888 x 23/648 = 71875/2519424.
    let two = turn("two phases", 5, 2);
    assert_eq!(two.p("phases", "1"), r(23, 648));
    assert_eq!(two.p("phases", "2"), r(14375, 419904));
    assert_eq!(two.p("ended_by", "first"), r(103799, 2519424));
    assert_eq!(two.p("ended_by", "second"), r(71875, 2519424));
    // Against one die, which can never roll three 6s: only the first side's own Phases
    // end the Turn, the same 103799/2519424, and the second side never does.
    let lopsided = turn("five against one", 1, 2);
    assert_eq!(lopsided.p("ended_by", "first"), r(103799, 2519424));
    assert_eq!(lopsided.p("ended_by", "second"), r(0, 1));
    assert_eq!(lopsided.p("turn_ends", "within_horizon"), r(103799, 2519424));
}

// ---------------------------------------------------------------------------
// Shooting
// ---------------------------------------------------------------------------

/// One Regular firer at Close range (to hit 4+ on a Regular target: 1/2).
const CLOSE: &str = "range = \"close\"";

#[test]
fn one_die_at_one_figure_in_the_open_under_both_threshold_readings() {
    // Hit 1/2, then Open: miss 2/6, Shock 2/6, kill 2/6: kill 1/6, Shock 1/6.
    let fire = |settings: &str| {
        shooting(settings, "shooting", CLOSE, "firepower = 1", "figures = 1\ncover = \"open\"", settings)
    };
    let second = fire("shock_thresholds = \"second_edition\"");
    assert_eq!(second.p("hits", "1"), r(1, 2));
    assert_eq!(second.p("kills", "1"), r(1, 6));
    assert_eq!(second.p("shock", "1"), r(1, 6));
    // 2e: 1 Shock on 1 figure is not more than the figures: steady 1 - 1/6 = 5/6.
    assert_eq!(second.p("target", "steady"), r(5, 6));
    assert_eq!(second.p("target", "pinned"), r(0, 1));
    assert_eq!(second.p("target", "wiped_out"), r(1, 6));
    assert_eq!(second.p_kill(), r(1, 6));
    // 1e: 1 Shock on 1 figure is as much Shock as men: Pinned 1/6, steady 4/6.
    let first = fire("shock_thresholds = \"first_edition\"");
    assert_eq!(first.p("target", "pinned"), r(1, 6));
    assert_eq!(first.p("target", "steady"), r(4, 6));
    assert_eq!(first.p("target", "wiped_out"), r(1, 6));
    // The default is the 2e reading.
    assert_eq!(fire("").p("target", "pinned"), r(0, 1));
}

#[test]
fn two_dice_at_one_figure_break_it_on_two_shock_only_by_the_second_edition() {
    // Per die: no effect 1/2 + 1/6 = 2/3, Shock 1/6, kill 1/6.
    // Wiped out: any kill, 1 - (5/6)^2 = 11/36. No kill: 0 Shock (2/3)^2 = 16/36;
    // 1 Shock 2 x 2/3 x 1/6 = 8/36; 2 Shock (1/6)^2 = 1/36.
    let fire = |settings: &str| {
        shooting(settings, "shooting", CLOSE, "firepower = 2", "figures = 1\ncover = \"open\"", settings)
    };
    let second = fire("shock_thresholds = \"second_edition\"");
    // 2e: Pinned needs Shock > 1 (2 Shock, but that is also >= 2 x 1: Broken).
    assert_eq!(second.p("target", "wiped_out"), r(11, 36));
    assert_eq!(second.p("target", "steady"), r(24, 36));
    assert_eq!(second.p("target", "pinned"), r(0, 1));
    assert_eq!(second.p("target", "broken"), r(1, 36));
    // 1e: Pinned at 1 or 2 Shock (8 + 1 = 9/36); Broken needs more than 2.
    let first = fire("shock_thresholds = \"first_edition\"");
    assert_eq!(first.p("target", "steady"), r(16, 36));
    assert_eq!(first.p("target", "pinned"), r(9, 36));
    assert_eq!(first.p("target", "broken"), r(0, 1));
    assert_eq!(first.p("target", "wiped_out"), r(11, 36));
}

#[test]
fn the_hard_rows_lost_four_is_a_miss_or_a_shock_by_the_setting() {
    // Hard: 1-3 miss, 5 Shock, 6 kill, 4 by `hard_cover_four`. One die, hit 1/2.
    let fire = |settings: &str| {
        shooting(settings, "shooting", CLOSE, "firepower = 1", "figures = 1\ncover = \"hard\"", settings)
    };
    // miss (default): Shock on 5 only, 1/2 x 1/6 = 1/12; kill 1/2 x 1/6 = 1/12.
    for settings in ["", "hard_cover_four = \"miss\""] {
        let e = fire(settings);
        assert_eq!(e.p("shock", "1"), r(1, 12), "{settings:?}");
        assert_eq!(e.p("kills", "1"), r(1, 12), "{settings:?}");
    }
    // shock: Shock on 4-5, 1/2 x 2/6 = 1/6; kill unchanged 1/12.
    let e = fire("hard_cover_four = \"shock\"");
    assert_eq!(e.p("shock", "1"), r(1, 6));
    assert_eq!(e.p("kills", "1"), r(1, 12));
}

#[test]
fn the_to_hit_column_follows_the_target_or_the_firer() {
    // A Green firer at an Elite target, Effective range: the target's column needs a 6
    // (1/6); the firer's needs 4-6 (3/6).
    let fire = |settings: &str| {
        shooting(
            settings,
            "shooting",
            "range = \"effective\"",
            "quality = \"green\"\nfirepower = 1",
            "quality = \"elite\"\nfigures = 1\ncover = \"open\"",
            settings,
        )
    };
    assert_eq!(fire("").p("hits", "1"), r(1, 6));
    assert_eq!(fire("to_hit_quality = \"target\"").p("hits", "1"), r(1, 6));
    assert_eq!(fire("to_hit_quality = \"firer\"").p("hits", "1"), r(1, 2));
}

#[test]
fn firer_shock_and_moving_take_firepower_dice_away() {
    let target = "figures = 1\ncover = \"open\"";
    // Firepower 2 with 2 Shock: one die fewer per 2 Shock, 1 die: hits 1 = 1/2.
    let shocked = shooting("shocked", "shooting", CLOSE, "firepower = 2\nshock = 2", target, "");
    assert_eq!(shocked.p("hits", "1"), r(1, 2));
    assert_eq!(shocked.p("hits", "0"), r(1, 2));
    // Firepower 3, moved: halved, 3/2 rounded down to 1 die (hits 1 = 1/2) ...
    let down = shooting("moved, round down", "shooting", CLOSE, "firepower = 3\nmoved = true", target, "");
    assert_eq!(down.p("hits", "1"), r(1, 2));
    // ... or up to 2 dice: hits 2 = (1/2)^2 = 1/4, hits 1 = 2 x 1/4 = 1/2.
    let up = shooting(
        "moved, round up",
        "shooting",
        CLOSE,
        "firepower = 3\nmoved = true",
        target,
        "halved_firepower = \"round_up\"",
    );
    assert_eq!(up.p("hits", "2"), r(1, 4));
    assert_eq!(up.p("hits", "1"), r(1, 2));
}

#[test]
fn a_pinned_target_fights_from_one_cover_level_better() {
    // Two figures with 3 Shock: 2e Pinned (3 > 2), not Broken (3 < 4). Open becomes
    // Light: kill 1/2 x 1/6 = 1/12, Shock 1/2 x 2/6 = 1/6. Either breaks it (a kill
    // leaves 1 figure with 3 Shock >= 2; a Shock makes 4 >= 4): Broken 1/12 + 2/12 = 1/4.
    let fire = |settings: &str| {
        shooting(settings, "shooting", CLOSE, "firepower = 1", "figures = 2\nshock = 3\ncover = \"open\"", settings)
    };
    let pinned = fire("");
    assert_eq!(pinned.p("kills", "1"), r(1, 12));
    assert_eq!(pinned.p("target", "broken"), r(1, 4));
    assert_eq!(pinned.p("target", "pinned"), r(3, 4));
    // Without the 2e Pinned effects it stays in the Open: kill 1/6, Shock 1/6, Broken 1/3.
    let none = fire("pinned_effects = \"none\"");
    assert_eq!(none.p("kills", "1"), r(1, 6));
    assert_eq!(none.p("target", "broken"), r(1, 3));
}

#[test]
fn shooting_phases_until_a_figure_breaks() {
    let phases = |name: &str, firepower: u32, horizon: u32, settings: &str| {
        shooting(
            name,
            "shooting_phases",
            &format!("{CLOSE}\nhorizon = {horizon}"),
            &format!("firepower = {firepower}"),
            "figures = 1\ncover = \"open\"",
            settings,
        )
    };
    // Horizon 1, two dice (above): 2e Broken or wiped out 1/36 + 11/36 = 1/3; 1e only
    // wiped out, 11/36.
    let second = phases("two dice, 2e", 2, 1, "");
    assert_eq!(second.p("broken", "within_horizon"), r(1, 3));
    assert_eq!(second.p("phases", "1"), r(1, 3));
    assert_eq!(second.p_kill(), r(1, 3));
    let first = phases("two dice, 1e", 2, 1, "shock_thresholds = \"first_edition\"");
    assert_eq!(first.p("broken", "within_horizon"), r(11, 36));
    // Horizon 2, one die: each Phase kill 1/6, Shock 1/6, nothing 4/6.
    // 2e: Phase 1 ends on a kill, 1/6. Phase 2 from no Shock (4/6) ends on a kill (1/6);
    // from 1 Shock (1/6, not Pinned: 1 is not > 1) on a kill or a Shock (2/6):
    // 4/36 + 2/36 = 1/6. More than 2: 1 - 1/6 - 1/6 = 2/3.
    let second = phases("one die, 2e", 1, 2, "");
    assert_eq!(second.p("phases", "1"), r(1, 6));
    assert_eq!(second.p("phases", "2"), r(1, 6));
    assert_eq!(second.p("phases", "more_than_2"), r(2, 3));
    // 1e: 1 Shock pins the figure, which then fights from Light cover (kill 1/12) and
    // 2 Shock does not break it (needs > 2): Phase 2 = 4/6 x 1/6 + 1/6 x 1/12
    // = 8/72 + 1/72 = 1/8. More than 2: 1 - 1/6 - 1/8 = 17/24.
    let first = phases("one die, 1e", 1, 2, "shock_thresholds = \"first_edition\"");
    assert_eq!(first.p("phases", "1"), r(1, 6));
    assert_eq!(first.p("phases", "2"), r(1, 8));
    assert_eq!(first.p("phases", "more_than_2"), r(17, 24));
}

// ---------------------------------------------------------------------------
// Force Morale
// ---------------------------------------------------------------------------

fn force(name: &str, body: &str) -> Exact {
    Exact::of(name, &coc("force_morale", &format!("[force]\n{body}")))
}

#[test]
fn starting_force_morale_by_quality() {
    // Green, d6 - 2 = -1..4: faces 1-4 (<= 2) give 8, faces 5-6 (3-4) give 9.
    let green = force("green", "quality = \"green\"");
    assert_eq!(green.p("starting", "8"), r(4, 6));
    assert_eq!(green.p("starting", "9"), r(2, 6));
    assert_eq!(green.p("starting", "10"), r(0, 1));
    assert_eq!(green.p("force_morale", "8"), r(2, 3));
    // Regular, d6: 1-2 8, 3-4 9, 5 10, 6 11.
    let regular = force("regular", "quality = \"regular\"");
    assert_eq!(regular.p("starting", "8"), r(2, 6));
    assert_eq!(regular.p("starting", "9"), r(2, 6));
    assert_eq!(regular.p("starting", "10"), r(1, 6));
    assert_eq!(regular.p("starting", "11"), r(1, 6));
    // Elite, d6 + 2 = 3..8: 3-4 9, 5 10, 6-8 11.
    let elite = force("elite", "quality = \"elite\"");
    assert_eq!(elite.p("starting", "8"), r(0, 1));
    assert_eq!(elite.p("starting", "9"), r(2, 6));
    assert_eq!(elite.p("starting", "10"), r(1, 6));
    assert_eq!(elite.p("starting", "11"), r(3, 6));
}

#[test]
fn one_setback_from_a_known_start_and_from_a_green_roll() {
    // From 10, Senior Leader killed: -1 on a 1, -2 on 2-5, -3 on a 6.
    let e = force("senior leader killed", "starting = 10\nsetbacks = [\"senior_leader_killed\"]");
    assert_eq!(e.p("force_morale", "9"), r(1, 6));
    assert_eq!(e.p("force_morale", "8"), r(4, 6));
    assert_eq!(e.p("force_morale", "7"), r(1, 6));
    assert_eq!(e.p_kill(), r(0, 1));
    // Five dice at every level: none lost.
    assert_eq!(e.p("command_dice", "5"), r(1, 1));
    assert_eq!(e.p("dice_lost", "0"), r(1, 1));
    // Green (8 on 4/6, 9 on 2/6), then Team breaks (0 on a 1, -1 on 2-5, -2 on a 6):
    //   9: from 9 with 0: 2/6 x 1/6 = 2/36
    //   8: from 8 with 0, 4/6 x 1/6 = 4/36; from 9 with -1, 2/6 x 4/6 = 8/36: 12/36
    //   7: from 8 with -1, 4/6 x 4/6 = 16/36; from 9 with -2, 2/6 x 1/6 = 2/36: 18/36
    //   6: from 8 with -2, 4/6 x 1/6 = 4/36
    let e = force("green, team breaks", "quality = \"green\"\nsetbacks = [\"team_breaks\"]");
    assert_eq!(e.p("force_morale", "9"), r(2, 36));
    assert_eq!(e.p("force_morale", "8"), r(12, 36));
    assert_eq!(e.p("force_morale", "7"), r(18, 36));
    assert_eq!(e.p("force_morale", "6"), r(4, 36));
    // From 1, a Senior Leader routing (-2 or -3) always ends at the floor, 0: the kill,
    // and a level the dice table does not list.
    let e = force("floor", "starting = 1\nsetbacks = [\"senior_leader_routs\"]");
    assert_eq!(e.p_kill(), r(1, 1));
    assert_eq!(e.p("command_dice", "not_listed"), r(1, 1));
}
