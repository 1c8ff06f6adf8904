//! The observable state of the world at one instant: what the inspector shows at a cursor.
//!
//! Owns plain data only (nodes, the order row, side-effect services, workers' beliefs);
//! the rules that change it live in `world`. Everything here is `Clone` so that the trace
//! can keep one frame per event.

use crate::sim::id::{EventId, LeaseNo, NodeId, WorkerId};
use crate::sim::redis::Keyspace;
use crate::sim::scenario::{Guard, RenewHow, StatusCheck};

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct State {
    pub now_ms: u64,
    pub nodes: Vec<NodeState>,
    /// The node clients send lock commands to (replicated topology), if any is up.
    pub primary: Option<NodeId>,
    /// The consensus counter or sequence value (other token sources).
    pub token_counter: i64,
    pub order: OrderRow,
    /// The worker whose open transaction holds the order row's lock.
    pub row_lock: Option<WorkerId>,
    pub charges: Vec<Charge>,
    pub idempotency_keys: Vec<String>,
    pub objects: Vec<StoredObject>,
    pub dlq: Vec<String>,
    pub workers: Vec<WorkerState>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct NodeState {
    pub name: String,
    /// Wall clock minus global time; changed by clock jumps.
    pub clock_offset_ms: i64,
    pub up: bool,
    pub role: Role,
    pub keyspace: Keyspace,
    /// Replication offset: batches produced (primary) or applied (replica).
    pub offset: u64,
}

impl NodeState {
    /// This node's wall-clock reading at global time `global_ms`.
    pub fn clock_ms(&self, global_ms: u64) -> i64 {
        i64::try_from(global_ms).unwrap_or(i64::MAX).saturating_add(self.clock_offset_ms)
    }
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Role {
    Primary,
    Replica {
        of: NodeId,
    },
    /// An independent Redlock node.
    Peer,
}

#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct OrderRow {
    pub id: i64,
    pub status: String,
    pub amount: i64,
    pub last_fence: i64,
    pub updated_by: String,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Charge {
    pub worker: WorkerId,
    pub at_ms: u64,
    pub key: Option<String>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct StoredObject {
    pub name: String,
    pub etag: String,
    pub written_by: WorkerId,
    pub token: Option<i64>,
    /// The lease its writer held (the checker's order of holders).
    pub lease: Option<LeaseNo>,
    /// The token the writer stored in the object's metadata (`x-amz-meta-fence`), if any.
    pub meta_fence: Option<i64>,
}

/// What a worker is doing.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Activity {
    /// Before its start time.
    Waiting,
    Running,
    /// Stop-the-world: nothing of the process runs, not even the watchdog.
    Paused {
        until_ms: u64,
    },
    /// The main thread is stuck; the watchdog thread still runs.
    Hung {
        until_ms: u64,
    },
    /// Waiting for another transaction's row lock.
    Blocked,
    Crashed,
    Done,
}

/// The worker's own view: "I hold the lock until t, with token n".
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Belief {
    pub since_ms: u64,
    pub until_ms: u64,
    pub token: Option<i64>,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct WorkerState {
    pub name: String,
    pub activity: Activity,
    /// Which list runs, and where in it the worker is.
    pub phase: Phase,
    pub pc: usize,
    pub attempt: u32,
    /// The lock instance this worker was granted, if it holds (or held) one.
    pub lease: Option<Lease>,
    pub belief: Option<Belief>,
    pub watchdog: Option<Watchdog>,
    /// In an open transaction, the row as this transaction sees it.
    pub txn_row: Option<OrderRow>,
    pub in_txn: bool,
    /// The last ETag seen for the result object (for `If-Match`).
    pub etag_seen: Option<String>,
    /// Objects this worker uploaded, for cleanup after a rejection.
    pub uploads: Vec<String>,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Phase {
    Main,
    /// Running `on_rejected` after a fenced-off write.
    Rejected,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Lease {
    /// Global order of grants (1, 2, ...): the truth the checker compares tokens with.
    pub seq: LeaseNo,
    /// The lock's value for this acquisition (see [`lock_value`]): what release and renew
    /// compare, so that no other acquisition, even the same worker's, can touch it.
    pub value: std::rc::Rc<str>,
    pub token: Option<i64>,
    pub ttl_ms: u64,
    /// The event that granted it.
    pub granted_by: EventId,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct Watchdog {
    pub interval_ms: u64,
    pub how: RenewHow,
}

/// How the database checks a fenced write (from the scenario).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct WriteGuard {
    pub guard: Guard,
    pub status_check: StatusCheck,
}

/// The lock value of one acquisition: the worker's name (for people) and 12 hex digits
/// drawn from the seed (for Redis), as `A-3f9c21d07b44`. Real clients use a UUID; the name
/// is kept in front so a learner can tell who holds the lock. Shared (`Rc`), because the
/// lease, the client and every request of the acquisition carry the same value.
pub fn lock_value(worker: &str, hex12: &str) -> std::rc::Rc<str> {
    let mut value = String::with_capacity(worker.len() + 1 + hex12.len());
    value.push_str(worker);
    value.push('-');
    value.push_str(hex12);
    std::rc::Rc::from(value)
}

/// The worker a lock value was made for (the text before `-` and 12 hex digits); any other
/// text (a value typed into a console, say) is its own owner.
pub fn lock_value_owner(value: &str) -> &str {
    let bytes = value.as_bytes();
    let n = bytes.len();
    let suffix_ok = n > 13
        && bytes[n - 13] == b'-'
        && bytes[n - 12..].iter().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b));
    if suffix_ok { &value[..n - 13] } else { value }
}
