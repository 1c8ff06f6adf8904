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
    // The counts keep first tries and practice apart: one first answer right, no question
    // right only after a retry.
    assert!(answered.contains(r#""correct_count":1,"practice_count":0"#), "{answered}");
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

/// `fencing-playground/quiz-progress/v1` and every embed's own key under it.
const PROGRESS_KEY: &str = "fencing-playground/quiz-progress/v1";

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Checks option `j` of the question on screen.
async fn answer(root: &web_sys::Element, j: usize) {
    let option: web_sys::HtmlInputElement =
        crate::support::find_all(root, "quiz-option")[j].clone().dyn_into().unwrap();
    option.click();
    rendered().await;
    click(root, "quiz-check").await;
}

#[wasm_bindgen_test]
async fn an_embedded_quiz_opens_show_me_in_a_new_tab_and_keeps_its_frame() {
    let root = mount_at("#/quiz?v=1&embed=1&frame=show").await;
    answer(&root, 0).await;
    let show = crate::support::until("Show me", || find(&root, "quiz-show")).await;
    assert_eq!(show.get_attribute("target").as_deref(), Some("_blank"));
    let href = show.get_attribute("href").unwrap();
    let (page, hash) = href.split_once('#').expect("a hash");
    assert!(page.starts_with("http"), "an address of its own, for a new tab: {href}");
    assert!(hash.starts_with("/s/gc-pause-fenced?v=1&t=40000"), "{href}");
    for embed_only in ["embed=1", "frame=", "origins="] {
        assert!(!hash.contains(embed_only), "the tab is the site's player, not an embed: {href}");
    }
    let _ = storage().remove_item(&format!("{PROGRESS_KEY}/frame/show"));
}

#[wasm_bindgen_test]
async fn completed_means_the_learner_reached_the_end() {
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    let origins = fencing_playground::route::percent_encode(&origin);
    let (_listener, received) = crate::support::hear_messages();
    let completed = |received: &std::rc::Rc<std::cell::RefCell<Vec<String>>>| {
        received.borrow().iter().filter(|m| m.contains(r#""type":"completed""#)).count()
    };
    // A link that opens at the end: nobody watched it.
    let root =
        mount_at(&format!("#/s/gc-pause-fenced?v=1&embed=1&reveal=1&t=999999&origins={origins}"))
            .await;
    crate::support::hear_all_sent(&received, "opened at the end").await;
    assert_eq!(completed(&received), 0, "a link's jump to the end is not the learner's");
    // One step back and the learner steps to the end: that is completed.
    click(&root, "step-back").await;
    click(&root, "step-forward").await;
    wait_for("completed", || completed(&received) == 1).await;
}

#[wasm_bindgen_test]
async fn the_export_pages_script_snippet_keeps_the_settings_and_says_when_reveal_is_on() {
    let root = mount_at("#/export/gc-pause-fenced?v=1&t=31500&ttl=20000&guard=le&reveal=1").await;
    let value = |id: &str| {
        let area = crate::support::find(&root, id).unwrap();
        area.dyn_into::<web_sys::HtmlTextAreaElement>().unwrap().value()
    };
    let script = crate::support::until("the script snippet", || {
        crate::support::find(&root, "embed-script").map(|_| value("embed-script"))
    })
    .await;
    for attribute in
        [r#"data-t="31500""#, r#"data-ttl="20000""#, r#"data-guard="le""#, r#"data-reveal="1""#]
    {
        assert!(script.contains(attribute), "{attribute} missing: {script}");
    }
    let frame = value("embed-snippet");
    assert!(frame.contains("ttl=20000") && frame.contains("reveal=1"), "{frame}");
    assert!(find(&root, "embed-reveal-note").is_some(), "reveal=1 turns predictions off");
    let plain = mount_at("#/export/gc-pause-fenced?v=1&t=31500").await;
    crate::support::until("the export page", || find(&plain, "embed-script")).await;
    assert!(find(&plain, "embed-reveal-note").is_none());
}

#[wasm_bindgen_test]
async fn each_embed_keeps_its_own_progress_and_two_tabs_join_theirs() {
    let key = |frame: &str| format!("{PROGRESS_KEY}/frame/{frame}");
    for k in [PROGRESS_KEY.to_owned(), key("one"), key("two")] {
        storage().remove_item(&k).unwrap();
    }
    let one = mount_at("#/quiz?v=1&embed=1&frame=one").await;
    answer(&one, 1).await;
    let stored = storage().get_item(&key("one")).unwrap().expect("frame one's own key");
    assert!(stored.contains("stale-write-at-the-db"), "{stored}");
    assert_eq!(storage().get_item(PROGRESS_KEY).unwrap(), None, "the site's quiz untouched");
    let two = mount_at("#/quiz?v=1&embed=1&frame=two").await;
    let progress = || text(&find(&two, "quiz-progress").unwrap());
    assert!(progress().contains("answered 0"), "another embed starts afresh: {}", progress());
    // Another tab of frame two stores an answer: this page takes it in.
    let theirs = r#"{"clock-jump":{"c":true,"f":true,"n":1}}"#;
    storage().set_item(&key("two"), theirs).unwrap();
    let init = web_sys::StorageEventInit::new();
    init.set_key(Some(&key("two")));
    init.set_new_value(Some(theirs));
    let event = web_sys::StorageEvent::new_with_event_init_dict("storage", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&event).unwrap();
    wait_for("the other tab's answer", || progress().contains("answered 1")).await;
    // ... and stores another while this one answers: neither answer is lost.
    storage()
        .set_item(
            &key("two"),
            r#"{"clock-jump":{"c":true,"f":true,"n":1},"aof-always":{"c":false,"f":false,"n":1}}"#,
        )
        .unwrap();
    answer(&two, 1).await;
    let stored = storage().get_item(&key("two")).unwrap().unwrap();
    for id in ["stale-write-at-the-db", "clock-jump", "aof-always"] {
        assert!(stored.contains(id), "{id} lost: {stored}");
    }
    for k in [key("one"), key("two")] {
        storage().remove_item(&k).unwrap();
    }
}

#[wasm_bindgen_test]
async fn an_embed_hides_the_ways_into_the_lab_unless_asked() {
    let tools = ["copy-link", "export-more", "edit-copy"];
    let plain = mount_at("#/s/gc-pause-fenced?v=1&embed=1").await;
    for id in tools {
        assert!(find(&plain, id).is_none(), "{id} shows in an embed");
    }
    let asked = mount_at("#/s/gc-pause-fenced?v=1&embed=1&tools=1").await;
    for id in tools {
        crate::support::until(id, || find(&asked, id)).await;
    }
}

#[wasm_bindgen_test]
async fn a_host_names_the_learner_and_the_registration_for_learning_events() {
    let window = web_sys::window().unwrap();
    let origin = window.location().origin().unwrap();
    // Statements are posted as objects: kept here as their JSON text.
    let statements: std::rc::Rc<std::cell::RefCell<Vec<String>>> = Default::default();
    let _listener = {
        let statements = statements.clone();
        gloo_events::EventListener::new(&window, "message", move |event| {
            let data = event.dyn_ref::<web_sys::MessageEvent>().unwrap().data();
            let text: String = match data.is_object() {
                true => js_sys::JSON::stringify(&data).unwrap().into(),
                false => return,
            };
            // Learning events only (this test's own set-learner passes here too).
            if text.contains(r#""action":"xAPI""#) {
                statements.borrow_mut().push(text);
            }
        })
    };
    let origins = fencing_playground::route::percent_encode(&origin);
    let base = fencing_playground::route::percent_encode("https://courses.example.org/fencing");
    let root =
        mount_at(&format!("#/quiz?v=1&embed=1&frame=named&origins={origins}&base={base}")).await;
    let registration = "ec531277-b57b-4c15-8d91-d292c5b2b8f7";
    let init = web_sys::MessageEventInit::new();
    init.set_origin(&origin);
    let message = js_sys::JSON::parse(&format!(
        r#"{{"protocol":"fencing-playground","version":1,"type":"set-learner","registration":"{registration}","actor":{{"objectType":"Agent","account":{{"homePage":"https://lms.example","name":"42"}}}}}}"#
    ))
    .unwrap();
    init.set_data(&message);
    window
        .dispatch_event(&web_sys::MessageEvent::new_with_event_init_dict("message", &init).unwrap())
        .unwrap();
    answer(&root, 1).await;
    wait_for("the answer's statement", || !statements.borrow().is_empty()).await;
    let statement = statements.borrow()[0].clone();
    for part in [
        format!(r#""registration":"{registration}""#),
        r#""actor":{"objectType":"Agent","account":{"homePage":"https://lms.example","name":"42"}}"#.to_owned(),
        r#""id":"https://courses.example.org/fencing/#/quiz?q=stale-write-at-the-db""#.to_owned(),
        r#""language":"en-US""#.to_owned(),
    ] {
        assert!(statement.contains(&part), "{part} missing: {statement}");
    }
    let _ = storage().remove_item(&format!("{PROGRESS_KEY}/frame/named"));
}

#[wasm_bindgen_test]
async fn a_link_chooses_the_quiz_questions_and_the_picker_writes_it() {
    let key = format!("{PROGRESS_KEY}/questions/clock-jump,uuid-token");
    storage().remove_item(&key).unwrap();
    // questions= asks those, in that order, and says which it does not know.
    let root = mount_at("#/quiz?v=1&questions=clock-jump,no-such-question,uuid-token").await;
    let unknown = text(&find(&root, "quiz-unknown").expect("the unknown id is named"));
    assert!(unknown.contains("no-such-question"), "{unknown}");
    let question = || find(&root, "question").unwrap().get_attribute("data-id").unwrap();
    assert_eq!(question(), "clock-jump");
    assert!(text(&find(&root, "quiz-progress").unwrap()).contains("of 2"));
    click(&root, "quiz-next").await;
    assert_eq!(question(), "uuid-token");
    answer(&root, 0).await;
    assert!(storage().get_item(&key).unwrap().is_some(), "this choice keeps its own progress");
    storage().remove_item(&key).unwrap();
    // The picker: two questions ticked make the snippet and the command for them.
    let site = mount_at("#/quiz").await;
    let picker = find(&site, "quiz-picker").expect("the picker is on the site's quiz");
    picker.set_attribute("open", "").unwrap();
    // (Each tick redraws the list: the boxes are looked up again.)
    for i in [2, 0] {
        let boxes = crate::support::find_all(&site, "picker-question");
        boxes[i].clone().dyn_into::<web_sys::HtmlInputElement>().unwrap().click();
        rendered().await;
    }
    let bank = fencing_playground::quiz::bank();
    let (first, third) = (&bank[0].id, &bank[2].id);
    let area = |id: &str| {
        find(&site, id).unwrap().dyn_into::<web_sys::HtmlTextAreaElement>().unwrap().value()
    };
    let snippet = area("picker-snippet");
    assert!(
        snippet.contains(&format!("questions={first}%2C{third}"))
            || snippet.contains(&format!("questions={first},{third}")),
        "{snippet}"
    );
    assert!(snippet.contains("embed=1") && snippet.contains("lab.html#/quiz"), "{snippet}");
    let command = area("picker-command");
    assert!(
        command.contains(&format!("scripts/package scorm12 --questions {first},{third}")),
        "{command}"
    );
    // An embed shows no picker.
    let embedded = mount_at("#/quiz?v=1&embed=1&frame=nopicker").await;
    assert!(find(&embedded, "quiz-picker").is_none());
    let _ = storage().remove_item(&format!("{PROGRESS_KEY}/frame/nopicker"));
}
