//! Mounting and querying helpers for the browser tests.

use fencing_playground::ui::{AllPages, App};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

thread_local! {
    /// The apps mounted by earlier tests: destroyed before the next mount, so that only
    /// one app reacts to hash changes and storage.
    static MOUNTED: std::cell::RefCell<Vec<(yew::AppHandle<App<AllPages>>, Element)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets the location hash, mounts a fresh app (removing earlier ones) and waits until it has
/// rendered into its root.
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
    until(&format!("the app at {hash} to render"), || root.first_element_child()).await;
    rendered().await;
    root
}

/// Changes the hash and waits until the `hashchange` event has been handled (the app's
/// listener, added before this one, has run) and Yew has rendered what it changed.
pub(crate) async fn set_hash(hash: &str) {
    let window = web_sys::window().unwrap();
    let location = window.location();
    let before = location.hash().unwrap();
    let changed = std::rc::Rc::new(std::cell::Cell::new(false));
    let _listener = {
        let changed = changed.clone();
        gloo_events::EventListener::new(&window, "hashchange", move |_| changed.set(true))
    };
    location.set_hash(hash).unwrap();
    // The address changes at once; the event follows only if it changed.
    let moved = location.hash().unwrap() != before;
    wait_for(&format!("the hashchange to {hash}"), || !moved || changed.get()).await;
    rendered().await;
}

/// How long a wait for a condition lasts before the test fails: far beyond what any step
/// takes on a busy two-core machine, so only a condition that never comes reaches it.
const PATIENCE_MS: f64 = 5_000.0;

/// Waits until `probe` gives a value and returns it: checked after Yew has rendered what is
/// pending, and again after each turn of the event loop (a 0 ms timeout, so timers, messages
/// and fetches queued meanwhile run), for up to 5 s; then fails naming `what` it waited for.
pub(crate) async fn until<T>(what: &str, probe: impl FnMut() -> Option<T>) -> T {
    until_within(what, PATIENCE_MS, probe).await
}

/// [`until`] with a patience of its own, for work that takes long (a schedule search).
pub(crate) async fn until_within<T>(
    what: &str,
    patience_ms: f64,
    mut probe: impl FnMut() -> Option<T>,
) -> T {
    let deadline = js_sys::Date::now() + patience_ms;
    loop {
        yew::scheduler::flush().await;
        if let Some(value) = probe() {
            return value;
        }
        assert!(js_sys::Date::now() < deadline, "waited {patience_ms} ms for {what}");
        gloo_timers::future::TimeoutFuture::new(0).await;
    }
}

/// Waits until `condition` holds (see [`until`]).
pub(crate) async fn wait_for(what: &str, mut condition: impl FnMut() -> bool) {
    until(what, || condition().then_some(())).await;
}

/// Lets the last event's work finish: Yew's pending renders, the futures the views started
/// (a lesson loaded in the test bundle, which has them compiled in, completes at once) and
/// the 0 ms timeouts queued before (the page's deferred seeks, the explorer's and the
/// search's next slices: same-delay timeouts fire in the order they were set), then the renders
/// all that caused. An order, not a guess at a duration: what waits on a message, a stream, a
/// page load or a longer timer needs [`wait_for`].
pub(crate) async fn rendered() {
    yew::scheduler::flush().await;
    gloo_timers::future::TimeoutFuture::new(0).await;
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
    rendered().await;
}

pub(crate) async fn click(root: &Element, test_id: &str) {
    let element: HtmlElement = find(root, test_id).expect(test_id).dyn_into().unwrap();
    element.click();
    rendered().await;
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
    rendered().await;
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

/// Posts `marker` to this window and waits until `received` (from [`hear_messages`]) has it:
/// messages are delivered in the order they were posted, so every message the page posted
/// before has arrived too. A check that the page sent nothing waits for this.
pub(crate) async fn hear_all_sent(
    received: &std::rc::Rc<std::cell::RefCell<Vec<String>>>,
    marker: &str,
) {
    let window = web_sys::window().unwrap();
    window.post_message(&wasm_bindgen::JsValue::from_str(marker), "*").unwrap();
    wait_for(&format!("the marker message {marker}"), || {
        received.borrow().iter().any(|m| m == marker)
    })
    .await;
}
