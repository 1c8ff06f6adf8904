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

/// For `scripts/bench`: runs `n` lock hand-offs in wasm and returns the grants made. The
/// page times the call; the model itself never reads a clock.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_handoffs(n: u32) -> u32 {
    u32::try_from(crate::workload::run_handoffs(n as usize)).unwrap_or(u32::MAX)
}
