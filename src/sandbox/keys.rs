//! The message keys the builder's form builds from the format's names, so the packs'
//! native test can demand every one. It must not invent a name: each comes from the
//! format's own tables.

use super::Setting;
use crate::catalogue::codec;

/// Every message key the sandbox's form builds from the format's names (labels and help of
/// members, step kinds and fault kinds, the settings' words), for the packs' native test.
pub fn message_keys() -> Vec<String> {
    use crate::sim::scenario::{FaultKind, StepKind, Word};
    // The members come from the format's own tables (each step's and each fault's), so a
    // member added to the format is a key the packs must have, not one a list forgot.
    let mut members: Vec<&str> = Vec::new();
    let step_members = StepKind::WORDS.iter().flat_map(|(_, k)| k.members());
    let fault_members = FaultKind::WORDS.iter().flat_map(|(_, k)| k.members());
    for m in step_members.chain(fault_members).copied().chain(["guard", "tokens"]) {
        if !matches!(m, "do" | "fault") && !members.contains(&m) {
            members.push(m);
        }
    }
    let mut keys = Vec::new();
    for m in members {
        keys.push(format!("sandbox.member.{m}"));
        keys.push(format!("sandbox.help.{m}"));
    }
    for k in codec::steps() {
        keys.push(format!("sandbox.step.{k}"));
        keys.push(format!("sandbox.help.step.{k}"));
    }
    keys.extend(codec::faults().iter().map(|k| format!("sandbox.fault.{k}")));
    for (setting, name) in [(Setting::Guard, "guard"), (Setting::Tokens, "tokens")] {
        keys.extend(setting.words().iter().map(|w| format!("sandbox.word.{name}.{w}")));
    }
    keys
}
