//! The Yew shell: views that render the pure model and dispatch actions.
//!
//! Views only: no simulation logic, no random numbers and no clocks live here. Effects
//! (listeners, timers, storage) sit in hooks, never in reducers.

mod app;
mod compare;
mod embed;
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

/// Mounts the app into the page's `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// For `scripts/bench`: runs `n` lock hand-offs in wasm and returns the grants made. The
/// page times the call; the model itself never reads a clock.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_handoffs(n: u32) -> u32 {
    u32::try_from(crate::workload::run_handoffs(n as usize)).unwrap_or(u32::MAX)
}
