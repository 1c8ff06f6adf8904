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
    let error = text(&find(&root, "field-error").expect("an inline error"));
    assert!(error.starts_with("$.seed"), "{error}");
    // A refused form edit keeps the last valid scenario runnable.
    let run = find(&root, "sandbox-run").unwrap();
    assert!(!run.has_attribute("disabled"));

    json.set_value("{\"format\": 1,\n  \"id\": }");
    crate::support::fire(&json, "input").await;
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
    assert!(log.contains("COMMIT\nUPDATE 0\nB=> SELECT last_fence FROM orders\n35"), "{log}");
}

#[wasm_bindgen_test]
async fn run_opens_the_edited_scenario_in_the_player() {
    let root = mount_sandbox().await;
    click(&root, "sandbox-add-worker").await;
    click(&root, "sandbox-run").await;
    let mut hash = String::new();
    for _ in 0..50 {
        hash = web_sys::window().unwrap().location().hash().unwrap();
        if hash.starts_with("#/s?") && find(&root, "swimlanes").is_some() {
            break;
        }
        crate::support::settle().await;
    }
    assert!(hash.starts_with("#/s?") && (hash.contains("sz=") || hash.contains("sj=")), "{hash}");
    let lanes = find(&root, "swimlanes").expect("the player opened").inner_html();
    assert!(lanes.contains('C'), "the third worker is in the run: {lanes}");
}

#[wasm_bindgen_test]
async fn a_step_field_edits_that_step_in_the_json() {
    let root = mount_sandbox().await;
    let field: web_sys::HtmlInputElement = wasm_bindgen::JsCast::dyn_into(
        root.query_selector("[data-testid='sandbox-step-field'][data-field='ttl_ms']")
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
        root.query_selector("[data-testid='sandbox-step-field'][data-field='ttl_ms']")
            .unwrap()
            .unwrap(),
    )
    .unwrap();
    field.set_value("soon");
    crate::support::fire(&field, "change").await;
    let error = text(&find(&root, "field-error").expect("an inline error"));
    assert!(error.starts_with("$.workers[0].program[0].ttl_ms"), "{error}");
}

#[wasm_bindgen_test]
async fn a_word_field_offers_only_the_words_the_format_accepts() {
    let root = mount_sandbox().await;
    let select: web_sys::HtmlSelectElement = wasm_bindgen::JsCast::dyn_into(
        root.query_selector(
            "[data-testid='sandbox-step-field'][data-field='how'] option[value='unfenced']",
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
        &fencing_playground::catalogue::find("gc-pause-fenced").unwrap(),
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
