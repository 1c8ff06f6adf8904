//! The Redis cluster: requests on a node at its own clock, replication with lag, failover,
//! crashes and restarts with persistence, expiry, partitions and network delay. It knows
//! nothing of workers' programs.

use super::record::Said;
use super::{Action, World};
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{EventId, NodeId, WorkerId};
use crate::sim::redis::{Command, Effect, Effects, ExpiryRole, Keyspace, Reply, SentAs};
use crate::sim::scenario::{Fault, Persistence, Topology};
use crate::sim::script::Script;
use crate::sim::state::Role;
use std::cmp::Reverse;

pub(super) struct Batch {
    pub(super) from: NodeId,
    pub(super) incarnation: u32,
    pub(super) offset: u64,
    pub(super) effects: Vec<Effect>,
}

#[derive(Clone, Default)]
pub(super) struct Persisted {
    pub(super) durable: Keyspace,
    pub(super) os: Keyspace,
    pub(super) last_change_ms: Option<u64>,
    /// What a restart will load (set at crash time).
    pub(super) restore: Keyspace,
    pub(super) incarnation: u32,
}

impl<'s> World<'s> {
    /// The global time of the next key deadline on a node that expires keys itself.
    pub(super) fn next_expiry(&self) -> Option<(u64, NodeId)> {
        let mut best: Option<(u64, NodeId)> = None;
        for (i, node) in self.state.nodes.iter().enumerate() {
            if !node.up || matches!(node.role, Role::Replica { .. }) {
                continue;
            }
            let Some(deadline) = node.keyspace.next_deadline_ms() else {
                continue;
            };
            // A key is expired once the node's clock is past its deadline.
            let global = deadline.saturating_add(1).saturating_sub(node.clock_offset_ms).max(0);
            let global = u64::try_from(global).unwrap_or(0).max(self.state.now_ms);
            if best.is_none_or(|(t, _)| global < t) {
                best = Some((global, NodeId::at(i)));
            }
        }
        best
    }

    pub(super) fn expire(&mut self, n: NodeId) {
        let now_node = self.state.nodes[n.index()].clock_ms(self.state.now_ms);
        self.persist_tick(n);
        // Who held each expiring key, for the event's cause (before the keys are gone).
        let holders: Vec<(String, String)> = self.state.nodes[n.index()]
            .keyspace
            .iter()
            .filter(|(_, entry)| entry.expire_at_ms.is_some_and(|deadline| now_node > deadline))
            .map(|(key, entry)| (key.clone(), entry.value.clone()))
            .collect();
        let keys = self.state.nodes[n.index()].keyspace.expire_due(now_node);
        let mut effects = self.effects_for(n);
        for key in &keys {
            effects.record(|| Effect::Delete { key: key.clone() });
        }
        self.persist_after(n);
        for (key, value) in holders {
            let node = self.state.nodes[n.index()].name.clone();
            let text = self.say("sim.expired", vec![("key", key.clone()), ("node", node)]);
            let causes = self.grant_of_value(&value).into_iter().collect();
            self.emit(Actor::Node(n), EventKind::Expired { key }, String::new(), text, causes);
        }
        if self.state.primary == Some(n) {
            self.replicate(n, effects);
        }
    }

    /// The grant event of the worker whose lock value is `value` (its latest lease).
    pub(super) fn grant_of_value(&self, value: &str) -> Option<EventId> {
        self.state
            .workers
            .iter()
            .filter_map(|w| w.lease.as_ref())
            .filter(|lease| &*lease.value == value)
            .max_by_key(|lease| lease.seq)
            .map(|lease| lease.granted_by)
    }

    pub(super) fn redis_exec(&mut self, n: NodeId, command: &Command) -> Reply {
        self.on_node(n, |keyspace, now_ms, role, effects| {
            keyspace.exec_into(command, now_ms, role, effects)
        })
    }

    pub(super) fn redis_script(
        &mut self,
        n: NodeId,
        script: Script,
        keys: &[impl AsRef<str>],
        args: &[impl AsRef<str>],
    ) -> Reply {
        // A cluster node refuses a script whose keys span two slots before running it.
        if self.setup.redis.topology == Topology::Cluster
            && let Some(refusal) = crate::sim::redis::slot::cross_slot(keys)
        {
            return refusal;
        }
        self.on_node(n, |keyspace, now_ms, role, effects| {
            script.run(keyspace, keys, args, now_ms, role, effects)
        })
    }

    /// Runs one request on node `n` at its clock: persistence before and after, and the
    /// effects replicated (or only counted, see [`World::effects_for`]).
    pub(super) fn on_node(
        &mut self,
        n: NodeId,
        request: impl FnOnce(&mut Keyspace, i64, ExpiryRole, &mut Effects) -> Reply,
    ) -> Reply {
        let node = &self.state.nodes[n.index()];
        let now_node = node.clock_ms(self.state.now_ms);
        let role = expiry_role(node.role);
        self.persist_tick(n);
        let mut effects = self.effects_for(n);
        let reply =
            request(&mut self.state.nodes[n.index()].keyspace, now_node, role, &mut effects);
        self.after_effects(n, effects);
        reply
    }

    /// Node `n`'s effects are needed as values only when it is the primary and a live
    /// replica follows it; otherwise they are only counted.
    pub(super) fn effects_for(&self, n: NodeId) -> Effects {
        let replicated = self.state.primary == Some(n)
            && self.state.nodes.iter().any(|node| node.up && node.role == Role::Replica { of: n });
        if replicated { Effects::kept() } else { Effects::counted() }
    }

    pub(super) fn after_effects(&mut self, n: NodeId, effects: Effects) {
        if effects.count() == 0 {
            return;
        }
        self.persist_after(n);
        if self.state.primary == Some(n) {
            self.replicate(n, effects);
        }
    }

    /// Sends one batch (a command's or a whole script's effects) to every replica.
    pub(super) fn replicate(&mut self, from: NodeId, effects: Effects) {
        if effects.count() == 0 {
            return;
        }
        let replicas: Vec<NodeId> = self.replicas_of(from);
        let node = &mut self.state.nodes[from.index()];
        node.offset += 1;
        // No replica, no batch to keep: a single node must not accumulate every write's
        // effects for the whole run (it did, and it cost the hand-off benchmark dearly).
        if replicas.is_empty() {
            return;
        }
        let batch = u32::try_from(self.batches.len()).unwrap_or(u32::MAX);
        self.batches.push(Batch {
            from,
            incarnation: self.persisted[from.index()].incarnation,
            offset: node.offset,
            effects: effects.into_vec(),
        });
        let at_ms = self.state.now_ms.saturating_add(self.setup.redis.lag_ms);
        for r in replicas {
            self.schedule(at_ms, Action::Deliver { batch, to: r });
        }
    }

    pub(super) fn replicas_of(&self, primary: NodeId) -> Vec<NodeId> {
        self.state
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.up && node.role == Role::Replica { of: primary })
            .map(|(i, _)| NodeId::at(i))
            .collect()
    }

    pub(super) fn deliver(&mut self, batch: u32, to: NodeId) {
        let b = &self.batches[batch as usize];
        let from = b.from;
        // A batch still in the primary's output buffer dies with the primary.
        let sender_alive = self.state.nodes[from.index()].up
            && self.persisted[from.index()].incarnation == b.incarnation;
        let target = &self.state.nodes[to.index()];
        if !sender_alive
            || !target.up
            || target.role != (Role::Replica { of: from })
            || target.offset >= b.offset
        {
            return;
        }
        let effects = b.effects.clone();
        let offset = b.offset;
        self.persist_tick(to);
        for effect in &effects {
            self.state.nodes[to.index()].keyspace.apply(effect);
        }
        self.state.nodes[to.index()].offset = offset;
        self.persist_after(to);
        let mut summary: Vec<String> = effects.iter().map(effect_text).collect();
        // Redis 7 wraps the effects of one call (a script's writes) in MULTI/EXEC when
        // there is more than one, so a replica applies them together.
        if summary.len() > 1 {
            summary.insert(0, "MULTI".to_owned());
            summary.push("EXEC".to_owned());
        }
        let n_effects = u32::try_from(effects.len()).unwrap_or(u32::MAX);
        self.emit(
            Actor::Node(to),
            EventKind::Replicated { from, n_effects },
            summary.join("; "),
            String::new(),
            Vec::new(),
        );
    }

    pub(super) fn promote(&mut self, dead: NodeId) {
        if self.state.nodes[dead.index()].up || self.state.primary.is_some() {
            return;
        }
        let candidate = self
            .state
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, node)| node.up && node.role == Role::Replica { of: dead })
            .max_by_key(|(i, node)| (node.offset, Reverse(*i)))
            .map(|(i, _)| NodeId::at(i));
        let Some(c) = candidate else { return };
        for node in &mut self.state.nodes {
            if node.role == (Role::Replica { of: dead }) {
                node.role = Role::Replica { of: c };
            }
        }
        self.state.nodes[c.index()].role = Role::Primary;
        self.state.primary = Some(c);
        let node = self.state.nodes[c.index()].name.clone();
        let said = self.say("sim.promoted", vec![("node", node)]);
        // Sentinel promotes with REPLICAOF NO ONE, which Redis answers +OK; what the
        // promotion means is the event's note, not its reply.
        self.emit_because(
            Actor::Node(c),
            EventKind::Promoted,
            "REPLICAOF NO ONE".to_owned(),
            "OK".to_owned(),
            Said { text: String::new(), note: said.note },
            Vec::new(),
        );
    }

    pub(super) fn restart(&mut self, n: NodeId) {
        if self.state.nodes[n.index()].up {
            return;
        }
        let now_node = self.state.nodes[n.index()].clock_ms(self.state.now_ms);
        let mut keyspace = self.persisted[n.index()].restore.clone();
        // Deadlines are absolute: keys whose time passed while down are not loaded.
        keyspace.expire_due(now_node);
        let n_keys = u32::try_from(keyspace.len()).unwrap_or(u32::MAX);
        let was_primary = self.state.nodes[n.index()].role == Role::Primary;
        {
            let node = &mut self.state.nodes[n.index()];
            node.up = true;
            node.keyspace = keyspace;
        }
        let p = &mut self.persisted[n.index()];
        p.last_change_ms = Some(self.state.now_ms);
        p.durable = self.state.nodes[n.index()].keyspace.clone();
        p.os = p.durable.clone();
        let text = self.say("sim.restarted", vec![("n", n_keys.to_string())]);
        self.emit(
            Actor::Node(n),
            EventKind::NodeRestarted { n_keys },
            String::new(),
            text,
            Vec::new(),
        );
        match self.state.primary {
            None if was_primary => {
                // Back as primary: its replicas resynchronise from it, whatever it lost.
                self.state.primary = Some(n);
                for r in self.replicas_of(n) {
                    self.resync(r, n);
                }
            }
            Some(p) if p != n => {
                self.state.nodes[n.index()].role = Role::Replica { of: p };
                self.resync(n, p);
            }
            _ => {}
        }
    }

    pub(super) fn resync(&mut self, replica: NodeId, from: NodeId) {
        let data = self.state.nodes[from.index()].keyspace.clone();
        let offset = self.state.nodes[from.index()].offset;
        let n_keys = u32::try_from(data.len()).unwrap_or(u32::MAX);
        let node = &mut self.state.nodes[replica.index()];
        node.keyspace = data;
        node.offset = offset;
        self.persist_after(replica);
        let from_name = self.state.nodes[from.index()].name.clone();
        let text = self.say("sim.resynced", vec![("from", from_name), ("n", n_keys.to_string())]);
        self.emit(
            Actor::Node(replica),
            EventKind::Resynced { from, n_keys },
            String::new(),
            text,
            Vec::new(),
        );
    }

    /// Before a change: a periodic fsync or snapshot since the last change captured the
    /// state as it was then.
    pub(super) fn persist_tick(&mut self, n: NodeId) {
        let period_ms = match self.setup.redis.persistence {
            Persistence::Rdb { every_ms } => every_ms.max(1),
            Persistence::AofEverysec => 1_000,
            Persistence::AofNo => 30_000,
            Persistence::None | Persistence::AofAlways => return,
        };
        let now = self.state.now_ms;
        let p = &mut self.persisted[n.index()];
        if let Some(last) = p.last_change_ms
            && now / period_ms > last / period_ms
        {
            p.durable = self.state.nodes[n.index()].keyspace.clone();
        }
    }

    /// After a change: what reached the OS (AOF) or the disk (`always`).
    pub(super) fn persist_after(&mut self, n: NodeId) {
        let now = self.state.now_ms;
        let mode = self.setup.redis.persistence;
        let current = &self.state.nodes[n.index()].keyspace;
        let p = &mut self.persisted[n.index()];
        match mode {
            Persistence::None => return,
            Persistence::AofAlways => {
                p.durable = current.clone();
                p.os = current.clone();
            }
            Persistence::AofEverysec | Persistence::AofNo => p.os = current.clone(),
            Persistence::Rdb { .. } => {}
        }
        p.last_change_ms = Some(now);
    }

    /// The node a worker sends lock commands to, or the node it cannot reach.
    pub(super) fn lock_node(&self, w: WorkerId) -> Result<NodeId, Option<NodeId>> {
        let Some(p) = self.state.primary else {
            return Err(None);
        };
        if !self.state.nodes[p.index()].up || self.partitioned(w, p) {
            return Err(Some(p));
        }
        Ok(p)
    }

    pub(super) fn partitioned(&self, w: WorkerId, n: NodeId) -> bool {
        let now = self.state.now_ms;
        self.setup.faults.iter().any(|fault| match fault {
            Fault::Partition { worker, node, at_ms, partition_ms } => {
                *worker == w
                    && *node == n
                    && now >= *at_ms
                    && now < at_ms.saturating_add(*partition_ms)
            }
            _ => false,
        })
    }

    pub(super) fn network_delay(&self, w: WorkerId) -> Option<u64> {
        let now = self.state.now_ms;
        self.setup.faults.iter().find_map(|fault| match fault {
            Fault::Delay { worker, at_ms, window_ms, delay_ms }
                if *worker == w && now >= *at_ms && now < at_ms.saturating_add(*window_ms) =>
            {
                Some(*delay_ms)
            }
            _ => None,
        })
    }

    /// The value in the lock key on node `n` now (the holding acquisition's value).
    pub(super) fn lock_holder(&self, n: NodeId) -> Option<&str> {
        let node = &self.state.nodes[n.index()];
        node.keyspace
            .peek(&self.setup.redis.lock_key, node.clock_ms(self.state.now_ms))
            .map(|e| e.value.as_str())
    }
}

fn expiry_role(role: Role) -> ExpiryRole {
    match role {
        Role::Replica { .. } => ExpiryRole::Hide,
        Role::Primary | Role::Peer => ExpiryRole::Delete,
    }
}

fn effect_text(effect: &Effect) -> String {
    match effect {
        Effect::Put { key, sent_as: SentAs::Incr, .. } => format!("INCR {key}"),
        Effect::Put { key, entry, sent_as: SentAs::PExpireAt } => {
            format!("PEXPIREAT {key} {}", entry.expire_at_ms.unwrap_or_default())
        }
        Effect::Put { key, entry, sent_as: SentAs::Set } => match entry.expire_at_ms {
            Some(at) => format!("SET {key} {} PXAT {at}", entry.value),
            None => format!("SET {key} {}", entry.value),
        },
        Effect::Delete { key } => format!("DEL {key}"),
    }
}
