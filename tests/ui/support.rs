//! Mounting and querying helpers for the browser tests.

use fencing_playground::ui::{AllPages, App};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

thread_local! {
    /// The apps mounted by earlier tests: destroyed before the next mount, so that only
    /// one app reacts to hash changes and storage.
    static MOUNTED: std::cell::RefCell<Vec<(yew::AppHandle<App<AllPages>>, Element)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets the location hash, mounts a fresh app (removing earlier ones) and lets it render.
pub(crate) async fn mount_at(hash: &str) -> Element {
    let earlier: Vec<(yew::AppHandle<App<AllPages>>, Element)> =
        MOUNTED.with(|m| m.borrow_mut().drain(..).collect());
    for (handle, root) in earlier {
        handle.destroy();
        root.remove();
    }
    set_hash(hash).await;
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    let handle = yew::Renderer::<App<AllPages>>::with_root(root.clone()).render();
    MOUNTED.with(|m| m.borrow_mut().push((handle, root.clone())));
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

/// Sets a range or text input's value and fires `input` (as a user drag or typing does).
pub(crate) async fn set_input(root: &Element, test_id: &str, value: &str) {
    let input: web_sys::HtmlInputElement = find(root, test_id).expect(test_id).dyn_into().unwrap();
    input.set_value(value);
    fire(&input, "input").await;
}

/// Sets a control's value and fires `change` (as leaving a field or picking an option does).
pub(crate) async fn set_change(root: &Element, test_id: &str, value: &str) {
    let element = find(root, test_id).expect(test_id);
    if let Some(input) = element.dyn_ref::<web_sys::HtmlInputElement>() {
        input.set_value(value);
    } else if let Some(select) = element.dyn_ref::<web_sys::HtmlSelectElement>() {
        select.set_value(value);
    }
    fire(&element, "change").await;
}

pub(crate) async fn fire(target: &web_sys::EventTarget, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
    settle().await;
}

pub(crate) async fn click(root: &Element, test_id: &str) {
    let element: HtmlElement = find(root, test_id).expect(test_id).dyn_into().unwrap();
    element.click();
    settle().await;
}

/// Presses a key on an element, with or without Shift.
pub(crate) async fn press(target: &Element, key: &str, shift: bool) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&event).unwrap();
    settle().await;
}

/// The text of the row cell `column` (0-based) of the Redis key `key` on `node`.
pub(crate) fn redis_cell(root: &Element, node: &str, key: &str, column: u32) -> Option<String> {
    let row = root
        .query_selector(&format!("[data-testid='redis-key'][data-node='{node}'][data-key='{key}']"))
        .unwrap()?;
    let cells = row.query_selector_all("td").unwrap();
    cells.item(column).and_then(|n| n.dyn_into::<HtmlElement>().ok()).map(|c| c.inner_text())
}

/// The player's clock text.
pub(crate) fn clock(root: &Element) -> String {
    text(&find(root, "clock").expect("clock"))
}

/// Installs the Indonesian and Vietnamese packs: they are files next to the page, and the
/// test runner serves no files.
pub(crate) fn install_packs() {
    use fencing_playground::i18n::Lang;
    fencing_playground::ui::install_pack(Lang::Id, include_str!("../../static/i18n/id.json"))
        .unwrap();
    fencing_playground::ui::install_pack(Lang::Vi, include_str!("../../static/i18n/vi.json"))
        .unwrap();
}

/// Records the text of every message posted to this window (what a host page would hear,
/// since the test page is its own parent), for as long as the listener is kept.
pub(crate) fn hear_messages()
-> (gloo_events::EventListener, std::rc::Rc<std::cell::RefCell<Vec<String>>>) {
    let window = web_sys::window().unwrap();
    let received: std::rc::Rc<std::cell::RefCell<Vec<String>>> = std::rc::Rc::default();
    let listener = {
        let received = received.clone();
        gloo_events::EventListener::new(&window, "message", move |event| {
            let event = event.dyn_ref::<web_sys::MessageEvent>().unwrap();
            if let Some(text) = event.data().as_string() {
                received.borrow_mut().push(text);
            }
        })
    };
    (listener, received)
}
