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

/// A Mermaid sequence diagram of the trace, to paste into slides or docs.
pub fn mermaid(trace: &Trace) -> String {
    use crate::sim::event::{Actor, EventKind};
    let layout = crate::timeline::build(trace);
    let id = |actor: Actor| match actor {
        Actor::Worker(w) => format!("W{w}"),
        Actor::Node(n) => format!("N{n}"),
        Actor::Tokens => "TOK".to_owned(),
        Actor::Db => "DB".to_owned(),
        Actor::Gateway => "GW".to_owned(),
        Actor::Storage => "S3".to_owned(),
        Actor::Dlq => "DLQ".to_owned(),
        Actor::Checker => "CHK".to_owned(),
    };
    // Mermaid treats ';' and '#' specially in messages.
    let clean = |text: &str| text.replace([';', '#'], ",").replace('\n', " ");
    let mut out = String::from("sequenceDiagram\n");
    for lane in &layout.lanes {
        out.push_str(&format!("    participant {} as {}\n", id(lane.actor), clean(&lane.label)));
    }
    for event in trace.events() {
        let time = crate::sim::check::secs(event.at_ms);
        let text =
            if event.command.is_empty() { event.reply.clone() } else { event.command.clone() };
        match (event.peer, &event.kind) {
            (Some(peer), _) => {
                let (from, to) = match event.actor {
                    Actor::Worker(_) => (event.actor, peer),
                    _ => (peer, event.actor),
                };
                out.push_str(&format!(
                    "    {}->>{}: {} {}\n",
                    id(from),
                    id(to),
                    time,
                    clean(&text)
                ));
                if !event.reply.is_empty() && !event.command.is_empty() {
                    out.push_str(&format!(
                        "    {}-->>{}: {}\n",
                        id(to),
                        id(from),
                        clean(&event.reply)
                    ));
                }
            }
            (None, EventKind::Violation { property, explanation }) => out.push_str(&format!(
                "    Note over {}: {} VIOLATION {}: {}\n",
                id(Actor::Checker),
                time,
                property.name(),
                clean(explanation)
            )),
            (None, _) => {
                out.push_str(&format!(
                    "    Note over {}: {} {}\n",
                    id(event.actor),
                    time,
                    clean(&text)
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{catalogue, sim};

    #[test]
    fn mermaid_names_every_lane_and_every_event() {
        let trace = sim::run(&catalogue::find("gc-pause-fenced").unwrap());
        let text = super::mermaid(&trace);
        assert!(text.starts_with("sequenceDiagram\n    participant W0 as A\n"));
        assert!(
            text.contains("W0->>N0: 0.000 s EVAL <acquire> 2 lock:order:42 fence:order:42 A 30000")
        );
        assert!(text.contains("W0->>DB: 40.000 s UPDATE orders"));
        assert!(text.contains("DB-->>W0: UPDATE 0"));
        let lines = text.lines().filter(|l| l.contains("->>") || l.contains("Note over")).count();
        assert!(lines >= trace.len(), "{text}");
    }
}
