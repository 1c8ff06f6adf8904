//! The sandbox's scenario editor as pure state: the JSON text is the source of truth, form
//! edits rewrite it, and every change is validated by the same loader as a file. It must
//! not touch the browser (the shell in `ui::sandbox` renders it and runs the effects).

use crate::catalogue::codec::{self, FAULTS, STEPS};
use crate::catalogue::load::{self, LoadError};
use crate::sim::Scenario;
use crate::sim::scenario::WorkerSetup;

/// The editor: text, the scenario it last parsed to, and the error if it does not parse.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    pub text: String,
    /// The last valid scenario (the form edits this one).
    pub scenario: Scenario,
    /// Why the text (or the row being edited) was refused; `None` when all is well.
    pub error: Option<LoadError>,
    /// Whether `text` itself reads as `scenario` (a refused form edit leaves it so).
    pub text_valid: bool,
}

/// Workers a scenario may have (the loader's limit too).
pub const WORKERS_MAX: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The whole JSON text (typed, imported, or a built-in loaded).
    SetText(String),
    SetTitle(String),
    SetSeed(String),
    SetUntil(String),
    AddWorker,
    RemoveWorker(usize),
    RenameWorker(usize, String),
    SetStart(usize, String),
    /// A step row's JSON text.
    SetStep(usize, usize, String),
    AddStep(usize, String),
    RemoveStep(usize, usize),
    MoveStep(usize, usize, Direction),
    SetFault(usize, String),
    AddFault(String),
    RemoveFault(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
}

impl Editor {
    pub fn new(scenario: &Scenario) -> Editor {
        Editor {
            text: codec::write_scenario(scenario).pretty(),
            scenario: scenario.clone(),
            error: None,
            text_valid: true,
        }
    }

    /// Applies one action; a refused edit keeps the last valid scenario and says why.
    pub fn apply(&self, action: Action) -> Editor {
        if let Action::SetText(text) = action {
            return match load::parse_scenario(&text) {
                Ok(scenario) => Editor { text, scenario, error: None, text_valid: true },
                Err(error) => Editor {
                    text,
                    scenario: self.scenario.clone(),
                    error: Some(error),
                    text_valid: false,
                },
            };
        }
        let mut next = self.scenario.clone();
        match edit(&mut next, action) {
            Ok(()) => {
                let text = codec::write_scenario(&next).pretty();
                // Re-read through the loader: cross-field checks (fault workers, limits)
                // apply to form edits exactly as to files.
                match load::parse_scenario(&text) {
                    Ok(scenario) => Editor { text, scenario, error: None, text_valid: true },
                    Err(error) => Editor { error: Some(error), ..self.clone() },
                }
            }
            Err(error) => Editor { error: Some(error), ..self.clone() },
        }
    }

    /// The scenario to run: only when the text itself is valid (a refused form edit does
    /// not change the text, so the last valid scenario still runs).
    pub fn runnable(&self) -> Option<&Scenario> {
        self.text_valid.then_some(&self.scenario)
    }
}

/// A starting point for a new step of `kind`, valid as it stands.
pub fn step_template(kind: &str) -> String {
    match kind {
        "acquire" => r#"{"do":"acquire","ttl_ms":30000}"#.to_owned(),
        "wait-replicas" => r#"{"do":"wait-replicas","replicas":1,"timeout_ms":100}"#.to_owned(),
        "compute" | "sleep" => format!(r#"{{"do":"{kind}","ms":1000}}"#),
        "write" => r#"{"do":"write","status":"paid"}"#.to_owned(),
        other => format!(r#"{{"do":"{other}"}}"#),
    }
}

/// A starting point for a new fault of `kind` on `worker` / `node`.
pub fn fault_template(kind: &str, worker: &str, node: &str) -> String {
    match kind {
        "pause" => {
            format!(r#"{{"fault":"pause","worker":"{worker}","at_ms":500,"pause_ms":35000}}"#)
        }
        "hang" => format!(r#"{{"fault":"hang","worker":"{worker}","at_ms":500,"hang_ms":35000}}"#),
        "crash" => format!(r#"{{"fault":"crash","worker":"{worker}","at_ms":500}}"#),
        "lose-reply" => format!(r#"{{"fault":"lose-reply","worker":"{worker}","step":0}}"#),
        "delay" => format!(
            r#"{{"fault":"delay","worker":"{worker}","at_ms":500,"window_ms":1000,"delay_ms":35000}}"#
        ),
        "crash-node" => format!(r#"{{"fault":"crash-node","node":"{node}","at_ms":5000}}"#),
        "clock-jump" => {
            format!(r#"{{"fault":"clock-jump","node":"{node}","at_ms":5000,"jump_ms":30000}}"#)
        }
        "partition" => format!(
            r#"{{"fault":"partition","worker":"{worker}","node":"{node}","at_ms":500,"partition_ms":35000}}"#
        ),
        _ => r#"{"fault":"set-counter","at_ms":5000,"value":"0"}"#.to_owned(),
    }
}

/// One member of a step or fault row, as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    Number(String),
    Text(String),
    /// One of a fixed set of words (`how`, `kind`, ...): the current word and the choices.
    Word(String, Vec<&'static str>),
    Flag(bool),
    /// Anything else (null, lists): edited in the row's JSON only.
    Other,
}

/// The members of a row's JSON object except its kind (`do` / `fault`), in order; empty if
/// the text is not an object.
pub fn fields(row_json: &str) -> Vec<(String, Field)> {
    let Ok(node) = crate::json::parse(row_json) else { return Vec::new() };
    let crate::json::Value::Object(members) = node.value else { return Vec::new() };
    let kind = members
        .iter()
        .find(|(key, _)| key == "do" || key == "fault")
        .and_then(|(_, n)| match &n.value {
            crate::json::Value::String(k) => Some(k.clone()),
            _ => None,
        })
        .unwrap_or_default();
    members
        .into_iter()
        .filter(|(key, _)| key != "do" && key != "fault")
        .map(|(key, node)| {
            let field = match node.value {
                crate::json::Value::Number(n) => Field::Number(n),
                crate::json::Value::String(t) => match codec::member_words(&kind, &key) {
                    Some(words) => Field::Word(t, words),
                    None => Field::Text(t),
                },
                crate::json::Value::Bool(b) => Field::Flag(b),
                _ => Field::Other,
            };
            (key, field)
        })
        .collect()
}

/// The row's JSON with member `key` set from a form input: a number stays a number when the
/// input is one (otherwise it is sent as text, so the loader names the field and the type
/// it wants), text stays text, a flag reads "true"/"false". Other members are kept as typed.
pub fn with_field(row_json: &str, key: &str, input: &str) -> String {
    let Ok(node) = crate::json::parse(row_json) else { return row_json.to_owned() };
    let crate::json::Value::Object(members) = node.value else { return row_json.to_owned() };
    let mut out = String::from("{");
    for (i, (name, member)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&crate::json::quote(name));
        out.push(':');
        let value = if name == key {
            match &member.value {
                crate::json::Value::Number(_) if is_json_number(input.trim()) => {
                    input.trim().to_owned()
                }
                crate::json::Value::Bool(_) if matches!(input.trim(), "true" | "false") => {
                    input.trim().to_owned()
                }
                _ => crate::json::quote(input),
            }
        } else {
            node_text(member)
        };
        out.push_str(&value);
    }
    out.push('}');
    out
}

fn is_json_number(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// A parsed member back to JSON text (rows hold only flat values and short lists).
fn node_text(node: &crate::json::Node) -> String {
    use crate::json::Value;
    match &node.value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.clone(),
        Value::String(t) => crate::json::quote(t),
        Value::Array(items) => {
            format!("[{}]", items.iter().map(node_text).collect::<Vec<_>>().join(","))
        }
        Value::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|(k, v)| format!("{}:{}", crate::json::quote(k), node_text(v)))
                .collect::<Vec<_>>()
                .join(",")
        ),
    }
}

/// The kinds offered in the "add" menus.
pub fn step_kinds() -> &'static [&'static str] {
    STEPS
}

pub fn fault_kinds() -> &'static [&'static str] {
    FAULTS
}

fn edit(s: &mut Scenario, action: Action) -> Result<(), LoadError> {
    match action {
        Action::SetText(_) => {}
        Action::SetTitle(title) => s.title = title,
        Action::SetSeed(text) => s.seed = number(&text, "$.seed")?,
        Action::SetUntil(text) => s.until_ms = number(&text, "$.until_ms")?,
        Action::AddWorker => {
            if s.workers.len() >= WORKERS_MAX {
                return Err(refuse(
                    "$.workers",
                    format!("a scenario may have at most {WORKERS_MAX} workers"),
                ));
            }
            let name = next_name(s);
            let program = s.workers.last().map(|w| w.program.clone()).unwrap_or_default();
            let start_ms = s.workers.last().map_or(0, |w| w.start_ms.saturating_add(1_000));
            s.workers.push(WorkerSetup {
                name,
                start_ms,
                program,
                on_rejected: Vec::new(),
                reply_timeout_ms: 1_000,
            });
        }
        Action::RemoveWorker(i) => {
            let name = worker(s, i)?.name.clone();
            if s.workers.len() == 1 {
                return Err(refuse("$.workers", "a scenario needs at least one worker".to_owned()));
            }
            // Faults on that worker go with it rather than leaving dangling names.
            s.faults.retain(|f| f.worker() != Some(name.as_str()));
            s.workers.remove(i);
        }
        Action::RenameWorker(i, name) => {
            let old = worker(s, i)?.name.clone();
            let name = name.trim().to_owned();
            for fault in &mut s.faults {
                fault.rename_worker(&old, &name);
            }
            worker_mut(s, i)?.name = name;
        }
        Action::SetStart(i, text) => {
            let start_ms = number(&text, &format!("$.workers[{i}].start_ms"))?;
            worker_mut(s, i)?.start_ms = start_ms;
        }
        Action::SetStep(i, j, text) => {
            let path = format!("$.workers[{i}].program[{j}]");
            let step = codec::parse_step_text(&text, &path)?;
            let program = &mut worker_mut(s, i)?.program;
            let slot =
                program.get_mut(j).ok_or_else(|| refuse(&path, "no such step".to_owned()))?;
            *slot = step;
        }
        Action::AddStep(i, kind) => {
            let path = format!("$.workers[{i}].program");
            let step = codec::parse_step_text(&step_template(&kind), &path)?;
            worker_mut(s, i)?.program.push(step);
        }
        Action::RemoveStep(i, j) => {
            let program = &mut worker_mut(s, i)?.program;
            if j < program.len() {
                program.remove(j);
            }
        }
        Action::MoveStep(i, j, direction) => {
            let program = &mut worker_mut(s, i)?.program;
            let other = match direction {
                Direction::Up => j.checked_sub(1),
                Direction::Down => Some(j + 1).filter(|k| *k < program.len()),
            };
            if let Some(k) = other
                && j < program.len()
            {
                program.swap(j, k);
            }
        }
        Action::SetFault(k, text) => {
            let path = format!("$.faults[{k}]");
            let fault = codec::parse_fault_text(&text, &path)?;
            let slot =
                s.faults.get_mut(k).ok_or_else(|| refuse(&path, "no such fault".to_owned()))?;
            *slot = fault;
        }
        Action::AddFault(kind) => {
            let worker = s.workers.first().map_or("A", |w| w.name.as_str()).to_owned();
            let node = s.redis.nodes.first().map_or("redis", |n| n.name.as_str()).to_owned();
            let fault =
                codec::parse_fault_text(&fault_template(&kind, &worker, &node), "$.faults")?;
            s.faults.push(fault);
        }
        Action::RemoveFault(k) => {
            if k < s.faults.len() {
                s.faults.remove(k);
            }
        }
    }
    Ok(())
}

fn number(text: &str, path: &str) -> Result<u64, LoadError> {
    text.trim().parse().map_err(|_| {
        refuse(path, format!("expected a whole number of 0 or more, found `{}`", text.trim()))
    })
}

fn refuse(path: &str, message: String) -> LoadError {
    LoadError { path: path.to_owned(), line: 0, column: 0, message }
}

fn worker(s: &Scenario, i: usize) -> Result<&WorkerSetup, LoadError> {
    s.workers.get(i).ok_or_else(|| refuse(&format!("$.workers[{i}]"), "no such worker".to_owned()))
}

fn worker_mut(s: &mut Scenario, i: usize) -> Result<&mut WorkerSetup, LoadError> {
    s.workers
        .get_mut(i)
        .ok_or_else(|| refuse(&format!("$.workers[{i}]"), "no such worker".to_owned()))
}

/// The next free single-letter name after the existing workers (A, B, C, ...).
fn next_name(s: &Scenario) -> String {
    ('A'..='Z')
        .map(String::from)
        .find(|n| !s.workers.iter().any(|w| &w.name == n))
        .unwrap_or_else(|| format!("W{}", s.workers.len() + 1))
}

#[cfg(test)]
mod tests {
    use super::{
        Action, Direction, Editor, fault_kinds, fault_template, step_kinds, step_template,
    };
    use crate::catalogue;

    fn editor() -> Editor {
        Editor::new(&catalogue::find("gc-pause-fenced").expect("built-in"))
    }

    #[test]
    fn every_template_is_valid_as_it_stands() {
        let e = editor();
        for kind in step_kinds() {
            let next = e.apply(Action::AddStep(0, (*kind).to_owned()));
            assert_eq!(next.error, None, "step {kind}: {}", step_template(kind));
        }
        for kind in fault_kinds() {
            let next = e.apply(Action::AddFault((*kind).to_owned()));
            assert_eq!(next.error, None, "fault {kind}: {}", fault_template(kind, "A", "redis"));
        }
    }

    #[test]
    fn form_edits_rewrite_the_text_and_round_trip() {
        let e = editor().apply(Action::AddWorker).apply(Action::SetStart(2, "45000".into()));
        assert_eq!(e.error, None);
        assert_eq!(e.scenario.workers.len(), 3);
        assert_eq!(e.scenario.workers[2].name, "C");
        assert!(e.text.contains("\"start_ms\": 45000"), "{}", e.text);
        let reread = Editor::new(&e.scenario).apply(Action::SetText(e.text.clone()));
        assert_eq!(reread.scenario, e.scenario);
        let moved = e.apply(Action::MoveStep(0, 0, Direction::Down));
        assert_eq!(moved.scenario.workers[0].program[1], e.scenario.workers[0].program[0]);
    }

    #[test]
    fn bad_edits_say_where_and_keep_the_last_valid_scenario() {
        let e = editor();
        let bad = e.apply(Action::SetStep(0, 0, r#"{"do":"acquire","ttl_ms":-5}"#.into()));
        let error = bad.error.clone().expect("refused");
        assert_eq!(error.path, "$.workers[0].program[0].ttl_ms");
        assert_eq!(bad.scenario, e.scenario);
        assert_eq!(bad.text, e.text);
        assert!(bad.runnable().is_some(), "a refused row edit leaves the text runnable");
        let broken = e.apply(Action::SetText("{\"format\": 1,\n  \"id\": }".into()));
        let error = broken.error.clone().expect("refused");
        assert_eq!((error.line, error.column), (2, 9), "{error}");
        assert!(broken.runnable().is_none());
        assert_eq!(
            e.apply(Action::SetSeed("x".into())).error.map(|e| e.path),
            Some("$.seed".to_owned())
        );
    }

    #[test]
    fn row_fields_edit_one_member_and_keep_the_rest() {
        use super::{Field, fields, with_field};
        let row = r#"{"do":"acquire","how":"script","ttl_ms":30000,"attempts":1}"#;
        assert_eq!(
            fields(row),
            vec![
                (
                    "how".to_owned(),
                    Field::Word(
                        "script".to_owned(),
                        vec!["script", "set-then-incr", "incr-then-set", "redlock"]
                    )
                ),
                ("ttl_ms".to_owned(), Field::Number("30000".to_owned())),
                ("attempts".to_owned(), Field::Number("1".to_owned())),
            ]
        );
        assert_eq!(
            with_field(row, "ttl_ms", " 5000 "),
            r#"{"do":"acquire","how":"script","ttl_ms":5000,"attempts":1}"#
        );
        // Not a number: sent as text, so the loader says which field wants a number.
        let bad = with_field(row, "ttl_ms", "soon");
        let e = editor().apply(Action::SetStep(0, 0, bad));
        assert_eq!(e.error.map(|e| e.path), Some("$.workers[0].program[0].ttl_ms".to_owned()));
        assert_eq!(
            with_field(row, "how", "say \"hi\""),
            r#"{"do":"acquire","how":"say \"hi\"","ttl_ms":30000,"attempts":1}"#
        );
        assert!(fields("not json").is_empty());
    }

    #[test]
    fn removing_a_worker_takes_its_faults_and_renaming_follows_them() {
        let e = editor().apply(Action::AddFault("pause".into()));
        assert_eq!(e.error, None);
        let renamed = e.apply(Action::RenameWorker(0, "Z".into()));
        assert_eq!(renamed.error, None, "{:?}", renamed.error);
        assert!(renamed.text.contains("\"worker\": \"Z\""));
        let removed = renamed.apply(Action::RemoveWorker(0));
        assert_eq!(removed.error, None);
        assert!(removed.scenario.faults.iter().all(|f| f.worker() != Some("Z")));
        let last = Editor::new(&removed.scenario);
        assert!(last.apply(Action::RemoveWorker(0)).error.is_some(), "one worker must remain");
    }
}
