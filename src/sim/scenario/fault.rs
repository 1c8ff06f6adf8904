//! The faults a setup plans: what happens to a worker, a node or the network, and when.
//! A file names a fault's worker and node ([`NamedFault`]); a setup holds their ids, so
//! the model never looks a name up. Owns the conversions between the two; no behaviour.

use serde::{Deserialize, Serialize};

use super::{Setup, form};
use crate::sim::id::{NodeId, WorkerId};

/// Something that happens to a worker, a node or the network at a planned time.
///
/// A setup's faults name their worker and node by id (`W`, `N`): the loader resolves the
/// names a file gives (a [`NamedFault`]) against the setup's lists, so the model never
/// looks a name up, and renaming a worker in the builder leaves its faults on it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Fault<W = WorkerId, N = NodeId> {
    /// A stop-the-world pause (GC, VM migration, SIGSTOP): the watchdog stops too.
    Pause { worker: W, at_ms: u64, pause_ms: u64 },
    /// The main thread hangs; the watchdog thread keeps running.
    Hang { worker: W, at_ms: u64, hang_ms: u64 },
    /// The worker process dies.
    Crash { worker: W, at_ms: u64 },
    /// The reply to the worker's request at `step` (0-based), attempt `attempt`, is lost
    /// after the server applied it.
    LoseReply { worker: W, step: usize, attempt: u32 },
    /// Requests the worker sends in `[at_ms, at_ms + window_ms)` take `delay_ms` to arrive.
    Delay { worker: W, at_ms: u64, window_ms: u64, delay_ms: u64 },
    /// The node stops. `power` loses what was not fsynced; `process` loses only what was
    /// never written to the OS.
    CrashNode {
        node: N,
        at_ms: u64,
        kind: CrashKind,
        /// Restart this long after the crash; none means it stays down.
        restart_after_ms: Option<u64>,
    },
    /// The node's wall clock jumps (an NTP step or an operator).
    ClockJump { node: N, at_ms: u64, jump_ms: i64 },
    /// The worker cannot reach the node for a while.
    Partition { worker: W, node: N, at_ms: u64, partition_ms: u64 },
    /// An operator overwrites the counter key with a value (e.g. not an integer).
    SetCounter { at_ms: u64, value: String },
}

/// A fault as a file spells it: its worker and node by name.
pub type NamedFault = Fault<String, String>;

impl<W, N> Fault<W, N> {
    /// The worker the fault acts on, if it acts on one.
    pub fn worker(&self) -> Option<&W> {
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

    /// The node the fault acts on, if it acts on one.
    pub fn node(&self) -> Option<&N> {
        match self {
            Fault::CrashNode { node, .. }
            | Fault::ClockJump { node, .. }
            | Fault::Partition { node, .. } => Some(node),
            _ => None,
        }
    }

    /// When the fault strikes, if it has a moment of its own (a lost reply names a step).
    pub fn at_ms_mut(&mut self) -> Option<&mut u64> {
        match self {
            Fault::Pause { at_ms, .. }
            | Fault::Hang { at_ms, .. }
            | Fault::Crash { at_ms, .. }
            | Fault::Delay { at_ms, .. }
            | Fault::CrashNode { at_ms, .. }
            | Fault::ClockJump { at_ms, .. }
            | Fault::Partition { at_ms, .. }
            | Fault::SetCounter { at_ms, .. } => Some(at_ms),
            Fault::LoseReply { .. } => None,
        }
    }

    /// When the fault strikes (see [`Fault::at_ms_mut`]).
    pub fn at_ms(&self) -> Option<u64> {
        match self {
            Fault::Pause { at_ms, .. }
            | Fault::Hang { at_ms, .. }
            | Fault::Crash { at_ms, .. }
            | Fault::Delay { at_ms, .. }
            | Fault::CrashNode { at_ms, .. }
            | Fault::ClockJump { at_ms, .. }
            | Fault::Partition { at_ms, .. }
            | Fault::SetCounter { at_ms, .. } => Some(*at_ms),
            Fault::LoseReply { .. } => None,
        }
    }

    /// How long the fault lasts (see [`Fault::length_mut`]).
    pub fn length_ms(&self) -> Option<u64> {
        match self {
            Fault::Pause { pause_ms: ms, .. }
            | Fault::Hang { hang_ms: ms, .. }
            | Fault::Delay { delay_ms: ms, .. }
            | Fault::Partition { partition_ms: ms, .. } => Some(*ms),
            Fault::CrashNode { restart_after_ms, .. } => *restart_after_ms,
            Fault::Crash { .. }
            | Fault::LoseReply { .. }
            | Fault::ClockJump { .. }
            | Fault::SetCounter { .. } => None,
        }
    }

    /// How long the fault lasts, if it lasts: a pause, a hang, a delay, a partition, the
    /// wait before a crashed node restarts.
    pub fn length_mut(&mut self) -> Option<&mut u64> {
        match self {
            Fault::Pause { pause_ms: ms, .. }
            | Fault::Hang { hang_ms: ms, .. }
            | Fault::Delay { delay_ms: ms, .. }
            | Fault::Partition { partition_ms: ms, .. } => Some(ms),
            Fault::CrashNode { restart_after_ms, .. } => restart_after_ms.as_mut(),
            Fault::Crash { .. }
            | Fault::LoseReply { .. }
            | Fault::ClockJump { .. }
            | Fault::SetCounter { .. } => None,
        }
    }

    /// The same fault with its worker and node given another way (names resolved to ids,
    /// or ids named); the first refusal of either function is returned.
    pub fn map<W2, N2, E>(
        self,
        mut worker: impl FnMut(W) -> Result<W2, E>,
        mut node: impl FnMut(N) -> Result<N2, E>,
    ) -> Result<Fault<W2, N2>, E> {
        Ok(match self {
            Fault::Pause { worker: w, at_ms, pause_ms } => {
                Fault::Pause { worker: worker(w)?, at_ms, pause_ms }
            }
            Fault::Hang { worker: w, at_ms, hang_ms } => {
                Fault::Hang { worker: worker(w)?, at_ms, hang_ms }
            }
            Fault::Crash { worker: w, at_ms } => Fault::Crash { worker: worker(w)?, at_ms },
            Fault::LoseReply { worker: w, step, attempt } => {
                Fault::LoseReply { worker: worker(w)?, step, attempt }
            }
            Fault::Delay { worker: w, at_ms, window_ms, delay_ms } => {
                Fault::Delay { worker: worker(w)?, at_ms, window_ms, delay_ms }
            }
            Fault::CrashNode { node: n, at_ms, kind, restart_after_ms } => {
                Fault::CrashNode { node: node(n)?, at_ms, kind, restart_after_ms }
            }
            Fault::ClockJump { node: n, at_ms, jump_ms } => {
                Fault::ClockJump { node: node(n)?, at_ms, jump_ms }
            }
            Fault::Partition { worker: w, node: n, at_ms, partition_ms } => {
                Fault::Partition { worker: worker(w)?, node: node(n)?, at_ms, partition_ms }
            }
            Fault::SetCounter { at_ms, value } => Fault::SetCounter { at_ms, value },
        })
    }
}

impl Fault {
    /// This fault with its worker and node named as `setup` names them; `?` for an id the
    /// setup does not have (the loader and the builder never make one).
    pub fn named(&self, setup: &Setup) -> NamedFault {
        let named = self.clone().map(
            |w| {
                let name = setup.workers.get(w.index()).map(|w| w.name.clone());
                Ok::<_, std::convert::Infallible>(name.unwrap_or_else(|| "?".to_owned()))
            },
            |n| {
                let name = setup.redis.nodes.get(n.index()).map(|n| n.name.clone());
                Ok(name.unwrap_or_else(|| "?".to_owned()))
            },
        );
        match named {
            Ok(fault) => fault,
            Err(never) => match never {},
        }
    }
}

impl NamedFault {
    /// This fault with its names resolved against `setup`'s workers and nodes, or the member
    /// that names nothing (`worker` or `node`) and the refusal to show there.
    pub fn resolve(self, setup: &Setup) -> Result<Fault, (&'static str, String)> {
        // The refusal lists the names there are, so the author sees the spelling wanted.
        let refusal = |member: &'static str, name: String, known: Vec<&str>| {
            let list = known.join(", ");
            (member, format!("no {member} is called \u{201c}{name}\u{201d} ({member}s: {list})"))
        };
        self.map(
            |name| {
                let at = setup.workers.iter().position(|w| w.name == name);
                at.map(WorkerId::at).ok_or_else(|| {
                    refusal("worker", name, setup.workers.iter().map(|w| w.name.as_str()).collect())
                })
            },
            |name| {
                let at = setup.redis.nodes.iter().position(|n| n.name == name);
                at.map(NodeId::at).ok_or_else(|| {
                    refusal(
                        "node",
                        name,
                        setup.redis.nodes.iter().map(|n| n.name.as_str()).collect(),
                    )
                })
            },
        )
    }
}

impl Serialize for NamedFault {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        form::FaultForm::from(self.clone()).serialize(to)
    }
}

impl<'de> Deserialize<'de> for NamedFault {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Self, D::Error> {
        let form = form::FaultForm::deserialize(from)?;
        NamedFault::try_from(form).map_err(serde::de::Error::custom)
    }
}

#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum CrashKind {
    #[default]
    Process,
    Power,
}
