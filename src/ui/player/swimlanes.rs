//! The swimlane timeline on the page: the drawing (`crate::timeline::svg`, one string) in
//! a box that scrolls sideways on narrow screens, following the cursor there with the lane
//! names pinned over its left edge; a click on a mark moving the cursor, and an
//! explanation of the mark under the pointer or keyboard focus. The layout is computed
//! once per trace; a seek only re-renders the text. It never simulates.

use yew::prelude::*;

use crate::player::{Action, TraceRef};
use crate::sim::event::Actor;
use crate::sim::scenario::TokenSource;
use crate::timeline::svg::{self, Geometry, View, WIDTH};

pub(crate) use crate::timeline::svg::Future;

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
    #[prop_or_default]
    pub(crate) future: Future,
    /// The title the drawing is labelled with (the page may be keeping part of it back).
    pub(crate) title: String,
}

#[component]
pub(crate) fn Swimlanes(props: &SwimlanesProps) -> Html {
    let m = crate::ui::i18n::use_i18n();
    // The spans' words in the reader's language (the layout itself is the same in each).
    let layout = use_memo((props.trace.clone(), m.lang), {
        let m = m.clone();
        move |(trace, _)| {
            let mut layout = crate::timeline::build(trace);
            for span in layout.lanes.iter_mut().flat_map(|lane| lane.spans.iter_mut()) {
                span.label = m.note(&span.note);
            }
            layout
        }
    });
    let tip = use_state(|| None::<u32>);
    let trace = &props.trace;
    let title = &props.title;
    let view = View {
        cursor: props.cursor,
        time_ms: props.time_ms,
        compact: props.compact,
        scale_end_ms: props.scale_end_ms,
        future: props.future,
        label: m.tf("player.timeline", &[("title", title), ("end", &m.secs(layout.end_ms))]),
        readouts: readouts(&m, trace, props.cursor, props.time_ms),
        unit: m.secs_unit(),
    };
    let geometry = Geometry::new(&layout, &view);
    let drawing = crate::ui::markup(svg::render(trace, &layout, &view));
    let names = (!props.compact).then(|| crate::ui::markup(svg::lane_names(trace, &layout, &view)));
    crate::ui::hooks::use_follow_cursor(
        (props.cursor, props.time_ms),
        geometry.x(props.time_ms) / WIDTH,
        (svg::LEFT - svg::PAD) / WIDTH,
    );

    // One listener each for every mark: the event's index is on the mark.
    let mark_of = |target: Option<web_sys::EventTarget>| {
        crate::ui::index_at(target, "data-id").and_then(|id| u32::try_from(id).ok())
    };
    let onclick = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(id) = mark_of(e.target()) {
                on_action.emit(Action::SeekCursor(id as usize + 1));
            }
        })
    };
    // Enter on a focused mark moves there, as a click does.
    let onkeydown = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter"
                && let Some(id) = mark_of(e.target())
            {
                e.prevent_default();
                on_action.emit(Action::SeekCursor(id as usize + 1));
            }
        })
    };
    let onmouseover = {
        let tip = tip.clone();
        Callback::from(move |e: MouseEvent| tip.set(mark_of(e.target())))
    };
    let onfocusin = {
        let tip = tip.clone();
        Callback::from(move |e: FocusEvent| tip.set(mark_of(e.target())))
    };
    let hide = {
        let tip = tip.clone();
        Callback::from(move |_: MouseEvent| tip.set(None))
    };
    let shown = |id: u32| props.future == Future::Shown || (id as usize) < props.cursor;
    let tip_box =
        tip.filter(|&id| shown(id)).and_then(|id| trace.events().get(id as usize)).map(|event| {
            let left = geometry.x(event.at_ms) / WIDTH * 100.0;
            let top = (geometry.lane_y(&layout, event.actor) + geometry.lane_h()) / geometry.height
                * 100.0;
            let prose = m.note(&event.note);
            let said =
                if prose.is_empty() { crate::sim::render::line(trace, event) } else { prose };
            let hint = if event.id.index() + 1 == props.cursor {
                m.t("tip.here")
            } else {
                m.t("tip.click")
            };
            let side = if left > 60.0 { "right: 0" } else { "left: 0" };
            let place = format!("left: {}%; top: {}%", left.round() as i64, top.round() as i64);
            let head = format!(
                "{} {} · {}",
                m.secs(event.at_ms),
                trace.actor_name(event.actor),
                m.tag(event.kind.tag())
            );
            let mut o = crate::markup::Markup::new();
            o.open(
                "div",
                &[("class", "tip"), ("role", "tooltip"), ("data-testid", "tip"), ("style", &place)],
            );
            o.open("div", &[("class", "tip-box"), ("style", side)]);
            o.element("strong", &[], &head).element("span", &[], &said).element("em", &[], &hint);
            o.close("div").close("div");
            crate::ui::markup(o)
        });
    html! {
        <div class={classes!("timeline", props.compact.then_some("compact"))} onmouseleave={hide}>
            <div class="timeline-scroll" data-testid="timeline-scroll">
                <div class="timeline-inner" {onclick} {onkeydown} {onmouseover} {onfocusin}>
                    { drawing }
                    { for tip_box }
                </div>
            </div>
            { for names }
            if !props.compact {
                <p class="timeline-hint muted" data-testid="timeline-hint">{ m.t("player.timeline_swipe") }</p>
            }
        </div>
    }
}

/// What each node lane reads at the cursor (its counter and the lock's TTL left on its own
/// clock): the values change as the learner scrubs.
fn readouts(
    m: &crate::i18n::Messages,
    trace: &crate::sim::Trace,
    cursor: usize,
    time_ms: u64,
) -> Vec<(Actor, String)> {
    let state = trace.state_at(cursor);
    let scenario = trace.setup();
    let redis = &scenario.redis;
    let mut out = Vec::new();
    for (i, node) in state.nodes.iter().enumerate() {
        let text = if !node.up {
            m.t("node.down")
        } else {
            let clock = node.clock_ms(time_ms);
            let counter = node
                .keyspace
                .peek(&redis.fence_key, clock)
                .map_or("-".to_owned(), |e| e.value.clone());
            let lock = match node.keyspace.peek(&redis.lock_key, clock) {
                Some(e) => match e.expire_at_ms {
                    Some(d) => {
                        format!("{} ttl {}", e.value, m.secs(u64::try_from(d - clock).unwrap_or(0)))
                    }
                    None => e.value.clone(),
                },
                None => m.t("readout.free"),
            };
            // The node holds the token counter only when tokens are Redis' INCR (or a
            // consensus store's revision); a token drawn elsewhere leaves it out.
            match scenario.tokens {
                TokenSource::RedisIncr => {
                    m.tf("readout.node", &[("counter", &counter), ("lock", &lock)])
                }
                TokenSource::Consensus => {
                    m.tf("readout.node_revision", &[("revision", &counter), ("lock", &lock)])
                }
                _ => m.tf("readout.node_lock", &[("lock", &lock)]),
            }
        };
        out.push((Actor::Node(crate::sim::NodeId::at(i)), text));
    }
    // The database lane needs no readout: its last_fence steps are labelled.
    out
}
