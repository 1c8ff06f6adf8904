//! The compare view: four variants of one scenario (no protection, an idempotency key,
//! fencing, both) stacked on one shared scrubber, each with what it changed and its outcome.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::compare::Variant;
use crate::player::{Action, TraceRef};
use crate::sim::{self, Scenario};
use crate::ui::i18n::use_i18n;
use crate::ui::player::Swimlanes;

#[derive(PartialEq, Properties)]
pub(crate) struct CompareProps {
    pub(crate) scenario: Scenario,
    /// Where "back" leads; by default the scenario's player (a draft's is the sandbox).
    #[prop_or_default]
    pub(crate) back: Option<AttrValue>,
}

#[component]
pub(crate) fn Compare(props: &CompareProps) -> Html {
    let m = use_i18n();
    let variants = use_memo(props.scenario.clone(), |scenario| {
        crate::compare::variants(scenario)
            .into_iter()
            .map(|Variant { protections, scenario, changes }| {
                (protections, changes, TraceRef::new(sim::run(&scenario.setup)))
            })
            .collect::<Vec<_>>()
    });
    // A panel for several protections (they make the same run) names them all.
    let names = |protections: &[crate::compare::Protection]| -> (String, String) {
        let words: Vec<&str> = protections.iter().map(|p| p.word()).collect();
        let headings: Vec<String> = protections.iter().map(|p| m.lab(p.heading_key())).collect();
        (words.join(" "), headings.join(" = "))
    };
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
    let rows = variants.iter().map(|(protections, changes, trace)| {
        let (words, heading) = names(protections);
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
        let bad = crate::verdict::worst(trace) == Some(crate::verdict::Harm::Damage);
        // One line saying what this variant changed in the lesson's scenario.
        let changed = match changes.is_empty() {
            true => m.lab("compare.unchanged"),
            false => {
                let list: Vec<String> = changes.iter().map(|c| m.lab(c.key())).collect();
                m.labf("compare.changes", &[("list", &list.join("; "))])
            }
        };
        html! {
            <section class="variant" data-testid="variant" data-variant={words}>
                <h2>{ heading.clone() }</h2>
                <p class="changes" data-testid="changes">{ changed }</p>
                <p class={classes!("outcome", bad.then_some("bad"))} data-testid="outcome">{ crate::ui::player::verdict_text(&m, trace) }</p>
                <Swimlanes trace={trace.clone()} cursor={cursor} time_ms={*time} on_action={on_action} compact={true} scale_end_ms={Some(end_ms)} title={heading.clone()} />
            </section>
        }
    });
    // The outcomes side by side, each cell that differs from "no protection" marked, so
    // the difference is read, not spotted.
    let outcome = |trace: &TraceRef| {
        let summary = trace.summary();
        let accepted = summary.writes.iter().filter(|w| w.rows > 0).count();
        let names: Vec<&str> = summary.violations.iter().map(|v| v.name.as_str()).collect();
        let mut unique = names.clone();
        unique.dedup();
        [
            accepted.to_string(),
            (summary.writes.len() - accepted).to_string(),
            summary.charges.to_string(),
            if unique.is_empty() { m.lab("compare.no_violation") } else { unique.join(", ") },
        ]
    };
    let baseline = variants.first().map(|(_, _, t)| outcome(t));
    let table = variants.iter().map(|(protections, _, trace)| {
        let (words, heading) = names(protections);
        let cells = outcome(trace);
        html! {
            <tr data-testid="compare-row" data-variant={words}>
                <th scope="row">{ heading }</th>
                { for cells.iter().enumerate().map(|(i, cell)| {
                    let differs = baseline.as_ref().is_some_and(|b| &b[i] != cell);
                    html! { <td class={classes!(differs.then_some("differs"))} data-differs={differs.to_string()}>{ cell }{ if differs { " ◆" } else { "" } }</td> }
                }) }
            </tr>
        }
    });
    html! {
        <section class="compare" data-testid="compare" data-id={props.scenario.id.to_string()}>
            <h1>{ m.labf("compare.title", &[("title", &m.content(&format!("s.{}.title", props.scenario.id), &props.scenario.title))]) }</h1>
            <p>{ m.lab("compare.lede") }</p>
            <table class="compare-table" data-testid="compare-table">
                <caption>{ m.lab("compare.table") }</caption>
                <thead><tr><th scope="col">{ m.lab("compare.variant") }</th><th scope="col">{ m.lab("compare.accepted") }</th>
                    <th scope="col">{ m.lab("compare.rejected") }</th><th scope="col">{ m.lab("compare.charges") }</th><th scope="col">{ m.lab("compare.violations") }</th></tr></thead>
                <tbody>{ for table }</tbody>
            </table>
            <div class="scrub">
                <input type="range" class="scrubber" data-testid="scrubber" min="0" max={end_ms.to_string()} step="1"
                    value={time.to_string()} {oninput} aria-label={m.t("player.time")} aria-valuetext={m.secs(*time)} />
                <span class="clock" data-testid="clock">{ m.secs(*time) }</span>
            </div>
            { for rows }
            <p><a href={props.back.clone().unwrap_or_else(|| crate::route::Link::to(crate::route::View::Scenario { id: props.scenario.id.clone() }).to_hash().into())}>{ m.lab("compare.back") }</a></p>
        </section>
    }
}
