//! The risk explorer page (`#/explore`): the form, a run split into slices or dealt to web
//! workers (progress bar, cancel), and the results as a table and an SVG chart against the
//! axis. What the page shows is `explore::screen`'s state; the run itself (the slices on
//! this thread, or the pool) lives in [`use_run`], which reports back with actions. The
//! trials are `explore::Run`'s; this file only schedules them and draws.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use yew::prelude::*;

use crate::explore::screen::{Action, Fallback, Field, Problem, Runner, Screen};
use crate::explore::{
    Axis, Fencing, MS_MAX, Point, Run, TRIALS_MAX, Tally, VALUES_MAX, WatchdogKind, percent,
};
use crate::sim::scenario::Word;
use crate::ui::browser::{cores, now_ms};
use crate::ui::explore_pool::{Pool, PoolEvent};
use crate::ui::hooks::{Reduced, Update};
use crate::ui::i18n::use_i18n;

/// A slice works in chunks until this much time has passed, then yields to the browser, so
/// no task comes near 50 ms on a slow machine and a fast one is not held back. The time is
/// the shell's to read; the core only ever sees chunk sizes.
const SLICE_BUDGET_MS: f64 = 20.0;
const CHUNK_TRIALS: u64 = 2_000;
const CHUNK_SIM_RUNS: u64 = 8;
/// How often results from the workers are drawn.
const REDRAW_MS: f64 = 100.0;

impl Update for Screen {
    type Action = Action;
    fn update(&mut self, action: Action) {
        Screen::update(self, action);
    }
}

/// The words the axis menu offers, with their labels.
fn axis_label(axis: Axis) -> &'static str {
    match axis {
        Axis::TtlMs => "explore.axis.ttl",
        Axis::WorkMs => "explore.axis.work",
        Axis::WatchdogIntervalMs => "explore.axis.interval",
    }
}

fn watchdog_label(kind: WatchdogKind) -> &'static str {
    match kind {
        WatchdogKind::Off => "explore.watchdog_off",
        WatchdogKind::Script => "explore.watchdog_script",
        WatchdogKind::Bare => "explore.watchdog_bare",
    }
}

#[component]
pub(crate) fn ExplorePage() -> Html {
    let m = use_i18n();
    let state = use_reducer(|| Reduced(Screen::new(cores())));
    use_run(&state);
    let screen = &state.0;
    let form = &screen.form;
    let edit = |field: Field| {
        let dispatch = state.dispatcher();
        Callback::from(move |e: Event| {
            let value = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .map(|input| input.value())
                .or_else(|| e.target_dyn_into::<web_sys::HtmlSelectElement>().map(|s| s.value()));
            if let Some(value) = value {
                dispatch.dispatch(Action::Edit(field, value));
            }
        })
    };
    let field = |label: &str, field: Field, test_id: &'static str| {
        html! {
            <label>{ m.explore(label) }<input value={form.field(field).to_owned()} data-testid={test_id} onchange={edit(field)} /></label>
        }
    };
    let menu = |label: &str,
                field: Field,
                test_id: &'static str,
                words: Vec<(&'static str, &'static str)>| {
        html! {
            <label>{ m.explore(label) }
                <select data-testid={test_id} onchange={edit(field)}>
                    { for words.into_iter().map(|(word, key)| html! {
                        <option value={word} selected={form.field(field) == word}>{ m.explore(key) }</option>
                    }) }
                </select>
            </label>
        }
    };
    let axes = Axis::WORDS.iter().map(|&(word, axis)| (word, axis_label(axis))).collect();
    let watchdogs =
        WatchdogKind::WORDS.iter().map(|&(word, kind)| (word, watchdog_label(kind))).collect();
    let on_run = {
        let dispatch = state.dispatcher();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            dispatch.dispatch(Action::Start);
        })
    };
    let on_cancel = {
        let dispatch = state.dispatcher();
        Callback::from(move |_| dispatch.dispatch(Action::Cancel))
    };
    let (done, total) = (screen.done, screen.total);
    let axis_label = m.explore(axis_label(screen.axis().unwrap_or(Axis::TtlMs)));
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    let error = screen.problem.as_ref().map(|problem| match problem {
        Problem::Form(why) => why.clone(),
        Problem::Worker(why) => m.exploref("explore.worker_failed", &[("why", why)]),
    });
    let running = screen.running();
    html! {
        <div class="explore" data-testid="explore" data-workers={screen.live_workers().to_string()}>
            <h1>{ m.explore("explore.title") }</h1>
            <p class="lede">{ m.explore("explore.lede") }</p>
            <form class="panel explore-form" onsubmit={on_run}>
                { field("explore.median", Field::Median, "explore-median") }
                { field("explore.p99", Field::P99, "explore-p99") }
                { field("explore.work", Field::Work, "explore-work") }
                { field("explore.ttl", Field::Ttl, "explore-ttl") }
                { menu("explore.axis", Field::Axis, "explore-axis", axes) }
                { field("explore.values", Field::Values, "explore-values") }
                { menu("explore.watchdog", Field::Watchdog, "explore-watchdog", watchdogs) }
                { field("explore.interval", Field::Interval, "explore-interval") }
                { field("explore.trials", Field::Trials, "explore-trials") }
                { field("explore.seed", Field::Seed, "explore-seed") }
                { field("explore.workers", Field::Workers, "explore-workers") }
                <p class="note">{ m.exploref("explore.workers_help", &[("n", &cores().to_string())]) }</p>
                <p class="note">{ m.exploref("explore.limits", &[("trials", &m.count(TRIALS_MAX)), ("values", &VALUES_MAX.to_string()), ("ms", &MS_MAX.to_string())]) }</p>
                <div class="editor-bar">
                    <button class="primary" type="submit" data-testid="explore-run" disabled={running}>{ m.explore("explore.run") }</button>
                    <button type="button" data-testid="explore-cancel" disabled={!running} onclick={on_cancel}>{ m.explore("explore.cancel") }</button>
                </div>
                if let Some(message) = error {
                    <p class="field-error" role="alert" data-testid="explore-error">{ message }</p>
                }
                if screen.fallback() {
                    <p class="note" data-testid="explore-fallback">{ m.explore("explore.fallback") }</p>
                }
            </form>
            if total > 0 {
                <div class="explore-progress">
                    <progress max="100" value={percent.to_string()} data-testid="explore-progress" aria-label={m.explore("explore.progress")}></progress>
                    <span data-testid="explore-count">{ m.exploref("explore.count", &[("done", &done.to_string()), ("total", &total.to_string())]) }</span>
                </div>
            }
            if !screen.points.is_empty() {
                <Chart points={screen.points.clone()} axis={axis_label.clone()} />
                <Table points={screen.points.clone()} axis={axis_label} />
            }
            <p class="note">{ m.explore("explore.model") }</p>
        </div>
    }
}

/// Runs the run the screen started, while it runs: on web workers when it asks for any and
/// they start, else in slices on this thread. Stops it (the pool, or the next slice) when
/// the run ends, is cancelled or replaced, or the page is left.
#[hook]
fn use_run(state: &UseReducerHandle<Reduced<Screen>>) {
    let started = state.0.started();
    let run_no = state.0.run;
    let dispatch = state.dispatcher();
    use_effect_with((run_no, started.is_some()), move |_| {
        let stop = started.map(|(run, workers)| start(run_no, (*run).clone(), workers, dispatch));
        move || {
            if let Some(stop) = stop {
                stop();
            }
        }
    });
}

/// Starts run `run_no` and returns what stops it.
fn start(
    run_no: u64,
    run: Run,
    workers: usize,
    dispatch: UseReducerDispatcher<Reduced<Screen>>,
) -> Box<dyn FnOnce()> {
    let run = Rc::new(RefCell::new(run));
    if workers > 0 {
        match Pool::start(
            workers,
            &run.borrow(),
            pool_events(run_no, run.clone(), dispatch.clone()),
        ) {
            Ok(pool) => {
                dispatch.dispatch(Action::Started {
                    run: run_no,
                    runner: Runner::Workers(pool.live()),
                });
                return Box::new(move || pool.stop());
            }
            // A strict policy or an old browser: the page runs the trials itself.
            Err(_) => dispatch.dispatch(Action::Started {
                run: run_no,
                runner: Runner::Page { fallback: Fallback::WorkersRefused },
            }),
        }
    }
    // Slices in a loop of its own that stops at the next slice once `active` is cleared.
    let active = Rc::new(std::cell::Cell::new(true));
    wasm_bindgen_futures::spawn_local(run_slices(run_no, run, dispatch, active.clone()));
    Box::new(move || active.set(false))
}

/// Each slice in a macrotask of its own, so input and painting run in between (and the
/// first not in the task that holds the click, `Run::new` and a render).
async fn run_slices(
    run_no: u64,
    run: Rc<RefCell<Run>>,
    dispatch: UseReducerDispatcher<Reduced<Screen>>,
    active: Rc<std::cell::Cell<bool>>,
) {
    loop {
        TimeoutFuture::new(0).await;
        if !active.get() {
            return;
        }
        let mut r = run.borrow_mut();
        let start = now_ms();
        while !r.is_done() && now_ms() - start < SLICE_BUDGET_MS {
            r.advance(CHUNK_TRIALS, CHUNK_SIM_RUNS);
        }
        let (done, points) = (r.progress().0, r.points().to_vec());
        dispatch.dispatch(Action::Progress { run: run_no, done, points });
        if r.is_done() {
            return dispatch.dispatch(Action::Finished { run: run_no });
        }
    }
}

/// What the page does with the pool's news: adds each chunk's result to the run and shows
/// it; says when the run is complete or a worker failed (the hook then stops the pool).
fn pool_events(
    run_no: u64,
    run: Rc<RefCell<Run>>,
    dispatch: UseReducerDispatcher<Reduced<Screen>>,
) -> Rc<dyn Fn(PoolEvent)> {
    // Results come in faster than anyone reads them: the table and chart are redrawn at most
    // every 100 ms (and at the end), which leaves the cores to the workers.
    let shown_at = Rc::new(RefCell::new(f64::NEG_INFINITY));
    Rc::new(move |event| match event {
        PoolEvent::Done(done) => {
            let mut r = run.borrow_mut();
            r.add(&done);
            let now = now_ms();
            if r.is_done() || now - *shown_at.borrow() >= REDRAW_MS {
                *shown_at.borrow_mut() = now;
                let (done, points) = (r.progress().0, r.points().to_vec());
                dispatch.dispatch(Action::Progress { run: run_no, done, points });
            }
            if r.is_done() {
                dispatch.dispatch(Action::Finished { run: run_no });
            }
        }
        PoolEvent::Failed(why) => dispatch.dispatch(Action::Failed { run: run_no, why }),
    })
}

#[derive(PartialEq, Properties)]
struct PointsProps {
    points: Rc<Vec<Point>>,
    /// The x axis's name with its unit.
    axis: String,
}

/// "12.34%", exactly, with the learner's decimal separator ("12,34%" in id and vi): written
/// the way the lessons write a percentage, in every language.
fn percent_text(m: &crate::i18n::Messages, count: u64, trials: u64) -> String {
    format!("{}%", m.decimal(&percent(count, trials, 2)))
}

#[component]
fn Table(props: &PointsProps) -> Html {
    let m = use_i18n();
    html! {
        // On a phone the six columns are wider than the screen: the table scrolls, the page
        // does not.
        <div class="explore-table-scroll" tabindex="0" role="region" aria-label={m.explore("explore.table_label")}>
        <table class="panel explore-table" data-testid="explore-table">
            <thead><tr>
                <th scope="col">{ props.axis.clone() }</th>
                <th scope="col">{ m.explore("explore.col.fencing") }</th>
                <th scope="col">{ m.explore("explore.col.trials") }</th>
                <th scope="col">{ m.explore("explore.col.two") }</th>
                <th scope="col">{ m.explore("explore.col.stale") }</th>
                <th scope="col">{ m.explore("explore.col.wasted") }</th>
            </tr></thead>
            <tbody>
                { for props.points.iter().map(|p| {
                    let t = &p.tally;
                    let wasted = t.wasted_ms.checked_div(t.trials).unwrap_or(0);
                    html! {
                        <tr data-testid="explore-row" data-x={p.x.to_string()} data-fencing={if p.fencing == Fencing::On { "on" } else { "off" }}>
                            <td>{ p.x }</td>
                            <td>{ if p.fencing == Fencing::On { m.explore("explore.fenced") } else { m.explore("explore.unfenced") } }</td>
                            <td>{ t.trials }</td>
                            <td>{ percent_text(&m, t.two_holders, t.trials) }</td>
                            <td data-testid="explore-stale">{ percent_text(&m, t.stale_accepted, t.trials) }</td>
                            <td>{ wasted }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
        </div>
    }
}

/// Chart geometry in SVG units (integers, so the markup is the same everywhere).
const W: i64 = 720;
const H: i64 = 320;
const LEFT: i64 = 64;
const RIGHT: i64 = 24;
const TOP: i64 = 20;
const BOTTOM: i64 = 52;

#[component]
fn Chart(props: &PointsProps) -> Html {
    let m = use_i18n();
    let max_x = props.points.iter().map(|p| p.x).max().unwrap_or(1).max(1);
    let x = |ttl: u64| {
        LEFT + i64::try_from(u128::from(ttl) * (W - LEFT - RIGHT) as u128 / u128::from(max_x))
            .unwrap_or(0)
    };
    let y = |ppm: u64| {
        TOP + (H - TOP - BOTTOM)
            - i64::try_from(ppm.min(1_000_000) * (H - TOP - BOTTOM) as u64 / 1_000_000).unwrap_or(0)
    };
    let series = |fencing: Fencing, pick: fn(&Tally) -> u64| -> String {
        props
            .points
            .iter()
            .filter(|p| p.fencing == fencing && p.tally.trials > 0)
            .map(|p| format!("{},{}", x(p.x), y(Tally::ppm(pick(&p.tally), p.tally.trials))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let lines = [
        ("two", series(Fencing::Off, |t| t.two_holders), m.explore("explore.legend.two")),
        (
            "stale-off",
            series(Fencing::Off, |t| t.stale_accepted),
            m.explore("explore.legend.stale_off"),
        ),
        (
            "stale-on",
            series(Fencing::On, |t| t.stale_accepted),
            m.explore("explore.legend.stale_on"),
        ),
    ];
    let y_ticks = [0u64, 250_000, 500_000, 750_000, 1_000_000];
    // TTL labels, skipping any that would touch the previous one.
    let mut x_labels: Vec<u64> = Vec::new();
    for p in props.points.iter().filter(|p| p.fencing == Fencing::Off) {
        if x_labels.last().is_none_or(|&last| x(p.x) - x(last) >= 48) {
            x_labels.push(p.x);
        }
    }
    html! {
        <figure class="panel explore-chart">
            <svg viewBox={format!("0 0 {W} {H}")} role="img" aria-label={m.explore("explore.chart")} data-testid="explore-chart">
                <line class="axis" x1={LEFT.to_string()} y1={(H - BOTTOM).to_string()} x2={(W - RIGHT).to_string()} y2={(H - BOTTOM).to_string()} />
                <line class="axis" x1={LEFT.to_string()} y1={TOP.to_string()} x2={LEFT.to_string()} y2={(H - BOTTOM).to_string()} />
                { for y_ticks.iter().map(|&t| html! {
                    <g class="tick">
                        <line class="grid" x1={LEFT.to_string()} y1={y(t).to_string()} x2={(W - RIGHT).to_string()} y2={y(t).to_string()} />
                        <text x={(LEFT - 8).to_string()} y={(y(t) + 4).to_string()} text-anchor="end">{ format!("{}%", t / 10_000) }</text>
                    </g>
                }) }
                { for x_labels.iter().map(|&ttl| html! {
                    <text class="tick" x={x(ttl).to_string()} y={(H - BOTTOM + 18).to_string()} text-anchor="middle">{ ttl }</text>
                }) }
                <text class="axis-label" x={((LEFT + W - RIGHT) / 2).to_string()} y={(H - 10).to_string()} text-anchor="middle">{ props.axis.clone() }</text>
                <text class="axis-label" x="14" y={((TOP + H - BOTTOM) / 2).to_string()} text-anchor="middle"
                    transform={format!("rotate(-90 14 {})", (TOP + H - BOTTOM) / 2)}>{ m.explore("explore.axis.p") }</text>
                { for lines.iter().map(|(class, points, _)| html! {
                    <polyline class={classes!("series", *class)} points={points.clone()} data-series={*class} />
                }) }
            </svg>
            <figcaption class="legend">
                { for lines.iter().map(|(class, _, label)| html! {
                    <span class={classes!("key", *class)}>{ label.clone() }</span>
                }) }
            </figcaption>
        </figure>
    }
}
