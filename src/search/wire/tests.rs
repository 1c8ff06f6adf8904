//! Replicas on simulated workers, with results delivered in scrambled orders, reach the
//! answer one thread reaches.

use std::collections::VecDeque;

use super::*;
use crate::catalogue;
use crate::search::{Report, default_properties, describe, run};
use crate::sim::prng::Prng;

type Queues<T> = Vec<VecDeque<T>>;

/// Delivers `sends` as a worker would receive them: through their bytes.
fn post(sends: Vec<Send>, inbox: &mut Queues<ToReplica>) {
    let through_bytes = |m: &ToReplica| decode::<ToReplica>(&encode(m)).expect("reads back");
    for send in sends {
        match send {
            Send::To(k, message) => inbox[k].push_back(through_bytes(&message)),
            Send::All(message) => {
                inbox.iter_mut().for_each(|q| q.push_back(through_bytes(&message)))
            }
        }
    }
}

/// Drives `n` replicas through a relay; each worker's inbox is first in, first out (as a
/// worker's messages are), but which worker acts next is drawn from `seed`.
fn on_workers(id: &str, request: &Request, n: usize, seed: u64) -> Outcome {
    let lesson = catalogue::find(id).expect("a built-in");
    let json = crate::catalogue::codec::write_scenario(&lesson).compact();
    let (mut relay, first) = Relay::new(n, request, &json);
    let mut replicas: Vec<Replica> = (0..n).map(|_| Replica::new()).collect();
    let mut inbox: Queues<ToReplica> = vec![VecDeque::new(); n];
    let mut outbox: Queues<FromReplica> = vec![VecDeque::new(); n];
    post(first, &mut inbox);
    let mut prng = Prng::new(seed);
    for _ in 0..10_000_000 {
        if let Some(ending) = relay.ending() {
            match ending {
                Ending::Report(outcome) => return outcome.clone(),
                Ending::Failed(why) => panic!("the search failed: {why}"),
            }
        }
        let k = prng.below(n as u64) as usize;
        if prng.chance(1, 2) {
            if let Some(message) = inbox[k].pop_front() {
                outbox[k].extend(replicas[k].handle(message));
            }
        } else if let Some(message) = outbox[k].pop_front() {
            let reply = decode::<FromReplica>(&encode(&message)).expect("reads back");
            let sends = relay.on_reply(k, reply);
            post(sends, &mut inbox);
        }
    }
    panic!("the search did not end");
}

fn request(id: &str) -> (Request, Report) {
    let lesson = catalogue::find(id).expect("a built-in");
    let properties = default_properties(&sim::run(&lesson.setup));
    let space = Space::for_setup(&lesson.setup);
    let report = run(&lesson.setup, space.clone(), properties.clone());
    (Request { space, properties }, report)
}

fn check(id: &str, request_with: impl FnOnce(&mut Request)) {
    let (mut request, _) = request(id);
    request_with(&mut request);
    let lesson = catalogue::find(id).expect("a built-in");
    let alone = run(&lesson.setup, request.space.clone(), request.properties.clone());
    for (n, seed) in [(1, 1), (2, 7), (3, 11)] {
        let outcome = on_workers(id, &request, n, seed);
        assert_eq!(outcome.schedules, alone.schedules, "{id} on {n} workers");
        assert_eq!(outcome.runs, alone.runs, "{id} on {n} workers");
        assert_eq!(outcome.capped, alone.capped, "{id} on {n} workers");
        let property = alone.found.as_ref().map(|f| f.property.name().to_owned());
        assert_eq!(outcome.found.as_ref().map(|f| f.property.clone()), property);
        let changes: Option<Vec<String>> = alone
            .found
            .as_ref()
            .map(|f| f.changes.iter().map(|c| describe(c, &lesson.setup)).collect());
        let got: Option<Vec<String>> =
            outcome.found.as_ref().map(|f| f.changes.iter().map(Phrase::english).collect());
        assert_eq!(got, changes, "{id} on {n} workers");
    }
}

#[test]
fn workers_find_what_one_thread_finds() {
    check("gc-pause-fenced", |_| {});
    let found = on_workers("gc-pause-fenced", &request("gc-pause-fenced").0, 2, 3);
    let found = found.found.expect("a counterexample");
    assert_eq!(found.property, "no-stale-holder");
    assert_eq!(found.broke_key, "sim.stale_holder");
    let scenario = crate::catalogue::load::parse_scenario(&found.scenario).expect("a scenario");
    let trace = sim::run(&scenario.setup);
    let broken = |e: &crate::sim::event::Event| {
        matches!(e.kind, EventKind::Violation { property: Property::NoStaleHolder, .. })
    };
    assert!(trace.violations().any(broken));
}

#[test]
fn workers_agree_when_nothing_is_found_over_several_levels() {
    // Small levels, so the replicas move through several levels and feed across them.
    check("retry-lost-reply-idempotency-key", |r| r.space.level_limit = 150);
    check("efficiency-lock", |r| {
        r.space.level_limit = 100;
        r.space.max_added = 3;
    });
}

#[test]
fn messages_read_back_and_bad_ones_are_refused() {
    let (request, _) = request("failover-duplicate-token");
    let search = ToReplica::Search { request: request.clone(), scenario: "{".to_owned() };
    assert_eq!(decode::<ToReplica>(&encode(&search)), Some(search.clone()));
    let bytes = encode(&search);
    for bad in [&[][..], &bytes[..bytes.len() - 1], &[7, 0]] {
        assert_eq!(decode::<ToReplica>(bad), None, "{bad:?}");
    }
    let mut replica = Replica::new();
    let lesson = catalogue::find("gc-pause-fenced").expect("a built-in");
    let json = crate::catalogue::codec::write_scenario(&lesson).compact();
    let too_many =
        Request { space: Space { max_added: 9, ..request.space.clone() }, ..request.clone() };
    let no_limit =
        Request { space: Space { level_limit: 0, ..request.space.clone() }, ..request.clone() };
    for bad in [
        ToReplica::Run { level: 0, chunk: 0 },
        ToReplica::Feed(Vec::new()),
        search,
        ToReplica::Search { request: too_many, scenario: json.clone() },
        ToReplica::Search { request: no_limit, scenario: json.clone() },
    ] {
        let replies = replica.handle(bad.clone());
        assert!(
            !replies.is_empty() && replies.iter().all(|r| matches!(r, FromReplica::Error(_))),
            "{bad:?}: {replies:?}"
        );
    }
    // A chunk the level does not have, once the search runs.
    let started = replica.handle(ToReplica::Search { request, scenario: json });
    assert!(matches!(started[..], [FromReplica::Level { level: 0, .. }]), "{started:?}");
    let replies = replica.handle(ToReplica::Run { level: 0, chunk: 1_000_000 });
    assert!(
        matches!(&replies[..], [FromReplica::Error(why)] if why.contains("no chunk")),
        "{replies:?}"
    );
}
