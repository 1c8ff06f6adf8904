//! The Yew shell: views that render the pure model and dispatch actions.
//!
//! Views only: no simulation logic, no random numbers and no clocks live here. Effects
//! (listeners, timers, storage) sit in hooks, never in reducers.

mod app;
mod break_it;
mod browser;
mod challenge;
mod cmi5;
mod compare;
mod course;
mod crash;
mod embed;
mod explore;
mod explore_pool;
mod handout;
mod home;
mod hooks;
mod i18n;
mod lessons;
mod nav;
mod not_found;
mod picker;
pub(crate) mod player;
mod quiz;
mod sandbox;
mod search_pool;
mod share;

pub use app::{AllPages, App, CoursePages, ExplorePages, LabPages, MainPages, Pages};
pub use i18n::install_pack;
pub use share::custom_link;

/// `index.html`'s entry: installs the panic panel, honours a `?reset` request, and mounts
/// the main page's app into `<body>`.
pub fn start() {
    crash::install_hook();
    crash::handle_reset_request();
    yew::Renderer::<App<MainPages>>::new().render();
    crash::prepare_panel();
}

/// `lab.html`'s entry: the same, mounting the lab's app.
pub fn start_lab() {
    crash::install_hook();
    crash::handle_reset_request();
    yew::Renderer::<App<LabPages>>::new().render();
    crash::prepare_panel();
}

/// `explore.html`'s entry: the same, mounting the explorer's app.
pub fn start_explore() {
    crash::install_hook();
    crash::handle_reset_request();
    yew::Renderer::<App<ExplorePages>>::new().render();
    crash::prepare_panel();
}

/// `course.html`'s entry (a SCO of a course package): the same, after opening the SCORM
/// session its launch page describes.
pub fn start_course() {
    crash::install_hook();
    crash::handle_reset_request();
    course::start();
    yew::Renderer::<App<CoursePages>>::new().render();
    crash::prepare_panel();
}

/// For the browser tests: shows the panel a panic would show, without panicking.
#[doc(hidden)]
pub fn show_crash_panel_for_test(message: &str) {
    crash::show_panel(message);
}

/// The event index an event landed on, from the nearest element with `attribute` (the
/// text views' `data-seek` links, the timeline's `data-id` marks): the views written as
/// strings share one listener each.
pub(crate) fn index_at(target: Option<web_sys::EventTarget>, attribute: &str) -> Option<usize> {
    use wasm_bindgen::JsCast;
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest(&format!("[{attribute}]")).ok().flatten())
        .and_then(|el| el.get_attribute(attribute))
        .and_then(|id| id.parse().ok())
}

/// localStorage, if this page may use it: a third-party frame may find it throwing,
/// missing or full, so a probe write decides (every stored thing goes through here).
pub(crate) fn local_storage() -> Option<web_sys::Storage> {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten())?;
    storage.set_item("fencing-playground/probe", "1").ok()?;
    let _ = storage.remove_item("fencing-playground/probe");
    Some(storage)
}

/// The one door from text to the page: a [`crate::markup::Markup`], whose names are
/// constants and whose values and text were escaped as it was written.
pub(crate) fn markup(m: crate::markup::Markup) -> yew::Html {
    yew::Html::from_html_unchecked(m.into_string().into())
}
