//! The root component: the header, and the view chosen by the hash route.

use gloo_events::EventListener;
use yew::prelude::*;

use crate::catalogue;
use crate::route::Route;
use crate::ui::compare::Compare;
use crate::ui::home::Home;
use crate::ui::not_found::NotFound;
use crate::ui::player::PlayerPage;

#[component]
pub fn App() -> Html {
    let route = use_state(|| Route::parse(&current_hash()));
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "hashchange", move |_| {
                    route.set(Route::parse(&current_hash()))
                })
            });
            move || drop(listener)
        });
    }
    let view = match &*route {
        Route::Home => html! { <Home /> },
        Route::Scenario { id, t_ms } => match catalogue::find(id) {
            // Keyed by id, so opening another scenario starts a fresh player.
            Some(scenario) => {
                html! { <PlayerPage key={id.clone()} scenario={scenario} t_ms={*t_ms} /> }
            }
            None => html! { <NotFound asked={format!("the scenario \u{201c}{id}\u{201d}")} /> },
        },
        Route::Compare { id } => match catalogue::find(id) {
            Some(scenario) => html! { <Compare key={id.clone()} scenario={scenario} /> },
            None => html! { <NotFound asked={format!("the scenario \u{201c}{id}\u{201d}")} /> },
        },
        Route::NotFound { asked } => {
            html! { <NotFound asked={format!("the page \u{201c}#{asked}\u{201d}")} /> }
        }
    };
    html! {
        <div class="app" data-testid="app">
            <header class="site-header">
                <a class="brand" href="#/">{ "Fencing Token Playground" }</a>
                <label class="lang">
                    <span class="visually-hidden">{ "Language" }</span>
                    <select data-testid="lang" aria-label="Language">
                        <option value="en" selected=true>{ "English" }</option>
                        <option value="id" disabled=true>{ "Bahasa Indonesia (soon)" }</option>
                        <option value="vi" disabled=true>{ "Tiếng Việt (soon)" }</option>
                    </select>
                </label>
            </header>
            <main id="main">{ view }</main>
        </div>
    }
}

fn current_hash() -> String {
    web_sys::window().and_then(|window| window.location().hash().ok()).unwrap_or_default()
}
