//! Safety and liveness checkers, run by the world after every step that can break them.
//!
//! Owns the definitions of the properties (see `event::Property`) and the wording of their
//! explanations; it returns findings as values and never changes the world. Tokens are
//! compared with the truth the checker sees: the order in which the lock was actually
//! granted (`lease seq`), which the workers themselves cannot see.

use crate::sim::id::{EventId, LeaseNo, WorkerId};
use crate::sim::sorted::SortedMap;

use crate::sim::event::{Note, Property, WarningKind};
use crate::sim::scenario::TokenSource;
use crate::sim::token::token_text;

/// How a transaction ended, for the checker.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum TxnEnd {
    Commit,
    Rollback,
}

/// A finding to be recorded as an event right after the step that caused it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Finding {
    Violation { property: Property, explanation: String, note: Note, causes: Vec<EventId> },
    Warning { kind: WarningKind, explanation: String, note: Note, causes: Vec<EventId> },
}

#[derive(Clone, Debug, Default)]
pub struct Checker {
    /// How tokens are shown in explanations.
    source: TokenSource,
    /// The highest token drawn from the source so far (a lower draw is a reset).
    highest_drawn: Option<i64>,
    /// Every lease by seq (seqs are small and dense): worker, token, grant event, time.
    leases: Vec<Option<LeaseRecord>>,
    /// Token -> the first lease that carried it.
    token_owner: TokenIndex<LeaseNo>,
    highest_token: Option<i64>,
    /// Accepted writes: the highest token and the newest lease accepted so far.
    accepted_max_token: Option<(i64, EventId)>,
    accepted_newest_lease: Option<(LeaseNo, EventId)>,
    /// Token -> (worker, event) of the first accepted write with it.
    writer_of_token: TokenIndex<(WorkerId, EventId)>,
    paid_by: Option<(WorkerId, EventId)>,
    /// What the accepted writes had established before each open transaction's first
    /// write: a rollback undoes that transaction's writes, so it restores this.
    before_txn: Vec<(WorkerId, Accepted)>,
    charges: Vec<(WorkerId, EventId)>,
    warned_reset: bool,
    warned_hung: Vec<WorkerId>,
}

/// The part of the checker that accepted writes change.
#[derive(Clone, Debug)]
struct Accepted {
    max_token: Option<(i64, EventId)>,
    newest_lease: Option<(LeaseNo, EventId)>,
    writer_of_token: TokenIndex<(WorkerId, EventId)>,
    paid_by: Option<(WorkerId, EventId)>,
}

#[derive(Clone, Debug)]
struct LeaseRecord {
    worker: WorkerId,
    token: Option<i64>,
    event: EventId,
    at_ms: u64,
    /// If this lease's token was drawn after the counter went backwards: the high-water
    /// mark before the reset (for the all-writes-rejected warning).
    highest_before: Option<i64>,
}

/// Token -> value for tokens that mostly arrive in increasing order (a counter's): an
/// ascending run kept in a vector (append, binary search) and a tree for the others, so
/// a long run costs no tree walk per token. Without hashing, nothing depends on a seed.
#[derive(Clone, Debug)]
struct TokenIndex<V> {
    ascending: Vec<(i64, V)>,
    others: SortedMap<i64, V>,
}

impl<V> Default for TokenIndex<V> {
    fn default() -> Self {
        TokenIndex { ascending: Vec::new(), others: SortedMap::new() }
    }
}

impl<V> TokenIndex<V> {
    fn get(&self, token: &i64) -> Option<&V> {
        match self.ascending.binary_search_by_key(token, |(t, _)| *t) {
            Ok(i) => Some(&self.ascending[i].1),
            Err(_) => self.others.get(token),
        }
    }

    /// Adds a token that is not there yet (callers check with `get` first).
    fn insert(&mut self, token: i64, value: V) {
        if self.ascending.last().is_none_or(|(last, _)| *last < token) {
            self.ascending.push((token, value));
        } else {
            self.others.insert(token, value);
        }
    }
}

/// What the world tells the checker about an accepted put of the shared object.
pub struct ObjectPutFact {
    pub worker: WorkerId,
    /// The lease the writer held, and the one the replaced object's writer held.
    pub lease: Option<LeaseNo>,
    pub replaced: Option<LeaseNo>,
    pub token: Option<i64>,
    pub event: EventId,
}

/// What the world tells the checker about an accepted or rejected write.
pub struct WriteFact<'a> {
    pub worker: WorkerId,
    pub worker_name: &'a str,
    pub lease: Option<LeaseNo>,
    pub token: Option<i64>,
    pub accepted: bool,
    /// Whether the row's status was `paid` before this write.
    pub was_paid: bool,
    pub status_after: &'a str,
    /// Whether an accepted write changed the row at all (setting a value it already
    /// holds changes nothing, so it cannot be a stale write's damage).
    pub changed: bool,
    pub event: EventId,
    pub at_ms: u64,
    pub last_fence: i64,
}

impl Checker {
    pub fn new(source: TokenSource) -> Checker {
        Checker { source, ..Checker::default() }
    }

    fn lease(&self, seq: LeaseNo) -> Option<&LeaseRecord> {
        self.leases.get(seq.index()).and_then(Option::as_ref)
    }

    /// A write accepted from a lease that had already passed to another worker, none of
    /// whose writes had reached the row: the fence had nothing newer to compare with and
    /// let the stale holder through (it protects only from the new holder's first write on).
    fn stale_holder(&self, fact: &WriteFact<'_>, names: &[String]) -> Option<Finding> {
        let newer = self.newer_holder(fact.lease?, fact.worker).filter(|_| fact.changed)?;
        let who = names.get(newer.worker.index()).map_or("?", String::as_str).to_owned();
        let mut args = vec![("worker", fact.worker_name.to_owned())];
        let key = match fact.token {
            Some(token) => {
                args.push(("token", token_text(self.source, token)));
                "sim.stale_holder"
            }
            None => "sim.stale_holder_plain",
        };
        args.extend([("newer", who), ("t", secs(newer.at_ms))]);
        let causes = vec![newer.event, fact.event];
        Some(violation(Property::NoStaleHolder, Note::new(key, args), causes))
    }

    /// The first lease granted after `seq` to a worker other than `writer`, if any: the
    /// holder that `seq`'s lease passed to.
    fn newer_holder(&self, seq: LeaseNo, writer: WorkerId) -> Option<&LeaseRecord> {
        let later = self.leases.get(seq.index() + 1..).unwrap_or_default();
        later.iter().flatten().find(|record| record.worker != writer)
    }

    /// A token was drawn; returns the previous high-water mark if this draw went below it.
    pub fn on_draw(&mut self, token: i64) -> Option<i64> {
        let reset = self.highest_drawn.filter(|&highest| token < highest);
        self.highest_drawn = Some(self.highest_drawn.map_or(token, |h| h.max(token)));
        reset
    }

    /// A lease was granted (its token may come later, see [`Checker::on_token`]).
    pub fn on_grant(&mut self, seq: LeaseNo, worker: WorkerId, event: EventId, at_ms: u64) {
        let record = LeaseRecord { worker, token: None, event, at_ms, highest_before: None };
        let index = seq.index();
        if self.leases.len() <= index {
            self.leases.resize(index + 1, None);
        }
        self.leases[index] = Some(record);
    }

    /// The lease `seq` got token `token` (in the grant's step or a later one).
    pub fn on_token(
        &mut self,
        seq: LeaseNo,
        token: i64,
        reset: Option<i64>,
        names: &[String],
    ) -> Vec<Finding> {
        let show = |t: i64| token_text(self.source, t);
        let mut findings = Vec::new();
        let Some(record) = self.lease(seq).cloned() else {
            return findings;
        };
        let who = |w: WorkerId| names.get(w.index()).map_or("?", String::as_str).to_owned();
        if let Some(&first) = self.token_owner.get(&token) {
            let Some(other) = self.lease(first) else {
                return findings;
            };
            let note = Note::new(
                "sim.token_unique",
                vec![
                    ("token", show(token)),
                    ("first", who(other.worker)),
                    ("t1", secs(other.at_ms)),
                    ("second", who(record.worker)),
                    ("t2", secs(record.at_ms)),
                ],
            );
            findings.push(violation(Property::TokenUnique, note, vec![other.event, record.event]));
        } else {
            self.token_owner.insert(token, seq);
        }
        // Token order must agree with grant order, for every pair of leases. Leases usually
        // get their tokens in grant order, so only the leases on the "wrong side" are
        // scanned: later ones (rare), and earlier ones only if some token exceeds this one.
        let split = (seq.index()).min(self.leases.len());
        let later = self.leases.get(split + 1..).unwrap_or_default().iter().flatten();
        let earlier_needed = self.highest_token.is_some_and(|h| h > token);
        let earlier = self.leases[..split].iter().rev().take_while(|_| earlier_needed).flatten();
        let inverted = later
            .filter(|other| other.token.is_some_and(|t| t < token))
            .map(|other| (&record, other))
            .chain(
                earlier
                    .filter(|other| other.token.is_some_and(|t| t > token))
                    .map(|other| (other, &record)),
            )
            .next();
        if let Some((first, second)) = inverted {
            let first_token = first.token.unwrap_or(token);
            let second_token = second.token.unwrap_or(token);
            let note = Note::new(
                "sim.token_order",
                vec![
                    ("first", who(first.worker)),
                    ("t1", secs(first.at_ms)),
                    ("second", who(second.worker)),
                    ("t2", secs(second.at_ms)),
                    ("a", show(first_token)),
                    ("b", show(second_token)),
                ],
            );
            findings.push(violation(Property::TokenOrder, note, vec![first.event, second.event]));
        }
        if let Some(Some(entry)) = self.leases.get_mut(seq.index()) {
            entry.token = Some(token);
            entry.highest_before = reset;
        }
        self.highest_token = Some(self.highest_token.map_or(token, |h| h.max(token)));
        findings
    }

    /// A release or renewal touched a lock instance created by someone else. `how` is the
    /// note key naming the command (so a translated sentence has no English inside).
    pub fn on_foreign_touch(
        &mut self,
        actor: &str,
        owner: &str,
        how: &'static str,
        event: EventId,
    ) -> Vec<Finding> {
        let note = Note::new(how, vec![("actor", actor.to_owned()), ("owner", owner.to_owned())]);
        vec![violation(Property::OwnerOnly, note, vec![event])]
    }

    /// A write is about to run inside `worker`'s open transaction: remember what the
    /// accepted writes had established, once per transaction. While the transaction holds
    /// the row's lock no other write reaches the row, so a rollback can restore it.
    pub fn before_txn_write(&mut self, worker: WorkerId) {
        if self.before_txn.iter().any(|(w, _)| *w == worker) {
            return;
        }
        let accepted = Accepted {
            max_token: self.accepted_max_token,
            newest_lease: self.accepted_newest_lease,
            writer_of_token: self.writer_of_token.clone(),
            paid_by: self.paid_by,
        };
        self.before_txn.push((worker, accepted));
    }

    /// `worker`'s transaction ended: a commit keeps its writes, a rollback (or a dropped
    /// connection) undoes them, so a write nobody will ever see counts for nothing.
    pub fn on_txn_end(&mut self, worker: WorkerId, end: TxnEnd) {
        let Some(i) = self.before_txn.iter().position(|(w, _)| *w == worker) else {
            return;
        };
        let (_, accepted) = self.before_txn.swap_remove(i);
        if end == TxnEnd::Rollback {
            self.accepted_max_token = accepted.max_token;
            self.accepted_newest_lease = accepted.newest_lease;
            self.writer_of_token = accepted.writer_of_token;
            self.paid_by = accepted.paid_by;
        }
    }

    /// An accepted put of the shared object by a worker whose lease had passed to another:
    /// the object now holds a stale holder's result. Over a newer holder's object it is a
    /// stale write accepted (`no-stale-accept`, what a fence must refuse); before any newer
    /// holder's put it is the gap every fence has (`no-stale-holder`), and the newer
    /// holder's own conditional put will then fail on an ETag it never read.
    pub fn on_object_put(&self, put: &ObjectPutFact, names: &[String]) -> Option<Finding> {
        let lease = put.lease?;
        let newer = self.newer_holder(lease, put.worker)?;
        let name = |w: WorkerId| names.get(w.index()).map_or("?", String::as_str).to_owned();
        let mut args = vec![("worker", name(put.worker)), ("newer", name(newer.worker))];
        args.push(("token", put.token.map_or("-".to_owned(), |t| token_text(self.source, t))));
        args.push(("t", secs(newer.at_ms)));
        let note = Note::new("sim.stale_object", args);
        let property = match put.replaced {
            Some(replaced) if replaced > lease => Property::NoStaleAccept,
            _ => Property::NoStaleHolder,
        };
        Some(violation(property, note, vec![newer.event, put.event]))
    }

    pub fn on_write(&mut self, fact: &WriteFact<'_>, names: &[String]) -> Vec<Finding> {
        let mut findings = Vec::new();
        let who = |w: WorkerId| names.get(w.index()).map_or("?", String::as_str).to_owned();
        if !fact.accepted {
            let reset = fact.lease.and_then(|seq| self.lease(seq)).and_then(|record| {
                let token = record.token?;
                let before = record.highest_before?;
                (token < before).then_some(before)
            });
            if let (Some(before), false) = (reset, self.warned_reset) {
                self.warned_reset = true;
                let note = Note::new(
                    "sim.all_rejected",
                    vec![("before", before.to_string()), ("fence", fact.last_fence.to_string())],
                );
                findings.push(warning(WarningKind::AllWritesRejected, note, vec![fact.event]));
            }
            return findings;
        }
        if let (Some(token), Some((max_token, max_event))) = (fact.token, self.accepted_max_token)
            && token < max_token
        {
            let note = Note::new(
                "sim.stale_token",
                vec![
                    ("worker", fact.worker_name.to_owned()),
                    ("token", token_text(self.source, token)),
                    ("max", token_text(self.source, max_token)),
                ],
            );
            findings.push(violation(Property::NoStaleAccept, note, vec![max_event, fact.event]));
        }
        let stale_by_lease = match (fact.lease, self.accepted_newest_lease) {
            (Some(seq), Some((newest, newest_event))) if seq < newest && fact.changed => {
                Some((newest, newest_event))
            }
            _ => None,
        };
        if let (Some((newest, newest_event)), true) = (stale_by_lease, findings.is_empty()) {
            let newer = self.lease(newest).map_or("another worker".to_owned(), |r| who(r.worker));
            let note = Note::new(
                "sim.stale_lease",
                vec![("worker", fact.worker_name.to_owned()), ("newer", newer)],
            );
            findings.push(violation(Property::NoStaleAccept, note, vec![newest_event, fact.event]));
        }
        if findings.is_empty() {
            findings.extend(self.stale_holder(fact, names));
        }
        if let Some(token) = fact.token {
            match self.writer_of_token.get(&token) {
                Some(&(writer, first_event)) if writer != fact.worker => {
                    let note = Note::new(
                        "sim.one_writer",
                        vec![
                            ("token", token_text(self.source, token)),
                            ("first", who(writer)),
                            ("second", fact.worker_name.to_owned()),
                        ],
                    );
                    findings.push(violation(
                        Property::OneWriterPerToken,
                        note,
                        vec![first_event, fact.event],
                    ));
                }
                Some(_) => {}
                None => {
                    self.writer_of_token.insert(token, (fact.worker, fact.event));
                }
            }
            if self.accepted_max_token.is_none_or(|(max, _)| token > max) {
                self.accepted_max_token = Some((token, fact.event));
            }
        }
        if let Some(seq) = fact.lease
            && self.accepted_newest_lease.is_none_or(|(newest, _)| seq > newest)
        {
            self.accepted_newest_lease = Some((seq, fact.event));
        }
        if fact.status_after == "paid" && !fact.was_paid {
            if let Some((first, first_event)) = self.paid_by {
                let note = Note::new(
                    "sim.paid_once",
                    vec![("first", who(first)), ("second", fact.worker_name.to_owned())],
                );
                findings.push(violation(Property::PaidOnce, note, vec![first_event, fact.event]));
            } else {
                self.paid_by = Some((fact.worker, fact.event));
            }
        }
        findings
    }

    /// A real (not replayed) charge was made.
    pub fn on_charge(
        &mut self,
        worker: WorkerId,
        event: EventId,
        names: &[String],
    ) -> Vec<Finding> {
        let who = |w: WorkerId| names.get(w.index()).map_or("?", String::as_str).to_owned();
        let mut findings = Vec::new();
        if let Some(&(first, first_event)) = self.charges.first() {
            let note = Note::new(
                "sim.effect_once",
                vec![
                    ("n", (self.charges.len() + 1).to_string()),
                    ("first", who(first)),
                    ("second", who(worker)),
                ],
            );
            findings.push(violation(Property::EffectOnce, note, vec![first_event, event]));
        }
        self.charges.push((worker, event));
        findings
    }

    /// A watchdog renewed the lock while its main thread was hung for `hung_for_ms`.
    pub fn on_renew_while_hung(
        &mut self,
        worker: WorkerId,
        name: &str,
        hung_for_ms: u64,
        ttl_ms: u64,
        event: EventId,
    ) -> Vec<Finding> {
        if hung_for_ms < ttl_ms || self.warned_hung.contains(&worker) {
            return Vec::new();
        }
        self.warned_hung.push(worker);
        let note =
            Note::new("sim.hung_renew", vec![("name", name.to_owned()), ("d", secs(hung_for_ms))]);
        vec![warning(WarningKind::LockHeldByHungWorker, note, vec![event])]
    }
}

fn violation(property: Property, note: Note, causes: Vec<EventId>) -> Finding {
    Finding::Violation { property, explanation: note.english(), note, causes }
}

fn warning(kind: WarningKind, note: Note, causes: Vec<EventId>) -> Finding {
    Finding::Warning { kind, explanation: note.english(), note, causes }
}

/// Formats virtual milliseconds as seconds with three decimals: `31.000 s`.
pub fn secs(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}
