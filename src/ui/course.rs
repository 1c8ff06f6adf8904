//! One SCO of a course package (`scripts/package`): finds the LMS's SCORM API, opens the
//! session its launch page describes (`<meta name="fencing-sco">`), reports what the
//! learner does, and ends the session when the page goes away. It hears the learner
//! through the same events an embed's host page hears (`crate::ui::embed`). The rules are
//! in `crate::scorm`; this is only the browser glue. Without an API the page runs as the
//! plain site.

use std::cell::RefCell;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::embed::Outbound;
use crate::progress::{Progress, Stored};
use crate::route::{Link, View};
use crate::scorm::{Call, Config, Journal, Performance, Sco, Session};
use crate::sim::scenario::ScenarioId;
use crate::ui::i18n::use_i18n;

struct Live {
    session: Session,
    /// The LMS's API object (`API` or `API_1484_11`), if one was found.
    api: Option<JsValue>,
    started_ms: f64,
}

thread_local! {
    static LIVE: RefCell<Option<Live>> = const { RefCell::new(None) };
}

/// Reads the launch page's configuration, opens the session, and sends the learner to
/// where they left off (or to the SCO's start).
pub(crate) fn start() {
    let Some(window) = web_sys::window() else { return };
    let content = window
        .document()
        .and_then(|d| d.query_selector("meta[name=fencing-sco]").ok().flatten())
        .and_then(|m| m.get_attribute("content"));
    // A cmi5 AU: the same unit (`cmi5;` then a SCO's settings), reported over xAPI.
    if let Some(unit) = content.as_deref().and_then(|c| c.strip_prefix("cmi5;")) {
        return start_au(unit);
    }
    let config = match content.as_deref().map(Config::parse) {
        Some(Ok(config)) => config,
        Some(Err(why)) => {
            return web_sys::console::error_1(
                &format!("this course package's SCO is misconfigured: {why}").into(),
            );
        }
        None => return,
    };
    let version = config.version;
    let api = find_api(&window, version.api_name());
    let [initialize, get, ..] = version.methods();
    let read = match &api {
        Some(api) => {
            invoke(api, initialize, &[""]);
            version.reads().map(|name| invoke(api, get, &[name]).as_string().unwrap_or_default())
        }
        None => Default::default(),
    };
    let (session, calls) = Session::start(config, read);
    set_unit(&session.config.sco);
    // The quiz starts from the LMS's copy of the learner's progress, and keeps it for this
    // page's life: a "Show me" and back finds it as it was.
    if let Sco::Quiz { questions, .. } = &session.config.sco {
        crate::ui::quiz::set_course(questions.clone(), session.state.quiz.clone());
    }
    let here = crate::ui::nav::current_hash();
    if here.is_empty() || here == "#" {
        let start = session.resume_at.clone().unwrap_or_else(|| session.start_view().to_owned());
        // The LMS's language for the learner, else the module's, unless the saved view
        // names one.
        let mut link = crate::ui::nav::parse_link(&start);
        if link.lang.is_none() {
            link.lang = session.language.or(session.config.lang);
        }
        crate::ui::nav::replace_hash(&link.to_hash());
    }
    let started_ms = js_sys::Date::now();
    LIVE.with(|l| *l.borrow_mut() = Some(Live { session, api, started_ms }));
    apply(calls);
    crate::ui::embed::set_observer(observe);
    EventListener::new(&window, "hashchange", |_| {
        let hash = crate::ui::nav::current_hash();
        with_session(|s| s.on_location(&hash));
    })
    .forget();
    // `pagehide` fires when the LMS closes the frame or the learner leaves (`unload` is
    // unreliable and disabled in some browsers).
    EventListener::new(&window, "pagehide", |_| {
        let started_ms = LIVE.with(|l| l.borrow().as_ref().map_or(0.0, |l| l.started_ms));
        let session_ms = (js_sys::Date::now() - started_ms).max(0.0) as u64;
        with_session(|s| s.end(session_ms));
    })
    .forget();
}

/// Starts a cmi5 AU: its unit's views, in the module's language, reporting through
/// `crate::ui::cmi5`.
fn start_au(unit: &str) {
    // The unit's settings are a SCO's; the SCORM version named here is never used.
    let config = match Config::parse(&format!("scorm=2004;{unit}")) {
        Ok(config) => config,
        Err(why) => {
            return web_sys::console::error_1(
                &format!("this course package's AU is misconfigured: {why}").into(),
            );
        }
    };
    set_unit(&config.sco);
    let mastery_pct = match &config.sco {
        Sco::Quiz { questions, mastery_pct } => {
            crate::ui::quiz::set_course(questions.clone(), Default::default());
            *mastery_pct
        }
        Sco::Chapter { .. } => 100,
        Sco::Challenges { .. } => 0,
    };
    let here = crate::ui::nav::current_hash();
    if here.is_empty() || here == "#" {
        let mut link = crate::ui::nav::parse_link(config.sco.start());
        link.lang = config.lang;
        crate::ui::nav::replace_hash(&link.to_hash());
    }
    crate::ui::cmi5::start(config.sco, mastery_pct);
}

/// The way on from a lesson stays inside this module: a chapter's lessons, or none from a
/// quiz's "Show me".
fn set_unit(sco: &Sco) {
    let lessons = match sco {
        Sco::Chapter { scenarios, .. } => scenarios.clone(),
        Sco::Quiz { .. } | Sco::Challenges { .. } => Vec::new(),
    };
    crate::ui::hooks::set_unit_lessons(lessons);
}

/// What the learner did, as the views report it.
fn observe(message: &Outbound) {
    match message {
        Outbound::Progress { data } => {
            if let Stored::Valid(progress) = Progress::read(Some(data), &crate::quiz::bank()) {
                with_session(|s| s.on_quiz(progress));
            }
        }
        Outbound::Completed { scenario } => with_session(|s| s.on_scenario_done(scenario)),
        Outbound::QuizAnswered(a) => {
            let Some((description, answer)) = question_of(&a.question) else { return };
            let at: String = js_sys::Date::new_0().to_iso_string().into();
            let journal = Journal {
                question: &a.question,
                description: &description,
                choice: a.choice,
                answer,
                at: &at,
                latency_ms: a.latency_ms,
            };
            with_session(|s| s.on_answer(&journal))
        }
        Outbound::ChallengeAttempted(t) => {
            let description = challenge_title(&t.challenge);
            let at: String = js_sys::Date::new_0().to_iso_string().into();
            let attempt = Performance {
                challenge: &t.challenge,
                description: &description,
                response: &t.response,
                solved: t.solved,
                at: &at,
                latency_ms: t.latency_ms,
                score: t.spent.map(|spent| (t.par, spent)),
            };
            with_session(|s| s.on_attempt(&attempt))
        }
        _ => {}
    }
}

/// The words of the learner's language (the link's, else the browser's), as far as its
/// pack is loaded.
fn messages() -> crate::i18n::Messages {
    let lang = crate::ui::embed::link().lang.unwrap_or_else(crate::ui::i18n::browser_lang);
    crate::ui::i18n::cached(lang).unwrap_or_else(crate::i18n::Messages::english)
}

/// A challenge's title as the learner reads it (its id when the index has no such one).
fn challenge_title(id: &str) -> String {
    let m = messages();
    match crate::challenge::INDEX.iter().find(|(c, ..)| *c == id) {
        Some((_, _, title, _)) => m.content(&format!("c.{id}.title"), title),
        None => id.to_owned(),
    }
}

/// A question's text as the learner reads it, and its right option: a quiz question
/// (by id) or a prediction prompt (`<scenario>#prompt-<n>`).
fn question_of(id: &str) -> Option<(String, usize)> {
    let m = messages();
    match id.split_once("#prompt-") {
        Some((scenario, n)) => {
            let n: usize = n.parse().ok()?;
            let prompt = crate::catalogue::find(scenario)?.prompts.into_iter().nth(n)?;
            let text = m.content(&format!("s.{scenario}.p.{n}.question"), &prompt.question);
            Some((text, prompt.answer))
        }
        None => {
            let q = crate::quiz::bank().into_iter().find(|q| q.id == id)?;
            Some((m.content(&format!("q.{id}.prompt"), &q.prompt), q.answer))
        }
    }
}

fn with_session(f: impl FnOnce(&mut Session) -> Vec<Call>) {
    let calls = LIVE.with(|l| l.borrow_mut().as_mut().map(|live| f(&mut live.session)));
    if let Some(calls) = calls {
        apply(calls);
    }
}

fn apply(calls: Vec<Call>) {
    let target = LIVE.with(|l| {
        l.borrow().as_ref().and_then(|l| Some((l.api.clone()?, l.session.config.version)))
    });
    let Some((api, version)) = target else { return };
    let [_, _, set, commit, finish] = version.methods();
    for call in calls {
        match call {
            Call::Set(name, value) => invoke(&api, set, &[name, &value]),
            Call::Interaction { n, field, value } => {
                invoke(&api, set, &[&format!("cmi.interactions.{n}.{field}"), &value])
            }
            Call::Commit => invoke(&api, commit, &[""]),
            Call::Finish => invoke(&api, finish, &[""]),
        };
    }
}

/// Calls `api[method](args...)`; an LMS that throws or lacks the method answers undefined.
fn invoke(api: &JsValue, method: &str, args: &[&str]) -> JsValue {
    let Ok(function) =
        js_sys::Reflect::get(api, &method.into()).and_then(|f| f.dyn_into::<js_sys::Function>())
    else {
        return JsValue::UNDEFINED;
    };
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    function.apply(api, &args).unwrap_or(JsValue::UNDEFINED)
}

/// SCORM's discovery: this window and its parents (at most 500 levels), then the opener
/// of the top window. Frames of another origin throw on access and are skipped.
fn find_api(window: &web_sys::Window, name: &str) -> Option<JsValue> {
    let found =
        |w: &JsValue| js_sys::Reflect::get(w, &name.into()).ok().filter(|api| api.is_object());
    let mut here: JsValue = window.clone().into();
    for _ in 0..500 {
        if let Some(api) = found(&here) {
            return Some(api);
        }
        let parent = js_sys::Reflect::get(&here, &"parent".into()).ok()?;
        if parent.is_undefined() || parent.is_null() || js_sys::Object::is(&parent, &here) {
            break;
        }
        here = parent;
    }
    let top = js_sys::Reflect::get(window, &"top".into()).ok()?;
    let opener = js_sys::Reflect::get(&top, &"opener".into()).ok()?;
    (!opener.is_null() && !opener.is_undefined()).then(|| found(&opener)).flatten()
}

/// A chapter SCO's number, title, and its scenarios with whether each was seen to its end.
type Chapter = (usize, String, Vec<(String, bool)>);

/// The chapter of this page, when it is a chapter SCO or AU.
pub(crate) fn chapter() -> Option<Chapter> {
    let (sco, done) = match LIVE.with(|l| {
        let l = l.borrow();
        let live = l.as_ref()?;
        Some((live.session.config.sco.clone(), live.session.state.done.clone()))
    }) {
        Some(found) => found,
        None => crate::ui::cmi5::unit().map(|(sco, _, done)| (sco, done))?,
    };
    match sco {
        Sco::Chapter { number, title, scenarios } => Some((
            number,
            title,
            scenarios.iter().map(|id| (id.clone(), done.contains(id))).collect(),
        )),
        Sco::Quiz { .. } | Sco::Challenges { .. } => None,
    }
}

/// This page's unit and the quiz address the learner last saw: a SCO's, else an AU's.
fn unit() -> Option<(Sco, Option<String>)> {
    let scorm = LIVE.with(|l| {
        let l = l.borrow();
        let session = &l.as_ref()?.session;
        Some((session.config.sco.clone(), session.last_quiz().map(str::to_owned)))
    });
    scorm.or_else(|| crate::ui::cmi5::unit().map(|(sco, last_quiz, _)| (sco, last_quiz)))
}

/// The start page of a chapter SCO: its scenarios, each marked once the learner has seen
/// it to its end.
#[component]
pub(crate) fn ChapterHome() -> Html {
    let m = use_i18n();
    let Some((number, title, scenarios)) = chapter() else {
        return html! { <crate::ui::home::Home /> };
    };
    let done = scenarios.iter().filter(|(_, d)| *d).count();
    html! {
        <section class="home" data-testid="chapter">
            <h1 class="home-title">{ m.content(&format!("chapter.{title}"), &title) }</h1>
            <p class="lede" data-testid="chapter-progress">{ m.labf("course.progress", &[("n", &number.to_string()), ("done", &done.to_string()), ("m", &scenarios.len().to_string())]) }</p>
            <ul class="cards">
                { for scenarios.iter().map(|(id, seen)| {
                    let entry = crate::catalogue::index().iter().find(|e| &e.id == id);
                    // The setup only: the outcome after the colon waits for the prompts.
                    let title = entry.map_or(id.clone(), |e| m.content(&format!("s.{id}.title"), &e.title));
                    let name = crate::player::setup_title(&title).to_owned();
                    let goal = entry.map_or(String::new(), |e| m.content(&format!("s.{id}.goal"), &e.goal));
                    let href = ScenarioId::parse(id)
                        .map_or_else(|| "#/".to_owned(), |id| Link::to(View::Scenario { id }).to_hash());
                    // The home page's card, with whether it was seen to its end as its badge.
                    html! {
                        <li class="card" data-testid="chapter-scenario" data-id={id.clone()} data-done={seen.to_string()}>
                            <a href={href}>
                                <h3>{ name }</h3>
                                <p>{ goal }</p>
                                <span class={classes!("badge", (!seen).then_some("muted"))}>{ if *seen { m.lab("course.seen") } else { m.lab("course.unseen") } }</span>
                            </a>
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

/// "Back to the quiz" or "Back to the chapter" on every view of a SCO but its start: a
/// relaunch into a scenario, or a "Show me", never strands the learner away from what the
/// LMS grades. Nothing outside a course package.
#[derive(PartialEq, Properties)]
pub(crate) struct BackProps {
    /// The view's address (a change re-renders the link).
    pub(crate) hash: AttrValue,
}

#[component]
pub(crate) fn BackToStart(props: &BackProps) -> Html {
    let m = use_i18n();
    let hash = &props.hash;
    // An AU that cannot report says so, rather than let the learner work unrecorded.
    let problem = crate::ui::cmi5::problem().map(|why| {
        html! { <p class="notice" role="alert" data-testid="cmi5-problem">{ m.labf("course.cmi5_problem", &[("why", &why)]) }</p> }
    });
    let back = unit().and_then(|(sco, last_quiz)| {
        let label = match &sco {
            Sco::Quiz { .. } => m.lab("course.back_quiz"),
            Sco::Challenges { .. } => m.lab("course.back_challenges"),
            Sco::Chapter { title, .. } => m.labf(
                "course.back_chapter",
                &[("title", &m.content(&format!("chapter.{title}"), title))],
            ),
        };
        Some((crate::scorm::back_from(&sco, last_quiz.as_deref(), hash)?, label))
    });
    html! {
        <>
            if let Some((href, label)) = back {
                <nav class="course-back" aria-label={m.lab("course.back_nav")}>
                    <a href={href} data-testid="course-back">{ "← " }{ label }</a>
                </nav>
            }
            { for problem }
        </>
    }
}
