//! The swimlane layout of a trace, in virtual milliseconds: lanes, spans (pauses, beliefs,
//! lock lifetimes, downtime), event markers and request arrows.
//!
//! Owns what is drawn where in time; the view only maps milliseconds to pixels. Pure and
//! computed once per trace, so a seek only moves the cursor.

pub mod svg;

use crate::sim::event::{Actor, EventKind, Note, RowCount};
use crate::sim::state::Activity;
use crate::sim::token::token_text;
use crate::sim::{EventId, NodeId, Trace, WorkerId};

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Layout {
    pub end_ms: u64,
    pub lanes: Vec<Lane>,
    pub arrows: Vec<Arrow>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Lane {
    pub actor: Actor,
    pub label: String,
    pub spans: Vec<Span>,
    /// Event ids drawn on this lane, in time order.
    pub markers: Vec<EventId>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Span {
    pub from_ms: u64,
    pub to_ms: u64,
    pub kind: SpanKind,
    /// What the span is, in English (`note`'s English wording).
    pub label: String,
    /// The same as a note, for the page to say in the reader's language.
    pub note: Note,
}

impl Span {
    fn new(from_ms: u64, to_ms: u64, kind: SpanKind, note: Note) -> Span {
        Span { from_ms, to_ms, kind, label: note.english(), note }
    }
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum SpanKind {
    /// Stop-the-world pause (drawn hatched).
    Paused,
    /// Main thread hung (drawn dotted).
    Hung,
    /// Waiting for a row lock.
    Blocked,
    /// Dead from here on.
    Crashed,
    /// The worker believes it holds the lock; `until_ms` is its own deadline, after which
    /// it still acts as holder without knowing better (drawn dashed). `token`: the fencing
    /// token it was granted, as the learner reads it (none without tokens).
    Belief { until_ms: u64, token: Option<String> },
    /// The order row's `last_fence` holds this value (drawn on the database lane).
    Fence { value: String },
    /// The lock key exists on a node with this holder; on a replica past its deadline it is
    /// kept but hidden from reads (`hidden_from_ms`).
    Lock { holder: String, hidden_from_ms: Option<u64> },
    /// The node is down.
    Down,
}

/// A request (worker to service, or service answering a worker) or a replication transfer.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Arrow {
    pub from: Actor,
    pub to: Actor,
    pub sent_ms: u64,
    pub at_ms: u64,
    pub event: EventId,
}

/// How a marker is drawn: the shape carries the meaning, colour only repeats it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum MarkerClass {
    Ok,
    Refused,
    Violation,
    Warning,
    Fact,
}

pub fn marker_class(kind: &EventKind) -> MarkerClass {
    match kind {
        EventKind::Violation { .. } => MarkerClass::Violation,
        EventKind::Warning { .. }
        | EventKind::Overlap { .. }
        | EventKind::Alert { firing: true, changed: true, .. } => MarkerClass::Warning,
        EventKind::Wrote { rows: RowCount(0), .. }
        | EventKind::Denied
        | EventKind::AcquireFailed
        | EventKind::GaveUp
        | EventKind::ObjectRejected { .. }
        | EventKind::ObjectHead { stale: true, .. }
        | EventKind::Renewed { ok: false }
        | EventKind::NodeLocked { ok: false, .. }
        | EventKind::Unreachable { .. }
        | EventKind::LeaseChecked { mine: false }
        | EventKind::ReplyLost
        | EventKind::WriteBlocked { .. } => MarkerClass::Refused,
        EventKind::Paused { .. }
        | EventKind::Delayed { .. }
        | EventKind::Hung { .. }
        | EventKind::Resumed
        | EventKind::Expired { .. }
        | EventKind::Crashed
        | EventKind::NodeCrashed { .. }
        | EventKind::NodeRestarted { .. }
        | EventKind::ClockJumped { .. }
        | EventKind::Finished => MarkerClass::Fact,
        _ => MarkerClass::Ok,
    }
}

/// Longer than 100 lines: one pass over the trace that fills the lanes, their spans and
/// their stacked marks together, each step reading what the earlier ones placed.
pub fn build(trace: &Trace) -> Layout {
    let scenario = trace.setup();
    let end_ms = trace.end_ms().max(1);
    let mut lanes: Vec<Lane> = Vec::new();
    let lane = |actor: Actor| Lane {
        actor,
        label: trace.actor_name(actor),
        spans: Vec::new(),
        markers: Vec::new(),
    };
    for w in 0..scenario.workers.len() {
        lanes.push(lane(Actor::Worker(WorkerId::at(w))));
    }
    let used =
        |actor: Actor| trace.events().iter().any(|e| e.actor == actor || e.peer == Some(actor));
    if used(Actor::Tokens) {
        lanes.push(lane(Actor::Tokens));
    }
    for n in 0..scenario.redis.nodes.len() {
        lanes.push(lane(Actor::Node(NodeId::at(n))));
    }
    lanes.push(lane(Actor::Db));
    for actor in [Actor::Gateway, Actor::Storage, Actor::Dlq] {
        if used(actor) {
            lanes.push(lane(actor));
        }
    }
    lanes.push(lane(Actor::Checker));

    for event in trace.events() {
        if let Some(l) = lanes.iter_mut().find(|l| l.actor == event.actor) {
            l.markers.push(event.id);
        }
    }

    // Spans come from the frames: walk the cursor and note when each thing starts and ends.
    let lock_key = &scenario.redis.lock_key;
    let n_events = trace.len();
    let time_of = |cursor: usize| if cursor == 0 { 0 } else { trace.events()[cursor - 1].at_ms };
    for l in &mut lanes {
        match l.actor {
            Actor::Worker(w) => {
                let w = w.index();
                let mut open_activity: Option<(u64, SpanKind, Note)> = None;
                let mut open_belief: Option<(u64, u64, Option<i64>)> = None;
                for cursor in 0..=n_events {
                    let t = time_of(cursor);
                    let ws = &trace.state_at(cursor).workers[w];
                    let activity = match ws.activity {
                        Activity::Paused { until_ms } => Some((
                            SpanKind::Paused,
                            Note::new("span.paused", vec![("t", secs(until_ms))]),
                        )),
                        Activity::Hung { until_ms } => Some((
                            SpanKind::Hung,
                            Note::new("span.hung", vec![("t", secs(until_ms))]),
                        )),
                        Activity::Blocked => {
                            Some((SpanKind::Blocked, Note::new("span.blocked", Vec::new())))
                        }
                        Activity::Crashed => {
                            Some((SpanKind::Crashed, Note::new("span.crashed", Vec::new())))
                        }
                        _ => None,
                    };
                    let same = match (&open_activity, &activity) {
                        (Some((_, a, _)), Some((b, _))) => a == b,
                        (None, None) => true,
                        _ => false,
                    };
                    if !same {
                        if let Some((from, kind, label)) = open_activity.take() {
                            l.spans.push(Span::new(from, t, kind, label));
                        }
                        open_activity = activity.map(|(kind, label)| (t, kind, label));
                    }
                    let belief = ws.belief.as_ref().map(|b| (b.since_ms, b.until_ms, b.token));
                    match (open_belief, belief) {
                        (None, Some(b)) => open_belief = Some(b),
                        (Some(_), Some(b)) => open_belief = Some(b),
                        (Some((since, until, token)), None) => {
                            l.spans.push(belief_span(scenario.tokens, since, t, until, token));
                            open_belief = None;
                        }
                        (None, None) => {}
                    }
                }
                if let Some((from, kind, label)) = open_activity {
                    l.spans.push(Span::new(from, end_ms, kind, label));
                }
                if let Some((since, until, token)) = open_belief {
                    l.spans.push(belief_span(scenario.tokens, since, end_ms, until, token));
                }
            }
            Actor::Node(n) => {
                let n = n.index();
                let mut open_lock: Option<(u64, String, Option<i64>)> = None;
                let mut open_down: Option<u64> = None;
                for cursor in 0..=n_events {
                    let t = time_of(cursor);
                    let node = &trace.state_at(cursor).nodes[n];
                    let entry =
                        node.keyspace.raw(lock_key).map(|e| (e.value.clone(), e.expire_at_ms));
                    let changed = match (&open_lock, &entry) {
                        (Some((_, holder, _)), Some((value, _))) => holder != value,
                        (None, None) => false,
                        _ => true,
                    };
                    if changed {
                        if let Some((from, holder, deadline)) = open_lock.take() {
                            l.spans.push(lock_span(
                                from,
                                t,
                                holder,
                                deadline,
                                node.clock_offset_ms,
                            ));
                        }
                        open_lock = entry.clone().map(|(holder, deadline)| (t, holder, deadline));
                    } else if let (Some(open), Some((_, deadline))) = (&mut open_lock, &entry) {
                        open.2 = *deadline;
                    }
                    match (open_down, node.up) {
                        (None, false) => open_down = Some(t),
                        (Some(from), true) => {
                            let down = Note::new("span.down", Vec::new());
                            l.spans.push(Span::new(from, t, SpanKind::Down, down));
                            open_down = None;
                        }
                        _ => {}
                    }
                }
                if let Some((from, holder, deadline)) = open_lock {
                    let offset = trace.state_at(n_events).nodes[n].clock_offset_ms;
                    l.spans.push(lock_span(from, end_ms, holder, deadline, offset));
                }
                if let Some(from) = open_down {
                    let down = Note::new("span.down", Vec::new());
                    l.spans.push(Span::new(from, end_ms, SpanKind::Down, down));
                }
            }
            Actor::Db => l.spans = fence_steps(trace, end_ms),
            _ => {}
        }
        crate::sim::sorted::sort_by_key(&mut l.spans, |s| (s.from_ms, s.to_ms));
    }

    let mut arrows = Vec::new();
    let lag_ms = scenario.redis.lag_ms;
    for event in trace.events() {
        match (&event.kind, event.peer) {
            (EventKind::Replicated { from, .. }, _) => arrows.push(Arrow {
                from: Actor::Node(*from),
                to: event.actor,
                sent_ms: event.at_ms.saturating_sub(lag_ms),
                at_ms: event.at_ms,
                event: event.id,
            }),
            (_, Some(peer)) => {
                // Worker commands point at the service; service events point back at the worker.
                let (from, to) = match event.actor {
                    Actor::Worker(_) => (event.actor, peer),
                    _ => (peer, event.actor),
                };
                arrows.push(Arrow {
                    from,
                    to,
                    sent_ms: event.at_ms,
                    at_ms: event.at_ms,
                    event: event.id,
                });
            }
            _ => {}
        }
    }
    Layout { end_ms, lanes, arrows }
}

fn belief_span(
    source: crate::sim::scenario::TokenSource,
    since: u64,
    to: u64,
    until: u64,
    token: Option<i64>,
) -> Span {
    let token = token.map(|t| token_text(source, t));
    let note = match &token {
        Some(t) => Note::new("span.belief_token", vec![("t", secs(until)), ("token", t.clone())]),
        None => Note::new("span.belief", vec![("t", secs(until))]),
    };
    Span::new(since, to.max(since), SpanKind::Belief { until_ms: until, token }, note)
}

/// Whether `span` of `actor`'s lane has begun after `cursor` events: at the instant a span
/// starts, several events share the time and only some may be applied (a drawing that hides
/// the future must not show the span of the event after the cursor).
pub fn span_begun(trace: &Trace, actor: Actor, span: &Span, cursor: usize) -> bool {
    let at = |c: usize| if c == 0 { 0 } else { trace.events()[c - 1].at_ms };
    if span.from_ms != at(cursor) {
        return span.from_ms < at(cursor);
    }
    let state = trace.state_at(cursor);
    let lock_key = &trace.setup().redis.lock_key;
    match (&span.kind, actor) {
        (SpanKind::Fence { value }, _) => {
            *value == token_text(trace.setup().tokens, state.order.last_fence)
        }
        (SpanKind::Lock { holder, .. }, Actor::Node(n)) => {
            state.nodes[n.index()].keyspace.raw(lock_key).is_some_and(|e| e.value == *holder)
        }
        (SpanKind::Down, Actor::Node(n)) => !state.nodes[n.index()].up,
        (kind, Actor::Worker(w)) => {
            let ws = &state.workers[w.index()];
            match kind {
                SpanKind::Belief { .. } => {
                    ws.belief.as_ref().is_some_and(|b| b.since_ms == span.from_ms)
                }
                SpanKind::Paused => matches!(ws.activity, Activity::Paused { .. }),
                SpanKind::Hung => matches!(ws.activity, Activity::Hung { .. }),
                SpanKind::Blocked => ws.activity == Activity::Blocked,
                SpanKind::Crashed => ws.activity == Activity::Crashed,
                _ => true,
            }
        }
        _ => true,
    }
}

/// The row's `last_fence` over time: one span per value it held.
fn fence_steps(trace: &Trace, end_ms: u64) -> Vec<Span> {
    let source = trace.setup().tokens;
    let mut steps: Vec<Span> = Vec::new();
    let mut last = None;
    for cursor in 0..=trace.len() {
        let fence = trace.state_at(cursor).order.last_fence;
        if last == Some(fence) {
            continue;
        }
        let t = if cursor == 0 { 0 } else { trace.events()[cursor - 1].at_ms };
        if let Some(open) = steps.last_mut() {
            open.to_ms = t;
        }
        let value = token_text(source, fence);
        let note = Note::new("span.fence", vec![("value", value.clone())]);
        steps.push(Span::new(t, end_ms, SpanKind::Fence { value }, note));
        last = Some(fence);
    }
    steps
}

fn lock_span(from: u64, to: u64, holder: String, deadline: Option<i64>, offset_ms: i64) -> Span {
    // The node hides the key from reads once its own clock passes the deadline.
    let hidden_from_ms = deadline
        .map(|d| d.saturating_add(1).saturating_sub(offset_ms))
        .and_then(|g| u64::try_from(g).ok())
        .filter(|&g| g < to);
    let owner = crate::sim::state::lock_value_owner(&holder);
    let (owner, value) = (owner.to_string(), holder.clone());
    let note = match deadline {
        Some(d) => Note::new(
            "span.lock",
            vec![("owner", owner), ("holder", value), ("t", secs(u64::try_from(d).unwrap_or(0)))],
        ),
        None => Note::new("span.lock_no_ttl", vec![("owner", owner), ("holder", value)]),
    };
    Span::new(from, to.max(from), SpanKind::Lock { holder, hidden_from_ms }, note)
}

fn secs(ms: u64) -> String {
    crate::sim::check::secs(ms)
}

#[cfg(test)]
mod tests {
    use super::{SpanKind, build};
    use crate::catalogue;
    use crate::sim::{self, Actor, NodeId, WorkerId};

    #[test]
    fn gc_pause_lanes_show_pause_belief_and_lock_lifetimes() {
        let trace = sim::run(&catalogue::find("gc-pause-fenced").unwrap().setup);
        let layout = build(&trace);
        let labels: Vec<&str> = layout.lanes.iter().map(|l| l.label.as_str()).collect();
        assert_eq!(labels, ["A", "B", "redis", "db", "checker"]);
        let a = &layout.lanes[0];
        let paused: Vec<(u64, u64)> = a
            .spans
            .iter()
            .filter(|s| s.kind == SpanKind::Paused)
            .map(|s| (s.from_ms, s.to_ms))
            .collect();
        assert_eq!(paused, [(1_000, 40_000)]);
        let belief = a.spans.iter().find(|s| matches!(s.kind, SpanKind::Belief { .. })).unwrap();
        // A believes from its grant until it learns it was fenced off at 40 s; its own
        // deadline was 30 s: the gap between belief and truth.
        assert_eq!(
            (belief.from_ms, belief.to_ms, belief.kind.clone()),
            (0, 40_000, SpanKind::Belief { until_ms: 30_000, token: Some("33".to_owned()) })
        );
        // The database lane steps from the initial last_fence to B's 34.
        let db = layout.lanes.iter().find(|l| l.actor == Actor::Db).unwrap();
        let fences: Vec<(u64, u64, SpanKind)> =
            db.spans.iter().map(|s| (s.from_ms, s.to_ms, s.kind.clone())).collect();
        let fence = |value: &str| SpanKind::Fence { value: value.to_owned() };
        assert_eq!(fences, [(0, 32_000, fence("0")), (32_000, 40_000, fence("34"))]);
        let redis = &layout.lanes[2];
        let locks: Vec<(u64, u64, String)> = redis
            .spans
            .iter()
            .filter_map(|s| match &s.kind {
                SpanKind::Lock { holder, .. } => Some((s.from_ms, s.to_ms, holder.clone())),
                _ => None,
            })
            .collect();
        // Each lock is one acquisition's value, owned by the worker it names.
        assert_eq!(
            locks,
            [
                (0, 30_001, "A-e8ffc4441451".to_owned()),
                (31_000, 32_000, "B-55613ff287e7".to_owned())
            ]
        );
        // Every worker request has an arrow to the service it went to.
        assert!(layout.arrows.iter().any(|a| a.from == Actor::Worker(WorkerId(1))
            && a.to == Actor::Db
            && a.at_ms == 32_000));
        assert!(layout.arrows.iter().any(|a| a.from == Actor::Worker(WorkerId(0))
            && a.to == Actor::Node(NodeId(0))
            && a.at_ms == 0));
    }

    #[test]
    fn replication_arrows_carry_the_lag_and_downtime_is_a_span() {
        let trace = sim::run(&catalogue::find("failover-wait").unwrap().setup);
        let layout = build(&trace);
        let replication = layout
            .arrows
            .iter()
            .find(|a| a.from == Actor::Node(NodeId(0)) && a.to == Actor::Node(NodeId(1)))
            .unwrap();
        assert_eq!((replication.sent_ms, replication.at_ms), (0, 200));
        let primary = layout.lanes.iter().find(|l| l.actor == Actor::Node(NodeId(0))).unwrap();
        assert!(primary.spans.iter().any(|s| s.kind == SpanKind::Down && s.from_ms == 2_150));
    }
}
