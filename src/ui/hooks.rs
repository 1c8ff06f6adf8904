//! Effects for the views: the playback timer (the only place a timer exists), content
//! loaded once it has arrived (lessons, the quiz's questions), the timeline's scroll
//! following the cursor on a narrow screen, and the page's word that a newer deploy is
//! ready. No view state lives here.

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

/// Keeps the cursor in view in a drawing wider than its box (a phone): when `moved`
/// changes and the cursor, at `at` of the drawing's width, is outside the visible part
/// right of the pinned lane names (`names` of the width), the box scrolls to put it at
/// two fifths of that part, so what just happened and what comes next are both in view.
/// A box that is not scrolled sideways is left alone, and so is a learner's own swipe
/// until the cursor moves.
#[hook]
pub(crate) fn use_follow_cursor<M: PartialEq + 'static>(
    scroller: NodeRef,
    moved: M,
    at: f64,
    names: f64,
) {
    use_effect_with(moved, move |_| {
        if let Some(el) = scroller.cast::<web_sys::Element>() {
            let (width, shown) = (f64::from(el.scroll_width()), f64::from(el.client_width()));
            if width > shown + 1.0 {
                let (x, names_px, left) = (at * width, names * width, f64::from(el.scroll_left()));
                let margin = 12.0;
                if x < left + names_px + margin || x > left + shown - margin {
                    let target = x - names_px - (shown - names_px) * 0.4;
                    el.set_scroll_left(target.max(0.0) as i32);
                }
            }
        }
        || ()
    });
}

/// Keys pressed with no element focused (the target is the page's body): `on_key` gets
/// them while the component is mounted. Keys aimed at an element are that element's.
#[hook]
pub(crate) fn use_page_keys(on_key: Callback<KeyboardEvent>) {
    use wasm_bindgen::JsCast;
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            gloo_events::EventListener::new(&document, "keydown", move |e| {
                let on_page = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_none_or(|el| matches!(el.tag_name().as_str(), "BODY" | "HTML"));
                if on_page && let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                    on_key.emit(e.clone());
                }
            })
        });
        move || drop(listener)
    });
}
