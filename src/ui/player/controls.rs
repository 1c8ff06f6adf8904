//! The scrubber, the step and play buttons, the speed control, and the export buttons.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::catalogue::narration;
use crate::player::TraceRef;
use crate::player::{Action, Player, SPEEDS};
use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct ControlsProps {
    pub(crate) player: Rc<Player>,
    pub(crate) on_action: Callback<Action>,
}

#[component]
pub(crate) fn Controls(props: &ControlsProps) -> Html {
    let m = use_i18n();
    let p = &props.player;
    let n = p.trace.len();
    let end_ms = p.end_ms();
    // One listener for the toolbar: each button names its action by its index (see `button`)
    // (a disabled button sends no click).
    let onclick = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(action) = crate::ui::index_at(e.target(), "data-act").and_then(button) {
                on_action.emit(action);
            }
        })
    };
    let oninput = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) =
                e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                && let Ok(t) = input.value().parse::<u64>()
            {
                on_action.emit(Action::SeekTime(t));
            }
        })
    };
    let onspeed = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) =
                e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                && let Ok(i) = input.value().parse::<usize>()
            {
                on_action.emit(Action::SetSpeed(i));
            }
        })
    };
    // Forward controls are off while a prediction waits for its answer (they would not
    // move) and at the end; they say so by looking off, not by silently doing nothing.
    let asking = p.prompt_due().is_some();
    let no_forward = asking || p.cursor >= n;
    let current = p
        .current_event()
        .map(|e| format!("{}: {}", p.trace.actor_name(e.actor), m.tag(e.kind.tag())));
    let valuetext = match &current {
        Some(what) => format!("{}, {what}", m.secs(p.time_ms)),
        None => format!("{}, {}", m.secs(p.time_ms), m.t("player.start_point")),
    };
    // Chapter ticks: where the narration's paragraphs begin.
    let ticks: Vec<u64> = narration::resolve(&p.trace, &p.original)
        .into_iter()
        .filter_map(|(_, event)| Some(p.trace.events()[event?].at_ms))
        .collect();
    // Per mille, printed with one decimal of a percent, without float formatting.
    let per_mille = |t: u64| t.saturating_mul(1000).checked_div(end_ms).unwrap_or(0);
    html! {
        <div class="controls">
            <div class="scrub">
                <input type="range" class="scrubber" data-testid="scrubber" min="0" max={end_ms.to_string()} step="1"
                    value={p.time_ms.to_string()} {oninput} aria-label={m.t("player.time")} aria-valuetext={valuetext} />
                <div class="ticks" aria-hidden="true">
                    { for ticks.iter().map(|&t| html! { <span class="tick" style={format!("left:{}.{}%", per_mille(t) / 10, per_mille(t) % 10)}></span> }) }
                </div>
            </div>
            <div class="buttons" role="toolbar" aria-label={m.t("player.playback")} {onclick}>
                <button data-act="0" title="Home" aria-label={m.t("player.start")}>{ "|◀" }</button>
                <button data-act="1" title="Shift+Left" aria-label={m.t("player.prev_milestone")} data-testid="milestone-back">{ "◀◀" }</button>
                <button data-act="2" title="Left" aria-label={m.t("player.step_back")} data-testid="step-back">{ "◀" }</button>
                <button data-act="3" data-testid="play" disabled={asking} aria-pressed={p.playing.to_string()}
                    aria-label={if p.playing { m.t("player.pause") } else { m.t("player.play") }} title="Space">
                    // The word goes on a phone (its bar keeps one row); the label keeps it.
                    { if p.playing { "❚❚" } else { "▶" } }
                    <span class="play-word">{ " " }{ if p.playing { m.t("player.pause") } else { m.t("player.play") } }</span>
                </button>
                <button data-act="4" disabled={no_forward} title="Right" aria-label={m.t("player.step_forward")} data-testid="step-forward">{ "▶" }</button>
                <button data-act="5" disabled={no_forward} title="Shift+Right" aria-label={m.t("player.next_milestone")} data-testid="milestone-forward">{ "▶▶" }</button>
                <button data-act="6" disabled={no_forward} title="End" aria-label={m.t("player.end")}>{ "▶|" }</button>
                <span class="clock" data-testid="clock" aria-label={m.t("player.clock")}>{ m.secs(p.time_ms) }</span>
                <span class="steps" data-testid="step-count">{ m.tf("player.step_of", &[("n", &p.cursor.to_string()), ("m", &n.to_string())]) }</span>
                <label class="speed">{ m.t("player.speed") }{ " " }
                    <input type="range" min="0" max={(SPEEDS.len() - 1).to_string()} step="1" value={p.speed.to_string()}
                        oninput={onspeed} aria-valuetext={SPEEDS[p.speed].1} data-testid="speed" />
                    <span>{ SPEEDS[p.speed].1 }</span>
                </label>
                <span class="muted skips">{ m.t("player.skips") }</span>
            </div>
        </div>
    }
}

/// The action of the toolbar's button with this `data-act` index (a match, not a table:
/// an array of `Action`s is 700 bytes of the first page).
fn button(index: usize) -> Option<Action> {
    Some(match index {
        0 => Action::First,
        1 => Action::PrevMilestone,
        2 => Action::StepBack,
        3 => Action::TogglePlay,
        4 => Action::StepForward,
        5 => Action::NextMilestone,
        6 => Action::Last,
        _ => return None,
    })
}

#[derive(PartialEq, Properties)]
pub(crate) struct ExportsProps {
    pub(crate) trace: TraceRef,
    /// The scenario the trace is a run of (the model's trace does not know its lesson).
    pub(crate) id: crate::sim::scenario::ScenarioId,
    /// The link of the run shown, so the lab's export page can run it again.
    pub(crate) link: crate::route::Link,
}

/// The way from the player to its exports and embed snippet, on the lab's export page (the
/// main page carries no exporters).
#[component]
pub(crate) fn Exports(props: &ExportsProps) -> Html {
    let m = use_i18n();
    let id = props.id.clone();
    let export_link =
        crate::route::Link { view: crate::route::View::Export { id }, ..props.link.clone() };
    let href = format!("{}{}", crate::route::Page::Lab.path(), export_link.to_hash());
    // "Edit a copy": the sandbox on a copy of this built-in (a scenario carried in a link
    // gets its own from `CustomScenario`, so the main page carries no payload code for it).
    let copy = match &props.link.view {
        crate::route::View::Scenario { id } => Some(format!("lab.html#/sandbox?edit={id}")),
        _ => None,
    };
    html! {
        <>
            <a class="exports" href={href} data-testid="export-more">{ m.t("share.export") }</a>
            if let Some(copy) = copy {
                <a class="exports" href={copy} data-testid="edit-copy">{ m.t("share.edit_copy") }</a>
            }
        </>
    }
}

/// Downloads the timeline as a standalone SVG file: the XML namespace added, and the
/// drawing's own `<style>` (which falls back to the light theme's colours) already inside.
fn svg_download(id: String) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        let svg = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("[data-testid='swimlanes']").ok().flatten())
            .map(|el| el.outer_html());
        if let Some(svg) = svg {
            let file = crate::export::standalone_svg(&svg, crate::export::SVG_STYLE);
            download(&format!("{id}.svg"), "image/svg+xml", &file);
        }
    })
}

#[derive(PartialEq, Properties)]
pub(crate) struct ExportPageProps {
    pub(crate) scenario: crate::catalogue::lesson::Scenario,
    pub(crate) link: crate::route::Link,
}

/// The lab's export page: the same run as the player's link (what-if included), with its
/// timeline and every download.
#[component]
pub(crate) fn ExportPage(props: &ExportPageProps) -> Html {
    let m = use_i18n();
    let trace = use_memo((props.scenario.clone(), props.link.whatif.clone()), |(s, w)| {
        TraceRef::new(crate::sim::run(&w.apply(s).setup))
    });
    let trace = (*trace).clone();
    let id = props.scenario.id.clone();
    let json = {
        let trace = trace.clone();
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            download(
                &format!("{id}.trace.json"),
                "application/json",
                &crate::export::trace_json(&trace, &id),
            );
        })
    };
    // The scenario itself (what the sandbox edits), named apart from the run's record.
    let scenario_file = {
        let text = crate::catalogue::codec::write_scenario(&props.scenario).pretty();
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            download(&format!("{id}.scenario.json"), "application/json", &text)
        })
    };
    let mermaid = {
        let trace = trace.clone();
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            download(&format!("{id}.mmd"), "text/plain", &crate::export::mermaid(&trace))
        })
    };
    let back = crate::route::Link {
        view: crate::route::View::Scenario { id: id.clone() },
        ..props.link.clone()
    };
    let title = m.content(&format!("s.{id}.title"), &props.scenario.title);
    // The main page sits beside lab.html, in the site's folder.
    let folder = crate::ui::embed::site_address();
    // The frame's name must not give the outcome away: the title's part before its colon.
    let setup = crate::player::setup_title(&title);
    let snippet =
        crate::ui::share::embed_snippet(&back, &folder, &format!("{setup} ({})", m.t("app.name")));
    let script = crate::ui::share::embed_script(&back, &folder, &id);
    html! {
        <section class="export-page" data-testid="export-page">
            <h1>{ m.labf("export.page", &[("title", &title)]) }</h1>
            <div class="exports" role="group" aria-label={m.lab("export.title")}>
                <button onclick={svg_download(id.to_string())} data-testid="export-svg">{ "SVG" }</button>
                <button onclick={json} data-testid="export-json" title={m.lab("export.json_trace")}>{ m.lab("export.json_trace") }</button>
                <button onclick={scenario_file} data-testid="export-scenario" title={m.lab("export.scenario_file")}>{ m.lab("export.scenario_file") }</button>
                <button onclick={mermaid} data-testid="export-mermaid">{ "Mermaid" }</button>
            </div>
            <p><a href={crate::route::Link { view: crate::route::View::Handout { id: id.clone() }, ..back.clone() }.to_hash()} data-testid="export-handout">{ m.lab("export.handout") }</a></p>
            <crate::ui::player::Swimlanes trace={trace.clone()} cursor={trace.len()} time_ms={trace.end_ms()} on_action={Callback::noop()} title={title.clone()} />
            <h2>{ m.lab("export.embed") }</h2>
            <p>{ m.lab("export.embed_hint") }</p>
            if back.reveal {
                <p class="notice" data-testid="embed-reveal-note">{ m.lab("export.reveal_note") }</p>
            }
            <p>{ m.lab("export.embed_script") }</p>
            <textarea readonly=true rows="3" data-testid="embed-script" aria-label={m.lab("export.embed_script")} value={script} />
            <p>{ m.lab("export.embed_iframe") }</p>
            <textarea readonly=true rows="4" data-testid="embed-snippet" aria-label={m.lab("export.embed_iframe")} value={snippet} />
            <p><a href={format!("{}{}", crate::route::Page::Main.path(), back.to_hash())}>{ m.lab("export.back") }</a></p>
        </section>
    }
}

/// Saves `text` as a file through a temporary object URL.
pub(crate) fn download(name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(anchor) = document.create_element("a") {
        let _ = anchor.set_attribute("href", &url);
        let _ = anchor.set_attribute("download", name);
        if let Some(anchor) = anchor.dyn_ref::<web_sys::HtmlElement>() {
            anchor.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

#[derive(PartialEq, Properties)]
pub(crate) struct EventLogProps {
    pub(crate) trace: TraceRef,
    pub(crate) cursor: usize,
    pub(crate) on_action: Callback<Action>,
    /// List only the events before this cursor (the outcome is being kept back).
    #[prop_or_default]
    pub(crate) upto: Option<usize>,
}

/// At most this many events are listed at once: a run of thousands (one cut short at the
/// event limit has 20,000) lists those around the cursor, as 60,000 elements rewritten on
/// every seek froze the page.
const LOG_WINDOW: usize = 400;

/// The trace as text, one button per event: the keyboard and screen-reader alternative to
/// the SVG timeline (Enter on an event moves the cursor to it). Written as one string with
/// one listener.
#[component]
pub(crate) fn EventLog(props: &EventLogProps) -> Html {
    let m = use_i18n();
    let trace = &props.trace;
    let listed = props.upto.unwrap_or(usize::MAX).min(trace.len());
    let (from, to) = log_window(listed, props.cursor);
    let mut lines = crate::markup::Markup::new();
    for event in &trace.events()[from..to] {
        let id = event.id.index();
        let index = id.to_string();
        let mut button = vec![
            ("class", "log-line"),
            ("data-seek", index.as_str()),
            ("data-testid", "log-event"),
        ];
        if id + 1 == props.cursor {
            button.push(("aria-current", "step"));
        }
        lines.open("li", if id >= props.cursor { &[("class", "future")] } else { &[] });
        lines.open("button", &button);
        match m.lang {
            // English reads the reference trace, as the command line and the files print it.
            crate::lang::Lang::En => {
                lines.element("code", &[], &crate::sim::render::line(trace, event));
            }
            _ => log_line(&mut lines, &m, trace, event),
        }
        lines.close("button").close("li");
    }
    let onclick = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(id) = crate::ui::index_at(e.target(), "data-seek") {
                on_action.emit(Action::SeekCursor(id + 1));
            }
        })
    };
    let window_note = (to - from < listed).then(|| {
        let (first, last, n) = ((from + 1).to_string(), to.to_string(), listed.to_string());
        html! {
            <p class="note" data-testid="log-window">
                { m.tf("player.log_window", &[("from", &first), ("to", &last), ("n", &n)]) }
            </p>
        }
    });
    html! {
        <details class="event-log" data-testid="event-log">
            <summary>{ m.t("player.log") }</summary>
            { window_note }
            <ol start={(from + 1).to_string()} {onclick}>{ crate::ui::markup(lines) }</ol>
        </details>
    }
}

/// The events `from..to` the log lists out of `listed`: all of them, or `LOG_WINDOW`
/// One event of the log in the reader's language: its time written their way, its kind's
/// name and its prose from the pack; the command and the reply stay as the server saw them
/// (in `code`), as do a finding's property and the event numbers.
fn log_line(
    o: &mut crate::markup::Markup,
    m: &crate::i18n::Messages,
    trace: &crate::sim::Trace,
    event: &crate::sim::event::Event,
) {
    use crate::sim::event::EventKind;
    let head = format!(
        "#{:<4} {:>10}  {:<8} {}  ",
        event.id.index(),
        m.secs(event.at_ms),
        trace.actor_name(event.actor),
        m.tag(event.kind.tag())
    );
    o.text(&head);
    let prose = m.note(&event.note);
    match &event.kind {
        EventKind::Violation { property, explanation } => {
            o.element("code", &[], property.name());
            o.text(&format!(": {}", if prose.is_empty() { explanation } else { &prose }));
        }
        EventKind::Warning { kind, explanation } => {
            o.element("code", &[], kind.name());
            o.text(&format!(": {}", if prose.is_empty() { explanation } else { &prose }));
        }
        _ if event.command.is_empty() => {
            o.text(&m.prose_or_reply(event));
        }
        _ => {
            let sent = match event.reply.is_empty() {
                true => event.command.clone(),
                false => format!("{} -> {}", event.command, event.reply),
            };
            o.element("code", &[], &sent);
            if !prose.is_empty() {
                o.text(&format!("  # {prose}"));
            }
        }
    }
    if !event.causes.is_empty() {
        let ids: Vec<String> = event.causes.iter().map(|id| format!("#{id}")).collect();
        o.text(&format!("  ({})", m.tf("player.log_after", &[("ids", &ids.join(", "))])));
    }
}

/// around the cursor (half before it), kept inside the run.
fn log_window(listed: usize, cursor: usize) -> (usize, usize) {
    if listed <= LOG_WINDOW {
        return (0, listed);
    }
    let from = cursor.saturating_sub(LOG_WINDOW / 2).min(listed - LOG_WINDOW);
    (from, from + LOG_WINDOW)
}
