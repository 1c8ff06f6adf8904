//! The postMessage protocol between an embedded playground and its host page, version 1.
//!
//! Owns the message shapes, their JSON text, and the origin rule: messages go to, and are
//! accepted from, only the origins listed in the link's `origins=` (none by default).
//! Pure: the shell posts and listens.
//!
//! Every message is an object `{"protocol": "fencing-playground", "version": 1, "type": ...}`.
//! Outbound: `ready` {scenario}, `resize` {height}, `step` {t_ms, cursor, event: {kind,
//! actor, at_ms} | null}, `quiz-answered` {question, correct}, `completed` {scenario}.
//! Inbound: `seek` {t_ms}, `play`, `pause`, `load-scenario` {id}.

use crate::json::{Out, Value};

pub const PROTOCOL: &str = "fencing-playground";
pub const VERSION: i64 = 1;

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Outbound {
    Ready { scenario: String },
    Resize { height: u32 },
    Step { t_ms: u64, cursor: usize, event: Option<(String, String, u64)> },
    QuizAnswered { question: String, correct: bool },
    Completed { scenario: String },
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Inbound {
    Seek { t_ms: u64 },
    Play,
    Pause,
    LoadScenario { id: String },
}

impl Outbound {
    pub fn to_json(&self) -> String {
        let mut members = vec![("protocol", Out::str(PROTOCOL)), ("version", Out::Int(VERSION))];
        match self {
            Outbound::Ready { scenario } => {
                members.push(("type", Out::str("ready")));
                members.push(("scenario", Out::str(scenario)));
            }
            Outbound::Resize { height } => {
                members.push(("type", Out::str("resize")));
                members.push(("height", Out::Int(i64::from(*height))));
            }
            Outbound::Step { t_ms, cursor, event } => {
                members.push(("type", Out::str("step")));
                members.push(("t_ms", Out::uint(*t_ms)));
                members.push(("cursor", Out::uint(*cursor as u64)));
                members.push((
                    "event",
                    match event {
                        Some((kind, actor, at_ms)) => Out::Obj(vec![
                            ("kind", Out::str(kind)),
                            ("actor", Out::str(actor)),
                            ("at_ms", Out::uint(*at_ms)),
                        ]),
                        None => Out::Null,
                    },
                ));
            }
            Outbound::QuizAnswered { question, correct } => {
                members.push(("type", Out::str("quiz-answered")));
                members.push(("question", Out::str(question)));
                members.push(("correct", Out::Bool(*correct)));
            }
            Outbound::Completed { scenario } => {
                members.push(("type", Out::str("completed")));
                members.push(("scenario", Out::str(scenario)));
            }
        }
        Out::Obj(members).compact()
    }
}

/// Whether a message from (or to) `origin` is allowed by the link's list.
pub fn origin_allowed(origins: &[String], origin: &str) -> bool {
    origins.iter().any(|allowed| allowed == origin)
}

/// Reads an inbound message from its JSON text; `None` for anything that is not a valid
/// version-1 message of ours (other scripts on the host page may post too).
pub fn parse_inbound(text: &str) -> Option<Inbound> {
    let root = crate::json::parse(text).ok()?;
    let Value::Object(members) = root.value else { return None };
    let get = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| &v.value);
    let string = |key: &str| match get(key) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    if string("protocol").as_deref() != Some(PROTOCOL) {
        return None;
    }
    match get("version") {
        Some(Value::Number(n)) if n == "1" => {}
        _ => return None,
    }
    match string("type")?.as_str() {
        "seek" => match get("t_ms") {
            Some(Value::Number(n)) => n.parse().ok().map(|t_ms| Inbound::Seek { t_ms }),
            _ => None,
        },
        "play" => Some(Inbound::Play),
        "pause" => Some(Inbound::Pause),
        "load-scenario" => string("id")
            .filter(|id| crate::route::is_scenario_id(id))
            .map(|id| Inbound::LoadScenario { id }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{Inbound, Outbound, origin_allowed, parse_inbound};

    #[test]
    fn outbound_messages_carry_protocol_and_version() {
        let step = Outbound::Step {
            t_ms: 31_500,
            cursor: 4,
            event: Some(("granted".into(), "B".into(), 31_000)),
        };
        assert_eq!(
            step.to_json(),
            r#"{"protocol":"fencing-playground","version":1,"type":"step","t_ms":31500,"cursor":4,"event":{"kind":"granted","actor":"B","at_ms":31000}}"#
        );
        let answered = Outbound::QuizAnswered { question: "q1".into(), correct: true }.to_json();
        assert!(answered.contains(r#""type":"quiz-answered","question":"q1","correct":true"#));
    }

    #[test]
    fn inbound_messages_are_checked_before_use() {
        let msg = |body: &str| format!(r#"{{"protocol":"fencing-playground","version":1,{body}}}"#);
        assert_eq!(
            parse_inbound(&msg(r#""type":"seek","t_ms":40000"#)),
            Some(Inbound::Seek { t_ms: 40_000 })
        );
        assert_eq!(parse_inbound(&msg(r#""type":"play""#)), Some(Inbound::Play));
        assert_eq!(
            parse_inbound(&msg(r#""type":"load-scenario","id":"clock-jump""#)),
            Some(Inbound::LoadScenario { id: "clock-jump".into() })
        );
        for bad in [
            msg(r#""type":"seek","t_ms":-1"#),
            msg(r#""type":"load-scenario","id":"../../etc""#),
            msg(r#""type":"explode""#),
            r#"{"protocol":"other","version":1,"type":"play"}"#.to_owned(),
            r#"{"protocol":"fencing-playground","version":2,"type":"play"}"#.to_owned(),
            "not json".to_owned(),
            "[]".to_owned(),
        ] {
            assert_eq!(parse_inbound(&bad), None, "{bad}");
        }
    }

    #[test]
    fn only_listed_origins_are_allowed() {
        let origins = vec!["https://course.example".to_owned()];
        assert!(origin_allowed(&origins, "https://course.example"));
        assert!(!origin_allowed(&origins, "https://evil.example"));
        assert!(!origin_allowed(&origins, "https://course.example.evil.example"));
        assert!(!origin_allowed(&[], "https://course.example"), "none by default");
    }
}
