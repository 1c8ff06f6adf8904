//! Keeping and giving back the lock: release (checked script or bare DEL) and the watchdog's
//! renewals. It never grants a lease.

use super::World;
use super::worker::Stop;
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{NodeId, WorkerId};
use crate::sim::redis::{Command, Reply, command_text};
use crate::sim::scenario::{ReleaseHow, RenewHow, Setup, TokenSource, Topology};
use crate::sim::script::Script;
use crate::sim::state::{Activity, lock_value_owner};

impl<'s> World<'s> {
    pub(super) fn step_release(&mut self, w: WorkerId, how: ReleaseHow) {
        self.stop_watchdog(w);
        if self.setup.redis.topology == Topology::Redlock {
            self.release_everywhere(w);
            return;
        }
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(node) => {
                self.unreachable(w, node, 0, 1);
                return;
            }
        };
        let setup: &'s Setup = self.setup;
        let name = self.name(w);
        let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
        let value = &*value;
        let lock_key = setup.redis.lock_key.as_str();
        // Only another acquisition's lock matters (the checker's owner-only finding).
        let foreign_holder =
            self.lock_holder(n).filter(|holder| *holder != value).map(str::to_owned);
        let (reply, command, what) = match how {
            ReleaseHow::Script => {
                let reply = self.redis_script(n, Script::Release, &[lock_key], &[value]);
                let command = self.text(|| match self.consensus() {
                    true => format!("TXN IF value({lock_key}) = {value} THEN DELETE {lock_key}"),
                    false => command_text(&["EVAL", Script::Release.label(), "1", lock_key, value]),
                });
                (reply, command, "sim.owner_only_release")
            }
            ReleaseHow::BareDel => {
                let reply = self.redis_exec(n, &Command::Del { keys: vec![lock_key.to_owned()] });
                (reply, self.text(|| command_text(&["DEL", lock_key])), "sim.owner_only_del")
            }
        };
        let deleted = reply == Reply::Int(1);
        // The worker stops believing it holds the lock as it releases it: the event's frame
        // shows that already.
        self.set_belief(w, None);
        let event = self.emit(
            Actor::Worker(w),
            EventKind::Released { deleted },
            command,
            self.text(|| self.txn_reply(&reply)),
            Vec::new(),
        );
        if let (true, Some(holder)) = (deleted, foreign_holder) {
            let owner = holder_name(name, &holder);
            let findings = self.checker.on_foreign_touch(name, owner, what, event);
            self.record_findings(findings);
        }
        self.advance(w);
    }

    /// `GET lock_key`, compared with this acquisition's value in the application: go on
    /// if it matches, stop if the lock has expired or passed on.
    pub(super) fn step_check_lease(&mut self, w: WorkerId) {
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(node) => {
                self.unreachable(w, node, 0, 1);
                return;
            }
        };
        let lock_key = self.setup.redis.lock_key.clone();
        let reply = self.redis_exec(n, &Command::Get { key: lock_key.clone() });
        let mine = matches!(&reply, Reply::Bulk(v) if *v == *self.runtime[w.index()].lock_value);
        let command = self.text(|| command_text(&["GET", &lock_key]));
        let reply = self.text(|| reply.to_inline());
        self.emit(Actor::Worker(w), EventKind::LeaseChecked { mine }, command, reply, Vec::new());
        if mine {
            self.advance(w);
        } else {
            self.end(w, Stop::Finished, "sim.lease_lost");
        }
    }

    /// Redlock's release: the check-and-delete script on every reachable node. The requests
    /// are independent; the model shows them as one event.
    pub(super) fn release_everywhere(&mut self, w: WorkerId) {
        let value = std::rc::Rc::clone(&self.runtime[w.index()].lock_value);
        let lock = [self.setup.redis.lock_key.clone()];
        let mut deleted = 0;
        let mut reached = 0;
        for i in 0..self.state.nodes.len() {
            let n = NodeId::at(i);
            if !self.state.nodes[i].up || self.partitioned(w, n) {
                continue;
            }
            reached += 1;
            let reply = self.redis_script(n, Script::Release, &lock, std::slice::from_ref(&value));
            if reply == Reply::Int(1) {
                deleted += 1;
            }
        }
        let command = format!(
            "{} (on every node)",
            self.text(|| command_text(&["EVAL", Script::Release.label(), "1", &lock[0], &value]))
        );
        let reply = format!("deleted on {deleted} of {reached} reachable nodes");
        self.set_belief(w, None);
        self.emit(
            Actor::Worker(w),
            EventKind::Released { deleted: deleted > 0 },
            command,
            reply,
            Vec::new(),
        );
        self.advance(w);
    }

    /// Whether the lock lives in a consensus store (etcd-like transactions) rather than Redis.
    fn consensus(&self) -> bool {
        self.setup.tokens == TokenSource::Consensus
    }

    /// A checked script's reply as the lock service shows it: Redis' integer, or whether a
    /// consensus store's transaction took its THEN branch.
    fn txn_reply(&self, reply: &Reply) -> String {
        match (self.consensus(), reply) {
            (true, Reply::Int(1)) => "SUCCEEDED".to_owned(),
            (true, _) => "FAILED (the value differs or the key is gone)".to_owned(),
            (false, _) => reply.to_inline(),
        }
    }

    pub(super) fn watchdog_tick(&mut self, w: WorkerId) {
        let now = self.state.now_ms;
        let ws = &self.state.workers[w.index()];
        let Some(watchdog) = ws.watchdog else { return };
        match ws.activity {
            Activity::Crashed | Activity::Done => return,
            Activity::Paused { until_ms } => {
                self.schedule_watchdog(w, until_ms);
                return;
            }
            _ => {}
        }
        let ttl_ms = ws.lease.as_ref().map_or(30_000, |l| l.ttl_ms);
        let n = match self.lock_node(w) {
            Ok(n) => n,
            Err(_) => {
                self.schedule_watchdog(w, now.saturating_add(watchdog.interval_ms));
                return;
            }
        };
        let name = ws.name.clone();
        let value: String = self.runtime[w.index()].lock_value.to_string();
        let lock_key = self.setup.redis.lock_key.clone();
        let ttl_text = ttl_ms.to_string();
        let holder = self.lock_holder(n).map(str::to_owned);
        let (reply, command, what) = match watchdog.how {
            RenewHow::Script => {
                let args = [value.clone(), ttl_text.clone()];
                let reply =
                    self.redis_script(n, Script::Renew, std::slice::from_ref(&lock_key), &args);
                let command = self.text(|| match self.consensus() {
                    true => format!(
                        "TXN IF value({lock_key}) = {value} THEN PUT {lock_key} {value} LEASE {ttl_text}ms"
                    ),
                    false => command_text(&[
                        "EVAL",
                        Script::Renew.label(),
                        "1",
                        &lock_key,
                        &value,
                        &ttl_text,
                    ]),
                });
                (reply, command, "sim.owner_only_renew")
            }
            RenewHow::BarePexpire => {
                let ttl = i64::try_from(ttl_ms).unwrap_or(i64::MAX);
                let reply =
                    self.redis_exec(n, &Command::PExpire { key: lock_key.clone(), ttl_ms: ttl });
                (
                    reply,
                    self.text(|| command_text(&["PEXPIRE", &lock_key, &ttl_text])),
                    "sim.owner_only_pexpire",
                )
            }
        };
        let ok = reply == Reply::Int(1);
        let event = self.emit(
            Actor::Worker(w),
            EventKind::Renewed { ok },
            command,
            self.text(|| self.txn_reply(&reply)),
            Vec::new(),
        );
        if let (true, Some(holder)) = (ok, holder.filter(|h| *h != value)) {
            let owner = holder_name(&name, &holder);
            let findings = self.checker.on_foreign_touch(&name, owner, what, event);
            self.record_findings(findings);
        }
        if ok {
            if let Some(belief) = self.state.workers[w.index()].belief.as_mut() {
                belief.until_ms = now.saturating_add(ttl_ms);
            }
            if let Some(since) = self.runtime[w.index()].hung_since_ms {
                let findings =
                    self.checker.on_renew_while_hung(w, &name, now - since, ttl_ms, event);
                self.record_findings(findings);
            }
            self.schedule_watchdog(w, now.saturating_add(watchdog.interval_ms));
        } else {
            // Renewal failure is only logged (as Redisson does); the main thread is not told.
            self.stop_watchdog(w);
        }
    }
}

/// Who holds the lock, for the owner-only finding: the owner's name, or the whole value
/// when it is the actor's own other acquisition (its name alone would read as no harm).
fn holder_name<'v>(actor: &str, holder: &'v str) -> &'v str {
    match lock_value_owner(holder) {
        owner if owner == actor => holder,
        owner => owner,
    }
}
