//! The search on built-ins whose counterexamples are known, and its invariants.

use super::*;
use crate::catalogue;

fn lesson(id: &str) -> Scenario {
    catalogue::find(id).expect("a built-in")
}

#[test]
fn gc_pause_fenced_breaks_when_a_wakes_between_bs_grant_and_write() {
    let lesson = lesson("gc-pause-fenced");
    let trace = sim::run(&lesson.setup);
    let properties = default_properties(&trace);
    let report = run(&lesson.setup, Space::for_setup(&lesson.setup), properties);
    let found = report.found.expect("a counterexample");
    assert_eq!(found.property, Property::NoStaleHolder);
    let text: Vec<String> = found.changes.iter().map(|c| describe(c, &lesson.setup)).collect();
    assert_eq!(text, vec!["A's pause: 39.000 s -> 30.999 s"]);
}
