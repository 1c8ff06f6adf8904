//! The last line of defence: an error panel with a reset link for a dead page. It is plain
//! DOM with text only (never HTML), built hidden at start, so that it can be shown without
//! the wasm instance: a panic shows it from the hook, a trap (a `WebAssembly.RuntimeError`,
//! which no Rust code sees, and after which the instance may be unusable) from a listener in
//! each page's inline script. The reset is a page load (`?reset`) that `start` handles
//! before mounting.

use wasm_bindgen::JsCast;

use crate::progress::STORAGE_KEY;

/// Installs the hook (once, from `start`, before mounting).
pub(crate) fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        web_sys::console::error_1(&message.as_str().into());
        show_panel(&message);
    }));
}

/// Clears what the app stores and drops `?reset` from the address, if it is there.
pub(crate) fn handle_reset_request() {
    let Some(window) = web_sys::window() else { return };
    let search = window.location().search().unwrap_or_default();
    if !search.trim_start_matches('?').split('&').any(|p| p == "reset") {
        return;
    }
    // Every quiz's progress: the site's and each embed's (see `progress::storage_key`).
    if let Ok(Some(storage)) = window.local_storage() {
        let keys: Vec<String> = (0..storage.length().unwrap_or(0))
            .filter_map(|i| storage.key(i).ok().flatten())
            .filter(|key| key.starts_with(STORAGE_KEY))
            .collect();
        for key in keys {
            let _ = storage.remove_item(&key);
        }
    }
    let path = window.location().pathname().unwrap_or_default();
    let hash = window.location().hash().unwrap_or_default();
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{hash}")),
        );
    }
}

/// Builds the panel, hidden, for the inline script's trap listener (once, from `start`,
/// after mounting: yew empties `<body>` when it mounts the app there). It waits for the
/// app's first render, so that it comes after the app, not before its skip link (which
/// must be the page's first content for axe and for keyboard users).
pub(crate) fn prepare_panel() {
    gloo_timers::callback::Timeout::new(0, || {
        panel();
    })
    .forget();
}

/// Shows the panel at the top of the page with the error's details. Public to the crate so
/// a browser test can check it without panicking.
pub(crate) fn show_panel(message: &str) {
    let Some(panel) = panel() else { return };
    let Some(element) = panel.dyn_ref::<web_sys::HtmlElement>() else { return };
    // The first error is the one worth reading; a second one leaves it in place.
    if !element.hidden() {
        return;
    }
    if let Ok(Some(details)) = panel.query_selector("pre") {
        details.set_text_content(Some(message));
    }
    // Shown at the top of the page (it waits, hidden, at the end: first, it would stand
    // before the skip link).
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        let _ = body.insert_before(&panel, body.first_child().as_ref());
    }
    element.set_hidden(false);
    let _ = element.focus();
}

/// The page's panel, built hidden the first time (the inline script's trap listener looks
/// it up by its id, fills its `pre` and unhides it).
fn panel() -> Option<web_sys::Element> {
    let document = web_sys::window()?.document()?;
    let body = document.body()?;
    if let Some(panel) = document.get_element_by_id("crash-panel") {
        return Some(panel);
    }
    let panel = document.create_element("div").ok()?;
    panel.set_id("crash-panel");
    let _ = panel.set_attribute("hidden", "");
    let _ = panel.set_attribute("tabindex", "-1");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("class", "crash-panel");
    let _ = panel.set_attribute("data-testid", "crash-panel");
    let add = |tag: &str, text: &str| -> Option<web_sys::Element> {
        let element = document.create_element(tag).ok()?;
        element.set_text_content(Some(text));
        panel.append_child(&element).ok()?;
        Some(element)
    };
    add("h2", "Something went wrong");
    add(
        "p",
        "The playground hit an internal error and stopped. Reloading with a reset clears the stored quiz progress and opens the catalogue; the details below help us fix it.",
    );
    if let Some(link) = add("a", "Reset and reload") {
        let _ = link.set_attribute("href", "?reset#/");
        let _ = link.set_attribute("data-testid", "crash-reset");
    }
    add("pre", "");
    let _ = body.append_child(&panel);
    Some(panel)
}
