//! One Redis 7 node's keyspace and the string commands the playground uses, with Redis'
//! exact replies and error texts.
//!
//! Owns values, absolute expiry deadlines on the node's own clock, lazy expiry, and the
//! parsing of `redis-cli`-style argument lists into typed commands. It knows nothing of
//! replication, crashes or workers (see `world`), and never reads a clock: the caller
//! passes the node's wall-clock time in every call.

pub mod slot;

use crate::sim::sorted::SortedMap;
use std::fmt::Write as _;

/// A reply as RESP2 carries it.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Reply {
    /// The status reply `+OK`.
    Ok,
    /// The null bulk reply.
    Nil,
    Int(i64),
    Bulk(String),
    Array(Vec<Reply>),
    /// An error reply; the text includes its code, e.g. `ERR syntax error`.
    Error(String),
}

impl Reply {
    pub fn error(text: impl Into<String>) -> Reply {
        Reply::Error(text.into())
    }

    /// The reply as `redis-cli --no-raw` prints it, lines joined with `\n`.
    pub fn to_cli(&self) -> String {
        let mut out = String::new();
        write_cli(self, "", &mut out);
        out
    }

    /// A compact one-line form for traces: `OK`, `(nil)`, `33`, `"A"`, `[1, 33]`, `(error) ...`.
    pub fn to_inline(&self) -> String {
        let mut out = String::new();
        self.write_inline(&mut out);
        out
    }

    /// [`Reply::to_inline`] into one buffer (a trace builds one per request).
    fn write_inline(&self, out: &mut String) {
        match self {
            Reply::Ok => out.push_str("OK"),
            Reply::Nil => out.push_str("(nil)"),
            Reply::Int(n) => {
                let _ = write!(out, "{n}");
            }
            // redis-cli's quoting (the same as Rust's for the names and numbers a run
            // stores), which keeps string escaping code out of the page.
            Reply::Bulk(s) => write_quoted_cli(s, out),
            Reply::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write_inline(out);
                }
                out.push(']');
            }
            Reply::Error(e) => {
                out.push_str("(error) ");
                out.push_str(e);
            }
        }
    }
}

fn write_cli(reply: &Reply, indent: &str, out: &mut String) {
    match reply {
        Reply::Ok => out.push_str("OK"),
        Reply::Nil => out.push_str("(nil)"),
        Reply::Int(n) => out.push_str(&format!("(integer) {n}")),
        Reply::Bulk(s) => out.push_str(&quote_cli(s)),
        Reply::Error(e) => out.push_str(&format!("(error) {e}")),
        Reply::Array(items) if items.is_empty() => out.push_str("(empty array)"),
        Reply::Array(items) => {
            // redis-cli right-aligns the numbers and indents nested arrays under the number.
            let width = items.len().to_string().len();
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                    out.push_str(indent);
                }
                let label = format!("{:>width$}) ", i + 1);
                out.push_str(&label);
                let nested = format!("{indent}{}", " ".repeat(label.len()));
                write_cli(item, &nested, out);
            }
        }
    }
}

/// Quotes a bulk string as redis-cli does: in double quotes, escaping `\`, `"` and bytes
/// outside printable ASCII.
pub fn quote_cli(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    write_quoted_cli(text, &mut out);
    out
}

fn write_quoted_cli(text: &str, out: &mut String) {
    out.push('"');
    for byte in text.bytes() {
        match byte {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x07 => out.push_str("\\a"),
            0x08 => out.push_str("\\b"),
            0x20..=0x7e => out.push(char::from(byte)),
            _ => {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
    }
    out.push('"');
}

/// The NX / XX condition of `SET`.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum SetCondition {
    Always,
    IfAbsent,
    IfPresent,
}

/// The expiry part of `SET`.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum SetExpiry {
    /// No option: a successful SET discards any previous TTL.
    Clear,
    /// `EX s`, `PX ms`, `EXAT s`, `PXAT ms` all become an absolute deadline in ms.
    At {
        deadline_ms: i64,
    },
    KeepTtl,
}

/// A typed command, ready to run on a keyspace.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Command {
    Set {
        key: String,
        value: String,
        condition: SetCondition,
        expiry: SetExpiry,
        get: bool,
    },
    Get {
        key: String,
    },
    Del {
        keys: Vec<String>,
    },
    Exists {
        keys: Vec<String>,
    },
    Incr {
        key: String,
    },
    PExpire {
        key: String,
        ttl_ms: i64,
    },
    PTtl {
        key: String,
    },
    /// `WAIT numreplicas timeout`; answered by the world, which knows the replicas.
    Wait {
        replicas: i64,
        timeout_ms: i64,
    },
}

impl Command {
    /// True for commands that may change the keyspace (and so are replicated).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Command::Set { .. }
                | Command::Del { .. }
                | Command::Incr { .. }
                | Command::PExpire { .. }
        )
    }
}

/// A stored string and its absolute deadline on the owning node's clock.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Entry {
    pub value: String,
    pub expire_at_ms: Option<i64>,
}

/// How a node treats keys whose deadline has passed.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum ExpiryRole {
    /// A primary deletes them on access (and the world replicates a `DEL`).
    Delete,
    /// A replica keeps them but reports them missing to reads.
    Hide,
}

/// A change made to a keyspace, in the form it is replicated and persisted: Redis 7
/// propagates effects, and `SET ... PX` is rewritten with an absolute deadline.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Effect {
    /// The key now holds `entry`; `sent_as` is the command the replication stream carries
    /// for it (a replica that applies it ends with the same entry either way).
    Put {
        key: String,
        entry: Entry,
        sent_as: SentAs,
    },
    Delete {
        key: String,
    },
}

/// The command Redis 7 propagates for a write: `SET ... PXAT` for a `SET` (its relative
/// expiry made absolute), `INCR` as itself, `PEXPIREAT` for a `PEXPIRE`.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum SentAs {
    Set,
    Incr,
    PExpireAt,
}

/// A command's effects: always counted, and kept as values only when someone needs them
/// (a primary with replicas). A node nobody replicates from needs to know that something
/// changed, not what, and then builds no effect at all.
#[derive(Debug, Default)]
pub struct Effects {
    kept: Option<Vec<Effect>>,
    count: usize,
}

impl Effects {
    /// Effects that will be replicated: each one is built and kept.
    pub fn kept() -> Effects {
        Effects { kept: Some(Vec::new()), count: 0 }
    }

    /// Effects that are only counted.
    pub fn counted() -> Effects {
        Effects::default()
    }

    pub fn record(&mut self, effect: impl FnOnce() -> Effect) {
        self.count += 1;
        if let Some(kept) = &mut self.kept {
            kept.push(effect());
        }
    }

    /// How many effects were recorded (kept or not).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The kept effects, in order (empty when they were only counted).
    pub fn into_vec(self) -> Vec<Effect> {
        self.kept.unwrap_or_default()
    }
}

/// One node's data.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Keyspace {
    entries: SortedMap<String, Entry>,
}

impl Keyspace {
    pub fn new() -> Keyspace {
        Keyspace::default()
    }

    /// The live entry at `now_ms`, without side effects (for inspectors and replicas).
    pub fn peek(&self, key: &str, now_ms: i64) -> Option<&Entry> {
        self.entries.get(key).filter(|entry| !is_expired(entry, now_ms))
    }

    /// The stored entry even if its deadline has passed (what a replica still holds).
    pub fn raw(&self, key: &str) -> Option<&Entry> {
        self.entries.get(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Entry)> {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The earliest deadline of any stored key, on this node's clock.
    pub fn next_deadline_ms(&self) -> Option<i64> {
        self.entries.values().filter_map(|entry| entry.expire_at_ms).min()
    }

    /// Deletes every key whose deadline is at or before `now_ms`, returning their names in
    /// key order (the primary's active expiry; each becomes a replicated `DEL`).
    pub fn expire_due(&mut self, now_ms: i64) -> Vec<String> {
        let due: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, entry)| is_expired(entry, now_ms))
            .map(|(key, _)| key.clone())
            .collect();
        for key in &due {
            self.entries.remove(key);
        }
        due
    }

    pub fn apply(&mut self, effect: &Effect) {
        match effect {
            Effect::Put { key, entry, .. } => {
                self.entries.insert(key.clone(), entry.clone());
            }
            Effect::Delete { key } => {
                self.entries.remove(key);
            }
        }
    }

    /// Runs one command at `now_ms` on this node's clock and returns the reply and the
    /// effects to replicate, in order. `Wait` is not a keyspace command and answers an error.
    pub fn exec(
        &mut self,
        command: &Command,
        now_ms: i64,
        role: ExpiryRole,
    ) -> (Reply, Vec<Effect>) {
        let mut effects = Effects::kept();
        let reply = self.exec_into(command, now_ms, role, &mut effects);
        (reply, effects.into_vec())
    }

    /// [`Keyspace::exec`] with the effects handed to `effects`, which may only count them.
    ///
    /// Longer than 100 lines on purpose: one arm per command, each a few lines that mirror
    /// the Redis source; split up, the table of commands would no longer read as one.
    pub fn exec_into(
        &mut self,
        command: &Command,
        now_ms: i64,
        role: ExpiryRole,
        effects: &mut Effects,
    ) -> Reply {
        match command {
            Command::Set { key, value, condition, expiry, get } => {
                self.expire_if_due(key, now_ms, role, effects);
                let old = self.entries.get(key);
                let exists = old.is_some();
                let old_expire_at_ms = old.and_then(|entry| entry.expire_at_ms);
                // Only `GET` needs the old value copied out.
                let old_reply = match (get, old) {
                    (true, Some(entry)) => Reply::Bulk(entry.value.clone()),
                    _ => Reply::Nil,
                };
                let allowed = match condition {
                    SetCondition::Always => true,
                    SetCondition::IfAbsent => !exists,
                    SetCondition::IfPresent => exists,
                };
                if allowed {
                    let expire_at_ms = match expiry {
                        SetExpiry::Clear => None,
                        SetExpiry::At { deadline_ms } => Some(*deadline_ms),
                        SetExpiry::KeepTtl => old_expire_at_ms,
                    };
                    let entry = Entry { value: value.clone(), expire_at_ms };
                    // A deadline already in the past (PXAT in the past) deletes at once.
                    if is_expired(&entry, now_ms) {
                        if self.entries.remove(key).is_some() {
                            effects.record(|| Effect::Delete { key: key.clone() });
                        }
                    } else {
                        self.entries.insert(key.clone(), entry.clone());
                        effects.record(|| Effect::Put {
                            key: key.clone(),
                            entry,
                            sent_as: SentAs::Set,
                        });
                    }
                }
                match (get, allowed) {
                    (true, _) => old_reply,
                    (false, true) => Reply::Ok,
                    (false, false) => Reply::Nil,
                }
            }
            Command::Get { key } => match self.lookup(key, now_ms, role, effects) {
                Some(entry) => Reply::Bulk(entry.value.clone()),
                None => Reply::Nil,
            },
            Command::Del { keys } => {
                let mut removed = 0;
                for key in keys {
                    self.expire_if_due(key, now_ms, role, effects);
                    if self.entries.remove(key).is_some() {
                        removed += 1;
                        effects.record(|| Effect::Delete { key: key.clone() });
                    }
                }
                Reply::Int(removed)
            }
            Command::Exists { keys } => {
                let mut count = 0;
                for key in keys {
                    if self.lookup(key, now_ms, role, effects).is_some() {
                        count += 1;
                    }
                }
                Reply::Int(count)
            }
            Command::Incr { key } => {
                self.expire_if_due(key, now_ms, role, effects);
                let (current, expire_at_ms) = match self.entries.get(key) {
                    Some(entry) => match parse_redis_int(&entry.value) {
                        Some(n) => (n, entry.expire_at_ms),
                        None => return Reply::error(ERR_NOT_INTEGER),
                    },
                    None => (0, None),
                };
                match current.checked_add(1) {
                    None => Reply::error("ERR increment or decrement would overflow"),
                    Some(next) => {
                        // INCR keeps the key's TTL.
                        match self.entries.get_mut(key) {
                            Some(entry) => {
                                // Rewrites the digits in the value's own buffer.
                                entry.value.clear();
                                let _ = write!(entry.value, "{next}");
                            }
                            None => {
                                let entry = Entry { value: next.to_string(), expire_at_ms };
                                self.entries.insert(key.clone(), entry);
                            }
                        }
                        if let Some(entry) = self.entries.get(key) {
                            effects.record(|| Effect::Put {
                                key: key.clone(),
                                entry: entry.clone(),
                                sent_as: SentAs::Incr,
                            });
                        }
                        Reply::Int(next)
                    }
                }
            }
            Command::PExpire { key, ttl_ms } => {
                // Redis checks the deadline for overflow before it looks the key up.
                match now_ms.checked_add(*ttl_ms) {
                    None => Reply::error("ERR invalid expire time in 'pexpire' command"),
                    Some(_) if self.lookup(key, now_ms, role, effects).is_none() => Reply::Int(0),
                    Some(deadline_ms) if deadline_ms <= now_ms => {
                        // A deadline not in the future deletes the key (the event is `del`).
                        self.entries.remove(key);
                        effects.record(|| Effect::Delete { key: key.clone() });
                        Reply::Int(1)
                    }
                    Some(deadline_ms) => match self.entries.get_mut(key) {
                        Some(entry) => {
                            entry.expire_at_ms = Some(deadline_ms);
                            let entry = entry.clone();
                            let sent_as = SentAs::PExpireAt;
                            effects.record(|| Effect::Put { key: key.clone(), entry, sent_as });
                            Reply::Int(1)
                        }
                        None => Reply::Int(0),
                    },
                }
            }
            Command::PTtl { key } => match self.lookup(key, now_ms, role, effects) {
                None => Reply::Int(-2),
                Some(Entry { expire_at_ms: None, .. }) => Reply::Int(-1),
                Some(Entry { expire_at_ms: Some(deadline), .. }) => {
                    Reply::Int((deadline - now_ms).max(0))
                }
            },
            Command::Wait { .. } => Reply::error("ERR WAIT is answered by the replication model"),
        }
    }

    fn lookup(
        &mut self,
        key: &str,
        now_ms: i64,
        role: ExpiryRole,
        effects: &mut Effects,
    ) -> Option<&Entry> {
        self.expire_if_due(key, now_ms, role, effects);
        self.entries.get(key).filter(|entry| !is_expired(entry, now_ms))
    }

    fn expire_if_due(&mut self, key: &str, now_ms: i64, role: ExpiryRole, effects: &mut Effects) {
        if role == ExpiryRole::Hide {
            return;
        }
        if self.entries.get(key).is_some_and(|entry| is_expired(entry, now_ms)) {
            self.entries.remove(key);
            effects.record(|| Effect::Delete { key: key.to_owned() });
        }
    }
}

fn is_expired(entry: &Entry, now_ms: i64) -> bool {
    // Redis treats a key as expired once now > deadline (keyIsExpired: now > when).
    entry.expire_at_ms.is_some_and(|deadline| now_ms > deadline)
}

pub const ERR_NOT_INTEGER: &str = "ERR value is not an integer or out of range";
pub const ERR_SYNTAX: &str = "ERR syntax error";

/// Parses an integer exactly as Redis' `string2ll` does: optional `-`, no `+`, no leading
/// zeros, no spaces, within i64.
pub fn parse_redis_int(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > 20 {
        return None;
    }
    if bytes == b"0" {
        return Some(0);
    }
    let (negative, digits) = match bytes[0] {
        b'-' => (true, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() || digits[0] == b'0' || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut value: i128 = 0;
    for &d in digits {
        value = value * 10 + i128::from(d - b'0');
        if value > i128::from(i64::MAX) + 1 {
            return None;
        }
    }
    let value = if negative { -value } else { value };
    i64::try_from(value).ok()
}

/// Parses one `redis-cli` argument list (already split and unquoted) into a command.
/// Errors are the reply Redis gives, so a console can print them as they are.
pub fn parse_command(args: &[String], now_ms: i64) -> Result<Command, Reply> {
    let Some(name) = args.first() else {
        return Err(Reply::error("ERR empty command"));
    };
    let lower = name.to_ascii_lowercase();
    let rest = &args[1..];
    let arity = |min: usize, exact: bool| -> Result<(), Reply> {
        let ok = if exact { rest.len() + 1 == min } else { rest.len() + 1 >= min };
        if ok {
            Ok(())
        } else {
            Err(Reply::error(format!("ERR wrong number of arguments for '{lower}' command")))
        }
    };
    match lower.as_str() {
        "set" => {
            arity(3, false)?;
            parse_set(rest, now_ms)
        }
        "get" => {
            arity(2, true)?;
            Ok(Command::Get { key: rest[0].clone() })
        }
        "del" => {
            arity(2, false)?;
            Ok(Command::Del { keys: rest.to_vec() })
        }
        "exists" => {
            arity(2, false)?;
            Ok(Command::Exists { keys: rest.to_vec() })
        }
        "incr" => {
            arity(2, true)?;
            Ok(Command::Incr { key: rest[0].clone() })
        }
        "pexpire" => {
            arity(3, false)?;
            let ttl_ms = parse_redis_int(&rest[1]).ok_or_else(|| Reply::error(ERR_NOT_INTEGER))?;
            if rest.len() > 2 {
                return Err(Reply::error(
                    "ERR PEXPIRE options NX, XX, GT and LT are not supported in this model",
                ));
            }
            Ok(Command::PExpire { key: rest[0].clone(), ttl_ms })
        }
        "pttl" => {
            arity(2, true)?;
            Ok(Command::PTtl { key: rest[0].clone() })
        }
        "wait" => {
            arity(3, true)?;
            let replicas =
                parse_redis_int(&rest[0]).ok_or_else(|| Reply::error(ERR_NOT_INTEGER))?;
            let timeout_ms =
                parse_redis_int(&rest[1]).ok_or_else(|| Reply::error(ERR_NOT_INTEGER))?;
            if timeout_ms < 0 {
                return Err(Reply::error("ERR timeout is negative"));
            }
            Ok(Command::Wait { replicas, timeout_ms })
        }
        _ => {
            let mut text = format!("ERR unknown command '{name}', with args beginning with: ");
            for arg in rest {
                text.push_str(&format!("'{arg}' "));
            }
            Err(Reply::Error(text))
        }
    }
}

fn parse_set(rest: &[String], now_ms: i64) -> Result<Command, Reply> {
    // Mirrors t_string.c parseExtendedStringArgumentsOrReply: options are checked for
    // syntax first (a repeated NX, GET or EX is accepted, the last EX wins), and the expiry
    // value is parsed only after the whole list.
    #[derive(Clone, Copy, PartialEq)]
    enum Unit {
        Ex,
        Px,
        ExAt,
        PxAt,
    }
    let key = rest[0].clone();
    let value = rest[1].clone();
    let mut condition = SetCondition::Always;
    let mut get = false;
    let mut keep_ttl = false;
    let mut timed: Option<(Unit, &String)> = None;
    let mut i = 2;
    while i < rest.len() {
        let option = rest[i].to_ascii_lowercase();
        let next = rest.get(i + 1);
        let unit = match option.as_str() {
            "ex" => Some(Unit::Ex),
            "px" => Some(Unit::Px),
            "exat" => Some(Unit::ExAt),
            "pxat" => Some(Unit::PxAt),
            _ => None,
        };
        match (option.as_str(), unit, next) {
            ("nx", ..) if condition != SetCondition::IfPresent => {
                condition = SetCondition::IfAbsent
            }
            ("xx", ..) if condition != SetCondition::IfAbsent => {
                condition = SetCondition::IfPresent
            }
            ("get", ..) => get = true,
            ("keepttl", ..) if timed.is_none() => keep_ttl = true,
            (_, Some(unit), Some(raw))
                if !keep_ttl && timed.is_none_or(|(seen, _)| seen == unit) =>
            {
                timed = Some((unit, raw));
                i += 1;
            }
            _ => return Err(Reply::error(ERR_SYNTAX)),
        }
        i += 1;
    }
    let expiry = match timed {
        None if keep_ttl => SetExpiry::KeepTtl,
        None => SetExpiry::Clear,
        Some((unit, raw)) => {
            let amount = parse_redis_int(raw).ok_or_else(|| Reply::error(ERR_NOT_INTEGER))?;
            let invalid = || Reply::error("ERR invalid expire time in 'set' command");
            let in_seconds = matches!(unit, Unit::Ex | Unit::ExAt);
            if amount <= 0 || (in_seconds && amount > i64::MAX / 1000) {
                return Err(invalid());
            }
            let ms = if in_seconds { amount * 1000 } else { amount };
            let deadline_ms = match unit {
                Unit::Ex | Unit::Px => ms.checked_add(now_ms).ok_or_else(invalid)?,
                Unit::ExAt | Unit::PxAt => ms,
            };
            SetExpiry::At { deadline_ms }
        }
    };
    Ok(Command::Set { key, value, condition, expiry, get })
}

/// Renders a command as a learner would type it into redis-cli.
pub fn command_text(args: &[&str]) -> String {
    let mut out = String::with_capacity(args.iter().map(|arg| arg.len() + 1).sum());
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let plain = !arg.is_empty()
            && arg.bytes().all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\'' && b != b'\\');
        if plain {
            out.push_str(arg);
        } else {
            write_quoted_cli(arg, &mut out);
        }
    }
    out
}

#[cfg(test)]
mod tests;
