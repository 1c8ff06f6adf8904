//! Challenges graded by the model, as a learner meets them: a "break it" solved by
//! placing a pause (a pause too short first keeps the rule), and a "fix it" failed once
//! (the counterexample opens in the player, the hint shows) and then solved; each attempt
//! is reported to the host page as a `challenge-attempted` message and an xAPI statement,
//! and the solved challenge is kept for the list. A challenge made in the lesson builder is
//! refused until it grades as intended, then tried as a learner would.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{click, find, find_all, mount_at, rendered, set_change, text, until_within};

/// How long grading may take on the page's thread of a busy two-core machine (the search
/// of a fix-it runs there, in a debug build).
const GRADE_MS: f64 = 120_000.0;
const SOLVED_KEY: &str = "fencing-playground/v1/challenges";

/// Waits until `test_id` shows.
async fn shown(root: &web_sys::Element, test_id: &str) -> web_sys::Element {
    until_within(&format!("{test_id} to show"), GRADE_MS, || find(root, test_id)).await
}

/// What the page posts to its host: protocol messages (text) and statements (objects,
/// kept as JSON text).
fn hear() -> (gloo_events::EventListener, Rc<RefCell<Vec<String>>>) {
    let window = web_sys::window().unwrap();
    let heard: Rc<RefCell<Vec<String>>> = Rc::default();
    let listener = {
        let heard = heard.clone();
        gloo_events::EventListener::new(&window, "message", move |event| {
            let data = event.dyn_ref::<web_sys::MessageEvent>().unwrap().data();
            let text = match data.as_string() {
                Some(text) => text,
                None if data.is_object() => js_sys::JSON::stringify(&data).unwrap().into(),
                None => return,
            };
            heard.borrow_mut().push(text);
        })
    };
    (listener, heard)
}

/// The challenge at `id`, embedded for this page's own origin (so its messages come here).
async fn embedded(id: &str, frame: &str) -> web_sys::Element {
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    let origins = fencing_playground::route::percent_encode(&origin);
    mount_at(&format!("#/challenge/{id}?v=1&embed=1&frame={frame}&origins={origins}")).await
}

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

async fn place(root: &web_sys::Element, worker: &str, at_s: &str, for_s: &str) {
    set_change(root, "draft-worker", worker).await;
    set_change(root, "draft-at", at_s).await;
    set_change(root, "draft-for", for_s).await;
    click(root, "challenge-place").await;
}

#[wasm_bindgen_test]
async fn a_break_it_is_solved_by_placing_a_pause() {
    let _ = storage().remove_item(SOLVED_KEY);
    let (_listener, heard) = hear();
    let root = embedded("outlast-the-watchdog", "brk").await;
    shown(&root, "challenge").await;
    assert!(text(&find(&root, "challenge-story").expect("a story")).contains("watchdog"));
    // Too short: the watchdog's lease outlives it, and the rule holds.
    place(&root, "0", "7.5", "25").await;
    assert_eq!(find_all(&root, "placed").len(), 1);
    assert!(find(&root, "challenge-place").is_none(), "the budget is one pause");
    click(&root, "challenge-check").await;
    let held = text(&shown(&root, "challenge-held").await);
    assert!(!held.is_empty());
    // Take it back and place a longer one, earlier.
    let remove: web_sys::HtmlElement = find(&root, "placed")
        .unwrap()
        .query_selector("button")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    remove.click();
    rendered().await;
    place(&root, "0", "5", "30").await;
    click(&root, "challenge-check").await;
    let solved = text(&shown(&root, "challenge-solved").await);
    assert!(solved.contains("1"), "{solved}");
    let tally = text(&find(&root, "challenge-tally").expect("the tally"));
    assert!(tally.contains('2'), "two attempts: {tally}");
    // Two attempts reported, the second solved with the pause as the response.
    until_within("two reports", GRADE_MS, || {
        let n = heard.borrow().iter().filter(|m| m.contains("challenge-attempted")).count();
        (n == 2).then_some(())
    })
    .await;
    let reports: Vec<String> =
        heard.borrow().iter().filter(|m| m.contains("challenge-attempted")).cloned().collect();
    assert!(reports[0].contains(r#""solved":false"#) && reports[0].contains(r#""attempt":1"#));
    for part in [
        r#""frame":"brk""#,
        r#""challenge":"outlast-the-watchdog""#,
        r#""kind":"break""#,
        r#""response":"pause[.]A@5000+30000""#,
        r#""solved":true"#,
        r#""par":1"#,
        r#""spent":1"#,
    ] {
        assert!(reports[1].contains(part), "{part} missing: {}", reports[1]);
    }
    let stored = storage().get_item(SOLVED_KEY).unwrap().unwrap_or_default();
    assert!(stored.contains("outlast-the-watchdog=1/1"), "{stored}");
    let _ = storage().remove_item(SOLVED_KEY);
}

#[wasm_bindgen_test]
async fn a_fix_it_fails_once_with_a_hint_and_then_is_solved() {
    let _ = storage().remove_item(SOLVED_KEY);
    let (_listener, heard) = hear();
    let root = embedded("fence-the-pause", "fix").await;
    shown(&root, "challenge").await;
    // A plausible wrong fix: a watchdog. The search finds the pause it cannot cover.
    click(&root, "option-watchdog").await;
    click(&root, "challenge-check").await;
    let broken = text(&shown(&root, "challenge-broken").await);
    assert!(!broken.is_empty());
    let hint = text(&find(&root, "challenge-hint").expect("a hint"));
    assert!(!hint.is_empty(), "a one-line hint");
    // The counterexample opens in the player, with its verdict.
    let verdict = text(&shown(&root, "verdict").await);
    assert!(verdict.contains("VIOLATED"), "{verdict}");
    // The fix: the guard in the database. Choosing it and dropping the watchdog is at par.
    click(&root, "option-watchdog").await;
    click(&root, "option-guard-lt").await;
    click(&root, "challenge-check").await;
    shown(&root, "challenge-solved").await;
    assert!(find(&root, "challenge-hint").is_none());
    until_within("two statements", GRADE_MS, || {
        let n = heard.borrow().iter().filter(|m| m.contains(r#""action":"xAPI""#)).count();
        (n == 2).then_some(())
    })
    .await;
    let heard: Vec<String> = heard.borrow().clone();
    let statements: Vec<&String> =
        heard.iter().filter(|m| m.contains(r#""action":"xAPI""#)).collect();
    assert!(statements[0].contains(r#""success":false"#), "{}", statements[0]);
    for part in [
        "/verbs/answered",
        "#/challenge/fence-the-pause",
        r#""interactionType":"performance""#,
        r#""success":true"#,
        r#""response":"guard-lt[.]true"#,
    ] {
        assert!(statements[1].contains(part), "{part} missing: {}", statements[1]);
    }
    let reports: Vec<&String> =
        heard.iter().filter(|m| m.contains("challenge-attempted")).collect();
    assert_eq!(reports.len(), 2);
    assert!(reports[1].contains(r#""kind":"fix""#) && reports[1].contains(r#""solved":true"#));
    // The list marks it solved.
    let list = mount_at("#/challenge").await;
    let solved = until_within("the list", GRADE_MS, || find(&list, "solved")).await;
    assert!(!text(&solved).is_empty());
    let _ = storage().remove_item(SOLVED_KEY);
}

/// Ticks the builder panel's checkbox in the row `data-<attribute>` = `value`.
async fn tick(root: &web_sys::Element, attribute: &str, value: &str) {
    let input: web_sys::HtmlElement = root
        .query_selector(&format!("[data-{attribute}='{value}'] input[type=checkbox]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no row {value}"))
        .dyn_into()
        .unwrap();
    input.click();
    rendered().await;
}

/// Checks the author's challenge and waits for the answer (`author-ready` or
/// `author-refused`), returning its test id and text.
async fn check_authored(root: &web_sys::Element) -> (&'static str, String) {
    click(root, "author-check").await;
    until_within("the check", GRADE_MS, || {
        ["author-ready", "author-refused"]
            .into_iter()
            .find_map(|id| find(root, id).map(|e| (id, text(&e))))
    })
    .await
}

#[wasm_bindgen_test]
async fn a_challenge_made_in_the_builder_is_refused_until_it_grades_then_tried() {
    let draft_key = "fencing-playground/v1/challenge-draft";
    for key in [SOLVED_KEY, draft_key, "fencing-playground/sandbox-drafts/v1"] {
        let _ = storage().remove_item(key);
    }
    let root = mount_at("#/sandbox?edit=gc-pause-unfenced").await;
    let panel = shown(&root, "author").await;
    panel.set_attribute("open", "").unwrap();
    rendered().await;
    // No option offered: the loader's reason reaches the author.
    let (id, said) = check_authored(&root).await;
    assert_eq!(id, "author-refused");
    assert!(said.contains("Nothing to choose from"), "{said}");
    // Only a watchdog: it pauses with the process, so no design is safe.
    tick(&root, "key", "fence-the-pause/watchdog").await;
    let (id, said) = check_authored(&root).await;
    assert_eq!(id, "author-refused");
    assert!(said.contains("No combination"), "{said}");
    // With the guard on offer too, par is the guard's cost, found by the search.
    tick(&root, "key", "fence-the-pause/guard-lt").await;
    let (id, said) = check_authored(&root).await;
    assert_eq!(id, "author-ready", "{said}");
    assert!(said.contains("par is 1") && said.contains("WHERE last_fence"), "{said}");
    // Tried as a learner: the file is kept, the page grades it like a built-in.
    click(&root, "author-try").await;
    let kept = storage().get_item(draft_key).unwrap().expect("the draft challenge kept");
    assert!(kept.contains("\"scenario\"") && kept.contains("\"par\": 1"), "{kept}");
    let page = mount_at("#/challenge/draft").await;
    shown(&page, "challenge").await;
    click(&page, "option-watchdog").await;
    click(&page, "challenge-check").await;
    shown(&page, "challenge-hint").await;
    click(&page, "option-watchdog").await;
    click(&page, "option-guard-lt").await;
    click(&page, "challenge-check").await;
    shown(&page, "challenge-solved").await;
    assert_eq!(text(&find(&page, "challenge-back").unwrap()), "← Back to the lesson builder");
    // An author's draft is not one of the chapter's challenges: nothing kept as solved.
    assert_eq!(storage().get_item(SOLVED_KEY).unwrap(), None);
    let _ = storage().remove_item(draft_key);
    // With nothing kept, the draft page says where to make one.
    let page = mount_at("#/challenge/draft").await;
    let said = text(&shown(&page, "challenge-error").await);
    assert!(said.contains("lesson builder"), "{said}");
}
