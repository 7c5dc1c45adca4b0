//! One Phase's hand of Command Dice (seed 002, 7.2-7.8): rolling it, converting an
//! Elite force's single 6, setting the Red Dice's 5s and 6s aside, combining the 1-4s
//! into higher results under an allocation policy, and reading what is left as
//! activations, Orders, Chain of Command points and the turn sequence.
//!
//! Combining is the player's choice, so the rules alone do not decide which Leaders
//! activate; a [`Policy`] states the choice. For each policy the allocation of a hand
//! depends only on how many 1s, 2s, 3s and 4s it holds, so every such pool is solved
//! once ([`Allocator`]) and the Monte Carlo trial and the exact enumeration read the
//! same answers: they can disagree only by chance.

use std::collections::BTreeSet;

use num_bigint::BigUint;

use super::dice_tables::{DiceRules, Rank, Sixes};
use combat_odds_core::dice::D6;
use combat_odds_core::engine::{Measure, Resolution, Stream, Streams};
use combat_odds_core::exact::{Dist, TooLarge};

/// How a player combines and spends the 1-4s of a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Activate as many Senior Leaders as the hand allows, combining dice to make 4s;
    /// then as many Orders and activations as possible.
    MaxSenior,
    /// As many Orders and activations in all as possible (a Leader's Orders each count
    /// one, a Team or Section activated by a die counts one); then Senior Leaders.
    MaxOrders,
    /// No combining: each die is used for its own face, as many Orders and
    /// activations as possible.
    AsRolled,
}

impl Policy {
    /// Every policy, in listing order.
    pub const ALL: [Policy; 3] = [Policy::MaxSenior, Policy::MaxOrders, Policy::AsRolled];
    /// Their names, in [`Policy::ALL`] order.
    pub const NAMES: [&'static str; 3] = ["max_senior", "max_orders", "as_rolled"];

    /// The stable name.
    pub fn name(self) -> &'static str {
        Self::NAMES[Self::ALL.iter().position(|p| *p == self).expect("every policy is listed")]
    }

    /// The policy called `name`.
    pub fn named(name: &str) -> Option<Policy> {
        Self::NAMES.iter().position(|n| *n == name).map(|i| Self::ALL[i])
    }
}

/// How many of each kind of Leader and Unit a player has to activate. No Leader or
/// Unit activates more than once in a Phase (7.3), so these cap the activations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Platoon {
    /// Leaders by the row name of `leaders.toml` (`senior_leader`, ...), with counts.
    pub leaders: Vec<(String, u32)>,
    /// Sections.
    pub sections: u32,
    /// Teams.
    pub teams: u32,
}

/// What one hand activates after allocation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Allocation {
    /// Senior-rank Leaders activated.
    pub senior: u8,
    /// Junior-rank Leaders activated.
    pub junior: u8,
    /// Sections activated by a die.
    pub sections: u8,
    /// Teams activated by a die.
    pub teams: u8,
    /// Orders the activated Leaders can issue.
    pub orders: u8,
}

impl Allocation {
    /// Orders plus Units activated directly by a die: each moves or fires one Unit.
    pub fn total(&self) -> u8 {
        self.orders + self.sections + self.teams
    }

    /// The policy's preference, largest best; ties fall to the fixed order of the
    /// remaining fields so the choice is deterministic.
    fn key(&self, policy: Policy) -> [u8; 6] {
        let rest = [self.orders, self.junior, self.sections, self.teams];
        match policy {
            Policy::MaxSenior => [self.senior, self.total(), rest[0], rest[1], rest[2], rest[3]],
            Policy::MaxOrders | Policy::AsRolled => [self.total(), self.senior, rest[0], rest[1], rest[2], rest[3]],
        }
    }
}

/// How many dice of each usable face, 1 up to the highest combined result (index 0 is
/// face 1; the rest stay 0). The highest combined result lies below the point and
/// turn-sequence faces (checked on loading), so it is 4 at most.
pub(crate) type Pool = [u8; MOST_COMBINED];

/// The most faces a pool holds.
pub(crate) const MOST_COMBINED: usize = 4;

/// The outcome of one Phase's hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PhaseRoll {
    /// Activations and Orders.
    pub allocation: Allocation,
    /// Chain of Command points added (5s, after the Elite conversion).
    pub points: u8,
    /// The row of the sixes table that applies (by count of 6s on the ordinary dice).
    pub sixes: u8,
}

/// Solves every pool once per policy and platoon.
#[derive(Debug, Clone)]
pub struct Allocator {
    policy: Policy,
    /// The allocation of every pool of up to `radix - 1` dice, indexed by
    /// [`Allocator::index`]: one array read per Monte Carlo trial.
    best: Vec<Allocation>,
    radix: usize,
    /// The combined results a pool can make: non-decreasing runs of faces, each at
    /// least two dice, summing to at most the highest combined result.
    groups: Vec<Vec<u8>>,
    leaders: Vec<LeaderKind>,
    team_face: Option<usize>,
    section_face: Option<usize>,
    sections: u32,
    teams: u32,
}

/// One kind of Leader in the platoon: how many, their rank, and the (face, Orders)
/// rows that activate them.
#[derive(Debug, Clone)]
struct LeaderKind {
    count: u32,
    rank: Rank,
    options: Vec<(usize, u8)>,
}

impl Allocator {
    /// An allocator for `platoon` under `policy`.
    pub fn new(rules: &DiceRules, platoon: &Platoon, policy: Policy) -> Self {
        let highest = rules.highest_combined as u8;
        let mut groups = Vec::new();
        if policy != Policy::AsRolled {
            combined_groups(highest, 1, 0, &mut Vec::new(), &mut groups);
        }
        let leaders = platoon
            .leaders
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| {
                let rows: Vec<_> = rules.leaders.iter().filter(|l| l.name == *name).collect();
                LeaderKind {
                    count: *n,
                    rank: rows[0].rank,
                    options: rows.iter().map(|l| (l.activates_on as usize - 1, l.orders as u8)).collect(),
                }
            })
            .collect();
        Allocator {
            policy,
            best: Vec::new(),
            radix: 1,
            groups,
            leaders,
            team_face: rules.team_face.map(|f| f as usize - 1),
            section_face: rules.section_face.map(|f| f as usize - 1),
            sections: platoon.sections,
            teams: platoon.teams,
        }
    }

    /// Senior-rank Leaders in the platoon: what "every Senior Leader activated" counts.
    pub fn senior_leaders(&self) -> u32 {
        self.leaders.iter().filter(|k| k.rank == Rank::Senior).map(|k| k.count).sum()
    }

    /// The policy's allocation of `pool`.
    fn allocate(&self, pool: Pool) -> Allocation {
        let mut results = BTreeSet::new();
        self.combine(pool, 0, &mut results);
        let policy = self.policy;
        results
            .iter()
            .map(|r| self.activate(r))
            .max_by_key(|a| a.key(policy))
            .expect("a pool makes at least its own faces")
    }

    /// A pool's place in the table: its counts as digits in base `radix`.
    fn index(&self, pool: &Pool) -> usize {
        pool.iter().rev().fold(0, |i, &n| i * self.radix + n as usize)
    }

    /// The policy's allocation of `pool`, from the table `Allocator::solve_all` built.
    pub fn solved(&self, pool: &Pool) -> Allocation {
        self.best[self.index(pool)]
    }

    /// Solves every pool of at most `dice` dice.
    pub(crate) fn solve_all(&mut self, dice: u8) {
        self.radix = dice as usize + 1;
        self.best = vec![Allocation::default(); self.radix.pow(MOST_COMBINED as u32)];
        self.solve_from(&mut [0; MOST_COMBINED], 0, dice);
    }

    fn solve_from(&mut self, pool: &mut Pool, face: usize, left: u8) {
        if face == MOST_COMBINED {
            let i = self.index(pool);
            self.best[i] = self.allocate(*pool);
            return;
        }
        for n in 0..=left {
            pool[face] = n;
            self.solve_from(pool, face + 1, left - n);
        }
        pool[face] = 0;
    }

    /// Every result vector the pool can be combined into (dice may also be left as
    /// they are): groups are taken in a fixed order so each combination is met once.
    fn combine(&self, results: Pool, from: usize, out: &mut BTreeSet<Pool>) {
        out.insert(results);
        for (g, group) in self.groups.iter().enumerate().skip(from) {
            let mut next = results;
            let fits = group.iter().all(|&f| {
                let slot = &mut next[f as usize - 1];
                slot.checked_sub(1).map(|n| *slot = n).is_some()
            });
            if fits {
                next[group.iter().map(|&f| f as usize).sum::<usize>() - 1] += 1;
                self.combine(next, g, out);
            }
        }
    }

    /// The best activation of a result vector: 1s to Teams, 2s to Sections, and the
    /// Leaders to the faces their rows name, each Leader at most once.
    fn activate(&self, results: &Pool) -> Allocation {
        let mut direct = Allocation::default();
        if let Some(f) = self.team_face {
            direct.teams = (results[f] as u32).min(self.teams) as u8;
        }
        if let Some(f) = self.section_face {
            direct.sections = (results[f] as u32).min(self.sections) as u8;
        }
        let mut search = Search { allocator: self, left: *results, best: direct };
        search.assign(0, direct);
        search.best
    }
}

/// The search for the best Leader activations of one result vector: the results not
/// yet used, and the best allocation found so far.
struct Search<'a> {
    allocator: &'a Allocator,
    left: Pool,
    best: Allocation,
}

impl Search<'_> {
    /// Tries every split of each Leader kind from `kind` on over its activating rows.
    fn assign(&mut self, kind: usize, so_far: Allocation) {
        let policy = self.allocator.policy;
        let Some(k) = self.allocator.leaders.get(kind) else {
            if so_far.key(policy) > self.best.key(policy) {
                self.best = so_far;
            }
            return;
        };
        self.split(kind, 0, k.count, so_far);
    }

    /// Gives `n` of the `unassigned` Leaders of `kind` row `option`, for each `n`
    /// the results left allow, then moves on to the next row.
    fn split(&mut self, kind: usize, option: usize, unassigned: u32, so_far: Allocation) {
        let k = &self.allocator.leaders[kind];
        let Some(&(face, orders)) = k.options.get(option) else {
            return self.assign(kind + 1, so_far);
        };
        let rank = k.rank;
        let most = unassigned.min(self.left[face] as u32) as u8;
        for n in 0..=most {
            self.left[face] -= n;
            let mut a = so_far;
            match rank {
                Rank::Senior => a.senior += n,
                Rank::Junior => a.junior += n,
            }
            a.orders += n * orders;
            self.split(kind, option + 1, unassigned - n as u32, a);
            self.left[face] += n;
        }
    }
}

/// Every non-decreasing run of at least two faces from `from` up summing to at most
/// `highest`: the ways dice combine ("a 1 and a 2 can be combined to make a 3").
fn combined_groups(highest: u8, from: u8, sum: u8, run: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if run.len() >= 2 {
        out.push(run.clone());
    }
    for f in from..highest {
        if sum + f > highest {
            break;
        }
        run.push(f);
        combined_groups(highest, f, sum + f, run, out);
        run.pop();
    }
}

/// A hand: how many ordinary dice, whether a Red Dice joins them, whether the force
/// is Elite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hand {
    /// Ordinary Command Dice.
    pub dice: u8,
    /// A sixth, "Red", dice whose 5s and 6s are discarded (7.7).
    pub red_dice: bool,
    /// An Elite force's single 6 becomes a 5 (7.7).
    pub elite: bool,
}

impl Hand {
    /// What the faces of a hand leave after the Elite conversion and the Red Dice's
    /// discards: the pool of usable 1-4s, the 5s and the 6s.
    fn read(&self, rules: &DiceRules, counts: &[u8; 6], red: Option<u32>) -> (Pool, u8, u8) {
        let highest = rules.highest_combined as usize;
        let mut pool: Pool = [0; MOST_COMBINED];
        pool[..highest].copy_from_slice(&counts[..highest]);
        let (fives, sixes) = (counts[rules.point_face as usize - 1], counts[rules.sequence_face as usize - 1]);
        let converted = sixes - self.sixes_after_elite(sixes);
        if let Some(face) = red.filter(|f| rules.red_used.contains(f)) {
            pool[face as usize - 1] += 1;
        }
        (pool, fives + converted, sixes - converted)
    }

    /// The 6s that drive the turn sequence once an Elite force has converted a single
    /// 6 ("An Elite force that rolls a single 6 ... will convert that to a 5"). The Red
    /// Dice is read apart, so its 6 never reaches here.
    pub(crate) fn sixes_after_elite(&self, sixes: u8) -> u8 {
        if self.elite && sixes == 1 { 0 } else { sixes }
    }
}

/// One Phase of one hand under one policy, for the Monte Carlo trial and the exact
/// enumeration alike.
#[derive(Debug, Clone)]
pub struct PhaseDice {
    rules: DiceRules,
    hand: Hand,
    allocator: Allocator,
    measures: Vec<Measure>,
}

/// What a Phase's sixes do to the turn, as the `turn` measure reports it.
pub const TURN_OUTCOMES: [&str; 3] = ["passes", "keeps_phase", "ends"];

impl Sixes {
    /// The `sixes` measure: one outcome per row, the last "or more".
    pub fn measure(&self) -> Measure {
        let last = self.rows.len() - 1;
        Measure::new("sixes", (0..=last).map(|k| if k == last { format!("{k}_or_more") } else { k.to_string() }))
    }

    /// The `turn` outcome of row `row`.
    pub(crate) fn turn_outcome(&self, row: usize) -> usize {
        let r = &self.rows[row];
        if r.turn_ends { 2 } else { usize::from(r.keeps_phase) }
    }
}

impl PhaseDice {
    /// Prepares the phase, solving every pool the hand can roll.
    pub fn new(rules: DiceRules, hand: Hand, platoon: &Platoon, policy: Policy) -> Self {
        let mut allocator = Allocator::new(&rules, platoon, policy);
        let dice = hand.dice + u8::from(hand.red_dice);
        allocator.solve_all(dice);
        // Each measure runs up to the most any hand of this size can reach (pools
        // larger than the hand are left at no activations, which never raise it).
        let most = |f: fn(&Allocation) -> u8| allocator.best.iter().map(f).max().unwrap_or(0) as u32;
        // Senior Leaders run to the platoon's count, not to the most a hand activates:
        // `p_kill` ("every Senior Leader activated") is the last outcome, and a platoon
        // with more Senior Leaders than any hand can activate must read 0 there.
        let measures = vec![
            Measure::counts("senior_leaders", allocator.senior_leaders().max(most(|a| a.senior))),
            Measure::counts("junior_leaders", most(|a| a.junior)),
            Measure::counts("sections", most(|a| a.sections)),
            Measure::counts("teams", most(|a| a.teams)),
            Measure::counts("orders", most(|a| a.orders)),
            Measure::counts("activations", most(Allocation::total)),
            Measure::counts("chain_of_command_points", hand.dice as u32),
            rules.sixes.measure(),
            Measure::new("turn", TURN_OUTCOMES),
        ];
        PhaseDice { rules, hand, allocator, measures }
    }

    /// The sixes table.
    pub fn sixes(&self) -> &Sixes {
        &self.rules.sixes
    }

    /// Rolls the hand.
    pub fn roll(&self, rng: &mut Stream) -> PhaseRoll {
        let mut counts = [0u8; 6];
        for _ in 0..self.hand.dice {
            counts[D6.roll(rng) as usize - 1] += 1;
        }
        let red = self.hand.red_dice.then(|| D6.roll(rng));
        self.outcome(&counts, red)
    }

    fn outcome(&self, counts: &[u8; 6], red: Option<u32>) -> PhaseRoll {
        let (pool, points, sixes) = self.hand.read(&self.rules, counts, red);
        PhaseRoll { allocation: self.allocator.solved(&pool), points, sixes: self.rules.sixes.row_of(sixes) as u8 }
    }

    /// The exact distribution of a Phase: every multiset of ordinary faces weighted by
    /// its multinomial count, times each face of the Red Dice.
    pub fn distribution(&self) -> Result<Dist<PhaseRoll, BigUint>, TooLarge> {
        let mut pairs = Vec::new();
        let mut counts = [0u8; 6];
        let reds: Vec<Option<u32>> = if self.hand.red_dice { (1..=6).map(Some).collect() } else { vec![None] };
        multisets(self.hand.dice, 0, &mut counts, &mut |c| {
            let ways = multinomial(c);
            for red in &reds {
                pairs.push((self.outcome(c, *red), ways.clone()));
            }
        });
        Dist::from_weights(pairs)
    }
}

impl Resolution for PhaseDice {
    type State = PhaseRoll;
    type Weight = BigUint;

    fn measures(&self) -> &[Measure] {
        &self.measures
    }

    /// Every Senior Leader of the platoon activated.
    fn kill(&self) -> (usize, usize) {
        (0, self.measures[0].outcomes.len() - 1)
    }

    #[inline(always)]
    fn trial(&self, streams: &mut Streams) -> PhaseRoll {
        self.roll(&mut streams.command)
    }

    #[inline(always)]
    fn index(&self, r: &PhaseRoll, out: &mut [usize]) {
        let a = &r.allocation;
        out[..6].copy_from_slice(&[a.senior, a.junior, a.sections, a.teams, a.orders, a.total()].map(usize::from));
        out[6] = r.points as usize;
        out[7] = r.sixes as usize;
        out[8] = self.rules.sixes.turn_outcome(r.sixes as usize);
    }

    fn exact_state(&self) -> Result<Dist<PhaseRoll, BigUint>, TooLarge> {
        self.distribution()
    }
}

/// Calls `f` with every way to spread `left` dice over faces `face..6`.
fn multisets(left: u8, face: usize, counts: &mut [u8; 6], f: &mut impl FnMut(&[u8; 6])) {
    if face == 5 {
        counts[5] = left;
        f(counts);
        return;
    }
    for n in 0..=left {
        counts[face] = n;
        multisets(left - n, face + 1, counts, f);
    }
    counts[face] = 0;
}

/// The number of orderings of a multiset of faces: n! / (c1! c2! ... c6!).
fn multinomial(counts: &[u8; 6]) -> BigUint {
    let fact = |n: u8| (1..=n as u32).fold(BigUint::from(1u32), |acc, k| acc * k);
    let n: u8 = counts.iter().sum();
    counts.iter().fold(fact(n), |acc, &c| acc / fact(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_combine_into_every_run_summing_to_four_at_most() {
        let mut groups = Vec::new();
        combined_groups(4, 1, 0, &mut Vec::new(), &mut groups);
        // 1+1, 1+1+1, 1+1+1+1, 1+1+2, 1+2, 1+3, 2+2: "a 1 and a 2 can be combined to
        // make a 3"; nothing makes a 5 or 6.
        assert_eq!(
            groups,
            vec![vec![1, 1], vec![1, 1, 1], vec![1, 1, 1, 1], vec![1, 1, 2], vec![1, 2], vec![1, 3], vec![2, 2]]
        );
    }

    #[test]
    fn multinomial_counts_orderings_of_a_hand() {
        // Five dice showing 1, 1, 2, 6, 6: 5! / (2! 1! 2!) = 120 / 4 = 30.
        assert_eq!(multinomial(&[2, 1, 0, 0, 0, 2]), BigUint::from(30u32));
    }
}
