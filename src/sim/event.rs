//! Events: the immutable, past-tense facts a run produces, one per atomic step.
//!
//! Owns the event vocabulary shared by the checker, the text rendering and the UI. An event
//! carries what a learner needs to read it without the world: the command as typed, the
//! reply, and the events it depends on. It must not carry behaviour.

use crate::sim::id::{EventId, NodeId, WorkerId};

/// How many rows a statement matched: the fenced UPDATE matches the order's one row or
/// none, and a lesson's facts and the summaries count it, never anything else.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct RowCount(pub u32);

impl RowCount {
    /// Whether the statement matched any row (a write accepted rather than turned away).
    pub fn matched(self) -> bool {
        self.0 > 0
    }
}

// The bare number, as psql's `UPDATE 1` and the lessons' sentences write it.
impl std::fmt::Display for RowCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Who did something: one swimlane each.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub enum Actor {
    Worker(WorkerId),
    Node(NodeId),
    /// The token service when it is not Redis (consensus counter or sequence).
    Tokens,
    Db,
    Gateway,
    Storage,
    Dlq,
    /// The safety checker (violations, warnings, facts).
    Checker,
}

/// The safety properties the checker enforces (see `check`).
#[derive(
    Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd, serde::Serialize, serde::Deserialize,
)]
pub enum Property {
    TokenUnique,
    TokenOrder,
    OwnerOnly,
    NoStaleAccept,
    /// A write accepted from a worker whose lease had passed to another worker, before
    /// any write of the newer holder reached the row (the fence only protects from the
    /// new holder's first write on).
    NoStaleHolder,
    OneWriterPerToken,
    PaidOnce,
    EffectOnce,
}

impl Property {
    /// Every property, in the order the checker documents them.
    pub const ALL: [Property; 8] = [
        Property::TokenUnique,
        Property::TokenOrder,
        Property::OwnerOnly,
        Property::NoStaleAccept,
        Property::NoStaleHolder,
        Property::OneWriterPerToken,
        Property::PaidOnce,
        Property::EffectOnce,
    ];

    /// The property `name` names (as [`Property::name`] spells it).
    pub fn from_name(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The name used in JSON output and docs.
    pub fn name(self) -> &'static str {
        match self {
            Property::TokenUnique => "token-unique",
            Property::TokenOrder => "token-order",
            Property::OwnerOnly => "owner-only",
            Property::NoStaleAccept => "no-stale-accept",
            Property::NoStaleHolder => "no-stale-holder",
            Property::OneWriterPerToken => "one-writer-per-token",
            Property::PaidOnce => "paid-once",
            Property::EffectOnce => "effect-once",
        }
    }
}

/// Liveness warnings: not unsafe, but stuck.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub enum WarningKind {
    AllWritesRejected,
    LockHeldByHungWorker,
}

impl WarningKind {
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::AllWritesRejected => "all-writes-rejected",
            WarningKind::LockHeldByHungWorker => "lock-held-by-hung-worker",
        }
    }
}

/// What happened. Worker-side kinds name the worker through the event's actor.
#[derive(Clone, Debug, Eq, Hash, PartialEq)]
pub enum EventKind {
    /// The lock was granted (with its token, if the token came in the same step).
    Granted {
        token: Option<i64>,
    },
    /// The lock key was set by a non-atomic acquire; the token comes in another step.
    LockSet,
    /// A token was drawn on its own (`INCR`, consensus, sequence, UUID).
    TokenDrawn {
        token: i64,
    },
    /// The lock was held by someone else (or a majority was not reached).
    Denied,
    /// The acquire script failed halfway (no rollback): the lock may be set with no token.
    AcquireFailed,
    /// The worker gave up acquiring.
    GaveUp,
    /// A Redlock attempt on one node.
    NodeLocked {
        node: NodeId,
        ok: bool,
    },
    /// `WAIT` returned.
    WaitReturned {
        acked: i64,
        wanted: i64,
    },
    Renewed {
        ok: bool,
    },
    Released {
        deleted: bool,
    },
    /// A read of the order row; `stale` when the client-side comparison failed.
    Read {
        last_fence: i64,
        stale: bool,
    },
    /// The order row update (`rows` is 0 or 1).
    Wrote {
        token: Option<i64>,
        rows: RowCount,
    },
    /// The update waits for another transaction's row lock.
    WriteBlocked {
        holder: WorkerId,
    },
    /// After a rejection: did my write land earlier, or was I superseded?
    Reread {
        already_applied: bool,
        last_fence: i64,
    },
    /// `GET` of the lock key before a write: whether it still held this worker's value.
    LeaseChecked {
        mine: bool,
    },
    Began,
    LockedRow,
    Committed,
    RolledBack,
    Charged {
        key: Option<String>,
    },
    /// The gateway replayed a stored result for a known idempotency key.
    ChargeReplayed {
        key: String,
    },
    ObjectPut {
        name: String,
        etag: String,
    },
    /// `HEAD` of the result object; `stale` when the token in its metadata was not below
    /// the worker's own.
    ObjectHead {
        name: String,
        stale: bool,
    },
    /// A conditional put failed: `412 Precondition Failed`.
    ObjectRejected {
        name: String,
    },
    ObjectDeleted {
        name: String,
    },
    SentToDlq,
    /// The monitor checked its stale-token rule after a fenced write: `fenced_off` of the
    /// window's `writes`; `firing` is the alert's state after the check, `changed` whether
    /// this check fired or resolved it.
    Alert {
        fenced_off: u32,
        writes: u32,
        firing: bool,
        changed: bool,
    },
    /// The request was applied but its reply never arrived.
    ReplyLost,
    /// The worker sent its next request, and the network holds it until `until_ms`.
    Delayed {
        until_ms: u64,
    },
    /// A request failed because the node was down or unreachable.
    Unreachable {
        node: NodeId,
    },
    Paused {
        until_ms: u64,
    },
    Hung {
        until_ms: u64,
    },
    Resumed,
    Crashed,
    Finished,
    /// The lock key's deadline passed on this node (the primary synthesises a `DEL`).
    Expired {
        key: String,
    },
    /// A replication batch was applied on a replica.
    Replicated {
        from: NodeId,
        n_effects: u32,
    },
    NodeCrashed {
        power: bool,
    },
    NodeRestarted {
        n_keys: u32,
    },
    Promoted,
    /// A replica synchronised from a primary and replaced its whole dataset.
    Resynced {
        from: NodeId,
        n_keys: u32,
    },
    ClockJumped {
        jump_ms: i64,
    },
    CounterOverwritten,
    Violation {
        property: Property,
        explanation: String,
    },
    Warning {
        kind: WarningKind,
        explanation: String,
    },
    /// Two or more workers now believe they hold the lock (a fact, not a violation).
    Overlap {
        workers: Vec<WorkerId>,
    },
}

/// Each kind's tag, written once: the macro makes [`EventKind::tag`]'s match and [`TAGS`]
/// (every tag it can return, for the sandbox's lint, "did you mean") from one list.
macro_rules! event_tags {
    ($($pattern:pat => $tag:literal,)*) => {
        /// Every tag [`EventKind::tag`] can return.
        pub const TAGS: &[&str] = &[$($tag),*];

        impl EventKind {
            /// A stable, kebab-case tag (`data-kind` in the UI, `kind` in JSON).
            pub fn tag(&self) -> &'static str {
                match self {
                    $($pattern => $tag,)*
                }
            }
        }
    };
}

event_tags! {
    EventKind::Granted { .. } => "granted",
    EventKind::LockSet => "lock-set",
    EventKind::TokenDrawn { .. } => "token-drawn",
    EventKind::Denied => "denied",
    EventKind::AcquireFailed => "acquire-failed",
    EventKind::GaveUp => "gave-up",
    EventKind::NodeLocked { .. } => "node-locked",
    EventKind::WaitReturned { .. } => "wait-returned",
    EventKind::Renewed { .. } => "renewed",
    EventKind::Released { .. } => "released",
    EventKind::Read { .. } => "read",
    EventKind::Wrote { rows: RowCount(0), .. } => "write-rejected",
    EventKind::Wrote { .. } => "write-accepted",
    EventKind::WriteBlocked { .. } => "write-blocked",
    EventKind::Reread { .. } => "reread",
    EventKind::LeaseChecked { .. } => "lease-checked",
    EventKind::Began => "began",
    EventKind::LockedRow => "locked-row",
    EventKind::Committed => "committed",
    EventKind::RolledBack => "rolled-back",
    EventKind::Charged { .. } => "charged",
    EventKind::ChargeReplayed { .. } => "charge-replayed",
    EventKind::ObjectPut { .. } => "object-put",
    EventKind::ObjectHead { .. } => "object-head",
    EventKind::ObjectRejected { .. } => "object-rejected",
    EventKind::ObjectDeleted { .. } => "object-deleted",
    EventKind::SentToDlq => "sent-to-dlq",
    EventKind::Alert { firing: true, changed: true, .. } => "alert-fired",
    EventKind::Alert { firing: false, changed: true, .. } => "alert-resolved",
    EventKind::Alert { .. } => "alert-checked",
    EventKind::ReplyLost => "reply-lost",
    EventKind::Delayed { .. } => "delayed",
    EventKind::Unreachable { .. } => "unreachable",
    EventKind::Paused { .. } => "paused",
    EventKind::Hung { .. } => "hung",
    EventKind::Resumed => "resumed",
    EventKind::Crashed => "crashed",
    EventKind::Finished => "finished",
    EventKind::Expired { .. } => "expired",
    EventKind::Replicated { .. } => "replicated",
    EventKind::NodeCrashed { .. } => "node-crashed",
    EventKind::NodeRestarted { .. } => "node-restarted",
    EventKind::Promoted => "promoted",
    EventKind::Resynced { .. } => "resynced",
    EventKind::ClockJumped { .. } => "clock-jumped",
    EventKind::CounterOverwritten => "counter-overwritten",
    EventKind::Violation { .. } => "violation",
    EventKind::Warning { .. } => "warning",
    EventKind::Overlap { .. } => "overlap",
}

/// The prose of an event (a fact's text, a rejection's why, a finding's explanation) as a
/// message key with named arguments, so the UI can say it in the learner's language. The
/// English text in the event stays the reference (traces and exports use it).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Note {
    /// A key such as `sim.paused`; empty when the event has no prose.
    pub key: &'static str,
    pub args: Vec<(&'static str, String)>,
}

impl Note {
    pub fn new(key: &'static str, args: Vec<(&'static str, String)>) -> Note {
        Note { key, args }
    }

    /// The English text: the reference wording used in traces, exports and the CLI.
    pub fn english(&self) -> String {
        let template = NOTE_TEMPLATES.iter().find(|(k, _)| *k == self.key).map_or("", |(_, t)| *t);
        let args: Vec<(&str, &str)> = self.args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(template, &args)
    }
}

/// Fills `{name}` placeholders; unknown ones stay as written.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &after[..close];
        match args.iter().find(|(k, _)| *k == name) {
            Some((_, value)) => out.push_str(value),
            None => {
                out.push('{');
                out.push_str(name);
                out.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The English wording of every note, by key (translations live in the language packs).
pub const NOTE_TEMPLATES: &[(&str, &str)] = &[
    // The timeline's spans (`crate::timeline`), said the same way as events' notes.
    ("span.paused", "paused until {t}"),
    ("span.hung", "hung until {t}"),
    ("span.blocked", "waiting for a row lock"),
    ("span.crashed", "crashed"),
    ("span.down", "down"),
    ("span.belief", "believes it holds the lock until {t}"),
    ("span.belief_token", "believes it holds the lock until {t} with token {token}"),
    ("span.fence", "last_fence = {value}"),
    ("span.lock", "lock held by {owner} (value {holder}), deadline {t} on this node's clock"),
    ("span.lock_no_ttl", "lock held by {owner} (value {holder}), no TTL"),
    (
        "sim.token_unique",
        "token {token} was issued twice: to {first} at {t1} and again to {second} at {t2}",
    ),
    (
        "sim.token_order",
        "{first} was granted the lock at {t1} before {second} at {t2}, but holds the higher token ({a} > {b})",
    ),
    ("sim.owner_only_del", "{actor}'s bare DEL acted on the lock that belongs to {owner}"),
    ("sim.owner_only_pexpire", "{actor}'s bare PEXPIRE acted on the lock that belongs to {owner}"),
    (
        "sim.owner_only_release",
        "{actor}'s check-and-delete acted on the lock that belongs to {owner}",
    ),
    (
        "sim.owner_only_renew",
        "{actor}'s check-and-extend acted on the lock that belongs to {owner}",
    ),
    (
        "sim.all_rejected",
        "the counter went back (tokens up to {before} were issued before): every write is rejected until it passes last_fence {fence}",
    ),
    (
        "sim.stale_token",
        "write by {worker} with token {token} accepted after a write with token {max} had been accepted",
    ),
    (
        "sim.stale_lease",
        "write by {worker} accepted although its lease had been superseded: {newer} was granted the lock later and its write was already accepted",
    ),
    (
        "sim.stale_holder",
        "write by {worker} with token {token} accepted after its lease had passed to {newer} (granted at {t}): no write of {newer}'s had reached the row yet, so the fence had nothing newer to compare with",
    ),
    (
        "sim.stale_holder_plain",
        "write by {worker} accepted after its lease had passed to {newer} (granted at {t}), while {newer} held the lock",
    ),
    (
        "sim.stale_object",
        "put by {worker} with token {token} replaced the shared object after its lease had passed to {newer} (granted at {t})",
    ),
    ("sim.one_writer", "token {token} was accepted from two writers: {first} and {second}"),
    ("sim.paid_once", "order moved to paid a second time: first by {first}, now by {second}"),
    (
        "sim.effect_once",
        "the customer was charged {n} times for one order: first by {first}, now by {second}",
    ),
    (
        "sim.hung_renew",
        "{name}'s main thread has been hung for {d} but its watchdog keeps renewing: nobody else can take the lock",
    ),
    ("sim.paused", "stop-the-world pause for {d} (until {t})"),
    ("sim.delayed", "request sent; the network holds it for {d} (it arrives at {t})"),
    ("sim.hung", "main thread hangs for {d} (until {t})"),
    ("sim.resumed", "running again"),
    ("sim.crashed", "process died"),
    ("sim.power_lost", "power lost"),
    ("sim.process_crashed", "process crashed"),
    ("sim.clock_jumped", "wall clock jumped {jump} ms"),
    ("sim.overlap2", "{a} and {b} both believe they hold the lock"),
    ("sim.overlap_n", "{names} all believe they hold the lock"),
    ("sim.expired", "{key} expired: its deadline passed on {node}'s clock"),
    ("sim.promoted", "promoted after {node} lost its primary; now expires keys on its own clock"),
    ("sim.restarted", "restarted, keys loaded: {n}"),
    ("sim.resynced", "full resync from {from}: dataset replaced, keys: {n}"),
    ("sim.finished", "program finished"),
    ("sim.fenced_off", "stopped: fenced off"),
    ("sim.lease_lost", "stopped: the lock no longer holds its value"),
    ("sim.gave_up", "gave up"),
    ("sim.already_done", "stopped: the order was already processed"),
    ("sim.nothing_left", "stopped: the fresh read shows this job already done"),
    ("sim.gave_up_busy", "gave up: lock busy"),
    ("sim.gave_up_failed", "gave up: the acquire script failed"),
    ("sim.gave_up_lost", "gave up after a lost reply"),
    ("sim.gave_up_wait", "gave up: too few replicas acknowledged"),
    ("sim.no_token", "no token"),
    ("sim.lost_retry", "no reply: timed out, retrying"),
    ("sim.lost_retry_in", "no reply: timed out, retrying in {d}"),
    ("sim.lost_give_up", "no reply: timed out, giving up"),
    ("sim.unreachable", "cannot reach {node}"),
    ("sim.no_primary", "no primary to talk to"),
    ("sim.blocked", "waits for {name}'s row lock"),
    ("sim.why_fence", "write by {worker} with token {token} rejected: last_fence is {fence}"),
    (
        "sim.why_fence_by",
        "write by {worker} with token {token} rejected: last_fence is {fence}, written by {by} at {t}",
    ),
    ("sim.why_status", "write by {worker} matched no row: status is '{status}', not '{required}'"),
    (
        "sim.why_status_by",
        "write by {worker} matched no row: status is '{status}', not '{required}', written by {by} at {t}",
    ),
    (
        "sim.reread_mine",
        "last_fence = {fence} was written by {by}: my earlier attempt landed (already applied)",
    ),
    ("sim.reread_other", "last_fence = {fence} was written by {by}: I was superseded"),
    ("sim.skip_object", "skipped: the object now belongs to a newer holder"),
    (
        "sim.alert_firing",
        "{n} of the {m} fenced writes in the last {window} were fenced off ({pct}%), at or above the {limit}% limit",
    ),
    (
        "sim.alert_resolved",
        "{n} of the {m} fenced writes in the last {window} were fenced off ({pct}%), under the {limit}% limit again",
    ),
];

/// One atomic step of the run.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Event {
    /// Its index in the trace.
    pub id: EventId,
    pub at_ms: u64,
    pub actor: Actor,
    pub kind: EventKind,
    /// The command or statement as a learner would type it; empty for pure facts.
    pub command: String,
    /// The reply as the client saw it (or would have, for a lost reply).
    pub reply: String,
    /// Why it turned out this way, for rejections (empty otherwise).
    pub why: String,
    /// Earlier events this one depends on (the grant a write used, the write that fenced it).
    pub causes: Vec<EventId>,
    /// The other end of a request: the node a worker's command went to, or the worker a
    /// service answered. `None` for facts (expiries, pauses, checker findings).
    pub peer: Option<Actor>,
    /// The event's prose as a message key (see [`Note`]).
    pub note: Note,
}
