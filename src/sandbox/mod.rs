//! The sandbox's scenario editor as pure state: the JSON text is the source of truth, form
//! and timeline edits rewrite it, every change is validated by the same loader as a file,
//! and every change can be undone. It must not touch the browser (the shell in
//! `ui::sandbox` renders it and runs the effects: storage, links, files).
//!
//! Nothing the author typed is dropped here: text that does not parse stays as typed and
//! locks the form until it parses (a form edit would otherwise rewrite it from the last
//! valid scenario), and a refused field keeps its input beside the reason.

pub mod builder;
pub mod drafts;
mod fields;
mod keys;
mod link;
pub mod lint;
pub mod story;
mod templates;
pub mod timeline;
mod undo;

pub use fields::{
    Field, Setting, field_words, fields, optional_members, row_kind, setting_words, with_field,
};
pub use keys::message_keys;
pub use link::{Opening, copy_hash, link_hash};
pub use templates::{BLANK, fault_kinds, fault_on_node, fault_template, step_kinds, step_template};
use templates::{BLANK_ID, copy_id};

use crate::catalogue::codec;
use crate::catalogue::codec::LoadError;
use crate::catalogue::lesson::Scenario;
use crate::catalogue::lesson::{Anchor, Expected, Fact, KeyIs, Narration, Prompt};
use crate::catalogue::load;
use crate::sim::WorkerId;
use crate::sim::scenario::{FaultKind, ScenarioId, StepKind, WorkerSetup};

/// The editor: text, the scenario it last parsed to, why the last change was refused, and
/// the way back.
#[derive(Clone, Debug, PartialEq)]
pub struct Editor {
    pub text: String,
    /// The last valid scenario (the form and the preview show this one).
    pub scenario: Scenario,
    /// How the text and the last change stand.
    pub health: Health,
    /// Story texts copied from a template that the author has neither edited nor confirmed:
    /// they may describe another run, so the form flags them.
    pub inherited: Vec<String>,
    undo: Vec<undo::Snapshot>,
    redo: Vec<undo::Snapshot>,
    /// The gesture the last change belonged to: typing or one drag is one undo step.
    last_group: Option<Group>,
}

/// How the editor's text and its last change stand: one of four states, each with what
/// the page says about it.
#[derive(Clone, Debug, PartialEq)]
pub enum Health {
    /// The text reads as `scenario`.
    Valid,
    /// A form edit was refused: the text is as it was (and still valid). `field` is the
    /// refused field's path and what the author typed into it, shown in that field.
    EditRefused { error: LoadError, field: Option<(String, String)> },
    /// The text does not load; `scenario` is the last one of it that did.
    TextInvalid { error: LoadError },
    /// The text opened (a stored draft, a link, an import) has never loaded: `scenario` is
    /// only a stand-in, not a last valid version of it.
    NeverLoaded { error: LoadError },
}

/// Changes that undo as one: a run of typing in the JSON text, or one drag on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Typing,
    Drag(u32),
}

/// Workers a scenario may have (the loader's limit too).
pub const WORKERS_MAX: usize = 8;

/// Which list of a worker's steps: its program, or what it does when a write is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Program,
    OnRejected,
}

/// One step of one worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepAt {
    pub worker: usize,
    pub list: List,
    pub index: usize,
}

/// A row of the form made of members (a step or a fault).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Step(StepAt),
    Fault(usize),
}

/// The story's one-line texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Story {
    Id,
    Title,
    Summary,
    Goal,
    /// The expected outcome's badge.
    Badge,
}

/// The parts of a prediction prompt the author writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptPart {
    Question,
    Option(usize),
    Explanation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The JSON text as typed (a run of these undoes as one).
    SetText(String),
    /// A whole file: imported, restored, or opened from a link. Its story is the author's.
    Load(String),
    /// A template to start from (a built-in, another lesson, the blank one): a copy with a
    /// new id, its story flagged until the author edits or confirms it.
    LoadCopy(String),
    Undo,
    Redo,
    SetStory(Story, String),
    /// The author read an inherited text and keeps it as it is.
    Confirm(String),
    /// The author keeps every inherited text as it is.
    ConfirmAll,
    SetSeed(String),
    SetUntil(String),
    SetSetting(Setting, String),
    AddWorker,
    RemoveWorker(usize),
    RenameWorker(usize, String),
    SetStart(usize, String),
    /// A step's whole JSON text.
    SetStep(StepAt, String),
    /// One member of a step or fault, as typed into its field (empty: an optional member
    /// goes back to its default).
    SetField(Row, String, String),
    /// A step of `kind` inserted at `at` of the worker's list (`None`: at its end).
    AddStep {
        worker: usize,
        list: List,
        kind: StepKind,
        at: Option<usize>,
    },
    RemoveStep(StepAt),
    MoveStep(StepAt, Direction),
    SetFault(usize, String),
    AddFault(FaultKind),
    /// A fault of `kind` dropped on a worker's or node's lane at a time.
    AddFaultAt {
        kind: FaultKind,
        lane: String,
        at_ms: u64,
    },
    RemoveFault(usize),
    /// A paragraph pinned to an event, with the facts that event shows.
    Narrate {
        at: Anchor,
        facts: Vec<Fact>,
    },
    SetNarration(usize, String),
    RemoveNarration(usize),
    /// A prediction prompt asked when the run reaches the anchored event.
    AddPrompt {
        at: Anchor,
        facts: Vec<Fact>,
    },
    SetPrompt(usize, PromptPart, String),
    SetAnswer(usize, usize),
    AddOption(usize),
    RemovePrompt(usize),
    /// The promised outcome (`None`: no promise).
    SetExpect(Option<Expected>),
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
            health: Health::Valid,
            inherited: Vec::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            last_group: None,
        }
    }

    /// Applies one action as its own undo step.
    pub fn apply(&self, action: Action) -> Editor {
        self.apply_in(action, None)
    }

    /// Applies one action; changes in the same `group` as the previous one undo together.
    /// A refused edit keeps the last valid scenario and says why.
    pub fn apply_in(&self, action: Action, group: Option<Group>) -> Editor {
        let group = match action {
            Action::SetText(_) => Some(Group::Typing),
            _ => group,
        };
        let mut next = match action {
            Action::Undo => return self.step_back(),
            Action::Redo => return self.step_forward(),
            Action::SetText(text) => self.with_text(text),
            Action::Load(text) => {
                let mut next = self.with_text(text).opened();
                next.inherited.clear();
                next
            }
            Action::LoadCopy(text) => {
                let mut next = self.with_text(text).opened();
                if next.text_valid() {
                    let mut copy = next.scenario.clone();
                    // The blank lesson is nobody's: its id is the author's to change.
                    if copy.id != BLANK_ID {
                        copy.id = copy_id(&copy.id);
                    }
                    next = next.with_scenario(copy);
                    next.inherited = story::texts(&next.scenario);
                }
                next
            }
            Action::Confirm(text) => {
                let mut next = self.clone();
                next.inherited.retain(|t| *t != text);
                next
            }
            Action::ConfirmAll => {
                let mut next = self.clone();
                next.inherited.clear();
                next
            }
            // The form edits the scenario the text reads as; while the text does not parse,
            // that would throw the author's text away, so the form waits (the shell shows it
            // locked and says why).
            _ if !self.text_valid() => return self.clone(),
            form => self.form_edit(form),
        };
        self.record(&mut next, group);
        next
    }

    /// The scenario to run: only when the text itself is valid (a refused form edit does
    /// not change the text, so the last valid scenario still runs).
    pub fn runnable(&self) -> Option<&Scenario> {
        self.text_valid().then_some(&self.scenario)
    }

    /// Whether the form may edit: only when the text parses (see `apply_in`).
    pub fn form_open(&self) -> bool {
        self.text_valid()
    }

    /// Whether the text itself reads as `scenario` (a refused form edit leaves it so).
    pub fn text_valid(&self) -> bool {
        matches!(self.health, Health::Valid | Health::EditRefused { .. })
    }

    /// Whether `scenario` is only a stand-in for a text that never loaded.
    pub fn nothing_loaded(&self) -> bool {
        matches!(self.health, Health::NeverLoaded { .. })
    }

    /// Why the text does not load, if it does not.
    pub fn text_error(&self) -> Option<&LoadError> {
        match &self.health {
            Health::TextInvalid { error } | Health::NeverLoaded { error } => Some(error),
            Health::Valid | Health::EditRefused { .. } => None,
        }
    }

    /// Why the last form edit was refused, if it was.
    pub fn edit_error(&self) -> Option<&LoadError> {
        match &self.health {
            Health::EditRefused { error, .. } => Some(error),
            _ => None,
        }
    }

    /// Why the text or the last form edit was refused; `None` when all is well.
    pub fn error(&self) -> Option<&LoadError> {
        self.text_error().or(self.edit_error())
    }

    /// Whether `text` (a story text of the scenario) came from a template unconfirmed.
    pub fn is_inherited(&self, text: &str) -> bool {
        !text.trim().is_empty() && self.inherited.iter().any(|t| t == text)
    }

    /// What the author typed into the field at `path`, if the editor refused it.
    pub fn rejected_input(&self, path: &str) -> Option<&str> {
        match &self.health {
            Health::EditRefused { field: Some((p, input)), .. } if p == path => Some(input),
            _ => None,
        }
    }

    /// The editor holding `text` as typed: its scenario if it parses, else the last valid
    /// one and the reason (with a "did you mean" when a member name is near a known one).
    fn with_text(&self, text: String) -> Editor {
        let mut next = self.clone();
        match load::parse_scenario(&text) {
            Ok(scenario) => {
                next.scenario = scenario;
                next.health = Health::Valid;
            }
            Err(error) => {
                let error = lint::explain(error, &text);
                // A text that never loaded stays so until one does.
                next.health = match self.health {
                    Health::NeverLoaded { .. } => Health::NeverLoaded { error },
                    _ => Health::TextInvalid { error },
                };
            }
        }
        next.text = text;
        next
    }

    /// The same editor as a text just opened: if it does not load, there is no last valid
    /// version of it to show.
    fn opened(mut self) -> Editor {
        if let Health::TextInvalid { error } = self.health {
            self.health = Health::NeverLoaded { error };
        }
        self
    }

    /// The editor holding `scenario`, its text rewritten (valid by construction: it was
    /// read back by the loader).
    fn with_scenario(&self, scenario: Scenario) -> Editor {
        let mut next = self.clone();
        next.text = codec::write_scenario(&scenario).pretty();
        next.scenario = scenario;
        next.health = Health::Valid;
        next
    }

    fn form_edit(&self, action: Action) -> Editor {
        let typed = typed_field(&action);
        let refused = |error: LoadError| {
            let mut next = self.clone();
            next.health = Health::EditRefused { error, field: typed.clone() };
            next
        };
        let mut edited = self.scenario.clone();
        if let Err(error) = edit(&mut edited, action) {
            return refused(error);
        }
        // Re-read through the loader: cross-field checks (fault workers, limits) apply to
        // form edits exactly as to files.
        let text = codec::write_scenario(&edited).compact();
        match load::parse_scenario(&text) {
            Ok(scenario) => self.with_scenario(scenario),
            Err(error) => refused(error),
        }
    }
}

/// What the preview shows of a run of the draft: the run itself, the lint's warnings, the
/// story's sentences this run contradicts, and the outcome it had.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The scenario previewed: the lesson the marks and outcome are about.
    pub scenario: Scenario,
    pub trace: crate::sim::Trace,
    pub warnings: Vec<lint::Warning>,
    pub marks: Vec<story::Mark>,
    pub outcome: Expected,
}

/// Previews of the same scenario are the same (one scenario, one trace).
impl PartialEq for Preview {
    fn eq(&self, other: &Preview) -> bool {
        self.scenario == other.scenario
    }
}

impl Preview {
    pub fn of(s: &Scenario) -> Preview {
        let trace = crate::sim::run(&s.setup);
        Preview {
            scenario: s.clone(),
            warnings: lint::lint(s, &trace),
            marks: story::marks(&trace, s),
            outcome: story::expected_from(&trace),
            trace,
        }
    }
}

/// What an imported file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Import {
    /// Anything else: read as a scenario (the loader says what is wrong with it).
    Scenario(String),
    /// The player's "Export JSON" of a run (what happened, not how to make it happen): the
    /// id of the scenario it ran.
    Trace { scenario: String },
}

impl Import {
    pub fn of(text: &str) -> Import {
        use serde_json::Value;
        if let Ok(Value::Object(members)) = serde_json::from_str::<Value>(text)
            && members.contains_key("grants")
            && members.contains_key("writes")
            && let Some(Value::String(id)) = members.get("scenario")
        {
            return Import::Trace { scenario: id.clone() };
        }
        Import::Scenario(text.to_owned())
    }
}

/// The path of one step, as the loader names it.
pub fn step_path(at: StepAt) -> String {
    let list = match at.list {
        List::Program => "program",
        List::OnRejected => "on_rejected",
    };
    format!("$.workers[{}].{list}[{}]", at.worker, at.index)
}

/// The path of a row, as the loader names it.
pub fn row_path(row: Row) -> String {
    match row {
        Row::Step(at) => step_path(at),
        Row::Fault(k) => format!("$.faults[{k}]"),
    }
}

/// The field an action types into, and what was typed, so a refusal can keep it.
fn typed_field(action: &Action) -> Option<(String, String)> {
    let (path, input) = match action {
        Action::SetSeed(t) => ("$.seed".to_owned(), t),
        Action::SetUntil(t) => ("$.until_ms".to_owned(), t),
        Action::SetStart(i, t) => (format!("$.workers[{i}].start_ms"), t),
        Action::RenameWorker(i, t) => (format!("$.workers[{i}].name"), t),
        Action::SetStory(Story::Id, t) => ("$.id".to_owned(), t),
        Action::SetStory(Story::Title, t) => ("$.title".to_owned(), t),
        Action::SetField(row, key, t) => (format!("{}.{key}", row_path(*row)), t),
        Action::SetSetting(setting, t) => (setting.path().to_owned(), t),
        Action::SetStep(at, t) => (step_path(*at), t),
        Action::SetFault(k, t) => (format!("$.faults[{k}]"), t),
        _ => return None,
    };
    Some((path, input.clone()))
}

/// Longer than 100 lines: one short arm per editor action, all of one shape (find the
/// member, check it, change it); split up, each part would only hand `s` on.
fn edit(s: &mut Scenario, action: Action) -> Result<(), LoadError> {
    match action {
        Action::SetText(_)
        | Action::Load(_)
        | Action::LoadCopy(_)
        | Action::Undo
        | Action::Redo
        | Action::Confirm(_)
        | Action::ConfirmAll => {}
        Action::SetStory(part, text) => match part {
            Story::Id => {
                s.id = ScenarioId::parse(text.trim()).ok_or_else(|| {
                    refuse("$.id", "an id is 1 to 64 lower-case letters, digits and dashes".into())
                })?;
            }
            Story::Title => s.title = text,
            Story::Summary => s.summary = text,
            Story::Goal => s.goal = text,
            Story::Badge => match &mut s.expect {
                Some(expect) => expect.badge = text,
                None => return Err(refuse("$.expect", "set the expected outcome first".into())),
            },
        },
        Action::SetSeed(text) => s.setup.seed = number(&text, "$.seed")?,
        Action::SetUntil(text) => s.setup.until_ms = number(&text, "$.until_ms")?,
        Action::SetSetting(setting, word) => *s = fields::set_setting(s, setting, &word)?,
        Action::AddWorker => {
            if s.setup.workers.len() >= WORKERS_MAX {
                return Err(refuse(
                    "$.workers",
                    format!("a scenario may have at most {WORKERS_MAX} workers"),
                ));
            }
            let name = next_name(s);
            let last = s.setup.workers.last();
            let program = last.map(|w| w.program.clone()).unwrap_or_default();
            let on_rejected = last.map(|w| w.on_rejected.clone()).unwrap_or_default();
            let start_ms = last.map_or(0, |w| w.start_ms.saturating_add(1_000));
            s.setup.workers.push(WorkerSetup {
                name,
                start_ms,
                program,
                on_rejected,
                reply_timeout_ms: last.map_or(1_000, |w| w.reply_timeout_ms),
            });
        }
        Action::RemoveWorker(i) => {
            worker(s, i)?;
            if s.setup.workers.len() == 1 {
                return Err(refuse("$.workers", "a scenario needs at least one worker".to_owned()));
            }
            // Faults on that worker go with it, and those on later workers follow them
            // down the list, so every fault keeps acting on the worker it named.
            let gone = WorkerId::at(i);
            s.setup.faults.retain(|f| f.worker() != Some(&gone));
            for fault in &mut s.setup.faults {
                let moved = fault.clone().map(
                    |w| Ok::<_, ()>(if w > gone { WorkerId::at(w.index() - 1) } else { w }),
                    Ok,
                );
                if let Ok(moved) = moved {
                    *fault = moved;
                }
            }
            s.setup.workers.remove(i);
        }
        Action::RenameWorker(i, name) => {
            let old = worker(s, i)?.name.clone();
            let name = name.trim().to_owned();
            if name.is_empty() {
                return Err(refuse(
                    &format!("$.workers[{i}].name"),
                    "a worker needs a name".into(),
                ));
            }
            if s.setup.workers.iter().enumerate().any(|(k, w)| k != i && w.name == name) {
                return Err(refuse(
                    &format!("$.workers[{i}].name"),
                    format!("another worker is already called {name}"),
                ));
            }
            // Faults name the worker by id and follow it; the lesson names it in words.
            rename_in_lesson(s, &old, &name);
            worker_mut(s, i)?.name = name;
        }
        Action::SetStart(i, text) => {
            let start_ms = number(&text, &format!("$.workers[{i}].start_ms"))?;
            worker_mut(s, i)?.start_ms = start_ms;
        }
        Action::SetStep(at, text) => {
            let path = step_path(at);
            let step = codec::parse_step_text(&text, &path)?;
            let slot = steps_mut(s, at.worker, at.list)?
                .get_mut(at.index)
                .ok_or_else(|| refuse(&path, "no such step".to_owned()))?;
            *slot = step;
        }
        Action::SetField(row, key, input) => {
            let path = row_path(row);
            match row {
                Row::Step(at) => {
                    let current = steps_mut(s, at.worker, at.list)?
                        .get(at.index)
                        .map(codec::step_text)
                        .ok_or_else(|| refuse(&path, "no such step".to_owned()))?;
                    let step = codec::parse_step_text(&with_field(&current, &key, &input), &path)?;
                    if let Some(slot) = steps_mut(s, at.worker, at.list)?.get_mut(at.index) {
                        *slot = step;
                    }
                }
                Row::Fault(k) => {
                    let current = s
                        .setup
                        .faults
                        .get(k)
                        .map(|f| codec::fault_text(&s.setup, f))
                        .ok_or_else(|| refuse(&path, "no such fault".to_owned()))?;
                    let fault = codec::parse_fault_text(
                        &s.setup,
                        &with_field(&current, &key, &input),
                        &path,
                    )?;
                    if let Some(slot) = s.setup.faults.get_mut(k) {
                        *slot = fault;
                    }
                }
            }
        }
        Action::AddStep { worker, list, kind, at } => {
            let path = format!("$.workers[{worker}]");
            let step = codec::parse_step_text(&step_template(kind), &path)?;
            let steps = steps_mut(s, worker, list)?;
            let at = at.unwrap_or(steps.len()).min(steps.len());
            steps.insert(at, step);
        }
        Action::RemoveStep(at) => {
            let steps = steps_mut(s, at.worker, at.list)?;
            if at.index < steps.len() {
                steps.remove(at.index);
            }
        }
        Action::MoveStep(at, direction) => {
            let steps = steps_mut(s, at.worker, at.list)?;
            let other = match direction {
                Direction::Up => at.index.checked_sub(1),
                Direction::Down => Some(at.index + 1).filter(|k| *k < steps.len()),
            };
            if let Some(k) = other
                && at.index < steps.len()
            {
                steps.swap(at.index, k);
            }
        }
        Action::SetFault(k, text) => {
            let path = format!("$.faults[{k}]");
            let fault = codec::parse_fault_text(&s.setup, &text, &path)?;
            let slot = s
                .setup
                .faults
                .get_mut(k)
                .ok_or_else(|| refuse(&path, "no such fault".to_owned()))?;
            *slot = fault;
        }
        Action::AddFault(kind) => {
            let worker = s.setup.workers.first().map_or("A", |w| w.name.as_str()).to_owned();
            let node = s.setup.redis.nodes.first().map_or("redis", |n| n.name.as_str()).to_owned();
            let text = fault_template(kind, &worker, &node, 500);
            let path = format!("$.faults[{}]", s.setup.faults.len());
            s.setup.faults.push(codec::parse_fault_text(&s.setup, &text, &path)?);
        }
        Action::AddFaultAt { kind, lane, at_ms } => {
            let worker = s.setup.workers.first().map_or("A", |w| w.name.as_str()).to_owned();
            let node = s.setup.redis.nodes.first().map_or("redis", |n| n.name.as_str()).to_owned();
            let (worker, node) = if fault_on_node(kind) { (worker, lane) } else { (lane, node) };
            let text = fault_template(kind, &worker, &node, at_ms);
            let path = format!("$.faults[{}]", s.setup.faults.len());
            s.setup.faults.push(codec::parse_fault_text(&s.setup, &text, &path)?);
        }
        Action::RemoveFault(k) => {
            if k < s.setup.faults.len() {
                s.setup.faults.remove(k);
            }
        }
        Action::Narrate { at, facts } => {
            s.narration.push(Narration { at, text: String::new(), facts });
        }
        Action::SetNarration(i, text) => {
            s.narration
                .get_mut(i)
                .ok_or_else(|| refuse(&format!("$.narration[{i}]"), "no such paragraph".into()))?
                .text = text;
        }
        Action::RemoveNarration(i) => {
            if i < s.narration.len() {
                s.narration.remove(i);
            }
        }
        Action::AddPrompt { at, facts } => s.prompts.push(Prompt {
            at,
            question: String::new(),
            options: vec![String::new(), String::new()],
            answer: 0,
            explanation: String::new(),
            facts,
        }),
        Action::SetPrompt(i, part, text) => {
            let prompt = prompt_mut(s, i)?;
            match part {
                PromptPart::Question => prompt.question = text,
                PromptPart::Explanation => prompt.explanation = text,
                PromptPart::Option(k) => {
                    *prompt.options.get_mut(k).ok_or_else(|| {
                        refuse(&format!("$.prompts[{i}].options[{k}]"), "no such option".into())
                    })? = text
                }
            }
        }
        Action::SetAnswer(i, k) => {
            let prompt = prompt_mut(s, i)?;
            if k < prompt.options.len() {
                prompt.answer = k;
            }
        }
        Action::AddOption(i) => prompt_mut(s, i)?.options.push(String::new()),
        Action::RemovePrompt(i) => {
            if i < s.prompts.len() {
                s.prompts.remove(i);
            }
        }
        Action::SetExpect(expect) => s.expect = expect,
    }
    Ok(())
}

/// Follows a worker's rename through the lesson: the anchors of narration and prompts, and
/// every fact that names the worker (as actor, writer, holder or `updated_by`).
fn rename_in_lesson(s: &mut Scenario, old: &str, new: &str) {
    let anchor = |a: &mut Anchor| {
        if a.actor.as_deref() == Some(old) {
            a.actor = Some(new.to_owned());
        }
    };
    let name = |n: &mut String| {
        if n == old {
            new.clone_into(n);
        }
    };
    let fact = |f: &mut Fact| match f {
        Fact::Write { worker, .. } | Fact::Grant { worker, .. } => name(worker),
        Fact::Belief { after, worker, .. } => {
            anchor(after);
            name(worker);
        }
        Fact::Event { at, .. } | Fact::NoEvent { at } => anchor(at),
        Fact::Key { after, is, .. } => {
            anchor(after);
            if let KeyIs::OwnedBy(holder) = is {
                name(holder);
            }
        }
        Fact::Row { after, updated_by, .. } => {
            anchor(after);
            if let Some(by) = updated_by {
                name(by);
            }
        }
        Fact::Before { first, then } => {
            anchor(first);
            anchor(then);
        }
        Fact::Violation { .. }
        | Fact::NoViolations
        | Fact::Warning { .. }
        | Fact::Charges { .. }
        | Fact::Overlap { .. } => {}
    };
    s.claims.iter_mut().for_each(fact);
    for n in &mut s.narration {
        anchor(&mut n.at);
        n.facts.iter_mut().for_each(fact);
    }
    for p in &mut s.prompts {
        anchor(&mut p.at);
        p.facts.iter_mut().for_each(fact);
    }
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
    s.setup
        .workers
        .get(i)
        .ok_or_else(|| refuse(&format!("$.workers[{i}]"), "no such worker".to_owned()))
}

fn worker_mut(s: &mut Scenario, i: usize) -> Result<&mut WorkerSetup, LoadError> {
    s.setup
        .workers
        .get_mut(i)
        .ok_or_else(|| refuse(&format!("$.workers[{i}]"), "no such worker".to_owned()))
}

fn steps_mut(
    s: &mut Scenario,
    i: usize,
    list: List,
) -> Result<&mut Vec<crate::sim::scenario::Step>, LoadError> {
    let w = worker_mut(s, i)?;
    Ok(match list {
        List::Program => &mut w.program,
        List::OnRejected => &mut w.on_rejected,
    })
}

fn prompt_mut(s: &mut Scenario, i: usize) -> Result<&mut Prompt, LoadError> {
    s.prompts
        .get_mut(i)
        .ok_or_else(|| refuse(&format!("$.prompts[{i}]"), "no such prompt".to_owned()))
}

/// The next free single-letter name after the existing workers (A, B, C, ...).
fn next_name(s: &Scenario) -> String {
    ('A'..='Z')
        .map(String::from)
        .find(|n| !s.setup.workers.iter().any(|w| &w.name == n))
        .unwrap_or_else(|| format!("W{}", s.setup.workers.len() + 1))
}

#[cfg(test)]
mod tests;
