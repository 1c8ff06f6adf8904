//! The view for any unknown route or scenario id: says what was asked for, links home.

use yew::prelude::*;

#[derive(PartialEq, Properties)]
pub(crate) struct NotFoundProps {
    /// What the learner asked for, in words ("the scenario “x”").
    pub(crate) asked: AttrValue,
}

#[component]
pub(crate) fn NotFound(props: &NotFoundProps) -> Html {
    html! {
        <section class="not-found" data-testid="not-found">
            <h1>{ "Not found" }</h1>
            <p>{ format!("There is no {} here.", props.asked) }</p>
            <p><a href="#/">{ "Back to the catalogue" }</a></p>
        </section>
    }
}
