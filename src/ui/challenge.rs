//! The challenges' pages (on the lab page): `#/challenge`, the chapter's list, and
//! `#/challenge/<id>`, one challenge: its design, the learner's changes or pauses, the
//! grade, and the run (the design with the pauses placed, or the counterexample) in the
//! player. The state is `challenge::Attempt` (pure, tested natively) with its `Action`s;
//! grading, storage and reports happen in the `use_grading` hook, never in the reducer.

use std::rc::Rc;

use yew::prelude::*;

use crate::challenge::{
    self, Action, Attempt, BreakResult, Challenge, FixResult, Grade, Kind, Phase,
};
use crate::embed::{Outbound, Tried};
use crate::i18n::Messages;
use crate::route::{Link, View};
use crate::sim::event::Property;
use crate::sim::scenario::{Fault, Word};
use crate::ui::embed::{post, post_statement, statement_context};
use crate::ui::i18n::use_i18n;

/// Where the solved challenges are kept: `id=par/spent` pairs (see `challenge::Solved`).
const SOLVED_KEY: &str = "fencing-playground/v1/challenges";

/// Yew's `Reducible` over the pure [`Attempt::update`], with the challenge it is about.
#[derive(Clone, PartialEq)]
struct State {
    challenge: Rc<Challenge>,
    attempt: Attempt,
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.attempt.update(&self.challenge, action);
        if next == self.attempt {
            self
        } else {
            Rc::new(State { challenge: self.challenge.clone(), attempt: next })
        }
    }
}

/// The chapter: every challenge, its kind, the lessons it practises, and whether it is
/// solved. Markup (links only, no listeners).
#[component]
pub(crate) fn ChallengeList() -> Html {
    let m = use_i18n();
    let solved = solved();
    let index = crate::catalogue::index();
    let mut o = crate::markup::Markup::new();
    o.open("section", &[("class", "challenges"), ("data-testid", "challenge-list")]);
    o.element("h1", &[], &m.lab("challenge.list.title"));
    o.element("p", &[], &m.lab("challenge.list.intro"));
    o.open("ol", &[("class", "challenge-cards")]);
    for (id, kind, title, practises) in challenge::INDEX {
        o.open("li", &[("data-testid", "challenge-card"), ("data-id", id)]);
        o.open("h3", &[]);
        o.element(
            "a",
            &[("href", &format!("#/challenge/{id}"))],
            &m.content(&format!("c.{id}.title"), title),
        );
        o.close("h3");
        o.open("p", &[("class", "meta")]);
        o.text(&m.lab(&format!("challenge.kind.{kind}")));
        if solved.best(id).is_some() {
            o.text(" ");
            o.element(
                "span",
                &[("class", "done"), ("data-testid", "solved")],
                &m.lab("challenge.solved"),
            );
        }
        o.close("p");
        o.open("p", &[("class", "practises")]).text(&m.lab("challenge.practises"));
        for (i, lesson) in practises.iter().enumerate() {
            let name =
                index.iter().find(|e| e.id == **lesson).map_or(*lesson, |e| e.title.as_str());
            o.text(if i == 0 { " " } else { " · " });
            o.element(
                "a",
                &[("href", &format!("#/s/{lesson}"))],
                &m.content(&format!("s.{lesson}.title"), name),
            );
        }
        o.close("p").close("li");
    }
    o.close("ol").close("section");
    crate::ui::markup(o)
}

#[derive(PartialEq, Properties)]
pub(crate) struct ChallengePageProps {
    pub(crate) id: String,
    pub(crate) link: Link,
}

/// One challenge: its file (compiled in), its design's lesson (fetched), then the view.
#[component]
pub(crate) fn ChallengePage(props: &ChallengePageProps) -> Html {
    let m = use_i18n();
    // A built-in's file is compiled in; the draft is the one the builder kept.
    let file: Option<Rc<str>> = use_memo(props.id.clone(), |id| match id.as_str() {
        challenge::author::DRAFT_ID => crate::ui::local_storage()
            .and_then(|s| s.get_item(challenge::author::DRAFT_KEY).ok().flatten())
            .map(Rc::from),
        id => challenge::file(id).map(Rc::from),
    })
    .as_ref()
    .clone();
    let design = file.as_deref().map(challenge::design_of);
    let design_id = match &design {
        Some(Ok(challenge::Design::Lesson(id))) => id.clone(),
        _ => String::new(),
    };
    let lesson = crate::ui::lessons::use_lesson(&design_id);
    let parsed = use_memo((file.clone(), lesson.as_ref().map(Result::is_ok)), {
        let (lesson, design) = (lesson.clone(), design.clone());
        move |_| match (file, design, lesson) {
            (Some(text), Some(Ok(challenge::Design::Own(own))), _) => {
                Some(challenge::parse_for(&text, *own).map(Rc::new))
            }
            (Some(text), _, Some(Ok(lesson))) => {
                Some(challenge::parse_for(&text, lesson).map(Rc::new))
            }
            (_, _, Some(Err(why))) => Some(Err(why)),
            _ => None,
        }
    });
    let failed = |why: &str| {
        html! { <p class="error" role="alert" data-testid="challenge-error">{ why.to_owned() }</p> }
    };
    let body = match (&design, &*parsed) {
        (None, _) if props.id == challenge::author::DRAFT_ID => {
            failed(&m.lab("challenge.author.none"))
        }
        (None, _) => failed(&m.labf("challenge.not_found", &[("id", &props.id)])),
        (Some(Err(why)), _) => failed(why),
        (_, None) => html! { <p>{ m.t("loading") }</p> },
        (_, Some(Err(why))) => failed(why),
        (_, Some(Ok(c))) => {
            html! { <ChallengeView challenge={c.clone()} link={props.link.clone()} /> }
        }
    };
    html! {
        <article class="challenge" data-testid="challenge">
            if props.id == challenge::author::DRAFT_ID {
                <p class="back"><a href="#/sandbox" data-testid="challenge-back">{ m.lab("challenge.author.back") }</a></p>
            } else {
                <p class="back"><a href="#/challenge" data-testid="challenge-back">{ m.lab("challenge.back") }</a></p>
            }
            { body }
        </article>
    }
}

#[derive(PartialEq, Properties)]
struct ViewProps {
    challenge: Rc<Challenge>,
    link: Link,
}

#[component]
fn ChallengeView(props: &ViewProps) -> Html {
    let m = use_i18n();
    let state = use_reducer({
        let challenge = props.challenge.clone();
        move || {
            // A challenge solved in an earlier visit keeps its best score here too.
            let mut attempt = Attempt::new(js_sys::Date::now());
            attempt.best = solved().best(&challenge.id);
            State { challenge, attempt }
        }
    });
    use_grading(&state);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action| state.dispatch(action))
    };
    let c = &state.challenge;
    let id = &c.id;
    let index = crate::catalogue::index();
    let practises = c.practises.iter().enumerate().map(|(i, lesson)| {
        let name = index.iter().find(|e| e.id == *lesson).map_or(lesson.as_str(), |e| e.title.as_str());
        let gap = if i == 0 { " " } else { " · " };
        html! { <>{ gap }<a href={format!("#/s/{lesson}")}>{ m.content(&format!("s.{lesson}.title"), name) }</a></> }
    });
    let form = match &c.kind {
        Kind::Fix { .. } => {
            html! { <FixForm challenge={c.clone()} attempt={state.attempt.clone()} dispatch={dispatch.clone()} /> }
        }
        Kind::Break { .. } => {
            html! { <BreakForm challenge={c.clone()} attempt={state.attempt.clone()} {dispatch} /> }
        }
    };
    html! {
        <>
            <h1>{ m.content(&format!("c.{id}.title"), &c.title) }</h1>
            <p class="story" data-testid="challenge-story">{ m.content(&format!("c.{id}.story"), &c.story) }</p>
            if !c.practises.is_empty() {
                <p class="practises">{ m.lab("challenge.practises") }{ for practises }</p>
            }
            { form }
            <Outcome challenge={c.clone()} attempt={state.attempt.clone()} />
        </>
    }
}

#[derive(PartialEq, Properties)]
struct FormProps {
    challenge: Rc<Challenge>,
    attempt: Attempt,
    dispatch: Callback<Action>,
}

/// "Fix it": the options, each with its cost, the bounds, and the check.
#[component]
fn FixForm(props: &FormProps) -> Html {
    let m = use_i18n();
    let c = &props.challenge;
    let Kind::Fix { options, par, properties, bounds, .. } = &c.kind else {
        return Html::default();
    };
    let busy = props.attempt.grading().is_some();
    let rows = options.iter().map(|o| {
        let key = |suffix: &str| format!("c.{}.o.{}.{suffix}", c.id, o.id);
        let toggle = {
            let (dispatch, id) = (props.dispatch.clone(), o.id.clone());
            Callback::from(move |_: Event| dispatch.emit(Action::Toggle(id.clone())))
        };
        let cost = m.labf("challenge.cost", &[("cost", &o.cost.to_string())]);
        html! {
            <li>
                <label>
                    <input type="checkbox" checked={props.attempt.chosen.contains(&o.id)} disabled={busy}
                        onchange={toggle} data-testid={format!("option-{}", o.id)} />
                    { " " }{ m.content(&key("label"), &o.label) }
                </label>
                <span class="cost">{ format!(" · {cost}: ") }{ m.content(&key("cost"), &o.cost_text) }</span>
            </li>
        }
    });
    html! {
        <section class="fix">
            <p>{ m.labf("challenge.fix.task", &[("par", &par.to_string())]) }</p>
            <p>{ keep_text(&m, properties) }</p>
            <ul class="options">{ for rows }</ul>
            <p class="bounds">{ bounds_text(&m, bounds.vary == crate::search::Vary::Times, bounds.max_added, &bounds.add) }</p>
            { check_button(&m, &props.dispatch, busy, "challenge.check") }
        </section>
    }
}

/// "Break it": the pauses placed, the form for the next one, and the check.
#[component]
fn BreakForm(props: &FormProps) -> Html {
    let m = use_i18n();
    let c = &props.challenge;
    let Kind::Break { property, budget, .. } = &c.kind else { return Html::default() };
    let busy = props.attempt.grading().is_some();
    let placed = props.attempt.placed.iter().enumerate().map(|(i, fault)| {
        let remove = {
            let dispatch = props.dispatch.clone();
            Callback::from(move |_: MouseEvent| dispatch.emit(Action::Remove(i)))
        };
        html! {
            <li data-testid="placed">{ pause_text(&m, c, fault) }{ " " }
                <button onclick={remove} disabled={busy}>{ m.lab("challenge.remove") }</button>
            </li>
        }
    });
    let (n, budget_text) = (props.attempt.placed.len().to_string(), budget.to_string());
    let room = props.attempt.placed.len() < *budget;
    html! {
        <section class="break">
            <p>{ m.labf("challenge.break.task", &[("budget", &budget_text), ("property", &property_text(&m, *property))]) }</p>
            <p>{ m.labf("challenge.placed", &[("n", &n), ("budget", &budget_text)]) }</p>
            <ul class="placed">{ for placed }</ul>
            if room {
                <DraftForm challenge={c.clone()} attempt={props.attempt.clone()} dispatch={props.dispatch.clone()} />
            }
            { check_button(&m, &props.dispatch, busy, "challenge.check_break") }
        </section>
    }
}

/// The next pause: which worker, when, for how long (seconds, as the timeline shows).
#[component]
fn DraftForm(props: &FormProps) -> Html {
    let m = use_i18n();
    let draft = props.attempt.draft.clone();
    let set = |edit: fn(&mut challenge::Draft, &str)| {
        let (dispatch, draft) = (props.dispatch.clone(), draft.clone());
        Callback::from(move |e: Event| {
            let Some(value) = input_value(&e) else { return };
            let mut next = draft.clone();
            edit(&mut next, &value);
            dispatch.emit(Action::Draft(next));
        })
    };
    let place = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::Place))
    };
    let workers = props.challenge.workers();
    html! {
        <p class="draft">
            <label>{ m.lab("challenge.worker") }{ " " }
                <select data-testid="draft-worker" onchange={set(|d, v| d.worker = v.parse().unwrap_or(d.worker))}>
                    { for workers.iter().enumerate().map(|(i, w)| html! { <option value={i.to_string()} selected={i == draft.worker}>{ *w }</option> }) }
                </select>
            </label>
            { " " }
            <label>{ m.lab("challenge.at") }{ " " }
                <input type="number" min="0" max="600" step="0.1" data-testid="draft-at" value={seconds(draft.at_ms)}
                    onchange={set(|d, v| d.at_ms = challenge::parse_seconds(v).unwrap_or(d.at_ms))} />
            </label>
            { " " }
            <label>{ m.lab("challenge.for") }{ " " }
                <input type="number" min="0.1" max="600" step="0.1" data-testid="draft-for" value={seconds(draft.pause_ms)}
                    onchange={set(|d, v| d.pause_ms = challenge::parse_seconds(v).filter(|ms| *ms > 0).unwrap_or(d.pause_ms))} />
            </label>
            { " " }
            <button onclick={place} data-testid="challenge-place">{ m.lab("challenge.place") }</button>
        </p>
    }
}

#[derive(PartialEq, Properties)]
struct OutcomeProps {
    challenge: Rc<Challenge>,
    attempt: Attempt,
}

/// The grade, the attempts so far, and the run to watch: the design with the pauses
/// placed (break it), or the counterexample (fix it).
#[component]
fn Outcome(props: &OutcomeProps) -> Html {
    let m = use_i18n();
    let c = &props.challenge;
    let a = &props.attempt;
    let verdict = match &a.phase {
        Phase::Designing => Html::default(),
        Phase::Grading { .. } => {
            html! { <p role="status" data-testid="challenge-checking">{ m.lab("challenge.checking") }</p> }
        }
        Phase::Graded(grade) => grade_html(&m, c, grade),
    };
    let counterexample = match &a.phase {
        Phase::Graded(Grade::Fix(FixResult::Broken { counterexample, .. })) => {
            Some(counterexample.setup.clone())
        }
        _ => None,
    };
    let run = match (&c.kind, counterexample) {
        (Kind::Break { .. }, _) => Some((m.lab("challenge.preview"), c.setup_placed(&a.placed))),
        (Kind::Fix { .. }, Some(setup)) => Some((m.lab("challenge.counterexample"), setup)),
        (Kind::Fix { .. }, None) => None,
    };
    let run = run.map(|(caption, setup)| {
        let key = format!("{:?}{}", setup.faults, a.attempts);
        (caption, key, crate::player::ScenarioRef::new(c.scenario_of(setup)))
    });
    let tally = (a.attempts > 0 || a.best.is_some()).then(|| {
        let mut text = match a.attempts {
            0 => String::new(),
            n => m.labf("challenge.attempts", &[("n", &n.to_string())]),
        };
        if let Some((par, spent)) = a.best {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(&m.labf(
                "challenge.best",
                &[("spent", &spent.to_string()), ("par", &par.to_string())],
            ));
        }
        text
    });
    html! {
        <section class="challenge-outcome" aria-live="polite">
            { verdict }
            if let Some(tally) = tally { <p data-testid="challenge-tally">{ tally }</p> }
            if let Some((caption, key, scenario)) = run {
                <h2>{ caption }</h2>
                <crate::ui::player::PlayerPage {key} {scenario}
                    link={Link { embed: true, ..Link::to(View::Challenge { id: None }) }} />
            }
        </section>
    }
}

/// A graded attempt in words.
fn grade_html(m: &Messages, c: &Challenge, grade: &Grade) -> Html {
    let n = |v: usize| v.to_string();
    match grade {
        Grade::Fix(FixResult::Safe { cost, par, schedules }) => {
            let (cost, par) = (cost.to_string(), par.to_string());
            let key = if cost == par { "challenge.at_par" } else { "challenge.over_par" };
            html! {
                <div class="verdict solved" data-testid="challenge-solved">
                    <p>{ m.labf("challenge.safe", &[("schedules", &m.count(*schedules))]) }</p>
                    <p>{ m.labf(key, &[("cost", &cost), ("par", &par)]) }</p>
                </div>
            }
        }
        Grade::Fix(FixResult::Broken { counterexample, hint }) => {
            let property = counterexample.property;
            let hint = m.content(&format!("c.{}.hint.{}", c.id, property.name()), hint);
            // The player's banner calls a broken token rule a hazard when no write was
            // damaged in that run: say why the challenge still counts it.
            let hazard = matches!(property, Property::TokenUnique | Property::TokenOrder);
            html! {
                <div class="verdict bad broken" data-testid="challenge-broken">
                    <p>{ m.labf("challenge.broken", &[("property", &property_text(m, property))]) }</p>
                    if hazard { <p data-testid="challenge-hazard">{ m.lab("challenge.hazard") }</p> }
                    <p class="hint" data-testid="challenge-hint"><strong>{ m.lab("challenge.hint") }</strong>{ " " }{ hint }</p>
                </div>
            }
        }
        Grade::Break(BreakResult::Broken { used, par }) => html! {
            <p class="verdict solved" data-testid="challenge-solved">{ m.labf("challenge.broke", &[("used", &n(*used)), ("par", &n(*par))]) }</p>
        },
        Grade::Break(BreakResult::Held) => html! {
            <p class="verdict" data-testid="challenge-held">{ m.lab("challenge.held") }</p>
        },
        Grade::Break(BreakResult::OutOfBounds(why)) => html! {
            <p class="verdict" data-testid="challenge-held">{ m.labf("challenge.out_of_bounds", &[("why", why)]) }</p>
        },
    }
}

/// Grades the attempt the state asks for, a moment after the page has said so (the search
/// holds the thread for up to a few hundred ms), then keeps a solved score and reports the
/// attempt to the host page, the LMS and the LRS.
#[hook]
fn use_grading(state: &UseReducerHandle<State>) {
    let m = use_i18n();
    let asked = state.attempt.grading();
    let state = state.clone();
    use_effect_with(asked, move |asked| {
        let timeout = asked.map(|n| {
            gloo_timers::callback::Timeout::new(30, move || {
                let (c, a) = (state.challenge.clone(), state.attempt.clone());
                let grade = match &c.kind {
                    Kind::Fix { .. } => {
                        let chosen: Vec<&str> = a.chosen.iter().map(String::as_str).collect();
                        c.grade_fix(&chosen).map(Grade::Fix)
                    }
                    Kind::Break { .. } => c.grade_break(&a.placed).map(Grade::Break),
                };
                let Some(grade) = grade else { return };
                report(&m, &c, &a, n, &grade);
                state.dispatch(Action::Graded { n, grade });
            })
        });
        move || drop(timeout)
    });
}

/// Keeps a solved score, and tells the host page (postMessage, and through it a SCORM
/// SCO) and an LRS (an xAPI statement) about attempt `n`.
fn report(m: &Messages, c: &Challenge, a: &Attempt, n: u32, grade: &Grade) {
    let score = challenge::solved_score(grade);
    // Only the chapter's challenges are kept as solved (an author's draft is not one).
    if let Some(score) = score.filter(|_| challenge::file(&c.id).is_some()) {
        let mut solved = solved();
        if solved.record(&c.id, score)
            && let Some(storage) = crate::ui::local_storage()
        {
            let _ = storage.set_item(SOLVED_KEY, &solved.to_text());
        }
    }
    let tried = Tried {
        challenge: c.id.clone(),
        kind: if matches!(c.kind, Kind::Fix { .. }) { "fix" } else { "break" },
        attempt: n,
        response: a.response(c),
        solved: score.is_some(),
        par: score.map_or_else(|| c.par(), |(par, _)| par),
        spent: score.map(|(_, spent)| spent),
        latency_ms: (js_sys::Date::now() - a.since_ms).max(0.0) as u64,
    };
    let site = crate::ui::embed::activity_base();
    let activity = crate::xapi::Activity {
        id: format!("{site}#/challenge/{}", c.id),
        name: m.content(&format!("c.{}.title", c.id), &c.title),
        performance: true,
        ..crate::xapi::Activity::default()
    };
    let outcome = crate::xapi::Outcome {
        success: Some(tried.solved),
        response_text: Some(tried.response.clone()),
        score: score.map(|(par, spent)| (par as usize, spent as usize)),
        duration_ms: Some(tried.latency_ms),
        ..crate::xapi::Outcome::default()
    };
    post(&Outbound::ChallengeAttempted(tried));
    let verb = crate::xapi::Verb::Answered;
    post_statement(&crate::xapi::statement(
        &statement_context(m.lang),
        verb,
        &activity,
        &outcome,
        None,
    ));
}

/// The button that asks for a grade: `label` says what is checked (a fix's design, or the
/// run with a break's pauses).
fn check_button(m: &Messages, dispatch: &Callback<Action>, busy: bool, label: &str) -> Html {
    let check = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Check { now_ms: js_sys::Date::now() })
        })
    };
    html! { <p><button class="primary" onclick={check} disabled={busy} data-testid="challenge-check">{ m.lab(label) }</button></p> }
}

/// The rule (or rules) a fix must keep.
fn keep_text(m: &Messages, properties: &[Property]) -> String {
    let list: Vec<String> = properties.iter().map(|p| property_text(m, *p)).collect();
    m.labf("challenge.keep", &[("properties", &list.join("; "))])
}

fn property_text(m: &Messages, property: Property) -> String {
    m.lab(&format!("challenge.prop.{}", property.name()))
}

/// What the search tries, in the learner's words.
fn bounds_text(m: &Messages, times: bool, n: usize, add: &[crate::search::Addition]) -> String {
    let list: Vec<String> =
        add.iter().map(|a| m.lab(&format!("challenge.fault.{}", a.word()))).collect();
    let (n, list) = (n.to_string(), list.join(", "));
    match (times, add.is_empty() || n == "0") {
        (true, true) => m.lab("challenge.bounds.times"),
        (true, false) => m.labf("challenge.bounds.times_add", &[("n", &n), ("list", &list)]),
        (false, _) => m.labf("challenge.bounds.add", &[("n", &n), ("list", &list)]),
    }
}

fn pause_text(m: &Messages, c: &Challenge, fault: &Fault) -> String {
    match fault {
        Fault::Pause { worker, at_ms, pause_ms } => m.labf(
            "challenge.pause_item",
            &[
                ("worker", c.worker_name(*worker)),
                ("at", &m.secs(*at_ms)),
                ("d", &m.secs(*pause_ms)),
            ],
        ),
        _ => String::new(),
    }
}

/// A time in ms as the number inputs show it: seconds with up to three decimals.
fn seconds(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn input_value(e: &Event) -> Option<String> {
    use wasm_bindgen::JsCast;
    let target = e.target()?;
    if let Some(input) = target.dyn_ref::<web_sys::HtmlInputElement>() {
        return Some(input.value());
    }
    target.dyn_ref::<web_sys::HtmlSelectElement>().map(web_sys::HtmlSelectElement::value)
}

/// The solved challenges as stored (an unreadable text reads as none solved).
fn solved() -> challenge::Solved {
    let text = crate::ui::local_storage().and_then(|s| s.get_item(SOLVED_KEY).ok().flatten());
    challenge::Solved::read(text.as_deref().unwrap_or(""))
}
