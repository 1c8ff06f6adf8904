//! The fact vocabulary of lessons and the quiz, in both directions: `{"fact": "write", ...}`
//! to a [`Fact`] and back.
//!
//! Owns the fact names and their members; checking a fact against a trace is
//! `catalogue::facts`' job, not this module's.

use super::{Obj, err, i64_of, read_anchor, string_of, u32_of, usize_of, write_anchor};
use crate::catalogue::load::LoadError;
use crate::json::{Node, Out};
use crate::sim::scenario::{Fact, KeyIs};

/// The fact names, for error messages.
const FACTS: &[&str] = &[
    "write",
    "grant",
    "violation",
    "no-violations",
    "warning",
    "charges",
    "overlap",
    "event",
    "no-event",
    "key",
    "row",
    "before",
    "belief",
];

pub(crate) fn read_fact(node: &Node, path: &str) -> Result<Fact, LoadError> {
    let mut o = Obj::new(node, path)?;
    let (tag_node, tag_path) = o.take("fact").ok_or_else(|| {
        err(node, path, format!("missing field `fact` (one of: {})", FACTS.join(", ")))
    })?;
    let tag = string_of(tag_node, &tag_path)?;
    let (fact, allowed): (Fact, &[&str]) = match tag.as_str() {
        "write" => (
            Fact::Write {
                worker: o.req("worker", string_of)?,
                nth: o.opt("nth", usize_of)?.unwrap_or(1),
                rows: o.req("rows", u32_of)?,
                token: o.opt("token", i64_of)?,
            },
            &["fact", "worker", "nth", "rows", "token"],
        ),
        "grant" => (
            Fact::Grant {
                worker: o.req("worker", string_of)?,
                nth: o.opt("nth", usize_of)?.unwrap_or(1),
                token: o.opt("token", i64_of)?,
            },
            &["fact", "worker", "nth", "token"],
        ),
        "violation" => {
            (Fact::Violation { property: o.req("property", string_of)? }, &["fact", "property"])
        }
        "no-violations" => (Fact::NoViolations, &["fact"]),
        "warning" => (Fact::Warning { kind: o.req("kind", string_of)? }, &["fact", "kind"]),
        "charges" => (Fact::Charges { count: o.req("count", u32_of)? }, &["fact", "count"]),
        "overlap" => {
            (Fact::Overlap { present: o.req("present", super::bool_of)? }, &["fact", "present"])
        }
        "event" => (
            Fact::Event { at: o.req("at", read_anchor)?, reply: o.opt("reply", string_of)? },
            &["fact", "at", "reply"],
        ),
        "no-event" => (Fact::NoEvent { at: o.req("at", read_anchor)? }, &["fact", "at"]),
        "key" => {
            let after = o.req("after", read_anchor)?;
            let key = o.req("key", string_of)?;
            let node_name = o.opt("node", string_of)?;
            let absent = o.opt("absent", super::bool_of)?;
            let owner = o.opt("owner", string_of)?;
            let value = o.opt("value", string_of)?;
            let is = match (absent, owner, value) {
                (Some(true), None, None) => KeyIs::Absent,
                (None, Some(owner), None) => KeyIs::OwnedBy(owner),
                (None, None, Some(value)) => KeyIs::Value(value),
                _ => {
                    return Err(err(
                        node,
                        path,
                        "a key fact needs exactly one of `absent: true`, `owner` or `value`"
                            .to_owned(),
                    ));
                }
            };
            (
                Fact::Key { after, key, node: node_name, is },
                &["fact", "after", "key", "node", "absent", "owner", "value"],
            )
        }
        "row" => (
            Fact::Row {
                after: o.req("after", read_anchor)?,
                last_fence: o.opt("last_fence", i64_of)?,
                status: o.opt("status", string_of)?,
                updated_by: o.opt("updated_by", string_of)?,
            },
            &["fact", "after", "last_fence", "status", "updated_by"],
        ),
        "before" => (
            Fact::Before { first: o.req("first", read_anchor)?, then: o.req("then", read_anchor)? },
            &["fact", "first", "then"],
        ),
        "belief" => (
            Fact::Belief {
                after: o.req("after", read_anchor)?,
                worker: o.req("worker", string_of)?,
                holds: o.req("holds", super::bool_of)?,
            },
            &["fact", "after", "worker", "holds"],
        ),
        other => {
            return Err(err(
                tag_node,
                &tag_path,
                format!("unknown fact `{other}`, expected one of: {}", FACTS.join(", ")),
            ));
        }
    };
    o.finish(allowed)?;
    Ok(fact)
}

pub(crate) fn write_fact(fact: &Fact) -> Out {
    let tag = |name: &'static str| ("fact", Out::str(name));
    let n = |value: usize| Out::uint(u64::try_from(value).unwrap_or(u64::MAX));
    Out::Obj(match fact {
        Fact::Write { worker, nth, rows, token } => {
            let mut m = vec![
                tag("write"),
                ("worker", Out::str(worker)),
                ("nth", n(*nth)),
                ("rows", Out::Int(i64::from(*rows))),
            ];
            if let Some(t) = token {
                m.push(("token", Out::Int(*t)));
            }
            m
        }
        Fact::Grant { worker, nth, token } => {
            let mut m = vec![tag("grant"), ("worker", Out::str(worker)), ("nth", n(*nth))];
            if let Some(t) = token {
                m.push(("token", Out::Int(*t)));
            }
            m
        }
        Fact::Violation { property } => vec![tag("violation"), ("property", Out::str(property))],
        Fact::NoViolations => vec![tag("no-violations")],
        Fact::Warning { kind } => vec![tag("warning"), ("kind", Out::str(kind))],
        Fact::Charges { count } => vec![tag("charges"), ("count", Out::Int(i64::from(*count)))],
        Fact::Overlap { present } => vec![tag("overlap"), ("present", Out::Bool(*present))],
        Fact::Event { at, reply } => {
            let mut m = vec![tag("event"), ("at", write_anchor(at))];
            if let Some(r) = reply {
                m.push(("reply", Out::str(r)));
            }
            m
        }
        Fact::NoEvent { at } => vec![tag("no-event"), ("at", write_anchor(at))],
        Fact::Key { after, key, node, is } => {
            let mut m = vec![tag("key"), ("after", write_anchor(after)), ("key", Out::str(key))];
            if let Some(node) = node {
                m.push(("node", Out::str(node)));
            }
            m.push(match is {
                KeyIs::Absent => ("absent", Out::Bool(true)),
                KeyIs::OwnedBy(owner) => ("owner", Out::str(owner)),
                KeyIs::Value(value) => ("value", Out::str(value)),
            });
            m
        }
        Fact::Row { after, last_fence, status, updated_by } => {
            let mut m = vec![tag("row"), ("after", write_anchor(after))];
            if let Some(f) = last_fence {
                m.push(("last_fence", Out::Int(*f)));
            }
            if let Some(s) = status {
                m.push(("status", Out::str(s)));
            }
            if let Some(u) = updated_by {
                m.push(("updated_by", Out::str(u)));
            }
            m
        }
        Fact::Before { first, then } => {
            vec![tag("before"), ("first", write_anchor(first)), ("then", write_anchor(then))]
        }
        Fact::Belief { after, worker, holds } => vec![
            tag("belief"),
            ("after", write_anchor(after)),
            ("worker", Out::str(worker)),
            ("holds", Out::Bool(*holds)),
        ],
    })
}

/// A list of facts, as a JSON array.
pub(crate) fn write_facts(facts: &[Fact]) -> Out {
    Out::Arr(facts.iter().map(write_fact).collect())
}
