//! A printable handout of one scenario (`#/handout/<id>`, on the lab page): its setup, then
//! for each paragraph of its story the timeline as it stood at that paragraph's event and
//! the paragraph itself, then its outcome, laid out for A4 and Letter. The run is the
//! player's (the link's what-if knobs and language apply); nothing here simulates beyond
//! running the scenario once.

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::player::{Action, ScenarioRef, TraceRef};
use crate::route::Link;
use crate::timeline::svg::Future;
use crate::ui::i18n::use_i18n;
use crate::ui::player::{Swimlanes, verdict_text};

#[derive(PartialEq, Properties)]
pub(crate) struct HandoutProps {
    pub(crate) scenario: ScenarioRef,
    pub(crate) link: Link,
}

#[component]
pub(crate) fn Handout(props: &HandoutProps) -> Html {
    let m = use_i18n();
    let scenario: &Scenario = &props.scenario;
    let trace = {
        let (whatif, scenario) = (props.link.whatif.clone(), props.scenario.clone());
        use_memo((), move |_| TraceRef::new(crate::sim::run(&whatif.apply(&scenario).setup)))
    };
    let trace: TraceRef = (*trace).clone();
    let id = &scenario.id;
    // A worksheet: the title's setup only, and each prediction prompt asked before the
    // moment that answers it.
    let title = m.content(&format!("s.{id}.title"), &scenario.title);
    let setup = crate::player::setup_title(&title).to_owned();
    let prompt_events: Vec<(usize, usize)> = scenario
        .prompts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, crate::catalogue::anchor::find(&trace, &p.at)?)))
        .collect();
    let predict = |from: Option<usize>, to: usize| -> Html {
        let asked = prompt_events.iter().filter(|&&(_, e)| from.is_none_or(|f| e > f) && e <= to);
        html! { <>{ for asked.map(|&(i, _)| {
            let key = |suffix: &str| format!("s.{id}.p.{i}.{suffix}");
            let prompt = &scenario.prompts[i];
            html! {
                <div class="predict" data-testid="handout-predict">
                    <strong>{ m.lab("handout.predict") }{ " " }</strong>{ m.content(&key("question"), &prompt.question) }
                    <ol>{ for prompt.options.iter().enumerate().map(|(j, o)| html! { <li>{ m.content(&key(&format!("o.{j}")), o) }</li> }) }</ol>
                </div>
            }
        }) }</> }
    };
    let interactive = format!(
        "{}{}",
        crate::ui::embed::site_address(),
        Link { view: crate::route::View::Scenario { id: id.clone() }, ..props.link.clone() }
            .to_hash()
    );
    let moments: Vec<(usize, usize)> = crate::catalogue::narration::resolve(&trace, scenario)
        .into_iter()
        .filter_map(|(i, event)| Some((i, event?)))
        .collect();
    let noop = Callback::from(|_: Action| ());
    let print = Callback::from(|_: MouseEvent| {
        if let Some(window) = web_sys::window() {
            let _ = window.print();
        }
    });
    let back = Link { view: crate::route::View::Scenario { id: id.clone() }, ..props.link.clone() };
    html! {
        <article class="handout" data-testid="handout" data-id={id.to_string()}>
            <p class="no-print">
                <button onclick={print} data-testid="handout-print">{ m.lab("handout.print") }</button>
                { " " }<a href={format!("{}{}", crate::route::Page::Main.path(), back.to_hash())}>{ m.lab("handout.back") }</a>
            </p>
            <h1>{ &setup }</h1>
            <p class="goal"><strong>{ m.t("player.goal") }{ " " }</strong>{ m.content(&format!("s.{id}.goal"), &scenario.goal) }</p>
            { for moments.iter().enumerate().map(|(n, &(i, event))| {
                let at = trace.events()[event].at_ms;
                let before = n.checked_sub(1).map(|k| moments[k].1);
                let text = m.content(&format!("s.{id}.n.{i}"), &scenario.narration[i].text);
                html! {
                    <section class="moment" data-testid="handout-moment">
                        { predict(before, event) }
                        <h2>{ m.labf("handout.moment", &[("n", &(n + 1).to_string()), ("at", &m.secs(at))]) }</h2>
                        <Swimlanes trace={trace.clone()} cursor={event + 1} time_ms={at} on_action={noop.clone()} future={Future::Hidden} title={title.clone()} />
                        <p class="story" data-testid="handout-story">{ text }</p>
                    </section>
                }
            }) }
            { predict(moments.last().map(|&(_, e)| e), usize::MAX) }
            <section class="moment outcome">
                <h2>{ m.lab("handout.outcome") }</h2>
                <p data-testid="handout-verdict">{ verdict_text(&m, &trace) }</p>
                <p>{ m.content(&format!("s.{id}.summary"), &scenario.summary) }</p>
            </section>
            <p class="muted" data-testid="handout-link">{ m.lab("handout.interactive") }{ " " }<a href={interactive.clone()}>{ interactive.clone() }</a></p>
        </article>
    }
}
