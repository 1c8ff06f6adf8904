//! Effects for the views: the playback timer (the only place a timer exists), content
//! loaded once it has arrived (lessons, the quiz's questions), and the page's word that a
//! newer deploy is ready. No view state lives here.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::player::Action;

/// What `load` gives for `key`: `None` while it runs, and while the result in hand is for
/// an earlier key (the view moved on). `at_hand` answers at once when it can, so a bundle
/// that carries the content renders it on its first pass.
#[hook]
pub(crate) fn use_loaded<K, T, Fut>(
    key: K,
    at_hand: fn(&K) -> Option<T>,
    load: fn(K) -> Fut,
) -> Option<T>
where
    K: Clone + PartialEq + 'static,
    T: Clone + 'static,
    Fut: std::future::Future<Output = T> + 'static,
{
    let loaded = use_state(|| at_hand(&key).map(|t| (key.clone(), t)));
    {
        let loaded = loaded.clone();
        use_effect_with(key.clone(), move |key| {
            if loaded.as_ref().is_none_or(|(for_key, _)| for_key != key) {
                let key = key.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let result = load(key.clone()).await;
                    loaded.set(Some((key, result)));
                });
            }
            || ()
        });
    }
    (*loaded).clone().filter(|(for_key, _)| *for_key == key).map(|(_, t)| t)
}

/// Real milliseconds between playback ticks.
pub(crate) const TICK_MS: u32 = 50;

/// While `playing`, sends `Tick` every [`TICK_MS`]; the interval is dropped on pause or unmount.
#[hook]
pub(crate) fn use_autoplay(playing: bool, on_action: Callback<Action>) {
    use_effect_with(playing, move |&playing| {
        let interval = playing.then(|| {
            Interval::new(TICK_MS, move || on_action.emit(Action::Tick(u64::from(TICK_MS))))
        });
        move || drop(interval)
    });
}

/// Whether a newer deploy of the site is ready (its service worker installed while this page
/// runs the previous one, or another tab already switched to it). The pages' inline script
/// watches the service worker, since it must run before and without the app; it sets
/// `fpUpdate` and fires `fp-update`, and `apply_update` asks it to switch and reload.
#[hook]
pub(crate) fn use_update_ready() -> bool {
    let ready = use_state(update_pending);
    {
        let ready = ready.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                gloo_events::EventListener::new(&window, "fp-update", move |_| ready.set(true))
            });
            move || drop(listener)
        });
    }
    *ready
}

/// The learner accepted the new version: the inline script lets the waiting worker take
/// over and reloads once it has (or reloads at once if it already has).
pub(crate) fn apply_update() {
    if let (Some(window), Ok(event)) = (web_sys::window(), web_sys::Event::new("fp-update-apply")) {
        let _ = window.dispatch_event(&event);
    }
}

/// The inline script may have found the waiting worker before the app mounted.
fn update_pending() -> bool {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"fpUpdate".into()).ok())
        .is_some_and(|v| v.is_truthy())
}
