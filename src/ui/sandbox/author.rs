//! The builder's "Make it a challenge" panel: renders `challenge::author::Author` over the
//! builder's runnable scenario, checks it in the `use_check` hook (the model grades the
//! challenge before a learner does), and hands the file on (downloaded, or kept for
//! `#/challenge/draft` to try it as a learner). It never grades or writes the file itself.

use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::challenge::author::{self, Action, Author, Phase, Refusal, Shown, Sort};
use crate::i18n::Messages;
use crate::search::{Addition, Vary};
use crate::sim::event::Property;
use crate::sim::scenario::{Fault, Word};
use crate::ui::hooks::{Reduced, Update};
use crate::ui::i18n::use_i18n;

impl Update for Author {
    type Action = Action;
    fn update(&mut self, action: Action) {
        Author::update(self, action);
    }
}

#[derive(PartialEq, Properties)]
pub(super) struct AuthorProps {
    /// The builder's scenario as it last ran.
    pub(super) scenario: Rc<Scenario>,
    /// Whether its title or summary is still a template's (it may tell another run).
    pub(super) inherited: bool,
}

/// The panel. Its form has one listener: each field names itself (`data-field`, and
/// `data-arg` for the row it is in) and `Action::from_field` reads the change.
#[component]
pub(super) fn ChallengeAuthor(props: &AuthorProps) -> Html {
    let m = use_i18n();
    let state = use_reducer(|| Reduced(Author::new()));
    use_check(&state, props.scenario.clone());
    let a = &state.0;
    let s = &props.scenario;
    let on_field = {
        let dispatch = state.dispatcher();
        Callback::from(move |e: Event| {
            let Some(field) = e.target_dyn_into::<web_sys::Element>() else { return };
            let attr = |name: &str| field.get_attribute(name).unwrap_or_default();
            let (value, checked) = field_value(&field);
            if let Some(action) =
                Action::from_field(&attr("data-field"), &attr("data-arg"), &value, checked)
            {
                dispatch.dispatch(action);
            }
        })
    };
    let on_check = {
        let dispatch = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(Action::Check))
    };
    // Which options change this scenario: a run of the setup per option, so once per draft.
    let offerable = use_memo(props.scenario.clone(), |s| author::useful(s));
    let body = match a.sort {
        Sort::Break => break_fields(&m, a),
        Sort::Fix => fix_fields(&m, a, &offerable),
    };
    html! {
        <details class="panel challenge-author" data-testid="author" onchange={on_field}>
            <summary><h2>{ m.lab("challenge.author.title") }</h2></summary>
            <p class="note">{ m.lab("challenge.author.intro") }</p>
            <label>{ m.lab("challenge.author.kind") }{ " " }
                <select data-testid="author-kind" data-field="sort">
                    <option value="fix" selected={a.sort == Sort::Fix}>{ m.lab("challenge.kind.fix") }</option>
                    <option value="break" selected={a.sort == Sort::Break}>{ m.lab("challenge.kind.break") }</option>
                </select>
            </label>
            <label>{ m.lab("challenge.author.name") }
                <input data-testid="author-title" data-field="title" value={a.title.clone()} placeholder={s.title.clone()} />
            </label>
            <label>{ m.lab("challenge.author.story") }
                <textarea rows="3" data-testid="author-story" data-field="story" value={a.story.clone()} placeholder={s.summary.clone()} />
            </label>
            if props.inherited && (a.title.trim().is_empty() || a.story.trim().is_empty()) {
                <p class="field-error" data-testid="author-inherited">{ m.lab("challenge.author.inherited") }</p>
            }
            { body }
            <p><button class="primary" data-testid="author-check" onclick={on_check} disabled={a.phase == Phase::Checking}>{ m.lab("challenge.author.check") }</button></p>
            { outcome(&m, a, s) }
        </details>
    }
}

/// Break it: the rule, and the most pauses.
fn break_fields(m: &Messages, a: &Author) -> Html {
    html! {
        <>
            <label>{ m.lab("challenge.author.break_rule") }{ " " }
                <select data-testid="author-property" data-field="property">
                    { for Property::ALL.iter().map(|p| html! { <option value={p.name()} selected={*p == a.property}>{ property_text(m, *p) }</option> }) }
                </select>
            </label>
            <label>{ m.lab("challenge.author.budget") }{ " " }
                { numbers("author-budget", "budget", 1..=3, a.budget) }
            </label>
        </>
    }
}

/// Fix it: the options offered and their costs, the rules kept with their hints, the
/// bounds.
fn fix_fields(m: &Messages, a: &Author, offerable: &[author::Offerable]) -> Html {
    let offers = offerable.iter().map(|o| {
        let offered = a.offered.iter().find(|x| x.key == o.key);
        let full = offered.is_none() && a.offered.len() >= author::OFFERS_MAX;
        let (label, cost_text) = (menu_text(m, &o.key, "label", &o.label), menu_text(m, &o.key, "cost", &o.cost_text));
        html! {
            <li data-testid="author-option" data-key={o.key.clone()}>
                <label><input type="checkbox" data-field="offer" data-arg={o.key.clone()} checked={offered.is_some()} disabled={full} />{ " " }{ label }</label>
                <span class="note">{ " — " }{ cost_text }</span>
                if let Some(offer) = offered {
                    <label class="cost">{ " " }{ m.lab("challenge.author.cost") }{ " " }
                        <input type="number" min="0" max="99" data-field="cost" data-arg={o.key.clone()} value={offer.cost.to_string()} />
                    </label>
                }
            </li>
        }
    });
    let rules = Property::ALL.iter().map(|p| {
        let kept = a.keep.iter().find(|(k, _)| k == p);
        let placeholder = author::builtin_hint(*p).map_or_else(String::new, |(key, english)| m.content(&key, &english));
        html! {
            <li data-testid="author-rule" data-property={p.name()}>
                <label><input type="checkbox" data-field="keep" data-arg={p.name()} checked={kept.is_some()} />{ " " }{ property_text(m, *p) }</label>
                if let Some((_, hint)) = kept {
                    <label class="hint">{ m.lab("challenge.author.hint") }
                        <textarea rows="2" data-field="hint" data-arg={p.name()} value={hint.clone()} {placeholder} />
                    </label>
                }
            </li>
        }
    });
    let faults = Addition::words().into_iter().filter_map(Addition::from_word).map(|f| html! {
        <label class="inline"><input type="checkbox" data-field="add" data-arg={f.word()} checked={a.add.contains(&f)} />{ " " }{ m.lab(&format!("challenge.fault.{}", f.word())) }</label>
    });
    html! {
        <>
            <fieldset>
                <legend>{ m.labf("challenge.author.options", &[("n", &author::OFFERS_MAX.to_string())]) }</legend>
                <ul class="author-options">{ for offers }</ul>
            </fieldset>
            <fieldset>
                <legend>{ m.lab("challenge.author.keep") }</legend>
                <ul class="author-rules">{ for rules }</ul>
            </fieldset>
            <fieldset>
                <legend>{ m.lab("challenge.author.bounds") }</legend>
                <label>{ m.lab("challenge.author.vary") }{ " " }
                    <select data-testid="author-vary" data-field="vary">
                        <option value="times" selected={a.vary == Vary::Times}>{ m.lab("challenge.author.vary.times") }</option>
                        <option value="nothing" selected={a.vary == Vary::Nothing}>{ m.lab("challenge.author.vary.nothing") }</option>
                    </select>
                </label>
                <p>{ m.lab("challenge.author.add") }{ " " }{ for faults }</p>
                <label>{ m.lab("challenge.author.max_added") }{ " " }
                    { numbers("author-max-added", "max-added", 0..=3, a.max_added) }
                </label>
            </fieldset>
        </>
    }
}

/// A select of the numbers in `range`, `current` chosen.
fn numbers(
    test_id: &'static str,
    field: &'static str,
    range: std::ops::RangeInclusive<usize>,
    current: usize,
) -> Html {
    html! {
        <select data-testid={test_id} data-field={field}>
            { for range.map(|n| html! { <option value={n.to_string()} selected={n == current}>{ n }</option> }) }
        </select>
    }
}

/// A menu option's text (`part`: `label` or `cost`) as its challenge's pack has it.
fn menu_text(m: &Messages, key: &str, part: &str, english: &str) -> String {
    let (challenge, option) = key.split_once('/').unwrap_or((key, ""));
    m.content(&format!("c.{challenge}.o.{option}.{part}"), english)
}

/// A form field's value, and whether it is checked (a checkbox).
fn field_value(field: &web_sys::Element) -> (String, bool) {
    use wasm_bindgen::JsCast;
    if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
        return (input.value(), input.checked());
    }
    if let Some(select) = field.dyn_ref::<web_sys::HtmlSelectElement>() {
        return (select.value(), false);
    }
    let area = field.dyn_ref::<web_sys::HtmlTextAreaElement>();
    (area.map(web_sys::HtmlTextAreaElement::value).unwrap_or_default(), false)
}

/// What the check found: the challenge ready (par, and the ways to use the file), or why
/// it cannot go to a learner.
fn outcome(m: &Messages, a: &Author, s: &Scenario) -> Html {
    let ready = match &a.phase {
        Phase::Editing => return Html::default(),
        Phase::Checking => {
            return html! { <p role="status" data-testid="author-checking">{ m.lab("challenge.author.checking") }</p> };
        }
        Phase::Checked(Err(refusal)) => {
            let why = match refusal {
                Refusal::NoOptions => m.lab("challenge.author.refused.no_options"),
                Refusal::NoRules => m.lab("challenge.author.refused.no_rules"),
                Refusal::File(why) => m.labf("challenge.author.refused.file", &[("why", why)]),
                Refusal::AlreadySafe => m.lab("challenge.author.refused.safe"),
                Refusal::NothingSafe => m.lab("challenge.author.refused.nothing_safe"),
                Refusal::AlreadyBroken(p) => m.labf(
                    "challenge.author.refused.broken",
                    &[("property", &property_text(m, *p))],
                ),
                Refusal::Unbreakable => m.lab("challenge.author.refused.unbreakable"),
            };
            return html! { <p class="field-error" role="alert" data-testid="author-refused">{ why }</p> };
        }
        Phase::Checked(Ok(ready)) => ready,
    };
    let property = property_text(m, ready.property);
    let (par, schedules) = (ready.par.to_string(), m.count(ready.schedules));
    let found = match &ready.shown {
        Shown::Options(found) => {
            let labels = |keys: &[String]| -> String {
                let words: Vec<String> = author::menu()
                    .iter()
                    .filter(|o| keys.contains(&o.key))
                    .map(|o| menu_text(m, &o.key, "label", &o.label))
                    .collect();
                words.join("; ")
            };
            let first = found.first().map_or_else(String::new, |k| labels(k));
            let mut said = m.labf(
                "challenge.author.ready.fix",
                &[
                    ("property", &property),
                    ("options", &first),
                    ("par", &par),
                    ("schedules", &schedules),
                ],
            );
            if found.len() > 1 {
                let others: Vec<String> =
                    found[1..].iter().map(|k| format!("“{}”", labels(k))).collect();
                said.push(' ');
                said.push_str(
                    &m.labf("challenge.author.ready.also", &[("designs", &others.join(", "))]),
                );
            }
            said
        }
        Shown::Pauses(pauses) => {
            let list: Vec<String> = pauses.iter().map(|f| pause_text(m, s, f)).collect();
            m.labf(
                "challenge.author.ready.break",
                &[
                    ("property", &property),
                    ("pauses", &list.join("; ")),
                    ("par", &par),
                    ("schedules", &schedules),
                ],
            )
        }
    };
    let file = ready.file.clone();
    let name = format!("{}.challenge.json", s.id);
    let on_download = {
        let file = file.clone();
        Callback::from(move |_: MouseEvent| {
            crate::ui::player::controls::download(&name, "application/json", &file)
        })
    };
    let on_try = Callback::from(move |e: MouseEvent| {
        // The page reads the file from storage; where nothing can be kept, say so instead
        // of opening a page with nothing to show.
        let kept = crate::ui::local_storage()
            .is_some_and(|s| s.set_item(author::DRAFT_KEY, &file).is_ok());
        match kept {
            // The challenge opens at its top, not where the builder was scrolled to.
            true => drop(web_sys::window().map(|w| w.scroll_to_with_x_and_y(0.0, 0.0))),
            false => e.prevent_default(),
        }
    });
    html! {
        <div class="ok" role="status" data-testid="author-ready">
            <p>{ found }</p>
            <p>
                <a class="button" href={format!("#/challenge/{}", author::DRAFT_ID)} onclick={on_try} data-testid="author-try">{ m.lab("challenge.author.try") }</a>{ " " }
                <button onclick={on_download} data-testid="author-download">{ m.lab("challenge.author.download") }</button>
            </p>
            <p class="note">{ m.lab("challenge.author.file_note") }</p>
        </div>
    }
}

/// Checks the challenge the state asks for, a moment after the page has said so (up to 64
/// searches hold the thread), and tells the state when the builder's scenario changed.
#[hook]
fn use_check(state: &UseReducerHandle<Reduced<Author>>, scenario: Rc<Scenario>) {
    {
        let dispatch = state.dispatcher();
        use_effect_with(scenario.clone(), move |_| dispatch.dispatch(Action::DesignChanged));
    }
    let asked = state.checking();
    let state = state.clone();
    use_effect_with(asked, move |asked| {
        let timeout = asked.map(|revision| {
            gloo_timers::callback::Timeout::new(30, move || {
                let result = state.0.check(&scenario);
                state.dispatch(Action::Checked { revision, result });
            })
        });
        move || drop(timeout)
    });
}

fn property_text(m: &Messages, property: Property) -> String {
    m.lab(&format!("challenge.prop.{}", property.name()))
}

fn pause_text(m: &Messages, s: &Scenario, fault: &Fault) -> String {
    let Fault::Pause { worker, at_ms, pause_ms } = fault else { return String::new() };
    let name = s.setup.workers.get(worker.index()).map_or("?", |w| w.name.as_str());
    m.labf(
        "challenge.pause_item",
        &[("worker", name), ("at", &m.secs(*at_ms)), ("d", &m.secs(*pause_ms))],
    )
}
