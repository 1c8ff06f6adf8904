//! The builder's bars: the drafts (open, rename, delete, new from a template) and the
//! tools (undo, redo, run, compare, break it, share, export, import), and the lines that say
//! what just happened and what became of the drafts' storage. They dispatch the builder's
//! messages; the effects they start (a fetch, a file read, the clipboard) end in one.

use yew::prelude::*;

use super::{ASIDE_KEY, DRAFTS_KEY, codec, input_value, select_value};
use crate::catalogue;
use crate::i18n::Messages;
use crate::sandbox::builder::{Msg, Status, Storage};
use crate::sandbox::drafts::Drafts;
use crate::sandbox::{Action, BLANK, Editor, Group, Import};
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(super) struct DraftsBarProps {
    pub(super) drafts: Drafts,
    pub(super) send: Callback<Msg>,
}

/// The drafts: which is open, its name, delete, and a new one from a template or blank.
#[component]
pub(super) fn DraftsBar(props: &DraftsBarProps) -> Html {
    let m = use_i18n();
    let dispatch = props.send.clone();
    let on_new = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let choice = select_value(&e);
            if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                sel.set_value("");
            }
            match choice.as_str() {
                "" => {}
                "blank" => dispatch.emit(Msg::New {
                    name: "my-lesson".to_owned(),
                    action: Action::LoadCopy(BLANK.to_owned()),
                }),
                id => {
                    let (id, dispatch) = (id.to_owned(), dispatch.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        match crate::ui::lessons::load(&id).await {
                            Ok(s) => dispatch.emit(Msg::New {
                                name: format!("{id}-copy"),
                                action: Action::LoadCopy(codec::write_scenario(&s).pretty()),
                            }),
                            Err(why) => dispatch.emit(Msg::Say(Status::Imported(why))),
                        }
                    });
                }
            }
        })
    };
    let on_open = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| dispatch.emit(Msg::Open(select_value(&e))))
    };
    let on_rename = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| dispatch.emit(Msg::Rename(input_value(&e))))
    };
    let on_delete = props.send.reform(|_: MouseEvent| Msg::Delete);
    let drafts = &props.drafts;
    html! {
        <div class="editor-bar drafts">
            <label>{ m.lab("sandbox.draft") }{ " " }
                <select data-testid="sandbox-draft" onchange={on_open}>
                    { for drafts.items.iter().map(|(name, _)| html! {
                        <option value={name.clone()} selected={*name == drafts.open}>{ name }</option>
                    }) }
                </select>
            </label>
            <label>{ m.lab("sandbox.draft_name") }{ " " }
                <input value={drafts.open.clone()} data-testid="sandbox-draft-name" onchange={on_rename} />
            </label>
            <button data-testid="sandbox-delete" onclick={on_delete}>{ m.lab("sandbox.delete") }</button>
            <label>{ m.lab("sandbox.new_from") }{ " " }
                <select data-testid="sandbox-builtin" onchange={on_new}>
                    <option value="" selected=true>{ "…" }</option>
                    <option value="blank">{ m.lab("sandbox.blank") }</option>
                    { for catalogue::index().iter().map(|b| html! { <option value={b.id.to_string()}>{ m.content(&format!("s.{}.title", b.id), &b.title) }</option> }) }
                </select>
            </label>
        </div>
    }
}

#[derive(PartialEq, Properties)]
pub(super) struct ToolsProps {
    pub(super) editor: Editor,
    pub(super) comparing: bool,
    pub(super) on_compare: Callback<MouseEvent>,
    pub(super) apply: Callback<(Action, Option<Group>)>,
    pub(super) send: Callback<Msg>,
}

/// Undo and redo, run the draft, compare it, search its schedules, share, export, import.
#[component]
pub(super) fn Tools(props: &ToolsProps) -> Html {
    let m = use_i18n();
    let dispatch = props.send.clone();
    let editor = &props.editor;
    let act = |action: Action| props.apply.reform(move |_: MouseEvent| (action.clone(), None));
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
    let on_share = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let url = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
            if let Some(window) = web_sys::window() {
                // Refused clipboards (permissions, plain http) still get the link shown.
                let _ = window.navigator().clipboard().write_text(&url);
            }
            dispatch.emit(Msg::Say(Status::Copied(url)));
        })
    };
    let on_export = {
        let text = props.editor.text.clone();
        let id = props.editor.scenario.id.clone();
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
                    dispatch.emit(Msg::Say(Status::Imported(why)));
                    return;
                }
                // Bytes, not `file.text()`: that would turn a file that is not UTF-8 into
                // replacement characters without a word.
                let bytes = wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await;
                let bytes = bytes.map(|b| js_sys::Uint8Array::new(&b).to_vec()).unwrap_or_default();
                let Ok(text) = String::from_utf8(bytes) else {
                    let why = m.labf("sandbox.import_not_text", &[("file", &name)]);
                    dispatch.emit(Msg::Say(Status::Imported(why)));
                    return;
                };
                match Import::of(&text) {
                    Import::Scenario(text) => dispatch.emit(Msg::New {
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
                            dispatch.emit(Msg::Say(Status::Imported(why)));
                            return;
                        };
                        let why = m.labf("sandbox.import_trace", &args);
                        dispatch.emit(Msg::New {
                            name: format!("{scenario}-copy"),
                            action: Action::LoadCopy(codec::write_scenario(&s).pretty()),
                        });
                        dispatch.emit(Msg::Say(Status::Imported(why)));
                    }
                }
            });
        })
    };
    html! {
        <div class="editor-bar">
            <button data-testid="sandbox-undo" disabled={!editor.can_undo()} onclick={act(Action::Undo)} title="Ctrl+Z">{ m.lab("sandbox.undo") }</button>
            <button data-testid="sandbox-redo" disabled={!editor.can_redo()} onclick={act(Action::Redo)} title="Ctrl+Shift+Z">{ m.lab("sandbox.redo") }</button>
            <button class="primary" data-testid="sandbox-run" disabled={runnable.is_none()} onclick={on_run}>{ m.lab("sandbox.run") }</button>
            <button data-testid="sandbox-compare" disabled={runnable.is_none()} aria-pressed={props.comparing.to_string()} onclick={props.on_compare.clone()}>{ m.lab("sandbox.compare") }</button>
            <button data-testid="sandbox-break" disabled={runnable.is_none()} onclick={on_break}>{ m.lab("sandbox.break") }</button>
            <button data-testid="sandbox-share" onclick={on_share}>{ m.lab("sandbox.share") }</button>
            <button data-testid="sandbox-export" onclick={on_export}>{ m.lab("sandbox.export") }</button>
            <label class="import">{ m.lab("sandbox.import") }{ " " }
                <input type="file" accept=".json,application/json" data-testid="sandbox-import" onchange={on_import} />
            </label>
            <a href="scenario-format.html" target="_blank" rel="noopener" data-testid="sandbox-format">{ m.lab("sandbox.format_link") }</a>
        </div>
    }
}

/// What just happened, with the way back where there is one.
pub(super) fn status_line(
    m: &Messages,
    status: Option<&Status>,
    apply: &Callback<(Action, Option<Group>)>,
    send: &Callback<Msg>,
) -> Html {
    match status {
        None => Html::default(),
        Some(Status::Restored) => {
            html! { <p class="note" data-testid="sandbox-restored">{ m.lab("sandbox.restored") }</p> }
        }
        Some(Status::Removed(key, what)) => html! {
            <p class="note" role="status" data-testid="sandbox-removed">{ m.labf(key, &[("n", what)]) }{ " " }
                <button onclick={apply.reform(|_: MouseEvent| (Action::Undo, None))}>{ m.lab("sandbox.undo") }</button></p>
        },
        Some(Status::Deleted(name, _)) => html! {
            <p class="note" role="status">{ m.labf("sandbox.deleted", &[("name", name)]) }{ " " }
                <button onclick={send.reform(|_: MouseEvent| Msg::BringBack)}>{ m.lab("sandbox.bring_back") }</button></p>
        },
        Some(Status::Imported(text)) => {
            html! { <p class="note" role="status" data-testid="sandbox-imported">{ text.clone() }</p> }
        }
        Some(Status::Copied(url)) => html! {
            <p class="note" role="status"><label>{ m.lab("sandbox.share_link") }{ " " }<input class="share-url" readonly=true value={url.clone()} data-testid="sandbox-share-url" /></label></p>
        },
    }
}

/// What became of the drafts' storage, while it is worth saying.
pub(super) fn storage_note(m: &Messages, storage: &Storage) -> Html {
    let text = match storage {
        Storage::Kept => return Html::default(),
        Storage::SetAside => m.labf("sandbox.storage_aside", &[("key", ASIDE_KEY)]),
        Storage::Untouched => m.labf("sandbox.storage_untouched", &[("key", DRAFTS_KEY)]),
        Storage::Blocked => m.lab("sandbox.storage_blocked"),
        Storage::SaveFailed => m.lab("sandbox.storage_failed"),
        Storage::Evicted(names) => {
            m.labf("sandbox.storage_evicted", &[("names", &names.join(", "))])
        }
    };
    html! { <p class="note warn" role="status" data-testid="sandbox-storage">{ text }</p> }
}
