//! "Try to break it" (`#/break/<id>`, `#/break?sz=`): the schedule search's page. Owns the
//! form (which faults may be added, how many, which properties), the progress while web
//! workers search, and the answer: no counterexample within the bounds, or the
//! counterexample with what changed and what broke, and a link that opens it in the
//! lab's player. Its state is `search::session::Break` (pure, tested natively) with its
//! `Action`s; the workers are started and stopped by the `use_search` hook, never by the
//! reducer. It runs no schedule itself.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::i18n::Messages;
use crate::route::{Link, Page, Payload, Target, View};
use crate::search::session::{Action, Break, PALETTE, Phase, rate};
use crate::search::wire::{Ending, Found, Outcome, Request};
use crate::search::{Addition, LEVEL_LIMIT, Vary};
use crate::sim::event::{NOTE_TEMPLATES, Note, Property};
use crate::sim::scenario::Word;
use crate::ui::browser::{cores, now_ms};
use crate::ui::i18n::use_i18n;
use crate::ui::search_pool::{News, SearchPool};

/// How often the progress line is redrawn while results pour in.
const REDRAW_MS: f64 = 100.0;

/// Yew's `Reducible` over the pure [`Break::update`].
#[derive(Clone, PartialEq)]
struct BreakState(Break);

impl Reducible for BreakState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.0.update(action) {
            Some(next) => Rc::new(BreakState(next)),
            None => self,
        }
    }
}

/// The bounds in the learner's words.
pub(crate) fn bounds(m: &Messages, request: &Request) -> String {
    let words: Vec<String> = request.space.add.iter().map(|a| addition(m, *a)).collect();
    let k = request.space.max_added.to_string();
    let added = match (request.space.max_added, words.is_empty()) {
        (0, _) | (_, true) => m.explore("explore.break.bounds.none_added"),
        (1, false) => m.exploref("explore.break.bounds.one_added", &[("list", &words.join(", "))]),
        (_, false) => {
            m.exploref("explore.break.bounds.added", &[("n", &k), ("list", &words.join(", "))])
        }
    };
    match request.space.vary {
        Vary::Times => m.exploref("explore.break.bounds.times", &[("added", &added)]),
        Vary::Nothing => added,
    }
}

fn addition(m: &Messages, a: Addition) -> String {
    m.explore(&format!("explore.break.add.{}", a.word()))
}

/// A phrase of the search in this language (its times written the language's way).
pub(crate) fn phrase(m: &Messages, phrase: &crate::search::Phrase) -> String {
    let template = |key: &str| m.content(key, crate::search::english_phrase(key));
    phrase.render(&template, &|ms| m.secs(ms))
}

/// The first finding of the broken property, as the checker says it.
fn broke(m: &Messages, found: &Found) -> String {
    let key = NOTE_TEMPLATES.iter().map(|(k, _)| *k).find(|k| *k == found.broke_key);
    match key {
        Some(key) => {
            let args = found
                .broke_args
                .iter()
                .filter_map(|(k, v)| Some((static_name(key, k)?, v.clone())))
                .collect();
            m.note(&Note::new(key, args))
        }
        None => found.property.clone(),
    }
}

/// The placeholder `name` as the note's template spells it (a note's names are static;
/// those from a message are not), or none if the template has no such placeholder.
fn static_name(key: &str, name: &str) -> Option<&'static str> {
    let template: &'static str = NOTE_TEMPLATES.iter().find(|(k, _)| *k == key)?.1;
    let at = template.find(&format!("{{{name}}}"))? + 1;
    template.get(at..at + name.len())
}

/// The counterexample as a scenario file, titled and summarised in this language.
fn localised(m: &Messages, lesson_title: &str, goal: &str, found: &Found) -> String {
    let Ok(mut json) = serde_json::from_str::<serde_json::Value>(&found.scenario) else {
        return found.scenario.clone();
    };
    let changes: Vec<String> = found.changes.iter().map(|c| phrase(m, c)).collect();
    let changed = match changes.is_empty() {
        true => m.explore("explore.break.own"),
        false => changes.join("; "),
    };
    let title = m.exploref("explore.break.ce_title", &[("title", lesson_title)]);
    let summary = m.exploref(
        "explore.break.ce_summary",
        &[("changed", &changed), ("property", &found.property), ("broke", &broke(m, found))],
    );
    if let Some(object) = json.as_object_mut() {
        object.insert("title".into(), title.into());
        object.insert("summary".into(), summary.into());
        // The counterexample's id is its own, so the player finds no translation of the
        // lesson's goal under it: it is carried in the learner's language.
        object.insert("goal".into(), goal.into());
    }
    json.to_string()
}

/// A callback that dispatches what `action` makes of its event.
fn on<E: 'static>(
    handle: &UseReducerHandle<BreakState>,
    action: impl Fn(E) -> Action + 'static,
) -> Callback<E> {
    let dispatch = handle.dispatcher();
    Callback::from(move |e: E| dispatch.dispatch(action(e)))
}

fn input_value(e: &Event) -> String {
    use wasm_bindgen::JsCast;
    let target = e.target();
    if let Some(select) =
        target.clone().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
    {
        return select.value();
    }
    target
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default()
}

fn input_checked(e: &Event) -> bool {
    e.target_dyn_into::<web_sys::HtmlInputElement>().is_some_and(|i| i.checked())
}

/// Runs the search `state` describes on web workers while it is running; stops them when
/// it is cancelled, ends, starts again or the page goes.
#[hook]
fn use_search(state: &UseReducerHandle<BreakState>, lesson_json: Rc<String>) {
    let dispatch = state.dispatcher();
    let request = state.0.request();
    let workers = state.0.workers;
    use_effect_with(state.0.running(), move |running| {
        let pool: Option<SearchPool> = running.and_then(|_| {
            let shown_at = RefCell::new(f64::NEG_INFINITY);
            let on_news: Rc<dyn Fn(News)> = Rc::new(move |news| {
                let now_ms = now_ms();
                match news {
                    News::Standing(standing) => {
                        if now_ms - *shown_at.borrow() >= REDRAW_MS {
                            *shown_at.borrow_mut() = now_ms;
                            dispatch.dispatch(Action::Standing { standing, now_ms });
                        }
                    }
                    News::Ended(ending) => dispatch.dispatch(Action::Ended { ending, now_ms }),
                }
            });
            // Where workers cannot start, the page's own thread runs the same search.
            let pool = SearchPool::start(workers, &request, &lesson_json, on_news.clone());
            Some(pool.unwrap_or_else(|_| SearchPool::on_page(&request, &lesson_json, on_news)))
        });
        move || {
            if let Some(pool) = pool {
                pool.stop();
            }
        }
    });
}

#[derive(PartialEq, Properties)]
pub(crate) struct BreakPageProps {
    pub(crate) target: Target,
}

/// The search's page: loads its lesson, then shows the form.
#[component]
pub(crate) fn BreakPage(props: &BreakPageProps) -> Html {
    let m = use_i18n();
    let loaded = crate::ui::hooks::use_loaded(props.target.clone(), |_| None, load);
    match loaded {
        None => html! { <p>{ m.t("loading") }</p> },
        Some(Err(why)) => html! {
            <p class="error" data-testid="load-error" role="alert">{ m.tf("player.load_failed", &[("why", &why)]) }</p>
        },
        Some(Ok(lesson)) => html! {
            <BreakForm key={lesson.id.to_string()} lesson={Rc::new(lesson.clone())} target={props.target.clone()} />
        },
    }
}

async fn load(target: Target) -> Result<Scenario, String> {
    match target {
        Target::Builtin(id) => crate::ui::lessons::load(id.as_str()).await,
        Target::Carried(payload) => {
            let text = match payload {
                Payload::Json(text) => text,
                Payload::Deflated(bytes) => crate::ui::share::inflate(&bytes).await?,
            };
            crate::catalogue::load::parse_scenario(&text).map_err(|e| e.to_string())
        }
    }
}

#[derive(PartialEq, Properties)]
struct BreakFormProps {
    lesson: Rc<Scenario>,
    target: Target,
}

#[component]
fn BreakForm(props: &BreakFormProps) -> Html {
    let m = use_i18n();
    let lesson = &props.lesson;
    let handle = use_reducer(|| BreakState(Break::for_lesson(lesson, cores())));
    let state = &handle.0;
    let json = use_memo(lesson.clone(), |l| crate::catalogue::codec::write_scenario(l).compact());
    use_search(&handle, json);
    let title = m.content(&format!("s.{}.title", lesson.id), &lesson.title);
    let request = state.request();
    let running = state.running().is_some();
    let on_submit = {
        let dispatch = handle.dispatcher();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            dispatch.dispatch(Action::Start { now_ms: now_ms() });
        })
    };
    let on_cancel = on(&handle, |_: MouseEvent| Action::Cancel);
    let on_faults = on(&handle, |e: Event| {
        let value = input_value(&e);
        Action::Faults(value.parse().unwrap_or(0))
    });
    let on_workers =
        on(&handle, |e: Event| Action::Workers(input_value(&e).trim().parse().unwrap_or(1)));
    let on_vary = on(&handle, |e: Event| match input_checked(&e) {
        true => Action::Vary(Vary::Times),
        false => Action::Vary(Vary::Nothing),
    });
    let back = match &props.target {
        Target::Builtin(id) => Link::to(View::Scenario { id: id.clone() }),
        Target::Carried(payload) => Link::to(View::Custom { payload: payload.clone() }),
    };
    let back_href = format!("{}{}", back.view.page().path(), back.to_hash());
    html! {
        <div class="explore break" data-testid="break">
            <h1>{ m.explore("explore.break.title") }</h1>
            <p class="lede">{ m.exploref("explore.break.lede", &[("title", &title)]) }</p>
            <p><a href={back_href} data-testid="break-back">{ m.exploref("explore.break.back", &[("title", &title)]) }</a></p>
            <form class="panel explore-form" onsubmit={on_submit}>
                <label class="check">
                    <input type="checkbox" checked={state.vary == Vary::Times} disabled={running} onchange={on_vary} data-testid="break-vary" />
                    { m.explore("explore.break.vary") }
                </label>
                <fieldset disabled={running}>
                    <legend>{ m.explore("explore.break.add") }</legend>
                    { for PALETTE.iter().map(|&a| {
                        let toggle = on(&handle, move |_: Event| Action::Toggle(a));
                        html! {
                            <label class="check">
                                <input type="checkbox" checked={state.add.contains(&a)} onchange={toggle} data-testid={format!("break-add-{}", a.word())} />
                                { addition(&m, a) }
                            </label>
                        }
                    }) }
                </fieldset>
                <label>{ m.explore("explore.break.faults") }
                    <select data-testid="break-faults" onchange={on_faults} disabled={running}>
                        { for (0..=3).map(|k| html! { <option value={k.to_string()} selected={state.max_added == k}>{ k }</option> }) }
                    </select>
                </label>
                <fieldset disabled={running}>
                    <legend>{ m.explore("explore.break.check") }</legend>
                    { for Property::ALL.iter().map(|&p| {
                        let toggle = on(&handle, move |_: Event| Action::Check(p));
                        html! {
                            <label class="check">
                                <input type="checkbox" checked={state.check.contains(&p)} onchange={toggle} data-testid={format!("break-check-{}", p.name())} />
                                <code>{ p.name() }</code>
                                <span class="prop-means">{ m.explore(&format!("explore.break.prop.{}", p.name())) }</span>
                            </label>
                        }
                    }) }
                </fieldset>
                <label>{ m.explore("explore.workers") }
                    <input type="number" min="0" max="16" value={state.workers.to_string()} onchange={on_workers} disabled={running} data-testid="break-workers" />
                </label>
                <p class="note">{ m.exploref("explore.break.workers_help", &[("n", &cores().to_string())]) }</p>
                <p class="note">{ m.exploref("explore.break.bounds", &[("bounds", &bounds(&m, &request))]) }</p>
                <div class="editor-bar">
                    <button class="primary" type="submit" data-testid="break-start" disabled={running || state.check.is_empty()}>{ m.explore("explore.break.start") }</button>
                    <button type="button" data-testid="break-cancel" disabled={!running} onclick={on_cancel}>{ m.explore("explore.cancel") }</button>
                </div>
                if state.check.is_empty() {
                    <p class="field-error" role="alert">{ m.explore("explore.break.none_checked") }</p>
                }
            </form>
            { answer(&m, state, &request, lesson) }
            <p class="note">{ m.explore("explore.break.how") }</p>
        </div>
    }
}

/// The progress while it runs, and the answer when it is done.
fn answer(m: &Messages, state: &Break, request: &Request, lesson: &Scenario) -> Html {
    match &state.phase {
        Phase::Ready => Html::default(),
        Phase::Running { standing, started_ms, now_ms } => {
            let percent = (standing.run * 100).checked_div(standing.known).unwrap_or(0).min(100);
            let (per_s, left) = match rate(standing, now_ms - started_ms) {
                Some((per_s, left_s)) => (format!("{per_s:.0}"), format!("{left_s:.0}")),
                None => ("…".to_owned(), "…".to_owned()),
            };
            let line = m.exploref(
                "explore.break.progress",
                &[
                    ("run", &m.count(standing.run)),
                    ("known", &m.count(standing.known)),
                    ("rate", &per_s),
                    ("left", &left),
                    ("level", &(standing.level + 1).to_string()),
                    ("levels", &standing.levels.max(1).to_string()),
                ],
            );
            html! {
                <div class="explore-progress" data-testid="break-progress" data-run={standing.run.to_string()}>
                    <progress max="100" value={percent.to_string()} aria-label={m.explore("explore.progress")}></progress>
                    <span role="status">{ line }</span>
                </div>
            }
        }
        Phase::Cancelled { standing } => html! {
            <p class="note" role="status" data-testid="break-cancelled">
                { m.exploref("explore.break.cancelled", &[("run", &m.count(standing.run))]) }
            </p>
        },
        Phase::Ended { ending: Ending::Failed(why), .. } => html! {
            <p class="error" role="alert" data-testid="break-failed">{ m.exploref("explore.break.failed", &[("why", why)]) }</p>
        },
        Phase::Ended { ending: Ending::Report(outcome), elapsed_ms } => {
            let seconds = m.decimal(&format!("{:.1}", elapsed_ms / 1000.0));
            match &outcome.found {
                None => none_found(m, outcome, request, &seconds),
                Some(found) => {
                    html! { <FoundPanel found={found.clone()} lesson={lesson.title.clone()} goal={lesson.goal.clone()} id={lesson.id.to_string()} schedules={outcome.schedules} {seconds} /> }
                }
            }
        }
    }
}

fn none_found(m: &Messages, outcome: &Outcome, request: &Request, seconds: &str) -> Html {
    let line = m.exploref(
        "explore.break.none",
        &[
            ("schedules", &m.count(outcome.schedules)),
            ("bounds", &bounds(m, request)),
            ("seconds", seconds),
        ],
    );
    // A cut search is not a complete one: no green for it.
    let class =
        if outcome.capped { "panel break-answer capped" } else { "panel break-answer safe" };
    html! {
        <div class={class} data-testid="break-none" role="status">
            <p><strong>{ line }</strong></p>
            if outcome.capped {
                <p class="note">{ m.exploref("explore.break.capped", &[("limit", &m.count(LEVEL_LIMIT as u64))]) }</p>
            }
            <p class="note">{ m.explore("explore.break.none_means") }</p>
        </div>
    }
}

#[derive(PartialEq, Properties)]
struct FoundProps {
    found: Found,
    lesson: String,
    goal: String,
    id: String,
    schedules: u64,
    seconds: String,
}

/// The counterexample: what changed, what broke, and the player's link (made once the
/// scenario is compressed).
#[component]
fn FoundPanel(props: &FoundProps) -> Html {
    let m = use_i18n();
    let title = m.content(&format!("s.{}.title", props.id), &props.lesson);
    let goal = m.content(&format!("s.{}.goal", props.id), &props.goal);
    let href = use_state(|| None::<String>);
    {
        let href = href.clone();
        let json = localised(&m, &title, &goal, &props.found);
        let lang = m.lang;
        use_effect_with(json, move |json| {
            let json = json.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let payload = match crate::ui::share::deflate(json.as_bytes()).await {
                    Ok(bytes) => Payload::Deflated(bytes),
                    Err(_) => Payload::Json(json),
                };
                let mut link = Link::to(View::Custom { payload });
                link.lang = (lang != crate::i18n::Lang::En).then_some(lang);
                href.set(Some(format!("{}{}", Page::Lab.path(), link.to_hash())));
            });
            || ()
        });
    }
    let changes: Vec<String> = props.found.changes.iter().map(|c| phrase(&m, c)).collect();
    html! {
        <div class="panel break-answer broken" data-testid="break-found" role="status">
            <p><strong>{ m.exploref("explore.break.found", &[("property", &props.found.property), ("schedules", &m.count(props.schedules)), ("seconds", &props.seconds)]) }</strong></p>
            <h2>{ m.explore("explore.break.changed") }</h2>
            if changes.is_empty() {
                <p>{ m.explore("explore.break.own") }</p>
            } else {
                <ul data-testid="break-changes">{ for changes.iter().map(|c| html! { <li>{ c }</li> }) }</ul>
            }
            <h2>{ m.explore("explore.break.broke") }</h2>
            <p data-testid="break-broke">{ broke(&m, &props.found) }</p>
            if props.found.property == Property::NoStaleHolder.name() {
                <p class="note" data-testid="break-limit">{ m.explore("explore.break.limit") }</p>
            }
            if let Some(href) = &*href {
                <p><a class="primary button" href={href.clone()} data-testid="break-open">{ m.explore("explore.break.open") }</a></p>
                <p class="note">{ m.explore("explore.break.open_note") }</p>
            }
        </div>
    }
}
