//! A scenario as plain data: the setup, the workers' programs and the scheduled faults.
//!
//! Owns the vocabulary a course author writes (and the JSON format, `"format": 1`, read
//! by `catalogue::codec`). It holds no behaviour: `world` gives these words meaning.
//! Every field name carries its unit last (`ttl_ms`, `pause_ms`).

/// The whole input of one run: same scenario, same trace.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Scenario {
    /// The file format version; this build reads 1.
    pub format: u32,
    pub id: ScenarioId,
    pub title: String,
    pub chapter: String,
    pub summary: String,
    pub goal: String,
    /// Drives every random draw of the run (lock values, idempotency keys, UUID tokens,
    /// jitter); the same seed replays the same trace.
    pub seed: u64,
    /// The run stops at this virtual time even if workers or watchdogs remain.
    pub until_ms: u64,
    pub redis: RedisSetup,
    pub tokens: TokenSource,
    pub sql: SqlSetup,
    pub gateway: GatewaySetup,
    /// The dead-letter queue's monitor: alert when the share of fenced-off writes crosses
    /// a threshold (none: dead letters are only queued).
    pub alert: Option<AlertRule>,
    pub workers: Vec<WorkerSetup>,
    pub faults: Vec<Fault>,
    /// What the learner reads at each step that matters (the model ignores it).
    pub narration: Vec<Narration>,
    /// The outcome the scenario is written to show; a native test runs it and compares.
    pub expect: Option<Expected>,
    /// Prediction questions: playback stops at each and asks the learner (ignored by the
    /// model).
    pub prompts: Vec<Prompt>,
    /// The facts the title, summary and goal state about the run (checked against the
    /// trace by a native test, ignored by the model).
    pub claims: Vec<Fact>,
}

/// "What happens next?": asked when the cursor reaches `at`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Prompt {
    pub at: Anchor,
    pub question: String,
    pub options: Vec<String>,
    /// Index of the correct option.
    pub answer: usize,
    pub explanation: String,
    /// The facts the question and its explanation rest on.
    pub facts: Vec<Fact>,
}

/// One paragraph of narration, pinned to an event or a time.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Narration {
    pub at: Anchor,
    pub text: String,
    /// The facts the paragraph states about the run; a what-if run that breaks one does
    /// not show the paragraph.
    pub facts: Vec<Fact>,
}

/// One checkable claim about a run, in the vocabulary shared by narration, prompts,
/// summaries and the quiz (`catalogue::facts` checks it against a trace).
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Fact {
    /// The `nth` write by `worker` matched `rows` rows (and carried `token`, if given).
    Write { worker: String, nth: usize, rows: u32, token: Option<i64> },
    /// The `nth` grant to `worker` carried `token` (none: a lock without a token).
    Grant { worker: String, nth: usize, token: Option<i64> },
    /// This safety property was violated at least once.
    Violation { property: String },
    /// No safety property was violated.
    NoViolations,
    /// This liveness warning was raised.
    Warning { kind: String },
    /// Real charges at the gateway.
    Charges { count: u32 },
    /// Whether two workers ever believed they held the lock at once.
    Overlap { present: bool },
    /// An event matching the anchor exists (and has this reply, if given).
    Event { at: Anchor, reply: Option<String> },
    /// No event matches the anchor.
    NoEvent { at: Anchor },
    /// Right after the anchored event, `key` on `node` (default: the primary, else the
    /// first node) is in this state, as a read there would see it.
    Key { after: Anchor, key: String, node: Option<String>, is: KeyIs },
    /// Right after the anchored event, the order row has these values.
    Row {
        after: Anchor,
        last_fence: Option<i64>,
        status: Option<String>,
        updated_by: Option<String>,
    },
    /// The first anchored event comes before the second.
    Before { first: Anchor, then: Anchor },
    /// Right after the anchored event, `worker` believes (or not) that it holds the lock.
    Belief { after: Anchor, worker: String, holds: bool },
}

/// What a key holds, for [`Fact::Key`].
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum KeyIs {
    Absent,
    /// A lock value made for this worker (see `state::lock_value`).
    OwnedBy(String),
    Value(String),
}

/// Where a narration or prompt belongs: the `nth` event of kind `event` (by `actor`), or
/// the first event at or after `at_ms`.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Anchor {
    /// An event tag such as `granted` or `write-rejected`.
    pub event: Option<String>,
    /// A worker or node name, or `db`, `checker`, ...
    pub actor: Option<String>,
    /// 1 for the first matching event (the default), 2 for the second, ...
    pub nth: Option<u32>,
    pub at_ms: Option<u64>,
}

/// The outcome a scenario promises.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Expected {
    /// The short outcome shown on the card, e.g. "stale write rejected".
    pub badge: String,
    /// Violated properties, in trace order (empty: none).
    pub violations: Vec<String>,
    /// Liveness warnings, in trace order.
    pub warnings: Vec<String>,
    /// Writes to the order row that matched a row, and that matched none.
    pub accepted: u32,
    pub rejected: u32,
    /// Real charges at the gateway (replays excluded).
    pub charges: u32,
    /// Whether two workers ever believed they held the lock at once.
    pub overlap: bool,
    /// Whether the promised outcome is a bad one (the badge's tone). Without it, a run
    /// with a violation or a liveness warning is bad; an author says so for other bad ends
    /// (every worker gave up and nothing was done).
    pub bad: Option<bool>,
}

impl Expected {
    /// The badge's tone: bad for violations, liveness warnings, or when the author says so.
    pub fn is_bad(&self) -> bool {
        self.bad.unwrap_or(!self.violations.is_empty() || !self.warnings.is_empty())
    }
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RedisSetup {
    /// Node names; the first is the primary, the others its replicas (or, with
    /// `topology: "redlock"`, independent peers).
    pub nodes: Vec<NodeSetup>,
    pub topology: Topology,
    pub lock_key: String,
    pub fence_key: String,
    /// The counter's value before the run (32 in the seed's story, so A draws 33).
    pub fence_start: i64,
    /// Asynchronous replication delay from the primary to each replica.
    pub lag_ms: u64,
    /// How long Sentinel takes to notice a dead primary and promote a replica; none means
    /// no automatic failover.
    pub failover_after_ms: Option<u64>,
    pub persistence: Persistence,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct NodeSetup {
    pub name: String,
    /// This node's wall clock minus the global time, at the start.
    pub clock_offset_ms: i64,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Topology {
    /// One primary and asynchronous replicas (Sentinel-style failover).
    #[default]
    Replicated,
    /// Independent nodes, locked by majority (Redlock).
    Redlock,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Persistence {
    /// Nothing survives a restart.
    #[default]
    None,
    /// A snapshot every `every_ms`.
    Rdb { every_ms: u64 },
    /// `appendfsync no`: the OS flushes about every 30 s.
    AofNo,
    /// `appendfsync everysec`.
    AofEverysec,
    /// `appendfsync always`: fsync before each reply.
    AofAlways,
}

/// Where fencing tokens come from.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum TokenSource {
    /// `INCR` on the Redis fence key (inside the acquire script or beside it).
    #[default]
    RedisIncr,
    /// A consensus-backed counter (etcd-like revision): an acknowledged value is never
    /// issued again, whatever happens to Redis.
    Consensus,
    /// A PostgreSQL sequence (`nextval`), durable with the database.
    PgSequence,
    /// A random UUID: unique, but not ordered.
    Uuid,
    /// No token at all (a plain lease lock).
    None,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct SqlSetup {
    pub order_id: i64,
    pub amount: i64,
    /// The order row's `last_fence` before the run.
    pub last_fence: i64,
    /// The fence comparison the database applies to fenced writes.
    pub guard: Guard,
    /// Whether fenced writes also require `status = 'pending'`.
    pub status_check: StatusCheck,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Guard {
    /// `UPDATE ... WHERE id = :id` (the token is stored but not checked).
    None,
    /// `AND last_fence < :fence` (the playground's rule).
    #[default]
    Lt,
    /// `AND last_fence <= :fence` (Redisson's "greater or equal").
    Le,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum StatusCheck {
    #[default]
    Off,
    /// `AND status = 'pending'`.
    Pending,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct GatewaySetup {
    /// Whether the payment gateway replays the stored result for a repeated key.
    pub honours_keys: bool,
}

impl Default for GatewaySetup {
    /// A gateway that honours idempotency keys, as Stripe-like APIs do.
    fn default() -> GatewaySetup {
        GatewaySetup { honours_keys: true }
    }
}

/// "Alert when more than `share_pct` percent of the fenced writes in the last `window_ms`
/// were fenced off": the operational rule for stale tokens. Evaluated after every write
/// that carries a token, over the writes whose statement reached the database in the
/// window (the current one included).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct AlertRule {
    pub window_ms: u64,
    /// Fires when fenced-off writes are at least this percentage of the window's writes.
    pub share_pct: u32,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct WorkerSetup {
    /// `A`, `B`, `C`, ... as the seed articles name them.
    pub name: String,
    pub start_ms: u64,
    pub program: Vec<Step>,
    /// Run instead of the rest of `program` when a fenced write is rejected.
    pub on_rejected: Vec<Step>,
    /// How long the worker waits for a reply before it treats it as lost.
    pub reply_timeout_ms: u64,
}

/// One instruction of a worker's program.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Step {
    /// Take the lock with a TTL and get a token.
    Acquire {
        how: AcquireHow,
        ttl_ms: u64,
        /// Try again this often while the lock is busy.
        retry_every_ms: u64,
        /// Give up after this many attempts.
        attempts: u32,
    },
    /// `WAIT replicas timeout_ms` after the grant.
    WaitReplicas {
        replicas: i64,
        timeout_ms: u64,
        on_short: OnShort,
    },
    /// Local work that takes CPU time (stretched by a pause).
    Compute {
        ms: u64,
    },
    /// `SELECT ... FROM orders WHERE id = :id`; with `compare`, the client-side fence check
    /// (compare `last_fence` with the token in the app).
    Read {
        compare: Compare,
    },
    /// The write to the order row.
    Write {
        how: WriteHow,
        status: String,
        /// Also require this current status (`AND status = 'pending'`), a state-machine
        /// guard; without it the scenario's `sql.status_check` applies to fenced writes.
        from: Option<String>,
        /// Attempts in all, retrying after a lost reply.
        attempts: u32,
        /// Wait before a retry: `backoff_ms`, doubling with each attempt.
        backoff_ms: u64,
    },
    /// A call to the payment gateway.
    Charge {
        key: KeyStrategy,
        attempts: u32,
        backoff_ms: u64,
    },
    /// Upload the result object; with `if_match`, a conditional put on the ETag read first.
    PutObject {
        if_match: bool,
    },
    /// Delete the objects this worker uploaded under its (stale) token.
    DeleteOwnObjects,
    /// After a rejected write: read the row to tell "already applied" from "superseded".
    Reread,
    /// Hand the task to the dead-letter queue.
    SendToDlq,
    /// Start the renewal thread (every `interval_ms`, by default a third of the TTL).
    Watchdog {
        interval_ms: Option<u64>,
        how: RenewHow,
    },
    /// Release the lock (and stop the watchdog).
    Release {
        how: ReleaseHow,
    },
    /// `BEGIN` a transaction.
    Begin,
    /// `SELECT ... FOR UPDATE`: lock the order row until commit.
    SelectForUpdate,
    Commit,
    Rollback,
    /// Idle (a timer, not CPU work).
    Sleep {
        ms: u64,
    },
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum AcquireHow {
    /// One script: `if SET NX PX then INCR` (atomic).
    #[default]
    Script,
    /// `SET NX PX`, then `INCR` as a second command (non-atomic).
    SetThenIncr,
    /// `INCR`, then `SET NX PX` (non-atomic, burns tokens).
    IncrThenSet,
    /// `SET NX PX` on every node in turn; granted on a majority within the TTL.
    Redlock,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum OnShort {
    /// Carry on although fewer replicas acknowledged.
    #[default]
    Proceed,
    /// Release the lock and give up.
    GiveUp,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Compare {
    /// Just read.
    #[default]
    No,
    /// Compare `last_fence` with the token in the application (the anti-pattern).
    Token,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum WriteHow {
    /// Carries the token; the database applies `sql.guard` (and `sql.status_check`).
    #[default]
    Fenced,
    /// Stores the token in `last_fence` but checks nothing (the client checked, or nobody).
    Unchecked,
    /// No token, no guard.
    Unfenced,
    /// Sets the status to a fixed value and nothing else: no token, no guard, no
    /// `updated_by` (an operation that is idempotent by itself, such as a cancellation).
    SetState,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum KeyStrategy {
    /// No idempotency key.
    #[default]
    None,
    /// A fresh random key for every attempt (no protection at all).
    PerAttempt,
    /// One deterministic key per order, e.g. `order-42-pay`.
    PerOrder,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum RenewHow {
    /// The check-and-extend script.
    #[default]
    Script,
    /// A bare `PEXPIRE` (extends whoever's lock is there).
    BarePexpire,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum ReleaseHow {
    /// The check-and-delete script.
    #[default]
    Script,
    /// A bare `DEL` (deletes whoever's lock is there).
    BareDel,
}

/// Something that happens to a worker, a node or the network at a planned time.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Fault {
    /// A stop-the-world pause (GC, VM migration, SIGSTOP): the watchdog stops too.
    Pause { worker: String, at_ms: u64, pause_ms: u64 },
    /// The main thread hangs; the watchdog thread keeps running.
    Hang { worker: String, at_ms: u64, hang_ms: u64 },
    /// The worker process dies.
    Crash { worker: String, at_ms: u64 },
    /// The reply to the worker's request at `step` (0-based), attempt `attempt`, is lost
    /// after the server applied it.
    LoseReply { worker: String, step: usize, attempt: u32 },
    /// Requests the worker sends in `[at_ms, at_ms + window_ms)` take `delay_ms` to arrive.
    Delay { worker: String, at_ms: u64, window_ms: u64, delay_ms: u64 },
    /// The node stops. `power` loses what was not fsynced; `process` loses only what was
    /// never written to the OS.
    CrashNode {
        node: String,
        at_ms: u64,
        kind: CrashKind,
        /// Restart this long after the crash; none means it stays down.
        restart_after_ms: Option<u64>,
    },
    /// The node's wall clock jumps (an NTP step or an operator).
    ClockJump { node: String, at_ms: u64, jump_ms: i64 },
    /// The worker cannot reach the node for a while.
    Partition { worker: String, node: String, at_ms: u64, partition_ms: u64 },
    /// An operator overwrites the counter key with a value (e.g. not an integer).
    SetCounter { at_ms: u64, value: String },
}

impl Fault {
    /// The worker the fault acts on, if it acts on one.
    pub fn worker(&self) -> Option<&str> {
        match self {
            Fault::Pause { worker, .. }
            | Fault::Hang { worker, .. }
            | Fault::Crash { worker, .. }
            | Fault::LoseReply { worker, .. }
            | Fault::Delay { worker, .. }
            | Fault::Partition { worker, .. } => Some(worker),
            Fault::CrashNode { .. } | Fault::ClockJump { .. } | Fault::SetCounter { .. } => None,
        }
    }

    /// Follows a worker's rename (the sandbox renames workers and their faults together).
    pub fn rename_worker(&mut self, old: &str, new: &str) {
        match self {
            Fault::Pause { worker, .. }
            | Fault::Hang { worker, .. }
            | Fault::Crash { worker, .. }
            | Fault::LoseReply { worker, .. }
            | Fault::Delay { worker, .. }
            | Fault::Partition { worker, .. } => {
                if worker == old {
                    new.clone_into(worker);
                }
            }
            Fault::CrashNode { .. } | Fault::ClockJump { .. } | Fault::SetCounter { .. } => {}
        }
    }
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum CrashKind {
    #[default]
    Process,
    Power,
}

/// A scenario's id: lower-case words joined by `-`, at most 64 bytes. An id names a
/// file, a link and a lesson, so the scenario module owns the rule, and only
/// [`ScenarioId::parse`] makes one: a value of this type is always a valid id.
#[derive(Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct ScenarioId(String);

impl ScenarioId {
    /// The id `text` spells, if it follows the rule.
    pub fn parse(text: &str) -> Option<ScenarioId> {
        is_scenario_id(text).then(|| ScenarioId(text.to_owned()))
    }

    /// An id written in the program itself (the explorer's trial, the benchmark's
    /// workload). A text that broke the rule would become `untitled` rather than panic;
    /// the tests that run those scenarios check their ids.
    pub fn literal(text: &'static str) -> ScenarioId {
        ScenarioId::parse(text).unwrap_or_else(|| ScenarioId("untitled".to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for ScenarioId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for ScenarioId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for ScenarioId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<String> for ScenarioId {
    fn eq(&self, other: &String) -> bool {
        self.0 == *other
    }
}

impl PartialEq<&str> for ScenarioId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// Whether `id` follows the id rule (what [`ScenarioId::parse`] accepts).
pub fn is_scenario_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !id.starts_with('-')
        && !id.ends_with('-')
}
