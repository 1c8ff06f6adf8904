use super::{Toggle, WhatIf};
use crate::catalogue;
use crate::sim::scenario::{Guard, Persistence, Step};

#[test]
fn knobs_read_the_scenario_as_written() {
    let scenario = catalogue::find("watchdog-pauses-too").unwrap();
    let knobs = WhatIf::knobs(&scenario);
    assert_eq!(knobs.ttl_ms, Some(30_000));
    assert_eq!(knobs.pause_ms, Some(40_000));
    assert_eq!(knobs.watchdog, Toggle::On { ms: 0 });
    assert_eq!(knobs.guard, Guard::Lt);
}

#[test]
fn apply_rewrites_every_affected_step() {
    let scenario = catalogue::find("gc-pause-fenced").unwrap();
    let whatif = WhatIf {
        ttl_ms: Some(45_000),
        watchdog: Some(Toggle::On { ms: 5_000 }),
        wait: Some(Toggle::On { ms: 100 }),
        guard: Some(Guard::Le),
        ..WhatIf::default()
    };
    let forked = whatif.apply(&scenario);
    let a = &forked.setup.workers[0].program;
    assert!(matches!(a[0], Step::Acquire { ttl_ms: 45_000, .. }));
    assert!(matches!(a[1], Step::WaitReplicas { timeout_ms: 100, .. }), "{a:?}");
    assert!(matches!(a[2], Step::Watchdog { interval_ms: Some(5_000), .. }), "{a:?}");
    assert_eq!(forked.setup.sql.guard, Guard::Le);
    let off = WhatIf { watchdog: Some(Toggle::Off), wait: Some(Toggle::Off), ..WhatIf::default() }
        .apply(&forked);
    assert_eq!(off.setup.workers[0].program.len(), scenario.setup.workers[0].program.len());
    assert_eq!(WhatIf::default().apply(&scenario), scenario);
}

#[test]
fn query_pairs_round_trip_and_reject_nonsense() {
    let whatif = WhatIf {
        ttl_ms: Some(20_000),
        pause_ms: Some(0),
        watchdog: Some(Toggle::Off),
        acquire: Some(crate::sim::scenario::AcquireHow::SetThenIncr),
        guard: Some(Guard::None),
        key: Some(crate::sim::scenario::KeyStrategy::PerOrder),
        persistence: Some(Persistence::Rdb { every_ms: 60_000 }),
        lag_ms: Some(200),
        wait: Some(Toggle::On { ms: 100 }),
    };
    let mut back = WhatIf::default();
    for (name, value) in whatif.to_query() {
        back.set_from_query(name, &value).unwrap();
    }
    assert_eq!(back, whatif);
    let mut w = WhatIf::default();
    for (name, value) in [
        ("ttl", "-5"),
        ("ttl", "99999999999999"),
        ("guard", "lte"),
        ("persist", "rdb-0"),
        ("bogus", "1"),
        ("wd", "on"),
    ] {
        assert!(w.set_from_query(name, value).is_err(), "{name}={value}");
    }
    assert!(w.is_original());
}

#[test]
fn a_fence_guard_makes_unfenced_writes_carry_their_token() {
    // With the guard on, the stale write of the idempotency-only lesson must be fenced off:
    // a guard that unfenced writes ignore would teach the opposite.
    let scenario = catalogue::find("stale-writer-idempotency-only").unwrap();
    let forked = WhatIf { guard: Some(Guard::Lt), ..WhatIf::default() }.apply(&scenario);
    let trace = crate::sim::run(&forked.setup);
    let summary = trace.summary();
    assert!(summary.violations.iter().all(|v| v.name != "no-stale-accept"), "{summary:?}");
    assert!(summary.writes.iter().any(|w| !w.rows.matched()), "{summary:?}");
}

/// Every menu value the panel offers reads as its knob, and the menus of the enums offer
/// each of their words (`i18n`'s tests check that each label key has an English text).
#[test]
fn every_menu_choice_is_a_value_its_knob_reads() {
    use super::{CHOICES, choices};
    use crate::sim::scenario::{AcquireHow, KeyStrategy, Word};
    for (knob, menu) in CHOICES {
        for (value, _) in *menu {
            let mut w = WhatIf::default();
            assert_eq!(w.set_from_query(knob, value), Ok(()), "{knob}={value}");
        }
    }
    let values = |knob: &str| choices(knob).iter().map(|(v, _)| *v).collect::<Vec<_>>();
    assert_eq!(values("acq"), AcquireHow::words());
    assert_eq!(values("guard"), Guard::words());
    assert_eq!(values("key"), KeyStrategy::words());
    assert!(choices("ttl").is_empty());
}
