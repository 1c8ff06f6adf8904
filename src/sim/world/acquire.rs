//! Taking the lock: the acquire script, SET NX PX with a token drawn apart, Redlock, WAIT,
//! and the lease a grant records. It never writes to the order table.

use super::worker::Stop;
use super::{Meanwhile, Progress, World, decimal};
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{EventId, LeaseNo, NodeId, WorkerId};
use crate::sim::redis::{Command, Reply, command_text};
use crate::sim::scenario::{AcquireHow, OnShort, Setup, Step, TokenSource};
use crate::sim::script::{self, Script};
use crate::sim::state::{Belief, Lease, lock_value};
use crate::sim::token::token_text;

/// The time between two requests of one multi-request step (a round trip).
const ROUND_TRIP_MS: u64 = 1;

/// Whether a grant's reply reaches the worker: a lost one leaves a lease on the server that
/// its holder does not know it has.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum GrantReply {
    Received,
    Lost,
}

/// One acquire attempt's parameters: the node asked and the step's own settings.
struct Attempt {
    n: NodeId,
    ttl_ms: u64,
    retry_every_ms: u64,
    attempts: u32,
}

impl<'s> World<'s> {
    /// Records the lease of a grant about to be emitted as the next event, so the event's
    /// frame already shows who holds what (a worker whose reply was lost does not know it).
    fn take_lease(
        &mut self,
        w: WorkerId,
        ttl_ms: u64,
        token: Option<i64>,
        reply: GrantReply,
    ) -> LeaseNo {
        self.lease_seq = self.lease_seq.next();
        let seq = self.lease_seq;
        let lease = Lease {
            seq,
            value: std::rc::Rc::clone(&self.runtime[w.index()].lock_value),
            token,
            ttl_ms,
            granted_by: self.next_event_id(),
        };
        match reply {
            GrantReply::Received => {
                self.state.workers[w.index()].lease = Some(lease);
                let belief = Belief {
                    since_ms: self.state.now_ms,
                    until_ms: self.state.now_ms.saturating_add(ttl_ms),
                    token,
                };
                self.set_belief_quiet(w, Some(belief));
            }
            GrantReply::Lost => self.runtime[w.index()].unknown_lease = Some(seq),
        }
        seq
    }

    /// What follows a grant's event: the checker learns of it and its token (`drawn`, with
    /// the counter's high-water mark if the draw went backwards, see [`World::note_draw`]),
    /// and a second believer is an overlap.
    pub(super) fn after_grant(
        &mut self,
        w: WorkerId,
        seq: LeaseNo,
        drawn: Option<(i64, Option<i64>)>,
        event: EventId,
    ) {
        self.checker.on_grant(seq, w, event, self.state.now_ms);
        if let Some((token, reset)) = drawn {
            let findings = self.checker.on_token(seq, token, reset, &self.names);
            self.record_findings(findings);
        }
        self.check_overlap();
    }

    /// Draws the value this acquisition's lock commands carry (see [`lock_value`]).
    fn new_lock_value(&mut self, w: WorkerId) {
        let hex = self.values.hex(6);
        self.runtime[w.index()].lock_value = lock_value(self.name(w), &hex);
    }

    /// Tells the checker a token was drawn from the source; returns the previous high-water
    /// mark if the counter went backwards (a reset). Random UUIDs have no order to break.
    pub(super) fn note_draw(&mut self, token: i64) -> Option<i64> {
        match self.setup.tokens {
            TokenSource::Uuid => None,
            _ => self.checker.on_draw(token),
        }
    }

    pub(super) fn draw_token(&mut self) -> i64 {
        match self.setup.tokens {
            // A version-4 UUID's 60 leading random bits (see `token_text`); never 0, the
            // nil UUID a row starts with.
            TokenSource::Uuid => i64::try_from(self.prng.next_u64() >> 4).unwrap_or(0).max(1),
            _ => {
                self.state.token_counter = self.state.token_counter.saturating_add(1);
                self.state.token_counter
            }
        }
    }

    pub(super) fn step_acquire(
        &mut self,
        w: WorkerId,
        how: AcquireHow,
        ttl_ms: u64,
        retry_every_ms: u64,
        attempts: u32,
    ) {
        if self.handle_lost_reply_timeout(w, attempts, 0) {
            return;
        }
        let rt = &self.runtime[w.index()];
        if self.state.workers[w.index()].attempt == 1 && rt.progress == Progress::Fresh {
            self.new_lock_value(w);
        }
        if how == AcquireHow::Redlock {
            if self.runtime[w.index()].progress == Progress::DrawToken {
                // Redlock has no token of its own; a source outside Redis is asked after
                // the grant (the node argument only matters for Redis' INCR).
                self.runtime[w.index()].progress = Progress::Fresh;
                return self.acquire_draw(w, NodeId(0));
            }
            self.step_redlock(w, ttl_ms, retry_every_ms, attempts);
            return;
        }
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(node) => return self.unreachable(w, node, retry_every_ms, attempts),
        };
        let attempt = Attempt { n, ttl_ms, retry_every_ms, attempts };
        // The token comes with the grant, in one atomic step, from Redis' INCR inside the
        // script or from a consensus store's revision; other sources are drawn apart.
        let atomic_tokens =
            matches!(self.setup.tokens, TokenSource::RedisIncr | TokenSource::Consensus);
        let pending = std::mem::take(&mut self.runtime[w.index()].progress);
        match (how, pending) {
            (AcquireHow::Script, _) if atomic_tokens => self.acquire_script(w, &attempt),
            (AcquireHow::Script | AcquireHow::SetThenIncr, Progress::DrawToken) => {
                self.acquire_draw(w, n);
            }
            (AcquireHow::IncrThenSet, Progress::SetLock { token, reset }) => {
                self.acquire_set(w, how, &attempt, Some((token, reset)));
            }
            (AcquireHow::IncrThenSet, _) => self.acquire_incr_first(w, n),
            (AcquireHow::Script | AcquireHow::SetThenIncr, _) => {
                self.acquire_set(w, how, &attempt, None);
            }
            (AcquireHow::Redlock, _) => {}
        }
    }

    /// The acquire script: `SET NX PX` and `INCR` in one atomic step.
    fn acquire_script(&mut self, w: WorkerId, attempt: &Attempt) {
        let &Attempt { n, ttl_ms, retry_every_ms, attempts } = attempt;
        let setup: &'s Setup = self.setup;
        let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
        let value = &*value;
        let lock_key = setup.redis.lock_key.as_str();
        let fence_key = setup.redis.fence_key.as_str();
        let mut ttl_digits = [0u8; 20];
        let ttl_text = decimal(ttl_ms, &mut ttl_digits);
        let lost = self.reply_lost(w);
        let reply =
            self.redis_script(n, Script::Acquire, &[lock_key, fence_key], &[value, ttl_text]);
        let consensus = setup.tokens == TokenSource::Consensus;
        let command = self.text(|| match consensus {
            true => format!(
                "TXN IF create_revision({lock_key}) = 0 THEN PUT {lock_key} {value} LEASE {ttl_text}ms"
            ),
            false => command_text(&[
                "EVAL",
                Script::Acquire.label(),
                "2",
                lock_key,
                fence_key,
                value,
                ttl_text,
            ]),
        });
        let reply_text = |reply: &Reply| match (consensus, reply) {
            (true, Reply::Array(items)) => match items.as_slice() {
                [Reply::Int(1), Reply::Int(revision)] => format!("SUCCEEDED, revision {revision}"),
                _ => "FAILED (the key exists)".to_owned(),
            },
            _ => reply.to_inline(),
        };
        match reply {
            Reply::Array(ref items) if items.first() == Some(&Reply::Int(1)) => {
                let token = match items.get(1) {
                    Some(Reply::Int(t)) => Some(*t),
                    _ => None,
                };
                let reply_back = match lost {
                    true => GrantReply::Lost,
                    false => GrantReply::Received,
                };
                let seq = self.take_lease(w, ttl_ms, token, reply_back);
                let event = self.emit(
                    Actor::Worker(w),
                    EventKind::Granted { token },
                    command,
                    self.text(|| reply_text(&reply)),
                    Vec::new(),
                );
                let drawn = token.map(|t| (t, self.note_draw(t)));
                self.after_grant(w, seq, drawn, event);
                if lost {
                    return self.after_lost_reply(w);
                }
                self.advance(w);
            }
            Reply::Error(_) => {
                let node = &self.state.nodes[n.index()];
                let lock_set = node
                    .keyspace
                    .peek(lock_key, node.clock_ms(self.state.now_ms))
                    .is_some_and(|e| e.value == value);
                self.emit(
                    Actor::Worker(w),
                    EventKind::AcquireFailed,
                    command,
                    self.text(|| reply_text(&reply)),
                    Vec::new(),
                );
                if lock_set {
                    // The SET stayed (no rollback): a lease nobody can use until its TTL.
                    self.lease_seq = self.lease_seq.next();
                }
                self.retry_or_give_up(w, retry_every_ms, attempts, "sim.gave_up_failed");
            }
            _ => {
                self.emit(
                    Actor::Worker(w),
                    EventKind::Denied,
                    command,
                    self.text(|| reply_text(&reply)),
                    Vec::new(),
                );
                if lost {
                    return self.after_lost_reply(w);
                }
                self.denied_retry(w, retry_every_ms, attempts);
            }
        }
    }

    /// A plain `SET NX PX`: the first half of set-then-incr, the lock of a token source
    /// outside Redis, or the second half of incr-then-set (with the token already `drawn`).
    fn acquire_set(
        &mut self,
        w: WorkerId,
        how: AcquireHow,
        attempt: &Attempt,
        drawn: Option<(i64, Option<i64>)>,
    ) {
        let &Attempt { n, ttl_ms, retry_every_ms, attempts } = attempt;
        let setup: &'s Setup = self.setup;
        let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
        let value = &*value;
        let lock_key = setup.redis.lock_key.as_str();
        let mut ttl_digits = [0u8; 20];
        let ttl_text = decimal(ttl_ms, &mut ttl_digits);
        let now_node = self.state.nodes[n.index()].clock_ms(self.state.now_ms);
        let deadline = now_node.saturating_add(i64::try_from(ttl_ms).unwrap_or(i64::MAX));
        let reply = self.redis_exec(n, &script::set_nx_px(lock_key, value, deadline));
        let command = self.text(|| command_text(&["SET", lock_key, value, "NX", "PX", ttl_text]));
        let draws_later = how == AcquireHow::SetThenIncr
            || (how == AcquireHow::Script && self.setup.tokens != TokenSource::None);
        if reply != Reply::Ok {
            self.emit(
                Actor::Worker(w),
                EventKind::Denied,
                command,
                self.text(|| reply.to_inline()),
                Vec::new(),
            );
            return self.denied_retry(w, retry_every_ms, attempts);
        }
        let token = drawn.map(|(token, _)| token);
        let kind = if draws_later { EventKind::LockSet } else { EventKind::Granted { token } };
        let seq = self.take_lease(w, ttl_ms, token, GrantReply::Received);
        let event =
            self.emit(Actor::Worker(w), kind, command, self.text(|| reply.to_inline()), Vec::new());
        self.after_grant(w, seq, drawn, event);
        if draws_later {
            self.runtime[w.index()].progress = Progress::DrawToken;
            let at_ms = self.state.now_ms.saturating_add(ROUND_TRIP_MS);
            self.schedule_step(w, at_ms, Meanwhile::Waiting);
        } else {
            self.advance(w);
        }
    }

    /// The token, drawn after the lock by a second request (`INCR` or another source).
    fn acquire_draw(&mut self, w: WorkerId, n: NodeId) {
        let redis_tokens = self.setup.tokens == TokenSource::RedisIncr;
        let fence_key = self.setup.redis.fence_key.as_str();
        let (token, command, reply_text) = if redis_tokens {
            let reply = self.redis_exec(n, &Command::Incr { key: fence_key.to_owned() });
            let token = match reply {
                Reply::Int(t) => Some(t),
                _ => None,
            };
            (
                token,
                self.text(|| command_text(&["INCR", fence_key])),
                self.text(|| reply.to_inline()),
            )
        } else {
            let token = self.draw_token();
            (Some(token), self.token_command(), token_text(self.setup.tokens, token))
        };
        let actor = if redis_tokens { Actor::Worker(w) } else { Actor::Tokens };
        let Some(token) = token else {
            self.emit(actor, EventKind::AcquireFailed, command, reply_text, Vec::new());
            return self.finish(w, "sim.no_token");
        };
        let seq = self.state.workers[w.index()].lease.as_ref().map(|l| l.seq);
        self.emit(actor, EventKind::TokenDrawn { token }, command, reply_text, Vec::new());
        if let Some(seq) = seq {
            let reset = self.note_draw(token);
            let findings = self.checker.on_token(seq, token, reset, &self.names);
            self.record_findings(findings);
        }
        let ws = &mut self.state.workers[w.index()];
        if let Some(lease) = ws.lease.as_mut() {
            lease.token = Some(token);
        }
        if let Some(belief) = ws.belief.as_mut() {
            belief.token = Some(token);
        }
        self.advance(w);
    }

    /// incr-then-set, first half: `INCR` before the lock is held.
    fn acquire_incr_first(&mut self, w: WorkerId, n: NodeId) {
        let fence_key = self.setup.redis.fence_key.as_str();
        let reply = self.redis_exec(n, &Command::Incr { key: fence_key.to_owned() });
        let command = self.text(|| command_text(&["INCR", fence_key]));
        let Reply::Int(token) = reply else {
            self.emit(
                Actor::Worker(w),
                EventKind::AcquireFailed,
                command,
                self.text(|| reply.to_inline()),
                Vec::new(),
            );
            return self.finish(w, "sim.no_token");
        };
        self.emit(
            Actor::Worker(w),
            EventKind::TokenDrawn { token },
            command,
            self.text(|| reply.to_inline()),
            Vec::new(),
        );
        let reset = self.note_draw(token);
        self.runtime[w.index()].progress = Progress::SetLock { token, reset };
        let at_ms = self.state.now_ms.saturating_add(ROUND_TRIP_MS);
        self.schedule_step(w, at_ms, Meanwhile::Waiting);
    }

    pub(super) fn token_command(&self) -> String {
        match self.setup.tokens {
            TokenSource::PgSequence => "SELECT nextval('fence_seq')".to_owned(),
            TokenSource::Uuid => "uuid4()".to_owned(),
            TokenSource::RedisIncr | TokenSource::Consensus | TokenSource::None => String::new(),
        }
    }

    pub(super) fn step_redlock(
        &mut self,
        w: WorkerId,
        ttl_ms: u64,
        retry_every_ms: u64,
        attempts: u32,
    ) {
        let now = self.state.now_ms;
        let n_nodes = self.state.nodes.len();
        let (next, start_ms, mut ok_nodes) =
            match std::mem::take(&mut self.runtime[w.index()].progress) {
                Progress::Redlock { next, start_ms, ok } => (next, start_ms, ok),
                _ => (0, now, Vec::new()),
            };
        if next < n_nodes {
            let n = NodeId::at(next);
            if self.redlock_node(w, n, ttl_ms) {
                ok_nodes.push(n);
            }
            self.runtime[w.index()].progress =
                Progress::Redlock { next: next + 1, start_ms, ok: ok_nodes };
            // Each node is a separate round trip.
            self.schedule_step(w, now.saturating_add(ROUND_TRIP_MS), Meanwhile::Waiting);
            return;
        }
        let start = start_ms;
        let elapsed_ms = now.saturating_sub(start);
        let oks = ok_nodes.len();
        let majority = n_nodes / 2 + 1;
        let command = format!("majority {oks}/{n_nodes} in {elapsed_ms} ms");
        // Redlock's validity is what is left of the TTL after the acquisition, less an
        // allowance for the nodes' clocks running at slightly different rates: 1 % of the
        // TTL plus 2 ms, as the reference clients compute it (the distlock page's
        // MIN_VALIDITY). It covers drift, not a clock that steps (the clock-jump lesson).
        let drift_ms = ttl_ms / 100 + 2;
        let left_ms = ttl_ms.checked_sub(elapsed_ms).and_then(|l| l.checked_sub(drift_ms));
        if let Some(validity_ms) = left_ms.filter(|&l| oks >= majority && l > 0) {
            let seq = self.take_lease(w, validity_ms, None, GrantReply::Received);
            if let Some(belief) = self.state.workers[w.index()].belief.as_mut() {
                belief.since_ms = start;
                belief.until_ms = start.saturating_add(validity_ms);
            }
            let event = self.emit(
                Actor::Worker(w),
                EventKind::Granted { token: None },
                command,
                format!("locked, valid {} ms", validity_ms),
                Vec::new(),
            );
            self.after_grant(w, seq, None, event);
            if matches!(self.setup.tokens, TokenSource::PgSequence | TokenSource::Uuid) {
                self.runtime[w.index()].progress = Progress::DrawToken;
                return self.schedule_step(
                    w,
                    now.saturating_add(ROUND_TRIP_MS),
                    Meanwhile::Waiting,
                );
            }
            self.advance(w);
        } else {
            self.emit(
                Actor::Worker(w),
                EventKind::Denied,
                command,
                "not acquired".to_owned(),
                Vec::new(),
            );
            // Redlock unlocks every node it locked before trying again.
            let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
            let lock = [self.setup.redis.lock_key.clone()];
            for n in ok_nodes {
                self.redis_script(n, Script::Release, &lock, std::slice::from_ref(&value));
            }
            self.denied_retry(w, retry_every_ms, attempts);
        }
    }

    /// Redlock: `SET NX PX` on one node; whether it said OK.
    fn redlock_node(&mut self, w: WorkerId, n: NodeId, ttl_ms: u64) -> bool {
        let now = self.state.now_ms;
        let setup: &'s Setup = self.setup;
        let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
        let value = &*value;
        let lock_key = setup.redis.lock_key.as_str();
        let ttl_text = ttl_ms.to_string();
        let node_name = self.state.nodes[n.index()].name.clone();
        let command = self.text(|| {
            format!(
                "{} @{node_name}",
                command_text(&["SET", lock_key, value, "NX", "PX", &ttl_text])
            )
        });
        if !self.state.nodes[n.index()].up || self.partitioned(w, n) {
            let text = self.say("sim.unreachable", vec![("node", node_name)]);
            self.emit(
                Actor::Worker(w),
                EventKind::NodeLocked { node: n, ok: false },
                command,
                text,
                Vec::new(),
            );
            return false;
        }
        let now_node = self.state.nodes[n.index()].clock_ms(now);
        let deadline = now_node.saturating_add(i64::try_from(ttl_ms).unwrap_or(i64::MAX));
        let reply = self.redis_exec(n, &script::set_nx_px(lock_key, value, deadline));
        let ok = reply == Reply::Ok;
        self.emit(
            Actor::Worker(w),
            EventKind::NodeLocked { node: n, ok },
            command,
            self.text(|| reply.to_inline()),
            Vec::new(),
        );
        ok
    }

    pub(super) fn step_wait(
        &mut self,
        w: WorkerId,
        replicas: i64,
        timeout_ms: u64,
        on_short: OnShort,
    ) {
        let now = self.state.now_ms;
        let Some(p) = self.state.primary else {
            return self.unreachable(w, None, 1_000, 1);
        };
        let target = self.runtime[w.index()].write_offset;
        match std::mem::take(&mut self.runtime[w.index()].progress) {
            Progress::Wait { wanted } => {
                self.wait_returned(w, p, target, wanted, timeout_ms, on_short)
            }
            _ => {
                // Predict when the wanted acknowledgements arrive; re-count them then.
                let lag_ms = self.setup.redis.lag_ms;
                let mut ack_times: Vec<u64> = self
                    .replicas_of(p)
                    .iter()
                    .map(|&r| {
                        if self.state.nodes[r.index()].offset >= target {
                            now
                        } else {
                            now.saturating_add(lag_ms)
                        }
                    })
                    .collect();
                crate::sim::sorted::sort(&mut ack_times);
                let wanted = usize::try_from(replicas.max(0)).unwrap_or(usize::MAX);
                let limit = if timeout_ms == 0 {
                    self.setup.until_ms
                } else {
                    now.saturating_add(timeout_ms)
                };
                let at_ms = match wanted.checked_sub(1).and_then(|k| ack_times.get(k)) {
                    _ if wanted == 0 => now,
                    Some(&t) if t <= limit => t,
                    _ => limit,
                };
                self.runtime[w.index()].progress = Progress::Wait { wanted: replicas };
                self.schedule_step(w, at_ms, Meanwhile::Waiting);
            }
        }
    }

    /// WAIT's reply: how many replicas acknowledged; with `on_short: give-up`, a short count
    /// skips to the release (or ends the worker).
    fn wait_returned(
        &mut self,
        w: WorkerId,
        p: NodeId,
        target: u64,
        wanted: i64,
        timeout_ms: u64,
        on_short: OnShort,
    ) {
        let now = self.state.now_ms;
        let acked = self
            .replicas_of(p)
            .iter()
            .filter(|&&r| self.state.nodes[r.index()].offset >= target)
            .count();
        let acked = i64::try_from(acked).unwrap_or(i64::MAX);
        let command = format!("WAIT {wanted} {timeout_ms}");
        self.emit(
            Actor::Worker(w),
            EventKind::WaitReturned { acked, wanted },
            command,
            acked.to_string(),
            Vec::new(),
        );
        if acked < wanted && on_short == OnShort::GiveUp {
            let steps = self.steps(w);
            let pc = self.state.workers[w.index()].pc;
            let release = steps.iter().skip(pc).position(|s| matches!(s, Step::Release { .. }));
            match release {
                Some(offset) => {
                    let ws = &mut self.state.workers[w.index()];
                    ws.pc += offset;
                    ws.attempt = 1;
                    self.schedule_step(w, now, Meanwhile::Waiting);
                }
                None => self.end(w, Stop::GaveUp, "sim.gave_up_wait"),
            }
            return;
        }
        self.advance(w);
    }
}
