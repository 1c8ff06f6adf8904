//! The shapes of the setup's tagged kinds (`{"do": "acquire", ...}`, `{"fault": ...}`,
//! `{"mode": ...}`; a lesson's facts and anchors are in `catalogue::lesson::form`): each is
//! read as one flat struct of optional members and then converted, checking which members
//! its kind allows.
//!
//! Why flat: serde's internally tagged enums buffer every object through a generic
//! `Content` tree before choosing a variant, which costs tens of kilobytes of code per
//! enum on the first page and works only with self-describing formats; a flat struct is
//! read in one pass by any format (JSON files, the baked lessons). Owns the kind words and
//! the members each kind takes; no behaviour.

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize};

use super::{
    Compare, CrashKind, Fault, KeyStrategy, NamedFault, OnShort, Persistence, Step, Word, words,
};

/// Reads one of `T`'s words, refusing any other with the list of words.
pub fn read_word<'de, D: Deserializer<'de>, T: Word>(from: D) -> Result<T, D::Error> {
    struct Words<T>(std::marker::PhantomData<T>);

    impl<T: Word> Visitor<'_> for Words<T> {
        type Value = T;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "one of: {}", T::words().join(", "))
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
            T::from_word(text).ok_or_else(|| {
                E::custom(format!(
                    "unknown value `{text}`, expected one of: {}",
                    T::words().join(", ")
                ))
            })
        }
    }

    from.deserialize_str(Words(std::marker::PhantomData))
}

/// A worker's default reply timeout.
pub(super) fn reply_timeout_ms() -> u64 {
    1_000
}

/// Why a flat form does not make a value: the message a reader shows at the object.
pub type Refusal = String;

pub(super) fn missing(member: &str) -> Refusal {
    format!("missing field `{member}`")
}

pub fn required<T>(value: Option<T>, member: &str) -> Result<T, Refusal> {
    value.ok_or_else(|| missing(member))
}

/// Refuses a member the kind does not take (`present` lists every member and whether it
/// was given).
pub fn only(kind: &str, present: &[(&str, bool)], allowed: &[&str]) -> Result<(), Refusal> {
    match present.iter().find(|(name, given)| *given && !allowed.contains(name)) {
        // Spelt as serde spells its own refusals, so one reader of messages (the sandbox's
        // "did you mean") understands both.
        Some((name, _)) => Err(format!(
            "unknown field `{name}` for `{kind}`, expected one of {}",
            allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        )),
        None => Ok(()),
    }
}

/// A `how` member, whose words depend on the step kind.
fn how<T: Word + Default>(how: Option<String>) -> Result<T, Refusal> {
    match how {
        None => Ok(T::default()),
        Some(text) => T::from_word(&text).ok_or_else(|| {
            format!("`how`: unknown value `{text}`, expected one of: {}", T::words().join(", "))
        }),
    }
}

// ----- persistence -----

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    None,
    Rdb,
    AofNo,
    AofEverysec,
    AofAlways,
}

words!(Mode:
    "none" => Mode::None,
    "rdb" => Mode::Rdb,
    "aof-no" => Mode::AofNo,
    "aof-everysec" => Mode::AofEverysec,
    "aof-always" => Mode::AofAlways,
);

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PersistenceForm {
    mode: Mode,
    every_ms: Option<u64>,
}

impl TryFrom<PersistenceForm> for Persistence {
    type Error = Refusal;

    fn try_from(f: PersistenceForm) -> Result<Persistence, Refusal> {
        let allowed: &[&str] = if f.mode == Mode::Rdb { &["mode", "every_ms"] } else { &["mode"] };
        only(f.mode.word(), &[("every_ms", f.every_ms.is_some())], allowed)?;
        Ok(match f.mode {
            Mode::None => Persistence::None,
            Mode::Rdb => Persistence::Rdb { every_ms: required(f.every_ms, "every_ms")? },
            Mode::AofNo => Persistence::AofNo,
            Mode::AofEverysec => Persistence::AofEverysec,
            Mode::AofAlways => Persistence::AofAlways,
        })
    }
}

impl From<Persistence> for PersistenceForm {
    fn from(p: Persistence) -> PersistenceForm {
        let (mode, every_ms) = match p {
            Persistence::None => (Mode::None, None),
            Persistence::Rdb { every_ms } => (Mode::Rdb, Some(every_ms)),
            Persistence::AofNo => (Mode::AofNo, None),
            Persistence::AofEverysec => (Mode::AofEverysec, None),
            Persistence::AofAlways => (Mode::AofAlways, None),
        };
        PersistenceForm { mode, every_ms }
    }
}

// ----- steps -----

/// A step's kind, the word under `do`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    Acquire,
    WaitReplicas,
    Compute,
    Read,
    Write,
    Charge,
    PutObject,
    HeadObject,
    DeleteOwnObjects,
    Reread,
    CheckLease,
    SendToDlq,
    Watchdog,
    Release,
    Begin,
    SelectForUpdate,
    Commit,
    Rollback,
    Sleep,
}

words!(StepKind:
    "acquire" => StepKind::Acquire,
    "wait-replicas" => StepKind::WaitReplicas,
    "compute" => StepKind::Compute,
    "read" => StepKind::Read,
    "write" => StepKind::Write,
    "charge" => StepKind::Charge,
    "put-object" => StepKind::PutObject,
    "head-object" => StepKind::HeadObject,
    "delete-own-objects" => StepKind::DeleteOwnObjects,
    "reread" => StepKind::Reread,
    "check-lease" => StepKind::CheckLease,
    "send-to-dlq" => StepKind::SendToDlq,
    "watchdog" => StepKind::Watchdog,
    "release" => StepKind::Release,
    "begin" => StepKind::Begin,
    "select-for-update" => StepKind::SelectForUpdate,
    "commit" => StepKind::Commit,
    "rollback" => StepKind::Rollback,
    "sleep" => StepKind::Sleep,
);

impl StepKind {
    /// The members a step of this kind takes, `do` first.
    pub fn members(self) -> &'static [&'static str] {
        match self {
            StepKind::Acquire => &["do", "how", "ttl_ms", "retry_every_ms", "attempts"],
            StepKind::WaitReplicas => &["do", "replicas", "timeout_ms", "on_short"],
            StepKind::Compute | StepKind::Sleep => &["do", "ms"],
            StepKind::Read => &["do", "compare", "done_if"],
            StepKind::Write => &["do", "how", "status", "from", "attempts", "backoff_ms"],
            StepKind::Charge => &["do", "key", "attempts", "backoff_ms"],
            StepKind::PutObject => &["do", "if_match", "meta_fence"],
            StepKind::HeadObject => &["do", "compare"],
            StepKind::Watchdog => &["do", "interval_ms", "how"],
            StepKind::Release => &["do", "how"],
            StepKind::DeleteOwnObjects
            | StepKind::Reread
            | StepKind::CheckLease
            | StepKind::SendToDlq
            | StepKind::Begin
            | StepKind::SelectForUpdate
            | StepKind::Commit
            | StepKind::Rollback => &["do"],
        }
    }
}

/// Every member any step takes; a step uses those of its kind.
#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StepForm {
    #[serde(rename = "do")]
    kind: Option<StepKind>,
    key: Option<KeyStrategy>,
    how: Option<String>,
    ttl_ms: Option<u64>,
    retry_every_ms: Option<u64>,
    replicas: Option<i64>,
    timeout_ms: Option<u64>,
    on_short: Option<OnShort>,
    ms: Option<u64>,
    compare: Option<Compare>,
    done_if: Option<String>,
    status: Option<String>,
    from: Option<String>,
    interval_ms: Option<u64>,
    if_match: Option<bool>,
    meta_fence: Option<bool>,
    attempts: Option<u32>,
    backoff_ms: Option<u64>,
}

impl StepForm {
    fn present(&self) -> [(&'static str, bool); 17] {
        [
            ("key", self.key.is_some()),
            ("how", self.how.is_some()),
            ("ttl_ms", self.ttl_ms.is_some()),
            ("retry_every_ms", self.retry_every_ms.is_some()),
            ("replicas", self.replicas.is_some()),
            ("timeout_ms", self.timeout_ms.is_some()),
            ("on_short", self.on_short.is_some()),
            ("ms", self.ms.is_some()),
            ("compare", self.compare.is_some()),
            ("done_if", self.done_if.is_some()),
            ("status", self.status.is_some()),
            ("from", self.from.is_some()),
            ("interval_ms", self.interval_ms.is_some()),
            ("if_match", self.if_match.is_some()),
            ("meta_fence", self.meta_fence.is_some()),
            ("attempts", self.attempts.is_some()),
            ("backoff_ms", self.backoff_ms.is_some()),
        ]
    }
}

impl TryFrom<StepForm> for Step {
    type Error = Refusal;

    fn try_from(f: StepForm) -> Result<Step, Refusal> {
        let Some(kind) = f.kind else {
            return Err(format!("missing field `do` (one of: {})", StepKind::words().join(", ")));
        };
        only(kind.word(), &f.present(), kind.members())?;
        let attempts = f.attempts.unwrap_or(1);
        Ok(match kind {
            StepKind::Acquire => Step::Acquire {
                how: how(f.how)?,
                ttl_ms: required(f.ttl_ms, "ttl_ms")?,
                retry_every_ms: f.retry_every_ms.unwrap_or(1_000),
                attempts,
            },
            StepKind::WaitReplicas => Step::WaitReplicas {
                replicas: required(f.replicas, "replicas")?,
                timeout_ms: required(f.timeout_ms, "timeout_ms")?,
                on_short: f.on_short.unwrap_or_default(),
            },
            StepKind::Compute => Step::Compute { ms: required(f.ms, "ms")? },
            StepKind::Sleep => Step::Sleep { ms: required(f.ms, "ms")? },
            StepKind::Read => {
                Step::Read { compare: f.compare.unwrap_or_default(), done_if: f.done_if }
            }
            StepKind::Write => Step::Write {
                how: how(f.how)?,
                status: f.status.unwrap_or_else(|| "paid".to_owned()),
                from: f.from,
                attempts,
                backoff_ms: f.backoff_ms.unwrap_or(0),
            },
            StepKind::Charge => Step::Charge {
                key: f.key.unwrap_or_default(),
                attempts,
                backoff_ms: f.backoff_ms.unwrap_or(0),
            },
            StepKind::PutObject => Step::PutObject {
                if_match: f.if_match.unwrap_or(false),
                meta_fence: f.meta_fence.unwrap_or(false),
            },
            StepKind::HeadObject => Step::HeadObject { compare: f.compare.unwrap_or_default() },
            StepKind::DeleteOwnObjects => Step::DeleteOwnObjects,
            StepKind::Reread => Step::Reread,
            StepKind::CheckLease => Step::CheckLease,
            StepKind::SendToDlq => Step::SendToDlq,
            StepKind::Watchdog => Step::Watchdog { interval_ms: f.interval_ms, how: how(f.how)? },
            StepKind::Release => Step::Release { how: how(f.how)? },
            StepKind::Begin => Step::Begin,
            StepKind::SelectForUpdate => Step::SelectForUpdate,
            StepKind::Commit => Step::Commit,
            StepKind::Rollback => Step::Rollback,
        })
    }
}

impl From<Step> for StepForm {
    /// Every member of the kind, defaults included, so a written file says what runs.
    fn from(step: Step) -> StepForm {
        let form = |kind| StepForm { kind: Some(kind), ..StepForm::default() };
        let word = |w: &'static str| Some(w.to_owned());
        match step {
            Step::Acquire { how, ttl_ms, retry_every_ms, attempts } => StepForm {
                how: word(how.word()),
                ttl_ms: Some(ttl_ms),
                retry_every_ms: Some(retry_every_ms),
                attempts: Some(attempts),
                ..form(StepKind::Acquire)
            },
            Step::WaitReplicas { replicas, timeout_ms, on_short } => StepForm {
                replicas: Some(replicas),
                timeout_ms: Some(timeout_ms),
                on_short: Some(on_short),
                ..form(StepKind::WaitReplicas)
            },
            Step::Compute { ms } => StepForm { ms: Some(ms), ..form(StepKind::Compute) },
            Step::Sleep { ms } => StepForm { ms: Some(ms), ..form(StepKind::Sleep) },
            Step::Read { compare, done_if } => {
                StepForm { compare: Some(compare), done_if, ..form(StepKind::Read) }
            }
            Step::Write { how, status, from, attempts, backoff_ms } => StepForm {
                how: word(how.word()),
                status: Some(status),
                from,
                attempts: Some(attempts),
                backoff_ms: Some(backoff_ms),
                ..form(StepKind::Write)
            },
            Step::Charge { key, attempts, backoff_ms } => StepForm {
                key: Some(key),
                attempts: Some(attempts),
                backoff_ms: Some(backoff_ms),
                ..form(StepKind::Charge)
            },
            Step::PutObject { if_match, meta_fence } => StepForm {
                if_match: Some(if_match),
                meta_fence: meta_fence.then_some(true),
                ..form(StepKind::PutObject)
            },
            Step::HeadObject { compare } => {
                StepForm { compare: Some(compare), ..form(StepKind::HeadObject) }
            }
            Step::DeleteOwnObjects => form(StepKind::DeleteOwnObjects),
            Step::Reread => form(StepKind::Reread),
            Step::CheckLease => form(StepKind::CheckLease),
            Step::SendToDlq => form(StepKind::SendToDlq),
            Step::Watchdog { interval_ms, how } => {
                StepForm { interval_ms, how: word(how.word()), ..form(StepKind::Watchdog) }
            }
            Step::Release { how } => StepForm { how: word(how.word()), ..form(StepKind::Release) },
            Step::Begin => form(StepKind::Begin),
            Step::SelectForUpdate => form(StepKind::SelectForUpdate),
            Step::Commit => form(StepKind::Commit),
            Step::Rollback => form(StepKind::Rollback),
        }
    }
}

// ----- faults -----

/// A fault's kind, the word under `fault`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    Pause,
    Hang,
    Crash,
    LoseReply,
    Delay,
    CrashNode,
    ClockJump,
    Partition,
    SetCounter,
}

words!(FaultKind:
    "pause" => FaultKind::Pause,
    "hang" => FaultKind::Hang,
    "crash" => FaultKind::Crash,
    "lose-reply" => FaultKind::LoseReply,
    "delay" => FaultKind::Delay,
    "crash-node" => FaultKind::CrashNode,
    "clock-jump" => FaultKind::ClockJump,
    "partition" => FaultKind::Partition,
    "set-counter" => FaultKind::SetCounter,
);

impl FaultKind {
    /// The members a fault of this kind takes, `fault` first.
    pub fn members(self) -> &'static [&'static str] {
        match self {
            FaultKind::Pause => &["fault", "worker", "at_ms", "pause_ms"],
            FaultKind::Hang => &["fault", "worker", "at_ms", "hang_ms"],
            FaultKind::Crash => &["fault", "worker", "at_ms"],
            FaultKind::LoseReply => &["fault", "worker", "step", "attempt"],
            FaultKind::Delay => &["fault", "worker", "at_ms", "window_ms", "delay_ms"],
            FaultKind::CrashNode => &["fault", "node", "at_ms", "kind", "restart_after_ms"],
            FaultKind::ClockJump => &["fault", "node", "at_ms", "jump_ms"],
            FaultKind::Partition => &["fault", "worker", "node", "at_ms", "partition_ms"],
            FaultKind::SetCounter => &["fault", "at_ms", "value"],
        }
    }
}

/// Every member any fault takes.
#[derive(Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FaultForm {
    #[serde(rename = "fault")]
    kind: Option<FaultKind>,
    worker: Option<String>,
    node: Option<String>,
    at_ms: Option<u64>,
    pause_ms: Option<u64>,
    hang_ms: Option<u64>,
    step: Option<usize>,
    attempt: Option<u32>,
    window_ms: Option<u64>,
    delay_ms: Option<u64>,
    #[serde(rename = "kind")]
    crash: Option<CrashKind>,
    restart_after_ms: Option<u64>,
    jump_ms: Option<i64>,
    partition_ms: Option<u64>,
    value: Option<String>,
}

impl FaultForm {
    fn present(&self) -> [(&'static str, bool); 14] {
        [
            ("worker", self.worker.is_some()),
            ("node", self.node.is_some()),
            ("at_ms", self.at_ms.is_some()),
            ("pause_ms", self.pause_ms.is_some()),
            ("hang_ms", self.hang_ms.is_some()),
            ("step", self.step.is_some()),
            ("attempt", self.attempt.is_some()),
            ("window_ms", self.window_ms.is_some()),
            ("delay_ms", self.delay_ms.is_some()),
            ("kind", self.crash.is_some()),
            ("restart_after_ms", self.restart_after_ms.is_some()),
            ("jump_ms", self.jump_ms.is_some()),
            ("partition_ms", self.partition_ms.is_some()),
            ("value", self.value.is_some()),
        ]
    }
}

impl TryFrom<FaultForm> for NamedFault {
    type Error = Refusal;

    fn try_from(f: FaultForm) -> Result<NamedFault, Refusal> {
        let Some(kind) = f.kind else {
            return Err(format!(
                "missing field `fault` (one of: {})",
                FaultKind::words().join(", ")
            ));
        };
        only(kind.word(), &f.present(), kind.members())?;
        let worker = || required(f.worker.clone(), "worker");
        let node = || required(f.node.clone(), "node");
        let at_ms = || required(f.at_ms, "at_ms");
        Ok(match kind {
            FaultKind::Pause => Fault::Pause {
                worker: worker()?,
                at_ms: at_ms()?,
                pause_ms: required(f.pause_ms, "pause_ms")?,
            },
            FaultKind::Hang => Fault::Hang {
                worker: worker()?,
                at_ms: at_ms()?,
                hang_ms: required(f.hang_ms, "hang_ms")?,
            },
            FaultKind::Crash => Fault::Crash { worker: worker()?, at_ms: at_ms()? },
            FaultKind::LoseReply => Fault::LoseReply {
                worker: worker()?,
                step: required(f.step, "step")?,
                attempt: f.attempt.unwrap_or(1),
            },
            FaultKind::Delay => Fault::Delay {
                worker: worker()?,
                at_ms: at_ms()?,
                window_ms: required(f.window_ms, "window_ms")?,
                delay_ms: required(f.delay_ms, "delay_ms")?,
            },
            FaultKind::CrashNode => Fault::CrashNode {
                node: node()?,
                at_ms: at_ms()?,
                kind: f.crash.unwrap_or_default(),
                restart_after_ms: f.restart_after_ms,
            },
            FaultKind::ClockJump => Fault::ClockJump {
                node: node()?,
                at_ms: at_ms()?,
                jump_ms: required(f.jump_ms, "jump_ms")?,
            },
            FaultKind::Partition => Fault::Partition {
                worker: worker()?,
                node: node()?,
                at_ms: at_ms()?,
                partition_ms: required(f.partition_ms, "partition_ms")?,
            },
            FaultKind::SetCounter => {
                Fault::SetCounter { at_ms: at_ms()?, value: required(f.value, "value")? }
            }
        })
    }
}

impl From<NamedFault> for FaultForm {
    fn from(fault: NamedFault) -> FaultForm {
        let form = |kind| FaultForm { kind: Some(kind), ..FaultForm::default() };
        match fault {
            Fault::Pause { worker, at_ms, pause_ms } => FaultForm {
                worker: Some(worker),
                at_ms: Some(at_ms),
                pause_ms: Some(pause_ms),
                ..form(FaultKind::Pause)
            },
            Fault::Hang { worker, at_ms, hang_ms } => FaultForm {
                worker: Some(worker),
                at_ms: Some(at_ms),
                hang_ms: Some(hang_ms),
                ..form(FaultKind::Hang)
            },
            Fault::Crash { worker, at_ms } => {
                FaultForm { worker: Some(worker), at_ms: Some(at_ms), ..form(FaultKind::Crash) }
            }
            Fault::LoseReply { worker, step, attempt } => FaultForm {
                worker: Some(worker),
                step: Some(step),
                attempt: Some(attempt),
                ..form(FaultKind::LoseReply)
            },
            Fault::Delay { worker, at_ms, window_ms, delay_ms } => FaultForm {
                worker: Some(worker),
                at_ms: Some(at_ms),
                window_ms: Some(window_ms),
                delay_ms: Some(delay_ms),
                ..form(FaultKind::Delay)
            },
            Fault::CrashNode { node, at_ms, kind, restart_after_ms } => FaultForm {
                node: Some(node),
                at_ms: Some(at_ms),
                crash: Some(kind),
                restart_after_ms,
                ..form(FaultKind::CrashNode)
            },
            Fault::ClockJump { node, at_ms, jump_ms } => FaultForm {
                node: Some(node),
                at_ms: Some(at_ms),
                jump_ms: Some(jump_ms),
                ..form(FaultKind::ClockJump)
            },
            Fault::Partition { worker, node, at_ms, partition_ms } => FaultForm {
                worker: Some(worker),
                node: Some(node),
                at_ms: Some(at_ms),
                partition_ms: Some(partition_ms),
                ..form(FaultKind::Partition)
            },
            Fault::SetCounter { at_ms, value } => {
                FaultForm { at_ms: Some(at_ms), value: Some(value), ..form(FaultKind::SetCounter) }
            }
        }
    }
}
