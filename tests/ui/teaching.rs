//! The player teaches: tokens in the picture, a legend, predictions that cannot be skipped
//! or spoiled, and links (Back included) that move the player.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{
    click, clock, find, find_all, install_packs, mount_at, press, rendered, set_hash, text, until,
    wait_for,
};

fn texts(root: &web_sys::Element, test_id: &str) -> Vec<String> {
    find_all(root, test_id).iter().map(|e| e.text_content().unwrap_or_default()).collect()
}

fn step_count(root: &web_sys::Element) -> String {
    text(&find(root, "step-count").expect("step count"))
}

#[wasm_bindgen_test]
async fn the_timeline_shows_each_token_and_the_stored_fence() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&t=40000").await;
    // A's grant carries 33, B's 34; B's write lands with 34 (printed once, on the row's
    // step: issue 30, item 13), A's is refused with 33.
    assert_eq!(texts(&root, "token-label"), ["33", "34"]);
    assert_eq!(texts(&root, "write-token"), ["33"]);
    assert_eq!(texts(&root, "fence-label"), ["0", "34"], "last_fence steps to 34");
    let refused = root.query_selector("[data-kind='write-rejected'].refused").unwrap();
    assert!(refused.is_some(), "the rejected write is drawn as a refusal");
    // The legend names every glyph.
    let legend = find(&root, "legend").expect("legend");
    let items = legend.query_selector_all("li").unwrap().length();
    assert!(items >= 10, "{items} legend entries");
    assert!(text(&legend).contains("Legend") || legend.text_content().unwrap().contains("Legend"));
    // Focus on a mark explains it in the page.
    let mark = root.query_selector("[data-kind='write-rejected']").unwrap().unwrap();
    mark.dyn_ref::<web_sys::SvgElement>().unwrap().focus().unwrap();
    rendered().await;
    let tip = find(&root, "tip").expect("an explanation of the focused mark");
    assert!(tip.text_content().unwrap().contains("write rejected"), "{:?}", tip.text_content());
}

#[wasm_bindgen_test]
async fn nothing_gives_the_answer_away_before_the_prompt() {
    // gc-pause-unfenced asks what A's late write does; until then the page must not say.
    let root = mount_at("#/s/gc-pause-unfenced").await;
    let spoilers = ["both writes land", "VIOLATION", "no-stale-accept", "2 writers", "is gone"];
    let mut steps = 0;
    while find(&root, "prompt").is_none() {
        let page = root.text_content().unwrap_or_default();
        for spoiler in spoilers {
            assert!(!page.contains(spoiler), "step {steps} shows {spoiler:?}: {page}");
        }
        let kinds: Vec<String> =
            find_all(&root, "event").iter().filter_map(|e| e.get_attribute("data-kind")).collect();
        assert!(!kinds.iter().any(|k| k == "violation"), "the future is not drawn: {kinds:?}");
        click(&root, "step-forward").await;
        steps += 1;
        assert!(steps < 40, "no prompt reached");
    }
    // After the answer, the outcome is there.
    find_all(&root, "prompt-option")[1].clone().dyn_into::<web_sys::HtmlElement>().unwrap().click();
    rendered().await;
    click(&root, "prompt-continue").await;
    click(&root, "step-forward").await;
    assert!(text(&find(&root, "verdict").unwrap()).contains("no-stale-accept"));
}

#[wasm_bindgen_test]
async fn continue_goes_exactly_one_step_to_the_predicted_moment() {
    let root = mount_at("#/s/gc-pause-unfenced").await;
    let player = find(&root, "player").unwrap();
    // End stops at the prompt instead of passing it.
    press(&player, "End", false).await;
    assert!(find(&root, "prompt").is_some(), "End stopped at the prompt");
    let before = step_count(&root);
    // Neither a milestone jump nor another End moves past it.
    click(&root, "milestone-forward").await;
    press(&player, "End", false).await;
    assert_eq!(step_count(&root), before);
    find_all(&root, "prompt-option")[1].clone().dyn_into::<web_sys::HtmlElement>().unwrap().click();
    rendered().await;
    click(&root, "prompt-continue").await;
    let n = |count: &str| -> usize {
        count.trim_start_matches("step ").split(' ').next().unwrap().parse().unwrap()
    };
    assert_eq!(n(&step_count(&root)), n(&before) + 1, "one step on");
    assert_eq!(
        find(&root, "play").unwrap().get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    // The predicted moment itself, with its paragraph: A's late write lands.
    let current = root.query_selector(".is-current .tag").unwrap().unwrap();
    assert_eq!(text(&current), "write accepted");
    assert!(text(&find(&root, "narration").unwrap()).contains("matches the row too"));
}

#[wasm_bindgen_test]
async fn a_new_hash_and_back_move_the_player() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&t=31000").await;
    assert_eq!(clock(&root), "31.000 s");
    set_hash("#/s/gc-pause-fenced?v=1&t=40000").await;
    assert_eq!(clock(&root), "40.000 s", "the same scenario, a new moment");
    // Back is a navigation the browser carries out later.
    web_sys::window().unwrap().history().unwrap().back().unwrap();
    wait_for("Back to restore the previous moment", || clock(&root) == "31.000 s").await;
}

#[wasm_bindgen_test]
async fn the_quiz_keeps_its_question_in_the_link_so_back_returns_to_it() {
    let root = mount_at("#/quiz?v=1&q=3").await;
    let progress = || text(&find(&root, "quiz-progress").unwrap());
    assert!(progress().starts_with("Question 3 of"), "{}", progress());
    click(&root, "quiz-next").await;
    let hash = web_sys::window().unwrap().location().hash().unwrap();
    assert!(hash.contains("q=4"), "{hash}");
    // Leave for the simulator, then come Back: question 4 again.
    set_hash("#/s/gc-pause-fenced?v=1&t=40000").await;
    web_sys::window().unwrap().history().unwrap().back().unwrap();
    until("Back to reopen the quiz", || find(&root, "quiz")).await;
    assert!(progress().starts_with("Question 4 of"), "{}", progress());
}

#[wasm_bindgen_test]
async fn times_are_written_the_learners_way() {
    install_packs();
    let root = mount_at("#/s/gc-pause-fenced?v=1&t=40000&lang=id").await;
    assert_eq!(clock(&root), "40 dtk", "no zero milliseconds to read as thousands");
    let root = mount_at("#/s/gc-pause-fenced?v=1&t=31500&lang=vi").await;
    assert_eq!(clock(&root), "31,5 giây");
    // The simulator's own prose too: A's pause, read in Vietnamese.
    let workers = find_all(&root, "worker");
    assert!(
        workers.iter().any(|w| text(w).contains("40 giây")),
        "{:?}",
        workers.iter().map(text).collect::<Vec<_>>()
    );
}

#[wasm_bindgen_test]
async fn the_compare_view_speaks_the_learners_language() {
    install_packs();
    for (lang, headings) in [
        (
            "id",
            [
                "Tanpa proteksi = Idempotency key saja",
                "Fencing token saja = Fencing dan idempotency key",
            ],
        ),
        (
            "vi",
            [
                "Không bảo vệ = Chỉ idempotency key",
                "Chỉ fencing token = Fencing và idempotency key",
            ],
        ),
    ] {
        let root = mount_at(&format!("#/compare/gc-pause-unfenced?v=1&lang={lang}")).await;
        let shown: Vec<String> = find_all(&root, "variant")
            .iter()
            .map(|v| v.query_selector("h2").unwrap().unwrap().text_content().unwrap_or_default())
            .collect();
        assert_eq!(shown, headings, "{lang}");
    }
}

/// The names an "In your code" panel shows as code.
fn code_names(root: &web_sys::Element) -> Vec<String> {
    let Some(panel) = root.query_selector(".in-code").unwrap() else { return Vec::new() };
    let codes = panel.query_selector_all("code").unwrap();
    (0..codes.length())
        .filter_map(|i| codes.item(i))
        .map(|n| n.text_content().unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn a_lesson_says_how_its_mechanism_is_spelled_in_the_libraries() {
    // From the idempotency chapter on, a lesson has the panel; its cited names are code.
    let root = mount_at("#/s/failover-duplicate-token-lte?v=1&reveal=1").await;
    let panel = root.query_selector(".in-code").unwrap().expect("an In your code panel");
    assert!(text(&panel).starts_with("In your code"), "{}", text(&panel));
    let names = code_names(&root);
    assert!(names.iter().any(|n| n == "RFencedLock"), "{names:?}");
    let all = panel.text_content().unwrap_or_default();
    assert!(all.contains("RFencedLock") && !all.contains('`'), "backticks are not shown: {all}");
    // The first lessons have none.
    let root = mount_at("#/s/gc-pause-fenced?v=1").await;
    assert!(root.query_selector(".in-code").unwrap().is_none());
    // Translated, with the same names as code.
    install_packs();
    let root = mount_at("#/s/failover-duplicate-token-lte?v=1&reveal=1&lang=id").await;
    let panel = root.query_selector(".in-code").unwrap().expect("the panel in Indonesian");
    assert!(text(&panel).starts_with("Dalam kode Anda"), "{}", text(&panel));
    assert_eq!(code_names(&root), names);
}
