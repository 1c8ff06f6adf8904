//! The pure model: Redis nodes, the SQL fence, workers and faults, run in virtual time.
//!
//! Contract: [`run`] is a pure function of the [`Scenario`] (seed included) and returns an
//! immutable [`Trace`]; the same input gives the same trace byte for byte on every
//! platform. Nothing in this module reads a clock, the OS, the network or the browser, and
//! it never imports yew, web-sys, js-sys, gloo, wasm-bindgen or `std::time` (a native test
//! in `tests/sim/tidy.rs` enforces this). No floats or hash-ordered maps affect a trace.

pub mod check;
pub mod event;
pub mod id;
pub mod order;
pub mod prng;
pub mod redis;
pub mod render;
pub mod scenario;
pub mod script;
pub mod sql;
pub mod state;
pub mod token;
pub mod trace;
pub mod world;

pub use event::{Actor, Event, EventKind, Property, WarningKind};
pub use id::{NodeId, WorkerId};
pub use scenario::Scenario;
pub use trace::{Summary, Trace};

/// Runs a scenario and keeps a state frame per event (what the player scrubs through).
pub fn run(scenario: &Scenario) -> Trace {
    let output = world::run(scenario, world::Recording::Frames);
    Trace::new(scenario.clone(), output)
}

/// Runs a scenario keeping only the events (for summaries, exports and the CLI).
pub fn run_events_only(scenario: &Scenario) -> Trace {
    end_state_only(scenario, world::run(scenario, world::Recording::EventsOnly))
}

/// Runs a scenario keeping the events without their prose (see [`world::Recording::Facts`]):
/// what many trials need. Kinds, times, actors, peers, causes and findings are those of
/// [`run_events_only`]; `render` of such a trace shows no commands or replies.
pub fn run_facts(scenario: &Scenario) -> Trace {
    end_state_only(scenario, world::run(scenario, world::Recording::Facts))
}

fn end_state_only(scenario: &Scenario, mut output: world::Output) -> Trace {
    // One frame (the end state) keeps `state_at` meaningful.
    output.frames = vec![output.final_state.clone()];
    Trace::new(scenario.clone(), output)
}
