//! Simulator benchmark: prints numbers, asserts nothing (`cargo bench --bench sim`).
//!
//! Reports, natively: the time to run each built-in scenario with frames (what the player
//! does), events per second, lock hand-offs per second on a long hand-off workload, and
//! the size and cost of the timeline's drawing for the longest built-in and for a run cut
//! short at the event limit (what the page parses on every seek).

use std::hint::black_box;
use std::time::{Duration, Instant};

use fencing_playground::catalogue;
use fencing_playground::catalogue::lesson::Scenario;
use fencing_playground::sim;

fn main() {
    println!("built-in scenarios (sim::run with frames), median of 201 runs:");
    let mut longest: Option<(String, usize, Duration)> = None;
    for scenario in catalogue::all() {
        let (median, n_events) = median_run(&scenario, 201);
        println!("  {:<32} {:>5} events  {:>9.1} us", scenario.id, n_events, micros(median));
        if longest.as_ref().is_none_or(|(_, n, _)| n_events > *n) {
            longest = Some((scenario.id.to_string(), n_events, median));
        }
    }
    if let Some((id, n, t)) = longest {
        println!("longest built-in: {id} ({n} events) in {:.1} us", micros(t));
    }

    let handoffs = 20_000;
    let scenario = fencing_playground::workload::handoff_workload(handoffs);
    // Two ways to run it: with every event's text (what the CLI and exports keep), and as
    // bare facts (what the risk explorer's trials run; same facts, no prose).
    for (mode, run) in [
        ("with text (run_events_only)", sim::run_events_only as fn(&sim::Setup) -> sim::Trace),
        ("facts only (run_facts)     ", sim::run_facts),
    ] {
        // The median of 9 runs: the machine is shared and single runs vary by a third.
        let mut runs: Vec<(f64, usize, usize)> = (0..9)
            .map(|_| {
                let start = Instant::now();
                let trace = run(black_box(&scenario));
                let grants = fencing_playground::workload::grants(&trace);
                (start.elapsed().as_secs_f64(), trace.len(), grants)
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (elapsed, events, grants) = runs[runs.len() / 2];
        println!(
            "hand-off workload, {mode}: {grants} grants ({events} events) in {:.1} ms (median of 9): {:.0} events/s, {:.0} lock hand-offs/s (target 1,000,000)",
            elapsed * 1e3,
            events as f64 / elapsed,
            grants as f64 / elapsed
        );
    }

    let longest = catalogue::all().into_iter().max_by_key(|s| sim::run(&s.setup).len());
    if let Some(scenario) = longest {
        drawing(&format!("longest built-in ({})", scenario.id), &scenario);
    }
    // A watchdog renewing every millisecond for a day: cut short at the event limit.
    let cut = fencing_playground::catalogue::load::parse_scenario(CUT_SHORT)
        .expect("the benchmark's scenario is valid");
    drawing("a run cut short at the event limit", &cut);
}

const CUT_SHORT: &str = r#"{"format": 1, "id": "cut-short", "title": "Cut short", "chapter": "Test", "summary": "s", "goal": "g", "seed": 1, "until_ms": 86400000,
 "redis": {"nodes": [{"name": "redis"}], "lock_key": "lock:order:42", "fence_key": "fence:order:42"},
 "sql": {"order_id": 42, "amount": 100, "guard": "lt"},
 "workers": [{"name": "A", "start_ms": 0, "program": [{"do": "acquire", "ttl_ms": 30000}, {"do": "watchdog", "interval_ms": 1}, {"do": "compute", "ms": 86000000}, {"do": "write", "status": "paid"}, {"do": "release"}]}],
 "faults": []}"#;

/// The drawing's text for one trace at its last event: elements, bytes, and the median
/// time of building the layout and formatting the text (the page parses what this gives).
fn drawing(name: &str, scenario: &Scenario) {
    use fencing_playground::timeline::{self, svg};
    let trace = sim::run(&scenario.setup);
    let mut times = Vec::new();
    let mut text = String::new();
    for _ in 0..9 {
        let start = Instant::now();
        let layout = timeline::build(black_box(&trace));
        let view =
            svg::View { cursor: trace.len(), time_ms: trace.end_ms(), ..svg::View::default() };
        text = svg::render(&trace, &layout, &view).into_string();
        times.push(start.elapsed());
    }
    times.sort_unstable();
    let elements = text.matches('<').count() - text.matches("</").count();
    println!(
        "timeline drawing, {name}: {} events, {elements} elements, {} bytes, {:.0} us to lay out and write (median of 9)",
        trace.len(),
        text.len(),
        micros(times[4])
    );
}

fn median_run(scenario: &Scenario, n: usize) -> (Duration, usize) {
    let mut times = Vec::with_capacity(n);
    let mut n_events = 0;
    for _ in 0..n {
        let start = Instant::now();
        let trace = sim::run(black_box(&scenario.setup));
        times.push(start.elapsed());
        n_events = trace.len();
    }
    times.sort_unstable();
    (times[n / 2], n_events)
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
