//! The sandbox page: the editor's form and JSON, inline errors, and both consoles driven as
//! a learner would (typing and Enter), checked against what the real tools print.

use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{click, find, find_all, mount_at, press, set_change, set_input, text};

/// The sandbox as a first visit finds it: no draft kept from another test.
async fn mount_sandbox() -> web_sys::Element {
    forget_draft();
    mount_at("#/sandbox").await
}

fn forget_draft() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.remove_item("fencing-playground/sandbox-draft/v1").unwrap();
    storage.remove_item("fencing-playground/sandbox-drafts/v1").unwrap();
}

fn json_text(root: &web_sys::Element) -> String {
    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(
        find(root, "sandbox-json").unwrap(),
    )
    .unwrap()
    .value()
}

async fn type_json(root: &web_sys::Element, text: &str) {
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(root, "sandbox-json").unwrap()).unwrap();
    json.set_value(text);
    crate::support::fire(&json, "input").await;
}

/// The field of the form at a loader path (`$.seed`, `$.workers[0].program[0].ttl_ms`).
fn field_at(root: &web_sys::Element, path: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-path='{path}']"))
        .unwrap()
        .unwrap_or_else(|| panic!("no field {path}"))
}

async fn type_line(root: &web_sys::Element, test_id: &str, line: &str) {
    set_input(root, test_id, line).await;
    press(&find(root, test_id).expect(test_id), "Enter", false).await;
}

#[wasm_bindgen_test]
async fn the_editor_adds_a_worker_and_shows_errors_with_their_path() {
    let root = mount_sandbox().await;
    assert_eq!(find_all(&root, "sandbox-worker").len(), 2);
    click(&root, "sandbox-add-worker").await;
    assert_eq!(find_all(&root, "sandbox-worker").len(), 3);
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(&root, "sandbox-json").unwrap()).unwrap();
    assert!(json.value().contains("\"name\": \"C\""), "the form rewrites the JSON");
    assert!(find(&root, "sandbox-valid").is_some());

    set_change(&root, "sandbox-seed", "twelve").await;
    let errors = find_all(&root, "field-error");
    assert_eq!(errors.len(), 1, "said once, under its field");
    let error = text(&errors[0]);
    assert!(error.contains("whole number") && !error.contains("line"), "{error}");
    assert_eq!(input_value(&root, "sandbox-seed"), "twelve", "the field keeps what was typed");
    // A refused form edit keeps the last valid scenario runnable.
    let run = find(&root, "sandbox-run").unwrap();
    assert!(!run.has_attribute("disabled"));

    type_json(&root, "{\"format\": 1,\n  \"id\": }").await;
    let error = text(&find(&root, "sandbox-error").expect("the JSON error"));
    assert!(error.contains("line 2, column 9"), "{error}");
    assert!(run.has_attribute("disabled"), "broken JSON cannot run");
}

#[wasm_bindgen_test]
async fn the_redis_console_answers_like_redis_cli() {
    let root = mount_sandbox().await;
    type_line(&root, "redis-input", "SET fence:order:42 32").await;
    type_line(&root, "redis-input", "EVAL <acquire> 2 lock:order:42 fence:order:42 A 30000").await;
    type_line(&root, "redis-input", "INCR lock:order:42").await;
    let log = text(&find(&root, "redis-log").unwrap());
    assert!(log.contains("redis> SET fence:order:42 32\nOK"), "{log}");
    assert!(log.contains("1) (integer) 1\n2) (integer) 33"), "{log}");
    assert!(log.contains("(error) ERR value is not an integer or out of range"), "{log}");
}

#[wasm_bindgen_test]
async fn the_sql_console_races_two_sessions() {
    let root = mount_sandbox().await;
    click(&root, "sql-setup").await;
    type_line(&root, "sql-input-A", "BEGIN;").await;
    type_line(
        &root,
        "sql-input-A",
        "UPDATE orders SET last_fence = 35 WHERE id = 42 AND last_fence < 35;",
    )
    .await;
    type_line(
        &root,
        "sql-input-B",
        "UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence < 34;",
    )
    .await;
    let log = text(&find(&root, "sql-log").unwrap());
    assert!(log.trim_end().ends_with("(waiting for a row lock held by session A)"), "{log}");
    type_line(&root, "sql-input-A", "COMMIT;").await;
    type_line(&root, "sql-input-B", "SELECT last_fence FROM orders").await;
    let log = text(&find(&root, "sql-log").unwrap());
    assert!(
        log.contains("COMMIT\nB resumed after A's COMMIT: re-checked last_fence 35 < 34 → false → UPDATE 0\nUPDATE 0\nB=> SELECT last_fence FROM orders\n35"),
        "{log}"
    );
}

#[wasm_bindgen_test]
async fn run_opens_the_edited_scenario_in_the_player() {
    let root = mount_sandbox().await;
    click(&root, "sandbox-add-worker").await;
    click(&root, "sandbox-run").await;
    // Run compresses the draft into its link (a stream, asynchronous), then opens it.
    let hash = || web_sys::window().unwrap().location().hash().unwrap();
    let opened = || hash().starts_with("#/s?") && find(&root, "swimlanes").is_some();
    crate::support::wait_for("the player of the draft's link", opened).await;
    let hash = hash();
    assert!(hash.starts_with("#/s?") && (hash.contains("sz=") || hash.contains("sj=")), "{hash}");
    let lanes = find(&root, "swimlanes").expect("the player opened").inner_html();
    assert!(lanes.contains('C'), "the third worker is in the run: {lanes}");
}

#[wasm_bindgen_test]
async fn a_step_field_edits_that_step_in_the_json() {
    let root = mount_sandbox().await;
    let field: web_sys::HtmlInputElement = wasm_bindgen::JsCast::dyn_into(
        root.query_selector("[data-path='$.workers[0].program[0].ttl_ms']")
            .unwrap()
            .expect("A's TTL field"),
    )
    .unwrap();
    field.set_value("5000");
    crate::support::fire(&field, "change").await;
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(&root, "sandbox-json").unwrap()).unwrap();
    assert!(json.value().contains("\"ttl_ms\": 5000"), "{}", json.value());
    // A word where a number belongs: refused inline, with the field's path.
    let field: web_sys::HtmlInputElement = wasm_bindgen::JsCast::dyn_into(
        root.query_selector("[data-path='$.workers[0].program[0].ttl_ms']").unwrap().unwrap(),
    )
    .unwrap();
    field.set_value("soon");
    crate::support::fire(&field, "change").await;
    let errors = find_all(&root, "field-error");
    assert_eq!(errors.len(), 1, "said once");
    assert!(text(&errors[0]).contains("expected a whole number"), "{}", text(&errors[0]));
    // ... and the form says that the scenario, and Run, keep the last values that loaded.
    let kept = find(&root, "sandbox-field-kept").expect("the form says the field was not taken");
    assert!(text(&kept).contains("last values that loaded"), "{}", text(&kept));
    let field = field_at(&root, "$.workers[0].program[0].ttl_ms");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(
        wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(field).unwrap().value(),
        "soon",
        "the typed value stays"
    );
    assert!(json_text(&root).contains("\"ttl_ms\": 5000"), "the text keeps the last valid value");
}

#[wasm_bindgen_test]
async fn a_word_field_offers_only_the_words_the_format_accepts() {
    let root = mount_sandbox().await;
    let select: web_sys::HtmlSelectElement = wasm_bindgen::JsCast::dyn_into(
        root.query_selector(
            "[data-testid='sandbox-row-field'][data-path='$.workers[0].program[2].how'] option[value='unfenced']",
        )
        .unwrap()
        .expect("the write step's menu lists unfenced")
        .parent_element()
        .unwrap(),
    )
    .unwrap();
    assert_eq!(select.length(), 4, "fenced, unchecked, unfenced, set-state");
    select.set_value("unfenced");
    crate::support::fire(&select, "change").await;
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(&root, "sandbox-json").unwrap()).unwrap();
    assert!(json.value().contains("\"how\": \"unfenced\""), "{}", json.value());
}

fn input_value(root: &web_sys::Element, test_id: &str) -> String {
    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(find(root, test_id).unwrap())
        .unwrap()
        .value()
}

#[wasm_bindgen_test]
async fn the_consoles_recall_lines_complete_words_and_say_what_they_know() {
    let root = mount_sandbox().await;
    type_line(&root, "redis-input", "SET k v").await;
    type_line(&root, "redis-input", "INCR n").await;
    set_input(&root, "redis-input", "GE").await;
    let input = find(&root, "redis-input").unwrap();
    press(&input, "ArrowUp", false).await;
    assert_eq!(input_value(&root, "redis-input"), "INCR n", "ArrowUp recalls the last command");
    press(&input, "ArrowUp", false).await;
    assert_eq!(input_value(&root, "redis-input"), "SET k v");
    press(&input, "ArrowDown", false).await;
    press(&input, "ArrowDown", false).await;
    assert_eq!(input_value(&root, "redis-input"), "GE", "the half-typed line comes back");
    press(&input, "Tab", false).await;
    assert_eq!(input_value(&root, "redis-input"), "GET ", "Tab completes the command");
    type_line(&root, "redis-input", "PING").await;
    type_line(&root, "redis-input", "HELP").await;
    let log = text(&find(&root, "redis-log").unwrap());
    assert!(log.contains("redis> PING\nPONG\n"), "{log}");
    assert!(log.contains("EXPIRE key s"), "HELP lists the commands: {log}");
}

#[wasm_bindgen_test]
async fn the_players_own_update_runs_on_the_consoles_table() {
    // The statement the simulator shows for B's fenced write, run as it is.
    let trace = fencing_playground::sim::run(
        &fencing_playground::catalogue::find("gc-pause-fenced").unwrap().setup,
    );
    let update = trace
        .events()
        .iter()
        .find(|e| e.command.starts_with("UPDATE orders"))
        .map(|e| e.command.clone())
        .expect("a fenced write");
    let root = mount_sandbox().await;
    click(&root, "sql-setup").await;
    type_line(&root, "sql-input-A", &update).await;
    type_line(&root, "sql-input-A", "SELECT status, last_fence, updated_by FROM orders").await;
    let log = text(&find(&root, "sql-log").unwrap());
    assert!(log.contains("UPDATE 1\n"), "{update}\n{log}");
    assert!(log.trim_end().ends_with("paid|34|B"), "{log}");
}

#[wasm_bindgen_test]
async fn an_edit_survives_leaving_and_coming_back() {
    let root = mount_sandbox().await;
    assert!(find(&root, "sandbox-restored").is_none(), "nothing to restore yet");
    click(&root, "sandbox-add-worker").await;
    assert_eq!(find_all(&root, "sandbox-worker").len(), 3);
    // Run, Back, the header's link or a reload all mount the editor afresh.
    let again = mount_at("#/sandbox").await;
    assert!(find(&again, "sandbox-restored").is_some(), "the page says the draft is back");
    assert_eq!(find_all(&again, "sandbox-worker").len(), 3, "the added worker is still there");
    // Half-typed, invalid JSON comes back as typed too.
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(&again, "sandbox-json").unwrap()).unwrap();
    json.set_value("{\"format\": 1, \"id\": ");
    crate::support::fire(&json, "input").await;
    let third = mount_at("#/sandbox").await;
    let json: web_sys::HtmlTextAreaElement =
        wasm_bindgen::JsCast::dyn_into(find(&third, "sandbox-json").unwrap()).unwrap();
    assert_eq!(json.value(), "{\"format\": 1, \"id\": ");
    forget_draft();
}

#[wasm_bindgen_test]
async fn invalid_json_survives_a_form_edit() {
    let root = mount_sandbox().await;
    let half =
        format!("{}\n  \"narration\": [{{\"text\": \"My half-typed paragraph", json_text(&root));
    type_json(&root, &half).await;
    assert!(find(&root, "sandbox-form-locked").is_some(), "the form says it is locked");
    let add = find(&root, "sandbox-add-worker").unwrap();
    assert!(add.closest("fieldset[disabled]").unwrap().is_some(), "the form's controls are off");
    click(&root, "sandbox-add-worker").await;
    set_change(&root, "sandbox-seed", "9").await;
    assert_eq!(json_text(&root), half, "nothing replaced the author's text");
    assert!(find(&root, "sandbox-not-runnable").is_some(), "Run says why it waits");
    // Undo brings back the text as it was before the typing.
    click(&root, "sandbox-undo").await;
    assert!(find(&root, "sandbox-form-locked").is_none());
    assert!(!json_text(&root).contains("half-typed"));
    click(&root, "sandbox-redo").await;
    assert_eq!(json_text(&root), half);
    forget_draft();
}

#[wasm_bindgen_test]
async fn edit_a_copy_opens_the_players_scenario_in_the_sandbox() {
    forget_draft();
    let player = mount_at("#/s/gc-pause-fenced").await;
    let link =
        crate::support::until("the player's Edit a copy", || find(&player, "edit-copy")).await;
    let href = link.get_attribute("href").unwrap();
    assert_eq!(href, "lab.html#/sandbox?edit=gc-pause-fenced");
    let root = mount_at(href.trim_start_matches("lab.html")).await;
    let id: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::dyn_into(find(&root, "sandbox-id").unwrap()).unwrap();
    assert_eq!(id.value(), "gc-pause-fenced-copy", "a copy has a new id");
    assert!(json_text(&root).contains("\"pause_ms\": 39000"), "the lesson's own run");
    assert!(
        !find_all(&root, "sandbox-inherited").is_empty(),
        "its texts are flagged as the template's"
    );
    forget_draft();
}

#[wasm_bindgen_test]
async fn lint_warns_of_a_misspelt_anchor_and_a_fault_after_the_end() {
    let root = mount_sandbox().await;
    let edited =
        json_text(&root).replacen("\"event\": \"paused\"", "\"event\": \"pasued\"", 1).replacen(
            "\"faults\": [",
            "\"faults\": [\n    {\"fault\": \"crash\", \"worker\": \"B\", \"at_ms\": 90000},",
            1,
        );
    type_json(&root, &edited).await;
    assert!(
        find(&root, "sandbox-valid").is_some(),
        "{:?}",
        find(&root, "sandbox-error").map(|e| text(&e))
    );
    let warnings: Vec<(String, String)> = find_all(&root, "sandbox-warning")
        .iter()
        .map(|w| (w.get_attribute("data-path").unwrap(), text(w)))
        .collect();
    assert!(
        warnings
            .iter()
            .any(|(p, t)| p == "$.narration[1].at" && t.contains("did you mean `paused`?")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|(p, t)| p == "$.faults[0].at_ms" && t.contains("after the run ends")),
        "{warnings:?}"
    );
    forget_draft();
}

async fn pointer(target: &web_sys::Element, kind: &str, client_x: f64) {
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x(client_x as i32);
    init.set_pointer_id(1);
    let event = web_sys::PointerEvent::new_with_event_init_dict(kind, &init).unwrap();
    target.dispatch_event(&event).unwrap();
    crate::support::rendered().await;
}

#[wasm_bindgen_test]
async fn a_drag_on_the_timeline_changes_the_scenario_and_undoes_as_one() {
    let root = mount_sandbox().await;
    let before = json_text(&root);
    assert!(before.contains("\"start_ms\": 31000"), "B starts at 31 s");
    let handle = root
        .query_selector("[data-testid='sandbox-start-handle'][data-worker='B']")
        .unwrap()
        .expect("B's start handle");
    let svg = find(&root, "sandbox-timeline").unwrap();
    let rect = svg.get_bounding_client_rect();
    // The drawing is 760 units wide with a 70-unit gutter; the run is 60 s long.
    let x_at = |ms: f64| rect.left() + (70.0 + ms / 60_000.0 * 690.0) * rect.width() / 760.0;
    pointer(&handle, "pointerdown", x_at(31_000.0)).await;
    pointer(&svg, "pointermove", x_at(20_000.0)).await;
    pointer(&svg, "pointermove", x_at(10_000.0)).await;
    pointer(&svg, "pointerup", x_at(10_000.0)).await;
    let after = json_text(&root);
    let start = |text: &str| -> u64 {
        let scenario = fencing_playground::catalogue::load::parse_scenario(text).unwrap();
        scenario.setup.workers[1].start_ms
    };
    let moved = start(&after);
    assert!((9_000..=11_000).contains(&moved), "B now starts near 10 s: {moved}");
    // The run follows: B no longer waits for A's lease to expire.
    let outcome = text(&find(&root, "sandbox-outcome").unwrap());
    assert!(!outcome.is_empty());
    // One drag is one undo step.
    click(&root, "sandbox-undo").await;
    assert_eq!(start(&json_text(&root)), 31_000);
    // The keyboard does the same: → moves B's start 100 ms later.
    let handle = root
        .query_selector("[data-testid='sandbox-start-handle'][data-worker='B']")
        .unwrap()
        .unwrap();
    press(&handle, "ArrowRight", false).await;
    assert_eq!(start(&json_text(&root)), 31_100);
    forget_draft();
}

#[wasm_bindgen_test]
async fn a_paragraph_pinned_to_an_event_is_checked_against_the_run() {
    let root = mount_sandbox().await;
    let pick: web_sys::HtmlSelectElement =
        wasm_bindgen::JsCast::dyn_into(find(&root, "sandbox-pick-event").unwrap()).unwrap();
    // B's grant: the option whose text names B and `granted`.
    let options = pick.options();
    let index = (0..options.length())
        .find(|&i| options.item(i).map(|o| text(&o)).is_some_and(|t| t.contains("· B · granted")))
        .expect("B's grant is listed");
    pick.set_selected_index(index as i32);
    crate::support::fire(&pick, "change").await;
    let paragraphs = find_all(&root, "sandbox-paragraph").len();
    click(&root, "sandbox-narrate").await;
    assert_eq!(find_all(&root, "sandbox-paragraph").len(), paragraphs + 1);
    // Now a third worker takes the lock first: the built-in's paragraphs about B's token are
    // marked as untrue of this run.
    assert!(find_all(&root, "sandbox-mark").is_empty(), "all true so far");
    click(&root, "sandbox-add-worker").await;
    set_change_path(&root, "$.workers[2].start_ms", "30500").await;
    let marks: Vec<String> = find_all(&root, "sandbox-mark").iter().map(text).collect();
    assert!(marks.iter().any(|m| m.contains("B's grant")), "{marks:?}");
    forget_draft();
}

async fn set_change_path(root: &web_sys::Element, path: &str, value: &str) {
    let input: web_sys::HtmlInputElement =
        wasm_bindgen::JsCast::dyn_into(field_at(root, path)).unwrap();
    input.set_value(value);
    crate::support::fire(&input, "change").await;
}

#[wasm_bindgen_test]
async fn a_fault_s_worker_is_chosen_from_the_scenario_s_workers() {
    let root = mount_sandbox().await;
    click(&root, "sandbox-add-worker").await;
    set_change(&root, "sandbox-add-fault", "pause").await;
    let path = "$.faults[0].worker";
    let select: web_sys::HtmlSelectElement =
        wasm_bindgen::JsCast::dyn_into(field_at(&root, path)).expect("a menu, not free text");
    let names: Vec<String> = (0..select.length())
        .filter_map(|i| select.item(i))
        .map(|o| o.get_attribute("value").unwrap_or_default())
        .collect();
    let workers = root.query_selector_all("[data-testid=sandbox-worker]").unwrap().length();
    assert!(workers >= 2, "a worker was added");
    assert_eq!(names.len() as u32, workers, "one option per worker: {names:?}");
    let last = names.last().expect("a worker").clone();
    select.set_value(&last);
    crate::support::fire(&select, "change").await;
    let json = json_text(&root);
    let faults = &json[json.find("\"faults\"").expect("faults")..];
    assert!(faults.contains(&format!("\"worker\": \"{last}\"")), "{faults}");
}

#[wasm_bindgen_test]
async fn a_picked_fault_drops_on_a_worker_s_start_too() {
    // With a fault picked, a click on a worker's start handle (or an event drawn on the
    // lane) reaches the lane under it: where the author wants to stall a worker is often
    // right where it starts.
    let root = mount_sandbox().await;
    let window = web_sys::window().unwrap();
    let (width, height) = (
        window.inner_width().unwrap().as_f64().unwrap(),
        window.inner_height().unwrap().as_f64().unwrap(),
    );
    // The handle's centre, once it is in the viewport: asked again each turn (and scrolled
    // to again), as the builder may still be laying out the lesson it opened.
    let centre = || {
        let handle = root.query_selector("[data-testid=sandbox-start-handle]").ok().flatten()?;
        handle.scroll_into_view();
        let r = handle.get_bounding_client_rect();
        let (cx, cy) = ((r.left() + r.right()) / 2.0, (r.top() + r.bottom()) / 2.0);
        ((0.0..width).contains(&cx) && (0.0..height).contains(&cy)).then_some((cx, cy))
    };
    let (cx, cy) = crate::support::until("the start handle's centre in view", centre).await;
    let document = web_sys::window().unwrap().document().unwrap();
    let hit = |what: &str| {
        let el = document
            .element_from_point(cx as f32, cy as f32)
            .unwrap_or_else(|| panic!("{what}: nothing there"));
        el.get_attribute("data-testid").unwrap_or_default()
    };
    assert_eq!(
        hit("before"),
        "sandbox-start-handle",
        "the handle is on top until a fault is picked"
    );
    set_change(&root, "sandbox-drop-kind", "pause").await;
    assert_eq!(hit("picked"), "sandbox-lane", "the click goes through to the lane");
}

/// Issue 29, item 2: a stored drafts record that cannot all be read is copied aside before
/// the builder writes over it, the builder says where, and what could be read stays.
#[wasm_bindgen_test]
async fn an_unreadable_drafts_record_is_kept_aside_and_the_author_told() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    let damaged = r#"{"open": "mine", "drafts": [{"name": "mine", "text": "{}"}, {"name": 7}]}"#;
    storage.set_item("fencing-playground/sandbox-drafts/v1", damaged).unwrap();
    storage.remove_item("fencing-playground/sandbox-drafts-unreadable/v1").unwrap();
    let root = mount_at("#/sandbox").await;
    let note = text(&find(&root, "sandbox-storage").expect("the storage note"));
    assert!(note.contains("fencing-playground/sandbox-drafts-unreadable/v1"), "{note}");
    let aside = storage.get_item("fencing-playground/sandbox-drafts-unreadable/v1").unwrap();
    assert_eq!(aside.as_deref(), Some(damaged), "the record as it was");
    // textContent, not innerText: Firefox gives a <select> no rendered text of its own.
    let menu =
        find(&root, "sandbox-draft").expect("the drafts menu").text_content().unwrap_or_default();
    assert!(menu.contains("mine"), "{menu}");
    forget_draft();
    storage.remove_item("fencing-playground/sandbox-drafts-unreadable/v1").unwrap();
}
