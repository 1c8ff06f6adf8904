//! Sharing: "Copy link" (the whole state in the URL), the embed snippet (shown on the lab's
//! export page), and the deflate-raw compression of custom scenarios through the browser's
//! CompressionStream.

use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::player::Player;
use crate::route::{Link, Payload, View};
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct ShareProps {
    pub(crate) player: Rc<Player>,
    pub(crate) link: Link,
}

/// The link to this exact view: scenario (or the custom scenario itself), time, what-if
/// knobs, language.
pub(crate) fn permalink(player: &Player, link: &Link, lang: crate::i18n::Lang) -> Link {
    let view = match &link.view {
        View::Custom { payload } => View::Custom { payload: payload.clone() },
        _ => View::Scenario { id: player.original.id.clone() },
    };
    Link {
        view,
        t_ms: Some(player.time_ms),
        whatif: player.whatif.clone(),
        lang: Some(lang),
        reveal: player.reveal == crate::player::Reveal::Everything,
        ..Link::default()
    }
}

#[component]
pub(crate) fn Share(props: &ShareProps) -> Html {
    let m = use_i18n();
    let shown = use_state(|| None::<String>);
    let link = permalink(&props.player, &props.link, m.lang);
    let page = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let base = page.split('#').next().unwrap_or("").to_owned();
    let url = format!("{base}{}", link.to_hash());
    let copy = {
        let shown = shown.clone();
        let url = url.clone();
        Callback::from(move |_: MouseEvent| {
            // The clipboard may be refused (permissions, insecure context): the link is also
            // shown in a field either way.
            if let Some(window) = web_sys::window() {
                let _ = window.navigator().clipboard().write_text(&url);
            }
            shown.set(Some(url.clone()));
        })
    };
    html! {
        <div class="share">
            <button onclick={copy} data-testid="copy-link">{ m.t("share.copy") }</button>
            if let Some(url) = &*shown {
                <label class="permalink">{ m.t("share.select") }
                    <input type="text" readonly=true value={url.clone()} data-testid="permalink" />
                </label>
            }
        </div>
    }
}

/// The `<iframe>` a course author pastes: the embed view of `link` (time, knobs and
/// language kept), sized for the minimum the player is laid out for.
pub(crate) fn embed_snippet(link: &Link, base: &str, title: &str) -> String {
    let mut embedded = link.clone();
    embedded.embed = true;
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"640\" style=\"border:0;max-width:100%\" loading=\"lazy\"></iframe>",
        html_attr(&format!("{base}{}", embedded.to_hash())),
        html_attr(title)
    )
}

/// The same moment through `embed.js`: one script tag and an element, sized by itself.
pub(crate) fn embed_script(link: &Link, base: &str, id: &str) -> String {
    let mut element = format!("<div data-fencing-playground=\"{}\"", html_attr(id));
    for (name, value) in link.embed_attributes() {
        element.push_str(&format!(" data-{name}=\"{}\"", html_attr(&value)));
    }
    format!("<script src=\"{}embed.js\" defer></script>\n{element}></div>", html_attr(base))
}

/// Escapes text for a double-quoted HTML attribute.
fn html_attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Runs bytes through `new (De)CompressionStream('deflate-raw')`, a kilobyte of input at a
/// time, reading the output as it comes and giving up once it passes `limit` bytes. A few
/// hundred kilobytes of a link can inflate to hundreds of megabytes; a stream makes output
/// only when it is read, so fed small slices it never makes more than about a megabyte
/// (deflate's ratio is at most about 1,000:1) past the limit. Given up, the streams are
/// left unread and unreferenced for the collector: no more output is made.
async fn transform(bytes: &[u8], constructor: &str, limit: usize) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let ctor: js_sys::Function = js_sys::Reflect::get(&window, &JsValue::from_str(constructor))
        .ok()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| format!("this browser has no {constructor}"))?;
    let stream =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&JsValue::from_str("deflate-raw")))
            .map_err(|_| "cannot create the stream")?;
    let side = |name: &str| js_sys::Reflect::get(&stream, &JsValue::from_str(name)).ok();
    let (Some(readable), Some(writable)) = (side("readable"), side("writable")) else {
        return Err("cannot create the stream".to_owned());
    };
    // `object.name(args...)`, a promise.
    let call =
        |object: &JsValue, name: &str, args: &js_sys::Array| -> Result<js_sys::Promise, String> {
            let method: js_sys::Function = js_sys::Reflect::get(object, &JsValue::from_str(name))
                .ok()
                .and_then(|m| m.dyn_into().ok())
                .ok_or("cannot use the stream")?;
            method
                .apply(object, args)
                .ok()
                .and_then(|p| p.dyn_into().ok())
                .ok_or_else(|| "cannot use the stream".to_owned())
        };
    let get = |object: &JsValue, name: &str| -> Result<JsValue, String> {
        let method: js_sys::Function = js_sys::Reflect::get(object, &JsValue::from_str(name))
            .ok()
            .and_then(|m| m.dyn_into().ok())
            .ok_or("cannot use the stream")?;
        method.call0(object).map_err(|_| "cannot use the stream".to_owned())
    };
    let writer = get(&writable, "getWriter")?;
    let reader = get(&readable, "getReader")?;
    // Queued at once; the stream takes each slice only when its output is read. A write
    // fails when the data is damaged, which the reads report: its own rejection is caught
    // here so that it is not an unhandled one.
    let ignore =
        wasm_bindgen::closure::Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {}).into_js_value();
    let caught = |promise: js_sys::Promise| {
        call(&promise, "catch", &js_sys::Array::of1(&ignore)).map(|_handled| ())
    };
    for slice in bytes.chunks(1024) {
        caught(call(&writer, "write", &js_sys::Array::of1(&js_sys::Uint8Array::from(slice)))?)?;
    }
    caught(call(&writer, "close", &js_sys::Array::new())?)?;
    let mut out = Vec::new();
    loop {
        let chunk =
            wasm_bindgen_futures::JsFuture::from(call(&reader, "read", &js_sys::Array::new())?)
                .await
                .map_err(|_| "the compressed data is damaged".to_owned())?;
        let field = |name: &str| js_sys::Reflect::get(&chunk, &JsValue::from_str(name)).ok();
        if field("done").and_then(|d| d.as_bool()).unwrap_or(true) {
            return Ok(out);
        }
        if let Some(value) = field("value").and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok()) {
            out.extend(value.to_vec());
        }
        if out.len() > limit {
            return Err(TOO_LARGE.to_owned());
        }
    }
}

/// What a compressed payload that inflates past its limit gets.
const TOO_LARGE: &str = "the scenario in this link is too large";

pub(crate) async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    // Deflate never makes a scenario (at most BYTES_MAX) much larger.
    transform(bytes, "CompressionStream", 2 * crate::catalogue::load::BYTES_MAX).await
}

/// Inflates a custom scenario from a link into its JSON text, stopping past the loader's
/// limit.
pub(crate) async fn inflate(bytes: &[u8]) -> Result<String, String> {
    let out = transform(bytes, "DecompressionStream", crate::catalogue::load::BYTES_MAX).await?;
    String::from_utf8(out).map_err(|_| "the scenario in this link is not text".to_owned())
}

/// A link carrying `scenario` itself, compressed when the browser can.
pub async fn custom_link(scenario: &crate::catalogue::lesson::Scenario) -> Link {
    let json = crate::catalogue::codec::write_scenario(scenario).compact();
    let payload = match deflate(json.as_bytes()).await {
        Ok(bytes) => Payload::Deflated(bytes),
        Err(_) => Payload::Json(json),
    };
    Link::to(View::Custom { payload })
}
