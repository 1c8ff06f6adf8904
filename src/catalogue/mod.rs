//! The built-in scenarios (the curriculum), looked up by id.
//!
//! Owns the list and its chapters; it must not simulate (callers run `sim::run`).

use crate::sim::Scenario;

pub mod builtin;
pub mod codec;
pub mod facts;
pub mod load;
pub mod narration;

/// Every built-in scenario, in curriculum order.
pub fn all() -> Vec<Scenario> {
    builtin::all()
}

/// Built-ins that were renamed, old id first: links and embeds made before keep working.
pub const RENAMED: &[(&str, &str)] = &[("failover-consensus-counter", "consensus-lock-revision")];

/// The built-in scenario with this id (or the one it was renamed to).
pub fn find(id: &str) -> Option<Scenario> {
    let id = RENAMED.iter().find(|(old, _)| *old == id).map_or(id, |(_, new)| *new);
    all().into_iter().find(|scenario| scenario.id == id)
}
