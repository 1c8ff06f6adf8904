//! The built-in scenario files, compiled in from `static/scenarios/` so that the page needs
//! no extra request and a course author can copy any of them as a starting point.
//!
//! Owns only the list of files; parsing errors in a built-in are caught by a native test.

use crate::sim::Scenario;

/// The JSON text of each built-in, in curriculum order.
pub const FILES: &[(&str, &str)] = &[
    ("gc-pause-unfenced", include_str!("../../static/scenarios/gc-pause-unfenced.json")),
    ("gc-pause-fenced", include_str!("../../static/scenarios/gc-pause-fenced.json")),
    ("stale-token-handling", include_str!("../../static/scenarios/stale-token-handling.json")),
    ("non-atomic-acquire", include_str!("../../static/scenarios/non-atomic-acquire.json")),
    (
        "failover-duplicate-token",
        include_str!("../../static/scenarios/failover-duplicate-token.json"),
    ),
    (
        "failover-duplicate-token-lte",
        include_str!("../../static/scenarios/failover-duplicate-token-lte.json"),
    ),
];

pub fn all() -> Vec<Scenario> {
    FILES
        .iter()
        // A built-in that fails to parse is skipped here and reported by the native test
        // `every_builtin_parses`, so the page never dies on a bad file.
        .filter_map(|(_, text)| serde_json::from_str(text).ok())
        .collect()
}
