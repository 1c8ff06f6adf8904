//! The model gives the same trace in the browser as natively.

use fencing_playground::{catalogue, sim};
use wasm_bindgen_test::wasm_bindgen_test;

/// The same literal as `tests/sim/determinism.rs`; both must change together.
const GOLDEN_GC_PAUSE_FENCED: &str = "56967cfba66a1be2";

#[wasm_bindgen_test]
fn wasm_trace_digest_matches_native() {
    let scenario = catalogue::find("gc-pause-fenced").expect("built-in");
    let trace = sim::run(&scenario);
    assert_eq!(format!("{:016x}", trace.digest()), GOLDEN_GC_PAUSE_FENCED);
}
