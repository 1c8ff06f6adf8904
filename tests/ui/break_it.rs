//! "Try to break it": a search started shows its progress and can be cancelled; the
//! `gc-pause-fenced` counterexample is found and opens in the player with what changed
//! and what broke; a design safe within its bounds gets "no counterexample". The test
//! bundle has no worker script, so the page's own thread runs the search here
//! (tests/e2e/workers.cjs runs it on workers on the built site).

use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::{click, find, mount_at, rendered, set_change, text, until_within};

/// How long a search may take on the page's thread of a busy two-core machine.
const SEARCH_MS: f64 = 60_000.0;

/// Waits (up to a minute) until `test_id` shows.
async fn shown(root: &web_sys::Element, test_id: &str) -> web_sys::Element {
    until_within(&format!("{test_id} to show"), SEARCH_MS, || find(root, test_id)).await
}

#[wasm_bindgen_test]
async fn the_fenced_pause_breaks_and_the_counterexample_opens_in_the_player() {
    let root = mount_at("#/break/gc-pause-fenced").await;
    shown(&root, "break").await;
    set_change(&root, "break-workers", "0").await;
    click(&root, "break-start").await;
    let found = shown(&root, "break-found").await;
    assert!(text(&found).contains("no-stale-holder"), "{}", text(&found));
    let changes = text(&find(&root, "break-changes").expect("what changed"));
    assert_eq!(changes.trim(), "A's pause: 39.000 s -> 30.999 s");
    let broke = text(&find(&root, "break-broke").expect("what broke"));
    assert!(broke.contains("after its lease had passed to B"), "{broke}");
    // The fence's known limit is named as such, so the lesson does not read as wrong.
    let limit = text(&find(&root, "break-limit").expect("the limit explained"));
    assert!(limit.contains("known limit"), "{limit}");
    let open = shown(&root, "break-open").await;
    let href = open.get_attribute("href").expect("a link");
    let hash = href.strip_prefix("lab.html").expect("the lab's player");
    assert!(hash.starts_with("#/s?v=1&sz="), "{href:.60}");
    // The link opens the counterexample in the player, with the banner in its summary.
    let player = mount_at(hash).await;
    let verdict = shown(&player, "verdict").await;
    let verdict = text(&verdict);
    assert!(verdict.contains("VIOLATED") && verdict.contains("no-stale-holder"), "{verdict}");
    let page = text(&player);
    assert!(page.contains("a counterexample"), "{page:.400}");
    assert!(page.contains("What changed: A's pause: 39.000 s -> 30.999 s"), "{page:.600}");
}

#[wasm_bindgen_test]
async fn a_search_shows_its_progress_and_stops_when_cancelled() {
    let root = mount_at("#/break/efficiency-lock").await;
    shown(&root, "break").await;
    set_change(&root, "break-workers", "0").await;
    set_change(&root, "break-faults", "3").await;
    click(&root, "break-start").await;
    let progress = shown(&root, "break-progress").await;
    let run = || progress.get_attribute("data-run").and_then(|r| r.parse::<u64>().ok());
    until_within("the search's first runs", SEARCH_MS, || run().filter(|&r| r > 0)).await;
    assert!(text(&progress).contains("per second"), "{}", text(&progress));
    click(&root, "break-cancel").await;
    let cancelled = text(&find(&root, "break-cancelled").expect("cancelled"));
    assert!(cancelled.starts_with("Cancelled after "), "{cancelled}");
    assert!(find(&root, "break-progress").is_none());
    // Nothing more arrives after Cancel: the next slice, queued before it, has had its turn.
    rendered().await;
    assert_eq!(text(&find(&root, "break-cancelled").expect("still cancelled")), cancelled);
}

#[wasm_bindgen_test]
async fn a_safe_design_has_no_counterexample_within_its_bounds() {
    let root = mount_at("#/break/retry-lost-reply-idempotency-key").await;
    shown(&root, "break").await;
    set_change(&root, "break-workers", "0").await;
    set_change(&root, "break-faults", "1").await;
    click(&root, "break-start").await;
    let none = text(&shown(&root, "break-none").await);
    assert!(none.starts_with("No counterexample in "), "{none}");
    assert!(none.contains("up to 1 added fault (a pause of any worker"), "{none}");
}

#[wasm_bindgen_test]
async fn every_player_offers_the_search() {
    let root = mount_at("#/s/gc-pause-fenced").await;
    let link = shown(&root, "try-break").await;
    assert_eq!(link.get_attribute("href").as_deref(), Some("#/break/gc-pause-fenced?v=1"));
}
