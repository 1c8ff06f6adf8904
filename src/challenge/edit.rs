//! The changes a challenge may make to a design's programs that the what-if panel has no
//! knob for: where the token comes from, what a short `WAIT` does, how a lock is released
//! or renewed, what each write and read checks, a lease check or a claim inserted into
//! every program, how objects are put. Pure rewrites of a `Setup`; they never run it.

use crate::sim::scenario::{
    Compare, OnShort, ReleaseHow, RenewHow, Setup, StatusCheck, Step, TokenSource, Word, WriteHow,
};

/// One edit, as a challenge file names it (`"release": "script"`).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Edit {
    /// `tokens`: where every grant's token comes from.
    Tokens(TokenSource),
    /// `on-short`: what every `WAIT` does when fewer replicas acknowledged.
    OnShort(OnShort),
    /// `release`: how every release deletes the lock.
    Release(ReleaseHow),
    /// `renew`: how every watchdog extends the lease.
    Renew(RenewHow),
    /// `status-check`: whether fenced writes also require `status = 'pending'`.
    StatusCheck(StatusCheck),
    /// `write`: how every write but a bare status change is sent.
    Write(WriteHow),
    /// `read`: whether every read compares the token in the application.
    Read(Compare),
    /// `check-lease`: `before-write`, a `GET` of the lock before every write.
    CheckLease,
    /// `claim`: `after-grant`, a fenced `UPDATE` to 'processing' right after every grant
    /// (the new holder writes first).
    Claim,
    /// `put`: `if-match` or `if-match-fence` for every upload of the shared object (the
    /// second with the token in the metadata, compared after the `HEAD` before it).
    Put(Put),
    /// `faults`: `none`, the design without the lesson's own faults (for a challenge that
    /// has the learner place them).
    NoFaults,
}

#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Put {
    IfMatch,
    IfMatchFence,
}

/// The names an edit goes by, for error messages and the docs.
pub(super) const NAMES: [&str; 11] = [
    "tokens",
    "on-short",
    "release",
    "renew",
    "status-check",
    "write",
    "read",
    "check-lease",
    "claim",
    "put",
    "faults",
];

impl Edit {
    /// The edit `name` = `value` spells: `None` if `name` is not an edit's (it may be a
    /// what-if knob), `Some(Err)` if the value is not one it takes.
    pub fn parse(name: &str, value: &str) -> Option<Result<Edit, String>> {
        fn word<T: Word>(value: &str, make: fn(T) -> Edit) -> Result<Edit, String> {
            T::from_word(value)
                .map(make)
                .ok_or_else(|| format!("not one of {}", T::words().join(", ")))
        }
        let only = |expected: &str, edit: Edit| {
            if value == expected { Ok(edit) } else { Err(format!("not {expected}")) }
        };
        Some(match name {
            "tokens" => word(value, Edit::Tokens),
            "on-short" => word(value, Edit::OnShort),
            "release" => word(value, Edit::Release),
            "renew" => word(value, Edit::Renew),
            "status-check" => word(value, Edit::StatusCheck),
            "write" => word(value, Edit::Write),
            "read" => word(value, Edit::Read),
            "check-lease" => only("before-write", Edit::CheckLease),
            "claim" => only("after-grant", Edit::Claim),
            "faults" => only("none", Edit::NoFaults),
            "put" => match value {
                "if-match" => Ok(Edit::Put(Put::IfMatch)),
                "if-match-fence" => Ok(Edit::Put(Put::IfMatchFence)),
                _ => Err("not one of if-match, if-match-fence".to_owned()),
            },
            _ => return None,
        })
    }

    /// The design with this edit made.
    pub fn apply(self, setup: &mut Setup) {
        match self {
            Edit::Tokens(source) => setup.tokens = source,
            Edit::StatusCheck(check) => setup.sql.status_check = check,
            Edit::NoFaults => setup.faults.clear(),
            _ => {
                for worker in &mut setup.workers {
                    self.rewrite(&mut worker.program);
                    self.rewrite(&mut worker.on_rejected);
                }
            }
        }
    }

    fn rewrite(self, steps: &mut Vec<Step>) {
        match self {
            // The millisecond of work after the check stands for building the UPDATE: the
            // model pauses a worker only while it computes, and a real process can be
            // paused at any instruction (as the lesson `lease-check-before-write` shows).
            Edit::CheckLease => insert(
                steps,
                |s| matches!(s, Step::Write { .. }),
                0,
                || vec![Step::CheckLease, Step::Compute { ms: 1 }],
            ),
            Edit::Claim => insert(
                steps,
                |s| matches!(s, Step::Acquire { .. }),
                1,
                || {
                    vec![Step::Write {
                        how: WriteHow::Fenced,
                        status: "processing".to_owned(),
                        from: None,
                        attempts: 1,
                        backoff_ms: 0,
                    }]
                },
            ),
            _ => steps.iter_mut().for_each(|step| self.rewrite_step(step)),
        }
    }

    fn rewrite_step(self, step: &mut Step) {
        match (self, step) {
            (Edit::OnShort(to), Step::WaitReplicas { on_short, .. }) => *on_short = to,
            (Edit::Release(to), Step::Release { how }) => *how = to,
            (Edit::Renew(to), Step::Watchdog { how, .. }) => *how = to,
            (Edit::Write(to), Step::Write { how, .. }) if *how != WriteHow::SetState => *how = to,
            (Edit::Read(to), Step::Read { compare, .. }) => *compare = to,
            (Edit::Put(put), Step::PutObject { if_match, meta_fence }) => {
                *if_match = true;
                *meta_fence = put == Put::IfMatchFence;
            }
            (Edit::Put(put), Step::HeadObject { compare }) => {
                *compare = if put == Put::IfMatchFence { Compare::Token } else { Compare::No };
            }
            _ => {}
        }
    }
}

/// Puts `make()` before (`offset` 0) or after (1) every step `at` picks.
fn insert(
    steps: &mut Vec<Step>,
    at: impl Fn(&Step) -> bool,
    offset: usize,
    make: impl Fn() -> Vec<Step>,
) {
    let places: Vec<usize> =
        steps.iter().enumerate().filter(|(_, s)| at(s)).map(|(i, _)| i + offset).collect();
    for i in places.into_iter().rev() {
        steps.splice(i..i, make());
    }
}
