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
    // Drawing the token first is safe here too, at the same cost (it burns tokens).
    let c = load("draw-the-token-with-the-lock");
    assert!(matches!(c.grade_fix(&["incr-first"]), Some(FixResult::Safe { cost: 1, .. })));
}

#[test]
fn break_the_first_write() {
    let c = load("break-the-first-write");
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
        let text = std::fs::read_to_string(&path).expect("text");
        let c = parse(&text).unwrap_or_else(|why| panic!("{}: {why}", path.display()));
        assert_eq!(
            Some(c.id.as_str()),
            path.file_stem().and_then(|s| s.to_str()),
            "named by its id"
        );
        n += 1;
    }
    assert!(n >= 3, "{n} challenges");
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
    check_fix("persist-the-counter", &["aof-always"], &["rdb-snapshot"]);
}
