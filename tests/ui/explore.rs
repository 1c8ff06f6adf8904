//! The risk explorer page: a small seeded run finishes, fills the table and the chart, and
//! shows fencing's effect; bad parameters get a message.

use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{
    click, find, find_all, install_packs, mount_at, rendered, set_change, text, until_within,
    wait_for,
};

/// How long a small run may take on the page's thread of a busy two-core machine.
const RUN_MS: f64 = 30_000.0;

#[wasm_bindgen_test]
async fn a_small_run_fills_the_table_and_the_chart() {
    let root = mount_at("#/explore").await;
    // The test bundle has no worker script: the page runs the trials itself here
    // (tests/e2e/workers.cjs runs the workers on the built site).
    set_change(&root, "explore-workers", "0").await;
    set_change(&root, "explore-trials", "300").await;
    set_change(&root, "explore-values", "2000, 30000").await;
    click(&root, "explore-run").await;
    let done = || find(&root, "explore-count").filter(|c| text(c).starts_with("1200 of 1200"));
    until_within("all 1200 trials", RUN_MS, done).await;
    assert_eq!(text(&find(&root, "explore-count").expect("progress")), "1200 of 1200 trials");
    let rows = find_all(&root, "explore-row");
    assert_eq!(rows.len(), 4, "two TTLs, each without and with fencing");
    for row in &rows {
        let stale = text(&row.query_selector("[data-testid='explore-stale']").unwrap().unwrap());
        if row.get_attribute("data-fencing").as_deref() == Some("on") {
            assert_eq!(stale, "0.00%", "fencing stops every stale write");
        }
    }
    let short_unfenced = &rows[0];
    let stale =
        text(&short_unfenced.query_selector("[data-testid='explore-stale']").unwrap().unwrap());
    assert_ne!(stale, "0.00%", "a 2 s TTL against 2 s pauses lets stale writes through");
    let chart = find(&root, "explore-chart").expect("the chart");
    assert_eq!(chart.query_selector_all("polyline").unwrap().length(), 3);
}

#[wasm_bindgen_test]
async fn bad_parameters_get_a_message_not_a_run() {
    let root = mount_at("#/explore").await;
    set_change(&root, "explore-trials", "lots").await;
    click(&root, "explore-run").await;
    let error = text(&find(&root, "explore-error").expect("an error"));
    assert!(error.contains("trials"), "{error}");
    assert!(find(&root, "explore-count").is_none());
}

#[wasm_bindgen_test]
fn the_explorer_gives_the_same_numbers_past_the_first_chunk() {
    // tests/sim/explore_fp.rs pins the same text natively.
    use fencing_playground::explore::{CHUNK_TRIALS, Params, Run, fingerprint, pinned_example};
    let mut run = Run::new(Params { trials: CHUNK_TRIALS + 100, ..pinned_example() }).unwrap();
    while !run.is_done() {
        run.advance(10_000, 10_000);
    }
    assert_eq!(
        fingerprint(run.points()),
        "2000/off:10100,6932,4961,0;2000/on:10100,6932,0,4961000;30000/off:10100,195,176,0;30000/on:10100,195,0,176000"
    );
}

#[wasm_bindgen_test]
fn the_samplers_maths_give_the_same_bits_as_natively() {
    // tests/sim/explore_fp.rs pins the same value natively.
    let bits = fencing_playground::explore::maths_fingerprint();
    assert_eq!(format!("{bits:016x}"), crate::determinism::GOLDEN_MATHS);
}

#[wasm_bindgen_test]
fn the_explorer_gives_the_same_numbers_as_natively() {
    // The same parameters and pinned text as tests/sim/explore_fp.rs.
    use fencing_playground::explore::{Run, fingerprint, pinned_example};
    let mut run = Run::new(pinned_example()).expect("valid parameters");
    while !run.is_done() {
        run.advance(1_000, 100);
    }
    assert_eq!(
        fingerprint(run.points()),
        "2000/off:500,351,241,0;2000/on:500,351,0,241000;30000/off:500,13,11,0;30000/on:500,13,0,11000"
    );
}

#[wasm_bindgen_test]
async fn cancel_stops_a_run_part_way() {
    let root = mount_at("#/explore").await;
    // The test bundle has no worker script: the page runs the trials itself here
    // (tests/e2e/workers.cjs runs the workers on the built site).
    set_change(&root, "explore-workers", "0").await;
    set_change(&root, "explore-trials", "1000000").await;
    click(&root, "explore-run").await;
    let trials_done = || {
        let count = find(&root, "explore-count").map(|c| text(&c)).unwrap_or_default();
        count.split(|c: char| !c.is_ascii_digit()).find_map(|n| n.parse::<u64>().ok())
    };
    wait_for("the first trials", || trials_done().is_some_and(|n| n > 0)).await;
    click(&root, "explore-cancel").await;
    rendered().await;
    let count = text(&find(&root, "explore-count").expect("progress"));
    let numbers: Vec<u64> =
        count.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
    assert_eq!(numbers.len(), 2, "{count}");
    assert!(numbers[0] > 0 && numbers[0] < numbers[1], "stopped part way: {count}");
    rendered().await;
    let later = text(&find(&root, "explore-count").unwrap());
    assert_eq!(later, count, "no work after Cancel");
    let run = find(&root, "explore-run").unwrap();
    assert!(!run.has_attribute("disabled"), "a new run can start");
}

#[wasm_bindgen_test]
async fn percentages_use_the_learners_decimal_separator() {
    install_packs();
    let root = mount_at("#/explore?lang=id").await;
    // The test bundle has no worker script: the page runs the trials itself here
    // (tests/e2e/workers.cjs runs the workers on the built site).
    set_change(&root, "explore-workers", "0").await;
    set_change(&root, "explore-trials", "100").await;
    set_change(&root, "explore-values", "2000").await;
    click(&root, "explore-run").await;
    let done = || {
        find_all(&root, "explore-row").len() == 2
            && find(&root, "explore-count").is_some_and(|c| text(&c).starts_with("200 "))
    };
    until_within("both rows of 200 trials", RUN_MS, || done().then_some(())).await;
    let fenced = find_all(&root, "explore-row")
        .into_iter()
        .find(|r| r.get_attribute("data-fencing").as_deref() == Some("on"))
        .expect("a fenced row");
    let stale = text(&fenced.query_selector("[data-testid='explore-stale']").unwrap().unwrap());
    assert_eq!(stale, "0,00%");
}
