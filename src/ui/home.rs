//! The home view: the catalogue by chapter, one card per scenario: its title and
//! goal, never its outcome (the badge is the player's, once the run is shown).

use yew::prelude::*;

use crate::catalogue;
use crate::route::{Link, View};
use crate::ui::i18n::use_i18n;

#[component]
pub(crate) fn Home() -> Html {
    let m = use_i18n();
    let scenarios = catalogue::index();
    let mut chapters: Vec<&str> = Vec::new();
    for scenario in scenarios {
        if !chapters.contains(&scenario.chapter.as_str()) {
            chapters.push(&scenario.chapter);
        }
    }
    let n_questions = crate::quiz::BANK_SIZE.to_string();
    html! {
        <section class="home" data-testid="home">
            <h1 class="home-title">{ m.t("home.title") }</h1>
            <p class="lede">{ m.t("home.lede") }</p>
            <p><a href="#/quiz">{ m.tf("home.quiz", &[("n", &n_questions)]) }</a></p>
            { for chapters.iter().map(|chapter| html! {
                <section class="chapter">
                    <h2>{ m.content(&format!("chapter.{chapter}"), chapter) }</h2>
                    <ul class="cards">
                        { for scenarios.iter().filter(|s| s.chapter == *chapter).map(|s| {
                            let href = Link::to(View::Scenario { id: s.id.clone() }).to_hash();
                            html! {
                                <li class="card" data-testid="scenario-card" data-id={s.id.to_string()}>
                                    <a href={href}>
                                        <h3>{ m.content(&format!("s.{}.title", s.id), &s.title) }</h3>
                                        <p>{ m.content(&format!("s.{}.goal", s.id), &s.goal) }</p>
                                    </a>
                                </li>
                            }
                        }) }
                    </ul>
                </section>
            }) }
        </section>
    }
}
