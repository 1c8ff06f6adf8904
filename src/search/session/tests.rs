//! The page's state: defaults from the lesson, bounds frozen while a search runs, and the
//! phases a search goes through.

use super::*;
use crate::catalogue;

fn state(id: &str) -> Break {
    Break::for_lesson(&catalogue::find(id).expect("a built-in"), 2)
}

#[test]
fn defaults_come_from_the_lesson() {
    let fenced = state("gc-pause-fenced");
    assert_eq!(
        fenced.request().space,
        Space::for_setup(&catalogue::find("gc-pause-fenced").unwrap().setup)
    );
    assert_eq!(fenced.check, Property::ALL.to_vec(), "its own run breaks nothing");
    // A lesson whose run shows a violation is searched for the others.
    let unfenced = state("gc-pause-unfenced");
    assert!(!unfenced.check.contains(&Property::NoStaleAccept));
    assert!(unfenced.check.contains(&Property::TokenUnique));
}

#[test]
fn a_search_starts_runs_and_ends_and_its_bounds_hold_still_meanwhile() {
    let ready = state("gc-pause-fenced");
    let no_pause = ready.update(Action::Toggle(Addition::Pause)).expect("a change");
    assert!(!no_pause.request().space.add.contains(&Addition::Pause));
    let running = ready.update(Action::Start { now_ms: 1000.0 }).expect("started");
    assert_eq!(running.running(), Some(1));
    assert_eq!(running.update(Action::Faults(3)), None, "bounds are frozen while it runs");
    assert_eq!(running.update(Action::Start { now_ms: 1.0 }), None);
    let standing = Standing { run: 500, known: 1500, level: 1, levels: 4 };
    let later = running.update(Action::Standing { standing, now_ms: 2000.0 }).expect("news");
    let Phase::Running { standing: s, started_ms, now_ms } = later.phase else { panic!("running") };
    assert_eq!(rate(&s, now_ms - started_ms), Some((500.0, 2.0)));
    let cancelled = later.update(Action::Cancel).expect("cancelled");
    assert_eq!(cancelled.phase, Phase::Cancelled { standing });
    assert_eq!(cancelled.running(), None);
    // News from the cancelled search's workers changes nothing.
    assert_eq!(cancelled.update(Action::Standing { standing, now_ms: 3000.0 }), None);
    let again = cancelled.update(Action::Start { now_ms: 5000.0 }).expect("restarted");
    assert_eq!(again.running(), Some(2));
    let ended = again
        .update(Action::Ended { ending: Ending::Failed("x".into()), now_ms: 5500.0 })
        .expect("ended");
    assert_eq!(ended.phase, Phase::Ended { ending: Ending::Failed("x".into()), elapsed_ms: 500.0 });
}

#[test]
fn nothing_to_check_cannot_start() {
    let mut none = state("gc-pause-fenced");
    for p in Property::ALL {
        none = none.update(Action::Check(p)).expect("unchecked");
    }
    assert_eq!(none.update(Action::Start { now_ms: 0.0 }), None);
    assert_eq!(rate(&Standing::default(), 10.0), None);
}
