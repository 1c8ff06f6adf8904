//! The compare view: four variants of one scenario (no protection, an idempotency key,
//! fencing, both) stacked on one shared scrubber, each with what it changed and its outcome.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::compare::Protection;
use crate::player::{Action, TraceRef};
use crate::sim::check::secs;
use crate::sim::{self, Scenario};
use crate::ui::i18n::use_i18n;
use crate::ui::player::Swimlanes;

#[derive(PartialEq, Properties)]
pub(crate) struct CompareProps {
    pub(crate) scenario: Scenario,
}

#[component]
pub(crate) fn Compare(props: &CompareProps) -> Html {
    let m = use_i18n();
    let variants = use_memo(props.scenario.clone(), |scenario| {
        Protection::ALL
            .into_iter()
            .map(|p| {
                let (fork, changes) = p.apply(scenario);
                (p, changes, TraceRef::new(sim::run(&fork)))
            })
            .collect::<Vec<_>>()
    });
    let time = use_state(|| 0u64);
    let end_ms = variants.iter().map(|(_, _, t)| t.end_ms()).max().unwrap_or(0);
    let oninput = {
        let time = time.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) =
                e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                && let Ok(t) = input.value().parse::<u64>()
            {
                time.set(t);
            }
        })
    };
    let rows = variants.iter().map(|(protection, changes, trace)| {
        // A click on an event of any variant moves the shared clock to it.
        let on_action = {
            let time = time.clone();
            let trace = trace.clone();
            Callback::from(move |action: Action| {
                if let Action::SeekCursor(c) = action
                    && let Some(event) = c.checked_sub(1).and_then(|i| trace.events().get(i)) {
                        time.set(event.at_ms);
                    }
            })
        };
        let cursor = trace.cursor_at_time(*time);
        let bad = !trace.summary().violations.is_empty();
        // One line saying what this variant changed in the lesson's scenario.
        let changed = match changes.is_empty() {
            true => m.lab("compare.unchanged"),
            false => {
                let list: Vec<String> = changes.iter().map(|c| m.lab(c.key())).collect();
                m.labf("compare.changes", &[("list", &list.join("; "))])
            }
        };
        html! {
            <section class="variant" data-testid="variant" data-variant={protection.word()}>
                <h2>{ m.lab(protection.heading_key()) }</h2>
                <p class="changes" data-testid="changes">{ changed }</p>
                <p class={classes!("outcome", bad.then_some("bad"))} data-testid="outcome">{ crate::ui::player::verdict_text(&m, trace) }</p>
                <Swimlanes trace={trace.clone()} cursor={cursor} time_ms={*time} on_action={on_action} compact={true} scale_end_ms={Some(end_ms)} />
            </section>
        }
    });
    html! {
        <section class="compare" data-testid="compare" data-id={props.scenario.id.clone()}>
            <h1>{ m.labf("compare.title", &[("title", &m.content(&format!("s.{}.title", props.scenario.id), &props.scenario.title))]) }</h1>
            <p>{ m.lab("compare.lede") }</p>
            <div class="scrub">
                <input type="range" class="scrubber" data-testid="scrubber" min="0" max={end_ms.to_string()} step="1"
                    value={time.to_string()} {oninput} aria-label={m.t("player.time")} aria-valuetext={secs(*time)} />
                <span class="clock" data-testid="clock">{ secs(*time) }</span>
            </div>
            { for rows }
            <p><a href={crate::route::Link::to(crate::route::View::Scenario { id: props.scenario.id.clone() }).to_hash()}>{ m.lab("compare.back") }</a></p>
        </section>
    }
}
