//! A prediction prompt: playback stopped before the event; the learner picks an answer,
//! sees whether it was right and why, may try again, then continues.

use yew::prelude::*;

use crate::embed::{Answered, Outbound};
use crate::player::Action;
use crate::ui::embed::{post, post_statement, statement_context};
use crate::ui::i18n::use_i18n;
use crate::xapi::{Activity, Outcome, Verb, statement};

#[derive(PartialEq, Properties)]
pub(crate) struct PromptBoxProps {
    pub(crate) scenario: crate::player::ScenarioRef,
    pub(crate) index: usize,
    pub(crate) on_action: Callback<Action>,
}

#[component]
pub(crate) fn PromptBox(props: &PromptBoxProps) -> Html {
    let m = use_i18n();
    let chosen = use_state(|| None::<usize>);
    let attempts = use_mut_ref(|| 0u32);
    // When the prompt was last open for an answer (shown, or tried again).
    let open_ms = use_mut_ref(js_sys::Date::now);
    crate::ui::hooks::use_prompt_in_view(*chosen);
    let Some(prompt) = props.scenario.prompts.get(props.index) else { return html! {} };
    let id = &props.scenario.id;
    let key = |suffix: &str| format!("s.{id}.p.{}.{suffix}", props.index);
    let answered = *chosen;
    // The learning event names the question and its options as the learner read them.
    let site = crate::ui::embed::activity_base();
    let scenario_activity = Activity {
        id: format!("{site}#/s/{id}"),
        name: m.content(&format!("s.{id}.title"), &props.scenario.title),
        ..Activity::default()
    };
    let activity = Activity {
        id: format!("{site}#/s/{id}?prompt={}", props.index),
        name: m.content(&key("question"), &prompt.question),
        choices: (0..prompt.options.len())
            .map(|j| m.content(&key(&format!("o.{j}")), &prompt.options[j]))
            .collect(),
        correct: Some(prompt.answer),
        ..Activity::default()
    };
    // One listener for every answer: the button names its option (`data-option`).
    let choose = {
        let chosen = chosen.clone();
        let (attempts, open_ms) = (attempts.clone(), open_ms.clone());
        let question = format!("{id}#prompt-{}", props.index);
        let answer = prompt.answer;
        let (parent, lang) = (scenario_activity.clone(), m.lang);
        Callback::from(move |e: MouseEvent| {
            let Some(j) = crate::ui::index_at(e.target(), "data-option") else { return };
            let correct = j == answer;
            chosen.set(Some(j));
            let attempt = {
                let mut n = attempts.borrow_mut();
                *n += 1;
                *n
            };
            post(&Outbound::QuizAnswered(Answered {
                question: question.clone(),
                correct,
                choice: j,
                attempt,
                first_try: attempt == 1,
                latency_ms: (js_sys::Date::now() - *open_ms.borrow()).max(0.0) as u64,
                ..Answered::default()
            }));
            let outcome = Outcome {
                success: Some(correct),
                response: Some(j),
                attempt: Some(attempt),
                ..Outcome::default()
            };
            post_statement(&statement(
                &statement_context(lang),
                Verb::Answered,
                &activity,
                &outcome,
                Some(&parent),
            ));
        })
    };
    // The answers as markup (a disabled button sends no click once one is chosen).
    let mut options = crate::markup::Markup::new();
    for (j, option) in prompt.options.iter().enumerate() {
        let class = match answered {
            Some(a) if a == j && j == prompt.answer => "option right",
            Some(a) if a == j => "option wrong",
            _ => "option",
        };
        let index = j.to_string();
        let mut attrs = vec![
            ("class", class),
            ("data-option", index.as_str()),
            ("data-testid", "prompt-option"),
        ];
        if answered.is_some() {
            attrs.push(("disabled", ""));
        }
        options
            .open("li", &[])
            .element("button", &attrs, &m.content(&key(&format!("o.{j}")), option))
            .close("li");
    }
    let retry = {
        let chosen = chosen.clone();
        Callback::from(move |_: MouseEvent| {
            *open_ms.borrow_mut() = js_sys::Date::now();
            chosen.set(None)
        })
    };
    // Going on, the learner watches what happens next: the timeline comes back into view
    // (on a phone the answer may have scrolled it far up).
    let go_on = {
        let on_action = props.on_action.clone();
        let i = props.index;
        Callback::from(move |_: MouseEvent| {
            on_action.emit(Action::ContinueAfterPrompt(i));
            let timeline = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(".player .timeline").ok().flatten());
            if let Some(timeline) = timeline {
                crate::ui::hooks::bring_into_view(&timeline, true);
            }
        })
    };

    let n = (props.index + 1).to_string();
    let total = props.scenario.prompts.len().to_string();
    html! {
        <section class="prompt" data-testid="prompt" role="group" aria-labelledby="prompt-title">
            <h2 id="prompt-title">{ m.t("prompt.title") }<span class="muted">{ " " }{ m.tf("prompt.answered", &[("n", &n), ("m", &total)]) }</span></h2>
            <p>{ m.content(&key("question"), &prompt.question) }</p>
            <ol class="options" onclick={choose}>{ crate::ui::markup(options) }</ol>
            if let Some(a) = answered {
                <div class="feedback" role="status" data-testid="prompt-feedback">
                    <strong>{ if a == prompt.answer { m.t("prompt.correct") } else { m.t("prompt.wrong") } }</strong>
                    { " " }{ m.content(&key("explanation"), &prompt.explanation) }
                </div>
                if a != prompt.answer {
                    <button onclick={retry} data-testid="prompt-retry">{ m.t("prompt.retry") }</button>
                }
                <button onclick={go_on} data-testid="prompt-continue">{ m.t("prompt.continue") }</button>
            }
        </section>
    }
}
