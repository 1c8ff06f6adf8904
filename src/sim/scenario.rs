//! A scenario as plain data: the setup, the workers' programs and the scheduled faults.
//!
//! Owns the vocabulary a course author writes (and the JSON format, `"format": 1`, read
//! with serde by the catalogue). It holds no behaviour: `world` gives these words meaning.
//! Every field name carries its unit last (`ttl_ms`, `pause_ms`).

use serde::{Deserialize, Serialize};

/// The whole input of one run: same scenario, same trace.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The file format version; this build reads 1.
    pub format: u32,
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub chapter: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub goal: String,
    /// Drives every random draw of the run (lock values, idempotency keys, UUID tokens,
    /// jitter); the same seed replays the same trace.
    pub seed: u64,
    /// The run stops at this virtual time even if workers or watchdogs remain.
    pub until_ms: u64,
    pub redis: RedisSetup,
    #[serde(default)]
    pub tokens: TokenSource,
    pub sql: SqlSetup,
    #[serde(default)]
    pub gateway: GatewaySetup,
    pub workers: Vec<WorkerSetup>,
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// What the learner reads at each step that matters (the model ignores it).
    #[serde(default)]
    pub narration: Vec<Narration>,
    /// The outcome the scenario is written to show; a native test runs it and compares.
    #[serde(default)]
    pub expect: Option<Expected>,
}

/// One paragraph of narration, pinned to an event or a time.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Narration {
    pub at: Anchor,
    pub text: String,
}

/// Where a narration or prompt belongs: the `nth` event of kind `event` (by `actor`), or
/// the first event at or after `at_ms`.
#[derive(Clone, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    /// An event tag such as `granted` or `write-rejected`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// A worker or node name, or `db`, `checker`, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// 1 for the first matching event (the default), 2 for the second, ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
}

/// The outcome a scenario promises.
#[derive(Clone, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The short outcome shown on the card, e.g. "stale write rejected".
    pub badge: String,
    /// Violated properties, in trace order (empty: none).
    #[serde(default)]
    pub violations: Vec<String>,
    /// Liveness warnings, in trace order.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Writes to the order row that matched a row, and that matched none.
    pub accepted: u32,
    pub rejected: u32,
    /// Real charges at the gateway (replays excluded).
    #[serde(default)]
    pub charges: u32,
    /// Whether two workers ever believed they held the lock at once.
    pub overlap: bool,
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RedisSetup {
    /// Node names; the first is the primary, the others its replicas (or, with
    /// `topology: "redlock"`, independent peers).
    pub nodes: Vec<NodeSetup>,
    #[serde(default)]
    pub topology: Topology,
    pub lock_key: String,
    pub fence_key: String,
    /// The counter's value before the run (32 in the seed's story, so A draws 33).
    #[serde(default)]
    pub fence_start: i64,
    /// Asynchronous replication delay from the primary to each replica.
    #[serde(default)]
    pub lag_ms: u64,
    /// How long Sentinel takes to notice a dead primary and promote a replica; none means
    /// no automatic failover.
    #[serde(default)]
    pub failover_after_ms: Option<u64>,
    #[serde(default)]
    pub persistence: Persistence,
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSetup {
    pub name: String,
    /// This node's wall clock minus the global time, at the start.
    #[serde(default)]
    pub clock_offset_ms: i64,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topology {
    /// One primary and asynchronous replicas (Sentinel-style failover).
    #[default]
    Replicated,
    /// Independent nodes, locked by majority (Redlock).
    Redlock,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "mode")]
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
#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
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

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SqlSetup {
    pub order_id: i64,
    #[serde(default)]
    pub amount: i64,
    /// The order row's `last_fence` before the run.
    #[serde(default)]
    pub last_fence: i64,
    /// The fence comparison the database applies to fenced writes.
    #[serde(default)]
    pub guard: Guard,
    /// Whether fenced writes also require `status = 'pending'`.
    #[serde(default)]
    pub status_check: StatusCheck,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guard {
    /// `UPDATE ... WHERE id = :id` (the token is stored but not checked).
    None,
    /// `AND last_fence < :fence` (the playground's rule).
    #[default]
    Lt,
    /// `AND last_fence <= :fence` (Redisson's "greater or equal").
    Le,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusCheck {
    #[default]
    Off,
    /// `AND status = 'pending'`.
    Pending,
}

#[derive(Clone, Copy, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GatewaySetup {
    /// Whether the payment gateway replays the stored result for a repeated key.
    #[serde(default = "yes")]
    pub honours_keys: bool,
}

impl Default for GatewaySetup {
    /// A gateway that honours idempotency keys, as Stripe-like APIs do.
    fn default() -> GatewaySetup {
        GatewaySetup { honours_keys: true }
    }
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerSetup {
    /// `A`, `B`, `C`, ... as the seed articles name them.
    pub name: String,
    #[serde(default)]
    pub start_ms: u64,
    pub program: Vec<Step>,
    /// Run instead of the rest of `program` when a fenced write is rejected.
    #[serde(default)]
    pub on_rejected: Vec<Step>,
    /// How long the worker waits for a reply before it treats it as lost.
    #[serde(default = "default_reply_timeout_ms")]
    pub reply_timeout_ms: u64,
}

fn default_reply_timeout_ms() -> u64 {
    1_000
}

/// One instruction of a worker's program.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "do", deny_unknown_fields)]
pub enum Step {
    /// Take the lock with a TTL and get a token.
    Acquire {
        #[serde(default)]
        how: AcquireHow,
        ttl_ms: u64,
        /// Try again this often while the lock is busy.
        #[serde(default = "default_retry_every_ms")]
        retry_every_ms: u64,
        /// Give up after this many attempts.
        #[serde(default = "default_attempts")]
        attempts: u32,
    },
    /// `WAIT replicas timeout_ms` after the grant.
    WaitReplicas {
        replicas: i64,
        timeout_ms: u64,
        #[serde(default)]
        on_short: OnShort,
    },
    /// Local work that takes CPU time (stretched by a pause).
    Compute {
        ms: u64,
    },
    /// `SELECT ... FROM orders WHERE id = :id`; with `compare`, the client-side fence check
    /// (compare `last_fence` with the token in the app).
    Read {
        #[serde(default)]
        compare: Compare,
    },
    /// The write to the order row.
    Write {
        #[serde(default)]
        how: WriteHow,
        #[serde(default = "default_status")]
        status: String,
        /// Also require this current status (`AND status = 'pending'`), a state-machine
        /// guard; without it the scenario's `sql.status_check` applies to fenced writes.
        #[serde(default)]
        from: Option<String>,
        /// Attempts in all, retrying after a lost reply.
        #[serde(default = "default_attempts")]
        attempts: u32,
        /// Wait before a retry: `backoff_ms`, doubling with each attempt.
        #[serde(default)]
        backoff_ms: u64,
    },
    /// A call to the payment gateway.
    Charge {
        #[serde(default)]
        key: KeyStrategy,
        #[serde(default = "default_attempts")]
        attempts: u32,
        #[serde(default)]
        backoff_ms: u64,
    },
    /// Upload the result object; with `if_match`, a conditional put on the ETag read first.
    PutObject {
        #[serde(default)]
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
        #[serde(default)]
        interval_ms: Option<u64>,
        #[serde(default)]
        how: RenewHow,
    },
    /// Release the lock (and stop the watchdog).
    Release {
        #[serde(default)]
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

fn default_retry_every_ms() -> u64 {
    1_000
}

fn default_attempts() -> u32 {
    1
}

fn default_status() -> String {
    "paid".to_owned()
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
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

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnShort {
    /// Carry on although fewer replicas acknowledged.
    #[default]
    Proceed,
    /// Release the lock and give up.
    GiveUp,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compare {
    /// Just read.
    #[default]
    No,
    /// Compare `last_fence` with the token in the application (the anti-pattern).
    Token,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteHow {
    /// Carries the token; the database applies `sql.guard` (and `sql.status_check`).
    #[default]
    Fenced,
    /// Stores the token in `last_fence` but checks nothing (the client checked, or nobody).
    Unchecked,
    /// No token, no guard.
    Unfenced,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyStrategy {
    /// No idempotency key.
    #[default]
    None,
    /// A fresh random key for every attempt (no protection at all).
    PerAttempt,
    /// One deterministic key per order, e.g. `order-42-pay`.
    PerOrder,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RenewHow {
    /// The check-and-extend script.
    #[default]
    Script,
    /// A bare `PEXPIRE` (extends whoever's lock is there).
    BarePexpire,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReleaseHow {
    /// The check-and-delete script.
    #[default]
    Script,
    /// A bare `DEL` (deletes whoever's lock is there).
    BareDel,
}

/// Something that happens to a worker, a node or the network at a planned time.
#[derive(Clone, Debug, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "fault", deny_unknown_fields)]
pub enum Fault {
    /// A stop-the-world pause (GC, VM migration, SIGSTOP): the watchdog stops too.
    Pause { worker: String, at_ms: u64, pause_ms: u64 },
    /// The main thread hangs; the watchdog thread keeps running.
    Hang { worker: String, at_ms: u64, hang_ms: u64 },
    /// The worker process dies.
    Crash { worker: String, at_ms: u64 },
    /// The reply to the worker's request at `step` (0-based), attempt `attempt`, is lost
    /// after the server applied it.
    LoseReply {
        worker: String,
        step: usize,
        #[serde(default = "first_attempt")]
        attempt: u32,
    },
    /// Requests the worker sends in `[at_ms, at_ms + window_ms)` take `delay_ms` to arrive.
    Delay { worker: String, at_ms: u64, window_ms: u64, delay_ms: u64 },
    /// The node stops. `power` loses what was not fsynced; `process` loses only what was
    /// never written to the OS.
    CrashNode {
        node: String,
        at_ms: u64,
        #[serde(default)]
        kind: CrashKind,
        /// Restart this long after the crash; none means it stays down.
        #[serde(default)]
        restart_after_ms: Option<u64>,
    },
    /// The node's wall clock jumps (an NTP step or an operator).
    ClockJump { node: String, at_ms: u64, jump_ms: i64 },
    /// The worker cannot reach the node for a while.
    Partition { worker: String, node: String, at_ms: u64, partition_ms: u64 },
    /// An operator overwrites the counter key with a value (e.g. not an integer).
    SetCounter { at_ms: u64, value: String },
}

fn first_attempt() -> u32 {
    1
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Eq, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashKind {
    #[default]
    Process,
    Power,
}
