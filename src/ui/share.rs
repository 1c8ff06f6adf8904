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
    if let Some(t) = link.t_ms {
        element.push_str(&format!(" data-t=\"{t}\""));
    }
    if let Some(lang) = link.lang {
        element.push_str(&format!(" data-lang=\"{}\"", lang.code()));
    }
    format!("<script src=\"{}embed.js\" defer></script>\n{element}></div>", html_attr(base))
}

/// Escapes text for a double-quoted HTML attribute.
fn html_attr(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Runs bytes through `new (De)CompressionStream('deflate-raw')`.
async fn transform(bytes: &[u8], constructor: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let ctor: js_sys::Function = js_sys::Reflect::get(&window, &JsValue::from_str(constructor))
        .ok()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| format!("this browser has no {constructor}"))?;
    let stream =
        js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&JsValue::from_str("deflate-raw")))
            .map_err(|_| "cannot create the stream")?;
    let readable: web_sys::ReadableStream =
        js_sys::Reflect::get(&stream, &JsValue::from_str("readable"))
            .ok()
            .and_then(|r| r.dyn_into().ok())
            .ok_or("no readable side")?;
    let writable: web_sys::WritableStream =
        js_sys::Reflect::get(&stream, &JsValue::from_str("writable"))
            .ok()
            .and_then(|w| w.dyn_into().ok())
            .ok_or("no writable side")?;
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(|_| "cannot make a blob")?;
    let pair = web_sys::ReadableWritablePair::new(&readable, &writable);
    let output = blob.stream().pipe_through(&pair);
    let response = web_sys::Response::new_with_opt_readable_stream(Some(&output))
        .map_err(|_| "cannot read the stream")?;
    let buffer = wasm_bindgen_futures::JsFuture::from(
        response.array_buffer().map_err(|_| "cannot read the stream")?,
    )
    .await
    .map_err(|_| "the compressed data is damaged".to_owned())?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

pub(crate) async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    transform(bytes, "CompressionStream").await
}

/// Inflates a custom scenario from a link into its JSON text.
pub(crate) async fn inflate(bytes: &[u8]) -> Result<String, String> {
    let out = transform(bytes, "DecompressionStream").await?;
    if out.len() > crate::catalogue::load::BYTES_MAX {
        return Err("the scenario in this link is too large".to_owned());
    }
    String::from_utf8(out).map_err(|_| "the scenario in this link is not text".to_owned())
}

/// A link carrying `scenario` itself, compressed when the browser can.
pub async fn custom_link(scenario: &crate::sim::Scenario) -> Link {
    let json = crate::catalogue::codec::write_scenario(scenario).compact();
    let payload = match deflate(json.as_bytes()).await {
        Ok(bytes) => Payload::Deflated(bytes),
        Err(_) => Payload::Json(json),
    };
    Link::to(View::Custom { payload })
}
