//! The exact engine's composition (independent dice folded, conditional rolls
//! chained) against plain enumeration of every face of every die.

use std::collections::BTreeMap;

use combat_odds_core::dice::Ratio;
use combat_odds_rules::command_decision::{FireResolution, HitResult, Volley};

/// (worst result, hits, ammo depleted) after a sequence of dice.
type State = (Option<HitResult>, u32, bool);

/// Every sequence of faces, weighted by 1/10 each: state -> weight.
fn enumerate(volleys: &[Volley]) -> (BTreeMap<State, u128>, u128) {
    let dice: Vec<&Volley> = volleys.iter().flat_map(|v| std::iter::repeat_n(v, v.dice as usize)).collect();
    let mut out = BTreeMap::new();
    // Each die rolls up to three d10 (to hit, effect, ammo); always enumerate all three
    // so every path has the same weight 1 out of 1000 per die.
    let total = 1000u128.pow(dice.len() as u32);
    fn go(dice: &[&Volley], state: State, out: &mut BTreeMap<State, u128>) {
        let Some((v, rest)) = dice.split_first() else {
            *out.entry(state).or_insert(0) += 1;
            return;
        };
        for to_hit in 1..=10 {
            for effect in 1..=10 {
                for ammo in 1..=10 {
                    let hit = to_hit <= v.hit_at_most;
                    let result = hit.then(|| v.effect[effect as usize - 1]);
                    let depleted = v.ammo.is_some_and(|(trigger, at_most)| to_hit == trigger && ammo <= at_most);
                    let next = (state.0.max(result), state.1 + u32::from(hit), state.2 || depleted);
                    go(rest, next, out);
                }
            }
        }
    }
    go(&dice, (None, 0, false), &mut out);
    (out, total)
}

fn regular_plain() -> [HitResult; 10] {
    // Regular row: 1-3 no effect, 4-6 forced back, 7+ eliminated.
    std::array::from_fn(|i| match i + 1 {
        1..=3 => HitResult::NoEffect,
        4..=6 => HitResult::ForcedBack,
        _ => HitResult::Eliminated,
    })
}

#[test]
fn folded_exact_engine_equals_enumerating_every_face() {
    let mut skewed = regular_plain();
    skewed[9] = HitResult::ForcedBack;
    let cases = vec![
        vec![Volley { dice: 1, hit_at_most: 5, effect: regular_plain(), ammo: Some((1, 7)) }],
        vec![Volley { dice: 2, hit_at_most: 3, effect: skewed, ammo: Some((1, 6)) }],
        vec![
            Volley { dice: 1, hit_at_most: 8, effect: regular_plain(), ammo: None },
            Volley { dice: 1, hit_at_most: 0, effect: skewed, ammo: Some((1, 2)) },
        ],
    ];
    for volleys in cases {
        let resolution = FireResolution::new(volleys.clone(), None, vec![], false);
        let exact = combat_odds_core::engine::Experiment::exact(&resolution).expect("small enough");
        let (brute, total) = enumerate(&volleys);
        let marginal =
            |f: &dyn Fn(&State) -> bool| Ratio::new(brute.iter().filter(|(s, _)| f(s)).map(|(_, w)| w).sum(), total);
        for (o, result) in [HitResult::NoEffect, HitResult::ForcedBack, HitResult::Eliminated].into_iter().enumerate() {
            let expected = marginal(&|s| s.0.unwrap_or(HitResult::NoEffect) == result);
            assert_eq!(exact[0][o], expected, "target {result:?} for {volleys:?}");
        }
        for (hits, p) in exact[1].iter().enumerate() {
            assert_eq!(*p, marginal(&|s| s.1 == hits as u32), "{hits} hits for {volleys:?}");
        }
        if volleys.iter().any(|v| v.ammo.is_some()) {
            assert_eq!(exact[2][1], marginal(&|s| s.2), "ammo for {volleys:?}");
        }
    }
}
