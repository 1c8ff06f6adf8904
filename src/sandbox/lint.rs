//! Warnings about a scenario that loads but does not do what its author meant: anchors
//! that never fire in this run, faults and starts after the run ends, a fault on a step
//! the program does not have; and "did you mean" for a member name the loader refused.
//! Pure: it reads the scenario and its trace.

use crate::catalogue::anchor;
use crate::catalogue::codec::LoadError;
use crate::catalogue::lesson::Anchor;
use crate::catalogue::lesson::Scenario;
use crate::sim::Trace;
use crate::sim::event::TAGS;
use crate::sim::scenario::Fault;
use serde_json::Value;

/// One warning, with the path of what it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub path: String,
    pub message: String,
}

/// Everything in `s` that its run `trace` makes suspicious, in file order.
pub fn lint(s: &Scenario, trace: &Trace) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut warn = |path: String, message: String| out.push(Warning { path, message });
    for (i, w) in s.setup.workers.iter().enumerate() {
        if w.start_ms >= s.setup.until_ms {
            warn(
                format!("$.workers[{i}].start_ms"),
                format!(
                    "{} starts at {} ms, when the run has already ended ({} ms)",
                    w.name, w.start_ms, s.setup.until_ms
                ),
            );
        }
    }
    for (k, fault) in s.setup.faults.iter().enumerate() {
        if let Some(at_ms) =
            super::timeline::position(&s.setup, super::timeline::Handle::FaultAt(k))
            && at_ms >= s.setup.until_ms
        {
            warn(
                format!("$.faults[{k}].at_ms"),
                format!(
                    "this fault is at {at_ms} ms, after the run ends at {} ms: it never happens",
                    s.setup.until_ms
                ),
            );
        }
        if let Fault::LoseReply { worker, step, .. } = fault
            && let Some(w) = s.setup.workers.get(worker.index())
            && *step >= w.program.len()
        {
            warn(
                format!("$.faults[{k}].step"),
                format!(
                    "step {step} is beyond {}'s program, which has {} steps (counted from 0)",
                    w.name,
                    w.program.len()
                ),
            );
        }
    }
    for (i, n) in s.narration.iter().enumerate() {
        if let Some(message) = anchor_problem(s, trace, &n.at) {
            warn(format!("$.narration[{i}].at"), message);
        }
        if n.text.trim().is_empty() {
            warn(format!("$.narration[{i}].text"), "this paragraph has no text yet".to_owned());
        }
    }
    for (i, p) in s.prompts.iter().enumerate() {
        if let Some(message) = anchor_problem(s, trace, &p.at) {
            warn(format!("$.prompts[{i}].at"), message);
        }
        if p.question.trim().is_empty() || p.options.iter().any(|o| o.trim().is_empty()) {
            warn(
                format!("$.prompts[{i}]"),
                "this prompt has an empty question or option".to_owned(),
            );
        }
    }
    out
}

/// Where a path is, in the words of the form: "Paragraph 2", "Fault 1 (pause)",
/// "Worker C", "Prompt 1"; the path itself for anything else.
pub fn place(s: &Scenario, path: &str) -> String {
    let index = |list: &str| -> Option<usize> {
        let rest = path.strip_prefix(&format!("$.{list}["))?;
        rest.split(']').next()?.parse().ok()
    };
    if let Some(i) = index("narration") {
        return format!("Paragraph {}", i + 1);
    }
    if let Some(i) = index("prompts") {
        return format!("Prompt {}", i + 1);
    }
    if let Some(k) = index("faults") {
        let kind = s
            .setup
            .faults
            .get(k)
            .map(|f| super::row_kind(&crate::catalogue::codec::fault_text(&s.setup, f)));
        return format!("Fault {} ({})", k + 1, kind.unwrap_or_default());
    }
    if let Some(i) = index("workers") {
        return format!("Worker {}", s.setup.workers.get(i).map_or("?", |w| w.name.as_str()));
    }
    path.to_owned()
}

/// Why an anchor finds no event in this run, with a "did you mean" where one fits.
pub fn anchor_problem(s: &Scenario, trace: &Trace, anchor: &Anchor) -> Option<String> {
    if anchor::find(trace, anchor).is_some() {
        return None;
    }
    if let Some(at_ms) = anchor.at_ms {
        return Some(format!("nothing happens at or after {at_ms} ms in this run"));
    }
    let tag = anchor.event.as_deref().unwrap_or("");
    if !TAGS.contains(&tag) {
        return Some(match did_you_mean(tag, TAGS.iter().copied()) {
            Some(near) => format!("`{tag}` is not an event kind; did you mean `{near}`?"),
            None => format!("`{tag}` is not an event kind (see the format documentation)"),
        });
    }
    let of_kind: Vec<String> = trace
        .events()
        .iter()
        .filter(|e| e.kind.tag() == tag)
        .map(|e| trace.actor_name(e.actor))
        .collect();
    if let Some(actor) = anchor.actor.as_deref() {
        let mut names: Vec<String> = s.setup.workers.iter().map(|w| w.name.clone()).collect();
        names.extend(s.setup.redis.nodes.iter().map(|n| n.name.clone()));
        names.extend(["tokens", "db", "gateway", "storage", "dlq", "checker"].map(str::to_owned));
        if !names.iter().any(|n| n == actor) {
            return Some(match did_you_mean(actor, names.iter().map(String::as_str)) {
                Some(near) => format!("no actor is called `{actor}`; did you mean `{near}`?"),
                None => format!("no actor is called `{actor}` (actors: {})", names.join(", ")),
            });
        }
        let by_actor = of_kind.iter().filter(|a| *a == actor).count();
        if by_actor == 0 && !of_kind.is_empty() {
            let mut by: Vec<&str> = of_kind.iter().map(String::as_str).collect();
            by.dedup();
            return Some(format!(
                "`{tag}` events in this run are recorded by {}, not by {actor}",
                by.join(", ")
            ));
        }
        let nth = anchor.nth.unwrap_or(1);
        if by_actor > 0 {
            return Some(format!("this run has {by_actor} `{tag}` event(s) by {actor}, not {nth}"));
        }
    }
    match of_kind.len() {
        0 => Some(format!("this run has no `{tag}` event")),
        n => Some(format!("this run has {n} `{tag}` event(s), not {}", anchor.nth.unwrap_or(1))),
    }
}

/// The loader's error with a "did you mean" when a member name is near a known one: a
/// missing field that an unknown member nearly spells (`until` for `until_ms`), or an
/// unknown field near an allowed one.
pub fn explain(mut error: LoadError, text: &str) -> LoadError {
    let message = error.message.clone();
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((name, rest)) = rest.split_once('`')
        && let Some((_, allowed)) = rest.split_once("expected")
        // serde lists the allowed names in backticks: "expected one of `a`, `b`".
        && let Some(near) = did_you_mean(name, allowed.split('`').skip(1).step_by(2))
    {
        error.message = format!("unknown field `{name}`; did you mean `{near}`?");
    } else if let Some(rest) = message.strip_prefix("missing field `")
        && let Some(wanted) = rest.split('`').next()
        && let Ok(root) = serde_json::from_str::<Value>(text)
        && let Some(Value::Object(members)) = at_path(&root, &error.path)
        && let Some(typo) = members
            .keys()
            .map(String::as_str)
            .find(|k| *k != wanted && did_you_mean(k, [wanted]).is_some())
    {
        error.message =
            format!("missing field `{wanted}`: `{typo}` is there; did you mean `{wanted}`?");
    }
    error
}

/// The candidate nearest to `word`, when it is near enough to be a typo (or one is a
/// prefix of the other, as `until` of `until_ms`).
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let word_lower = word.to_ascii_lowercase();
    candidates
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|c| {
            let c_lower = c.to_ascii_lowercase();
            let prefix = c_lower.starts_with(&word_lower) || word_lower.starts_with(&c_lower);
            let distance =
                if prefix && word.len() >= 3 { 1 } else { edit_distance(&word_lower, &c_lower) };
            (distance, c)
        })
        .filter(|(d, c)| *d <= 2.max(c.len() / 4) && *d < c.len().max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The value at a loader path such as `$.workers[1].program[0]`.
fn at_path<'v>(root: &'v Value, path: &str) -> Option<&'v Value> {
    let mut value = root;
    let rest = path.strip_prefix('$')?;
    for part in rest.split('.').filter(|p| !p.is_empty()) {
        let (name, indexes) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            value = value.get(name)?;
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            let i: usize = index.trim_end_matches(']').parse().ok()?;
            value = value.get(i)?;
        }
    }
    Some(value)
}
