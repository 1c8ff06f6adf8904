//! The root component: reads the link from the hash, provides the messages of the chosen
//! language, and shows the header and the view (or only the view, when embedded).

use std::rc::Rc;

use gloo_events::EventListener;
use yew::prelude::*;

use crate::catalogue;
use crate::i18n::{Lang, Messages};
use crate::route::{Link, Page, Theme, View};
use crate::ui::home::Home;
use crate::ui::i18n::{I18n, browser_lang, cached, fetch_pack};
use crate::ui::lessons::{LessonPage, LessonView};
use crate::ui::nav::{current_hash, set_hash};
use crate::ui::not_found::{Invalid, NotFound};
use crate::ui::player::{CustomScenario, FetchedPlayer, PlayerPage};
use crate::ui::quiz::QuizPage;

/// What a bundle renders. Each bundle's `main` mounts `App` with its own `Pages`, so the
/// other page's components are never linked into its wasm.
pub trait Pages: 'static {
    /// The page this bundle is; `None` renders every view in one bundle (the browser
    /// tests mount that).
    const PAGE: Option<Page>;
    /// Renders a view this bundle owns (`App` sends the others to their page first).
    fn render(link: &Link, m: &Messages) -> Html;
    /// The player of a built-in (`id` is in the catalogue index).
    fn builtin_player(id: &str, link: &Link) -> Html;
    /// Whether the site's header (its navigation and language menu) shows.
    const HEADER: bool = true;
    /// Whether only the language menu shows instead (a course package's page).
    const LANGUAGE_MENU_ONLY: bool = false;
}

/// The main page's views, with `P` deciding where a built-in lesson comes from.
fn render_main<P: Pages>(link: &Link, m: &Messages) -> Html {
    match &link.view {
        View::Home => html! { <Home /> },
        View::Invalid { message } => {
            html! { <><Invalid message={message.clone()} /><Home /></> }
        }
        View::Scenario { id } if catalogue::is_builtin(id) => P::builtin_player(id, link),
        View::Scenario { id } => {
            html! { <NotFound asked={m.tf("notfound.scenario", &[("id", id)])} /> }
        }
        // The lab's views: `App` sends them to lab.html before rendering.
        View::Quiz
        | View::Challenge { .. }
        | View::Compare { .. }
        | View::Export { .. }
        | View::Handout { .. }
        | View::Sandbox { .. }
        | View::Explore
        | View::Break { .. }
        | View::Custom { .. } => Html::default(),
        View::NotFound { asked } => {
            html! { <NotFound asked={m.tf("notfound.page", &[("path", &format!("#{asked}"))])} /> }
        }
    }
}

/// `index.html`: the catalogue, the player of the built-ins, their embeds, and the pages
/// that explain bad links.
pub struct MainPages;

/// `lab.html`: the quiz, comparisons, exports, handouts, the sandbox and linked scenarios.
pub struct LabPages;

/// Every view in one bundle, for the browser tests.
pub struct AllPages;

/// `explore.html`: the risk explorer alone.
pub struct ExplorePages;

impl Pages for ExplorePages {
    const PAGE: Option<Page> = Some(Page::Explore);

    fn render(link: &Link, _: &Messages) -> Html {
        match &link.view {
            View::Explore => html! { <crate::ui::explore::ExplorePage /> },
            View::Break { target } => {
                html! { <crate::ui::break_it::BreakPage target={target.clone()} /> }
            }
            // The other pages' views: `App` sends them there before rendering.
            _ => Html::default(),
        }
    }

    fn builtin_player(_: &str, _: &Link) -> Html {
        Html::default()
    }
}

/// `course.html`, a SCO of a course package: every view in one bundle (leaving the page
/// would end the LMS session), the lessons compiled in, no site header (the LMS frames it).
pub struct CoursePages;

impl Pages for CoursePages {
    const PAGE: Option<Page> = None;
    const HEADER: bool = false;
    const LANGUAGE_MENU_ONLY: bool = true;

    fn render(link: &Link, m: &Messages) -> Html {
        match &link.view {
            View::Home => html! { <crate::ui::course::ChapterHome /> },
            _ => AllPages::render(link, m),
        }
    }

    fn builtin_player(id: &str, link: &Link) -> Html {
        AllPages::builtin_player(id, link)
    }
}

impl Pages for MainPages {
    const PAGE: Option<Page> = Some(Page::Main);

    fn render(link: &Link, m: &Messages) -> Html {
        render_main::<Self>(link, m)
    }

    fn builtin_player(id: &str, link: &Link) -> Html {
        // Keyed by id, so opening another scenario starts a fresh player.
        html! { <FetchedPlayer key={id.to_owned()} id={id.to_owned()} link={link.clone()} /> }
    }
}

impl Pages for LabPages {
    const PAGE: Option<Page> = Some(Page::Lab);

    fn render(link: &Link, m: &Messages) -> Html {
        match &link.view {
            View::Compare { id } | View::Export { id } | View::Handout { id }
                if catalogue::is_builtin(id) =>
            {
                let view = match &link.view {
                    View::Compare { .. } => LessonView::Compare,
                    View::Export { .. } => LessonView::Export,
                    _ => LessonView::Handout,
                };
                html! { <LessonPage key={format!("{}{id}", view as u8)} id={id.to_string()} link={link.clone()} {view} /> }
            }
            View::Compare { id } | View::Export { id } | View::Handout { id } => {
                html! { <NotFound asked={m.tf("notfound.scenario", &[("id", id)])} /> }
            }
            View::Quiz => {
                html! { <QuizPage embed={link.embed} link={link.clone()} /> }
            }
            View::Sandbox { .. } => html! { <crate::ui::sandbox::SandboxPage /> },
            View::Challenge { id: None } => html! { <crate::ui::challenge::ChallengeList /> },
            View::Challenge { id: Some(id) } => {
                html! { <crate::ui::challenge::ChallengePage key={id.to_string()} id={id.to_string()} link={link.clone()} /> }
            }
            View::Custom { payload } => {
                html! { <CustomScenario payload={payload.clone()} link={link.clone()} /> }
            }
            // The main page's views: `App` sends them to index.html before rendering.
            _ => Html::default(),
        }
    }

    fn builtin_player(_: &str, _: &Link) -> Html {
        Html::default()
    }
}

impl Pages for AllPages {
    const PAGE: Option<Page> = None;

    fn render(link: &Link, m: &Messages) -> Html {
        // This bundle carries the lessons (the tests' runner serves no files).
        crate::ui::lessons::compile_in(Some(catalogue::find));
        crate::ui::quiz::compile_in(Some(crate::quiz::bank));
        match link.view.page() {
            Page::Main => render_main::<Self>(link, m),
            Page::Lab => LabPages::render(link, m),
            Page::Explore => ExplorePages::render(link, m),
        }
    }

    /// The browser tests' bundle has the lessons compiled in (their runner serves no files).
    fn builtin_player(id: &str, link: &Link) -> Html {
        match catalogue::find(id) {
            Some(scenario) => {
                html! { <PlayerPage key={id.to_owned()} scenario={crate::player::ScenarioRef::new(scenario)} link={link.clone()} /> }
            }
            None => Html::default(),
        }
    }
}

#[component]
pub fn App<P: Pages>() -> Html {
    let link = use_state(|| crate::ui::nav::parse_link(&current_hash()));
    {
        let link = link.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "hashchange", move |_| {
                    link.set(crate::ui::nav::parse_link(&current_hash()))
                })
            });
            move || drop(listener)
        });
    }
    crate::ui::embed::set_link(&link);
    // theme= overrides the reader's setting (the stylesheet reads the attribute).
    {
        let theme = link.options.theme;
        use_effect_with(theme, |theme| {
            if let Some(root) =
                web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
            {
                let _ = match theme {
                    Theme::Auto => root.remove_attribute("data-theme"),
                    Theme::Light => root.set_attribute("data-theme", "light"),
                    Theme::Dark => root.set_attribute("data-theme", "dark"),
                };
            }
            || ()
        });
    }
    let lang = link.lang.unwrap_or_else(browser_lang);
    let messages = use_state(|| Rc::new(cached(lang).unwrap_or_else(Messages::english)));
    let pack_failed = use_state(|| false);
    {
        let messages = messages.clone();
        let pack_failed = pack_failed.clone();
        use_effect_with(lang, move |&lang| {
            pack_failed.set(false);
            match cached(lang) {
                Some(m) => messages.set(Rc::new(m)),
                // A pack that fails to load (offline, a broken deploy) leaves English in
                // place, and the page says so.
                None => wasm_bindgen_futures::spawn_local(async move {
                    match fetch_pack(lang).await {
                        Ok(m) => messages.set(Rc::new(m)),
                        Err(_) => pack_failed.set(true),
                    }
                }),
            }
            || ()
        });
    }
    let m = (*messages).clone();
    // The document's language is the one its text is in (English while a pack loads or
    // if it failed), so screen readers and translation tools read it right.
    use_effect_with(m.lang, |lang| {
        if let Some(root) =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", lang.code());
        }
        || ()
    });
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
    // A view of the other page: go there with the same hash (replacing this history
    // entry, so Back skips the hop). Nothing renders meanwhile.
    let elsewhere = P::PAGE.is_some_and(|page| page != link.view.page());
    {
        let target = elsewhere.then(|| format!("{}{}", link.view.page().path(), current_hash()));
        use_effect_with(target, |target| {
            if let Some(target) = target {
                crate::ui::nav::replace_hash(target);
            }
            || ()
        });
    }
    let view = if elsewhere { Html::default() } else { P::render(&link, &m) };
    let course_lang = P::LANGUAGE_MENU_ONLY.then(|| on_lang.clone());
    let class = classes!("app", link.embed.then_some("embed"));
    html! {
        <ContextProvider<I18n> context={I18n(m.clone())}>
            <div class={class} data-testid="app" lang={m.lang.code()}>
                if !link.embed && P::HEADER {
                    <a class="skip" href="#main" onclick={Callback::from(|e: MouseEvent| skip_to_main(e))}>{ m.t("nav.skip") }</a>
                    <header class="site-header">
                        { brand_and_nav(&m) }
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
                if P::LANGUAGE_MENU_ONLY && !link.embed {
                    // A course package's page: the LMS frames it, so only the language menu.
                    <header class="site-header">
                        <label class="lang">
                            <span class="visually-hidden">{ m.t("app.language") }</span>
                            <select data-testid="lang" aria-label={m.t("app.language")} onchange={course_lang.clone().unwrap_or_default()}>
                                { for Lang::ALL.iter().map(|l| html! {
                                    <option value={l.code()} selected={*l == m.lang}>{ l.name() }</option>
                                }) }
                            </select>
                        </label>
                        <crate::ui::course::BackToStart hash={current_hash()} />
                    </header>
                }
                { update_notice(&m) }
                if *pack_failed {
                    <p class="notice" role="alert" data-testid="pack-failed">{ m.tf("app.pack_failed", &[("lang", lang.name())]) }</p>
                }
                <main id="main" tabindex="-1">{ view }</main>
            </div>
        </ContextProvider<I18n>>
    }
}

/// The site's name and its links to the other views: markup (links only, no listener),
/// which costs the first page less code than a node per element.
fn brand_and_nav(m: &crate::i18n::Messages) -> Html {
    let mut o = crate::markup::Markup::new();
    o.element("a", &[("class", "brand"), ("href", "#/")], &m.t("app.name"));
    o.open("nav", &[("class", "site-nav")]);
    for (href, testid, key) in [
        ("#/quiz", "nav-quiz", "app.quiz"),
        ("#/challenge", "nav-challenges", "app.challenges"),
        ("#/sandbox", "nav-sandbox", "app.sandbox"),
        ("#/explore", "nav-explore", "app.explore"),
    ] {
        o.element("a", &[("href", href), ("data-testid", testid)], &m.t(key));
    }
    o.close("nav");
    crate::ui::markup(o)
}

/// Shown by the pages' script (the class fp-update) when a newer deploy is ready; its
/// button is the script's too. Nothing here watches for it.
fn update_notice(m: &crate::i18n::Messages) -> Html {
    let mut o = crate::markup::Markup::new();
    o.open("p", &[("class", "notice update"), ("role", "status"), ("data-testid", "update-ready")]);
    o.text(&format!("{} ", m.t("app.update_ready")));
    o.element("button", &[("data-testid", "update-reload")], &m.t("app.update_reload"));
    o.close("p");
    crate::ui::markup(o)
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
