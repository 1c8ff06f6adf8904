//! What course pages rely on: the embed options in the link, and a host page keeping the
//! learner's quiz progress.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{click, clock, find, mount_at, rendered, text, wait_for};

#[wasm_bindgen_test]
async fn from_and_to_keep_the_learner_in_the_stretch() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&from=30000&to=35000&reveal=1").await;
    assert_eq!(clock(&root), "30.000 s", "opens at the start of the stretch");
    click(&root, "step-back").await;
    assert_eq!(clock(&root), "30.000 s", "no step before it");
    for _ in 0..20 {
        click(&root, "step-forward").await;
    }
    assert_eq!(clock(&root), "35.000 s", "no step beyond it");
}

#[wasm_bindgen_test]
async fn controls_and_theme_follow_the_link() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&embed=1&controls=none&theme=dark").await;
    let player = find(&root, "player").unwrap();
    assert!(
        player.class_name().split_whitespace().any(|c| c == "controls-none"),
        "{}",
        player.class_name()
    );
    let html = web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    assert_eq!(html.get_attribute("data-theme").as_deref(), Some("dark"));
    // Back to the reader's setting.
    let _auto = mount_at("#/s/gc-pause-fenced?v=1").await;
    assert_eq!(html.get_attribute("data-theme"), None);
}

#[wasm_bindgen_test]
async fn a_host_keeps_quiz_progress_and_gives_it_back() {
    let window = web_sys::window().unwrap();
    let origin = window.location().origin().unwrap();
    let (_listener, received) = crate::support::hear_messages();
    let origins = fencing_playground::route::percent_encode(&origin);
    let hash = format!("#/quiz?v=1&embed=1&frame=q&origins={origins}");
    // The host hands back what it kept from an earlier visit.
    let kept = r#"{"stale-write-at-the-db":{"c":true,"f":true,"n":1},"clock-jump":{"c":false,"f":false,"n":2}}"#;
    let init = web_sys::MessageEventInit::new();
    init.set_origin(&origin);
    init.set_data(&wasm_bindgen::JsValue::from_str(&format!(
        r#"{{"protocol":"fencing-playground","version":1,"type":"restore-progress","data":{}}}"#,
        serde_json::Value::from(kept)
    )));
    let root = mount_at(&hash).await;
    window
        .dispatch_event(&web_sys::MessageEvent::new_with_event_init_dict("message", &init).unwrap())
        .unwrap();
    let progress = || text(&find(&root, "quiz-progress").unwrap());
    wait_for("the restored progress", || progress().contains("answered 2")).await;
    assert!(progress().contains("answered 2 · right the first time 1"), "{}", progress());
    let ready = format!(
        r#""type":"ready","view":"quiz","total":{},"frame":"q""#,
        fencing_playground::quiz::BANK_SIZE
    );
    wait_for("the ready message", || received.borrow().iter().any(|m| m.contains(&ready))).await;
    // An answer: the host hears it with its attempt and the learner's progress to keep.
    let option: web_sys::HtmlInputElement =
        crate::support::find_all(&root, "quiz-option")[1].clone().dyn_into().unwrap();
    option.click();
    rendered().await;
    click(&root, "quiz-check").await;
    let heard_both = || {
        let heard = received.borrow();
        heard.iter().any(|m| m.contains(r#""type":"quiz-answered""#))
            && heard.iter().any(|m| m.contains(r#""type":"progress""#))
    };
    wait_for("the quiz-answered and progress messages", heard_both).await;
    let heard = received.borrow().clone();
    let answered =
        heard.iter().find(|m| m.contains(r#""type":"quiz-answered""#)).expect("quiz-answered");
    assert!(answered.contains(r#""question":"stale-write-at-the-db","correct":true,"choice":1,"attempt":2,"first_try":false"#), "{answered}");
    let progress = heard.iter().find(|m| m.contains(r#""type":"progress""#)).expect("progress");
    assert!(
        progress.contains(r#"\"stale-write-at-the-db\":{\"c\":true,\"f\":true,\"n\":2}"#),
        "{progress}"
    );
    // A damaged copy is ignored, never a panic.
    init.set_data(&wasm_bindgen::JsValue::from_str(
        r#"{"protocol":"fencing-playground","version":1,"type":"restore-progress","data":"{oops"}"#,
    ));
    window
        .dispatch_event(&web_sys::MessageEvent::new_with_event_init_dict("message", &init).unwrap())
        .unwrap();
    // The page reads a host's message in its listener, before `dispatch_event` returns.
    rendered().await;
    assert!(text(&find(&root, "quiz-progress").unwrap()).contains("answered 2"));
}
