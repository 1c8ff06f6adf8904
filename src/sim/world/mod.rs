//! The run loop: an agenda of due actions over virtual time, applied one atomic step at a
//! time, each recorded as exactly one event (plus the checker's findings about it).
//!
//! Owns the rules that connect the pieces: workers executing their programs, the Redis
//! topology (replication, failover, persistence, clocks), the order row, the gateway and
//! the object store. Time only advances here, to the next due action or key deadline;
//! ties are broken by a sequence number, and all randomness comes from the setup's seed.

use crate::sim::check::Checker;
use crate::sim::event::Event;
use crate::sim::id::{EventId, LeaseNo, NodeId, WorkerId};
use crate::sim::prng::Prng;
use crate::sim::redis::{Effect, Keyspace};
use crate::sim::scenario::{Fault, RedisSetup, Setup, TokenSource, Topology, WorkerSetup};
use crate::sim::sorted::SortedSet;
use crate::sim::state::{Activity, NodeState, OrderRow, Phase, Role, State, WorkerState};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

mod acquire;
mod cluster;
mod faults;
mod lease;
mod order;
mod record;
mod services;
mod worker;

use cluster::{Batch, Persisted};
pub use order::{setup_sql, setup_statements};
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
    pub belief_spans: Vec<(WorkerId, u64, u64)>,
}

pub fn run(setup: &Setup, recording: Recording) -> Output {
    let mut world = World::new(setup, recording);
    world.run();
    let end_ms = world.state.now_ms;
    let mut belief_spans: Vec<(WorkerId, u64, u64)> = world.closed_spans;
    for (w, since) in world.open_spans.iter().enumerate() {
        if let Some(since) = since {
            belief_spans.push((WorkerId::at(w), *since, end_ms));
        }
    }
    crate::sim::sorted::sort(&mut belief_spans);
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
    Step { worker: WorkerId, generation: Generation },
    WatchdogTick { worker: WorkerId, generation: Generation },
    Fault { index: u16 },
    Resume { worker: WorkerId, until_ms: u64 },
    Deliver { batch: u32, to: NodeId },
    Promote { dead: NodeId },
    Restart { node: NodeId },
}

#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
struct Due {
    at_ms: u64,
    seq: u64,
    action: Action,
}

/// Which of a worker's schedulings an agenda entry belongs to: rescheduling or cancelling
/// a step (or the watchdog) moves to the next generation, so an entry left on the agenda
/// for an older one is skipped when it comes due (a binary heap cannot remove it).
#[derive(Clone, Copy, Debug, Default, Eq, Ord, PartialEq, PartialOrd)]
struct Generation(u32);

impl Generation {
    fn next(self) -> Generation {
        Generation(self.0.wrapping_add(1))
    }
}

/// How the time until a worker's next step passes: on the CPU (local work, which a pause
/// stretches by its length) or waiting (a timer, a backoff, a reply, the step's start: a
/// pause only holds the step back until the process runs again).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Meanwhile {
    Computing,
    Waiting,
}

/// A worker's next main-thread step on the agenda.
#[derive(Clone, Copy, Debug)]
struct NextStep {
    at_ms: u64,
    meanwhile: Meanwhile,
}

/// What a step that takes several requests has done so far; every step starts `Fresh`,
/// and moving to another step or attempt resets it.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
enum Progress {
    #[default]
    Fresh,
    /// set-then-incr (or a token source outside Redis): the lock is set, the token is
    /// drawn by a second request.
    DrawToken,
    /// incr-then-set: the token is drawn (with the counter's previous high-water mark if it
    /// went backwards); `SET NX PX` follows.
    SetLock { token: i64, reset: Option<i64> },
    /// Redlock: the next node to ask, when the attempt started, the nodes that said OK.
    Redlock { next: usize, start_ms: u64, ok: Vec<NodeId> },
    /// WAIT was sent; it returns when the wanted replicas acknowledged or it timed out.
    Wait { wanted: i64 },
    /// The reply to this attempt was lost; the step re-enters when the client times out.
    LostReply,
}

/// A worker's scheduling bookkeeping, invisible to the inspector.
#[derive(Clone, Default)]
struct Runtime {
    generation: Generation,
    /// The main-thread step on the agenda, if any (a pause reschedules it).
    scheduled_step: Option<NextStep>,
    watchdog_generation: Generation,
    watchdog_due: Option<u64>,
    /// How far the current step has got, when it takes more than one request.
    progress: Progress,
    /// A request held back by a network delay is sent when the step re-runs at this time.
    delayed_until: Option<u64>,
    /// The primary's replication offset after this worker's last write: what its `WAIT`
    /// waits for.
    write_offset: u64,
    /// The value this worker's client sends with its lock commands: drawn when an acquire
    /// step starts, kept across its retries (as redis-py's `Lock` keeps its token).
    lock_value: std::rc::Rc<str>,
    /// The hang's start time, for the hung-watchdog warning.
    hung_since_ms: Option<u64>,
    /// Lease granted on the server while its reply was lost (the worker does not know).
    unknown_lease: Option<LeaseNo>,
    /// The status and token of this worker's last rejected write: the task it dead-letters.
    rejected_write: Option<(String, Option<i64>)>,
    /// How the worker ends once the release its program's `finally` runs has replied.
    exit: Option<(worker::Stop, &'static str)>,
}

struct World<'s> {
    setup: &'s Setup,
    recording: Recording,
    state: State,
    agenda: BinaryHeap<Reverse<Due>>,
    next_seq: u64,
    prng: Prng,
    /// Lock values come from a stream of their own, so drawing them shifts no other draw.
    values: Prng,
    runtime: Vec<Runtime>,
    batches: Vec<Batch>,
    persisted: Vec<Persisted>,
    lease_seq: LeaseNo,
    lost_replies: SortedSet<(WorkerId, usize, u32)>,
    names: Vec<String>,
    checker: Checker,
    events: Vec<Event>,
    frames: Vec<State>,
    truncated: bool,
    /// The event that last changed the order row (the cause of later rejections).
    last_write_event: Option<EventId>,
    /// The last accepted put of the shared object (what a `HEAD` then reads).
    last_object_put: Option<EventId>,
    /// How many workers believed they held the lock after the last change.
    overlapping: usize,
    /// The workers waiting for the row lock.
    blocked: Vec<WorkerId>,
    /// The order table, in the SQL engine; `state.order` is its copy for the inspector.
    db: crate::sim::sql::Database,
    open_spans: Vec<Option<u64>>,
    closed_spans: Vec<(WorkerId, u64, u64)>,
    /// The worker whose step or watchdog is being applied (the peer of service events).
    acting: Option<WorkerId>,
    /// Fenced writes seen by the alert monitor: when, and what became of them.
    fenced_writes: Vec<(u64, worker::Written)>,
    alert_firing: bool,
}

impl<'s> World<'s> {
    fn new(setup: &'s Setup, recording: Recording) -> World<'s> {
        let redis = &setup.redis;
        let nodes = initial_nodes(redis, setup.tokens);
        let primary = match redis.topology {
            topology if topology.has_primary() && !nodes.is_empty() => Some(NodeId(0)),
            _ => None,
        };
        let workers: Vec<WorkerState> = setup.workers.iter().map(initial_worker).collect();
        let persisted = nodes
            .iter()
            .map(|n| Persisted {
                durable: n.keyspace.clone(),
                os: n.keyspace.clone(),
                ..Persisted::default()
            })
            .collect();
        let order = OrderRow {
            id: setup.sql.order_id,
            status: "pending".to_owned(),
            amount: setup.sql.amount,
            last_fence: setup.sql.last_fence,
            updated_by: String::new(),
        };
        let db = order::new_database(&order, setup.tokens);
        let state = State {
            now_ms: 0,
            nodes,
            primary,
            token_counter: redis.fence_start,
            order,
            row_lock: None,
            charges: Vec::new(),
            idempotency_keys: Vec::new(),
            objects: Vec::new(),
            dlq: Vec::new(),
            workers,
        };
        let mut world = World {
            setup,
            recording,
            names: setup.workers.iter().map(|w| w.name.clone()).collect(),
            runtime: vec![Runtime::default(); setup.workers.len()],
            state,
            agenda: BinaryHeap::new(),
            next_seq: 0,
            prng: Prng::new(setup.seed),
            values: Prng::new(setup.seed ^ LOCK_VALUE_STREAM),
            batches: Vec::new(),
            persisted,
            lease_seq: LeaseNo(0),
            lost_replies: SortedSet::new(),
            checker: Checker::new(setup.tokens),
            // About one event per step, plus each worker's last event and each fault's:
            // reserving it spares a long run the copies of a growing vector (retries and
            // findings only add to it).
            events: Vec::with_capacity(
                (setup.workers.iter().map(|w| w.program.len() + 1).sum::<usize>()
                    + setup.faults.len())
                .min(EVENTS_MAX),
            ),
            frames: Vec::new(),
            truncated: false,
            last_write_event: None,
            last_object_put: None,
            overlapping: 0,
            blocked: Vec::new(),
            db,
            open_spans: vec![None; setup.workers.len()],
            closed_spans: Vec::new(),
            acting: None,
            fenced_writes: Vec::new(),
            alert_firing: false,
        };
        if recording == Recording::Frames {
            world.frames.push(world.state.clone());
        }
        world.schedule_faults();
        for (w, worker) in setup.workers.iter().enumerate() {
            let w = WorkerId::at(w);
            world.schedule_step(w, worker.start_ms, Meanwhile::Waiting);
        }
        world
    }

    /// Puts each timed fault on the agenda and notes each lost reply. Faults are scheduled
    /// before any worker step, so at equal times they land first.
    fn schedule_faults(&mut self) {
        let setup: &'s Setup = self.setup;
        for (index, fault) in setup.faults.iter().enumerate() {
            let index = u16::try_from(index).unwrap_or(u16::MAX);
            match fault {
                Fault::LoseReply { worker, step, attempt } => {
                    self.lost_replies.insert((*worker, *step, *attempt));
                }
                Fault::Pause { at_ms, .. }
                | Fault::Hang { at_ms, .. }
                | Fault::Crash { at_ms, .. }
                | Fault::CrashNode { at_ms, .. }
                | Fault::ClockJump { at_ms, .. }
                | Fault::SetCounter { at_ms, .. } => self.schedule(*at_ms, Action::Fault { index }),
                // Windows are looked up when a request is sent.
                Fault::Delay { .. } | Fault::Partition { .. } => {}
            }
        }
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
            if at_ms > self.setup.until_ms {
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
            self.forget_keys();
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

    fn schedule(&mut self, at_ms: u64, action: Action) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.agenda.push(Reverse(Due { at_ms, seq, action }));
    }

    /// Schedules the worker's next main-thread step, replacing any pending one.
    fn schedule_step(&mut self, w: WorkerId, at_ms: u64, meanwhile: Meanwhile) {
        let rt = &mut self.runtime[w.index()];
        rt.generation = rt.generation.next();
        rt.scheduled_step = Some(NextStep { at_ms, meanwhile });
        let generation = rt.generation;
        self.schedule(at_ms, Action::Step { worker: w, generation });
    }

    fn cancel_step(&mut self, w: WorkerId) {
        let rt = &mut self.runtime[w.index()];
        rt.generation = rt.generation.next();
        rt.scheduled_step = None;
    }

    fn schedule_watchdog(&mut self, w: WorkerId, at_ms: u64) {
        let rt = &mut self.runtime[w.index()];
        rt.watchdog_generation = rt.watchdog_generation.next();
        rt.watchdog_due = Some(at_ms);
        let generation = rt.watchdog_generation;
        self.schedule(at_ms, Action::WatchdogTick { worker: w, generation });
    }

    fn stop_watchdog(&mut self, w: WorkerId) {
        let rt = &mut self.runtime[w.index()];
        rt.watchdog_generation = rt.watchdog_generation.next();
        rt.watchdog_due = None;
        self.state.workers[w.index()].watchdog = None;
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Step { worker, generation } => {
                if self.runtime[worker.index()].generation == generation {
                    self.runtime[worker.index()].scheduled_step = None;
                    self.acting = Some(worker);
                    self.worker_step(worker);
                    self.acting = None;
                }
            }
            Action::WatchdogTick { worker, generation } => {
                if self.runtime[worker.index()].watchdog_generation == generation {
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
}

/// Mixed into the seed for the lock-value stream ("LOCKVALU" in ASCII).
const LOCK_VALUE_STREAM: u64 = 0x4c4f_434b_5641_4c55;

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

/// The nodes at time 0: roles from the topology, and the counter's history before the run.
fn initial_nodes(setup: &RedisSetup, tokens: TokenSource) -> Vec<NodeState> {
    // Tokens drawn outside the lock service leave no counter on its nodes.
    let counter_on_nodes = matches!(tokens, TokenSource::RedisIncr | TokenSource::Consensus);
    setup
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let role = match (setup.topology, i) {
                (Topology::Redlock, _) => Role::Peer,
                (Topology::Replicated | Topology::Cluster, 0) => Role::Primary,
                (Topology::Replicated | Topology::Cluster, _) => Role::Replica { of: NodeId(0) },
            };
            let mut keyspace = Keyspace::new();
            // The counter's history before the run, on every node (already replicated).
            if setup.fence_start != 0 && setup.topology.has_primary() && counter_on_nodes {
                keyspace.apply(&Effect::Put {
                    key: setup.fence_key.clone(),
                    entry: crate::sim::redis::Entry {
                        value: setup.fence_start.to_string(),
                        expire_at_ms: None,
                    },
                    sent_as: crate::sim::redis::SentAs::Set,
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
        .collect()
}

fn initial_worker(setup: &WorkerSetup) -> WorkerState {
    WorkerState {
        name: setup.name.clone(),
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
    }
}
