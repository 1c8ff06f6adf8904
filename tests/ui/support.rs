//! Mounting and querying helpers for the browser tests.

use fencing_playground::ui::App;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Sets the location hash, mounts a fresh app and lets it render.
pub(crate) async fn mount_at(hash: &str) -> Element {
    set_hash(hash).await;
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<App>::with_root(root.clone()).render();
    settle().await;
    root
}

/// Changes the hash and waits for the `hashchange` event to be handled.
pub(crate) async fn set_hash(hash: &str) {
    web_sys::window().unwrap().location().set_hash(hash).unwrap();
    settle().await;
}

/// Lets pending events fire and the Yew scheduler render.
pub(crate) async fn settle() {
    gloo_timers::future::TimeoutFuture::new(30).await;
    yew::scheduler::flush().await;
}

pub(crate) fn find(root: &Element, test_id: &str) -> Option<Element> {
    root.query_selector(&format!("[data-testid='{test_id}']")).unwrap()
}

pub(crate) fn find_all(root: &Element, test_id: &str) -> Vec<Element> {
    let list = root.query_selector_all(&format!("[data-testid='{test_id}']")).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

pub(crate) fn text(element: &Element) -> String {
    element.dyn_ref::<HtmlElement>().map(HtmlElement::inner_text).unwrap_or_default()
}
