//! Injected faults: pauses and hangs, worker and node crashes, clock jumps, a counter
//! overwritten by hand. It only changes state the setup's faults name.

use super::{Action, Meanwhile, NextStep, World};
use crate::sim::check::secs;
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{NodeId, WorkerId};
use crate::sim::redis::{Command, Keyspace, command_text};
use crate::sim::scenario::{CrashKind, Fault, Persistence};
use crate::sim::state::Activity;

/// How a worker stalls: the whole process, or its main thread while the watchdog runs on.
#[derive(Clone, Copy, Eq, PartialEq)]
enum Stall {
    Pause,
    Hang,
}

impl<'s> World<'s> {
    pub(super) fn apply_fault(&mut self, index: usize) {
        let fault = &self.setup.faults[index];
        // `load::validate_setup` refuses ids beyond the lists; a setup built in code without
        // it gets its stray fault ignored rather than a panic in the page.
        let stray = fault.worker().is_some_and(|w| w.index() >= self.state.workers.len())
            || fault.node().is_some_and(|n| n.index() >= self.state.nodes.len());
        if stray {
            return;
        }
        match fault {
            Fault::Pause { worker, pause_ms, .. } => {
                self.stall(*worker, *pause_ms, Stall::Pause);
            }
            Fault::Hang { worker, hang_ms, .. } => self.stall(*worker, *hang_ms, Stall::Hang),
            Fault::Crash { worker, .. } => self.crash_worker(*worker),
            Fault::CrashNode { node, kind, restart_after_ms, .. } => {
                self.crash_node(*node, *kind, *restart_after_ms);
            }
            Fault::ClockJump { node, jump_ms, .. } => self.jump_clock(*node, *jump_ms),
            Fault::SetCounter { value, .. } => self.overwrite_counter(value),
            Fault::LoseReply { .. } | Fault::Delay { .. } | Fault::Partition { .. } => {}
        }
    }

    /// A stop-the-world pause (the watchdog stops too) or a hang of the main thread only.
    fn stall(&mut self, w: WorkerId, pause_ms: u64, stall: Stall) {
        let now = self.state.now_ms;
        let stop_the_world = stall == Stall::Pause;
        let ws = &self.state.workers[w.index()];
        if matches!(ws.activity, Activity::Crashed | Activity::Done) {
            return;
        }
        let until_ms = now.saturating_add(pause_ms);
        let rt = &self.runtime[w.index()];
        // CPU work in progress is stretched; a wait that ends inside the pause is
        // noticed only when the process runs again.
        if let Some(NextStep { at_ms: due, meanwhile }) = rt.scheduled_step {
            let shifted = match meanwhile {
                Meanwhile::Computing if due > now => due.saturating_add(pause_ms),
                Meanwhile::Computing | Meanwhile::Waiting => due.max(until_ms),
            };
            self.schedule_step(w, shifted, meanwhile);
        }
        let kind = if stop_the_world {
            if let Some(due) = self.runtime[w.index()].watchdog_due {
                self.schedule_watchdog(w, due.max(until_ms));
            }
            self.state.workers[w.index()].activity = Activity::Paused { until_ms };
            EventKind::Paused { until_ms }
        } else {
            self.runtime[w.index()].hung_since_ms = Some(now);
            self.state.workers[w.index()].activity = Activity::Hung { until_ms };
            EventKind::Hung { until_ms }
        };
        let key = if stop_the_world { "sim.paused" } else { "sim.hung" };
        let text = self.say(key, vec![("d", secs(pause_ms)), ("t", secs(until_ms))]);
        self.emit(Actor::Worker(w), kind, String::new(), text, Vec::new());
        self.schedule(until_ms, Action::Resume { worker: w, until_ms });
    }

    fn crash_worker(&mut self, w: WorkerId) {
        if matches!(self.state.workers[w.index()].activity, Activity::Crashed | Activity::Done) {
            return;
        }
        self.cancel_step(w);
        self.stop_watchdog(w);
        self.state.workers[w.index()].activity = Activity::Crashed;
        let text = self.say("sim.crashed", Vec::new());
        self.emit(Actor::Worker(w), EventKind::Crashed, String::new(), text, Vec::new());
        self.set_belief(w, None);
        // PostgreSQL aborts the transaction of a dropped connection.
        if self.state.workers[w.index()].in_txn {
            self.abort_txn(w);
        }
    }

    fn crash_node(&mut self, n: NodeId, kind: CrashKind, restart_after_ms: Option<u64>) {
        let now = self.state.now_ms;
        if !self.state.nodes[n.index()].up {
            return;
        }
        self.persist_tick(n);
        let p = &mut self.persisted[n.index()];
        p.incarnation += 1;
        let mode = self.setup.redis.persistence;
        let current = self.state.nodes[n.index()].keyspace.clone();
        p.restore = match (mode, kind) {
            (Persistence::None, _) => Keyspace::new(),
            (Persistence::AofAlways, _) => current,
            (Persistence::Rdb { .. }, _) | (_, CrashKind::Power) => p.durable.clone(),
            (_, CrashKind::Process) => p.os.clone(),
        };
        let node_state = &mut self.state.nodes[n.index()];
        node_state.up = false;
        node_state.keyspace = Keyspace::new();
        let was_primary = self.state.primary == Some(n);
        if was_primary {
            self.state.primary = None;
        }
        let power = kind == CrashKind::Power;
        let text =
            self.say(if power { "sim.power_lost" } else { "sim.process_crashed" }, Vec::new());
        self.emit(
            Actor::Node(n),
            EventKind::NodeCrashed { power },
            String::new(),
            text,
            Vec::new(),
        );
        if let (true, Some(after_ms)) = (was_primary, self.setup.redis.failover_after_ms) {
            self.schedule(now.saturating_add(after_ms), Action::Promote { dead: n });
        }
        if let Some(after_ms) = restart_after_ms {
            self.schedule(now.saturating_add(after_ms), Action::Restart { node: n });
        }
    }

    fn jump_clock(&mut self, n: NodeId, jump_ms: i64) {
        let node_state = &mut self.state.nodes[n.index()];
        node_state.clock_offset_ms = node_state.clock_offset_ms.saturating_add(jump_ms);
        let jump = format!("{}{jump_ms}", if jump_ms >= 0 { "+" } else { "" });
        let text = self.say("sim.clock_jumped", vec![("jump", jump)]);
        self.emit(
            Actor::Node(n),
            EventKind::ClockJumped { jump_ms },
            String::new(),
            text,
            Vec::new(),
        );
    }

    /// Someone sets the counter by hand (an operator, a restore from an old backup).
    fn overwrite_counter(&mut self, value: &str) {
        let Some(n) = self.state.primary else { return };
        let key = self.setup.redis.fence_key.clone();
        let command = Command::Set {
            key: key.clone(),
            value: value.to_owned(),
            condition: crate::sim::redis::SetCondition::Always,
            expiry: crate::sim::redis::SetExpiry::Clear,
            get: false,
        };
        let reply = self.redis_exec(n, &command);
        let text = self.text(|| command_text(&["SET", &key, value]));
        self.emit(
            Actor::Node(n),
            EventKind::CounterOverwritten,
            text,
            self.text(|| reply.to_inline()),
            Vec::new(),
        );
    }

    pub(super) fn resume(&mut self, w: WorkerId, until_ms: u64) {
        let ws = &mut self.state.workers[w.index()];
        let matches = matches!(ws.activity, Activity::Paused { until_ms: u } | Activity::Hung { until_ms: u } if u == until_ms);
        if !matches {
            return;
        }
        ws.activity = Activity::Running;
        self.runtime[w.index()].hung_since_ms = None;
        let text = self.say("sim.resumed", Vec::new());
        self.emit(Actor::Worker(w), EventKind::Resumed, String::new(), text, Vec::new());
    }
}
