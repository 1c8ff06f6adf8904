//! The model's ids: workers and nodes (positions in the setup's lists), events (positions
//! in the trace) and leases (grants counted across a run), each typed so that one is never
//! passed where another, or a count, is meant. Owns nothing else; it knows no names.

/// The worker at this position of `Setup::workers` (`A` is 0).
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct WorkerId(pub u8);

/// The node at this position of `RedisSetup::nodes` (the first is the primary at start).
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct NodeId(pub u8);

/// The event at this position of a run's events (the first is 0): what an event's causes,
/// a lane and a lease's grant name.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct EventId(pub u32);

/// A lease's number: the run's grants counted from 1, the truth the checker compares
/// tokens with.
#[derive(Clone, Copy, Debug, Default, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct LeaseNo(pub u32);

impl EventId {
    /// The event at `index`. A run records at most a million events, so every index fits;
    /// a larger one saturates.
    pub fn at(index: usize) -> EventId {
        EventId(u32::try_from(index).unwrap_or(u32::MAX))
    }

    /// Its position in the trace's events and frames.
    pub fn index(self) -> usize {
        // u32 fits in usize on every target the crate builds for (32 and 64 bits).
        self.0 as usize
    }
}

impl LeaseNo {
    /// Its position in per-lease lists (numbers are small and dense).
    pub fn index(self) -> usize {
        // u32 fits in usize on every target the crate builds for (32 and 64 bits).
        self.0 as usize
    }

    /// The number after this one.
    pub fn next(self) -> LeaseNo {
        LeaseNo(self.0.saturating_add(1))
    }
}

impl WorkerId {
    /// The worker at `index`. The loader allows at most 8 workers, so every index fits; a
    /// larger one saturates rather than wraps onto another worker.
    pub fn at(index: usize) -> WorkerId {
        WorkerId(u8::try_from(index).unwrap_or(u8::MAX))
    }

    /// Its position in per-worker lists.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl NodeId {
    /// The node at `index` (at most 7 nodes; larger indices saturate, as for workers).
    pub fn at(index: usize) -> NodeId {
        NodeId(u8::try_from(index).unwrap_or(u8::MAX))
    }

    /// Its position in per-node lists.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

// The bare position, as exports name lanes (`W0`, `N1`).
impl std::fmt::Display for WorkerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

// The bare number, as the trace's text writes `#12` and its causes.
impl std::fmt::Display for EventId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::fmt::Display for LeaseNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
