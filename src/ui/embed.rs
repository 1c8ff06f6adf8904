//! The host-page channel of an embedded player: posts protocol messages to the allowed
//! origins and hands checked inbound messages to the view. The rules (message shapes,
//! origin check) are in `crate::embed`; this is only the browser glue.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::embed::{Inbound, Outbound, origin_allowed, parse_inbound};

/// Sends `message` to the parent window, once per allowed origin (the browser delivers it
/// only if the parent really has that origin). Nothing is sent when not embedded.
pub(crate) fn post(embed: bool, origins: &[String], message: &Outbound) {
    if !embed || origins.is_empty() {
        return;
    }
    let Some(window) = web_sys::window() else { return };
    let target = window.parent().ok().flatten().unwrap_or(window);
    let text = wasm_bindgen::JsValue::from_str(&message.to_json());
    for origin in origins {
        let _ = target.post_message(&text, origin);
    }
}

/// Listens for protocol messages from allowed origins while `embed` is on.
#[hook]
pub(crate) fn use_host_messages(
    embed: bool,
    origins: Vec<String>,
    on_message: impl Fn(Inbound) + 'static,
) {
    let on_message = std::rc::Rc::new(on_message);
    use_effect_with((embed, origins), move |(embed, origins)| {
        let origins = origins.clone();
        let listener = (*embed).then(|| {
            web_sys::window().map(|window| {
                EventListener::new(&window, "message", move |event| {
                    let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
                    // Only listed origins may drive the player.
                    if !origin_allowed(&origins, &event.origin()) {
                        return;
                    }
                    let data = event.data();
                    // Hosts may post a string or an object; both are read as JSON text.
                    let text = data.as_string().or_else(|| {
                        js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string())
                    });
                    if let Some(message) = text.as_deref().and_then(parse_inbound) {
                        on_message(message);
                    }
                })
            })
        });
        move || drop(listener)
    });
}
