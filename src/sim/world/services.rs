//! The services beside the table: the payment gateway with idempotency keys and the object
//! store with conditional PUTs. They never see the lock.

use super::World;
use super::record::Said;
use super::worker::{Rejection, Written};
use crate::sim::check::ObjectPutFact;
use crate::sim::event::{Actor, EventKind};
use crate::sim::id::{EventId, WorkerId};
use crate::sim::scenario::{Compare, KeyStrategy};
use crate::sim::state::{Charge, StoredObject};

impl<'s> World<'s> {
    pub(super) fn step_charge(
        &mut self,
        w: WorkerId,
        strategy: KeyStrategy,
        attempts: u32,
        backoff_ms: u64,
    ) {
        if self.handle_lost_reply_timeout(w, attempts, backoff_ms) {
            return;
        }
        let order = self.state.order.id;
        let key = match strategy {
            KeyStrategy::None => None,
            KeyStrategy::PerAttempt => Some(format!("att-{}", self.prng.hex(6))),
            KeyStrategy::PerOrder => Some(format!("order-{order}-pay")),
        };
        let mut command =
            format!("POST /v1/charges order={order} amount={}", self.state.order.amount);
        if let Some(key) = &key {
            command.push_str(&format!(" Idempotency-Key: {key}"));
        }
        let replay = key
            .as_ref()
            .filter(|k| self.setup.gateway.honours_keys && self.state.idempotency_keys.contains(k));
        if let Some(key) = replay.cloned() {
            // A replay answers with the stored result, the id of the charge the key was
            // stored with (its latest: a forgotten key comes back with a new charge), as
            // Stripe's does (it adds `Idempotent-Replayed: true`).
            let stored = self.state.charges.iter().rposition(|c| c.key.as_ref() == Some(&key));
            let reply =
                format!("200 charge ch_{} (replayed, no new charge)", stored.map_or(0, |i| i + 1));
            self.emit(
                Actor::Gateway,
                EventKind::ChargeReplayed { key },
                command,
                reply,
                Vec::new(),
            );
        } else {
            let n = self.state.charges.len() + 1;
            self.state.charges.push(Charge {
                worker: w,
                at_ms: self.state.now_ms,
                key: key.clone(),
            });
            if let Some(key) = &key {
                self.state.idempotency_keys.push(key.clone());
            }
            let event = self.emit(
                Actor::Gateway,
                EventKind::Charged { key },
                command,
                format!("200 charge ch_{n}"),
                Vec::new(),
            );
            let findings = self.checker.on_charge(w, event, &self.names);
            self.record_findings(findings);
        }
        if self.reply_lost(w) {
            return self.after_lost_reply(w);
        }
        self.advance(w);
    }

    /// Forgets the keys whose retention has passed (`gateway.key_retention_ms`; Stripe keeps
    /// a key at least 24 h): a request with one of them is new. Called as time advances,
    /// so the gateway's state shows a key only while it would be replayed.
    pub(super) fn forget_keys(&mut self) {
        let (Some(retention_ms), now) = (self.setup.gateway.key_retention_ms, self.state.now_ms)
        else {
            return;
        };
        let charges = &self.state.charges;
        self.state.idempotency_keys.retain(|key| {
            let stored = charges.iter().rev().find(|c| c.key.as_ref() == Some(key));
            stored.is_some_and(|c| now.saturating_sub(c.at_ms) < retention_ms)
        });
    }

    pub(super) fn object_name(&self) -> String {
        format!("orders/{}/receipt.pdf", self.state.order.id)
    }

    /// `HEAD` of the shared result object: remember its ETag for the put's `If-Match`, and
    /// with `compare`, stop when its metadata carries a token not below this worker's.
    pub(super) fn step_head_object(&mut self, w: WorkerId, compare: Compare) {
        let name = self.object_name();
        let token = self.state.workers[w.index()].lease.as_ref().and_then(|l| l.token);
        let current = self.state.objects.iter().find(|o| o.name == name);
        let etag = current.map(|o| o.etag.clone());
        let stored = current.and_then(|o| o.meta_fence);
        let stale = match (compare, stored, token) {
            (Compare::Token, Some(stored), Some(mine)) => stored >= mine,
            // No token to compare: a worker that checks cannot claim to be newer.
            (Compare::Token, _, None) => true,
            _ => false,
        };
        let reply = match (&etag, stored) {
            (None, _) => "404 Not Found".to_owned(),
            (Some(tag), None) => format!("200 OK ETag \"{tag}\""),
            (Some(tag), Some(fence)) => format!("200 OK ETag \"{tag}\" x-amz-meta-fence: {fence}"),
        };
        self.state.workers[w.index()].etag_seen = etag;
        let command = format!("HEAD /bucket/{name}");
        let causes = self.last_object_put.into_iter().collect();
        self.emit(Actor::Worker(w), EventKind::ObjectHead { name, stale }, command, reply, causes);
        if stale {
            self.fenced_off(w);
        } else {
            self.advance(w);
        }
    }

    pub(super) fn step_put_object(&mut self, w: WorkerId, if_match: bool, meta_fence: bool) {
        let ws = &self.state.workers[w.index()];
        let token = ws.lease.as_ref().and_then(|l| l.token);
        let lease = ws.lease.as_ref().map(|l| l.seq);
        // A conditional put replaces one shared object; otherwise each token writes its own
        // artifact, which a fenced-off worker must clean up.
        let name = if if_match {
            self.object_name()
        } else {
            let tag = token.map_or(ws.name.clone(), |t| t.to_string());
            format!("orders/{}/receipt-{tag}.pdf", self.state.order.id)
        };
        // Spelled as `{:?}` of an `Option` would (the etag depends on it), without linking
        // Debug formatting into the page.
        let token_text = token.map_or("None".to_owned(), |t| format!("Some({t})"));
        let body =
            format!("receipt for order {} by {} token {token_text}", self.state.order.id, ws.name);
        // S3's ETag of a single-part PUT is the body's MD5, 32 hex digits; the model has
        // SHA-1 at hand and keeps 32 of its digits (the same length and the same property:
        // the same bytes, the same tag).
        let etag = crate::sim::script::sha1_hex(body.as_bytes())[..32].to_owned();
        let seen = ws.etag_seen.clone();
        let current = self.state.objects.iter().position(|o| o.name == name);
        let current_etag = current.map(|i| self.state.objects[i].etag.clone());
        let precondition = if if_match {
            match &seen {
                Some(tag) => format!(" If-Match: \"{tag}\""),
                None => " If-None-Match: *".to_owned(),
            }
        } else {
            String::new()
        };
        let meta_fence = token.filter(|_| meta_fence);
        let metadata = meta_fence.map_or(String::new(), |t| format!(" x-amz-meta-fence: {t}"));
        let command = format!("PUT /bucket/{name}{precondition}{metadata}");
        if if_match && current_etag != seen {
            self.emit(
                Actor::Storage,
                EventKind::ObjectRejected { name },
                command,
                "412 Precondition Failed".to_owned(),
                Vec::new(),
            );
            self.fenced_off(w);
            return;
        }
        let replaced = current.and_then(|i| self.state.objects[i].lease);
        let object = StoredObject {
            name: name.clone(),
            etag: etag.clone(),
            written_by: w,
            token,
            lease,
            meta_fence,
        };
        match current {
            Some(i) => self.state.objects[i] = object,
            None => self.state.objects.push(object),
        }
        let ws = &mut self.state.workers[w.index()];
        ws.etag_seen = Some(etag.clone());
        if !ws.uploads.contains(&name) {
            ws.uploads.push(name.clone());
        }
        let reply = format!("200 OK ETag \"{etag}\"");
        let shared = if_match;
        let event = self.emit(
            Actor::Storage,
            EventKind::ObjectPut { name, etag },
            command,
            reply,
            Vec::new(),
        );
        if shared {
            // Only the one shared object can be overwritten by a holder whose time is up;
            // a per-token artifact is its writer's own, cleaned up after a rejection.
            self.last_object_put = Some(event);
            let put = ObjectPutFact { worker: w, lease, replaced, token, event };
            let finding = self.checker.on_object_put(&put, &self.names);
            self.record_findings(finding.into_iter().collect());
        }
        self.advance(w);
    }

    pub(super) fn step_delete_objects(&mut self, w: WorkerId) {
        let uploads = std::mem::take(&mut self.state.workers[w.index()].uploads);
        for name in uploads {
            // Only the copy this worker wrote is its artifact; a newer holder's stays.
            let mine = self.state.objects.iter().position(|o| o.name == name && o.written_by == w);
            let (reply, deleted) = match mine {
                Some(i) => {
                    self.state.objects.remove(i);
                    ("204 No Content".to_owned().into(), true)
                }
                None => (self.say("sim.skip_object", Vec::new()), false),
            };
            let command = format!("DELETE /bucket/{name}");
            if deleted {
                self.emit(
                    Actor::Storage,
                    EventKind::ObjectDeleted { name },
                    command,
                    reply,
                    Vec::new(),
                );
            } else {
                self.emit(
                    Actor::Worker(w),
                    EventKind::ObjectDeleted { name },
                    command,
                    reply,
                    Vec::new(),
                );
            }
        }
        self.advance(w);
    }

    /// Parks the task in the dead-letter queue for analysis: which order, the state the
    /// write was to set (the task), the worker and the token it carried.
    pub(super) fn step_send_to_dlq(&mut self, w: WorkerId) {
        let (status, token) = self.runtime[w.index()].rejected_write.clone().unwrap_or_default();
        let token = token.map_or_else(|| "none".to_owned(), |t| t.to_string());
        let entry =
            format!("order {} {status}, token {token}, from {}", self.state.order.id, self.name(w));
        self.state.dlq.push(entry.clone());
        let command = format!("SEND dlq {}", crate::sim::redis::quote_cli(&entry));
        self.emit(Actor::Dlq, EventKind::SentToDlq, command, "queued".to_owned(), Vec::new());
        self.advance(w);
    }

    /// The alert monitor counts one fenced write (fenced off when the fence refused it) and
    /// checks its rule over the last `window_ms`, this write included: the check is an
    /// event, and the alert fires or resolves when the share crosses the limit.
    pub(super) fn monitor_write(&mut self, written: Written, write_event: EventId) {
        let Some(rule) = self.setup.alert else { return };
        let now = self.state.now_ms;
        self.fenced_writes.push((now, written));
        let in_window = self.fenced_writes.iter().filter(|(at, _)| at + rule.window_ms > now);
        let (writes, off) = in_window.fold((0u32, 0u32), |(t, o), (_, written)| {
            let fenced_off = *written == Written::Rejected(Rejection::Fence);
            (t + 1, o + u32::from(fenced_off))
        });
        let limit = rule.share_pct;
        let firing = u64::from(off) * 100 >= u64::from(limit) * u64::from(writes);
        let changed = firing != self.alert_firing;
        self.alert_firing = firing;
        let pct = off * 100 / writes.max(1);
        let window = crate::sim::check::secs(rule.window_ms);
        let args = vec![
            ("n", off.to_string()),
            ("m", writes.to_string()),
            ("pct", pct.to_string()),
            ("limit", limit.to_string()),
            ("window", window.clone()),
        ];
        let why = match (changed, firing) {
            (false, _) => Said::default(),
            (true, true) => self.say("sim.alert_firing", args),
            (true, false) => self.say("sim.alert_resolved", args),
        };
        let state = match (changed, firing) {
            (_, true) if !changed => "still firing",
            (_, true) => "firing",
            (true, false) => "resolved",
            (false, false) => "ok",
        };
        let command =
            self.text(|| format!("CHECK stale_token_share over {window}, alert at {limit}%"));
        let cmp = if firing { ">=" } else { "<" };
        let reply = self.text(|| format!("{off}/{writes} = {pct}% {cmp} {limit}%: {state}"));
        let kind = EventKind::Alert { fenced_off: off, writes, firing, changed };
        self.emit_because(Actor::Dlq, kind, command, reply, why, vec![write_event]);
    }
}
