//! Shared helpers: run a built-in, render it, and build random schedules.

use expect_test::Expect;
use fencing_playground::catalogue;
use fencing_playground::sim::{self, Scenario, Trace};

/// The built-in scenario `id`, which must exist.
pub(crate) fn builtin(id: &str) -> Scenario {
    catalogue::find(id).unwrap_or_else(|| panic!("no built-in scenario {id}"))
}

/// Runs `scenario` and compares its text rendering with `expect` (UPDATE_EXPECT=1 rewrites).
pub(crate) fn check(scenario: &Scenario, expect: Expect) -> Trace {
    let trace = sim::run(scenario);
    expect.assert_eq(&sim::render::render(&trace));
    trace
}

/// The value of `key` on node `node` at virtual time `t_ms`.
pub(crate) fn key_at(trace: &Trace, node: usize, key: &str, t_ms: u64) -> Option<String> {
    let state = trace.state_at(trace.cursor_at_time(t_ms));
    let node = &state.nodes[node];
    node.keyspace.peek(key, node.clock_ms(t_ms)).map(|entry| entry.value.clone())
}

/// Names of the violated properties, in trace order.
pub(crate) fn violations(trace: &Trace) -> Vec<String> {
    trace.summary().violations.into_iter().map(|v| v.name).collect()
}
