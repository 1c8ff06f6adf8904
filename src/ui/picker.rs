//! The quiz page's question picker for course authors: choose questions, get the embed
//! snippet that asks only those (`questions=`) and the `scripts/package` command for the
//! same choice. The choice is `progress::picker`'s pure state; this only renders it.

use std::rc::Rc;

use yew::prelude::*;

use wasm_bindgen::JsCast;

use crate::markup::Markup;
use crate::progress::picker::{Action, Picker};
use crate::quiz::Question;
use crate::route::{EmbedOptions, Link, View};
use crate::ui::hooks::{Reduced, Update};
use crate::ui::i18n::use_i18n;

impl Update for Picker {
    type Action = Action;
    fn update(&mut self, action: Action) {
        Picker::update(self, action);
    }
}

#[derive(PartialEq, Properties)]
pub(crate) struct QuestionPickerProps {
    pub(crate) bank: Rc<Vec<Question>>,
}

/// Folded under the quiz: a checkbox per question, then the snippet and the command. Written
/// as markup with one listener for every control (the lab page stays small): a checkbox
/// names its question (`value`), a button its action (`data-pick`).
#[component]
pub(crate) fn QuestionPicker(props: &QuestionPickerProps) -> Html {
    let m = use_i18n();
    let state = {
        let ids = props.bank.iter().map(|q| q.id.clone()).collect();
        use_reducer(move || Reduced(Picker::new(ids)))
    };
    let picker = &state.0;
    let chosen = picker.chosen();
    let on_event = {
        let dispatch = state.dispatcher();
        Callback::from(move |e: Event| {
            let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else {
                return;
            };
            let action = match (el.get_attribute("data-pick").as_deref(), el.get_attribute("value"))
            {
                (Some("all"), _) => Action::All,
                (Some("none"), _) => Action::Clear,
                (None, Some(id)) if e.type_() == "change" => Action::Toggle(id),
                _ => return,
            };
            dispatch.dispatch(action);
        })
    };
    let link = Link {
        embed: true,
        questions: chosen.clone(),
        options: EmbedOptions { frame: Some("quiz".to_owned()), ..EmbedOptions::default() },
        ..Link::to(View::Quiz)
    };
    let folder = crate::ui::embed::site_address();
    let mut o = Markup::new();
    o.element("summary", &[], &m.lab("quiz.picker_title"));
    o.element("p", &[("class", "muted")], &m.lab("quiz.picker_hint"));
    o.open("p", &[]);
    o.element(
        "button",
        &[("data-pick", "all"), ("data-testid", "picker-all")],
        &m.lab("quiz.picker_all"),
    );
    o.text(" ");
    o.element(
        "button",
        &[("data-pick", "none"), ("data-testid", "picker-none")],
        &m.lab("quiz.picker_none"),
    );
    o.close("p");
    o.open("ul", &[("class", "picker-list")]);
    for q in props.bank.iter() {
        o.open("li", &[]).open("label", &[]);
        let mut attrs = vec![
            ("type", "checkbox"),
            ("value", q.id.as_str()),
            ("data-testid", "picker-question"),
        ];
        if picker.is_chosen(&q.id) {
            attrs.push(("checked", ""));
        }
        o.empty("input", &attrs);
        o.text(" ").text(&m.content(&format!("q.{}.prompt", q.id), &q.prompt)).text(" ");
        o.element("code", &[], &q.id).close("label").close("li");
    }
    o.close("ul");
    if chosen.is_empty() {
        o.element(
            "p",
            &[("class", "muted"), ("data-testid", "picker-empty")],
            &m.lab("quiz.picker_empty"),
        );
    } else {
        let title = m.lab("quiz.title");
        let snippet = crate::ui::share::embed_snippet(&link, &format!("{folder}lab.html"), &title);
        let commands = format!("{}\n{}", picker.command("scorm12"), picker.command("scorm2004"));
        let (snippet_label, package_label) =
            (m.lab("quiz.picker_snippet"), m.lab("quiz.picker_package"));
        o.element("p", &[], &m.labf("quiz.picker_chosen", &[("n", &chosen.len().to_string())]));
        o.element(
            "textarea",
            &[
                ("readonly", ""),
                ("rows", "4"),
                ("data-testid", "picker-snippet"),
                ("aria-label", &snippet_label),
            ],
            &snippet,
        );
        o.element("p", &[], &package_label);
        o.element(
            "textarea",
            &[
                ("readonly", ""),
                ("rows", "2"),
                ("data-testid", "picker-command"),
                ("aria-label", &package_label),
            ],
            &commands,
        );
    }
    html! {
        <details class="picker" data-testid="quiz-picker" onchange={on_event.clone()} onclick={Callback::from(move |e: MouseEvent| on_event.emit(e.into()))}>
            { crate::ui::markup(o) }
        </details>
    }
}
