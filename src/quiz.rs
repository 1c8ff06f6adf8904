//! The quiz bank: questions whose answers are claims about the model, each checked by
//! running the scenario it links to.
//!
//! Owns the quiz format (`static/quiz.json`, `"format": 1`), loading it, and verifying
//! every answer's facts against a fresh trace. Pure: no web crate, no clock.

use serde::{Deserialize, Serialize};

use crate::catalogue::{self, narration};
use crate::sim::scenario::Anchor;
use crate::sim::{self, Trace};

/// The quiz bank compiled into the app.
pub const BANK_JSON: &str = include_str!("../static/quiz.json");

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Bank {
    pub format: u32,
    pub questions: Vec<Question>,
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
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

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Show {
    pub scenario: String,
    pub at: Anchor,
}

/// One checkable claim about a scenario's trace.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(tag = "fact", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Fact {
    /// The `nth` write by `worker` matched `rows` rows (and carried `token`, if given).
    Write {
        worker: String,
        #[serde(default = "first")]
        nth: usize,
        rows: u32,
        #[serde(default)]
        token: Option<i64>,
    },
    /// The `nth` grant to `worker` carried `token`.
    Grant {
        worker: String,
        #[serde(default = "first")]
        nth: usize,
        token: Option<i64>,
    },
    /// This safety property was violated at least once.
    Violation {
        property: String,
    },
    /// No safety property was violated.
    NoViolations,
    Warning {
        kind: String,
    },
    /// Real charges at the gateway.
    Charges {
        count: u32,
    },
    /// Whether two workers ever believed they held the lock at once.
    Overlap {
        present: bool,
    },
    /// An event matching the anchor exists (and has this reply, if given).
    Event {
        at: Anchor,
        #[serde(default)]
        reply: Option<String>,
    },
}

fn first() -> usize {
    1
}

/// Parses a quiz bank, refusing unknown formats and inconsistent questions.
pub fn parse_bank(text: &str) -> Result<Bank, String> {
    let bank: Bank = serde_json::from_str(text).map_err(|e| format!("quiz bank: {e}"))?;
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

/// The built-in bank; an unreadable bank yields no questions (a native test keeps it valid).
pub fn bank() -> Vec<Question> {
    parse_bank(BANK_JSON).map(|bank| bank.questions).unwrap_or_default()
}

/// Runs the question's scenario and checks every fact; `Err` names the first that fails.
pub fn verify(question: &Question) -> Result<(), String> {
    let scenario = catalogue::find(&question.show.scenario)
        .ok_or_else(|| format!("no built-in scenario {}", question.show.scenario))?;
    let trace = sim::run(&scenario);
    if narration::anchor_event(&trace, &question.show.at).is_none() {
        return Err(format!("its \"show me\" moment {:?} is not in the trace", question.show.at));
    }
    for fact in &question.facts {
        check_fact(&trace, fact).map_err(|why| format!("{fact:?}: {why}"))?;
    }
    Ok(())
}

fn check_fact(trace: &Trace, fact: &Fact) -> Result<(), String> {
    let summary = trace.summary();
    let expect = |ok: bool, seen: String| if ok { Ok(()) } else { Err(seen) };
    match fact {
        Fact::Write { worker, nth, rows, token } => {
            let write =
                summary.writes.iter().filter(|w| &w.worker == worker).nth(nth.saturating_sub(1));
            let write = write.ok_or_else(|| format!("{worker} made fewer than {nth} writes"))?;
            expect(
                write.rows == *rows && (token.is_none() || write.token == *token),
                format!("saw {write:?}"),
            )
        }
        Fact::Grant { worker, nth, token } => {
            let grant =
                summary.grants.iter().filter(|g| &g.worker == worker).nth(nth.saturating_sub(1));
            let grant = grant.ok_or_else(|| format!("{worker} got fewer than {nth} grants"))?;
            expect(grant.token == *token, format!("saw {grant:?}"))
        }
        Fact::Violation { property } => expect(
            summary.violations.iter().any(|v| &v.name == property),
            format!("saw {:?}", summary.violations),
        ),
        Fact::NoViolations => {
            expect(summary.violations.is_empty(), format!("saw {:?}", summary.violations))
        }
        Fact::Warning { kind } => expect(
            summary.warnings.iter().any(|w| &w.name == kind),
            format!("saw {:?}", summary.warnings),
        ),
        Fact::Charges { count } => {
            expect(summary.charges == *count, format!("saw {} charges", summary.charges))
        }
        Fact::Overlap { present } => {
            expect(summary.overlaps.is_empty() != *present, format!("saw {:?}", summary.overlaps))
        }
        Fact::Event { at, reply } => {
            let index = narration::anchor_event(trace, at).ok_or("no such event")?;
            let event = &trace.events()[index];
            expect(
                reply.as_ref().is_none_or(|r| &event.reply == r),
                format!("reply was {:?}", event.reply),
            )
        }
    }
}
