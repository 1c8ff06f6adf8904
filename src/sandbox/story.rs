//! The lesson's story in the sandbox: which texts a template brought, where a paragraph
//! or a prompt is pinned when the author picks an event of the run, the outcome the run
//! actually had, and which sentences no longer hold. Pure: it reads a finished trace. What
//! it says to the author is a [`Said`] (a lab string's key and its parts), so the page says
//! it in the reader's language.

use crate::catalogue::facts;
use crate::catalogue::lesson::Scenario;
use crate::catalogue::lesson::{Anchor, Expected, Fact, KeyIs};
use crate::i18n::Messages;
use crate::sim::Trace;

/// A sentence of the builder's, in parts: `key` names its template among the lab's strings
/// (`sandbox.fact.*`, `sandbox.why.*`, `sandbox.anchor.*`), each part is words as the run
/// has them (a name, a number, a reply), an event's name, or a sentence of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub key: &'static str,
    pub args: Vec<(&'static str, Part)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Text(String),
    /// An event kind's tag (`granted`), said as `Messages::tag` says it.
    Tag(String),
    Said(Box<Said>),
    /// What an event answered: a server's reply as it is (`OK`, `UPDATE 1`); a worker's
    /// own fact, which the model records in English (`running again`), in the reader's
    /// language.
    Reply(String),
    /// Sentences joined with "; " or ", " (`sep`).
    List(Vec<Said>, &'static str),
}

impl Said {
    pub(crate) fn new(key: &'static str, args: Vec<(&'static str, Part)>) -> Said {
        Said { key, args }
    }

    /// The sentence in `m`'s language (its English where the pack lacks the key).
    pub fn render(&self, m: &Messages) -> String {
        let parts: Vec<(&str, String)> = self
            .args
            .iter()
            .map(|(name, part)| {
                let text = match part {
                    Part::Text(text) => text.clone(),
                    Part::Tag(tag) => m.tag(tag),
                    Part::Said(said) => said.render(m),
                    Part::Reply(reply) => reply_words(m, reply),
                    Part::List(items, sep) => {
                        items.iter().map(|i| i.render(m)).collect::<Vec<_>>().join(sep)
                    }
                };
                (*name, text)
            })
            .collect();
        let args: Vec<(&str, &str)> = parts.iter().map(|(k, v)| (*k, v.as_str())).collect();
        m.labf(self.key, &args)
    }

    /// The English sentence (the tests', and the command line's).
    pub fn english(&self) -> String {
        self.render(&Messages::english())
    }
}

/// A reply in `m`'s words: a worker's fact is one of the model's notes without parts.
fn reply_words(m: &Messages, reply: &str) -> String {
    let note = crate::sim::event::NOTE_TEMPLATES
        .iter()
        .find(|(_, template)| *template == reply)
        .map(|(key, _)| crate::sim::event::Note::new(key, Vec::new()));
    note.map_or_else(|| reply.to_owned(), |note| m.note(&note))
}

pub(crate) fn text(value: impl ToString) -> Part {
    Part::Text(value.to_string())
}

fn said(s: Said) -> Part {
    Part::Said(Box::new(s))
}

/// "token 33", or "no token".
fn token(t: Option<i64>) -> Part {
    said(match t {
        Some(t) => Said::new("sandbox.fact.token", vec![("n", text(t))]),
        None => Said::new("sandbox.fact.no_token", Vec::new()),
    })
}

/// Every story text of a scenario an author might have copied from a template.
pub fn texts(s: &Scenario) -> Vec<String> {
    let mut out = vec![s.title.clone(), s.summary.clone(), s.goal.clone()];
    out.extend(s.narration.iter().map(|n| n.text.clone()));
    for p in &s.prompts {
        out.push(p.question.clone());
        out.push(p.explanation.clone());
        out.extend(p.options.iter().cloned());
    }
    out.extend(s.expect.as_ref().map(|e| e.badge.clone()));
    out.retain(|t| !t.trim().is_empty());
    out
}

/// The anchor that names event `index` of the run (its kind, its actor, and which one of
/// those it is), so the paragraph follows the event when times change.
pub fn anchor_for(trace: &Trace, index: usize) -> Option<Anchor> {
    let event = trace.events().get(index)?;
    let tag = event.kind.tag();
    let actor = trace.actor_name(event.actor);
    let nth = trace.events()[..=index]
        .iter()
        .filter(|e| e.kind.tag() == tag && trace.actor_name(e.actor) == actor)
        .count();
    Some(Anchor {
        event: Some(tag.to_owned()),
        actor: Some(actor),
        nth: u32::try_from(nth).ok().filter(|n| *n > 1),
        at_ms: None,
    })
}

/// The facts a paragraph pinned at `anchor` starts with: what its event shows.
pub fn facts_for(trace: &Trace, anchor: &Anchor) -> Vec<Fact> {
    facts::suggest(trace, anchor)
}

/// The outcome this run had, as a promise the player checks (the badge in words the author
/// can change).
pub fn expected_from(trace: &Trace) -> Expected {
    let summary = trace.summary();
    let accepted = summary.writes.iter().filter(|w| w.rows.matched()).count();
    let rejected = summary.writes.len() - accepted;
    let violations: Vec<String> = summary.violations.iter().map(|f| f.name.clone()).collect();
    let badge = match (violations.is_empty(), rejected > 0) {
        (false, _) => "unsafe: a stale write landed",
        (true, true) => "stale write rejected",
        (true, false) => "safe",
    };
    Expected {
        badge: badge.to_owned(),
        violations,
        warnings: summary.warnings.iter().map(|f| f.name.clone()).collect(),
        accepted: u32::try_from(accepted).unwrap_or(u32::MAX),
        rejected: u32::try_from(rejected).unwrap_or(u32::MAX),
        charges: summary.charges,
        overlap: !summary.overlaps.is_empty(),
        bad: None,
    }
}

/// Where a story text is in the scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Claims,
    Narration(usize),
    Prompt(usize),
    Expect,
}

/// A sentence of the story that this run contradicts, or that states something no fact of
/// it lets the run check, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub place: Place,
    pub why: Said,
    pub kind: MarkKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A declared fact does not hold in this run.
    Untrue,
    /// The text states a token, row count or reply that no declared fact covers: it may be
    /// true, but nothing checks it when the run changes.
    Unchecked,
}

/// Every story part whose declared facts do not hold in this run, the outcome if the run
/// does not keep its promise, and paragraphs that state a token or reply with no fact
/// behind it (those cannot be checked, so they are marked too).
pub fn marks(trace: &Trace, s: &Scenario) -> Vec<Mark> {
    let mut out = Vec::new();
    let mut test = |place: Place, facts: &[Fact]| {
        for fact in facts {
            if let Err(why) = facts::check(trace, fact) {
                // The checker's own reason is English; the common cases are said here.
                let reason = run_has(trace, fact).map_or_else(|| text(why), said);
                let why = Said::new(
                    "sandbox.why.untrue",
                    vec![("fact", said(describe(fact))), ("reason", reason)],
                );
                out.push(Mark { place: place.clone(), why, kind: MarkKind::Untrue });
            }
        }
    };
    test(Place::Claims, &s.claims);
    for (i, n) in s.narration.iter().enumerate() {
        test(Place::Narration(i), &n.facts);
    }
    for (i, p) in s.prompts.iter().enumerate() {
        test(Place::Prompt(i), &p.facts);
    }
    for (i, n) in s.narration.iter().enumerate() {
        for why in facts::undeclared(&n.text, &n.facts, trace) {
            // About the English text the author wrote, so said in English.
            let why = Said::new("sandbox.why.text", vec![("why", text(why))]);
            out.push(Mark { place: Place::Narration(i), why, kind: MarkKind::Unchecked });
        }
    }
    if let Some(expect) = &s.expect {
        let actual = expected_from(trace);
        let mut differs = Vec::new();
        if expect.violations != actual.violations {
            let list = |v: &[String]| match v.is_empty() {
                true => said(Said::new("sandbox.why.none", Vec::new())),
                false => text(v.join(", ")),
            };
            differs.push(Said::new(
                "sandbox.why.promise_violations",
                vec![("promised", list(&expect.violations)), ("actual", list(&actual.violations))],
            ));
        }
        if (expect.accepted, expect.rejected) != (actual.accepted, actual.rejected) {
            differs.push(Said::new(
                "sandbox.why.promise_writes",
                vec![
                    ("accepted", text(expect.accepted)),
                    ("rejected", text(expect.rejected)),
                    ("actual_accepted", text(actual.accepted)),
                    ("actual_rejected", text(actual.rejected)),
                ],
            ));
        }
        if expect.overlap != actual.overlap {
            let yes_no = |b: bool| {
                said(Said::new(if b { "sandbox.why.yes" } else { "sandbox.why.no" }, Vec::new()))
            };
            differs.push(Said::new(
                "sandbox.why.promise_overlap",
                vec![("promised", yes_no(expect.overlap)), ("actual", yes_no(actual.overlap))],
            ));
        }
        if expect.charges != actual.charges {
            differs.push(Said::new(
                "sandbox.why.promise_charges",
                vec![("promised", text(expect.charges)), ("actual", text(actual.charges))],
            ));
        }
        if !differs.is_empty() {
            let why = Said::new("sandbox.why.promises", vec![("list", Part::List(differs, "; "))]);
            out.push(Mark { place: Place::Expect, why, kind: MarkKind::Untrue });
        }
    }
    out
}

/// A fact in the words an author reads.
pub fn describe(fact: &Fact) -> Said {
    let anchor = |at: &Anchor| said(anchor_words(at));
    match fact {
        Fact::Write { worker, nth, rows, token: t } => Said::new(
            "sandbox.fact.write",
            vec![
                ("worker", text(worker)),
                ("nth", text(nth)),
                ("rows", text(rows)),
                ("token", token(*t)),
            ],
        ),
        Fact::Grant { worker, nth, token: t } => Said::new(
            "sandbox.fact.grant",
            vec![("worker", text(worker)), ("nth", text(nth)), ("token", token(*t))],
        ),
        Fact::Violation { property } => {
            Said::new("sandbox.fact.violation", vec![("property", text(property))])
        }
        Fact::NoViolations => Said::new("sandbox.fact.no_violations", Vec::new()),
        Fact::Warning { kind } => Said::new("sandbox.fact.warning", vec![("kind", text(kind))]),
        Fact::Charges { count } => Said::new("sandbox.fact.charges", vec![("count", text(count))]),
        Fact::Overlap { present: true } => Said::new("sandbox.fact.overlap", Vec::new()),
        Fact::Overlap { present: false } => Said::new("sandbox.fact.no_overlap", Vec::new()),
        Fact::Event { at, reply: None } => {
            Said::new("sandbox.fact.event", vec![("at", anchor(at))])
        }
        Fact::Event { at, reply: Some(r) } => Said::new(
            "sandbox.fact.event_reply",
            vec![("at", anchor(at)), ("reply", Part::Reply(r.clone()))],
        ),
        Fact::NoEvent { at } => Said::new("sandbox.fact.no_event", vec![("at", anchor(at))]),
        Fact::Key { after, key, node, is } => {
            let on = node.as_ref().map_or_else(
                || text(""),
                |n| said(Said::new("sandbox.fact.on", vec![("node", text(n))])),
            );
            let mut args = vec![("after", anchor(after)), ("key", text(key)), ("on", on)];
            let template = match is {
                KeyIs::Absent => "sandbox.fact.key_absent",
                KeyIs::OwnedBy(owner) => {
                    args.push(("owner", text(owner)));
                    "sandbox.fact.key_owner"
                }
                KeyIs::Value(v) => {
                    args.push(("value", text(v)));
                    "sandbox.fact.key_value"
                }
            };
            Said::new(template, args)
        }
        Fact::Row { after, last_fence, status, updated_by } => {
            // Column names and values, as the table has them.
            let mut parts = Vec::new();
            parts.extend(last_fence.map(|f| format!("last_fence {f}")));
            parts.extend(status.as_ref().map(|st| format!("status {st}")));
            parts.extend(updated_by.as_ref().map(|u| format!("updated_by {u}")));
            Said::new(
                "sandbox.fact.row",
                vec![("after", anchor(after)), ("columns", text(parts.join(", ")))],
            )
        }
        Fact::Before { first, then } => {
            Said::new("sandbox.fact.before", vec![("first", anchor(first)), ("then", anchor(then))])
        }
        Fact::Belief { after, worker, holds } => Said::new(
            if *holds { "sandbox.fact.believes" } else { "sandbox.fact.not_believes" },
            vec![("after", anchor(after)), ("worker", text(worker))],
        ),
    }
}

/// An anchor in words: `granted #2 by B`, or `at 5000 ms`.
pub fn anchor_words(at: &Anchor) -> Said {
    match (&at.event, at.at_ms) {
        (_, Some(ms)) => Said::new("sandbox.anchor.at", vec![("ms", text(ms))]),
        (Some(tag), None) => {
            let nth = at.nth.filter(|n| *n > 1).map_or_else(
                || text(""),
                |n| said(Said::new("sandbox.anchor.nth", vec![("n", text(n))])),
            );
            let by = at.actor.as_ref().map_or_else(
                || text(""),
                |a| said(Said::new("sandbox.anchor.by", vec![("actor", text(a))])),
            );
            Said::new(
                "sandbox.anchor.event",
                vec![("tag", Part::Tag(tag.clone())), ("nth", nth), ("by", by)],
            )
        }
        (None, None) => Said::new("sandbox.anchor.none", Vec::new()),
    }
}

/// What the run has instead, for the facts an author most often gets wrong: every grant or
/// every write with its token, or the violations.
fn run_has(trace: &Trace, fact: &Fact) -> Option<Said> {
    let summary = trace.summary();
    Some(match fact {
        Fact::Grant { .. } => {
            let items = summary
                .grants
                .iter()
                .map(|g| {
                    Said::new(
                        "sandbox.why.grant",
                        vec![("worker", text(&g.worker)), ("token", token(g.token))],
                    )
                })
                .collect();
            Said::new("sandbox.why.grants", vec![("list", Part::List(items, ", "))])
        }
        Fact::Write { .. } => {
            let items = summary
                .writes
                .iter()
                .map(|w| {
                    Said::new(
                        "sandbox.why.write",
                        vec![
                            ("worker", text(&w.worker)),
                            ("token", token(w.token)),
                            ("rows", text(w.rows)),
                        ],
                    )
                })
                .collect();
            Said::new("sandbox.why.writes", vec![("list", Part::List(items, ", "))])
        }
        Fact::Violation { .. } | Fact::NoViolations => {
            let names: Vec<&str> = summary.violations.iter().map(|v| v.name.as_str()).collect();
            match names.is_empty() {
                true => Said::new("sandbox.fact.no_violations", Vec::new()),
                false => Said::new("sandbox.why.violates", vec![("list", text(names.join(", ")))]),
            }
        }
        _ => return None,
    })
}
