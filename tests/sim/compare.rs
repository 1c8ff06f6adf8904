//! The compare view's variants, over every built-in: fencing fences.

use fencing_playground::catalogue;
use fencing_playground::compare::{Change, Protection};
use fencing_playground::sim;

fn stale_accepts(trace: &sim::Trace) -> usize {
    trace.summary().violations.iter().filter(|v| v.name == "no-stale-accept").count()
}

#[test]
fn wherever_no_protection_accepts_a_stale_write_fencing_rejects_it() {
    let mut shown = 0;
    for scenario in catalogue::all() {
        let run = |p: Protection| sim::run_events_only(&p.apply(&scenario).0.setup);
        let none = run(Protection::None);
        for p in [Protection::Fencing, Protection::Both] {
            let fenced = run(p);
            assert_eq!(
                stale_accepts(&fenced),
                0,
                "{} ({:?}) accepted a stale write:\n{}",
                scenario.id,
                p,
                sim::render::render(&fenced)
            );
            // Not by stopping all work: the fenced variant still writes (or is told no).
            if stale_accepts(&none) > 0 {
                assert!(!fenced.summary().writes.is_empty(), "{}: no write at all", scenario.id);
            }
        }
        if stale_accepts(&none) > 0 {
            shown += 1;
        }
    }
    // The property must have something to say: many lessons show a stale write unprotected.
    assert!(shown >= 15, "only {shown} built-ins accept a stale write without protection");
}

#[test]
fn an_idempotency_key_alone_does_not_stop_the_stale_write() {
    let scenario = catalogue::find("stale-writer-idempotency-only").expect("built-in");
    let trace = sim::run(&Protection::IdempotencyKey.apply(&scenario).0.setup);
    assert_eq!(stale_accepts(&trace), 1);
    assert_eq!(trace.summary().charges, 1, "the key still deduplicates the payment");
    let fenced = sim::run(&Protection::Both.apply(&scenario).0.setup);
    assert_eq!(stale_accepts(&fenced), 0);
    assert_eq!(fenced.summary().charges, 1);
}

#[test]
fn every_change_and_heading_has_an_english_message() {
    // The keys are built by code, so the i18n scan of literal keys cannot see them.
    let lab = fencing_playground::i18n::english(fencing_playground::i18n::EN_LAB);
    for key in
        Change::ALL.map(Change::key).into_iter().chain(Protection::ALL.map(Protection::heading_key))
    {
        assert!(lab.contains_key(key), "{key} has no English message");
    }
}

#[test]
#[ignore = "a tool: prints one built-in's four variants (COMPARE_ID=<id>)"]
fn print_variants() {
    let id = std::env::var("COMPARE_ID").unwrap_or_default();
    let scenario = catalogue::find(&id).expect("COMPARE_ID names a built-in");
    for p in Protection::ALL {
        let (fork, changes) = p.apply(&scenario);
        println!(
            "== {p:?} {changes:?}\n{}",
            sim::render::render(&sim::run_events_only(&fork.setup))
        );
    }
}

/// Issue 30, item 11: WAIT 1 after the grant makes A give up before its write; token 50
/// is still given out twice, but only B writes. That is a hazard, not damage, and the
/// verdict must not call it damage; without WAIT the same lesson damages the row.
#[test]
fn a_duplicate_token_that_only_one_worker_used_is_a_hazard() {
    use fencing_playground::sim::EventKind;
    use fencing_playground::verdict::{Harm, plain, worst};
    use fencing_playground::whatif::{Toggle, WhatIf};
    let lesson = catalogue::find("failover-duplicate-token").expect("built-in");
    assert_eq!(worst(&sim::run(&lesson.setup)), Some(Harm::Damage));
    let waited = WhatIf { wait: Some(Toggle::On { ms: 100 }), ..WhatIf::default() };
    let trace = sim::run(&waited.apply(&lesson).setup);
    assert_eq!(worst(&trace), Some(Harm::Hazard));
    let plain = plain(&trace);
    assert!(plain.iter().all(|p| p.harm == Harm::Hazard), "{plain:?}");
    assert!(plain.iter().any(|p| p.key == "verdict.sim.token_unique"), "{plain:?}");
    // What "nothing damaged this time" rests on: one accepted write, and A gave up.
    let summary = trace.summary();
    let accepted: Vec<_> = summary.writes.iter().filter(|w| w.rows.matched()).collect();
    assert_eq!(accepted.len(), 1, "{:?}", summary.writes);
    assert_eq!(accepted[0].worker, "B");
    assert!(trace.events().iter().any(|e| e.kind == EventKind::GaveUp));
}
