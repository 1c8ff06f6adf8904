//! The quiz: one question at a time, feedback with the explanation (and, for a wrong
//! choice, why it fails, with "Try again"; the other options' reasons folded), "show me" in the
//! simulator, and progress kept in localStorage (a versioned key; unreadable storage is
//! reset with a visible notice, never a crash). The questions come from the bundle when it
//! carries them (the browser tests' and the course package's), else fetched once from
//! `quiz.json` beside the page, so the lab's bundle does not carry them for the sandbox's
//! and the comparisons' visitors.

use std::rc::Rc;

use yew::prelude::*;

use crate::embed::{Inbound, Outbound, ReadyView};
use crate::progress::session::{Action, Effect, Session};
use crate::progress::{MASTERY_PCT, Progress, Stored, storage_key};
use crate::quiz::{self, Question};
use crate::route::{Link, View};
use crate::ui::embed::{post, post_statement, statement_context, use_host_messages};
use crate::ui::hooks::{Reduced, Update};
use crate::ui::i18n::use_i18n;
use crate::xapi::{Activity, Outcome, Verb, statement};

#[derive(PartialEq, Properties)]
pub(crate) struct QuizPageProps {
    pub(crate) embed: bool,
    /// The link that opened the quiz (its `q=` names the question).
    pub(crate) link: Link,
}

/// How a bundle that carries the bank reads it.
type CompiledBank = fn() -> Vec<Question>;

thread_local! {
    /// The questions a course package's quiz SCO asks (all when none).
    static QUESTIONS: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
    /// The bank, when this bundle carries it (see [`compile_in`]).
    static COMPILED: std::cell::Cell<Option<CompiledBank>> = const { std::cell::Cell::new(None) };
    /// A course package's quiz progress, as the LMS gave it and as the learner went on.
    static COURSE_PROGRESS: std::cell::RefCell<Progress> = std::cell::RefCell::default();
    /// The bank once fetched, so coming back to the quiz does not fetch it again.
    static FETCHED: std::cell::RefCell<Option<Rc<Vec<Question>>>> = const { std::cell::RefCell::new(None) };
}

/// Called by `App` for the bundles that carry the bank (`quiz::bank`).
pub(crate) fn compile_in(bank: Option<CompiledBank>) {
    COMPILED.with(|c| c.set(bank));
}

/// The bank if it is here already: compiled in, or fetched before.
fn bank_at_hand() -> Option<Result<Rc<Vec<Question>>, String>> {
    let bank = match COMPILED.with(std::cell::Cell::get) {
        Some(bank) => Some(Rc::new(bank())),
        None => FETCHED.with(|f| f.borrow().clone()),
    };
    bank.map(Ok)
}

/// The bank fetched from `quiz.json`, and kept.
async fn fetch_bank() -> Result<Rc<Vec<Question>>, String> {
    let text = crate::ui::i18n::fetch_text("quiz.json").await?;
    let bank = Rc::new(quiz::parse_bank(&text)?.questions);
    FETCHED.with(|f| *f.borrow_mut() = Some(bank.clone()));
    Ok(bank)
}

/// The bank, once it is there (`None` while it is fetched; at once when it is at hand).
#[hook]
fn use_bank() -> Option<Result<Rc<Vec<Question>>, String>> {
    crate::ui::hooks::use_loaded((), |_| bank_at_hand(), |_| fetch_bank())
}

/// Makes this page a course package's quiz: only `ids`, in that order, starting from
/// `progress` (the LMS's copy) and keeping it in this page for its life (a "Show me" and
/// back remounts the quiz), never in this browser's storage, which another learner or an
/// earlier attempt may have filled. Set before the quiz mounts.
pub(crate) fn set_course(ids: Vec<String>, progress: Progress) {
    QUESTIONS.with(|q| *q.borrow_mut() = Some(ids));
    COURSE_PROGRESS.with(|p| *p.borrow_mut() = progress);
}

/// localStorage, if this page may use it: a third-party frame may find it throwing or
/// missing (blocked), in which case progress lasts for this visit only. A course package's
/// quiz never uses it.
fn storage() -> Option<web_sys::Storage> {
    if QUESTIONS.with(|q| q.borrow().is_some()) {
        return None;
    }
    crate::ui::local_storage()
}

/// How loading went: progress, and what to tell the learner.
struct Loaded {
    progress: Progress,
    notice: Option<&'static str>,
}

/// Where stored progress that could not be read is copied before the quiz starts again.
const ASIDE_KEY: &str = "fencing-playground/quiz-progress-unreadable/v1";

fn load_progress(bank: &[Question], key: &str) -> Loaded {
    if QUESTIONS.with(|q| q.borrow().is_some()) {
        let progress = COURSE_PROGRESS.with(|p| p.borrow().clone());
        return Loaded { progress, notice: None };
    }
    let Some(storage) = storage() else {
        return Loaded { progress: Progress::default(), notice: Some("quiz.storage_none") };
    };
    let stored = storage.get_item(key).ok().flatten();
    match Progress::read(stored.as_deref(), bank) {
        Stored::Valid(progress) => Loaded { progress, notice: None },
        Stored::Nothing => Loaded { progress: Progress::default(), notice: None },
        Stored::Corrupt => {
            // Kept aside, as it was, before the quiz starts again from nothing.
            let kept = stored.as_deref().is_some_and(|s| storage.set_item(ASIDE_KEY, s).is_ok());
            let _ = storage.remove_item(key);
            let notice = if kept { "quiz.storage_reset" } else { "quiz.storage_reset_lost" };
            Loaded { progress: Progress::default(), notice: Some(notice) }
        }
    }
}

/// Keeps progress where it can (joined with what another tab of this quiz stored under
/// `key`, so neither loses answers), and offers it to the host page (which may keep it for
/// a frame without storage, and give it back with `restore-progress`).
fn save_progress(progress: &Progress, key: &str, bank: &[Question]) {
    if QUESTIONS.with(|q| q.borrow().is_some()) {
        COURSE_PROGRESS.with(|p| *p.borrow_mut() = progress.clone());
    }
    if let Some(s) = storage() {
        let mut joined = progress.clone();
        if let Stored::Valid(theirs) =
            Progress::read(s.get_item(key).ok().flatten().as_deref(), bank)
        {
            joined.merge(&theirs);
        }
        // Storage may be full; progress then lasts for this visit only.
        let _ = s.set_item(key, &joined.to_text());
    }
    post(&Outbound::Progress { data: progress.to_text() });
}

#[component]
pub(crate) fn QuizPage(props: &QuizPageProps) -> Html {
    let m = use_i18n();
    match use_bank() {
        None => html! {
            <section class="quiz" data-testid="quiz-loading"><p class="muted">{ m.t("loading") }</p></section>
        },
        Some(Err(why)) => html! {
            <section class="quiz">
                <p class="notice" role="alert" data-testid="quiz-load-failed">{ m.labf("quiz.load_failed", &[("why", &why)]) }</p>
            </section>
        },
        Some(Ok(bank)) => html! {
            <Quiz {bank} embed={props.embed} link={props.link.clone()} />
        },
    }
}

#[derive(PartialEq, Properties)]
struct QuizProps {
    bank: Rc<Vec<Question>>,
    embed: bool,
    link: Link,
}

impl Update for Session {
    type Action = Action;
    fn update(&mut self, action: Action) {
        Session::update(self, action);
    }
}

/// The quiz over a bank that has arrived.
#[component]
fn Quiz(props: &QuizProps) -> Html {
    let m = use_i18n();
    let (questions, unknown) = use_asked(&props.bank, &props.link);
    let key = progress_key(&props.link, &questions);
    let loaded = {
        let key = key.clone();
        use_memo(props.bank.clone(), move |bank| load_progress(bank, &key))
    };
    let notice = loaded.notice;
    let state = {
        let questions = questions.clone();
        let progress = loaded.progress.clone();
        let asked = props.link.question.unwrap_or(0);
        use_reducer(move || {
            let asked_for = questions.iter().map(|q| (q.id.clone(), q.answer)).collect();
            let mut session = Session::new(asked_for, progress, MASTERY_PCT);
            session.update(Action::Open(asked));
            Reduced(session)
        })
    };
    use_quiz_effects(&state, &questions, &props.link, m.lang, &key);
    use_host(&state, &props.bank, questions.len());
    use_other_tabs(&state, &props.bank, key);
    // Back to a quiz link (after "Show me") or a new q= moves to that question.
    {
        let dispatch = state.dispatcher();
        use_effect_with(props.link.question.unwrap_or(0), move |&asked| {
            dispatch.dispatch(Action::Open(asked));
            || ()
        });
    }
    let session = &state.0;
    let (index, selected, checked) = (session.index, session.chosen, session.checked);
    // "Show me" needs the question's lesson (fetched; called before any early return, as
    // hooks must be).
    let shown = questions.get(index).map(|q| q.show.scenario.clone()).unwrap_or_default();
    let lesson = crate::ui::lessons::use_lesson(&shown);
    // "Show me": the scenario at the moment its event happens (run once per question).
    let show_href = {
        let at = questions.get(index).map(|q| q.show.at.clone());
        let lang = m.lang;
        use_memo((index, lesson.is_some(), lang), move |_| {
            let (scenario, at) = (lesson.and_then(Result::ok)?, at?);
            let trace = crate::sim::run(&scenario.setup);
            let t_ms = crate::catalogue::anchor::find(&trace, &at).map(|i| trace.events()[i].at_ms);
            // The site's player, never an embed: an embedded quiz opens it in a new tab
            // (see `Feedback`), so the frame keeps its quiz, its `frame=` and its host.
            let link =
                Link { t_ms, lang: Some(lang), ..Link::to(View::Scenario { id: scenario.id }) };
            Some(link.to_hash())
        })
    };
    let unknown_notice = unknown_notice(&m, &unknown);
    let Some(q) = questions.get(index) else {
        return html! { <section class="quiz" data-testid="quiz-empty">{ unknown_notice }</section> };
    };
    let key = |suffix: &str| format!("q.{}.{suffix}", q.id);
    let n = questions.len();
    let send = |action: Action| {
        let dispatch = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(action.clone()))
    };

    let options = q.options.iter().enumerate().map(|(j, option)| {
        let dispatch = state.dispatcher();
        let onchange = Callback::from(move |_: Event| dispatch.dispatch(Action::Choose(j)));
        // Once checked, the right option is marked, and a wrong choice as wrong.
        let (class, note) = match checked {
            Some(_) if j == q.answer => ("option right", Some(m.lab("quiz.right_answer"))),
            Some(c) if c == j => ("option wrong", None),
            _ => ("option", None),
        };
        html! {
            <li>
                <label class={class}>
                    <input type="radio" name="quiz-option" value={j.to_string()} checked={selected == Some(j)}
                        disabled={checked.is_some()} {onchange} data-testid="quiz-option" />
                    { " " }{ m.content(&key(&format!("o.{j}")), option) }
                    if let Some(note) = note { <strong class="answer-mark" data-testid="quiz-right">{ " ✓ " }{ note }</strong> }
                </label>
            </li>
        }
    });
    // A graded quiz (a course package's) keeps its answers: the LMS already has them.
    let course = QUESTIONS.with(|q| q.borrow().is_some());
    let reset = {
        let dispatch = state.dispatcher();
        let question = m.lab("quiz.reset_confirm");
        Callback::from(move |_: MouseEvent| {
            let sure = web_sys::window().and_then(|w| w.confirm_with_message(&question).ok());
            if sure == Some(true) {
                dispatch.dispatch(Action::Reset);
            }
        })
    };
    let progress = &session.progress;
    let answered = progress.answers.len().to_string();
    // What the score counts (and an LMS records): first answers only.
    let first = session.score().to_string();
    // A question answered before says how it went, so coming back is not a blank slate.
    let before = match (checked.is_none(), progress.answers.get(&q.id)) {
        (true, Some(a)) if a.first_correct => Some("quiz.before_right"),
        (true, Some(a)) if a.correct => Some("quiz.before_right_since"),
        (true, Some(_)) => Some("quiz.before_not_yet"),
        _ => None,
    };
    html! {
        <section class="quiz" data-testid="quiz">
            <h1>{ m.lab("quiz.title") }</h1>
            if let Some(notice) = notice {
                <p class="notice" role="alert" data-testid="storage-notice">{ m.lab(notice) }</p>
            }
            { unknown_notice.clone() }
            <p class="muted" data-testid="quiz-progress">
                { m.labf("quiz.progress", &[("n", &(index + 1).to_string()), ("m", &n.to_string()), ("answered", &answered), ("first", &first)]) }
            </p>
            if let Some(before) = before {
                <p class="muted" data-testid="quiz-before">{ m.lab(before) }</p>
            }
            <fieldset class="question" data-testid="question" data-id={q.id.clone()}>
                <legend data-testid="quiz-prompt">{ m.content(&key("prompt"), &q.prompt) }</legend>
                <ol class="options">{ for options }</ol>
            </fieldset>
            if let Some(choice) = checked {
                <Feedback question={q.clone()} {choice} show_href={(*show_href).clone()} embed={props.embed} />
                if choice != q.answer {
                    <button onclick={send(Action::TryAgain)} data-testid="quiz-retry">{ m.lab("quiz.try_again") }</button>
                }

            } else {
                <button onclick={send(Action::Check)} disabled={selected.is_none()} data-testid="quiz-check">{ m.lab("quiz.check") }</button>
            }
            <div class="quiz-nav">
                <button onclick={send(Action::Go(-1))} disabled={index == 0} data-testid="quiz-prev">{ m.lab("quiz.prev") }</button>
                <button onclick={send(Action::Go(1))} disabled={index + 1 >= n} data-testid="quiz-next">{ m.lab("quiz.next") }</button>
                if !course {
                    <button onclick={reset} data-testid="quiz-reset">{ m.lab("quiz.reset") }</button>
                }
            </div>
            if !course && !props.embed {
                <crate::ui::picker::QuestionPicker bank={props.bank.clone()} />
            }
        </section>
    }
}

/// The questions asked: a course package's, else the link's `questions=` (in its order),
/// else the whole bank; and the ids the link names that the bank does not hold.
#[hook]
fn use_asked(bank: &Rc<Vec<Question>>, link: &Link) -> (Rc<Vec<Question>>, Vec<String>) {
    let asked = QUESTIONS.with(|q| q.borrow().clone()).unwrap_or_else(|| link.questions.clone());
    let questions =
        use_memo((bank.clone(), asked.clone()), |(bank, asked)| match asked.is_empty() {
            true => bank.to_vec(),
            false => {
                asked.iter().filter_map(|id| bank.iter().find(|q| &q.id == id).cloned()).collect()
            }
        });
    let unknown = asked.into_iter().filter(|id| !bank.iter().any(|q| &q.id == id)).collect();
    (questions, unknown)
}

/// Where this quiz keeps its progress: each embed (by its `frame=`) and each choice of
/// questions under its own key, a link's choice keyed by the questions it asks (an unknown
/// id left out).
fn progress_key(link: &Link, questions: &[Question]) -> String {
    let chosen: Vec<String> = match link.questions.is_empty() {
        true => Vec::new(),
        false => questions.iter().map(|q| q.id.clone()).collect(),
    };
    storage_key(link.options.frame.as_deref(), &chosen)
}

/// A link naming questions the bank does not hold says which (and the others are asked).
fn unknown_notice(m: &crate::i18n::Messages, unknown: &[String]) -> Html {
    if unknown.is_empty() {
        return Html::default();
    }
    let ids = unknown.join(", ");
    html! { <p class="notice" role="alert" data-testid="quiz-unknown">{ m.labf("quiz.unknown", &[("ids", &ids)]) }</p> }
}

/// Carries out what the session sent (each effect once): keeps the progress, tells the host
/// page and the LRS about answers and the grade, and writes the question into the address.
#[hook]
fn use_quiz_effects(
    state: &UseReducerHandle<Reduced<Session>>,
    questions: &Rc<Vec<Question>>,
    link: &Link,
    lang: crate::lang::Lang,
    key: &str,
) {
    let seen = use_mut_ref(|| 0u64);
    let started_ms = use_memo((), |_| js_sys::Date::now());
    let open_ms = use_open_since(state);
    let m = use_i18n();
    let (session, questions, link) = (state.0.clone(), questions.clone(), link.clone());
    let key = key.to_owned();
    let started_ms = *started_ms;
    use_effect_with(session.sent(), move |_| {
        let (effects, next) = session.effects_after(*seen.borrow());
        *seen.borrow_mut() = next;
        let site = crate::ui::embed::activity_base();
        let quiz_activity = Activity {
            id: format!("{site}#/quiz"),
            name: m.lab("quiz.title"),
            ..Activity::default()
        };
        for effect in effects {
            match effect {
                Effect::Keep(progress) => save_progress(&progress, &key, &questions),
                Effect::Forget => {
                    if let Some(s) = storage() {
                        let _ = s.remove_item(&key);
                    }
                    post(&Outbound::Progress { data: Progress::default().to_text() });
                }
                Effect::Store(text) => {
                    if let Some(s) = storage() {
                        let _ = s.set_item(&key, &text);
                    }
                }
                Effect::Answered { index, mut answered } => {
                    let Some(q) = questions.get(index) else { continue };
                    answered.latency_ms = (js_sys::Date::now() - *open_ms.borrow()).max(0.0) as u64;
                    let key = |suffix: &str| format!("q.{}.{suffix}", q.id);
                    let question_activity = Activity {
                        id: format!("{site}#/quiz?q={}", q.id),
                        name: m.content(&key("prompt"), &q.prompt),
                        choices: (0..q.options.len())
                            .map(|j| m.content(&key(&format!("o.{j}")), &q.options[j]))
                            .collect(),
                        correct: Some(q.answer),
                        ..Activity::default()
                    };
                    let outcome = Outcome {
                        success: Some(answered.correct),
                        response: Some(answered.choice),
                        attempt: Some(answered.attempt),
                        ..Outcome::default()
                    };
                    post(&Outbound::QuizAnswered(answered));
                    post_statement(&statement(
                        &statement_context(lang),
                        Verb::Answered,
                        &question_activity,
                        &outcome,
                        Some(&quiz_activity),
                    ));
                }
                Effect::Completed { score, total, passed } => {
                    post(&Outbound::QuizCompleted { score, total, passed });
                    let outcome = Outcome {
                        score: Some((score, total)),
                        success: Some(passed),
                        completion: Some(true),
                        duration_ms: Some((js_sys::Date::now() - started_ms).max(0.0) as u64),
                        ..Outcome::default()
                    };
                    for verb in [Verb::Completed, if passed { Verb::Passed } else { Verb::Failed }]
                    {
                        post_statement(&statement(
                            &statement_context(lang),
                            verb,
                            &quiz_activity,
                            &outcome,
                            None,
                        ));
                    }
                }
                Effect::Address(question) => {
                    // Kept in the address, so leaving for "Show me" and coming Back finds it.
                    let here = Link { view: View::Quiz, question: Some(question), ..link.clone() };
                    crate::ui::nav::replace_hash(&here.to_hash());
                }
            }
        }
        || ()
    });
}

/// When the question on screen was last open for an answer (shown, or tried again): what
/// an answer's latency counts from.
#[hook]
fn use_open_since(state: &UseReducerHandle<Reduced<Session>>) -> Rc<std::cell::RefCell<f64>> {
    let open_ms = use_mut_ref(js_sys::Date::now);
    {
        let open_ms = open_ms.clone();
        let open = (state.0.index, state.0.checked.is_none());
        use_effect_with(open, move |_| {
            *open_ms.borrow_mut() = js_sys::Date::now();
            || ()
        });
    }
    open_ms
}

#[derive(PartialEq, Properties)]
struct FeedbackProps {
    question: Question,
    choice: usize,
    /// "Show me": the player at the moment that explains the answer, once it is known.
    show_href: Option<String>,
    embed: bool,
}

/// What a checked answer gets: right or wrong, why the chosen option fails, the
/// explanation, "Show me", and, folded, why each other wrong option fails.
#[component]
fn Feedback(props: &FeedbackProps) -> Html {
    let m = use_i18n();
    let (q, choice) = (&props.question, props.choice);
    let key = |suffix: &str| format!("q.{}.{suffix}", q.id);
    let why_not =
        |j: usize| q.why_not(j).map(|why| m.content(&key(&format!("why.{j}")), &why.text));
    let others: Vec<Html> = (0..q.options.len())
        .filter(|&j| j != choice)
        .filter_map(|j| {
            let why = why_not(j)?;
            let option = m.content(&key(&format!("o.{j}")), &q.options[j]);
            Some(html! { <li><em>{ option }</em>{ " — " }{ why }</li> })
        })
        .collect();
    html! {
        <div class={classes!("feedback", (choice == q.answer).then_some("right"))} role="status" data-testid="quiz-feedback">
            <strong>{ if choice == q.answer { m.lab("quiz.correct") } else { m.lab("quiz.wrong") } }</strong>
            if let Some(why) = why_not(choice) {
                { " " }<span class="why-not" data-testid="quiz-why-not">{ m.labf("quiz.why_not", &[("why", &why)]) }</span>
            }
            { " " }{ m.content(&key("explanation"), &q.explanation) }
            if let Some(href) = &props.show_href {
                // An embed opens the site's player in a new tab: the frame keeps its quiz
                // and its identity, and the host hears nothing from a run it did not frame.
                if props.embed {
                    { " " }<a href={format!("{}{href}", crate::ui::embed::site_address())} target="_blank" rel="noopener" data-testid="quiz-show">{ m.lab("quiz.show_new_tab") }</a>
                } else {
                    { " " }<a href={href.clone()} data-testid="quiz-show">{ m.lab("quiz.show") }</a>
                }
            }
            if !others.is_empty() {
                <details data-testid="quiz-others">
                    <summary>{ m.lab("quiz.other_options") }</summary>
                    <ul>{ for others }</ul>
                </details>
            }
        </div>
    }
}

/// Tells the host page the quiz is ready, and takes back progress it kept (checked like
/// stored progress).
#[hook]
fn use_host(state: &UseReducerHandle<Reduced<Session>>, bank: &Rc<Vec<Question>>, total: usize) {
    {
        use_effect_with((), move |_| {
            post(&Outbound::Ready { view: ReadyView::Quiz { total } });
            || ()
        });
    }
    // A host that kept the learner's progress gives it back (checked like stored progress).
    {
        let dispatch = state.dispatcher();
        let bank = bank.clone();
        use_host_messages(move |message| {
            if let Inbound::RestoreProgress { data } = message
                && let Stored::Valid(progress) = Progress::read(Some(&data), &bank)
            {
                dispatch.dispatch(Action::Restore { progress, text: data });
            }
        });
    }
}

/// Another tab of this quiz (the same storage key) saved its progress: its answers join
/// this one's, so the two never overwrite each other.
#[hook]
fn use_other_tabs(
    state: &UseReducerHandle<Reduced<Session>>,
    bank: &Rc<Vec<Question>>,
    key: String,
) {
    let dispatch = state.dispatcher();
    let bank = bank.clone();
    use_effect_with(key, move |key| {
        let key = key.clone();
        let listener = web_sys::window().map(|window| {
            gloo_events::EventListener::new(&window, "storage", move |event| {
                let Some(event) = wasm_bindgen::JsCast::dyn_ref::<web_sys::StorageEvent>(event)
                else {
                    return;
                };
                if event.key().as_deref() != Some(key.as_str()) {
                    return;
                }
                if let Stored::Valid(progress) = Progress::read(event.new_value().as_deref(), &bank)
                {
                    dispatch.dispatch(Action::Arrived(progress));
                }
            })
        });
        move || drop(listener)
    });
}
