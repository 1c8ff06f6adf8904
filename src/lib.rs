//! Fencing Token Playground: a deterministic, in-browser model of a Redis lease lock, its
//! `INCR` fencing counter and the SQL conditional update that fences stale writers.
//!
//! Everything outside `ui` is pure Rust with no web crate, tested natively with `cargo test`;
//! `ui` is the thin Yew shell that renders a trace and dispatches actions.
//! See ARCHITECTURE.md for the codemap and the invariants.

pub mod catalogue;
pub mod challenge;
pub mod cmi5;
pub mod compare;
pub mod console;
pub mod embed;
pub mod explore;
pub mod export;
pub mod i18n;
pub mod lang;
pub mod markup;
pub mod path;
pub mod player;
pub mod progress;
pub mod quiz;
pub mod route;
pub mod sandbox;
pub mod scorm;
pub mod search;
pub mod sim;
pub mod timeline;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod verdict;
pub mod whatif;
pub mod workload;
pub mod xapi;
