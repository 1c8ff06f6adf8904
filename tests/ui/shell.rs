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

/// Issue 30, items 4 and 5: the home page starts a newcomer on a short, timed core path
/// whose titles keep the outcome back; a lesson seen to its end says so, links on to the
/// next one, and is marked finished (its whole title shown) on the home page.
#[wasm_bindgen_test]
async fn the_course_has_a_path_and_remembers_what_is_finished() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item("fencing-playground/lessons-finished/v1").unwrap();
    let root = mount_at("#/").await;
    let path = find(&root, "core-path").expect("the core path");
    let lessons = path.query_selector_all("li a").unwrap();
    assert!((5..=9).contains(&lessons.length()), "{} lessons", lessons.length());
    assert!(text(&path).contains("min"), "{}", text(&path));
    let first = lessons.get(0).unwrap();
    assert_eq!(first.text_content().as_deref(), Some("GC pause, unfenced"));
    for card in find_all(&root, "scenario-card") {
        let title = text(&card.query_selector("h3").unwrap().unwrap());
        assert!(!title.contains(':'), "a card's title keeps its outcome back: {title}");
    }
    assert!(find(&root, "finished").is_none() && find(&root, "progress").is_none());

    set_hash("#/s/gc-pause-unfenced?reveal=1").await;
    let way_on = find(&root, "way-on").expect("the way on");
    assert!(find(&root, "previous-lesson").is_none(), "the first lesson has none");
    let next = find(&root, "next-lesson").expect("a next lesson");
    assert!(text(&next).starts_with("Next lesson: "), "{}", text(&next));
    assert!(find(&way_on, "lesson-done").is_none());
    let player = find(&root, "player").unwrap();
    crate::support::press(&player, "End", false).await;
    assert!(find(&root, "lesson-done").is_some(), "the end of the run says so");
    let stored = storage.get_item("fencing-playground/lessons-finished/v1").unwrap();
    assert_eq!(stored.as_deref(), Some("gc-pause-unfenced"));

    set_hash("#/").await;
    let path = find(&root, "core-path").unwrap();
    let first = path.query_selector("li a").unwrap().unwrap();
    assert_eq!(first.text_content().as_deref(), Some("GC pause, unfenced: both writes land"));
    assert_eq!(find_all(&root, "finished").len(), 2, "on the path and on its card");
    assert!(text(&find(&root, "progress").unwrap()).contains("finished 1 of"));
    storage.remove_item("fencing-playground/lessons-finished/v1").unwrap();
}
