//! The quiz bank: questions whose answers are claims about the model, each checked by
//! running the scenario it links to.
//!
//! Owns the quiz format (`static/quiz.json`, `"format": 1`), loading it, and verifying
//! every answer's facts, and the facts behind each wrong option's `why`, against a fresh
//! trace. Pure: no web crate, no clock.

pub use crate::catalogue::lesson::{Anchor, Fact};
use crate::catalogue::{self, anchor, facts};
use crate::sim;
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
    /// Why each option fails, in option order: `null` for the answer (its explanation is
    /// `explanation`). Optional, so that a bank written before it still loads; the
    /// built-in bank has it for every question (a native test).
    pub why: Option<Vec<Option<Why>>>,
}

/// Why a wrong option fails, and the facts of the linked run the text rests on beyond the
/// question's own.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Why {
    #[serde(default)]
    pub text: String,
    #[serde(default)]
    pub facts: Vec<Fact>,
}

impl Question {
    /// Why option `j` fails: `None` for the answer, or when the bank says nothing.
    pub fn why_not(&self, j: usize) -> Option<&Why> {
        self.why.as_ref()?.get(j)?.as_ref()
    }
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
        if let Some(why) = &q.why {
            check_why(q, why)?;
        }
    }
    Ok(bank)
}

/// A question's `why`: one entry per option, `null` for the answer, text for every other.
fn check_why(q: &Question, why: &[Option<Why>]) -> Result<(), String> {
    let id = &q.id;
    if why.len() != q.options.len() {
        return Err(format!(
            "quiz bank: question {id}: `why` has {} entries for {} options (one per option, in order)",
            why.len(),
            q.options.len()
        ));
    }
    for (j, entry) in why.iter().enumerate() {
        match entry {
            Some(_) if j == q.answer => {
                return Err(format!(
                    "quiz bank: question {id}: `why` of option {j}, the answer, must be null (the explanation says why it is right)"
                ));
            }
            Some(w) if !w.text.trim().is_empty() => {}
            None if j == q.answer => {}
            _ => {
                return Err(format!(
                    "quiz bank: question {id}: option {j} is wrong, so its `why` needs a `text` saying why"
                ));
            }
        }
    }
    Ok(())
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
    if anchor::find(&trace, &question.show.at).is_none() {
        return Err(format!("its \"show me\" moment {:?} is not in the trace", question.show.at));
    }
    for fact in &question.facts {
        facts::check(&trace, fact).map_err(|why| format!("{fact:?}: {why}"))?;
    }
    for j in 0..question.options.len() {
        for fact in question.why_not(j).map_or(&[][..], |w| &w.facts) {
            facts::check(&trace, fact)
                .map_err(|why| format!("why not option {j}: {fact:?}: {why}"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_bank;

    /// A one-question bank with `why` as given (JSON text, or nothing).
    fn bank(why: Option<&str>) -> String {
        let why = why.map(|w| format!(r#", "why": {w}"#)).unwrap_or_default();
        format!(
            r#"{{"format": 1, "questions": [{{"id": "q1", "topic": "t", "prompt": "p?",
            "options": ["a", "b", "c"], "answer": 1, "explanation": "e",
            "show": {{"scenario": "gc-pause-fenced", "at": {{"event": "write-rejected"}}}},
            "facts": [{{"fact": "no-violations"}}]{why}}}]}}"#
        )
    }

    #[test]
    fn each_option_says_why_and_a_bank_without_it_still_loads() {
        let good = parse_bank(&bank(Some(
            r#"[{"text": "not a"}, null, {"text": "not c", "facts": [{"fact": "no-violations"}]}]"#,
        )))
        .expect("a good bank");
        let q = &good.questions[0];
        assert_eq!(q.why_not(0).map(|w| w.text.as_str()), Some("not a"));
        assert!(q.why_not(1).is_none(), "the answer has no why-not");
        assert_eq!(q.why_not(2).map(|w| w.facts.len()), Some(1));
        // A bank written before `why` existed loads, and says nothing per option.
        let old = parse_bank(&bank(None)).expect("an older bank");
        assert!(old.questions[0].why.is_none() && old.questions[0].why_not(0).is_none());
    }

    #[test]
    fn a_bad_why_is_refused_with_the_question_named() {
        for (why, expected) in [
            (r#"[{"text": "x"}, null]"#, "`why` has 2 entries for 3 options"),
            (
                r#"[{"text": "x"}, {"text": "y"}, {"text": "z"}]"#,
                "option 1, the answer, must be null",
            ),
            (r#"[{"text": "x"}, null, null]"#, "option 2 is wrong, so its `why` needs a `text`"),
            (
                r#"[{"facts": []}, null, {"text": "z"}]"#,
                "option 0 is wrong, so its `why` needs a `text`",
            ),
            (r#"[{"text": " "}, null, {"text": "z"}]"#, "option 0 is wrong"),
        ] {
            let error = parse_bank(&bank(Some(why))).expect_err(why);
            assert!(error.contains("question q1") && error.contains(expected), "{why}: {error}");
        }
        // Unknown members are refused, as everywhere in the format; never a panic.
        let error = parse_bank(&bank(Some(r#"[{"text": "x", "note": 1}, null, {"text": "z"}]"#)))
            .expect_err("an unknown member");
        assert!(error.contains("note"), "{error}");
        assert!(parse_bank(&bank(Some(r#""nope""#))).is_err());
    }
}
