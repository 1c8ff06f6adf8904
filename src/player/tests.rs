use super::{Action, Player, Reveal, SPEEDS};
use crate::catalogue;
use crate::whatif::WhatIf;

fn player(id: &str) -> Player {
    Player::new(catalogue::find(id).expect("built-in"))
}

/// The instructor's player: no prompt stops it (for the tests of plain movement).
fn revealed(id: &str) -> Player {
    player(id).update(Action::SetReveal(Reveal::Everything))
}

/// Applies actions in order and returns the final player.
fn run(p: Player, actions: &[Action]) -> Player {
    actions.iter().fold(p, |p, a| p.update(a.clone()))
}

#[test]
fn seeking_by_time_applies_every_event_up_to_it() {
    let p = revealed("gc-pause-fenced").update(Action::SeekTime(31_500));
    let state = p.trace.state_at(p.cursor);
    let node = &state.nodes[0];
    assert_eq!(
        node.keyspace.peek("lock:order:42", node.clock_ms(31_500)).map(|e| e.value.as_str()),
        Some("B-55613ff287e7")
    );
    assert_eq!(p.time_ms, 31_500);
    // Seeking past the end clamps to the last event.
    let p = p.update(Action::SeekTime(10_000_000));
    assert_eq!((p.cursor, p.time_ms), (p.trace.len(), p.trace.end_ms()));
}

#[test]
fn stepping_walks_same_instant_events_one_by_one_and_clamps() {
    let p = revealed("gc-pause-fenced");
    let p = run(p, &[Action::Last]);
    let n = p.trace.len();
    let back = p.update(Action::StepBack);
    assert_eq!(back.cursor, n - 1);
    assert_eq!(back.time_ms, p.trace.events()[n - 2].at_ms);
    assert_eq!(p.update(Action::StepForward).cursor, n, "stepping past the end clamps");
    assert_eq!(run(revealed("gc-pause-fenced"), &[Action::StepBack]).cursor, 0);
}

#[test]
fn milestones_skip_to_the_events_that_matter() {
    let p = revealed("gc-pause-fenced");
    let tags: Vec<&str> = std::iter::successors(Some(p.clone()), |p| {
        let next = p.update(Action::NextMilestone);
        (next.cursor != p.cursor).then_some(next)
    })
    .skip(1)
    .filter_map(|p| p.current_event().map(|e| e.kind.tag()))
    .collect();
    // After the last milestone, a semantic step goes to the end.
    assert_eq!(
        tags,
        ["granted", "paused", "expired", "granted", "write-accepted", "write-rejected", "finished"]
    );
    let end = p.update(Action::Last).update(Action::PrevMilestone);
    assert_eq!(end.current_event().map(|e| e.kind.tag()), Some("write-rejected"));
    let before = end.update(Action::PrevMilestone);
    assert_eq!(before.current_event().map(|e| e.kind.tag()), Some("write-accepted"));
}

#[test]
fn play_advances_with_speed_and_stops_at_the_end() {
    // redlock-clock-jump has no prediction prompts, so nothing else stops the playback.
    let p = player("redlock-clock-jump")
        .update(Action::SetSpeed(SPEEDS.len() - 1))
        .update(Action::Play);
    assert!(p.playing);
    let p = p.update(Action::Tick(100));
    assert_eq!(p.time_ms, 1_000, "10x speed: 0.1 real seconds is one virtual second");
    let mut p = p;
    for _ in 0..100 {
        p = p.update(Action::Tick(1_000));
    }
    assert!(!p.playing, "play stops at the end");
    assert_eq!(p.cursor, p.trace.len());
    // Play again from the end restarts from the beginning.
    let again = p.update(Action::Play);
    assert!(again.playing && again.cursor == 0);
    // A tick while paused changes nothing.
    assert_eq!(p.update(Action::Tick(5_000)), p);
}

#[test]
fn a_fork_keeps_the_time_and_reset_restores_the_original() {
    let p = player("gc-pause-fenced").update(Action::SeekTime(40_000));
    let forked = p.update(Action::Fork(WhatIf { pause_ms: Some(10_000), ..WhatIf::default() }));
    assert_ne!(forked.trace, p.trace, "a fork runs a new trace");
    assert!(forked.time_ms <= 40_000);
    assert!(
        forked.trace.events().iter().all(|e| e.kind.tag() != "write-rejected"),
        "a pause shorter than the TTL removes the rejection"
    );
    assert_eq!(forked.whatif.changed(), ["pause"]);
    let reset = forked.update(Action::Reset);
    assert!(reset.whatif.is_original());
    assert_eq!(reset.trace.events(), p.trace.events());
}

#[test]
fn play_stops_before_a_prediction_prompt_until_it_is_answered() {
    let mut scenario = catalogue::find("gc-pause-fenced").unwrap();
    scenario.prompts = vec![crate::catalogue::lesson::Prompt {
        at: crate::catalogue::lesson::Anchor {
            event: Some("write-rejected".into()),
            ..Default::default()
        },
        question: "What will the database answer?".into(),
        options: vec!["UPDATE 1".into(), "UPDATE 0".into()],
        answer: 1,
        explanation: "last_fence is 34".into(),
        facts: Vec::new(),
    }];
    let mut p =
        Player::new(scenario).update(Action::SetSpeed(SPEEDS.len() - 1)).update(Action::Play);
    for _ in 0..200 {
        p = p.update(Action::Tick(1_000));
    }
    let rejected = p.trace.events().iter().position(|e| e.kind.tag() == "write-rejected").unwrap();
    assert!(!p.playing, "play stopped at the prompt");
    assert_eq!(p.cursor, rejected, "the predicted event has not happened yet");
    assert_eq!(p.prompt_due(), Some(0));
    let p = p.update(Action::ContinueAfterPrompt(0));
    assert_eq!(p.cursor, rejected + 1, "Continue shows the predicted moment, one step on");
    assert!(!p.playing && p.prompt_due().is_none());
    let mut p = p.update(Action::Play);
    for _ in 0..200 {
        p = p.update(Action::Tick(1_000));
    }
    assert_eq!(p.cursor, p.trace.len(), "after the answer, play runs to the end");
}

#[test]
fn no_way_forward_passes_an_unanswered_prompt() {
    // gc-pause-unfenced asks before A's late write (the second accepted one).
    let p = player("gc-pause-unfenced");
    let stop = p.trace.events().iter().filter(|e| e.kind.tag() == "write-accepted").nth(1).unwrap();
    let stop = stop.id.index();
    let at_stop = |p: &Player, how: &str| {
        assert_eq!((p.cursor, p.prompt_due(), p.playing), (stop, Some(0), false), "{how}");
    };
    let end = p.trace.end_ms();
    at_stop(&p.update(Action::Last), "End");
    at_stop(&p.update(Action::SeekTime(end)), "scrubbing past it");
    at_stop(&p.update(Action::SeekCursor(p.trace.len())), "clicking a later mark");
    let mut q = p.clone();
    for _ in 0..20 {
        q = q.update(Action::NextMilestone);
    }
    at_stop(&q, "milestone jumps");
    let mut q = p.clone();
    for _ in 0..40 {
        q = q.update(Action::StepForward);
    }
    at_stop(&q, "steps");
    let mut q = p.update(Action::SetSpeed(SPEEDS.len() - 1)).update(Action::Play);
    for _ in 0..200 {
        q = q.update(Action::Tick(1_000));
    }
    assert_eq!((q.cursor, q.prompt_due(), q.playing), (stop, Some(0), false), "Play");
    // Until then the outcome stays hidden; moving back is free and keeps it hidden.
    assert!(q.hides_outcome());
    assert!(q.update(Action::First).hides_outcome());
    // Continue applies exactly the predicted event: A's write lands.
    let after = q.update(Action::ContinueAfterPrompt(0));
    assert_eq!(after.cursor, stop + 1);
    assert_eq!(after.current_event().map(|e| e.kind.tag()), Some("write-accepted"));
    assert!(!after.hides_outcome());
    assert_eq!(
        after.update(Action::Last).cursor,
        after.trace.len(),
        "answered: End goes to the end"
    );
}

#[test]
fn a_link_or_the_instructor_goes_anywhere() {
    let p = player("gc-pause-unfenced");
    let end = p.trace.end_ms();
    // A link's t= (or the host page's seek) is a moment someone chose: its prompts count as passed.
    let linked = p.update(Action::JumpTime(end));
    assert_eq!(linked.cursor, linked.trace.len());
    assert!(!linked.hides_outcome() && linked.prompt_due().is_none());
    assert_eq!(linked.update(Action::First).update(Action::Last).cursor, linked.trace.len());
    // "Show everything": nothing stops, nothing is hidden, no prompt is asked.
    let shown = p.update(Action::SetReveal(Reveal::Everything));
    assert!(!shown.hides_outcome());
    assert_eq!(shown.update(Action::Last).cursor, shown.trace.len());
    let stop = shown.pending_stops();
    assert!(stop.is_empty());
}

#[test]
fn play_skips_a_quiet_stretch_but_not_the_events_around_it() {
    // gc-pause-fenced at 1x: after A's pause starts at 1 s, nothing happens until the
    // expiry at 30.001 s. Play jumps to a second before it instead of waiting 29 s.
    let mut p = revealed("gc-pause-fenced").update(Action::SeekTime(1_000)).update(Action::Play);
    assert_eq!(p.current_event().map(|e| e.kind.tag()), Some("paused"));
    p = p.update(Action::Tick(50));
    assert_eq!(p.time_ms, 29_001, "skipped to 1 s before the expiry");
    assert_eq!(p.current_event().map(|e| e.kind.tag()), Some("paused"), "no event skipped");
    // From there it plays at 1x: 1 s of real time reaches the expiry.
    for _ in 0..20 {
        p = p.update(Action::Tick(50));
    }
    assert_eq!(p.current_event().map(|e| e.kind.tag()), Some("expired"));
    // Short gaps are played as they are.
    let q = revealed("gc-pause-fenced").update(Action::Play).update(Action::Tick(50));
    assert_eq!(q.time_ms, 50);
}

#[test]
fn a_range_keeps_the_learner_inside_it() {
    let p = player("gc-pause-fenced").update(Action::SetRange(30_000, 35_000));
    assert_eq!(p.time_ms, 30_000, "opens at the start of the stretch");
    // Back moves stop at its start, forward moves at its end.
    for back in [Action::First, Action::StepBack, Action::SeekTime(0), Action::PrevMilestone] {
        assert_eq!(p.update(back.clone()).time_ms, 30_000, "{back:?}");
    }
    let end = run(p.clone(), &[Action::SetReveal(Reveal::Everything), Action::Last]);
    assert_eq!(end.time_ms, 35_000);
    assert!(end.cursor < end.trace.len(), "the events after the stretch stay unapplied");
    let played = run(p.clone(), &[Action::SetReveal(Reveal::Everything), Action::Play]);
    let played = (0..2_000).fold(played, |p, _| p.update(Action::Tick(50)));
    assert_eq!((played.time_ms, played.playing), (35_000, false), "play stops at its end");
    // A stretch beyond the run starts at the last event.
    let far = player("gc-pause-fenced").update(Action::SetRange(u64::MAX, u64::MAX));
    assert_eq!(far.time_ms, far.end_ms());
}

/// The learner's walkthrough (issue 30): Play stopped at gc-pause-fenced's first prediction
/// ("what happens to the lock at 30 s?") with the clock at the expiry itself, where the
/// drawing and the readouts already showed the lock gone. It stops a millisecond short.
#[test]
fn play_stops_before_a_predicted_moment_without_showing_it() {
    let mut p =
        player("gc-pause-fenced").update(Action::SetSpeed(SPEEDS.len() - 1)).update(Action::Play);
    for _ in 0..200 {
        p = p.update(Action::Tick(1_000));
        if !p.playing {
            break;
        }
    }
    let due = p.prompt_due().expect("play stopped at a prediction");
    let event = &p.trace.events()[p.cursor];
    assert_eq!(event.kind.tag(), "expired", "prediction {due} asks about the expiry");
    assert!(p.time_ms < event.at_ms, "{} ms is not before {} ms", p.time_ms, event.at_ms);
    let state = p.trace.state_at(p.cursor);
    let node = &state.nodes[0];
    let lock = &p.trace.setup().redis.lock_key;
    assert!(node.keyspace.peek(lock, node.clock_ms(p.time_ms)).is_some(), "the lock still held");
}

#[test]
fn only_the_learner_reaching_the_end_counts_as_watched() {
    let p = player("gc-pause-unfenced");
    let (n, end) = (p.trace.len(), p.trace.end_ms());
    // Answering the prompt on the way and going on to the end: watched.
    let stop = p.update(Action::Last);
    let prompt = stop.prompt_due().expect("the lesson asks before A's late write");
    let watched = stop.update(Action::ContinueAfterPrompt(prompt)).update(Action::Last);
    assert_eq!(watched.cursor, n);
    assert!(watched.watched_to_end());
    // A link (or a host's seek) to the end passes the prompt unanswered: not watched, and
    // moving back and forth does not make it so.
    let linked = p.update(Action::JumpTime(end));
    assert_eq!(linked.cursor, n);
    assert!(!linked.watched_to_end());
    assert!(!linked.update(Action::First).update(Action::Last).watched_to_end());
    // ... until the learner plays it again from the beginning and answers.
    let again = linked.update(Action::Play);
    assert_eq!((again.cursor, again.watch), (0, super::Watch::Learner));
    // Without prompts: a jump to the end is the host's move; a step there is the learner's.
    let plain = revealed("gc-pause-unfenced");
    let jumped = plain.update(Action::JumpTime(end));
    assert!(!jumped.watched_to_end());
    let stepped = plain.update(Action::JumpTime(1)).update(Action::Last);
    assert!(stepped.watched_to_end(), "the learner moved from the linked moment to the end");
}
