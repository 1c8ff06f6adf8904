//! Effects for the views: the playback timer. The only place a timer exists.

use gloo_timers::callback::Interval;
use yew::prelude::*;

use crate::player::Action;

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
