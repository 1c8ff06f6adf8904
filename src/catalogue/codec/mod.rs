//! The scenario file format, version 1, as JSON text in both directions, through serde:
//! the shapes and words are derived in `sim::scenario` and `catalogue::lesson`; this
//! module is the thin layer that turns serde_json's errors into a [`LoadError`] (the JSON
//! path, line and column, and what was expected) and writes files without the members that
//! are not set. The path comes from serde_json's position (`path_at`): serde_path_to_error
//! found it too, by wrapping every derived reader, which cost the lab page 10.7 KB gzip.
//!
//! Owns the JSON text of the format; it never panics on any input and knows nothing of
//! the model's behaviour.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::catalogue::lesson::Fact;
use crate::catalogue::lesson::Scenario;
use crate::catalogue::lesson::ScenarioFile;
use crate::sim::Setup;
use crate::sim::scenario::NamedFault;
use crate::sim::scenario::{
    AcquireHow, Compare, CrashKind, FaultKind, Guard, KeyStrategy, OnShort, ReleaseHow, RenewHow,
    StepKind, TokenSource, Word, WriteHow,
};
use crate::sim::scenario::{Fault, Step};

/// Why a file was refused, with where (a JSON path and, for syntax and type errors, the
/// line and column) and what was expected.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct LoadError {
    /// `$.workers[1].program[0].ttl_ms`, or `$` for the whole file.
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{} (line {}, column {}): {}",
                self.path, self.line, self.column, self.message
            )
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Reads one value of the format from JSON text; `root` names the text in errors (`$` for
/// a whole file, `$.workers[0].program[2]` for a row typed into the sandbox).
pub fn from_json<T: DeserializeOwned>(text: &str, root: &str) -> Result<T, LoadError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(&mut reader).map_err(|e| refusal(root, &e, text))?;
    // Text after the value ("{...} x") is refused like any other syntax error.
    reader.end().map_err(|e| refusal(root, &e, text))?;
    Ok(value)
}

/// Reads a whole scenario file's JSON text: its shape, and the names its faults give
/// (`load` checks the rest).
pub fn read_scenario(text: &str) -> Result<Scenario, LoadError> {
    resolved(from_json(text, "$")?)
}

/// The scenario a file's object describes, or the fault member naming nothing.
fn resolved(file: ScenarioFile) -> Result<Scenario, LoadError> {
    Scenario::from_file(file).map_err(|(path, message)| LoadError {
        path,
        line: 0,
        column: 0,
        message,
    })
}

/// A value of the format as JSON, ready to be written compact or indented.
pub struct Json(serde_json::Value);

impl Json {
    /// Compact text with no spaces (for links and rows).
    pub fn compact(&self) -> String {
        self.0.to_string()
    }

    /// Indented text, two spaces per level (for files people read).
    pub fn pretty(&self) -> String {
        // Writing a `Value` to a `String` cannot fail: its keys are strings and no I/O is
        // involved.
        serde_json::to_string_pretty(&self.0).unwrap_or_default()
    }

    /// The value itself (to place inside another file, as a challenge carries its design).
    pub fn into_value(self) -> serde_json::Value {
        self.0
    }
}

/// `value` as JSON, without the members that are not set: the format reads a missing
/// member and `null` alike, and a file people read should not list what does not apply
/// (the flat step, fault and fact shapes carry every kind's members).
pub fn to_json<T: Serialize>(value: &T) -> Json {
    // The format's types serialise to JSON without error (string keys, no foreign types);
    // `Null` would be written if that ever changed, and the round-trip test would fail.
    let mut json = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
    drop_nulls(&mut json);
    Json(json)
}

/// The scenario as JSON that reads back to the same scenario.
pub fn write_scenario(s: &Scenario) -> Json {
    to_json(s)
}

/// Facts as compact JSON (for `fence lesson --suggest`).
pub fn facts_text(facts: &[Fact]) -> String {
    to_json(&facts).compact()
}

/// One step as compact JSON, for the sandbox's step rows.
pub fn step_text(step: &Step) -> String {
    to_json(step).compact()
}

/// One fault of `setup` as compact JSON, its worker and node by name, for the sandbox's
/// fault rows.
pub fn fault_text(setup: &Setup, fault: &Fault) -> String {
    to_json(&fault.named(setup)).compact()
}

/// Reads one step typed into a sandbox row; `path` names the row in errors.
pub fn parse_step_text(text: &str, path: &str) -> Result<Step, LoadError> {
    from_json(text, path)
}

/// Reads one fault typed into a sandbox row, resolving the names it gives against `setup`.
pub fn parse_fault_text(setup: &Setup, text: &str, path: &str) -> Result<Fault, LoadError> {
    let named: NamedFault = from_json(text, path)?;
    named.resolve(setup).map_err(|(member, message)| LoadError {
        path: format!("{path}.{member}"),
        line: 0,
        column: 0,
        message,
    })
}

/// The step kinds (`do`), in the order the format documents them.
pub fn steps() -> Vec<&'static str> {
    StepKind::words()
}

/// The fault kinds (`fault`).
pub fn faults() -> Vec<&'static str> {
    FaultKind::words()
}

/// The words a step's or fault's member accepts (`kind` is its `do` / `fault` value, `sql`
/// or `$` for the settings), for the sandbox's menus; `None` for free values.
pub fn member_words(kind: &str, member: &str) -> Option<Vec<&'static str>> {
    Some(match (kind, member) {
        ("acquire", "how") => AcquireHow::words(),
        ("wait-replicas", "on_short") => OnShort::words(),
        ("read", "compare") => Compare::words(),
        ("write", "how") => WriteHow::words(),
        ("charge", "key") => KeyStrategy::words(),
        ("watchdog", "how") => RenewHow::words(),
        ("release", "how") => ReleaseHow::words(),
        ("crash-node", "kind") => CrashKind::words(),
        ("sql", "guard") => Guard::words(),
        ("$", "tokens") => TokenSource::words(),
        _ => return None,
    })
}

// ----- helpers -----

/// The JSON path, below `root`, of what was being read at byte `end` of `text`: serde_json
/// reports a position, not a path, so the path is found by walking the text's brackets,
/// keys and commas up to it (a thin layer over serde_json's error, instead of tracking the
/// path through every derived reader, which cost the lab page 10.7 KB gzip). `end` is just
/// past the last byte serde_json read; that byte itself (a closing bracket, say) is not
/// walked, so a member missing from an object is reported at the object.
fn path_at(root: &str, text: &str, end: usize, refused: Refused) -> String {
    enum Frame {
        Array(usize),
        Object(Option<String>),
    }
    let bytes = text.as_bytes();
    // serde_json reports a refusal of a value it has read (its type, a kind's members, a
    // missing member) past the value and what follows it; back to the value's last byte.
    let mut stop = end.saturating_sub(1).min(bytes.len());
    while refused == Refused::Value
        && stop > 0
        && bytes.get(stop).is_some_and(|b| b.is_ascii_whitespace() || *b == b',')
    {
        stop -= 1;
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut expecting_key = false;
    let mut i = 0;
    while i < stop {
        match bytes[i] {
            b'{' => {
                stack.push(Frame::Object(None));
                expecting_key = true;
            }
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
                expecting_key = false;
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(key)) => {
                    *key = None;
                    expecting_key = true;
                }
                None => {}
            },
            b':' => expecting_key = false,
            b'"' => {
                // To the closing quote, past escapes; a key is read whole even when the
                // error came inside it (an unknown member is named in the path).
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                let j = j.min(bytes.len());
                if expecting_key && let Some(Frame::Object(key)) = stack.last_mut() {
                    *key = text.get(start..j).map(str::to_owned);
                }
                i = j;
            }
            _ => {}
        }
        i += 1;
    }
    // An error at a closing bracket is about the whole object or list (a missing member,
    // a wrong length), not about its last member.
    match (bytes.get(stop), stack.last_mut()) {
        (Some(b'}'), Some(Frame::Object(key))) => *key = None,
        (Some(b']'), Some(Frame::Array(_))) => {
            stack.pop();
            stack.push(Frame::Object(None));
        }
        _ => {}
    }
    let mut path = root.to_owned();
    for frame in &stack {
        match frame {
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
            Frame::Object(Some(key)) => {
                path.push('.');
                path.push_str(key);
            }
            Frame::Object(None) => {}
        }
    }
    path
}

/// What serde_json refused: a value it had read (its position may be past the value), or
/// the text itself (syntax, an end too early: the position is where reading stopped).
#[derive(Clone, Copy, PartialEq)]
enum Refused {
    Value,
    Text,
}

/// The byte just past serde_json's position (line and column, 1-based).
fn offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize =
        text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (line_start + column).min(text.len())
}

/// A serde_json error as a refusal at `path`, said for an author: the position as numbers,
/// without the suffix serde_json appends; what was expected before what was found; the
/// number types in words; a text cut short said so. A member that the step's, fault's or
/// fact's kind does not take is named in the path and pointed at: serde only knows the
/// object's end, which is the next object's line in a pretty file.
fn refusal(root: &str, error: &serde_json::Error, text: &str) -> LoadError {
    let refused = match error.classify() {
        serde_json::error::Category::Data => Refused::Value,
        _ => Refused::Text,
    };
    let mut path = path_at(root, text, offset(text, error.line(), error.column()), refused);
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let mut message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    let wrong =
        message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "));
    if let Some((found, expected)) = wrong.and_then(|rest| rest.split_once(", expected ")) {
        let expected = NUMBER_WORDS
            .iter()
            .find(|(rust, _)| *rust == expected)
            .map_or(expected, |(_, words)| words);
        message = format!("expected {expected}, found {}", found_words(found));
    }
    if let Some(what) = message.strip_prefix("EOF while parsing ") {
        message = format!("the text ends in the middle of {what}; was it cut short?");
    }
    let (mut line, mut column) = (error.line(), error.column());
    if let Some(member) = kind_member(&message).map(str::to_owned) {
        (line, column) = (0, 0);
        match member_at(text, offset(text, error.line(), error.column()), &member) {
            Some(at) => {
                line = text[..at].matches('\n').count() + 1;
                column = text[..at].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                // Just inside the key: the walk names the member after its object.
                path = path_at(root, text, at + 2, Refused::Text);
            }
            None => {
                path.push('.');
                path.push_str(&member);
            }
        }
        // The path names the member now; the message need not say it twice.
        if let Some(rest) = message.strip_prefix(&format!("`{member}`: ")) {
            message = rest.to_owned();
        }
    }
    LoadError { path, line, column, message }
}

/// The member a kind-level refusal of `sim::scenario::form` names: ``unknown field `ms`
/// for `acquire` ...`` or `` `how`: unknown value ...``.
fn kind_member(message: &str) -> Option<&str> {
    if let Some(rest) = message.strip_prefix("unknown field `")
        && let Some((member, rest)) = rest.split_once('`')
        && rest.starts_with(" for `")
    {
        return Some(member);
    }
    message.strip_prefix('`').and_then(|rest| rest.split_once("`: ")).map(|(member, _)| member)
}

/// Where `"member":` last starts before byte `end` (serde's position, past the object
/// it had just finished reading, which holds the member).
fn member_at(text: &str, end: usize, member: &str) -> Option<usize> {
    let key = format!("\"{member}\"");
    let mut before = text.get(..end)?;
    loop {
        let at = before.rfind(&key)?;
        // A key, not a string value that happens to spell the name.
        if text[at + key.len()..].trim_start().starts_with(':') {
            return Some(at);
        }
        before = &before[..at];
    }
}

/// serde's name for what it found, as an author would say it.
fn found_words(found: &str) -> String {
    let quoted = |text: &str| text.trim_matches('`').to_owned();
    match found.split_once(' ') {
        Some(("string", text)) => format!("the text {text}"),
        Some(("integer", n)) => format!("the number {}", quoted(n)),
        Some(("floating", n)) => format!("the number {}", quoted(n.trim_start_matches("point "))),
        Some(("boolean", b)) => quoted(b),
        _ => match found {
            "map" => "an object".to_owned(),
            "sequence" => "a list".to_owned(),
            "unit value" => "null".to_owned(),
            other => other.to_owned(),
        },
    }
}

/// serde's "expected" for the number types the format uses, and the words it says instead.
const NUMBER_WORDS: [(&str, &str); 4] = [
    ("u64", "a whole number of 0 or more"),
    ("usize", "a whole number of 0 or more"),
    ("u32", "a whole number from 0 to 4294967295"),
    ("i64", "a whole number"),
];

fn drop_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(members) => {
            members.retain(|_, member| !member.is_null());
            members.values_mut().for_each(drop_nulls);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

// ----- baked lessons -----

/// What starts a baked lesson: a name and the layout's version. Bump the version when a
/// type of the scenario changes shape, so a page never reads a lesson baked by another
/// build as garbage (the service worker caches lessons per deploy, but a proxy might not).
const LESSON_MAGIC: &[u8; 4] = b"FTL1";

/// A lesson as the first page fetches it (`scenarios/<id>.lesson`, written by
/// `fence bake`): the scenario in postcard, a compact binary serde format, so the page
/// reads its lessons without a JSON parser (measured: serde_json on the first page costs
/// 35 KB gzip, more than its budget leaves).
pub fn lesson_bytes(s: &Scenario) -> Vec<u8> {
    let s = &page_lesson(s);
    let mut bytes = LESSON_MAGIC.to_vec();
    // Serialising to a growable buffer fails only for types postcard cannot express
    // (none here: every field is a number, a string, a bool, an option or a list); an
    // empty body would be refused by `decode_lesson`, and `fence bake` checks the round trip.
    bytes.extend(postcard::to_allocvec(s).unwrap_or_default());
    bytes
}

/// A lesson as the first page has it: without its rules and its promised outcome. The
/// player shows neither; `fence lesson`, the tests and the lab's views read them from the
/// JSON. The rules are a lesson's longest text after its narration, and the first page's
/// budget counts the largest lesson it fetches.
pub fn page_lesson(s: &Scenario) -> Scenario {
    Scenario { rules: Vec::new(), expect: None, ..s.clone() }
}

/// Reads a baked lesson's bytes back into its scenario, unchecked (`load::read_lesson`
/// checks it as the loader checks a file).
pub fn decode_lesson(bytes: &[u8]) -> Result<Scenario, LoadError> {
    let damaged =
        |why: String| LoadError { path: "$".to_owned(), line: 0, column: 0, message: why };
    let body = bytes.strip_prefix(LESSON_MAGIC).ok_or_else(|| {
        damaged(
            "this is not a lesson baked by this version of the playground; reload the page".into(),
        )
    })?;
    // Which of postcard's errors it was would not help a learner, and its wording would
    // bring every one of postcard's messages into the first page.
    let file: ScenarioFile = postcard::from_bytes(body)
        .map_err(|_| damaged("the lesson is damaged; reload the page".into()))?;
    resolved(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as `T` and compares the refusal's path, line and column with `expect`.
    fn check<T: DeserializeOwned + std::fmt::Debug>(text: &str, expect: &str) {
        let error = from_json::<T>(text, "$").expect_err("a refusal");
        assert_eq!(format!("{} {}:{}", error.path, error.line, error.column), expect, "{error}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // read for its refusals only
    struct Row {
        name: String,
        ms: Vec<u64>,
        #[serde(default)]
        inner: Option<Box<Row>>,
    }

    #[test]
    fn the_path_is_found_from_serde_json_s_position() {
        // A wrong type inside a list inside an object.
        check::<Row>(r#"{"name": "a", "ms": [1, 2, "x"]}"#, "$.ms[2] 1:30");
        // Keys and strings that hold brackets, commas and escaped quotes do not confuse it.
        check::<Row>(
            r#"{"name": "[{,\"", "ms": [1], "inner": {"name": "b]", "ms": [true]}}"#,
            "$.inner.ms[0] 1:64",
        );
        // A missing member is the object's fault, not its last member's.
        check::<Row>(
            "{\"name\": \"a\",\n \"inner\": {\"name\": \"b\"}, \"ms\": []}",
            "$.inner 2:23",
        );
        // An unknown member is named.
        check::<Row>(r#"{"name": "a", "colour": 1, "ms": []}"#, "$.colour 1:22");
        // A text cut short: as far as it got.
        check::<Row>(r#"{"name": "a", "ms": [1, "#, "$.ms[1] 1:24");
    }
}
