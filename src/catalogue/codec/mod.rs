//! The scenario file format, version 1, in both directions: JSON nodes to a [`Scenario`]
//! (with the JSON path, line and column of the first problem) and back.
//!
//! Owns field names, defaults and enum spellings; `docs/scenario-format.md` describes the
//! same thing for people. It never panics on any input and knows nothing of the model's
//! behaviour.

mod facts;

pub(crate) use facts::read_fact;
use facts::write_facts;

/// Facts as compact JSON (for `fence lesson --suggest`).
pub fn facts_text(facts: &[crate::sim::scenario::Fact]) -> String {
    write_facts(facts).compact()
}

use crate::catalogue::load::LoadError;
use crate::json::{Node, Out, Value};
use crate::sim::Scenario;
use crate::sim::scenario::{
    AcquireHow, AlertRule, Anchor, CrashKind, Expected, Fault, GatewaySetup, Guard, KeyStrategy,
    Narration, NodeSetup, OnShort, Persistence, Prompt, RedisSetup, ReleaseHow, RenewHow,
    ScenarioId, SqlSetup, StatusCheck, Step, TokenSource, Topology, WorkerSetup, WriteHow,
};

// ----- reading -----

fn err(node: &Node, path: &str, message: String) -> LoadError {
    LoadError {
        path: path.to_owned(),
        line: node.line as usize,
        column: node.column as usize,
        message,
    }
}

/// An object being read: fields are taken one by one, and `finish` refuses the rest.
struct Obj<'a> {
    node: &'a Node,
    members: &'a [(String, Node)],
    used: Vec<bool>,
    path: String,
}

impl<'a> Obj<'a> {
    fn new(node: &'a Node, path: &str) -> Result<Obj<'a>, LoadError> {
        match &node.value {
            Value::Object(members) => {
                Ok(Obj { node, members, used: vec![false; members.len()], path: path.to_owned() })
            }
            _ => Err(err(node, path, format!("expected an object, found {}", node.kind()))),
        }
    }

    fn take(&mut self, key: &str) -> Option<(&'a Node, String)> {
        let i = self.members.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some((&self.members[i].1, format!("{}.{key}", self.path)))
    }

    fn req<T>(
        &mut self,
        key: &str,
        read: impl Fn(&Node, &str) -> Result<T, LoadError>,
    ) -> Result<T, LoadError> {
        match self.take(key) {
            Some((node, path)) => read(node, &path),
            None => Err(err(self.node, &self.path, format!("missing field `{key}`"))),
        }
    }

    fn opt<T>(
        &mut self,
        key: &str,
        read: impl Fn(&Node, &str) -> Result<T, LoadError>,
    ) -> Result<Option<T>, LoadError> {
        match self.take(key) {
            // An explicit null means "not set", like a missing field.
            Some((Node { value: Value::Null, .. }, _)) | None => Ok(None),
            Some((node, path)) => read(node, &path).map(Some),
        }
    }

    fn finish(self, allowed: &[&str]) -> Result<(), LoadError> {
        for (i, (key, node)) in self.members.iter().enumerate() {
            if !self.used[i] {
                return Err(err(
                    node,
                    &format!("{}.{key}", self.path),
                    format!("unknown field `{key}`, expected one of: {}", allowed.join(", ")),
                ));
            }
        }
        Ok(())
    }
}

fn u64_of(node: &Node, path: &str) -> Result<u64, LoadError> {
    match &node.value {
        Value::Number(text) => text.parse::<u64>().map_err(|_| {
            err(node, path, format!("expected a whole number of at least 0, found {text}"))
        }),
        _ => Err(err(node, path, format!("expected a whole number, found {}", node.kind()))),
    }
}

fn i64_of(node: &Node, path: &str) -> Result<i64, LoadError> {
    match &node.value {
        Value::Number(text) => text
            .parse::<i64>()
            .map_err(|_| err(node, path, format!("expected a whole number, found {text}"))),
        _ => Err(err(node, path, format!("expected a whole number, found {}", node.kind()))),
    }
}

fn u32_of(node: &Node, path: &str) -> Result<u32, LoadError> {
    let n = u64_of(node, path)?;
    u32::try_from(n).map_err(|_| err(node, path, format!("{n} is too large")))
}

fn usize_of(node: &Node, path: &str) -> Result<usize, LoadError> {
    let n = u64_of(node, path)?;
    usize::try_from(n).map_err(|_| err(node, path, format!("{n} is too large")))
}

fn id_of(node: &Node, path: &str) -> Result<ScenarioId, LoadError> {
    let text = string_of(node, path)?;
    ScenarioId::parse(&text).ok_or_else(|| {
        err(node, path, "an id is 1 to 64 lower-case letters, digits and dashes".to_owned())
    })
}

fn bool_of(node: &Node, path: &str) -> Result<bool, LoadError> {
    match node.value {
        Value::Bool(b) => Ok(b),
        _ => Err(err(node, path, format!("expected true or false, found {}", node.kind()))),
    }
}

fn string_of(node: &Node, path: &str) -> Result<String, LoadError> {
    match &node.value {
        Value::String(s) => Ok(s.clone()),
        _ => Err(err(node, path, format!("expected a string, found {}", node.kind()))),
    }
}

fn list_of<T>(
    node: &Node,
    path: &str,
    read: impl Fn(&Node, &str) -> Result<T, LoadError>,
) -> Result<Vec<T>, LoadError> {
    match &node.value {
        Value::Array(items) => {
            items.iter().enumerate().map(|(i, item)| read(item, &format!("{path}[{i}]"))).collect()
        }
        _ => Err(err(node, path, format!("expected an array, found {}", node.kind()))),
    }
}

/// One of a fixed set of words.
fn word_of<T: Copy>(node: &Node, path: &str, words: &[(&str, T)]) -> Result<T, LoadError> {
    let names = || words.iter().map(|(w, _)| *w).collect::<Vec<_>>().join(", ");
    match &node.value {
        Value::String(s) => words.iter().find(|(w, _)| w == s).map(|(_, v)| *v).ok_or_else(|| {
            err(node, path, format!("unknown value `{s}`, expected one of: {}", names()))
        }),
        _ => Err(err(node, path, format!("expected one of: {}", names()))),
    }
}

const TOPOLOGIES: &[(&str, Topology)] =
    &[("replicated", Topology::Replicated), ("redlock", Topology::Redlock)];
const TOKENS: &[(&str, TokenSource)] = &[
    ("redis-incr", TokenSource::RedisIncr),
    ("consensus", TokenSource::Consensus),
    ("pg-sequence", TokenSource::PgSequence),
    ("uuid", TokenSource::Uuid),
    ("none", TokenSource::None),
];
/// Each enum of the format has one table of its words, read by the loader and the writer
/// and by everything else that spells it (links, menus): `word` and `from_word`.
pub const GUARDS: &[(&str, Guard)] = &[("none", Guard::None), ("lt", Guard::Lt), ("le", Guard::Le)];
const STATUS_CHECKS: &[(&str, StatusCheck)] =
    &[("off", StatusCheck::Off), ("pending", StatusCheck::Pending)];
pub const ACQUIRES: &[(&str, AcquireHow)] = &[
    ("script", AcquireHow::Script),
    ("set-then-incr", AcquireHow::SetThenIncr),
    ("incr-then-set", AcquireHow::IncrThenSet),
    ("redlock", AcquireHow::Redlock),
];
const ON_SHORT: &[(&str, OnShort)] = &[("proceed", OnShort::Proceed), ("give-up", OnShort::GiveUp)];
const COMPARES: &[(&str, bool)] = &[("no", false), ("token", true)];
const WRITES: &[(&str, WriteHow)] = &[
    ("fenced", WriteHow::Fenced),
    ("unchecked", WriteHow::Unchecked),
    ("unfenced", WriteHow::Unfenced),
    ("set-state", WriteHow::SetState),
];
pub const KEYS: &[(&str, KeyStrategy)] = &[
    ("none", KeyStrategy::None),
    ("per-attempt", KeyStrategy::PerAttempt),
    ("per-order", KeyStrategy::PerOrder),
];
const RENEWS: &[(&str, RenewHow)] =
    &[("script", RenewHow::Script), ("bare-pexpire", RenewHow::BarePexpire)];
const RELEASES: &[(&str, ReleaseHow)] =
    &[("script", ReleaseHow::Script), ("bare-del", ReleaseHow::BareDel)];
const CRASHES: &[(&str, CrashKind)] =
    &[("process", CrashKind::Process), ("power", CrashKind::Power)];

/// Reads a whole scenario file's root node.
pub fn read_scenario(node: &Node) -> Result<Scenario, LoadError> {
    let mut o = Obj::new(node, "$")?;
    let format = o.req("format", u32_of)?;
    let scenario = Scenario {
        format,
        id: o.req("id", id_of)?,
        title: o.req("title", string_of)?,
        chapter: o.opt("chapter", string_of)?.unwrap_or_default(),
        summary: o.opt("summary", string_of)?.unwrap_or_default(),
        goal: o.opt("goal", string_of)?.unwrap_or_default(),
        seed: o.req("seed", u64_of)?,
        until_ms: o.req("until_ms", u64_of)?,
        redis: o.req("redis", read_redis)?,
        tokens: o.opt("tokens", |n, p| word_of(n, p, TOKENS))?.unwrap_or_default(),
        sql: o.req("sql", read_sql)?,
        gateway: o.opt("gateway", read_gateway)?.unwrap_or_default(),
        alert: o.opt("alert", read_alert)?,
        workers: o.req("workers", |n, p| list_of(n, p, read_worker))?,
        faults: o.opt("faults", |n, p| list_of(n, p, read_fault))?.unwrap_or_default(),
        narration: o.opt("narration", |n, p| list_of(n, p, read_narration))?.unwrap_or_default(),
        expect: o.opt("expect", read_expected)?,
        prompts: o.opt("prompts", |n, p| list_of(n, p, read_prompt))?.unwrap_or_default(),
        claims: o.opt("claims", |n, p| list_of(n, p, read_fact))?.unwrap_or_default(),
    };
    o.finish(&[
        "format",
        "id",
        "title",
        "chapter",
        "summary",
        "goal",
        "seed",
        "until_ms",
        "redis",
        "tokens",
        "sql",
        "gateway",
        "alert",
        "workers",
        "faults",
        "narration",
        "expect",
        "prompts",
        "claims",
    ])?;
    Ok(scenario)
}

fn read_redis(node: &Node, path: &str) -> Result<RedisSetup, LoadError> {
    let mut o = Obj::new(node, path)?;
    let redis = RedisSetup {
        nodes: o.req("nodes", |n, p| list_of(n, p, read_node))?,
        topology: o.opt("topology", |n, p| word_of(n, p, TOPOLOGIES))?.unwrap_or_default(),
        lock_key: o.req("lock_key", string_of)?,
        fence_key: o.req("fence_key", string_of)?,
        fence_start: o.opt("fence_start", i64_of)?.unwrap_or(0),
        lag_ms: o.opt("lag_ms", u64_of)?.unwrap_or(0),
        failover_after_ms: o.opt("failover_after_ms", u64_of)?,
        persistence: o.opt("persistence", read_persistence)?.unwrap_or_default(),
    };
    o.finish(&[
        "nodes",
        "topology",
        "lock_key",
        "fence_key",
        "fence_start",
        "lag_ms",
        "failover_after_ms",
        "persistence",
    ])?;
    Ok(redis)
}

fn read_node(node: &Node, path: &str) -> Result<NodeSetup, LoadError> {
    let mut o = Obj::new(node, path)?;
    let setup = NodeSetup {
        name: o.req("name", string_of)?,
        clock_offset_ms: o.opt("clock_offset_ms", i64_of)?.unwrap_or(0),
    };
    o.finish(&["name", "clock_offset_ms"])?;
    Ok(setup)
}

fn read_persistence(node: &Node, path: &str) -> Result<Persistence, LoadError> {
    let mut o = Obj::new(node, path)?;
    let mode = o.req("mode", |n, p| {
        word_of(
            n,
            p,
            &[("none", 0u8), ("rdb", 1), ("aof-no", 2), ("aof-everysec", 3), ("aof-always", 4)],
        )
    })?;
    let persistence = match mode {
        1 => Persistence::Rdb { every_ms: o.req("every_ms", u64_of)? },
        2 => Persistence::AofNo,
        3 => Persistence::AofEverysec,
        4 => Persistence::AofAlways,
        _ => Persistence::None,
    };
    o.finish(if mode == 1 { &["mode", "every_ms"] } else { &["mode"] })?;
    Ok(persistence)
}

fn read_sql(node: &Node, path: &str) -> Result<SqlSetup, LoadError> {
    let mut o = Obj::new(node, path)?;
    let sql = SqlSetup {
        order_id: o.req("order_id", i64_of)?,
        amount: o.opt("amount", i64_of)?.unwrap_or(0),
        last_fence: o.opt("last_fence", i64_of)?.unwrap_or(0),
        guard: o.opt("guard", |n, p| word_of(n, p, GUARDS))?.unwrap_or_default(),
        status_check: o
            .opt("status_check", |n, p| word_of(n, p, STATUS_CHECKS))?
            .unwrap_or_default(),
    };
    o.finish(&["order_id", "amount", "last_fence", "guard", "status_check"])?;
    Ok(sql)
}

fn read_gateway(node: &Node, path: &str) -> Result<GatewaySetup, LoadError> {
    let mut o = Obj::new(node, path)?;
    let gateway = GatewaySetup { honours_keys: o.opt("honours_keys", bool_of)?.unwrap_or(true) };
    o.finish(&["honours_keys"])?;
    Ok(gateway)
}

fn read_alert(node: &Node, path: &str) -> Result<AlertRule, LoadError> {
    let mut o = Obj::new(node, path)?;
    let rule = AlertRule {
        window_ms: o.req("window_ms", u64_of)?,
        share_pct: o.req("share_pct", u32_of)?,
    };
    o.finish(&["window_ms", "share_pct"])?;
    Ok(rule)
}

fn read_worker(node: &Node, path: &str) -> Result<WorkerSetup, LoadError> {
    let mut o = Obj::new(node, path)?;
    let worker = WorkerSetup {
        name: o.req("name", string_of)?,
        start_ms: o.opt("start_ms", u64_of)?.unwrap_or(0),
        program: o.req("program", |n, p| list_of(n, p, read_step))?,
        on_rejected: o.opt("on_rejected", |n, p| list_of(n, p, read_step))?.unwrap_or_default(),
        reply_timeout_ms: o.opt("reply_timeout_ms", u64_of)?.unwrap_or(1_000),
    };
    o.finish(&["name", "start_ms", "program", "on_rejected", "reply_timeout_ms"])?;
    Ok(worker)
}

/// The step kinds (`do`), in the order the format documents them.
pub const STEPS: &[&str] = &[
    "acquire",
    "wait-replicas",
    "compute",
    "read",
    "write",
    "charge",
    "put-object",
    "delete-own-objects",
    "reread",
    "send-to-dlq",
    "watchdog",
    "release",
    "begin",
    "select-for-update",
    "commit",
    "rollback",
    "sleep",
];

fn read_step(node: &Node, path: &str) -> Result<Step, LoadError> {
    let mut o = Obj::new(node, path)?;
    let (tag_node, tag_path) = o.take("do").ok_or_else(|| {
        err(node, path, format!("missing field `do` (one of: {})", STEPS.join(", ")))
    })?;
    let tag = string_of(tag_node, &tag_path)?;
    let attempts = |o: &mut Obj<'_>| o.opt("attempts", u32_of).map(|a| a.unwrap_or(1));
    let (step, allowed): (Step, &[&str]) = match tag.as_str() {
        "acquire" => (
            Step::Acquire {
                how: o.opt("how", |n, p| word_of(n, p, ACQUIRES))?.unwrap_or_default(),
                ttl_ms: o.req("ttl_ms", u64_of)?,
                retry_every_ms: o.opt("retry_every_ms", u64_of)?.unwrap_or(1_000),
                attempts: attempts(&mut o)?,
            },
            &["do", "how", "ttl_ms", "retry_every_ms", "attempts"],
        ),
        "wait-replicas" => (
            Step::WaitReplicas {
                replicas: o.req("replicas", i64_of)?,
                timeout_ms: o.req("timeout_ms", u64_of)?,
                on_short: o.opt("on_short", |n, p| word_of(n, p, ON_SHORT))?.unwrap_or_default(),
            },
            &["do", "replicas", "timeout_ms", "on_short"],
        ),
        "compute" => (Step::Compute { ms: o.req("ms", u64_of)? }, &["do", "ms"]),
        "sleep" => (Step::Sleep { ms: o.req("ms", u64_of)? }, &["do", "ms"]),
        "read" => {
            let token = o.opt("compare", |n, p| word_of(n, p, COMPARES))?.unwrap_or(false);
            let compare = if token {
                crate::sim::scenario::Compare::Token
            } else {
                crate::sim::scenario::Compare::No
            };
            (Step::Read { compare }, &["do", "compare"])
        }
        "write" => (
            Step::Write {
                how: o.opt("how", |n, p| word_of(n, p, WRITES))?.unwrap_or_default(),
                status: o.opt("status", string_of)?.unwrap_or_else(|| "paid".to_owned()),
                from: o.opt("from", string_of)?,
                attempts: attempts(&mut o)?,
                backoff_ms: o.opt("backoff_ms", u64_of)?.unwrap_or(0),
            },
            &["do", "how", "status", "from", "attempts", "backoff_ms"],
        ),
        "charge" => (
            Step::Charge {
                key: o.opt("key", |n, p| word_of(n, p, KEYS))?.unwrap_or_default(),
                attempts: attempts(&mut o)?,
                backoff_ms: o.opt("backoff_ms", u64_of)?.unwrap_or(0),
            },
            &["do", "key", "attempts", "backoff_ms"],
        ),
        "put-object" => (
            Step::PutObject { if_match: o.opt("if_match", bool_of)?.unwrap_or(false) },
            &["do", "if_match"],
        ),
        "delete-own-objects" => (Step::DeleteOwnObjects, &["do"]),
        "reread" => (Step::Reread, &["do"]),
        "send-to-dlq" => (Step::SendToDlq, &["do"]),
        "watchdog" => (
            Step::Watchdog {
                interval_ms: o.opt("interval_ms", u64_of)?,
                how: o.opt("how", |n, p| word_of(n, p, RENEWS))?.unwrap_or_default(),
            },
            &["do", "interval_ms", "how"],
        ),
        "release" => (
            Step::Release {
                how: o.opt("how", |n, p| word_of(n, p, RELEASES))?.unwrap_or_default(),
            },
            &["do", "how"],
        ),
        "begin" => (Step::Begin, &["do"]),
        "select-for-update" => (Step::SelectForUpdate, &["do"]),
        "commit" => (Step::Commit, &["do"]),
        "rollback" => (Step::Rollback, &["do"]),
        other => {
            return Err(err(
                tag_node,
                &tag_path,
                format!("unknown step `{other}`, expected one of: {}", STEPS.join(", ")),
            ));
        }
    };
    o.finish(allowed)?;
    Ok(step)
}

/// The fault kinds (`fault`).
pub const FAULTS: &[&str] = &[
    "pause",
    "hang",
    "crash",
    "lose-reply",
    "delay",
    "crash-node",
    "clock-jump",
    "partition",
    "set-counter",
];

fn read_fault(node: &Node, path: &str) -> Result<Fault, LoadError> {
    let mut o = Obj::new(node, path)?;
    let (tag_node, tag_path) = o.take("fault").ok_or_else(|| {
        err(node, path, format!("missing field `fault` (one of: {})", FAULTS.join(", ")))
    })?;
    let tag = string_of(tag_node, &tag_path)?;
    let (fault, allowed): (Fault, &[&str]) = match tag.as_str() {
        "pause" => (
            Fault::Pause {
                worker: o.req("worker", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                pause_ms: o.req("pause_ms", u64_of)?,
            },
            &["fault", "worker", "at_ms", "pause_ms"],
        ),
        "hang" => (
            Fault::Hang {
                worker: o.req("worker", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                hang_ms: o.req("hang_ms", u64_of)?,
            },
            &["fault", "worker", "at_ms", "hang_ms"],
        ),
        "crash" => (
            Fault::Crash { worker: o.req("worker", string_of)?, at_ms: o.req("at_ms", u64_of)? },
            &["fault", "worker", "at_ms"],
        ),
        "lose-reply" => (
            Fault::LoseReply {
                worker: o.req("worker", string_of)?,
                step: o.req("step", usize_of)?,
                attempt: o.opt("attempt", u32_of)?.unwrap_or(1),
            },
            &["fault", "worker", "step", "attempt"],
        ),
        "delay" => (
            Fault::Delay {
                worker: o.req("worker", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                window_ms: o.req("window_ms", u64_of)?,
                delay_ms: o.req("delay_ms", u64_of)?,
            },
            &["fault", "worker", "at_ms", "window_ms", "delay_ms"],
        ),
        "crash-node" => (
            Fault::CrashNode {
                node: o.req("node", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                kind: o.opt("kind", |n, p| word_of(n, p, CRASHES))?.unwrap_or_default(),
                restart_after_ms: o.opt("restart_after_ms", u64_of)?,
            },
            &["fault", "node", "at_ms", "kind", "restart_after_ms"],
        ),
        "clock-jump" => (
            Fault::ClockJump {
                node: o.req("node", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                jump_ms: o.req("jump_ms", i64_of)?,
            },
            &["fault", "node", "at_ms", "jump_ms"],
        ),
        "partition" => (
            Fault::Partition {
                worker: o.req("worker", string_of)?,
                node: o.req("node", string_of)?,
                at_ms: o.req("at_ms", u64_of)?,
                partition_ms: o.req("partition_ms", u64_of)?,
            },
            &["fault", "worker", "node", "at_ms", "partition_ms"],
        ),
        "set-counter" => (
            Fault::SetCounter { at_ms: o.req("at_ms", u64_of)?, value: o.req("value", string_of)? },
            &["fault", "at_ms", "value"],
        ),
        other => {
            return Err(err(
                tag_node,
                &tag_path,
                format!("unknown fault `{other}`, expected one of: {}", FAULTS.join(", ")),
            ));
        }
    };
    o.finish(allowed)?;
    Ok(fault)
}

pub(crate) fn read_anchor(node: &Node, path: &str) -> Result<Anchor, LoadError> {
    let mut o = Obj::new(node, path)?;
    let anchor = Anchor {
        event: o.opt("event", string_of)?,
        actor: o.opt("actor", string_of)?,
        nth: o.opt("nth", u32_of)?,
        at_ms: o.opt("at_ms", u64_of)?,
    };
    o.finish(&["event", "actor", "nth", "at_ms"])?;
    if anchor.event.is_none() && anchor.at_ms.is_none() {
        return Err(err(node, path, "an anchor needs `event` or `at_ms`".to_owned()));
    }
    Ok(anchor)
}

fn read_narration(node: &Node, path: &str) -> Result<Narration, LoadError> {
    let mut o = Obj::new(node, path)?;
    let narration = Narration {
        at: o.req("at", read_anchor)?,
        text: o.req("text", string_of)?,
        facts: o.opt("facts", |n, p| list_of(n, p, read_fact))?.unwrap_or_default(),
    };
    o.finish(&["at", "text", "facts"])?;
    Ok(narration)
}

fn read_prompt(node: &Node, path: &str) -> Result<Prompt, LoadError> {
    let mut o = Obj::new(node, path)?;
    let prompt = Prompt {
        at: o.req("at", read_anchor)?,
        question: o.req("question", string_of)?,
        options: o.req("options", |n, p| list_of(n, p, string_of))?,
        answer: o.req("answer", usize_of)?,
        explanation: o.req("explanation", string_of)?,
        facts: o.opt("facts", |n, p| list_of(n, p, read_fact))?.unwrap_or_default(),
    };
    o.finish(&["at", "question", "options", "answer", "explanation", "facts"])?;
    if prompt.options.len() < 2 || prompt.answer >= prompt.options.len() {
        return Err(err(
            node,
            path,
            "a prompt needs at least two options and an answer among them".to_owned(),
        ));
    }
    Ok(prompt)
}

fn read_expected(node: &Node, path: &str) -> Result<Expected, LoadError> {
    let mut o = Obj::new(node, path)?;
    let expected = Expected {
        badge: o.req("badge", string_of)?,
        violations: o.opt("violations", |n, p| list_of(n, p, string_of))?.unwrap_or_default(),
        warnings: o.opt("warnings", |n, p| list_of(n, p, string_of))?.unwrap_or_default(),
        accepted: o.req("accepted", u32_of)?,
        rejected: o.req("rejected", u32_of)?,
        charges: o.opt("charges", u32_of)?.unwrap_or(0),
        overlap: o.req("overlap", bool_of)?,
        bad: o.opt("bad", bool_of)?,
    };
    o.finish(&[
        "badge",
        "violations",
        "warnings",
        "accepted",
        "rejected",
        "charges",
        "overlap",
        "bad",
    ])?;
    Ok(expected)
}

// ----- writing -----

fn out_word<T: Copy + PartialEq>(value: T, words: &[(&'static str, T)]) -> Out {
    Out::str(word(value, words))
}

/// The words a step's or fault's member accepts (`kind` is its `do` / `fault` value), for
/// the sandbox's menus; `None` for free values.
pub fn member_words(kind: &str, member: &str) -> Option<Vec<&'static str>> {
    fn names<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
        table.iter().map(|(word, _)| *word).collect()
    }
    Some(match (kind, member) {
        ("acquire", "how") => names(ACQUIRES),
        ("wait-replicas", "on_short") => names(ON_SHORT),
        ("read", "compare") => names(COMPARES),
        ("write", "how") => names(WRITES),
        ("charge", "key") => names(KEYS),
        ("watchdog", "how") => names(RENEWS),
        ("release", "how") => names(RELEASES),
        ("crash-node", "kind") => names(CRASHES),
        ("sql", "guard") => names(GUARDS),
        ("$", "tokens") => names(TOKENS),
        _ => return None,
    })
}

/// The word `table` spells `value` with.
pub fn word<T: Copy + PartialEq>(value: T, table: &[(&'static str, T)]) -> &'static str {
    table.iter().find(|(_, v)| *v == value).map_or("", |(w, _)| *w)
}

/// The value `table` spells `text`, if it is one of its words.
pub fn from_word<T: Copy>(text: &str, table: &[(&str, T)]) -> Option<T> {
    table.iter().find(|(w, _)| *w == text).map(|(_, v)| *v)
}

/// The word the format spells the database's check with (`sql.guard`).
pub fn guard_word(guard: Guard) -> &'static str {
    word(guard, GUARDS)
}

/// The word the format spells a token source with (`tokens`).
pub fn tokens_word(tokens: TokenSource) -> &'static str {
    word(tokens, TOKENS)
}

/// One step as compact JSON, for the sandbox's step rows.
pub fn step_text(step: &Step) -> String {
    write_step(step).compact()
}

/// One fault as compact JSON, for the sandbox's fault rows.
pub fn fault_text(fault: &Fault) -> String {
    write_fault(fault).compact()
}

/// Reads one step typed into a sandbox row; `path` names the row in errors.
pub fn parse_step_text(text: &str, path: &str) -> Result<Step, LoadError> {
    read_step(&parse_piece(text, path)?, path)
}

/// Reads one fault typed into a sandbox row.
pub fn parse_fault_text(text: &str, path: &str) -> Result<Fault, LoadError> {
    read_fault(&parse_piece(text, path)?, path)
}

fn parse_piece(text: &str, path: &str) -> Result<Node, LoadError> {
    crate::json::parse(text).map_err(|e| LoadError {
        path: path.to_owned(),
        line: e.line as usize,
        column: e.column as usize,
        message: e.message,
    })
}

/// The scenario as a JSON value that reads back to the same scenario.
pub fn write_scenario(s: &Scenario) -> Out {
    let mut members = vec![
        ("format", Out::Int(i64::from(s.format))),
        ("id", Out::str(&s.id)),
        ("title", Out::str(&s.title)),
        ("chapter", Out::str(&s.chapter)),
        ("summary", Out::str(&s.summary)),
        ("goal", Out::str(&s.goal)),
        ("seed", Out::uint(s.seed)),
        ("until_ms", Out::uint(s.until_ms)),
        ("redis", write_redis(&s.redis)),
        ("tokens", out_word(s.tokens, TOKENS)),
        (
            "sql",
            Out::Obj(vec![
                ("order_id", Out::Int(s.sql.order_id)),
                ("amount", Out::Int(s.sql.amount)),
                ("last_fence", Out::Int(s.sql.last_fence)),
                ("guard", out_word(s.sql.guard, GUARDS)),
                ("status_check", out_word(s.sql.status_check, STATUS_CHECKS)),
            ]),
        ),
        ("gateway", Out::Obj(vec![("honours_keys", Out::Bool(s.gateway.honours_keys))])),
    ];
    if let Some(rule) = s.alert {
        members.push((
            "alert",
            Out::Obj(vec![
                ("window_ms", Out::uint(rule.window_ms)),
                ("share_pct", Out::uint(u64::from(rule.share_pct))),
            ]),
        ));
    }
    members.extend([
        ("workers", Out::Arr(s.workers.iter().map(write_worker).collect())),
        ("faults", Out::Arr(s.faults.iter().map(write_fault).collect())),
        (
            "narration",
            Out::Arr(
                s.narration
                    .iter()
                    .map(|n| {
                        let mut m = vec![("at", write_anchor(&n.at)), ("text", Out::str(&n.text))];
                        if !n.facts.is_empty() {
                            m.push(("facts", write_facts(&n.facts)));
                        }
                        Out::Obj(m)
                    })
                    .collect(),
            ),
        ),
    ]);
    if !s.prompts.is_empty() {
        members.push((
            "prompts",
            Out::Arr(
                s.prompts
                    .iter()
                    .map(|p| {
                        let mut m = vec![
                            ("at", write_anchor(&p.at)),
                            ("question", Out::str(&p.question)),
                            ("options", Out::Arr(p.options.iter().map(|o| Out::str(o)).collect())),
                            ("answer", Out::uint(p.answer as u64)),
                            ("explanation", Out::str(&p.explanation)),
                        ];
                        if !p.facts.is_empty() {
                            m.push(("facts", write_facts(&p.facts)));
                        }
                        Out::Obj(m)
                    })
                    .collect(),
            ),
        ));
    }
    if let Some(e) = &s.expect {
        let strings = |v: &[String]| Out::Arr(v.iter().map(|s| Out::str(s)).collect());
        let mut expect = vec![
            ("badge", Out::str(&e.badge)),
            ("violations", strings(&e.violations)),
            ("warnings", strings(&e.warnings)),
            ("accepted", Out::Int(i64::from(e.accepted))),
            ("rejected", Out::Int(i64::from(e.rejected))),
            ("charges", Out::Int(i64::from(e.charges))),
            ("overlap", Out::Bool(e.overlap)),
        ];
        if let Some(bad) = e.bad {
            expect.push(("bad", Out::Bool(bad)));
        }
        members.push(("expect", Out::Obj(expect)));
    }
    if !s.claims.is_empty() {
        members.push(("claims", write_facts(&s.claims)));
    }
    Out::Obj(members)
}

fn write_redis(r: &RedisSetup) -> Out {
    let mut members = vec![
        (
            "nodes",
            Out::Arr(
                r.nodes
                    .iter()
                    .map(|n| {
                        Out::Obj(vec![
                            ("name", Out::str(&n.name)),
                            ("clock_offset_ms", Out::Int(n.clock_offset_ms)),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("topology", out_word(r.topology, TOPOLOGIES)),
        ("lock_key", Out::str(&r.lock_key)),
        ("fence_key", Out::str(&r.fence_key)),
        ("fence_start", Out::Int(r.fence_start)),
        ("lag_ms", Out::uint(r.lag_ms)),
    ];
    if let Some(ms) = r.failover_after_ms {
        members.push(("failover_after_ms", Out::uint(ms)));
    }
    let persistence = match r.persistence {
        Persistence::None => vec![("mode", Out::str("none"))],
        Persistence::Rdb { every_ms } => {
            vec![("mode", Out::str("rdb")), ("every_ms", Out::uint(every_ms))]
        }
        Persistence::AofNo => vec![("mode", Out::str("aof-no"))],
        Persistence::AofEverysec => vec![("mode", Out::str("aof-everysec"))],
        Persistence::AofAlways => vec![("mode", Out::str("aof-always"))],
    };
    members.push(("persistence", Out::Obj(persistence)));
    Out::Obj(members)
}

fn write_worker(w: &WorkerSetup) -> Out {
    Out::Obj(vec![
        ("name", Out::str(&w.name)),
        ("start_ms", Out::uint(w.start_ms)),
        ("program", Out::Arr(w.program.iter().map(write_step).collect())),
        ("on_rejected", Out::Arr(w.on_rejected.iter().map(write_step).collect())),
        ("reply_timeout_ms", Out::uint(w.reply_timeout_ms)),
    ])
}

fn write_step(step: &Step) -> Out {
    let tag = |t: &'static str| ("do", Out::str(t));
    Out::Obj(match step {
        Step::Acquire { how, ttl_ms, retry_every_ms, attempts } => vec![
            tag("acquire"),
            ("how", out_word(*how, ACQUIRES)),
            ("ttl_ms", Out::uint(*ttl_ms)),
            ("retry_every_ms", Out::uint(*retry_every_ms)),
            ("attempts", Out::Int(i64::from(*attempts))),
        ],
        Step::WaitReplicas { replicas, timeout_ms, on_short } => vec![
            tag("wait-replicas"),
            ("replicas", Out::Int(*replicas)),
            ("timeout_ms", Out::uint(*timeout_ms)),
            ("on_short", out_word(*on_short, ON_SHORT)),
        ],
        Step::Compute { ms } => vec![tag("compute"), ("ms", Out::uint(*ms))],
        Step::Sleep { ms } => vec![tag("sleep"), ("ms", Out::uint(*ms))],
        Step::Read { compare } => {
            vec![
                tag("read"),
                (
                    "compare",
                    Out::str(if *compare == crate::sim::scenario::Compare::Token {
                        "token"
                    } else {
                        "no"
                    }),
                ),
            ]
        }
        Step::Write { how, status, from, attempts, backoff_ms } => {
            let mut m =
                vec![tag("write"), ("how", out_word(*how, WRITES)), ("status", Out::str(status))];
            if let Some(from) = from {
                m.push(("from", Out::str(from)));
            }
            m.push(("attempts", Out::Int(i64::from(*attempts))));
            m.push(("backoff_ms", Out::uint(*backoff_ms)));
            m
        }
        Step::Charge { key, attempts, backoff_ms } => vec![
            tag("charge"),
            ("key", out_word(*key, KEYS)),
            ("attempts", Out::Int(i64::from(*attempts))),
            ("backoff_ms", Out::uint(*backoff_ms)),
        ],
        Step::PutObject { if_match } => vec![tag("put-object"), ("if_match", Out::Bool(*if_match))],
        Step::DeleteOwnObjects => vec![tag("delete-own-objects")],
        Step::Reread => vec![tag("reread")],
        Step::SendToDlq => vec![tag("send-to-dlq")],
        Step::Watchdog { interval_ms, how } => {
            let mut m = vec![tag("watchdog")];
            if let Some(ms) = interval_ms {
                m.push(("interval_ms", Out::uint(*ms)));
            }
            m.push(("how", out_word(*how, RENEWS)));
            m
        }
        Step::Release { how } => vec![tag("release"), ("how", out_word(*how, RELEASES))],
        Step::Begin => vec![tag("begin")],
        Step::SelectForUpdate => vec![tag("select-for-update")],
        Step::Commit => vec![tag("commit")],
        Step::Rollback => vec![tag("rollback")],
    })
}

fn write_fault(fault: &Fault) -> Out {
    let tag = |t: &'static str| ("fault", Out::str(t));
    Out::Obj(match fault {
        Fault::Pause { worker, at_ms, pause_ms } => {
            vec![
                tag("pause"),
                ("worker", Out::str(worker)),
                ("at_ms", Out::uint(*at_ms)),
                ("pause_ms", Out::uint(*pause_ms)),
            ]
        }
        Fault::Hang { worker, at_ms, hang_ms } => {
            vec![
                tag("hang"),
                ("worker", Out::str(worker)),
                ("at_ms", Out::uint(*at_ms)),
                ("hang_ms", Out::uint(*hang_ms)),
            ]
        }
        Fault::Crash { worker, at_ms } => {
            vec![tag("crash"), ("worker", Out::str(worker)), ("at_ms", Out::uint(*at_ms))]
        }
        Fault::LoseReply { worker, step, attempt } => vec![
            tag("lose-reply"),
            ("worker", Out::str(worker)),
            ("step", Out::uint(*step as u64)),
            ("attempt", Out::Int(i64::from(*attempt))),
        ],
        Fault::Delay { worker, at_ms, window_ms, delay_ms } => vec![
            tag("delay"),
            ("worker", Out::str(worker)),
            ("at_ms", Out::uint(*at_ms)),
            ("window_ms", Out::uint(*window_ms)),
            ("delay_ms", Out::uint(*delay_ms)),
        ],
        Fault::CrashNode { node, at_ms, kind, restart_after_ms } => {
            let mut m = vec![
                tag("crash-node"),
                ("node", Out::str(node)),
                ("at_ms", Out::uint(*at_ms)),
                ("kind", out_word(*kind, CRASHES)),
            ];
            if let Some(ms) = restart_after_ms {
                m.push(("restart_after_ms", Out::uint(*ms)));
            }
            m
        }
        Fault::ClockJump { node, at_ms, jump_ms } => {
            vec![
                tag("clock-jump"),
                ("node", Out::str(node)),
                ("at_ms", Out::uint(*at_ms)),
                ("jump_ms", Out::Int(*jump_ms)),
            ]
        }
        Fault::Partition { worker, node, at_ms, partition_ms } => vec![
            tag("partition"),
            ("worker", Out::str(worker)),
            ("node", Out::str(node)),
            ("at_ms", Out::uint(*at_ms)),
            ("partition_ms", Out::uint(*partition_ms)),
        ],
        Fault::SetCounter { at_ms, value } => {
            vec![tag("set-counter"), ("at_ms", Out::uint(*at_ms)), ("value", Out::str(value))]
        }
    })
}

pub(crate) fn write_anchor(a: &Anchor) -> Out {
    let mut m = Vec::new();
    if let Some(e) = &a.event {
        m.push(("event", Out::str(e)));
    }
    if let Some(actor) = &a.actor {
        m.push(("actor", Out::str(actor)));
    }
    if let Some(n) = a.nth {
        m.push(("nth", Out::Int(i64::from(n))));
    }
    if let Some(t) = a.at_ms {
        m.push(("at_ms", Out::uint(t)));
    }
    Out::Obj(m)
}
