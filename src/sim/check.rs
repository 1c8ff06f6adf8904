//! Safety and liveness checkers, run by the world after every step that can break them.
//!
//! Owns the definitions of the properties (see `event::Property`) and the wording of their
//! explanations; it returns findings as values and never changes the world. Tokens are
//! compared with the truth the checker sees: the order in which the lock was actually
//! granted (`lease seq`), which the workers themselves cannot see.

use std::collections::BTreeMap;

use crate::sim::event::{Property, WarningKind};
use crate::sim::scenario::TokenSource;
use crate::sim::token::token_text;

/// A finding to be recorded as an event right after the step that caused it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Finding {
    Violation { property: Property, explanation: String, causes: Vec<u32> },
    Warning { kind: WarningKind, explanation: String, causes: Vec<u32> },
}

#[derive(Clone, Debug, Default)]
pub struct Checker {
    /// How tokens are shown in explanations.
    source: TokenSource,
    /// The highest token drawn from the source so far (a lower draw is a reset).
    highest_drawn: Option<i64>,
    /// Every lease: seq -> (worker, token, grant event, time).
    leases: BTreeMap<u32, LeaseRecord>,
    /// Token -> the first lease that carried it.
    token_owner: BTreeMap<i64, u32>,
    highest_token: Option<i64>,
    /// Accepted writes: the highest token and the newest lease accepted so far.
    accepted_max_token: Option<(i64, u32)>,
    accepted_newest_lease: Option<(u32, u32)>,
    /// Token -> (worker, event) of the first accepted write with it.
    writer_of_token: BTreeMap<i64, (u8, u32)>,
    paid_by: Option<(u8, u32)>,
    charges: Vec<(u8, u32)>,
    warned_reset: bool,
    warned_hung: Vec<u8>,
}

#[derive(Clone, Debug)]
struct LeaseRecord {
    worker: u8,
    token: Option<i64>,
    event: u32,
    at_ms: u64,
    /// If this lease's token was drawn after the counter went backwards: the high-water
    /// mark before the reset (for the all-writes-rejected warning).
    highest_before: Option<i64>,
}

/// What the world tells the checker about an accepted or rejected write.
pub struct WriteFact<'a> {
    pub worker: u8,
    pub worker_name: &'a str,
    pub lease: Option<u32>,
    pub token: Option<i64>,
    pub accepted: bool,
    pub status_before: &'a str,
    pub status_after: &'a str,
    pub event: u32,
    pub at_ms: u64,
    pub last_fence: i64,
}

impl Checker {
    pub fn new(source: TokenSource) -> Checker {
        Checker { source, ..Checker::default() }
    }

    /// A token was drawn; returns the previous high-water mark if this draw went below it.
    pub fn on_draw(&mut self, token: i64) -> Option<i64> {
        let reset = self.highest_drawn.filter(|&highest| token < highest);
        self.highest_drawn = Some(self.highest_drawn.map_or(token, |h| h.max(token)));
        reset
    }

    /// A lease was granted (its token may come later, see [`Checker::on_token`]).
    pub fn on_grant(&mut self, seq: u32, worker: u8, event: u32, at_ms: u64) {
        let record = LeaseRecord { worker, token: None, event, at_ms, highest_before: None };
        self.leases.insert(seq, record);
    }

    /// The lease `seq` got token `token` (in the grant's step or a later one).
    pub fn on_token(
        &mut self,
        seq: u32,
        token: i64,
        reset: Option<i64>,
        names: &[String],
    ) -> Vec<Finding> {
        let show = |t: i64| token_text(self.source, t);
        let mut findings = Vec::new();
        let Some(record) = self.leases.get(&seq).cloned() else {
            return findings;
        };
        let who = |w: u8| names.get(usize::from(w)).map_or("?", String::as_str).to_owned();
        if let Some(&first) = self.token_owner.get(&token) {
            let other = &self.leases[&first];
            findings.push(Finding::Violation {
                property: Property::TokenUnique,
                explanation: format!(
                    "token {} was issued twice: to {} at {} and again to {} at {}",
                    show(token),
                    who(other.worker),
                    secs(other.at_ms),
                    who(record.worker),
                    secs(record.at_ms)
                ),
                causes: vec![other.event, record.event],
            });
        } else {
            self.token_owner.insert(token, seq);
        }
        // Token order must agree with grant order, for every pair of leases. Leases usually
        // get their tokens in grant order, so only the leases on the "wrong side" are
        // scanned: later ones (rare), and earlier ones only if some token exceeds this one.
        let later = self.leases.range(seq + 1..);
        let earlier_needed = self.highest_token.is_some_and(|h| h > token);
        let earlier = self.leases.range(..seq).rev().take_while(|_| earlier_needed);
        let inverted = later
            .filter(|(_, other)| other.token.is_some_and(|t| t < token))
            .map(|(_, other)| (&record, other))
            .chain(
                earlier
                    .filter(|(_, other)| other.token.is_some_and(|t| t > token))
                    .map(|(_, other)| (other, &record)),
            )
            .next();
        if let Some((first, second)) = inverted {
            let first_token = first.token.unwrap_or(token);
            let second_token = second.token.unwrap_or(token);
            findings.push(Finding::Violation {
                property: Property::TokenOrder,
                explanation: format!(
                    "{} was granted the lock at {} before {} at {}, but holds the higher token ({} > {})",
                    who(first.worker),
                    secs(first.at_ms),
                    who(second.worker),
                    secs(second.at_ms),
                    show(first_token),
                    show(second_token)
                ),
                causes: vec![first.event, second.event],
            });
        }
        if let Some(entry) = self.leases.get_mut(&seq) {
            entry.token = Some(token);
            entry.highest_before = reset;
        }
        self.highest_token = Some(self.highest_token.map_or(token, |h| h.max(token)));
        findings
    }

    /// A release or renewal touched a lock instance created by someone else.
    pub fn on_foreign_touch(
        &mut self,
        actor: &str,
        owner: &str,
        what: &str,
        event: u32,
    ) -> Vec<Finding> {
        vec![Finding::Violation {
            property: Property::OwnerOnly,
            explanation: format!("{actor}'s {what} acted on the lock that belongs to {owner}"),
            causes: vec![event],
        }]
    }

    pub fn on_write(&mut self, fact: &WriteFact<'_>, names: &[String]) -> Vec<Finding> {
        let mut findings = Vec::new();
        let who = |w: u8| names.get(usize::from(w)).map_or("?", String::as_str).to_owned();
        if !fact.accepted {
            let reset = fact.lease.and_then(|seq| self.leases.get(&seq)).and_then(|record| {
                let token = record.token?;
                let before = record.highest_before?;
                (token < before).then_some(before)
            });
            if let (Some(before), false) = (reset, self.warned_reset) {
                self.warned_reset = true;
                findings.push(Finding::Warning {
                    kind: WarningKind::AllWritesRejected,
                    explanation: format!(
                        "the counter went back (tokens up to {before} were issued before): every write is rejected until it passes last_fence {}",
                        fact.last_fence
                    ),
                    causes: vec![fact.event],
                });
            }
            return findings;
        }
        if let (Some(token), Some((max_token, max_event))) = (fact.token, self.accepted_max_token)
            && token < max_token
        {
            findings.push(Finding::Violation {
                    property: Property::NoStaleAccept,
                    explanation: format!(
                        "write by {} with token {} accepted after a write with token {} had been accepted",
                        fact.worker_name,
                        token_text(self.source, token),
                        token_text(self.source, max_token)
                    ),
                    causes: vec![max_event, fact.event],
                });
        }
        let stale_by_lease = match (fact.lease, self.accepted_newest_lease) {
            (Some(seq), Some((newest, newest_event))) if seq < newest => {
                Some((newest, newest_event))
            }
            _ => None,
        };
        if let (Some((newest, newest_event)), true) = (stale_by_lease, findings.is_empty()) {
            let newer =
                self.leases.get(&newest).map_or("another worker".to_owned(), |r| who(r.worker));
            findings.push(Finding::Violation {
                property: Property::NoStaleAccept,
                explanation: format!(
                    "write by {} accepted although its lease had been superseded: {newer} was granted the lock later and its write was already accepted",
                    fact.worker_name
                ),
                causes: vec![newest_event, fact.event],
            });
        }
        if let Some(token) = fact.token {
            match self.writer_of_token.get(&token) {
                Some(&(writer, first_event)) if writer != fact.worker => {
                    findings.push(Finding::Violation {
                        property: Property::OneWriterPerToken,
                        explanation: format!(
                            "token {} was accepted from two writers: {} and {}",
                            token_text(self.source, token),
                            who(writer),
                            fact.worker_name
                        ),
                        causes: vec![first_event, fact.event],
                    });
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
        if fact.status_after == "paid" && fact.status_before != "paid" {
            if let Some((first, first_event)) = self.paid_by {
                findings.push(Finding::Violation {
                    property: Property::PaidOnce,
                    explanation: format!(
                        "order moved to paid a second time: first by {}, now by {}",
                        who(first),
                        fact.worker_name
                    ),
                    causes: vec![first_event, fact.event],
                });
            } else {
                self.paid_by = Some((fact.worker, fact.event));
            }
        }
        findings
    }

    /// A real (not replayed) charge was made.
    pub fn on_charge(&mut self, worker: u8, event: u32, names: &[String]) -> Vec<Finding> {
        let who = |w: u8| names.get(usize::from(w)).map_or("?", String::as_str).to_owned();
        let mut findings = Vec::new();
        if let Some(&(first, first_event)) = self.charges.first() {
            findings.push(Finding::Violation {
                property: Property::EffectOnce,
                explanation: format!(
                    "the customer was charged {} times for one order: first by {}, now by {}",
                    self.charges.len() + 1,
                    who(first),
                    who(worker)
                ),
                causes: vec![first_event, event],
            });
        }
        self.charges.push((worker, event));
        findings
    }

    /// A watchdog renewed the lock while its main thread was hung for `hung_for_ms`.
    pub fn on_renew_while_hung(
        &mut self,
        worker: u8,
        name: &str,
        hung_for_ms: u64,
        ttl_ms: u64,
        event: u32,
    ) -> Vec<Finding> {
        if hung_for_ms < ttl_ms || self.warned_hung.contains(&worker) {
            return Vec::new();
        }
        self.warned_hung.push(worker);
        vec![Finding::Warning {
            kind: WarningKind::LockHeldByHungWorker,
            explanation: format!(
                "{name}'s main thread has been hung for {} but its watchdog keeps renewing: nobody else can take the lock",
                secs(hung_for_ms)
            ),
            causes: vec![event],
        }]
    }
}

/// Formats virtual milliseconds as seconds with three decimals: `31.000 s`.
pub fn secs(ms: u64) -> String {
    format!("{}.{:03} s", ms / 1000, ms % 1000)
}
