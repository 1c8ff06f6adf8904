//! Effects for the views: the playback timer (the only place a timer exists), content
//! loaded once it has arrived (lessons, the quiz's questions), the timeline's scroll
//! following the cursor on a narrow screen, keys pressed on the page itself, and scrolling
//! a prediction into view. No view state lives here.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::player::Action;

/// A pure state that a view renders and whose `update` changes it in place: the quiz's
/// session, the explorer's screen, the builder.
pub(crate) trait Update: Clone + PartialEq + 'static {
    type Action;
    fn update(&mut self, action: Self::Action);
}

/// Yew's `Reducible` over such a state (it reads as the state itself).
#[derive(PartialEq)]
pub(crate) struct Reduced<T>(pub(crate) T);

impl<T: Update> Reducible for Reduced<T> {
    type Action = T::Action;
    fn reduce(self: std::rc::Rc<Self>, action: T::Action) -> std::rc::Rc<Self> {
        let mut next = self.0.clone();
        next.update(action);
        std::rc::Rc::new(Reduced(next))
    }
}

impl<T> std::ops::Deref for Reduced<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

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

/// Keeps the cursor in view in the player's drawing when it is wider than its box (a
/// phone): when `moved` changes and the cursor, at `at` of the drawing's width, is outside
/// the visible part right of the pinned lane names (`names` of the width), the box scrolls
/// to put it at two fifths of that part, so what just happened and what comes next are
/// both in view. A box that is not scrolled sideways is left alone, and so is a learner's
/// own swipe until the cursor moves. (Found by its class: a page has one player.)
#[hook]
pub(crate) fn use_follow_cursor<M: PartialEq + 'static>(moved: M, at: f64, names: f64) {
    use_effect_with(moved, move |_| {
        let scroller = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".player .timeline-scroll").ok().flatten());
        if let Some(el) = scroller {
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

/// Keys pressed with focus inside an element matching `within` or on the page itself (its
/// body): `on_key` gets them while the component is mounted.
#[hook]
pub(crate) fn use_page_keys(within: &'static str, on_key: Callback<KeyboardEvent>) {
    use wasm_bindgen::JsCast;
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|document| {
            gloo_events::EventListener::new(&document, "keydown", move |e| {
                let ours = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_none_or(|el| {
                        matches!(el.tag_name().as_str(), "BODY" | "HTML")
                            || el.closest(within).ok().flatten().is_some()
                    });
                if ours && let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                    on_key.emit(e.clone());
                }
            })
        });
        move || drop(listener)
    });
}

/// Scrolls the page's prediction (`.prompt`) just enough to show its end whenever `key`
/// changes and it is not wholly on screen: a prediction appearing below the fold, or its
/// feedback and Continue button under a phone's fixed step controls (the page's CSS gives
/// it the margin to clear them).
#[hook]
pub(crate) fn use_prompt_in_view<K: PartialEq + 'static>(key: K) {
    use_effect_with(key, move |_| {
        let prompt = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(".prompt").ok().flatten());
        if let Some(el) = prompt {
            bring_into_view(&el, false);
        }
        || ()
    });
}

/// Scrolls `el` into view, its top (`top`) or its end, unless it is already on screen.
pub(crate) fn bring_into_view(el: &web_sys::Element, top: bool) {
    let shown = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let rect = el.get_bounding_client_rect();
    if rect.top() < 0.0 || rect.bottom() > shown {
        el.scroll_into_view_with_bool(top);
    }
}

thread_local! {
    /// The lessons of the course package's module this page is (a chapter's, in its order;
    /// none for the quiz's), set at launch: the way on stays inside it.
    static UNIT: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// Makes this page a course package's module with these lessons (see [`unit_lessons`]).
pub(crate) fn set_unit_lessons(lessons: Vec<String>) {
    UNIT.with(|u| *u.borrow_mut() = Some(lessons));
}

/// The lessons of the module this page is, when it is one.
pub(crate) fn unit_lessons() -> Option<Vec<String>> {
    UNIT.with(|u| u.borrow().clone())
}

/// The lessons this browser has finished, read from storage at each render (a small
/// string; a record that cannot be read counts as none: see [`crate::path::Finished::read`]).
pub(crate) fn finished() -> crate::path::Finished {
    // Only a read: no probe write (as `local_storage` makes) at each step of a lesson.
    web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(crate::path::STORAGE_KEY).ok().flatten())
        .map(|text| crate::path::Finished::read(&text))
        .unwrap_or_default()
}

/// Records `id` as finished in storage (the learner saw its run to the last step). A page
/// that may not store, or a full storage, keeps nothing: the next visit shows the card as
/// not finished, which costs the learner only the outcome in its title.
pub(crate) fn mark_finished(id: &str) {
    let Some(storage) = crate::ui::local_storage() else { return };
    let mut finished = finished();
    if finished.add(id) {
        let _ = storage.set_item(crate::path::STORAGE_KEY, finished.text());
    }
}
