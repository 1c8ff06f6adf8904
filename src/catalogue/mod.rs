//! The built-in scenarios (the curriculum), looked up by id.
//!
//! Owns the list and its chapters; it must not simulate (callers run `sim::run`).

use crate::sim::Scenario;

pub mod builtin;
pub mod codec;
pub mod load;
pub mod narration;

/// Every built-in scenario, in curriculum order.
pub fn all() -> Vec<Scenario> {
    builtin::all()
}

/// The built-in scenario with this id.
pub fn find(id: &str) -> Option<Scenario> {
    all().into_iter().find(|scenario| scenario.id == id)
}
