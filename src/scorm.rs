//! The SCORM run-time side of a course package: what a SCO tells the LMS, in which data
//! model (SCORM 1.2 or 2004, never mixing their element names), and when.
//!
//! Owns the SCO's configuration (read from the launch page's `<meta name="fencing-sco">`,
//! written by `scripts/package`), the learner's state kept in `suspend_data`, and the calls
//! that follow from each thing the learner does. Pure: it never finds or calls the LMS's API
//! (the shell does, with the calls this returns) and never reads a clock (times are
//! arguments).

use crate::lang::Lang;
use crate::sim::sorted::SortedSet;

use crate::progress::Progress;
use serde_json::Value;

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Version {
    /// `window.API`, `cmi.core.*`.
    V12,
    /// `window.API_1484_11`, `cmi.*`.
    V2004,
}

/// What one SCO of the package is.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Sco {
    /// The quiz, with the questions chosen at packaging time; its score is the grade.
    Quiz { questions: Vec<String>, mastery_pct: u8 },
    /// One chapter of scenarios: completed when the learner has reached the end of each
    /// (which takes answering its prediction prompts).
    Chapter { number: usize, title: String, scenarios: Vec<String> },
    /// The challenges: completed when the learner has solved each; its score is how near
    /// par the best solutions came (the mean of par / spent), so it passes at any
    /// solution unless the LMS sets a pass mark.
    Challenges { ids: Vec<String> },
}

#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Config {
    pub version: Version,
    pub sco: Sco,
    /// The module's language (`scripts/package --lang`), when it is not English; the
    /// learner's LMS preference wins over it.
    pub lang: Option<Lang>,
}

/// One call on the LMS's API.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Call {
    Set(&'static str, String),
    /// `cmi.interactions.<n>.<field>`: one answer, journaled.
    Interaction {
        n: usize,
        field: &'static str,
        value: String,
    },
    Commit,
    /// `LMSFinish` (1.2) or `Terminate` (2004).
    Finish,
}

/// The data model's element names and limits, per version.
struct Model {
    status: &'static str,
    location: &'static str,
    location_max: usize,
    suspend_max: usize,
    score_raw: &'static str,
    score_min: &'static str,
    score_max: &'static str,
    session_time: &'static str,
    exit: &'static str,
}

const V12: Model = Model {
    status: "cmi.core.lesson_status",
    location: "cmi.core.lesson_location",
    location_max: 255,
    suspend_max: 4_096,
    score_raw: "cmi.core.score.raw",
    score_min: "cmi.core.score.min",
    score_max: "cmi.core.score.max",
    session_time: "cmi.core.session_time",
    exit: "cmi.core.exit",
};

const V2004: Model = Model {
    status: "cmi.completion_status",
    location: "cmi.location",
    location_max: 1_000,
    suspend_max: 64_000,
    score_raw: "cmi.score.raw",
    score_min: "cmi.score.min",
    score_max: "cmi.score.max",
    session_time: "cmi.session_time",
    exit: "cmi.exit",
};

impl Version {
    fn model(self) -> &'static Model {
        match self {
            Version::V12 => &V12,
            Version::V2004 => &V2004,
        }
    }

    /// The global the API object lives under.
    pub fn api_name(self) -> &'static str {
        match self {
            Version::V12 => "API",
            Version::V2004 => "API_1484_11",
        }
    }

    /// The API's method names: initialize, get, set, commit, finish.
    pub fn methods(self) -> [&'static str; 5] {
        match self {
            Version::V12 => {
                ["LMSInitialize", "LMSGetValue", "LMSSetValue", "LMSCommit", "LMSFinish"]
            }
            Version::V2004 => ["Initialize", "GetValue", "SetValue", "Commit", "Terminate"],
        }
    }

    /// The elements read at start: status, suspend_data, location, the pass mark, how many
    /// interactions the attempt has journaled, and the learner's language.
    pub fn reads(self) -> [&'static str; 6] {
        let m = self.model();
        let (mastery, language) = match self {
            Version::V12 => ("cmi.student_data.mastery_score", "cmi.student_preference.language"),
            Version::V2004 => ("cmi.scaled_passing_score", "cmi.learner_preference.language"),
        };
        [m.status, "cmi.suspend_data", m.location, mastery, "cmi.interactions._count", language]
    }
}

impl Sco {
    /// The unit's start: the quiz, or the chapter's list of scenarios.
    pub fn start(&self) -> &'static str {
        match self {
            Sco::Quiz { .. } => "#/quiz",
            Sco::Chapter { .. } => "#/",
            Sco::Challenges { .. } => "#/challenge",
        }
    }
}

impl Config {
    /// Reads the launch page's `<meta name="fencing-sco" content="...">`:
    /// `scorm=1.2;quiz;mastery=80;questions=a,b` or
    /// `scorm=2004;chapter=1;title=The problem;scenarios=a,b` or
    /// `scorm=2004;challenges=a,b` (all of them when none are named), any with `;lang=vi`.
    pub fn parse(text: &str) -> Result<Config, String> {
        let (mut version, mut lang) = (None, None);
        let (mut quiz, mut chapter, mut title) = (false, None, String::new());
        let mut challenges: Option<Vec<String>> = None;
        let (mut mastery_pct, mut list) = (crate::progress::MASTERY_PCT, Vec::new());
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            match name {
                "scorm" => {
                    version = Some(match value {
                        "1.2" => Version::V12,
                        "2004" => Version::V2004,
                        other => return Err(format!("scorm={other} is not 1.2 or 2004")),
                    })
                }
                "quiz" => quiz = true,
                "chapter" => {
                    chapter = Some(
                        value
                            .parse::<usize>()
                            .map_err(|_| format!("chapter={value} is not a number"))?,
                    )
                }
                "title" => title = value.to_owned(),
                "challenges" => {
                    challenges = Some(
                        value.split(',').filter(|c| !c.is_empty()).map(str::to_owned).collect(),
                    )
                }
                "lang" => {
                    lang = Some(
                        Lang::from_code(value)
                            .ok_or_else(|| format!("lang={value} is not en, id or vi"))?,
                    )
                }
                "mastery" => {
                    mastery_pct = value
                        .parse::<u8>()
                        .ok()
                        .filter(|p| *p <= 100)
                        .ok_or_else(|| format!("mastery={value} is not a percentage"))?
                }
                "questions" | "scenarios" => list = value.split(',').map(str::to_owned).collect(),
                other => return Err(format!("{other} is not a setting of a SCO")),
            }
        }
        let version = version.ok_or("the SCO names no SCORM version")?;
        let sco = match (quiz, chapter, challenges) {
            (false, None, Some(ids)) => {
                let ids: Vec<String> = match ids.is_empty() {
                    true => {
                        crate::challenge::INDEX.iter().map(|(id, ..)| (*id).to_owned()).collect()
                    }
                    false => ids,
                };
                if let Some(unknown) = ids.iter().find(|id| crate::challenge::file(id).is_none()) {
                    return Err(format!("{unknown} is not a challenge"));
                }
                Sco::Challenges { ids }
            }
            (true, None, None) => {
                let bank = crate::quiz::bank();
                let questions = match list.is_empty() {
                    true => bank.iter().map(|q| q.id.clone()).collect(),
                    false => list,
                };
                if let Some(unknown) = questions.iter().find(|q| !bank.iter().any(|b| &b.id == *q))
                {
                    return Err(format!("{unknown} is not a quiz question"));
                }
                Sco::Quiz { questions, mastery_pct }
            }
            (false, Some(number), None) => {
                if list.is_empty() {
                    return Err("the chapter lists no scenarios".to_owned());
                }
                if let Some(unknown) = list.iter().find(|id| !crate::catalogue::is_builtin(id)) {
                    return Err(format!("{unknown} is not a built-in scenario"));
                }
                Sco::Chapter { number, title, scenarios: list }
            }
            _ => return Err("a SCO is the quiz, one chapter or the challenges".to_owned()),
        };
        Ok(Config { version, sco, lang })
    }
}

/// The learner's state in this SCO, kept in `suspend_data` so an LMS resumes it.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Suspended {
    pub quiz: Progress,
    /// Scenarios whose end the learner reached.
    pub done: SortedSet<String>,
    /// Challenges solved, each with its best score `(par, spent)`.
    pub solved: std::collections::BTreeMap<String, (u32, u32)>,
}

impl Suspended {
    /// `{"q": <quiz progress>, "d": [ids]}`, with `"c": {"<id>": [par, spent]}` once a
    /// challenge is solved.
    pub fn to_text(&self) -> String {
        let done: Vec<&String> = self.done.iter().collect();
        let mut value = serde_json::json!({"q": self.quiz.to_value(), "d": done});
        if !self.solved.is_empty()
            && let Value::Object(members) = &mut value
        {
            members.insert("c".to_owned(), serde_json::json!(self.solved));
        }
        value.to_string()
    }

    /// What an LMS gave back; anything unreadable starts afresh (never a panic).
    pub fn read(text: &str) -> Suspended {
        let Ok(Value::Object(members)) = serde_json::from_str::<Value>(text) else {
            return Suspended::default();
        };
        let mut state = Suspended::default();
        if let Some(quiz) = members.get("q")
            && let crate::progress::Stored::Valid(quiz) =
                Progress::from_value(quiz.clone(), &crate::quiz::bank())
        {
            state.quiz = quiz;
        }
        if let Some(Value::Array(items)) = members.get("d") {
            state.done = items
                .iter()
                .filter_map(Value::as_str)
                .filter(|id| crate::catalogue::is_builtin(id))
                .map(str::to_owned)
                .collect();
        }
        if let Some(Value::Object(solved)) = members.get("c") {
            let number = |v: Option<&Value>| v?.as_u64().and_then(|n| u32::try_from(n).ok());
            for (id, score) in solved {
                let Value::Array(pair) = score else { continue };
                if let (Some(par), Some(spent)) = (number(pair.first()), number(pair.get(1)))
                    && crate::challenge::file(id).is_some()
                    && state.solved.len() < crate::challenge::INDEX.len()
                {
                    state.solved.insert(id.clone(), (par, spent.max(par)));
                }
            }
        }
        state
    }
}

/// One SCO's session with the LMS.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Session {
    pub config: Config,
    pub state: Suspended,
    /// The view to reopen (from the LMS's location), if it gave one.
    pub resume_at: Option<String>,
    /// The language the LMS keeps for the learner, when it is one of the playground's
    /// (`vi`, `id-ID`, `en`); the SCO opens in it unless the learner chose another.
    pub language: Option<Lang>,
    mastery_pct: u8,
    finished: bool,
    /// Interactions journaled so far in this attempt (the next one's index).
    interactions: usize,
    /// The quiz's address as the learner last saw it (`#/quiz?q=3`): where "back" returns
    /// from a scenario its "Show me" opened.
    last_quiz: Option<String>,
}

impl Session {
    /// The session after `Initialize`, given what the LMS answered for
    /// [`Version::reads`] (in that order), and the calls that open it.
    pub fn start(config: Config, read: [String; 6]) -> (Session, Vec<Call>) {
        let [status, suspend, location, mastery, count, language] = read;
        let version = config.version;
        // The LMS's pass mark, when it has one, wins over the package's.
        let package_mastery = match &config.sco {
            Sco::Quiz { mastery_pct, .. } => *mastery_pct,
            Sco::Chapter { .. } => 100,
            Sco::Challenges { .. } => 0,
        };
        let mastery_pct = match version {
            Version::V12 => mastery.trim().parse::<u8>().ok().filter(|p| *p <= 100),
            Version::V2004 => scaled_to_pct(&mastery),
        }
        .unwrap_or(package_mastery);
        let state = Suspended::read(&suspend);
        let resume_at = Some(location).filter(|l| l.starts_with("#/"));
        let interactions = count.trim().parse().unwrap_or(0);
        let last_quiz = resume_at.clone().filter(|l| is_quiz(l));
        let primary = language.trim().split(['-', '_']).next().unwrap_or_default();
        let language = Lang::from_code(&primary.to_ascii_lowercase());
        let mut session = Session {
            config,
            state,
            resume_at,
            language,
            mastery_pct,
            finished: false,
            interactions,
            last_quiz,
        };
        let mut calls = Vec::new();
        let fresh = matches!(status.as_str(), "" | "not attempted" | "unknown");
        if fresh {
            calls.push(Call::Set(version.model().status, "incomplete".to_owned()));
        }
        // A resumed SCO that was already finished reports nothing new until it changes.
        session.finished = !fresh && session.is_done();
        calls.push(Call::Commit);
        (session, calls)
    }

    /// The learner's quiz progress changed.
    pub fn on_quiz(&mut self, progress: Progress) -> Vec<Call> {
        self.state.quiz = progress;
        self.report()
    }

    /// The learner answered a question (a quiz question, or a prediction prompt): journaled
    /// as a choice interaction with the options' ids, the right one, the time and the
    /// latency (and, in 2004, the question's text), so the LMS's report has every answer.
    pub fn on_answer(&mut self, answer: &Journal) -> Vec<Call> {
        self.interaction(Entry {
            id: answer.question,
            kind: "choice",
            description: answer.description,
            pattern: Some(crate::xapi::option_id(answer.answer)),
            response: crate::xapi::option_id(answer.choice),
            correct: answer.choice == answer.answer,
            at: answer.at,
            latency_ms: answer.latency_ms,
        })
    }

    /// The learner's attempt at a challenge was graded: journaled as a `performance`
    /// interaction whose response is the design (`option[.]true[,]...`), correct when it
    /// solved the challenge.
    pub fn on_attempt(&mut self, attempt: &Performance) -> Vec<Call> {
        let mut calls = self.interaction(Entry {
            id: &format!("challenge-{}", attempt.challenge),
            kind: "performance",
            description: attempt.description,
            pattern: None,
            response: clip(attempt.response, RESPONSE_MAX),
            correct: attempt.solved,
            at: attempt.at,
            latency_ms: attempt.latency_ms,
        });
        if let Some((par, spent)) = attempt.score.filter(|_| attempt.solved) {
            let kept = self.state.solved.get(attempt.challenge).copied();
            if kept.is_none_or(|kept| crate::challenge::better((par, spent), kept)) {
                self.state.solved.insert(attempt.challenge.to_owned(), (par, spent.max(par)));
                calls.extend(self.report());
            }
        }
        calls
    }

    /// Journals one interaction: its id and type, the time (1.2: the time of day only),
    /// the description (2004), the right response when there is one, the learner's, the
    /// result and the latency.
    fn interaction(&mut self, entry: Entry<'_>) -> Vec<Call> {
        let n = self.interactions;
        self.interactions += 1;
        let version = self.config.version;
        let (response, result) = match (version, entry.correct) {
            (Version::V12, true) => ("student_response", "correct"),
            (Version::V12, false) => ("student_response", "wrong"),
            (Version::V2004, true) => ("learner_response", "correct"),
            (Version::V2004, false) => ("learner_response", "incorrect"),
        };
        let field = |field: &'static str, value: String| Call::Interaction { n, field, value };
        let mut calls =
            vec![field("id", entry.id.to_owned()), field("type", entry.kind.to_owned())];
        match (version, clock(entry.at)) {
            (Version::V12, Some((_, time))) => calls.push(field("time", time.to_owned())),
            (Version::V2004, Some((date, time))) => {
                calls.push(field("timestamp", format!("{date}T{time}Z")));
            }
            (_, None) => {}
        }
        if version == Version::V2004 {
            calls.push(field("description", clip(entry.description, DESCRIPTION_MAX)));
        }
        if let Some(pattern) = entry.pattern {
            calls.push(field("correct_responses.0.pattern", pattern));
        }
        calls.extend([
            field(response, entry.response),
            field("result", result.to_owned()),
            field(
                "latency",
                match version {
                    Version::V12 => cmi_timespan(entry.latency_ms),
                    Version::V2004 => timeinterval(entry.latency_ms),
                },
            ),
            Call::Commit,
        ]);
        calls
    }

    /// The learner reached the end of scenario `id`.
    pub fn on_scenario_done(&mut self, id: &str) -> Vec<Call> {
        if !self.state.done.insert(id.to_owned()) {
            return Vec::new();
        }
        self.report()
    }

    /// The learner moved to another view (`#/...`): where to resume.
    pub fn on_location(&mut self, hash: &str) -> Vec<Call> {
        let model = self.config.version.model();
        if hash.len() > model.location_max || !hash.starts_with("#/") {
            return Vec::new();
        }
        if is_quiz(hash) {
            self.last_quiz = Some(hash.to_owned());
        }
        vec![Call::Set(model.location, hash.to_owned())]
    }

    /// The SCO's start: the quiz, or the chapter's list of scenarios.
    pub fn start_view(&self) -> &'static str {
        self.config.sco.start()
    }

    /// The quiz's address as the learner last saw it, if they did.
    pub fn last_quiz(&self) -> Option<&str> {
        self.last_quiz.as_deref()
    }

    /// Where "back" leads from the view at `hash` (see [`back_from`]).
    pub fn back_from(&self, hash: &str) -> Option<String> {
        back_from(&self.config.sco, self.last_quiz.as_deref(), hash)
    }

    /// The page is going away after `session_ms` of this session.
    pub fn end(&mut self, session_ms: u64) -> Vec<Call> {
        let version = self.config.version;
        let model = version.model();
        let time = match version {
            Version::V12 => cmi_timespan(session_ms),
            Version::V2004 => timeinterval(session_ms),
        };
        let exit = match (self.is_done(), version) {
            (false, _) => "suspend",
            (true, Version::V12) => "",
            (true, Version::V2004) => "normal",
        };
        vec![
            Call::Set(model.session_time, time),
            Call::Set(model.exit, exit.to_owned()),
            Call::Commit,
            Call::Finish,
        ]
    }

    /// Questions of this SCO and how many the learner got right at the first try.
    pub fn score(&self) -> Option<(usize, usize)> {
        match &self.config.sco {
            Sco::Quiz { questions, .. } => {
                Some((self.state.quiz.score(questions), questions.len()))
            }
            Sco::Chapter { .. } => None,
            // Each challenge counts up to 100: par over what the best solution spent.
            Sco::Challenges { ids } => {
                let points = ids
                    .iter()
                    .filter_map(|id| self.state.solved.get(id))
                    .map(|&(par, spent)| match spent {
                        0 => 100,
                        _ => (u64::from(par) * 100 / u64::from(spent)).min(100) as usize,
                    })
                    .sum();
                Some((points, ids.len() * 100))
            }
        }
    }

    pub fn is_done(&self) -> bool {
        match &self.config.sco {
            Sco::Quiz { questions, .. } => self.state.quiz.complete(questions),
            Sco::Chapter { scenarios, .. } => {
                scenarios.iter().all(|id| self.state.done.contains(id))
            }
            Sco::Challenges { ids } => ids.iter().all(|id| self.state.solved.contains_key(id)),
        }
    }

    /// suspend_data always; score and status once the SCO is done; then a commit.
    fn report(&mut self) -> Vec<Call> {
        let version = self.config.version;
        let model = version.model();
        let mut calls = Vec::new();
        let suspend = self.state.to_text();
        if suspend.len() <= model.suspend_max {
            calls.push(Call::Set("cmi.suspend_data", suspend));
        }
        // 2004 can say how far along the learner is before the end.
        if version == Version::V2004 {
            let (done, total) = match &self.config.sco {
                Sco::Quiz { questions, .. } => (
                    questions.iter().filter(|q| self.state.quiz.answers.contains_key(*q)).count(),
                    questions.len(),
                ),
                Sco::Chapter { scenarios, .. } => (
                    scenarios.iter().filter(|id| self.state.done.contains(*id)).count(),
                    scenarios.len(),
                ),
                Sco::Challenges { ids } => {
                    (ids.iter().filter(|id| self.state.solved.contains_key(*id)).count(), ids.len())
                }
            };
            calls.push(Call::Set(
                "cmi.progress_measure",
                crate::xapi::fraction(done as u64, total as u64),
            ));
        }
        if self.is_done() && !self.finished {
            self.finished = true;
            match self.score() {
                Some((score, total)) => {
                    let pct = (score * 100 + total / 2).checked_div(total).unwrap_or(100);
                    calls.push(Call::Set(model.score_min, "0".to_owned()));
                    calls.push(Call::Set(model.score_max, "100".to_owned()));
                    calls.push(Call::Set(model.score_raw, pct.to_string()));
                    let passed = crate::progress::passed(score, total, self.mastery_pct);
                    let verdict = if passed { "passed" } else { "failed" };
                    match version {
                        Version::V12 => calls.push(Call::Set(model.status, verdict.to_owned())),
                        Version::V2004 => {
                            calls.push(Call::Set(
                                "cmi.score.scaled",
                                crate::xapi::fraction(score as u64, total as u64),
                            ));
                            calls.push(Call::Set("cmi.success_status", verdict.to_owned()));
                            calls.push(Call::Set(model.status, "completed".to_owned()));
                        }
                    }
                }
                None => calls.push(Call::Set(model.status, "completed".to_owned())),
            }
        }
        calls.push(Call::Commit);
        calls
    }
}

/// One answer as an LMS journals it.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Journal<'a> {
    /// A quiz question's id, or `<scenario>#prompt-<n>`.
    pub question: &'a str,
    /// The question as the learner read it (2004's `description`; 1.2 has none).
    pub description: &'a str,
    /// The option chosen and the right one, counted from 0 (sent as their ids).
    pub choice: usize,
    pub answer: usize,
    /// When it was answered, in ISO 8601 from the browser's clock
    /// (`2026-12-07T05:01:02.123Z`).
    pub at: &'a str,
    /// From the question shown to this answer.
    pub latency_ms: u64,
}

/// One graded attempt at a challenge as an LMS journals it.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Performance<'a> {
    pub challenge: &'a str,
    /// The challenge's title as the learner read it (2004's `description`).
    pub description: &'a str,
    /// The learner's design (`option[.]true[,]...`, or `pause[.]A@1000+30000`).
    pub response: &'a str,
    pub solved: bool,
    /// When it was graded, in ISO 8601 from the browser's clock.
    pub at: &'a str,
    /// From the last change to the design to this attempt.
    pub latency_ms: u64,
    /// A solved attempt's score, `(par, spent)`.
    pub score: Option<(u32, u32)>,
}

/// What [`Session::interaction`] journals.
struct Entry<'a> {
    id: &'a str,
    kind: &'static str,
    description: &'a str,
    pattern: Option<String>,
    response: String,
    correct: bool,
    at: &'a str,
    latency_ms: u64,
}

/// 1.2's `student_response` holds at most 255 characters (2004's far more; one bound
/// for both keeps the two packages' reports alike).
const RESPONSE_MAX: usize = 255;

/// 2004's `description` is a localized string of at most 250 characters.
const DESCRIPTION_MAX: usize = 250;

/// The first `max` characters of `text`.
fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// `2026-12-07T05:01:02.123Z` as its date and its UTC time to the hundredth of a second
/// (`05:01:02.12`), the precision both SCORM versions take; `None` when it is not that
/// shape.
fn clock(iso: &str) -> Option<(&str, &str)> {
    let (date, time) = iso.split_once('T')?;
    let shape = |text: &str, pattern: &str| {
        text.len() >= pattern.len()
            && text.bytes().zip(pattern.bytes()).all(|(b, p)| match p {
                b'9' => b.is_ascii_digit(),
                _ => b == p,
            })
    };
    let utc = time.ends_with('Z');
    (utc && date.len() == 10 && shape(date, "9999-99-99") && shape(time, "99:99:99.99"))
        .then(|| (date, &time[..11]))
}

/// Where "back" leads from the view at `hash` inside a unit of a course package (a SCO or
/// a cmi5 AU): the unit's start (for the quiz, at `last_quiz`, the question the learner
/// last saw), or nothing on the start itself. Every other view inside a unit offers it, so
/// no view (a relaunch into a scenario, a link followed) strands the learner away from
/// what the LMS grades.
pub fn back_from(sco: &Sco, last_quiz: Option<&str>, hash: &str) -> Option<String> {
    let view = hash.split('?').next().unwrap_or_default();
    let on_start = match sco {
        Sco::Quiz { .. } => is_quiz(hash),
        Sco::Chapter { .. } => matches!(view, "" | "#" | "#/"),
        Sco::Challenges { .. } => view == "#/challenge",
    };
    if on_start {
        return None;
    }
    Some(match sco {
        Sco::Quiz { .. } => last_quiz.unwrap_or(sco.start()).to_owned(),
        Sco::Chapter { .. } | Sco::Challenges { .. } => sco.start().to_owned(),
    })
}

/// Whether `hash` is the quiz's view (`#/quiz`, with or without its `?q=...`).
pub fn is_quiz(hash: &str) -> bool {
    hash.split('?').next() == Some("#/quiz")
}

/// SCORM 2004's `timeinterval (second,10,2)`: an ISO 8601 duration to the hundredth of a
/// second (`PT0.93S`; a run-time refuses `PT0.937S`).
pub fn timeinterval(ms: u64) -> String {
    crate::xapi::iso_duration(ms - ms % 10)
}

/// SCORM 1.2's `CMITimespan`: `HHHH:MM:SS.SS`.
pub fn cmi_timespan(ms: u64) -> String {
    let centis = ms / 10;
    let (h, m, s, c) = (centis / 360_000, centis / 6_000 % 60, centis / 100 % 60, centis % 100);
    format!("{:04}:{m:02}:{s:02}.{c:02}", h.min(9_999))
}

/// `0.8` (a 2004 scaled passing score) as 80 percent; `None` for anything else.
fn scaled_to_pct(text: &str) -> Option<u8> {
    let text = text.trim();
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && part.is_empty() || !digits(whole) || !digits(part) {
        return None;
    }
    let whole: u32 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let mut hundredths: u32 = 0;
    for (i, b) in part.bytes().take(2).enumerate() {
        hundredths += u32::from(b - b'0') * if i == 0 { 10 } else { 1 };
    }
    let pct = whole.checked_mul(100)?.checked_add(hundredths)?;
    u8::try_from(pct).ok().filter(|p| *p <= 100)
}

#[cfg(test)]
mod tests;
