//! The lesson builder's challenge panel, pure: what an author chooses to turn the
//! builder's scenario into a challenge (its kind, the rule, the options a learner may take
//! and what each costs, the bounds), the file that makes, and the check that grades the
//! challenge before a learner does: a fix's design as given must fail and a break's must
//! hold, and par is found by the model, never typed. Only [`Author::check`] runs the
//! model (the shell calls it from a hook); nothing here touches the browser.

use serde_json::{Map, Value, json};

use super::{BreakResult, Challenge, FixResult, Kind};
use crate::catalogue::lesson::Scenario;
use crate::search::{self, Addition, Change, Space, Vary};
use crate::sim::event::Property;
use crate::sim::scenario::{Fault, Word};

/// The id under which the page opens the challenge an author is trying
/// (`#/challenge/draft`); the file itself is kept by the shell.
pub const DRAFT_ID: &str = "draft";

/// The local-storage key the shell keeps that file under (the builder writes it, the
/// challenge page reads it as untrusted text).
pub const DRAFT_KEY: &str = "fencing-playground/v1/challenge-draft";

/// At most this many options offered: par is found by grading every combination of them
/// (2⁶ = 64 searches at most).
pub const OFFERS_MAX: usize = 6;

/// The panel's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Author {
    pub sort: Sort,
    /// The title and story the learner reads; empty means the scenario's title and summary.
    pub title: String,
    pub story: String,
    /// Break it: the rule to break, and the most pauses.
    pub property: Property,
    pub budget: usize,
    /// Fix it: the options offered (keys of [`menu`]), in the order chosen, and their costs.
    pub offered: Vec<Offer>,
    /// Fix it: the rules to keep, each with the author's hint (empty: the built-in one).
    pub keep: Vec<(Property, String)>,
    /// Fix it: the bounds of the search.
    pub vary: Vary,
    pub add: Vec<Addition>,
    pub max_added: usize,
    pub phase: Phase,
    /// Bumped by every change, so that a check of an older version is not shown as this
    /// one's.
    pub revision: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    Break,
    Fix,
}

/// An option offered to the learner, with the cost the author gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub key: String,
    pub cost: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Editing,
    /// Waiting for the hook to check revision `revision`.
    Checking,
    Checked(Result<Ready, Refusal>),
}

/// A challenge that grades as intended, with what the check found.
#[derive(Clone, Debug, PartialEq)]
pub struct Ready {
    /// The challenge file, par included.
    pub file: String,
    pub par: u32,
    /// Fix it: the rule the design as given breaks; break it: the rule it keeps.
    pub property: Property,
    /// The cheapest safe design's options, by menu key (fix), or the fewest pauses that break it (break).
    pub shown: Shown,
    /// Schedules the last search ran.
    pub schedules: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// The cheapest safe combinations (menu keys), each at par: the first is shown as the
    /// answer, the others as designs a learner may find too.
    Options(Vec<Vec<String>>),
    Pauses(Vec<Fault>),
}

/// Why the challenge cannot go to a learner as it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Fix it: no option offered, or no rule to keep.
    NoOptions,
    NoRules,
    /// The challenge loader's reason (the field and why).
    File(String),
    /// Fix it: no schedule within the bounds breaks the design as given.
    AlreadySafe,
    /// Fix it: no combination of the offered options is safe within the bounds.
    NothingSafe,
    /// Break it: the design as given breaks the rule without a pause.
    AlreadyBroken(Property),
    /// Break it: no placement of up to `budget` pauses breaks the rule.
    Unbreakable,
}

pub enum Action {
    Sort(Sort),
    Title(String),
    Story(String),
    Property(Property),
    Budget(usize),
    /// Offer a menu option, or stop offering it (at most [`OFFERS_MAX`]).
    Offer {
        key: String,
        on: bool,
    },
    Cost {
        key: String,
        cost: u32,
    },
    Keep {
        property: Property,
        on: bool,
    },
    Hint {
        property: Property,
        text: String,
    },
    Vary(Vary),
    Add {
        fault: Addition,
        on: bool,
    },
    MaxAdded(usize),
    /// The builder's scenario changed: an earlier check is about another design.
    DesignChanged,
    Check,
    /// The hook's check of `revision`.
    Checked {
        revision: u32,
        result: Result<Ready, Refusal>,
    },
}

/// An option an author may offer: one that a built-in challenge offers, with its words
/// and cost there (keys `<challenge>/<option>`, so each is translated as it is there).
#[derive(Clone, Debug, PartialEq)]
pub struct Offerable {
    pub key: String,
    pub set: Vec<(String, String)>,
    pub cost: u32,
    pub label: String,
    pub cost_text: String,
}

/// Every option the built-in challenges offer, once each (by what it sets), in the
/// chapter's order. Read from the compiled-in files once; the panel asks on every render.
pub fn menu() -> &'static [Offerable] {
    static MENU: std::sync::OnceLock<Vec<Offerable>> = std::sync::OnceLock::new();
    MENU.get_or_init(|| {
        let mut menu: Vec<Offerable> = Vec::new();
        for (id, file) in builtins() {
            for o in &file.options {
                let set = super::pairs(&o.set);
                if menu.iter().any(|m| m.set == set) {
                    continue;
                }
                menu.push(Offerable {
                    key: format!("{id}/{}", o.id),
                    set,
                    cost: o.cost,
                    label: o.label.clone(),
                    cost_text: o.cost_text.clone(),
                });
            }
        }
        menu
    })
}

/// The menu's options that change `scenario` (offering another would let a learner pay
/// for nothing; the loader refuses it).
pub fn useful(scenario: &Scenario) -> Vec<Offerable> {
    let plain = super::setup_for(scenario, []);
    menu().iter().filter(|o| super::setup_for(scenario, &o.set) != plain).cloned().collect()
}

/// The hint a built-in challenge gives for breaking `property`: its key in the language
/// packs and its English.
pub fn builtin_hint(property: Property) -> Option<(String, String)> {
    builtins().iter().find_map(|(id, file)| {
        let hint = file.hints.get(property.name())?.as_str()?.to_owned();
        Some((format!("c.{id}.hint.{}", property.name()), hint))
    })
}

/// The built-in challenge files as written, read once.
fn builtins() -> &'static [(&'static str, super::File)] {
    static FILES: std::sync::OnceLock<Vec<(&'static str, super::File)>> =
        std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        // Built-in files are checked by the tests; one that did not read would offer nothing.
        super::files::FILES
            .iter()
            .filter_map(|(id, text)| Some((*id, serde_json::from_str(text).ok()?)))
            .collect()
    })
}

/// The hint for a rule no built-in challenge has one for.
const GENERIC_HINT: &str = "Step to the moment the rule breaks: whose request is it, and what in the design let it through?";

impl Action {
    /// The action a change of the panel's form field `field` (with `arg`, the row it is in)
    /// asks for, given the field's value and whether it is checked; `None` for a value the
    /// field does not take (the page's one listener reads every field this way).
    pub fn from_field(field: &str, arg: &str, value: &str, checked: bool) -> Option<Action> {
        let number = || value.trim().parse::<usize>().ok();
        let property = || Property::from_name(arg);
        Some(match field {
            "sort" => Action::Sort(if value == "break" { Sort::Break } else { Sort::Fix }),
            "title" => Action::Title(value.to_owned()),
            "story" => Action::Story(value.to_owned()),
            "property" => Action::Property(Property::from_name(value)?),
            "budget" => Action::Budget(number()?),
            "offer" => Action::Offer { key: arg.to_owned(), on: checked },
            "cost" => Action::Cost { key: arg.to_owned(), cost: u32::try_from(number()?).ok()? },
            "keep" => Action::Keep { property: property()?, on: checked },
            "hint" => Action::Hint { property: property()?, text: value.to_owned() },
            "vary" => Action::Vary(if value == "nothing" { Vary::Nothing } else { Vary::Times }),
            "add" => Action::Add { fault: Addition::from_word(arg)?, on: checked },
            "max-added" => Action::MaxAdded(number()?),
            _ => return None,
        })
    }
}

impl Author {
    pub fn new() -> Author {
        Author {
            sort: Sort::Fix,
            title: String::new(),
            story: String::new(),
            property: Property::NoStaleAccept,
            budget: 1,
            offered: Vec::new(),
            keep: vec![(Property::NoStaleAccept, String::new())],
            vary: Vary::Times,
            add: vec![Addition::Pause],
            max_added: 1,
            phase: Phase::Editing,
            revision: 0,
        }
    }

    /// The id the page runs the check for, while it waits for one.
    pub fn checking(&self) -> Option<u32> {
        (self.phase == Phase::Checking).then_some(self.revision)
    }

    pub fn update(&mut self, action: Action) {
        match action {
            Action::Check => {
                self.phase = Phase::Checking;
                return;
            }
            Action::Checked { revision, result } => {
                if revision == self.revision && self.phase == Phase::Checking {
                    self.phase = Phase::Checked(result);
                }
                return;
            }
            Action::Sort(sort) => self.sort = sort,
            Action::Title(text) => self.title = text,
            Action::Story(text) => self.story = text,
            Action::Property(p) => self.property = p,
            Action::Budget(n) => self.budget = n.clamp(1, 3),
            Action::Offer { key, on } => {
                let at = self.offered.iter().position(|o| o.key == key);
                match (on, at) {
                    (true, None) if self.offered.len() < OFFERS_MAX => {
                        let Some(o) = menu().iter().find(|o| o.key == key) else { return };
                        self.offered.push(Offer { key, cost: o.cost });
                    }
                    (false, Some(i)) => drop(self.offered.remove(i)),
                    _ => return,
                }
            }
            Action::Cost { key, cost } => {
                let Some(o) = self.offered.iter_mut().find(|o| o.key == key) else { return };
                o.cost = cost.min(99);
            }
            Action::Keep { property, on } => {
                let at = self.keep.iter().position(|(p, _)| *p == property);
                match (on, at) {
                    (true, None) => self.keep.push((property, String::new())),
                    (false, Some(i)) => drop(self.keep.remove(i)),
                    _ => return,
                }
            }
            Action::Hint { property, text } => {
                let Some(k) = self.keep.iter_mut().find(|(p, _)| *p == property) else { return };
                k.1 = text;
            }
            Action::Vary(vary) => self.vary = vary,
            Action::Add { fault, on } => {
                self.add.retain(|a| *a != fault);
                if on {
                    self.add.push(fault);
                    self.add.sort();
                }
            }
            Action::MaxAdded(n) => self.max_added = n.min(3),
            Action::DesignChanged => {}
        }
        self.revision = self.revision.wrapping_add(1);
        self.phase = Phase::Editing;
    }

    /// The challenge file for `scenario` with `par`: what the loader reads, the design
    /// carried inside it.
    pub fn file(&self, scenario: &Scenario, par: u32) -> String {
        let or = |text: &str, default: &str| match text.trim() {
            "" => default.to_owned(),
            text => text.to_owned(),
        };
        let mut file = Map::new();
        file.insert("id".into(), json!(scenario.id.to_string()));
        let kind = match self.sort {
            Sort::Break => "break",
            Sort::Fix => "fix",
        };
        file.insert("kind".into(), json!(kind));
        file.insert("title".into(), json!(or(&self.title, &scenario.title)));
        file.insert("story".into(), json!(or(&self.story, &scenario.summary)));
        let design = crate::catalogue::codec::write_scenario(scenario).into_value();
        file.insert("scenario".into(), design);
        match self.sort {
            Sort::Break => {
                file.insert("property".into(), json!(self.property.name()));
                file.insert("add".into(), json!(["pause"]));
                file.insert("budget".into(), json!(self.budget));
            }
            Sort::Fix => {
                file.insert("options".into(), Value::Array(self.options()));
                let vary = match self.vary {
                    Vary::Times => "times",
                    Vary::Nothing => "nothing",
                };
                file.insert("vary".into(), json!(vary));
                let add: Vec<&str> = self.add.iter().map(|a| a.word()).collect();
                file.insert("add".into(), json!(add));
                file.insert("max_added".into(), json!(self.max_added));
                let keep: Vec<&str> = self.keep.iter().map(|(p, _)| p.name()).collect();
                file.insert("properties".into(), json!(keep));
                let hints: Map<String, Value> = self
                    .keep
                    .iter()
                    .map(|(p, text)| {
                        let builtin = builtin_hint(*p).map(|(_, h)| h);
                        let default = builtin.as_deref().unwrap_or(GENERIC_HINT);
                        (p.name().to_owned(), json!(or(text, default)))
                    })
                    .collect();
                file.insert("hints".into(), Value::Object(hints));
            }
        }
        file.insert("par".into(), json!(par));
        // A `Value` of strings, numbers and objects always writes.
        serde_json::to_string_pretty(&Value::Object(file)).unwrap_or_default() + "\n"
    }

    /// Grades the challenge as the page would, before a learner meets it: the file must
    /// load, a fix's design as given must break a kept rule and some combination of the
    /// options must be safe (the cheapest is par), a break's design must keep the rule and
    /// the search must break it within the budget (the fewest pauses is par).
    pub fn check(&self, scenario: &Scenario) -> Result<Ready, Refusal> {
        if self.sort == Sort::Fix && self.offered.is_empty() {
            return Err(Refusal::NoOptions);
        }
        if self.sort == Sort::Fix && self.keep.is_empty() {
            return Err(Refusal::NoRules);
        }
        // Read back as a page reads the file: its own design first (not `parse`, which
        // would link every built-in lesson into the page's bundle to look one up).
        let text = self.file(scenario, 0);
        let challenge = match super::design_of(&text).map_err(Refusal::File)? {
            super::Design::Own(own) => super::parse_for(&text, *own).map_err(Refusal::File)?,
            super::Design::Lesson(id) => return Err(Refusal::File(format!("design: {id}"))),
        };
        match &challenge.kind {
            Kind::Fix { options, .. } => {
                let Some(FixResult::Broken { counterexample, .. }) = challenge.grade_fix(&[])
                else {
                    return Err(Refusal::AlreadySafe);
                };
                let property = counterexample.property;
                let mut cheapest: Option<(u32, u64, Vec<Vec<String>>)> = None;
                for (cost, chosen) in combinations(&challenge, options) {
                    if cheapest.as_ref().is_some_and(|(par, ..)| cost > *par) {
                        break;
                    }
                    if let Some(FixResult::Safe { schedules, .. }) = challenge.grade_fix(&chosen) {
                        let keys = self.keys_of(&challenge, &chosen);
                        match &mut cheapest {
                            Some((_, _, found)) => found.push(keys),
                            None => cheapest = Some((cost, schedules, vec![keys])),
                        }
                    }
                }
                if let Some((par, schedules, found)) = cheapest {
                    return Ok(Ready {
                        file: self.file(scenario, par),
                        par,
                        property,
                        shown: Shown::Options(found),
                        schedules,
                    });
                }
                Err(Refusal::NothingSafe)
            }
            Kind::Break { property, budget, .. } => {
                if let Some(BreakResult::Broken { .. }) = challenge.grade_break(&[]) {
                    return Err(Refusal::AlreadyBroken(*property));
                }
                let space = Space {
                    vary: Vary::Nothing,
                    add: vec![Addition::Pause],
                    max_added: *budget,
                    level_limit: search::LEVEL_LIMIT,
                };
                let report = search::run(&challenge.start_setup(), space, vec![*property]);
                let found = report.found.ok_or(Refusal::Unbreakable)?;
                let pauses: Vec<Fault> = found
                    .changes
                    .into_iter()
                    .filter_map(|c| match c {
                        Change::Added(fault) => Some(fault),
                        Change::Moved { .. } => None,
                    })
                    .collect();
                // The grader must accept what the search found, or par would be a score
                // no learner can reach.
                let Some(BreakResult::Broken { used, .. }) = challenge.grade_break(&pauses) else {
                    return Err(Refusal::Unbreakable);
                };
                let par = u32::try_from(used).unwrap_or(u32::MAX);
                Ok(Ready {
                    file: self.file(scenario, par),
                    par,
                    property: *property,
                    shown: Shown::Pauses(pauses),
                    schedules: report.schedules,
                })
            }
        }
    }

    /// The menu keys of the file's options `ids` (the file lists the offers in order).
    fn keys_of(&self, challenge: &Challenge, ids: &[&str]) -> Vec<String> {
        ids.iter()
            .filter_map(|id| self.offered.get(challenge.option_index(id)))
            .map(|o| o.key.clone())
            .collect()
    }

    /// The offered options as the file writes them: each under its menu option's id
    /// (numbered when two share one), with the author's cost.
    fn options(&self) -> Vec<Value> {
        let menu = menu();
        let mut ids: Vec<String> = Vec::new();
        let mut options = Vec::new();
        for offer in &self.offered {
            let Some(o) = menu.iter().find(|m| m.key == offer.key) else { continue };
            let base = o.key.rsplit('/').next().unwrap_or(&o.key).to_owned();
            let mut id = base.clone();
            let mut n = 2;
            while ids.contains(&id) {
                id = format!("{base}-{n}");
                n += 1;
            }
            ids.push(id.clone());
            let set: Map<String, Value> =
                o.set.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            options.push(json!({
                "id": id,
                "label": o.label,
                "set": set,
                "cost": offer.cost,
                "cost_text": o.cost_text,
            }));
        }
        options
    }
}

impl Default for Author {
    fn default() -> Author {
        Author::new()
    }
}

/// Every combination of `options` a learner can choose (never two rivals), cheapest
/// first and, at one cost, fewest first: the first safe one is par.
fn combinations<'c>(
    challenge: &'c Challenge,
    options: &'c [super::Choice],
) -> Vec<(u32, Vec<&'c str>)> {
    let n = options.len().min(OFFERS_MAX);
    let mut all: Vec<(u32, Vec<&str>)> = (1u32..(1 << n))
        .filter_map(|mask| {
            let chosen: Vec<&super::Choice> =
                (0..n).filter(|i| mask & (1 << i) != 0).map(|i| &options[i]).collect();
            let clash = chosen
                .iter()
                .any(|o| challenge.rivals(&o.id).iter().any(|r| chosen.iter().any(|c| c.id == *r)));
            (!clash).then(|| {
                let cost = chosen.iter().map(|o| o.cost).sum();
                (cost, chosen.iter().map(|o| o.id.as_str()).collect())
            })
        })
        .collect();
    all.sort_by_key(|(cost, chosen)| (*cost, chosen.len()));
    all
}

#[cfg(test)]
mod tests;
