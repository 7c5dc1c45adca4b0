//! The questions players ask of a hand of Command Dice, answered exactly for every
//! allocation policy at once: how often each Leader and Unit activates, Orders and
//! Chain of Command points per Phase, how the sixes move the turn sequence, Phases
//! until a full Chain of Command die, and Phases per Turn.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};

use super::command_dice::{Hand, PhaseDice, Platoon, Policy};
use super::phases::ChainOfCommandDie;
use super::tables::Tables;
use crate::ruleset::{Answer, Answers};
use combat_odds_core::dice::Ratio;
use combat_odds_core::engine::Experiment;

/// Phases after which "a full Chain of Command die within N Phases" is reported.
const DIE_WITHIN: [u32; 3] = [3, 6, 12];

/// Answers for `hand` and `platoon` under every policy.
pub(crate) fn answers(scenario: String, notes: Vec<String>, tables: &Tables, hand: Hand, platoon: &Platoon) -> Answers {
    let mut answers = Vec::new();
    let mut push = |policy: &str, answer: &str, r: Fraction| {
        answers.push(Answer {
            policy: policy.into(),
            answer: answer.into(),
            value: r.value(),
            exact_fraction: r.to_string(),
        })
    };
    let mut any = None;
    for policy in Policy::ALL {
        let phase = PhaseDice::new(tables.dice.clone(), hand, platoon, policy);
        let table = phase.exact().expect("a hand of at most 13 dice enumerates");
        let row = |measure: &str| {
            let m = phase.measures().iter().position(|m| m.name == measure).expect("a measure of the Phase");
            table[m].clone()
        };
        let at_least_one = |measure: &str| Fraction::of(&row(measure).iter().skip(1).sum());
        let name = policy.name();
        push(name, "senior_leader_activates", at_least_one("senior_leaders"));
        push(name, "junior_leader_activates", at_least_one("junior_leaders"));
        push(name, "section_activated_by_a_die", at_least_one("sections"));
        push(name, "team_activated_by_a_die", at_least_one("teams"));
        push(name, "orders_per_phase_mean", mean(&row("orders")));
        push(name, "activations_per_phase_mean", mean(&row("activations")));
        any.get_or_insert((mean(&row("chain_of_command_points")), row("sixes"), row("turn")));
    }
    // The 5s and 6s do not depend on the policy: read them from the first.
    let (points, sixes, turn) = any.expect("at least one policy");
    push("any", "chain_of_command_points_per_phase_mean", points);
    push("any", "at_least_one_six", Fraction::of(&sixes.iter().skip(1).sum()));
    push("any", "two_or_more_sixes", Fraction::of(&sixes.iter().skip(2).sum()));
    push("any", "phase_passes_to_the_opponent", Fraction::of(&turn[0]));
    push("any", "keeps_the_next_phase", Fraction::of(&turn[1]));
    push("any", "turn_ends", Fraction::of(&turn[2]));
    // Both sides rolling this hand, each Phase ends the Turn with the same chance,
    // so Phases per Turn are geometric: mean 1 / P(turn ends).
    if !turn[2].is_zero() {
        let ends = &turn[2];
        let mean = Fraction::new(ends.denom().clone(), ends.numer().clone());
        push("any", "phases_per_turn_mean_both_sides_this_hand", mean);
    }
    let die = ChainOfCommandDie::new(tables.dice.clone(), hand, 0, DIE_WITHIN[DIE_WITHIN.len() - 1]);
    let (numer, denom) = die.process().mean_phases();
    push("any", "phases_to_full_chain_of_command_die_mean", Fraction::new(numer, denom));
    let by_phase = die.exact().expect("the Chain of Command die chain is exact");
    for within in DIE_WITHIN {
        let p: Ratio = by_phase[1].iter().take(within as usize).sum();
        push("any", &format!("full_chain_of_command_die_within_{within}_phases"), Fraction::of(&p));
    }
    let about = format!("{} (command dice)", super::EMBEDDED.ruleset);
    Answers { about, scenario, notes, answers }
}

/// An exact non-negative fraction in lowest terms: a probability or an expectation
/// (which may pass 1, where [`Ratio`] holds probabilities only).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fraction {
    numer: BigUint,
    denom: BigUint,
}

impl Fraction {
    fn new(numer: BigUint, denom: BigUint) -> Self {
        let g = numer.gcd(&denom);
        Fraction { numer: numer / &g, denom: denom / g }
    }

    fn of(p: &Ratio) -> Self {
        Fraction::new(p.numer().clone(), p.denom().clone())
    }

    fn value(&self) -> f64 {
        let f = |n: &BigUint| n.to_f64().expect("a BigUint converts to f64");
        f(&self.numer) / f(&self.denom)
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.numer, self.denom)
    }
}

/// The mean of a count measure whose outcome `k` is the count `k`: the sum of
/// k x p_k over the probabilities' common denominator.
fn mean(row: &[Ratio]) -> Fraction {
    let denom = row.iter().fold(BigUint::one(), |l, p| l.lcm(p.denom()));
    let numer = row.iter().enumerate().map(|(k, p)| p.numer() * (&denom / p.denom()) * k as u64).sum();
    Fraction::new(numer, denom)
}
