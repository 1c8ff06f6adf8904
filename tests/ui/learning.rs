//! Quiz, prediction prompts, permalinks, embedding and keyboard use.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{
    click, clock, find, find_all, hear_all_sent, install_packs, mount_at, press, rendered,
    set_change, set_hash, set_input, text, until, wait_for,
};

const PROGRESS_KEY: &str = "fencing-playground/quiz-progress/v1";

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

async fn choose(root: &web_sys::Element, option: usize) {
    let options = find_all(root, "quiz-option");
    let input: web_sys::HtmlInputElement = options[option].clone().dyn_into().unwrap();
    input.click();
    rendered().await;
}

#[wasm_bindgen_test]
async fn quiz_answers_get_feedback_and_progress_is_stored() {
    storage().remove_item(PROGRESS_KEY).unwrap();
    let root = mount_at("#/quiz").await;
    let id = find(&root, "question").unwrap().get_attribute("data-id").unwrap();
    assert_eq!(id, "stale-write-at-the-db");
    // A wrong answer: the feedback says so, explains, and marks the right option.
    choose(&root, 0).await;
    click(&root, "quiz-check").await;
    let feedback = text(&find(&root, "quiz-feedback").unwrap());
    assert!(
        feedback.starts_with("Not quite.") && feedback.contains("34 < 33 is false"),
        "{feedback}"
    );
    let right = find(&root, "quiz-right").expect("the right option is marked");
    let chosen = right.closest("label").unwrap().unwrap().query_selector("input").unwrap().unwrap();
    assert_eq!(chosen.get_attribute("value").as_deref(), Some("1"));
    assert!(find(&root, "quiz-retry").is_some(), "a wrong answer may be tried again");
    let show = find(&root, "quiz-show").unwrap().get_attribute("href").unwrap();
    assert!(show.starts_with("#/s/gc-pause-fenced?v=1&t=40000"), "{show}");
    let stored = storage().get_item(PROGRESS_KEY).unwrap().unwrap();
    assert_eq!(stored, r#"{"stale-write-at-the-db":{"c":false,"f":false,"n":1}}"#);
    assert!(
        text(&find(&root, "quiz-progress").unwrap())
            .contains("answered 1 · right the first time 0")
    );
    // A fresh page reads the stored progress back, and the question says how it went.
    let again = mount_at("#/quiz").await;
    assert!(
        text(&find(&again, "quiz-progress").unwrap())
            .contains("answered 1 · right the first time 0")
    );
    let before = text(&find(&again, "quiz-before").expect("the earlier answer is recalled"));
    assert!(before.contains("not right yet"), "{before}");
    // Right on the second try: recalled as such, and the score still counts the first.
    choose(&again, 1).await;
    click(&again, "quiz-check").await;
    let third = mount_at("#/quiz").await;
    assert!(text(&find(&third, "quiz-before").unwrap()).contains("right on a later try"));
    assert!(text(&find(&third, "quiz-progress").unwrap()).contains("right the first time 0"));
}

#[wasm_bindgen_test]
async fn a_wrong_answer_says_why_it_fails_and_may_be_tried_again() {
    storage().remove_item(PROGRESS_KEY).unwrap();
    let question = fencing_playground::quiz::bank().into_iter().next().unwrap();
    let why = |j: usize| question.why_not(j).expect("a wrong option's why").text.clone();
    let root = mount_at("#/quiz").await;
    // "It blocks until B releases the lock": wrong, and the feedback says why this option.
    choose(&root, 2).await;
    click(&root, "quiz-check").await;
    let why_not = text(&find(&root, "quiz-why-not").expect("why the choice fails"));
    assert_eq!(why_not, format!("Why not: {}", why(2)));
    assert!(text(&find(&root, "quiz-feedback").unwrap()).contains("34 < 33 is false"));
    // The other wrong options explain themselves too, folded away for review.
    let others = find(&root, "quiz-others").expect("the other options' why");
    let folded = others.text_content().unwrap_or_default();
    assert!(folded.contains(&why(0)) && folded.contains(&why(3)), "{folded}");
    assert!(!folded.contains(&why(2)), "the chosen option is explained above, not again");
    let input = |i: usize| -> web_sys::HtmlInputElement {
        find_all(&root, "quiz-option")[i].clone().dyn_into().unwrap()
    };
    assert!((0..4).all(|i| input(i).disabled()), "the options wait while the answer shows");
    // Try again: the choice is cleared and the options can be chosen again.
    click(&root, "quiz-retry").await;
    assert!(find(&root, "quiz-feedback").is_none() && find(&root, "quiz-retry").is_none());
    assert!((0..4).all(|i| !input(i).disabled() && !input(i).checked()));
    assert!(find(&root, "quiz-check").unwrap().has_attribute("disabled"), "nothing chosen yet");
    // Right this time: no why-not and no Try again; the score keeps the first answer.
    choose(&root, 1).await;
    click(&root, "quiz-check").await;
    assert!(text(&find(&root, "quiz-feedback").unwrap()).starts_with("Correct."));
    assert!(find(&root, "quiz-why-not").is_none() && find(&root, "quiz-retry").is_none());
    assert!(
        text(&find(&root, "quiz-progress").unwrap())
            .contains("answered 1 · right the first time 0")
    );
    let stored = storage().get_item(PROGRESS_KEY).unwrap().unwrap();
    assert_eq!(stored, r#"{"stale-write-at-the-db":{"c":true,"f":false,"n":2}}"#);
    // In Bahasa Indonesia the reason is the pack's.
    storage().remove_item(PROGRESS_KEY).unwrap();
    install_packs();
    let id = mount_at("#/quiz?lang=id").await;
    choose(&id, 2).await;
    click(&id, "quiz-check").await;
    let pack =
        fencing_playground::i18n::parse_pack(include_str!("../../static/i18n/id.json")).unwrap();
    let expected = pack.get("q.stale-write-at-the-db.why.2").unwrap();
    assert_eq!(
        text(&find(&id, "quiz-why-not").unwrap()),
        format!("Mengapa tidak tepat: {expected}")
    );
    assert_eq!(text(&find(&id, "quiz-retry").unwrap()), "Coba lagi");
    storage().remove_item(PROGRESS_KEY).unwrap();
}

#[wasm_bindgen_test]
async fn tampered_progress_is_reset_with_a_notice() {
    storage().set_item(PROGRESS_KEY, "{\"stale-write-at-the-db\": \"yes\"").unwrap();
    let root = mount_at("#/quiz").await;
    assert!(find(&root, "storage-notice").is_some(), "a visible notice");
    assert_eq!(storage().get_item(PROGRESS_KEY).unwrap(), None, "the bad value is gone");
    assert!(text(&find(&root, "quiz-progress").unwrap()).contains("answered 0"));
}

#[wasm_bindgen_test]
async fn a_permalink_restores_scenario_moment_and_parameters() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    set_change(&root, "param-ttl", "35000").await;
    set_input(&root, "scrubber", "31500").await;
    click(&root, "copy-link").await;
    let url =
        find(&root, "permalink").unwrap().dyn_into::<web_sys::HtmlInputElement>().unwrap().value();
    let hash = &url[url.find('#').expect("a hash in the link")..];
    assert!(
        hash.contains("v=1") && hash.contains("t=31500") && hash.contains("ttl=35000"),
        "{hash}"
    );
    // Reload from the link: same scenario, same moment, same parameter.
    set_hash("#/").await;
    let reopened = mount_at(hash).await;
    assert_eq!(
        find(&reopened, "player").unwrap().get_attribute("data-id").as_deref(),
        Some("gc-pause-fenced")
    );
    assert_eq!(clock(&reopened), "31.500 s");
    let ttl = find(&reopened, "param-ttl")
        .unwrap()
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap()
        .value();
    assert_eq!(ttl, "35000");
    assert!(text(&find(&reopened, "verdict").unwrap()).contains("what-if"));
}

#[wasm_bindgen_test]
async fn a_compressed_custom_scenario_link_opens_and_a_broken_one_explains() {
    let mut scenario = fencing_playground::catalogue::find("clock-jump").unwrap();
    scenario.id = fencing_playground::sim::scenario::ScenarioId::literal("my-clock-jump");
    scenario.title = "My own clock jump".into();
    let link = fencing_playground::ui::custom_link(&scenario).await;
    let hash = link.to_hash();
    assert!(hash.starts_with("#/s?v=1&sz="), "{hash}");
    let root = mount_at(&hash).await;
    // The link's scenario is inflated by the browser's DecompressionStream, asynchronously.
    let player = until("the custom scenario's player", || find(&root, "player")).await;
    assert_eq!(player.get_attribute("data-id").as_deref(), Some("my-clock-jump"));
    // A truncated link gets a message and the catalogue, not a dead page.
    let cut = &hash[..hash.len() - 7];
    let broken = mount_at(cut).await;
    until("the broken link's message", || find(&broken, "invalid-link")).await;
    assert!(find(&broken, "home").is_some());
    // So does a link from a newer version.
    let newer = mount_at("#/s/gc-pause-fenced?v=9").await;
    assert!(text(&find(&newer, "invalid-link").unwrap()).contains("newer version"));
}

#[wasm_bindgen_test]
async fn an_embed_talks_only_to_listed_origins() {
    let window = web_sys::window().unwrap();
    let origin = window.location().origin().unwrap();
    let (_listener, received) = crate::support::hear_messages();
    let hash = format!(
        "#/s/gc-pause-fenced?v=1&embed=1&origins={}",
        fencing_playground::route::percent_encode(&origin)
    );
    let root = mount_at(&hash).await;
    assert!(root.query_selector(".site-header").unwrap().is_none(), "no site chrome when embedded");
    let types = |received: &Rc<RefCell<Vec<String>>>| -> Vec<String> {
        received
            .borrow()
            .iter()
            .filter_map(|m| m.split("\"type\":\"").nth(1)?.split('"').next().map(str::to_owned))
            .collect()
    };
    wait_for("the ready and step messages", || {
        let types = types(&received);
        types.contains(&"ready".to_owned()) && types.contains(&"step".to_owned())
    })
    .await;
    // The host seeks the player.
    let host = |from: &str, body: &str| {
        let init = web_sys::MessageEventInit::new();
        init.set_origin(from);
        init.set_data(&wasm_bindgen::JsValue::from_str(&format!(
            "{{\"protocol\":\"fencing-playground\",\"version\":1,{body}}}"
        )));
        web_sys::MessageEvent::new_with_event_init_dict("message", &init).unwrap()
    };
    // A seek is delivered on the next turn of the event loop.
    window.dispatch_event(&host(&origin, "\"type\":\"seek\",\"t_ms\":31500")).unwrap();
    wait_for("the seek to 31.5 s", || clock(&root) == "31.500 s").await;
    let reported = || received.borrow().iter().any(|m| m.contains("\"t_ms\":31500"));
    wait_for("a step message reporting the seek", reported).await;
    // A message from an origin not in the list is ignored: sent after a listed one, it
    // would replace that one's seek, which is delivered once for both. (Back, so that no
    // prediction prompt stands in the way.)
    window.dispatch_event(&host(&origin, "\"type\":\"seek\",\"t_ms\":30000")).unwrap();
    window
        .dispatch_event(&host("https://evil.example", "\"type\":\"seek\",\"t_ms\":40000"))
        .unwrap();
    wait_for("the listed origin's seek", || clock(&root) != "31.500 s").await;
    assert_eq!(clock(&root), "30.000 s");
    // Without origins=, nothing is sent at all.
    hear_all_sent(&received, "the listed embed's last").await;
    received.borrow_mut().clear();
    let _closed = mount_at("#/s/gc-pause-fenced?v=1&embed=1").await;
    hear_all_sent(&received, "the closed embed's last").await;
    assert_eq!(*received.borrow(), ["the closed embed's last"]);
}

#[wasm_bindgen_test]
async fn a_prediction_prompt_stops_playback_until_answered() {
    let root = mount_at("#/s/gc-pause-fenced?t=39000").await;
    set_input(&root, "speed", "6").await;
    click(&root, "play").await;
    let prompt = until("playback to stop at the prompt", || find(&root, "prompt")).await;
    assert!(text(&prompt).contains("What will the database answer"), "{}", text(&prompt));
    assert_eq!(
        find(&root, "play").unwrap().get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    let options = find_all(&root, "prompt-option");
    options[0].clone().dyn_into::<web_sys::HtmlElement>().unwrap().click();
    rendered().await;
    assert!(text(&find(&root, "prompt-feedback").unwrap()).starts_with("Not quite."));
    click(&root, "prompt-retry").await;
    let right = fencing_playground::catalogue::find("gc-pause-fenced").unwrap().prompts[1].answer;
    find_all(&root, "prompt-option")[right]
        .clone()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    rendered().await;
    assert!(text(&find(&root, "prompt-feedback").unwrap()).starts_with("Correct."));
    click(&root, "prompt-continue").await;
    assert!(find(&root, "prompt").is_none());
}

#[wasm_bindgen_test]
async fn a_keyboard_only_walk_through_a_scenario() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    let player: web_sys::HtmlElement = find(&root, "player").unwrap().dyn_into().unwrap();
    player.focus().unwrap();
    press(&player, "ArrowRight", false).await;
    assert!(
        text(&find(&root, "live").unwrap()).contains("granted"),
        "the live region announces the event"
    );
    press(&player, "ArrowRight", true).await;
    press(&player, "ArrowRight", true).await;
    assert_eq!(clock(&root), "30.001 s");
    press(&player, " ", false).await;
    assert_eq!(find(&root, "play").unwrap().get_attribute("aria-pressed").as_deref(), Some("true"));
    press(&player, " ", false).await;
    assert_eq!(
        find(&root, "play").unwrap().get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    press(&player, "End", false).await;
    assert_eq!(clock(&root), "40.000 s");
    // The text event log offers every event as a button, an alternative to the SVG.
    let log = find_all(&root, "log-event");
    assert_eq!(log.len(), find_all(&root, "event").len());
    log[3].clone().dyn_into::<web_sys::HtmlElement>().unwrap().click();
    rendered().await;
    assert_eq!(clock(&root), "31.000 s");
    let current =
        root.query_selector("[data-testid='log-event'][aria-current='step']").unwrap().unwrap();
    assert!(
        current.text_content().unwrap_or_default().contains("granted"),
        "{:?}",
        current.text_content()
    );
    // The scrubber is a labelled slider whose value text names the time and the event.
    let scrubber = find(&root, "scrubber").unwrap();
    assert!(scrubber.get_attribute("aria-valuetext").unwrap().starts_with("31.000 s, B: granted"));
}

#[wasm_bindgen_test]
async fn switching_language_changes_the_ui_the_narration_and_the_quiz() {
    install_packs();
    let root = mount_at("#/s/gc-pause-fenced?lang=id&t=40000").await;
    assert_eq!(text(&find(&root, "nav-quiz").unwrap()), "Kuis");
    assert!(text(&find(&root, "play").unwrap()).contains("Putar"));
    assert!(
        text(&find(&root, "narration").unwrap()).starts_with("A melihat 0 baris"),
        "{}",
        text(&find(&root, "narration").unwrap())
    );
    assert!(
        text(&root).contains("Penulisan basi ditolak")
            || text(&root).contains("GC pause dengan fencing")
    );
    // The header menu switches language and keeps the place.
    set_change(&root, "lang", "vi").await;
    let explore = || text(&find(&root, "nav-explore").unwrap());
    wait_for("the Vietnamese menu", || explore() == "Khám phá rủi ro").await;
    assert!(
        text(&find(&root, "narration").unwrap()).starts_with("A thấy 0 dòng"),
        "{}",
        text(&find(&root, "narration").unwrap())
    );
    assert_eq!(clock(&root), "40 giây", "the time in Vietnamese");
    assert!(text(&find(&root, "why").unwrap()).contains("bị từ chối: last_fence là 34"));
    let quiz = mount_at("#/quiz?lang=vi").await;
    assert!(text(&find(&quiz, "quiz-prompt").unwrap()).starts_with("A lấy lock với token 33"));
    let quiz = mount_at("#/quiz?lang=id").await;
    assert!(
        text(&find(&quiz, "quiz-prompt").unwrap()).starts_with("A mengambil lock dengan token 33")
    );
    let html = || web_sys::window().unwrap().document().unwrap().document_element().unwrap();
    assert_eq!(
        html().get_attribute("lang").as_deref(),
        Some("id"),
        "the document says its language"
    );
    let english = mount_at("#/quiz?lang=en").await;
    assert!(
        text(&find(&english, "quiz-prompt").unwrap()).starts_with("A took the lock with token 33")
    );
    assert_eq!(html().get_attribute("lang").as_deref(), Some("en"));
}
