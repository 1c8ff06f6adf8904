//! The app shell: home, routing, not-found.

use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{find, find_all, mount_at, set_hash, text};

#[wasm_bindgen_test]
async fn home_lists_the_catalogue() {
    // The home view shows the product name and one card per built-in scenario.
    let root = mount_at("#/").await;
    assert!(text(&root).contains("Fencing Token Playground"));
    assert!(find(&root, "home").is_some(), "home view missing");
    let cards = find_all(&root, "scenario-card");
    assert!(cards.len() >= 6, "expected the built-in scenarios, got {}", cards.len());
    assert!(cards.iter().any(|c| c.get_attribute("data-id").as_deref() == Some("gc-pause-fenced")));
}

#[wasm_bindgen_test]
async fn route_change_opens_the_scenario_view() {
    // Following a card's hash opens that scenario; its trace shows A's rejected write (in
    // the instructor's view: a learner's keeps it back until the prompt before it).
    let root = mount_at("#/").await;
    set_hash("#/s/gc-pause-fenced?v=1&reveal=1").await;
    let player = find(&root, "player").expect("player view after the route change");
    assert_eq!(player.get_attribute("data-id").as_deref(), Some("gc-pause-fenced"));
    let kinds: Vec<String> =
        find_all(&root, "event").iter().filter_map(|e| e.get_attribute("data-kind")).collect();
    assert!(kinds.iter().any(|k| k == "write-rejected"), "{kinds:?}");
    assert!(find(&root, "home").is_none());
}

#[wasm_bindgen_test]
async fn time_parameter_opens_the_player_at_that_moment() {
    // `?t=31500` restores the position: B's grant is applied, its write is still ahead.
    let root = mount_at("#/s/gc-pause-fenced?t=31500").await;
    assert_eq!(text(&find(&root, "clock").unwrap()), "31.500 s");
    for event in find_all(&root, "event") {
        let at: u64 = event.get_attribute("data-at-ms").unwrap().parse().unwrap();
        let future = event.get_attribute("class").unwrap_or_default().contains("future");
        assert_eq!(future, at > 31_500, "event at {at} ms");
    }
}

#[wasm_bindgen_test]
async fn unknown_route_and_unknown_id_show_not_found() {
    // An unknown route says what was asked for and links home.
    let root = mount_at("#/nowhere").await;
    let view = find(&root, "not-found").expect("not-found view");
    assert!(text(&view).contains("#/nowhere"), "{}", text(&view));
    assert!(view.query_selector("a[href='#/']").unwrap().is_some());
    // So does an unknown scenario id.
    set_hash("#/s/no-such-scenario").await;
    let view = find(&root, "not-found").expect("not-found view for an unknown id");
    assert!(text(&view).contains("no-such-scenario"), "{}", text(&view));
}

#[wasm_bindgen_test]
async fn a_panic_leaves_an_error_panel_with_a_reset_link_not_a_dead_page() {
    let _root = mount_at("#/").await;
    let hostile = "<img src=x onerror=alert(1)> panicked at src/x.rs:1:1";
    fencing_playground::ui::show_crash_panel_for_test(hostile);
    let document = web_sys::window().unwrap().document().unwrap();
    let panel = document.get_element_by_id("crash-panel").expect("the panel");
    assert_eq!(panel.get_attribute("role").as_deref(), Some("alert"));
    assert!(!panel.has_attribute("hidden"), "built hidden, shown now");
    assert!(panel.query_selector("img").unwrap().is_none(), "the message is text, never HTML");
    assert!(panel.text_content().unwrap_or_default().contains(hostile));
    let reset = panel.query_selector("[data-testid='crash-reset']").unwrap().expect("a reset link");
    assert_eq!(reset.get_attribute("href").as_deref(), Some("?reset#/"));
    panel.remove();
}

#[wasm_bindgen_test]
async fn the_page_reads_an_actor_as_the_native_reader_does() {
    // The page reads `actor=` with the browser's JSON parser (no JSON parser of its own);
    // it must accept and refuse what `xapi::parse_actor` (serde_json) does.
    let root = mount_at("#/").await;
    for actor in [
        r#"{"account":{"homePage":"https://lms.example","name":"42"}}"#,
        r#"{"objectType":"Agent","mbox":"mailto:learner@example.org"}"#,
        r#"{"mbox_sha1sum":"abc"}"#,
        "{}",
        "[]",
        r#"{"mbox":"learner@example.org"}"#,
        r#"{"objectType":"Group","openid":"x"}"#,
        r#"{"objectType":7,"openid":"x"}"#,
        r#"{"account":"x","mbox_sha1sum":""}"#,
        "{\"openid\":",
    ] {
        let native = fencing_playground::xapi::parse_actor(actor).is_some();
        let encoded = String::from(js_sys::encode_uri_component(actor));
        set_hash(&format!("#/s/gc-pause-fenced?embed=1&actor={encoded}")).await;
        let refused = find(&root, "invalid-link").is_some_and(|v| text(&v).contains("xAPI agent"));
        assert_eq!(!refused, native, "{actor}: the page and the native reader disagree");
    }
}
