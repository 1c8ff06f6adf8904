//! Checks what a lesson says against what the model did: each declared [`Fact`] is
//! evaluated on a trace, and the English text around it is scanned for numbers and replies
//! it states without declaring them.
//!
//! Pure: it reads a trace and never runs the model (callers run `sim::run`).

use crate::catalogue::anchor;
use crate::catalogue::lesson::{Anchor, Fact, KeyIs, Scenario};
use crate::sim::state::{State, lock_value_owner};
use crate::sim::{EventKind, Trace};

/// Whether `fact` holds in `trace`; `Err` says what the trace shows instead.
pub fn check(trace: &Trace, fact: &Fact) -> Result<(), String> {
    evaluate::<String>(trace, fact)
}

/// Whether `fact` holds in `trace`, without the explanation (the player asks this on every
/// render; it neither builds the message nor carries the code that would).
pub fn holds(trace: &Trace, fact: &Fact) -> bool {
    evaluate::<()>(trace, fact).is_ok()
}

/// What a failed fact reports: the explanation, or nothing.
trait Why: Sized {
    fn say(make: impl FnOnce() -> String) -> Self;
}

impl Why for String {
    fn say(make: impl FnOnce() -> String) -> String {
        make()
    }
}

impl Why for () {
    fn say(_: impl FnOnce() -> String) {}
}

/// Longer than 100 lines: one arm per kind of fact, each a lookup and a comparison.
fn evaluate<W: Why>(trace: &Trace, fact: &Fact) -> Result<(), W> {
    // Only the facts about the whole run need its summary (a walk over every event).
    let summary = || trace.summary();
    let expect = |ok: bool, seen: &dyn Fn() -> String| if ok { Ok(()) } else { Err(W::say(seen)) };
    let missing = |what: &'static str| W::say(|| what.to_owned());
    match fact {
        Fact::Write { worker, nth, rows, token } => {
            let writes = summary().writes;
            let write = writes.iter().filter(|w| &w.worker == worker).nth(nth.saturating_sub(1));
            let write =
                write.ok_or_else(|| W::say(|| format!("{worker} made fewer than {nth} writes")))?;
            expect(write.rows == *rows && (token.is_none() || write.token == *token), &|| {
                format!(
                    "{worker}'s write #{nth} matched {} row(s) with {}",
                    write.rows,
                    token_words(write.token)
                )
            })
        }
        Fact::Grant { worker, nth, token } => {
            let grants = summary().grants;
            let grant = grants.iter().filter(|g| &g.worker == worker).nth(nth.saturating_sub(1));
            let grant =
                grant.ok_or_else(|| W::say(|| format!("{worker} got fewer than {nth} grants")))?;
            expect(grant.token == *token, &|| {
                format!("{worker}'s grant #{nth} carried {}", token_words(grant.token))
            })
        }
        Fact::Violation { property } => {
            let found = summary().violations;
            expect(found.iter().any(|v| &v.name == property), &|| names("violations", &found))
        }
        Fact::NoViolations => {
            let found = summary().violations;
            expect(found.is_empty(), &|| names("violations", &found))
        }
        Fact::Warning { kind } => {
            let found = summary().warnings;
            expect(found.iter().any(|w| &w.name == kind), &|| names("warnings", &found))
        }
        Fact::Charges { count } => {
            let charges = summary().charges;
            expect(charges == *count, &|| format!("saw {charges} charges"))
        }
        Fact::Overlap { present } => {
            let overlaps = summary().overlaps;
            expect(overlaps.is_empty() != *present, &|| {
                format!("the run has {} overlap(s)", overlaps.len())
            })
        }
        Fact::Event { at, reply } => {
            let index = anchor::find(trace, at).ok_or_else(|| missing("no such event"))?;
            let event = &trace.events()[index];
            expect(reply.as_ref().is_none_or(|r| &event.reply == r), &|| {
                format!("the reply was “{}”", event.reply)
            })
        }
        Fact::NoEvent { at } => match anchor::find(trace, at) {
            None => Ok(()),
            Some(index) => Err(W::say(|| format!("event #{index} matches"))),
        },
        Fact::Key { after, key, node, is } => {
            let (state, at_ms) = state_after(trace, after).map_err(missing)?;
            let n = match node {
                Some(name) => state.nodes.iter().position(|n| &n.name == name),
                None => state.primary.map(crate::sim::NodeId::index).or(Some(0)),
            };
            let node = n.and_then(|n| state.nodes.get(n)).ok_or_else(|| missing("no such node"))?;
            let entry = node.keyspace.peek(key, node.clock_ms(at_ms));
            let seen = entry.map(|e| e.value.clone());
            let ok = match (is, &seen) {
                (KeyIs::Absent, None) => true,
                (KeyIs::OwnedBy(owner), Some(value)) => lock_value_owner(value) == owner,
                (KeyIs::Value(expected), Some(value)) => value == expected,
                _ => false,
            };
            expect(ok, &|| {
                format!("{key} on {} held {}", node.name, seen.as_deref().unwrap_or("nothing"))
            })
        }
        Fact::Row { after, last_fence, status, updated_by } => {
            let (state, _) = state_after(trace, after).map_err(missing)?;
            let row = &state.order;
            expect(
                last_fence.is_none_or(|f| row.last_fence == f)
                    && status.as_ref().is_none_or(|s| &row.status == s)
                    && updated_by.as_ref().is_none_or(|u| &row.updated_by == u),
                &|| {
                    format!(
                        "the row was status {}, last_fence {}, updated_by “{}”",
                        row.status, row.last_fence, row.updated_by
                    )
                },
            )
        }
        Fact::Before { first, then } => {
            let a =
                anchor::find(trace, first).ok_or_else(|| missing("no event matches `first`"))?;
            let b = anchor::find(trace, then).ok_or_else(|| missing("no event matches `then`"))?;
            expect(a < b, &|| format!("#{a} is not before #{b}"))
        }
        Fact::Belief { after, worker, holds } => {
            let (state, _) = state_after(trace, after).map_err(missing)?;
            let w = state
                .workers
                .iter()
                .find(|w| &w.name == worker)
                .ok_or_else(|| missing("no such worker"))?;
            expect(w.belief.is_some() == *holds, &|| {
                let believed = if w.belief.is_some() { "believed" } else { "did not believe" };
                format!("{worker} {believed} it held the lock")
            })
        }
    }
}

/// Every declared fact of a lesson that does not hold in `trace`, as (where, why): the
/// claims of the title and summary, each narration paragraph's and each prompt's.
pub fn broken(trace: &Trace, lesson: &Scenario) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    let mut test = |place: String, facts: &[Fact]| {
        for fact in facts {
            if let Err(why) = check(trace, fact) {
                problems.push((place.clone(), format!("{fact:?}: {why}")));
            }
        }
    };
    test("claims".to_owned(), &lesson.claims);
    for (i, n) in lesson.narration.iter().enumerate() {
        test(format!("narration[{i}]"), &n.facts);
    }
    for (i, p) in lesson.prompts.iter().enumerate() {
        test(format!("prompts[{i}]"), &p.facts);
    }
    problems
}

/// Whether every fact of narration paragraph `i` holds in `trace` (a what-if run shows only
/// the paragraphs that are still true of it).
pub fn narration_holds(trace: &Trace, lesson: &Scenario, i: usize) -> bool {
    lesson.narration.get(i).is_some_and(|n| n.facts.iter().all(|f| holds(trace, f)))
}

/// Whether every claim of the lesson's title and summary holds in `trace`.
pub fn claims_hold(trace: &Trace, lesson: &Scenario) -> bool {
    lesson.claims.iter().all(|f| holds(trace, f))
}

/// What an English sentence states about the run without a declared fact behind it: a
/// token of the run, a row count (`UPDATE 1`) or a reply (`returns 0`, `nil`). Numbers
/// with a unit (`30 s`, `200 ms`) are times, not tokens.
pub fn undeclared(text: &str, facts: &[Fact], trace: &Trace) -> Vec<String> {
    let mut missing = Vec::new();
    let declared_numbers = declared_numbers(facts);
    let tokens = run_tokens(trace);
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, raw) in words.iter().enumerate() {
        let word = raw.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let Ok(n) = word.parse::<i64>() else { continue };
        let next = words.get(i + 1).copied().unwrap_or("");
        let next_word = next.trim_end_matches(|c: char| !c.is_ascii_alphanumeric());
        // A time, a count of things, or an argument of a command spelled out in the text.
        // A percentage is a claim like any other number.
        let unit = ["s", "ms", "seconds", "more", "grants", "nodes", "replicas", "workers"]
            .contains(&next_word)
            || raw.ends_with("ms");
        let prev = if i > 0 { words[i - 1] } else { "" };
        let in_command = words[i.saturating_sub(2)..i]
            .iter()
            .any(|w| w.contains(':') || (w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase())));
        let unit = unit || (in_command && prev != "UPDATE");
        if prev == "UPDATE" {
            let rows_declared = facts.iter().any(|f| match f {
                Fact::Write { rows, .. } => i64::from(rows.0) == n,
                Fact::Event { reply: Some(r), .. } => r == &format!("UPDATE {n}"),
                _ => false,
            });
            if !rows_declared {
                missing.push(format!("\"UPDATE {n}\" has no write or event fact"));
            }
            continue;
        }
        // A token of the run, or any larger number without a unit (a token the text gets
        // wrong is usually not one the run has), must come from a declared fact.
        let order_id = n == trace.setup().sql.order_id;
        let number_like_a_token = tokens.contains(&n) || (n >= 10 && !order_id);
        if !unit && number_like_a_token && !declared_numbers.contains(&n) {
            missing.push(format!("{n} is not in a declared fact"));
        }
    }
    let lower = text.to_ascii_lowercase();
    let states_reply =
        ["returns 0", "returns 1", "replies 0", "replies 1", "answers 1", "answers 0"]
            .iter()
            .any(|p| lower.contains(p))
            || lower.contains(" nil")
            || lower.contains("(nil)");
    let has_reply_fact = facts.iter().any(|f| matches!(f, Fact::Event { reply: Some(_), .. }));
    if states_reply && !has_reply_fact {
        missing.push("it states a reply but declares no event fact with a `reply`".to_owned());
    }
    // "B's lock" or "B's value" says who holds the key: a key fact must say so too.
    for worker in &trace.setup().workers {
        let name = &worker.name;
        let says_holder = [format!("{name}'s lock"), format!("{name}'s value")]
            .iter()
            .any(|p| text.contains(p.as_str()));
        let declared = facts
            .iter()
            .any(|f| matches!(f, Fact::Key { is: KeyIs::OwnedBy(owner), .. } if owner == name));
        if says_holder && !declared {
            missing.push(format!("it says who holds the lock ({name}) without a key fact"));
        }
    }
    missing
}

fn declared_numbers(facts: &[Fact]) -> Vec<i64> {
    let mut numbers = Vec::new();
    for fact in facts {
        match fact {
            Fact::Write { token: Some(t), .. } | Fact::Grant { token: Some(t), .. } => {
                numbers.push(*t)
            }
            Fact::Row { last_fence: Some(f), .. } => numbers.push(*f),
            Fact::Key { is: KeyIs::Value(v), .. } => numbers.extend(v.parse::<i64>().ok()),
            Fact::Event { reply: Some(r), .. } => numbers.extend(
                r.split(|c: char| !c.is_ascii_digit() && c != '-')
                    .filter_map(|w| w.parse::<i64>().ok()),
            ),
            _ => {}
        }
    }
    numbers
}

/// The tokens a run handed out or stored (grants, draws, writes, `last_fence`).
fn run_tokens(trace: &Trace) -> Vec<i64> {
    let mut tokens = vec![trace.setup().sql.last_fence];
    for event in trace.events() {
        match event.kind {
            EventKind::Granted { token: Some(t) }
            | EventKind::TokenDrawn { token: t }
            | EventKind::Wrote { token: Some(t), .. } => tokens.push(t),
            _ => {}
        }
    }
    tokens.retain(|&t| t >= 2);
    tokens
}

/// A token in words, for explanations (the sandbox's marks say it the same way).
pub(crate) fn token_words(token: Option<i64>) -> String {
    token.map_or("no token".to_owned(), |t| format!("token {t}"))
}

/// A run's violations or warnings by name, for explanations.
fn names(what: &str, found: &[crate::sim::trace::Finding]) -> String {
    match found.is_empty() {
        true => format!("the run has no {what}"),
        false => format!(
            "the run's {what}: {}",
            found.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The state right after the anchored event, with the time it happened.
fn state_after<'t>(trace: &'t Trace, anchor: &Anchor) -> Result<(&'t State, u64), &'static str> {
    let index = anchor::find(trace, anchor).ok_or("no such event")?;
    Ok((trace.state_at(index + 1), trace.events()[index].at_ms))
}

/// Facts an author can start from for a paragraph pinned at `anchor`: what the anchored
/// event itself shows (its grant, write, reply, finding or the key it expired). A starting
/// point, not a proof: the paragraph's other claims still need their own facts.
pub fn suggest(trace: &Trace, anchor: &Anchor) -> Vec<Fact> {
    let Some(index) = anchor::find(trace, anchor) else { return Vec::new() };
    let event = &trace.events()[index];
    let nth_of = |worker: &str, is: &dyn Fn(&EventKind) -> bool| {
        trace.events()[..=index]
            .iter()
            .filter(|e| is(&e.kind) && owner_name(trace, e) == worker)
            .count()
    };
    let worker = owner_name(trace, event);
    let here = || Fact::Event { at: anchor.clone(), reply: None };
    match &event.kind {
        EventKind::Granted { token } => vec![Fact::Grant {
            nth: nth_of(&worker, &|k| matches!(k, EventKind::Granted { .. } | EventKind::LockSet)),
            worker,
            token: *token,
        }],
        EventKind::Wrote { token, rows } => vec![Fact::Write {
            nth: nth_of(&worker, &|k| matches!(k, EventKind::Wrote { .. })),
            worker,
            rows: *rows,
            token: *token,
        }],
        EventKind::Violation { property, .. } => {
            vec![Fact::Violation { property: property.name().to_owned() }]
        }
        EventKind::Warning { kind, .. } => vec![Fact::Warning { kind: kind.name().to_owned() }],
        EventKind::Overlap { .. } => vec![Fact::Overlap { present: true }],
        EventKind::Expired { key } => vec![Fact::Key {
            after: anchor.clone(),
            key: key.clone(),
            node: Some(trace.actor_name(event.actor).to_owned()),
            is: KeyIs::Absent,
        }],
        _ if !event.reply.is_empty() && event.reply.len() <= 40 => {
            vec![Fact::Event { at: anchor.clone(), reply: Some(event.reply.clone()) }]
        }
        _ => vec![here()],
    }
}

/// The worker an event belongs to: its actor, or the worker a service served.
fn owner_name(trace: &Trace, event: &crate::sim::Event) -> String {
    match (event.actor, event.peer) {
        (crate::sim::Actor::Worker(_), _) => trace.actor_name(event.actor).to_owned(),
        (_, Some(peer @ crate::sim::Actor::Worker(_))) => trace.actor_name(peer).to_owned(),
        _ => trace.actor_name(event.actor).to_owned(),
    }
}

/// Facts an author can start a summary's claims from: every grant and write of the run with
/// its token, the violations (or none), and whether two workers overlapped.
pub fn suggest_claims(trace: &Trace) -> Vec<Fact> {
    let summary = trace.summary();
    let mut facts = Vec::new();
    let nth = |seen: &mut Vec<String>, worker: &str| {
        seen.push(worker.to_owned());
        seen.iter().filter(|w| *w == worker).count()
    };
    let mut seen = Vec::new();
    for grant in &summary.grants {
        let nth = nth(&mut seen, &grant.worker);
        facts.push(Fact::Grant { worker: grant.worker.clone(), nth, token: grant.token });
    }
    let mut seen = Vec::new();
    for write in &summary.writes {
        let nth = nth(&mut seen, &write.worker);
        facts.push(Fact::Write {
            worker: write.worker.clone(),
            nth,
            rows: write.rows,
            token: write.token,
        });
    }
    let mut properties: Vec<&str> = summary.violations.iter().map(|v| v.name.as_str()).collect();
    crate::sim::sorted::sort(&mut properties);
    properties.dedup();
    match properties.is_empty() {
        true => facts.push(Fact::NoViolations),
        false => {
            facts.extend(properties.into_iter().map(|p| Fact::Violation { property: p.to_owned() }))
        }
    }
    facts.push(Fact::Overlap { present: !summary.overlaps.is_empty() });
    facts
}
