//! The swimlane timeline in SVG: one lane per actor, spans for pauses, beliefs and lock
//! lifetimes, arrows for requests and replication, a marker per event, the cursor line.
//! The layout is computed once per trace (`crate::timeline`); a seek only restyles.

use yew::prelude::*;

use crate::sim::scenario::TokenSource;

use crate::player::{Action, TraceRef};
use crate::sim::check::secs;
use crate::sim::event::Actor;
use crate::timeline::{self, MarkerClass, SpanKind};

const LEFT: f64 = 84.0;
const WIDTH: f64 = 1000.0;
const PLOT: f64 = WIDTH - LEFT - 16.0;
const LANE: f64 = 46.0;
const TOP: f64 = 22.0;

#[derive(PartialEq, Properties)]
pub(crate) struct SwimlanesProps {
    pub(crate) trace: TraceRef,
    pub(crate) cursor: usize,
    pub(crate) time_ms: u64,
    pub(crate) on_action: Callback<Action>,
    /// A shorter drawing for the compare view.
    #[prop_or_default]
    pub(crate) compact: bool,
    /// The time at the right edge, when several timelines share one scale.
    #[prop_or_default]
    pub(crate) scale_end_ms: Option<u64>,
}

#[component]
pub(crate) fn Swimlanes(props: &SwimlanesProps) -> Html {
    let m = crate::ui::i18n::use_i18n();
    let layout = use_memo(props.trace.clone(), |trace| timeline::build(trace));
    let trace = &props.trace;
    let lane_h = if props.compact { 30.0 } else { LANE };
    let end = props.scale_end_ms.unwrap_or(layout.end_ms).max(1) as f64;
    let x = |t: u64| LEFT + (t as f64 / end) * PLOT;
    let lane_y = |actor: Actor| {
        let i = layout.lanes.iter().position(|l| l.actor == actor).unwrap_or(0);
        TOP + i as f64 * lane_h
    };
    let height = TOP + layout.lanes.len() as f64 * lane_h + 8.0;
    let holders: Vec<String> = trace.scenario().workers.iter().map(|w| w.name.clone()).collect();
    let holder_class = |value: &str| {
        let name = crate::sim::state::lock_value_owner(value);
        format!("holder-{}", holders.iter().position(|h| h == name).unwrap_or(0) % 6)
    };

    let axis = {
        let step = nice_step(layout.end_ms);
        let mut t = 0;
        let mut ticks = Vec::new();
        while t <= layout.end_ms {
            ticks.push(t);
            t += step;
        }
        html! {
            <g class="axis">
                { for ticks.iter().map(|&t| html! {
                    <g>
                        <line x1={n(x(t))} x2={n(x(t))} y1={n(TOP - 4.0)} y2={n(height - 8.0)} class="grid" />
                        <text x={n(x(t))} y={n(TOP - 8.0)} class="axis-label">{ format!("{} s", t / 1000) }</text>
                    </g>
                }) }
            </g>
        }
    };

    let lanes = layout.lanes.iter().enumerate().map(|(i, lane)| {
        let y = TOP + i as f64 * lane_h;
        let spans = lane.spans.iter().map(|span| {
            let (x1, x2) = (x(span.from_ms), x(span.to_ms).max(x(span.from_ms) + 1.5));
            let w = x2 - x1;
            match &span.kind {
                SpanKind::Belief { until_ms } => {
                    let solid_end = x((*until_ms).min(span.to_ms)).max(x1);
                    html! {
                        <g class="belief">
                            <title>{ &span.label }</title>
                            <rect x={n(x1)} y={n(y + 4.0)} width={n((solid_end - x1).max(0.0))} height="6" class="belief-valid" />
                            if x2 > solid_end {
                                <rect x={n(solid_end)} y={n(y + 4.0)} width={n(x2 - solid_end)} height="6" class="belief-stale" />
                            }
                        </g>
                    }
                }
                SpanKind::Lock { holder, hidden_from_ms } => {
                    let hidden_x = hidden_from_ms.map(|t| x(t).clamp(x1, x2));
                    html! {
                        <g class={classes!("lock", holder_class(holder))}>
                            <title>{ &span.label }</title>
                            <rect x={n(x1)} y={n(y + 8.0)} width={n((hidden_x.unwrap_or(x2) - x1).max(0.0))} height={n(lane_h - 22.0)} class="lock-bar" />
                            if let Some(hx) = hidden_x {
                                <rect x={n(hx)} y={n(y + 8.0)} width={n((x2 - hx).max(0.0))} height={n(lane_h - 22.0)} class="lock-hidden" />
                            }
                            if w > 24.0 {
                                <text x={n(x1 + 3.0)} y={n(y + lane_h / 2.0 + 1.0)} class="lock-label">{ holder }</text>
                            }
                        </g>
                    }
                }
                kind => {
                    let class = match kind {
                        SpanKind::Paused => "span-paused",
                        SpanKind::Hung => "span-hung",
                        SpanKind::Blocked => "span-blocked",
                        SpanKind::Crashed => "span-crashed",
                        _ => "span-down",
                    };
                    html! {
                        <rect x={n(x1)} y={n(y + 12.0)} width={n(w)} height={n(lane_h - 20.0)} class={class}>
                            <title>{ &span.label }</title>
                        </rect>
                    }
                }
            }
        });
        html! {
            <g class="lane" data-lane={lane.label.clone()}>
                <rect x="0" y={n(y)} width={n(WIDTH)} height={n(lane_h)} class={if i % 2 == 0 { "lane-bg even" } else { "lane-bg" }} />
                <text x="6" y={n(y + lane_h / 2.0 + 4.0)} class="lane-label">{ &lane.label }</text>
                { for spans }
            </g>
        }
    });

    let arrows = layout.arrows.iter().map(|arrow| {
        let future = arrow.event as usize >= props.cursor;
        let (y1, y2) = (lane_y(arrow.from) + lane_h / 2.0, lane_y(arrow.to) + lane_h / 2.0);
        html! {
            <line x1={n(x(arrow.sent_ms))} y1={n(y1)} x2={n(x(arrow.at_ms))} y2={n(y2)}
                class={classes!("arrow", future.then_some("future"))} marker-end="url(#head)" />
        }
    });

    let markers = layout.lanes.iter().flat_map(|lane| lane.markers.iter()).map(|&id| {
        let event = &trace.events()[id as usize];
        let (cx, cy) = (x(event.at_ms), lane_y(event.actor) + lane_h / 2.0);
        let class = timeline::marker_class(&event.kind);
        let future = id as usize >= props.cursor;
        let current = id as usize + 1 == props.cursor;
        let on_action = props.on_action.clone();
        let onclick = Callback::from(move |_: MouseEvent| on_action.emit(Action::SeekCursor(id as usize + 1)));
        let shape = match class {
            MarkerClass::Ok => html! { <circle cx={n(cx)} cy={n(cy)} r="5" /> },
            MarkerClass::Fact => html! { <circle cx={n(cx)} cy={n(cy)} r="4" /> },
            MarkerClass::Refused => html! {
                <path d={format!("M{} {} l8 8 M{} {} l-8 8", n(cx - 4.0), n(cy - 4.0), n(cx + 4.0), n(cy - 4.0))} class="cross" />
            },
            MarkerClass::Violation => html! {
                <path d={format!("M{} {} l7 12 h-14 z", n(cx), n(cy - 7.0))} />
            },
            MarkerClass::Warning => html! {
                <path d={format!("M{} {} l6 6 l-6 6 l-6 -6 z", n(cx), n(cy - 6.0))} />
            },
        };
        html! {
            <g key={id} class={classes!("marker", marker_css(class), future.then_some("future"), current.then_some("current"))}
               data-testid="event" data-at-ms={event.at_ms.to_string()} data-kind={event.kind.tag()} {onclick}>
                <title>{ crate::sim::render::line(trace, event) }</title>
                { shape }
            </g>
        }
    });

    let cursor_x = x(props.time_ms);
    // At the cursor, each node lane reads out its counter and the lock's TTL left on that
    // node's clock, and the database lane its last_fence: the values drain and change as
    // the learner scrubs.
    let state = trace.state_at(props.cursor);
    let redis = &trace.scenario().redis;
    let readouts = layout.lanes.iter().filter_map(|lane| {
        let text = match lane.actor {
            Actor::Node(i) => {
                let node = state.nodes.get(usize::from(i))?;
                if !node.up {
                    m.t("node.down")
                } else {
                    let clock = node.clock_ms(props.time_ms);
                    let counter = node.keyspace.peek(&redis.fence_key, clock).map_or("-".to_owned(), |e| e.value.clone());
                    let lock = match node.keyspace.peek(&redis.lock_key, clock) {
                        Some(e) => match e.expire_at_ms {
                            Some(d) => format!("{} ttl {}", e.value, secs(u64::try_from(d - clock).unwrap_or(0))),
                            None => e.value.clone(),
                        },
                        None => m.t("readout.free"),
                    };
                    // The node holds the token counter only when tokens are Redis' INCR (or a
                    // consensus store's revision); a token drawn elsewhere leaves it out.
                    match trace.scenario().tokens {
                        TokenSource::RedisIncr => m.tf("readout.node", &[("counter", &counter), ("lock", &lock)]),
                        TokenSource::Consensus => m.tf("readout.node_revision", &[("revision", &counter), ("lock", &lock)]),
                        _ => m.tf("readout.node_lock", &[("lock", &lock)]),
                    }
                }
            }
            Actor::Db => format!("last_fence {} · {}", crate::sim::token::token_text(trace.scenario().tokens, state.order.last_fence), state.order.status),
            _ => return None,
        };
        let y = lane_y(lane.actor) + lane_h - 3.0;
        // Keep the label inside the drawing: left of the cursor near the right edge.
        let anchor_end = cursor_x > LEFT + PLOT * 0.7;
        let tx = if anchor_end { cursor_x - 4.0 } else { cursor_x + 4.0 };
        Some(html! {
            <text x={n(tx)} y={n(y)} class={classes!("readout", anchor_end.then_some("end"))} data-testid="readout" data-lane={lane.label.clone()}>{ text }</text>
        })
    });
    html! {
        <svg class={classes!("swimlanes", props.compact.then_some("compact"))} data-testid="swimlanes" xmlns="http://www.w3.org/2000/svg"
             viewBox={format!("0 0 {} {}", n(WIDTH), n(height))} role="img"
             aria-label={m.tf("player.timeline", &[("title", &m.content(&format!("s.{}.title", trace.scenario().id), &trace.scenario().title)), ("end", &secs(layout.end_ms))])}>
            <defs>
                <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <line x1="0" y1="0" x2="0" y2="6" class="hatch-line" />
                </pattern>
                <pattern id="dots" width="5" height="5" patternUnits="userSpaceOnUse">
                    <circle cx="2.5" cy="2.5" r="1" class="dot" />
                </pattern>
                <marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                    <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
                </marker>
            </defs>
            { axis }
            { for lanes }
            { for arrows }
            { for markers }
            { for readouts }
            <line x1={n(cursor_x)} x2={n(cursor_x)} y1={n(TOP - 4.0)} y2={n(height - 4.0)} class="cursor" />
        </svg>
    }
}

/// SVG user units are rounded to whole numbers: enough precision for a 1000-unit-wide
/// drawing, and it keeps float formatting (several KB of wasm) out of the build.
fn n(v: f64) -> String {
    (v.round() as i64).to_string()
}

fn marker_css(class: MarkerClass) -> &'static str {
    match class {
        MarkerClass::Ok => "ok",
        MarkerClass::Refused => "refused",
        MarkerClass::Violation => "violation",
        MarkerClass::Warning => "warning",
        MarkerClass::Fact => "fact",
    }
}

/// A tick step giving about 6 to 12 ticks.
fn nice_step(end_ms: u64) -> u64 {
    [
        1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000,
        3_600_000,
    ]
    .into_iter()
    .find(|step| end_ms / step <= 12)
    .unwrap_or(7_200_000)
}
