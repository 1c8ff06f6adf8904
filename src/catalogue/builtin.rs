//! The built-in scenario files, compiled in from `static/scenarios/` (without indentation,
//! see `build.rs`) so that the page needs no extra request and a course author can copy
//! any of them as a starting point.
//!
//! Owns only the list of files; parsing errors in a built-in are caught by a native test.

use crate::sim::Scenario;

/// The JSON text of each built-in, in curriculum order.
pub const FILES: &[(&str, &str)] = &[
    (
        "gc-pause-unfenced",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/gc-pause-unfenced.json")),
    ),
    ("gc-pause-fenced", include_str!(concat!(env!("OUT_DIR"), "/scenarios/gc-pause-fenced.json"))),
    (
        "stale-token-handling",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/stale-token-handling.json")),
    ),
    (
        "watchdog-pauses-too",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/watchdog-pauses-too.json")),
    ),
    (
        "watchdog-outlives-hang",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/watchdog-outlives-hang.json")),
    ),
    (
        "stale-watchdog-bare-pexpire",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/stale-watchdog-bare-pexpire.json")),
    ),
    (
        "unsafe-release-del",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/unsafe-release-del.json")),
    ),
    (
        "safe-release-lua",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/safe-release-lua.json")),
    ),
    (
        "non-atomic-acquire",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/non-atomic-acquire.json")),
    ),
    (
        "separate-token-draw",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/separate-token-draw.json")),
    ),
    ("incr-before-set", include_str!(concat!(env!("OUT_DIR"), "/scenarios/incr-before-set.json"))),
    (
        "client-side-check",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/client-side-check.json")),
    ),
    ("unchecked-token", include_str!(concat!(env!("OUT_DIR"), "/scenarios/unchecked-token.json"))),
    ("uuid-as-token", include_str!(concat!(env!("OUT_DIR"), "/scenarios/uuid-as-token.json"))),
    (
        "incr-error-in-script",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/incr-error-in-script.json")),
    ),
    ("efficiency-lock", include_str!(concat!(env!("OUT_DIR"), "/scenarios/efficiency-lock.json"))),
    (
        "retry-lost-reply-no-key",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/retry-lost-reply-no-key.json")),
    ),
    (
        "retry-lost-reply-idempotency-key",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/retry-lost-reply-idempotency-key.json")),
    ),
    (
        "retry-lost-reply-fenced",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/retry-lost-reply-fenced.json")),
    ),
    (
        "stale-writer-idempotency-only",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/stale-writer-idempotency-only.json")),
    ),
    (
        "fencing-plus-idempotency",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/fencing-plus-idempotency.json")),
    ),
    (
        "failover-duplicate-token",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/failover-duplicate-token.json")),
    ),
    (
        "failover-duplicate-token-lte",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/failover-duplicate-token-lte.json")),
    ),
    (
        "consensus-lock-revision",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/consensus-lock-revision.json")),
    ),
    ("failover-wait", include_str!(concat!(env!("OUT_DIR"), "/scenarios/failover-wait.json"))),
    (
        "restart-no-persistence",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/restart-no-persistence.json")),
    ),
    (
        "restart-reset-before-first-write",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/restart-reset-before-first-write.json")),
    ),
    (
        "restart-aof-everysec-power-loss",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/restart-aof-everysec-power-loss.json")),
    ),
    (
        "restart-aof-always",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/restart-aof-always.json")),
    ),
    (
        "restart-wipes-replicas",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/restart-wipes-replicas.json")),
    ),
    ("clock-jump", include_str!(concat!(env!("OUT_DIR"), "/scenarios/clock-jump.json"))),
    (
        "redlock-clock-jump",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/redlock-clock-jump.json")),
    ),
    (
        "select-for-update",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/select-for-update.json")),
    ),
    (
        "gateway-state-machine",
        include_str!(concat!(env!("OUT_DIR"), "/scenarios/gateway-state-machine.json")),
    ),
    ("s3-if-match", include_str!(concat!(env!("OUT_DIR"), "/scenarios/s3-if-match.json"))),
    ("dlq-threshold", include_str!(concat!(env!("OUT_DIR"), "/scenarios/dlq-threshold.json"))),
];

pub fn all() -> Vec<Scenario> {
    FILES
        .iter()
        // A built-in that fails to parse is skipped here and reported by the native test
        // `every_builtin_parses`, so the page never dies on a bad file.
        .filter_map(|(_, text)| crate::catalogue::load::parse_scenario(text).ok())
        .collect()
}
