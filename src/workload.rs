//! Synthetic workloads for benchmarks: long runs built as values from the format's types.
//!
//! Pure setup construction; it measures nothing itself (the bench harnesses do). It
//! reads no lesson file, so the explorer's bundle, which carries the wasm benchmark,
//! carries neither the lessons nor a JSON parser.

use crate::sim::Setup;
use crate::sim::scenario::{
    AcquireHow, GatewaySetup, Guard, RedisSetup, ReleaseHow, SqlSetup, Step, TokenSource,
    WorkerSetup, WriteHow,
};

/// One worker that acquires, writes with its token and releases, `n` times in a row: every
/// grant hands the lock (and a fresh token) to the next critical section. The setup is
/// gc-pause-fenced's, with only A, no pause and no local work (a native test holds the two
/// alike, so the benchmark's figures stay comparable across versions).
pub fn handoff_workload(n: usize) -> Setup {
    let round = [
        Step::Acquire {
            how: AcquireHow::Script,
            ttl_ms: 30_000,
            retry_every_ms: 1_000,
            attempts: 1,
        },
        Step::Write {
            how: WriteHow::Fenced,
            status: "paid".to_owned(),
            from: None,
            attempts: 1,
            backoff_ms: 0,
        },
        Step::Release { how: ReleaseHow::Script },
    ];
    Setup {
        seed: 1,
        until_ms: u64::MAX / 2,
        redis: RedisSetup::seed_story(),
        tokens: TokenSource::RedisIncr,
        sql: SqlSetup::seed_story(Guard::Lt),
        gateway: GatewaySetup::default(),
        alert: None,
        workers: vec![WorkerSetup {
            name: "A".to_owned(),
            start_ms: 0,
            program: round.iter().cycle().take(round.len() * n).cloned().collect(),
            on_rejected: Vec::new(),
            reply_timeout_ms: 1_000,
        }],
        faults: Vec::new(),
    }
}

/// How many grants a trace holds (the benchmarks' count of lock hand-offs).
pub fn grants(trace: &crate::sim::Trace) -> usize {
    trace
        .events()
        .iter()
        .filter(|e| matches!(e.kind, crate::sim::EventKind::Granted { .. }))
        .count()
}
