//! The Yew shell: views that render the pure model and dispatch actions.
//!
//! Views only: no simulation logic, no random numbers and no clocks live here. Effects
//! (listeners, timers, storage) sit in hooks, never in reducers.

mod app;
mod compare;
mod crash;
mod embed;
mod explore;
mod home;
mod hooks;
mod i18n;
mod not_found;
pub(crate) mod player;
mod quiz;
mod sandbox;
mod share;

pub use app::App;
pub use i18n::install_pack;
pub use share::custom_link;

/// Installs the panic panel, honours a `?reset` request, and mounts the app into `<body>`.
pub fn start() {
    crash::install_hook();
    crash::handle_reset_request();
    yew::Renderer::<App>::new().render();
}

/// For the browser tests: shows the panel a panic would show, without panicking.
#[doc(hidden)]
pub fn show_crash_panel_for_test(message: &str) {
    crash::show_panel(message);
}

/// For `scripts/bench`: builds a workload of `n` lock hand-offs, runs it as bare facts
/// (what the explorer's trials run) and returns `[grants, milliseconds]`. Only the run is
/// timed, as in the native benchmark; the model itself never reads a clock.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_handoffs(n: u32) -> Vec<f64> {
    let Some(scenario) = crate::workload::handoff_workload(n as usize) else {
        return vec![0.0, 0.0];
    };
    let performance = web_sys::window().and_then(|w| w.performance());
    let now = || performance.as_ref().map_or(0.0, web_sys::Performance::now);
    let start_ms = now();
    let trace = crate::sim::run_facts(&scenario);
    let grants = crate::workload::grants(&trace);
    let elapsed_ms = now() - start_ms;
    #[allow(clippy::cast_precision_loss)] // far below 2^53 grants
    let grants = grants as f64;
    vec![grants, elapsed_ms]
}
