//! The story part of the sandbox's form: id, title, summary, goal, the narration pinned to
//! events, the prediction prompts and the promised outcome, each text flagged while it is
//! a template's and marked when this run contradicts it. It renders `sandbox::Editor` and
//! the marks of `sandbox::story`; it never checks a claim itself.

use std::rc::Rc;

use yew::prelude::*;

use super::{area_value, field_error, input_value};
use crate::sandbox::story::{Mark, MarkKind, Place, anchor_words, describe};
use crate::sandbox::{Action, Editor, Group, PromptPart, Story};
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(super) struct StoryProps {
    pub(super) editor: Editor,
    pub(super) preview: Rc<crate::sandbox::Preview>,
    pub(super) apply: Callback<(Action, Option<Group>)>,
}

#[component]
pub(super) fn StoryForm(props: &StoryProps) -> Html {
    let m = use_i18n();
    let e = &props.editor;
    let s = &e.scenario;
    let apply = &props.apply;
    let emit = |make: Rc<dyn Fn(String) -> Action>, area: bool| {
        let apply = apply.clone();
        Callback::from(move |ev: Event| {
            let value = if area { area_value(&ev) } else { input_value(&ev) };
            apply.emit((make(value), None))
        })
    };
    let click = |action: Action| {
        let apply = apply.clone();
        Callback::from(move |_: MouseEvent| apply.emit((action.clone(), None)))
    };
    // "From the template": shown beside a text the author has neither edited nor kept.
    let inherited = |text: &str| -> Html {
        if !e.is_inherited(text) {
            return Html::default();
        }
        html! {
            <span class="inherited" data-testid="sandbox-inherited">{ m.lab("sandbox.inherited") }{ " " }
                <button onclick={click(Action::Confirm(text.to_owned()))} data-testid="sandbox-keep">{ m.lab("sandbox.keep") }</button>
            </span>
        }
    };
    let marks_at = |place: Place| -> Html {
        let found: Vec<&Mark> = props.preview.marks.iter().filter(|mk| mk.place == place).collect();
        if found.is_empty() {
            return Html::default();
        }
        html! {
            <ul class="marks" data-testid="sandbox-marks">
                { for found.iter().map(|mk| match mk.kind {
                    MarkKind::Untrue => html! { <li class="bad" data-testid="sandbox-mark">{ m.labf("sandbox.untrue", &[("why", &mk.why.render(&m))]) }</li> },
                    MarkKind::Unchecked => html! { <li class="unchecked" data-testid="sandbox-unchecked">{ m.labf("sandbox.unchecked", &[("why", &mk.why.render(&m))]) }</li> },
                }) }
            </ul>
        }
    };
    let line = |part: Story,
                key: &'static str,
                value: &str,
                path: &'static str,
                test_id: &'static str,
                area: bool| {
        let onchange = emit(Rc::new(move |v| Action::SetStory(part, v)), area);
        let shown = e.rejected_input(path).map(str::to_owned).unwrap_or_else(|| value.to_owned());
        html! {
            <label class="field wide">
                <span>{ m.lab(key) }</span>
                if area {
                    <textarea rows="2" value={shown} data-testid={test_id} {onchange} />
                } else {
                    <input value={shown} data-testid={test_id} {onchange} />
                }
                { inherited(value) }
                { field_error(e, path) }
            </label>
        }
    };
    let expect = match &s.expect {
        None => html! {
            <p>
                <button data-testid="sandbox-promise" onclick={click(Action::SetExpect(Some(props.preview.outcome.clone())))}>{ m.lab("sandbox.promise") }</button>
                { " " }<span class="note">{ m.lab("sandbox.promise_help") }</span>
            </p>
        },
        Some(expect) => html! {
            <div class="promise" data-testid="sandbox-expect">
                { line(Story::Badge, "sandbox.badge", &expect.badge, "$.expect.badge", "sandbox-badge", false) }
                <p class="note">{ m.labf("sandbox.promised", &[
                    ("accepted", &expect.accepted.to_string()),
                    ("rejected", &expect.rejected.to_string()),
                    ("violations", &if expect.violations.is_empty() { "–".to_owned() } else { expect.violations.join(", ") }),
                ]) }</p>
                { marks_at(Place::Expect) }
                <button onclick={click(Action::SetExpect(Some(crate::catalogue::lesson::Expected { badge: expect.badge.clone(), ..props.preview.outcome.clone() })))}>{ m.lab("sandbox.promise_again") }</button>
                { " " }<button onclick={click(Action::SetExpect(None))}>{ m.lab("sandbox.remove") }</button>
            </div>
        },
    };
    html! {
        <div class="story" data-testid="sandbox-story">
            <h3>{ m.lab("sandbox.story") }</h3>
            if crate::sandbox::story::texts(s).iter().any(|t| e.is_inherited(t)) {
                <p class="inherited">{ m.lab("sandbox.inherited_all") }{ " " }
                    <button onclick={click(Action::ConfirmAll)} data-testid="sandbox-keep-all">{ m.lab("sandbox.keep_all") }</button></p>
            }
            { line(Story::Title, "sandbox.field.title", &s.title, "$.title", "sandbox-title", false) }
            { line(Story::Id, "sandbox.field.id", &s.id, "$.id", "sandbox-id", false) }
            { line(Story::Summary, "sandbox.field.summary", &s.summary, "$.summary", "sandbox-summary", true) }
            { line(Story::Goal, "sandbox.field.goal", &s.goal, "$.goal", "sandbox-goal", true) }
            { marks_at(Place::Claims) }
            <h4>{ m.lab("sandbox.narration") }</h4>
            if s.narration.is_empty() { <p class="note">{ m.lab("sandbox.narration_help") }</p> }
            <ol class="narration">
                { for s.narration.iter().enumerate().map(|(i, n)| html! {
                    <li data-testid="sandbox-paragraph">
                        <span class="anchor">{ anchor_words(&n.at).render(&m) }</span>{ " " }
                        <button aria-label={m.lab("sandbox.remove")} onclick={click(Action::RemoveNarration(i))}>{ "✕" }</button>
                        <textarea rows="2" value={n.text.clone()} aria-label={m.labf("sandbox.paragraph", &[("n", &(i + 1).to_string())])}
                            data-testid="sandbox-paragraph-text" onchange={emit(Rc::new(move |v| Action::SetNarration(i, v)), true)} />
                        { inherited(&n.text) }
                        if !n.facts.is_empty() {
                            <small class="facts">{ m.labf("sandbox.checked_by", &[("facts", &n.facts.iter().map(|f| describe(f).render(&m)).collect::<Vec<_>>().join("; "))]) }</small>
                        }
                        { marks_at(Place::Narration(i)) }
                    </li>
                }) }
            </ol>
            <h4>{ m.lab("sandbox.prompts") }</h4>
            <ol class="prompts">
                { for s.prompts.iter().enumerate().map(|(i, p)| html! {
                    <li data-testid="sandbox-prompt">
                        <span class="anchor">{ anchor_words(&p.at).render(&m) }</span>{ " " }
                        <button aria-label={m.lab("sandbox.remove")} onclick={click(Action::RemovePrompt(i))}>{ "✕" }</button>
                        <label class="field wide"><span>{ m.lab("sandbox.question") }</span>
                            <input value={p.question.clone()} data-testid="sandbox-question" onchange={emit(Rc::new(move |v| Action::SetPrompt(i, PromptPart::Question, v)), false)} />
                            { inherited(&p.question) }
                        </label>
                        <fieldset class="options">
                            <legend>{ m.lab("sandbox.options") }</legend>
                            { for p.options.iter().enumerate().map(|(k, o)| html! {
                                <span class="option">
                                    <input type="radio" name={format!("answer-{i}")} checked={p.answer == k} aria-label={m.lab("sandbox.correct")} onchange={ { let apply = apply.clone(); Callback::from(move |_: Event| apply.emit((Action::SetAnswer(i, k), None))) } } />
                                    <input value={o.clone()} data-testid="sandbox-option" aria-label={m.labf("sandbox.option_n", &[("n", &(k + 1).to_string())])} onchange={emit(Rc::new(move |v| Action::SetPrompt(i, PromptPart::Option(k), v)), false)} />
                                    { inherited(o) }
                                </span>
                            }) }
                            <button onclick={click(Action::AddOption(i))}>{ m.lab("sandbox.add_option") }</button>
                        </fieldset>
                        if !p.facts.is_empty() {
                            <small class="facts">{ m.labf("sandbox.checked_by", &[("facts", &p.facts.iter().map(|f| describe(f).render(&m)).collect::<Vec<_>>().join("; "))]) }</small>
                        }
                        <label class="field wide"><span>{ m.lab("sandbox.explanation") }</span>
                            <textarea rows="2" value={p.explanation.clone()} onchange={emit(Rc::new(move |v| Action::SetPrompt(i, PromptPart::Explanation, v)), true)} />
                            { inherited(&p.explanation) }
                        </label>
                        { marks_at(Place::Prompt(i)) }
                    </li>
                }) }
            </ol>
            <h4>{ m.lab("sandbox.expect") }</h4>
            { expect }
        </div>
    }
}
