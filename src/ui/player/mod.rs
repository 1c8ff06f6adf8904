//! The player: swimlanes, scrubber, controls, inspector, narration, what-if and export for
//! one scenario. It owns a `Player` (pure, in `crate::player`) through a reducer and
//! renders `(trace, cursor)`; timers live in the autoplay hook, never in the reducer.

mod controls;
mod inspector;
mod swimlanes;
mod whatif_panel;

use std::rc::Rc;

use yew::prelude::*;

use crate::player::{Action, Player};
use crate::sim::Scenario;
use crate::ui::hooks::use_autoplay;

pub(crate) use swimlanes::Swimlanes;

/// The reducer adapter: Yew's `Reducible` over the pure `Player::update`.
#[derive(Clone, PartialEq)]
pub(crate) struct PlayerState(pub(crate) Player);

impl Reducible for PlayerState {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = self.0.update(action);
        if next == self.0 { self } else { Rc::new(PlayerState(next)) }
    }
}

#[derive(PartialEq, Properties)]
pub(crate) struct PlayerPageProps {
    pub(crate) scenario: Scenario,
    pub(crate) t_ms: Option<u64>,
}

#[component]
pub(crate) fn PlayerPage(props: &PlayerPageProps) -> Html {
    let scenario = props.scenario.clone();
    let t_ms = props.t_ms;
    let state = use_reducer(move || {
        PlayerState(match t_ms {
            Some(t) => Player::at_time(scenario, t),
            None => Player::new(scenario),
        })
    });
    let dispatch: Callback<Action> = {
        let state = state.clone();
        Callback::from(move |action| state.dispatch(action))
    };
    use_autoplay(state.0.playing, dispatch.clone());
    let player = &state.0;
    let onkeydown = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: KeyboardEvent| {
            // Keys act only while the player has focus, so an embedding page keeps its own.
            let action = match (e.key().as_str(), e.shift_key()) {
                ("ArrowRight", false) => Action::StepForward,
                ("ArrowLeft", false) => Action::StepBack,
                ("ArrowRight", true) => Action::NextMilestone,
                ("ArrowLeft", true) => Action::PrevMilestone,
                (" ", _) => Action::TogglePlay,
                ("Home", _) => Action::First,
                ("End", _) => Action::Last,
                _ => return,
            };
            // Leave typing in form fields alone.
            let in_field = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                .is_some_and(|el| {
                    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON")
                        && el.get_attribute("type").as_deref() != Some("range")
                });
            if in_field {
                return;
            }
            e.prevent_default();
            dispatch.emit(action);
        })
    };
    let scenario = &player.original;
    html! {
        <section class="player" data-testid="player" data-id={scenario.id.clone()} tabindex="0" {onkeydown}
                 aria-label={format!("Player: {}", scenario.title)}>
            <header class="player-head">
                <h1>{ &scenario.title }</h1>
                <p class="summary">{ &scenario.summary }</p>
                <p class="goal"><strong>{ "Goal: " }</strong>{ &scenario.goal }</p>
            </header>
            <inspector::Verdict trace={player.trace.clone()} changed={!player.whatif.is_original()} />
            <Swimlanes trace={player.trace.clone()} cursor={player.cursor} time_ms={player.time_ms} on_action={dispatch.clone()} />
            <controls::Controls player={Rc::new(player.clone())} on_action={dispatch.clone()} />
            <div class="player-body">
                <inspector::Inspector trace={player.trace.clone()} cursor={player.cursor} time_ms={player.time_ms} on_action={dispatch.clone()} />
                <aside class="side">
                    <whatif_panel::WhatIfPanel original={player.original.clone()} whatif={player.whatif.clone()} on_action={dispatch.clone()} />
                    <controls::Exports trace={player.trace.clone()} />
                    <p><a href={crate::route::Route::Compare { id: scenario.id.clone() }.href()}>{ "Compare: no protection / idempotency key / fencing" }</a></p>
                </aside>
            </div>
        </section>
    }
}
