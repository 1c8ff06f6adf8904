//! Shared helpers: run a built-in, render it, and build random schedules.

use expect_test::Expect;
use fencing_playground::catalogue;
use fencing_playground::catalogue::lesson::Scenario;
use fencing_playground::catalogue::lesson::{Fact, KeyIs};
use fencing_playground::sim::event::RowCount;
use fencing_playground::sim::{self, Trace};

/// The built-in scenario `id`, which must exist.
pub(crate) fn builtin(id: &str) -> Scenario {
    catalogue::find(id).unwrap_or_else(|| panic!("no built-in scenario {id}"))
}

/// Runs `scenario` and compares its text rendering with `expect` (UPDATE_EXPECT=1 rewrites).
pub(crate) fn check(scenario: &Scenario, expect: Expect) -> Trace {
    let trace = sim::run(&scenario.setup);
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

/// A fact turned into its opposite (or into something no run shows), to prove that a check
/// of facts can fail.
pub(crate) fn flip(fact: Fact) -> Fact {
    match fact {
        Fact::Write { worker, nth, rows, token } => {
            Fact::Write { worker, nth, rows: RowCount(1 - rows.0.min(1)), token }
        }
        Fact::Grant { worker, nth, token } => {
            Fact::Grant { worker, nth, token: Some(token.map_or(1000, |t| t + 1000)) }
        }
        Fact::Violation { .. } => Fact::Violation { property: "no-such-property".into() },
        Fact::NoViolations => Fact::Violation { property: "token-unique".into() },
        Fact::Warning { .. } => Fact::Warning { kind: "no-such-warning".into() },
        Fact::Charges { count } => Fact::Charges { count: count + 1 },
        Fact::Overlap { present } => Fact::Overlap { present: !present },
        Fact::Event { at, .. } => Fact::Event { at, reply: Some("no such reply".into()) },
        Fact::NoEvent { at } => Fact::Event { at, reply: None },
        Fact::Key { after, key, node, is } => {
            let is = match is {
                KeyIs::Absent => KeyIs::Value("something".into()),
                KeyIs::OwnedBy(_) | KeyIs::Value(_) => KeyIs::Absent,
            };
            Fact::Key { after, key, node, is }
        }
        Fact::Row { after, last_fence, status, updated_by } => Fact::Row {
            after,
            last_fence: Some(last_fence.map_or(-1, |f| f + 1000)),
            status,
            updated_by,
        },
        Fact::Before { first, then } => Fact::Before { first: then, then: first },
        Fact::Belief { after, worker, holds } => Fact::Belief { after, worker, holds: !holds },
    }
}

/// A language pack's messages as the page reads them (empty for English, whose text lives
/// in the scenarios and the quiz bank themselves).
pub(crate) fn pack(code: &str) -> std::collections::BTreeMap<String, String> {
    if code == "en" {
        return std::collections::BTreeMap::new();
    }
    let path = format!("{}/static/i18n/{code}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("language pack");
    fencing_playground::i18n::parse_pack(&text).expect("pack parses").into_iter().collect()
}
