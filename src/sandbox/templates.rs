//! What the builder starts from: the blank lesson, a copy's id, and a valid starting
//! point for each step and fault kind the "add" menus offer. It must not edit a scenario:
//! the editor reads these through the loader like any text.

use crate::sim::scenario::{FaultKind, ScenarioId, StepKind, Word};

/// The scenario a lesson starts from when the author wants nothing of the built-ins: one
/// worker that takes the lock with a token (trying for the whole run while another holds
/// it), writes with it and releases, against one Redis and the fenced order row. Every
/// text is a placeholder the form flags.
pub const BLANK: &str = r#"{"format":1,"id":"my-lesson","title":"My lesson","summary":"What this lesson shows, in one or two sentences.","goal":"What the learner should be able to explain afterwards.","seed":1,"until_ms":60000,"redis":{"nodes":[{"name":"redis"}],"lock_key":"lock:order:42","fence_key":"fence:order:42"},"sql":{"order_id":42,"last_fence":0},"workers":[{"name":"A","program":[{"do":"acquire","ttl_ms":30000,"attempts":60},{"do":"compute","ms":1000},{"do":"write","status":"paid"},{"do":"release"}]}]}"#;

/// The blank lesson's id.
pub(super) const BLANK_ID: &str = "my-lesson";

/// A copy's id: the original's with `-copy` (an id is at most 64 characters).
pub(super) fn copy_id(id: &ScenarioId) -> ScenarioId {
    if id.ends_with("-copy") {
        return id.clone();
    }
    let stem: String = id.chars().take(64 - "-copy".len()).collect();
    // A valid id's first 59 bytes, without trailing dashes, plus `-copy` is valid again.
    ScenarioId::parse(&format!("{}-copy", stem.trim_end_matches('-'))).unwrap_or_else(|| id.clone())
}

/// A starting point for a new step of `kind`, valid as it stands: the kinds with members
/// the format requires get them, the others are the kind alone (a native test loads every
/// kind's template, so a kind added with a required member fails it until it has one here).
pub fn step_template(kind: StepKind) -> String {
    let word = kind.word();
    match kind {
        StepKind::Acquire => format!(r#"{{"do":"{word}","ttl_ms":30000}}"#),
        StepKind::WaitReplicas => format!(r#"{{"do":"{word}","replicas":1,"timeout_ms":100}}"#),
        StepKind::Compute | StepKind::Sleep => format!(r#"{{"do":"{word}","ms":1000}}"#),
        StepKind::Write => format!(r#"{{"do":"{word}","status":"paid"}}"#),
        _ => format!(r#"{{"do":"{word}"}}"#),
    }
}

/// A starting point for a new fault of `kind` on `worker` / `node`, at `at_ms`: one per
/// kind (the match has no default, so a kind added to the format needs one here).
pub fn fault_template(kind: FaultKind, worker: &str, node: &str, at_ms: u64) -> String {
    let word = kind.word();
    match kind {
        FaultKind::Pause => {
            format!(r#"{{"fault":"{word}","worker":"{worker}","at_ms":{at_ms},"pause_ms":35000}}"#)
        }
        FaultKind::Hang => {
            format!(r#"{{"fault":"{word}","worker":"{worker}","at_ms":{at_ms},"hang_ms":35000}}"#)
        }
        FaultKind::Crash => format!(r#"{{"fault":"{word}","worker":"{worker}","at_ms":{at_ms}}}"#),
        FaultKind::LoseReply => format!(r#"{{"fault":"{word}","worker":"{worker}","step":0}}"#),
        FaultKind::Delay => format!(
            r#"{{"fault":"{word}","worker":"{worker}","at_ms":{at_ms},"window_ms":1000,"delay_ms":35000}}"#
        ),
        FaultKind::CrashNode => format!(r#"{{"fault":"{word}","node":"{node}","at_ms":{at_ms}}}"#),
        FaultKind::ClockJump => {
            format!(r#"{{"fault":"{word}","node":"{node}","at_ms":{at_ms},"jump_ms":30000}}"#)
        }
        FaultKind::Partition => format!(
            r#"{{"fault":"{word}","worker":"{worker}","node":"{node}","at_ms":{at_ms},"partition_ms":35000}}"#
        ),
        FaultKind::SetCounter => format!(r#"{{"fault":"{word}","at_ms":{at_ms},"value":"0"}}"#),
    }
}

/// Whether a fault of `kind` belongs on a Redis node's lane (else on a worker's).
pub fn fault_on_node(kind: FaultKind) -> bool {
    match kind {
        FaultKind::CrashNode | FaultKind::ClockJump | FaultKind::SetCounter => true,
        FaultKind::Pause
        | FaultKind::Hang
        | FaultKind::Crash
        | FaultKind::LoseReply
        | FaultKind::Delay
        | FaultKind::Partition => false,
    }
}

/// The kinds offered in the "add" menus.
pub fn step_kinds() -> Vec<StepKind> {
    StepKind::WORDS.iter().map(|(_, kind)| *kind).collect()
}

pub fn fault_kinds() -> Vec<FaultKind> {
    FaultKind::WORDS.iter().map(|(_, kind)| *kind).collect()
}
