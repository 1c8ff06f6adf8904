//! The root component: reads the link from the hash, provides the messages of the chosen
//! language, and shows the header and the view (or only the view, when embedded).

use std::rc::Rc;

use gloo_events::EventListener;
use yew::prelude::*;

use crate::catalogue;
use crate::i18n::{Lang, Messages};
use crate::route::{Link, View};
use crate::ui::compare::Compare;
use crate::ui::home::Home;
use crate::ui::i18n::{I18n, browser_lang, cached, fetch_pack};
use crate::ui::not_found::{Invalid, NotFound};
use crate::ui::player::{CustomScenario, PlayerPage};
use crate::ui::quiz::QuizPage;

#[component]
pub fn App() -> Html {
    let link = use_state(|| Link::parse(&current_hash()));
    {
        let link = link.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "hashchange", move |_| {
                    link.set(Link::parse(&current_hash()))
                })
            });
            move || drop(listener)
        });
    }
    let lang = link.lang.unwrap_or_else(browser_lang);
    let messages = use_state(|| Rc::new(cached(lang).unwrap_or_else(Messages::english)));
    {
        let messages = messages.clone();
        use_effect_with(lang, move |&lang| {
            match cached(lang) {
                Some(m) => messages.set(Rc::new(m)),
                None => wasm_bindgen_futures::spawn_local(async move {
                    // A pack that fails to load leaves English in place.
                    if let Ok(m) = fetch_pack(lang).await {
                        messages.set(Rc::new(m));
                    }
                }),
            }
            || ()
        });
    }
    let m = (*messages).clone();
    let on_lang = {
        let link = link.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t).ok())
                .map(|s| s.value());
            if let Some(lang) = value.as_deref().and_then(Lang::from_code) {
                let next = Link { lang: Some(lang), ..(*link).clone() };
                set_hash(&next.to_hash());
            }
        })
    };
    let view = match &link.view {
        View::Home => html! { <Home /> },
        View::Invalid { message } => html! { <><Invalid message={message.clone()} /><Home /></> },
        View::Scenario { id } => match catalogue::find(id) {
            // Keyed by id, so opening another scenario starts a fresh player.
            Some(scenario) => {
                html! { <PlayerPage key={id.clone()} scenario={scenario} link={(*link).clone()} /> }
            }
            None => html! { <NotFound asked={m.tf("notfound.scenario", &[("id", id)])} /> },
        },
        View::Custom { payload } => {
            html! { <CustomScenario payload={payload.clone()} link={(*link).clone()} /> }
        }
        View::Compare { id } => match catalogue::find(id) {
            Some(scenario) => html! { <Compare key={id.clone()} scenario={scenario} /> },
            None => html! { <NotFound asked={m.tf("notfound.scenario", &[("id", id)])} /> },
        },
        View::Quiz => html! { <QuizPage embed={link.embed} origins={link.origins.clone()} /> },
        View::Sandbox => html! { <crate::ui::sandbox::SandboxPage /> },
        View::Explore => html! { <crate::ui::explore::ExplorePage /> },
        View::NotFound { .. } => {
            let asked = match &link.view {
                View::NotFound { asked } => asked.clone(),
                _ => link
                    .to_hash()
                    .trim_start_matches('#')
                    .split('?')
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            };
            html! { <NotFound asked={m.tf("notfound.page", &[("path", &format!("#{asked}"))])} /> }
        }
    };
    let class = classes!("app", link.embed.then_some("embed"));
    html! {
        <ContextProvider<I18n> context={I18n(m.clone())}>
            <div class={class} data-testid="app" lang={m.lang.code()}>
                if !link.embed {
                    <a class="skip" href="#main" onclick={Callback::from(|e: MouseEvent| skip_to_main(e))}>{ m.t("nav.skip") }</a>
                    <header class="site-header">
                        <a class="brand" href="#/">{ m.t("app.name") }</a>
                        <nav class="site-nav">
                            <a href="#/quiz" data-testid="nav-quiz">{ m.t("app.quiz") }</a>
                            <a href="#/sandbox" data-testid="nav-sandbox">{ m.t("app.sandbox") }</a>
                            <a href="#/explore" data-testid="nav-explore">{ m.t("app.explore") }</a>
                        </nav>
                        <label class="lang">
                            <span class="visually-hidden">{ m.t("app.language") }</span>
                            <select data-testid="lang" aria-label={m.t("app.language")} onchange={on_lang}>
                                { for Lang::ALL.iter().map(|l| html! {
                                    <option value={l.code()} selected={*l == m.lang}>{ l.name() }</option>
                                }) }
                            </select>
                        </label>
                    </header>
                }
                <main id="main" tabindex="-1">{ view }</main>
            </div>
        </ContextProvider<I18n>>
    }
}

/// The skip link focuses the main region instead of changing the hash route.
fn skip_to_main(e: MouseEvent) {
    e.prevent_default();
    if let Some(main) =
        web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("main"))
        && let Some(main) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&main)
    {
        let _ = main.focus();
    }
}

pub(crate) fn current_hash() -> String {
    web_sys::window().and_then(|window| window.location().hash().ok()).unwrap_or_default()
}

pub(crate) fn set_hash(hash: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().set_hash(hash);
    }
}
