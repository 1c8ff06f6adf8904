//! Verdicts in plain words: each safety violation of a run as a sentence a learner reads
//! ("A's stale write (token 33) replaced B's newer one (token 34)"), with the property's
//! name kept as a secondary detail.
//!
//! Pure: it reads a finished trace (the checker's notes and causes) and never runs the model.

use crate::sim::{Actor, EventKind, Trace};

/// One violation, ready to be put into words: the message key of its sentence, the values
/// for its placeholders, and the property it broke.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Plain {
    pub key: String,
    pub args: Vec<(&'static str, String)>,
    pub property: &'static str,
}

/// Every violation of the run, in trace order, without repeating an identical sentence.
pub fn plain(trace: &Trace) -> Vec<Plain> {
    let mut out: Vec<Plain> = Vec::new();
    for event in trace.events() {
        let EventKind::Violation { property, .. } = &event.kind else { continue };
        let mut args = event.note.args.clone();
        // A stale write replaced someone's newer one: name that someone (the writer of the
        // first cause, the newer accepted write).
        if event.note.key == "sim.stale_token"
            && let Some(newer) = event.causes.first().and_then(|&c| trace.events().get(c as usize))
            && let Some(worker @ Actor::Worker(_)) = newer.peer
        {
            args.push(("newer", trace.actor_name(worker).to_owned()));
        }
        let key = match (event.note.key, args.iter().any(|(k, _)| *k == "newer")) {
            ("", _) => format!("verdict.property.{}", property.name()),
            ("sim.stale_token", false) => "verdict.sim.stale_token_alone".to_owned(),
            (note, _) => format!("verdict.{note}"),
        };
        let plain = Plain { key, args, property: property.name() };
        if !out.contains(&plain) {
            out.push(plain);
        }
    }
    out
}

/// The message keys `plain` can produce (for the check that each has a message).
pub const KEYS: &[&str] = &[
    "verdict.sim.stale_token",
    "verdict.sim.stale_token_alone",
    "verdict.sim.stale_lease",
    "verdict.sim.stale_holder",
    "verdict.sim.stale_holder_plain",
    "verdict.sim.token_unique",
    "verdict.sim.token_order",
    "verdict.sim.owner_only_del",
    "verdict.sim.owner_only_pexpire",
    "verdict.sim.owner_only_release",
    "verdict.sim.owner_only_renew",
    "verdict.sim.one_writer",
    "verdict.sim.paid_once",
    "verdict.sim.effect_once",
];

/// How many workers gave up without doing their work: a bad end even without a violation.
pub fn gave_up(trace: &Trace) -> usize {
    trace.events().iter().filter(|e| e.kind == EventKind::GaveUp).count()
}

#[cfg(test)]
mod tests {
    use crate::{catalogue, sim};

    #[test]
    fn a_stale_write_names_both_writers() {
        let trace = sim::run(&catalogue::find("gc-pause-unfenced").expect("built-in").setup);
        let plain = super::plain(&trace);
        assert_eq!(plain.len(), 1);
        assert_eq!(plain[0].key, "verdict.sim.stale_token");
        assert_eq!(plain[0].property, "no-stale-accept");
        let arg = |k: &str| plain[0].args.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
        assert_eq!(arg("worker").as_deref(), Some("A"));
        assert_eq!(arg("newer").as_deref(), Some("B"));
        assert_eq!(arg("token").as_deref(), Some("33"));
    }

    #[test]
    fn every_violation_of_every_builtin_has_a_sentence() {
        for scenario in catalogue::all() {
            for p in super::plain(&sim::run(&scenario.setup)) {
                assert!(super::KEYS.contains(&p.key.as_str()), "{}: {}", scenario.id, p.key);
            }
        }
    }
}
