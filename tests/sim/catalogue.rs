//! The built-in catalogue: every file parses, ids are unique and match file names.

use fencing_playground::catalogue::{self, builtin::FILES};
use fencing_playground::sim;

#[test]
fn every_builtin_parses_and_runs() {
    // A built-in that fails to parse would silently vanish from the page.
    for (id, text) in FILES {
        let scenario: sim::Scenario =
            serde_json::from_str(text).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(&scenario.id, id, "file name and id differ");
        assert_eq!(scenario.format, 1);
        let trace = sim::run(&scenario);
        assert!(!trace.is_empty(), "{id} produced no events");
        assert!(!trace.truncated(), "{id} hit the event limit");
    }
    assert_eq!(catalogue::all().len(), FILES.len());
}

#[test]
fn ids_are_unique_and_routable() {
    let mut ids: Vec<&str> = FILES.iter().map(|(id, _)| *id).collect();
    for id in &ids {
        assert!(fencing_playground::route::is_scenario_id(id), "{id} is not a valid route id");
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), FILES.len(), "duplicate ids");
}
