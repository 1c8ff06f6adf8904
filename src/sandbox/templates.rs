//! What the builder starts from: the blank lesson, a copy's id, and a valid starting
//! point for each step and fault kind the "add" menus offer. It must not edit a scenario:
//! the editor reads these through the loader like any text.

use crate::catalogue::codec;
use crate::sim::scenario::ScenarioId;

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

/// A starting point for a new step of `kind`, valid as it stands.
pub fn step_template(kind: &str) -> String {
    match kind {
        "acquire" => r#"{"do":"acquire","ttl_ms":30000}"#.to_owned(),
        "wait-replicas" => r#"{"do":"wait-replicas","replicas":1,"timeout_ms":100}"#.to_owned(),
        "compute" | "sleep" => format!(r#"{{"do":"{kind}","ms":1000}}"#),
        "write" => r#"{"do":"write","status":"paid"}"#.to_owned(),
        other => format!(r#"{{"do":"{other}"}}"#),
    }
}

/// A starting point for a new fault of `kind` on `worker` / `node`, at `at_ms`.
pub fn fault_template(kind: &str, worker: &str, node: &str, at_ms: u64) -> String {
    match kind {
        "pause" => {
            format!(r#"{{"fault":"pause","worker":"{worker}","at_ms":{at_ms},"pause_ms":35000}}"#)
        }
        "hang" => {
            format!(r#"{{"fault":"hang","worker":"{worker}","at_ms":{at_ms},"hang_ms":35000}}"#)
        }
        "crash" => format!(r#"{{"fault":"crash","worker":"{worker}","at_ms":{at_ms}}}"#),
        "lose-reply" => format!(r#"{{"fault":"lose-reply","worker":"{worker}","step":0}}"#),
        "delay" => format!(
            r#"{{"fault":"delay","worker":"{worker}","at_ms":{at_ms},"window_ms":1000,"delay_ms":35000}}"#
        ),
        "crash-node" => format!(r#"{{"fault":"crash-node","node":"{node}","at_ms":{at_ms}}}"#),
        "clock-jump" => {
            format!(r#"{{"fault":"clock-jump","node":"{node}","at_ms":{at_ms},"jump_ms":30000}}"#)
        }
        "partition" => format!(
            r#"{{"fault":"partition","worker":"{worker}","node":"{node}","at_ms":{at_ms},"partition_ms":35000}}"#
        ),
        _ => format!(r#"{{"fault":"set-counter","at_ms":{at_ms},"value":"0"}}"#),
    }
}

/// Whether a fault of `kind` belongs on a Redis node's lane (else on a worker's).
pub fn fault_on_node(kind: &str) -> bool {
    matches!(kind, "crash-node" | "clock-jump" | "set-counter")
}

/// The kinds offered in the "add" menus.
pub fn step_kinds() -> Vec<&'static str> {
    codec::steps()
}

pub fn fault_kinds() -> Vec<&'static str> {
    codec::faults()
}
