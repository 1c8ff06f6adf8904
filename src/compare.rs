//! The compare view's four variants of one scenario (no protection, an idempotency key
//! only, fencing only, both), each a rewrite of the scenario plus the list of what it
//! changed, so the view can say in one line what differs.
//!
//! Pure: it rewrites scenarios and never runs the model (the view and the tests do).

use crate::catalogue::lesson::Scenario;
use crate::sim::scenario::{
    AcquireHow, Guard, KeyStrategy, Persistence, Step, TokenSource, Topology, WriteHow,
};

/// How a variant protects the order.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Protection {
    /// Writes carry no token and nothing is checked; payments carry no key.
    None,
    /// One idempotency key per order on the payment call; writes still unchecked.
    IdempotencyKey,
    /// Every write carries a token that grows with each grant, checked by the UPDATE.
    Fencing,
    /// Fencing and the per-order key.
    Both,
}

/// One thing a variant changed in the scenario, for the line under its heading.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Change {
    /// The lock still hands out tokens, but writes do not send them and have no fence
    /// condition (the grants' token badges stay in the drawing: the counter still counts).
    WritesUnfenced,
    /// No token exists (the scenario's lock hands out none) and writes have no fence
    /// condition.
    NoTokenNoFence,
    /// Every write carries its grant's token and the UPDATE requires `last_fence < token`.
    WritesFenced,
    /// Payment calls carry no idempotency key.
    NoKey,
    /// Payment calls carry one key per order.
    KeyPerOrder,
    /// Uploads replace the object without a precondition.
    PutUnconditional,
    /// The token comes from the acquire script's `INCR`, in the grant's own step (instead of
    /// a random UUID, a separate draw or a separate `INCR`).
    TokenFromScript,
    /// Redlock hands out no token: this variant draws one from a database sequence right
    /// after each grant.
    TokenFromSequence,
    /// The counter is kept on disk before each reply (`appendfsync always`), so a restart
    /// cannot hand out an old token again.
    CounterOnDisk,
    /// The variant asks for an idempotency key, but no step makes a payment call: the key
    /// has nothing to protect here (said, so the variant does not look like a mistake).
    KeyUnused,
}

/// One panel of the compare view: the protections whose rewrites make the same run, that
/// run's scenario, and what the rewrites changed. An idempotency key where nothing is
/// charged changes nothing, so "no protection" and "key only" share a panel there (and
/// "fencing" and "both"), said once rather than drawn twice.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// In [`Protection::ALL`]'s order; never empty.
    pub protections: Vec<Protection>,
    pub scenario: Scenario,
    /// What the first protection's rewrite changed, then what a folded-in one adds (its
    /// [`Change::KeyUnused`]).
    pub changes: Vec<Change>,
}

/// The compare view's panels for `original`: each protection's rewrite, a rewrite whose
/// setup equals an earlier one's folded into that panel.
pub fn variants(original: &Scenario) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for protection in Protection::ALL {
        let (scenario, changes) = protection.apply(original);
        match out.iter_mut().find(|v| v.scenario.setup == scenario.setup) {
            Some(same) => {
                same.protections.push(protection);
                for change in changes {
                    if !same.changes.contains(&change) {
                        same.changes.push(change);
                    }
                }
            }
            None => out.push(Variant { protections: vec![protection], scenario, changes }),
        }
    }
    out
}

impl Protection {
    pub const ALL: [Protection; 4] =
        [Protection::None, Protection::IdempotencyKey, Protection::Fencing, Protection::Both];

    /// The word used in links and test ids.
    pub fn word(self) -> &'static str {
        match self {
            Protection::None => "none",
            Protection::IdempotencyKey => "key",
            Protection::Fencing => "fence",
            Protection::Both => "both",
        }
    }

    /// The message key of the variant's heading.
    pub fn heading_key(self) -> &'static str {
        match self {
            Protection::None => "compare.none",
            Protection::IdempotencyKey => "compare.key",
            Protection::Fencing => "compare.fence",
            Protection::Both => "compare.both",
        }
    }

    fn fenced(self) -> bool {
        matches!(self, Protection::Fencing | Protection::Both)
    }

    fn keyed(self) -> bool {
        matches!(self, Protection::IdempotencyKey | Protection::Both)
    }

    /// The scenario rewritten for this variant, and what the rewrite changed (only what
    /// actually differs from the scenario as written).
    pub fn apply(self, original: &Scenario) -> (Scenario, Vec<Change>) {
        let mut s = original.clone();
        let mut changes = Vec::new();
        let mut note = |changed: bool, change: Change| {
            if changed && !changes.contains(&change) {
                changes.push(change);
            }
        };
        let unfenced = match s.setup.tokens {
            TokenSource::None => Change::NoTokenNoFence,
            _ => Change::WritesUnfenced,
        };
        if self.fenced() {
            note(make_tokens_trustworthy(&mut s), Change::TokenFromScript);
            if s.setup.redis.topology == Topology::Redlock
                && s.setup.tokens != TokenSource::PgSequence
            {
                s.setup.tokens = TokenSource::PgSequence;
                note(true, Change::TokenFromSequence);
            }
            let durable = s.setup.tokens == TokenSource::RedisIncr
                && s.setup.redis.persistence != Persistence::AofAlways
                && s.setup
                    .faults
                    .iter()
                    .any(|f| matches!(f, crate::sim::scenario::Fault::CrashNode { .. }));
            if durable {
                s.setup.redis.persistence = Persistence::AofAlways;
            }
            note(durable, Change::CounterOnDisk);
            note(s.setup.sql.guard != Guard::Lt, Change::WritesFenced);
            s.setup.sql.guard = Guard::Lt;
        } else {
            note(s.setup.sql.guard != Guard::None, unfenced);
            s.setup.sql.guard = Guard::None;
        }
        let key = if self.keyed() { KeyStrategy::PerOrder } else { KeyStrategy::None };
        for worker in &mut s.setup.workers {
            for steps in [&mut worker.program, &mut worker.on_rejected] {
                for step in steps.iter_mut() {
                    match step {
                        // A set-state write is idempotent by itself: no variant needs to change it.
                        Step::Write { how, .. } if *how != WriteHow::SetState => {
                            let wanted =
                                if self.fenced() { WriteHow::Fenced } else { WriteHow::Unfenced };
                            let change =
                                if self.fenced() { Change::WritesFenced } else { unfenced };
                            note(*how != wanted, change);
                            *how = wanted;
                        }
                        Step::Charge { key: current, .. } => {
                            let change =
                                if self.keyed() { Change::KeyPerOrder } else { Change::NoKey };
                            note(*current != key, change);
                            *current = key;
                        }
                        Step::PutObject { if_match, meta_fence } if self == Protection::None => {
                            note(*if_match, Change::PutUnconditional);
                            *if_match = false;
                            *meta_fence = false;
                        }
                        _ => {}
                    }
                }
            }
        }
        let charges = s.setup.workers.iter().any(|w| {
            w.program.iter().chain(&w.on_rejected).any(|step| matches!(step, Step::Charge { .. }))
        });
        note(self.keyed() && !charges, Change::KeyUnused);
        (s, changes)
    }
}

impl Change {
    /// The message key of the change's phrase.
    pub fn key(self) -> &'static str {
        match self {
            Change::WritesUnfenced => "compare.change.unfenced",
            Change::NoTokenNoFence => "compare.change.no_token",
            Change::WritesFenced => "compare.change.fenced",
            Change::NoKey => "compare.change.no_key",
            Change::KeyPerOrder => "compare.change.key",
            Change::PutUnconditional => "compare.change.put",
            Change::TokenFromScript => "compare.change.script",
            Change::TokenFromSequence => "compare.change.sequence",
            Change::CounterOnDisk => "compare.change.aof",
            Change::KeyUnused => "compare.change.key_unused",
        }
    }

    /// Every change, for the check that each has a message.
    pub const ALL: [Change; 10] = [
        Change::WritesUnfenced,
        Change::NoTokenNoFence,
        Change::WritesFenced,
        Change::NoKey,
        Change::KeyPerOrder,
        Change::PutUnconditional,
        Change::TokenFromScript,
        Change::TokenFromSequence,
        Change::CounterOnDisk,
        Change::KeyUnused,
    ];
}

/// Makes every grant carry an ordered token in its own step: a UUID or a separate draw
/// becomes the acquire script's `INCR`, and SET-then-INCR or INCR-then-SET becomes the
/// script. Returns whether anything changed. Redlock and a consensus lock keep theirs.
fn make_tokens_trustworthy(s: &mut Scenario) -> bool {
    let mut changed = false;
    if s.setup.redis.topology != Topology::Redlock
        && matches!(s.setup.tokens, TokenSource::Uuid | TokenSource::PgSequence | TokenSource::None)
    {
        s.setup.tokens = TokenSource::RedisIncr;
        changed = true;
    }
    for worker in &mut s.setup.workers {
        for steps in [&mut worker.program, &mut worker.on_rejected] {
            for step in steps.iter_mut() {
                if let Step::Acquire { how, .. } = step
                    && matches!(how, AcquireHow::SetThenIncr | AcquireHow::IncrThenSet)
                {
                    *how = AcquireHow::Script;
                    changed = true;
                }
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::{Change, Protection};
    use crate::catalogue;

    #[test]
    fn a_variant_lists_only_what_it_changed() {
        let scenario = catalogue::find("gc-pause-fenced").expect("built-in");
        let (_, changes) = Protection::Fencing.apply(&scenario);
        assert!(changes.is_empty(), "{changes:?}");
        let (fork, changes) = Protection::None.apply(&scenario);
        assert_eq!(changes, [Change::WritesUnfenced]);
        assert_eq!(fork.setup.sql.guard, crate::sim::scenario::Guard::None);
        let uuid = catalogue::find("uuid-as-token").expect("built-in");
        let (fork, changes) = Protection::Fencing.apply(&uuid);
        assert_eq!(fork.setup.tokens, crate::sim::scenario::TokenSource::RedisIncr);
        assert!(changes.contains(&Change::TokenFromScript), "{changes:?}");
        // A key asked for where nothing is charged is said to protect nothing here.
        let (_, changes) = Protection::IdempotencyKey.apply(&scenario);
        assert_eq!(changes, [Change::WritesUnfenced, Change::KeyUnused]);
        let charging = catalogue::find("stale-writer-idempotency-only").expect("built-in");
        let (_, changes) = Protection::IdempotencyKey.apply(&charging);
        assert!(!changes.contains(&Change::KeyUnused), "{changes:?}");
    }

    /// Issue 30, item 12: where nothing is charged the key changes nothing, so its panels
    /// fold into the unkeyed ones, and the folded runs are the same run.
    #[test]
    fn variants_that_make_the_same_run_share_a_panel() {
        use super::variants;
        use crate::sim;
        let words = |id: &str| -> Vec<Vec<&str>> {
            let scenario = catalogue::find(id).expect("built-in");
            variants(&scenario)
                .iter()
                .map(|v| v.protections.iter().map(|p| p.word()).collect())
                .collect()
        };
        assert_eq!(words("gc-pause-fenced"), [vec!["none", "key"], vec!["fence", "both"]]);
        assert_eq!(
            words("stale-writer-idempotency-only"),
            [vec!["none"], vec!["key"], vec!["fence"], vec!["both"]]
        );
        for scenario in catalogue::all() {
            for variant in variants(&scenario) {
                let run = sim::run(&variant.scenario.setup);
                for &p in &variant.protections {
                    let (fork, _) = p.apply(&scenario);
                    assert_eq!(
                        sim::run(&fork.setup).events(),
                        run.events(),
                        "{}: {}",
                        scenario.id,
                        p.word()
                    );
                }
                // "The lock still hands out a token, but writes do not send it": every
                // grant comes with a token (a run whose acquire script fails grants none)
                // and no write carries one; "no token exists": none anywhere.
                let (mut grants, mut tokens) = (0, 0);
                for event in run.events() {
                    match event.kind {
                        sim::EventKind::Granted { token } => {
                            grants += 1;
                            tokens += usize::from(token.is_some());
                        }
                        sim::EventKind::TokenDrawn { .. } => tokens += 1,
                        _ => {}
                    }
                }
                let sent = run.summary().writes.iter().any(|w| w.token.is_some());
                if variant.changes.contains(&Change::WritesUnfenced) {
                    assert!(tokens >= grants && !sent, "{}", scenario.id);
                }
                if variant.changes.contains(&Change::NoTokenNoFence) {
                    assert!(tokens == 0 && !sent, "{}", scenario.id);
                }
                // A folded panel says why (an upload's precondition can still tell "key
                // only" from "no protection" where nothing is charged: not folded there).
                if variant.protections.len() > 1 {
                    assert!(variant.changes.contains(&Change::KeyUnused), "{}", scenario.id);
                }
            }
        }
    }
}
