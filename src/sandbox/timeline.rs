//! Editing on the sandbox's timeline: lanes, the handles an author can drag (a worker's
//! start, a fault's time, a pause's length), and what a drag or an arrow key does to the
//! scenario, as editor actions. Pure: pixels and milliseconds in, actions out.

use super::{Action, Row, fault_on_node};
use crate::sim::Setup;
use crate::sim::scenario::{Fault, FaultKind, NamedFault};

/// Time across the width of the drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub until_ms: u64,
    pub width_px: f64,
}

/// Drags land on this grid, so times read as round numbers.
pub const SNAP_MS: u64 = 100;

impl Scale {
    pub fn x(self, ms: u64) -> f64 {
        if self.until_ms == 0 {
            return 0.0;
        }
        (ms.min(self.until_ms) as f64) * self.width_px / (self.until_ms as f64)
    }

    /// The time at `x` pixels, on the grid and within the run.
    pub fn ms(self, x: f64) -> u64 {
        if self.width_px <= 0.0 || !x.is_finite() {
            return 0;
        }
        let raw = (x.max(0.0) * (self.until_ms as f64) / self.width_px).round() as u64;
        snap(raw).min(self.until_ms)
    }
}

fn snap(ms: u64) -> u64 {
    (ms + SNAP_MS / 2) / SNAP_MS * SNAP_MS
}

/// A lane: a worker's or a Redis node's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub name: String,
    pub is_node: bool,
}

pub fn lanes(s: &Setup) -> Vec<Lane> {
    let workers = s.workers.iter().map(|w| Lane { name: w.name.clone(), is_node: false });
    let nodes = s.redis.nodes.iter().map(|n| Lane { name: n.name.clone(), is_node: true });
    workers.chain(nodes).collect()
}

/// What can be dragged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handle {
    /// A worker's start.
    Start(usize),
    /// A fault as a whole (its `at_ms`).
    FaultAt(usize),
    /// The end of a fault that lasts (a pause's or hang's length, a delay's window, ...).
    FaultEnd(usize),
}

/// A fault drawn on its lane: from, to (equal for an instant), and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub fault: usize,
    pub kind: &'static str,
    pub lane: String,
    pub from_ms: u64,
    pub to_ms: u64,
    /// Whether its end can be dragged.
    pub stretches: bool,
}

/// Every fault with a time, as drawn.
pub fn spans(s: &Setup) -> Vec<Span> {
    s.faults
        .iter()
        .enumerate()
        .filter_map(|(k, f)| {
            let (kind, lane, from_ms, length) = shape(s, f)?;
            // The counter lives on the primary: a write to it is drawn there.
            let lane = match lane.is_empty() {
                true => s.redis.nodes.first().map(|n| n.name.clone()).unwrap_or_default(),
                false => lane,
            };
            Some(Span {
                fault: k,
                kind,
                lane,
                from_ms,
                to_ms: from_ms.saturating_add(length.map_or(0, |(_, ms)| ms)),
                stretches: length.is_some(),
            })
        })
        .collect()
}

/// Where a handle is now.
pub fn position(s: &Setup, handle: Handle) -> Option<u64> {
    match handle {
        Handle::Start(i) => s.workers.get(i).map(|w| w.start_ms),
        Handle::FaultAt(k) => s.faults.get(k).and_then(|f| shape(s, f)).map(|(_, _, at, _)| at),
        Handle::FaultEnd(k) => s
            .faults
            .get(k)
            .and_then(|f| shape(s, f))
            .and_then(|(_, _, at, len)| len.map(|(_, ms)| at.saturating_add(ms))),
    }
}

/// The edit that puts `handle` at `to_ms` (`None`: nothing to change).
pub fn move_to(s: &Setup, handle: Handle, to_ms: u64) -> Option<Action> {
    if position(s, handle) == Some(to_ms) {
        return None;
    }
    Some(match handle {
        Handle::Start(i) => Action::SetStart(i, to_ms.to_string()),
        Handle::FaultAt(k) => {
            Action::SetField(Row::Fault(k), "at_ms".to_owned(), to_ms.to_string())
        }
        Handle::FaultEnd(k) => {
            let (_, _, at, length) = shape(s, s.faults.get(k)?)?;
            let (member, _) = length?;
            // A fault lasts at least one grid step: dragging its end before its start
            // leaves it that short rather than refusing the drag.
            let ms = to_ms.saturating_sub(at).max(SNAP_MS);
            Action::SetField(Row::Fault(k), member.to_owned(), ms.to_string())
        }
    })
}

/// The edit an arrow key makes: `delta_ms` earlier or later, kept within the run.
pub fn nudge(s: &Setup, handle: Handle, delta_ms: i64) -> Option<Action> {
    let now = position(s, handle)?;
    let to = now.saturating_add_signed(delta_ms).min(s.until_ms);
    move_to(s, handle, to)
}

/// The drop of a fault of `kind` on lane `lane` at `at_ms`: the fault, when the lane fits it
/// (a node fault on a node's lane, a worker fault on a worker's).
pub fn drop_fault(s: &Setup, kind: FaultKind, lane: &str, at_ms: u64) -> Option<Action> {
    let on_node = s.redis.nodes.iter().any(|n| n.name == lane);
    let on_worker = s.workers.iter().any(|w| w.name == lane);
    let fits = if fault_on_node(kind) { on_node } else { on_worker };
    fits.then(|| Action::AddFaultAt {
        kind,
        lane: lane.to_owned(),
        at_ms: snap(at_ms).min(s.until_ms),
    })
}

/// A fault's kind, lane, time, and how long it lasts (the member that says so).
type Shape = (&'static str, String, u64, Option<(&'static str, u64)>);

fn shape(s: &Setup, f: &Fault) -> Option<Shape> {
    let f: NamedFault = f.named(s);
    Some(match f {
        Fault::Pause { worker, at_ms, pause_ms } => {
            ("pause", worker, at_ms, Some(("pause_ms", pause_ms)))
        }
        Fault::Hang { worker, at_ms, hang_ms } => {
            ("hang", worker, at_ms, Some(("hang_ms", hang_ms)))
        }
        Fault::Crash { worker, at_ms } => ("crash", worker, at_ms, None),
        Fault::Delay { worker, at_ms, window_ms, .. } => {
            ("delay", worker, at_ms, Some(("window_ms", window_ms)))
        }
        Fault::CrashNode { node, at_ms, restart_after_ms, .. } => {
            ("crash-node", node, at_ms, restart_after_ms.map(|ms| ("restart_after_ms", ms)))
        }
        Fault::ClockJump { node, at_ms, .. } => ("clock-jump", node, at_ms, None),
        Fault::Partition { worker, at_ms, partition_ms, .. } => {
            ("partition", worker, at_ms, Some(("partition_ms", partition_ms)))
        }
        Fault::SetCounter { at_ms, .. } => ("set-counter", String::new(), at_ms, None),
        Fault::LoseReply { .. } => return None,
    })
}
