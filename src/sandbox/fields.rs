//! The form's view of a step or fault row (its members as typed fields) and of the
//! scenario-wide settings the form offers. Pure: JSON text in, JSON text out; the loader
//! still has the last word on every value.

use crate::catalogue::codec;
use crate::catalogue::codec::LoadError;
use crate::catalogue::lesson::Scenario;
use crate::catalogue::load;
use crate::sim::scenario::Word;
use serde_json::{Map, Value};

/// One member of a step or fault row, as the form shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    Number(String),
    Text(String),
    /// One of a fixed set of words (`how`, `kind`, ...): the current word and the choices.
    Word(String, Vec<&'static str>),
    Flag(bool),
    /// An optional member that is not set (its default applies): the default in words.
    Unset(&'static str),
    /// Anything else (null, lists): edited in the row's JSON only.
    Other,
}

/// Optional members the writer leaves out when unset, per row kind, with their default in
/// words: the form shows them so the author can reach them without the JSON.
const OPTIONAL: &[(&str, &str, &str, &str)] = &[
    // (kind, member, a starting value, the default in words)
    ("watchdog", "interval_ms", "10000", "a third of the lease's TTL"),
    ("write", "from", "\"new\"", "any status"),
    ("read", "done_if", "\"paid\"", "never"),
    ("crash-node", "restart_after_ms", "5000", "the node stays down"),
];

/// The optional members of a row kind, as (member, starting value, default in words).
pub fn optional_members(kind: &str) -> Vec<(&'static str, &'static str, &'static str)> {
    OPTIONAL.iter().filter(|(k, ..)| *k == kind).map(|(_, m, v, d)| (*m, *v, *d)).collect()
}

/// The members of a row's JSON object except its kind (`do` / `fault`), in order, then its
/// unset optional members; empty if the text is not an object.
pub fn fields(row_json: &str) -> Vec<(String, Field)> {
    let Some(members) = object(row_json) else { return Vec::new() };
    let kind = kind_of(&members);
    let mut out: Vec<(String, Field)> = members
        .iter()
        .filter(|(key, _)| *key != "do" && *key != "fault")
        .map(|(key, value)| {
            let field = match value {
                Value::Number(n) => Field::Number(n.to_string()),
                Value::String(t) => match codec::member_words(&kind, key) {
                    Some(words) => Field::Word(t.clone(), words),
                    None => Field::Text(t.clone()),
                },
                Value::Bool(b) => Field::Flag(*b),
                _ => Field::Other,
            };
            (key.clone(), field)
        })
        .collect();
    for (member, _, default) in optional_members(&kind) {
        if !members.contains_key(member) {
            out.push((member.to_owned(), Field::Unset(default)));
        }
    }
    out
}

/// The words a member accepts, for a field shown as a menu.
pub fn field_words(kind: &str, member: &str) -> Option<Vec<&'static str>> {
    codec::member_words(kind, member)
}

/// The row's JSON with member `key` set from a form input: a number stays a number when the
/// input is one (otherwise it is sent as text, so the loader names the field and the type
/// it wants), text stays text, a flag reads "true"/"false". An optional member is added when
/// absent, and removed when the input is blank. Other members are kept as typed.
pub fn with_field(row_json: &str, key: &str, input: &str) -> String {
    let Some(members) = object(row_json) else { return row_json.to_owned() };
    let kind = kind_of(&members);
    let optional = optional_members(&kind).into_iter().find(|(m, ..)| *m == key);
    let mut row = Map::new();
    let mut found = false;
    for (name, member) in members {
        if name == key {
            found = true;
            if optional.is_some() && input.trim().is_empty() {
                continue;
            }
            let value = typed(Some(&member), input);
            row.insert(name, value);
        } else {
            row.insert(name, member);
        }
    }
    if !found
        && let Some((member, start, _)) = optional
        && !input.trim().is_empty()
    {
        // Typed like the member's starting value: a number, or text.
        let value = match start.starts_with('"') {
            true => Value::String(input.to_owned()),
            false => typed(None, input),
        };
        row.insert(member.to_owned(), value);
    }
    Value::Object(row).to_string()
}

/// A scenario-wide setting the form offers as a menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// How the database checks the token (`sql.guard`): the fence itself.
    Guard,
    /// Where tokens come from (`tokens`).
    Tokens,
}

impl Setting {
    pub fn path(self) -> &'static str {
        match self {
            Setting::Guard => "$.sql.guard",
            Setting::Tokens => "$.tokens",
        }
    }

    /// The words it accepts.
    pub fn words(self) -> Vec<&'static str> {
        match self {
            Setting::Guard => codec::member_words("sql", "guard"),
            Setting::Tokens => codec::member_words("$", "tokens"),
        }
        .unwrap_or_default()
    }

    fn members(self) -> &'static [&'static str] {
        match self {
            Setting::Guard => &["sql", "guard"],
            Setting::Tokens => &["tokens"],
        }
    }
}

/// The words a setting accepts, and the one `s` has.
pub fn setting_words(s: &Scenario, setting: Setting) -> (Vec<&'static str>, String) {
    let current = match setting {
        Setting::Guard => s.setup.sql.guard.word(),
        Setting::Tokens => s.setup.tokens.word(),
    };
    (setting.words(), current.to_owned())
}

/// `s` with a setting changed, read back by the loader.
pub(crate) fn set_setting(
    s: &Scenario,
    setting: Setting,
    word: &str,
) -> Result<Scenario, LoadError> {
    let mut root: Value = serde_json::from_str(&codec::write_scenario(s).compact())
        .map_err(|e| LoadError { path: "$".into(), line: 0, column: 0, message: e.to_string() })?;
    let (parents, last) = setting.members().split_at(setting.members().len() - 1);
    let mut node = &mut root;
    for parent in parents {
        node = &mut node[*parent];
    }
    node[last[0]] = Value::String(word.to_owned());
    load::parse_scenario(&root.to_string())
}

/// A step's or fault's kind (`do` / `fault`) from its row JSON; empty if it has none.
pub fn row_kind(row_json: &str) -> String {
    object(row_json).map(|members| kind_of(&members)).unwrap_or_default()
}

/// The row's members, if its text is one JSON object.
fn object(row_json: &str) -> Option<Map<String, Value>> {
    match serde_json::from_str(row_json) {
        Ok(Value::Object(members)) => Some(members),
        _ => None,
    }
}

fn kind_of(members: &Map<String, Value>) -> String {
    let kind = members.get("do").or_else(|| members.get("fault"));
    kind.and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// The input as JSON for a member that was `current`: a number or flag when it reads as one
/// and the member was one, else text.
fn typed(current: Option<&Value>, input: &str) -> Value {
    let trimmed = input.trim();
    let number = trimmed
        .parse::<u64>()
        .map(Value::from)
        .or_else(|_| trimmed.parse::<i64>().map(Value::from));
    match (current, number) {
        (Some(Value::Number(_)) | None, Ok(number)) => number,
        (Some(Value::Bool(_)), _) if matches!(trimmed, "true" | "false") => {
            Value::Bool(trimmed == "true")
        }
        _ => Value::String(input.to_owned()),
    }
}
