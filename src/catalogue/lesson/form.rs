//! The flat shapes of a fact (`{"fact": "write", "worker": "A", ...}`) and of an anchor,
//! read and converted like the setup's step and fault shapes in `sim::scenario` (see its
//! `form` for why flat). Owns the fact words and the members each kind takes; checking a
//! fact against a trace is `catalogue::facts`' job.

use serde::{Deserialize, Serialize};

use super::{Anchor, Fact, KeyIs};
use crate::sim::event::RowCount;
use crate::sim::scenario::{Refusal, Word, only, required, words};

/// A fact's kind, the word under `fact`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FactKind {
    Write,
    Grant,
    Violation,
    NoViolations,
    Warning,
    Charges,
    Overlap,
    Event,
    NoEvent,
    Key,
    Row,
    Before,
    Belief,
}

words!(FactKind:
    "write" => FactKind::Write,
    "grant" => FactKind::Grant,
    "violation" => FactKind::Violation,
    "no-violations" => FactKind::NoViolations,
    "warning" => FactKind::Warning,
    "charges" => FactKind::Charges,
    "overlap" => FactKind::Overlap,
    "event" => FactKind::Event,
    "no-event" => FactKind::NoEvent,
    "key" => FactKind::Key,
    "row" => FactKind::Row,
    "before" => FactKind::Before,
    "belief" => FactKind::Belief,
);

impl FactKind {
    /// The members a fact of this kind takes, `fact` first.
    pub fn members(self) -> &'static [&'static str] {
        match self {
            FactKind::Write => &["fact", "worker", "nth", "rows", "token"],
            FactKind::Grant => &["fact", "worker", "nth", "token"],
            FactKind::Violation => &["fact", "property"],
            FactKind::NoViolations => &["fact"],
            FactKind::Warning => &["fact", "kind"],
            FactKind::Charges => &["fact", "count"],
            FactKind::Overlap => &["fact", "present"],
            FactKind::Event => &["fact", "at", "reply"],
            FactKind::NoEvent => &["fact", "at"],
            FactKind::Key => &["fact", "after", "key", "node", "absent", "owner", "value"],
            FactKind::Row => &["fact", "after", "last_fence", "status", "updated_by"],
            FactKind::Before => &["fact", "first", "then"],
            FactKind::Belief => &["fact", "after", "worker", "holds"],
        }
    }
}

/// Every member any fact takes.
#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FactForm {
    #[serde(rename = "fact")]
    kind: Option<FactKind>,
    worker: Option<String>,
    nth: Option<usize>,
    rows: Option<u32>,
    property: Option<String>,
    #[serde(rename = "kind")]
    warning: Option<String>,
    count: Option<u32>,
    present: Option<bool>,
    at: Option<Anchor>,
    after: Option<Anchor>,
    first: Option<Anchor>,
    then: Option<Anchor>,
    key: Option<String>,
    node: Option<String>,
    absent: Option<bool>,
    owner: Option<String>,
    value: Option<String>,
    last_fence: Option<i64>,
    status: Option<String>,
    updated_by: Option<String>,
    holds: Option<bool>,
    token: Option<i64>,
    reply: Option<String>,
}

impl FactForm {
    fn present(&self) -> [(&'static str, bool); 22] {
        [
            ("worker", self.worker.is_some()),
            ("nth", self.nth.is_some()),
            ("rows", self.rows.is_some()),
            ("property", self.property.is_some()),
            ("kind", self.warning.is_some()),
            ("count", self.count.is_some()),
            ("present", self.present.is_some()),
            ("at", self.at.is_some()),
            ("after", self.after.is_some()),
            ("first", self.first.is_some()),
            ("then", self.then.is_some()),
            ("key", self.key.is_some()),
            ("node", self.node.is_some()),
            ("absent", self.absent.is_some()),
            ("owner", self.owner.is_some()),
            ("value", self.value.is_some()),
            ("last_fence", self.last_fence.is_some()),
            ("status", self.status.is_some()),
            ("updated_by", self.updated_by.is_some()),
            ("holds", self.holds.is_some()),
            ("token", self.token.is_some()),
            ("reply", self.reply.is_some()),
        ]
    }
}

impl TryFrom<FactForm> for Fact {
    type Error = Refusal;

    fn try_from(f: FactForm) -> Result<Fact, Refusal> {
        let Some(kind) = f.kind else {
            return Err(format!("missing field `fact` (one of: {})", FactKind::words().join(", ")));
        };
        only(kind.word(), &f.present(), kind.members())?;
        let worker = || required(f.worker.clone(), "worker");
        let after = || required(f.after.clone(), "after");
        Ok(match kind {
            FactKind::Write => Fact::Write {
                worker: worker()?,
                nth: f.nth.unwrap_or(1),
                rows: RowCount(required(f.rows, "rows")?),
                token: f.token,
            },
            FactKind::Grant => {
                Fact::Grant { worker: worker()?, nth: f.nth.unwrap_or(1), token: f.token }
            }
            FactKind::Violation => Fact::Violation { property: required(f.property, "property")? },
            FactKind::NoViolations => Fact::NoViolations,
            FactKind::Warning => Fact::Warning { kind: required(f.warning, "kind")? },
            FactKind::Charges => Fact::Charges { count: required(f.count, "count")? },
            FactKind::Overlap => Fact::Overlap { present: required(f.present, "present")? },
            FactKind::Event => Fact::Event { at: required(f.at, "at")?, reply: f.reply },
            FactKind::NoEvent => Fact::NoEvent { at: required(f.at, "at")? },
            FactKind::Key => {
                let is = match (f.absent, f.owner, f.value) {
                    (Some(true), None, None) => KeyIs::Absent,
                    (None, Some(owner), None) => KeyIs::OwnedBy(owner),
                    (None, None, Some(value)) => KeyIs::Value(value),
                    _ => {
                        return Err(
                            "a key fact needs exactly one of `absent: true`, `owner` or `value`"
                                .to_owned(),
                        );
                    }
                };
                Fact::Key { after: after()?, key: required(f.key, "key")?, node: f.node, is }
            }
            FactKind::Row => Fact::Row {
                after: after()?,
                last_fence: f.last_fence,
                status: f.status,
                updated_by: f.updated_by,
            },
            FactKind::Before => {
                Fact::Before { first: required(f.first, "first")?, then: required(f.then, "then")? }
            }
            FactKind::Belief => Fact::Belief {
                after: after()?,
                worker: worker()?,
                holds: required(f.holds, "holds")?,
            },
        })
    }
}

impl From<Fact> for FactForm {
    fn from(fact: Fact) -> FactForm {
        let form = |kind| FactForm { kind: Some(kind), ..FactForm::default() };
        match fact {
            Fact::Write { worker, nth, rows, token } => FactForm {
                worker: Some(worker),
                nth: Some(nth),
                rows: Some(rows.0),
                token,
                ..form(FactKind::Write)
            },
            Fact::Grant { worker, nth, token } => {
                FactForm { worker: Some(worker), nth: Some(nth), token, ..form(FactKind::Grant) }
            }
            Fact::Violation { property } => {
                FactForm { property: Some(property), ..form(FactKind::Violation) }
            }
            Fact::NoViolations => form(FactKind::NoViolations),
            Fact::Warning { kind } => FactForm { warning: Some(kind), ..form(FactKind::Warning) },
            Fact::Charges { count } => FactForm { count: Some(count), ..form(FactKind::Charges) },
            Fact::Overlap { present } => {
                FactForm { present: Some(present), ..form(FactKind::Overlap) }
            }
            Fact::Event { at, reply } => FactForm { at: Some(at), reply, ..form(FactKind::Event) },
            Fact::NoEvent { at } => FactForm { at: Some(at), ..form(FactKind::NoEvent) },
            Fact::Key { after, key, node, is } => {
                let (absent, owner, value) = match is {
                    KeyIs::Absent => (Some(true), None, None),
                    KeyIs::OwnedBy(owner) => (None, Some(owner), None),
                    KeyIs::Value(value) => (None, None, Some(value)),
                };
                FactForm {
                    after: Some(after),
                    key: Some(key),
                    node,
                    absent,
                    owner,
                    value,
                    ..form(FactKind::Key)
                }
            }
            Fact::Row { after, last_fence, status, updated_by } => FactForm {
                after: Some(after),
                last_fence,
                status,
                updated_by,
                ..form(FactKind::Row)
            },
            Fact::Before { first, then } => {
                FactForm { first: Some(first), then: Some(then), ..form(FactKind::Before) }
            }
            Fact::Belief { after, worker, holds } => FactForm {
                after: Some(after),
                worker: Some(worker),
                holds: Some(holds),
                ..form(FactKind::Belief)
            },
        }
    }
}

// ----- anchors -----

/// An anchor as written: at least one of `event` and `at_ms`.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnchorForm {
    event: Option<String>,
    actor: Option<String>,
    nth: Option<u32>,
    at_ms: Option<u64>,
}

impl TryFrom<AnchorForm> for Anchor {
    type Error = Refusal;

    fn try_from(f: AnchorForm) -> Result<Anchor, Refusal> {
        if f.event.is_none() && f.at_ms.is_none() {
            return Err("an anchor needs `event` or `at_ms`".to_owned());
        }
        Ok(Anchor { event: f.event, actor: f.actor, nth: f.nth, at_ms: f.at_ms })
    }
}

impl From<Anchor> for AnchorForm {
    fn from(a: Anchor) -> AnchorForm {
        AnchorForm { event: a.event, actor: a.actor, nth: a.nth, at_ms: a.at_ms }
    }
}
