//! The immutable result of a run: events, one state frame per cursor, lane indices, and the
//! summary that the CLI and the web export print.
//!
//! Owns cursor arithmetic (`cursor` = number of events applied, `0..=len`) and the
//! derived views; it never re-simulates and is never edited after it is built.

use crate::sim::id::{EventId, WorkerId};
use crate::sim::sorted::SortedMap;

use crate::sim::event::{Actor, Event, EventKind, RowCount};
use crate::sim::scenario::Setup;
use crate::sim::state::State;
use crate::sim::world::Output;

#[derive(Clone, Debug)]
pub struct Trace {
    setup: Setup,
    events: Vec<Event>,
    frames: Vec<State>,
    lanes: SortedMap<Actor, Vec<EventId>>,
    belief_spans: Vec<(WorkerId, u64, u64)>,
    truncated: bool,
}

/// The facts of a run that the CLI prints as JSON and tests compare.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    pub grants: Vec<Grant>,
    pub writes: Vec<Write>,
    /// Real charges (replays excluded) for the order.
    pub charges: u32,
    pub violations: Vec<Finding>,
    pub warnings: Vec<Finding>,
    pub overlaps: Vec<Overlap>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Grant {
    pub worker: String,
    pub token: Option<i64>,
    pub at_ms: u64,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Write {
    pub worker: String,
    pub token: Option<i64>,
    pub at_ms: u64,
    pub rows: RowCount,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Finding {
    /// The property (`no-stale-accept`) or warning kind (`all-writes-rejected`).
    pub name: String,
    pub at_ms: u64,
    pub explanation: String,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Overlap {
    pub workers: Vec<String>,
    pub from_ms: u64,
    pub to_ms: u64,
}

impl Trace {
    pub fn new(setup: Setup, output: Output) -> Trace {
        let mut lanes: SortedMap<Actor, Vec<EventId>> = SortedMap::new();
        for event in &output.events {
            lanes.get_or_insert_with(event.actor, Vec::new).push(event.id);
        }
        Trace {
            setup,
            events: output.events,
            frames: output.frames,
            lanes,
            belief_spans: output.belief_spans,
            truncated: output.truncated,
        }
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The number of events; valid cursors are `0..=len()`.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Whether the run was cut at the event limit.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Where a run cut at the event limit stopped (its last event's time, as `2.500 s`)
    /// and how many events it has; `None` for a run that reached its end.
    pub fn cut_short(&self) -> Option<(String, usize)> {
        let at_ms = self.events.last().map_or(0, |e| e.at_ms);
        self.truncated.then(|| (crate::sim::check::secs(at_ms), self.events.len()))
    }

    /// The world after the first `cursor` events (clamped to the end). O(1).
    pub fn state_at(&self, cursor: usize) -> &State {
        let last = self.frames.len().saturating_sub(1);
        &self.frames[cursor.min(last)]
    }

    /// The cursor at virtual time `t_ms`: every event at or before it applied. O(log n).
    pub fn cursor_at_time(&self, t_ms: u64) -> usize {
        self.events.partition_point(|event| event.at_ms <= t_ms)
    }

    /// The time of the last event (0 for an empty trace).
    pub fn end_ms(&self) -> u64 {
        self.events.last().map_or(0, |event| event.at_ms)
    }

    /// Event ids of one actor, in order.
    pub fn lane(&self, actor: Actor) -> &[EventId] {
        self.lanes.get(&actor).map_or(&[], Vec::as_slice)
    }

    pub fn actors(&self) -> impl Iterator<Item = Actor> + '_ {
        self.lanes.keys().copied()
    }

    pub fn violations(&self) -> impl Iterator<Item = &Event> {
        self.events.iter().filter(|event| matches!(event.kind, EventKind::Violation { .. }))
    }

    /// The name shown for an actor: a worker's or node's name, or the service.
    pub fn actor_name(&self, actor: Actor) -> String {
        match actor {
            Actor::Worker(w) => {
                self.setup.workers.get(w.index()).map_or("?".to_owned(), |s| s.name.clone())
            }
            Actor::Node(n) => {
                self.setup.redis.nodes.get(n.index()).map_or("?".to_owned(), |s| s.name.clone())
            }
            Actor::Tokens => "tokens".to_owned(),
            Actor::Db => "db".to_owned(),
            Actor::Gateway => "gateway".to_owned(),
            Actor::Storage => "storage".to_owned(),
            Actor::Dlq => "dlq".to_owned(),
            Actor::Checker => "checker".to_owned(),
        }
    }

    pub fn summary(&self) -> Summary {
        let name = |w: WorkerId| self.actor_name(Actor::Worker(w));
        let mut summary = Summary {
            grants: Vec::new(),
            writes: Vec::new(),
            charges: 0,
            violations: Vec::new(),
            warnings: Vec::new(),
            overlaps: Vec::new(),
        };
        // The worker a database write belongs to is the one named in its statement.
        let mut token_of_lock: SortedMap<WorkerId, Option<i64>> = SortedMap::new();
        for event in &self.events {
            match (&event.kind, event.actor) {
                (EventKind::Granted { token }, Actor::Worker(w)) => {
                    token_of_lock.insert(w, *token);
                    summary.grants.push(Grant {
                        worker: name(w),
                        token: *token,
                        at_ms: event.at_ms,
                    });
                }
                (EventKind::LockSet, Actor::Worker(w)) => {
                    token_of_lock.insert(w, None);
                    summary.grants.push(Grant { worker: name(w), token: None, at_ms: event.at_ms });
                }
                (EventKind::TokenDrawn { token }, _) => {
                    // A token drawn after the lock completes that worker's latest grant.
                    if let Some(grant) = summary.grants.iter_mut().rev().find(|g| g.token.is_none())
                    {
                        grant.token = Some(*token);
                    }
                }
                (EventKind::Wrote { token, rows }, _) => {
                    // The database served the worker whose step ran (the event's peer).
                    let worker = match event.peer {
                        Some(Actor::Worker(w)) => name(w),
                        _ => String::new(),
                    };
                    summary.writes.push(Write {
                        worker,
                        token: *token,
                        at_ms: event.at_ms,
                        rows: *rows,
                    });
                }
                (EventKind::Charged { .. }, _) => summary.charges += 1,
                (EventKind::Violation { property, explanation }, _) => {
                    summary.violations.push(Finding {
                        name: property.name().to_owned(),
                        at_ms: event.at_ms,
                        explanation: explanation.clone(),
                    })
                }
                (EventKind::Warning { kind, explanation }, _) => summary.warnings.push(Finding {
                    name: kind.name().to_owned(),
                    at_ms: event.at_ms,
                    explanation: explanation.clone(),
                }),
                _ => {}
            }
        }
        for (i, &(a, a_from, a_to)) in self.belief_spans.iter().enumerate() {
            for &(b, b_from, b_to) in &self.belief_spans[i + 1..] {
                let (from_ms, to_ms) = (a_from.max(b_from), a_to.min(b_to));
                if a != b && from_ms < to_ms {
                    let mut workers = vec![name(a), name(b)];
                    crate::sim::sorted::sort(&mut workers);
                    summary.overlaps.push(Overlap { workers, from_ms, to_ms });
                }
            }
        }
        crate::sim::sorted::sort_by(&mut summary.overlaps, |x, y| {
            (x.from_ms, &x.workers).cmp(&(y.from_ms, &y.workers))
        });
        summary
    }
}
