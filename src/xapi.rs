//! Learning events as xAPI statements, in the envelope H5P hosts already consume
//! (`{"context": "h5p", "action": "xAPI", "statement": ...}` posted to the parent).
//!
//! Owns the statement's shape: verbs, activities (a scenario, a prediction prompt, the quiz,
//! a quiz question), results and the actor. Pure: the shell supplies the statement id (random
//! bytes), the time, the page's address and the language, and posts the text only to the
//! origins in `origins=` (statements carry learner data).

use crate::json::{Out, Value};

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Verb {
    Answered,
    Completed,
    Passed,
    Failed,
    Progressed,
}

impl Verb {
    fn word(self) -> &'static str {
        match self {
            Verb::Answered => "answered",
            Verb::Completed => "completed",
            Verb::Passed => "passed",
            Verb::Failed => "failed",
            Verb::Progressed => "progressed",
        }
    }
}

/// What a statement is about.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Activity {
    /// An absolute address (the page's, with the view in its fragment).
    pub id: String,
    pub name: String,
    /// For a question: its options' texts, and the right one (counted from 0).
    pub choices: Vec<String>,
    pub correct: Option<usize>,
}

/// The statement's `result`; every part is optional.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Outcome {
    /// `(raw, max)`; `min` is 0 and `scaled` is raw/max.
    pub score: Option<(usize, usize)>,
    pub success: Option<bool>,
    pub completion: Option<bool>,
    /// The chosen option (for a question).
    pub response: Option<usize>,
    pub duration_ms: Option<u64>,
}

/// Everything that is not the verb, the object and the result.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Context {
    /// A version-4 UUID (see [`uuid`]).
    pub id: String,
    /// ISO 8601, from the browser's clock.
    pub timestamp: String,
    /// The agent from `actor=` (checked by [`parse_actor`]); none: an anonymous account.
    pub actor: Option<String>,
    /// The site's address, the anonymous account's home page.
    pub home_page: String,
    /// The language tag of names and descriptions (`en-US`, `id`, `vi`).
    pub lang: &'static str,
}

/// The statement's JSON text.
pub fn statement(
    context: &Context,
    verb: Verb,
    object: &Activity,
    outcome: &Outcome,
    parent: Option<&Activity>,
) -> String {
    let lang = context.lang;
    let text = |s: &str| Out::Obj(vec![(lang, Out::str(s))]);
    let actor = match &context.actor {
        Some(agent) => Out::Raw(agent.clone()),
        None => Out::Obj(vec![
            ("objectType", Out::str("Agent")),
            (
                "account",
                Out::Obj(vec![
                    ("homePage", Out::str(&context.home_page)),
                    ("name", Out::str("anonymous")),
                ]),
            ),
        ]),
    };
    let mut definition = vec![("name", text(&object.name))];
    if let Some(right) = object.correct {
        definition.push(("type", Out::str("http://adlnet.gov/expapi/activities/cmi.interaction")));
        definition.push(("interactionType", Out::str("choice")));
        definition.push((
            "choices",
            Out::Arr(
                object
                    .choices
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        Out::Obj(vec![("id", Out::Str(i.to_string())), ("description", text(c))])
                    })
                    .collect(),
            ),
        ));
        definition.push(("correctResponsesPattern", Out::Arr(vec![Out::Str(right.to_string())])));
    }
    let mut result = Vec::new();
    if let Some((raw, max)) = outcome.score {
        result.push((
            "score",
            Out::Obj(vec![
                ("min", Out::Int(0)),
                ("max", Out::uint(max as u64)),
                ("raw", Out::uint(raw as u64)),
                ("scaled", Out::Raw(fraction(raw as u64, max as u64))),
            ]),
        ));
    }
    if let Some(success) = outcome.success {
        result.push(("success", Out::Bool(success)));
    }
    if let Some(completion) = outcome.completion {
        result.push(("completion", Out::Bool(completion)));
    }
    if let Some(response) = outcome.response {
        result.push(("response", Out::Str(response.to_string())));
    }
    if let Some(ms) = outcome.duration_ms {
        result.push(("duration", Out::Str(iso_duration(ms))));
    }
    let mut members = vec![
        ("id", Out::str(&context.id)),
        ("timestamp", Out::str(&context.timestamp)),
        ("actor", actor),
        (
            "verb",
            Out::Obj(vec![
                ("id", Out::Str(format!("http://adlnet.gov/expapi/verbs/{}", verb.word()))),
                ("display", Out::Obj(vec![("en-US", Out::str(verb.word()))])),
            ]),
        ),
        (
            "object",
            Out::Obj(vec![
                ("objectType", Out::str("Activity")),
                ("id", Out::str(&object.id)),
                ("definition", Out::Obj(definition)),
            ]),
        ),
    ];
    if !result.is_empty() {
        members.push(("result", Out::Obj(result)));
    }
    if let Some(parent) = parent {
        members.push((
            "context",
            Out::Obj(vec![(
                "contextActivities",
                Out::Obj(vec![(
                    "parent",
                    Out::Arr(vec![Out::Obj(vec![
                        ("objectType", Out::str("Activity")),
                        ("id", Out::str(&parent.id)),
                        ("definition", Out::Obj(vec![("name", text(&parent.name))])),
                    ])]),
                )]),
            )]),
        ));
    }
    Out::Obj(members).compact()
}

/// The message an H5P host reads: `{"context":"h5p","action":"xAPI","statement":...}`.
pub fn h5p_envelope(statement: &str) -> String {
    Out::Obj(vec![
        ("context", Out::str("h5p")),
        ("action", Out::str("xAPI")),
        ("statement", Out::Raw(statement.to_owned())),
    ])
    .compact()
}

/// A version-4 UUID from 16 random bytes.
pub fn uuid(mut bytes: [u8; 16]) -> String {
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut out = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
    out
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// The agent in `actor=` (JSON, as cmi5 and xAPI launch links carry it), compact; `None`
/// unless it is an object naming the learner by `mbox`, `mbox_sha1sum`, `openid` or an
/// `account` with `homePage` and `name`.
pub fn parse_actor(text: &str) -> Option<String> {
    let root = crate::json::parse(text).ok()?;
    let Value::Object(members) = &root.value else { return None };
    let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| &v.value);
    let is_string = |v: Option<&Value>| matches!(v, Some(Value::String(s)) if !s.is_empty());
    if !matches!(get("objectType"), None | Some(Value::String(_)))
        || matches!(get("objectType"), Some(Value::String(t)) if t != "Agent")
    {
        return None;
    }
    let account = match get("account") {
        Some(Value::Object(a)) => {
            let has = |key: &str| a.iter().any(|(k, v)| k == key && is_string(Some(&v.value)));
            has("homePage") && has("name")
        }
        _ => false,
    };
    let named = account
        || matches!(get("mbox"), Some(Value::String(m)) if m.starts_with("mailto:"))
        || is_string(get("mbox_sha1sum"))
        || is_string(get("openid"));
    // The text parsed as one JSON object, so it can stand in the statement as it is;
    // line breaks are dropped so the statement stays on one line.
    named.then(|| text.trim().replace(['\n', '\r'], ""))
}

/// `PT12.5S` (ISO 8601), from milliseconds.
pub fn iso_duration(ms: u64) -> String {
    let (s, rest) = (ms / 1000, ms % 1000);
    match rest {
        0 => format!("PT{s}S"),
        r if r % 100 == 0 => format!("PT{s}.{}S", r / 100),
        r if r % 10 == 0 => format!("PT{s}.{:02}S", r / 10),
        r => format!("PT{s}.{r:03}S"),
    }
}

/// `raw / max` as a decimal with at most four places (`0.8`, `1`, `0.6667`), written
/// without floating point so native and wasm agree.
pub fn fraction(raw: u64, max: u64) -> String {
    if max == 0 {
        return "0".to_owned();
    }
    let ten_thousandths = (raw * 10_000 * 2 + max) / (max * 2);
    let (whole, mut part) = (ten_thousandths / 10_000, ten_thousandths % 10_000);
    if part == 0 {
        return whole.to_string();
    }
    let mut digits = 4;
    while part % 10 == 0 {
        part /= 10;
        digits -= 1;
    }
    format!("{whole}.{part:0digits$}")
}

#[cfg(test)]
mod tests {
    use super::{
        Activity, Context, Outcome, Verb, fraction, h5p_envelope, iso_duration, parse_actor,
        statement, uuid,
    };
    use crate::json::{Value, parse};

    fn context(actor: Option<&str>) -> Context {
        Context {
            id: uuid([7; 16]),
            timestamp: "2026-12-01T10:00:00.000Z".into(),
            actor: actor.and_then(parse_actor),
            home_page: "https://example.org/playground/".into(),
            lang: "en-US",
        }
    }

    fn get<'a>(value: &'a Value, path: &[&str]) -> &'a Value {
        path.iter().fold(value, |v, key| match v {
            Value::Object(members) => &members.iter().find(|(k, _)| k == key).expect(key).1.value,
            Value::Array(items) => &items[key.parse::<usize>().expect("index")].value,
            other => panic!("{key} in {other:?}"),
        })
    }

    #[test]
    fn an_answer_is_a_choice_interaction_with_its_parent() {
        let question = Activity {
            id: "https://example.org/playground/#/s/gc-pause-fenced?prompt=0".into(),
            name: "Which write lands?".into(),
            choices: vec!["A's".into(), "B's".into()],
            correct: Some(1),
        };
        let parent = Activity {
            id: "https://example.org/playground/#/s/gc-pause-fenced".into(),
            name: "GC pause".into(),
            ..Activity::default()
        };
        let outcome = Outcome { success: Some(false), response: Some(0), ..Outcome::default() };
        let text = statement(&context(None), Verb::Answered, &question, &outcome, Some(&parent));
        let root = parse(&text).expect("valid JSON").value;
        assert!(
            matches!(get(&root, &["verb", "id"]), Value::String(v) if v == "http://adlnet.gov/expapi/verbs/answered")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "interactionType"]), Value::String(v) if v == "choice")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "correctResponsesPattern", "0"]), Value::String(v) if v == "1")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "choices", "1", "description", "en-US"]), Value::String(v) if v == "B's")
        );
        assert!(matches!(get(&root, &["result", "response"]), Value::String(v) if v == "0"));
        assert!(matches!(get(&root, &["result", "success"]), Value::Bool(false)));
        assert!(
            matches!(get(&root, &["context", "contextActivities", "parent", "0", "id"]), Value::String(v) if v.ends_with("#/s/gc-pause-fenced"))
        );
        assert!(
            matches!(get(&root, &["actor", "account", "name"]), Value::String(v) if v == "anonymous")
        );
        let envelope = parse(&h5p_envelope(&text)).expect("valid JSON").value;
        assert!(matches!(get(&envelope, &["context"]), Value::String(v) if v == "h5p"));
        assert!(matches!(get(&envelope, &["statement", "id"]), Value::String(v) if v.len() == 36));
    }

    #[test]
    fn a_passed_quiz_carries_its_score_without_a_parent() {
        let quiz = Activity {
            id: "https://example.org/playground/lab.html#/quiz".into(),
            name: "Quiz".into(),
            ..Activity::default()
        };
        let outcome = Outcome {
            score: Some((25, 30)),
            success: Some(true),
            completion: Some(true),
            duration_ms: Some(125_500),
            ..Outcome::default()
        };
        let actor = r#"{"objectType":"Agent","mbox":"mailto:learner@example.org"}"#;
        let text = statement(&context(Some(actor)), Verb::Passed, &quiz, &outcome, None);
        assert!(text.contains(r#""score":{"min":0,"max":30,"raw":25,"scaled":0.8333}"#), "{text}");
        assert!(text.contains(r#""duration":"PT125.5S""#));
        assert!(
            text.contains(r#""actor":{"objectType":"Agent","mbox":"mailto:learner@example.org"}"#)
        );
        assert!(
            !text.contains("contextActivities"),
            "Moodle grades only statements without a parent"
        );
    }

    #[test]
    fn actors_uuids_fractions_and_durations() {
        assert!(
            parse_actor(r#"{"account":{"homePage":"https://lms.example","name":"42"}}"#).is_some()
        );
        for bad in [
            "",
            "[]",
            r#"{"name":"no identifier"}"#,
            r#"{"objectType":"Group","mbox":"mailto:a@b"}"#,
            r#"{"mbox":"a@b"}"#,
            r#"{"account":{"name":"42"}}"#,
            r#"{"mbox":"mailto:a@b"} trailing"#,
        ] {
            assert_eq!(parse_actor(bad), None, "{bad}");
        }
        assert_eq!(uuid([0; 16]), "00000000-0000-4000-8000-000000000000");
        assert_eq!(uuid([255; 16]), "ffffffff-ffff-4fff-bfff-ffffffffffff");
        assert_eq!(
            [fraction(24, 30), fraction(30, 30), fraction(2, 3), fraction(0, 30), fraction(1, 8)],
            ["0.8", "1", "0.6667", "0", "0.125"]
        );
        assert_eq!(
            [iso_duration(0), iso_duration(1_500), iso_duration(61_020), iso_duration(7)],
            ["PT0S", "PT1.5S", "PT61.02S", "PT0.007S"]
        );
    }
}
