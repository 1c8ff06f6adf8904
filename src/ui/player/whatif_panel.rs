//! The what-if panel: one control per knob; a change re-runs the scenario as a fork.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::player::Action;
use crate::sim::Scenario;
use crate::sim::scenario::{AcquireHow, Guard, KeyStrategy};
use crate::whatif::{self, WhatIf};

#[derive(PartialEq, Properties)]
pub(crate) struct WhatIfPanelProps {
    pub(crate) original: Scenario,
    pub(crate) whatif: WhatIf,
    pub(crate) on_action: Callback<Action>,
}

#[component]
pub(crate) fn WhatIfPanel(props: &WhatIfPanelProps) -> Html {
    let knobs = WhatIf::knobs(&whatif_applied(props));
    let changed = props.whatif.changed();
    // Each control sends a new WhatIf with one knob set from the control's text value.
    let control = |name: &'static str| {
        let whatif = props.whatif.clone();
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let value = e.target().and_then(|t| {
                t.clone()
                    .dyn_into::<web_sys::HtmlInputElement>()
                    .map(|i| i.value())
                    .ok()
                    .or_else(|| t.dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value()).ok())
            });
            let Some(value) = value else { return };
            let mut next = whatif.clone();
            // Invalid input is ignored: the control shows the current value again.
            if next.set_from_query(name, value.trim()).is_ok() {
                on_action.emit(Action::Fork(next));
            }
        })
    };
    let mark = |name: &str| {
        changed.contains(&name).then(|| html! { <span class="changed" title="changed from the original">{ " ● changed" }</span> })
    };
    let reset = {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(Action::Reset))
    };
    let select = |name: &'static str, current: String, options: Vec<(String, &'static str)>| {
        html! {
            <select data-testid={format!("param-{name}")} onchange={control(name)}>
                { for options.into_iter().map(|(value, label)| html! {
                    <option selected={value == current} value={value.clone()}>{ label }</option>
                }) }
            </select>
        }
    };
    let number = |name: &'static str, value: u64| {
        html! {
            <input type="number" min="0" step="100" data-testid={format!("param-{name}")} value={value.to_string()} onchange={control(name)} />
        }
    };
    html! {
        <section class="whatif" aria-label="What if">
            <h3>{ "What if…" }</h3>
            if let Some(ttl) = knobs.ttl_ms {
                <label>{ "Lock TTL (ms)" }{ mark("ttl") }{ number("ttl", ttl) }</label>
            }
            if let Some(pause) = knobs.pause_ms {
                <label>{ "Pause length (ms)" }{ mark("pause") }{ number("pause", pause) }</label>
            }
            <label>{ "Watchdog" }{ mark("wd") }
                { select("wd", whatif::toggle_text(knobs.watchdog), vec![
                    ("off".into(), "off"), ("0".into(), "every TTL/3"), ("5000".into(), "every 5 s"), ("1000".into(), "every 1 s")]) }
            </label>
            if let Some(how) = knobs.acquire {
                <label>{ "Acquire" }{ mark("acq") }
                    { select("acq", whatif::acquire_text(how).into(), [AcquireHow::Script, AcquireHow::SetThenIncr, AcquireHow::IncrThenSet, AcquireHow::Redlock]
                        .into_iter().map(|h| (whatif::acquire_text(h).to_owned(), acquire_label(h))).collect()) }
                </label>
            }
            <label>{ "Fence guard" }{ mark("guard") }
                { select("guard", whatif::guard_text(knobs.guard).into(), [Guard::None, Guard::Lt, Guard::Le]
                    .into_iter().map(|g| (whatif::guard_text(g).to_owned(), guard_label(g))).collect()) }
            </label>
            if let Some(key) = knobs.key {
                <label>{ "Idempotency key" }{ mark("key") }
                    { select("key", whatif::key_text(key).into(), [KeyStrategy::None, KeyStrategy::PerAttempt, KeyStrategy::PerOrder]
                        .into_iter().map(|k| (whatif::key_text(k).to_owned(), key_label(k))).collect()) }
                </label>
            }
            <label>{ "Persistence" }{ mark("persist") }
                { select("persist", whatif::persistence_text(knobs.persistence), vec![
                    ("none".into(), "none"), ("rdb-60000".into(), "RDB every 60 s"), ("aof-no".into(), "AOF, fsync by the OS"),
                    ("aof-everysec".into(), "AOF everysec"), ("aof-always".into(), "AOF always")]) }
            </label>
            if knobs.replicated {
                <label>{ "Replication lag (ms)" }{ mark("lag") }{ number("lag", knobs.lag_ms) }</label>
                <label>{ "WAIT 1 after acquire" }{ mark("wait") }
                    { select("wait", whatif::toggle_text(knobs.wait), vec![("off".into(), "off"), ("100".into(), "timeout 100 ms"), ("1000".into(), "timeout 1 s")]) }
                </label>
            }
            <button onclick={reset} disabled={props.whatif.is_original()} data-testid="reset">{ "Reset to the original" }</button>
        </section>
    }
}

fn whatif_applied(props: &WhatIfPanelProps) -> Scenario {
    props.whatif.apply(&props.original)
}

fn acquire_label(how: AcquireHow) -> &'static str {
    match how {
        AcquireHow::Script => "one script (SET NX PX + INCR)",
        AcquireHow::SetThenIncr => "SET, then INCR",
        AcquireHow::IncrThenSet => "INCR, then SET",
        AcquireHow::Redlock => "Redlock (majority)",
    }
}

fn guard_label(guard: Guard) -> &'static str {
    match guard {
        Guard::None => "none (token not checked)",
        Guard::Lt => "last_fence < :fence",
        Guard::Le => "last_fence <= :fence",
    }
}

fn key_label(key: KeyStrategy) -> &'static str {
    match key {
        KeyStrategy::None => "none",
        KeyStrategy::PerAttempt => "new key per attempt",
        KeyStrategy::PerOrder => "one key per order",
    }
}
