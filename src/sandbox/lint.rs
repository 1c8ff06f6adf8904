//! Warnings about a scenario that loads but does not do what its author meant: anchors
//! that never fire in this run, faults and starts after the run ends, a fault on a step
//! the program does not have; and "did you mean" for a member name the loader refused.
//! Pure: it reads the scenario and its trace. Warnings are [`Said`]s, so the page says them
//! in the reader's language; the loader's own errors stay as the loader words them.

use crate::catalogue::anchor;
use crate::catalogue::codec::LoadError;
use crate::catalogue::lesson::Anchor;
use crate::catalogue::lesson::Scenario;
use crate::sim::Trace;
use crate::sim::event::TAGS;
use crate::sim::scenario::Fault;
use serde_json::Value;

use super::story::{Said, text};

/// One warning, with the path of what it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub path: String,
    pub message: Said,
}

/// Everything in `s` that its run `trace` makes suspicious, in file order.
pub fn lint(s: &Scenario, trace: &Trace) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut warn = |path: String, message: Said| out.push(Warning { path, message });
    for (i, w) in s.setup.workers.iter().enumerate() {
        if w.start_ms >= s.setup.until_ms {
            warn(
                format!("$.workers[{i}].start_ms"),
                Said::new(
                    "sandbox.lint.start_after_end",
                    vec![
                        ("worker", text(&w.name)),
                        ("at", text(w.start_ms)),
                        ("end", text(s.setup.until_ms)),
                    ],
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
                Said::new(
                    "sandbox.lint.fault_after_end",
                    vec![("at", text(at_ms)), ("end", text(s.setup.until_ms))],
                ),
            );
        }
        if let Fault::LoseReply { worker, step, .. } = fault
            && let Some(w) = s.setup.workers.get(worker.index())
            && *step >= w.program.len()
        {
            warn(
                format!("$.faults[{k}].step"),
                Said::new(
                    "sandbox.lint.step_beyond",
                    vec![
                        ("step", text(step)),
                        ("worker", text(&w.name)),
                        ("n", text(w.program.len())),
                    ],
                ),
            );
        }
    }
    for (i, n) in s.narration.iter().enumerate() {
        if let Some(message) = anchor_problem(s, trace, &n.at) {
            warn(format!("$.narration[{i}].at"), message);
        }
        if n.text.trim().is_empty() {
            warn(format!("$.narration[{i}].text"), Said::new("sandbox.lint.no_text", Vec::new()));
        }
    }
    for (i, p) in s.prompts.iter().enumerate() {
        if let Some(message) = anchor_problem(s, trace, &p.at) {
            warn(format!("$.prompts[{i}].at"), message);
        }
        if p.question.trim().is_empty() || p.options.iter().any(|o| o.trim().is_empty()) {
            warn(format!("$.prompts[{i}]"), Said::new("sandbox.lint.empty_prompt", Vec::new()));
        }
    }
    out
}

/// Where a path is, in the words of the form: "Paragraph 2", "Fault 1 (pause)",
/// "Worker C", "Prompt 1"; the path itself for anything else.
pub fn place(s: &Scenario, path: &str) -> Said {
    let index = |list: &str| -> Option<usize> {
        let rest = path.strip_prefix(&format!("$.{list}["))?;
        rest.split(']').next()?.parse().ok()
    };
    if let Some(i) = index("narration") {
        return Said::new("sandbox.place.paragraph", vec![("n", text(i + 1))]);
    }
    if let Some(i) = index("prompts") {
        return Said::new("sandbox.place.prompt", vec![("n", text(i + 1))]);
    }
    if let Some(k) = index("faults") {
        let kind = s
            .setup
            .faults
            .get(k)
            .map(|f| super::row_kind(&crate::catalogue::codec::fault_text(&s.setup, f)));
        let kind = text(kind.unwrap_or_default());
        return Said::new("sandbox.place.fault", vec![("n", text(k + 1)), ("kind", kind)]);
    }
    if let Some(i) = index("workers") {
        let name = s.setup.workers.get(i).map_or("?", |w| w.name.as_str());
        return Said::new("sandbox.place.worker", vec![("name", text(name))]);
    }
    Said::new("sandbox.why.text", vec![("why", text(path))])
}

/// Why an anchor finds no event in this run, with a "did you mean" where one fits.
pub fn anchor_problem(s: &Scenario, trace: &Trace, anchor: &Anchor) -> Option<Said> {
    if anchor::find(trace, anchor).is_some() {
        return None;
    }
    if let Some(at_ms) = anchor.at_ms {
        return Some(Said::new("sandbox.lint.nothing_after", vec![("at", text(at_ms))]));
    }
    let tag = anchor.event.as_deref().unwrap_or("");
    if !TAGS.contains(&tag) {
        return Some(match did_you_mean(tag, TAGS.iter().copied()) {
            Some(near) => Said::new(
                "sandbox.lint.no_kind_near",
                vec![("tag", text(tag)), ("near", text(near))],
            ),
            None => Said::new("sandbox.lint.no_kind", vec![("tag", text(tag))]),
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
                Some(near) => Said::new(
                    "sandbox.lint.no_actor_near",
                    vec![("actor", text(actor)), ("near", text(near))],
                ),
                None => Said::new(
                    "sandbox.lint.no_actor",
                    vec![("actor", text(actor)), ("names", text(names.join(", ")))],
                ),
            });
        }
        let by_actor = of_kind.iter().filter(|a| *a == actor).count();
        if by_actor == 0 && !of_kind.is_empty() {
            let mut by: Vec<&str> = of_kind.iter().map(String::as_str).collect();
            by.dedup();
            return Some(Said::new(
                "sandbox.lint.other_actor",
                vec![("tag", text(tag)), ("by", text(by.join(", "))), ("actor", text(actor))],
            ));
        }
        let nth = anchor.nth.unwrap_or(1);
        if by_actor > 0 {
            return Some(Said::new(
                "sandbox.lint.fewer_by",
                vec![
                    ("n", text(by_actor)),
                    ("tag", text(tag)),
                    ("actor", text(actor)),
                    ("nth", text(nth)),
                ],
            ));
        }
    }
    match of_kind.len() {
        0 => Some(Said::new("sandbox.lint.none_of_kind", vec![("tag", text(tag))])),
        n => Some(Said::new(
            "sandbox.lint.fewer",
            vec![("n", text(n)), ("tag", text(tag)), ("nth", text(anchor.nth.unwrap_or(1)))],
        )),
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
