//! The what-if panel: one control per knob; a change re-runs the scenario as a fork.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::player::Action;
use crate::sim::Scenario;
use crate::sim::scenario::{AcquireHow, Guard, KeyStrategy, Word};
use crate::ui::i18n::use_i18n;
use crate::whatif::{self, WhatIf};

#[derive(PartialEq, Properties)]
pub(crate) struct WhatIfPanelProps {
    pub(crate) original: crate::player::ScenarioRef,
    pub(crate) whatif: WhatIf,
    pub(crate) on_action: Callback<Action>,
}

#[component]
pub(crate) fn WhatIfPanel(props: &WhatIfPanelProps) -> Html {
    let m = use_i18n();
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
    let select = |name: &'static str, current: String, options: Vec<(String, String)>| {
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
    let tokens = props.original.setup.tokens;
    let redis_tokens = tokens == crate::sim::scenario::TokenSource::RedisIncr;
    let consensus = tokens == crate::sim::scenario::TokenSource::Consensus;
    html! {
        <section class="whatif" aria-label="What if">
            <h2>{ m.t("whatif.title") }</h2>
            if let Some(ttl) = knobs.ttl_ms {
                <label>{ m.t("whatif.ttl") }{ mark("ttl") }{ number("ttl", ttl) }</label>
            }
            if let Some(pause) = knobs.pause_ms {
                <label>{ m.t("whatif.pause") }{ mark("pause") }{ number("pause", pause) }</label>
            }
            <label>{ m.t("whatif.watchdog") }{ mark("watchdog") }
                { select("wd", whatif::toggle_text(knobs.watchdog), vec![
                    ("off".into(), m.t("opt.off")), ("0".into(), m.t("opt.wd_default")), ("5000".into(), m.t("opt.wd_5s")), ("1000".into(), m.t("opt.wd_1s"))]) }
            </label>
            // The acquire variants are Redis commands around Redis' INCR: offered only where
            // the token is Redis' own (a consensus lock or a token drawn elsewhere has no
            // SET-then-INCR to switch to).
            if let (Some(how), true) = (knobs.acquire, redis_tokens) {
                <label>{ m.t("whatif.acquire") }{ mark("acquire") }
                    { select("acq", whatif::acquire_text(how).into(), AcquireHow::WORDS
                        .iter().map(|&(w, h)| (w.to_owned(), m.t(acquire_label(h)))).collect()) }
                </label>
            }
            <label>{ m.t("whatif.guard") }{ mark("guard") }
                { select("guard", whatif::guard_text(knobs.guard).into(), Guard::WORDS
                    .iter().map(|&(w, g)| (w.to_owned(), guard_label(&m, g))).collect()) }
            </label>
            if let Some(key) = knobs.key {
                <label>{ m.t("whatif.key") }{ mark("key") }
                    { select("key", whatif::key_text(key).into(), KeyStrategy::WORDS
                        .iter().map(|&(w, k)| (w.to_owned(), m.t(key_label(k)))).collect()) }
                </label>
            }
            // A consensus store is modelled as durable: Redis' persistence modes do not apply.
            if !consensus {
                <label>{ m.t("whatif.persistence") }{ mark("persistence") }
                    { select("persist", whatif::persistence_text(knobs.persistence), vec![
                        ("none".into(), m.t("opt.persist_none")), ("rdb-60000".into(), m.t("opt.persist_rdb")), ("aof-no".into(), m.t("opt.persist_aof_no")),
                        ("aof-everysec".into(), m.t("opt.persist_everysec")), ("aof-always".into(), m.t("opt.persist_always"))]) }
                </label>
            }
            if knobs.replicated {
                <label>{ m.t("whatif.lag") }{ mark("lag") }{ number("lag", knobs.lag_ms) }</label>
                <label>{ m.t("whatif.wait") }{ mark("wait") }
                    { select("wait", whatif::toggle_text(knobs.wait), vec![("off".into(), m.t("opt.off")), ("100".into(), m.t("opt.wait_100")), ("1000".into(), m.t("opt.wait_1s"))]) }
                </label>
            }
            <button onclick={reset} disabled={props.whatif.is_original()} data-testid="reset">{ m.t("whatif.reset") }</button>
        </section>
    }
}

fn whatif_applied(props: &WhatIfPanelProps) -> Scenario {
    props.whatif.apply(&props.original)
}

fn acquire_label(how: AcquireHow) -> &'static str {
    match how {
        AcquireHow::Script => "opt.acq_script",
        AcquireHow::SetThenIncr => "opt.acq_set_incr",
        AcquireHow::IncrThenSet => "opt.acq_incr_set",
        AcquireHow::Redlock => "opt.acq_redlock",
    }
}

fn guard_label(m: &crate::i18n::Messages, guard: Guard) -> String {
    match guard {
        Guard::None => m.t("opt.guard_none"),
        Guard::Lt => "last_fence < :fence".to_owned(),
        Guard::Le => "last_fence <= :fence".to_owned(),
    }
}

fn key_label(key: KeyStrategy) -> &'static str {
    match key {
        KeyStrategy::None => "opt.key_none",
        KeyStrategy::PerAttempt => "opt.key_attempt",
        KeyStrategy::PerOrder => "opt.key_order",
    }
}
