//! The what-if panel: one control per knob; a change re-runs the scenario as a fork.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::player::Action;
use crate::sim::scenario::Word;
use crate::ui::i18n::use_i18n;
use crate::whatif::{self, Label, WhatIf};

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
    // One listener for every control (a change bubbles): it sets the knob the control's
    // test id names from the control's text value and forks the run.
    let onchange = {
        let whatif = props.whatif.clone();
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let Some(target) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            else {
                return;
            };
            let knob = target.get_attribute("data-testid").unwrap_or_default();
            let Some(knob) = knob.strip_prefix("param-") else { return };
            let value =
                js_sys::Reflect::get(&target, &"value".into()).ok().and_then(|v| v.as_string());
            let Some(value) = value else { return };
            let mut next = whatif.clone();
            // Invalid input is ignored: the control shows the current value again.
            if next.set_from_query(knob, value.trim()).is_ok() {
                on_action.emit(Action::Fork(next));
            }
        })
    };
    let reset = {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(Action::Reset))
    };
    // One labelled control: its name, "● changed" once it differs from the original.
    let row = |label: &str, name: &str, control: Html| {
        html! {
            <label>{ m.t(label) }
                if changed.contains(&name) { <span class="changed" title="changed from the original">{ " ● changed" }</span> }
                { control }
            </label>
        }
    };
    let select = |name: &str, current: &str| {
        // A design's own watchdog interval (a challenge's 10 s) is shown as it is, not as
        // the first choice.
        let choices = whatif::choices(name);
        let own = (name == "wd" && !choices.iter().any(|(value, _)| *value == current))
            .then(|| current.parse::<u64>().ok())
            .flatten()
            .map(|ms| {
                let s = format!("{}.{:03}", ms / 1000, ms % 1000);
                let s = s.trim_end_matches('0').trim_end_matches('.').to_owned();
                html! { <option selected=true value={current.to_owned()}>{ m.tf("opt.wd_every", &[("s", &s)]) }</option> }
            });
        html! {
            <select data-testid={format!("param-{name}")}>
                { for own }
                { for choices.iter().map(|(value, label)| {
                    let text = match label {
                        Label::Key(key) => m.t(key),
                        Label::Code(code) => (*code).to_owned(),
                    };
                    html! { <option selected={*value == current} value={*value}>{ text }</option> }
                }) }
            </select>
        }
    };
    let number = |name: &str, value: u64| {
        html! {
            <input type="number" min="0" step="100" data-testid={format!("param-{name}")} value={value.to_string()} />
        }
    };
    let tokens = props.original.setup.tokens;
    let redis_tokens = tokens == crate::sim::scenario::TokenSource::RedisIncr;
    let consensus = tokens == crate::sim::scenario::TokenSource::Consensus;
    html! {
        <section class="whatif" aria-label="What if" {onchange}>
            <h2>{ m.t("whatif.title") }</h2>
            if let Some(ttl) = knobs.ttl_ms { { row("whatif.ttl", "ttl", number("ttl", ttl)) } }
            if let Some(pause) = knobs.pause_ms { { row("whatif.pause", "pause", number("pause", pause)) } }
            { row("whatif.watchdog", "watchdog", select("wd", &whatif::toggle_text(knobs.watchdog))) }
            // The acquire variants are Redis commands around Redis' INCR: offered only where
            // the token is Redis' own (a consensus lock or a token drawn elsewhere has no
            // SET-then-INCR to switch to).
            if let (Some(how), true) = (knobs.acquire, redis_tokens) {
                { row("whatif.acquire", "acquire", select("acq", how.word())) }
            }
            { row("whatif.guard", "guard", select("guard", knobs.guard.word())) }
            if let Some(key) = knobs.key { { row("whatif.key", "key", select("key", key.word())) } }
            // A consensus store is modelled as durable: Redis' persistence modes do not apply.
            if !consensus {
                { row("whatif.persistence", "persistence", select("persist", &whatif::persistence_text(knobs.persistence))) }
            }
            if knobs.replicated {
                { row("whatif.lag", "lag", number("lag", knobs.lag_ms)) }
                { row("whatif.wait", "wait", select("wait", &whatif::toggle_text(knobs.wait))) }
            }
            <button onclick={reset} disabled={props.whatif.is_original()} data-testid="reset">{ m.t("whatif.reset") }</button>
        </section>
    }
}

fn whatif_applied(props: &WhatIfPanelProps) -> Scenario {
    props.whatif.apply(&props.original)
}
