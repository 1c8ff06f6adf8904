//! Worker and node ids: positions in the scenario's worker and node lists, typed so that a
//! worker is never passed where a node is meant. Owns nothing else; it knows no names.

/// The worker at this position of `Setup::workers` (`A` is 0).
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct WorkerId(pub u8);

/// The node at this position of `RedisSetup::nodes` (the first is the primary at start).
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct NodeId(pub u8);

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
