//! The three Lua scripts of the lock, as their exact text and as native code that runs them
//! atomically on one keyspace.
//!
//! Owns script semantics: time frozen for the whole script, `redis.call` errors abort the
//! script without rolling back earlier writes, and all effects leave as one unit. It does
//! not interpret arbitrary Lua: only these texts are recognised (by body) anywhere.

use crate::sim::redis::{Command, Effects, ExpiryRole, Keyspace, Reply, SetCondition, SetExpiry};

/// Grants the lock and draws the fencing token in one atomic step.
pub const ACQUIRE_LUA: &str = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1, redis.call('INCR', KEYS[2])}
else
  return {0, 0}
end";

/// Deletes the lock only if it still holds the caller's value.
pub const RELEASE_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
else
  return 0
end";

/// Extends the lock only if it still holds the caller's value.
pub const RENEW_LUA: &str = "if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
else
  return 0
end";

/// One of the scripts above.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub enum Script {
    Acquire,
    Release,
    Renew,
}

impl Script {
    pub fn from_body(body: &str) -> Option<Script> {
        [Script::Acquire, Script::Release, Script::Renew].into_iter().find(|s| s.body() == body)
    }

    pub fn body(self) -> &'static str {
        match self {
            Script::Acquire => ACQUIRE_LUA,
            Script::Release => RELEASE_LUA,
            Script::Renew => RENEW_LUA,
        }
    }

    /// The short name used in traces: `EVAL <acquire> 2 ...`.
    pub fn label(self) -> &'static str {
        match self {
            Script::Acquire => "<acquire>",
            Script::Release => "<release>",
            Script::Renew => "<renew>",
        }
    }

    /// How many of the arguments are keys.
    pub fn n_keys(self) -> usize {
        match self {
            Script::Acquire => 2,
            Script::Release | Script::Renew => 1,
        }
    }

    /// The SHA-1 of the body, as `SCRIPT LOAD` and `EVALSHA` name it.
    pub fn sha1_hex(self) -> String {
        sha1_hex(self.body().as_bytes())
    }

    /// Runs the script atomically at `now_ms` (frozen for its whole run). On a
    /// `redis.call` error the script stops, keeps what it already wrote, and replies with
    /// the error as Redis 7 words it. Its effects go to `effects` (kept to replicate
    /// them, or only counted).
    pub fn run(
        self,
        keyspace: &mut Keyspace,
        keys: &[impl AsRef<str>],
        args: &[impl AsRef<str>],
        now_ms: i64,
        role: ExpiryRole,
        effects: &mut Effects,
    ) -> Reply {
        let mut call =
            |command: Command, line: u32, effects: &mut Effects| -> Result<Reply, Reply> {
                let reply = keyspace.exec_into(&command, now_ms, role, effects);
                match reply {
                    Reply::Error(text) => Err(Reply::Error(format!(
                        "{text} script: {}, on @user_script:{line}.",
                        self.sha1_hex()
                    ))),
                    other => Ok(other),
                }
            };
        let key = |i: usize| keys.get(i).map_or("", AsRef::as_ref);
        let arg = |i: usize| args.get(i).map_or("", AsRef::as_ref);
        let result = match self {
            Script::Acquire => {
                // ARGV[2] reaches SET as text. A positive count of milliseconds that does not
                // overflow the deadline builds the command directly (what SET's parser would
                // build); anything else goes through that parser, so a bad TTL gets SET's own
                // error.
                let deadline_ms = crate::sim::redis::parse_redis_int(arg(1))
                    .filter(|&ttl_ms| ttl_ms > 0)
                    .and_then(|ttl_ms| ttl_ms.checked_add(now_ms));
                let set = match deadline_ms {
                    Some(deadline_ms) => Ok(set_nx_px(key(0), arg(0), deadline_ms)),
                    None => crate::sim::redis::parse_command(
                        &[
                            "SET".into(),
                            key(0).to_owned(),
                            arg(0).to_owned(),
                            "NX".into(),
                            "PX".into(),
                            arg(1).to_owned(),
                        ],
                        now_ms,
                    ),
                };
                let granted = match set {
                    Ok(command) => call(command, 1, effects),
                    Err(Reply::Error(text)) => Err(Reply::Error(format!(
                        "{text} script: {}, on @user_script:1.",
                        self.sha1_hex()
                    ))),
                    Err(other) => Err(other),
                };
                match granted {
                    // Lua sees a nil bulk reply as false.
                    Ok(Reply::Nil) => Ok(Reply::Array(vec![Reply::Int(0), Reply::Int(0)])),
                    Ok(_) => call(Command::Incr { key: key(1).to_owned() }, 2, effects)
                        .map(|token| Reply::Array(vec![Reply::Int(1), through_lua_number(token)])),
                    Err(e) => Err(e),
                }
            }
            Script::Release | Script::Renew => {
                let current = call(Command::Get { key: key(0).to_owned() }, 1, effects);
                match current {
                    Ok(Reply::Bulk(value)) if value == arg(0) => {
                        if self == Script::Release {
                            call(Command::Del { keys: vec![key(0).to_owned()] }, 2, effects)
                        } else {
                            match crate::sim::redis::parse_redis_int(arg(1)) {
                                Some(ttl_ms) => call(
                                    Command::PExpire { key: key(0).to_owned(), ttl_ms },
                                    2,
                                    effects,
                                ),
                                None => Err(Reply::Error(format!(
                                    "{} script: {}, on @user_script:2.",
                                    crate::sim::redis::ERR_NOT_INTEGER,
                                    self.sha1_hex()
                                ))),
                            }
                        }
                    }
                    Ok(_) => Ok(Reply::Int(0)),
                    Err(e) => Err(e),
                }
            }
        };
        match result {
            Ok(reply) | Err(reply) => reply,
        }
    }
}

/// An integer reply that passed through a Lua 5.1 variable comes back as Redis converts
/// a Lua number: via a double (exact only up to 2^53), then a C cast to `long long`,
/// which on x86-64 turns 2^63 and beyond into i64::MIN. Measured on Redis 7: a counter
/// at 2^63-1 comes back from the acquire script as -9223372036854775808.
fn through_lua_number(reply: Reply) -> Reply {
    match reply {
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        Reply::Int(n) => {
            let as_double = n as f64;
            // 2^63 is exactly representable; anything at or above it overflows the cast.
            if as_double >= 9_223_372_036_854_775_808.0 {
                Reply::Int(i64::MIN)
            } else {
                Reply::Int(as_double as i64)
            }
        }
        other => other,
    }
}

/// The acquire script's SET, for callers that need the typed command (non-atomic variants).
pub fn set_nx_px(key: &str, value: &str, deadline_ms: i64) -> Command {
    Command::Set {
        key: key.to_owned(),
        value: value.to_owned(),
        condition: SetCondition::IfAbsent,
        expiry: SetExpiry::At { deadline_ms },
        get: false,
    }
}

/// SHA-1 (FIPS 180-4), only to name scripts the way Redis does.
pub fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0];
    let mut message = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&bit_len.to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let temp =
                a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = temp;
        }
        for (slot, value) in h.iter_mut().zip([a, b, c, d, e]) {
            *slot = slot.wrapping_add(value);
        }
    }
    h.iter().map(|word| format!("{word:08x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::{Script, sha1_hex};
    use crate::sim::redis::{Effect, Effects, ExpiryRole, Keyspace, Reply};

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn sha1_matches_known_digests() {
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }

    /// Runs a script on a primary, keeping its effects.
    fn run(
        script: Script,
        ks: &mut Keyspace,
        keys: &[String],
        args: &[String],
        now_ms: i64,
    ) -> (Reply, Vec<Effect>) {
        let mut effects = Effects::kept();
        let reply = script.run(ks, keys, args, now_ms, ExpiryRole::Delete, &mut effects);
        (reply, effects.into_vec())
    }

    #[test]
    fn acquire_grants_once_and_draws_a_token() {
        let mut ks = Keyspace::new();
        let keys = strings(&["lock:order:42", "fence:order:42"]);
        let (first, effects) = run(Script::Acquire, &mut ks, &keys, &strings(&["A", "30000"]), 0);
        assert_eq!(first, Reply::Array(vec![Reply::Int(1), Reply::Int(1)]));
        assert_eq!(effects.len(), 2, "lock and counter replicate together");
        let (second, effects) = run(Script::Acquire, &mut ks, &keys, &strings(&["B", "30000"]), 5);
        assert_eq!(second, Reply::Array(vec![Reply::Int(0), Reply::Int(0)]));
        assert!(effects.is_empty());
    }

    #[test]
    fn tokens_beyond_2_pow_53_come_back_through_a_double() {
        // Each case: the counter before the acquire, then the token the script replies.
        let check = |before: &str, expect: i64| {
            let mut ks = Keyspace::new();
            let set =
                crate::sim::redis::parse_command(&strings(&["SET", "fence", before]), 0).unwrap();
            ks.exec(&set, 0, ExpiryRole::Delete);
            let (reply, _) = run(
                Script::Acquire,
                &mut ks,
                &strings(&["lock", "fence"]),
                &strings(&["A", "30000"]),
                0,
            );
            assert_eq!(reply, Reply::Array(vec![Reply::Int(1), Reply::Int(expect)]), "{before}");
        };
        check("41", 42);
        check("9007199254740991", 9_007_199_254_740_992);
        check("9007199254740992", 9_007_199_254_740_992); // 2^53 + 1 rounds to even
        check("9223372036854775806", i64::MIN);
    }

    #[test]
    fn incr_error_leaves_the_lock_set_without_a_token() {
        let mut ks = Keyspace::new();
        let set = crate::sim::redis::parse_command(&strings(&["SET", "fence", "oops"]), 0).unwrap();
        ks.exec(&set, 0, ExpiryRole::Delete);
        let keys = strings(&["lock", "fence"]);
        let (reply, effects) = run(Script::Acquire, &mut ks, &keys, &strings(&["A", "30000"]), 0);
        match reply {
            Reply::Error(text) => {
                assert!(text.starts_with("ERR value is not an integer"), "{text}")
            }
            other => panic!("expected an error, got {other:?}"),
        }
        assert_eq!(effects.len(), 1, "no rollback: the SET stays");
        assert_eq!(ks.peek("lock", 0).map(|e| e.value.as_str()), Some("A"));
    }

    #[test]
    fn release_and_renew_touch_only_the_callers_lock() {
        let mut ks = Keyspace::new();
        let keys = strings(&["lock", "fence"]);
        run(Script::Acquire, &mut ks, &keys, &strings(&["B", "30000"]), 0);
        let lock = strings(&["lock"]);
        let (renew_a, _) = run(Script::Renew, &mut ks, &lock, &strings(&["A", "30000"]), 10);
        assert_eq!(renew_a, Reply::Int(0));
        let (release_a, _) = run(Script::Release, &mut ks, &lock, &strings(&["A"]), 10);
        assert_eq!(release_a, Reply::Int(0));
        let (renew_b, _) = run(Script::Renew, &mut ks, &lock, &strings(&["B", "60000"]), 10);
        assert_eq!(renew_b, Reply::Int(1));
        assert_eq!(ks.peek("lock", 10).and_then(|e| e.expire_at_ms), Some(60_010));
        let (release_b, _) = run(Script::Release, &mut ks, &lock, &strings(&["B"]), 10);
        assert_eq!(release_b, Reply::Int(1));
        assert!(ks.peek("lock", 10).is_none());
    }
}
