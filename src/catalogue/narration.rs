//! Narration: pins each paragraph of a scenario's story to an event of its trace.
//!
//! Owns the story's order and where a what-if run departs from it (a paragraph whose facts
//! no longer hold, `catalogue::facts`); anchors are matched by `catalogue::anchor`. Pure:
//! it reads a trace and never runs the model.

use crate::catalogue::anchor;
use crate::catalogue::lesson::Scenario;
use crate::sim::Trace;

/// Each narration paragraph's event index, in event order; `None` for anchors that do not
/// resolve (a native test keeps the built-ins free of those).
pub fn resolve(trace: &Trace, lesson: &Scenario) -> Vec<(usize, Option<usize>)> {
    let mut resolved: Vec<(usize, Option<usize>)> = lesson
        .narration
        .iter()
        .enumerate()
        .map(|(i, narration)| (i, anchor::find(trace, &narration.at)))
        .collect();
    crate::sim::sorted::sort_by_key(&mut resolved, |&(i, event)| (event.unwrap_or(usize::MAX), i));
    resolved
}

/// The narration to show at `cursor` (after `cursor` events): the latest paragraph whose
/// event has happened, as (paragraph index, its event index).
pub fn at_cursor(trace: &Trace, lesson: &Scenario, cursor: usize) -> Option<(usize, usize)> {
    resolve(trace, lesson)
        .into_iter()
        .filter_map(|(i, event)| Some((i, event?)))
        .rfind(|&(_, event)| event < cursor)
}

/// What the story tells at `cursor`: the paragraph of the latest event that has happened,
/// or that the run departed from the lesson (a what-if fork in which this paragraph, or one
/// told before it, no longer holds).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Told {
    Paragraph(usize),
    Departed,
}

/// The story at `cursor` (see [`Told`]); `None` before the first paragraph's event.
pub fn told_at(trace: &Trace, lesson: &Scenario, cursor: usize) -> Option<Told> {
    told_with_event(trace, lesson, cursor).map(|(told, _)| told)
}

/// The story for the step at `cursor`: a paragraph only at the instant of its event, so the
/// next steps (a release, a finish) do not repeat it, with the index of that event (the
/// caller tells the paragraph's own step from a later one of the same instant); `None` at
/// steps the story does not speak of.
pub fn told_now(trace: &Trace, lesson: &Scenario, cursor: usize) -> Option<(Told, usize)> {
    let current = trace.events().get(cursor.checked_sub(1)?)?;
    told_with_event(trace, lesson, cursor)
        .filter(|&(_, event)| trace.events()[event].at_ms == current.at_ms)
}

/// The story at `cursor` and the event its paragraph is pinned to, from one resolve.
fn told_with_event(trace: &Trace, lesson: &Scenario, cursor: usize) -> Option<(Told, usize)> {
    let resolved = resolve(trace, lesson);
    let (i, event) = resolved
        .iter()
        .filter_map(|&(i, event)| Some((i, event?)))
        .rfind(|&(_, event)| event < cursor)?;
    let place = resolved.iter().position(|&(j, _)| j == i)?;
    let holds = resolved[..=place]
        .iter()
        .all(|&(j, _)| crate::catalogue::facts::narration_holds(trace, lesson, j));
    Some((if holds { Told::Paragraph(i) } else { Told::Departed }, event))
}
