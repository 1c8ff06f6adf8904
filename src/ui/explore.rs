//! The risk explorer page (`#/explore`): the form, a run split into slices (progress bar,
//! cancel), and the results as a table and an SVG chart against TTL. The trials themselves
//! are `explore::Run`'s; this file only schedules slices and draws.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::explore::{
    Axis, Fencing, MS_MAX, Params, Point, Run, TRIALS_MAX, Tally, VALUES_MAX, Watchdog,
    parse_number, parse_numbers, percent,
};
use crate::ui::browser::{cores, now_ms};
use crate::ui::explore_pool::{Pool, PoolEvent};
use crate::ui::i18n::use_i18n;

/// A slice works in chunks until this much time has passed, then yields to the browser, so
/// no task comes near 50 ms on a slow machine and a fast one is not held back. The time is
/// the shell's to read; the core only ever sees chunk sizes.
const SLICE_BUDGET_MS: f64 = 20.0;
const CHUNK_TRIALS: u64 = 2_000;
const CHUNK_SIM_RUNS: u64 = 8;
/// How often results from the workers are drawn.
const REDRAW_MS: f64 = 100.0;

/// The form as typed (text, so a half-typed value is kept); `params` reads it with the pure
/// parsers `fence explore` uses too.
#[derive(Clone, PartialEq)]
struct Form {
    median: String,
    p99: String,
    work: String,
    ttl: String,
    axis: String,
    values: String,
    watchdog: String,
    interval: String,
    trials: String,
    seed: String,
    /// Web workers to run the trials on; 0 runs them on the page's own thread.
    workers: String,
}

/// The interval shown while the watchdog is off (it is used once it is switched on).
const INTERVAL_DEFAULT_MS: u64 = 10_000;

impl Default for Form {
    fn default() -> Form {
        let p = Params::default();
        let join =
            |values: &[u64]| values.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        let interval_ms = match p.watchdog {
            Watchdog::On { interval_ms, .. } => interval_ms,
            Watchdog::Off => INTERVAL_DEFAULT_MS,
        };
        Form {
            median: p.pause_median_ms.to_string(),
            p99: p.pause_p99_ms.to_string(),
            work: p.work_ms.to_string(),
            ttl: p.ttl_ms.to_string(),
            axis: p.axis.word().to_owned(),
            values: join(&p.values),
            watchdog: p.watchdog.word().to_owned(),
            interval: interval_ms.to_string(),
            trials: p.trials.to_string(),
            seed: p.seed.to_string(),
            workers: cores().to_string(),
        }
    }
}

impl Form {
    fn params(&self) -> Result<Params, String> {
        Ok(Params {
            pause_median_ms: parse_number(&self.median, "median")?,
            pause_p99_ms: parse_number(&self.p99, "p99")?,
            work_ms: parse_number(&self.work, "work")?,
            ttl_ms: parse_number(&self.ttl, "TTL")?,
            axis: Axis::from_word(&self.axis)?,
            values: parse_numbers(&self.values, "values")?,
            watchdog: Watchdog::from_word(
                &self.watchdog,
                parse_number(&self.interval, "interval")?,
            )?,
            trials: parse_number(&self.trials, "trials")?,
            seed: parse_number(&self.seed, "seed")?,
        })
    }
}

#[component]
pub(crate) fn ExplorePage() -> Html {
    let m = use_i18n();
    let form = use_state(Form::default);
    let error = use_state(|| None::<String>);
    let run: Rc<RefCell<Option<Run>>> = use_mut_ref(|| None);
    // Bumped to start a run; the effect below owns the slice loop for that generation.
    let generation = use_state(|| 0u32);
    let running = use_state(|| false);
    let progress = use_state(|| (0u64, 0u64));
    let snapshot = use_state(Vec::<Point>::new);
    let cancelled = use_mut_ref(|| false);
    let pool: Rc<RefCell<Option<Pool>>> = use_mut_ref(|| None);
    // Workers running now (0 when the page runs the trials itself, or none run).
    let live = use_state(|| 0usize);
    // Why this run is on the page's thread although workers were asked for.
    let fallback = use_state(|| false);
    {
        // Leaving the page stops the workers.
        let pool = pool.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(pool) = pool.borrow_mut().take() {
                    pool.stop();
                }
            }
        });
    }

    {
        let run = run.clone();
        let running = running.clone();
        let progress = progress.clone();
        let snapshot = snapshot.clone();
        let cancelled = cancelled.clone();
        use_effect_with(*generation, move |generation| {
            let active = Rc::new(RefCell::new(*generation > 0));
            let stop = active.clone();
            fn tick(
                run: Rc<RefCell<Option<Run>>>,
                active: Rc<RefCell<bool>>,
                cancelled: Rc<RefCell<bool>>,
                running: UseStateHandle<bool>,
                progress: UseStateHandle<(u64, u64)>,
                snapshot: UseStateHandle<Vec<Point>>,
            ) {
                if !*active.borrow() {
                    return;
                }
                let finished = {
                    let mut guard = run.borrow_mut();
                    let Some(r) = guard.as_mut() else { return };
                    let start = now_ms();
                    while !*cancelled.borrow() && !r.is_done() && now_ms() - start < SLICE_BUDGET_MS
                    {
                        r.advance(CHUNK_TRIALS, CHUNK_SIM_RUNS);
                    }
                    progress.set(r.progress());
                    snapshot.set(r.points().to_vec());
                    r.is_done() || *cancelled.borrow()
                };
                if finished {
                    running.set(false);
                    return;
                }
                // A macrotask per slice, so input and painting run in between.
                gloo_timers::callback::Timeout::new(0, move || {
                    tick(run, active, cancelled, running, progress, snapshot)
                })
                .forget();
            }
            if *generation > 0 {
                // Not in this task: it already holds the click, Run::new and a render.
                gloo_timers::callback::Timeout::new(0, move || {
                    tick(run, active, cancelled, running, progress, snapshot)
                })
                .forget();
            }
            move || {
                *stop.borrow_mut() = false;
            }
        });
    }

    let on_run = {
        let form = form.clone();
        let error = error.clone();
        let run = run.clone();
        let generation = generation.clone();
        let running = running.clone();
        let cancelled = cancelled.clone();
        let pool = pool.clone();
        let live = live.clone();
        let fallback = fallback.clone();
        let progress = progress.clone();
        let snapshot = snapshot.clone();
        let m = m.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(old) = pool.borrow_mut().take() {
                old.stop();
            }
            let workers = parse_number(&form.workers, "workers");
            let new_run = match form.params().and_then(Run::new) {
                Ok(new_run) => new_run,
                Err(message) => return error.set(Some(message)),
            };
            let workers = match workers {
                Ok(n) => usize::try_from(n).unwrap_or(usize::MAX),
                Err(message) => return error.set(Some(message)),
            };
            *cancelled.borrow_mut() = false;
            error.set(None);
            running.set(true);
            fallback.set(false);
            progress.set(new_run.progress());
            snapshot.set(new_run.points().to_vec());
            if workers > 0 {
                let screen = Screen {
                    running: running.clone(),
                    progress: progress.clone(),
                    snapshot: snapshot.clone(),
                    error: error.clone(),
                    live: live.clone(),
                    m: m.clone(),
                };
                let on_event = pool_events(run.clone(), pool.clone(), screen);
                match Pool::start(workers, &new_run, on_event) {
                    Ok(started) => {
                        live.set(started.live());
                        *run.borrow_mut() = Some(new_run);
                        *pool.borrow_mut() = Some(started);
                        return;
                    }
                    // A strict policy or an old browser: the page runs the trials itself.
                    Err(_) => fallback.set(true),
                }
            }
            live.set(0);
            *run.borrow_mut() = Some(new_run);
            generation.set(*generation + 1);
        })
    };
    let on_cancel = {
        let cancelled = cancelled.clone();
        let pool = pool.clone();
        let live = live.clone();
        let running = running.clone();
        Callback::from(move |_| {
            *cancelled.borrow_mut() = true;
            if let Some(pool) = pool.borrow_mut().take() {
                pool.stop();
                live.set(0);
                running.set(false);
            }
        })
    };
    let field = |label: String, value: &str, test_id: &'static str, set: fn(&mut Form, String)| {
        let form = form.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                let mut next = (*form).clone();
                set(&mut next, input.value());
                form.set(next);
            }
        });
        html! {
            <label>{ label }<input value={value.to_owned()} data-testid={test_id} {onchange} /></label>
        }
    };
    let on_axis = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let mut next = (*form).clone();
                next.axis = select.value();
                form.set(next);
            }
        })
    };
    let on_watchdog = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() {
                let mut next = (*form).clone();
                next.watchdog = select.value();
                form.set(next);
            }
        })
    };
    let (done, total) = *progress;
    // The axis of the run on screen (not of the form being edited).
    let axis_label = match run.borrow().as_ref().map(|r| r.params().axis) {
        Some(Axis::WorkMs) => m.explore("explore.axis.work"),
        Some(Axis::WatchdogIntervalMs) => m.explore("explore.axis.interval"),
        _ => m.explore("explore.axis.ttl"),
    };
    let percent = (done * 100).checked_div(total).unwrap_or(0);
    html! {
        <div class="explore" data-testid="explore" data-workers={live.to_string()}>
            <h1>{ m.explore("explore.title") }</h1>
            <p class="lede">{ m.explore("explore.lede") }</p>
            <form class="panel explore-form" onsubmit={on_run}>
                { field(m.explore("explore.median"), &form.median, "explore-median", |f, v| f.median = v) }
                { field(m.explore("explore.p99"), &form.p99, "explore-p99", |f, v| f.p99 = v) }
                { field(m.explore("explore.work"), &form.work, "explore-work", |f, v| f.work = v) }
                { field(m.explore("explore.ttl"), &form.ttl, "explore-ttl", |f, v| f.ttl = v) }
                <label>{ m.explore("explore.axis") }
                    <select data-testid="explore-axis" onchange={on_axis}>
                        <option value="ttl" selected={form.axis == "ttl"}>{ m.explore("explore.axis.ttl") }</option>
                        <option value="work" selected={form.axis == "work"}>{ m.explore("explore.axis.work") }</option>
                        <option value="interval" selected={form.axis == "interval"}>{ m.explore("explore.axis.interval") }</option>
                    </select>
                </label>
                { field(m.explore("explore.values"), &form.values, "explore-values", |f, v| f.values = v) }
                <label>{ m.explore("explore.watchdog") }
                    <select data-testid="explore-watchdog" onchange={on_watchdog}>
                        <option value="off" selected={form.watchdog == "off"}>{ m.explore("explore.watchdog_off") }</option>
                        <option value="script" selected={form.watchdog == "script"}>{ m.explore("explore.watchdog_script") }</option>
                        <option value="bare" selected={form.watchdog == "bare"}>{ m.explore("explore.watchdog_bare") }</option>
                    </select>
                </label>
                { field(m.explore("explore.interval"), &form.interval, "explore-interval", |f, v| f.interval = v) }
                { field(m.explore("explore.trials"), &form.trials, "explore-trials", |f, v| f.trials = v) }
                { field(m.explore("explore.seed"), &form.seed, "explore-seed", |f, v| f.seed = v) }
                { field(m.explore("explore.workers"), &form.workers, "explore-workers", |f, v| f.workers = v) }
                <p class="note">{ m.exploref("explore.workers_help", &[("n", &cores().to_string())]) }</p>
                <p class="note">{ m.exploref("explore.limits", &[("trials", &TRIALS_MAX.to_string()), ("values", &VALUES_MAX.to_string()), ("ms", &MS_MAX.to_string())]) }</p>
                <div class="editor-bar">
                    <button class="primary" type="submit" data-testid="explore-run" disabled={*running}>{ m.explore("explore.run") }</button>
                    <button type="button" data-testid="explore-cancel" disabled={!*running} onclick={on_cancel}>{ m.explore("explore.cancel") }</button>
                </div>
                if let Some(message) = &*error {
                    <p class="field-error" role="alert" data-testid="explore-error">{ message }</p>
                }
                if *fallback {
                    <p class="note" data-testid="explore-fallback">{ m.explore("explore.fallback") }</p>
                }
            </form>
            if total > 0 {
                <div class="explore-progress">
                    <progress max="100" value={percent.to_string()} data-testid="explore-progress" aria-label={m.explore("explore.progress")}></progress>
                    <span data-testid="explore-count">{ m.exploref("explore.count", &[("done", &done.to_string()), ("total", &total.to_string())]) }</span>
                </div>
            }
            if !snapshot.is_empty() {
                <Chart points={(*snapshot).clone()} axis={axis_label.clone()} />
                <Table points={(*snapshot).clone()} axis={axis_label} />
            }
            <p class="note">{ m.explore("explore.model") }</p>
        </div>
    }
}

/// The page's state a run updates as results come in.
struct Screen {
    running: UseStateHandle<bool>,
    progress: UseStateHandle<(u64, u64)>,
    snapshot: UseStateHandle<Vec<Point>>,
    error: UseStateHandle<Option<String>>,
    live: UseStateHandle<usize>,
    m: Rc<crate::i18n::Messages>,
}

/// What the page does with the pool's news: add each chunk's result to the run and show it;
/// when the run is complete, or a worker failed, stop the pool.
fn pool_events(
    run: Rc<RefCell<Option<Run>>>,
    pool: Rc<RefCell<Option<Pool>>>,
    screen: Screen,
) -> Rc<dyn Fn(PoolEvent)> {
    let Screen { running, progress, snapshot, error, live, m } = screen;
    // Results come in faster than anyone reads them: the table and chart are redrawn at most
    // every 100 ms (and at the end), which leaves the cores to the workers.
    let shown_at = Rc::new(RefCell::new(f64::NEG_INFINITY));
    Rc::new(move |event| {
        let finished = match event {
            PoolEvent::Done(done) => {
                let mut guard = run.borrow_mut();
                let Some(r) = guard.as_mut() else { return };
                r.add(&done);
                let now = now_ms();
                if r.is_done() || now - *shown_at.borrow() >= REDRAW_MS {
                    *shown_at.borrow_mut() = now;
                    progress.set(r.progress());
                    snapshot.set(r.points().to_vec());
                }
                r.is_done()
            }
            PoolEvent::Failed(why) => {
                error.set(Some(m.exploref("explore.worker_failed", &[("why", &why)])));
                true
            }
        };
        if finished {
            if let Some(pool) = pool.borrow_mut().take() {
                pool.stop();
            }
            live.set(0);
            running.set(false);
        }
    })
}

#[derive(PartialEq, Properties)]
struct PointsProps {
    points: Vec<Point>,
    /// The x axis's name with its unit.
    axis: String,
}

/// "12.34 %", exactly, with the learner's decimal separator ("12,34 %" in id and vi).
fn percent_text(m: &crate::i18n::Messages, count: u64, trials: u64) -> String {
    format!("{} %", m.decimal(&percent(count, trials, 2)))
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
                        <text x={(LEFT - 8).to_string()} y={(y(t) + 4).to_string()} text-anchor="end">{ format!("{} %", t / 10_000) }</text>
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
