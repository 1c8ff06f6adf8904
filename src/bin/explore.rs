//! Entry point of `explore.html` (the risk explorer): mounts its Yew root. A bundle of its
//! own, built for speed (`[profile.explore]`), so the lab's can be built for size.

#[cfg(target_arch = "wasm32")]
fn main() {
    fencing_playground::ui::start_explore();
}

/// For `scripts/bench` (in the explorer's bundle: the one built for speed, which the explorer's trials run in): builds a
/// workload of `n` lock hand-offs, runs it as bare facts (what the explorer's trials run)
/// and returns `[grants, milliseconds]`. Only the run is timed, as in the native
/// benchmark; the model itself never reads a clock.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_handoffs(n: u32) -> Vec<f64> {
    let scenario = fencing_playground::workload::handoff_workload(n as usize);
    let performance = web_sys::window().and_then(|w| w.performance());
    let now = || performance.as_ref().map_or(0.0, web_sys::Performance::now);
    let start_ms = now();
    let trace = fencing_playground::sim::run_facts(&scenario);
    let grants = fencing_playground::workload::grants(&trace);
    let elapsed_ms = now() - start_ms;
    #[allow(clippy::cast_precision_loss)] // far below 2^53 grants
    let grants = grants as f64;
    vec![grants, elapsed_ms]
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "the explorer runs in a browser: use `scripts/serve`, or `cargo run --release --bin fence -- explore` for the command line"
    );
    std::process::exit(2);
}
