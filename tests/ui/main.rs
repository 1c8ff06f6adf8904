//! Browser tests of the web shell (wasm-bindgen-test in headless Chromium and Firefox).
//! They mount the real app into a fresh element and check what a learner would see; model
//! behaviour is proven natively in `tests/sim`.
#![cfg(target_arch = "wasm32")]

mod break_it;
mod challenge;
mod course;
mod determinism;
mod explore;
mod language;
mod learning;
mod player;
mod sandbox;
mod shell;
mod support;
mod teaching;

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
