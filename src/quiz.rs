//! The quiz bank: questions whose answers are claims about the model, each checked by
//! running the scenario it links to.
//!
//! Owns the quiz format (`static/quiz.json`, `"format": 1`), loading it, and verifying
//! every answer's facts against a fresh trace. Pure: no web crate, no clock.

use crate::catalogue::{self, facts, narration};
use crate::sim;
pub use crate::sim::scenario::{Anchor, Fact};
use serde::Deserialize;

/// The quiz bank compiled into the app.
pub const BANK_JSON: &str = include_str!("../static/quiz.json");

#[derive(Clone, Debug, Deserialize, Eq, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Bank {
    pub format: u32,
    pub questions: Vec<Question>,
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub id: String,
    pub topic: String,
    pub prompt: String,
    pub options: Vec<String>,
    /// Index into `options` of the correct answer.
    pub answer: usize,
    pub explanation: String,
    /// "Show me": the scenario and the moment that explain the answer.
    pub show: Show,
    /// What the simulator must show for the answer key to be right.
    pub facts: Vec<Fact>,
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Show {
    pub scenario: String,
    pub at: Anchor,
}

/// Parses a quiz bank, refusing unknown formats and inconsistent questions.
pub fn parse_bank(text: &str) -> Result<Bank, String> {
    let bank: Bank =
        crate::catalogue::codec::from_json(text, "$").map_err(|e| format!("quiz bank: {e}"))?;
    if bank.format != 1 {
        return Err(format!(
            "quiz bank: format {} is not supported (this build reads 1)",
            bank.format
        ));
    }
    for q in &bank.questions {
        if q.options.len() < 2 || q.answer >= q.options.len() {
            return Err(format!(
                "quiz bank: question {} needs at least two options and an answer among them",
                q.id
            ));
        }
    }
    Ok(bank)
}

/// How many questions the built-in bank holds, for the home page's link: the main page
/// shows the number without carrying the bank (it lives in the lab's bundle). A native
/// test keeps it equal to `bank().len()`.
pub const BANK_SIZE: usize = 40;

/// The built-in bank; an unreadable bank yields no questions (a native test keeps it valid).
pub fn bank() -> Vec<Question> {
    parse_bank(BANK_JSON).map(|bank| bank.questions).unwrap_or_default()
}

/// Runs the question's scenario and checks every fact; `Err` names the first that fails.
pub fn verify(question: &Question) -> Result<(), String> {
    let scenario = catalogue::find(&question.show.scenario)
        .ok_or_else(|| format!("no built-in scenario {}", question.show.scenario))?;
    let trace = sim::run(&scenario.setup);
    if narration::anchor_event(&trace, &question.show.at).is_none() {
        return Err(format!("its \"show me\" moment {:?} is not in the trace", question.show.at));
    }
    for fact in &question.facts {
        facts::check(&trace, fact).map_err(|why| format!("{fact:?}: {why}"))?;
    }
    Ok(())
}
