//! The last line of defence: a panic hook that replaces a dead page with an error panel and
//! a reset link. After a panic the wasm instance is gone (release builds abort), so the
//! panel is plain DOM built once, with text only (never HTML), and the reset is a page load
//! (`?reset`) that `start` handles before mounting.

use wasm_bindgen::JsCast;

use crate::progress::STORAGE_KEY;

/// Installs the hook (once, from `start`).
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
    if let Ok(Some(storage)) = window.local_storage() {
        let _ = storage.remove_item(STORAGE_KEY);
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

/// Puts the panel at the top of the page. Public to the crate so a browser test can
/// check it without panicking.
pub(crate) fn show_panel(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    if document.get_element_by_id("crash-panel").is_some() {
        return;
    }
    let Ok(panel) = document.create_element("div") else { return };
    panel.set_id("crash-panel");
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
    add("pre", message);
    let _ = body.insert_before(&panel, body.first_child().as_ref());
    if let Some(element) = panel.dyn_ref::<web_sys::HtmlElement>() {
        let _ = element.focus();
    }
}
