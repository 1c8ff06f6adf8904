//! A prediction prompt: playback stopped before the event; the learner picks an answer,
//! sees whether it was right and why, may try again, then continues.

use yew::prelude::*;

use crate::embed::Outbound;
use crate::player::Action;
use crate::ui::embed::post;
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct PromptBoxProps {
    pub(crate) scenario: crate::player::ScenarioRef,
    pub(crate) index: usize,
    pub(crate) on_action: Callback<Action>,
    pub(crate) embed: bool,
    pub(crate) origins: Vec<String>,
}

#[component]
pub(crate) fn PromptBox(props: &PromptBoxProps) -> Html {
    let m = use_i18n();
    let chosen = use_state(|| None::<usize>);
    let Some(prompt) = props.scenario.prompts.get(props.index) else { return html! {} };
    let key = |suffix: &str| format!("s.{}.p.{}.{suffix}", props.scenario.id, props.index);
    let answered = *chosen;
    let options = prompt.options.iter().enumerate().map(|(j, option)| {
        let chosen = chosen.clone();
        let embed = props.embed;
        let origins = props.origins.clone();
        let question = format!("{}#prompt-{}", props.scenario.id, props.index);
        let correct = j == prompt.answer;
        let onclick = Callback::from(move |_: MouseEvent| {
            chosen.set(Some(j));
            post(embed, &origins, &Outbound::QuizAnswered { question: question.clone(), correct });
        });
        let class = match answered {
            Some(a) if a == j && correct => "right",
            Some(a) if a == j => "wrong",
            _ => "",
        };
        html! {
            <li><button class={classes!("option", class)} {onclick} disabled={answered.is_some()} data-testid="prompt-option">
                { m.content(&key(&format!("o.{j}")), option) }
            </button></li>
        }
    });
    let retry = {
        let chosen = chosen.clone();
        Callback::from(move |_: MouseEvent| chosen.set(None))
    };
    let go_on = {
        let on_action = props.on_action.clone();
        let i = props.index;
        Callback::from(move |_: MouseEvent| on_action.emit(Action::ContinueAfterPrompt(i)))
    };
    let n = (props.index + 1).to_string();
    let total = props.scenario.prompts.len().to_string();
    html! {
        <section class="prompt" data-testid="prompt" role="group" aria-labelledby="prompt-title">
            <h2 id="prompt-title">{ m.t("prompt.title") }<span class="muted">{ " " }{ m.tf("prompt.answered", &[("n", &n), ("m", &total)]) }</span></h2>
            <p>{ m.content(&key("question"), &prompt.question) }</p>
            <ol class="options">{ for options }</ol>
            if let Some(a) = answered {
                <div class="feedback" role="status" data-testid="prompt-feedback">
                    <strong>{ if a == prompt.answer { m.t("quiz.correct") } else { m.t("quiz.wrong") } }</strong>
                    { " " }{ m.content(&key("explanation"), &prompt.explanation) }
                </div>
                if a != prompt.answer {
                    <button onclick={retry} data-testid="prompt-retry">{ m.t("quiz.retry") }</button>
                }
                <button onclick={go_on} data-testid="prompt-continue">{ m.t("prompt.continue") }</button>
            }
        </section>
    }
}
