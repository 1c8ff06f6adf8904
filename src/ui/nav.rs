//! The address bar: the hash the app's views live in, read and set. It owns no view and
//! no state; views and the app shell navigate through it, so none needs the shell.

use crate::route::Link;

/// The hash as the browser has it (`#/s/...`), or nothing.
pub(crate) fn current_hash() -> String {
    web_sys::window().and_then(|window| window.location().hash().ok()).unwrap_or_default()
}

/// Navigates within the app. In an embed the move replaces the current history entry, so
/// the host page's Back button is not filled with the player's steps.
pub(crate) fn set_hash(hash: &str) {
    if let Some(window) = web_sys::window() {
        let location = window.location();
        let _ = match Link::parse(&current_hash()).embed {
            true => location.replace(hash),
            false => location.set_hash(hash),
        };
    }
}
