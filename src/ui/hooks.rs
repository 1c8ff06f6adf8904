//! Effects for the views: the playback timer (the only place a timer exists), and content
//! loaded once it has arrived (lessons, the quiz's questions).

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
