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
        /// What the design starts with (link parameters, as the what-if panel writes them).
        start: Vec<(String, String)>,
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
    /// What it sets, as link parameters (`guard` = `lt`).
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
pub fn parse(text: &str) -> Result<Challenge, String> {
    let file: File =
        serde_json::from_str(text).map_err(|e| format!("not a challenge file: {e}"))?;
    let lesson = crate::catalogue::find(&file.design)
        .ok_or_else(|| format!("design: {} is not a built-in lesson", file.design))?;
    for id in &file.practises {
        if crate::catalogue::find(id).is_none() {
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
    let challenge = Challenge {
        id: file.id,
        title: file.title,
        story: file.story,
        design: file.design,
        practises: file.practises,
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
    let start = pairs(&file.start);
    check_settings(&start, "start")?;
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
    Ok(Kind::Fix { start, options, bounds, properties, par: file.par.unwrap_or(0), hints })
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
    /// The design a learner starts from: the lesson's setup with the challenge's start.
    pub fn start_setup(&self) -> Setup {
        self.setup_with(&[])
    }

    /// The design with the options `chosen` (by id) made.
    pub fn setup_with(&self, chosen: &[&str]) -> Setup {
        let mut whatif = WhatIf::default();
        if let Kind::Fix { start, options, .. } = &self.kind {
            let chosen = options.iter().filter(|o| chosen.contains(&o.id.as_str()));
            for (name, value) in start.iter().chain(chosen.flat_map(|o| o.set.iter())) {
                // Checked by `parse`: every setting is one a link may carry.
                let _ = whatif.set_from_query(name, value);
            }
        }
        whatif.apply(&self.lesson).setup
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

/// Each setting names a what-if knob, with a value it takes.
fn check_settings(settings: &[(String, String)], field: &str) -> Result<(), String> {
    let mut whatif = WhatIf::default();
    for (name, value) in settings {
        whatif
            .set_from_query(name, value)
            .map_err(|why| format!("{field}: {name}={value}: {why}"))?;
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
    design: String,
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
