//! The home view: the catalogue by chapter, one card per scenario.

use yew::prelude::*;

use crate::catalogue;
use crate::route::Route;

#[component]
pub(crate) fn Home() -> Html {
    let scenarios = catalogue::all();
    let mut chapters: Vec<&str> = Vec::new();
    for scenario in &scenarios {
        if !chapters.contains(&scenario.chapter.as_str()) {
            chapters.push(&scenario.chapter);
        }
    }
    html! {
        <section class="home" data-testid="home">
            <p class="lede">
                { "A lease lock with a TTL breaks when its holder stalls past the TTL. \
                   Watch it happen, then watch a fencing token stop the stale writer." }
            </p>
            { for chapters.iter().map(|chapter| html! {
                <section class="chapter">
                    <h2>{ *chapter }</h2>
                    <ul class="cards">
                        { for scenarios.iter().filter(|s| s.chapter == *chapter).map(|s| {
                            let href = Route::Scenario { id: s.id.clone(), t_ms: None }.href();
                            html! {
                                <li class="card" data-testid="scenario-card" data-id={s.id.clone()}>
                                    <a href={href}>
                                        <h3>{ &s.title }</h3>
                                        <p>{ &s.goal }</p>
                                        if let Some(expect) = &s.expect {
                                            <span class={classes!("badge", (!expect.violations.is_empty()).then_some("bad"))} data-testid="badge">{ &expect.badge }</span>
                                        }
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
