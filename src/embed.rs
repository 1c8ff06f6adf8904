//! The messages between an embedded playground and its host page: our protocol (version 1,
//! only ever extended), the two height protocols hosts already run (H5P's resizer and
//! Canvas's `lti.frameResize`), and the order in which heights are sent.
//!
//! Owns the message shapes, their JSON text and the origin rule: anything about the learner
//! goes to, and every command comes from, only the origins listed in the link's `origins=`
//! (none by default); heights carry nothing about the learner and go to any parent. Pure:
//! the shell measures, posts and listens.
//!
//! Every protocol message is an object `{"protocol": "fencing-playground", "version": 1,
//! "type": ..., "frame"?: ...}`, where `frame` echoes the link's `frame=` so a page with
//! several embeds can tell them apart.
//! Outbound: `ready` {view, scenario | total}, `resize` {height}, `step` {t_ms, cursor,
//! event: {kind, actor, at_ms} | null, milestone}, `quiz-answered` {question, correct,
//! choice, attempt, first_try, answered, correct_count (first tries right),
//! practice_count (right only after a retry), total, latency_ms}, `quiz-completed` {score,
//! total, passed}, `challenge-attempted` {challenge, kind, attempt, response, solved, par,
//! spent?, latency_ms}, `completed` {scenario, reached by the learner}, `progress` {data}.
//! Inbound: `seek` {t_ms}, `play`, `pause`, `load-scenario` {id}, `restore-progress` {data},
//! `set-learner` {actor?, registration?} (who learning events name, and their attempt).
//! Prompt ids are `<scenario>#prompt-<n>`, counted from 0.

use crate::sim::scenario::ScenarioId;
use serde::{Deserialize, Serialize};

pub const PROTOCOL: &str = "fencing-playground";
pub const VERSION: i64 = 1;

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Outbound {
    /// The view is ready for commands: a player (`scenario`) or the quiz (`total`).
    Ready {
        view: ReadyView,
    },
    Resize {
        height: u32,
    },
    Step {
        t_ms: u64,
        cursor: usize,
        event: Option<(String, String, u64)>,
        milestone: bool,
    },
    QuizAnswered(Answered),
    /// A challenge's attempt was graded.
    ChallengeAttempted(Tried),
    /// Every question of the quiz has an answer: `score` counts first answers that were
    /// right; `passed` compares it with the mastery score.
    QuizCompleted {
        score: usize,
        total: usize,
        passed: bool,
    },
    Completed {
        scenario: String,
    },
    /// The learner's quiz progress as text, for a host that keeps it (a third-party frame
    /// may have no storage of its own); `restore-progress` gives it back.
    Progress {
        data: String,
    },
    /// A command that cannot be carried out; the view stays as it was and keeps listening.
    /// `reason` is `unknown-scenario` (a `load-scenario` naming no built-in) for now.
    Error {
        reason: &'static str,
        id: String,
    },
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum ReadyView {
    Scenario(String),
    Quiz { total: usize },
}

/// One answer: a quiz question (`question` is its id) or a prediction prompt
/// (`<scenario>#prompt-<n>`). No personal data.
#[derive(Clone, Debug, Default, Eq, PartialEq, Serialize)]
pub struct Answered {
    pub question: String,
    pub correct: bool,
    /// The option chosen, counted from 0.
    pub choice: usize,
    /// 1 for the first answer to this question, 2 for the second, ...
    pub attempt: u32,
    pub first_try: bool,
    /// Quiz questions answered so far (0 for a prompt).
    pub answered: usize,
    /// Of those, the ones whose first answer was right: what the score counts.
    pub correct_count: usize,
    /// The ones right only after trying again: practice, never counted in the score.
    pub practice_count: usize,
    pub total: usize,
    /// From the question shown (or tried again) to this answer, in ms.
    pub latency_ms: u64,
}

/// One graded attempt at a challenge. No personal data.
#[derive(Clone, Debug, Default, Eq, PartialEq, Serialize)]
pub struct Tried {
    pub challenge: String,
    /// `break` or `fix`.
    pub kind: &'static str,
    /// 1 for the first attempt, 2 for the second, ...
    pub attempt: u32,
    /// The learner's design, in SCORM's `performance` form (`one-script[.]true[,]...`).
    pub response: String,
    pub solved: bool,
    /// The par, and what a solved attempt spent (its cost, or the faults it placed).
    pub par: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spent: Option<u32>,
    /// From the last change to the design to this attempt, in ms.
    pub latency_ms: u64,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Inbound {
    Seek {
        t_ms: u64,
    },
    Play,
    Pause,
    LoadScenario {
        id: ScenarioId,
    },
    RestoreProgress {
        data: String,
    },
    /// The host names the learner for learning events: an xAPI agent (JSON text, already
    /// checked by the shell) and the attempt's registration (a UUID). Either may be absent;
    /// what is given replaces the link's `actor=` / `registration=`.
    SetLearner {
        actor: Option<String>,
        registration: Option<String>,
    },
}

/// `steps=`: how often an embed reports `step`.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Steps {
    /// At every event the cursor lands on (never per playback tick).
    #[default]
    Each,
    /// Only at milestones (grants, writes, faults) and at the end.
    Milestones,
}

impl Outbound {
    pub fn to_json(&self, frame: Option<&str>) -> String {
        let body = match self {
            Outbound::Ready { view: ReadyView::Scenario(id) } => {
                Body::Ready { view: "scenario", scenario: Some(id), total: None }
            }
            Outbound::Ready { view: ReadyView::Quiz { total } } => {
                Body::Ready { view: "quiz", scenario: None, total: Some(*total) }
            }
            Outbound::Resize { height } => Body::Resize { height: *height },
            Outbound::Step { t_ms, cursor, event, milestone } => Body::Step {
                t_ms: *t_ms,
                cursor: *cursor,
                event: event.as_ref().map(|(kind, actor, at_ms)| StepEvent {
                    kind,
                    actor,
                    at_ms: *at_ms,
                }),
                milestone: *milestone,
            },
            Outbound::QuizAnswered(answered) => Body::QuizAnswered(answered),
            Outbound::ChallengeAttempted(tried) => Body::ChallengeAttempted(tried),
            Outbound::QuizCompleted { score, total, passed } => {
                Body::QuizCompleted { score: *score, total: *total, passed: *passed }
            }
            Outbound::Completed { scenario } => Body::Completed { scenario },
            Outbound::Progress { data } => Body::Progress { data },
            Outbound::Error { reason, id } => Body::Error { reason, id },
        };
        text(&Message { protocol: PROTOCOL, version: VERSION, body, frame })
    }
}

/// A protocol message as it is written: the envelope, the body's members, then `frame`.
#[derive(Serialize)]
struct Message<'a> {
    protocol: &'static str,
    version: i64,
    #[serde(flatten)]
    body: Body<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame: Option<&'a str>,
}

/// The members of each outbound message, after its `type`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Body<'a> {
    Ready {
        view: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        scenario: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        total: Option<usize>,
    },
    Resize {
        height: u32,
    },
    Step {
        t_ms: u64,
        cursor: usize,
        event: Option<StepEvent<'a>>,
        milestone: bool,
    },
    QuizAnswered(&'a Answered),
    ChallengeAttempted(&'a Tried),
    QuizCompleted {
        score: usize,
        total: usize,
        passed: bool,
    },
    Completed {
        scenario: &'a str,
    },
    Progress {
        data: &'a str,
    },
    Error {
        reason: &'static str,
        id: &'a str,
    },
}

#[derive(Serialize)]
struct StepEvent<'a> {
    kind: &'a str,
    actor: &'a str,
    at_ms: u64,
}

/// A message's JSON text. Writing these types cannot fail (string keys, no floats, no
/// I/O); an empty text would be ignored by every host.
fn text(message: &impl Serialize) -> String {
    serde_json::to_string(message).unwrap_or_default()
}

/// Whether a message from (or to) `origin` is allowed by the link's list.
pub fn origin_allowed(origins: &[String], origin: &str) -> bool {
    origins.iter().any(|allowed| allowed == origin)
}

/// The members an inbound message of ours may have. Other members are ignored, and a
/// member of the wrong type makes the whole text not ours (other scripts on the host page
/// post too).
#[derive(Debug, Default, Deserialize)]
pub struct Envelope {
    pub protocol: Option<String>,
    pub version: Option<u64>,
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub t_ms: Option<u64>,
    pub id: Option<String>,
    pub data: Option<String>,
    /// `set-learner`'s agent, as JSON text (the shell writes an object member as text and
    /// checks it names a learner before it gets here).
    pub actor: Option<String>,
    pub registration: Option<String>,
}

/// Reads an inbound message from its JSON text; `None` for anything that is not a valid
/// version-1 message of ours.
pub fn parse_inbound(text: &str) -> Option<Inbound> {
    inbound(serde_json::from_str(text).ok()?)
}

/// The inbound message an envelope holds, if it is a valid version-1 message of ours. The
/// shell fills envelopes from what the browser's own JSON parser made of the message:
/// serde's deserialisers for JS values or for JSON text link float formatting into the
/// first page (their "invalid type: floating point" messages), 17.8 KB gzip, measured.
pub fn inbound(message: Envelope) -> Option<Inbound> {
    if message.protocol.as_deref() != Some(PROTOCOL) || message.version != Some(1) {
        return None;
    }
    match message.kind?.as_str() {
        "seek" => message.t_ms.map(|t_ms| Inbound::Seek { t_ms }),
        "play" => Some(Inbound::Play),
        "pause" => Some(Inbound::Pause),
        "load-scenario" => {
            message.id.and_then(|id| ScenarioId::parse(&id)).map(|id| Inbound::LoadScenario { id })
        }
        // The text is checked where it is read (`Progress::read`), like stored progress.
        "restore-progress" => message.data.map(|data| Inbound::RestoreProgress { data }),
        "set-learner" => {
            let registration = message.registration.filter(|r| crate::xapi::is_uuid(r));
            let learner = Inbound::SetLearner { actor: message.actor, registration };
            match learner {
                Inbound::SetLearner { actor: None, registration: None } => None,
                learner => Some(learner),
            }
        }
        _ => None,
    }
}

/// What a parent running H5P's resizer (`h5p-resizer.js`) says to its frames.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum H5p {
    /// The answer to our `hello`: the parent will size this frame.
    Hello,
    /// The parent set the frame to our client height; now send the scroll height.
    ResizePrepared,
    /// The parent's window changed size: measure again.
    Resize,
}

/// Reads `{"context": "h5p", "action": ...}`; `None` for anything else.
pub fn parse_h5p(text: &str) -> Option<H5p> {
    h5p(serde_json::from_str(text).ok()?)
}

/// What an H5P resizer's message says (`context` and `action`; the rest is ignored).
#[derive(Debug, Default, Deserialize)]
pub struct H5pMessage {
    pub context: Option<String>,
    pub action: Option<String>,
}

/// The H5P message a parsed object holds, if any.
pub fn h5p(message: H5pMessage) -> Option<H5p> {
    if message.context.as_deref() != Some("h5p") {
        return None;
    }
    match message.action?.as_str() {
        "hello" => Some(H5p::Hello),
        "resizePrepared" => Some(H5p::ResizePrepared),
        "resize" => Some(H5p::Resize),
        _ => None,
    }
}

/// Who may receive a message.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum To {
    /// Only the origins listed in `origins=`.
    Listed,
    /// Any parent (`"*"`): heights only, never anything about the learner.
    Any,
}

/// How a message is posted: our protocol and Canvas read JSON text; H5P's resizer reads
/// `event.data.context`, so its messages go as objects.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Form {
    Text,
    Object,
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Post {
    pub to: To,
    pub form: Form,
    pub text: String,
}

/// The frame's height as the host should know it: our `resize` and Canvas's
/// `lti.frameResize` whenever the content height changes (never on every tick), and H5P's
/// handshake (`hello` → `hello` → `prepareResize` → `resizePrepared` → `resize`).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Sizer {
    sent_height: Option<u32>,
    /// The parent answered `hello`: it runs H5P's resizer.
    h5p: bool,
    /// When the last `hello` was answered: any parent may send one, so a flood gets at
    /// most one answer per `HELLO_EVERY_MS`.
    hello_answered_ms: Option<u64>,
}

/// The shortest time between two answers to H5P's `hello`, in ms.
pub const HELLO_EVERY_MS: u64 = 1_000;

impl Sizer {
    /// What an embed says when it starts: H5P's `hello` (the resizer's own `ready` only
    /// reaches frames whose address contains "h5p", which ours never does, so the frame
    /// speaks first and `ready` is not listened for).
    pub fn start() -> Vec<Post> {
        vec![h5p_post("hello", None, None)]
    }

    /// The content measured `scroll_height` (and the frame shows `client_height`).
    pub fn on_height(
        &mut self,
        scroll_height: u32,
        client_height: u32,
        frame: Option<&str>,
    ) -> Vec<Post> {
        if self.sent_height == Some(scroll_height) {
            return Vec::new();
        }
        self.sent_height = Some(scroll_height);
        let mut posts = vec![
            Post {
                to: To::Listed,
                form: Form::Text,
                text: Outbound::Resize { height: scroll_height }.to_json(frame),
            },
            Post {
                to: To::Any,
                form: Form::Text,
                text: text(&LtiResize { subject: "lti.frameResize", height: scroll_height }),
            },
        ];
        if self.h5p {
            posts.push(prepare_resize(scroll_height, client_height));
        }
        posts
    }

    /// The parent's H5P message, answered with the current measurements.
    /// An H5P message from the parent at `now_ms` (any clock that does not go back).
    pub fn on_h5p(
        &mut self,
        message: H5p,
        scroll_height: u32,
        client_height: u32,
        now_ms: u64,
    ) -> Vec<Post> {
        match message {
            H5p::Hello => {
                self.h5p = true;
                let recent = self
                    .hello_answered_ms
                    .is_some_and(|at| now_ms.saturating_sub(at) < HELLO_EVERY_MS);
                if recent {
                    return Vec::new();
                }
                self.hello_answered_ms = Some(now_ms);
                vec![prepare_resize(scroll_height, client_height)]
            }
            H5p::Resize if self.h5p => vec![prepare_resize(scroll_height, client_height)],
            H5p::Resize => Vec::new(),
            H5p::ResizePrepared => {
                vec![h5p_post("resize", Some(scroll_height), None)]
            }
        }
    }
}

fn prepare_resize(scroll_height: u32, client_height: u32) -> Post {
    h5p_post("prepareResize", Some(scroll_height), Some(client_height))
}

fn h5p_post(action: &'static str, scroll_height: Option<u32>, client_height: Option<u32>) -> Post {
    let message = H5pPost { context: "h5p", action, scroll_height, client_height };
    Post { to: To::Any, form: Form::Object, text: text(&message) }
}

/// Canvas's height message.
#[derive(Serialize)]
struct LtiResize {
    subject: &'static str,
    height: u32,
}

/// What the frame says to H5P's resizer.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct H5pPost {
    context: &'static str,
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    scroll_height: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_height: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::{
        Answered, Form, H5p, Inbound, Outbound, ReadyView, Sizer, To, origin_allowed, parse_h5p,
        parse_inbound,
    };

    /// Issue 29, item 8: an unknown `load-scenario` id is answered, as the README says.
    #[test]
    fn a_command_that_cannot_be_carried_out_is_answered_with_an_error() {
        let error = Outbound::Error { reason: "unknown-scenario", id: "no-such-lesson".into() };
        assert_eq!(
            error.to_json(Some("f1")),
            r#"{"protocol":"fencing-playground","version":1,"type":"error","reason":"unknown-scenario","id":"no-such-lesson","frame":"f1"}"#
        );
    }

    /// Issue 29, item 7: any parent may say `hello`; a flood of them gets one answer a
    /// second, not one each.
    #[test]
    fn a_flood_of_h5p_hellos_gets_one_answer_a_second() {
        let mut sizer = Sizer::default();
        let answers: usize =
            (0..10_000).map(|i| sizer.on_h5p(H5p::Hello, 900, 640, 5_000 + i / 10).len()).sum();
        // 10,000 hellos over 1 s (5.000 s to 5.999 s): the first is answered, then none.
        assert_eq!(answers, 1);
        assert_eq!(sizer.on_h5p(H5p::Hello, 900, 640, 6_000).len(), 1, "a second later, again");
    }

    #[test]
    fn outbound_messages_carry_protocol_version_and_frame() {
        let step = Outbound::Step {
            t_ms: 31_500,
            cursor: 4,
            event: Some(("granted".into(), "B".into(), 31_000)),
            milestone: true,
        };
        assert_eq!(
            step.to_json(None),
            r#"{"protocol":"fencing-playground","version":1,"type":"step","t_ms":31500,"cursor":4,"event":{"kind":"granted","actor":"B","at_ms":31000},"milestone":true}"#
        );
        let answered = Outbound::QuizAnswered(Answered {
            question: "q1".into(),
            correct: true,
            choice: 2,
            attempt: 1,
            first_try: true,
            answered: 3,
            correct_count: 2,
            practice_count: 1,
            total: 30,
            latency_ms: 5_250,
        });
        assert_eq!(
            answered.to_json(Some("left")),
            r#"{"protocol":"fencing-playground","version":1,"type":"quiz-answered","question":"q1","correct":true,"choice":2,"attempt":1,"first_try":true,"answered":3,"correct_count":2,"practice_count":1,"total":30,"latency_ms":5250,"frame":"left"}"#
        );
        let ready = Outbound::Ready { view: ReadyView::Quiz { total: 30 } }.to_json(None);
        assert!(ready.ends_with(r#""type":"ready","view":"quiz","total":30}"#), "{ready}");
        let done = Outbound::QuizCompleted { score: 24, total: 30, passed: true }.to_json(None);
        assert!(done.ends_with(r#""type":"quiz-completed","score":24,"total":30,"passed":true}"#));
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
            Some(Inbound::LoadScenario {
                id: crate::sim::scenario::ScenarioId::literal("clock-jump")
            })
        );
        assert_eq!(
            parse_inbound(&msg(r#""type":"restore-progress","data":"{}""#)),
            Some(Inbound::RestoreProgress { data: "{}".into() })
        );
        let registration = "ec531277-b57b-4c15-8d91-d292c5b2b8f7";
        assert_eq!(
            parse_inbound(&msg(&format!(
                r#""type":"set-learner","registration":"{registration}""#
            ))),
            Some(Inbound::SetLearner { actor: None, registration: Some(registration.into()) })
        );
        for bad in [
            msg(r#""type":"set-learner""#),
            msg(r#""type":"set-learner","registration":"not-a-uuid""#),
            msg(r#""type":"seek","t_ms":-1"#),
            msg(r#""type":"load-scenario","id":"../../etc""#),
            msg(r#""type":"restore-progress","data":{}"#),
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

    #[test]
    fn heights_are_sent_when_they_change_and_h5p_gets_its_handshake() {
        let mut sizer = Sizer::default();
        let texts = |posts: Vec<super::Post>| -> Vec<(To, Form, String)> {
            posts.into_iter().map(|p| (p.to, p.form, p.text)).collect()
        };
        assert_eq!(
            texts(Sizer::start()),
            [(To::Any, Form::Object, r#"{"context":"h5p","action":"hello"}"#.to_owned())]
        );
        let first = texts(sizer.on_height(900, 640, Some("a")));
        assert_eq!(first.len(), 2, "ours and Canvas's, no H5P before its hello: {first:?}");
        assert_eq!(first[0].0, To::Listed);
        assert!(first[0].2.contains(r#""type":"resize","height":900,"frame":"a""#));
        assert_eq!(
            first[1],
            (To::Any, Form::Text, r#"{"subject":"lti.frameResize","height":900}"#.to_owned())
        );
        assert!(sizer.on_height(900, 640, Some("a")).is_empty(), "same height, nothing sent");
        // An H5P parent answers hello; from then on every change starts its handshake.
        assert_eq!(
            texts(sizer.on_h5p(H5p::Hello, 900, 640, 5_000)),
            [(To::Any, Form::Object, r#"{"context":"h5p","action":"prepareResize","scrollHeight":900,"clientHeight":640}"#.to_owned())]
        );
        assert_eq!(
            texts(sizer.on_h5p(H5p::ResizePrepared, 900, 900, 5_000)),
            [(
                To::Any,
                Form::Object,
                r#"{"context":"h5p","action":"resize","scrollHeight":900}"#.to_owned()
            )]
        );
        let grown = texts(sizer.on_height(1200, 900, None));
        assert_eq!(grown.len(), 3);
        assert!(grown[2].2.contains(r#""action":"prepareResize","scrollHeight":1200"#));
        assert_eq!(
            parse_h5p(r#"{"context":"h5p","action":"resizePrepared"}"#),
            Some(H5p::ResizePrepared)
        );
        assert_eq!(parse_h5p(r#"{"context":"other","action":"hello"}"#), None);
        assert_eq!(parse_h5p(r#"{"context":"h5p","action":"xAPI"}"#), None);
    }
}
