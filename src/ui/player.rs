//! The scenario view: the scenario's story and its trace as an event log.
//!
//! It runs the pure model once per scenario (memoised) and renders the result; it never
//! changes the model's state.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::{self, Scenario};

#[derive(PartialEq, Properties)]
pub(crate) struct PlayerProps {
    pub(crate) scenario: Scenario,
    /// The cursor time from `?t=`, if any.
    pub(crate) t_ms: Option<u64>,
}

#[component]
pub(crate) fn Player(props: &PlayerProps) -> Html {
    let trace = use_memo(props.scenario.clone(), |scenario| Rc::new(sim::run(scenario)));
    let scenario = trace.scenario();
    let cursor = props.t_ms.map_or(trace.len(), |t| trace.cursor_at_time(t));
    html! {
        <section class="player" data-testid="player" data-id={scenario.id.clone()}>
            <h1>{ &scenario.title }</h1>
            <p class="summary">{ &scenario.summary }</p>
            <p class="goal"><strong>{ "Goal: " }</strong>{ &scenario.goal }</p>
            <h2>{ "Event log" }</h2>
            <ol class="log" data-testid="log">
                { for trace.events().iter().take(cursor).map(|event| html! {
                    <li data-testid="event" data-at-ms={event.at_ms.to_string()} data-kind={event.kind.tag()}>
                        <code>{ sim::render::line(&trace, event) }</code>
                    </li>
                }) }
            </ol>
        </section>
    }
}
