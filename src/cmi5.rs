//! The cmi5 side of a course package: what an assignable unit (AU) reads from its launch
//! address, what it asks the LMS's LRS, and which statements it sends in which order
//! (cmi5's "defined statements": `initialized` first, `completed` and `passed`/`failed` at
//! most once each, `terminated` last, each with the LMS's context template).
//!
//! Pure: the shell makes the requests this describes and hands back what came; times,
//! statement ids and the session's length are arguments. It never reads a clock or the
//! network.

use serde_json::{Map, Value, json};

use crate::route::percent_decode;

/// What the LMS put in the AU's launch address.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Launch {
    /// The LRS's xAPI endpoint, ending in `/`.
    pub endpoint: String,
    /// Where the AU fetches its authorization token, once.
    pub fetch: String,
    /// The learner, as an xAPI agent (compact JSON).
    pub actor: String,
    pub registration: String,
    /// The AU's activity id: the object of every defined statement.
    pub activity_id: String,
}

/// How the LMS launched the AU (`LMS.LaunchData`'s `launchMode`): only `Normal` may
/// complete, pass or fail it.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Mode {
    #[default]
    Normal,
    Browse,
    Review,
}

/// What the LMS says in the `LMS.LaunchData` state document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LaunchData {
    /// Merged into every statement's `context` (it carries the session id).
    pub context_template: Map<String, Value>,
    pub mode: Mode,
    /// The pass mark as a scaled score (0 to 1), which wins over the package's.
    pub mastery_score: Option<f64>,
    /// Where the learner goes on leaving the AU.
    pub return_url: Option<String>,
}

/// One HTTP request the shell makes for the AU.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Request {
    pub method: &'static str,
    pub url: String,
    /// The statement or nothing.
    pub body: Option<String>,
}

/// Who and when, for one statement: the shell's random id and its clock.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Stamp {
    pub id: String,
    pub timestamp: String,
}

/// The defined statements sent so far, in cmi5's order.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq, PartialOrd, Ord)]
pub enum Phase {
    /// Nothing sent: the AU has not yet read its launch data.
    #[default]
    Launched,
    Initialized,
    /// `terminated` was sent: nothing more may be.
    Terminated,
}

/// The verbs of cmi5's defined statements.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Defined {
    Initialized,
    Completed,
    Passed,
    Failed,
    Terminated,
}

/// One AU's session with the LMS's LRS.
#[derive(Clone, Debug, PartialEq)]
pub struct Au {
    pub launch: Launch,
    pub data: LaunchData,
    pub phase: Phase,
    /// The package's pass mark in percent (the LMS's `masteryScore` wins).
    mastery_pct: u8,
    completed: bool,
    graded: bool,
}

const CATEGORY_CMI5: &str = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
const CATEGORY_MOVEON: &str = "https://w3id.org/xapi/cmi5/context/categories/moveon";
const EXTENSION_MASTERY: &str = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
const STATE_ID: &str = "LMS.LaunchData";

impl Launch {
    /// Reads the launch address's query (`endpoint`, `fetch`, `actor`, `registration`,
    /// `activityId`, percent-encoded); what is missing or malformed is named.
    pub fn parse(query: &str) -> Result<Launch, String> {
        let mut found: [Option<String>; 5] = Default::default();
        const NAMES: [&str; 5] = ["endpoint", "fetch", "actor", "registration", "activityId"];
        for pair in query.trim_start_matches('?').split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            if let Some(i) = NAMES.iter().position(|n| *n == name) {
                let decoded = percent_decode(&value.replace('+', " ")).ok_or_else(|| {
                    format!("the launch address's {name} is not percent-encoded text")
                })?;
                found[i] = Some(decoded);
            }
        }
        let [endpoint, fetch, actor, registration, activity_id] = found;
        let missing = |name: &str| {
            format!("the launch address has no {name} (was the AU launched by a cmi5 LMS?)")
        };
        let endpoint = endpoint.ok_or_else(|| missing("endpoint"))?;
        let absolute = |url: &str| url.starts_with("https://") || url.starts_with("http://");
        if !absolute(&endpoint) {
            return Err(format!(
                "the launch address's endpoint {endpoint} is not an http(s) address"
            ));
        }
        let fetch = fetch.ok_or_else(|| missing("fetch"))?;
        if !absolute(&fetch) {
            return Err(format!("the launch address's fetch {fetch} is not an http(s) address"));
        }
        let actor = actor.ok_or_else(|| missing("actor"))?;
        let actor = crate::xapi::parse_actor(&actor)
            .ok_or_else(|| "the launch address's actor is not an xAPI agent".to_owned())?;
        let registration = registration.ok_or_else(|| missing("registration"))?;
        if !crate::xapi::is_uuid(&registration) {
            return Err(format!("the launch address's registration {registration} is not a UUID"));
        }
        let activity_id = activity_id.ok_or_else(|| missing("activityId"))?;
        let endpoint = if endpoint.ends_with('/') { endpoint } else { format!("{endpoint}/") };
        Ok(Launch { endpoint, fetch, actor, registration, activity_id })
    }
}

impl LaunchData {
    /// Reads the `LMS.LaunchData` document; anything but a JSON object with a
    /// `contextTemplate` object is refused (the AU then cannot report, and says so).
    pub fn read(text: &str) -> Result<LaunchData, String> {
        let Ok(Value::Object(doc)) = serde_json::from_str::<Value>(text) else {
            return Err("the LMS's launch data is not a JSON object".to_owned());
        };
        let Some(Value::Object(context_template)) = doc.get("contextTemplate").cloned() else {
            return Err("the LMS's launch data has no contextTemplate".to_owned());
        };
        let mode = match doc.get("launchMode").and_then(Value::as_str) {
            Some("Browse") => Mode::Browse,
            Some("Review") => Mode::Review,
            _ => Mode::Normal,
        };
        let mastery_score =
            doc.get("masteryScore").and_then(Value::as_f64).filter(|s| (0.0..=1.0).contains(s));
        let return_url = doc.get("returnURL").and_then(Value::as_str).map(str::to_owned);
        Ok(LaunchData { context_template, mode, mastery_score, return_url })
    }
}

impl Au {
    pub fn new(launch: Launch, mastery_pct: u8) -> Au {
        Au {
            launch,
            data: LaunchData::default(),
            phase: Phase::Launched,
            mastery_pct,
            completed: false,
            graded: false,
        }
    }

    /// The token request: a POST to `fetch`, once per launch.
    pub fn token_request(&self) -> Request {
        Request { method: "POST", url: self.launch.fetch.clone(), body: None }
    }

    /// The token in the fetch URL's answer (`{"auth-token": "..."}`), or why there is none.
    pub fn read_token(text: &str) -> Result<String, String> {
        let value: Value = serde_json::from_str(text)
            .map_err(|_| "the LMS's token answer is not JSON".to_owned())?;
        if let Some(token) = value.get("auth-token").and_then(Value::as_str) {
            return Ok(token.to_owned());
        }
        let why = value.get("error-text").and_then(Value::as_str).unwrap_or("no auth-token");
        Err(format!("the LMS gave no token: {why}"))
    }

    /// The request for the `LMS.LaunchData` state document.
    pub fn launch_data_request(&self) -> Request {
        let l = &self.launch;
        let q = crate::route::percent_encode;
        let url = format!(
            "{}activities/state?stateId={STATE_ID}&activityId={}&agent={}&registration={}",
            l.endpoint,
            q(&l.activity_id),
            q(&l.actor),
            q(&l.registration)
        );
        Request { method: "GET", url, body: None }
    }

    /// The launch data arrived: the AU may now say `initialized`.
    pub fn on_launch_data(&mut self, data: LaunchData, stamp: &Stamp) -> Vec<Request> {
        self.data = data;
        self.send(Defined::Initialized, stamp, None, 0)
    }

    /// The learner has seen everything the AU asks of them: `completed` (once, and only
    /// in Normal mode).
    pub fn complete(&mut self, stamp: &Stamp, session_ms: u64) -> Vec<Request> {
        if self.completed {
            return Vec::new();
        }
        let sent = self.send(Defined::Completed, stamp, None, session_ms);
        self.completed |= !sent.is_empty();
        sent
    }

    /// The quiz is graded: `passed` or `failed` against the LMS's mastery score (or the
    /// package's), once, and only in Normal mode.
    pub fn grade(
        &mut self,
        stamp: &Stamp,
        score: usize,
        total: usize,
        session_ms: u64,
    ) -> Vec<Request> {
        if self.graded || total == 0 {
            return Vec::new();
        }
        let passed = match self.data.mastery_score {
            // Scaled, compared as the LMS does: score / total >= masteryScore.
            Some(mastery) => score as f64 >= mastery * total as f64 - 1e-9,
            None => crate::progress::passed(score, total, self.mastery_pct),
        };
        let verb = if passed { Defined::Passed } else { Defined::Failed };
        let sent = self.send(verb, stamp, Some((score, total)), session_ms);
        self.graded |= !sent.is_empty();
        sent
    }

    /// The learner leaves: `terminated`, the last statement.
    pub fn terminate(&mut self, stamp: &Stamp, session_ms: u64) -> Vec<Request> {
        self.send(Defined::Terminated, stamp, None, session_ms)
    }

    /// One of the playground's own statements (an answer), addressed as the LMS launched
    /// the AU: its actor, the registration and the context template, without cmi5's
    /// category (it is not a defined statement). Nothing before `initialized` or after
    /// `terminated`, and none with a defined statement's verb.
    pub fn other(&self, statement: &str) -> Vec<Request> {
        if self.phase != Phase::Initialized {
            return Vec::new();
        }
        let Ok(Value::Object(mut statement)) = serde_json::from_str::<Value>(statement) else {
            return Vec::new();
        };
        // The quiz's own completed, passed or failed would say again, about another object,
        // what the defined statements say: an LMS reads only those, so they are not sent.
        let verb = statement.get("verb").and_then(|v| v.get("id")).and_then(Value::as_str);
        let defined = ["initialized", "completed", "passed", "failed", "terminated"];
        if verb.is_some_and(|id| {
            defined.iter().any(|d| id == format!("http://adlnet.gov/expapi/verbs/{d}"))
        }) {
            return Vec::new();
        }
        if let Ok(actor) = serde_json::from_str::<Value>(&self.launch.actor) {
            statement.insert("actor".to_owned(), actor);
        }
        let context = statement.remove("context").and_then(|c| match c {
            Value::Object(c) => Some(c),
            _ => None,
        });
        let context = self.context(context.unwrap_or_default(), &[]);
        statement.insert("context".to_owned(), Value::Object(context));
        vec![self.post(Value::Object(statement))]
    }

    /// A defined statement, if cmi5's order and the launch mode allow it now.
    fn send(
        &mut self,
        verb: Defined,
        stamp: &Stamp,
        score: Option<(usize, usize)>,
        session_ms: u64,
    ) -> Vec<Request> {
        let allowed = match verb {
            Defined::Initialized => self.phase == Phase::Launched,
            Defined::Terminated => self.phase == Phase::Initialized,
            _ => self.phase == Phase::Initialized && self.data.mode == Mode::Normal,
        };
        if !allowed {
            return Vec::new();
        }
        self.phase = match verb {
            Defined::Initialized => Phase::Initialized,
            Defined::Terminated => Phase::Terminated,
            _ => self.phase,
        };
        let word = match verb {
            Defined::Initialized => "initialized",
            Defined::Completed => "completed",
            Defined::Passed => "passed",
            Defined::Failed => "failed",
            Defined::Terminated => "terminated",
        };
        let mut result = Map::new();
        match verb {
            Defined::Initialized => {}
            Defined::Completed => {
                result.insert("completion".to_owned(), json!(true));
            }
            Defined::Passed | Defined::Failed => {
                if let Some((raw, max)) = score {
                    let scaled = (raw as f64 / max as f64 * 10_000.0).round() / 10_000.0;
                    result.insert(
                        "score".to_owned(),
                        json!({"scaled": scaled, "raw": raw, "min": 0, "max": max}),
                    );
                }
                result.insert("success".to_owned(), json!(verb == Defined::Passed));
            }
            Defined::Terminated => {}
        }
        if verb != Defined::Initialized {
            result.insert("duration".to_owned(), json!(crate::xapi::iso_duration(session_ms)));
        }
        let moveon = matches!(verb, Defined::Completed | Defined::Passed | Defined::Failed);
        let categories: &[&str] =
            if moveon { &[CATEGORY_CMI5, CATEGORY_MOVEON] } else { &[CATEGORY_CMI5] };
        let mut context = self.context(Map::new(), categories);
        if matches!(verb, Defined::Passed | Defined::Failed)
            && let Some(mastery) = self.data.mastery_score
            && let Some(Value::Object(extensions)) = context.get_mut("extensions")
        {
            extensions.insert(EXTENSION_MASTERY.to_owned(), json!(mastery));
        }
        let mut statement = json!({
            "id": stamp.id,
            "timestamp": stamp.timestamp,
            "actor": serde_json::from_str::<Value>(&self.launch.actor).unwrap_or(Value::Null),
            "verb": {"id": format!("http://adlnet.gov/expapi/verbs/{word}"), "display": {"en-US": word}},
            "object": {"objectType": "Activity", "id": self.launch.activity_id},
            "context": context,
        });
        if !result.is_empty()
            && let Some(members) = statement.as_object_mut()
        {
            members.insert("result".to_owned(), Value::Object(result));
        }
        vec![self.post(statement)]
    }

    /// A statement's context: `own` (the playground's: its language and parent) merged
    /// with the LMS's template, the registration, and `categories` added.
    fn context(&self, mut own: Map<String, Value>, categories: &[&str]) -> Map<String, Value> {
        for (key, value) in &self.data.context_template {
            match (own.get_mut(key), value) {
                (Some(Value::Object(ours)), Value::Object(theirs)) => {
                    for (k, v) in theirs {
                        ours.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                (Some(_), _) => {}
                (None, value) => {
                    own.insert(key.clone(), value.clone());
                }
            }
        }
        own.insert("registration".to_owned(), json!(self.launch.registration));
        if !categories.is_empty() {
            let activities = own
                .entry("contextActivities".to_owned())
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(activities) = activities {
                let list = activities.entry("category".to_owned()).or_insert_with(|| json!([]));
                if let Value::Array(list) = list {
                    for id in categories {
                        list.push(json!({"id": id, "objectType": "Activity"}));
                    }
                }
            }
        }
        own.entry("extensions".to_owned()).or_insert_with(|| Value::Object(Map::new()));
        own
    }

    fn post(&self, statement: Value) -> Request {
        Request {
            method: "POST",
            url: format!("{}statements", self.launch.endpoint),
            body: Some(statement.to_string()),
        }
    }
}

#[cfg(test)]
mod tests;
