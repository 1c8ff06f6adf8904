//! Small reads of the browser the views and the worker pools share: the clock for rates
//! and redraws, the cores the browser reports, and what a failed web worker said. It holds
//! no state and draws nothing.

use wasm_bindgen::JsValue;

/// Milliseconds on the page's monotonic clock (0 where there is none).
pub(crate) fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The cores the browser reports (at least 1).
pub(crate) fn cores() -> usize {
    web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .filter(|n| n.is_finite() && *n >= 1.0)
        .map_or(1, |n| n as usize)
}

/// What a worker's `error` event says. A script that does not load fires a plain `error`
/// Event; an exception in the worker (a trap, out of memory), an ErrorEvent with a message.
pub(crate) fn worker_error(event: &JsValue) -> String {
    js_sys::Reflect::get(event, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| "its script did not load".to_owned())
}
