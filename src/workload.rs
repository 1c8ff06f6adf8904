//! Synthetic workloads for benchmarks: long runs built from the catalogue's building blocks.
//!
//! Pure scenario construction; it measures nothing itself (the bench harnesses do).

use crate::catalogue;
use crate::sim::Scenario;
use crate::sim::scenario::Step;

/// One worker that acquires, writes with its token and releases, `n` times in a row: every
/// grant hands the lock (and a fresh token) to the next critical section. `None` only if
/// the catalogue lost gc-pause-fenced (a native test keeps it).
pub fn handoff_workload(n: usize) -> Option<Scenario> {
    let mut scenario = catalogue::find("gc-pause-fenced")?;
    scenario.id = crate::sim::scenario::ScenarioId::literal("handoff-workload");
    scenario.faults.clear();
    scenario.narration.clear();
    scenario.expect = None;
    scenario.workers.truncate(1);
    let round: Vec<Step> = scenario.workers.first().map_or_else(Vec::new, |w| {
        w.program.iter().filter(|s| !matches!(s, Step::Compute { .. })).cloned().collect()
    });
    if let Some(worker) = scenario.workers.first_mut() {
        worker.program = round.iter().cycle().take(round.len() * n).cloned().collect();
    }
    scenario.until_ms = u64::MAX / 2;
    Some(scenario)
}

/// How many grants a trace holds (the benchmarks' count of lock hand-offs).
pub fn grants(trace: &crate::sim::Trace) -> usize {
    trace
        .events()
        .iter()
        .filter(|e| matches!(e.kind, crate::sim::EventKind::Granted { .. }))
        .count()
}
