use super::{BreakResult, Challenge, FixResult, Kind, parse};
use crate::search::{self, Space, Vary};

fn load(id: &str) -> Challenge {
    let path = format!("{}/static/challenges/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a challenge file");
    parse(&text).unwrap_or_else(|why| panic!("{id}: {why}"))
}

/// A "fix it" challenge as a learner meets it: the design as given fails with the hint,
/// `solution` is safe within the bounds at the par cost, and `wrong` (a plausible fix)
/// still fails with the hint the learner would see.
fn check_fix(id: &str, solution: &[&str], wrong: &[&str]) {
    let c = load(id);
    let Kind::Fix { par, hints, .. } = &c.kind else { panic!("{id} is a fix-it challenge") };
    let hint_of = |result: Option<FixResult>, what: &str| match result {
        Some(FixResult::Broken { counterexample, hint }) => {
            assert!(!hint.is_empty(), "{id}: {what} fails without a hint");
            assert!(hints.iter().any(|(p, h)| *p == counterexample.property && *h == hint));
            hint
        }
        other => panic!("{id}: {what} should fail, got {other:?}"),
    };
    hint_of(c.grade_fix(&[]), "the design as given");
    hint_of(c.grade_fix(wrong), "the wrong fix");
    match c.grade_fix(solution) {
        Some(FixResult::Safe { cost, par: p, schedules }) => {
            assert_eq!((cost, p), (*par, *par), "{id}: the intended solution costs the par");
            assert!(schedules > 1, "{id}: the search ran ({schedules} schedules)");
        }
        other => panic!("{id}: the intended solution should be safe, got {other:?}"),
    }
}

#[test]
fn fence_the_pause() {
    check_fix("fence-the-pause", &["guard-lt"], &["watchdog"]);
}

#[test]
fn draw_the_token_with_the_lock() {
    check_fix("draw-the-token-with-the-lock", &["one-script"], &["watchdog"]);
    // Drawing the token first is a plausible wrong fix too: the token is still apart from
    // the grant, and their orders can disagree (the lesson "INCR before SET" shows it).
    check_fix("draw-the-token-with-the-lock", &["one-script"], &["incr-first"]);
    let c = load("draw-the-token-with-the-lock");
    // Both set how the lock is taken: choosing one drops the other.
    assert_eq!(c.rivals("one-script"), ["incr-first"]);
    assert!(c.rivals("watchdog").is_empty());
    assert!(matches!(
        c.grade_fix(&["incr-first"]),
        Some(FixResult::Broken { counterexample, .. }) if counterexample.property == crate::sim::event::Property::TokenOrder
    ));
}

/// A "break it" challenge as a learner meets it: the design as given keeps its property,
/// and the search finds faults within the budget that the grader accepts as a break.
fn check_break(id: &str) -> (Challenge, Vec<crate::sim::scenario::Fault>) {
    let c = load(id);
    let Kind::Break { property, palette, budget, .. } = &c.kind else { panic!("a break-it") };
    // The design as given keeps the property: nothing placed, nothing broken.
    assert_eq!(c.grade_break(&[]), Some(BreakResult::Held));
    // One pause breaks it: the search finds where, and the grader agrees.
    let space = Space {
        vary: Vary::Nothing,
        add: palette.clone(),
        max_added: *budget,
        level_limit: search::LEVEL_LIMIT,
    };
    let found =
        search::run(&c.start_setup(), space, vec![*property]).found.expect("one pause breaks it");
    let placed: Vec<_> = found
        .changes
        .iter()
        .filter_map(|change| match change {
            search::Change::Added(fault) => Some(fault.clone()),
            search::Change::Moved { .. } => None,
        })
        .collect();
    assert_eq!(placed.len(), 1);
    assert_eq!(c.grade_break(&placed), Some(BreakResult::Broken { used: 1, par: 1 }));
    (c, placed)
}

#[test]
fn break_the_first_write() {
    let (c, placed) = check_break("break-the-first-write");
    // Over the budget, or outside the palette: refused with a reason.
    let twice = [placed[0].clone(), placed[0].clone()];
    assert!(
        matches!(c.grade_break(&twice), Some(BreakResult::OutOfBounds(why)) if why.contains("budget is 1"))
    );
    let crash =
        crate::sim::scenario::Fault::Crash { worker: crate::sim::id::WorkerId::at(0), at_ms: 1 };
    assert!(matches!(c.grade_break(&[crash]), Some(BreakResult::OutOfBounds(_))));
}

#[test]
fn every_challenge_file_loads_and_bad_ones_are_refused_by_name() {
    let dir = format!("{}/static/challenges", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("static/challenges") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("text");
        let c = parse(&text).unwrap_or_else(|why| panic!("{}: {why}", path.display()));
        assert_eq!(
            Some(c.id.as_str()),
            path.file_stem().and_then(|s| s.to_str()),
            "named by its id"
        );
        n += 1;
    }
    assert!(n >= 12, "{n} challenges");
    // Each file is in the chapter's order and compiled in as written.
    assert_eq!(super::INDEX.len(), n, "order.txt lists every challenge once");
    for (id, kind, title, practises) in super::INDEX {
        let c = parse(super::file(id).expect("compiled in")).expect("loads");
        assert_eq!(c.title, *title);
        assert_eq!(*kind, if matches!(c.kind, Kind::Fix { .. }) { "fix" } else { "break" });
        assert_eq!(c.practises, *practises);
        assert!(super::practising(practises[0]).contains(id));
    }
    let good: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{dir}/fence-the-pause.json")).expect("a file"),
    )
    .expect("JSON");
    let with = |path: &[&str], value: serde_json::Value| {
        let mut v = good.clone();
        let mut at = &mut v;
        for key in &path[..path.len() - 1] {
            at = match key.parse::<usize>() {
                Ok(i) => &mut at[i],
                Err(_) => &mut at[*key],
            };
        }
        at[path[path.len() - 1]] = value;
        v.to_string()
    };
    let bad = [
        (with(&["design"], "no-such-lesson".into()), "design: no-such-lesson"),
        (with(&["kind"], "guess".into()), "kind: guess"),
        (
            with(&["properties"], serde_json::json!(["no-such-property"])),
            "properties: no-such-property",
        ),
        (
            with(&["options", "0", "set"], serde_json::json!({"guard": "maybe"})),
            "options.guard-lt: guard=maybe",
        ),
        (with(&["add"], serde_json::json!(["meteor"])), "add: meteor"),
        (
            with(&["hints"], serde_json::json!({"token-order": "x"})),
            "hints: none for no-stale-accept",
        ),
        (
            with(&["options", "1", "set"], serde_json::json!({})),
            "options.watchdog: changes nothing",
        ),
        (with(&["bonus"], 2.into()), "unknown field"),
    ];
    for (text, why) in bad {
        let error = parse(&text).expect_err(why);
        assert!(error.contains(why), "{why}: {error}");
    }
    for junk in ["", "[]", "{", "\u{0}"] {
        assert!(parse(junk).is_err());
    }
}

#[test]
fn persist_the_counter() {
    // The restarts searched are process crashes: what reached the OS survives them, so
    // `everysec` is enough (at par); `always` is safe too, at a higher cost.
    check_fix("persist-the-counter", &["aof-everysec"], &["rdb-snapshot"]);
    let c = load("persist-the-counter");
    assert!(matches!(c.grade_fix(&["aof-always"]), Some(FixResult::Safe { cost: 2, par: 1, .. })));
    // They set the same thing: choosing one drops the others.
    assert_eq!(c.rivals("aof-everysec"), ["aof-always", "rdb-snapshot"]);
}

#[test]
fn outlast_the_watchdog() {
    let (c, _) = check_break("outlast-the-watchdog");
    // The design as the lesson has it (its own pause and fence) is not the design given.
    assert!(c.start_setup().faults.is_empty(), "the learner places the pause");
    // A pause placed in round numbers, as a learner would (the browser test places it).
    let pause = |at_ms, pause_ms| crate::sim::scenario::Fault::Pause {
        worker: crate::sim::id::WorkerId::at(0),
        at_ms,
        pause_ms,
    };
    // 25 s from 7.5 s is not long enough; 30 s from 5 s is.
    assert_eq!(c.grade_break(&[pause(7_500, 25_000)]), Some(BreakResult::Held));
    assert_eq!(
        c.grade_break(&[pause(5_000, 30_000)]),
        Some(BreakResult::Broken { used: 1, par: 1 })
    );
}

#[test]
fn release_only_your_own() {
    check_fix("release-only-your-own", &["release-script"], &["watchdog"]);
}

#[test]
fn check_in_the_database() {
    check_fix("check-in-the-database", &["fenced-update"], &["check-lease"]);
}

#[test]
fn charge_once() {
    check_fix("charge-once", &["key-per-order"], &["watchdog"]);
}

#[test]
fn failover_without_a_duplicate() {
    check_fix("failover-without-a-duplicate", &["give-up"], &["guard-le"]);
}

#[test]
fn counter_not_uuid() {
    check_fix("counter-not-uuid", &["incr"], &["guard-le"]);
}

#[test]
fn claim_the_row_first() {
    check_fix("claim-the-row-first", &["claim"], &["watchdog"]);
}

#[test]
fn fence_the_upload() {
    check_fix("fence-the-upload", &["meta-fence"], &["watchdog"]);
}

#[test]
fn fence_the_clock_jump() {
    check_fix("fence-the-clock-jump", &["guard-lt"], &["watchdog"]);
}

/// The page's state: choosing an option drops its rivals, a grade for an attempt that is
/// no longer awaited is ignored, the best score is kept, and the design is reported in
/// SCORM's performance form.
#[test]
fn an_attempt_keeps_its_design_its_grades_and_its_best_score() {
    use super::attempt::{Action, Attempt, Grade, Phase};
    let c = load("draw-the-token-with-the-lock");
    let a = Attempt::new(0.0);
    let a = a.update(&c, Action::Toggle("incr-first".into()));
    let a = a.update(&c, Action::Toggle("one-script".into()));
    assert_eq!(a.chosen, ["one-script"], "choosing one way to take the lock drops the other");
    let a = a.update(&c, Action::Toggle("watchdog".into()));
    assert_eq!(a.response(&c), "one-script[.]true[,]incr-first[.]false[,]watchdog[.]true");

    let a = a.update(&c, Action::Check { now_ms: 5.0 });
    assert_eq!(a.grading(), Some(1));
    // While grading, the design is frozen and a second check is not counted.
    let frozen = a.update(&c, Action::Toggle("watchdog".into()));
    assert_eq!(frozen.chosen, a.chosen);
    assert_eq!(a.update(&c, Action::Check { now_ms: 6.0 }).attempts, 1);
    // A grade for another attempt is dropped; this attempt's grade lands.
    let grade = |chosen: &[&str]| Grade::Fix(c.grade_fix(chosen).expect("graded"));
    let stale = a.update(&c, Action::Graded { n: 7, grade: grade(&["one-script"]) });
    assert_eq!(stale.phase, Phase::Grading { n: 1 });
    let a = a.update(&c, Action::Graded { n: 1, grade: grade(&["one-script", "watchdog"]) });
    assert!(matches!(a.phase, Phase::Graded(_)));
    let first_best = a.best.expect("one-script with a watchdog is safe");
    assert!(first_best.1 > first_best.0, "the watchdog costs more than par: {first_best:?}");
    // A cheaper safe design becomes the best; a dearer one later does not replace it.
    let a = a.update(&c, Action::Toggle("watchdog".into()));
    let a = a.update(&c, Action::Check { now_ms: 9.0 });
    let a = a.update(&c, Action::Graded { n: 2, grade: grade(&["one-script"]) });
    assert_eq!(a.best, Some((1, 1)));
    let a = a.update(&c, Action::Check { now_ms: 10.0 });
    let a = a.update(&c, Action::Graded { n: 3, grade: grade(&["one-script", "watchdog"]) });
    assert_eq!((a.attempts, a.best), (3, Some((1, 1))));
}

/// Break it: pauses are placed only within the budget, and each is reported by worker.
#[test]
fn a_break_attempt_places_pauses_within_its_budget() {
    use super::attempt::{Action, Attempt, Draft};
    let c = load("break-the-first-write");
    let a = Attempt::new(0.0)
        .update(&c, Action::Draft(Draft { worker: 0, at_ms: 1500, pause_ms: 0 }))
        .update(&c, Action::Place);
    assert_eq!(a.placed.len(), 1);
    assert_eq!(a.response(&c), format!("pause[.]{}@1500+1", c.workers()[0]));
    let full = (0..c.budget() + 2).fold(a, |a, _| a.update(&c, Action::Place));
    assert_eq!(full.placed.len(), c.budget(), "no more pauses than the budget");
    assert!(full.update(&c, Action::Remove(0)).placed.len() < c.budget());
    assert_eq!(full.update(&c, Action::Remove(99)).placed, full.placed);
}
