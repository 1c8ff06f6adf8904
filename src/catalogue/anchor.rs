//! Anchors: which event of a trace a lesson's anchor names (the `nth` event of a kind, by
//! an actor, or the first event at or after a time), for the narration, the facts, the
//! prompts and the quiz alike.
//!
//! Owns the matching only; pure: it reads a trace and never runs the model.

use crate::catalogue::lesson::Anchor;
use crate::sim::Trace;

/// The event an anchor names, if the trace has it.
pub fn find(trace: &Trace, anchor: &Anchor) -> Option<usize> {
    if let Some(at_ms) = anchor.at_ms {
        return trace.events().iter().position(|event| event.at_ms >= at_ms);
    }
    let tag = anchor.event.as_deref()?;
    let nth = usize::try_from(anchor.nth.unwrap_or(1).max(1)).unwrap_or(usize::MAX);
    trace
        .events()
        .iter()
        .enumerate()
        .filter(|(_, event)| event.kind.tag() == tag)
        .filter(|(_, event)| {
            anchor.actor.as_deref().is_none_or(|a| trace.actor_name(event.actor) == a)
        })
        .nth(nth - 1)
        .map(|(index, _)| index)
}
