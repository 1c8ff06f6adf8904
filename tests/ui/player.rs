//! The player: scrubbing, stepping, playing, what-if forks and the compare view.

use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{
    click, clock, find, find_all, mount_at, press, redis_cell, rendered, set_change, set_input,
    text, until, wait_for,
};

fn current_tag(root: &web_sys::Element) -> String {
    let inspector = find(root, "inspector").expect("inspector");
    text(&inspector.query_selector(".is-current .tag").unwrap().expect("current event"))
}

#[wasm_bindgen_test]
async fn scrubbing_moves_the_inspector_to_the_right_state() {
    // The instructor's view: no prediction prompt stops the scrubber here.
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    set_input(&root, "scrubber", "31500").await;
    assert_eq!(clock(&root), "31.500 s");
    assert_eq!(
        redis_cell(&root, "redis", "lock:order:42", 1).as_deref(),
        Some("B-55613ff287e7"),
        "the lock holds the value of B's acquisition"
    );
    assert_eq!(
        redis_cell(&root, "redis", "fence:order:42", 1).as_deref(),
        Some("34"),
        "the counter reads 34"
    );
    set_input(&root, "scrubber", "40000").await;
    let commands: Vec<String> = find_all(&root, "command").iter().map(text).collect();
    assert!(
        commands.iter().any(|c| c.contains("last_fence < 33") && c.contains("UPDATE 0")),
        "{commands:?}"
    );
    let row = find(&root, "sql-row").unwrap();
    assert_eq!(row.get_attribute("data-id").as_deref(), Some("42"));
    assert_eq!(text(&find(&root, "last-fence").unwrap()), "34");
    assert!(text(&find(&root, "narration").unwrap()).contains("0 rows"));
}

#[wasm_bindgen_test]
async fn stepping_and_semantic_stepping() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    assert!(text(&find(&root, "step-count").unwrap()).starts_with("step 0 of "));
    click(&root, "step-forward").await;
    assert_eq!(current_tag(&root), "granted");
    assert!(text(&find(&root, "step-count").unwrap()).starts_with("step 1 of "));
    click(&root, "milestone-forward").await;
    assert_eq!(current_tag(&root), "paused");
    click(&root, "milestone-forward").await;
    assert_eq!(current_tag(&root), "expired");
    assert_eq!(clock(&root), "30.001 s");
    click(&root, "step-back").await;
    assert_eq!(current_tag(&root), "paused");
    // The keyboard does the same while the player has focus.
    let player = find(&root, "player").unwrap();
    press(&player, "ArrowRight", true).await;
    assert_eq!(current_tag(&root), "expired");
    press(&player, "ArrowLeft", false).await;
    assert_eq!(current_tag(&root), "paused");
    press(&player, "End", false).await;
    assert_eq!(clock(&root), "40.000 s");
    press(&player, "Home", false).await;
    assert_eq!(clock(&root), "0.000 s");
}

#[wasm_bindgen_test]
async fn play_stops_at_the_end() {
    let root = mount_at("#/s/clock-jump").await;
    set_input(&root, "speed", "6").await;
    set_input(&root, "scrubber", "14500").await;
    click(&root, "play").await;
    assert_eq!(find(&root, "play").unwrap().get_attribute("aria-pressed").as_deref(), Some("true"));
    // 0.5 s of virtual time at 10x is 50 ms of real time.
    let pressed = || find(&root, "play").unwrap().get_attribute("aria-pressed");
    wait_for("play to stop", || pressed().as_deref() == Some("false")).await;
    assert_eq!(clock(&root), "15.000 s");
    let count = text(&find(&root, "step-count").unwrap());
    let (done, all) = count.trim_start_matches("step ").split_once(" of ").unwrap();
    assert_eq!(done, all, "{count}");
}

#[wasm_bindgen_test]
async fn a_what_if_pause_shorter_than_the_ttl_removes_the_rejection() {
    let root = mount_at("#/s/gc-pause-fenced?t=20000&reveal=1").await;
    let kinds = |root: &web_sys::Element| -> Vec<String> {
        find_all(root, "event").iter().filter_map(|e| e.get_attribute("data-kind")).collect()
    };
    assert!(kinds(&root).iter().any(|k| k == "write-rejected"));
    set_change(&root, "param-pause", "20000").await;
    assert!(!kinds(&root).iter().any(|k| k == "write-rejected"), "{:?}", kinds(&root));
    assert_eq!(clock(&root), "20.000 s", "the fork keeps the time");
    assert!(text(&find(&root, "verdict").unwrap()).contains("what-if"));
    assert!(text(&root).contains("changed"));
    click(&root, "reset").await;
    assert!(kinds(&root).iter().any(|k| k == "write-rejected"));
}

#[wasm_bindgen_test]
async fn the_compare_view_shares_one_scrubber() {
    // Issue 30, item 12: nothing is charged here, so the key changes nothing: "no
    // protection" and "key only" are one panel, and so are "fencing" and "both", said once.
    let root = mount_at("#/compare/gc-pause-unfenced").await;
    let variants = find_all(&root, "variant");
    let words: Vec<String> =
        variants.iter().filter_map(|v| v.get_attribute("data-variant")).collect();
    assert_eq!(words, ["none key", "fence both"]);
    let heading = text(&variants[0].query_selector("h2").unwrap().unwrap());
    assert_eq!(heading, "No protection = Idempotency key only");
    let changes: Vec<String> = find_all(&root, "changes").iter().map(text).collect();
    assert!(changes[0].contains("idempotency key changes nothing here"), "{changes:?}");
    assert!(changes[0].contains("the lock still hands out a token"), "{changes:?}");
    assert_eq!(changes.iter().filter(|c| c.contains("changes nothing")).count(), 2);
    let cursors = |root: &web_sys::Element| -> Vec<String> {
        let list = root.query_selector_all("[data-testid='variant'] line.cursor").unwrap();
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<web_sys::Element>().ok()?.get_attribute("x1"))
            .collect()
    };
    let before = cursors(&root);
    set_input(&root, "scrubber", "35000").await;
    let after = cursors(&root);
    assert_eq!(after.len(), 2);
    assert!(after.iter().all(|x| *x == after[0]), "{after:?}");
    assert_ne!(before, after);
    // The differences are marked: fencing changes the rejected writes and the violations,
    // an idempotency key alone changes neither.
    let differing = |variant: &str| -> usize {
        let selector = format!(
            "[data-testid='compare-row'][data-variant='{variant}'] td[data-differs='true']"
        );
        root.query_selector_all(&selector).unwrap().length() as usize
    };
    assert_eq!(differing("none key"), 0);
    assert!(differing("fence both") >= 2, "fencing differs in rejections and violations");
    // Each write in the compact drawings carries its token.
    assert!(
        find_all(&root, "write-token").iter().any(|t| t.text_content().as_deref() == Some("33"))
    );
}

/// The panels' outcomes and changes in order, checking the panels are `words`.
async fn compare_outcomes(id: &str, words: &[&str]) -> (Vec<String>, Vec<String>) {
    let root = mount_at(&format!("#/compare/{id}")).await;
    let shown: Vec<String> =
        find_all(&root, "variant").iter().filter_map(|v| v.get_attribute("data-variant")).collect();
    assert_eq!(shown, words, "{id}");
    let outcomes = find_all(&root, "outcome").iter().map(text).collect();
    let changes = find_all(&root, "changes").iter().map(text).collect();
    (outcomes, changes)
}

#[wasm_bindgen_test]
async fn in_the_compare_view_fencing_fences_where_nothing_else_does() {
    // The idempotency-versus-fencing lesson itself, and a lesson whose writes carry no token:
    // the stale write lands without a fence and is stopped with one.
    let (outcomes, changes) =
        compare_outcomes("stale-writer-idempotency-only", &["none", "key", "fence", "both"]).await;
    assert!(outcomes[0].contains("VIOLATED"), "{outcomes:?}");
    assert!(outcomes[1].contains("VIOLATED"), "{outcomes:?}");
    assert!(!outcomes[2].contains("no-stale-accept"), "{outcomes:?}");
    assert!(!outcomes[3].contains("no-stale-accept"), "{outcomes:?}");
    assert!(changes[2].contains("last_fence < token"), "{changes:?}");
    // Nothing is charged in client-side-check: two panels.
    let (outcomes, changes) =
        compare_outcomes("client-side-check", &["none key", "fence both"]).await;
    assert!(outcomes[0].contains("VIOLATED"), "{outcomes:?}");
    assert!(!outcomes[1].contains("no-stale-accept"), "{outcomes:?}");
    assert!(changes[1].contains("last_fence < token"), "{changes:?}");
}

#[wasm_bindgen_test]
async fn a_what_if_run_does_not_borrow_the_lessons_narration() {
    // With a 45 s TTL B is denied: the lesson's "B writes ... UPDATE 1" must not be shown,
    // and the summary is marked as the lesson's.
    let root = mount_at("#/s/gc-pause-unfenced?v=1&ttl=45000&t=60000").await;
    let narration = text(&find(&root, "narration").expect("narration"));
    assert!(narration.contains("differs from the lesson"), "{narration}");
    let tag = text(&find(&root, "lesson-tag").expect("the summary is marked"));
    assert!(tag.contains("lesson"), "{tag}");
    let verdict = text(&find(&root, "verdict").expect("verdict"));
    assert!(!verdict.contains("VIOLATED"), "the verdict is the run's: {verdict}");
}

/// Issue 29, item 4: a run stopped at the model's event limit used to read "no safety
/// violation" with nothing to say it was cut short.
#[wasm_bindgen_test]
async fn a_run_cut_short_says_where_and_that_nothing_after_was_checked() {
    use fencing_playground::route::{Link, Payload, View};
    // A watchdog renewing every millisecond for a day: 20,000 events in the first 20 s.
    let json = r#"{"format": 1, "id": "cut-short", "title": "Cut short", "chapter": "Test", "summary": "s", "goal": "g", "seed": 1, "until_ms": 86400000,
 "redis": {"nodes": [{"name": "redis"}], "lock_key": "lock:order:42", "fence_key": "fence:order:42"},
 "sql": {"order_id": 42, "amount": 100, "guard": "lt"},
 "workers": [{"name": "A", "start_ms": 0, "program": [{"do": "acquire", "ttl_ms": 30000}, {"do": "watchdog", "interval_ms": 1}, {"do": "compute", "ms": 86000000}, {"do": "write", "status": "paid"}, {"do": "release"}]}],
 "faults": []}"#;
    let hash = Link::to(View::Custom { payload: Payload::Json(json.to_owned()) }).to_hash();
    let root = mount_at(&hash).await;
    let verdict = until("a verdict", || find(&root, "verdict")).await;
    let said = text(&verdict);
    assert!(said.contains("CUT SHORT at 19.999 s, after 20000 events"), "{said}");
    assert!(said.contains("nothing after that moment was simulated or checked"), "{said}");
    assert!(said.contains("no safety violation up to 19.999 s"), "{said}");
    assert!(!said.contains('✓'), "a run cut short gets no tick: {said}");
    // Its 20,000 events are not 60,000 elements rewritten on every seek: the drawing puts one
    // mark where many would cover each other, and the log lists those around the cursor.
    let marks = find_all(&root, "event").len();
    assert!((1..2_000).contains(&marks), "{marks} marks drawn");
    assert_eq!(find_all(&root, "log-event").len(), 400);
    let window = find(&root, "log-window").expect("the log says which events it lists");
    let window = window.text_content().unwrap_or_default();
    assert!(window.contains("Events 1 to 400 of 20000"), "{window}");
}

/// Issue 30, item 7: arriving from a home card leaves focus on the page itself, and → did
/// nothing until the learner clicked inside the player.
#[wasm_bindgen_test]
async fn the_keys_work_on_arrival_with_focus_on_the_page() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    let document = web_sys::window().unwrap().document().unwrap();
    if let Some(active) =
        document.active_element().and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok())
    {
        active.blur().unwrap();
    }
    let body: web_sys::Element = document.body().unwrap().into();
    let steps = || text(&find(&root, "step-count").expect("the step counter"));
    let before = steps();
    press(&body, "ArrowRight", false).await;
    assert_ne!(steps(), before, "→ on the page steps the player");
    // A key aimed at a form field stays the field's.
    let after = steps();
    let field = find(&root, "param-pause").expect("a what-if field");
    press(&field, "ArrowRight", false).await;
    assert_eq!(steps(), after, "→ in a what-if field leaves the cursor alone");
}

/// Issue 30, item 8: "Why:" links numbered events from 0 and the step counter from 1, so
/// "#5" opened "step 6 of 13". A link names the step it opens.
#[wasm_bindgen_test]
async fn a_why_link_names_the_step_it_opens() {
    let root = mount_at("#/s/gc-pause-fenced?v=1&reveal=1").await;
    let mut link = None;
    for _ in 0..40 {
        link = root.query_selector("[data-testid=why] button[data-seek]").unwrap();
        if link.is_some() {
            break;
        }
        click(&root, "step-forward").await;
    }
    let link: web_sys::HtmlElement =
        link.expect("a step with a why and its causes").dyn_into().unwrap();
    let said = link.text_content().unwrap_or_default();
    let step: String =
        said.trim_start_matches("step ").chars().take_while(char::is_ascii_digit).collect();
    assert!(said.starts_with("step ") && !step.is_empty(), "{said}");
    link.click();
    rendered().await;
    let counter = text(&find(&root, "step-count").expect("the step counter"));
    assert!(counter.starts_with(&format!("step {step} of")), "{said} opened {counter}");
}

/// Issue 30, item 9: a step the story does not speak of showed its raw event above the
/// earlier paragraph, which read as if that paragraph's write happened again.
#[wasm_bindgen_test]
async fn a_step_the_story_skips_says_what_it_did_and_labels_the_earlier_paragraph() {
    let root = mount_at("#/s/gc-pause-unfenced?v=1&reveal=1").await;
    let player = find(&root, "player").expect("the player");
    let narration = || text(&find(&root, "narration").expect("the narration"));
    let (mut labelled, mut told) = (0, 0);
    for _ in 0..40 {
        click(&root, "step-forward").await;
        let said = narration();
        if said.starts_with("This step:") {
            labelled += 1;
            assert!(said.contains("From step "), "the earlier paragraph says whose it is: {said}");
        } else {
            told += 1;
            assert!(!said.contains("From step "), "a step's own paragraph is not labelled: {said}");
        }
    }
    press(&player, "End", false).await;
    assert!(narration().starts_with("This step:"), "{}", narration());
    assert!(labelled > 0 && told > 0, "{labelled} labelled steps, {told} told");
}

/// Issue 30, item 11: with WAIT after the grant, A gives up and only B writes: token 50 was
/// still given out twice. The verdict says the hazard and that nothing was damaged, in
/// amber; the lesson's own run, where both write, stays red.
#[wasm_bindgen_test]
async fn a_hazard_that_damaged_nothing_is_not_called_a_violation() {
    let root = mount_at("#/s/failover-duplicate-token?v=1&wait=100&t=60000").await;
    let verdict = find(&root, "verdict").expect("verdict");
    let said = text(&verdict);
    assert!(said.starts_with("⚠ HAZARD, nothing damaged this time"), "{said}");
    assert!(said.contains("two workers held token 50"), "{said}");
    assert!(!said.contains("VIOLATED"), "{said}");
    assert!(
        verdict.class_name().split_whitespace().any(|c| c == "warn"),
        "{}",
        verdict.class_name()
    );
    let lesson = mount_at("#/s/failover-duplicate-token?v=1&t=60000").await;
    let verdict = find(&lesson, "verdict").expect("verdict");
    assert!(text(&verdict).contains("VIOLATED"), "{}", text(&verdict));
    assert!(verdict.class_name().split_whitespace().any(|c| c == "bad"));
}
