//! The sandbox's live preview: the draft's run drawn on lanes, edited in place (drag a
//! worker's start, move or stretch a fault, drop a fault on a lane, pick an event to
//! narrate or to ask about), with the run's outcome and the lint beside it. Every gesture
//! has a keyboard equivalent. It renders `sandbox::Preview` and turns gestures into the
//! actions of `sandbox::timeline`; it never edits the scenario itself.

use std::rc::Rc;

use yew::prelude::*;

use crate::sandbox::timeline::{self, Handle, Scale};
use crate::sandbox::{Action, Group, fault_kinds, story};
use crate::sim::scenario::{FaultKind, Word};
use crate::ui::i18n::use_i18n;

/// The drawing's width in its own units (it scales to the page).
const WIDTH: f64 = 760.0;
/// Room for the lanes' names.
const GUTTER: f64 = 70.0;
const LANE_H: f64 = 34.0;

#[derive(PartialEq, Properties)]
pub(super) struct PreviewProps {
    pub(super) preview: Rc<crate::sandbox::Preview>,
    pub(super) apply: Callback<(Action, Option<Group>)>,
}

/// A drag under way: what is held, and the gesture's number (one undo step).
#[derive(Clone, Copy, PartialEq)]
struct Drag {
    handle: Handle,
    gesture: u32,
}

#[component]
pub(super) fn Preview(props: &PreviewProps) -> Html {
    let m = use_i18n();
    let p = &props.preview;
    let s = p.trace.setup();
    let svg_ref = use_node_ref();
    let drag = use_state(|| None::<Drag>);
    let gestures = use_mut_ref(|| 0u32);
    let selected = use_state(|| None::<usize>);
    let dropping = use_state(|| None::<FaultKind>);
    let scale = Scale { until_ms: s.until_ms.max(1), width_px: WIDTH - GUTTER };
    let lanes = timeline::lanes(s);
    let lane_y = |name: &str| lanes.iter().position(|l| l.name == name).map(|i| i as f64 * LANE_H);
    // Other actors (the database, the token service, ...) get lanes below, for their events.
    let mut others: Vec<String> = Vec::new();
    for event in p.trace.events() {
        let name = p.trace.actor_name(event.actor);
        if lane_y(&name).is_none() && !others.contains(&name) {
            others.push(name);
        }
    }
    let height = (lanes.len() + others.len()) as f64 * LANE_H + 24.0;
    let y_of = |name: &str| {
        lane_y(name).or_else(|| {
            others.iter().position(|o| o == name).map(|i| (lanes.len() + i) as f64 * LANE_H)
        })
    };
    // Pointer position in the drawing's units, as a time.
    let time_at = {
        let svg_ref = svg_ref.clone();
        move |client_x: i32| -> Option<u64> {
            let svg = svg_ref.cast::<web_sys::Element>()?;
            let rect = svg.get_bounding_client_rect();
            if rect.width() <= 0.0 {
                return None;
            }
            let x = (f64::from(client_x) - rect.left()) * WIDTH / rect.width() - GUTTER;
            Some(scale.ms(x))
        }
    };
    let on_move = {
        let drag = drag.clone();
        let apply = props.apply.clone();
        let s = s.clone();
        let time_at = time_at.clone();
        Callback::from(move |e: PointerEvent| {
            let Some(d) = *drag else { return };
            if let Some(ms) = time_at(e.client_x())
                && let Some(action) = timeline::move_to(&s, d.handle, ms)
            {
                apply.emit((action, Some(Group::Drag(d.gesture))));
            }
        })
    };
    let on_up = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| drag.set(None))
    };
    let x = |ms: u64| GUTTER + scale.x(ms);
    // While a fault is picked, every click is for a lane: the marks drawn on the lanes
    // (faults, events, start handles) let it through to the lane under them, so a fault
    // can be dropped on a worker's start or on an event too.
    let through = dropping.is_some().then_some("none");
    let marks =
        Marks { m: &m, s, apply: &props.apply, drag: &drag, gestures: &gestures, through, x: &x };
    let lane_click = |lane: String| {
        let dropping = dropping.clone();
        let apply = props.apply.clone();
        let s = s.clone();
        let time_at = time_at.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(kind) = *dropping else { return };
            if let Some(ms) = time_at(e.client_x())
                && let Some(action) = timeline::drop_fault(&s, kind, &lane, ms)
            {
                apply.emit((action, None));
                dropping.set(None);
            }
        })
    };
    let on_pick_fault = {
        let dropping = dropping.clone();
        Callback::from(move |e: Event| dropping.set(FaultKind::from_word(&super::select_value(&e))))
    };
    let on_pick_event = {
        let selected = selected.clone();
        Callback::from(move |e: Event| selected.set(super::select_value(&e).parse::<usize>().ok()))
    };
    let pick = |i: usize| {
        let selected = selected.clone();
        Callback::from(move |_: MouseEvent| selected.set(Some(i)))
    };
    let attach = |narrate: bool| {
        let apply = props.apply.clone();
        let trace = p.trace.clone();
        let selected = selected.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(at) = selected.and_then(|i| story::anchor_for(&trace, i)) else { return };
            let facts = story::facts_for(&trace, &at);
            let action = match narrate {
                true => Action::Narrate { at, facts },
                false => Action::AddPrompt { at, facts },
            };
            apply.emit((action, None));
        })
    };
    html! {
        <section class="preview" aria-labelledby="preview-title" data-testid="sandbox-preview">
            <h3 id="preview-title">{ m.lab("sandbox.preview") }</h3>
            <p class="note">{ m.lab("sandbox.preview_help") }</p>
            <div class="preview-tools">
                <label>{ m.lab("sandbox.drop_fault") }{ " " }
                    <select data-testid="sandbox-drop-kind" onchange={on_pick_fault}>
                        <option value="" selected={dropping.is_none()}>{ "…" }</option>
                        { for fault_kinds().into_iter().map(|k| html! { <option value={k.word()} selected={*dropping == Some(k)}>{ m.lab(&format!("sandbox.fault.{}", k.word())) }</option> }) }
                    </select>
                </label>
                // Node faults land only on a node's lane, worker faults on a worker's: say which.
                if let Some(kind) = *dropping { <span class="note" role="status" data-testid="sandbox-drop-hint">{ m.lab(if crate::sandbox::fault_on_node(kind) { "sandbox.drop_hint_node" } else { "sandbox.drop_hint_worker" }) }</span> }
            </div>
            // On a narrow screen the drawing keeps a workable size and scrolls sideways.
            <div class="timeline-wrap">
            <svg ref={svg_ref} class={classes!("sandbox-timeline", drag.is_some().then_some("dragging"))} viewBox={format!("0 0 {} {}", px(WIDTH), px(height))}
                role="group" aria-label={m.lab("sandbox.preview")} data-testid="sandbox-timeline"
                onpointermove={on_move} onpointerup={on_up.clone()} onpointercancel={on_up}>
                { lane_rows(&lanes, &others, &lane_click) }
                { marks.fault_spans(&lane_y) }
                { for p.trace.events().iter().enumerate().map(|(i, event)| {
                    let name = p.trace.actor_name(event.actor);
                    let Some(y) = y_of(&name) else { return Html::default() };
                    let tag = event.kind.tag();
                    html! {
                        <circle class={classes!("event", tag, (*selected == Some(i)).then_some("selected"))} cx={px(x(event.at_ms))} cy={px(y + LANE_H / 2.0)} r="4"
                            data-testid="sandbox-event" data-kind={tag} pointer-events={through} onclick={pick(i)}>
                            <title>{ format!("{} ms: {} ({name}){}", event.at_ms, m.tag(tag), reply_words(&m, event)) }</title>
                        </circle>
                    }
                }) }
                { marks.start_handles(&lane_y) }
                <text class="axis" x={px(GUTTER)} y={px(height - 6.0)}>{ "0 ms" }</text>
                <text class="axis" x={px(WIDTH)} y={px(height - 6.0)} text-anchor="end">{ format!("{} ms", s.until_ms) }</text>
            </svg>
            </div>
            { event_picker(&m, p, *selected, on_pick_event, [attach(true), attach(false)]) }
            { outcome_and_lint(&m, p) }
        </section>
    }
}

/// What an event answered, when it is short enough to read in a list (a renewal that
/// failed answers 0: "renewed → 0"): a command's reply as the server gave it, a worker's
/// own fact ("running again") in the reader's language.
fn reply_words(m: &crate::i18n::Messages, event: &crate::sim::event::Event) -> String {
    let (said, longest) = match event.command.is_empty() && !event.note.key.is_empty() {
        true => (m.note(&event.note), 40),
        false => (event.reply.clone(), 24),
    };
    match said.is_empty() || said.chars().count() > longest {
        true => String::new(),
        false => format!(" → {said}"),
    }
}

/// A drawing coordinate in whole user units (the drawing is 760 units wide, so a unit is
/// finer than a screen pixel): formatting a float would bring Rust's float printing, about
/// 5 KB of the lab's download.
fn px(v: f64) -> String {
    (v.round() as i64).to_string()
}

/// What the drawing's handles share: the drag in progress, the author's keys, their
/// labels, and where a time is drawn.
struct Marks<'a> {
    m: &'a crate::i18n::Messages,
    s: &'a crate::sim::Setup,
    apply: &'a Callback<(Action, Option<Group>)>,
    drag: &'a UseStateHandle<Option<Drag>>,
    gestures: &'a Rc<std::cell::RefCell<u32>>,
    /// "none" while a fault is picked: clicks go through the marks to the lane below.
    through: Option<&'static str>,
    x: &'a dyn Fn(u64) -> f64,
}

impl Marks<'_> {
    fn grab(&self, handle: Handle) -> Callback<PointerEvent> {
        let drag = self.drag.clone();
        let gestures = self.gestures.clone();
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            // Keep the pointer while it is held, even outside the handle.
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            let mut n = gestures.borrow_mut();
            *n += 1;
            drag.set(Some(Drag { handle, gesture: *n }));
        })
    }

    fn keys(&self, handle: Handle) -> Callback<KeyboardEvent> {
        let apply = self.apply.clone();
        let s = self.s.clone();
        Callback::from(move |e: KeyboardEvent| {
            let step: i64 = if e.shift_key() { 1_000 } else { timeline::SNAP_MS as i64 };
            let delta = match e.key().as_str() {
                "ArrowLeft" => -step,
                "ArrowRight" => step,
                _ => return,
            };
            e.prevent_default();
            if let Some(action) = timeline::nudge(&s, handle, delta) {
                apply.emit((action, None));
            }
        })
    }

    fn label(&self, handle: Handle) -> String {
        let (m, s) = (self.m, self.s);
        let at = timeline::position(s, handle).unwrap_or(0).to_string();
        match handle {
            Handle::Start(i) => m.labf(
                "sandbox.tl.start",
                &[("name", s.workers.get(i).map_or("", |w| w.name.as_str())), ("ms", &at)],
            ),
            Handle::FaultAt(k) => {
                m.labf("sandbox.tl.fault_at", &[("n", &(k + 1).to_string()), ("ms", &at)])
            }
            Handle::FaultEnd(k) => {
                m.labf("sandbox.tl.fault_end", &[("n", &(k + 1).to_string()), ("ms", &at)])
            }
        }
    }

    /// Each fault as a span on its lane, with a handle for its start and, when it
    /// stretches, one for its end.
    fn fault_spans(&self, lane_y: &dyn Fn(&str) -> Option<f64>) -> Html {
        html! { <>
                { for timeline::spans(self.s).into_iter().map(|span| {
                    let Some(y) = lane_y(&span.lane) else { return Html::default() };
                    let (x0, x1) = ((self.x)(span.from_ms), (self.x)(span.to_ms).max((self.x)(span.from_ms) + 4.0));
                    let at = Handle::FaultAt(span.fault);
                    let end = Handle::FaultEnd(span.fault);
                    html! {
                        <g class={classes!("fault", span.kind)} data-testid="sandbox-fault-span" data-fault={span.fault.to_string()}>
                            <rect class="fault-body" x={px(x0)} y={px(y + 8.0)} width={px(x1 - x0)} height={px(LANE_H - 16.0)}
                                tabindex="0" role="slider" aria-label={self.label(at)} aria-valuenow={span.from_ms.to_string()} aria-valuemin="0" aria-valuemax={self.s.until_ms.to_string()}
                                data-testid="sandbox-fault-handle" pointer-events={self.through} onpointerdown={self.grab(at)} onkeydown={self.keys(at)}>
                                <title>{ self.label(at) }</title>
                            </rect>
                            if span.stretches {
                                <rect class="fault-end" x={px(x1 - 4.0)} y={px(y + 5.0)} width="8" height={px(LANE_H - 10.0)}
                                    tabindex="0" role="slider" aria-label={self.label(end)} aria-valuenow={span.to_ms.to_string()} aria-valuemin="0" aria-valuemax={self.s.until_ms.to_string()}
                                    data-testid="sandbox-fault-end" pointer-events={self.through} onpointerdown={self.grab(end)} onkeydown={self.keys(end)}>
                                    <title>{ self.label(end) }</title>
                                </rect>
                            }
                        </g>
                    }
                }) }
        </> }
    }

    /// Each worker's start, as a handle on its lane.
    fn start_handles(&self, lane_y: &dyn Fn(&str) -> Option<f64>) -> Html {
        html! { <>
                { for self.s.workers.iter().enumerate().map(|(i, w)| {
                    let Some(y) = lane_y(&w.name) else { return Html::default() };
                    let handle = Handle::Start(i);
                    let cx = (self.x)(w.start_ms);
                    html! {
                        <path class="start-handle" d={format!("M{} {} l7 {} l-7 {} z", px(cx), px(y + 5.0), px((LANE_H - 10.0) / 2.0), px((LANE_H - 10.0) / 2.0))}
                            tabindex="0" role="slider" aria-label={self.label(handle)} aria-valuenow={w.start_ms.to_string()} aria-valuemin="0" aria-valuemax={self.s.until_ms.to_string()}
                            data-testid="sandbox-start-handle" data-worker={w.name.clone()} pointer-events={self.through} onpointerdown={self.grab(handle)} onkeydown={self.keys(handle)}>
                            <title>{ self.label(handle) }</title>
                        </path>
                    }
                }) }
        </> }
    }
}

/// What the run came to (grants, writes accepted and rejected, checker findings) and the
/// lint's warnings.
fn outcome_and_lint(m: &crate::i18n::Messages, p: &crate::sandbox::Preview) -> Html {
    let summary = p.trace.summary();
    let outcome = &p.outcome;
    html! { <>
        <p class={classes!("outcome", (!outcome.violations.is_empty()).then_some("bad"))} data-testid="sandbox-outcome">
            { m.labf("sandbox.outcome", &[
                ("grants", &summary.grants.iter().map(|g| format!("{} {}", g.worker, g.token.map_or("–".to_owned(), |t| t.to_string()))).collect::<Vec<_>>().join(", ")),
                ("accepted", &outcome.accepted.to_string()),
                ("rejected", &outcome.rejected.to_string()),
            ]) }{ " " }
            if let Some((t, events)) = p.trace.cut_short() {
                // Cut short at the event limit: the rest of the run was never checked.
                <span class="bad" data-testid="sandbox-truncated">{ m.tf("verdict.truncated", &[("t", &t), ("n", &events.to_string())]) }{ ". " }</span>
            }
            if outcome.violations.is_empty() {
                <span class="ok">{ m.lab("sandbox.no_violations") }</span>
            } else {
                <span class="bad" data-testid="sandbox-violations">{ m.labf("sandbox.violations", &[("list", &outcome.violations.join(", "))]) }</span>
            }
        </p>
        if !p.warnings.is_empty() {
            <ul class="lint" data-testid="sandbox-lint" aria-label={m.lab("sandbox.lint")}>
                { for p.warnings.iter().map(|w| html! {
                    <li data-testid="sandbox-warning" data-path={w.path.clone()}><strong>{ crate::sandbox::lint::place(&p.scenario, &w.path).render(m) }</strong>{ ": " }{ w.message.render(m) }</li>
                }) }
            </ul>
        }
    </> }
}

/// The event picker (the same events as the drawing's dots, as a list a keyboard reaches)
/// and, for the picked one, "narrate here" and "ask here".
fn event_picker(
    m: &crate::i18n::Messages,
    p: &crate::sandbox::Preview,
    selected: Option<usize>,
    on_pick_event: Callback<Event>,
    [narrate, ask]: [Callback<MouseEvent>; 2],
) -> Html {
    let selected_event = selected.and_then(|i| p.trace.events().get(i).map(|e| (i, e)));
    html! {
        <div class="preview-tools">
            <label>{ m.lab("sandbox.pick_event") }{ " " }
                <select data-testid="sandbox-pick-event" onchange={on_pick_event}>
                    <option value="" selected={selected.is_none()}>{ "…" }</option>
                    { for p.trace.events().iter().enumerate().map(|(i, e)| html! {
                        <option value={i.to_string()} selected={selected == Some(i)}>{ format!("{} ms · {} · {}{}", e.at_ms, p.trace.actor_name(e.actor), m.tag(e.kind.tag()), reply_words(m, e)) }</option>
                    }) }
                </select>
            </label>
            if let Some((_, event)) = selected_event {
                <span class="picked" data-testid="sandbox-picked">{ format!("{} ms: {} ({})", event.at_ms, m.tag(event.kind.tag()), p.trace.actor_name(event.actor)) }</span>
                <button data-testid="sandbox-narrate" onclick={narrate}>{ m.lab("sandbox.narrate_here") }</button>
                <button data-testid="sandbox-ask" onclick={ask}>{ m.lab("sandbox.ask_here") }</button>
            }
        </div>
    }
}

/// A lane per worker and node (a click on one drops the picked fault there), then the
/// names of the other actors' lanes.
fn lane_rows(
    lanes: &[timeline::Lane],
    others: &[String],
    lane_click: &dyn Fn(String) -> Callback<MouseEvent>,
) -> Html {
    html! { <>
        { for lanes.iter().enumerate().map(|(i, lane)| {
            let y = i as f64 * LANE_H;
            html! {
                <g class={classes!("lane", lane.is_node.then_some("node"))} data-lane={lane.name.clone()}>
                    <rect class="lane-bg" x={px(GUTTER)} y={px(y + 3.0)} width={px(WIDTH - GUTTER)} height={px(LANE_H - 6.0)}
                        data-testid="sandbox-lane" data-lane={lane.name.clone()} onclick={lane_click(lane.name.clone())} />
                    <text x="4" y={px(y + LANE_H / 2.0 + 4.0)}>{ &lane.name }</text>
                </g>
            }
        }) }
        { for others.iter().enumerate().map(|(i, name)| {
            let y = (lanes.len() + i) as f64 * LANE_H;
            html! { <text class="other" x="4" y={px(y + LANE_H / 2.0 + 4.0)}>{ name }</text> }
        }) }
    </> }
}
