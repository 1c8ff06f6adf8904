//! The sandbox page (`#/sandbox`): the lesson builder (named drafts, the story, a live
//! preview to edit on, the form and the JSON, undo, run, compare, share) and the Redis and
//! SQL consoles. It renders `sandbox::Editor` and `sandbox::Preview` and keeps drafts in
//! storage and in the link; it never simulates, lints or parses a scenario itself.

mod author;
mod bars;
mod consoles;
mod effects;
mod preview;
mod story;

use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::codec;
use crate::i18n::Messages;
use crate::sandbox::builder::{Builder, Msg, Storage};
use crate::sandbox::{
    Action, Direction, Editor, Field, Group, Health, List, Preview, Row, Setting, StepAt,
    fault_kinds, fields, row_kind, row_path, setting_words, step_kinds,
};
use crate::sim::scenario::{FaultKind, StepKind, Word};
use crate::ui::hooks::{Reduced, Update};
use crate::ui::i18n::use_i18n;

/// Where the named drafts are kept.
const DRAFTS_KEY: &str = "fencing-playground/sandbox-drafts/v1";

/// Where the single draft of the first version was kept (read once, then moved).
const OLD_DRAFT_KEY: &str = "fencing-playground/sandbox-draft/v1";

/// Where a stored drafts record that could not all be read is copied before the builder
/// writes over it (the newest such copy only).
const ASIDE_KEY: &str = "fencing-playground/sandbox-drafts-unreadable/v1";

/// The scenario the editor opens with, when there is no draft.
const START_ID: &str = "gc-pause-fenced";

#[component]
pub(crate) fn SandboxPage() -> Html {
    let m = use_i18n();
    html! {
        <div class="sandbox" data-testid="sandbox">
            <h1>{ m.lab("sandbox.title") }</h1>
            <p class="lede">{ m.lab("sandbox.lede") }</p>
            <ScenarioEditor />
            <consoles::RedisPanel />
            <consoles::SqlPanel />
        </div>
    }
}

impl Update for Builder {
    type Action = Msg;
    fn update(&mut self, msg: Msg) {
        Builder::update(self, msg);
    }
}

/// How the builder opens: what this browser keeps and what the link carries, read here and
/// judged by [`Builder::open`]. The first version's single draft is moved, once.
fn opening() -> Builder {
    let storage = crate::ui::local_storage();
    let read = |key: &str| storage.as_ref().and_then(|s| s.get_item(key).ok().flatten());
    let (stored, old_draft) = (read(DRAFTS_KEY), read(OLD_DRAFT_KEY));
    if let (Some(storage), Some(_)) = (&storage, &old_draft) {
        let _ = storage.remove_item(OLD_DRAFT_KEY);
    }
    let hash = crate::ui::nav::current_hash();
    let mut builder = Builder::open(stored.as_deref(), old_draft.as_deref(), &hash, START_ID);
    builder.storage = match &storage {
        None => Storage::Blocked,
        Some(storage) => {
            Storage::of(stored.as_deref(), |damaged| storage.set_item(ASIDE_KEY, damaged).is_ok())
        }
    };
    builder
}

pub(super) fn input_value(e: &Event) -> String {
    e.target_dyn_into::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default()
}

pub(super) fn area_value(e: &Event) -> String {
    e.target_dyn_into::<web_sys::HtmlTextAreaElement>().map(|i| i.value()).unwrap_or_default()
}

pub(super) fn select_value(e: &Event) -> String {
    e.target_dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value()).unwrap_or_default()
}

/// The one line a refused form edit shows, under the field it is about: the loader's
/// reason without a line and column (the author typed into a field, not the text).
fn field_error(editor: &Editor, path: &str) -> Html {
    let Health::EditRefused { error, field } = &editor.health else { return Html::default() };
    let here = match field {
        Some((field, _)) => field == path,
        None => error.path == path,
    };
    if !here {
        return Html::default();
    }
    html! { <p class="field-error" role="alert" data-testid="field-error">{ error.message.clone() }</p> }
}

/// A labelled input for one value of the form; shows what the author typed if it was
/// refused.
#[allow(clippy::too_many_arguments)]
fn value_input(
    editor: &Editor,
    path: &str,
    label: String,
    help: Option<String>,
    value: String,
    numeric: bool,
    test_id: &'static str,
    onchange: Callback<String>,
) -> Html {
    let shown = editor.rejected_input(path).map(str::to_owned).unwrap_or(value);
    let invalid = editor.rejected_input(path).is_some();
    let onchange = Callback::from(move |e: Event| onchange.emit(input_value(&e)));
    html! {
        <label class="field">
            <span>{ label }</span>
            <input value={shown} inputmode={numeric.then_some("numeric")} aria-invalid={invalid.to_string()}
                data-testid={test_id} data-path={path.to_owned()} {onchange} />
            if let Some(help) = help { <small class="help">{ help }</small> }
            { field_error(editor, path) }
        </label>
    }
}

#[component]
fn ScenarioEditor() -> Html {
    let m = use_i18n();
    let state = use_reducer(|| Reduced(opening()));
    effects::use_kept(&state);
    effects::use_draft_in_link(state.editor.text.clone());
    effects::use_arrivals(&state);
    let comparing = use_state(|| false);
    let editor = &state.editor;
    let dispatch = state.dispatcher();
    let apply = {
        let dispatch = dispatch.clone();
        Callback::from(move |(action, group): (Action, Option<Group>)| {
            dispatch.dispatch(Msg::Edit(action, group))
        })
    };
    let act = |action: Action| {
        let apply = apply.clone();
        Callback::from(move |_: MouseEvent| apply.emit((action.clone(), None)))
    };
    let preview = use_memo(editor.scenario.clone(), |s| Rc::new(Preview::of(s)));
    let send = {
        let dispatch = dispatch.clone();
        Callback::from(move |msg: Msg| dispatch.dispatch(msg))
    };
    let on_text = apply.reform(|e: InputEvent| (Action::SetText(area_value(&e)), None));
    let runnable = editor.runnable().cloned();
    let on_compare = {
        let comparing = comparing.clone();
        Callback::from(move |_: MouseEvent| comparing.set(!*comparing))
    };
    let on_keys = {
        let apply = apply.clone();
        Callback::from(move |e: KeyboardEvent| {
            if !(e.ctrl_key() || e.meta_key()) {
                return;
            }
            let action = match (e.key().to_ascii_lowercase().as_str(), e.shift_key()) {
                ("z", false) => Action::Undo,
                ("z", true) | ("y", false) => Action::Redo,
                _ => return,
            };
            // The text area's own undo would fight ours (its value is set from the editor).
            e.prevent_default();
            apply.emit((action, None));
        })
    };
    let s = &editor.scenario;
    let locked = !editor.form_open();
    html! {
        <section class="panel editor" aria-labelledby="editor-title" onkeydown={on_keys}>
            <h2 id="editor-title">{ m.lab("sandbox.editor") }</h2>
            <bars::DraftsBar drafts={state.drafts.clone()} send={send.clone()} />
            { bars::storage_note(&m, &state.storage) }
            { bars::status_line(&m, state.status.as_ref(), &apply, &send) }
            <bars::Tools editor={editor.clone()} comparing={*comparing} {on_compare} apply={apply.clone()} send={send.clone()} />
            // "Or undo" only when there is something to undo.
            if runnable.is_none() {
                <p class="field-error" data-testid="sandbox-not-runnable">{ m.lab(if editor.can_undo() { "sandbox.not_runnable" } else { "sandbox.not_runnable_fix" }) }</p>
            }
            // A draft whose text never loaded has no run of its own: showing the stand-in's
            // would show another lesson.
            if editor.nothing_loaded() {
                <p class="notice" role="status" data-testid="sandbox-nothing-loaded">{ m.lab("sandbox.nothing_loaded") }</p>
            } else {
                <preview::Preview preview={(*preview).clone()} apply={apply.clone()} />
            }
            if let (true, Some(s)) = (*comparing, runnable.clone()) {
                <div class="sandbox-compare" data-testid="sandbox-compare-view">
                    <p class="note">{ m.lab("sandbox.compare_note") }</p>
                    <crate::ui::compare::Compare scenario={s} back={Some(AttrValue::from("#/sandbox"))} />
                </div>
            }
            if let Some(s) = runnable.clone() {
                <author::ChallengeAuthor inherited={editor.is_inherited(&s.title) || editor.is_inherited(&s.summary)} scenario={Rc::new(s)} />
            }
            <div class="editor-grid">
                <div class="form" data-testid="sandbox-form">
                    if locked && !editor.nothing_loaded() {
                        <p class="field-error" role="status" data-testid="sandbox-form-locked">{ m.lab(if editor.can_undo() { "sandbox.form_locked" } else { "sandbox.form_locked_fix" }) }</p>
                    }
                    // A refused field shows what was typed; say plainly that the scenario (and
                    // Run) keeps the last values that loaded until the field is fixed.
                    if editor.edit_error().is_some() {
                        <p class="field-error" role="status" data-testid="sandbox-field-kept">{ m.lab("sandbox.field_kept") }</p>
                    }
                    // The stand-in of a draft that never loaded is not shown as its form.
                    <fieldset class="form-body" disabled={locked} hidden={editor.nothing_loaded()}>
                        <story::StoryForm editor={editor.clone()} preview={(*preview).clone()} apply={apply.clone()} />
                        { settings(&m, editor, &apply) }
                        <h3>{ m.lab("sandbox.workers") }</h3>
                        { for s.setup.workers.iter().enumerate().map(|(i, _)| worker_form(&m, editor, i, &apply)) }
                        <button data-testid="sandbox-add-worker" onclick={act(Action::AddWorker)}>{ m.lab("sandbox.add_worker") }</button>
                        { field_error(editor, "$.workers") }
                        <h3>{ m.lab("sandbox.faults") }</h3>
                        <ol class="faults">
                            { for s.setup.faults.iter().enumerate().map(|(k, f)| {
                                let row = Row::Fault(k);
                                let row_json = codec::fault_text(&s.setup, f);
                                html! {
                                    <li data-testid="sandbox-fault-row">
                                        <strong>{ fault_kind(&m, &row_json) }</strong>{ " " }
                                        <button aria-label={m.lab("sandbox.remove")} onclick={act(Action::RemoveFault(k))}>{ "✕" }</button>
                                        { row_fields(&m, editor, row, &row_json, &apply) }
                                    </li>
                                }
                            }) }
                        </ol>
                        <label>{ m.lab("sandbox.add_fault") }{ " " }
                            <select data-testid="sandbox-add-fault" onchange={ { let apply = apply.clone(); Callback::from(move |e: Event| {
                                let kind = select_value(&e);
                                if let Some(kind) = FaultKind::from_word(&kind) { apply.emit((Action::AddFault(kind), None)); }
                                if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() { sel.set_value(""); }
                            }) } }>
                                <option value="" selected=true>{ "…" }</option>
                                { for fault_kinds().into_iter().map(|k| html! { <option value={k.word()}>{ m.lab(&format!("sandbox.fault.{}", k.word())) }</option> }) }
                            </select>
                        </label>
                        { field_error(editor, "$.faults") }
                    </fieldset>
                </div>
                <div class="json">
                    <label for="sandbox-json">{ m.lab("sandbox.json") }</label>
                    <textarea id="sandbox-json" class="code" spellcheck="false" rows="28" data-testid="sandbox-json"
                        aria-invalid={(!editor.text_valid()).to_string()} value={editor.text.clone()} oninput={on_text} />
                    if let Some(e) = editor.text_error() {
                        <p class="field-error" role="alert" data-testid="sandbox-error">{ e.to_string() }</p>
                    } else {
                        <p class="ok" data-testid="sandbox-valid">{ m.labf("sandbox.valid", &[("workers", &s.setup.workers.len().to_string()), ("faults", &s.setup.faults.len().to_string())]) }</p>
                    }
                </div>
            </div>
        </section>
    }
}

/// The scenario-wide values: seed, length of the run, the database's check, the tokens.
fn settings(m: &Messages, editor: &Editor, apply: &Callback<(Action, Option<Group>)>) -> Html {
    let s = &editor.scenario;
    let set = |make: fn(String) -> Action| {
        let apply = apply.clone();
        Callback::from(move |v: String| apply.emit((make(v), None)))
    };
    let choice = |setting: Setting, key: &'static str, test_id: &'static str| {
        let (words, current) = setting_words(s, setting);
        let apply = apply.clone();
        let onchange = Callback::from(move |e: Event| {
            apply.emit((Action::SetSetting(setting, select_value(&e)), None))
        });
        html! {
            <label class="field" title={m.lab(&format!("sandbox.help.{key}"))}>
                <span>{ m.lab(&format!("sandbox.member.{key}")) }</span>
                <select data-testid={test_id} {onchange}>
                    { for words.iter().map(|w| html! { <option value={*w} selected={*w == current}>{ m.lab(&format!("sandbox.word.{key}.{w}")) }</option> }) }
                </select>
                <small class="help">{ m.lab(&format!("sandbox.help.{key}")) }</small>
                { field_error(editor, setting.path()) }
            </label>
        }
    };
    html! {
        <div class="settings">
            <h3>{ m.lab("sandbox.settings") }</h3>
            { value_input(editor, "$.seed", m.lab("sandbox.field.seed"), Some(m.lab("sandbox.help.seed")), s.setup.seed.to_string(), true, "sandbox-seed", set(Action::SetSeed)) }
            { value_input(editor, "$.until_ms", m.lab("sandbox.field.until"), Some(m.lab("sandbox.help.until")), s.setup.until_ms.to_string(), true, "sandbox-until", set(Action::SetUntil)) }
            { choice(Setting::Guard, "guard", "sandbox-guard") }
            { choice(Setting::Tokens, "tokens", "sandbox-tokens") }
        </div>
    }
}

fn worker_form(
    m: &Messages,
    editor: &Editor,
    i: usize,
    apply: &Callback<(Action, Option<Group>)>,
) -> Html {
    let Some(w) = editor.scenario.setup.workers.get(i) else { return Html::default() };
    let set = |make: Rc<dyn Fn(String) -> Action>| {
        let apply = apply.clone();
        Callback::from(move |v: String| apply.emit((make(v), None)))
    };
    let list = |list: List,
                steps: &[crate::sim::scenario::Step],
                heading: String,
                test_id: &'static str| {
        html! {
            <div class="step-list" data-list={test_id}>
                <h4>{ heading }</h4>
                <ol class="steps">
                    { for steps.iter().enumerate().map(|(j, step)| {
                        let at = StepAt { worker: i, list, index: j };
                        let text = codec::step_text(step);
                        let kind = row_kind(&text);
                        let click = |action: Action| { let apply = apply.clone(); Callback::from(move |_: MouseEvent| apply.emit((action.clone(), None))) };
                        html! {
                            <li data-testid="sandbox-step-row">
                                <strong title={m.lab(&format!("sandbox.help.step.{kind}"))}>{ m.lab(&format!("sandbox.step.{kind}")) }</strong>{ " " }
                                <button aria-label={m.lab("sandbox.up")} onclick={click(Action::MoveStep(at, Direction::Up))}>{ "↑" }</button>
                                <button aria-label={m.lab("sandbox.down")} onclick={click(Action::MoveStep(at, Direction::Down))}>{ "↓" }</button>
                                <button aria-label={m.lab("sandbox.remove")} onclick={click(Action::RemoveStep(at))}>{ "✕" }</button>
                                { row_fields(m, editor, Row::Step(at), &text, apply) }
                            </li>
                        }
                    }) }
                </ol>
                <AddStep worker={i} {list} len={steps.len()} apply={apply.clone()} />
            </div>
        }
    };
    let remove = {
        let apply = apply.clone();
        Callback::from(move |_: MouseEvent| apply.emit((Action::RemoveWorker(i), None)))
    };
    html! {
        <fieldset class="worker" data-testid="sandbox-worker">
            <legend>{ m.labf("sandbox.worker", &[("name", &w.name)]) }</legend>
            { value_input(editor, &format!("$.workers[{i}].name"), m.lab("sandbox.field.name"), None, w.name.clone(), false, "sandbox-worker-name", set(Rc::new(move |v| Action::RenameWorker(i, v)))) }
            { value_input(editor, &format!("$.workers[{i}].start_ms"), m.lab("sandbox.field.start"), Some(m.lab("sandbox.help.start")), w.start_ms.to_string(), true, "sandbox-worker-start", set(Rc::new(move |v| Action::SetStart(i, v)))) }
            <button class="remove" aria-label={m.labf("sandbox.remove_worker", &[("name", &w.name)])} onclick={remove}>{ "✕" }</button>
            { list(List::Program, &w.program, m.lab("sandbox.program"), "program") }
            { list(List::OnRejected, &w.on_rejected, m.lab("sandbox.on_rejected"), "on-rejected") }
        </fieldset>
    }
}

#[derive(PartialEq, Properties)]
struct AddStepProps {
    worker: usize,
    list: List,
    len: usize,
    apply: Callback<(Action, Option<Group>)>,
}

/// "Add a step": where (before a step, or at the end), then its kind.
#[component]
fn AddStep(props: &AddStepProps) -> Html {
    let m = use_i18n();
    let position = use_state(|| None::<usize>);
    let on_at = {
        let position = position.clone();
        Callback::from(move |e: Event| position.set(select_value(&e).parse::<usize>().ok()))
    };
    let on_kind = {
        let (apply, worker, list, at) = (props.apply.clone(), props.worker, props.list, *position);
        let position = position.clone();
        Callback::from(move |e: Event| {
            let kind = select_value(&e);
            if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                sel.set_value("");
            }
            if let Some(kind) = StepKind::from_word(&kind) {
                apply.emit((Action::AddStep { worker, list, kind, at }, None));
                // The next step goes at the end again unless the author says otherwise.
                position.set(None);
            }
        })
    };
    let at = position.filter(|j| *j < props.len);
    html! {
        <div class="add-step">
            <label>{ m.lab("sandbox.position") }{ " " }
                <select data-testid="sandbox-add-step-at" onchange={on_at}>
                    { for (0..props.len).map(|j| html! { <option value={j.to_string()} selected={at == Some(j)}>{ m.labf("sandbox.before_step", &[("n", &(j + 1).to_string())]) }</option> }) }
                    <option value="end" selected={at.is_none()}>{ m.lab("sandbox.at_end") }</option>
                </select>
            </label>{ " " }
            <label>{ m.lab("sandbox.add_step") }{ " " }
                <select data-testid="sandbox-add-step" onchange={on_kind}>
                    <option value="" selected=true>{ "…" }</option>
                    { for step_kinds().into_iter().map(|k| html! { <option value={k.word()}>{ m.lab(&format!("sandbox.step.{}", k.word())) }</option> }) }
                </select>
            </label>
        </div>
    }
}

/// A fault row's kind in words, from its JSON.
fn fault_kind(m: &Messages, row_json: &str) -> String {
    let kind = row_kind(row_json);
    m.lab(&format!("sandbox.fault.{kind}"))
}

/// A row's members as labelled fields, in words, with their help.
fn row_fields(
    m: &Messages,
    editor: &Editor,
    row: Row,
    row_json: &str,
    apply: &Callback<(Action, Option<Group>)>,
) -> Html {
    let base = row_path(row);
    html! {
        <span class="fields">
            { for fields(row_json).into_iter().map(|(key, field)| {
                let path = format!("{base}.{key}");
                let label = m.lab(&format!("sandbox.member.{key}"));
                let help = m.lab(&format!("sandbox.help.{key}"));
                let apply = apply.clone();
                let name = key.clone();
                let set = Callback::from(move |v: String| apply.emit((Action::SetField(row, name.clone(), v), None)));
                match field {
                    Field::Word(current, words) => {
                        let onchange = { let set = set.clone(); Callback::from(move |e: Event| set.emit(select_value(&e))) };
                        html! {
                            <label class="field" title={help.clone()}>
                                <span>{ label }</span>
                                <select data-testid="sandbox-row-field" data-path={path.clone()} {onchange}>
                                    { for words.iter().map(|w| html! { <option value={*w} selected={*w == current}>{ *w }</option> }) }
                                </select>
                                { field_error(editor, &path) }
                            </label>
                        }
                    }
                    Field::Number(v) => value_input(editor, &path, label, None, v, true, "sandbox-row-field", set),
                    // A fault's worker or node is one of the scenario's: a menu of their names.
                    Field::Text(v) if matches!(row, Row::Fault(_)) && (key == "worker" || key == "node") => {
                        let setup = &editor.scenario.setup;
                        let names: Vec<String> = match key.as_str() {
                            "worker" => setup.workers.iter().map(|w| w.name.clone()).collect(),
                            _ => setup.redis.nodes.iter().map(|n| n.name.clone()).collect(),
                        };
                        let onchange = { let set = set.clone(); Callback::from(move |e: Event| set.emit(select_value(&e))) };
                        html! {
                            <label class="field" title={help.clone()}>
                                <span>{ label }</span>
                                <select data-testid="sandbox-row-field" data-path={path.clone()} {onchange}>
                                    { for names.iter().map(|n| html! { <option value={n.clone()} selected={*n == v}>{ n }</option> }) }
                                </select>
                                { field_error(editor, &path) }
                            </label>
                        }
                    }
                    Field::Text(v) => value_input(editor, &path, label, None, v, false, "sandbox-row-field", set),
                    Field::Flag(b) => {
                        let onchange = { let set = set.clone(); Callback::from(move |e: Event| {
                            let checked = e.target_dyn_into::<web_sys::HtmlInputElement>().is_some_and(|i| i.checked());
                            set.emit(checked.to_string())
                        }) };
                        html! {
                            <label class="field" title={help}>
                                <input type="checkbox" checked={b} data-testid="sandbox-row-field" data-path={path.clone()} {onchange} />
                                <span>{ label }</span>
                            </label>
                        }
                    }
                    Field::Unset(default) => {
                        let placeholder = m.labf("sandbox.default", &[("default", default)]);
                        let onchange = { let set = set.clone(); Callback::from(move |e: Event| set.emit(input_value(&e))) };
                        let shown = editor.rejected_input(&path).unwrap_or("").to_owned();
                        html! {
                            <label class="field optional" title={help}>
                                <span>{ label }</span>
                                <input inputmode="numeric" value={shown} placeholder={placeholder} data-testid="sandbox-row-field" data-path={path.clone()} {onchange} />
                                { field_error(editor, &path) }
                            </label>
                        }
                    }
                    Field::Other => Html::default(),
                }
            }) }
        </span>
    }
}
