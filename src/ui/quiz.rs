//! The quiz: one question at a time, feedback with the explanation, "show me" in the
//! simulator, and progress kept in localStorage (a versioned key; unreadable storage is
//! reset with a visible notice, never a crash).

use yew::prelude::*;

use crate::embed::Outbound;
use crate::progress::{Progress, STORAGE_KEY, Stored};
use crate::quiz;
use crate::route::{Link, View};
use crate::ui::embed::post;
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct QuizPageProps {
    pub(crate) embed: bool,
    pub(crate) origins: Vec<String>,
    /// The link that opened the quiz (its `q=` names the question).
    pub(crate) link: Link,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// Loads stored progress; `true` in the second place if it had to be reset.
fn load_progress() -> (Progress, bool) {
    let stored = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    match Progress::read(stored.as_deref()) {
        Stored::Valid(progress) => (progress, false),
        Stored::Nothing => (Progress::default(), false),
        Stored::Corrupt => {
            if let Some(s) = storage() {
                let _ = s.remove_item(STORAGE_KEY);
            }
            (Progress::default(), true)
        }
    }
}

fn save_progress(progress: &Progress) {
    if let Some(s) = storage() {
        // Storage may be full or disabled; progress then lasts for this page only.
        let _ = s.set_item(STORAGE_KEY, &progress.to_text());
    }
}

#[component]
pub(crate) fn QuizPage(props: &QuizPageProps) -> Html {
    let m = use_i18n();
    let questions = use_memo((), |_| quiz::bank());
    let loaded = use_memo((), |_| load_progress());
    let progress = use_state(|| loaded.0.clone());
    let reset_notice = loaded.1;
    let asked = props.link.question.unwrap_or(0).min(questions.len().saturating_sub(1));
    let index = use_state(|| asked);
    // Back to a quiz link (after "Show me") or a new q= moves to that question.
    {
        let index = index.clone();
        use_effect_with(asked, move |&asked| {
            index.set(asked);
            || ()
        });
    }
    let selected = use_state(|| None::<usize>);
    let checked = use_state(|| None::<usize>);
    let Some(q) = questions.get(*index) else { return html! {} };
    let key = |suffix: &str| format!("q.{}.{suffix}", q.id);
    let n = questions.len();

    let options = q.options.iter().enumerate().map(|(j, option)| {
        let selected_state = selected.clone();
        let onchange = Callback::from(move |_: Event| selected_state.set(Some(j)));
        // Once checked, the right option is marked, and a wrong choice as wrong.
        let (class, note) = match *checked {
            Some(_) if j == q.answer => ("option right", Some(m.t("quiz.right_answer"))),
            Some(c) if c == j => ("option wrong", None),
            _ => ("option", None),
        };
        html! {
            <li>
                <label class={class}>
                    <input type="radio" name="quiz-option" value={j.to_string()} checked={*selected == Some(j)}
                        disabled={checked.is_some()} {onchange} data-testid="quiz-option" />
                    { " " }{ m.content(&key(&format!("o.{j}")), option) }
                    if let Some(note) = note { <strong class="answer-mark" data-testid="quiz-right">{ " ✓ " }{ note }</strong> }
                </label>
            </li>
        }
    });
    let check = {
        let selected = selected.clone();
        let checked = checked.clone();
        let progress = progress.clone();
        let id = q.id.clone();
        let answer = q.answer;
        let embed = props.embed;
        let origins = props.origins.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(choice) = *selected else { return };
            checked.set(Some(choice));
            let correct = choice == answer;
            let mut next = (*progress).clone();
            next.record(&id, correct);
            save_progress(&next);
            progress.set(next);
            post(embed, &origins, &Outbound::QuizAnswered { question: id.clone(), correct });
        })
    };
    let go = |delta: isize| {
        let link = props.link.clone();
        let index = index.clone();
        let selected = selected.clone();
        let checked = checked.clone();
        Callback::from(move |_: MouseEvent| {
            let next = (*index as isize + delta).clamp(0, n as isize - 1) as usize;
            index.set(next);
            // The question goes in the URL (replacing this entry: moving between questions
            // is not history), so leaving for "Show me" and coming Back finds it again.
            let here = Link { view: View::Quiz, question: Some(next), ..link.clone() };
            if let Some(window) = web_sys::window() {
                let _ = window.location().replace(&here.to_hash());
            }
            selected.set(None);
            checked.set(None);
        })
    };
    let reset = {
        let progress = progress.clone();
        Callback::from(move |_: MouseEvent| {
            let empty = Progress::default();
            save_progress(&empty);
            progress.set(empty);
        })
    };
    // "Show me": the scenario at the moment its event happens.
    let show_href = crate::catalogue::find(&q.show.scenario).map(|scenario| {
        let trace = crate::sim::run(&scenario);
        let t_ms = crate::catalogue::narration::anchor_event(&trace, &q.show.at)
            .map(|i| trace.events()[i].at_ms);
        Link {
            t_ms,
            lang: Some(m.lang),
            embed: props.embed,
            origins: props.origins.clone(),
            ..Link::to(View::Scenario { id: scenario.id })
        }
        .to_hash()
    });
    // In an embed "Show me" replaces the history entry (the host page's Back stays its own).
    let show_me = {
        let href = show_href.clone().unwrap_or_default();
        let embed = props.embed;
        Callback::from(move |e: MouseEvent| {
            if embed {
                e.prevent_default();
                crate::ui::app::set_hash(&href);
            }
        })
    };
    let answered = progress.answers.len().to_string();
    let correct = progress.correct().to_string();
    html! {
        <section class="quiz" data-testid="quiz">
            <h1>{ m.t("quiz.title") }</h1>
            if reset_notice {
                <p class="notice" role="alert" data-testid="storage-reset">{ m.t("quiz.storage_reset") }</p>
            }
            <p class="muted" data-testid="quiz-progress">
                { m.tf("quiz.progress", &[("n", &(*index + 1).to_string()), ("m", &n.to_string()), ("answered", &answered), ("correct", &correct)]) }
            </p>
            <fieldset class="question" data-testid="question" data-id={q.id.clone()}>
                <legend data-testid="quiz-prompt">{ m.content(&key("prompt"), &q.prompt) }</legend>
                <ol class="options">{ for options }</ol>
            </fieldset>
            if let Some(choice) = *checked {
                <div class={classes!("feedback", (choice == q.answer).then_some("right"))} role="status" data-testid="quiz-feedback">
                    <strong>{ if choice == q.answer { m.t("quiz.correct") } else { m.t("quiz.wrong") } }</strong>
                    { " " }{ m.content(&key("explanation"), &q.explanation) }
                    if let Some(href) = &show_href {
                        { " " }<a href={href.clone()} onclick={show_me.clone()} data-testid="quiz-show">{ m.t("quiz.show") }</a>
                    }
                </div>

            } else {
                <button onclick={check} disabled={selected.is_none()} data-testid="quiz-check">{ m.t("quiz.check") }</button>
            }
            <div class="quiz-nav">
                <button onclick={go(-1)} disabled={*index == 0} data-testid="quiz-prev">{ m.t("quiz.prev") }</button>
                <button onclick={go(1)} disabled={*index + 1 >= n} data-testid="quiz-next">{ m.t("quiz.next") }</button>
                <button onclick={reset} data-testid="quiz-reset">{ m.t("quiz.reset") }</button>
            </div>
        </section>
    }
}
