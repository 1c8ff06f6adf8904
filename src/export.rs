//! Exports of a trace that leave the app: the JSON summary (byte-identical between
//! `fence run --format json` and the web app's download), a Mermaid sequence diagram, and
//! the timeline as a standalone SVG file.
//!
//! Pure formatting of what the trace already knows; it must not compute new facts.

use serde::Serialize;

use crate::sim::Trace;

/// The run's facts as pretty-printed JSON, ending with a newline; `id` names the scenario
/// the trace is a run of (the model itself never sees it).
pub fn trace_json(trace: &Trace, id: &str) -> String {
    let summary = trace.summary();
    let setup = trace.setup();
    let facts = Facts {
        scenario: id,
        seed: setup.seed,
        events: trace.len(),
        end_ms: trace.end_ms(),
        truncated: trace.truncated(),
        grants: summary
            .grants
            .iter()
            .map(|g| Grant { worker: &g.worker, token: g.token, at_ms: g.at_ms })
            .collect(),
        writes: summary
            .writes
            .iter()
            .map(|w| Write {
                worker: &w.worker,
                token: w.token,
                at_ms: w.at_ms,
                accepted: w.rows.matched(),
                rows: w.rows.0,
            })
            .collect(),
        charges: [Charges { order: setup.sql.order_id, count: summary.charges }],
        violations: summary
            .violations
            .iter()
            .map(|v| Finding {
                property: Some(&v.name),
                kind: None,
                at_ms: v.at_ms,
                explanation: &v.explanation,
            })
            .collect(),
        warnings: summary
            .warnings
            .iter()
            .map(|v| Finding {
                property: None,
                kind: Some(&v.name),
                at_ms: v.at_ms,
                explanation: &v.explanation,
            })
            .collect(),
        overlaps: summary
            .overlaps
            .iter()
            .map(|o| Overlap { workers: &o.workers, from_ms: o.from_ms, to_ms: o.to_ms })
            .collect(),
    };
    // Writing these shapes to a string cannot fail (string keys, no floats, no I/O).
    let mut text = serde_json::to_string_pretty(&facts).unwrap_or_default();
    text.push('\n');
    text
}

// The summary's shape, written by serde (the same text natively and in the browser).

#[derive(Serialize)]
struct Facts<'a> {
    scenario: &'a str,
    seed: u64,
    events: usize,
    end_ms: u64,
    truncated: bool,
    grants: Vec<Grant<'a>>,
    writes: Vec<Write<'a>>,
    charges: [Charges; 1],
    violations: Vec<Finding<'a>>,
    warnings: Vec<Finding<'a>>,
    overlaps: Vec<Overlap<'a>>,
}

#[derive(Serialize)]
struct Grant<'a> {
    worker: &'a str,
    token: Option<i64>,
    at_ms: u64,
}

#[derive(Serialize)]
struct Write<'a> {
    worker: &'a str,
    token: Option<i64>,
    at_ms: u64,
    accepted: bool,
    rows: u32,
}

#[derive(Serialize)]
struct Charges {
    order: i64,
    count: u32,
}

/// A violation (`property`) or a liveness warning (`kind`).
#[derive(Serialize)]
struct Finding<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    property: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    at_ms: u64,
    explanation: &'a str,
}

#[derive(Serialize)]
struct Overlap<'a> {
    workers: &'a [String],
    from_ms: u64,
    to_ms: u64,
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

/// The timeline's rules from `static/style.css` with the light theme's colours filled in
/// (written by `build.rs`).
pub const SVG_STYLE: &str = include_str!(concat!(env!("OUT_DIR"), "/svg-style.css"));

/// The timeline drawn on the page (its `outerHTML`) as a file that renders the same on its
/// own: the SVG namespace declared, the drawing's styles inside it, and HTML-only entities
/// spelled as XML character references.
pub fn standalone_svg(outer_html: &str, style: &str) -> String {
    let Some(rest) = outer_html.strip_prefix("<svg") else { return outer_html.to_owned() };
    let Some(close) = rest.find('>') else { return outer_html.to_owned() };
    let (attributes, body) = rest.split_at(close);
    let namespace = match attributes.contains("xmlns=") {
        true => "",
        false => " xmlns=\"http://www.w3.org/2000/svg\"",
    };
    // On the page CSS sizes the drawing; a file needs its size, or viewers draw it 300 wide.
    let size = match (attributes.contains(" width="), viewbox_size(attributes)) {
        (false, Some((w, h))) => format!(" width=\"{w}\" height=\"{h}\""),
        _ => String::new(),
    };
    // `body` starts with the tag's `>`.
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg{namespace}{attributes}{size}><style><![CDATA[\n{style}\n]]></style>{}\n",
        body[1..].replace("&nbsp;", "&#160;")
    )
}

/// The width and height of a `viewBox="0 0 W H"` attribute.
fn viewbox_size(attributes: &str) -> Option<(&str, &str)> {
    let value = attributes.split("viewBox=\"").nth(1)?.split('"').next()?;
    let mut parts = value.split_whitespace().skip(2);
    Some((parts.next()?, parts.next()?))
}

#[cfg(test)]
mod tests {
    use crate::{catalogue, sim};

    #[test]
    fn mermaid_names_every_lane_and_every_event() {
        let trace = sim::run(&catalogue::find("gc-pause-fenced").unwrap().setup);
        let text = super::mermaid(&trace);
        assert!(text.starts_with("sequenceDiagram\n    participant W0 as A\n"));
        assert!(text.contains(
            "W0->>N0: 0.000 s EVAL <acquire> 2 lock:order:42 fence:order:42 A-e8ffc4441451 30000"
        ));
        assert!(text.contains("W0->>DB: 40.000 s UPDATE orders"));
        assert!(text.contains("DB-->>W0: UPDATE 0"));
        let lines = text.lines().filter(|l| l.contains("->>") || l.contains("Note over")).count();
        assert!(lines >= trace.len(), "{text}");
    }

    #[test]
    fn the_svg_file_declares_its_namespace_and_carries_its_styles() {
        let page = r#"<svg class="swimlanes" viewBox="0 0 10 10"><text>a&nbsp;b</text></svg>"#;
        let file = super::standalone_svg(page, ".grid { stroke: #d9dce0; }");
        assert_eq!(
            file,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"swimlanes\" viewBox=\"0 0 10 10\" width=\"10\" height=\"10\"><style><![CDATA[\n.grid { stroke: #d9dce0; }\n]]></style><text>a&#160;b</text></svg>\n"
        );
        // The build fills the theme's colours in: no rule is left pointing at a page variable.
        assert!(super::SVG_STYLE.contains(".marker.ok"), "{}", super::SVG_STYLE);
        // Only the holder colour, which the rules themselves define per holder class, is left.
        let leftover =
            super::SVG_STYLE.split("var(--").skip(1).filter(|v| !v.starts_with("holder)"));
        assert_eq!(leftover.count(), 0, "{}", super::SVG_STYLE);
    }
}
