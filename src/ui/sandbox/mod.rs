//! The sandbox page (`#/sandbox`): the lesson builder (named drafts, the story, a live
//! preview to edit on, the form and the JSON, undo, run, compare, share) and the Redis and
//! SQL consoles. It renders `sandbox::Editor` and `sandbox::Preview` and keeps drafts in
//! storage and in the link; it never simulates, lints or parses a scenario itself.

mod consoles;
mod preview;
mod story;

use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::{self, codec};
use crate::i18n::Messages;
use crate::sandbox::drafts::Drafts;
use crate::sandbox::{
    Action, BLANK, Direction, Editor, Field, Group, Import, List, Preview, Row, Setting, Source,
    StepAt, fault_kinds, fields, row_kind, row_path, setting_words, step_kinds,
};
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

/// The builder's state: the open draft in the editor, all drafts, and a line saying what
/// just happened (with the way back, for destructive changes).
#[derive(Clone, PartialEq)]
struct Builder {
    editor: Editor,
    drafts: Drafts,
    /// A built-in to open a copy of once it is loaded (a player's "Edit a copy", or the
    /// lesson a first visit starts from).
    fetch: Option<String>,
    status: Option<Status>,
    /// What became of the drafts' storage: said until it changes.
    storage: Storage,
}

/// Where the author's drafts stand in this browser's storage.
#[derive(Clone, PartialEq)]
enum Storage {
    Kept,
    /// The stored record could not all be read: a copy of it is under `ASIDE_KEY`.
    SetAside,
    /// The record could not be read and its copy could not be made: it is left as it is,
    /// and nothing is written over it in this visit.
    Untouched,
    /// This browser refuses storage here (a third-party frame, or storage that is full).
    Blocked,
    /// A save failed (storage full): the latest text is only in this page.
    SaveFailed,
    /// These drafts are no longer kept in storage, to make room; they stay in this page
    /// (and its menu) until the author leaves, so they can still be exported.
    Evicted(Vec<String>),
}

#[derive(Clone, PartialEq)]
enum Status {
    /// The draft of the last visit came back.
    Restored,
    /// A change that removed something (its message key and name): undo brings it back.
    Removed(&'static str, String),
    /// A draft was deleted: it can be brought back.
    Deleted(String, String),
    /// A file was not a scenario; what was done instead.
    Imported(String),
    Copied,
}

enum Msg {
    Edit(Action, Option<Group>),
    /// A new draft from a template (a copy) or a file (the author's own).
    New {
        name: String,
        action: Action,
    },
    Open(String),
    Rename(String),
    Delete,
    BringBack,
    Say(Status),
    Storage(Storage),
    /// The scenario a link carried: the draft it is (if the author already has it), or a
    /// new draft (a copy, when the link asked for one).
    Arrived {
        text: String,
        copy: bool,
    },
}

impl Reducible for Builder {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut next = (*self).clone();
        match msg {
            Msg::Edit(action, group) => {
                let removing = removal(&action, &self.editor);
                next.editor = self.editor.apply_in(action, group);
                next.status = match removing {
                    Some((key, what)) if next.editor.text != self.editor.text => {
                        Some(Status::Removed(key, what))
                    }
                    _ => None,
                };
            }
            Msg::New { name, action } => {
                next.editor = fresh().apply(action).settled();
                next.drafts.add(&name, &next.editor.text);
                next.status = None;
            }
            Msg::Open(name) => {
                next.drafts.open = name;
                if let Some(text) = next.drafts.text() {
                    next.editor = fresh().apply(Action::Load(text.to_owned())).settled();
                }
                next.status = None;
            }
            Msg::Rename(name) => {
                next.drafts.rename(&name);
            }
            Msg::Delete => {
                if let Some((name, text)) = next.drafts.remove_open() {
                    next.status = Some(Status::Deleted(name, text));
                }
                match next.drafts.text() {
                    Some(text) => {
                        next.editor = fresh().apply(Action::Load(text.to_owned())).settled()
                    }
                    None => {
                        next.editor = fresh().apply(Action::LoadCopy(BLANK.to_owned())).settled();
                        next.drafts.add("draft", &next.editor.text);
                    }
                }
            }
            Msg::BringBack => {
                if let Some(Status::Deleted(name, text)) = &self.status {
                    next.editor = fresh().apply(Action::Load(text.clone())).settled();
                    next.drafts.add(name, text);
                }
                next.status = None;
            }
            Msg::Say(status) => next.status = Some(status),
            Msg::Storage(storage) => next.storage = storage,
            Msg::Arrived { text, copy } => {
                let known =
                    next.drafts.items.iter().find(|(_, t)| *t == text).map(|(n, _)| n.clone());
                match (known, copy) {
                    (Some(name), false) => {
                        next.drafts.open = name;
                        next.editor = fresh().apply(Action::Load(text)).settled();
                    }
                    _ => {
                        let action = if copy { Action::LoadCopy(text) } else { Action::Load(text) };
                        next.editor = fresh().apply(action).settled();
                        next.drafts.add(&next.editor.scenario.id, &next.editor.text);
                    }
                }
                next.status = None;
            }
        }
        // The open draft follows every change (valid or not), so nothing typed is lost.
        next.drafts.keep(&next.editor.scenario.id, &next.editor.text);
        Rc::new(next)
    }
}

/// An editor with no history, to load a draft into.
fn fresh() -> Editor {
    // Invariant: BLANK is a constant the native tests load (`sandbox::tests::blank`).
    let blank = crate::catalogue::load::parse_scenario(BLANK).expect("the blank template loads");
    Editor::new(&blank)
}

/// What an action removes, for the status line (undo brings it back): a message key and
/// the name or number of what went.
fn removal(action: &Action, e: &Editor) -> Option<(&'static str, String)> {
    let s = &e.scenario;
    match action {
        Action::RemoveWorker(i) => {
            s.setup.workers.get(*i).map(|w| ("sandbox.removed_worker", w.name.clone()))
        }
        Action::RemoveStep(at) => Some(("sandbox.removed_step", (at.index + 1).to_string())),
        Action::RemoveFault(k) => Some(("sandbox.removed_fault", (k + 1).to_string())),
        Action::RemoveNarration(i) => Some(("sandbox.removed_paragraph", (i + 1).to_string())),
        Action::RemovePrompt(i) => Some(("sandbox.removed_prompt", (i + 1).to_string())),
        Action::SetExpect(None) => Some(("sandbox.removed_expect", String::new())),
        _ => None,
    }
}

/// How the builder opens: a scenario carried by the link, else the drafts kept in this
/// browser, else a copy of the lesson the sandbox starts from.
fn opening() -> Builder {
    let mut builder = opening_editor();
    builder.storage = opening_storage();
    builder
}

/// Reads the stored record's state of health: a record that could not all be read is
/// copied aside before anything is written over it.
fn opening_storage() -> Storage {
    let Some(storage) = crate::ui::local_storage() else { return Storage::Blocked };
    let Ok(Some(stored)) = storage.get_item(DRAFTS_KEY) else { return Storage::Kept };
    if !Drafts::read(&stored).damaged {
        return Storage::Kept;
    }
    match storage.set_item(ASIDE_KEY, &stored) {
        Ok(()) => Storage::SetAside,
        Err(_) => Storage::Untouched,
    }
}

fn opening_editor() -> Builder {
    let storage = crate::ui::local_storage();
    let stored = storage.as_ref().and_then(|s| s.get_item(DRAFTS_KEY).ok().flatten());
    let mut drafts = stored.as_deref().map(|s| Drafts::read(s).drafts).unwrap_or_default();
    // The single draft the first version kept becomes a named one.
    if let Some(storage) = &storage
        && let Ok(Some(old)) = storage.get_item(OLD_DRAFT_KEY)
    {
        if !old.trim().is_empty() && old.len() <= catalogue::load::BYTES_MAX {
            drafts.add("draft", &old);
        }
        let _ = storage.remove_item(OLD_DRAFT_KEY);
    }
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    match crate::sandbox::Opening::of(&hash) {
        crate::sandbox::Opening::Builtin(id) => {
            let editor = match drafts.text() {
                Some(text) => fresh().apply(Action::Load(text.to_owned())).settled(),
                None => fresh(),
            };
            return Builder {
                editor,
                drafts,
                fetch: Some(id),
                status: None,
                storage: Storage::Kept,
            };
        }
        crate::sandbox::Opening::Json { text, copy } => {
            // A draft's own link (kept as the author types) opens that draft; a link to
            // someone's scenario opens a copy of it.
            let known = drafts.items.iter().find(|(_, t)| *t == text).map(|(n, _)| n.clone());
            if let (Some(name), false) = (known, copy) {
                drafts.open = name;
            } else {
                let action = if copy { Action::LoadCopy(text) } else { Action::Load(text) };
                let editor = fresh().apply(action).settled();
                drafts.add(&editor.scenario.id, &editor.text);
                return Builder {
                    editor,
                    drafts,
                    fetch: None,
                    status: None,
                    storage: Storage::Kept,
                };
            }
        }
        crate::sandbox::Opening::Deflated { .. } | crate::sandbox::Opening::Nothing => {}
    }
    match drafts.text() {
        Some(text) => {
            let editor = fresh().apply(Action::Load(text.to_owned())).settled();
            Builder {
                editor,
                drafts,
                fetch: None,
                status: Some(Status::Restored),
                storage: Storage::Kept,
            }
        }
        // A first visit starts from a worked lesson (its story flagged as the template's),
        // once it is loaded; the blank one shows meanwhile.
        None => Builder {
            editor: fresh(),
            drafts,
            fetch: Some(START_ID.to_owned()),
            status: None,
            storage: Storage::Kept,
        },
    }
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
    let Some(error) = &editor.error else { return Html::default() };
    if editor.source != Source::Form {
        return Html::default();
    }
    let here = match &editor.rejected {
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
    let state = use_reducer(opening);
    // Every change is kept at once (storage), and the link carries the open draft. Whatever
    // goes wrong is said: a failed save, drafts dropped to make room, no storage at all.
    {
        let record = state.drafts.write();
        let storage_now = state.storage.clone();
        let dispatch = state.dispatcher();
        use_effect_with((record, storage_now), move |(record, storage_now)| {
            if matches!(storage_now, Storage::Untouched | Storage::Blocked) {
                return;
            }
            let saved = crate::ui::local_storage()
                .is_some_and(|storage| storage.set_item(DRAFTS_KEY, &record.text).is_ok());
            let now = match saved {
                false => Storage::SaveFailed,
                true if !record.evicted.is_empty() => Storage::Evicted(record.evicted.clone()),
                // A note about the record set aside stays until something else happens.
                true if *storage_now == Storage::SetAside => Storage::SetAside,
                true => Storage::Kept,
            };
            if now != *storage_now {
                dispatch.dispatch(Msg::Storage(now));
            }
        });
    }
    {
        let text = state.editor.text.clone();
        use_effect_with(text, |text| {
            let text = text.clone();
            // A newer text, or leaving the page, makes this one's link stale: it is dropped.
            let stale = Rc::new(std::cell::Cell::new(false));
            let dropped = stale.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let hash = crate::sandbox::link_hash(
                    &crate::ui::share::deflate(text.as_bytes()).await.ok(),
                    &text,
                );
                if !stale.get() && crate::ui::nav::current_hash().starts_with("#/sandbox") {
                    crate::ui::nav::record_hash(&hash);
                }
            });
            move || dropped.set(true)
        });
    }
    // A built-in to copy (a player's "Edit a copy", a first visit): loaded once, then
    // opened as a new draft.
    {
        let dispatch = state.dispatcher();
        let fetch = state.fetch.clone();
        use_effect_with((), move |_| {
            if let Some(id) = fetch {
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::ui::lessons::load(&id).await {
                        Ok(s) => {
                            let text = codec::write_scenario(&s).pretty();
                            dispatch.dispatch(Msg::Arrived { text, copy: true });
                        }
                        Err(why) => {
                            dispatch.dispatch(Msg::Arrived { text: BLANK.to_owned(), copy: true });
                            dispatch.dispatch(Msg::Say(Status::Imported(why)));
                        }
                    }
                });
            }
            || ()
        });
    }
    // A link with a compressed scenario: inflated once, then opened like the others.
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
            if let crate::sandbox::Opening::Deflated { bytes, copy } =
                crate::sandbox::Opening::of(&hash)
            {
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::ui::share::inflate(&bytes).await {
                        Ok(text) => dispatch.dispatch(Msg::Arrived { text, copy }),
                        Err(why) => dispatch.dispatch(Msg::Say(Status::Imported(why))),
                    }
                });
            }
            || ()
        });
    }
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
    let on_new = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let choice = select_value(&e);
            if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                sel.set_value("");
            }
            match choice.as_str() {
                "" => {}
                "blank" => dispatch.dispatch(Msg::New {
                    name: "my-lesson".to_owned(),
                    action: Action::LoadCopy(BLANK.to_owned()),
                }),
                id => {
                    let (id, dispatch) = (id.to_owned(), dispatch.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        match crate::ui::lessons::load(&id).await {
                            Ok(s) => dispatch.dispatch(Msg::New {
                                name: format!("{id}-copy"),
                                action: Action::LoadCopy(codec::write_scenario(&s).pretty()),
                            }),
                            Err(why) => dispatch.dispatch(Msg::Say(Status::Imported(why))),
                        }
                    });
                }
            }
        })
    };
    let on_open = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| dispatch.dispatch(Msg::Open(select_value(&e))))
    };
    let on_rename = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| dispatch.dispatch(Msg::Rename(input_value(&e))))
    };
    let on_text = {
        let apply = apply.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                apply.emit((Action::SetText(area.value()), None));
            }
        })
    };
    let runnable = editor.runnable().cloned();
    let on_run = {
        let runnable = runnable.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = runnable.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let hash = crate::ui::share::custom_link(&s).await.to_hash();
                    crate::ui::nav::set_hash(&hash);
                });
            }
        })
    };
    // The draft's schedule search: the same link as Run's, to the search's page.
    let on_break = {
        let runnable = runnable.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = runnable.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let link = crate::ui::share::custom_link(&s).await;
                    if let crate::route::View::Custom { payload } = link.view {
                        let target = crate::route::Target::Carried(payload);
                        let view = crate::route::View::Break { target };
                        crate::ui::nav::set_hash(&crate::route::Link::to(view).to_hash());
                    }
                });
            }
        })
    };
    let on_compare = {
        let comparing = comparing.clone();
        Callback::from(move |_: MouseEvent| comparing.set(!*comparing))
    };
    let share = use_state(String::new);
    let on_share = {
        let share = share.clone();
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let url = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            if let Some(window) = web_sys::window() {
                // Refused clipboards (permissions, plain http) still get the link shown.
                let _ = window.navigator().clipboard().write_text(&url);
            }
            share.set(url);
            dispatch.dispatch(Msg::Say(Status::Copied));
        })
    };
    let on_export = {
        let text = editor.text.clone();
        let id = editor.scenario.id.clone();
        Callback::from(move |_| {
            crate::ui::player::controls::download(
                &format!("{id}.scenario.json"),
                "application/json",
                &text,
            )
        })
    };
    let on_import = {
        let dispatch = dispatch.clone();
        let m = m.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let dispatch = dispatch.clone();
            let m = m.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let name = file.name();
                // Size first: the loader refuses large files anyway, but do not read them.
                let max = catalogue::load::BYTES_MAX;
                if file.size() > max as f64 {
                    let why = m.labf(
                        "sandbox.import_large",
                        &[("file", &name), ("max", &max.to_string())],
                    );
                    dispatch.dispatch(Msg::Say(Status::Imported(why)));
                    return;
                }
                // Bytes, not `file.text()`: that would turn a file that is not UTF-8 into
                // replacement characters without a word.
                let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
                let bytes = bytes.map(|b| js_sys::Uint8Array::new(&b).to_vec()).unwrap_or_default();
                let Ok(text) = String::from_utf8(bytes) else {
                    let why = m.labf("sandbox.import_not_text", &[("file", &name)]);
                    dispatch.dispatch(Msg::Say(Status::Imported(why)));
                    return;
                };
                match Import::of(&text) {
                    Import::Scenario(text) => dispatch.dispatch(Msg::New {
                        name: name
                            .trim_end_matches(".json")
                            .trim_end_matches(".scenario")
                            .to_owned(),
                        action: Action::Load(text),
                    }),
                    Import::Trace { scenario } => {
                        let args = [("file", name.as_str()), ("id", scenario.as_str())];
                        let Ok(s) = crate::ui::lessons::load(&scenario).await else {
                            let why = m.labf("sandbox.import_trace_only", &args);
                            dispatch.dispatch(Msg::Say(Status::Imported(why)));
                            return;
                        };
                        let why = m.labf("sandbox.import_trace", &args);
                        dispatch.dispatch(Msg::New {
                            name: format!("{scenario}-copy"),
                            action: Action::LoadCopy(codec::write_scenario(&s).pretty()),
                        });
                        dispatch.dispatch(Msg::Say(Status::Imported(why)));
                    }
                }
            });
        })
    };
    let status = match &state.status {
        None => Html::default(),
        Some(Status::Restored) => {
            html! { <p class="note" data-testid="sandbox-restored">{ m.lab("sandbox.restored") }</p> }
        }
        Some(Status::Removed(key, what)) => html! {
            <p class="note" role="status" data-testid="sandbox-removed">{ m.labf(key, &[("n", what)]) }{ " " }
                <button onclick={act(Action::Undo)}>{ m.lab("sandbox.undo") }</button></p>
        },
        Some(Status::Deleted(name, _)) => html! {
            <p class="note" role="status">{ m.labf("sandbox.deleted", &[("name", name)]) }{ " " }
                <button onclick={ { let d = dispatch.clone(); Callback::from(move |_| d.dispatch(Msg::BringBack)) } }>{ m.lab("sandbox.bring_back") }</button></p>
        },
        Some(Status::Imported(text)) => {
            html! { <p class="note" role="status" data-testid="sandbox-imported">{ text.clone() }</p> }
        }
        Some(Status::Copied) => html! {
            <p class="note" role="status"><label>{ m.lab("sandbox.share_link") }{ " " }<input class="share-url" readonly=true value={(*share).clone()} data-testid="sandbox-share-url" /></label></p>
        },
    };
    let storage_note = match &state.storage {
        Storage::Kept => None,
        Storage::SetAside => Some(m.labf("sandbox.storage_aside", &[("key", ASIDE_KEY)])),
        Storage::Untouched => Some(m.labf("sandbox.storage_untouched", &[("key", DRAFTS_KEY)])),
        Storage::Blocked => Some(m.lab("sandbox.storage_blocked")),
        Storage::SaveFailed => Some(m.lab("sandbox.storage_failed")),
        Storage::Evicted(names) => {
            Some(m.labf("sandbox.storage_evicted", &[("names", &names.join(", "))]))
        }
    };
    let storage_note = match storage_note {
        Some(text) => {
            html! { <p class="note warn" role="status" data-testid="sandbox-storage">{ text }</p> }
        }
        None => Html::default(),
    };
    let s = &editor.scenario;
    let locked = !editor.form_open();
    html! {
        <section class="panel editor" aria-labelledby="editor-title" onkeydown={on_keys}>
            <h2 id="editor-title">{ m.lab("sandbox.editor") }</h2>
            <div class="editor-bar drafts">
                <label>{ m.lab("sandbox.draft") }{ " " }
                    <select data-testid="sandbox-draft" onchange={on_open}>
                        { for state.drafts.items.iter().map(|(name, _)| html! {
                            <option value={name.clone()} selected={*name == state.drafts.open}>{ name }</option>
                        }) }
                    </select>
                </label>
                <label>{ m.lab("sandbox.draft_name") }{ " " }
                    <input value={state.drafts.open.clone()} data-testid="sandbox-draft-name" onchange={on_rename} />
                </label>
                <button data-testid="sandbox-delete" onclick={ { let d = dispatch.clone(); Callback::from(move |_| d.dispatch(Msg::Delete)) } }>{ m.lab("sandbox.delete") }</button>
                <label>{ m.lab("sandbox.new_from") }{ " " }
                    <select data-testid="sandbox-builtin" onchange={on_new}>
                        <option value="" selected=true>{ "…" }</option>
                        <option value="blank">{ m.lab("sandbox.blank") }</option>
                        { for catalogue::index().iter().map(|b| html! { <option value={b.id.to_string()}>{ &b.title }</option> }) }
                    </select>
                </label>
            </div>
            { storage_note }
            { status }
            <div class="editor-bar">
                <button data-testid="sandbox-undo" disabled={!editor.can_undo()} onclick={act(Action::Undo)} title="Ctrl+Z">{ m.lab("sandbox.undo") }</button>
                <button data-testid="sandbox-redo" disabled={!editor.can_redo()} onclick={act(Action::Redo)} title="Ctrl+Shift+Z">{ m.lab("sandbox.redo") }</button>
                <button class="primary" data-testid="sandbox-run" disabled={runnable.is_none()} onclick={on_run}>{ m.lab("sandbox.run") }</button>
                <button data-testid="sandbox-compare" disabled={runnable.is_none()} aria-pressed={comparing.to_string()} onclick={on_compare}>{ m.lab("sandbox.compare") }</button>
                <button data-testid="sandbox-break" disabled={runnable.is_none()} onclick={on_break}>{ m.lab("sandbox.break") }</button>
                <button data-testid="sandbox-share" onclick={on_share}>{ m.lab("sandbox.share") }</button>
                <button data-testid="sandbox-export" onclick={on_export}>{ m.lab("sandbox.export") }</button>
                <label class="import">{ m.lab("sandbox.import") }{ " " }
                    <input type="file" accept=".json,application/json" data-testid="sandbox-import" onchange={on_import} />
                </label>
                <a href="scenario-format.html" target="_blank" rel="noopener" data-testid="sandbox-format">{ m.lab("sandbox.format_link") }</a>
            </div>
            // "Or undo" only when there is something to undo.
            if runnable.is_none() {
                <p class="field-error" data-testid="sandbox-not-runnable">{ m.lab(if editor.can_undo() { "sandbox.not_runnable" } else { "sandbox.not_runnable_fix" }) }</p>
            }
            // A draft whose text never loaded has no run of its own: showing the stand-in's
            // would show another lesson.
            if editor.nothing_loaded {
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
            <div class="editor-grid">
                <div class="form" data-testid="sandbox-form">
                    if locked && !editor.nothing_loaded {
                        <p class="field-error" role="status" data-testid="sandbox-form-locked">{ m.lab(if editor.can_undo() { "sandbox.form_locked" } else { "sandbox.form_locked_fix" }) }</p>
                    }
                    // A refused field shows what was typed; say plainly that the scenario (and
                    // Run) keeps the last values that loaded until the field is fixed.
                    if let (Some(_), Source::Form) = (&editor.error, editor.source) {
                        <p class="field-error" role="status" data-testid="sandbox-field-kept">{ m.lab("sandbox.field_kept") }</p>
                    }
                    // The stand-in of a draft that never loaded is not shown as its form.
                    <fieldset class="form-body" disabled={locked} hidden={editor.nothing_loaded}>
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
                                if !kind.is_empty() { apply.emit((Action::AddFault(kind), None)); }
                                if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() { sel.set_value(""); }
                            }) } }>
                                <option value="" selected=true>{ "…" }</option>
                                { for fault_kinds().iter().map(|k| html! { <option value={*k}>{ m.lab(&format!("sandbox.fault.{k}")) }</option> }) }
                            </select>
                        </label>
                        { field_error(editor, "$.faults") }
                    </fieldset>
                </div>
                <div class="json">
                    <label for="sandbox-json">{ m.lab("sandbox.json") }</label>
                    <textarea id="sandbox-json" class="code" spellcheck="false" rows="28" data-testid="sandbox-json"
                        aria-invalid={(!editor.text_valid).to_string()} value={editor.text.clone()} oninput={on_text} />
                    if let (Some(e), Source::Text) = (&editor.error, editor.source) {
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
            if !kind.is_empty() {
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
                    { for step_kinds().iter().map(|k| html! { <option value={*k}>{ m.lab(&format!("sandbox.step.{k}")) }</option> }) }
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
