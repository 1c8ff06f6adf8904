//! The compare view: four variants of one scenario (no protection, an idempotency key,
//! fencing, both) stacked on one shared scrubber, each with what it changed and its outcome.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::compare::Variant;
use crate::player::{Action, TraceRef};
use crate::sim;
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
        // The text above the drawing as markup: the lab page's budget.
        let mut head = crate::markup::Markup::new();
        head.element("h2", &[], &heading).element("p", &[("class", "changes"), ("data-testid", "changes")], &changed);
        let class = if bad { "outcome bad" } else { "outcome" };
        head.element("p", &[("class", class), ("data-testid", "outcome")], &crate::ui::player::verdict_text(&m, trace));
        html! {
            <section class="variant" data-testid="variant" data-variant={words}>
                { crate::ui::markup(head) }
                <Swimlanes trace={trace.clone()} cursor={cursor} time_ms={*time} on_action={on_action} compact={true} scale_end_ms={Some(end_ms)} title={heading.clone()} />
            </section>
        }
    });
    // The outcomes side by side, each cell that differs from "no protection" marked, so
    // the difference is read, not spotted.
    let outcome = |trace: &TraceRef| {
        let summary = trace.summary();
        let accepted = summary.writes.iter().filter(|w| w.rows.matched()).count();
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
    // The table as markup: text only, no listener (the lab page's budget).
    let mut table = crate::markup::Markup::new();
    table.open("table", &[("class", "compare-table"), ("data-testid", "compare-table")]);
    table.element("caption", &[], &m.lab("compare.table")).open("thead", &[]).open("tr", &[]);
    for key in [
        "compare.variant",
        "compare.accepted",
        "compare.rejected",
        "compare.charges",
        "compare.violations",
    ] {
        table.element("th", &[("scope", "col")], &m.lab(key));
    }
    table.close("tr").close("thead").open("tbody", &[]);
    for (protections, _, trace) in variants.iter() {
        let (words, heading) = names(protections);
        table.open("tr", &[("data-testid", "compare-row"), ("data-variant", &words)]);
        table.element("th", &[("scope", "row")], &heading);
        for (i, cell) in outcome(trace).iter().enumerate() {
            match baseline.as_ref().is_some_and(|b| &b[i] != cell) {
                true => table.element(
                    "td",
                    &[("class", "differs"), ("data-differs", "true")],
                    &format!("{cell} ◆"),
                ),
                false => table.element("td", &[("data-differs", "false")], cell),
            };
        }
        table.close("tr");
    }
    table.close("tbody").close("table");
    html! {
        <section class="compare" data-testid="compare" data-id={props.scenario.id.to_string()}>
            <h1>{ m.labf("compare.title", &[("title", &m.content(&format!("s.{}.title", props.scenario.id), &props.scenario.title))]) }</h1>
            <p>{ m.lab("compare.lede") }</p>
            { crate::ui::markup(table) }
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
