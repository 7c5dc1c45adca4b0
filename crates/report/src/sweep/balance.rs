//! The balance finder: the value of one parameter of a scenario at which a chance
//! (`p_kill`, which for an engagement is the first side's win, or any measure's
//! outcome) crosses a target such as 0.5. Over a list of values every one is answered
//! and the answer is the values whose 95% interval holds the target, with the nearest
//! on each side; over a span of numbers (a range) a bisection on common random numbers
//! narrows the crossing to a tolerance, and says which values it tried could not be
//! told from the target. Where no value in the span crosses, it says so plainly.
//!
//! A table's band edge makes a chance jump rather than cross: at 4.99 in. one band,
//! at 5.01 in. the next. Where the two values either side of the target are neighbours
//! (nothing the finder tries lies between them: whole numbers one apart for a key the
//! rules read as whole, numbers a millionth apart otherwise) and neither's 95% interval
//! holds the target, no value gives the target, and the answer says where the chance
//! jumps instead. A bisection looks for that edge past its tolerance at two more
//! values: the simplest number in its bracket (a band edge is written as one, 5 rather
//! than 4.96875) and its neighbour a millionth away on the other side.

use serde::Serialize;
use toml::{Table, Value};

use super::{WHOLE_MAX, number, set, short};
use crate::compare::Equivalents;
use crate::error::{Error, Result};
#[cfg(feature = "files")]
use crate::export::invented_line;
use crate::export::{Rendered, invented_of};
use crate::study::{Plan, StudyResult};
use combat_odds_core::document::Document;
use combat_odds_core::engine::MonteCarlo;
use combat_odds_core::run::Run;
use combat_odds_rules::{Rules, Scenario};

/// Which chance to balance, and at what.
#[derive(Debug, Clone)]
pub struct Target {
    /// The measure and outcome, or `None` for the scenario's `p_kill`.
    pub outcome: Option<(String, String)>,
    /// The chance sought, 0..1.
    pub p: f64,
}

/// Where the parameter may go.
#[derive(Debug, Clone)]
pub enum Span {
    /// These values, each answered.
    Values(Vec<Value>),
    /// Any number from `from` to `to`: a bisection to within `tolerance`.
    Numbers {
        /// The low end.
        from: f64,
        /// The high end.
        to: f64,
        /// Stop once the crossing is bracketed this narrowly.
        tolerance: f64,
    },
}

impl Span {
    /// The span a request gives: listed `values`; `from`, `to` and `step`, every step
    /// tried; or `from` and `to` alone, bisected to `tolerance` (a 64th of the span
    /// when not given). Anything else is refused in words the request's author reads.
    pub fn of_request(
        values: Option<Vec<Value>>,
        (from, to, step): (Option<f64>, Option<f64>, Option<f64>),
        tolerance: Option<f64>,
    ) -> std::result::Result<Span, String> {
        Ok(match (values, from, to, step) {
            (Some(values), None, None, None) if !values.is_empty() => Span::Values(values),
            (None, Some(from), Some(to), Some(step)) => {
                Span::Values(super::span_values(from, to, step).map_err(|m| format!("from, to, step: {m}"))?)
            }
            (None, Some(from), Some(to), None) => {
                Span::Numbers { from, to, tolerance: tolerance.unwrap_or((to - from) / 64.0) }
            }
            _ => return Err("give values, or from and to (with step to try every step)".into()),
        })
    }

    /// The most values a balance over the span tries: each listed value, or a
    /// bisection's two ends and the halvings that narrow them to the tolerance.
    pub fn most_tries(&self) -> u64 {
        match self {
            Span::Values(values) => values.len() as u64,
            Span::Numbers { from, to, tolerance } => {
                let halvings = ((to - from) / tolerance).log2().ceil();
                // Both ends, the halvings, and the two values that look for a band edge.
                4 + if halvings.is_finite() && halvings > 0.0 { halvings.min(MAX_STEPS as f64) as u64 } else { 0 }
            }
        }
    }
}

/// One value tried.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Tried {
    /// The parameter's value.
    pub value: Value,
    /// The chance there: exact where the engine reaches, else the estimate.
    pub p: f64,
    /// Its 95% interval (the value itself when exact).
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// Whether `p` is exact.
    pub exact: bool,
}

impl Tried {
    fn holds(&self, target: f64) -> bool {
        self.ci_low <= target && target <= self.ci_high
    }
}

/// What the balance finder found.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Balance {
    /// The scenario.
    pub scenario: String,
    /// The parameter's key.
    pub key: String,
    /// The chance balanced, e.g. `winner = US`.
    pub chance: String,
    /// The target.
    pub target: f64,
    /// Whether the chance crosses the target in the span.
    pub crosses: bool,
    /// Whether it jumps past the target between the bracket's two values, which are
    /// neighbours (see the module's note): no value gives the target.
    pub jumps: bool,
    /// Values whose interval holds the target (or exactly equal to it).
    pub balanced: Vec<Value>,
    /// The last value on the first side of the target and the first past it, in the
    /// span's order, where it crosses.
    pub bracket: Option<(Value, Value)>,
    /// Every value tried, in the span's order.
    pub tried: Vec<Tried>,
    /// Trials at each value, and the seed (the same at each: common random numbers).
    pub trials: u64,
    /// The seed.
    pub seed: u64,
    /// The answer in a sentence.
    pub answer: String,
    /// The invented (illustrative) catalogue entries any value's numbers rest on.
    pub invented: Vec<String>,
}

/// The most bisection steps: a span halved this often is finer than any table.
const MAX_STEPS: usize = 40;

/// The finest step a bisection takes: it tries numbers rounded to a millionth.
const FINEST: f64 = 1e-6;

/// Keys a scenario reads as distances in its ruleset's unit: a fire's and an
/// engagement's range, an engagement's closing and closest range (as
/// crates/rules/src/engagement/scenario.rs and each ruleset's fire reader name them).
const DISTANCES: [&str; 3] = ["range", "closing", "min_range"];

/// Finds where `key` of `base` balances `target` over `span`. `progress` hears
/// (values tried, the most the span may try) as each value is answered; stopping `run`
/// ends it within a value's next batch of trials.
pub fn balance(
    base: &Document,
    (key, span): (&str, &Span),
    target: &Target,
    rules: &Rules,
    monte_carlo: MonteCarlo,
    progress: &(dyn Fn(u64, u64) + Sync),
    run: &Run,
) -> Result<Balance> {
    if !(0.0..=1.0).contains(&target.p) {
        return Err(Error::Results(format!("target {}: give a chance from 0 to 1, e.g. 0.5", target.p)));
    }
    let table: Table = base.parse()?;
    let set_up = |value: &Value| -> Result<(Document, Scenario)> {
        let mut t = table.clone();
        set(&mut t, key, value.clone()).map_err(|m| base.error(format!("{}: {m}", super::quoted(key))))?;
        let text = toml::to_string(&t).map_err(|e| base.error(format!("cannot write the scenario: {e}")))?;
        let name = format!("{} with {key} = {value}", base.name);
        let doc = Document::new(name.clone(), name, text);
        let scenario = Scenario::new(&doc, rules, monte_carlo).map_err(|e| match e {
            combat_odds_core::Error::Input { message, .. } => base.error(format!("{key} = {value}: {message}")),
            other => other,
        })?;
        Ok((doc, scenario))
    };
    // A key the rules read as a whole number (a unit's count) refuses `2.0` but takes
    // `2`: a span of it is bisected over whole numbers. Asked of the rules at either
    // end, since one end may be refused for its own sake (a count of 0).
    let whole_at =
        |x: f64| x.abs() <= WHOLE_MAX && set_up(&Value::Float(x)).is_err() && set_up(&Value::Integer(x as i64)).is_ok();
    let whole = match span {
        Span::Numbers { from, to, .. } => [from.ceil(), to.floor()].into_iter().any(whole_at),
        Span::Values(_) => false,
    };
    let mut chance = String::new();
    let mut scenario_name = String::new();
    let mut invented: Vec<String> = Vec::new();
    // The ruleset's unit of distance ("in.", "cm"), where it has a ground scale.
    let mut unit: Option<String> = None;
    let most = span.most_tries();
    let mut tried_so_far = 0;
    progress(0, most);
    let mut at = |value: &Value| -> Result<Tried> {
        run.check()?;
        let (doc, mut scenario) = set_up(value)?;
        if unit.is_none() {
            unit = Equivalents::of(scenario.ruleset.as_ref()).ok().flatten().and_then(|e| e.words().scale).map(|s| s.0);
        }
        let started = run.now();
        let exact = scenario.exact(run)?;
        let plan = Plan { scenario, text: &doc.text, shard: None, precision: None };
        let result = StudyResult::run(plan, exact, started, &|_, _| {}, run)?;
        let report = &result.report;
        scenario_name = report.scenario.clone();
        invented = invented_of([invented.as_slice(), &report.invented]);
        let (measure, outcome) = match &target.outcome {
            None => (report.p_kill.measure.clone(), report.p_kill.outcome.clone()),
            Some(pair) => pair.clone(),
        };
        let rows = report.measures.iter().find(|m| m.measure == measure).ok_or_else(|| {
            let names: Vec<&str> = report.measures.iter().map(|m| m.measure.as_str()).collect();
            Error::Results(combat_odds_core::error::unknown("measure", &measure, names.iter().copied()))
        })?;
        let row = rows.outcomes.iter().find(|r| r.outcome == outcome).ok_or_else(|| {
            Error::Results(combat_odds_core::error::unknown(
                "outcome",
                &outcome,
                rows.outcomes.iter().map(|r| r.outcome.as_str()),
            ))
        })?;
        chance = format!("{measure} = {outcome}");
        tried_so_far += 1;
        progress(tried_so_far, most.max(tried_so_far));
        Ok(match row.exact {
            Some(e) => Tried { value: value.clone(), p: e, ci_low: e, ci_high: e, exact: true },
            None => {
                Tried { value: value.clone(), p: row.estimate, ci_low: row.ci_low, ci_high: row.ci_high, exact: false }
            }
        })
    };
    let tried = match span {
        Span::Values(values) => values.iter().map(&mut at).collect::<Result<Vec<_>>>()?,
        Span::Numbers { from, to, tolerance } => {
            let span = if whole { Bisected::Whole } else { Bisected::Numbers };
            bisect(&mut at, span, (*from, *to), *tolerance, target.p)?
        }
    };
    progress(tried.len() as u64, tried.len() as u64);
    let side = |t: &Tried| t.p >= target.p;
    let window = tried.windows(2).find(|w| side(&w[0]) != side(&w[1])).map(|w| (&w[0], &w[1]));
    let bracket = window.map(|(a, b)| (a.value.clone(), b.value.clone()));
    let balanced: Vec<Value> = tried.iter().filter(|t| t.holds(target.p)).map(|t| t.value.clone()).collect();
    let crosses = bracket.is_some() || !balanced.is_empty();
    // Neighbours: nothing the finder tries lies between them.
    let neighbours = |a: &Value, b: &Value| match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.abs_diff(*y) == 1 && (whole || whole_at(*x as f64)),
        _ => number(a).zip(number(b)).is_some_and(|(x, y)| (x - y).abs() < 1.5 * FINEST),
    };
    let jumps = balanced.is_empty() && window.is_some_and(|(a, b)| neighbours(&a.value, &b.value));
    let wanted = share(target.p);
    let answer = match (window, balanced.is_empty()) {
        (None, true) => {
            let (lo, hi) = tried.iter().fold((1.0_f64, 0.0_f64), |(lo, hi), t| (lo.min(t.p), hi.max(t.p)));
            format!(
                "no value of {key} tried crosses {wanted}: P({chance}) stays between {} and {}",
                percent(lo),
                percent(hi)
            )
        }
        (Some((a, b)), _) if jumps => match (&a.value, &b.value) {
            (Value::Integer(x), Value::Integer(y)) => format!(
                "no value of {key} gives {wanted}: P({chance}) jumps from {} at {x} to {} at {y}",
                percent(a.p),
                percent(b.p)
            ),
            (x, y) => {
                let (x, y) = (number(x).unwrap_or(0.0), number(y).unwrap_or(0.0));
                let distance = DISTANCES.contains(&key.rsplit('.').next().unwrap_or(key));
                format!(
                    "no value of {key} gives {wanted}: P({chance}) jumps from {} to {} at {}{}",
                    percent(a.p),
                    percent(b.p),
                    short(simplest(x.min(y), x.max(y))),
                    unit.as_ref().filter(|_| distance).map_or(String::new(), |u| format!(" {u}"))
                )
            }
        },
        (Some((a, b)), _) => format!(
            "P({chance}) crosses {wanted} between {key} = {} and {key} = {}{}",
            a.value,
            b.value,
            if balanced.is_empty() {
                String::new()
            } else {
                format!("; at {} its 95% interval holds {wanted}", list(&balanced))
            }
        ),
        (None, false) => format!("P({chance}) is {wanted} within its 95% interval at {key} = {}", list(&balanced)),
    };
    Ok(Balance {
        scenario: scenario_name,
        key: key.to_string(),
        chance,
        target: target.p,
        crosses,
        jumps,
        balanced,
        bracket,
        tried,
        trials: monte_carlo.trials,
        seed: monte_carlo.seed,
        answer,
        invented,
    })
}

fn list(values: &[Value]) -> String {
    values.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
}

/// A chance as the page's tables give it (format.js `percent`): a percentage to two
/// decimals, never "0.00%" for a chance that is not nothing nor "100.00%" for one short
/// of certain.
fn percent(p: f64) -> String {
    if p > 0.0 && p < 0.00005 {
        "under 0.01%".into()
    } else if p < 1.0 && p > 0.99995 {
        "over 99.99%".into()
    } else {
        format!("{:.2}%", 100.0 * p)
    }
}

/// A target chance as its asker wrote it, in percent: 0.3 is 30%, 0.125 is 12.5%.
fn share(p: f64) -> String {
    format!("{}%", short((p * 1e8).round() / 1e6))
}

/// The number with the fewest decimals (to a millionth) from `a` to `b`, the nearer
/// `a` among those: how a band edge is written, 5 in the bracket 4.96875 to 5.125.
fn simplest(a: f64, b: f64) -> f64 {
    (0..=6)
        .map(|d| 10f64.powi(d))
        // A product's rounding (0.3 * 10 is 3.0000000000000004) is not a next number.
        .map(|scale| (a * scale - 1e-9).ceil() / scale)
        .find(|&x| x <= b + FINEST / 2.0)
        .map_or(a, |x| (x / FINEST).round() * FINEST)
}

/// What a bisection tries between its ends.
#[derive(Clone, Copy, PartialEq)]
enum Bisected {
    /// Any number (rounded to a millionth).
    Numbers,
    /// Whole numbers only: a count of units is never 2.5.
    Whole,
}

/// Both ends, then halves of the bracket that holds the crossing, until it is within
/// `tolerance` (over whole numbers, until the two are neighbours at the finest); every
/// value tried, in order along the span.
fn bisect(
    at: &mut impl FnMut(&Value) -> Result<Tried>,
    span: Bisected,
    (from, to): (f64, f64),
    tolerance: f64,
    target: f64,
) -> Result<Vec<Tried>> {
    if !(from.is_finite() && to.is_finite() && (to - from).is_finite() && from < to && tolerance > 0.0) {
        return Err(Error::Results(format!(
            "from {} to {} within {}: give from < to and a tolerance above 0",
            short(from),
            short(to),
            short(tolerance)
        )));
    }
    let (from, to, tolerance) = match span {
        Bisected::Numbers => (from, to, tolerance),
        Bisected::Whole => {
            let (low, high) = (from.ceil(), to.floor());
            if !(low < high && low.abs() <= WHOLE_MAX && high.abs() <= WHOLE_MAX) {
                return Err(Error::Results(format!(
                    "from {} to {}: the rules take a whole number there, so give a span holding two whole numbers or more, each within {WHOLE_MAX}",
                    short(from),
                    short(to)
                )));
            }
            (low, high, tolerance.max(1.0))
        }
    };
    let value = |x: f64| match span {
        Bisected::Numbers => Value::Float((x * 1e6).round() / 1e6),
        Bisected::Whole => Value::Integer(x as i64),
    };
    let middle = |a: f64, b: f64| match span {
        Bisected::Numbers => (a + b) / 2.0,
        Bisected::Whole => ((a + b) / 2.0).floor(),
    };
    let (mut lo, mut hi) = (at(&value(from))?, at(&value(to))?);
    let mut tried = vec![lo.clone(), hi.clone()];
    let side = |t: &Tried| t.p >= target;
    if side(&lo) != side(&hi) {
        for _ in 0..MAX_STEPS {
            let (a, b) = (number(&lo.value).unwrap_or(from), number(&hi.value).unwrap_or(to));
            if b - a <= tolerance {
                break;
            }
            let mid = at(&value(middle(a, b)))?;
            tried.push(mid.clone());
            if side(&mid) == side(&lo) { lo = mid } else { hi = mid }
        }
        // A band edge within the bracket: the simplest number there, and its neighbour
        // a millionth away towards the other end. Two neighbours either side of the
        // target say the chance jumps past it (the module's note).
        let (a, b) = (number(&lo.value).unwrap_or(from), number(&hi.value).unwrap_or(to));
        let inside = |x: f64| x > a + FINEST / 2.0 && x < b - FINEST / 2.0;
        if span == Bisected::Numbers && !lo.holds(target) && !hi.holds(target) {
            let edge = simplest(a, b);
            let there = if inside(edge) {
                let t = at(&value(edge))?;
                tried.push(t.clone());
                t
            } else if (edge - a).abs() < (edge - b).abs() {
                lo.clone()
            } else {
                hi.clone()
            };
            // Towards whichever end is on the other side of the target.
            let towards = if side(&there) == side(&lo) { b } else { a };
            let beyond = edge + FINEST.copysign(towards - edge);
            if inside(beyond) && !there.holds(target) {
                tried.push(at(&value(beyond))?);
            }
        }
    }
    tried.sort_by(|x, y| number(&x.value).unwrap_or(0.0).total_cmp(&number(&y.value).unwrap_or(0.0)));
    Ok(tried)
}

impl Rendered for Balance {
    #[cfg(feature = "files")]
    fn to_table(&self) -> String {
        let mut out =
            format!("{}: where P({}) meets {}\n  {}\n", self.scenario, self.chance, share(self.target), self.answer);
        if let Some(line) = invented_line(&self.invented) {
            out += &format!("  {line}\n");
        }
        out += "\n";
        out += &format!("  {:>12}  {:>10}  {:>23}\n", self.key, "P", "95% interval");
        for t in &self.tried {
            let interval = if t.exact { "exact".to_string() } else { format!("[{:.6}, {:.6}]", t.ci_low, t.ci_high) };
            out += &format!("  {:>12}  {:>10.6}  {:>23}\n", t.value.to_string(), t.p, interval);
        }
        out + &format!("({} trials at each value, seed {}: common random numbers)\n", self.trials, self.seed)
    }

    #[cfg(feature = "files")]
    fn to_csv(&self) -> String {
        let mut out = format!("{},p,ci_low,ci_high,exact\n", self.key);
        for t in &self.tried {
            out += &format!("{},{},{},{},{}\n", t.value, t.p, t.ci_low, t.ci_high, t.exact);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use combat_odds_core::engine::Mode;

    const PLATOON: &str = include_str!("../../../../experiments/mc_engagement_hmg_vs_rifle_platoon.toml");

    #[test]
    fn a_balance_reports_each_value_tried_against_the_most_its_span_may_try() {
        let doc = Document::new("platoon.toml", "platoon.toml", PLATOON);
        let heard = Mutex::new(Vec::new());
        let progress = |done, most| heard.lock().unwrap().push((done, most));
        let stop = AtomicBool::new(false);
        let monte_carlo = MonteCarlo { trials: 1000, seed: 1, threads: None, mode: Mode::Compiled };
        let target = Target { outcome: None, p: 0.5 };
        let values = Span::Values((1..=3).map(Value::Integer).collect());
        let key = "side[1].unit[0].count";
        balance(&doc, (key, &values), &target, &Rules::builtin(), monte_carlo, &progress, &Run::new(&stop, None))
            .unwrap();
        assert_eq!(*heard.lock().unwrap(), [(0, 3), (1, 3), (2, 3), (3, 3), (3, 3)]);
    }

    #[test]
    fn a_bisection_may_try_both_ends_a_halving_for_each_power_of_two_in_its_span_and_a_band_edge() {
        // 10 to 30 within 20/64: 64 = 2^6, so six halvings after the two ends, and two
        // values either side of a band edge.
        assert_eq!(Span::Numbers { from: 10.0, to: 30.0, tolerance: 20.0 / 64.0 }.most_tries(), 10);
        // A tolerance finer than any table still stops at the most steps.
        assert_eq!(Span::Numbers { from: 0.0, to: 1.0, tolerance: 1e-300 }.most_tries(), 4 + MAX_STEPS as u64);
        assert_eq!(Span::Values(vec![Value::Integer(1); 5]).most_tries(), 5);
    }

    const DUEL: &str = include_str!("../../../../experiments/cd_tank_duel.toml");

    /// The duel's balance of `range` over `span` at `target`, exact at every range.
    fn duel_range(span: &Span, target: f64) -> Balance {
        let doc = Document::new("duel.toml", "duel.toml", DUEL);
        let stop = AtomicBool::new(false);
        let monte_carlo = MonteCarlo { trials: 1000, seed: 1, threads: None, mode: Mode::Compiled };
        let target = Target { outcome: None, p: target };
        balance(&doc, ("range", span), &target, &Rules::builtin(), monte_carlo, &|_, _| {}, &Run::new(&stop, None))
            .unwrap()
    }

    #[test]
    fn a_band_edge_is_said_as_a_jump_at_the_edge_in_the_ruleset_s_unit() {
        // The Panther's gun kills 66.36% to 20 in. and 51% past it (its next band): no
        // range gives 60%. The bisection brackets 19.890625 to 20.5 at its tolerance,
        // then finds the edge at 20 and 20.000001.
        let found = duel_range(&Span::Numbers { from: 1.0, to: 40.0, tolerance: 0.5 }, 0.6);
        assert!(found.jumps && found.crosses);
        assert_eq!(found.bracket, Some((Value::Float(20.0), Value::Float(20.000001))));
        assert_eq!(
            found.answer,
            "no value of range gives 60%: P(target = eliminated) jumps from 66.36% to 51.00% at 20 in."
        );
    }

    #[test]
    fn listed_values_with_room_between_them_cross_rather_than_jump() {
        // 16 and 32 in. lie either side of the edge, but ranges between them were not
        // tried: the chance crosses there, said in percent.
        let values = Span::Values([8, 16, 32].map(Value::Integer).to_vec());
        let found = duel_range(&values, 0.6);
        assert!(!found.jumps && found.crosses);
        assert_eq!(found.answer, "P(target = eliminated) crosses 60% between range = 16 and range = 32");
    }

    #[test]
    fn a_band_edge_is_written_with_the_fewest_decimals_in_its_bracket() {
        assert_eq!(simplest(4.96875, 5.125), 5.0);
        assert_eq!(simplest(5.0, 5.000001), 5.0);
        assert_eq!(simplest(4.999999, 5.0), 5.0);
        assert_eq!(simplest(5.000001, 5.125), 5.1);
        // 0.3 scaled by 10 is 3.0000000000000004, which is not past 0.3.
        assert_eq!(simplest(0.3, 0.35), 0.3);
        assert_eq!(simplest(-2.5, -1.2), -2.0);
    }

    #[test]
    fn chances_are_said_in_percent_as_the_page_s_tables_give_them() {
        assert_eq!(share(0.3), "30%");
        assert_eq!(share(0.125), "12.5%");
        assert_eq!(percent(0.428667), "42.87%");
        assert_eq!(percent(0.00001), "under 0.01%");
        assert_eq!(percent(0.99999), "over 99.99%");
        assert_eq!(percent(0.0), "0.00%");
    }
}
