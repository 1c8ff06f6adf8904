//! Challenges graded by the model: "break it" (place faults, within a budget, until the
//! checker finds the named violation) and "fix it" (choose changes to a broken design, each
//! with a cost, until the schedule search finds no counterexample within the challenge's
//! bounds).
//!
//! Owns the challenge file format (`static/challenges/<id>.json`, read with a loader that
//! names what is wrong), and the grading of an attempt. Pure: the design is a built-in
//! lesson's setup, the run is the simulator's, the search is `crate::search`'s; no clock,
//! no web crate.

use serde::Deserialize;

use crate::search::{self, Addition, Change, Counterexample, Space, Vary};
use crate::sim::event::Property;
use crate::sim::scenario::{Fault, Setup, Word};
use crate::whatif::WhatIf;

pub use attempt::{Action, Attempt, Draft, Grade, Phase, better, scaled, solved_score};
pub use edit::{Edit, Put};
pub use solved::{Solved, parse_seconds};

mod attempt;
pub mod author;
mod edit;
mod solved;

/// Each challenge, compiled in: its id, its kind (`break` or `fix`), its English title and
/// the lessons it practises, in the chapter's order (`static/challenges/order.txt`).
pub const INDEX: &[(&str, &str, &str, &[&str])] = index::INDEX;

mod index {
    include!(concat!(env!("OUT_DIR"), "/challenge_index.rs"));
}

mod files {
    include!(concat!(env!("OUT_DIR"), "/challenge_files.rs"));
}

/// Challenge `id`'s file, as compiled in (only the pages that grade challenges call this,
/// so only their bundles carry the files).
pub fn file(id: &str) -> Option<&'static str> {
    files::FILES.iter().find(|(i, _)| *i == id).map(|(_, text)| *text)
}

/// The challenges that practise lesson `id`.
pub fn practising(id: &str) -> Vec<&'static str> {
    INDEX.iter().filter(|(_, _, _, lessons)| lessons.contains(&id)).map(|(c, ..)| *c).collect()
}

/// Every text of `c` a learner reads, with the key a language pack translates it under:
/// `c.<id>.title`, `.story`, `.o.<option>.label`, `.o.<option>.cost`, `.hint.<property>`.
pub fn content_keys(c: &Challenge) -> Vec<(String, String)> {
    let id = &c.id;
    let mut keys = vec![
        (format!("c.{id}.title"), c.title.clone()),
        (format!("c.{id}.story"), c.story.clone()),
    ];
    if let Kind::Fix { options, hints, .. } = &c.kind {
        for o in options {
            keys.push((format!("c.{id}.o.{}.label", o.id), o.label.clone()));
            keys.push((format!("c.{id}.o.{}.cost", o.id), o.cost_text.clone()));
        }
        for (property, hint) in hints {
            keys.push((format!("c.{id}.hint.{}", property.name()), hint.clone()));
        }
    }
    keys
}

/// One challenge, as its file says it (checked by [`parse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    pub id: String,
    pub title: String,
    /// The situation, in the learner's terms.
    pub story: String,
    /// The built-in lesson whose setup is the design, and the lessons the challenge
    /// practises (its own first).
    pub design: String,
    pub practises: Vec<String>,
    /// What the design starts with, changed from the lesson's setup (what-if knobs as a
    /// link spells them, or [`Edit`]s).
    pub start: Vec<(String, String)>,
    pub kind: Kind,
    /// The design's lesson, as the catalogue has it.
    lesson: crate::catalogue::lesson::Scenario,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Add at most `budget` faults from `palette` so that the run breaks `property`.
    Break { property: Property, palette: Vec<Addition>, budget: usize, par: usize },
    /// Choose changes so that the search finds none of `properties` broken within `bounds`.
    Fix {
        options: Vec<Choice>,
        bounds: Space,
        properties: Vec<Property>,
        /// The least total cost of a safe design.
        par: u32,
        /// The next-step hint for a counterexample that breaks each property.
        hints: Vec<(Property, String)>,
    },
}

/// One change a learner may make to the design.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub id: String,
    /// What it sets: what-if knobs as link parameters (`guard` = `lt`), or [`Edit`]s.
    pub set: Vec<(String, String)>,
    pub cost: u32,
    /// What it costs, in one line (a latency, a dependency, an operational burden).
    pub cost_text: String,
    pub label: String,
}

/// How an attempt at a "fix it" challenge went.
#[derive(Clone, Debug, PartialEq)]
pub enum FixResult {
    /// No schedule within the bounds breaks a property: the design is safe there.
    Safe { cost: u32, par: u32, schedules: u64 },
    /// The search found a counterexample: the learner sees it with the hint.
    Broken { counterexample: Box<Counterexample>, hint: String },
}

/// How an attempt at a "break it" challenge went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BreakResult {
    /// The run breaks the named property with `used` faults (`par` the fewest known).
    Broken { used: usize, par: usize },
    /// The run keeps the property.
    Held,
    /// More faults than the budget, or one the palette does not have.
    OutOfBounds(String),
}

/// Reads a challenge file; anything wrong is named (the field and why), never a panic.
/// Its design comes from the lessons compiled in (the CLI and the tests) or from the file
/// itself; a page that fetches lessons reads [`design_of`] first and calls [`parse_for`].
pub fn parse(text: &str) -> Result<Challenge, String> {
    let lesson = match design_of(text)? {
        Design::Lesson(id) => crate::catalogue::find(&id)
            .ok_or_else(|| format!("design: {id} is not a built-in lesson"))?,
        Design::Own(lesson) => *lesson,
    };
    parse_for(text, lesson)
}

/// Where a challenge's design comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Design {
    /// A built-in lesson's setup (`"design": "<id>"`).
    Lesson(String),
    /// A scenario of the file's own, as the lesson builder writes it (`"scenario": {…}`),
    /// read by the builder's loader.
    Own(Box<crate::catalogue::lesson::Scenario>),
}

/// The design a challenge file names: a built-in lesson, or a scenario of its own.
pub fn design_of(text: &str) -> Result<Design, String> {
    let file: File =
        serde_json::from_str(text).map_err(|e| format!("not a challenge file: {e}"))?;
    match (file.design, file.scenario) {
        (Some(id), None) if crate::catalogue::is_builtin(&id) => Ok(Design::Lesson(id)),
        (Some(id), None) => Err(format!("design: {id} is not a built-in lesson")),
        (None, Some(scenario)) => crate::catalogue::load::parse_scenario(&scenario.to_string())
            .map(|lesson| Design::Own(Box::new(lesson)))
            .map_err(|e| format!("scenario: {e}")),
        (Some(_), Some(_)) => Err("design and scenario: give one, not both".to_owned()),
        (None, None) => {
            Err("design: missing (a built-in lesson's id, or a \"scenario\" of the file's own)"
                .to_owned())
        }
    }
}

/// Reads a challenge file whose design is `lesson` (the lesson [`design_of`] names).
pub fn parse_for(
    text: &str,
    lesson: crate::catalogue::lesson::Scenario,
) -> Result<Challenge, String> {
    let file: File =
        serde_json::from_str(text).map_err(|e| format!("not a challenge file: {e}"))?;
    if let Some(design) = file.design.as_ref().filter(|d| lesson.id != **d) {
        return Err(format!("design: {design} is not the lesson given ({})", lesson.id));
    }
    for id in &file.practises {
        if !crate::catalogue::is_builtin(id) {
            return Err(format!("practises: {id} is not a built-in lesson"));
        }
    }
    let kind = match file.kind.as_str() {
        "break" => {
            let budget = file.budget.ok_or("break: budget (the most faults) is missing")?;
            if !(1..=3).contains(&budget) {
                return Err(format!("budget: {budget} is not 1 to 3"));
            }
            let par = file.par.map_or(budget, |p| p as usize);
            // The page places pauses by hand (a worker, a moment, a length).
            if let Some(other) = file.add.iter().find(|a| *a != "pause") {
                return Err(format!("add: {other} cannot be placed by hand (only pause)"));
            }
            Kind::Break {
                property: property(
                    file.property.as_deref().ok_or("break: property is missing")?,
                    "property",
                )?,
                palette: palette(&file.add)?,
                budget,
                par,
            }
        }
        "fix" => parse_fix(&file)?,
        other => return Err(format!("kind: {other} is not break or fix")),
    };
    let start = pairs(&file.start);
    check_settings(&start, "start")?;
    let challenge = Challenge {
        id: file.id,
        title: file.title,
        story: file.story,
        design: lesson.id.to_string(),
        practises: file.practises,
        start,
        kind,
        lesson,
    };
    // An option that changes nothing in this design would let a learner pay for nothing.
    if let Kind::Fix { options, .. } = &challenge.kind
        && let Some(idle) = options
            .iter()
            .find(|o| challenge.setup_with(&[o.id.as_str()]) == challenge.start_setup())
    {
        return Err(format!("options.{}: changes nothing in this design", idle.id));
    }
    Ok(challenge)
}

/// A "fix it" challenge's part of the file.
fn parse_fix(file: &File) -> Result<Kind, String> {
    let mut options = Vec::new();
    for o in &file.options {
        let set = pairs(&o.set);
        check_settings(&set, &format!("options.{}", o.id))?;
        options.push(Choice {
            id: o.id.clone(),
            set,
            cost: o.cost,
            cost_text: o.cost_text.clone(),
            label: o.label.clone(),
        });
    }
    if options.is_empty() {
        return Err("fix: no options to choose from".to_owned());
    }
    let properties =
        file.properties.iter().map(|p| property(p, "properties")).collect::<Result<Vec<_>, _>>()?;
    if properties.is_empty() {
        return Err("fix: no properties to keep".to_owned());
    }
    let hints = file
        .hints
        .iter()
        .map(|(p, text)| {
            let text = text.as_str().ok_or_else(|| format!("hints.{p}: not a text"))?;
            Ok((property(p, "hints")?, text.to_owned()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if let Some(p) = properties.iter().find(|p| !hints.iter().any(|(h, _)| h == *p)) {
        return Err(format!("hints: none for {}", p.name()));
    }
    let vary = match file.vary.as_deref() {
        None | Some("nothing") => Vary::Nothing,
        Some("times") => Vary::Times,
        Some(other) => return Err(format!("vary: {other} is not nothing or times")),
    };
    let bounds = Space {
        vary,
        add: palette(&file.add)?,
        max_added: file.max_added.unwrap_or(1).min(3),
        level_limit: search::LEVEL_LIMIT,
    };
    Ok(Kind::Fix { options, bounds, properties, par: file.par.unwrap_or(0), hints })
}

/// The property `name` names, or why not (in `field`).
fn property(name: &str, field: &str) -> Result<Property, String> {
    Property::from_name(name)
        .ok_or_else(|| format!("{field}: {name} is not a property the checker knows"))
}

/// The faults `names` name, or the first that is not one the search adds.
fn palette(names: &[String]) -> Result<Vec<Addition>, String> {
    names
        .iter()
        .map(|n| {
            Addition::from_word(n).ok_or_else(|| format!("add: {n} is not a fault the search adds"))
        })
        .collect()
}

impl Challenge {
    /// The par: the least cost of a safe design, or the fewest faults that break it.
    pub fn par(&self) -> u32 {
        match &self.kind {
            Kind::Break { par, .. } => u32::try_from(*par).unwrap_or(u32::MAX),
            Kind::Fix { par, .. } => *par,
        }
    }

    /// The faults a break-it attempt may place (none for a fix-it).
    pub fn budget(&self) -> usize {
        match &self.kind {
            Kind::Break { budget, .. } => *budget,
            Kind::Fix { .. } => 0,
        }
    }

    /// Where option `id` stands in the file (the order the page lists them).
    pub fn option_index(&self, id: &str) -> usize {
        match &self.kind {
            Kind::Fix { options, .. } => {
                options.iter().position(|o| o.id == id).unwrap_or(usize::MAX)
            }
            Kind::Break { .. } => usize::MAX,
        }
    }

    /// The design's workers, by name, in order.
    pub fn workers(&self) -> Vec<&str> {
        self.lesson.setup.workers.iter().map(|w| w.name.as_str()).collect()
    }

    pub fn worker_name(&self, worker: crate::sim::id::WorkerId) -> &str {
        self.lesson.setup.workers.get(worker.index()).map_or("?", |w| w.name.as_str())
    }

    /// The design's lesson (its id, title and chapter name the lesson practised).
    pub fn lesson(&self) -> &crate::catalogue::lesson::Scenario {
        &self.lesson
    }

    /// A run to show in the player: the design as `setup` has it, under the challenge's
    /// id and title, with no story of its own (the lesson's was about its own schedule).
    pub fn scenario_of(&self, setup: Setup) -> crate::catalogue::lesson::Scenario {
        crate::catalogue::lesson::Scenario {
            title: self.title.clone(),
            summary: String::new(),
            goal: String::new(),
            setup,
            narration: Vec::new(),
            expect: None,
            prompts: Vec::new(),
            claims: Vec::new(),
            rules: Vec::new(),
            in_code: String::new(),
            ..self.lesson.clone()
        }
    }

    /// The design with the learner's placed faults (a break-it attempt's run).
    pub fn setup_placed(&self, placed: &[Fault]) -> Setup {
        let changes: Vec<Change> = placed.iter().cloned().map(Change::Added).collect();
        search::apply(&self.start_setup(), &changes)
    }

    /// The design a learner starts from: the lesson's setup with the challenge's start.
    pub fn start_setup(&self) -> Setup {
        self.setup_with(&[])
    }

    /// The design with the options `chosen` (by id) made.
    pub fn setup_with(&self, chosen: &[&str]) -> Setup {
        let options = match &self.kind {
            Kind::Fix { options, .. } => options.as_slice(),
            Kind::Break { .. } => &[],
        };
        let chosen = options.iter().filter(|o| chosen.contains(&o.id.as_str()));
        let settings: Vec<&(String, String)> =
            self.start.iter().chain(chosen.flat_map(|o| o.set.iter())).collect();
        setup_for(&self.lesson, settings)
    }

    /// The options that set a knob `id` sets too: alternatives, so choosing `id` drops
    /// them (two values for one knob would depend on their order).
    pub fn rivals(&self, id: &str) -> Vec<&str> {
        let Kind::Fix { options, .. } = &self.kind else { return Vec::new() };
        let Some(chosen) = options.iter().find(|o| o.id == id) else { return Vec::new() };
        options
            .iter()
            .filter(|o| {
                o.id != id && o.set.iter().any(|(n, _)| chosen.set.iter().any(|(m, _)| m == n))
            })
            .map(|o| o.id.as_str())
            .collect()
    }

    /// Grades a "fix it" attempt: the options chosen, searched within the bounds.
    pub fn grade_fix(&self, chosen: &[&str]) -> Option<FixResult> {
        let Kind::Fix { options, bounds, properties, par, hints, .. } = &self.kind else {
            return None;
        };
        let setup = self.setup_with(chosen);
        let report = search::run(&setup, bounds.clone(), properties.clone());
        Some(match report.found {
            None => {
                let cost = options
                    .iter()
                    .filter(|o| chosen.contains(&o.id.as_str()))
                    .map(|o| o.cost)
                    .sum();
                FixResult::Safe { cost, par: *par, schedules: report.schedules }
            }
            Some(found) => {
                let hint = hints
                    .iter()
                    .find(|(p, _)| *p == found.property)
                    .map_or_else(String::new, |(_, h)| h.clone());
                FixResult::Broken { counterexample: Box::new(found), hint }
            }
        })
    }

    /// Grades a "break it" attempt: the faults the learner placed on the design's run.
    pub fn grade_break(&self, added: &[Fault]) -> Option<BreakResult> {
        let Kind::Break { property, palette, budget, par } = &self.kind else { return None };
        if added.len() > *budget {
            return Some(BreakResult::OutOfBounds(format!(
                "{} faults placed; the budget is {budget}",
                added.len()
            )));
        }
        if let Some(outside) = added.iter().find(|f| !in_palette(f, palette)) {
            return Some(BreakResult::OutOfBounds(format!(
                "{outside:?} is not in this challenge's palette"
            )));
        }
        let changes: Vec<Change> = added.iter().cloned().map(Change::Added).collect();
        let result = search::evaluate(&self.start_setup(), &changes, &[*property]);
        Some(match result.broken {
            Some(_) => BreakResult::Broken { used: added.len(), par: *par },
            None => BreakResult::Held,
        })
    }
}

/// `lesson`'s setup with `settings` made (what-if knobs as a link spells them, and
/// [`Edit`]s); a setting that is neither is skipped (the loader refuses it first).
pub fn setup_for<'a>(
    lesson: &crate::catalogue::lesson::Scenario,
    settings: impl IntoIterator<Item = &'a (String, String)>,
) -> Setup {
    let mut whatif = WhatIf::default();
    let mut edits = Vec::new();
    for (name, value) in settings {
        match Edit::parse(name, value) {
            Some(edit) => edits.extend(edit.ok()),
            None => drop(whatif.set_from_query(name, value)),
        }
    }
    // The knobs first: a guard turned on makes writes fenced, which an edit may undo.
    let mut setup = whatif.apply(lesson).setup;
    for edit in edits {
        edit.apply(&mut setup);
    }
    setup
}

/// Whether a placed fault is one the palette offers (a node crash without a restart is a
/// failover; with one, a restart).
fn in_palette(fault: &Fault, palette: &[Addition]) -> bool {
    let kind = match fault {
        Fault::Pause { .. } => Addition::Pause,
        Fault::Crash { .. } => Addition::Crash,
        Fault::LoseReply { .. } => Addition::LostReply,
        Fault::Delay { .. } => Addition::Delay,
        Fault::CrashNode { restart_after_ms: None, .. } => Addition::Failover,
        Fault::CrashNode { .. } => Addition::Restart,
        Fault::ClockJump { .. } => Addition::ClockJump,
        Fault::Hang { .. } | Fault::Partition { .. } | Fault::SetCounter { .. } => return false,
    };
    palette.contains(&kind)
}

/// Each setting names an edit or a what-if knob, with a value it takes.
fn check_settings(settings: &[(String, String)], field: &str) -> Result<(), String> {
    let mut whatif = WhatIf::default();
    for (name, value) in settings {
        let checked = match Edit::parse(name, value) {
            Some(edit) => edit.map(drop),
            None => whatif.set_from_query(name, value),
        };
        checked.map_err(|why| {
            format!("{field}: {name}={value}: {why} (edits: {})", edit::NAMES.join(", "))
        })?;
    }
    Ok(())
}

fn pairs(map: &serde_json::Map<String, serde_json::Value>) -> Vec<(String, String)> {
    map.iter()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
        .collect()
}

/// A challenge file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    id: String,
    kind: String,
    title: String,
    story: String,
    #[serde(default)]
    design: Option<String>,
    #[serde(default)]
    scenario: Option<serde_json::Value>,
    #[serde(default)]
    practises: Vec<String>,
    #[serde(default)]
    property: Option<String>,
    #[serde(default)]
    budget: Option<usize>,
    #[serde(default)]
    add: Vec<String>,
    #[serde(default)]
    max_added: Option<usize>,
    #[serde(default)]
    vary: Option<String>,
    #[serde(default)]
    start: serde_json::Map<String, serde_json::Value>,
    #[serde(default)]
    options: Vec<OptionFile>,
    #[serde(default)]
    properties: Vec<String>,
    #[serde(default)]
    par: Option<u32>,
    #[serde(default)]
    hints: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionFile {
    id: String,
    label: String,
    set: serde_json::Map<String, serde_json::Value>,
    cost: u32,
    cost_text: String,
}

#[cfg(test)]
mod tests;
