//! One cmi5 AU of a course package (`scripts/package cmi5`): reads the launch address,
//! fetches the token, reads `LMS.LaunchData`, and sends the statements `crate::cmi5`
//! writes to the LMS's LRS, hearing the learner through the same events an embed's host
//! hears (`crate::ui::embed`). Only the browser glue: requests, the clock, random ids.

use std::cell::RefCell;

use gloo_events::EventListener;
use wasm_bindgen::{JsCast, JsValue};

use crate::cmi5::{Au, Launch, LaunchData, Request, Stamp};
use crate::embed::Outbound;
use crate::scorm::Sco;
use crate::sim::sorted::SortedSet;

struct Live {
    au: Au,
    sco: Sco,
    /// `Basic <token>`, once fetched.
    authorization: String,
    started_ms: f64,
    /// The chapter's scenarios the learner reached the end of, in this session.
    done: SortedSet<String>,
    /// The quiz's address as the learner last saw it (where "back" returns).
    last_quiz: Option<String>,
}

thread_local! {
    static LIVE: RefCell<Option<Live>> = const { RefCell::new(None) };
    /// Why this AU cannot report, for the page to say.
    static PROBLEM: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Starts the AU: the launch address, the token, the launch data, `initialized`.
pub(crate) fn start(sco: Sco, mastery_pct: u8) {
    let Some(window) = web_sys::window() else { return };
    let search = window.location().search().unwrap_or_default();
    let launch = match Launch::parse(&search) {
        Ok(launch) => launch,
        Err(why) => return fail(why),
    };
    crate::ui::embed::set_observer(observe);
    crate::ui::embed::set_statement_observer(forward);
    EventListener::new(&window, "pagehide", |_| {
        let requests = with_au(|au, stamp, session_ms| au.terminate(stamp, session_ms));
        // The page is going: a request that outlives it.
        send_all(requests, true);
    })
    .forget();
    EventListener::new(&window, "hashchange", |_| {
        let hash = crate::ui::nav::current_hash();
        if crate::scorm::is_quiz(&hash) {
            LIVE.with(|l| {
                if let Some(live) = l.borrow_mut().as_mut() {
                    live.last_quiz = Some(hash);
                }
            });
        }
    })
    .forget();
    let au = Au::new(launch, mastery_pct);
    LIVE.with(|l| {
        *l.borrow_mut() = Some(Live {
            au,
            sco,
            authorization: String::new(),
            started_ms: js_sys::Date::now(),
            done: SortedSet::default(),
            last_quiz: None,
        })
    });
    wasm_bindgen_futures::spawn_local(async {
        if let Err(why) = open().await {
            fail(why);
        }
    });
}

/// This page's unit, the quiz address the learner last saw, and the scenarios they reached
/// the end of (a chapter's), when it is an AU.
pub(crate) fn unit() -> Option<(Sco, Option<String>, SortedSet<String>)> {
    LIVE.with(|l| {
        let l = l.borrow();
        let live = l.as_ref()?;
        Some((live.sco.clone(), live.last_quiz.clone(), live.done.clone()))
    })
}

/// Why this page cannot report to the LMS, if it cannot.
pub(crate) fn problem() -> Option<String> {
    PROBLEM.with(|p| p.borrow().clone())
}

/// The token, then the launch data, then `initialized`.
async fn open() -> Result<(), String> {
    let (token_request, data_request) = LIVE
        .with(|l| {
            let l = l.borrow();
            let au = &l.as_ref()?.au;
            Some((au.token_request(), au.launch_data_request()))
        })
        .ok_or("no AU")?;
    let token = Au::read_token(&request(&token_request, None, false).await?)?;
    let authorization = format!("Basic {token}");
    let data = LaunchData::read(&request(&data_request, Some(&authorization), false).await?)?;
    LIVE.with(|l| {
        if let Some(live) = l.borrow_mut().as_mut() {
            live.authorization = authorization;
        }
    });
    let requests = with_au(|au, stamp, _| au.on_launch_data(data, stamp));
    send_all(requests, false);
    Ok(())
}

/// What the learner did, as the views report it.
fn observe(message: &Outbound) {
    let requests = match message {
        Outbound::QuizCompleted { score, total, .. } => with_au(|au, stamp, session_ms| {
            let mut sent = au.complete(stamp, session_ms);
            sent.extend(au.grade(&fresh_stamp(), *score, *total, session_ms));
            sent
        }),
        Outbound::Completed { scenario } => {
            let all_seen = LIVE.with(|l| {
                let mut l = l.borrow_mut();
                let live = l.as_mut()?;
                live.done.insert(scenario.clone());
                match &live.sco {
                    Sco::Chapter { scenarios, .. } => {
                        Some(scenarios.iter().all(|id| live.done.contains(id)))
                    }
                    Sco::Quiz { .. } | Sco::Challenges { .. } => Some(false),
                }
            });
            match all_seen {
                Some(true) => with_au(|au, stamp, session_ms| au.complete(stamp, session_ms)),
                _ => Vec::new(),
            }
        }
        // The challenges' AU is completed once each is solved (kept apart from scenario
        // ids by a prefix).
        Outbound::ChallengeAttempted(t) if t.solved => {
            let all_solved = LIVE.with(|l| {
                let mut l = l.borrow_mut();
                let live = l.as_mut()?;
                live.done.insert(format!("challenge/{}", t.challenge));
                match &live.sco {
                    Sco::Challenges { ids } => {
                        Some(ids.iter().all(|id| live.done.contains(&format!("challenge/{id}"))))
                    }
                    Sco::Quiz { .. } | Sco::Chapter { .. } => Some(false),
                }
            });
            match all_solved {
                Some(true) => with_au(|au, stamp, session_ms| au.complete(stamp, session_ms)),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    send_all(requests, false);
}

/// The playground's own learning events (answers) go to the LMS's LRS too.
fn forward(statement: &str) {
    let requests = LIVE.with(|l| l.borrow().as_ref().map(|l| l.au.other(statement)));
    send_all(requests.unwrap_or_default(), false);
}

/// Runs `f` on the AU with a fresh stamp and the session's length so far.
fn with_au(f: impl FnOnce(&mut Au, &Stamp, u64) -> Vec<Request>) -> Vec<Request> {
    let stamp = fresh_stamp();
    LIVE.with(|l| {
        let mut l = l.borrow_mut();
        let Some(live) = l.as_mut() else { return Vec::new() };
        let session_ms = (js_sys::Date::now() - live.started_ms).max(0.0) as u64;
        f(&mut live.au, &stamp, session_ms)
    })
}

fn fresh_stamp() -> Stamp {
    let mut bytes = [0u8; 16];
    for b in &mut bytes {
        // Statement ids need to be unique, not secret.
        *b = (js_sys::Math::random() * 256.0) as u8;
    }
    Stamp { id: crate::xapi::uuid(bytes), timestamp: js_sys::Date::new_0().to_iso_string().into() }
}

/// Sends statements in order, each after the one before has been answered (an LRS must
/// see `initialized` before `completed`); the last ones of a page that is going use
/// `keepalive`, which outlives the page.
fn send_all(requests: Vec<Request>, leaving: bool) {
    if requests.is_empty() {
        return;
    }
    let authorization = LIVE.with(|l| l.borrow().as_ref().map(|l| l.authorization.clone()));
    let Some(authorization) = authorization.filter(|a| !a.is_empty()) else { return };
    let sent = async move {
        for r in requests {
            if let Err(why) = request(&r, Some(&authorization), leaving).await {
                web_sys::console::error_1(&format!("cmi5: {why}").into());
            }
        }
    };
    wasm_bindgen_futures::spawn_local(sent);
}

/// Makes one request and reads its answer as text (an error names the address and the
/// status).
async fn request(
    r: &Request,
    authorization: Option<&str>,
    keepalive: bool,
) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = web_sys::RequestInit::new();
    init.set_method(r.method);
    let headers = web_sys::Headers::new().map_err(|_| "no headers")?;
    if let Some(authorization) = authorization {
        let _ = headers.set("Authorization", authorization);
        let _ = headers.set("X-Experience-API-Version", "1.0.3");
    }
    if let Some(body) = &r.body {
        let _ = headers.set("Content-Type", "application/json");
        init.set_body(&JsValue::from_str(body));
    }
    init.set_headers(&headers);
    // `keepalive` is not in web-sys's stable API; the browser reads the member.
    if keepalive {
        let _ = js_sys::Reflect::set(&init, &"keepalive".into(), &JsValue::TRUE);
    }
    let promise = window.fetch_with_str_and_init(&r.url, &init);
    let response = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|_| format!("{} {}: no answer", r.method, r.url))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{} {}: HTTP {}", r.method, r.url, response.status()));
    }
    let text = response.text().map_err(|_| "no body")?;
    let text = wasm_bindgen_futures::JsFuture::from(text).await.map_err(|_| "no body")?;
    Ok(text.as_string().unwrap_or_default())
}

fn fail(why: String) {
    web_sys::console::error_1(&format!("this cmi5 AU cannot report to the LMS: {why}").into());
    PROBLEM.with(|p| *p.borrow_mut() = Some(why));
}
