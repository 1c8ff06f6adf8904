//! Where the lab's views get a built-in lesson: from the bundle when it carries them (the
//! browser tests' and the course package's, set by their `Pages`), else fetched once from
//! `scenarios/<id>.json` beside the page, as the main page's player does. The lab's bundle
//! thus carries no lesson text. It must not simulate or render.

use std::cell::{Cell, RefCell};

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;

/// How a bundle that carries the lessons finds one.
pub(crate) type Compiled = fn(&str) -> Option<Scenario>;

thread_local! {
    static COMPILED: Cell<Option<Compiled>> = const { Cell::new(None) };
    /// Lessons fetched so far, so going back to one does not fetch it again.
    static FETCHED: RefCell<Vec<Scenario>> = const { RefCell::new(Vec::new()) };
}

/// Called by `App` with its `Pages::LESSONS`.
pub(crate) fn compile_in(lessons: Option<Compiled>) {
    COMPILED.with(|c| c.set(lessons));
}

/// The built-in `id` (a renamed id finds its lesson).
pub(crate) async fn load(id: &str) -> Result<Scenario, String> {
    let id = crate::catalogue::canonical_id(id).to_owned();
    // No id: a view that needs no built-in (a challenge carrying its own design).
    if id.is_empty() {
        return Err("no lesson named".to_owned());
    }
    if let Some(find) = COMPILED.with(Cell::get) {
        return find(&id).ok_or_else(|| format!("no built-in lesson {id}"));
    }
    if let Some(s) = FETCHED.with(|f| f.borrow().iter().find(|s| s.id == id).cloned()) {
        return Ok(s);
    }
    let url = format!("scenarios/{id}.json");
    let text = crate::ui::i18n::fetch_text(&url).await?;
    let s = crate::catalogue::load::parse_scenario(&text).map_err(|e| format!("{url}: {e}"))?;
    FETCHED.with(|f| f.borrow_mut().push(s.clone()));
    Ok(s)
}

/// The built-in `id`, once it is there (`None` while it loads).
#[hook]
pub(crate) fn use_lesson(id: &str) -> Option<Result<Scenario, String>> {
    crate::ui::hooks::use_loaded(id.to_owned(), |_| None, |id| async move { load(&id).await })
}

/// The lab's views of one built-in.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum LessonView {
    Compare,
    Export,
    Handout,
}

#[derive(PartialEq, Properties)]
pub(crate) struct LessonPageProps {
    pub(crate) id: String,
    pub(crate) link: crate::route::Link,
    pub(crate) view: LessonView,
}

/// A lab view of a built-in, shown when its lesson is there.
#[component]
pub(crate) fn LessonPage(props: &LessonPageProps) -> Html {
    let m = crate::ui::i18n::use_i18n();
    match use_lesson(&props.id) {
        None => html! { <p>{ m.t("loading") }</p> },
        Some(Err(why)) => html! {
            <p class="error" data-testid="load-error" role="alert">{ m.tf("player.load_failed", &[("why", &why)]) }</p>
        },
        Some(Ok(scenario)) => match props.view {
            LessonView::Compare => html! { <crate::ui::compare::Compare {scenario} /> },
            LessonView::Export => html! {
                <crate::ui::player::controls::ExportPage {scenario} link={props.link.clone()} />
            },
            LessonView::Handout => html! {
                <crate::ui::handout::Handout scenario={crate::player::ScenarioRef::new(scenario)} link={props.link.clone()} />
            },
        },
    }
}
