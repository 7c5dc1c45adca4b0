//! The balance finder: the value of one parameter of a scenario at which a chance
//! (`p_kill`, which for an engagement is the first side's win, or any measure's
//! outcome) crosses a target such as 0.5. Over a list of values every one is answered
//! and the answer is the values whose 95% interval holds the target, with the nearest
//! on each side; over a span of numbers (a range) a bisection on common random numbers
//! narrows the crossing to a tolerance, and says which values it tried could not be
//! told from the target. Where no value in the span crosses, it says so plainly.

use serde::Serialize;
use toml::{Table, Value};

use super::{WHOLE_MAX, number, set, short};
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
                2 + if halvings.is_finite() && halvings > 0.0 { halvings.min(MAX_STEPS as f64) as u64 } else { 0 }
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
    let whole = match span {
        Span::Numbers { from, to, .. } => [from.ceil(), to.floor()].into_iter().any(|x| {
            x.abs() <= WHOLE_MAX && set_up(&Value::Float(x)).is_err() && set_up(&Value::Integer(x as i64)).is_ok()
        }),
        Span::Values(_) => false,
    };
    let mut chance = String::new();
    let mut scenario_name = String::new();
    let mut invented: Vec<String> = Vec::new();
    let most = span.most_tries();
    let mut tried_so_far = 0;
    progress(0, most);
    let mut at = |value: &Value| -> Result<Tried> {
        run.check()?;
        let (doc, mut scenario) = set_up(value)?;
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
    let bracket =
        tried.windows(2).find(|w| side(&w[0]) != side(&w[1])).map(|w| (w[0].value.clone(), w[1].value.clone()));
    let balanced: Vec<Value> = tried.iter().filter(|t| t.holds(target.p)).map(|t| t.value.clone()).collect();
    let crosses = bracket.is_some() || !balanced.is_empty();
    let answer = match (&bracket, balanced.is_empty()) {
        (None, true) => {
            let (lo, hi) = tried.iter().fold((1.0_f64, 0.0_f64), |(lo, hi), t| (lo.min(t.p), hi.max(t.p)));
            format!("no value of {key} tried crosses {}: P({chance}) stays between {lo:.4} and {hi:.4}", target.p)
        }
        (Some((a, b)), _) => format!(
            "P({chance}) crosses {} between {key} = {a} and {key} = {b}{}",
            target.p,
            if balanced.is_empty() {
                String::new()
            } else {
                format!("; at {} its 95% interval holds {}", list(&balanced), target.p)
            }
        ),
        (None, false) => format!("P({chance}) is {} within its 95% interval at {key} = {}", target.p, list(&balanced)),
    };
    Ok(Balance {
        scenario: scenario_name,
        key: key.to_string(),
        chance,
        target: target.p,
        crosses,
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
    }
    tried.sort_by(|x, y| number(&x.value).unwrap_or(0.0).total_cmp(&number(&y.value).unwrap_or(0.0)));
    Ok(tried)
}

impl Rendered for Balance {
    #[cfg(feature = "files")]
    fn to_table(&self) -> String {
        let mut out = format!("{}: where P({}) meets {}\n  {}\n", self.scenario, self.chance, self.target, self.answer);
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
    fn a_bisection_may_try_both_ends_and_a_halving_for_each_power_of_two_in_its_span() {
        // 10 to 30 within 20/64: 64 = 2^6, so six halvings after the two ends.
        assert_eq!(Span::Numbers { from: 10.0, to: 30.0, tolerance: 20.0 / 64.0 }.most_tries(), 8);
        // A tolerance finer than any table still stops at the most steps.
        assert_eq!(Span::Numbers { from: 0.0, to: 1.0, tolerance: 1e-300 }.most_tries(), 2 + MAX_STEPS as u64);
        assert_eq!(Span::Values(vec![Value::Integer(1); 5]).most_tries(), 5);
    }
}
