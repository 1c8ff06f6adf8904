//! The model gives the same trace and the same export in the browser as natively.

use fencing_playground::{catalogue, export, sim};
use wasm_bindgen_test::wasm_bindgen_test;

include!("../golden/pins.rs");

#[wasm_bindgen_test]
fn wasm_trace_digest_matches_native() {
    let scenario = catalogue::find("gc-pause-fenced").expect("built-in");
    let trace = sim::run(&scenario.setup);
    assert_eq!(format!("{:016x}", trace.digest()), GOLDEN_GC_PAUSE_FENCED);
}

#[wasm_bindgen_test]
fn wasm_export_is_byte_identical_to_fence_run_json() {
    // tests/golden/ holds `fence run failover-duplicate-token --format json`, checked natively.
    let scenario = catalogue::find("failover-duplicate-token").expect("built-in");
    let json = export::trace_json(&sim::run(&scenario.setup), &scenario.id);
    assert_eq!(json, include_str!("../golden/failover-duplicate-token.json"));
    // And every built-in's export hashes to the native value.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for scenario in catalogue::all() {
        for byte in export::trace_json(&sim::run(&scenario.setup), &scenario.id).bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    assert_eq!(format!("{hash:016x}"), GOLDEN_ALL_EXPORTS);
}
