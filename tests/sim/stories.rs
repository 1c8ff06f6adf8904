//! The timelines the product teaches, checked event by event.

use expect_test::expect;
use fencing_playground::sim::scenario::{AcquireHow, Step};
use fencing_playground::sim::{self, EventKind};

use crate::support::{builtin, check, key_at, violations};

#[test]
fn gc_pause_fenced_rejects_the_stale_write() {
    // The seed's 33/34 timeline: TTL 30 s, counter at 32, A pauses 1 s to 40 s.
    let trace = check(
        &builtin("gc-pause-fenced"),
        expect![[r#"
            #0       0.000 s  A        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 A-e8ffc4441451 30000 -> [1, 33]
            #1       1.000 s  A        paused          stop-the-world pause for 39.000 s (until 40.000 s)
            #2      30.001 s  redis    expired         lock:order:42 expired: its deadline passed on redis's clock  (after #0)
            #3      31.000 s  B        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 B-55613ff287e7 30000 -> [1, 34]
            #4      31.000 s  checker  overlap         A and B both believe they hold the lock  (after #0, #3)
            #5      32.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 34, updated_by = 'B' WHERE id = 42 AND last_fence < 34 -> UPDATE 1  (after #3)
            #6      32.000 s  B        released        EVAL <release> 1 lock:order:42 B-55613ff287e7 -> 1
            #7      32.000 s  B        finished        program finished
            #8      40.000 s  A        resumed         running again
            #9      40.000 s  db       write-rejected  UPDATE orders SET status = 'paid', last_fence = 33, updated_by = 'A' WHERE id = 42 AND last_fence < 33 -> UPDATE 0  # write by A with token 33 rejected: last_fence is 34, written by B at 32.000 s  (after #0, #5)
            #10     40.000 s  A        released        EVAL <release> 1 lock:order:42 A-e8ffc4441451 -> 0
            #11     40.000 s  A        finished        stopped: fenced off
        "#]],
    );
    // At 31.5 s the lock belongs to B and the counter reads 34.
    assert_eq!(key_at(&trace, 0, "lock:order:42", 31_500).as_deref(), Some("B-55613ff287e7"));
    assert_eq!(key_at(&trace, 0, "fence:order:42", 31_500).as_deref(), Some("34"));
    // Before 30 s it is still A's; just after the deadline it is nobody's.
    assert_eq!(key_at(&trace, 0, "lock:order:42", 30_000).as_deref(), Some("A-e8ffc4441451"));
    assert_eq!(key_at(&trace, 0, "lock:order:42", 30_001), None);
    let summary = trace.summary();
    let writes: Vec<(String, Option<i64>, u64, u32)> =
        summary.writes.iter().map(|w| (w.worker.clone(), w.token, w.at_ms, w.rows.0)).collect();
    assert_eq!(writes, vec![("B".into(), Some(34), 32_000, 1), ("A".into(), Some(33), 40_000, 0)]);
    assert_eq!(trace.state_at(trace.len()).order.last_fence, 34);
    assert!(summary.violations.is_empty(), "{:?}", summary.violations);
}

#[test]
fn gc_pause_unfenced_accepts_both_writes_and_the_checker_says_so() {
    // The same schedule without the fence check: A's write with 33 overwrites B's 34.
    let trace = check(
        &builtin("gc-pause-unfenced"),
        expect![[r#"
            #0       0.000 s  A        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 A-e8ffc4441451 30000 -> [1, 33]
            #1       1.000 s  A        paused          stop-the-world pause for 39.000 s (until 40.000 s)
            #2      30.001 s  redis    expired         lock:order:42 expired: its deadline passed on redis's clock  (after #0)
            #3      31.000 s  B        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 B-55613ff287e7 30000 -> [1, 34]
            #4      31.000 s  checker  overlap         A and B both believe they hold the lock  (after #0, #3)
            #5      32.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 34, updated_by = 'B' WHERE id = 42 -> UPDATE 1  (after #3)
            #6      32.000 s  B        released        EVAL <release> 1 lock:order:42 B-55613ff287e7 -> 1
            #7      32.000 s  B        finished        program finished
            #8      40.000 s  A        resumed         running again
            #9      40.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 33, updated_by = 'A' WHERE id = 42 -> UPDATE 1  (after #0)
            #10     40.000 s  checker  violation       VIOLATION no-stale-accept: write by A with token 33 accepted after a write with token 34 had been accepted  (after #5, #9)
            #11     40.000 s  A        released        EVAL <release> 1 lock:order:42 A-e8ffc4441451 -> 0
            #12     40.000 s  A        finished        program finished
        "#]],
    );
    let rows: Vec<u32> = trace.summary().writes.iter().map(|w| w.rows.0).collect();
    assert_eq!(rows, vec![1, 1]);
    assert_eq!(violations(&trace), vec!["no-stale-accept"]);
    assert_eq!(
        trace.state_at(trace.len()).order.last_fence,
        33,
        "the stale token overwrote the newer one"
    );
}

#[test]
fn order_101_stale_worker_rolls_back_cleans_up_and_dead_letters() {
    // A pauses 35 s before its write against a 30 s TTL; B finishes order 101 first.
    let trace = check(
        &builtin("stale-token-handling"),
        expect![[r##"
            #0       0.000 s  A        granted         EVAL <acquire> 2 lock:order:101 fence:order:101 A-e8ffc4441451 30000 -> [1, 33]
            #1       0.000 s  A        began           BEGIN -> BEGIN
            #2       0.000 s  storage  object-put      PUT /bucket/orders/101/receipt-33.pdf -> 200 OK ETag "4252c1233cfc9e5677c2d7a450a1b3f5"
            #3       1.000 s  A        paused          stop-the-world pause for 35.000 s (until 36.000 s)
            #4      30.001 s  redis    expired         lock:order:101 expired: its deadline passed on redis's clock  (after #0)
            #5      31.000 s  B        granted         EVAL <acquire> 2 lock:order:101 fence:order:101 B-55613ff287e7 30000 -> [1, 34]
            #6      31.000 s  checker  overlap         A and B both believe they hold the lock  (after #0, #5)
            #7      31.000 s  storage  object-put      PUT /bucket/orders/101/receipt-34.pdf -> 200 OK ETag "a8cbbe94bfade7d2a556623ba7724109"
            #8      32.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 34, updated_by = 'B' WHERE id = 101 AND last_fence < 34 -> UPDATE 1  (after #5)
            #9      32.000 s  B        released        EVAL <release> 1 lock:order:101 B-55613ff287e7 -> 1
            #10     32.000 s  B        finished        program finished
            #11     36.000 s  A        resumed         running again
            #12     36.000 s  db       write-rejected  UPDATE orders SET status = 'paid', last_fence = 33, updated_by = 'A' WHERE id = 101 AND last_fence < 33 -> UPDATE 0  # write by A with token 33 rejected: last_fence is 34, written by B at 32.000 s  (after #0, #8)
            #13     36.000 s  A        rolled-back     ROLLBACK -> ROLLBACK
            #14     36.000 s  storage  object-deleted  DELETE /bucket/orders/101/receipt-33.pdf -> 204 No Content
            #15     36.000 s  dlq      sent-to-dlq     SEND dlq "order 101 paid, token 33, from A" -> queued
            #16     36.000 s  A        finished        program finished
        "##]],
    );
    let end = trace.state_at(trace.len());
    assert_eq!(end.order.updated_by, "B");
    assert_eq!(end.dlq.len(), 1);
    let objects: Vec<&str> = end.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        objects,
        vec!["orders/101/receipt-34.pdf"],
        "only the current holder's artifact remains"
    );
}

#[test]
fn failover_hands_out_token_50_twice_and_strict_lt_accepts_only_the_first() {
    // Counter 49 replicated; the primary answers 50 and dies before replicating it.
    let trace = check(
        &builtin("failover-duplicate-token"),
        expect![[r#"
            #0       0.000 s  A        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 A-e8ffc4441451 30000 -> [1, 50]
            #1       0.100 s  redis-1  node-crashed    power lost
            #2       1.100 s  redis-2  promoted        REPLICAOF NO ONE -> OK
            #3       2.000 s  B        granted         EVAL <acquire> 2 lock:order:42 fence:order:42 B-55613ff287e7 30000 -> [1, 50]
            #4       2.000 s  checker  violation       VIOLATION token-unique: token 50 was issued twice: to A at 0.000 s and again to B at 2.000 s  (after #0, #3)
            #5       2.000 s  checker  overlap         A and B both believe they hold the lock  (after #0, #3)
            #6       5.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 50, updated_by = 'A' WHERE id = 42 AND last_fence < 50 -> UPDATE 1  (after #0)
            #7       5.000 s  checker  violation       VIOLATION no-stale-holder: write by A with token 50 accepted after its lease had passed to B (granted at 2.000 s): no write of B's had reached the row yet, so the fence had nothing newer to compare with  (after #3, #6)
            #8       5.000 s  A        released        EVAL <release> 1 lock:order:42 A-e8ffc4441451 -> 0
            #9       5.000 s  A        finished        program finished
            #10      7.000 s  db       write-rejected  UPDATE orders SET status = 'paid', last_fence = 50, updated_by = 'B' WHERE id = 42 AND last_fence < 50 -> UPDATE 0  # write by B with token 50 rejected: last_fence is 50, written by A at 5.000 s  (after #3, #6)
            #11      7.000 s  B        released        EVAL <release> 1 lock:order:42 B-55613ff287e7 -> 1
            #12      7.000 s  B        finished        stopped: fenced off
        "#]],
    );
    let summary = trace.summary();
    let tokens: Vec<Option<i64>> = summary.grants.iter().map(|g| g.token).collect();
    assert_eq!(tokens, vec![Some(50), Some(50)]);
    let rows: Vec<u32> = summary.writes.iter().map(|w| w.rows.0).collect();
    assert_eq!(rows, vec![1, 0], "under < only the first write carrying 50 lands");
    assert_eq!(violations(&trace), vec!["token-unique", "no-stale-holder"]);
}

#[test]
fn failover_duplicate_token_under_le_accepts_both_and_names_the_duplicate() {
    let trace = sim::run(&builtin("failover-duplicate-token-lte").setup);
    let rows: Vec<u32> = trace.summary().writes.iter().map(|w| w.rows.0).collect();
    assert_eq!(rows, vec![1, 1, 1], "B pays and ships with 50, then A writes with 50 too");
    assert_eq!(
        violations(&trace),
        vec!["token-unique", "no-stale-accept", "one-writer-per-token", "paid-once"]
    );
    let explanation = &trace.summary().violations[2].explanation;
    assert!(
        explanation.contains("token 50") && explanation.contains('A') && explanation.contains('B'),
        "{explanation}"
    );
}

#[test]
fn non_atomic_acquire_lets_the_stale_holder_draw_the_higher_token() {
    // A sets the lock, stalls before INCR; B takes over with 33; A wakes and draws 34.
    let trace = check(
        &builtin("non-atomic-acquire"),
        expect![[r#"
            #0       0.000 s  A        lock-set        SET lock:order:42 A-e8ffc4441451 NX PX 30000 -> OK
            #1       0.001 s  A        paused          stop-the-world pause for 39.999 s (until 40.000 s)
            #2      30.001 s  redis    expired         lock:order:42 expired: its deadline passed on redis's clock  (after #0)
            #3      31.000 s  B        lock-set        SET lock:order:42 B-55613ff287e7 NX PX 30000 -> OK
            #4      31.000 s  checker  overlap         A and B both believe they hold the lock  (after #0, #3)
            #5      31.001 s  B        token-drawn     INCR fence:order:42 -> 33
            #6      40.000 s  A        resumed         running again
            #7      40.000 s  A        token-drawn     INCR fence:order:42 -> 34
            #8      40.000 s  checker  violation       VIOLATION token-order: A was granted the lock at 0.000 s before B at 31.000 s, but holds the higher token (34 > 33)  (after #0, #3)
            #9      41.000 s  db       write-accepted  UPDATE orders SET status = 'paid', last_fence = 34, updated_by = 'A' WHERE id = 42 AND last_fence < 34 -> UPDATE 1  (after #0)
            #10     41.000 s  checker  violation       VIOLATION no-stale-holder: write by A with token 34 accepted after its lease had passed to B (granted at 31.000 s): no write of B's had reached the row yet, so the fence had nothing newer to compare with  (after #3, #9)
            #11     41.000 s  A        released        EVAL <release> 1 lock:order:42 A-e8ffc4441451 -> 0
            #12     41.000 s  A        finished        program finished
            #13     41.001 s  db       write-rejected  UPDATE orders SET status = 'paid', last_fence = 33, updated_by = 'B' WHERE id = 42 AND last_fence < 33 -> UPDATE 0  # write by B with token 33 rejected: last_fence is 34, written by A at 41.000 s  (after #3, #9)
            #14     41.001 s  B        released        EVAL <release> 1 lock:order:42 B-55613ff287e7 -> 1
            #15     41.001 s  B        finished        stopped: fenced off
        "#]],
    );
    let summary = trace.summary();
    let writes: Vec<(String, Option<i64>, u32)> =
        summary.writes.iter().map(|w| (w.worker.clone(), w.token, w.rows.0)).collect();
    assert_eq!(writes, vec![("A".into(), Some(34), 1), ("B".into(), Some(33), 0)]);
    assert_eq!(violations(&trace), vec!["token-order", "no-stale-holder"]);
}

#[test]
fn the_atomic_script_prevents_the_non_atomic_inversion() {
    // Same schedule, both workers using the one-step script: token order follows grants.
    let mut scenario = builtin("non-atomic-acquire");
    for worker in &mut scenario.setup.workers {
        if let Some(Step::Acquire { how, .. }) = worker.program.first_mut() {
            *how = AcquireHow::Script;
        }
    }
    let trace = sim::run(&scenario.setup);
    let summary = trace.summary();
    let grants: Vec<(String, Option<i64>)> =
        summary.grants.iter().map(|g| (g.worker.clone(), g.token)).collect();
    assert_eq!(grants, vec![("A".into(), Some(33)), ("B".into(), Some(34))]);
    // The inversion is gone; what is left is the fence's own limit: A wakes after B's grant
    // and writes before B does, and nothing newer than 33 has reached the row yet.
    assert_eq!(violations(&trace), vec!["no-stale-holder"], "{:?}", summary.violations);
    let end = trace.state_at(trace.len());
    assert_eq!(
        (end.order.last_fence, end.order.updated_by.as_str()),
        (34, "B"),
        "the rightful holder's write wins"
    );
}

#[test]
fn pause_shorter_than_the_ttl_leaves_nothing_to_fence() {
    // A what-if: a 20 s pause fits in the 30 s lease, so B waits and both writes land in order.
    let mut scenario = builtin("gc-pause-fenced");
    scenario.setup.faults = vec![sim::scenario::Fault::Pause {
        worker: sim::WorkerId(0),
        at_ms: 1_000,
        pause_ms: 20_000,
    }];
    let trace = sim::run(&scenario.setup);
    assert!(trace.events().iter().all(|e| e.kind.tag() != "write-rejected"));
    // Both writes went through the fence and landed in token order: what the run shows, not
    // what the scenario asked for.
    let writes: Vec<(String, Option<i64>, u32)> =
        trace.summary().writes.iter().map(|w| (w.worker.clone(), w.token, w.rows.0)).collect();
    assert_eq!(writes, [("A".to_owned(), Some(33), 1), ("B".to_owned(), Some(34), 1)]);
    assert!(
        trace
            .events()
            .iter()
            .filter(|e| e.command.starts_with("UPDATE orders"))
            .all(|e| e.command.contains("last_fence <")),
        "every write carried the fence condition"
    );
    assert_eq!(trace.state_at(trace.len()).order.last_fence, 34);
    assert!(trace.events().iter().any(|e| matches!(e.kind, EventKind::Released { deleted: true })));
}

#[test]
fn a_postgres_sequence_keeps_counting_across_the_redis_failover() {
    // A sequence in the database is not lost with Redis: after the failover that handed out
    // token 50 twice, the sequence goes on to 51 (drawn apart from the lock, which has its
    // own trap: see separate-token-draw).
    let mut scenario = builtin("failover-duplicate-token");
    scenario.setup.tokens = sim::scenario::TokenSource::PgSequence;
    let trace = sim::run(&scenario.setup);
    let tokens: Vec<Option<i64>> = trace.summary().grants.iter().map(|g| g.token).collect();
    assert_eq!(tokens, vec![Some(50), Some(51)]);
    assert!(trace.events().iter().any(|e| e.command.contains("nextval")));
    // No token is issued twice; A, whose lease was lost with the primary, still writes
    // before B's first write reaches the row, which no token source can prevent.
    assert_eq!(violations(&trace), vec!["no-stale-holder"]);
}

#[test]
fn a_replica_hides_an_expired_lock_but_keeps_it_until_the_primary_deletes_it() {
    // Replicas do not expire keys; they report them missing once their deadline passed.
    let mut scenario = builtin("failover-duplicate-token");
    scenario.setup.faults.clear();
    scenario.setup.redis.lag_ms = 5_000;
    scenario.setup.workers.truncate(1);
    scenario.setup.workers[0].program = vec![Step::Acquire {
        how: AcquireHow::Script,
        ttl_ms: 1_000,
        retry_every_ms: 1_000,
        attempts: 1,
    }];
    let trace = sim::run(&scenario.setup);
    // With a 5 s lag the grant reaches the replica at 5 s, after the 1 s lease expired.
    let at = |t: u64| trace.state_at(trace.cursor_at_time(t)).nodes[1].clone();
    assert!(at(3_000).keyspace.raw("lock:order:42").is_none(), "not replicated before the lag");
    let replica = at(5_500);
    assert!(replica.keyspace.raw("lock:order:42").is_some(), "a replica keeps the expired key");
    assert!(
        replica.keyspace.peek("lock:order:42", replica.clock_ms(5_500)).is_none(),
        "but hides it"
    );
    // The primary's synthesised DEL arrives after the lag and removes it.
    let later = at(7_000);
    assert!(later.keyspace.raw("lock:order:42").is_none(), "{}", sim::render::render(&trace));
}

#[test]
fn every_acquisition_carries_its_own_lock_value_and_release_sends_it_back() {
    // Values are for Redis, names for people: each acquire step draws a value that names
    // its worker, no two acquisitions share one, and a release or renewal sends the value of
    // the acquisition it belongs to (never the bare worker name).
    for scenario in fencing_playground::catalogue::all() {
        let trace = sim::run_events_only(&scenario.setup);
        let mut seen: Vec<String> = Vec::new();
        for event in trace.events() {
            let words: Vec<&str> = event.command.split_whitespace().collect();
            let value = match (&event.kind, words.as_slice()) {
                (
                    EventKind::Granted { .. }
                    | EventKind::LockSet
                    | EventKind::Denied
                    | EventKind::NodeLocked { .. },
                    ["SET", _, value, ..],
                )
                | (
                    EventKind::Granted { .. } | EventKind::Denied | EventKind::AcquireFailed,
                    ["EVAL", "<acquire>", _, _, _, value, ..]
                    | ["TXN", "IF", _, "=", "0", "THEN", "PUT", _, value, ..],
                ) => value.to_string(),
                (
                    EventKind::Released { .. } | EventKind::Renewed { .. },
                    ["EVAL", _, _, _, value, ..] | ["TXN", "IF", _, "=", value, "THEN", ..],
                ) => {
                    assert!(
                        seen.iter().any(|v| v == value),
                        "{}: #{} sends {value}, which no acquire of this run sent",
                        scenario.id,
                        event.id
                    );
                    continue;
                }
                _ => continue,
            };
            let owner = fencing_playground::sim::state::lock_value_owner(&value);
            assert_eq!(trace.actor_name(event.actor), owner, "{}: #{}", scenario.id, event.id);
            assert_ne!(owner, value, "{}: #{} sends a bare name", scenario.id, event.id);
            if !seen.contains(&value) {
                seen.push(value);
            }
        }
        let grants = trace
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Granted { .. } | EventKind::LockSet))
            .count();
        assert!(seen.len() >= grants.min(1), "{}: no value seen", scenario.id);
    }
}

#[test]
fn an_event_frame_shows_its_own_consequences() {
    // The inspector reads the frame after each event: at a grant the new holder already
    // holds its lease and token, at a release the worker no longer believes it holds it.
    let trace = sim::run(&builtin("gc-pause-fenced").setup);
    let index = |tag: &str, actor: &str| {
        trace
            .events()
            .iter()
            .position(|e| e.kind.tag() == tag && trace.actor_name(e.actor) == actor)
            .expect("the event")
    };
    let granted = trace.state_at(index("granted", "B") + 1);
    let b = &granted.workers[1];
    assert_eq!(b.lease.as_ref().and_then(|l| l.token), Some(34));
    assert_eq!(b.belief.as_ref().and_then(|belief| belief.token), Some(34));
    let released = trace.state_at(index("released", "B") + 1);
    assert!(released.workers[1].belief.is_none(), "B still believes after its release");
}

/// The alert checks of a run: (time, tag, reply).
fn alert_checks(
    scenario: &fencing_playground::catalogue::lesson::Scenario,
) -> Vec<(u64, &'static str, String)> {
    sim::run(&scenario.setup)
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Alert { .. }))
        .map(|e| (e.at_ms, e.kind.tag(), e.reply.clone()))
        .collect()
}

#[test]
fn dlq_alert_fires_on_the_windowed_share_of_fenced_off_writes() {
    let scenario = builtin("dlq-threshold");
    let checks = alert_checks(&scenario);
    let replies: Vec<&str> = checks.iter().map(|(_, _, r)| r.as_str()).collect();
    assert_eq!(
        replies,
        [
            "0/1 = 0% < 45%: ok",
            "0/2 = 0% < 45%: ok",
            "1/3 = 33% < 45%: ok",
            // At 19 s A's write of 1 s has left the 15 s window.
            "1/3 = 33% < 45%: ok",
            "2/4 = 50% >= 45%: firing",
        ]
    );
    assert_eq!(checks.last().map(|c| (c.0, c.1)), Some((20_000, "alert-fired")));
    // The window is what fires it: over 30 s, A's early success still counts (2 of 5).
    let mut longer = scenario.clone();
    longer.setup.alert =
        longer.setup.alert.map(|rule| sim::scenario::AlertRule { window_ms: 30_000, ..rule });
    let last = alert_checks(&longer).pop().map(|c| c.2);
    assert_eq!(last.as_deref(), Some("2/5 = 40% < 45%: ok"));
    // Without a rule there is no monitor: the dead letters alone.
    let mut none = scenario.clone();
    none.setup.alert = None;
    assert!(alert_checks(&none).is_empty());
    let dead_letters: Vec<String> = sim::run(&none.setup)
        .events()
        .iter()
        .filter(|e| e.kind == EventKind::SentToDlq)
        .map(|e| e.command.clone())
        .collect();
    assert_eq!(
        dead_letters,
        [
            "SEND dlq \"order 42 packed, token 34, from B\"",
            "SEND dlq \"order 42 shipped, token 36, from D\"",
        ]
    );
}

#[test]
fn dlq_alert_resolves_when_successes_bring_the_share_back_under() {
    // Two more jobs after the alert, each done by one worker without a stall: the share
    // in the window falls under the limit and the alert resolves.
    let mut scenario = builtin("dlq-threshold");
    let mut extra = scenario.setup.workers[0].clone();
    for (name, start_ms, status) in [("F", 21_000, "delivered"), ("G", 23_000, "closed")] {
        extra.name = name.to_owned();
        extra.start_ms = start_ms;
        if let Some(Step::Write { status: s, .. }) = extra.program.get_mut(2) {
            *s = status.to_owned();
        }
        scenario.setup.workers.push(extra.clone());
    }
    let checks = alert_checks(&scenario);
    let tail: Vec<(&str, &str)> =
        checks.iter().rev().take(2).rev().map(|(_, t, r)| (*t, r.as_str())).collect();
    assert_eq!(
        tail,
        [("alert-resolved", "2/5 = 40% < 45%: resolved"), ("alert-checked", "2/6 = 33% < 45%: ok")]
    );
}

#[test]
fn a_write_its_transaction_rolled_back_does_not_count_as_paid() {
    // A's UPDATE lands inside its transaction, its reply is lost and A gives up: PostgreSQL
    // rolls the transaction back, B reads 'pending' and pays. Only B's payment is real.
    let mut scenario = builtin("row-lock-instead-of-lease");
    scenario.setup.faults.push(sim::scenario::Fault::LoseReply {
        worker: sim::WorkerId(0),
        step: 3,
        attempt: 1,
    });
    let trace = sim::run(&scenario.setup);
    let tags: Vec<&str> = trace.events().iter().map(|e| e.kind.tag()).collect();
    assert!(tags.contains(&"gave-up"), "{tags:?}");
    let writes: Vec<(String, u32)> =
        trace.summary().writes.iter().map(|w| (w.worker.clone(), w.rows.0)).collect();
    assert_eq!(writes, [("A".to_owned(), 1), ("B".to_owned(), 1)]);
    assert_eq!(trace.state_at(trace.len()).order.updated_by, "B");
    assert_eq!(violations(&trace), Vec::<String>::new());
    // Committed, the same write does count: B's UPDATE then matches no row.
    let trace = sim::run(&builtin("row-lock-instead-of-lease").setup);
    let rows: Vec<u32> = trace.summary().writes.iter().map(|w| w.rows.0).collect();
    assert_eq!(rows, [1, 0]);
}

#[test]
fn a_lease_check_passes_before_the_pause_and_nothing_checks_after_it() {
    let trace = sim::run(&builtin("lease-check-before-write").setup);
    let checks: Vec<(String, bool)> = trace
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::LeaseChecked { mine } => Some((e.reply.clone(), mine)),
            _ => None,
        })
        .collect();
    assert_eq!(
        checks,
        [("\"A-e8ffc4441451\"".to_owned(), true), ("\"B-55613ff287e7\"".to_owned(), true)]
    );
    assert_eq!(violations(&trace), ["no-stale-accept"]);
    // Moved past the pause, the same check sees B's value and A stops without writing.
    let mut scenario = builtin("lease-check-before-write");
    scenario.setup.workers[0].program.swap(2, 3);
    let trace = sim::run(&scenario.setup);
    let a_checks: Vec<bool> = trace
        .events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::LeaseChecked { mine } if e.reply.contains("B-") => Some(mine),
            EventKind::LeaseChecked { mine } if e.reply == "(nil)" => Some(mine),
            _ => None,
        })
        .collect();
    assert!(a_checks.contains(&false), "{}", sim::render::render(&trace));
    assert!(trace.summary().writes.iter().all(|w| w.worker != "A"));
}

#[test]
fn a_delayed_request_says_when_it_was_sent_and_when_it_arrives() {
    let trace = sim::run(&builtin("delayed-write").setup);
    let delayed = trace.events().iter().find(|e| e.kind.tag() == "delayed").expect("an event");
    assert_eq!(delayed.at_ms, 29_500);
    assert_eq!(delayed.kind, EventKind::Delayed { until_ms: 32_500 });
    let a_write = trace.summary().writes.into_iter().find(|w| w.worker == "A").expect("A wrote");
    assert_eq!((a_write.at_ms, a_write.rows.0), (32_500, 0));
}

/// A worker that stops early releases on its way out, as a `finally` block does: in
/// incr-before-set A is fenced off while its lock is still valid, and its release frees it
/// at once instead of leaving it to the TTL. A crashed worker runs nothing more.
#[test]
fn a_worker_that_stops_early_releases_on_its_way_out_unless_it_crashed() {
    let tagged = |trace: &sim::Trace, actor: &str| -> Vec<&'static str> {
        trace
            .events()
            .iter()
            .filter(|e| trace.actor_name(e.actor) == actor)
            .map(|e| e.kind.tag())
            .collect()
    };
    let trace = sim::run(&builtin("incr-before-set").setup);
    let a = tagged(&trace, "A");
    assert_eq!(&a[a.len() - 2..], ["released", "finished"], "{a:?}");
    assert!(
        trace.events().iter().any(|e| trace.actor_name(e.actor) == "A"
            && matches!(e.kind, EventKind::Released { deleted: true })),
        "A's lock was still valid, so its release deletes it"
    );
    assert!(trace.events().iter().all(|e| e.kind.tag() != "expired"), "no lock is left to expire");
    // The same with A crashing instead of writing: no release, the lock expires.
    let mut scenario = builtin("incr-before-set");
    scenario
        .setup
        .faults
        .push(sim::scenario::Fault::Crash { worker: sim::WorkerId::at(0), at_ms: 5_500 });
    let crashed = sim::run(&scenario.setup);
    assert!(!tagged(&crashed, "A").contains(&"released"), "{:?}", tagged(&crashed, "A"));
    assert!(crashed.events().iter().any(|e| e.kind.tag() == "expired"));
}
