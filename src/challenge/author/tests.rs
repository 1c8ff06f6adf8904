use super::{Action, Author, Phase, Refusal, Shown, Sort, menu, useful};
use crate::challenge::{BreakResult, Design, FixResult, design_of, parse};
use crate::sim::event::Property;

fn lesson(id: &str) -> crate::catalogue::lesson::Scenario {
    crate::catalogue::find(id).expect("a built-in lesson")
}

/// An author's fix-it on `design`, offering `offers` (keys of the menu) and keeping
/// `keep`: what the check answers.
fn fix(
    design: &str,
    offers: &[&str],
    keep: &[Property],
) -> (Author, Result<super::Ready, Refusal>) {
    let mut a = Author::new();
    a.update(Action::Keep { property: Property::NoStaleAccept, on: false });
    for p in keep {
        a.update(Action::Keep { property: *p, on: true });
    }
    for key in offers {
        a.update(Action::Offer { key: (*key).to_owned(), on: true });
    }
    let result = a.check(&lesson(design));
    (a, result)
}

#[test]
fn a_fix_authored_in_the_builder_fails_as_given_and_its_par_is_the_cheapest_safe_design() {
    let (a, result) = fix(
        "gc-pause-unfenced",
        &["fence-the-pause/watchdog", "fence-the-pause/guard-lt"],
        &[Property::NoStaleAccept],
    );
    let ready = result.expect("a challenge that grades");
    assert_eq!(ready.par, 1);
    assert_eq!(ready.property, Property::NoStaleAccept);
    assert_eq!(ready.shown, Shown::Options(vec![vec!["fence-the-pause/guard-lt".to_owned()]]));
    // The file carries its design, loads as any challenge file does, and grades the same.
    assert!(matches!(design_of(&ready.file), Ok(Design::Own(_))));
    let c = parse(&ready.file).expect("the written file loads");
    assert_eq!(c.par(), 1);
    assert!(matches!(c.grade_fix(&["guard-lt"]), Some(FixResult::Safe { cost: 1, par: 1, .. })));
    // The wrong fix fails with the built-in hint for the rule it breaks.
    let Some(FixResult::Broken { hint, .. }) = c.grade_fix(&["watchdog"]) else {
        panic!("the watchdog alone is not safe");
    };
    let builtin = super::builtin_hint(Property::NoStaleAccept).expect("a built-in hint").1;
    assert_eq!(hint, builtin);
    // Par is the model's: both options offered at a cost the author changes move it.
    let mut dear = a.clone();
    dear.update(Action::Cost { key: "fence-the-pause/guard-lt".to_owned(), cost: 5 });
    assert_eq!(dear.check(&lesson("gc-pause-unfenced")).map(|r| r.par), Ok(5));
}

#[test]
fn a_fix_that_cannot_be_graded_is_refused_with_the_reason() {
    // Nothing to fix: the fenced lesson is safe as given.
    let (_, result) =
        fix("gc-pause-fenced", &["fence-the-pause/watchdog"], &[Property::NoStaleAccept]);
    assert_eq!(result, Err(Refusal::AlreadySafe));
    // No combination is safe: the watchdog pauses with the process.
    let (_, result) =
        fix("gc-pause-unfenced", &["fence-the-pause/watchdog"], &[Property::NoStaleAccept]);
    assert_eq!(result, Err(Refusal::NothingSafe));
    // No option, no rule: said before the file is written.
    let (_, result) = fix("gc-pause-unfenced", &[], &[Property::NoStaleAccept]);
    assert_eq!(result, Err(Refusal::NoOptions));
    let (_, result) = fix("gc-pause-unfenced", &["fence-the-pause/guard-lt"], &[]);
    assert_eq!(result, Err(Refusal::NoRules));
    // Two designs safe at par: both are shown, the author sees the learner may take either.
    let (_, result) = fix(
        "gc-pause-unfenced",
        &["fence-the-pause/guard-lt", "counter-not-uuid/guard-le", "fence-the-pause/watchdog"],
        &[Property::NoStaleAccept],
    );
    let ready = result.expect("a challenge that grades");
    assert_eq!(ready.par, 1);
    let Shown::Options(found) = &ready.shown else { panic!("a fix shows options") };
    assert_eq!(found.len(), 2, "{found:?}");
    // An option that changes nothing here is not on offer, and the loader would refuse it.
    let fenced = lesson("gc-pause-fenced");
    let offered: Vec<String> = useful(&fenced).into_iter().map(|o| o.key).collect();
    assert!(!offered.iter().any(|k| k == "fence-the-pause/guard-lt"), "{offered:?}");
    assert!(offered.iter().any(|k| k == "fence-the-pause/watchdog"), "{offered:?}");
}

#[test]
fn a_break_authored_in_the_builder_holds_as_given_and_its_par_is_the_fewest_pauses() {
    let mut a = Author::new();
    a.update(Action::Sort(Sort::Break));
    a.update(Action::Property(Property::NoStaleHolder));
    let ready = a.check(&lesson("gc-pause-fenced")).expect("a challenge that grades");
    let Shown::Pauses(pauses) = &ready.shown else { panic!("a break shows pauses") };
    assert_eq!((ready.par, pauses.len()), (1, 1));
    let c = parse(&ready.file).expect("the written file loads");
    assert_eq!(c.grade_break(&[]), Some(BreakResult::Held));
    assert_eq!(c.grade_break(pauses), Some(BreakResult::Broken { used: 1, par: 1 }));
    // A design that breaks the rule with no pause placed has nothing to break.
    a.update(Action::Property(Property::NoStaleAccept));
    assert_eq!(
        a.check(&lesson("gc-pause-unfenced")).map(|r| r.par),
        Err(Refusal::AlreadyBroken(Property::NoStaleAccept))
    );
    // The fenced design keeps "no stale accept" under any one pause.
    assert_eq!(a.check(&lesson("gc-pause-fenced")).map(|r| r.par), Err(Refusal::Unbreakable));
}

#[test]
fn the_panel_offers_each_option_once_keeps_to_six_and_drops_a_stale_check() {
    let all = menu();
    let watchdogs: Vec<&str> = all
        .iter()
        .filter(|o| o.set == [("wd".to_owned(), "10000".to_owned())])
        .map(|o| o.key.as_str())
        .collect();
    assert_eq!(watchdogs, ["fence-the-pause/watchdog"], "one entry per setting");
    let mut a = Author::new();
    for o in all.iter().take(8) {
        a.update(Action::Offer { key: o.key.clone(), on: true });
    }
    assert_eq!(a.offered.len(), super::OFFERS_MAX);
    a.update(Action::Offer { key: "no/such".to_owned(), on: false });
    assert_eq!(a.offered.len(), super::OFFERS_MAX);
    // Two offers from one option id are numbered apart in the file.
    let file: serde_json::Value =
        serde_json::from_str(&a.file(&lesson("gc-pause-unfenced"), 0)).unwrap();
    let ids: Vec<&str> =
        file["options"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap()).collect();
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids.len(), unique.len(), "{ids:?}");
    // A check answered for an earlier revision is not this one's.
    a.update(Action::Check);
    let old = a.revision;
    a.update(Action::Budget(2));
    a.update(Action::Check);
    a.update(Action::Checked { revision: old, result: Err(Refusal::Unbreakable) });
    assert_eq!(a.phase, Phase::Checking);
    a.update(Action::Checked { revision: a.revision, result: Err(Refusal::AlreadySafe) });
    assert_eq!(a.phase, Phase::Checked(Err(Refusal::AlreadySafe)));
    a.update(Action::DesignChanged);
    assert_eq!(a.phase, Phase::Editing);
}

#[test]
fn a_file_names_one_design() {
    let both = r#"{"id":"x","kind":"fix","title":"t","story":"s","design":"gc-pause-unfenced","scenario":{}}"#;
    assert_eq!(design_of(both), Err("design and scenario: give one, not both".to_owned()));
    let neither = r#"{"id":"x","kind":"fix","title":"t","story":"s"}"#;
    assert!(design_of(neither).is_err_and(|why| why.starts_with("design: missing")));
    let bad = r#"{"id":"x","kind":"fix","title":"t","story":"s","scenario":{"id":"x"}}"#;
    assert!(design_of(bad).is_err_and(|why| why.starts_with("scenario: ")), "{:?}", design_of(bad));
}

#[test]
fn each_form_field_reads_as_its_action_and_a_bad_value_as_none() {
    let check = |field: &str, arg: &str, value: &str, checked: bool, expect: Option<Author>| {
        let mut a = Author::new();
        let action = Action::from_field(field, arg, value, checked);
        assert_eq!(action.is_some(), expect.is_some(), "{field}={value}");
        if let (Some(action), Some(expect)) = (action, expect) {
            a.update(action);
            assert_eq!(a, expect, "{field}={value}");
        }
    };
    let with = |f: &dyn Fn(&mut Author)| {
        let mut a = Author::new();
        f(&mut a);
        a.revision = 1;
        Some(a)
    };
    check("sort", "", "break", false, with(&|a| a.sort = Sort::Break));
    check("budget", "", "2", false, with(&|a| a.budget = 2));
    check("budget", "", "two", false, None);
    check("property", "", "token-order", false, with(&|a| a.property = Property::TokenOrder));
    check("property", "", "nonsense", false, None);
    check(
        "keep",
        "token-order",
        "",
        true,
        with(&|a| a.keep.push((Property::TokenOrder, String::new()))),
    );
    check("hint", "no-stale-accept", "look", false, with(&|a| a.keep[0].1 = "look".to_owned()));
    check("add", "restart", "", true, with(&|a| a.add.push(crate::search::Addition::Restart)));
    check("add", "meteor", "", true, None);
    check("max-added", "", "3", false, with(&|a| a.max_added = 3));
    check("vary", "", "nothing", false, with(&|a| a.vary = crate::search::Vary::Nothing));
    check("title", "", "Mine", false, with(&|a| a.title = "Mine".to_owned()));
    check("cost", "x/y", "-1", false, None);
    check("colour", "", "red", false, None);
}
