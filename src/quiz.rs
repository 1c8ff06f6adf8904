//! The quiz bank: questions whose answers are claims about the model, each checked by
//! running the scenario it links to.
//!
//! Owns the quiz format (`static/quiz.json`, `"format": 1`), loading it, and verifying
//! every answer's facts against a fresh trace. Pure: no web crate, no clock.

use crate::catalogue::load::LoadError;
use crate::catalogue::{self, facts, narration};
use crate::json::{Node, Value};
use crate::sim;
pub use crate::sim::scenario::{Anchor, Fact};

/// The quiz bank compiled into the app.
pub const BANK_JSON: &str = include_str!("../static/quiz.json");

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Bank {
    pub format: u32,
    pub questions: Vec<Question>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
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

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Show {
    pub scenario: String,
    pub at: Anchor,
}

/// Parses a quiz bank, refusing unknown formats and inconsistent questions.
pub fn parse_bank(text: &str) -> Result<Bank, String> {
    let root = crate::json::parse(text)
        .map_err(|e| format!("quiz bank (line {}, column {}): {}", e.line, e.column, e.message))?;
    let bank = read_bank(&root).map_err(|e| format!("quiz bank: {e}"))?;
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

fn read_bank(root: &Node) -> Result<Bank, LoadError> {
    let members = members_of(root, "$")?;
    let format = field(members, root, "$", "format").and_then(|(n, p)| num(n, &p))?;
    let (questions_node, questions_path) = field(members, root, "$", "questions")?;
    let Value::Array(items) = &questions_node.value else {
        return Err(bad(questions_node, &questions_path, "expected an array"));
    };
    let questions = items
        .iter()
        .enumerate()
        .map(|(i, item)| read_question(item, &format!("{questions_path}[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Bank { format: u32::try_from(format).unwrap_or(u32::MAX), questions })
}

fn read_question(node: &Node, path: &str) -> Result<Question, LoadError> {
    let m = members_of(node, path)?;
    let text = |key: &str| field(m, node, path, key).and_then(|(n, p)| string(n, &p));
    let (options_node, options_path) = field(m, node, path, "options")?;
    let Value::Array(options) = &options_node.value else {
        return Err(bad(options_node, &options_path, "expected an array of strings"));
    };
    let options = options
        .iter()
        .enumerate()
        .map(|(i, o)| string(o, &format!("{options_path}[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let (show_node, show_path) = field(m, node, path, "show")?;
    let show_members = members_of(show_node, &show_path)?;
    let show = Show {
        scenario: field(show_members, show_node, &show_path, "scenario")
            .and_then(|(n, p)| string(n, &p))?,
        at: field(show_members, show_node, &show_path, "at")
            .and_then(|(n, p)| crate::catalogue::codec::read_anchor(n, &p))?,
    };
    let (facts_node, facts_path) = field(m, node, path, "facts")?;
    let Value::Array(facts) = &facts_node.value else {
        return Err(bad(facts_node, &facts_path, "expected an array of facts"));
    };
    let facts = facts
        .iter()
        .enumerate()
        .map(|(i, f)| crate::catalogue::codec::read_fact(f, &format!("{facts_path}[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Question {
        id: text("id")?,
        topic: text("topic")?,
        prompt: text("prompt")?,
        options,
        answer: usize::try_from(field(m, node, path, "answer").and_then(|(n, p)| num(n, &p))?)
            .unwrap_or(usize::MAX),
        explanation: text("explanation")?,
        show,
        facts,
    })
}

fn bad(node: &Node, path: &str, message: &str) -> LoadError {
    LoadError {
        path: path.to_owned(),
        line: node.line as usize,
        column: node.column as usize,
        message: message.to_owned(),
    }
}

fn members_of<'a>(node: &'a Node, path: &str) -> Result<&'a [(String, Node)], LoadError> {
    match &node.value {
        Value::Object(members) => Ok(members),
        _ => Err(bad(node, path, "expected an object")),
    }
}

fn field<'a>(
    members: &'a [(String, Node)],
    node: &Node,
    path: &str,
    key: &str,
) -> Result<(&'a Node, String), LoadError> {
    members
        .iter()
        .find(|(k, _)| k == key)
        .map(|(k, v)| (v, format!("{path}.{k}")))
        .ok_or_else(|| bad(node, path, &format!("missing field `{key}`")))
}

fn string(node: &Node, path: &str) -> Result<String, LoadError> {
    match &node.value {
        Value::String(s) => Ok(s.clone()),
        _ => Err(bad(node, path, "expected a string")),
    }
}

fn num(node: &Node, path: &str) -> Result<u64, LoadError> {
    match &node.value {
        Value::Number(text) => text.parse().map_err(|_| bad(node, path, "expected a whole number")),
        _ => Err(bad(node, path, "expected a whole number")),
    }
}

/// How many questions the built-in bank holds, for the home page's link: the main page
/// shows the number without carrying the bank (it lives in the lab's bundle). A native
/// test keeps it equal to `bank().len()`.
pub const BANK_SIZE: usize = 30;

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
        facts::check(&trace, fact).map_err(|why| format!("{fact:?}: {why}"))?;
    }
    Ok(())
}
