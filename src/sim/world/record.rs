//! Recording: how a step becomes exactly one event (with its frame), the prose a note
//! carries, the checker's findings and the overlap fact. It decides nothing about the model.

use super::{Recording, World};
use crate::sim::check::Finding;
use crate::sim::event::{Actor, Event, EventKind, Note};
use crate::sim::id::{EventId, WorkerId};
use crate::sim::scenario::Setup;
use crate::sim::state::{Activity, Belief};

/// What an event says in prose: the English text and the translatable note it comes from.
/// It goes into the event when the event is recorded, never through the world's state.
#[derive(Default)]
pub(super) struct Said {
    pub(super) text: String,
    pub(super) note: Note,
}

impl From<String> for Said {
    /// Text of the program's own (a command's reply), with no note to translate.
    fn from(text: String) -> Said {
        Said { text, note: Note::default() }
    }
}

impl<'s> World<'s> {
    /// Records one event, complete: `reply` is its reply text, or prose from [`Self::say`]
    /// (which brings the note the UI translates).
    pub(super) fn emit(
        &mut self,
        actor: Actor,
        kind: EventKind,
        command: String,
        reply: impl Into<Said>,
        causes: Vec<EventId>,
    ) -> EventId {
        let Said { text, note } = reply.into();
        self.emit_because(actor, kind, command, text, Said { text: String::new(), note }, causes)
    }

    /// Records one event whose prose is its `why` (why a write was refused, why an alert
    /// changed): the reply stays the server's own.
    pub(super) fn emit_because(
        &mut self,
        actor: Actor,
        kind: EventKind,
        command: String,
        reply: String,
        why: Said,
        causes: Vec<EventId>,
    ) -> EventId {
        let id = EventId::at(self.events.len());
        // The other end of a request: the node a worker talked to, or the worker a service
        // served (the one whose step or watchdog is running).
        let peer = match (actor, &kind) {
            (Actor::Worker(_), EventKind::NodeLocked { node, .. }) => Some(Actor::Node(*node)),
            (
                Actor::Worker(_),
                EventKind::Granted { .. }
                | EventKind::LockSet
                | EventKind::TokenDrawn { .. }
                | EventKind::Denied
                | EventKind::AcquireFailed
                | EventKind::Renewed { .. }
                | EventKind::Released { .. }
                | EventKind::WaitReturned { .. },
            ) if self.setup.redis.topology.has_primary() => self.state.primary.map(Actor::Node),
            (Actor::Db | Actor::Gateway | Actor::Storage | Actor::Dlq | Actor::Tokens, _) => {
                self.acting.map(Actor::Worker)
            }
            _ => None,
        };
        // Text built on a cold path is dropped here; hot paths do not build it at all.
        let (command, reply, why_text) = match self.texts() {
            true => (command, reply, why.text),
            false => (String::new(), String::new(), String::new()),
        };
        self.events.push(Event {
            id,
            at_ms: self.state.now_ms,
            actor,
            kind,
            command,
            reply,
            why: why_text,
            causes,
            peer,
            note: why.note,
        });
        if self.recording == Recording::Frames {
            self.frames.push(self.state.clone());
        }
        id
    }

    /// Whether events carry their text (everything but [`Recording::Facts`]).
    pub(super) fn texts(&self) -> bool {
        self.recording != Recording::Facts
    }

    /// `make()` when events carry text, else an empty string (which does not allocate).
    pub(super) fn text(&self, make: impl FnOnce() -> String) -> String {
        if self.texts() { make() } else { String::new() }
    }

    /// A worker's name, borrowed from the scenario (so it outlives borrows of the world).
    pub(super) fn name(&self, w: WorkerId) -> &'s str {
        let setup: &'s Setup = self.setup;
        setup.workers.get(w.index()).map_or("", |worker| worker.name.as_str())
    }

    /// Prose for an event: its English text and the note it is translated from (nothing
    /// when events carry no text).
    pub(super) fn say(&self, key: &'static str, args: Vec<(&'static str, String)>) -> Said {
        if !self.texts() {
            return Said::default();
        }
        let note = Note::new(key, args);
        Said { text: note.english(), note }
    }

    pub(super) fn record_findings(&mut self, findings: Vec<Finding>) {
        for finding in findings {
            match finding {
                Finding::Violation { property, explanation, note, causes } => {
                    self.emit(
                        Actor::Checker,
                        EventKind::Violation { property, explanation },
                        String::new(),
                        Said { text: String::new(), note },
                        causes,
                    );
                }
                Finding::Warning { kind, explanation, note, causes } => {
                    self.emit(
                        Actor::Checker,
                        EventKind::Warning { kind, explanation },
                        String::new(),
                        Said { text: String::new(), note },
                        causes,
                    );
                }
            }
        }
    }

    /// Records an overlap fact when a second worker starts believing it holds the lock.
    pub(super) fn check_overlap(&mut self) {
        let believers: Vec<WorkerId> = self
            .state
            .workers
            .iter()
            .enumerate()
            .filter(|(_, w)| w.belief.is_some() && w.activity != Activity::Crashed)
            .map(|(i, _)| WorkerId::at(i))
            .collect();
        // A new fact each time the group of believers grows past one.
        let now_overlapping = believers.len();
        if now_overlapping >= 2 && now_overlapping > self.overlapping {
            let names: Vec<&str> =
                believers.iter().map(|&w| self.names[w.index()].as_str()).collect();
            let args = match names.as_slice() {
                [a, b] => ("sim.overlap2", vec![("a", (*a).to_owned()), ("b", (*b).to_owned())]),
                _ => ("sim.overlap_n", vec![("names", names.join(", "))]),
            };
            let text = self.say(args.0, args.1);
            let causes: Vec<EventId> = believers
                .iter()
                .filter_map(|&w| self.state.workers[w.index()].lease.as_ref())
                .map(|lease| lease.granted_by)
                .collect();
            self.emit(
                Actor::Checker,
                EventKind::Overlap { workers: believers },
                String::new(),
                text,
                causes,
            );
        }
        self.overlapping = now_overlapping;
    }

    pub(super) fn set_belief(&mut self, w: WorkerId, belief: Option<Belief>) {
        self.set_belief_quiet(w, belief);
        self.check_overlap();
    }

    /// The id the next emitted event will get (for a state change recorded just before it).
    pub(super) fn next_event_id(&self) -> EventId {
        EventId::at(self.events.len())
    }

    /// Changes a belief without checking for an overlap yet (the caller does, once the
    /// event that caused it is recorded).
    pub(super) fn set_belief_quiet(&mut self, w: WorkerId, belief: Option<Belief>) {
        let now = self.state.now_ms;
        let slot = &mut self.open_spans[w.index()];
        match (&belief, *slot) {
            (Some(_), None) => *slot = Some(now),
            (None, Some(since)) => {
                *slot = None;
                self.closed_spans.push((w, since, now));
            }
            _ => {}
        }
        self.state.workers[w.index()].belief = belief;
    }
}
