//! The views for an unknown route or id, and for a link that cannot be read.

use yew::prelude::*;

use crate::ui::i18n::use_i18n;

#[derive(PartialEq, Properties)]
pub(crate) struct NotFoundProps {
    /// What the learner asked for, in words.
    pub(crate) asked: AttrValue,
}

#[component]
pub(crate) fn NotFound(props: &NotFoundProps) -> Html {
    let m = use_i18n();
    // An embed opened on an unknown id still takes `load-scenario` from its host.
    crate::ui::embed::use_host_messages(|message| {
        if let crate::embed::Inbound::LoadScenario { id } = message
            && let Some(hash) = crate::ui::embed::scenario_hash(id)
        {
            crate::ui::nav::set_hash(&hash);
        }
    });
    html! {
        <section class="not-found" data-testid="not-found">
            <h1>{ m.t("notfound.title") }</h1>
            <p>{ &props.asked }</p>
            <p><a href="#/">{ m.t("notfound.back") }</a></p>
        </section>
    }
}

#[derive(PartialEq, Properties)]
pub(crate) struct InvalidProps {
    pub(crate) message: AttrValue,
}

/// A malformed, truncated or newer link: say why, then show the catalogue.
#[component]
pub(crate) fn Invalid(props: &InvalidProps) -> Html {
    let m = use_i18n();
    html! {
        <section class="invalid-link" data-testid="invalid-link" role="alert">
            <h1>{ m.t("invalid.title") }</h1>
            <p>{ &props.message }</p>
            <p>{ m.t("invalid.hint") }</p>
        </section>
    }
}
