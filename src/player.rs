//! Playback over an immutable trace: the cursor, the clock, stepping, play and what-if forks.
//!
//! Owns the rules a learner's controls follow (clamping, semantic steps, stop at the end,
//! forks that keep the time); it is plain data with a pure `update`, tested natively. It
//! never renders and never reads a clock: `Tick` carries the elapsed real time.

use std::rc::Rc;

use crate::catalogue::lesson::Scenario;
use crate::sim::{self, EventKind, Trace};
use crate::whatif::WhatIf;

/// A value shared between the player and the views whose equality is identity, so
/// comparing two players (and Yew props) is O(1) and never walks a trace or a scenario.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

/// The trace a player shows.
pub type TraceRef = Shared<Trace>;

/// The scenario as written, behind a player and its views.
pub type ScenarioRef = Shared<Scenario>;

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(value))
    }
}

// By hand: a derive would ask `T: Clone` for cloning an `Rc`.
impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A title's setup: its part before the colon. Built-ins with prompts are titled
/// "setup: outcome", so wherever the outcome must wait (a prompt ahead, a frame's name, a
/// worksheet, a chapter's list) the setup is what is shown.
pub fn setup_title(title: &str) -> &str {
    title.split([':', '\u{ff1a}']).next().unwrap_or_default().trim()
}

/// Playback speeds, in virtual time per real time, on a logarithmic scale from 0.1x to 10x.
pub const SPEEDS: &[(u32, &str)] = &[
    (100, "0.1x"),
    (200, "0.2x"),
    (500, "0.5x"),
    (1_000, "1x"),
    (2_000, "2x"),
    (5_000, "5x"),
    (10_000, "10x"),
];

/// The default speed index (1x).
pub const SPEED_DEFAULT: usize = 3;

/// Play skips a stretch with no event longer than this (virtual ms) ...
pub const IDLE_MS: u64 = 3_000;
/// ... to this long before the event that ends it.
pub const IDLE_LEAD_MS: u64 = 1_000;

#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// The scenario as written (what "reset" returns to).
    pub original: ScenarioRef,
    /// The what-if parameters applied to it (all `None`: the original).
    pub whatif: WhatIf,
    pub trace: TraceRef,
    /// Events applied: `0..=trace.len()`.
    pub cursor: usize,
    /// The clock shown, in virtual ms. Every event before it is applied; events exactly at
    /// it may or may not be (stepping walks through same-instant events one by one).
    pub time_ms: u64,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// Prediction prompts (indices into the scenario's `prompts`) already answered; every
    /// forward move stops before the event of every other one.
    pub prompts_done: Vec<usize>,
    /// The instructor's "show everything": no stops at prompts, nothing hidden.
    pub reveal: Reveal,
    /// A stretch of the run (virtual ms, both ends included) the learner cannot leave: a
    /// course page that embeds one moment of a lesson.
    pub range_ms: Option<(u64, u64)>,
    /// How the cursor got where it is: tells a run the learner watched to its end from one
    /// a link or the host page moved there.
    pub watch: Watch,
}

/// Who moved the cursor, so `completed` means the learner reached the end.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Watch {
    /// The learner's own moves (or none yet), every prompt on the way answered.
    #[default]
    Learner,
    /// A link or the host page moved the clock last (a quiz's "Show me", a `seek`).
    Jumped,
    /// A jump passed a prompt the learner never answered; this lasts until the run starts
    /// again from the beginning.
    SkippedPrompt,
}

/// Whether the player keeps a prompt's answer hidden until the learner reaches it.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Reveal {
    /// The learner's view: outcome and future marks hidden until every prompt ahead has
    /// been answered, and every forward move stops at an unanswered prompt.
    #[default]
    AsYouGo,
    /// The instructor's view: everything shown, nothing stops.
    Everything,
}

/// What a control asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Move the clock to a time (the scrubber); all events at or before it are applied.
    SeekTime(u64),
    /// Move to a time a link or the host page names: the prompts on the way count as
    /// passed (whoever links to a moment means that moment).
    JumpTime(u64),
    /// Apply exactly this many events (a click on an event).
    SeekCursor(usize),
    StepForward,
    StepBack,
    /// To the next or previous event that matters (grant, expiry, pause, write, rejection,
    /// violation, warning).
    NextMilestone,
    PrevMilestone,
    First,
    Last,
    Play,
    Pause,
    TogglePlay,
    /// Real milliseconds passed while playing.
    Tick(u64),
    SetSpeed(usize),
    /// Re-run the scenario with these parameters, keeping the clock.
    Fork(WhatIf),
    /// Back to the original scenario, keeping the clock.
    Reset,
    /// The learner answered prediction prompt `i`: one step on, to the moment predicted.
    ContinueAfterPrompt(usize),
    SetReveal(Reveal),
    /// Keep the clock within `from..=to` (and move it there).
    SetRange(u64, u64),
}

impl Player {
    pub fn new(scenario: Scenario) -> Player {
        let trace = TraceRef::new(sim::run(&scenario.setup));
        Player {
            original: ScenarioRef::new(scenario),
            whatif: WhatIf::default(),
            trace,
            cursor: 0,
            time_ms: 0,
            playing: false,
            speed: SPEED_DEFAULT,
            prompts_done: Vec::new(),
            reveal: Reveal::AsYouGo,
            range_ms: None,
            watch: Watch::Learner,
        }
    }

    /// A player opened at a time (a permalink's `t=`).
    pub fn at_time(scenario: Scenario, t_ms: u64) -> Player {
        Player::new(scenario).update(Action::SeekTime(t_ms))
    }

    /// The last time worth showing: the last event (the scrubber's maximum).
    pub fn end_ms(&self) -> u64 {
        self.trace.end_ms()
    }

    /// The event the learner is looking at: the last one applied.
    pub fn current_event(&self) -> Option<&sim::Event> {
        self.cursor.checked_sub(1).and_then(|i| self.trace.events().get(i))
    }

    pub fn update(&self, action: Action) -> Player {
        let jump = matches!(action, Action::JumpTime(_) | Action::SetRange(..));
        let answer = matches!(action, Action::ContinueAfterPrompt(_));
        let mut next = self.moved(action);
        next.watch = match self.watch {
            // Playing again from the beginning asks every prompt again.
            _ if next.cursor == 0 && next.prompts_done.is_empty() => Watch::Learner,
            _ if !answer && next.prompts_done.len() > self.prompts_done.len() => {
                Watch::SkippedPrompt
            }
            Watch::SkippedPrompt => Watch::SkippedPrompt,
            _ if next.cursor == self.cursor => self.watch,
            _ if jump => Watch::Jumped,
            _ => Watch::Learner,
        };
        next
    }

    /// Whether the learner reached the end of the run themselves: the end, moved there by
    /// the learner, with no prompt skipped on the way. What `completed` reports.
    pub fn watched_to_end(&self) -> bool {
        self.cursor == self.trace.len() && self.cursor > 0 && self.watch == Watch::Learner
    }

    /// The cursor and clock after `action`, within the stretch.
    fn moved(&self, action: Action) -> Player {
        if let Action::SetRange(from, to) = action {
            let from = from.min(self.end_ms());
            let next = Player { range_ms: Some((from, to.max(from))), ..self.clone() };
            return next.apply(Action::JumpTime(from));
        }
        let next = self.apply(action);
        // Out of the stretch: back to its nearer end (the prompts on the way count as
        // passed, as for a link's time), and playing stops at its end.
        match next.range_ms {
            Some((from, _)) if next.time_ms < from => next.apply(Action::JumpTime(from)),
            Some((_, to)) if next.time_ms > to => next.apply(Action::JumpTime(to)),
            _ => next,
        }
    }

    /// Longer than 100 lines: one short arm per action, each the rule that control follows.
    fn apply(&self, action: Action) -> Player {
        let mut next = self.clone();
        let n = self.trace.len();
        match action {
            Action::SeekTime(t) => {
                let t = t.min(self.end_ms());
                next.time_ms = t;
                next.cursor = self.trace.cursor_at_time(t);
                next.playing = false;
            }
            Action::JumpTime(t) => {
                let t = t.min(self.end_ms());
                next.time_ms = t;
                next.cursor = self.trace.cursor_at_time(t);
                next.playing = false;
                let cursor = next.cursor;
                for stop in self.pending_stops().into_iter().filter(|&p| p < cursor) {
                    next.pass_prompt_at(stop);
                }
                return next;
            }
            Action::SeekCursor(c) => {
                next.set_cursor(c.min(n));
                next.playing = false;
            }
            Action::StepForward => {
                next.set_cursor((self.cursor + 1).min(n));
                next.playing = false;
            }
            Action::StepBack => {
                next.set_cursor(self.cursor.saturating_sub(1));
                next.playing = false;
            }
            Action::NextMilestone => {
                let found = self.trace.events()[self.cursor.min(n)..]
                    .iter()
                    .position(|e| is_milestone(&e.kind));
                next.set_cursor(found.map_or(n, |i| self.cursor + i + 1));
                next.playing = false;
            }
            Action::PrevMilestone => {
                // The milestone before the current one (the current event is index cursor-1).
                let before = self.cursor.saturating_sub(1);
                let found =
                    self.trace.events()[..before].iter().rposition(|e| is_milestone(&e.kind));
                next.set_cursor(found.map_or(0, |i| i + 1));
                next.playing = false;
            }
            Action::First => {
                next.set_cursor(0);
                next.playing = false;
            }
            Action::Last => {
                next.set_cursor(n);
                next.playing = false;
            }
            Action::Play => next.start_playing(),
            Action::Pause => next.playing = false,
            Action::TogglePlay if self.playing => next.playing = false,
            Action::TogglePlay => next.start_playing(),
            Action::Tick(real_ms) => {
                if self.playing {
                    let speed_per_mille = u64::from(SPEEDS[self.speed.min(SPEEDS.len() - 1)].0);
                    let advance = real_ms.saturating_mul(speed_per_mille) / 1_000;
                    let mut t = self.time_ms.saturating_add(advance.max(1)).min(self.end_ms());
                    // A quiet stretch (nothing happens for more than IDLE_MS) is skipped to
                    // IDLE_LEAD_MS before its next event: play does not sit through a 39 s
                    // pause at 1x. The scrubber keeps real milliseconds.
                    let next_at = self.trace.events().get(self.cursor).map(|e| e.at_ms);
                    if let Some(next_at) =
                        next_at.filter(|&at| at > t && at - self.time_ms > IDLE_MS)
                    {
                        t = t.max(next_at - IDLE_LEAD_MS);
                    }
                    next.time_ms = t;
                    next.cursor = self.trace.cursor_at_time(t);
                    // Play stops at the end instead of wrapping.
                    if t >= self.end_ms() {
                        next.cursor = n;
                        next.playing = false;
                    }
                    // ... and just before the event of an unanswered prediction prompt, the
                    // clock a millisecond short of it: at the event's own time the drawing
                    // and the readouts (a lock's TTL, a key gone) would show the answer.
                    if let Some(stop) = self.stop_between(self.cursor, next.cursor) {
                        next.cursor = stop;
                        let events = self.trace.events();
                        let (at_ms, applied_ms) = (
                            events[stop].at_ms,
                            stop.checked_sub(1).map_or(0, |i| events[i].at_ms),
                        );
                        next.time_ms = at_ms.saturating_sub(1).max(applied_ms).min(at_ms);
                        next.playing = false;
                    }
                }
                return next;
            }
            Action::SetSpeed(i) => next.speed = i.min(SPEEDS.len() - 1),
            Action::Fork(whatif) => next.rerun(whatif),
            Action::Reset => next.rerun(WhatIf::default()),
            Action::ContinueAfterPrompt(i) => {
                if !next.prompts_done.contains(&i) {
                    next.prompts_done.push(i);
                }
                next.set_cursor((self.cursor + 1).min(n));
                next.playing = false;
            }
            Action::SetReveal(reveal) => next.reveal = reveal,
            // Handled by `update`.
            Action::SetRange(..) => {}
        }
        // No move forward passes an unanswered prompt: it stops just before its event.
        if let Some(stop) = next.stop_between(self.cursor, next.cursor) {
            next.set_cursor(stop);
            next.playing = false;
        }
        next
    }

    /// Whether the page must keep the run's outcome to itself: an unanswered prompt lies
    /// ahead (its answer would show in the verdict, the summary or the future marks).
    pub fn hides_outcome(&self) -> bool {
        self.pending_stops().iter().any(|&p| p >= self.cursor)
    }

    /// The first unanswered prompt's stop in `from..to` (a forward move between them).
    fn stop_between(&self, from: usize, to: usize) -> Option<usize> {
        if to <= from {
            return None;
        }
        self.pending_stops().into_iter().find(|&p| p >= from && p < to)
    }

    /// Marks the prompts anchored at cursor position `stop` as passed.
    fn pass_prompt_at(&mut self, stop: usize) {
        for (i, p) in self.original.prompts.iter().enumerate() {
            let here = crate::catalogue::anchor::find(&self.trace, &p.at) == Some(stop);
            if here && !self.prompts_done.contains(&i) {
                self.prompts_done.push(i);
            }
        }
    }

    /// Cursor positions (the anchor event's index) of prompts not yet answered, in order
    /// (none when the instructor shows everything).
    pub fn pending_stops(&self) -> Vec<usize> {
        if self.reveal == Reveal::Everything {
            return Vec::new();
        }
        let mut stops: Vec<usize> = self
            .original
            .prompts
            .iter()
            .enumerate()
            .filter(|(i, p)| !self.prompts_done.contains(i) && self.prompt_applies(p))
            .filter_map(|(_, p)| crate::catalogue::anchor::find(&self.trace, &p.at))
            .collect();
        crate::sim::sorted::sort(&mut stops);
        stops
    }

    /// The prompt to show now: an unanswered one whose event is the next to happen.
    pub fn prompt_due(&self) -> Option<usize> {
        if self.reveal == Reveal::Everything {
            return None;
        }
        self.original.prompts.iter().enumerate().find_map(|(i, p)| {
            let due = !self.prompts_done.contains(&i)
                && crate::catalogue::anchor::find(&self.trace, &p.at) == Some(self.cursor)
                && self.prompt_applies(p);
            due.then_some(i)
        })
    }

    /// Whether a prompt still asks about this run: a what-if fork in which its facts no
    /// longer hold would make its answer key wrong, so it is not asked.
    fn prompt_applies(&self, prompt: &crate::catalogue::lesson::Prompt) -> bool {
        prompt.facts.iter().all(|f| crate::catalogue::facts::holds(&self.trace, f))
    }

    fn start_playing(&mut self) {
        // Playing from the end starts again from the beginning (and asks again).
        if self.cursor >= self.trace.len() {
            self.set_cursor(0);
            self.prompts_done.clear();
        }
        self.playing = !self.trace.is_empty();
    }

    fn set_cursor(&mut self, cursor: usize) {
        self.cursor = cursor;
        self.time_ms = match cursor {
            0 => 0,
            c => self.trace.events()[c - 1].at_ms,
        };
    }

    fn rerun(&mut self, whatif: WhatIf) {
        let scenario = whatif.apply(&self.original);
        self.trace = TraceRef::new(sim::run(&scenario.setup));
        self.whatif = whatif;
        let t = self.time_ms.min(self.trace.end_ms());
        self.time_ms = t;
        self.cursor = self.trace.cursor_at_time(t);
    }
}

/// Events a semantic step stops at.
pub fn is_milestone(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Granted { .. }
            | EventKind::LockSet
            | EventKind::Expired { .. }
            | EventKind::Paused { .. }
            | EventKind::Hung { .. }
            | EventKind::Wrote { .. }
            | EventKind::ObjectRejected { .. }
            | EventKind::ObjectHead { stale: true, .. }
            | EventKind::Violation { .. }
            | EventKind::Warning { .. }
            | EventKind::NodeCrashed { .. }
            | EventKind::Promoted
            | EventKind::ClockJumped { .. }
    )
}

#[cfg(test)]
mod tests;
