//! A printable handout of one scenario (`#/handout/<id>`, on the lab page): its setup, then
//! for each paragraph of its story the timeline as it stood at that paragraph's event and
//! the paragraph itself, then its outcome, laid out for A4 and Letter. The run is the
//! player's (the link's what-if knobs and language apply); nothing here simulates beyond
//! running the scenario once.

use yew::prelude::*;

use crate::catalogue::lesson::Scenario;
use crate::player::{Action, ScenarioRef, TraceRef};
use crate::route::Link;
use crate::timeline::svg::Future;
use crate::ui::i18n::use_i18n;
use crate::ui::player::{Swimlanes, verdict_text};

#[derive(PartialEq, Properties)]
pub(crate) struct HandoutProps {
    pub(crate) scenario: ScenarioRef,
    pub(crate) link: Link,
}

/// Which handout prints.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Sheet {
    /// The story in order, each prediction asked before the moment that answers it.
    Walkthrough,
    /// The predictions alone, each with the timeline as it stood when asked and room for an
    /// answer; the answers and the outcome on a last page of their own (a teacher's key).
    Questions,
}

/// The handout, as the walkthrough or the worksheet the author chooses before printing.
#[component]
pub(crate) fn Handout(props: &HandoutProps) -> Html {
    let m = use_i18n();
    let sheet = use_state(|| Sheet::Walkthrough);
    let scenario: &Scenario = &props.scenario;
    let trace = {
        let (whatif, scenario) = (props.link.whatif.clone(), props.scenario.clone());
        use_memo((), move |_| TraceRef::new(crate::sim::run(&whatif.apply(&scenario).setup)))
    };
    let trace: TraceRef = (*trace).clone();
    let id = &scenario.id;
    // A worksheet: the title's setup only, and each prediction prompt asked before the
    // moment that answers it.
    let title = m.content(&format!("s.{id}.title"), &scenario.title);
    let setup = crate::player::setup_title(&title).to_owned();
    let prompt_events: Vec<(usize, usize)> = scenario
        .prompts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((i, crate::catalogue::anchor::find(&trace, &p.at)?)))
        .collect();
    let predict = |from: Option<usize>, to: usize| -> Html {
        let asked = prompt_events.iter().filter(|&&(_, e)| from.is_none_or(|f| e > f) && e <= to);
        html! { <>{ for asked.map(|&(i, _)| {
            let key = |suffix: &str| format!("s.{id}.p.{i}.{suffix}");
            let prompt = &scenario.prompts[i];
            html! {
                <div class="predict" data-testid="handout-predict">
                    <strong>{ m.lab("handout.predict") }{ " " }</strong>{ m.content(&key("question"), &prompt.question) }
                    <ol>{ for prompt.options.iter().enumerate().map(|(j, o)| html! { <li>{ m.content(&key(&format!("o.{j}")), o) }</li> }) }</ol>
                </div>
            }
        }) }</> }
    };
    // From the lesson's start, so no prediction is skipped (a t= would pass the ones before).
    let interactive = format!(
        "{}{}",
        crate::ui::embed::site_address(),
        Link {
            view: crate::route::View::Scenario { id: id.clone() },
            t_ms: None,
            ..props.link.clone()
        }
        .to_hash()
    );
    let moments: Vec<(usize, usize)> = crate::catalogue::narration::resolve(&trace, scenario)
        .into_iter()
        .filter_map(|(i, event)| Some((i, event?)))
        .collect();
    let noop = Callback::from(|_: Action| ());
    let print = Callback::from(|_: MouseEvent| {
        if let Some(window) = web_sys::window() {
            let _ = window.print();
        }
    });
    let back = Link { view: crate::route::View::Scenario { id: id.clone() }, ..props.link.clone() };
    // One listener for both radios (markup, which keeps the lab page small): each names
    // its sheet in `value`.
    let choose = {
        let sheet = sheet.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target()
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
                .and_then(|el| el.get_attribute("value"));
            match value.as_deref() {
                Some("questions") => sheet.set(Sheet::Questions),
                Some("walkthrough") => sheet.set(Sheet::Walkthrough),
                _ => {}
            }
        })
    };
    let has_prompts = !prompt_events.is_empty();
    html! {
        <article class="handout" data-testid="handout" data-id={id.to_string()}>
            <p class="no-print">
                <button onclick={print} data-testid="handout-print">{ m.lab("handout.print") }</button>
                { " " }<a href={format!("{}{}", crate::route::Page::Main.path(), back.to_hash())}>{ m.lab("handout.back") }</a>
            </p>
            if has_prompts {
                <fieldset class="no-print sheet-choice" data-testid="handout-sheet" onchange={choose}>
                    { sheet_choice(&m, *sheet) }
                </fieldset>
            }
            <p class="muted" data-testid="handout-link">{ m.lab("handout.interactive") }{ " " }<a href={interactive.clone()}>{ interactive.clone() }</a></p>
            <h1>{ &setup }</h1>
            <p class="goal"><strong>{ m.t("player.goal") }{ " " }</strong>{ m.content(&format!("s.{id}.goal"), &scenario.goal) }</p>
            if *sheet == Sheet::Questions {
                { questions_only(&m, scenario, &trace, &prompt_events, &title) }
            } else {
            { for moments.iter().enumerate().map(|(n, &(i, event))| {
                let at = trace.events()[event].at_ms;
                let before = n.checked_sub(1).map(|k| moments[k].1);
                let text = m.content(&format!("s.{id}.n.{i}"), &scenario.narration[i].text);
                html! {
                    <section class="moment" data-testid="handout-moment">
                        { predict(before, event) }
                        <h2>{ m.labf("handout.moment", &[("n", &(n + 1).to_string()), ("at", &m.secs(at))]) }</h2>
                        <Swimlanes trace={trace.clone()} cursor={event + 1} time_ms={at} on_action={noop.clone()} future={Future::Hidden} title={title.clone()} />
                        <p class="story" data-testid="handout-story">{ text }</p>
                    </section>
                }
            }) }
            { predict(moments.last().map(|&(_, e)| e), usize::MAX) }
            { outcome(&m, scenario, &trace) }
            }
        </article>
    }
}

/// The run's verdict and the lesson's summary.
fn outcome(m: &crate::i18n::Messages, scenario: &Scenario, trace: &TraceRef) -> Html {
    let id = &scenario.id;
    html! {
        <section class="moment outcome">
            <h2>{ m.lab("handout.outcome") }</h2>
            <p data-testid="handout-verdict">{ verdict_text(m, trace) }</p>
            <p>{ m.content(&format!("s.{id}.summary"), &scenario.summary) }</p>
        </section>
    }
}

/// The two sheets to choose from, as markup.
fn sheet_choice(m: &crate::i18n::Messages, sheet: Sheet) -> Html {
    let mut o = crate::markup::Markup::new();
    o.element("legend", &[], &m.lab("handout.sheet"));
    for (value, this, testid, label) in [
        ("walkthrough", Sheet::Walkthrough, "sheet-walkthrough", "handout.sheet_walkthrough"),
        ("questions", Sheet::Questions, "sheet-questions", "handout.sheet_questions"),
    ] {
        let mut attrs =
            vec![("type", "radio"), ("name", "sheet"), ("value", value), ("data-testid", testid)];
        if sheet == this {
            attrs.push(("checked", ""));
        }
        o.open("label", &[]).empty("input", &attrs).text(" ").text(&m.lab(label)).close("label");
    }
    crate::ui::markup(o)
}

/// The worksheet: each prediction with the timeline as it stood when asked (the predicted
/// event not yet applied) and a line for the answer, then the teacher's key on a page of
/// its own: each right option (by its letter) and why, and the outcome.
fn questions_only(
    m: &crate::i18n::Messages,
    scenario: &Scenario,
    trace: &TraceRef,
    prompt_events: &[(usize, usize)],
    title: &str,
) -> Html {
    let id = &scenario.id;
    let key = |i: usize, suffix: &str| format!("s.{id}.p.{i}.{suffix}");
    let noop = Callback::from(|_: Action| ());
    let letter = |j: usize| crate::xapi::option_id(j);
    let asked = prompt_events.iter().enumerate().map(|(n, &(i, event))| {
        let prompt = &scenario.prompts[i];
        let at = event.checked_sub(1).map_or(0, |k| trace.events()[k].at_ms);
        let mut heading = crate::markup::Markup::new();
        let title_text =
            m.labf("handout.question", &[("n", &(n + 1).to_string()), ("at", &m.secs(at))]);
        heading.element("h2", &[], &title_text);
        let mut question = crate::markup::Markup::new();
        question.element("p", &[("class", "story")], &m.content(&key(i, "question"), &prompt.question));
        question.open("ol", &[("class", "lettered")]);
        for (j, option) in prompt.options.iter().enumerate() {
            let text = format!("({}) {}", letter(j), m.content(&key(i, &format!("o.{j}")), option));
            question.element("li", &[], &text);
        }
        question.close("ol").element("p", &[("class", "answer-line")], &m.lab("handout.your_answer"));
        // A later prediction's timeline shows how the earlier ones turned out: it starts a
        // page of its own, which says so.
        let turn = (n > 0).then(|| {
            let mut o = crate::markup::Markup::new();
            o.element("p", &[("class", "turn muted")], &m.labf("handout.turn", &[("n", &n.to_string())]));
            crate::ui::markup(o)
        });
        html! {
            <section class={classes!("moment", (n > 0).then_some("new-page"))} data-testid="handout-question">
                { for turn }
                { crate::ui::markup(heading) }
                <Swimlanes trace={trace.clone()} cursor={event} time_ms={at} on_action={noop.clone()} future={Future::Hidden} title={title.to_owned()} />
                { crate::ui::markup(question) }
            </section>
        }
    });
    let mut key_page = crate::markup::Markup::new();
    key_page.element("h2", &[], &m.lab("handout.key")).open("ol", &[("class", "plain")]);
    for (n, &(i, _)) in prompt_events.iter().enumerate() {
        let prompt = &scenario.prompts[i];
        let right = prompt
            .options
            .get(prompt.answer)
            .map_or(String::new(), |o| m.content(&key(i, &format!("o.{}", prompt.answer)), o));
        key_page
            .open("li", &[("data-testid", "handout-key-answer")])
            .element("strong", &[], &format!("{}. ({}) {right}", n + 1, letter(prompt.answer)))
            .text(" ")
            .text(&m.content(&key(i, "explanation"), &prompt.explanation))
            .close("li");
    }
    key_page.close("ol");
    html! {
        <>
            { for asked }
            <section class="key" data-testid="handout-key">
                { crate::ui::markup(key_page) }
                { outcome(m, scenario, trace) }
            </section>
        </>
    }
}
