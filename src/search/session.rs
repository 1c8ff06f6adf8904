//! The "try to break it" page's state, pure: the bounds a learner chose (which faults
//! may be added, how many, which properties), and how the search stands. Times come in as
//! arguments; workers are the shell's (`ui::break_it`, `ui::search_pool`).

use super::wire::{Ending, Request, Standing};
use super::{Addition, LEVEL_LIMIT, Space, Vary};
use crate::catalogue::lesson::Scenario;
use crate::sim::event::Property;

/// Every fault the search knows, in the order the form lists them.
pub const PALETTE: [Addition; 7] = [
    Addition::Pause,
    Addition::Crash,
    Addition::LostReply,
    Addition::Delay,
    Addition::Failover,
    Addition::Restart,
    Addition::ClockJump,
];

/// The page's state: the bounds as chosen, and how the search stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Break {
    pub add: Vec<Addition>,
    pub max_added: usize,
    pub vary: Vary,
    pub check: Vec<Property>,
    pub workers: usize,
    /// Bumped by every start, so the hook knows a new search from the same one.
    pub run: u32,
    pub phase: Phase,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Ready,
    Running { standing: Standing, started_ms: f64, now_ms: f64 },
    Cancelled { standing: Standing },
    Ended { ending: Ending, elapsed_ms: f64 },
}

pub enum Action {
    Toggle(Addition),
    Faults(usize),
    Vary(Vary),
    Check(Property),
    Workers(usize),
    Start { now_ms: f64 },
    Standing { standing: Standing, now_ms: f64 },
    Ended { ending: Ending, now_ms: f64 },
    Cancel,
}

impl Break {
    /// The lesson's defaults: its setup's palette, two added faults, its times moved, and
    /// every property its own run keeps (as its expectations declare them).
    pub fn for_lesson(lesson: &Scenario, workers: usize) -> Break {
        let space = Space::for_setup(&lesson.setup);
        let broken: Vec<&str> = lesson
            .expect
            .as_ref()
            .map(|e| e.violations.iter().map(String::as_str).collect())
            .unwrap_or_default();
        let check = Property::ALL.into_iter().filter(|p| !broken.contains(&p.name())).collect();
        Break {
            add: space.add,
            max_added: space.max_added,
            vary: space.vary,
            check,
            workers: workers.min(16),
            run: 0,
            phase: Phase::Ready,
        }
    }

    /// The search the form describes.
    pub fn request(&self) -> Request {
        let add = PALETTE.into_iter().filter(|a| self.add.contains(a)).collect();
        let space =
            Space { vary: self.vary, add, max_added: self.max_added, level_limit: LEVEL_LIMIT };
        let check = Property::ALL.into_iter().filter(|p| self.check.contains(p)).collect();
        Request { space, properties: check }
    }

    /// The search running now, if one is (the hook's key).
    pub fn running(&self) -> Option<u32> {
        matches!(self.phase, Phase::Running { .. }).then_some(self.run)
    }
}

impl Break {
    /// The state after `action`, or none when it changes nothing.
    pub fn update(&self, action: Action) -> Option<Break> {
        let mut next = self.clone();
        let running = matches!(self.phase, Phase::Running { .. });
        match action {
            // The bounds stay as they are while a search runs.
            Action::Toggle(_)
            | Action::Faults(_)
            | Action::Vary(_)
            | Action::Check(_)
            | Action::Workers(_)
                if running =>
            {
                return None;
            }
            Action::Toggle(a) => match next.add.iter().position(|x| *x == a) {
                Some(i) => drop(next.add.remove(i)),
                None => next.add.push(a),
            },
            Action::Faults(k) => next.max_added = k.min(3),
            Action::Vary(vary) => next.vary = vary,
            Action::Check(p) => match next.check.iter().position(|x| *x == p) {
                Some(i) => drop(next.check.remove(i)),
                None => next.check.push(p),
            },
            Action::Workers(n) => next.workers = n.min(16),
            Action::Start { now_ms } if !running && !self.check.is_empty() => {
                next.run += 1;
                let standing = Standing::default();
                next.phase = Phase::Running { standing, started_ms: now_ms, now_ms };
            }
            Action::Start { .. } => return None,
            Action::Standing { standing, now_ms } => match &mut next.phase {
                Phase::Running { standing: s, now_ms: t, .. } => {
                    *s = standing;
                    *t = now_ms;
                }
                _ => return None,
            },
            Action::Ended { ending, now_ms } => match self.phase {
                Phase::Running { started_ms, .. } => {
                    next.phase = Phase::Ended { ending, elapsed_ms: now_ms - started_ms };
                }
                _ => return None,
            },
            Action::Cancel => match self.phase {
                Phase::Running { standing, .. } => next.phase = Phase::Cancelled { standing },
                _ => return None,
            },
        }
        Some(next)
    }
}

/// The progress line's numbers: schedules per second and the seconds left at that rate
/// (none before anything has run).
pub fn rate(standing: &Standing, elapsed_ms: f64) -> Option<(f64, f64)> {
    if standing.run == 0 || elapsed_ms <= 0.0 {
        return None;
    }
    #[allow(clippy::cast_precision_loss)] // schedule counts stay far below 2^53
    let (run, known) = (standing.run as f64, standing.known as f64);
    let per_s = run / (elapsed_ms / 1000.0);
    Some((per_s, ((known - run).max(0.0)) / per_s))
}

#[cfg(test)]
mod tests;
