//! The run loop: an agenda of due actions over virtual time, applied one atomic step at a
//! time, each recorded as exactly one event (plus the checker's findings about it).
//!
//! Owns the rules that connect the pieces: workers executing their programs, the Redis
//! topology (replication, failover, persistence, clocks), the order row, the gateway and
//! the object store. Time only advances here, to the next due action or key deadline;
//! ties are broken by a sequence number, and all randomness comes from the scenario seed.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use crate::sim::check::{Checker, Finding, WriteFact, secs};
use crate::sim::event::{Actor, Event, EventKind, Note};
use crate::sim::prng::Prng;
use crate::sim::redis::{Command, Effect, Effects, ExpiryRole, Keyspace, Reply, command_text};
use crate::sim::scenario::{
    AcquireHow, Compare, CrashKind, Fault, Guard, KeyStrategy, OnShort, Persistence, ReleaseHow,
    RenewHow, Scenario, StatusCheck, Step, TokenSource, Topology, WriteHow,
};
use crate::sim::script::{self, Script};
use crate::sim::state::{
    Activity, Belief, Charge, Lease, NodeState, OrderRow, Phase, Role, State, StoredObject,
    Watchdog, WorkerState,
};
use crate::sim::token::{token_sql, token_text};

/// No run may record more events than this; a scenario that would is cut short (and its
/// trace says so). Frames cost memory, so a recorded run gets a lower limit.
pub const EVENTS_MAX: usize = 1_000_000;
pub const EVENTS_MAX_WITH_FRAMES: usize = 20_000;

/// What a run keeps: a state frame per event (the player), the events with their text
/// (summaries, the CLI), or the bare facts (many trials).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Recording {
    Frames,
    EventsOnly,
    /// Events without their prose: the `command`, `reply`, `why` and `note` of steps stay
    /// empty, so a step allocates no text. Kinds, actors, times, causes, peers and every
    /// checker finding (with its explanation) are the same as in the other modes (a native
    /// test compares them).
    Facts,
}

/// What a run produced.
pub struct Output {
    pub events: Vec<Event>,
    /// `frames[c]` is the state after the first `c` events (empty with `EventsOnly`).
    pub frames: Vec<State>,
    pub final_state: State,
    /// Whether the run hit its event limit.
    pub truncated: bool,
    /// When each worker believed it held the lock: (worker, from, to).
    pub belief_spans: Vec<(u8, u64, u64)>,
}

pub fn run(scenario: &Scenario, recording: Recording) -> Output {
    let mut world = World::new(scenario, recording);
    world.run();
    let end_ms = world.state.now_ms;
    let mut belief_spans: Vec<(u8, u64, u64)> = world.closed_spans;
    for (w, since) in world.open_spans.iter().enumerate() {
        if let Some(since) = since {
            belief_spans.push((worker_id(w), *since, end_ms));
        }
    }
    belief_spans.sort_unstable();
    Output {
        events: world.events,
        frames: world.frames,
        final_state: world.state,
        truncated: world.truncated,
        belief_spans,
    }
}

#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
enum Action {
    Step { worker: u8, generation: u32 },
    WatchdogTick { worker: u8, generation: u32 },
    Fault { index: u16 },
    Resume { worker: u8, until_ms: u64 },
    Deliver { batch: u32, to: u8 },
    Promote { dead: u8 },
    Restart { node: u8 },
}

#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
struct Due {
    at_ms: u64,
    seq: u64,
    action: Action,
}

struct Batch {
    from: u8,
    incarnation: u32,
    offset: u64,
    effects: Vec<Effect>,
}

/// A worker's scheduling bookkeeping, invisible to the inspector.
#[derive(Clone, Default)]
struct Runtime {
    generation: u32,
    /// The pending main-thread step: when, and whether it is CPU work (stretched by a pause).
    pending: Option<(u64, bool)>,
    watchdog_generation: u32,
    watchdog_due: Option<u64>,
    /// Sub-step of a multi-request step (non-atomic acquire, Redlock, WAIT, lost replies).
    sub: u32,
    /// A request held back by a network delay is sent when the step re-runs at this time.
    delayed_until: Option<u64>,
    /// The primary's replication offset after this worker's last write.
    write_offset: u64,
    /// For WAIT: when it started and how many replicas it wants.
    wait: Option<(u64, i64)>,
    /// For Redlock: when the attempt started and the nodes that said OK.
    redlock_start_ms: u64,
    redlock_ok: Vec<u8>,
    /// The hang's start time, for the hung-watchdog warning.
    hung_since_ms: Option<u64>,
    /// Lease granted on the server while its reply was lost (the worker does not know).
    unknown_lease: Option<u32>,
    /// The token drawn by the first half of incr-then-set.
    drawn_token: Option<(i64, Option<i64>)>,
}

#[derive(Clone, Default)]
struct Persisted {
    durable: Keyspace,
    os: Keyspace,
    last_change_ms: Option<u64>,
    /// What a restart will load (set at crash time).
    restore: Keyspace,
    incarnation: u32,
}

struct World<'s> {
    scenario: &'s Scenario,
    recording: Recording,
    state: State,
    agenda: BinaryHeap<Reverse<Due>>,
    next_seq: u64,
    prng: Prng,
    runtime: Vec<Runtime>,
    batches: Vec<Batch>,
    persisted: Vec<Persisted>,
    lease_seq: u32,
    lost_replies: BTreeSet<(u8, usize, u32)>,
    names: Vec<String>,
    checker: Checker,
    events: Vec<Event>,
    frames: Vec<State>,
    truncated: bool,
    /// The event that last changed the order row (the cause of later rejections).
    last_write_event: Option<u32>,
    /// How many workers believed they held the lock after the last change.
    overlapping: usize,
    blocked: Vec<u8>,
    open_spans: Vec<Option<u64>>,
    closed_spans: Vec<(u8, u64, u64)>,
    /// The worker whose step or watchdog is being applied (the peer of service events).
    acting: Option<u8>,
    /// The prose of the next event, as a translatable note (taken by `emit`).
    pending_note: Note,
}

impl<'s> World<'s> {
    fn new(scenario: &'s Scenario, recording: Recording) -> World<'s> {
        let setup = &scenario.redis;
        let nodes: Vec<NodeState> = setup
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| {
                let role = match (setup.topology, i) {
                    (Topology::Redlock, _) => Role::Peer,
                    (Topology::Replicated, 0) => Role::Primary,
                    (Topology::Replicated, _) => Role::Replica { of: 0 },
                };
                let mut keyspace = Keyspace::new();
                // The counter's history before the run, on every node (already replicated).
                if setup.fence_start != 0 && setup.topology == Topology::Replicated {
                    keyspace.apply(&Effect::Put {
                        key: setup.fence_key.clone(),
                        entry: crate::sim::redis::Entry {
                            value: setup.fence_start.to_string(),
                            expire_at_ms: None,
                        },
                    });
                }
                NodeState {
                    name: node.name.clone(),
                    clock_offset_ms: node.clock_offset_ms,
                    up: true,
                    role,
                    keyspace,
                    offset: 0,
                }
            })
            .collect();
        let primary = match setup.topology {
            Topology::Replicated if !nodes.is_empty() => Some(0),
            _ => None,
        };
        let workers: Vec<WorkerState> = scenario
            .workers
            .iter()
            .map(|w| WorkerState {
                name: w.name.clone(),
                activity: Activity::Waiting,
                phase: Phase::Main,
                pc: 0,
                attempt: 1,
                lease: None,
                belief: None,
                watchdog: None,
                txn_row: None,
                in_txn: false,
                etag_seen: None,
                uploads: Vec::new(),
            })
            .collect();
        let persisted = nodes
            .iter()
            .map(|n| Persisted {
                durable: n.keyspace.clone(),
                os: n.keyspace.clone(),
                ..Persisted::default()
            })
            .collect();
        let state = State {
            now_ms: 0,
            nodes,
            primary,
            token_counter: setup.fence_start,
            order: OrderRow {
                id: scenario.sql.order_id,
                status: "pending".to_owned(),
                amount: scenario.sql.amount,
                last_fence: scenario.sql.last_fence,
                updated_by: String::new(),
            },
            row_lock: None,
            charges: Vec::new(),
            idempotency_keys: Vec::new(),
            objects: Vec::new(),
            dlq: Vec::new(),
            workers,
        };
        let mut world = World {
            scenario,
            recording,
            names: scenario.workers.iter().map(|w| w.name.clone()).collect(),
            runtime: vec![Runtime::default(); scenario.workers.len()],
            state,
            agenda: BinaryHeap::new(),
            next_seq: 0,
            prng: Prng::new(scenario.seed),
            batches: Vec::new(),
            persisted,
            lease_seq: 0,
            lost_replies: BTreeSet::new(),
            checker: Checker::new(scenario.tokens),
            // About one event per step, plus each worker's last event and each fault's:
            // reserving it spares a long run the copies of a growing vector (retries and
            // findings only add to it).
            events: Vec::with_capacity(
                (scenario.workers.iter().map(|w| w.program.len() + 1).sum::<usize>()
                    + scenario.faults.len())
                .min(EVENTS_MAX),
            ),
            frames: Vec::new(),
            truncated: false,
            last_write_event: None,
            overlapping: 0,
            blocked: Vec::new(),
            open_spans: vec![None; scenario.workers.len()],
            closed_spans: Vec::new(),
            acting: None,
            pending_note: Note::default(),
        };
        if recording == Recording::Frames {
            world.frames.push(world.state.clone());
        }
        // Faults are scheduled first, so at equal times they land before worker steps.
        for (index, fault) in scenario.faults.iter().enumerate() {
            let index = u16::try_from(index).unwrap_or(u16::MAX);
            match fault {
                Fault::LoseReply { worker, step, attempt } => {
                    if let Some(w) = world.worker_index(worker) {
                        world.lost_replies.insert((w, *step, *attempt));
                    }
                }
                Fault::Pause { at_ms, .. }
                | Fault::Hang { at_ms, .. }
                | Fault::Crash { at_ms, .. }
                | Fault::CrashNode { at_ms, .. }
                | Fault::ClockJump { at_ms, .. }
                | Fault::SetCounter { at_ms, .. } => {
                    world.schedule(*at_ms, Action::Fault { index })
                }
                // Windows are looked up when a request is sent.
                Fault::Delay { .. } | Fault::Partition { .. } => {}
            }
        }
        for (w, setup) in scenario.workers.iter().enumerate() {
            let w = worker_id(w);
            world.schedule_step(w, setup.start_ms, false);
        }
        world
    }

    fn run(&mut self) {
        loop {
            let next_action = self.agenda.peek().map(|Reverse(due)| due.at_ms);
            let next_expiry = self.next_expiry();
            let expiry_first = match (next_expiry, next_action) {
                (Some((t, _)), Some(a)) => t <= a,
                (Some(_), None) => true,
                _ => false,
            };
            let at_ms = match (expiry_first, next_expiry, next_action) {
                (true, Some((t, _)), _) => t,
                (_, _, Some(a)) => a,
                _ => break,
            };
            if at_ms > self.scenario.until_ms {
                break;
            }
            let limit = match self.recording {
                Recording::Frames => EVENTS_MAX_WITH_FRAMES,
                Recording::EventsOnly | Recording::Facts => EVENTS_MAX,
            };
            if self.events.len() >= limit {
                self.truncated = true;
                break;
            }
            assert!(at_ms >= self.state.now_ms, "virtual time must not go backwards");
            self.state.now_ms = at_ms;
            if expiry_first {
                if let Some((_, node)) = next_expiry {
                    self.expire(node);
                }
                continue;
            }
            // The peek above found an entry.
            let Some(Reverse(due)) = self.agenda.pop() else {
                break;
            };
            self.apply(due.action);
        }
    }

    // ----- scheduling -----

    fn schedule(&mut self, at_ms: u64, action: Action) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.agenda.push(Reverse(Due { at_ms, seq, action }));
    }

    /// Schedules the worker's next main-thread step, replacing any pending one.
    fn schedule_step(&mut self, w: u8, at_ms: u64, cpu: bool) {
        let rt = &mut self.runtime[usize::from(w)];
        rt.generation += 1;
        rt.pending = Some((at_ms, cpu));
        let generation = rt.generation;
        self.schedule(at_ms, Action::Step { worker: w, generation });
    }

    fn cancel_step(&mut self, w: u8) {
        let rt = &mut self.runtime[usize::from(w)];
        rt.generation += 1;
        rt.pending = None;
    }

    fn schedule_watchdog(&mut self, w: u8, at_ms: u64) {
        let rt = &mut self.runtime[usize::from(w)];
        rt.watchdog_generation += 1;
        rt.watchdog_due = Some(at_ms);
        let generation = rt.watchdog_generation;
        self.schedule(at_ms, Action::WatchdogTick { worker: w, generation });
    }

    fn stop_watchdog(&mut self, w: u8) {
        let rt = &mut self.runtime[usize::from(w)];
        rt.watchdog_generation += 1;
        rt.watchdog_due = None;
        self.state.workers[usize::from(w)].watchdog = None;
    }

    fn worker_index(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n == name).map(worker_id)
    }

    fn node_index(&self, name: &str) -> Option<u8> {
        self.state.nodes.iter().position(|n| n.name == name).map(node_id)
    }

    // ----- recording -----

    fn emit(
        &mut self,
        actor: Actor,
        kind: EventKind,
        command: String,
        reply: String,
        causes: Vec<u32>,
    ) -> u32 {
        let id = u32::try_from(self.events.len()).unwrap_or(u32::MAX);
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
            ) if self.scenario.redis.topology == Topology::Replicated => {
                self.state.primary.map(Actor::Node)
            }
            (Actor::Db | Actor::Gateway | Actor::Storage | Actor::Dlq | Actor::Tokens, _) => {
                self.acting.map(Actor::Worker)
            }
            _ => None,
        };
        // Text built on a cold path is dropped here; hot paths do not build it at all.
        let (command, reply) = match self.texts() {
            true => (command, reply),
            false => (String::new(), String::new()),
        };
        self.events.push(Event {
            id,
            at_ms: self.state.now_ms,
            actor,
            kind,
            command,
            reply,
            why: String::new(),
            causes,
            peer,
            note: std::mem::take(&mut self.pending_note),
        });
        if self.recording == Recording::Frames {
            self.frames.push(self.state.clone());
        }
        id
    }

    /// Whether events carry their text (everything but [`Recording::Facts`]).
    fn texts(&self) -> bool {
        self.recording != Recording::Facts
    }

    /// `make()` when events carry text, else an empty string (which does not allocate).
    fn text(&self, make: impl FnOnce() -> String) -> String {
        if self.texts() { make() } else { String::new() }
    }

    /// A worker's name, borrowed from the scenario (so it outlives borrows of the world).
    fn name(&self, w: u8) -> &'s str {
        let scenario: &'s Scenario = self.scenario;
        scenario.workers.get(usize::from(w)).map_or("", |worker| worker.name.as_str())
    }

    /// Sets the prose of the next event and returns its English text.
    fn say(&mut self, key: &'static str, args: Vec<(&'static str, String)>) -> String {
        if !self.texts() {
            return String::new();
        }
        let note = Note::new(key, args);
        let text = note.english();
        self.pending_note = note;
        text
    }

    fn record_findings(&mut self, findings: Vec<Finding>) {
        for finding in findings {
            match finding {
                Finding::Violation { property, explanation, note, causes } => {
                    self.pending_note = note;
                    self.emit(
                        Actor::Checker,
                        EventKind::Violation { property, explanation },
                        String::new(),
                        String::new(),
                        causes,
                    );
                }
                Finding::Warning { kind, explanation, note, causes } => {
                    self.pending_note = note;
                    self.emit(
                        Actor::Checker,
                        EventKind::Warning { kind, explanation },
                        String::new(),
                        String::new(),
                        causes,
                    );
                }
            }
        }
    }

    /// Records an overlap fact when a second worker starts believing it holds the lock.
    fn check_overlap(&mut self) {
        let believers: Vec<u8> = self
            .state
            .workers
            .iter()
            .enumerate()
            .filter(|(_, w)| w.belief.is_some() && w.activity != Activity::Crashed)
            .map(|(i, _)| worker_id(i))
            .collect();
        // A new fact each time the group of believers grows past one.
        let now_overlapping = believers.len();
        if now_overlapping >= 2 && now_overlapping > self.overlapping {
            let names: Vec<&str> =
                believers.iter().map(|&w| self.names[usize::from(w)].as_str()).collect();
            let args = match names.as_slice() {
                [a, b] => ("sim.overlap2", vec![("a", (*a).to_owned()), ("b", (*b).to_owned())]),
                _ => ("sim.overlap_n", vec![("names", names.join(", "))]),
            };
            let text = self.say(args.0, args.1);
            let causes: Vec<u32> = believers
                .iter()
                .filter_map(|&w| self.state.workers[usize::from(w)].lease.as_ref())
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

    fn set_belief(&mut self, w: u8, belief: Option<Belief>) {
        let now = self.state.now_ms;
        let slot = &mut self.open_spans[usize::from(w)];
        match (&belief, *slot) {
            (Some(_), None) => *slot = Some(now),
            (None, Some(since)) => {
                *slot = None;
                self.closed_spans.push((w, since, now));
            }
            _ => {}
        }
        self.state.workers[usize::from(w)].belief = belief;
        self.check_overlap();
    }

    // ----- the actions -----

    fn apply(&mut self, action: Action) {
        match action {
            Action::Step { worker, generation } => {
                if self.runtime[usize::from(worker)].generation == generation {
                    self.runtime[usize::from(worker)].pending = None;
                    self.acting = Some(worker);
                    self.worker_step(worker);
                    self.acting = None;
                }
            }
            Action::WatchdogTick { worker, generation } => {
                if self.runtime[usize::from(worker)].watchdog_generation == generation {
                    self.acting = Some(worker);
                    self.watchdog_tick(worker);
                    self.acting = None;
                }
            }
            Action::Fault { index } => self.apply_fault(usize::from(index)),
            Action::Resume { worker, until_ms } => self.resume(worker, until_ms),
            Action::Deliver { batch, to } => self.deliver(batch, to),
            Action::Promote { dead } => self.promote(dead),
            Action::Restart { node } => self.restart(node),
        }
    }

    fn apply_fault(&mut self, index: usize) {
        let now = self.state.now_ms;
        let fault = self.scenario.faults[index].clone();
        match fault {
            Fault::Pause { worker, pause_ms, .. }
            | Fault::Hang { worker, hang_ms: pause_ms, .. } => {
                let stop_the_world = matches!(self.scenario.faults[index], Fault::Pause { .. });
                let Some(w) = self.worker_index(&worker) else {
                    return;
                };
                let ws = &self.state.workers[usize::from(w)];
                if matches!(ws.activity, Activity::Crashed | Activity::Done) {
                    return;
                }
                let until_ms = now.saturating_add(pause_ms);
                let rt = &self.runtime[usize::from(w)];
                // CPU work in progress is stretched; a wait that ends inside the pause is
                // noticed only when the process runs again.
                if let Some((due, cpu)) = rt.pending {
                    let shifted = if cpu && due > now {
                        due.saturating_add(pause_ms)
                    } else {
                        due.max(until_ms)
                    };
                    self.schedule_step(w, shifted, cpu);
                }
                let kind = if stop_the_world {
                    if let Some(due) = self.runtime[usize::from(w)].watchdog_due {
                        self.schedule_watchdog(w, due.max(until_ms));
                    }
                    self.state.workers[usize::from(w)].activity = Activity::Paused { until_ms };
                    EventKind::Paused { until_ms }
                } else {
                    self.runtime[usize::from(w)].hung_since_ms = Some(now);
                    self.state.workers[usize::from(w)].activity = Activity::Hung { until_ms };
                    EventKind::Hung { until_ms }
                };
                let key = if stop_the_world { "sim.paused" } else { "sim.hung" };
                let text = self.say(key, vec![("d", secs(pause_ms)), ("t", secs(until_ms))]);
                self.emit(Actor::Worker(w), kind, String::new(), text, Vec::new());
                self.schedule(until_ms, Action::Resume { worker: w, until_ms });
            }
            Fault::Crash { worker, .. } => {
                let Some(w) = self.worker_index(&worker) else {
                    return;
                };
                if matches!(
                    self.state.workers[usize::from(w)].activity,
                    Activity::Crashed | Activity::Done
                ) {
                    return;
                }
                self.cancel_step(w);
                self.stop_watchdog(w);
                self.state.workers[usize::from(w)].activity = Activity::Crashed;
                let text = self.say("sim.crashed", Vec::new());
                self.emit(Actor::Worker(w), EventKind::Crashed, String::new(), text, Vec::new());
                self.set_belief(w, None);
                // PostgreSQL aborts the transaction of a dropped connection.
                if self.state.workers[usize::from(w)].in_txn {
                    self.end_txn(w);
                }
            }
            Fault::CrashNode { node, kind, restart_after_ms, .. } => {
                let Some(n) = self.node_index(&node) else {
                    return;
                };
                if !self.state.nodes[usize::from(n)].up {
                    return;
                }
                self.persist_tick(n);
                let p = &mut self.persisted[usize::from(n)];
                p.incarnation += 1;
                let mode = self.scenario.redis.persistence;
                let current = self.state.nodes[usize::from(n)].keyspace.clone();
                p.restore = match (mode, kind) {
                    (Persistence::None, _) => Keyspace::new(),
                    (Persistence::AofAlways, _) => current,
                    (Persistence::Rdb { .. }, _) | (_, CrashKind::Power) => p.durable.clone(),
                    (_, CrashKind::Process) => p.os.clone(),
                };
                let node_state = &mut self.state.nodes[usize::from(n)];
                node_state.up = false;
                node_state.keyspace = Keyspace::new();
                let was_primary = self.state.primary == Some(n);
                if was_primary {
                    self.state.primary = None;
                }
                let power = kind == CrashKind::Power;
                let text = self
                    .say(if power { "sim.power_lost" } else { "sim.process_crashed" }, Vec::new());
                self.emit(
                    Actor::Node(n),
                    EventKind::NodeCrashed { power },
                    String::new(),
                    text,
                    Vec::new(),
                );
                if let (true, Some(after_ms)) = (was_primary, self.scenario.redis.failover_after_ms)
                {
                    self.schedule(now.saturating_add(after_ms), Action::Promote { dead: n });
                }
                if let Some(after_ms) = restart_after_ms {
                    self.schedule(now.saturating_add(after_ms), Action::Restart { node: n });
                }
            }
            Fault::ClockJump { node, jump_ms, .. } => {
                let Some(n) = self.node_index(&node) else {
                    return;
                };
                let node_state = &mut self.state.nodes[usize::from(n)];
                node_state.clock_offset_ms = node_state.clock_offset_ms.saturating_add(jump_ms);
                let jump = format!("{}{jump_ms}", if jump_ms >= 0 { "+" } else { "" });
                let text = self.say("sim.clock_jumped", vec![("jump", jump)]);
                self.emit(
                    Actor::Node(n),
                    EventKind::ClockJumped { jump_ms },
                    String::new(),
                    text,
                    Vec::new(),
                );
            }
            Fault::SetCounter { value, .. } => {
                let Some(n) = self.state.primary else { return };
                let key = self.scenario.redis.fence_key.clone();
                let command = Command::Set {
                    key: key.clone(),
                    value: value.clone(),
                    condition: crate::sim::redis::SetCondition::Always,
                    expiry: crate::sim::redis::SetExpiry::Clear,
                    get: false,
                };
                let reply = self.redis_exec(n, &command);
                let text = self.text(|| command_text(&["SET", &key, &value]));
                self.emit(
                    Actor::Node(n),
                    EventKind::CounterOverwritten,
                    text,
                    self.text(|| reply.to_inline()),
                    Vec::new(),
                );
            }
            Fault::LoseReply { .. } | Fault::Delay { .. } | Fault::Partition { .. } => {}
        }
    }

    fn resume(&mut self, w: u8, until_ms: u64) {
        let ws = &mut self.state.workers[usize::from(w)];
        let matches = matches!(ws.activity, Activity::Paused { until_ms: u } | Activity::Hung { until_ms: u } if u == until_ms);
        if !matches {
            return;
        }
        ws.activity = Activity::Running;
        self.runtime[usize::from(w)].hung_since_ms = None;
        let text = self.say("sim.resumed", Vec::new());
        self.emit(Actor::Worker(w), EventKind::Resumed, String::new(), text, Vec::new());
    }

    // ----- Redis topology -----

    /// The global time of the next key deadline on a node that expires keys itself.
    fn next_expiry(&self) -> Option<(u64, u8)> {
        let mut best: Option<(u64, u8)> = None;
        for (i, node) in self.state.nodes.iter().enumerate() {
            if !node.up || matches!(node.role, Role::Replica { .. }) {
                continue;
            }
            let Some(deadline) = node.keyspace.next_deadline_ms() else {
                continue;
            };
            // A key is expired once the node's clock is past its deadline.
            let global = deadline.saturating_add(1).saturating_sub(node.clock_offset_ms).max(0);
            let global = u64::try_from(global).unwrap_or(0).max(self.state.now_ms);
            if best.is_none_or(|(t, _)| global < t) {
                best = Some((global, node_id(i)));
            }
        }
        best
    }

    fn expire(&mut self, n: u8) {
        let now_node = self.state.nodes[usize::from(n)].clock_ms(self.state.now_ms);
        self.persist_tick(n);
        // Who held each expiring key, for the event's cause (before the keys are gone).
        let holders: Vec<(String, String)> = self.state.nodes[usize::from(n)]
            .keyspace
            .iter()
            .filter(|(_, entry)| entry.expire_at_ms.is_some_and(|deadline| now_node > deadline))
            .map(|(key, entry)| (key.clone(), entry.value.clone()))
            .collect();
        let keys = self.state.nodes[usize::from(n)].keyspace.expire_due(now_node);
        let mut effects = self.effects_for(n);
        for key in &keys {
            effects.record(|| Effect::Delete { key: key.clone() });
        }
        self.persist_after(n);
        for (key, value) in holders {
            let node = self.state.nodes[usize::from(n)].name.clone();
            let text = self.say("sim.expired", vec![("key", key.clone()), ("node", node)]);
            let causes = self.grant_of_value(&value).into_iter().collect();
            self.emit(Actor::Node(n), EventKind::Expired { key }, String::new(), text, causes);
        }
        if self.state.primary == Some(n) {
            self.replicate(n, effects);
        }
    }

    /// The grant event of the worker whose lock value is `value` (its latest lease).
    fn grant_of_value(&self, value: &str) -> Option<u32> {
        self.state
            .workers
            .iter()
            .filter_map(|w| w.lease.as_ref())
            .filter(|lease| lease.value == value)
            .max_by_key(|lease| lease.seq)
            .map(|lease| lease.granted_by)
    }

    fn redis_exec(&mut self, n: u8, command: &Command) -> Reply {
        self.on_node(n, |keyspace, now_ms, role, effects| {
            keyspace.exec_into(command, now_ms, role, effects)
        })
    }

    fn redis_script(
        &mut self,
        n: u8,
        script: Script,
        keys: &[impl AsRef<str>],
        args: &[impl AsRef<str>],
    ) -> Reply {
        self.on_node(n, |keyspace, now_ms, role, effects| {
            script.run(keyspace, keys, args, now_ms, role, effects)
        })
    }

    /// Runs one request on node `n` at its clock: persistence before and after, and the
    /// effects replicated (or only counted, see [`World::effects_for`]).
    fn on_node(
        &mut self,
        n: u8,
        request: impl FnOnce(&mut Keyspace, i64, ExpiryRole, &mut Effects) -> Reply,
    ) -> Reply {
        let node = &self.state.nodes[usize::from(n)];
        let now_node = node.clock_ms(self.state.now_ms);
        let role = expiry_role(node.role);
        self.persist_tick(n);
        let mut effects = self.effects_for(n);
        let reply =
            request(&mut self.state.nodes[usize::from(n)].keyspace, now_node, role, &mut effects);
        self.after_effects(n, effects);
        reply
    }

    /// Node `n`'s effects are needed as values only when it is the primary and a live
    /// replica follows it; otherwise they are only counted.
    fn effects_for(&self, n: u8) -> Effects {
        let replicated = self.state.primary == Some(n)
            && self.state.nodes.iter().any(|node| node.up && node.role == Role::Replica { of: n });
        if replicated { Effects::kept() } else { Effects::counted() }
    }

    fn after_effects(&mut self, n: u8, effects: Effects) {
        if effects.count() == 0 {
            return;
        }
        self.persist_after(n);
        if self.state.primary == Some(n) {
            self.replicate(n, effects);
        }
    }

    /// Sends one batch (a command's or a whole script's effects) to every replica.
    fn replicate(&mut self, from: u8, effects: Effects) {
        if effects.count() == 0 {
            return;
        }
        let replicas: Vec<u8> = self.replicas_of(from);
        let node = &mut self.state.nodes[usize::from(from)];
        node.offset += 1;
        // No replica, no batch to keep: a single node must not accumulate every write's
        // effects for the whole run (it did, and it cost the hand-off benchmark dearly).
        if replicas.is_empty() {
            return;
        }
        let batch = u32::try_from(self.batches.len()).unwrap_or(u32::MAX);
        self.batches.push(Batch {
            from,
            incarnation: self.persisted[usize::from(from)].incarnation,
            offset: node.offset,
            effects: effects.into_vec(),
        });
        let at_ms = self.state.now_ms.saturating_add(self.scenario.redis.lag_ms);
        for r in replicas {
            self.schedule(at_ms, Action::Deliver { batch, to: r });
        }
    }

    fn replicas_of(&self, primary: u8) -> Vec<u8> {
        self.state
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.up && node.role == Role::Replica { of: primary })
            .map(|(i, _)| node_id(i))
            .collect()
    }

    fn deliver(&mut self, batch: u32, to: u8) {
        let b = &self.batches[batch as usize];
        let from = b.from;
        // A batch still in the primary's output buffer dies with the primary.
        let sender_alive = self.state.nodes[usize::from(from)].up
            && self.persisted[usize::from(from)].incarnation == b.incarnation;
        let target = &self.state.nodes[usize::from(to)];
        if !sender_alive
            || !target.up
            || target.role != (Role::Replica { of: from })
            || target.offset >= b.offset
        {
            return;
        }
        let effects = b.effects.clone();
        let offset = b.offset;
        self.persist_tick(to);
        for effect in &effects {
            self.state.nodes[usize::from(to)].keyspace.apply(effect);
        }
        self.state.nodes[usize::from(to)].offset = offset;
        self.persist_after(to);
        let summary: Vec<String> = effects.iter().map(effect_text).collect();
        let n_effects = u32::try_from(effects.len()).unwrap_or(u32::MAX);
        self.emit(
            Actor::Node(to),
            EventKind::Replicated { from, n_effects },
            summary.join("; "),
            String::new(),
            Vec::new(),
        );
    }

    fn promote(&mut self, dead: u8) {
        if self.state.nodes[usize::from(dead)].up || self.state.primary.is_some() {
            return;
        }
        let candidate = self
            .state
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.up && node.role == Role::Replica { of: dead })
            .max_by_key(|(i, node)| (node.offset, Reverse(*i)))
            .map(|(i, _)| node_id(i));
        let Some(c) = candidate else { return };
        for node in &mut self.state.nodes {
            if node.role == (Role::Replica { of: dead }) {
                node.role = Role::Replica { of: c };
            }
        }
        self.state.nodes[usize::from(c)].role = Role::Primary;
        self.state.primary = Some(c);
        let node = self.state.nodes[usize::from(c)].name.clone();
        let text = self.say("sim.promoted", vec![("node", node)]);
        self.emit(
            Actor::Node(c),
            EventKind::Promoted,
            "REPLICAOF NO ONE".to_owned(),
            text,
            Vec::new(),
        );
    }

    fn restart(&mut self, n: u8) {
        if self.state.nodes[usize::from(n)].up {
            return;
        }
        let now_node = self.state.nodes[usize::from(n)].clock_ms(self.state.now_ms);
        let mut keyspace = self.persisted[usize::from(n)].restore.clone();
        // Deadlines are absolute: keys whose time passed while down are not loaded.
        keyspace.expire_due(now_node);
        let n_keys = u32::try_from(keyspace.len()).unwrap_or(u32::MAX);
        let was_primary = self.state.nodes[usize::from(n)].role == Role::Primary;
        {
            let node = &mut self.state.nodes[usize::from(n)];
            node.up = true;
            node.keyspace = keyspace;
        }
        let p = &mut self.persisted[usize::from(n)];
        p.last_change_ms = Some(self.state.now_ms);
        p.durable = self.state.nodes[usize::from(n)].keyspace.clone();
        p.os = p.durable.clone();
        let text = self.say("sim.restarted", vec![("n", n_keys.to_string())]);
        self.emit(
            Actor::Node(n),
            EventKind::NodeRestarted { n_keys },
            String::new(),
            text,
            Vec::new(),
        );
        match self.state.primary {
            None if was_primary => {
                // Back as primary: its replicas resynchronise from it, whatever it lost.
                self.state.primary = Some(n);
                for r in self.replicas_of(n) {
                    self.resync(r, n);
                }
            }
            Some(p) if p != n => {
                self.state.nodes[usize::from(n)].role = Role::Replica { of: p };
                self.resync(n, p);
            }
            _ => {}
        }
    }

    fn resync(&mut self, replica: u8, from: u8) {
        let data = self.state.nodes[usize::from(from)].keyspace.clone();
        let offset = self.state.nodes[usize::from(from)].offset;
        let n_keys = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let node = &mut self.state.nodes[usize::from(replica)];
        node.keyspace = data;
        node.offset = offset;
        self.persist_after(replica);
        let from_name = self.state.nodes[usize::from(from)].name.clone();
        let text = self.say("sim.resynced", vec![("from", from_name), ("n", n_keys.to_string())]);
        self.emit(
            Actor::Node(replica),
            EventKind::Resynced { from, n_keys },
            String::new(),
            text,
            Vec::new(),
        );
    }

    /// Before a change: a periodic fsync or snapshot since the last change captured the
    /// state as it was then.
    fn persist_tick(&mut self, n: u8) {
        let period_ms = match self.scenario.redis.persistence {
            Persistence::Rdb { every_ms } => every_ms.max(1),
            Persistence::AofEverysec => 1_000,
            Persistence::AofNo => 30_000,
            Persistence::None | Persistence::AofAlways => return,
        };
        let now = self.state.now_ms;
        let p = &mut self.persisted[usize::from(n)];
        if let Some(last) = p.last_change_ms
            && now / period_ms > last / period_ms
        {
            p.durable = self.state.nodes[usize::from(n)].keyspace.clone();
        }
    }

    /// After a change: what reached the OS (AOF) or the disk (`always`).
    fn persist_after(&mut self, n: u8) {
        let now = self.state.now_ms;
        let mode = self.scenario.redis.persistence;
        let current = &self.state.nodes[usize::from(n)].keyspace;
        let p = &mut self.persisted[usize::from(n)];
        match mode {
            Persistence::None => return,
            Persistence::AofAlways => {
                p.durable = current.clone();
                p.os = current.clone();
            }
            Persistence::AofEverysec | Persistence::AofNo => p.os = current.clone(),
            Persistence::Rdb { .. } => {}
        }
        p.last_change_ms = Some(now);
    }

    /// The node a worker sends lock commands to, or the node it cannot reach.
    fn lock_node(&self, w: u8) -> Result<u8, Option<u8>> {
        let Some(p) = self.state.primary else {
            return Err(None);
        };
        if !self.state.nodes[usize::from(p)].up || self.partitioned(w, p) {
            return Err(Some(p));
        }
        Ok(p)
    }

    fn partitioned(&self, w: u8, n: u8) -> bool {
        let now = self.state.now_ms;
        let name = &self.names[usize::from(w)];
        let node = &self.state.nodes[usize::from(n)].name;
        self.scenario.faults.iter().any(|fault| match fault {
            Fault::Partition { worker, node: target, at_ms, partition_ms } => {
                worker == name
                    && target == node
                    && now >= *at_ms
                    && now < at_ms.saturating_add(*partition_ms)
            }
            _ => false,
        })
    }

    fn network_delay(&self, w: u8) -> Option<u64> {
        let now = self.state.now_ms;
        let name = &self.names[usize::from(w)];
        self.scenario.faults.iter().find_map(|fault| match fault {
            Fault::Delay { worker, at_ms, window_ms, delay_ms }
                if worker == name && now >= *at_ms && now < at_ms.saturating_add(*window_ms) =>
            {
                Some(*delay_ms)
            }
            _ => None,
        })
    }

    // ----- workers -----

    fn steps(&self, w: u8) -> &'s [Step] {
        let setup = &self.scenario.workers[usize::from(w)];
        match self.state.workers[usize::from(w)].phase {
            Phase::Main => &setup.program,
            Phase::Rejected => &setup.on_rejected,
        }
    }

    fn worker_step(&mut self, w: u8) {
        let now = self.state.now_ms;
        match self.state.workers[usize::from(w)].activity {
            Activity::Crashed | Activity::Done => return,
            Activity::Paused { until_ms } | Activity::Hung { until_ms } => {
                self.schedule_step(w, until_ms.max(now), false);
                return;
            }
            Activity::Waiting | Activity::Blocked => {
                self.state.workers[usize::from(w)].activity = Activity::Running
            }
            Activity::Running => {}
        }
        let pc = self.state.workers[usize::from(w)].pc;
        let steps = self.steps(w);
        let Some(step) = steps.get(pc) else {
            self.finish(w, "sim.finished");
            return;
        };
        // A request sent inside a delay window reaches the server late.
        let talks =
            !matches!(step, Step::Compute { .. } | Step::Sleep { .. } | Step::Watchdog { .. });
        if talks
            && self.runtime[usize::from(w)].delayed_until != Some(now)
            && let Some(delay_ms) = self.network_delay(w)
        {
            let at_ms = now.saturating_add(delay_ms);
            self.runtime[usize::from(w)].delayed_until = Some(at_ms);
            self.schedule_step(w, at_ms, false);
            return;
        }
        self.runtime[usize::from(w)].delayed_until = None;
        match step {
            Step::Acquire { how, ttl_ms, retry_every_ms, attempts } => {
                self.step_acquire(w, *how, *ttl_ms, *retry_every_ms, *attempts);
            }
            Step::WaitReplicas { replicas, timeout_ms, on_short } => {
                self.step_wait(w, *replicas, *timeout_ms, *on_short);
            }
            Step::Compute { ms } => self.advance_after(w, *ms, true),
            Step::Sleep { ms } => self.advance_after(w, *ms, false),
            Step::Read { compare } => self.step_read(w, *compare),
            Step::Write { how, status, from, attempts, backoff_ms } => {
                self.step_write(w, *how, status, from.as_deref(), *attempts, *backoff_ms);
            }
            Step::Charge { key, attempts, backoff_ms } => {
                self.step_charge(w, *key, *attempts, *backoff_ms);
            }
            Step::PutObject { if_match } => self.step_put_object(w, *if_match),
            Step::DeleteOwnObjects => self.step_delete_objects(w),
            Step::Reread => self.step_reread(w),
            Step::SendToDlq => {
                let entry =
                    format!("order {} from {}", self.state.order.id, self.names[usize::from(w)]);
                self.state.dlq.push(entry.clone());
                let command = format!("SEND dlq {}", crate::sim::redis::quote_cli(&entry));
                self.emit(
                    Actor::Dlq,
                    EventKind::SentToDlq,
                    command,
                    "queued".to_owned(),
                    Vec::new(),
                );
                self.advance_after(w, 0, false);
            }
            Step::Watchdog { interval_ms, how } => {
                let ttl_ms =
                    self.state.workers[usize::from(w)].lease.as_ref().map_or(30_000, |l| l.ttl_ms);
                let interval_ms = interval_ms.unwrap_or(ttl_ms / 3).max(1);
                self.state.workers[usize::from(w)].watchdog =
                    Some(Watchdog { interval_ms, how: *how });
                self.schedule_watchdog(w, now.saturating_add(interval_ms));
                self.advance_after(w, 0, false);
            }
            Step::Release { how } => self.step_release(w, *how),
            Step::Begin => {
                let ws = &mut self.state.workers[usize::from(w)];
                ws.in_txn = true;
                ws.txn_row = None;
                self.emit(
                    Actor::Worker(w),
                    EventKind::Began,
                    self.text(|| "BEGIN".to_owned()),
                    self.text(|| "BEGIN".to_owned()),
                    Vec::new(),
                );
                self.advance_after(w, 0, false);
            }
            Step::SelectForUpdate => self.step_select_for_update(w),
            Step::Commit => {
                let changed = self.state.workers[usize::from(w)].txn_row.clone();
                if let Some(row) = changed {
                    self.state.order = row;
                }
                self.end_txn(w);
                self.emit(
                    Actor::Worker(w),
                    EventKind::Committed,
                    self.text(|| "COMMIT".to_owned()),
                    self.text(|| "COMMIT".to_owned()),
                    Vec::new(),
                );
                self.advance_after(w, 0, false);
            }
            Step::Rollback => {
                self.end_txn(w);
                self.emit(
                    Actor::Worker(w),
                    EventKind::RolledBack,
                    self.text(|| "ROLLBACK".to_owned()),
                    self.text(|| "ROLLBACK".to_owned()),
                    Vec::new(),
                );
                self.advance_after(w, 0, false);
            }
        }
    }

    /// Moves to the next step after `after_ms`.
    fn advance_after(&mut self, w: u8, after_ms: u64, cpu: bool) {
        let ws = &mut self.state.workers[usize::from(w)];
        ws.pc += 1;
        ws.attempt = 1;
        self.runtime[usize::from(w)].sub = 0;
        let at_ms = self.state.now_ms.saturating_add(after_ms);
        self.schedule_step(w, at_ms, cpu);
    }

    /// Runs the same step again after `after_ms` (the next attempt).
    fn retry_after(&mut self, w: u8, after_ms: u64) {
        self.state.workers[usize::from(w)].attempt += 1;
        self.runtime[usize::from(w)].sub = 0;
        let at_ms = self.state.now_ms.saturating_add(after_ms);
        self.schedule_step(w, at_ms, false);
    }

    fn finish(&mut self, w: u8, why: &'static str) {
        self.end(w, EventKind::Finished, why);
    }

    /// Stops the worker for good, recording why (a note key) as its last event (`kind`).
    fn end(&mut self, w: u8, kind: EventKind, why: &'static str) {
        self.cancel_step(w);
        self.stop_watchdog(w);
        if self.state.workers[usize::from(w)].in_txn {
            self.end_txn(w);
        }
        self.state.workers[usize::from(w)].activity = Activity::Done;
        let text = self.say(why, Vec::new());
        self.emit(Actor::Worker(w), kind, String::new(), text, Vec::new());
        self.set_belief(w, None);
    }

    /// After a fenced-off write (or failed check): run `on_rejected`, or stop.
    fn fenced_off(&mut self, w: u8) {
        self.set_belief(w, None);
        let has_handler = !self.scenario.workers[usize::from(w)].on_rejected.is_empty();
        let ws = &mut self.state.workers[usize::from(w)];
        if has_handler && ws.phase == Phase::Main {
            ws.phase = Phase::Rejected;
            ws.pc = 0;
            ws.attempt = 1;
            self.runtime[usize::from(w)].sub = 0;
            let now = self.state.now_ms;
            self.schedule_step(w, now, false);
        } else {
            self.finish(w, "sim.fenced_off");
        }
    }

    /// Whether the reply to this step's current attempt is lost.
    fn reply_lost(&self, w: u8) -> bool {
        let ws = &self.state.workers[usize::from(w)];
        ws.phase == Phase::Main && self.lost_replies.contains(&(w, ws.pc, ws.attempt))
    }

    /// The worker times out waiting for a lost reply, then retries or gives up.
    fn after_lost_reply(&mut self, w: u8, attempts: u32) {
        let timeout_ms = self.scenario.workers[usize::from(w)].reply_timeout_ms;
        self.runtime[usize::from(w)].sub = LOST_REPLY;
        let at_ms = self.state.now_ms.saturating_add(timeout_ms);
        self.schedule_step(w, at_ms, false);
        let _ = attempts;
    }

    /// Handles the re-entry after a lost reply's timeout; returns true if it did.
    fn handle_lost_reply_timeout(&mut self, w: u8, attempts: u32, backoff_ms: u64) -> bool {
        if self.runtime[usize::from(w)].sub != LOST_REPLY {
            return false;
        }
        self.runtime[usize::from(w)].sub = 0;
        let attempt = self.state.workers[usize::from(w)].attempt;
        let retry = attempt < attempts;
        let delay_ms = backoff_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
        let text = match (retry, delay_ms) {
            (true, 0) => self.say("sim.lost_retry", Vec::new()),
            (true, _) => self.say("sim.lost_retry_in", vec![("d", secs(delay_ms))]),
            (false, _) => self.say("sim.lost_give_up", Vec::new()),
        };
        self.emit(Actor::Worker(w), EventKind::ReplyLost, String::new(), text, Vec::new());
        if retry {
            self.retry_after(w, delay_ms);
        } else {
            self.end(w, EventKind::GaveUp, "sim.gave_up_lost");
        }
        true
    }

    fn unreachable(&mut self, w: u8, node: Option<u8>, retry_every_ms: u64, attempts: u32) {
        let text = match node {
            Some(n) => {
                let name = self.state.nodes[usize::from(n)].name.clone();
                self.say("sim.unreachable", vec![("node", name)])
            }
            None => self.say("sim.no_primary", Vec::new()),
        };
        self.emit(
            Actor::Worker(w),
            EventKind::Unreachable { node: node.unwrap_or(u8::MAX) },
            String::new(),
            text,
            Vec::new(),
        );
        if self.state.workers[usize::from(w)].attempt < attempts {
            self.retry_after(w, retry_every_ms);
        } else {
            self.end(w, EventKind::GaveUp, "sim.gave_up");
        }
    }

    /// Records a grant. `drawn` is the token with the counter's high-water mark if the
    /// draw went backwards (see [`World::note_draw`]).
    fn new_lease(
        &mut self,
        w: u8,
        ttl_ms: u64,
        drawn: Option<(i64, Option<i64>)>,
        event: u32,
        known: bool,
    ) -> u32 {
        self.lease_seq += 1;
        let seq = self.lease_seq;
        self.checker.on_grant(seq, w, event, self.state.now_ms);
        let token = drawn.map(|(token, _)| token);
        if let Some((token, reset)) = drawn {
            let findings = self.checker.on_token(seq, token, reset, &self.names);
            self.record_findings(findings);
        }
        let lease = Lease {
            seq,
            value: self.names[usize::from(w)].clone(),
            token,
            ttl_ms,
            granted_by: event,
        };
        if known {
            self.state.workers[usize::from(w)].lease = Some(lease);
            let belief = Belief {
                since_ms: self.state.now_ms,
                until_ms: self.state.now_ms.saturating_add(ttl_ms),
                token,
            };
            self.set_belief(w, Some(belief));
        } else {
            self.runtime[usize::from(w)].unknown_lease = Some(seq);
        }
        seq
    }

    /// Tells the checker a token was drawn from the source; returns the previous high-water
    /// mark if the counter went backwards (a reset). Random UUIDs have no order to break.
    fn note_draw(&mut self, token: i64) -> Option<i64> {
        match self.scenario.tokens {
            TokenSource::Uuid => None,
            _ => self.checker.on_draw(token),
        }
    }

    fn draw_token(&mut self) -> i64 {
        match self.scenario.tokens {
            TokenSource::Uuid => i64::try_from(self.prng.next_u64() >> 1).unwrap_or(0),
            _ => {
                self.state.token_counter = self.state.token_counter.saturating_add(1);
                self.state.token_counter
            }
        }
    }

    fn step_acquire(
        &mut self,
        w: u8,
        how: AcquireHow,
        ttl_ms: u64,
        retry_every_ms: u64,
        attempts: u32,
    ) {
        if self.handle_lost_reply_timeout(w, attempts, 0) {
            return;
        }
        if how == AcquireHow::Redlock {
            self.step_redlock(w, ttl_ms, retry_every_ms, attempts);
            return;
        }
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(node) => return self.unreachable(w, node, retry_every_ms, attempts),
        };
        let scenario: &'s Scenario = self.scenario;
        let name = self.name(w);
        let lock_key = scenario.redis.lock_key.as_str();
        let fence_key = scenario.redis.fence_key.as_str();
        let mut ttl_digits = [0u8; 20];
        let ttl_text = decimal(ttl_ms, &mut ttl_digits);
        let sub = self.runtime[usize::from(w)].sub;
        let lost = self.reply_lost(w);
        let latency_ms = 1;
        let redis_tokens = self.scenario.tokens == TokenSource::RedisIncr;
        match (how, sub) {
            (AcquireHow::Script, _) if redis_tokens => {
                let reply = self.redis_script(
                    n,
                    Script::Acquire,
                    &[lock_key, fence_key],
                    &[name, ttl_text],
                );
                let command = self.text(|| {
                    self.text(|| {
                        command_text(&[
                            "EVAL",
                            Script::Acquire.label(),
                            "2",
                            lock_key,
                            fence_key,
                            name,
                            ttl_text,
                        ])
                    })
                });
                match reply {
                    Reply::Array(ref items) if items.first() == Some(&Reply::Int(1)) => {
                        let token = match items.get(1) {
                            Some(Reply::Int(t)) => Some(*t),
                            _ => None,
                        };
                        let event = self.emit(
                            Actor::Worker(w),
                            EventKind::Granted { token },
                            command,
                            self.text(|| reply.to_inline()),
                            Vec::new(),
                        );
                        let drawn = token.map(|t| (t, self.note_draw(t)));
                        self.new_lease(w, ttl_ms, drawn, event, !lost);
                        if lost {
                            return self.after_lost_reply(w, attempts);
                        }
                        self.advance_after(w, 0, false);
                    }
                    Reply::Error(_) => {
                        let lock_set = self.state.nodes[usize::from(n)]
                            .keyspace
                            .peek(
                                lock_key,
                                self.state.nodes[usize::from(n)].clock_ms(self.state.now_ms),
                            )
                            .is_some_and(|e| e.value == name);
                        self.emit(
                            Actor::Worker(w),
                            EventKind::AcquireFailed,
                            command,
                            self.text(|| reply.to_inline()),
                            Vec::new(),
                        );
                        if lock_set {
                            // The SET stayed (no rollback): a lease nobody can use until its TTL.
                            self.lease_seq += 1;
                        }
                        self.denied_retry(w, retry_every_ms, attempts);
                    }
                    _ => {
                        self.emit(
                            Actor::Worker(w),
                            EventKind::Denied,
                            command,
                            self.text(|| reply.to_inline()),
                            Vec::new(),
                        );
                        if lost {
                            return self.after_lost_reply(w, attempts);
                        }
                        self.denied_retry(w, retry_every_ms, attempts);
                    }
                }
            }
            // A plain `SET NX PX`, first half of set-then-incr, or the lock of another token source.
            (AcquireHow::Script | AcquireHow::SetThenIncr, 0) | (AcquireHow::IncrThenSet, 1) => {
                let now_node = self.state.nodes[usize::from(n)].clock_ms(self.state.now_ms);
                let deadline = now_node.saturating_add(i64::try_from(ttl_ms).unwrap_or(i64::MAX));
                let reply = self.redis_exec(n, &script::set_nx_px(lock_key, name, deadline));
                let command =
                    self.text(|| command_text(&["SET", lock_key, name, "NX", "PX", ttl_text]));
                let granted = reply == Reply::Ok;
                let draws_later = how == AcquireHow::SetThenIncr
                    || (how == AcquireHow::Script && self.scenario.tokens != TokenSource::None);
                if !granted {
                    self.emit(
                        Actor::Worker(w),
                        EventKind::Denied,
                        command,
                        self.text(|| reply.to_inline()),
                        Vec::new(),
                    );
                    return self.denied_retry(w, retry_every_ms, attempts);
                }
                let drawn = match how {
                    AcquireHow::IncrThenSet => self.runtime[usize::from(w)].drawn_token.take(),
                    _ => None,
                };
                let token = drawn.map(|(token, _)| token);
                let kind =
                    if draws_later { EventKind::LockSet } else { EventKind::Granted { token } };
                let event = self.emit(
                    Actor::Worker(w),
                    kind,
                    command,
                    self.text(|| reply.to_inline()),
                    Vec::new(),
                );
                self.new_lease(w, ttl_ms, drawn, event, true);
                if draws_later {
                    self.runtime[usize::from(w)].sub = 1;
                    let at_ms = self.state.now_ms.saturating_add(latency_ms);
                    self.schedule_step(w, at_ms, false);
                } else {
                    self.advance_after(w, 0, false);
                }
            }
            // The token, drawn after the lock (second request).
            (AcquireHow::Script | AcquireHow::SetThenIncr, _) => {
                let (token, command, reply_text) = if redis_tokens {
                    let reply = self.redis_exec(n, &Command::Incr { key: fence_key.to_owned() });
                    let token = match reply {
                        Reply::Int(t) => Some(t),
                        _ => None,
                    };
                    (
                        token,
                        self.text(|| command_text(&["INCR", fence_key])),
                        self.text(|| reply.to_inline()),
                    )
                } else {
                    let token = self.draw_token();
                    (Some(token), self.token_command(), token_text(self.scenario.tokens, token))
                };
                let actor = if redis_tokens { Actor::Worker(w) } else { Actor::Tokens };
                match token {
                    Some(token) => {
                        let seq = self.state.workers[usize::from(w)].lease.as_ref().map(|l| l.seq);
                        self.emit(
                            actor,
                            EventKind::TokenDrawn { token },
                            command,
                            reply_text,
                            Vec::new(),
                        );
                        if let Some(seq) = seq {
                            let reset = self.note_draw(token);
                            let findings = self.checker.on_token(seq, token, reset, &self.names);
                            self.record_findings(findings);
                        }
                        let ws = &mut self.state.workers[usize::from(w)];
                        if let Some(lease) = ws.lease.as_mut() {
                            lease.token = Some(token);
                        }
                        if let Some(belief) = ws.belief.as_mut() {
                            belief.token = Some(token);
                        }
                        self.advance_after(w, 0, false);
                    }
                    None => {
                        self.emit(actor, EventKind::AcquireFailed, command, reply_text, Vec::new());
                        self.finish(w, "sim.no_token");
                    }
                }
            }
            // INCR first, then SET NX PX.
            (AcquireHow::IncrThenSet, _) => {
                let reply = self.redis_exec(n, &Command::Incr { key: fence_key.to_owned() });
                let command = self.text(|| command_text(&["INCR", fence_key]));
                match reply {
                    Reply::Int(token) => {
                        self.emit(
                            Actor::Worker(w),
                            EventKind::TokenDrawn { token },
                            command,
                            self.text(|| reply.to_inline()),
                            Vec::new(),
                        );
                        let reset = self.note_draw(token);
                        self.runtime[usize::from(w)].drawn_token = Some((token, reset));
                        self.runtime[usize::from(w)].sub = 1;
                        let at_ms = self.state.now_ms.saturating_add(latency_ms);
                        self.schedule_step(w, at_ms, false);
                    }
                    _ => {
                        self.emit(
                            Actor::Worker(w),
                            EventKind::AcquireFailed,
                            command,
                            self.text(|| reply.to_inline()),
                            Vec::new(),
                        );
                        self.finish(w, "sim.no_token");
                    }
                }
            }
            (AcquireHow::Redlock, _) => {}
        }
    }

    fn token_command(&self) -> String {
        match self.scenario.tokens {
            TokenSource::Consensus => "TXN put fence:counter (revision +1)".to_owned(),
            TokenSource::PgSequence => "SELECT nextval('fence_seq')".to_owned(),
            TokenSource::Uuid => "uuid4()".to_owned(),
            TokenSource::RedisIncr | TokenSource::None => String::new(),
        }
    }

    fn denied_retry(&mut self, w: u8, retry_every_ms: u64, attempts: u32) {
        if self.state.workers[usize::from(w)].attempt < attempts {
            self.retry_after(w, retry_every_ms);
        } else {
            self.end(w, EventKind::GaveUp, "sim.gave_up_busy");
        }
    }

    fn step_redlock(&mut self, w: u8, ttl_ms: u64, retry_every_ms: u64, attempts: u32) {
        let now = self.state.now_ms;
        let sub = self.runtime[usize::from(w)].sub;
        let n_nodes = self.state.nodes.len();
        if sub == 0 {
            self.runtime[usize::from(w)].redlock_start_ms = now;
            self.runtime[usize::from(w)].redlock_ok.clear();
        }
        let index = usize::try_from(sub).unwrap_or(usize::MAX);
        if index < n_nodes {
            let n = node_id(index);
            let name = self.names[usize::from(w)].clone();
            let lock_key = self.scenario.redis.lock_key.clone();
            let ttl_text = ttl_ms.to_string();
            let command =
                self.text(|| command_text(&["SET", &lock_key, &name, "NX", "PX", &ttl_text]));
            let ok = if self.state.nodes[usize::from(n)].up && !self.partitioned(w, n) {
                let now_node = self.state.nodes[usize::from(n)].clock_ms(now);
                let deadline = now_node.saturating_add(i64::try_from(ttl_ms).unwrap_or(i64::MAX));
                let reply = self.redis_exec(n, &script::set_nx_px(&lock_key, &name, deadline));
                let ok = reply == Reply::Ok;
                self.emit(
                    Actor::Worker(w),
                    EventKind::NodeLocked { node: n, ok },
                    format!("{} @{}", command, self.state.nodes[usize::from(n)].name),
                    self.text(|| reply.to_inline()),
                    Vec::new(),
                );
                ok
            } else {
                let name = self.state.nodes[usize::from(n)].name.clone();
                let text = self.say("sim.unreachable", vec![("node", name)]);
                self.emit(
                    Actor::Worker(w),
                    EventKind::NodeLocked { node: n, ok: false },
                    format!("{} @{}", command, self.state.nodes[usize::from(n)].name),
                    text,
                    Vec::new(),
                );
                false
            };
            if ok {
                self.runtime[usize::from(w)].redlock_ok.push(n);
            }
            self.runtime[usize::from(w)].sub = sub + 1;
            // Each node is a separate round trip.
            self.schedule_step(w, now.saturating_add(1), false);
            return;
        }
        let start = self.runtime[usize::from(w)].redlock_start_ms;
        let elapsed_ms = now.saturating_sub(start);
        let oks = self.runtime[usize::from(w)].redlock_ok.len();
        let majority = n_nodes / 2 + 1;
        let command = format!("majority {oks}/{n_nodes} in {elapsed_ms} ms");
        if oks >= majority && elapsed_ms < ttl_ms {
            let validity_ms = ttl_ms - elapsed_ms;
            let event = self.emit(
                Actor::Worker(w),
                EventKind::Granted { token: None },
                command,
                format!("locked, valid {} ms", validity_ms),
                Vec::new(),
            );
            self.new_lease(w, validity_ms, None, event, true);
            if let Some(belief) = self.state.workers[usize::from(w)].belief.as_mut() {
                belief.since_ms = start;
                belief.until_ms = start.saturating_add(validity_ms);
            }
            self.advance_after(w, 0, false);
        } else {
            self.emit(
                Actor::Worker(w),
                EventKind::Denied,
                command,
                "not acquired".to_owned(),
                Vec::new(),
            );
            // Redlock unlocks every node it locked before trying again.
            let name = self.names[usize::from(w)].clone();
            let lock = [self.scenario.redis.lock_key.clone()];
            for n in self.runtime[usize::from(w)].redlock_ok.clone() {
                self.redis_script(n, Script::Release, &lock, std::slice::from_ref(&name));
            }
            self.denied_retry(w, retry_every_ms, attempts);
        }
    }

    fn step_wait(&mut self, w: u8, replicas: i64, timeout_ms: u64, on_short: OnShort) {
        let now = self.state.now_ms;
        let Some(p) = self.state.primary else {
            return self.unreachable(w, None, 1_000, 1);
        };
        let target =
            self.runtime[usize::from(w)].write_offset.max(self.state.nodes[usize::from(p)].offset);
        match self.runtime[usize::from(w)].wait {
            None => {
                // Predict when the wanted acknowledgements arrive; re-count them then.
                let lag_ms = self.scenario.redis.lag_ms;
                let mut ack_times: Vec<u64> = self
                    .replicas_of(p)
                    .iter()
                    .map(|&r| {
                        if self.state.nodes[usize::from(r)].offset >= target {
                            now
                        } else {
                            now.saturating_add(lag_ms)
                        }
                    })
                    .collect();
                ack_times.sort_unstable();
                let wanted = usize::try_from(replicas.max(0)).unwrap_or(usize::MAX);
                let limit = if timeout_ms == 0 {
                    self.scenario.until_ms
                } else {
                    now.saturating_add(timeout_ms)
                };
                let at_ms = match wanted.checked_sub(1).and_then(|k| ack_times.get(k)) {
                    _ if wanted == 0 => now,
                    Some(&t) if t <= limit => t,
                    _ => limit,
                };
                self.runtime[usize::from(w)].wait = Some((now, replicas));
                self.schedule_step(w, at_ms, false);
            }
            Some((_, wanted)) => {
                self.runtime[usize::from(w)].wait = None;
                let acked = self
                    .replicas_of(p)
                    .iter()
                    .filter(|&&r| self.state.nodes[usize::from(r)].offset >= target)
                    .count();
                let acked = i64::try_from(acked).unwrap_or(i64::MAX);
                let command = format!("WAIT {wanted} {timeout_ms}");
                self.emit(
                    Actor::Worker(w),
                    EventKind::WaitReturned { acked, wanted },
                    command,
                    acked.to_string(),
                    Vec::new(),
                );
                if acked < wanted && on_short == OnShort::GiveUp {
                    let steps = self.steps(w);
                    let pc = self.state.workers[usize::from(w)].pc;
                    let release =
                        steps.iter().skip(pc).position(|s| matches!(s, Step::Release { .. }));
                    match release {
                        Some(offset) => {
                            let ws = &mut self.state.workers[usize::from(w)];
                            ws.pc += offset;
                            ws.attempt = 1;
                            self.schedule_step(w, now, false);
                        }
                        None => self.end(w, EventKind::GaveUp, "sim.gave_up_wait"),
                    }
                    return;
                }
                self.advance_after(w, 0, false);
            }
        }
    }

    fn order_row_for(&self, w: u8) -> &OrderRow {
        self.state.workers[usize::from(w)].txn_row.as_ref().unwrap_or(&self.state.order)
    }

    fn step_read(&mut self, w: u8, compare: Compare) {
        let row = self.order_row_for(w).clone();
        let token = self.state.workers[usize::from(w)].lease.as_ref().and_then(|l| l.token);
        let stale = match (compare, token) {
            (Compare::Token, Some(t)) => row.last_fence >= t,
            (Compare::Token, None) => true,
            (Compare::No, _) => false,
        };
        let etag = self
            .state
            .objects
            .iter()
            .find(|o| o.name == self.object_name())
            .map(|o| o.etag.clone());
        self.state.workers[usize::from(w)].etag_seen = etag;
        let command = format!("SELECT status, last_fence FROM orders WHERE id = {}", row.id);
        let reply = format!("{}|{}", row.status, row.last_fence);
        let causes = self.last_write_event.into_iter().collect();
        self.emit(
            Actor::Worker(w),
            EventKind::Read { last_fence: row.last_fence, stale },
            command,
            reply,
            causes,
        );
        if stale {
            self.fenced_off(w);
        } else {
            self.advance_after(w, 0, false);
        }
    }

    fn step_write(
        &mut self,
        w: u8,
        how: WriteHow,
        status: &str,
        from: Option<&str>,
        attempts: u32,
        backoff_ms: u64,
    ) {
        if self.handle_lost_reply_timeout(w, attempts, backoff_ms) {
            return;
        }
        if let Some(holder) = self.state.row_lock.filter(|&h| h != w) {
            self.block_on_row(w, holder);
            return;
        }
        let ws = &self.state.workers[usize::from(w)];
        let name = self.name(w);
        let lease = ws.lease.as_ref().map(|l| l.seq);
        let grant_event = ws.lease.as_ref().map(|l| l.granted_by);
        let in_txn = ws.in_txn;
        // What the statement carries and checks: the scenario's guard for a fenced write, the
        // token stored but unchecked, or no token at all.
        let (token, guard, status_check) = match how {
            WriteHow::Fenced => (
                ws.lease.as_ref().and_then(|l| l.token),
                self.scenario.sql.guard,
                self.scenario.sql.status_check,
            ),
            WriteHow::Unchecked => {
                (ws.lease.as_ref().and_then(|l| l.token), Guard::None, StatusCheck::Off)
            }
            WriteHow::Unfenced => (None, Guard::None, StatusCheck::Off),
        };
        let row = self.order_row_for(w);
        let fence_ok = match (guard, token) {
            (Guard::None, _) => true,
            (Guard::Lt, Some(t)) => row.last_fence < t,
            (Guard::Le, Some(t)) => row.last_fence <= t,
            // `last_fence < NULL` is never true.
            (_, None) => false,
        };
        let required_status = match (from, status_check) {
            (Some(from), _) => Some(from),
            (None, StatusCheck::Pending) => Some("pending"),
            (None, StatusCheck::Off) => None,
        };
        let status_ok = required_status.is_none_or(|required| row.status == required);
        let matched = fence_ok && status_ok;
        let last_fence = row.last_fence;
        let was_paid = row.status == "paid";
        let tokens = self.scenario.tokens;
        let command = self.text(|| {
            update_text(
                row,
                guard,
                required_status,
                status,
                token.map(|t| token_sql(tokens, t)),
                name,
            )
        });
        let rows = u32::from(matched);
        let why = if matched || !self.texts() {
            String::new()
        } else {
            let shown = token.map_or("NULL".to_owned(), |t| token_text(tokens, t));
            let mut args = vec![("worker", name.to_owned()), ("token", shown)];
            let by = self.last_write_event.map(|id| self.events[id as usize].at_ms);
            let key = match (fence_ok, by) {
                (true, Some(_)) => "sim.why_status_by",
                (true, None) => "sim.why_status",
                (false, Some(_)) => "sim.why_fence_by",
                (false, None) => "sim.why_fence",
            };
            if fence_ok {
                args.push(("status", row.status.clone()));
                args.push(("required", required_status.unwrap_or("").to_owned()));
            } else {
                args.push(("fence", token_text(tokens, row.last_fence)));
            }
            if let Some(at_ms) = by {
                args.push(("by", row.updated_by.clone()));
                args.push(("t", secs(at_ms)));
            }
            self.say(key, args)
        };
        if matched {
            // Outside a transaction the row changes in place (its strings keep their
            // buffers); inside one the change stays private until COMMIT.
            let target = if in_txn {
                let copy = self.order_row_for(w).clone();
                self.state.row_lock = Some(w);
                self.state.workers[usize::from(w)].txn_row.insert(copy)
            } else {
                &mut self.state.order
            };
            target.status.clear();
            target.status.push_str(status);
            if let Some(t) = token {
                target.last_fence = t;
            }
            target.updated_by.clear();
            target.updated_by.push_str(name);
        }
        let mut causes: Vec<u32> = grant_event.into_iter().collect();
        if !matched {
            causes.extend(self.last_write_event);
        }
        let event = self.emit(
            Actor::Db,
            EventKind::Wrote { token, rows },
            command,
            self.text(|| format!("UPDATE {rows}")),
            causes,
        );
        self.events[event as usize].why = why;
        if matched {
            self.last_write_event = Some(event);
        }
        let fact = WriteFact {
            worker: w,
            worker_name: name,
            lease,
            token,
            accepted: matched,
            was_paid,
            status_after: status,
            event,
            at_ms: self.state.now_ms,
            last_fence,
        };
        let findings = self.checker.on_write(&fact, &self.names);
        self.record_findings(findings);
        if self.reply_lost(w) {
            return self.after_lost_reply(w, attempts);
        }
        if matched {
            self.advance_after(w, 0, false);
        } else {
            self.fenced_off(w);
        }
    }

    fn block_on_row(&mut self, w: u8, holder: u8) {
        let holder_name = self.names[usize::from(holder)].clone();
        let text = self.say("sim.blocked", vec![("name", holder_name)]);
        let command = format!("UPDATE orders ... WHERE id = {}", self.state.order.id);
        self.emit(Actor::Worker(w), EventKind::WriteBlocked { holder }, command, text, Vec::new());
        self.state.workers[usize::from(w)].activity = Activity::Blocked;
        self.cancel_step(w);
        if !self.blocked.contains(&w) {
            self.blocked.push(w);
        }
    }

    fn end_txn(&mut self, w: u8) {
        let ws = &mut self.state.workers[usize::from(w)];
        ws.in_txn = false;
        ws.txn_row = None;
        if self.state.row_lock == Some(w) {
            self.state.row_lock = None;
            // READ COMMITTED: each waiter re-runs its statement against the new row.
            let waiters = std::mem::take(&mut self.blocked);
            let now = self.state.now_ms;
            for waiter in waiters {
                if self.state.workers[usize::from(waiter)].activity == Activity::Blocked {
                    self.schedule_step(waiter, now, false);
                }
            }
        }
    }

    fn step_select_for_update(&mut self, w: u8) {
        if let Some(holder) = self.state.row_lock.filter(|&h| h != w) {
            self.block_on_row(w, holder);
            return;
        }
        self.state.row_lock = Some(w);
        let row = self.state.order.clone();
        self.state.workers[usize::from(w)].txn_row = Some(row.clone());
        let command =
            format!("SELECT status, last_fence FROM orders WHERE id = {} FOR UPDATE", row.id);
        let reply = format!("{}|{}", row.status, row.last_fence);
        self.emit(Actor::Worker(w), EventKind::LockedRow, command, reply, Vec::new());
        self.advance_after(w, 0, false);
    }

    fn step_reread(&mut self, w: u8) {
        let row = self.state.order.clone();
        let ws = &self.state.workers[usize::from(w)];
        let token = ws.lease.as_ref().and_then(|l| l.token);
        let already_applied = token == Some(row.last_fence) && row.updated_by == ws.name;
        let command = format!("SELECT last_fence, updated_by FROM orders WHERE id = {}", row.id);
        let reply = format!("{}|{}", row.last_fence, row.updated_by);
        let causes = self.last_write_event.into_iter().collect();
        let key = if already_applied { "sim.reread_mine" } else { "sim.reread_other" };
        let why = self
            .say(key, vec![("fence", row.last_fence.to_string()), ("by", row.updated_by.clone())]);
        let event = self.emit(
            Actor::Worker(w),
            EventKind::Reread { already_applied, last_fence: row.last_fence },
            command,
            reply,
            causes,
        );
        self.events[event as usize].why = why;
        // The handler's next steps run either way; the event records which case it was.
        self.advance_after(w, 0, false);
    }

    fn step_charge(&mut self, w: u8, strategy: KeyStrategy, attempts: u32, backoff_ms: u64) {
        if self.handle_lost_reply_timeout(w, attempts, backoff_ms) {
            return;
        }
        let order = self.state.order.id;
        let key = match strategy {
            KeyStrategy::None => None,
            KeyStrategy::PerAttempt => Some(format!("att-{}", self.prng.hex(6))),
            KeyStrategy::PerOrder => Some(format!("order-{order}-pay")),
        };
        let mut command =
            format!("POST /v1/charges order={order} amount={}", self.state.order.amount);
        if let Some(key) = &key {
            command.push_str(&format!(" Idempotency-Key: {key}"));
        }
        let replay = key.as_ref().filter(|k| {
            self.scenario.gateway.honours_keys && self.state.idempotency_keys.contains(k)
        });
        if let Some(key) = replay.cloned() {
            self.emit(
                Actor::Gateway,
                EventKind::ChargeReplayed { key },
                command,
                "200 (replayed, no new charge)".to_owned(),
                Vec::new(),
            );
        } else {
            let n = self.state.charges.len() + 1;
            self.state.charges.push(Charge {
                worker: w,
                at_ms: self.state.now_ms,
                key: key.clone(),
            });
            if let Some(key) = &key {
                self.state.idempotency_keys.push(key.clone());
            }
            let event = self.emit(
                Actor::Gateway,
                EventKind::Charged { key },
                command,
                format!("200 charge ch_{n}"),
                Vec::new(),
            );
            let findings = self.checker.on_charge(w, event, &self.names);
            self.record_findings(findings);
        }
        if self.reply_lost(w) {
            return self.after_lost_reply(w, attempts);
        }
        self.advance_after(w, 0, false);
    }

    fn object_name(&self) -> String {
        format!("orders/{}/receipt.pdf", self.state.order.id)
    }

    fn step_put_object(&mut self, w: u8, if_match: bool) {
        let ws = &self.state.workers[usize::from(w)];
        let token = ws.lease.as_ref().and_then(|l| l.token);
        // A conditional put replaces one shared object; otherwise each token writes its own
        // artifact, which a fenced-off worker must clean up.
        let name = if if_match {
            self.object_name()
        } else {
            let tag = token.map_or(ws.name.clone(), |t| t.to_string());
            format!("orders/{}/receipt-{tag}.pdf", self.state.order.id)
        };
        let body =
            format!("receipt for order {} by {} token {:?}", self.state.order.id, ws.name, token);
        let etag = crate::sim::script::sha1_hex(body.as_bytes())[..12].to_owned();
        let seen = ws.etag_seen.clone();
        let current = self.state.objects.iter().position(|o| o.name == name);
        let current_etag = current.map(|i| self.state.objects[i].etag.clone());
        let precondition = if if_match {
            match &seen {
                Some(tag) => format!(" If-Match: \"{tag}\""),
                None => " If-None-Match: *".to_owned(),
            }
        } else {
            String::new()
        };
        let command = format!("PUT /bucket/{name}{precondition}");
        if if_match && current_etag != seen {
            self.emit(
                Actor::Storage,
                EventKind::ObjectRejected { name },
                command,
                "412 Precondition Failed".to_owned(),
                Vec::new(),
            );
            self.fenced_off(w);
            return;
        }
        let object = StoredObject { name: name.clone(), etag: etag.clone(), written_by: w, token };
        match current {
            Some(i) => self.state.objects[i] = object,
            None => self.state.objects.push(object),
        }
        let ws = &mut self.state.workers[usize::from(w)];
        ws.etag_seen = Some(etag.clone());
        if !ws.uploads.contains(&name) {
            ws.uploads.push(name.clone());
        }
        let reply = format!("200 OK ETag \"{etag}\"");
        self.emit(Actor::Storage, EventKind::ObjectPut { name, etag }, command, reply, Vec::new());
        self.advance_after(w, 0, false);
    }

    fn step_delete_objects(&mut self, w: u8) {
        let uploads = std::mem::take(&mut self.state.workers[usize::from(w)].uploads);
        for name in uploads {
            // Only the copy this worker wrote is its artifact; a newer holder's stays.
            let mine = self.state.objects.iter().position(|o| o.name == name && o.written_by == w);
            let (reply, deleted) = match mine {
                Some(i) => {
                    self.state.objects.remove(i);
                    ("204 No Content".to_owned(), true)
                }
                None => (self.say("sim.skip_object", Vec::new()), false),
            };
            let command = format!("DELETE /bucket/{name}");
            if deleted {
                self.emit(
                    Actor::Storage,
                    EventKind::ObjectDeleted { name },
                    command,
                    reply,
                    Vec::new(),
                );
            } else {
                self.emit(
                    Actor::Worker(w),
                    EventKind::ObjectDeleted { name },
                    command,
                    reply,
                    Vec::new(),
                );
            }
        }
        self.advance_after(w, 0, false);
    }

    fn step_release(&mut self, w: u8, how: ReleaseHow) {
        self.stop_watchdog(w);
        if self.scenario.redis.topology == Topology::Redlock {
            self.release_everywhere(w);
            return;
        }
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(node) => {
                self.unreachable(w, node, 0, 1);
                return;
            }
        };
        let scenario: &'s Scenario = self.scenario;
        let name = self.name(w);
        let lock_key = scenario.redis.lock_key.as_str();
        // Only a foreign holder matters (the checker's owner-only finding).
        let foreign_holder =
            self.lock_holder(n).filter(|holder| *holder != name).map(str::to_owned);
        let (reply, command, what) = match how {
            ReleaseHow::Script => {
                let reply = self.redis_script(n, Script::Release, &[lock_key], &[name]);
                (
                    reply,
                    self.text(|| {
                        command_text(&["EVAL", Script::Release.label(), "1", lock_key, name])
                    }),
                    "check-and-delete",
                )
            }
            ReleaseHow::BareDel => {
                let reply = self.redis_exec(n, &Command::Del { keys: vec![lock_key.to_owned()] });
                (reply, self.text(|| command_text(&["DEL", lock_key])), "bare DEL")
            }
        };
        let deleted = reply == Reply::Int(1);
        let event = self.emit(
            Actor::Worker(w),
            EventKind::Released { deleted },
            command,
            self.text(|| reply.to_inline()),
            Vec::new(),
        );
        if let (true, Some(owner)) = (deleted, foreign_holder) {
            let findings = self.checker.on_foreign_touch(name, &owner, what, event);
            self.record_findings(findings);
        }
        self.set_belief(w, None);
        self.advance_after(w, 0, false);
    }

    /// Redlock's release: the check-and-delete script on every reachable node. The requests
    /// are independent; the model shows them as one event.
    fn release_everywhere(&mut self, w: u8) {
        let name = self.names[usize::from(w)].clone();
        let lock = [self.scenario.redis.lock_key.clone()];
        let mut deleted = 0;
        let mut reached = 0;
        for i in 0..self.state.nodes.len() {
            let n = node_id(i);
            if !self.state.nodes[i].up || self.partitioned(w, n) {
                continue;
            }
            reached += 1;
            let reply = self.redis_script(n, Script::Release, &lock, std::slice::from_ref(&name));
            if reply == Reply::Int(1) {
                deleted += 1;
            }
        }
        let command = format!(
            "{} (on every node)",
            self.text(|| command_text(&["EVAL", Script::Release.label(), "1", &lock[0], &name]))
        );
        let reply = format!("deleted on {deleted} of {reached} reachable nodes");
        self.emit(
            Actor::Worker(w),
            EventKind::Released { deleted: deleted > 0 },
            command,
            reply,
            Vec::new(),
        );
        self.set_belief(w, None);
        self.advance_after(w, 0, false);
    }

    /// The value in the lock key on node `n` now (the holder's name).
    fn lock_holder(&self, n: u8) -> Option<&str> {
        let node = &self.state.nodes[usize::from(n)];
        node.keyspace
            .peek(&self.scenario.redis.lock_key, node.clock_ms(self.state.now_ms))
            .map(|e| e.value.as_str())
    }

    fn watchdog_tick(&mut self, w: u8) {
        let now = self.state.now_ms;
        let ws = &self.state.workers[usize::from(w)];
        let Some(watchdog) = ws.watchdog else { return };
        match ws.activity {
            Activity::Crashed | Activity::Done => return,
            Activity::Paused { until_ms } => {
                self.schedule_watchdog(w, until_ms);
                return;
            }
            _ => {}
        }
        let ttl_ms = ws.lease.as_ref().map_or(30_000, |l| l.ttl_ms);
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(_) => {
                self.schedule_watchdog(w, now.saturating_add(watchdog.interval_ms));
                return;
            }
        };
        let name = ws.name.clone();
        let lock_key = self.scenario.redis.lock_key.clone();
        let ttl_text = ttl_ms.to_string();
        let holder = self.lock_holder(n).map(str::to_owned);
        let (reply, command, what) = match watchdog.how {
            RenewHow::Script => {
                let args = [name.clone(), ttl_text.clone()];
                let reply =
                    self.redis_script(n, Script::Renew, std::slice::from_ref(&lock_key), &args);
                (
                    reply,
                    self.text(|| {
                        command_text(&[
                            "EVAL",
                            Script::Renew.label(),
                            "1",
                            &lock_key,
                            &name,
                            &ttl_text,
                        ])
                    }),
                    "check-and-extend",
                )
            }
            RenewHow::BarePexpire => {
                let ttl = i64::try_from(ttl_ms).unwrap_or(i64::MAX);
                let reply =
                    self.redis_exec(n, &Command::PExpire { key: lock_key.clone(), ttl_ms: ttl });
                (
                    reply,
                    self.text(|| command_text(&["PEXPIRE", &lock_key, &ttl_text])),
                    "bare PEXPIRE",
                )
            }
        };
        let ok = reply == Reply::Int(1);
        let event = self.emit(
            Actor::Worker(w),
            EventKind::Renewed { ok },
            command,
            self.text(|| reply.to_inline()),
            Vec::new(),
        );
        if let (true, Some(owner)) = (ok, holder.filter(|h| *h != name)) {
            let findings = self.checker.on_foreign_touch(&name, &owner, what, event);
            self.record_findings(findings);
        }
        if ok {
            if let Some(belief) = self.state.workers[usize::from(w)].belief.as_mut() {
                belief.until_ms = now.saturating_add(ttl_ms);
            }
            if let Some(since) = self.runtime[usize::from(w)].hung_since_ms {
                let findings =
                    self.checker.on_renew_while_hung(w, &name, now - since, ttl_ms, event);
                self.record_findings(findings);
            }
            self.schedule_watchdog(w, now.saturating_add(watchdog.interval_ms));
        } else {
            // Renewal failure is only logged (as Redisson does); the main thread is not told.
            self.stop_watchdog(w);
        }
    }
}

const LOST_REPLY: u32 = u32::MAX;

fn worker_id(index: usize) -> u8 {
    u8::try_from(index).unwrap_or(u8::MAX)
}

fn node_id(index: usize) -> u8 {
    u8::try_from(index).unwrap_or(u8::MAX)
}

fn expiry_role(role: Role) -> ExpiryRole {
    match role {
        Role::Replica { .. } => ExpiryRole::Hide,
        Role::Primary | Role::Peer => ExpiryRole::Delete,
    }
}

/// `n` in decimal, written into `digits` (no allocation: the hot acquire path needs its TTL
/// as text, the way a client sends ARGV).
fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &str {
    let mut start = digits.len();
    loop {
        start -= 1;
        // A digit is below 10, so the cast keeps it.
        #[allow(clippy::cast_possible_truncation)]
        let digit = (n % 10) as u8;
        digits[start] = b'0' + digit;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&digits[start..]).unwrap_or("0")
}

fn effect_text(effect: &Effect) -> String {
    match effect {
        Effect::Put { key, entry } => match entry.expire_at_ms {
            Some(at) => format!("SET {key} {} PXAT {at}", entry.value),
            None => format!("SET {key} {}", entry.value),
        },
        Effect::Delete { key } => format!("DEL {key}"),
    }
}

fn update_text(
    row: &OrderRow,
    guard: Guard,
    required_status: Option<&str>,
    status: &str,
    token: Option<String>,
    name: &str,
) -> String {
    use std::fmt::Write as _;
    // One buffer; writing into a String cannot fail.
    let mut text = String::with_capacity(160);
    let _ = write!(text, "UPDATE orders SET status = '{status}'");
    if let Some(t) = &token {
        let _ = write!(text, ", last_fence = {t}");
    }
    let _ = write!(text, ", updated_by = '{name}' WHERE id = {}", row.id);
    if let Some(required) = required_status {
        let _ = write!(text, " AND status = '{required}'");
    }
    let token_sql = token.as_deref().unwrap_or("NULL");
    match guard {
        Guard::Lt => {
            let _ = write!(text, " AND last_fence < {token_sql}");
        }
        Guard::Le => {
            let _ = write!(text, " AND last_fence <= {token_sql}");
        }
        Guard::None => {}
    }
    text
}
