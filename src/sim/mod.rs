//! The pure model: Redis nodes, the SQL fence, workers and faults, run in virtual time.
//!
//! Contract: [`run`] is a pure function of a scenario's [`Setup`] (seed included) and
//! returns an immutable [`Trace`]; the same input gives the same trace byte for byte on
//! every platform. The model never sees a lesson's text: narration, prompts and promised
//! outcomes stay with the `Scenario` in `catalogue::lesson`, which this module cannot name
//! (the crate's layers). Nothing in this module reads a clock, the OS, the network or the
//! browser, and it never imports yew, web-sys, js-sys, gloo, wasm-bindgen or `std::time` (a
//! native test in `tests/sim/tidy.rs` enforces this). No floats or hash-ordered maps affect a trace.

pub mod check;
pub mod event;
pub mod id;
pub mod prng;
pub mod redis;
pub mod render;
pub mod scenario;
pub mod script;
pub mod sorted;
pub mod sql;
pub mod state;
pub mod token;
pub mod trace;
pub mod world;

pub use event::{Actor, Event, EventKind, Property, WarningKind};
pub use id::{EventId, LeaseNo, NodeId, WorkerId};
pub use scenario::Setup;
pub use trace::{Summary, Trace};

/// Runs a setup and keeps a state frame per event (what the player scrubs through).
pub fn run(setup: &Setup) -> Trace {
    let output = world::run(setup, world::Recording::Frames);
    Trace::new(setup.clone(), output)
}

/// Runs a setup keeping only the events (for summaries, exports and the CLI).
pub fn run_events_only(setup: &Setup) -> Trace {
    end_state_only(setup, world::run(setup, world::Recording::EventsOnly))
}

/// Runs a setup keeping the events without their prose (see [`world::Recording::Facts`]):
/// what many trials need. Kinds, times, actors, peers, causes and findings are those of
/// [`run_events_only`]; `render` of such a trace shows no commands or replies.
pub fn run_facts(setup: &Setup) -> Trace {
    end_state_only(setup, world::run(setup, world::Recording::Facts))
}

fn end_state_only(setup: &Setup, mut output: world::Output) -> Trace {
    // One frame (the end state) keeps `state_at` meaningful.
    output.frames = vec![output.final_state.clone()];
    Trace::new(setup.clone(), output)
}
