//! Learning events as xAPI statements, in the envelope H5P hosts already consume
//! (`{"context": "h5p", "action": "xAPI", "statement": ...}` posted to the parent).
//!
//! Owns the statement's shape: verbs, activities (a scenario, a prediction prompt, the quiz,
//! a quiz question), results and the actor. Pure: the shell supplies the statement id (random
//! bytes), the time, the page's address and the language, and posts the text only to the
//! origins in `origins=` (statements carry learner data).

use serde::Serialize;

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Verb {
    Answered,
    Completed,
    Passed,
    Failed,
}

impl Verb {
    fn word(self) -> &'static str {
        match self {
            Verb::Answered => "answered",
            Verb::Completed => "completed",
            Verb::Passed => "passed",
            Verb::Failed => "failed",
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
    /// A challenge: a `performance` interaction, whose response is the learner's design.
    pub performance: bool,
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
    /// The response as text (a challenge's design, in SCORM's `performance` form).
    pub response_text: Option<String>,
    pub duration_ms: Option<u64>,
    /// For an answer: 1 for the first, 2 for the second, ... A later attempt is practice:
    /// its statement carries no `success` (an LRS would count it as a right answer), only
    /// the attempt's number and whether it was right, as extensions.
    pub attempt: Option<u32>,
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
    /// The language tag of names and descriptions (`en-US`, `id`, `vi`), and of the
    /// experience (`context.language`).
    pub lang: &'static str,
    /// The attempt's registration (a UUID an LMS or cmi5 gave: `registration=` in the link,
    /// or the host's `set-learner`), so an LRS groups the statements of one enrolment.
    pub registration: Option<String>,
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
    let choices = object.correct.map(|right| {
        let choices = object
            .choices
            .iter()
            .enumerate()
            .map(|(i, text)| Choice { id: option_id(i), description: Text(lang, text) })
            .collect();
        (choices, [option_id(right)])
    });
    let (choices, correct_responses_pattern) = match choices {
        Some((choices, pattern)) => (Some(choices), Some(pattern)),
        None => (None, None),
    };
    let practice = outcome.attempt.is_some_and(|n| n > 1);
    let result = Result_ {
        score: outcome.score.map(|(raw, max)| Score { min: 0, max, raw, scaled: Slot }),
        success: outcome.success.filter(|_| !practice),
        completion: outcome.completion,
        response: outcome.response.map(option_id).or_else(|| outcome.response_text.clone()),
        duration: outcome.duration_ms.map(iso_duration),
        extensions: outcome.attempt.map(|attempt| Extensions {
            attempt,
            practice_correct: outcome.success.filter(|_| practice),
        }),
    };
    let empty = result.score.is_none()
        && result.success.is_none()
        && result.completion.is_none()
        && result.response.is_none()
        && result.duration.is_none()
        && result.extensions.is_none();
    let verb_word = verb.word();
    let statement = Statement {
        id: &context.id,
        timestamp: &context.timestamp,
        actor: match &context.actor {
            Some(_) => Actor::Given(Slot),
            None => Actor::Anonymous {
                object_type: "Agent",
                account: Account { home_page: &context.home_page, name: "anonymous" },
            },
        },
        verb: VerbRef {
            id: format!("http://adlnet.gov/expapi/verbs/{verb_word}"),
            display: Text("en-US", verb_word),
        },
        object: ActivityRef {
            object_type: "Activity",
            id: &object.id,
            definition: Definition {
                name: Text(lang, &object.name),
                kind: (object.correct.is_some() || object.performance)
                    .then_some("http://adlnet.gov/expapi/activities/cmi.interaction"),
                interaction_type: match (object.correct, object.performance) {
                    (Some(_), _) => Some("choice"),
                    (None, true) => Some("performance"),
                    (None, false) => None,
                },
                choices,
                correct_responses_pattern,
            },
        },
        result: (!empty).then_some(result),
        context: StatementContext {
            registration: context.registration.as_deref(),
            language: lang,
            context_activities: parent.map(|parent| ContextActivities {
                parent: [ActivityRef {
                    object_type: "Activity",
                    id: &parent.id,
                    definition: Definition {
                        name: Text(lang, &parent.name),
                        ..Definition::default()
                    },
                }],
            }),
        },
    };
    // The slots in the order they are written: the actor (the statement's third member),
    // then `scaled` (in `result`, after the object).
    let scaled = outcome.score.map(|(raw, max)| fraction(raw as u64, max as u64));
    let texts: Vec<&str> = context.actor.as_deref().into_iter().chain(scaled.as_deref()).collect();
    json_text(&statement, &texts)
}

/// The message an H5P host reads: `{"context":"h5p","action":"xAPI","statement":...}`.
pub fn h5p_envelope(statement: &str) -> String {
    #[derive(Serialize)]
    struct Envelope {
        context: &'static str,
        action: &'static str,
        statement: Slot,
    }
    json_text(&Envelope { context: "h5p", action: "xAPI", statement: Slot }, &[statement])
}

// The statement's shape (xAPI 1.0.3), written by serde; members that are not set are left
// out.

#[derive(Serialize)]
struct Statement<'a> {
    id: &'a str,
    timestamp: &'a str,
    actor: Actor<'a>,
    verb: VerbRef<'a>,
    object: ActivityRef<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Result_>,
    context: StatementContext<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Actor<'a> {
    /// The agent from `actor=`, as the launch link wrote it (checked by [`names_learner`]).
    Given(Slot),
    #[serde(rename_all = "camelCase")]
    Anonymous { object_type: &'static str, account: Account<'a> },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Account<'a> {
    home_page: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
struct VerbRef<'a> {
    id: String,
    display: Text<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ActivityRef<'a> {
    object_type: &'static str,
    id: &'a str,
    definition: Definition<'a>,
}

#[derive(Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Definition<'a> {
    name: Text<'a>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    interaction_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    choices: Option<Vec<Choice<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    correct_responses_pattern: Option<[String; 1]>,
}

#[derive(Serialize)]
struct Choice<'a> {
    id: String,
    description: Text<'a>,
}

/// `result`: every part optional.
#[derive(Serialize)]
struct Result_ {
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<Score>,
    #[serde(skip_serializing_if = "Option::is_none")]
    success: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    completion: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duration: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extensions: Option<Extensions>,
}

/// `result.extensions` of an answer: which attempt, and for practice whether it was right
/// (keys in this playground's own `urn:` vocabulary, documented in course-platforms.md).
#[derive(Serialize)]
struct Extensions {
    #[serde(rename = "urn:fencing-playground:xapi:attempt")]
    attempt: u32,
    #[serde(
        rename = "urn:fencing-playground:xapi:practice-correct",
        skip_serializing_if = "Option::is_none"
    )]
    practice_correct: Option<bool>,
}

#[derive(Serialize)]
struct Score {
    min: usize,
    max: usize,
    raw: usize,
    scaled: Slot,
}

/// `context`: the registration when there is one, the language, and the parent activity
/// (none for the quiz's own statements: Moodle grades only statements without a parent).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatementContext<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    registration: Option<&'a str>,
    language: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    context_activities: Option<ContextActivities<'a>>,
}

#[derive(Serialize)]
struct ContextActivities<'a> {
    parent: [ActivityRef<'a>; 1],
}

/// A language map with one entry: `{"en-US": "..."}`.
#[derive(Default)]
struct Text<'a>(&'a str, &'a str);

impl Serialize for Text<'_> {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = to.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}

/// Where a JSON text stands in the statement as it is: `scaled` (a number made without
/// floating point, which would link a float writer into the first page) and the agent from
/// `actor=` (already checked to be one JSON object; parsing it again into a value would
/// link serde_json's parser). Serde writes it as `null`, and [`Verbatim`] writes the next
/// text in its place. No other member of these shapes is ever null (every optional one is
/// left out when unset), so the nulls are exactly the slots, in the order they are written.
/// A test reads the written statement back and finds `scaled` a number and the agent an
/// object, and another pins whole statements byte for byte.
struct Slot;

impl Serialize for Slot {
    fn serialize<S: serde::Serializer>(&self, to: S) -> Result<S::Ok, S::Error> {
        to.serialize_unit()
    }
}

/// serde_json's compact writing (the trait's default for every token) with each `null`
/// replaced by the next of `texts`: serde_json's public `Formatter`, not its private raw-value
/// token.
struct Verbatim<'a> {
    texts: std::slice::Iter<'a, &'a str>,
}

impl serde_json::ser::Formatter for Verbatim<'_> {
    fn write_null<W: ?Sized + std::io::Write>(&mut self, to: &mut W) -> std::io::Result<()> {
        to.write_all(self.texts.next().map_or(b"null", |text| text.as_bytes()))
    }
}

/// Writing these shapes cannot fail (string keys, no floats, no I/O, and the slots' texts
/// are `str`, so the bytes are UTF-8); an empty text would be refused by any LRS and is
/// never posted in practice.
fn json_text(value: &impl Serialize, texts: &[&str]) -> String {
    let mut out = Vec::new();
    let formatter = Verbatim { texts: texts.iter() };
    let written = value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, formatter));
    written.ok().and_then(|()| String::from_utf8(out).ok()).unwrap_or_default()
}

/// An option's id in every report (xAPI's choices, SCORM's responses): `a`, `b`, ... as
/// SCORM 1.2's `choice` type requires (one character each), in the order the learner
/// reads the options.
pub fn option_id(index: usize) -> String {
    char::from(b'a' + u8::try_from(index.min(25)).unwrap_or(25)).to_string()
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

/// What [`names_learner`] looks at in an agent: its string members (a member of another
/// type counts as absent). Read from JSON text by serde_json ([`parse_actor`]), or on the
/// web pages from what the browser's JSON parser made of it (`ui::xapi`).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Agent {
    /// Whether the text was one JSON object.
    pub is_object: bool,
    pub object_type: Option<String>,
    pub mbox: Option<String>,
    pub mbox_sha1sum: Option<String>,
    pub openid: Option<String>,
    /// `account.homePage` and `account.name`.
    pub account_home_page: Option<String>,
    pub account_name: Option<String>,
}

/// Whether the agent names the learner: an object (of `objectType` "Agent", if given)
/// with `mbox` (a `mailto:`), `mbox_sha1sum`, `openid` or an `account` with `homePage` and
/// `name`.
pub fn names_learner(agent: &Agent) -> bool {
    let given = |member: &Option<String>| member.as_deref().is_some_and(|s| !s.is_empty());
    agent.is_object
        && agent.object_type.as_deref().is_none_or(|t| t == "Agent")
        && ((given(&agent.account_home_page) && given(&agent.account_name))
            || agent.mbox.as_deref().is_some_and(|m| m.starts_with("mailto:"))
            || given(&agent.mbox_sha1sum)
            || given(&agent.openid))
}

/// The agent in `actor=` (JSON, as cmi5 and xAPI launch links carry it), compact; `None`
/// unless it is one JSON object that [`names_learner`].
pub fn parse_actor(text: &str) -> Option<String> {
    let root: serde_json::Value = serde_json::from_str(text).ok()?;
    let member = |value: &serde_json::Value, key: &str| {
        value.get(key).and_then(serde_json::Value::as_str).map(str::to_owned)
    };
    let account = root.get("account").cloned().unwrap_or_default();
    let agent = Agent {
        is_object: root.is_object(),
        object_type: member(&root, "objectType"),
        mbox: member(&root, "mbox"),
        mbox_sha1sum: member(&root, "mbox_sha1sum"),
        openid: member(&root, "openid"),
        account_home_page: member(&account, "homePage"),
        account_name: member(&account, "name"),
    };
    // A non-string `objectType` is not "Agent".
    let odd_type = root.get("objectType").is_some_and(|t| !t.is_string());
    (!odd_type && names_learner(&agent)).then(|| actor_text(text))
}

/// The agent's text as a statement carries it: it parsed as one JSON object, so it stands
/// in the statement as it is; line breaks are dropped so the statement stays on one line.
pub fn actor_text(text: &str) -> String {
    text.trim().replace(['\n', '\r'], "")
}

/// Whether `text` is a UUID as xAPI's `registration` takes it (`8-4-4-4-12` hex digits).
pub fn is_uuid(text: &str) -> bool {
    text.len() == 36
        && text.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

/// An activity id base set by the course (`base=` in the link): an absolute `http(s)`
/// address, ending in `/` (one is added), with nothing after a `?` or `#`, so activity ids
/// stay the same when the site moves. `None` for anything else.
pub fn activity_base(text: &str) -> Option<String> {
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"))?;
    let host = rest.split('/').next().unwrap_or_default();
    let plain =
        |b: u8| b.is_ascii_graphic() && !matches!(b, b'?' | b'#' | b'"' | b'\\' | b'<' | b'>');
    if host.is_empty() || !text.bytes().all(plain) {
        return None;
    }
    Some(if text.ends_with('/') { text.to_owned() } else { format!("{text}/") })
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
        Activity, Context, Outcome, Verb, activity_base, fraction, h5p_envelope, is_uuid,
        iso_duration, parse_actor, statement, uuid,
    };
    use serde_json::Value;

    fn parse(text: &str) -> Result<Value, serde_json::Error> {
        serde_json::from_str(text)
    }

    fn context(actor: Option<&str>) -> Context {
        Context {
            id: uuid([7; 16]),
            timestamp: "2026-12-01T10:00:00.000Z".into(),
            actor: actor.and_then(parse_actor),
            home_page: "https://example.org/playground/".into(),
            lang: "en-US",
            registration: None,
        }
    }

    fn get<'a>(value: &'a Value, path: &[&str]) -> &'a Value {
        path.iter().fold(value, |v, key| match v {
            Value::Object(members) => members.get(*key).expect(key),
            Value::Array(items) => &items[key.parse::<usize>().expect("index")],
            other => panic!("{key} in {other:?}"),
        })
    }

    /// A lesson's prompt named `prompt` (two options, the second right), and the lesson.
    fn prompt_and_lesson(prompt: &str) -> (Activity, Activity) {
        let question = Activity {
            id: "https://example.org/playground/#/s/gc-pause-fenced?prompt=0".into(),
            name: prompt.into(),
            choices: vec!["A's".into(), "B's".into()],
            correct: Some(1),
            ..Activity::default()
        };
        let parent = Activity {
            id: "https://example.org/playground/#/s/gc-pause-fenced".into(),
            name: "GC pause".into(),
            ..Activity::default()
        };
        (question, parent)
    }

    #[test]
    fn an_answer_is_a_choice_interaction_with_its_parent() {
        let (question, parent) = prompt_and_lesson("Which write lands?");
        let outcome = Outcome { success: Some(false), response: Some(0), ..Outcome::default() };
        let text = statement(&context(None), Verb::Answered, &question, &outcome, Some(&parent));
        let root = parse(&text).expect("valid JSON");
        assert!(
            matches!(get(&root, &["verb", "id"]), Value::String(v) if v == "http://adlnet.gov/expapi/verbs/answered")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "interactionType"]), Value::String(v) if v == "choice")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "correctResponsesPattern", "0"]), Value::String(v) if v == "b")
        );
        assert!(
            matches!(get(&root, &["object", "definition", "choices", "1", "description", "en-US"]), Value::String(v) if v == "B's")
        );
        assert!(matches!(get(&root, &["result", "response"]), Value::String(v) if v == "a"));
        assert!(matches!(get(&root, &["result", "success"]), Value::Bool(false)));
        assert!(
            matches!(get(&root, &["context", "contextActivities", "parent", "0", "id"]), Value::String(v) if v.ends_with("#/s/gc-pause-fenced"))
        );
        assert!(
            matches!(get(&root, &["actor", "account", "name"]), Value::String(v) if v == "anonymous")
        );
        let envelope = parse(&h5p_envelope(&text)).expect("valid JSON");
        assert!(matches!(get(&envelope, &["context"]), Value::String(v) if v == "h5p"));
        assert!(matches!(get(&envelope, &["statement", "id"]), Value::String(v) if v.len() == 36));
    }

    #[test]
    fn the_registration_and_the_language_are_in_the_context() {
        let (question, parent) = prompt_and_lesson("Which write lands?");
        let registration = "ec531277-b57b-4c15-8d91-d292c5b2b8f7";
        let context =
            Context { registration: Some(registration.into()), lang: "vi", ..context(None) };
        let text =
            statement(&context, Verb::Answered, &question, &Outcome::default(), Some(&parent));
        let root = parse(&text).expect("valid JSON");
        assert!(
            matches!(get(&root, &["context", "registration"]), Value::String(v) if v == registration)
        );
        assert!(matches!(get(&root, &["context", "language"]), Value::String(v) if v == "vi"));
        assert!(is_uuid(registration) && is_uuid(&uuid([9; 16])));
        for bad in ["", "ec531277b57b4c158d91d292c5b2b8f7", "ec531277-b57b-4c15-8d91-d292c5b2b8fz"]
        {
            assert!(!is_uuid(bad), "{bad}");
        }
        assert_eq!(
            activity_base("https://courses.example.org/fencing").as_deref(),
            Some("https://courses.example.org/fencing/")
        );
        assert_eq!(activity_base("http://x/").as_deref(), Some("http://x/"));
        for bad in [
            "",
            "ftp://x/",
            "https://",
            "https:///path",
            "https://x/?q=1",
            "https://x/#a",
            "https://x y/",
        ] {
            assert_eq!(activity_base(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_retry_is_practice_an_lrs_does_not_count_as_a_right_answer() {
        let (question, parent) = prompt_and_lesson("Which write lands?");
        let answer = |attempt, success| {
            let outcome = Outcome {
                success: Some(success),
                response: Some(1),
                attempt: Some(attempt),
                ..Outcome::default()
            };
            let text =
                statement(&context(None), Verb::Answered, &question, &outcome, Some(&parent));
            parse(&text).expect("valid JSON")
        };
        let first = answer(1, true);
        assert!(matches!(get(&first, &["result", "success"]), Value::Bool(true)));
        let extensions = get(&first, &["result", "extensions"]);
        assert_eq!(extensions.to_string(), r#"{"urn:fencing-playground:xapi:attempt":1}"#);
        let retry = answer(2, true);
        let result = get(&retry, &["result"]);
        assert!(result.get("success").is_none(), "no success for practice: {result}");
        assert_eq!(
            get(result, &["extensions"]).to_string(),
            r#"{"urn:fencing-playground:xapi:attempt":2,"urn:fencing-playground:xapi:practice-correct":true}"#
        );
        assert!(matches!(get(result, &["response"]), Value::String(v) if v == "b"));
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

    /// The whole text, byte for byte: LRSs and H5P hosts have stored statements of this
    /// shape, so a change of member order, spacing or number form must be deliberate.
    #[test]
    fn statements_and_the_envelope_are_written_byte_for_byte() {
        let (question, parent) = prompt_and_lesson("Which write lands? \"B's\"");
        let answered = Outcome { success: Some(false), response: Some(0), ..Outcome::default() };
        let text = statement(&context(None), Verb::Answered, &question, &answered, Some(&parent));
        assert_eq!(text, ANSWERED);
        assert_eq!(
            h5p_envelope(&text),
            format!(r#"{{"context":"h5p","action":"xAPI","statement":{ANSWERED}}}"#)
        );
        let quiz = Activity {
            id: "https://example.org/playground/lab.html#/quiz".into(),
            name: "Quiz".into(),
            ..Activity::default()
        };
        let passed = Outcome {
            score: Some((25, 30)),
            success: Some(true),
            completion: Some(true),
            duration_ms: Some(125_500),
            ..Outcome::default()
        };
        let actor = "{\"objectType\": \"Agent\",\n \"mbox\":\"mailto:learner@example.org\", \"name\": \"L\\u00e9a\"}";
        let text = statement(&context(Some(actor)), Verb::Passed, &quiz, &passed, None);
        assert_eq!(text, PASSED);
        let whole = Outcome { score: Some((30, 30)), ..Outcome::default() };
        let text = statement(&context(None), Verb::Completed, &quiz, &whole, None);
        assert_eq!(text, COMPLETED);
    }

    const ANSWERED: &str = r##"{"id":"07070707-0707-4707-8707-070707070707","timestamp":"2026-12-01T10:00:00.000Z","actor":{"objectType":"Agent","account":{"homePage":"https://example.org/playground/","name":"anonymous"}},"verb":{"id":"http://adlnet.gov/expapi/verbs/answered","display":{"en-US":"answered"}},"object":{"objectType":"Activity","id":"https://example.org/playground/#/s/gc-pause-fenced?prompt=0","definition":{"name":{"en-US":"Which write lands? \"B's\""},"type":"http://adlnet.gov/expapi/activities/cmi.interaction","interactionType":"choice","choices":[{"id":"a","description":{"en-US":"A's"}},{"id":"b","description":{"en-US":"B's"}}],"correctResponsesPattern":["b"]}},"result":{"success":false,"response":"a"},"context":{"language":"en-US","contextActivities":{"parent":[{"objectType":"Activity","id":"https://example.org/playground/#/s/gc-pause-fenced","definition":{"name":{"en-US":"GC pause"}}}]}}}"##;
    const PASSED: &str = r##"{"id":"07070707-0707-4707-8707-070707070707","timestamp":"2026-12-01T10:00:00.000Z","actor":{"objectType": "Agent", "mbox":"mailto:learner@example.org", "name": "L\u00e9a"},"verb":{"id":"http://adlnet.gov/expapi/verbs/passed","display":{"en-US":"passed"}},"object":{"objectType":"Activity","id":"https://example.org/playground/lab.html#/quiz","definition":{"name":{"en-US":"Quiz"}}},"result":{"score":{"min":0,"max":30,"raw":25,"scaled":0.8333},"success":true,"completion":true,"duration":"PT125.5S"},"context":{"language":"en-US"}}"##;
    const COMPLETED: &str = r##"{"id":"07070707-0707-4707-8707-070707070707","timestamp":"2026-12-01T10:00:00.000Z","actor":{"objectType":"Agent","account":{"homePage":"https://example.org/playground/","name":"anonymous"}},"verb":{"id":"http://adlnet.gov/expapi/verbs/completed","display":{"en-US":"completed"}},"object":{"objectType":"Activity","id":"https://example.org/playground/lab.html#/quiz","definition":{"name":{"en-US":"Quiz"}}},"result":{"score":{"min":0,"max":30,"raw":30,"scaled":1}},"context":{"language":"en-US"}}"##;

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
