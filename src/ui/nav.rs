//! The address bar: the hash the app's views live in, read, parsed into a link and set.
//! It owns no view and no state; views and the app shell navigate through it, so none
//! needs the shell.

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
        let _ = match parse_link(&current_hash()).embed {
            true => location.replace(hash),
            false => location.set_hash(hash),
        };
    }
}

/// Goes to `target` (a hash, or another page of the site with its hash), replacing the
/// current history entry: a move the Back button should not return to (the quiz's next
/// question, the hop to the page that shows a view, a course's first view).
pub(crate) fn replace_hash(target: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().replace(target);
    }
}

/// Writes `hash` into the current history entry without navigating: the view already shows
/// what it says (the builder's draft, kept in its link), so nothing re-renders.
pub(crate) fn record_hash(hash: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// The link in `hash`, its `actor=` read by the browser's JSON parser ([`checked_actor`]).
pub(crate) fn parse_link(hash: &str) -> Link {
    Link::parse_with(hash, checked_actor)
}

/// An xAPI agent's JSON text (`actor=`, or a host's `set-learner`), compact, if it names a
/// learner: as [`crate::xapi::parse_actor`] reads it but parsed by the browser, since the
/// first page carries no JSON parser of its own (serde_json's would cost it 17.8 KB gzip,
/// measured). Never inlined: its two callers share one copy (1 KB of wasm, measured).
#[inline(never)]
pub(crate) fn checked_actor(text: &str) -> Option<String> {
    let value = js_sys::JSON::parse(text).ok()?;
    let is_object = value.is_object() && !js_sys::Array::is_array(&value);
    let get = |from: &wasm_bindgen::JsValue, key: &str| {
        js_sys::Reflect::get(from, &key.into()).ok().filter(|v| !v.is_undefined())
    };
    let text_of = |from: &wasm_bindgen::JsValue, key: &str| get(from, key)?.as_string();
    // A non-string `objectType` is not "Agent".
    if get(&value, "objectType").is_some_and(|t| t.as_string().is_none()) {
        return None;
    }
    let account = get(&value, "account").unwrap_or(wasm_bindgen::JsValue::NULL);
    let account_text = |key: &str| if account.is_object() { text_of(&account, key) } else { None };
    let agent = crate::xapi::Agent {
        is_object,
        object_type: text_of(&value, "objectType"),
        mbox: text_of(&value, "mbox"),
        mbox_sha1sum: text_of(&value, "mbox_sha1sum"),
        openid: text_of(&value, "openid"),
        account_home_page: account_text("homePage"),
        account_name: account_text("name"),
    };
    crate::xapi::names_learner(&agent).then(|| crate::xapi::actor_text(text))
}
