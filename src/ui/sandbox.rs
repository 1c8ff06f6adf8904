//! The sandbox page (`#/sandbox`): the scenario editor (form and JSON, errors inline with
//! their path, run, import, export, share) and the Redis and SQL consoles. It renders
//! `sandbox::Editor` and the pure consoles; it never simulates or parses SQL itself.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::catalogue::load::LoadError;
use crate::catalogue::{self, codec};
use crate::console::line::{Completion, History, REDIS_WORDS, SQL_WORDS, Words, complete};
use crate::console::redis::RedisConsole;
use crate::console::sql::{Session, SqlConsole};
use crate::sandbox::{
    Action, Direction, Editor, Field, fault_kinds, fields, step_kinds, with_field,
};
use crate::ui::i18n::use_i18n;

/// The scenario the editor opens with, when no draft was kept.
const START_ID: &str = "gc-pause-fenced";

/// Where the editor keeps the author's text between visits (Run, Back, a reload).
const DRAFT_KEY: &str = "fencing-playground/sandbox-draft/v1";

/// The kept draft, as the author left it (valid or not: the editor shows it either way).
fn kept_draft() -> Option<String> {
    crate::ui::local_storage()?
        .get_item(DRAFT_KEY)
        .ok()
        .flatten()
        .filter(|t| !t.trim().is_empty() && t.len() <= catalogue::load::BYTES_MAX)
}

#[component]
pub(crate) fn SandboxPage() -> Html {
    let m = use_i18n();
    html! {
        <div class="sandbox" data-testid="sandbox">
            <h1>{ m.lab("sandbox.title") }</h1>
            <p class="lede">{ m.lab("sandbox.lede") }</p>
            <ScenarioEditor />
            <RedisPanel />
            <SqlPanel />
        </div>
    }
}

fn input_value(e: &Event) -> String {
    e.target_dyn_into::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default()
}

fn select_value(e: &Event) -> String {
    e.target_dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value()).unwrap_or_default()
}

/// An error line under the row it belongs to (its path starts with `prefix`).
fn inline_error(error: Option<&LoadError>, prefix: &str) -> Html {
    match error {
        Some(e)
            if e.path == prefix
                || e.path.starts_with(&format!("{prefix}."))
                || e.path.starts_with(&format!("{prefix}[")) =>
        {
            html! { <p class="field-error" role="alert" data-testid="field-error">{ e.to_string() }</p> }
        }
        _ => Html::default(),
    }
}

/// A row's members as labelled form fields; a change rewrites the row's JSON through
/// `with_field` and hands it to `set`.
fn row_fields(row_json: &str, test_id: &'static str, set: Callback<String>) -> Html {
    html! {
        <span class="fields">
            { for fields(row_json).into_iter().map(|(key, field)| {
                let json = row_json.to_owned();
                let setter = set.clone();
                let name = key.clone();
                let onchange = Callback::from(move |e: Event| setter.emit(with_field(&json, &name, &input_value(&e))));
                let (value, mode) = match field {
                    Field::Number(n) => (n, "numeric"),
                    Field::Text(t) => (t, "text"),
                    Field::Flag(b) => (b.to_string(), "text"),
                    Field::Word(current, words) => {
                        let json = row_json.to_owned();
                        let set = set.clone();
                        let name = key.clone();
                        let onchange = Callback::from(move |e: Event| set.emit(with_field(&json, &name, &select_value(&e))));
                        return html! {
                            <label class="field">{ key.clone() }
                                <select data-testid={test_id} data-field={key} {onchange}>
                                    { for words.iter().map(|w| html! { <option value={*w} selected={*w == current}>{ *w }</option> }) }
                                </select>
                            </label>
                        };
                    }
                    Field::Other => return Html::default(),
                };
                html! {
                    <label class="field">{ key.clone() }
                        <input inputmode={mode} value={value} data-testid={test_id} data-field={key} {onchange} />
                    </label>
                }
            }) }
        </span>
    }
}

#[component]
fn ScenarioEditor() -> Html {
    let m = use_i18n();
    let restored = use_memo((), |_| kept_draft());
    let editor = use_state(|| {
        // The built-in exists (catalogue tests list it); fall back to the first one anyway.
        let scenario = catalogue::find(START_ID).or_else(|| catalogue::all().into_iter().next());
        let fresh = scenario.map(|s| Editor::new(&s));
        // The author's kept text goes through the loader like any typed text.
        match (fresh, (*restored).clone()) {
            (Some(fresh), Some(text)) => Some(fresh.apply(Action::SetText(text))),
            (fresh, _) => fresh,
        }
    });
    // Every change is kept at once: Run, the header's links, Back and a reload lose nothing.
    {
        let text = (*editor).as_ref().map(|e| e.text.clone());
        use_effect_with(text, |text| {
            if let (Some(text), Some(storage)) = (text, crate::ui::local_storage()) {
                let _ = storage.set_item(DRAFT_KEY, text);
            }
            || ()
        });
    }
    let share = use_state(String::new);
    let Some(current) = (*editor).clone() else { return Html::default() };
    let apply = {
        let editor = editor.clone();
        Callback::from(move |action: Action| {
            if let Some(e) = (*editor).as_ref() {
                editor.set(Some(e.apply(action)));
            }
        })
    };
    let act = |make: Rc<dyn Fn(Event) -> Action>| {
        let apply = apply.clone();
        Callback::from(move |e: Event| apply.emit(make(e)))
    };
    let on_builtin = {
        let apply = apply.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = catalogue::find(&select_value(&e)) {
                apply.emit(Action::SetText(codec::write_scenario(&s).pretty()));
            }
        })
    };
    let on_text = {
        let apply = apply.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(area) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
                apply.emit(Action::SetText(area.value()));
            }
        })
    };
    let runnable = current.runnable().cloned();
    let on_run = {
        let runnable = runnable.clone();
        Callback::from(move |_| {
            if let Some(s) = runnable.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let link = crate::ui::share::custom_link(&s).await;
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().set_hash(&link.to_hash());
                    }
                });
            }
        })
    };
    let on_share = {
        let runnable = runnable.clone();
        let share = share.clone();
        Callback::from(move |_| {
            if let Some(s) = runnable.clone() {
                let share = share.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    let link = crate::ui::share::custom_link(&s).await;
                    let base = web_sys::window()
                        .and_then(|w| w.location().href().ok())
                        .map(|h| h.split('#').next().unwrap_or("").to_owned())
                        .unwrap_or_default();
                    share.set(format!("{base}{}", link.to_hash()));
                });
            }
        })
    };
    let on_export = {
        let text = current.text.clone();
        let id = current.scenario.id.clone();
        Callback::from(move |_| {
            crate::ui::player::controls::download(&format!("{id}.json"), "application/json", &text)
        })
    };
    let on_import = {
        let apply = apply.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let apply = apply.clone();
            wasm_bindgen_futures::spawn_local(async move {
                // Size first: the loader refuses large files anyway, but do not read them.
                if file.size() > crate::catalogue::load::BYTES_MAX as f64 {
                    apply.emit(Action::SetText(format!(
                        "// {} is {} bytes; a scenario may have at most {}",
                        file.name(),
                        file.size(),
                        crate::catalogue::load::BYTES_MAX
                    )));
                    return;
                }
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                match text.ok().and_then(|t| t.as_string()) {
                    Some(text) => apply.emit(Action::SetText(text)),
                    None => apply.emit(Action::SetText(String::new())),
                }
            });
        })
    };
    let s = &current.scenario;
    let error = current.error.as_ref();
    html! {
        <section class="panel editor" aria-labelledby="editor-title">
            <h2 id="editor-title">{ m.lab("sandbox.editor") }</h2>
            if restored.is_some() {
                <p class="note" data-testid="sandbox-restored">{ m.lab("sandbox.restored") }</p>
            }
            <p class="note"><a href="scenario-format.html" target="_blank" rel="noopener" data-testid="sandbox-format">{ m.lab("sandbox.format_link") }</a></p>
            <div class="editor-bar">
                <label>{ m.lab("sandbox.start_from") }{ " " }
                    <select data-testid="sandbox-builtin" onchange={on_builtin}>
                        { for catalogue::all().iter().map(|b| html! {
                            <option value={b.id.clone()} selected={b.id == s.id}>{ &b.title }</option>
                        }) }
                    </select>
                </label>
                <button class="primary" data-testid="sandbox-run" disabled={runnable.is_none()} onclick={on_run}>{ m.lab("sandbox.run") }</button>
                <button data-testid="sandbox-share" disabled={runnable.is_none()} onclick={on_share}>{ m.lab("sandbox.share") }</button>
                <button data-testid="sandbox-export" onclick={on_export}>{ m.lab("sandbox.export") }</button>
                <label class="import">{ m.lab("sandbox.import") }{ " " }
                    <input type="file" accept=".json,application/json" data-testid="sandbox-import" onchange={on_import} />
                </label>
            </div>
            if !share.is_empty() {
                <p><label>{ m.lab("sandbox.share_link") }{ " " }<input class="share-url" readonly=true value={(*share).clone()} data-testid="sandbox-share-url" /></label></p>
            }
            <div class="editor-grid">
                <div class="form" data-testid="sandbox-form">
                    <label>{ m.lab("sandbox.field.title") }
                        <input value={s.title.clone()} onchange={act(Rc::new(|e| Action::SetTitle(input_value(&e))))} />
                    </label>
                    <label>{ m.lab("sandbox.field.seed") }
                        <input inputmode="numeric" value={s.seed.to_string()} data-testid="sandbox-seed" onchange={act(Rc::new(|e| Action::SetSeed(input_value(&e))))} />
                    </label>
                    { inline_error(error, "$.seed") }
                    <label>{ m.lab("sandbox.field.until") }
                        <input inputmode="numeric" value={s.until_ms.to_string()} onchange={act(Rc::new(|e| Action::SetUntil(input_value(&e))))} />
                    </label>
                    { inline_error(error, "$.until_ms") }
                    <h3>{ m.lab("sandbox.workers") }</h3>
                    { for s.workers.iter().enumerate().map(|(i, w)| html! {
                        <fieldset class="worker" data-testid="sandbox-worker">
                            <legend>{ m.labf("sandbox.worker", &[("name", &w.name)]) }</legend>
                            <label>{ m.lab("sandbox.field.name") }
                                <input value={w.name.clone()} onchange={act(Rc::new(move |e| Action::RenameWorker(i, input_value(&e))))} />
                            </label>
                            <label>{ m.lab("sandbox.field.start") }
                                <input inputmode="numeric" value={w.start_ms.to_string()} onchange={act(Rc::new(move |e| Action::SetStart(i, input_value(&e))))} />
                            </label>
                            <button class="remove" aria-label={m.labf("sandbox.remove_worker", &[("name", &w.name)])} onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::RemoveWorker(i))) } }>{ "✕" }</button>
                            <ol class="steps">
                                { for w.program.iter().enumerate().map(|(j, step)| html! {
                                    <li>
                                        <input class="code" aria-label={m.labf("sandbox.step", &[("n", &(j + 1).to_string())])} value={codec::step_text(step)} data-testid="sandbox-step"
                                            onchange={act(Rc::new(move |e| Action::SetStep(i, j, input_value(&e))))} />
                                        <button aria-label={m.lab("sandbox.up")} onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::MoveStep(i, j, Direction::Up))) } }>{ "↑" }</button>
                                        <button aria-label={m.lab("sandbox.down")} onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::MoveStep(i, j, Direction::Down))) } }>{ "↓" }</button>
                                        <button aria-label={m.lab("sandbox.remove")} onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::RemoveStep(i, j))) } }>{ "✕" }</button>
                                        { row_fields(&codec::step_text(step), "sandbox-step-field", { let apply = apply.clone(); Callback::from(move |json| apply.emit(Action::SetStep(i, j, json))) }) }
                                        { inline_error(error, &format!("$.workers[{i}].program[{j}]")) }
                                    </li>
                                }) }
                            </ol>
                            <label>{ m.lab("sandbox.add_step") }{ " " }
                                <select onchange={ { let apply = apply.clone(); Callback::from(move |e: Event| {
                                    let kind = select_value(&e);
                                    if !kind.is_empty() { apply.emit(Action::AddStep(i, kind)); }
                                    if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() { sel.set_value(""); }
                                }) } }>
                                    <option value="" selected=true>{ "…" }</option>
                                    { for step_kinds().iter().map(|k| html! { <option value={*k}>{ *k }</option> }) }
                                </select>
                            </label>
                            { inline_error(error, &format!("$.workers[{i}]")) }
                        </fieldset>
                    }) }
                    <button data-testid="sandbox-add-worker" onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::AddWorker)) } }>{ m.lab("sandbox.add_worker") }</button>
                    { inline_error(error, "$.workers") }
                    <h3>{ m.lab("sandbox.faults") }</h3>
                    <ol class="faults">
                        { for s.faults.iter().enumerate().map(|(k, f)| html! {
                            <li>
                                <input class="code" aria-label={m.labf("sandbox.fault", &[("n", &(k + 1).to_string())])} value={codec::fault_text(f)} data-testid="sandbox-fault"
                                    onchange={act(Rc::new(move |e| Action::SetFault(k, input_value(&e))))} />
                                <button aria-label={m.lab("sandbox.remove")} onclick={ { let apply = apply.clone(); Callback::from(move |_| apply.emit(Action::RemoveFault(k))) } }>{ "✕" }</button>
                                { row_fields(&codec::fault_text(f), "sandbox-fault-field", { let apply = apply.clone(); Callback::from(move |json| apply.emit(Action::SetFault(k, json))) }) }
                                { inline_error(error, &format!("$.faults[{k}]")) }
                            </li>
                        }) }
                    </ol>
                    <label>{ m.lab("sandbox.add_fault") }{ " " }
                        <select data-testid="sandbox-add-fault" onchange={ { let apply = apply.clone(); Callback::from(move |e: Event| {
                            let kind = select_value(&e);
                            if !kind.is_empty() { apply.emit(Action::AddFault(kind)); }
                            if let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() { sel.set_value(""); }
                        }) } }>
                            <option value="" selected=true>{ "…" }</option>
                            { for fault_kinds().iter().map(|k| html! { <option value={*k}>{ *k }</option> }) }
                        </select>
                    </label>
                    { inline_error(error, "$.faults") }
                </div>
                <div class="json">
                    <label for="sandbox-json">{ m.lab("sandbox.json") }</label>
                    <textarea id="sandbox-json" class="code" spellcheck="false" rows="28" data-testid="sandbox-json"
                        aria-invalid={error.is_some().to_string()} value={current.text.clone()} oninput={on_text} />
                    if let Some(e) = error {
                        <p class="field-error" role="alert" data-testid="sandbox-error">{ e.to_string() }</p>
                    } else {
                        <p class="ok" data-testid="sandbox-valid">{ m.labf("sandbox.valid", &[("workers", &s.workers.len().to_string()), ("faults", &s.faults.len().to_string())]) }</p>
                    }
                </div>
            </div>
        </section>
    }
}

/// Commands a learner can click to try (the Try Redis anchor).
const REDIS_EXAMPLES: [&str; 7] = [
    "SET fence:order:42 32",
    "EVAL <acquire> 2 lock:order:42 fence:order:42 A 30000",
    "PTTL lock:order:42",
    "ADVANCE 30001",
    "EVAL <acquire> 2 lock:order:42 fence:order:42 B 30000",
    "EVAL <release> 1 lock:order:42 A",
    "GET fence:order:42",
];

/// What a console input does with a key besides typing: ↑/↓ walk the history, Tab
/// completes (listing the choices when several fit), Enter runs. `Some` is the new text of
/// the input; the listed choices go to `show`.
fn console_key(
    e: &KeyboardEvent,
    text: &str,
    history: &mut History,
    words: Words,
    show: impl FnOnce(String),
) -> Option<String> {
    let next = match e.key().as_str() {
        "ArrowUp" => history.up(text),
        "ArrowDown" => history.down(),
        // Tab completes only a word being typed; on a blank or finished word it moves the
        // focus on, as everywhere else (no keyboard trap).
        "Tab" => match complete(text, words) {
            Completion::Line(line) => Some(line),
            Completion::Choices(choices) => {
                show(choices.join("  "));
                Some(text.to_owned())
            }
            Completion::Nothing => return None,
        },
        _ => return None,
    };
    e.prevent_default();
    next
}

/// Keeps a console's log scrolled to its newest line.
#[hook]
fn use_follow(log: NodeRef, len: usize) {
    use_effect_with(len, move |_| {
        if let Some(el) = log.cast::<web_sys::Element>() {
            el.set_scroll_top(el.scroll_height());
        }
        || ()
    });
}

#[component]
fn RedisPanel() -> Html {
    let m = use_i18n();
    let console = use_mut_ref(|| RedisConsole::new(0));
    let history = use_mut_ref(History::default);
    let log = use_state(Vec::<(String, String)>::new);
    let line = use_state(String::new);
    let log_ref = use_node_ref();
    use_follow(log_ref.clone(), log.len());
    let push = {
        let log = log.clone();
        Rc::new(move |input: String, reply: String| {
            let mut next = (*log).clone();
            next.push((input, reply));
            // Keep the page light: the last 200 exchanges are plenty to read back.
            let excess = next.len().saturating_sub(200);
            next.drain(..excess);
            log.set(next);
        })
    };
    let run = {
        let console = console.clone();
        let history = history.clone();
        let line = line.clone();
        let push = push.clone();
        Rc::new(move |input: String| {
            if input.trim().is_empty() {
                return;
            }
            history.borrow_mut().push(&input);
            let reply = console.borrow_mut().run_line(&input);
            push(input, reply);
            line.set(String::new());
        })
    };
    let on_key = {
        let run = run.clone();
        let line = line.clone();
        let push = push.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                run((*line).clone());
                return;
            }
            let typed = (*line).clone();
            let shown = typed.clone();
            let push = push.clone();
            let next =
                console_key(&e, &typed, &mut history.borrow_mut(), REDIS_WORDS, move |choices| {
                    push(shown, choices)
                });
            if let Some(next) = next {
                line.set(next);
            }
        })
    };
    let on_input = {
        let line = line.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                line.set(i.value());
            }
        })
    };
    let now_ms = console.borrow().now_ms;
    html! {
        <section class="panel console" aria-labelledby="redis-title" data-testid="redis-console">
            <h2 id="redis-title">{ m.lab("sandbox.redis") }</h2>
            <p class="note">{ m.lab("sandbox.redis_note") }</p>
            <div class="examples">
                { for REDIS_EXAMPLES.iter().map(|ex| {
                    let run = run.clone();
                    let text = (*ex).to_owned();
                    html! { <button class="example code" onclick={Callback::from(move |_| run(text.clone()))}>{ *ex }</button> }
                }) }
            </div>
            <pre class="console-log" aria-live="polite" data-testid="redis-log" ref={log_ref}>
                { for log.iter().map(|(input, reply)| html! { <>{ format!("redis> {input}\n{reply}\n") }</> }) }
            </pre>
            <label class="prompt"><span>{ format!("redis (t = {now_ms} ms)>") }</span>
                <input class="code" data-testid="redis-input" aria-label={m.lab("sandbox.redis_input")} value={(*line).clone()} oninput={on_input} onkeydown={on_key} />
            </label>
        </section>
    }
}

/// The table the simulator's database holds, so the player's own UPDATE runs here as it is.
const SQL_SETUP: &str = "CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text); INSERT INTO orders (id, status) VALUES (42, 'new');";

#[component]
fn SqlPanel() -> Html {
    let m = use_i18n();
    let console: Rc<RefCell<SqlConsole>> = use_mut_ref(SqlConsole::new);
    let histories = use_mut_ref(|| [History::default(), History::default()]);
    let log = use_state(Vec::<(Session, String)>::new);
    let lines = use_state(|| [String::new(), String::new()]);
    let log_ref = use_node_ref();
    use_follow(log_ref.clone(), log.len());
    let run = {
        let console = console.clone();
        let histories = histories.clone();
        let log = log.clone();
        let lines = lines.clone();
        Rc::new(move |session: Session, input: String| {
            if input.trim().is_empty() {
                return;
            }
            histories.borrow_mut()[usize::from(session == Session::B)].push(&input);
            let trimmed = input.trim();
            // `help` (psql prints its own help for it) and `\?` list what the model runs.
            let outputs = match trimmed.eq_ignore_ascii_case("help") || trimmed == "\\?" {
                true => vec![crate::console::sql::Output {
                    session,
                    text: crate::console::sql::HELP.to_owned(),
                    waiting: false,
                }],
                false => console.borrow_mut().run(session, &input),
            };
            let mut next = (*log).clone();
            next.push((session, format!("{}=> {}", session.name(), input.trim())));
            next.extend(outputs.into_iter().map(|o| (o.session, o.text)));
            let excess = next.len().saturating_sub(400);
            next.drain(..excess);
            log.set(next);
            let mut cleared = (*lines).clone();
            cleared[usize::from(session == Session::B)] = String::new();
            lines.set(cleared);
        })
    };
    let session_input = |session: Session| {
        let index = usize::from(session == Session::B);
        let on_input = {
            let lines = lines.clone();
            Callback::from(move |e: InputEvent| {
                if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                    let mut next = (*lines).clone();
                    next[index] = i.value();
                    lines.set(next);
                }
            })
        };
        let on_key = {
            let run = run.clone();
            let lines = lines.clone();
            let histories = histories.clone();
            let log = log.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    run(session, lines[index].clone());
                    return;
                }
                let typed = lines[index].clone();
                let log = log.clone();
                let shown = format!("{}=> {typed}", session.name());
                let show = move |choices: String| {
                    let mut next = (*log).clone();
                    next.push((session, shown));
                    next.push((session, choices));
                    log.set(next);
                };
                let next =
                    console_key(&e, &typed, &mut histories.borrow_mut()[index], SQL_WORDS, show);
                if let Some(text) = next {
                    let mut all = (*lines).clone();
                    all[index] = text;
                    lines.set(all);
                }
            })
        };
        let waiting = console.borrow().is_waiting(session);
        html! {
            <label class={classes!("prompt", waiting.then_some("waiting"))}>
                <span>{ format!("{}=>", session.name()) }</span>
                <input class="code" data-testid={format!("sql-input-{}", session.name())} aria-label={m.labf("sandbox.sql_input", &[("session", session.name())])}
                    value={lines[index].clone()} oninput={on_input} onkeydown={on_key} />
                if waiting { <span class="badge">{ m.lab("sandbox.waiting") }</span> }
            </label>
        }
    };
    let on_setup = {
        let run = run.clone();
        Callback::from(move |_| run(Session::A, SQL_SETUP.to_owned()))
    };
    html! {
        <section class="panel console" aria-labelledby="sql-title" data-testid="sql-console">
            <h2 id="sql-title">{ m.lab("sandbox.sql") }</h2>
            <p class="note">{ m.lab("sandbox.sql_note") }</p>
            <div class="examples"><button class="example" data-testid="sql-setup" onclick={on_setup}>{ m.lab("sandbox.sql_setup") }</button></div>
            <pre class="console-log" aria-live="polite" data-testid="sql-log" ref={log_ref}>
                { for log.iter().map(|(session, text)| html! { <span class={classes!("line", format!("s-{}", session.name()))}>{ format!("{text}\n") }</span> }) }
            </pre>
            <div class="sessions">
                { session_input(Session::A) }
                { session_input(Session::B) }
            </div>
        </section>
    }
}
