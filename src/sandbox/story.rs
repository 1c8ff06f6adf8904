//! The lesson's story in the sandbox: which texts a template brought, where a paragraph
//! or a prompt is pinned when the author picks an event of the run, the outcome the run
//! actually had, and which sentences no longer hold. Pure: it reads a finished trace.

use crate::catalogue::facts;
use crate::catalogue::lesson::Scenario;
use crate::catalogue::lesson::{Anchor, Expected, Fact, KeyIs};
use crate::sim::Trace;

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
    pub why: String,
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
                let why = run_has(trace, fact).unwrap_or(why);
                let why = format!("{}; {why}", describe(fact));
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
            out.push(Mark { place: Place::Narration(i), why, kind: MarkKind::Unchecked });
        }
    }
    if let Some(expect) = &s.expect {
        let actual = expected_from(trace);
        let mut differs = Vec::new();
        if expect.violations != actual.violations {
            let list = |v: &[String]| match v.is_empty() {
                true => "none".to_owned(),
                false => v.join(", "),
            };
            differs.push(format!(
                "violations: {}, the run has: {}",
                list(&expect.violations),
                list(&actual.violations)
            ));
        }
        if (expect.accepted, expect.rejected) != (actual.accepted, actual.rejected) {
            differs.push(format!(
                "{} accepted and {} rejected writes, the run has {} and {}",
                expect.accepted, expect.rejected, actual.accepted, actual.rejected
            ));
        }
        if expect.overlap != actual.overlap {
            differs.push(format!("overlap {}, the run has {}", expect.overlap, actual.overlap));
        }
        if expect.charges != actual.charges {
            differs.push(format!("{} charges, the run has {}", expect.charges, actual.charges));
        }
        if !differs.is_empty() {
            let why = format!("promises {}", differs.join("; "));
            out.push(Mark { place: Place::Expect, why, kind: MarkKind::Untrue });
        }
    }
    out
}

/// A fact in the words an author reads.
pub fn describe(fact: &Fact) -> String {
    let token = |t: &Option<i64>| facts::token_words(*t);
    match fact {
        Fact::Write { worker, nth, rows, token: t } => {
            format!("{worker}'s write #{nth} matched {rows} row(s) with {}", token(t))
        }
        Fact::Grant { worker, nth, token: t } => {
            format!("{worker}'s grant #{nth} carried {}", token(t))
        }
        Fact::Violation { property } => format!("the run violates {property}"),
        Fact::NoViolations => "the run violates nothing".to_owned(),
        Fact::Warning { kind } => format!("the run warns {kind}"),
        Fact::Charges { count } => format!("{count} real charge(s)"),
        Fact::Overlap { present } => match present {
            true => "two workers held the lock at once".to_owned(),
            false => "no two workers held the lock at once".to_owned(),
        },
        Fact::Event { at, reply: None } => format!("“{}” happens", anchor_words(at)),
        Fact::Event { at, reply: Some(r) } => {
            format!("“{}” happens and answers “{r}”", anchor_words(at))
        }
        Fact::NoEvent { at } => format!("“{}” never happens", anchor_words(at)),
        Fact::Key { after, key, node, is } => {
            let on = node.as_ref().map(|n| format!(" on {n}")).unwrap_or_default();
            let state = match is {
                KeyIs::Absent => "is absent".to_owned(),
                KeyIs::OwnedBy(owner) => format!("holds {owner}'s lock"),
                KeyIs::Value(v) => format!("holds “{v}”"),
            };
            format!("after “{}”, {key}{on} {state}", anchor_words(after))
        }
        Fact::Row { after, last_fence, status, updated_by } => {
            let mut parts = Vec::new();
            parts.extend(last_fence.map(|f| format!("last_fence {f}")));
            parts.extend(status.as_ref().map(|st| format!("status {st}")));
            parts.extend(updated_by.as_ref().map(|u| format!("updated_by {u}")));
            format!("after “{}”, the row has {}", anchor_words(after), parts.join(", "))
        }
        Fact::Before { first, then } => {
            format!("“{}” comes before “{}”", anchor_words(first), anchor_words(then))
        }
        Fact::Belief { after, worker, holds } => format!(
            "after “{}”, {worker} {} it holds the lock",
            anchor_words(after),
            if *holds { "believes" } else { "does not believe" }
        ),
    }
}

/// An anchor in words: `granted #2 by B`, or `at 5000 ms`.
pub fn anchor_words(at: &Anchor) -> String {
    match (&at.event, at.at_ms) {
        (_, Some(ms)) => format!("at {ms} ms"),
        (Some(tag), None) => {
            let nth = at.nth.filter(|n| *n > 1).map(|n| format!(" #{n}")).unwrap_or_default();
            let by = at.actor.as_ref().map(|a| format!(" by {a}")).unwrap_or_default();
            format!("{tag}{nth}{by}")
        }
        (None, None) => String::new(),
    }
}

/// What the run has instead, for the facts an author most often gets wrong: every grant or
/// every write with its token, or the violations.
fn run_has(trace: &Trace, fact: &Fact) -> Option<String> {
    let summary = trace.summary();
    let token = facts::token_words;
    Some(match fact {
        Fact::Grant { .. } => format!(
            "the run's grants: {}",
            summary
                .grants
                .iter()
                .map(|g| format!("{} {}", g.worker, token(g.token)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fact::Write { .. } => format!(
            "the run's writes: {}",
            summary
                .writes
                .iter()
                .map(|w| format!("{} {} → {} row(s)", w.worker, token(w.token), w.rows))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Fact::Violation { .. } | Fact::NoViolations => {
            let names: Vec<&str> = summary.violations.iter().map(|v| v.name.as_str()).collect();
            match names.is_empty() {
                true => "the run violates nothing".to_owned(),
                false => format!("the run violates {}", names.join(", ")),
            }
        }
        _ => return None,
    })
}
