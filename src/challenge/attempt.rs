//! The challenge page's state, pure: the design a learner is making (options chosen, or
//! faults placed), whether it is being graded, each attempt's result and the best score.
//! Grading is `Challenge::grade_*`, run by the shell's hook (it may take a moment); this
//! state never runs the model and reads no clock (times come in with the actions).

use super::{BreakResult, Challenge, FixResult, Kind};
use crate::sim::id::WorkerId;
use crate::sim::scenario::Fault;

/// The page's state for one challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// Fix it: the options chosen, in the file's order.
    pub chosen: Vec<String>,
    /// Break it: the faults placed, and the pause being drawn up.
    pub placed: Vec<Fault>,
    pub draft: Draft,
    pub phase: Phase,
    /// Attempts graded so far (the next report's number).
    pub attempts: u32,
    /// The best solved score so far, if any: `(par, spent)`.
    pub best: Option<(u32, u32)>,
    /// When the design was last changed (or the page opened), for the attempt's latency.
    pub since_ms: f64,
}

/// The pause a learner is about to place, as the form holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub worker: usize,
    pub at_ms: u64,
    pub pause_ms: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Designing,
    /// Waiting for the hook to grade attempt `n`.
    Grading {
        n: u32,
    },
    Graded(Grade),
}

/// One graded attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum Grade {
    Fix(FixResult),
    Break(BreakResult),
}

pub enum Action {
    /// Choose or drop an option (choosing drops its rivals).
    Toggle(String),
    Draft(Draft),
    /// Place the drafted pause.
    Place,
    /// Take back placed fault `i`.
    Remove(usize),
    /// Ask for a grade.
    Check {
        now_ms: f64,
    },
    /// The hook's grade of attempt `n`.
    Graded {
        n: u32,
        grade: Grade,
    },
}

impl Attempt {
    pub fn new(now_ms: f64) -> Attempt {
        Attempt {
            chosen: Vec::new(),
            placed: Vec::new(),
            draft: Draft { worker: 0, at_ms: 1000, pause_ms: 10_000 },
            phase: Phase::Designing,
            attempts: 0,
            best: None,
            since_ms: now_ms,
        }
    }

    /// The state after `action` on `challenge`.
    pub fn update(&self, challenge: &Challenge, action: Action) -> Attempt {
        let mut next = self.clone();
        let grading = matches!(self.phase, Phase::Grading { .. });
        match action {
            Action::Toggle(_) | Action::Place | Action::Remove(_) if grading => {}
            Action::Toggle(id) => {
                if let Some(i) = next.chosen.iter().position(|c| *c == id) {
                    next.chosen.remove(i);
                } else {
                    let rivals = challenge.rivals(&id);
                    next.chosen.retain(|c| !rivals.contains(&c.as_str()));
                    next.chosen.push(id);
                }
                next.chosen.sort_by_key(|c| challenge.option_index(c));
                next.phase = Phase::Designing;
            }
            Action::Draft(draft) => next.draft = draft,
            Action::Place => {
                if next.placed.len() < challenge.budget() {
                    next.placed.push(Fault::Pause {
                        worker: WorkerId::at(next.draft.worker),
                        at_ms: next.draft.at_ms,
                        pause_ms: next.draft.pause_ms.max(1),
                    });
                    next.phase = Phase::Designing;
                }
            }
            Action::Remove(i) => {
                if i < next.placed.len() {
                    next.placed.remove(i);
                    next.phase = Phase::Designing;
                }
            }
            Action::Check { now_ms } if !grading => {
                next.attempts += 1;
                next.phase = Phase::Grading { n: next.attempts };
                next.since_ms = now_ms;
            }
            Action::Check { .. } => {}
            Action::Graded { n, grade } => {
                if self.phase != (Phase::Grading { n }) {
                    return next;
                }
                if let Some(score) = solved_score(&grade)
                    && next.best.is_none_or(|best| better(score, best))
                {
                    next.best = Some(score);
                }
                next.phase = Phase::Graded(grade);
            }
        }
        next
    }

    /// The attempt being graded, if one is: its number.
    pub fn grading(&self) -> Option<u32> {
        match self.phase {
            Phase::Grading { n } => Some(n),
            _ => None,
        }
    }

    /// The learner's design in SCORM's `performance` form: each option with `true` or
    /// `false` (`one-script[.]true[,]watchdog[.]false`), or each placed pause as
    /// `pause[.]<worker>@<at_ms>+<pause_ms>`.
    pub fn response(&self, challenge: &Challenge) -> String {
        match &challenge.kind {
            Kind::Fix { options, .. } => options
                .iter()
                .map(|o| format!("{}[.]{}", o.id, self.chosen.contains(&o.id)))
                .collect::<Vec<_>>()
                .join("[,]"),
            Kind::Break { .. } => self
                .placed
                .iter()
                .filter_map(|f| match f {
                    Fault::Pause { worker, at_ms, pause_ms } => Some(format!(
                        "pause[.]{}@{at_ms}+{pause_ms}",
                        challenge.worker_name(*worker)
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("[,]"),
        }
    }
}

/// A solved attempt's score, `(par, spent)`: a fix's cost or the faults a break used
/// against the par (`spent` is at least `par`, and equal at par).
pub fn solved_score(grade: &Grade) -> Option<(u32, u32)> {
    match grade {
        Grade::Fix(FixResult::Safe { cost, par, .. }) => Some((*par, (*cost).max(*par))),
        Grade::Break(BreakResult::Broken { used, par }) => {
            let used = u32::try_from(*used).unwrap_or(u32::MAX);
            let par = u32::try_from(*par).unwrap_or(u32::MAX);
            Some((par, used.max(par)))
        }
        _ => None,
    }
}

/// A score as a fraction of full marks (1 at par), for LMS reports.
pub fn scaled((par, spent): (u32, u32)) -> f64 {
    if spent == 0 { 1.0 } else { f64::from(par) / f64::from(spent) }
}

/// Whether solved score `new` beats `kept` (nearer par); a tie keeps the one kept. The
/// page, the stored list and a SCORM session all keep the best this way.
pub fn better(new: (u32, u32), kept: (u32, u32)) -> bool {
    scaled(new) > scaled(kept)
}
