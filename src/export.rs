//! Exports of a trace that leave the app: the JSON summary (byte-identical between
//! `fence run --format json` and the web app's download) and a Mermaid sequence diagram.
//!
//! Pure formatting of what the trace already knows; it must not compute new facts.

use serde::Serialize;

use crate::sim::Trace;

#[derive(Serialize)]
struct TraceJson<'a> {
    scenario: &'a str,
    seed: u64,
    events: usize,
    end_ms: u64,
    truncated: bool,
    grants: Vec<GrantJson<'a>>,
    writes: Vec<WriteJson<'a>>,
    charges: Vec<ChargeJson>,
    violations: Vec<FindingJson<'a>>,
    warnings: Vec<WarningJson<'a>>,
    overlaps: Vec<OverlapJson<'a>>,
}

#[derive(Serialize)]
struct GrantJson<'a> {
    worker: &'a str,
    token: Option<i64>,
    at_ms: u64,
}

#[derive(Serialize)]
struct WriteJson<'a> {
    worker: &'a str,
    token: Option<i64>,
    at_ms: u64,
    accepted: bool,
    rows: u32,
}

#[derive(Serialize)]
struct ChargeJson {
    order: i64,
    count: u32,
}

#[derive(Serialize)]
struct FindingJson<'a> {
    property: &'a str,
    at_ms: u64,
    explanation: &'a str,
}

#[derive(Serialize)]
struct WarningJson<'a> {
    kind: &'a str,
    at_ms: u64,
    explanation: &'a str,
}

#[derive(Serialize)]
struct OverlapJson<'a> {
    workers: Vec<&'a str>,
    from_ms: u64,
    to_ms: u64,
}

/// The run's facts as pretty-printed JSON, ending with a newline.
pub fn trace_json(trace: &Trace) -> String {
    let summary = trace.summary();
    let json = TraceJson {
        scenario: &trace.scenario().id,
        seed: trace.scenario().seed,
        events: trace.len(),
        end_ms: trace.end_ms(),
        truncated: trace.truncated(),
        grants: summary
            .grants
            .iter()
            .map(|g| GrantJson { worker: &g.worker, token: g.token, at_ms: g.at_ms })
            .collect(),
        writes: summary
            .writes
            .iter()
            .map(|w| WriteJson {
                worker: &w.worker,
                token: w.token,
                at_ms: w.at_ms,
                accepted: w.rows > 0,
                rows: w.rows,
            })
            .collect(),
        charges: vec![ChargeJson { order: trace.scenario().sql.order_id, count: summary.charges }],
        violations: summary
            .violations
            .iter()
            .map(|v| FindingJson { property: &v.name, at_ms: v.at_ms, explanation: &v.explanation })
            .collect(),
        warnings: summary
            .warnings
            .iter()
            .map(|v| WarningJson { kind: &v.name, at_ms: v.at_ms, explanation: &v.explanation })
            .collect(),
        overlaps: summary
            .overlaps
            .iter()
            .map(|o| OverlapJson {
                workers: o.workers.iter().map(String::as_str).collect(),
                from_ms: o.from_ms,
                to_ms: o.to_ms,
            })
            .collect(),
    };
    // Serialising plain structs of strings and integers cannot fail.
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_default();
    text.push('\n');
    text
}
