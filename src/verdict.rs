//! Verdicts in plain words: each safety violation of a run as a sentence a learner reads
//! ("A's stale write (token 33) replaced B's newer one (token 34)"), with the property's
//! name kept as a secondary detail.
//!
//! Pure: it reads a finished trace (the checker's notes and causes) and never runs the model.

use crate::sim::{Actor, EventKind, Property, Trace};

/// One violation, ready to be put into words: the message key of its sentence, the values
/// for its placeholders, the property it broke and what breaking it did.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Plain {
    pub key: String,
    pub args: Vec<(&'static str, String)>,
    pub property: &'static str,
    pub harm: Harm,
}

/// What a broken property did to the data. A learner asks "was anything damaged?" before
/// "which rule broke?": a duplicate token that only one worker used is a hazard, not a
/// double write.
#[derive(Clone, Copy, Debug, Eq, Ord, PartialEq, PartialOrd)]
pub enum Harm {
    /// The lock or the tokens broke a rule (a token given out twice or out of order, a
    /// lock deleted or extended by a worker that did not own it) and no write or charge
    /// broke one: nothing was damaged in this run.
    Hazard,
    /// A write or a charge broke a rule about the data: a stale write accepted, two
    /// writers with one token, an order paid or charged twice.
    Damage,
}

impl Harm {
    /// What breaking `property` does.
    pub fn of(property: Property) -> Harm {
        match property {
            Property::TokenUnique | Property::TokenOrder | Property::OwnerOnly => Harm::Hazard,
            Property::NoStaleAccept
            | Property::NoStaleHolder
            | Property::OneWriterPerToken
            | Property::PaidOnce
            | Property::EffectOnce => Harm::Damage,
        }
    }
}

/// The worst harm of the run: `None` when it broke nothing.
pub fn worst(trace: &Trace) -> Option<Harm> {
    trace
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Violation { property, .. } => Some(Harm::of(*property)),
            _ => None,
        })
        .max()
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
            && let Some(newer) = event.causes.first().and_then(|&c| trace.events().get(c.index()))
            && let Some(worker @ Actor::Worker(_)) = newer.peer
        {
            args.push(("newer", trace.actor_name(worker).to_owned()));
        }
        let key = match (event.note.key, args.iter().any(|(k, _)| *k == "newer")) {
            ("", _) => format!("verdict.property.{}", property.name()),
            ("sim.stale_token", false) => "verdict.sim.stale_token_alone".to_owned(),
            (note, _) => format!("verdict.{note}"),
        };
        let plain = Plain { key, args, property: property.name(), harm: Harm::of(*property) };
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

    /// Every built-in's verdict sorts each broken property into damage or hazard, and a
    /// run called a hazard has no stale or double write and no double charge.
    #[test]
    fn a_hazard_verdict_means_no_write_broke_a_data_rule() {
        let mut hazards = 0;
        for scenario in catalogue::all() {
            let trace = sim::run(&scenario.setup);
            if super::worst(&trace) == Some(super::Harm::Hazard) {
                hazards += 1;
                let summary = trace.summary();
                let mut tokens: Vec<_> =
                    summary.writes.iter().filter(|w| w.rows.matched()).map(|w| w.token).collect();
                let n = tokens.len();
                tokens.dedup();
                assert_eq!(tokens.len(), n, "{}: two accepted writes with one token", scenario.id);
                assert!(summary.charges <= 1, "{}: charged {} times", scenario.id, summary.charges);
            }
        }
        assert!(hazards >= 2, "the built-ins show {hazards} hazard-only runs");
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
