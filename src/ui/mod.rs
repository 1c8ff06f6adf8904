//! The Yew shell: views that render the pure model and dispatch actions.
//!
//! Views only: no simulation logic, no random numbers and no clocks live here. Effects
//! (listeners, timers, storage) sit in hooks, never in reducers.

mod app;
mod compare;
mod home;
mod hooks;
mod not_found;
mod player;

pub use app::App;

/// Mounts the app into the page's `<body>`.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
