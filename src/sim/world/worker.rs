//! The worker interpreter: which step runs next, retries, lost replies, giving up and the
//! rejection handler. The steps themselves live with what they talk to.

use super::{Meanwhile, Progress, World};
use crate::sim::check::secs;
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{NodeId, WorkerId};
use crate::sim::scenario::Step;
use crate::sim::state::{Activity, Phase, Watchdog};

/// How a worker's last event reads: its program ended (or it stopped), or it gave up.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(super) enum Stop {
    Finished,
    GaveUp,
}

/// Why a write matched no row: its token failed the fence, or the row's status was not the
/// one required (the work was already done).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(super) enum Rejection {
    Fence,
    Status,
}

/// What became of a write to the order row: it matched the row, or the row turned it away
/// (and which condition did).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(super) enum Written {
    Accepted,
    Rejected(Rejection),
}

impl<'s> World<'s> {
    pub(super) fn steps(&self, w: WorkerId) -> &'s [Step] {
        let setup = &self.setup.workers[w.index()];
        match self.state.workers[w.index()].phase {
            Phase::Main => &setup.program,
            Phase::Rejected => &setup.on_rejected,
        }
    }

    pub(super) fn worker_step(&mut self, w: WorkerId) {
        // `WAIT` waits for the offset of this connection's last write (Redis keeps it per
        // client), not for the primary's whole offset: a step that moved the primary's
        // offset was this worker's write.
        let offset =
            |world: &Self| world.state.primary.map(|p| world.state.nodes[p.index()].offset);
        let before = offset(self);
        self.run_step(w);
        if let Some(after) = offset(self).filter(|after| Some(*after) != before) {
            self.runtime[w.index()].write_offset = after;
        }
    }

    fn run_step(&mut self, w: WorkerId) {
        let now = self.state.now_ms;
        match self.state.workers[w.index()].activity {
            Activity::Crashed | Activity::Done => return,
            Activity::Paused { until_ms } | Activity::Hung { until_ms } => {
                self.schedule_step(w, until_ms.max(now), Meanwhile::Waiting);
                return;
            }
            Activity::Waiting | Activity::Blocked => {
                self.state.workers[w.index()].activity = Activity::Running
            }
            Activity::Running => {}
        }
        let pc = self.state.workers[w.index()].pc;
        let steps = self.steps(w);
        let Some(step) = steps.get(pc) else {
            self.finish(w, "sim.finished");
            return;
        };
        // A request sent inside a delay window reaches the server late.
        let talks =
            !matches!(step, Step::Compute { .. } | Step::Sleep { .. } | Step::Watchdog { .. });
        if talks
            && self.runtime[w.index()].delayed_until != Some(now)
            && let Some(delay_ms) = self.network_delay(w)
        {
            let at_ms = now.saturating_add(delay_ms);
            self.runtime[w.index()].delayed_until = Some(at_ms);
            let text = self.say("sim.delayed", vec![("d", secs(delay_ms)), ("t", secs(at_ms))]);
            let kind = EventKind::Delayed { until_ms: at_ms };
            self.emit(Actor::Worker(w), kind, String::new(), text, Vec::new());
            self.schedule_step(w, at_ms, Meanwhile::Waiting);
            return;
        }
        self.runtime[w.index()].delayed_until = None;
        match step {
            Step::Acquire { how, ttl_ms, retry_every_ms, attempts } => {
                self.step_acquire(w, *how, *ttl_ms, *retry_every_ms, *attempts);
            }
            Step::WaitReplicas { replicas, timeout_ms, on_short } => {
                self.step_wait(w, *replicas, *timeout_ms, *on_short);
            }
            Step::Compute { ms } => self.advance_after(w, *ms, Meanwhile::Computing),
            Step::Sleep { ms } => self.advance_after(w, *ms, Meanwhile::Waiting),
            Step::Read { compare, done_if } => self.step_read(w, *compare, done_if.as_deref()),
            Step::Write { how, status, from, attempts, backoff_ms } => {
                self.step_write(w, *how, status, from.as_deref(), *attempts, *backoff_ms);
            }
            Step::Charge { key, attempts, backoff_ms } => {
                self.step_charge(w, *key, *attempts, *backoff_ms);
            }
            Step::PutObject { if_match, meta_fence } => {
                self.step_put_object(w, *if_match, *meta_fence)
            }
            Step::HeadObject { compare } => self.step_head_object(w, *compare),
            Step::DeleteOwnObjects => self.step_delete_objects(w),
            Step::Reread => self.step_reread(w),
            Step::CheckLease => self.step_check_lease(w),
            Step::SendToDlq => self.step_send_to_dlq(w),
            Step::Watchdog { interval_ms, how } => {
                let ttl_ms =
                    self.state.workers[w.index()].lease.as_ref().map_or(30_000, |l| l.ttl_ms);
                let interval_ms = interval_ms.unwrap_or(ttl_ms / 3).max(1);
                self.state.workers[w.index()].watchdog = Some(Watchdog { interval_ms, how: *how });
                self.schedule_watchdog(w, now.saturating_add(interval_ms));
                self.advance(w);
            }
            Step::Release { how } => self.step_release(w, *how),
            Step::Begin => self.step_begin(w),
            Step::SelectForUpdate => self.step_select_for_update(w),
            Step::Commit => self.step_commit(w),
            Step::Rollback => self.step_rollback(w),
        }
    }

    /// Moves to the next step at once (a step whose request has been answered), or ends the
    /// worker when this step was the release it ran on its way out.
    pub(super) fn advance(&mut self, w: WorkerId) {
        self.advance_after(w, 0, Meanwhile::Waiting);
    }

    /// Moves to the next step after `after_ms` spent `meanwhile` (see [`Meanwhile`]), or
    /// ends the worker when this step was the release it ran on its way out.
    fn advance_after(&mut self, w: WorkerId, after_ms: u64, meanwhile: Meanwhile) {
        if let Some((stop, why)) = self.runtime[w.index()].exit {
            return self.end(w, stop, why);
        }
        let ws = &mut self.state.workers[w.index()];
        ws.pc += 1;
        ws.attempt = 1;
        self.runtime[w.index()].progress = Progress::Fresh;
        let at_ms = self.state.now_ms.saturating_add(after_ms);
        self.schedule_step(w, at_ms, meanwhile);
    }

    /// Runs the same step again after `after_ms` (the next attempt).
    pub(super) fn retry_after(&mut self, w: WorkerId, after_ms: u64) {
        self.state.workers[w.index()].attempt += 1;
        self.runtime[w.index()].progress = Progress::Fresh;
        let at_ms = self.state.now_ms.saturating_add(after_ms);
        self.schedule_step(w, at_ms, Meanwhile::Waiting);
    }

    pub(super) fn finish(&mut self, w: WorkerId, why: &'static str) {
        self.end(w, Stop::Finished, why);
    }

    /// Stops the worker for good, recording why (a note key) as its last event (`kind`).
    /// A worker that stops early while its program still has a `release` step ahead runs
    /// that step first, as real code releases in a `finally` block (the source article's
    /// does): a lock left behind would block every other worker until its TTL ends.
    pub(super) fn end(&mut self, w: WorkerId, stop: Stop, why: &'static str) {
        let ws = &self.state.workers[w.index()];
        // Not twice: a release that itself gives up ends the worker for good.
        let leaving = self.runtime[w.index()].exit.take().is_some();
        let release_ahead = match ws.lease {
            Some(_) if !leaving => self.steps(w)[ws.pc.min(self.steps(w).len())..]
                .iter()
                .position(|step| matches!(step, Step::Release { .. })),
            _ => None,
        };
        if let Some(ahead) = release_ahead {
            let ws = &mut self.state.workers[w.index()];
            ws.pc += ahead;
            ws.attempt = 1;
            self.runtime[w.index()].progress = Progress::Fresh;
            self.runtime[w.index()].exit = Some((stop, why));
            let now = self.state.now_ms;
            return self.schedule_step(w, now, Meanwhile::Waiting);
        }
        self.cancel_step(w);
        self.stop_watchdog(w);
        if self.state.workers[w.index()].in_txn {
            self.abort_txn(w);
        }
        self.state.workers[w.index()].activity = Activity::Done;
        self.set_belief(w, None);
        let text = self.say(why, Vec::new());
        let kind = match stop {
            Stop::Finished => EventKind::Finished,
            Stop::GaveUp => EventKind::GaveUp,
        };
        self.emit(Actor::Worker(w), kind, String::new(), text, Vec::new());
    }

    /// After a fenced-off write (or failed check): run `on_rejected`, or stop.
    pub(super) fn fenced_off(&mut self, w: WorkerId) {
        self.rejected(w, Rejection::Fence);
    }

    /// After a write that matched no row: run `on_rejected`, or stop saying why.
    pub(super) fn rejected(&mut self, w: WorkerId, why: Rejection) {
        self.set_belief(w, None);
        let has_handler = !self.setup.workers[w.index()].on_rejected.is_empty();
        let ws = &mut self.state.workers[w.index()];
        if has_handler && ws.phase == Phase::Main {
            ws.phase = Phase::Rejected;
            ws.pc = 0;
            ws.attempt = 1;
            self.runtime[w.index()].progress = Progress::Fresh;
            let now = self.state.now_ms;
            self.schedule_step(w, now, Meanwhile::Waiting);
        } else {
            let note = match why {
                Rejection::Fence => "sim.fenced_off",
                Rejection::Status => "sim.already_done",
            };
            self.finish(w, note);
        }
    }

    /// Whether the reply to this step's current attempt is lost.
    pub(super) fn reply_lost(&self, w: WorkerId) -> bool {
        let ws = &self.state.workers[w.index()];
        ws.phase == Phase::Main && self.lost_replies.contains(&(w, ws.pc, ws.attempt))
    }

    /// The worker times out waiting for a lost reply, then retries or gives up.
    pub(super) fn after_lost_reply(&mut self, w: WorkerId) {
        let timeout_ms = self.setup.workers[w.index()].reply_timeout_ms;
        self.runtime[w.index()].progress = Progress::LostReply;
        let at_ms = self.state.now_ms.saturating_add(timeout_ms);
        self.schedule_step(w, at_ms, Meanwhile::Waiting);
    }

    /// Handles the re-entry after a lost reply's timeout; returns true if it did.
    pub(super) fn handle_lost_reply_timeout(
        &mut self,
        w: WorkerId,
        attempts: u32,
        backoff_ms: u64,
    ) -> bool {
        if self.runtime[w.index()].progress != Progress::LostReply {
            return false;
        }
        self.runtime[w.index()].progress = Progress::Fresh;
        let attempt = self.state.workers[w.index()].attempt;
        let retry = attempt < attempts;
        let delay_ms = backoff_ms.saturating_mul(1u64 << attempt.saturating_sub(1).min(20));
        let text = match (retry, delay_ms) {
            (true, 0) => self.say("sim.lost_retry", Vec::new()),
            (true, _) => self.say("sim.lost_retry_in", vec![("d", secs(delay_ms))]),
            (false, _) => self.say("sim.lost_give_up", Vec::new()),
        };
        self.emit(Actor::Worker(w), EventKind::ReplyLost, String::new(), text, Vec::new());
        if retry {
            self.retry_after(w, delay_ms);
        } else {
            self.end(w, Stop::GaveUp, "sim.gave_up_lost");
        }
        true
    }

    pub(super) fn unreachable(
        &mut self,
        w: WorkerId,
        node: Option<NodeId>,
        retry_every_ms: u64,
        attempts: u32,
    ) {
        let text = match node {
            Some(n) => {
                let name = self.state.nodes[n.index()].name.clone();
                self.say("sim.unreachable", vec![("node", name)])
            }
            None => self.say("sim.no_primary", Vec::new()),
        };
        self.emit(
            Actor::Worker(w),
            EventKind::Unreachable { node: node.unwrap_or(NodeId(u8::MAX)) },
            String::new(),
            text,
            Vec::new(),
        );
        if self.state.workers[w.index()].attempt < attempts {
            self.retry_after(w, retry_every_ms);
        } else {
            self.end(w, Stop::GaveUp, "sim.gave_up");
        }
    }

    pub(super) fn denied_retry(&mut self, w: WorkerId, retry_every_ms: u64, attempts: u32) {
        self.retry_or_give_up(w, retry_every_ms, attempts, "sim.gave_up_busy");
    }

    /// Retries the step, or ends the worker saying why (a note key) once out of attempts.
    pub(super) fn retry_or_give_up(
        &mut self,
        w: WorkerId,
        retry_every_ms: u64,
        attempts: u32,
        why: &'static str,
    ) {
        if self.state.workers[w.index()].attempt < attempts {
            self.retry_after(w, retry_every_ms);
        } else {
            self.end(w, Stop::GaveUp, why);
        }
    }
}
