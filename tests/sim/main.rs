//! Native tests of everything outside `src/ui` (one binary: `cargo test --test sim`).
#![cfg(not(target_arch = "wasm32"))]

mod catalogue; // every built-in parses, runs, shows its promised outcome and is narrated
mod cli; // the fence binary: output, exit codes, bad input
mod compare; // the compare view: fencing fences on every built-in
mod determinism;
mod explore_fp;
mod i18n; // every message in every language, same placeholders
mod lessons; // every sentence a lesson says about its run is declared and checked
mod quiz; // the quiz bank: every answer key proven by the simulator
mod stories; // the seed articles' timelines, exactly, and the failover and non-atomic traps
mod support; // the check helper, scenario builders and the seed loop
mod tidy;
mod workers; // the explorer's and the search's worker messages stay apart // architecture invariants: the pure core imports no web crate and no clock
