//! Reading scenario files: untrusted JSON in, a checked [`Scenario`] or a clear error out.
//!
//! Owns every rule a file must satisfy beyond its shape (names that exist, limits that keep
//! a run small). It never panics on any input, and it does not run the model.

use crate::catalogue::codec::{self, LoadError};
use crate::catalogue::lesson::Scenario;
use crate::sim::Setup;
use crate::sim::scenario::{AcquireHow, Fault, ReleaseHow, RenewHow, Step, TokenSource, Topology};

/// The newest file format this build reads.
pub const FORMAT: u32 = 1;

/// Limits that keep one run small enough for a browser tab.
pub const BYTES_MAX: usize = 256 * 1024;
pub const WORKERS_MAX: usize = 8;
pub const NODES_MAX: usize = 7;
pub const STEPS_MAX: usize = 200;
pub const FAULTS_MAX: usize = 100;
pub const UNTIL_MS_MAX: u64 = 24 * 3_600_000;

/// Reads a baked lesson (`codec::lesson_bytes`) and checks it as a file is checked.
pub fn read_lesson(bytes: &[u8]) -> Result<Scenario, LoadError> {
    let scenario = codec::decode_lesson(bytes)?;
    // The same rules as a file's, unworded: a baked lesson that breaks one was damaged on
    // its way here, and the loader's wording of each rule would cost the first page its
    // download.
    check(&scenario).map_err(|_| LoadError {
        path: "$".to_owned(),
        line: 0,
        column: 0,
        message: "the lesson breaks a rule of the format; reload the page".to_owned(),
    })?;
    Ok(scenario)
}

/// Parses and checks one scenario file.
pub fn parse_scenario(text: &str) -> Result<Scenario, LoadError> {
    if text.len() > BYTES_MAX {
        return Err(whole(format!(
            "the file is {} bytes; a scenario may have at most {BYTES_MAX}",
            text.len()
        )));
    }
    // A file of another version gets a useful message, not a field error: when the full
    // read fails or finds a version this build does not read, the head is read for its
    // version alone (a second pass only then, not on every load of a good file).
    #[derive(serde::Deserialize)]
    struct Head {
        #[allow(dead_code)] // read for its check only
        format: Option<Version>,
    }
    let read = codec::read_scenario(text);
    if !matches!(&read, Ok(s) if (1..=FORMAT).contains(&s.format))
        && let Err(error) = codec::from_json::<Head>(text, "$")
        && error.path == "$.format"
    {
        return Err(error);
    }
    let scenario = read?;
    validate(&scenario)?;
    Ok(scenario)
}

/// A `format` this build reads: refused while reading, so the refusal has its position.
struct Version;

impl<'de> serde::Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(from: D) -> Result<Version, D::Error> {
        use serde::de::Error;
        match u64::deserialize(from)? {
            n if n > u64::from(FORMAT) => Err(D::Error::custom(format!(
                "this file uses format {n}, but this playground reads format {FORMAT}; open it with a newer version of the playground"
            ))),
            0 => Err(D::Error::custom(format!("expected the format version {FORMAT}"))),
            _ => Ok(Version),
        }
    }
}

/// Checks what the JSON shape cannot: names refer to something, sizes stay bounded.
pub fn validate(scenario: &Scenario) -> Result<(), LoadError> {
    check(scenario).and_then(|()| faithful(&scenario.setup)).map_err(|problem| problem.error())
}

/// What keeps a run safe and small, without the words: which such rule a scenario breaks.
/// The first page checks its baked lessons with it and never shows the wording (a lesson
/// that breaks a rule was damaged on the way), so the messages stay out of its bundle;
/// whether the model runs the setup faithfully ([`validate`]'s other half) was settled when
/// the lesson was baked.
pub fn check(scenario: &Scenario) -> Result<(), Problem> {
    check_setup(&scenario.setup)?;
    for (i, prompt) in scenario.prompts.iter().enumerate() {
        if prompt.options.len() < 2 || prompt.answer >= prompt.options.len() {
            return Err(Problem::Prompt(i));
        }
    }
    Ok(())
}

/// The model's half of [`validate`]: every name a fault gives is a worker or node of the
/// setup, sizes stay bounded, and the setup is one the model runs faithfully. Paths are
/// those of the scenario file, whose top level holds the setup's members.
pub fn validate_setup(setup: &Setup) -> Result<(), LoadError> {
    check_setup(setup).and_then(|()| faithful(setup)).map_err(|problem| problem.error())
}

/// Whether the model runs the setup faithfully: Redlock needs a majority of three or more,
/// and a consensus store is the model's only where it is modelled.
fn faithful(setup: &Setup) -> Result<(), Problem> {
    if setup.redis.topology == Topology::Redlock && setup.redis.nodes.len() < 3 {
        return Err(Problem::RedlockNodes);
    }
    if setup.tokens == TokenSource::Consensus {
        consensus_fits(setup)?;
    }
    Ok(())
}

/// A rule of the format a scenario breaks, with the indices that locate it; [`Problem::error`]
/// words it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Problem {
    UntilMs,
    Nodes,
    RedlockNodes,
    AlertWindow,
    AlertShare,
    NodeName(usize),
    ClockOffset(usize),
    Workers,
    WorkerName(usize),
    Steps(usize, List),
    ZeroTtl(usize, List, usize),
    Faults,
    NoWorker(usize),
    NoNode(usize),
    Prompt(usize),
    ConsensusNodes,
    ConsensusAcquire(usize, List, usize),
    ConsensusRelease(usize, List, usize),
    ConsensusRenew(usize, List, usize),
    ConsensusFault(usize),
}

/// A worker's two step lists.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum List {
    Program,
    OnRejected,
}

impl List {
    fn name(self) -> &'static str {
        match self {
            List::Program => "program",
            List::OnRejected => "on_rejected",
        }
    }
}

impl Problem {
    /// The refusal as the loader reports it: where, and what was expected.
    pub fn error(self) -> LoadError {
        let step = |i: usize, list: List, j: usize| format!("$.workers[{i}].{}[{j}]", list.name());
        let unique = "expected a unique name of 1 to 16 letters, digits, '-' or '_'";
        let (path, message): (String, String) = match self {
            Problem::UntilMs => {
                ("$.until_ms".into(), format!("expected 1 to {UNTIL_MS_MAX} ms (24 hours)"))
            }
            Problem::Nodes => ("$.redis.nodes".into(), format!("expected 1 to {NODES_MAX} nodes")),
            Problem::RedlockNodes => ("$.redis.nodes".into(), "Redlock needs at least 3 nodes".into()),
            Problem::AlertWindow => ("$.alert.window_ms".into(), "expected 1 ms to 24 hours".into()),
            Problem::AlertShare => {
                ("$.alert.share_pct".into(), "expected a percentage from 1 to 100".into())
            }
            Problem::NodeName(i) => (format!("$.redis.nodes[{i}].name"), unique.into()),
            Problem::ClockOffset(i) => (
                format!("$.redis.nodes[{i}].clock_offset_ms"),
                "expected at most 24 hours either way".into(),
            ),
            Problem::Workers => ("$.workers".into(), format!("expected 1 to {WORKERS_MAX} workers")),
            Problem::WorkerName(i) => (format!("$.workers[{i}].name"), unique.into()),
            Problem::Steps(i, list) => (
                format!("$.workers[{i}].{}", list.name()),
                format!("expected at most {STEPS_MAX} steps"),
            ),
            Problem::ZeroTtl(i, list, j) => {
                (format!("{}.ttl_ms", step(i, list, j)), "a lock needs a positive TTL".into())
            }
            Problem::Faults => ("$.faults".into(), format!("expected at most {FAULTS_MAX} faults")),
            Problem::NoWorker(i) => (format!("$.faults[{i}].worker"), "no such worker".into()),
            Problem::NoNode(i) => (format!("$.faults[{i}].node"), "no such node".into()),
            Problem::Prompt(i) => (
                format!("$.prompts[{i}]"),
                "a prompt needs at least two options and an answer among them".into(),
            ),
            Problem::ConsensusNodes => (
                "$.redis.nodes".into(),
                "with \"tokens\": \"consensus\" the lock lives in one consensus store: list exactly one node".into(),
            ),
            Problem::ConsensusAcquire(i, list, j) => (
                format!("{}.how", step(i, list, j)),
                "a consensus lock grants its token with the lock: use the default \"how\": \"script\"".into(),
            ),
            Problem::ConsensusRelease(i, list, j) => (
                format!("{}.how", step(i, list, j)),
                "a consensus lock is released by a transaction that compares the value: use \"how\": \"script\"".into(),
            ),
            Problem::ConsensusRenew(i, list, j) => (
                format!("{}.how", step(i, list, j)),
                "a consensus lock is renewed by a transaction that compares the value: use \"how\": \"script\"".into(),
            ),
            Problem::ConsensusFault(i) => (
                format!("$.faults[{i}]"),
                "the consensus store is modelled as available and durable: crash-node, clock-jump and set-counter do not apply to it".into(),
            ),
        };
        LoadError { path, line: 0, column: 0, message }
    }
}

/// [`validate_setup`]'s bounds without the words (see [`check`]).
pub fn check_setup(setup: &Setup) -> Result<(), Problem> {
    if setup.until_ms == 0 || setup.until_ms > UNTIL_MS_MAX {
        return Err(Problem::UntilMs);
    }
    let nodes = &setup.redis.nodes;
    if nodes.is_empty() || nodes.len() > NODES_MAX {
        return Err(Problem::Nodes);
    }
    if let Some(rule) = setup.alert {
        if rule.window_ms == 0 || rule.window_ms > UNTIL_MS_MAX {
            return Err(Problem::AlertWindow);
        }
        if rule.share_pct == 0 || rule.share_pct > 100 {
            return Err(Problem::AlertShare);
        }
    }
    for (i, node) in nodes.iter().enumerate() {
        if !is_name(&node.name) || nodes[..i].iter().any(|n| n.name == node.name) {
            return Err(Problem::NodeName(i));
        }
        if node.clock_offset_ms.unsigned_abs() > UNTIL_MS_MAX {
            return Err(Problem::ClockOffset(i));
        }
    }
    let workers = &setup.workers;
    if workers.is_empty() || workers.len() > WORKERS_MAX {
        return Err(Problem::Workers);
    }
    for (i, worker) in workers.iter().enumerate() {
        if !is_name(&worker.name) || workers[..i].iter().any(|w| w.name == worker.name) {
            return Err(Problem::WorkerName(i));
        }
        for (list, steps) in lists(worker) {
            if steps.len() > STEPS_MAX {
                return Err(Problem::Steps(i, list));
            }
            for (j, step) in steps.iter().enumerate() {
                if let Step::Acquire { ttl_ms: 0, .. } = step {
                    return Err(Problem::ZeroTtl(i, list, j));
                }
            }
        }
    }
    if setup.faults.len() > FAULTS_MAX {
        return Err(Problem::Faults);
    }
    // The loader resolved the file's names; a setup built in code (the explorer's trial,
    // the builder's edits) is held to the same: every id is one of its workers or nodes.
    for (i, fault) in setup.faults.iter().enumerate() {
        if fault.worker().is_some_and(|w| w.index() >= workers.len()) {
            return Err(Problem::NoWorker(i));
        }
        if fault.node().is_some_and(|n| n.index() >= nodes.len()) {
            return Err(Problem::NoNode(i));
        }
    }
    Ok(())
}

fn lists(worker: &crate::sim::scenario::WorkerSetup) -> [(List, &Vec<Step>); 2] {
    [(List::Program, &worker.program), (List::OnRejected, &worker.on_rejected)]
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 16
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn whole(message: String) -> LoadError {
    LoadError { path: "$".to_owned(), line: 0, column: 0, message }
}

#[cfg(test)]
mod tests;

/// `"tokens": "consensus"` puts the lock itself in one linearizable store (etcd-like), whose
/// grant returns the revision as the token. The model keeps that store available and durable
/// (losing a revision would take a majority of its members) and does not simulate its own
/// elections, so it refuses what would pretend otherwise.
fn consensus_fits(setup: &Setup) -> Result<(), Problem> {
    if setup.redis.topology != Topology::Replicated || setup.redis.nodes.len() != 1 {
        return Err(Problem::ConsensusNodes);
    }
    for (i, worker) in setup.workers.iter().enumerate() {
        for (list, steps) in lists(worker) {
            for (j, step) in steps.iter().enumerate() {
                match step {
                    Step::Acquire { how, .. } if *how != AcquireHow::Script => {
                        return Err(Problem::ConsensusAcquire(i, list, j));
                    }
                    Step::Release { how } if *how != ReleaseHow::Script => {
                        return Err(Problem::ConsensusRelease(i, list, j));
                    }
                    Step::Watchdog { how, .. } if *how != RenewHow::Script => {
                        return Err(Problem::ConsensusRenew(i, list, j));
                    }
                    _ => {}
                }
            }
        }
    }
    for (i, fault) in setup.faults.iter().enumerate() {
        if matches!(
            fault,
            Fault::CrashNode { .. } | Fault::ClockJump { .. } | Fault::SetCounter { .. }
        ) {
            return Err(Problem::ConsensusFault(i));
        }
    }
    Ok(())
}
