//! `answers` (once `command-dice`): a ruleset's own answers about one scenario (Chain of Command's about
//! a hand of Command Dice), printed as a table, JSON or CSV.

use serde::Serialize;

use combat_odds_core::document::Document;
use combat_odds_report::export::Rendered;
use combat_odds_report::export::frames::{self, Cells};
use combat_odds_rules::Rules;
use combat_odds_rules::ruleset::{Answer, Answers};

use super::failure::Result;

/// The answers for the hand in `doc`, its ruleset one of `rules`.
pub fn answers(doc: &Document, rules: &Rules) -> Result<Printed> {
    Ok(Printed(combat_odds_rules::scenario::answers(doc, rules)?))
}

/// The answers as the command prints them.
#[derive(Serialize)]
#[serde(transparent)]
pub struct Printed(Answers);

impl Rendered for Printed {
    /// One line per answer, grouped by policy.
    fn to_table(&self) -> String {
        let answers = &self.0;
        let mut out = format!("{} -- {}\n", answers.scenario, answers.about);
        for n in &answers.notes {
            out += &format!("  {n}\n");
        }
        out += "\n";
        let mut policy = "";
        for a in &answers.answers {
            if a.policy != policy {
                policy = &a.policy;
                out += &format!("{policy}\n");
            }
            out += &format!("  {:<48} {:>10.6}   {}\n", a.answer, a.value, a.exact_fraction);
        }
        out + "(exact; probabilities unless the name ends in _mean)\n"
    }

    /// policy, answer, value, exact fraction.
    fn to_csv(&self) -> String {
        let answers = &self.0.answers;
        let text = |f: fn(&Answer) -> &String| Cells::Text(answers.iter().map(|a| f(a).clone()).collect());
        frames::columns_frame(vec![
            ("policy", text(|a| &a.policy)),
            ("answer", text(|a| &a.answer)),
            ("value", Cells::Numbers(answers.iter().map(|a| a.value).collect())),
            ("exact_fraction", text(|a| &a.exact_fraction)),
        ])
        .and_then(|mut f| frames::csv(&mut f))
        .expect("an answers frame always writes")
    }
}
