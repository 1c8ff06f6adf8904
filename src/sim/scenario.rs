//! A scenario's [`Setup`] as plain data (the cluster, the token source, the order row, the
//! workers' programs and the planned faults): all the simulator is given. The lesson
//! around it (title, narration, prompts, promised outcome) is `catalogue::lesson`'s, which
//! this module never names.
//!
//! Owns the setup's vocabulary as a course author writes it and its shape in a file
//! (`"format": 1`): field names, defaults and, in [`Word`] tables, the spelling of every
//! enum, derived into serde so every format (the JSON files, the first page's baked
//! lessons) and every menu and link spells them alike; `form` holds the flat shapes of the
//! tagged kinds, `fault` the faults by id and by name; and the scenario-id type.
//! It holds no behaviour: `world` gives these words meaning. Every field name carries its
//! unit last (`ttl_ms`, `pause_ms`).

use serde::{Deserialize, Serialize};

mod fault;
mod form;

pub use fault::{CrashKind, Fault, NamedFault};
pub use form::{FaultKind, StepKind};
#[doc(hidden)]
pub use form::{Refusal, only, read_word, required};

/// The whole input of one run: the cluster, the token source, the order row, the workers'
/// programs and the planned faults. Same setup, same trace.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Setup {
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
}

#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
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
    pub failover_after_ms: Option<u64>,
    #[serde(default)]
    pub persistence: Persistence,
}

impl RedisSetup {
    /// The seed articles' Redis: one node, `redis`, holding `lock:order:42` and the counter
    /// `fence:order:42` at 32 (so the first grant draws 33), no replicas, no persistence.
    pub fn seed_story() -> RedisSetup {
        RedisSetup {
            nodes: vec![NodeSetup { name: "redis".to_owned(), clock_offset_ms: 0 }],
            topology: Topology::Replicated,
            lock_key: "lock:order:42".to_owned(),
            fence_key: "fence:order:42".to_owned(),
            fence_start: 32,
            lag_ms: 0,
            failover_after_ms: None,
            persistence: Persistence::None,
        }
    }
}

#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSetup {
    pub name: String,
    /// This node's wall clock minus the global time, at the start.
    #[serde(default)]
    pub clock_offset_ms: i64,
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Topology {
    /// One primary and asynchronous replicas (Sentinel-style failover).
    #[default]
    Replicated,
    /// Independent nodes, locked by majority (Redlock).
    Redlock,
    /// A Redis Cluster shard (`cluster-enabled yes`): a primary and its replicas as in
    /// `Replicated`, and a request whose keys hash to different slots is refused with
    /// `CROSSSLOT` (the shard owns every slot, so nothing is ever redirected).
    Cluster,
}

impl Topology {
    /// Whether the nodes are one primary and its replicas (everything but Redlock).
    pub fn has_primary(self) -> bool {
        self != Topology::Redlock
    }
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "form::PersistenceForm", into = "form::PersistenceForm")]
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

#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
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

impl SqlSetup {
    /// The seed articles' order row: order 42 for 100, `last_fence` 0, pending, with
    /// `guard` deciding fenced writes.
    pub fn seed_story(guard: Guard) -> SqlSetup {
        SqlSetup { order_id: 42, amount: 100, last_fence: 0, guard, status_check: StatusCheck::Off }
    }
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

#[derive(Clone, Copy, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct GatewaySetup {
    /// Whether the payment gateway replays the stored result for a repeated key.
    pub honours_keys: bool,
    /// How long the gateway keeps a key after its first request (Stripe: at least 24 h);
    /// a repeat after that is a new request. None: forever.
    pub key_retention_ms: Option<u64>,
}

impl Default for GatewaySetup {
    /// A gateway that honours idempotency keys, as Stripe-like APIs do.
    fn default() -> GatewaySetup {
        GatewaySetup { honours_keys: true, key_retention_ms: None }
    }
}

/// "Alert when more than `share_pct` percent of the fenced writes in the last `window_ms`
/// were fenced off": the operational rule for stale tokens. Evaluated after every write
/// that carries a token, over the writes whose statement reached the database in the
/// window (the current one included).
#[derive(Clone, Copy, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AlertRule {
    pub window_ms: u64,
    /// Fires when fenced-off writes are at least this percentage of the window's writes.
    pub share_pct: u32,
}

#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
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
    #[serde(default = "form::reply_timeout_ms")]
    pub reply_timeout_ms: u64,
}

/// One instruction of a worker's program.
#[derive(Clone, Debug, Eq, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "form::StepForm", into = "form::StepForm")]
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
        /// The status that means this worker's job is already done: a read that finds it
        /// ends the worker (after its release), as a handler that checks fresh state before
        /// redoing work does.
        done_if: Option<String>,
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
    /// Upload the result object; with `if_match`, a conditional put on the ETag read first,
    /// and with `meta_fence` as well, the put stores this worker's token in the object's
    /// metadata (`x-amz-meta-fence`) for a later `head-object` to compare with.
    PutObject {
        if_match: bool,
        meta_fence: bool,
    },
    /// `HEAD` the result object: its ETag (for a later `If-Match`) and its metadata; with
    /// `compare`, the worker stops when the token in the metadata is not below its own. The
    /// comparison is in the client, but the put that follows is conditional on this very
    /// ETag, so a put by anyone in between makes it fail: together they are one
    /// compare-and-set.
    HeadObject {
        compare: Compare,
    },
    /// Delete the objects this worker uploaded under its (stale) token.
    DeleteOwnObjects,
    /// After a rejected write: read the row to tell "already applied" from "superseded".
    Reread,
    /// `GET` the lock key and go on only while it still holds this acquisition's value:
    /// the check most people add first. It answers for the moment of the `GET`; a pause
    /// or a slow network after it defeats it.
    CheckLease,
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

/// An enum the format spells with a fixed set of words: one table per enum, read and
/// written by serde (see `words!`) and by everything else that spells it (menus, links,
/// the what-if knobs, the explorer).
pub trait Word: Copy + PartialEq + Sized + 'static {
    /// Each value with its word, in the order the format documents them.
    const WORDS: &'static [(&'static str, Self)];

    /// The word for this value.
    fn word(self) -> &'static str {
        Self::WORDS.iter().find(|(_, v)| *v == self).map_or("", |(w, _)| w)
    }

    /// The value `text` spells, if it is one of the words.
    fn from_word(text: &str) -> Option<Self> {
        Self::WORDS.iter().find(|(w, _)| *w == text).map(|(_, v)| *v)
    }

    /// The words alone, for menus and error messages.
    fn words() -> Vec<&'static str> {
        Self::WORDS.iter().map(|(w, _)| *w).collect()
    }
}

/// Gives an enum its [`Word`] table and reads and writes it as that word.
macro_rules! words {
    ($ty:ty: $($word:literal => $value:expr),+ $(,)?) => {
        impl Word for $ty {
            const WORDS: &'static [(&'static str, Self)] = &[$(($word, $value)),+];
        }

        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
                to.serialize_str(self.word())
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
                $crate::sim::scenario::read_word(from)
            }
        }
    };
}
pub(crate) use words;

words!(Topology: "replicated" => Topology::Replicated, "redlock" => Topology::Redlock, "cluster" => Topology::Cluster);
words!(TokenSource:
    "redis-incr" => TokenSource::RedisIncr,
    "consensus" => TokenSource::Consensus,
    "pg-sequence" => TokenSource::PgSequence,
    "uuid" => TokenSource::Uuid,
    "none" => TokenSource::None,
);
words!(Guard: "none" => Guard::None, "lt" => Guard::Lt, "le" => Guard::Le);
words!(StatusCheck: "off" => StatusCheck::Off, "pending" => StatusCheck::Pending);
words!(AcquireHow:
    "script" => AcquireHow::Script,
    "set-then-incr" => AcquireHow::SetThenIncr,
    "incr-then-set" => AcquireHow::IncrThenSet,
    "redlock" => AcquireHow::Redlock,
);
words!(OnShort: "proceed" => OnShort::Proceed, "give-up" => OnShort::GiveUp);
words!(Compare: "no" => Compare::No, "token" => Compare::Token);
words!(WriteHow:
    "fenced" => WriteHow::Fenced,
    "unchecked" => WriteHow::Unchecked,
    "unfenced" => WriteHow::Unfenced,
    "set-state" => WriteHow::SetState,
);
words!(KeyStrategy:
    "none" => KeyStrategy::None,
    "per-attempt" => KeyStrategy::PerAttempt,
    "per-order" => KeyStrategy::PerOrder,
);
words!(RenewHow: "script" => RenewHow::Script, "bare-pexpire" => RenewHow::BarePexpire);
words!(ReleaseHow: "script" => ReleaseHow::Script, "bare-del" => ReleaseHow::BareDel);
words!(CrashKind: "process" => CrashKind::Process, "power" => CrashKind::Power);

impl Serialize for ScenarioId {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        to.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ScenarioId {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        let text = String::deserialize(from)?;
        ScenarioId::parse(&text).ok_or_else(|| {
            serde::de::Error::custom("an id is 1 to 64 lower-case letters, digits and dashes")
        })
    }
}
