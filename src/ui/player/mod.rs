//! The player: swimlanes, scrubber, controls, inspector, narration, prediction prompts,
//! what-if, sharing and export for one scenario. It owns a `Player` (pure, in
//! `crate::player`) through a reducer and renders `(trace, cursor)`; timers, storage and
//! messages to a host page live in hooks, never in the reducer.

pub(crate) mod controls;
mod inspector;
mod prompt;
mod swimlanes;
mod whatif_panel;

use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::embed::{Inbound, Outbound, ReadyView, Steps};
use crate::player::{Action, Player};
use crate::route::{Controls, Link, Payload};
use crate::ui::embed::{post, post_statement, statement_context, use_host_messages};
use crate::ui::hooks::use_autoplay;
use crate::ui::i18n::use_i18n;

pub(crate) use inspector::verdict_text;
pub(crate) use swimlanes::Swimlanes;

/// The reducer adapter: Yew's `Reducible` over the pure `Player::update`.
#[derive(Clone, PartialEq)]
pub(crate) struct PlayerState(pub(crate) Player);

impl Reducible for PlayerState {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.0.update(action);
        if next == self.0 { self } else { Rc::new(PlayerState(next)) }
    }
}

#[derive(PartialEq, Properties)]
pub(crate) struct PlayerPageProps {
    /// Compared by identity (a parent's re-render re-renders the player, which is cheap;
    /// comparing two scenarios field by field would not be).
    pub(crate) scenario: crate::player::ScenarioRef,
    /// The link that opened it: time, what-if, embed mode and host origins.
    pub(crate) link: Link,
}

#[component]
pub(crate) fn PlayerPage(props: &PlayerPageProps) -> Html {
    let m = use_i18n();
    let scenario = props.scenario.clone();
    let link = props.link.clone();
    let state = use_reducer(move || opening(&scenario, &link));
    let dispatch: Callback<Action> = {
        let state = state.clone();
        Callback::from(move |action| state.dispatch(action))
    };
    use_autoplay(state.0.playing, dispatch.clone());
    use_link_moves(&state, &props.link, &dispatch);
    use_host(&dispatch, &state.0.original.id);
    let player = &state.0;
    let embed = props.link.embed;

    let full_title = m.content(&format!("s.{}.title", player.original.id), &player.original.title);
    use_reports(player, &props.link, full_title.clone(), m.lang);
    use_player_keys(&dispatch);
    let scenario = &player.original;
    let id = &scenario.id;
    let forked = !player.whatif.is_original();
    let lesson_tag = match crate::catalogue::facts::claims_hold(&player.trace, scenario) {
        true => m.t("player.lesson_summary"),
        false => m.t("player.lesson_summary_differs"),
    };
    // Until every prompt ahead is answered, the page keeps the outcome back: the title's
    // setup only, and no summary, verdict or future on the timeline.
    let hidden = player.hides_outcome();
    let title = match hidden {
        true => crate::player::setup_title(&full_title).to_owned(),
        false => full_title,
    };
    let live = player
        .current_event()
        .map(|e| {
            let said = m.prose_or_reply(e);
            let who = player.trace.actor_name(e.actor);
            format!("{} {who}: {} {said}", m.secs(e.at_ms), m.tag(e.kind.tag()))
        })
        .unwrap_or_default();
    let story = narration_html(&m, player);
    let reveal = {
        let dispatch = dispatch.clone();
        let everything = player.reveal == crate::player::Reveal::Everything;
        Callback::from(move |_: Event| {
            dispatch.emit(Action::SetReveal(match everything {
                true => crate::player::Reveal::AsYouGo,
                false => crate::player::Reveal::Everything,
            }))
        })
    };
    // The way on: the lessons before and after this one, each named by what a learner may
    // read before it (its setup, until finished). Not in an embed: the course around it
    // leads the way there.
    let finished = crate::ui::hooks::finished();
    let way_on = (!embed).then(|| {
        let at_end = player.cursor == player.trace.len();
        let unit = crate::ui::hooks::unit_lessons();
        crate::ui::markup(crate::path::way_on(&m, id.as_str(), &finished, at_end, unit.as_deref()))
    });
    // The page's static parts as markup (text with a few links: no listeners), which costs
    // the first page less code than a node per element.
    let head = {
        let mut o = crate::markup::Markup::new();
        o.open("header", &[("class", "player-head")]).element("h1", &[], &title);
        if !embed && !hidden {
            o.open("p", &[("class", "summary")]);
            // In a what-if fork the summary is the lesson's, not this run's.
            if forked {
                let tag = format!("{lesson_tag} ");
                o.element(
                    "strong",
                    &[("class", "lesson-tag"), ("data-testid", "lesson-tag")],
                    &tag,
                );
            }
            o.text(&m.content(&format!("s.{id}.summary"), &scenario.summary)).close("p");
        }
        // A run made elsewhere (a challenge's counterexample) may have no goal to show.
        if !scenario.goal.is_empty() {
            o.open("p", &[("class", "goal")]).element(
                "strong",
                &[],
                &format!("{} ", m.t("player.goal")),
            );
            o.text(&m.content(&format!("s.{id}.goal"), &scenario.goal)).close("p");
        }
        o.close("header");
        crate::ui::markup(o)
    };
    let links = (!embed).then(|| {
        let mut o = crate::markup::Markup::new();
        let compare = Link::to(crate::route::View::Compare { id: id.clone() }).to_hash();
        o.open("p", &[]).element("a", &[("href", &compare)], &m.t("player.compare")).close("p");
        if let Some(target) = break_target(&props.link.view) {
            let search = Link::to(crate::route::View::Break { target }).to_hash();
            let attrs = [("href", search.as_str()), ("data-testid", "try-break")];
            o.open("p", &[]).element("a", &attrs, &m.t("player.break")).close("p");
        }
        crate::ui::markup(o)
    });
    let future = match hidden {
        true => swimlanes::Future::Hidden,
        false => swimlanes::Future::Shown,
    };
    html! {
        <section class={classes!("player", embed.then_some("compact"), match props.link.options.controls {
                    Controls::Full => None,
                    Controls::Compact => Some("controls-compact"),
                    Controls::None => Some("controls-none"),
                 })} data-testid="player" data-id={id.to_string()} tabindex="0"
                 aria-label={m.tf("player.label", &[("title", &title)])}>
            { head }
            if hidden {
                <div class="verdict hidden" data-testid="verdict" role="status">{ m.t("player.outcome_hidden") }</div>
            } else {
                <inspector::Verdict trace={player.trace.clone()} changed={!player.whatif.is_original()} />
            }
            <Swimlanes trace={player.trace.clone()} cursor={player.cursor} time_ms={player.time_ms} on_action={dispatch.clone()} {future} title={title.clone()} />
            { legend(&m) }
            <controls::Controls player={Rc::new(player.clone())} on_action={dispatch.clone()} />
            { story }
            <div class="visually-hidden" aria-live="polite" data-testid="live">{ live }</div>
            if let Some(i) = player.prompt_due() {
                <prompt::PromptBox key={i} scenario={scenario.clone()} index={i} on_action={dispatch.clone()} />
            }
            <div class="player-body">
                <inspector::Inspector trace={player.trace.clone()} cursor={player.cursor} time_ms={player.time_ms} on_action={dispatch.clone()} />
                <aside class="side">
                    if !scenario.in_code.is_empty() {
                        { in_code_panel(&m.t("player.in_code"), &m.content(&format!("s.{id}.in_code"), &scenario.in_code)) }
                    }
                    <whatif_panel::WhatIfPanel original={player.original.clone()} whatif={player.whatif.clone()} on_action={dispatch.clone()} />
                    // In an embed they lead out of the course page: only when asked for.
                    if !props.link.embed || props.link.options.tools {
                        <crate::ui::share::Share player={Rc::new(player.clone())} link={props.link.clone()} />
                        <controls::Exports trace={player.trace.clone()} id={player.original.id.clone()} link={crate::ui::share::permalink(player, &props.link, m.lang)} />
                    }
                    if !scenario.prompts.is_empty() {
                        <label class="reveal"><input type="checkbox" data-testid="reveal" checked={player.reveal == crate::player::Reveal::Everything} onchange={reveal} />{ " " }{ m.t("player.reveal") }</label>
                    }
                    { for links }
                </aside>
            </div>
            { for way_on }
            <controls::EventLog trace={player.trace.clone()} cursor={player.cursor} on_action={dispatch.clone()} upto={hidden.then_some(player.cursor)} />
        </section>
    }
}

/// What a key does in the player: `None` for other keys and for typing in a form field or
/// Space on a button.
fn key_action(e: &KeyboardEvent) -> Option<Action> {
    let action = match (e.key().as_str(), e.shift_key()) {
        ("ArrowRight", false) => Action::StepForward,
        ("ArrowLeft", false) => Action::StepBack,
        ("ArrowRight", true) => Action::NextMilestone,
        ("ArrowLeft", true) => Action::PrevMilestone,
        (" ", _) => Action::TogglePlay,
        ("Home", _) => Action::First,
        ("End", _) => Action::Last,
        _ => return None,
    };
    let in_field = e
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON" | "SUMMARY")
                && el.get_attribute("type").as_deref() != Some("range")
        });
    (!in_field).then_some(action)
}

/// The "In your code" panel, each name the lesson puts in backticks shown as code
/// (`docs/library-names.json` lists them). One piece of markup rather than a node per
/// name: the first page's budget.
fn in_code_panel(title: &str, text: &str) -> Html {
    let mut o = crate::markup::Markup::new();
    o.open("details", &[("class", "reveal in-code")]);
    o.element("summary", &[], title).open("p", &[]).text_with_code(text);
    o.close("p").close("details");
    crate::ui::markup(o)
}

/// What "Try to break it" searches: the built-in, or the scenario the link carries.
fn break_target(view: &crate::route::View) -> Option<crate::route::Target> {
    match view {
        crate::route::View::Scenario { id } => Some(crate::route::Target::Builtin(id.clone())),
        crate::route::View::Custom { payload } => {
            Some(crate::route::Target::Carried(payload.clone()))
        }
        _ => None,
    }
}

/// What the story says at this step: the lesson's paragraph at its event; at a later step
/// the paragraph does not speak of, "This step:" and what that step did, then the
/// paragraph labelled with the step it belongs to; how to begin before the first.
fn narration_html(m: &crate::i18n::Messages, player: &Player) -> Html {
    use crate::catalogue::narration::{Told, told_now};
    let trace = &player.trace;
    let lesson: &crate::catalogue::lesson::Scenario = &player.original;
    let id = &lesson.id;
    let now = told_now(trace, lesson, player.cursor);
    let at_its_event = now.is_some_and(|(_, event)| event + 1 == player.cursor);
    let story = now.map(|(told, _)| match told {
        Told::Paragraph(i) => m.content(&format!("s.{id}.n.{i}"), &lesson.narration[i].text),
        Told::Departed => m.t("player.whatif_differs"),
    });
    // A step the story does not speak of says what it did, labelled as this step; the
    // paragraph it follows stays below, labelled with its own step, so it does not read as
    // if its events happened again.
    let (step, this_step) = match player.current_event() {
        Some(e) if story.is_none() || !at_its_event => {
            let prose = m.note(&e.note);
            let said = match (prose.is_empty(), e.command.is_empty()) {
                (false, _) => prose,
                (true, true) => e.reply.clone(),
                (true, false) => format!("{} \u{2192} {}", e.command, e.reply),
            };
            (Some(format!("{}: {said}", trace.actor_name(e.actor))), true)
        }
        Some(_) => (None, false),
        None => (Some(m.t("player.begin")), false),
    };
    let earlier = match now {
        Some((Told::Paragraph(_), event)) if !at_its_event => {
            Some(m.tf("player.story_earlier", &[("step", &(event + 1).to_string())]))
        }
        _ => None,
    };
    // Keys are for a keyboard: a touch screen (hover: none) hides the hint.
    let keys = player.current_event().is_none().then(|| {
        html! { <>{ " " }<span class="keys-hint">{ m.t("player.begin_keys") }</span></> }
    });
    html! {
        <div class="narration" data-testid="narration" aria-live="polite">
            if let Some(step) = step {
                <p class="step">
                    if this_step { <strong>{ m.t("player.this_step") }{ " " }</strong> }
                    { step }{ for keys }
                </p>
            }
            if let Some(story) = story {
                <p class="story">
                    if let Some(earlier) = earlier { <strong>{ earlier }{ " " }</strong> }
                    { story }
                </p>
            }
        </div>
    }
}

/// What every mark on the timeline means: the same shapes and classes as the drawing,
/// written as one string like the drawing itself.
fn legend(m: &crate::i18n::Messages) -> Html {
    let mut o = crate::markup::Markup::new();
    o.open("details", &[("class", "legend"), ("data-testid", "legend")]);
    o.element("summary", &[], &m.t("legend.title")).open("ul", &[]);
    for (glyph, key) in LEGEND {
        o.open("li", &[]);
        o.open("svg", &[("class", "glyph"), ("viewBox", "0 0 20 14"), ("aria-hidden", "true")]);
        o.fixed(glyph).close("svg").text(&m.t(key)).close("li");
    }
    o.close("ul").close("details");
    crate::ui::markup(o)
}

/// Each legend entry: its glyph (drawn with the timeline's classes) and its message key.
const LEGEND: [(&str, &str); 10] = [
    (
        r#"<g class="lock holder-0"><rect x="0" y="2" width="20" height="10" class="lock-bar"/></g>"#,
        "legend.lock",
    ),
    (
        r#"<g class="belief holder-0"><rect x="1" y="2" width="18" height="10" class="belief-stale"/></g>"#,
        "legend.stale",
    ),
    (r#"<rect x="0" y="1" width="20" height="12" class="span-paused"/>"#, "legend.paused"),
    (r#"<rect x="0" y="1" width="20" height="12" class="span-down"/>"#, "legend.down"),
    (r#"<g class="marker ok"><circle cx="10" cy="7" r="5"/></g>"#, "legend.ok"),
    (r#"<g class="marker refused"><path d="M6 3 l8 8 M14 3 l-8 8"/></g>"#, "legend.refused"),
    (r#"<g class="marker fact"><circle cx="10" cy="7" r="4"/></g>"#, "legend.fact"),
    (r#"<g class="marker warning"><path d="M10 1 l6 6 l-6 6 l-6 -6 z"/></g>"#, "legend.warning"),
    (r#"<g class="marker violation"><path d="M10 1 l7 12 h-14 z"/></g>"#, "legend.violation"),
    (r#"<g class="fence"><path d="M1 4 V12 H19" class="fence-line"/></g>"#, "legend.fence"),
];

#[derive(PartialEq, Properties)]
pub(crate) struct CustomScenarioProps {
    pub(crate) payload: Payload,
    pub(crate) link: Link,
}

/// A scenario carried in the link: decoded (and inflated, if compressed), checked like any
/// file, then played; a broken one gets the loader's message instead.
#[component]
pub(crate) fn CustomScenario(props: &CustomScenarioProps) -> Html {
    let m = use_i18n();
    let decoded = use_state(|| None::<Result<Scenario, String>>);
    {
        let decoded = decoded.clone();
        use_effect_with(props.payload.clone(), move |payload| {
            let payload = payload.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = match payload {
                    Payload::Json(text) => Ok(text),
                    Payload::Deflated(bytes) => crate::ui::share::inflate(&bytes).await,
                };
                let result = text.and_then(|t| {
                    crate::catalogue::load::parse_scenario(&t).map_err(|e| e.to_string())
                });
                decoded.set(Some(result));
            });
            || ()
        });
    }
    match &*decoded {
        None => html! { <p>{ m.t("loading") }</p> },
        Some(Ok(scenario)) => {
            // "Edit a copy" of a scenario carried in a link: the sandbox on a copy of it.
            let tools = !props.link.embed || props.link.options.tools;
            let copy = crate::sandbox::copy_hash(&props.link.view).filter(|_| tools);
            html! {
                <>
                    <PlayerPage scenario={crate::player::ScenarioRef::new(scenario.clone())} link={props.link.clone()} />
                    if let Some(copy) = copy {
                        <p class="edit-copy"><a class="exports" href={copy} data-testid="edit-copy">{ m.t("share.edit_copy") }</a></p>
                    }
                </>
            }
        }
        Some(Err(message)) => {
            html! { <><crate::ui::not_found::Invalid message={message.clone()} /><crate::ui::home::Home /></> }
        }
    }
}

#[derive(PartialEq, Properties)]
pub(crate) struct FetchedPlayerProps {
    /// A built-in's id (already checked against the catalogue index).
    pub(crate) id: String,
    pub(crate) link: Link,
}

thread_local! {
    /// Lessons fetched so far, so going back to one does not fetch it again.
    static FETCHED: std::cell::RefCell<Vec<crate::player::ScenarioRef>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The main page's player of a built-in: the page carries only the catalogue index, so the
/// lesson is fetched from `scenarios/<id>.lesson` next to the page when it is opened (the
/// lesson baked into postcard by `fence bake`: the page reads it without a JSON parser).
#[component]
pub(crate) fn FetchedPlayer(props: &FetchedPlayerProps) -> Html {
    let m = use_i18n();
    let id = crate::catalogue::canonical_id(&props.id).to_owned();
    let cached = FETCHED.with(|f| f.borrow().iter().find(|s| s.id == id).cloned());
    let loaded = use_state(|| None::<Result<crate::player::ScenarioRef, String>>);
    {
        let loaded = loaded.clone();
        use_effect_with((id.clone(), cached.is_some()), move |(id, cached)| {
            if !*cached {
                let id = id.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let url = format!("scenarios/{id}.lesson");
                    let result = crate::ui::i18n::fetch_bytes(&url).await.and_then(|bytes| {
                        crate::catalogue::load::read_lesson(&bytes)
                            .map_err(|e| format!("{url}: {e}"))
                    });
                    let result = result.map(|s| {
                        let s = crate::player::ScenarioRef::new(s);
                        FETCHED.with(|f| f.borrow_mut().push(s.clone()));
                        s
                    });
                    loaded.set(Some(result));
                });
            }
            || ()
        });
    }
    let scenario = cached
        .map(Ok)
        .or_else(|| (*loaded).clone().filter(|r| r.as_ref().map_or(true, |s| s.id == id)));
    match scenario {
        Some(Ok(scenario)) => {
            html! { <PlayerPage key={id} scenario={scenario} link={props.link.clone()} /> }
        }
        Some(Err(why)) => html! {
            <p class="error" data-testid="load-error" role="alert">{ m.tf("player.load_failed", &[("why", &why)]) }</p>
        },
        None => html! { <p class="loading" data-testid="loading">{ m.t("loading") }</p> },
    }
}

/// A new hash for this scenario (a link clicked, Back or Forward) moves the player to the
/// moment and knobs it names; the first render already started there.
#[hook]
fn use_link_moves(state: &UseReducerHandle<PlayerState>, link: &Link, dispatch: &Callback<Action>) {
    {
        let dispatch = dispatch.clone();
        let mounted = use_mut_ref(|| false);
        let shown = state.0.whatif.clone();
        use_effect_with(
            (link.t_ms, link.whatif.clone(), link.reveal),
            move |(t_ms, whatif, reveal)| {
                if std::mem::replace(&mut *mounted.borrow_mut(), true) {
                    let reveal = match reveal {
                        true => crate::player::Reveal::Everything,
                        false => crate::player::Reveal::AsYouGo,
                    };
                    dispatch.emit(Action::SetReveal(reveal));
                    if *whatif != shown {
                        dispatch.emit(Action::Fork(whatif.clone()));
                    }
                    dispatch.emit(Action::JumpTime(t_ms.unwrap_or(0)));
                }
                || ()
            },
        );
    }
}

/// The host page: commands in, `ready` out (only to listed origins).
#[hook]
fn use_host(dispatch: &Callback<Action>, id: &crate::sim::scenario::ScenarioId) {
    {
        let dispatch = dispatch.clone();
        use_host_messages(move |message| match message {
            Inbound::Seek { t_ms } => dispatch.emit(Action::JumpTime(t_ms)),
            Inbound::Play => dispatch.emit(Action::Play),
            Inbound::Pause => dispatch.emit(Action::Pause),
            Inbound::LoadScenario { id } => {
                if let Some(hash) = crate::ui::embed::scenario_hash(id) {
                    crate::ui::nav::set_hash(&hash);
                }
            }
            // Progress belongs to the quiz, the learner to the channel.
            Inbound::RestoreProgress { .. } | Inbound::SetLearner { .. } => {}
        });
    }
    {
        let id = id.clone();
        use_effect_with((), move |_| {
            post(&Outbound::Ready { view: ReadyView::Scenario(id.to_string()) });
            || ()
        });
    }
}

/// One `step` per event the cursor lands on (never per playback tick; with
/// `steps=milestones` only at milestones and at the end), and at an end the learner reached
/// (not a link's or a host's jump there) `completed`, the lesson marked finished and, once per visit, the learning event (with the whole `title`).
#[hook]
fn use_reports(player: &Player, link: &Link, title: String, lang: crate::lang::Lang) {
    {
        let trace = player.trace.clone();
        let id = player.original.id.clone();
        let steps = link.options.steps;
        let t_ms = player.time_ms;
        let progressed = use_mut_ref(|| false);
        // Reached by the learner, not by a link or a host's seek (see `Player::watch`).
        let watched = player.watched_to_end();
        // One `step` per event the cursor lands on (never per playback tick); with
        // `steps=milestones` only at milestones and at the end.
        use_effect_with(player.cursor, move |&cursor| {
            let event = cursor.checked_sub(1).and_then(|i| trace.events().get(i));
            let milestone = event.is_some_and(|e| crate::player::is_milestone(&e.kind));
            let end = cursor == trace.len() && cursor > 0;
            if steps == Steps::Each || milestone || end {
                let event =
                    event.map(|e| (e.kind.tag().to_owned(), trace.actor_name(e.actor), e.at_ms));
                post(&Outbound::Step { t_ms, cursor, event, milestone });
            }
            if end && watched {
                post(&Outbound::Completed { scenario: id.to_string() });
                crate::ui::hooks::mark_finished(id.as_str());
                // The learning event goes once per visit: the learner saw the whole run.
                if !std::mem::replace(&mut *progressed.borrow_mut(), true) {
                    let activity = crate::xapi::Activity {
                        id: format!("{}#/s/{id}", crate::ui::embed::activity_base()),
                        name: title,
                        ..Default::default()
                    };
                    let outcome =
                        crate::xapi::Outcome { completion: Some(true), ..Default::default() };
                    post_statement(&crate::xapi::statement(
                        &statement_context(lang),
                        crate::xapi::Verb::Completed,
                        &activity,
                        &outcome,
                        None,
                    ));
                }
            }
            || ()
        });
    }
}

/// The player as a link opens it: revealed or not, forked, ranged, at its moment, playing.
fn opening(scenario: &crate::player::ScenarioRef, link: &Link) -> PlayerState {
    let mut player = Player::new((**scenario).clone());
    if link.reveal {
        player = player.update(Action::SetReveal(crate::player::Reveal::Everything));
    }
    if !link.whatif.is_original() {
        player = player.update(Action::Fork(link.whatif.clone()));
    }
    let o = &link.options;
    if o.from_ms.is_some() || o.to_ms.is_some() {
        player =
            player.update(Action::SetRange(o.from_ms.unwrap_or(0), o.to_ms.unwrap_or(u64::MAX)));
    }
    if let Some(t) = link.t_ms {
        player = player.update(Action::JumpTime(t));
    }
    if o.autoplay {
        player = player.update(Action::Play);
    }
    PlayerState(player)
}

/// The player's keys, while focus is in it or on the page itself (a learner arriving
/// from a link has focus on the page, not the player, and the story says → steps). Keys
/// aimed at anything else are left alone, and an embed's keys stay in its frame, so a
/// host page keeps its own.
#[hook]
fn use_player_keys(dispatch: &Callback<Action>) {
    crate::ui::hooks::use_page_keys(".player", {
        let dispatch = dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            if let Some(action) = key_action(&e) {
                e.prevent_default();
                dispatch.emit(action);
            }
        })
    });
}
