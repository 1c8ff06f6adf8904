//! What-if parameters: the knobs a learner turns, applied to a scenario to make a fork.
//!
//! Owns how each knob rewrites a scenario (TTL, pause length, watchdog, acquire variant,
//! guard, idempotency key, persistence, replication lag, WAIT) and how knobs travel in a
//! URL. Pure data; it never runs the model.

use crate::catalogue::lesson::Scenario;
use crate::sim::scenario::{
    AcquireHow, Fault, Guard, KeyStrategy, OnShort, Persistence, RenewHow, Step, Word,
};

/// Each `None` leaves the scenario as written.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct WhatIf {
    pub ttl_ms: Option<u64>,
    pub pause_ms: Option<u64>,
    pub watchdog: Option<Toggle>,
    pub acquire: Option<AcquireHow>,
    pub guard: Option<Guard>,
    pub key: Option<KeyStrategy>,
    pub persistence: Option<Persistence>,
    pub lag_ms: Option<u64>,
    pub wait: Option<Toggle>,
}

/// A feature switched off, or on with its interval or timeout in ms.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Toggle {
    Off,
    On { ms: u64 },
}

/// The effective value of every knob for one scenario (what the panel displays).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Knobs {
    pub ttl_ms: Option<u64>,
    pub pause_ms: Option<u64>,
    pub watchdog: Toggle,
    pub acquire: Option<AcquireHow>,
    pub guard: Guard,
    pub key: Option<KeyStrategy>,
    pub persistence: Persistence,
    pub lag_ms: u64,
    pub wait: Toggle,
    /// Whether the scenario has replicas (lag and WAIT only matter then).
    pub replicated: bool,
}

impl WhatIf {
    pub fn is_original(&self) -> bool {
        *self == WhatIf::default()
    }

    /// The knobs of `scenario` as written.
    pub fn knobs(scenario: &Scenario) -> Knobs {
        let steps = || scenario.setup.workers.iter().flat_map(|w| w.program.iter());
        Knobs {
            ttl_ms: steps().find_map(|s| match s {
                Step::Acquire { ttl_ms, .. } => Some(*ttl_ms),
                _ => None,
            }),
            pause_ms: scenario.setup.faults.iter().find_map(|f| match f {
                Fault::Pause { pause_ms, .. } => Some(*pause_ms),
                _ => None,
            }),
            watchdog: steps()
                .find_map(|s| match s {
                    Step::Watchdog { interval_ms, .. } => {
                        Some(Toggle::On { ms: interval_ms.unwrap_or(0) })
                    }
                    _ => None,
                })
                .unwrap_or(Toggle::Off),
            acquire: steps().find_map(|s| match s {
                Step::Acquire { how, .. } => Some(*how),
                _ => None,
            }),
            guard: scenario.setup.sql.guard,
            key: steps().find_map(|s| match s {
                Step::Charge { key, .. } => Some(*key),
                _ => None,
            }),
            persistence: scenario.setup.redis.persistence,
            lag_ms: scenario.setup.redis.lag_ms,
            wait: steps()
                .find_map(|s| match s {
                    Step::WaitReplicas { timeout_ms, .. } => Some(Toggle::On { ms: *timeout_ms }),
                    _ => None,
                })
                .unwrap_or(Toggle::Off),
            replicated: scenario.setup.redis.nodes.len() > 1,
        }
    }

    /// The names of the knobs this what-if changes (for "changed" marks).
    pub fn changed(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        let mut note = |set: bool, name: &'static str| {
            if set {
                names.push(name);
            }
        };
        note(self.ttl_ms.is_some(), "ttl");
        note(self.pause_ms.is_some(), "pause");
        note(self.watchdog.is_some(), "watchdog");
        note(self.acquire.is_some(), "acquire");
        note(self.guard.is_some(), "guard");
        note(self.key.is_some(), "key");
        note(self.persistence.is_some(), "persistence");
        note(self.lag_ms.is_some(), "lag");
        note(self.wait.is_some(), "wait");
        names
    }

    /// The forked scenario.
    pub fn apply(&self, original: &Scenario) -> Scenario {
        let mut scenario = original.clone();
        if let Some(guard) = self.guard {
            scenario.setup.sql.guard = guard;
        }
        if let Some(persistence) = self.persistence {
            scenario.setup.redis.persistence = persistence;
        }
        if let Some(lag_ms) = self.lag_ms {
            scenario.setup.redis.lag_ms = lag_ms;
        }
        if let Some(pause) = self.pause_ms {
            for fault in &mut scenario.setup.faults {
                if let Fault::Pause { pause_ms, .. } = fault {
                    *pause_ms = pause;
                }
            }
        }
        for worker in &mut scenario.setup.workers {
            for list in [&mut worker.program, &mut worker.on_rejected] {
                self.rewrite_steps(list);
            }
        }
        scenario
    }

    fn rewrite_steps(&self, steps: &mut Vec<Step>) {
        for step in steps.iter_mut() {
            match step {
                Step::Acquire { ttl_ms, how, .. } => {
                    if let Some(ttl) = self.ttl_ms {
                        *ttl_ms = ttl.max(1);
                    }
                    if let Some(acquire) = self.acquire {
                        *how = acquire;
                    }
                }
                Step::Charge { key, .. } => {
                    if let Some(strategy) = self.key {
                        *key = strategy;
                    }
                }
                // A fence guard only fences writes that carry the token: turning it on makes
                // every write send its token (an unfenced write would ignore the guard).
                Step::Write { how, .. }
                    if matches!(self.guard, Some(Guard::Lt | Guard::Le))
                        && *how != crate::sim::scenario::WriteHow::SetState =>
                {
                    *how = crate::sim::scenario::WriteHow::Fenced;
                }
                _ => {}
            }
        }
        // Watchdog and WAIT are steps right after an acquire: add, retune or remove them.
        let after_acquire = |steps: &Vec<Step>| -> Vec<usize> {
            steps
                .iter()
                .enumerate()
                .filter(|(_, s)| matches!(s, Step::Acquire { .. }))
                .map(|(i, _)| i)
                .collect()
        };
        // The watchdog goes in first, so a WAIT inserted after it ends up right after the
        // acquire: acquire, WAIT, watchdog.
        match self.watchdog {
            Some(Toggle::Off) => steps.retain(|s| !matches!(s, Step::Watchdog { .. })),
            Some(Toggle::On { ms }) => {
                let interval_ms = (ms > 0).then_some(ms);
                if steps.iter().any(|s| matches!(s, Step::Watchdog { .. })) {
                    for step in steps.iter_mut() {
                        if let Step::Watchdog { interval_ms: current, .. } = step {
                            *current = interval_ms;
                        }
                    }
                } else {
                    for i in after_acquire(steps).into_iter().rev() {
                        steps.insert(i + 1, Step::Watchdog { interval_ms, how: RenewHow::Script });
                    }
                }
            }
            None => {}
        }
        match self.wait {
            Some(Toggle::Off) => steps.retain(|s| !matches!(s, Step::WaitReplicas { .. })),
            Some(Toggle::On { ms }) => {
                if steps.iter().any(|s| matches!(s, Step::WaitReplicas { .. })) {
                    for step in steps.iter_mut() {
                        if let Step::WaitReplicas { timeout_ms, .. } = step {
                            *timeout_ms = ms;
                        }
                    }
                } else {
                    for i in after_acquire(steps).into_iter().rev() {
                        let wait = Step::WaitReplicas {
                            replicas: 1,
                            timeout_ms: ms,
                            on_short: OnShort::Proceed,
                        };
                        steps.insert(i + 1, wait);
                    }
                }
            }
            None => {}
        }
    }

    /// The knobs as URL query pairs (`ttl=20000&guard=le`), only those that are set.
    pub fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(v) = self.ttl_ms {
            pairs.push(("ttl", v.to_string()));
        }
        if let Some(v) = self.pause_ms {
            pairs.push(("pause", v.to_string()));
        }
        if let Some(v) = self.watchdog {
            pairs.push(("wd", toggle_text(v)));
        }
        if let Some(v) = self.acquire {
            pairs.push(("acq", acquire_text(v).to_owned()));
        }
        if let Some(v) = self.guard {
            pairs.push(("guard", guard_text(v).to_owned()));
        }
        if let Some(v) = self.key {
            pairs.push(("key", key_text(v).to_owned()));
        }
        if let Some(v) = self.persistence {
            pairs.push(("persist", persistence_text(v)));
        }
        if let Some(v) = self.lag_ms {
            pairs.push(("lag", v.to_string()));
        }
        if let Some(v) = self.wait {
            pairs.push(("wait", toggle_text(v)));
        }
        pairs
    }

    /// Reads one query pair; `Err` says why the value is not understood.
    pub fn set_from_query(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |v: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .ok()
                .filter(|n| *n <= 86_400_000)
                .ok_or_else(|| format!("{name}={v} is not a duration in ms"))
        };
        let bad = || format!("{name}={value} is not understood");
        match name {
            "ttl" => self.ttl_ms = Some(number(value)?.max(1)),
            "pause" => self.pause_ms = Some(number(value)?),
            "wd" => self.watchdog = Some(parse_toggle(value).ok_or_else(bad)?),
            "acq" => self.acquire = Some(parse_acquire(value).ok_or_else(bad)?),
            "guard" => self.guard = Some(parse_guard(value).ok_or_else(bad)?),
            "key" => self.key = Some(parse_key(value).ok_or_else(bad)?),
            "persist" => self.persistence = Some(parse_persistence(value).ok_or_else(bad)?),
            "lag" => self.lag_ms = Some(number(value)?),
            "wait" => self.wait = Some(parse_toggle(value).ok_or_else(bad)?),
            _ => return Err(format!("unknown parameter {name}")),
        }
        Ok(())
    }
}

/// How the what-if panel names one choice of a knob: a message key, or code shown as
/// written (the same in every language).
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Label {
    Key(&'static str),
    Code(&'static str),
}

/// The knobs the panel offers as a menu, each with its choices in order: the value a link
/// carries (what [`WhatIf::set_from_query`] reads) and its label. One table, so the panel
/// is a loop (less of the first page's code) and a native test checks that every value
/// reads.
pub const CHOICES: &[(&str, &[(&str, Label)])] = {
    use Label::{Code, Key};
    &[
        (
            "wd",
            &[
                ("off", Key("opt.off")),
                ("0", Key("opt.wd_default")),
                ("5000", Key("opt.wd_5s")),
                ("1000", Key("opt.wd_1s")),
            ],
        ),
        (
            "acq",
            &[
                ("script", Key("opt.acq_script")),
                ("set-then-incr", Key("opt.acq_set_incr")),
                ("incr-then-set", Key("opt.acq_incr_set")),
                ("redlock", Key("opt.acq_redlock")),
            ],
        ),
        (
            "guard",
            &[
                ("none", Key("opt.guard_none")),
                ("lt", Code("last_fence < :fence")),
                ("le", Code("last_fence <= :fence")),
            ],
        ),
        (
            "key",
            &[
                ("none", Key("opt.key_none")),
                ("per-attempt", Key("opt.key_attempt")),
                ("per-order", Key("opt.key_order")),
            ],
        ),
        (
            "persist",
            &[
                ("none", Key("opt.persist_none")),
                ("rdb-60000", Key("opt.persist_rdb")),
                ("aof-no", Key("opt.persist_aof_no")),
                ("aof-everysec", Key("opt.persist_everysec")),
                ("aof-always", Key("opt.persist_always")),
            ],
        ),
        (
            "wait",
            &[("off", Key("opt.off")), ("100", Key("opt.wait_100")), ("1000", Key("opt.wait_1s"))],
        ),
    ]
};

/// The menu of `knob` (empty for a knob the panel shows as a number).
pub fn choices(knob: &str) -> &'static [(&'static str, Label)] {
    CHOICES.iter().find(|(name, _)| *name == knob).map_or(&[], |(_, choices)| *choices)
}

pub fn toggle_text(toggle: Toggle) -> String {
    match toggle {
        Toggle::Off => "off".to_owned(),
        Toggle::On { ms } => ms.to_string(),
    }
}

pub fn parse_toggle(text: &str) -> Option<Toggle> {
    match text {
        "off" => Some(Toggle::Off),
        _ => text.parse().ok().filter(|ms| *ms <= 86_400_000).map(|ms| Toggle::On { ms }),
    }
}

// The scenario format's words (each enum's `Word` table), so a link spells a knob as a file
// does.

pub fn acquire_text(how: AcquireHow) -> &'static str {
    how.word()
}

pub fn parse_acquire(text: &str) -> Option<AcquireHow> {
    AcquireHow::from_word(text)
}

pub fn guard_text(guard: Guard) -> &'static str {
    guard.word()
}

pub fn parse_guard(text: &str) -> Option<Guard> {
    Guard::from_word(text)
}

pub fn key_text(key: KeyStrategy) -> &'static str {
    key.word()
}

pub fn parse_key(text: &str) -> Option<KeyStrategy> {
    KeyStrategy::from_word(text)
}

pub fn persistence_text(p: Persistence) -> String {
    match p {
        Persistence::None => "none".to_owned(),
        Persistence::Rdb { every_ms } => format!("rdb-{every_ms}"),
        Persistence::AofNo => "aof-no".to_owned(),
        Persistence::AofEverysec => "aof-everysec".to_owned(),
        Persistence::AofAlways => "aof-always".to_owned(),
    }
}

pub fn parse_persistence(text: &str) -> Option<Persistence> {
    match text {
        "none" => Some(Persistence::None),
        "aof-no" => Some(Persistence::AofNo),
        "aof-everysec" => Some(Persistence::AofEverysec),
        "aof-always" => Some(Persistence::AofAlways),
        _ => {
            let every_ms = text.strip_prefix("rdb-")?.parse::<u64>().ok()?;
            (1..=86_400_000).contains(&every_ms).then_some(Persistence::Rdb { every_ms })
        }
    }
}

#[cfg(test)]
mod tests;
