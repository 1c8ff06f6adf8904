//! Messages in the views: a context holding the current language's messages, the cache of
//! language packs, and the fetch of a pack from `i18n/<code>.json` next to the page.

use crate::sim::sorted::SortedMap;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::i18n::{Lang, Messages, Pack, pack_of, parse_pack};

/// The messages every view reads.
#[derive(Clone, PartialEq)]
pub(crate) struct I18n(pub(crate) Rc<Messages>);

#[hook]
pub(crate) fn use_i18n() -> Rc<Messages> {
    use_context::<I18n>().map(|c| c.0).unwrap_or_else(|| Rc::new(Messages::english()))
}

thread_local! {
    static PACKS: RefCell<SortedMap<Lang, Pack>> = const { RefCell::new(SortedMap::new()) };
}

/// Makes a pack available without fetching it (tests, or a host that inlines packs).
pub fn install_pack(lang: Lang, text: &str) -> Result<(), String> {
    let pack = parse_pack(text)?;
    PACKS.with(|packs| packs.borrow_mut().insert(lang, pack));
    Ok(())
}

/// A fetched pack's text, read by the browser's JSON parser: the main page carries no JSON
/// parser of its own (serde_json's would cost it 17.8 KB gzip, measured).
fn browser_pack(text: &str) -> Result<Pack, String> {
    let value = js_sys::JSON::parse(text).map_err(|_| "the pack is not JSON".to_owned())?;
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err("a language pack is one JSON object".to_owned());
    }
    let object: js_sys::Object = value.unchecked_into();
    let mut members = Vec::new();
    for entry in js_sys::Object::entries(&object).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        let text = entry
            .get(1)
            .as_string()
            .ok_or_else(|| format!("the value of `{key}` must be a string"))?;
        members.push((key, text));
    }
    Ok(pack_of(members))
}

pub(crate) fn cached(lang: Lang) -> Option<Messages> {
    match lang {
        Lang::En => Some(Messages::english()),
        _ => PACKS
            .with(|packs| packs.borrow().get(&lang).cloned())
            .map(|pack| Messages::with_pack(lang, pack)),
    }
}

/// Fetches `i18n/<code>.json` relative to the page and caches it.
pub(crate) async fn fetch_pack(lang: Lang) -> Result<Messages, String> {
    if let Some(messages) = cached(lang) {
        return Ok(messages);
    }
    let text = fetch_text(&format!("i18n/{}.json", lang.code())).await?;
    let pack = browser_pack(&text)?;
    PACKS.with(|packs| packs.borrow_mut().insert(lang, pack));
    cached(lang).ok_or_else(|| "pack vanished".to_owned())
}

/// The browser's preferred language among ours.
pub(crate) fn browser_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .map_or(Lang::En, |tag| Lang::from_browser(&tag))
}

/// Fetches a text file relative to the page (a language pack, a lesson).
pub(crate) async fn fetch_text(url: &str) -> Result<String, String> {
    let response = fetch(url).await?;
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(|_| "no body")?)
        .await
        .map_err(|_| "no body")?;
    text.as_string().ok_or_else(|| "not text".to_owned())
}

/// The body of the file at `url`, as bytes (a baked lesson).
pub(crate) async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let response = fetch(url).await?;
    let buffer = response.array_buffer().map_err(|_| "no body")?;
    let buffer = wasm_bindgen_futures::JsFuture::from(buffer).await.map_err(|_| "no body")?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

async fn fetch(url: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    // A lesson the page's script began to fetch while the wasm was still on its way
    // (index.html's `fpFetch`, keyed by address): taken once, so a later visit fetches anew.
    let early = js_sys::Reflect::get(&window, &"fpFetch".into()).ok().filter(|o| o.is_object());
    let started = early.and_then(|o| {
        let promise = js_sys::Reflect::get(&o, &url.into()).ok()?;
        let _ = js_sys::Reflect::delete_property(o.unchecked_ref::<js_sys::Object>(), &url.into());
        promise.dyn_into::<js_sys::Promise>().ok()
    });
    let promise = started.unwrap_or_else(|| window.fetch_with_str(url));
    let response = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|_| format!("could not fetch {url}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    Ok(response)
}
