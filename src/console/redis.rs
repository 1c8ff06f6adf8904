//! A Redis console on the model's keyspace: `redis-cli` argument syntax (quotes and
//! escapes), the commands the model supports, the three lock scripts by `EVAL`, and
//! replies printed exactly as `redis-cli --no-raw` prints them. `ADVANCE <ms>` is a
//! console-only command that moves virtual time.

use crate::sim::redis::{Command, ExpiryRole, Keyspace, Reply, parse_command, parse_redis_int};
use crate::sim::script::Script;

/// One console session: a keyspace and its clock (wall-clock ms on the model's node).
#[derive(Clone, Debug)]
pub struct RedisConsole {
    pub keyspace: Keyspace,
    pub now_ms: i64,
}

impl RedisConsole {
    pub fn new(now_ms: i64) -> RedisConsole {
        RedisConsole { keyspace: Keyspace::new(), now_ms }
    }

    /// Runs one typed line; returns what redis-cli would print (empty for a blank line).
    pub fn run_line(&mut self, line: &str) -> String {
        match split_args(line) {
            None => "Invalid argument(s)".to_owned(),
            Some(args) if args.is_empty() => String::new(),
            // Status replies other than OK, printed bare as redis-cli prints them.
            Some(args) if args.len() == 1 && args[0].eq_ignore_ascii_case("ping") => {
                "PONG".to_owned()
            }
            Some(args) if args[0].eq_ignore_ascii_case("help") => HELP.to_owned(),
            Some(args) => self.exec(&args).to_cli(),
        }
    }

    /// Runs one command given as arguments.
    pub fn exec(&mut self, args: &[String]) -> Reply {
        let Some(name) = args.first() else { return Reply::error("ERR empty command") };
        match name.to_ascii_lowercase().as_str() {
            "advance" => match args.get(1).map(|ms| (ms, parse_redis_int(ms))) {
                Some((_, Some(ms))) if args.len() == 2 && ms >= 0 => {
                    self.now_ms = self.now_ms.saturating_add(ms);
                    Reply::Ok
                }
                // Each refusal says which rule the argument broke.
                Some((_, Some(_))) if args.len() == 2 => {
                    Reply::error("ERR ADVANCE cannot move the clock back (a console-only command)")
                }
                Some((text, None))
                    if args.len() == 2
                        && !text.is_empty()
                        && text.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) =>
                {
                    Reply::error(format!(
                        "ERR ADVANCE takes at most {} milliseconds (a console-only command)",
                        i64::MAX
                    ))
                }
                _ => Reply::error(
                    "ERR ADVANCE takes one number of milliseconds (a console-only command)",
                ),
            },
            "eval" | "evalsha" => self.eval(args),
            "help" => Reply::Bulk(HELP.to_owned()),
            // PING answers the status PONG (the model's replies have no status but OK, so
            // it is a string here and `run_line` prints it bare), or echoes its argument.
            "ping" => match args.len() {
                1 => Reply::Bulk("PONG".to_owned()),
                2 => Reply::Bulk(args[1].clone()),
                _ => Reply::error("ERR wrong number of arguments for 'ping' command"),
            },
            // TTL is PTTL in seconds, rounded as Redis rounds ((ms + 500) / 1000).
            "ttl" => match parse_command(
                &[String::from("pttl"), args.get(1).cloned().unwrap_or_default()],
                self.now_ms,
            ) {
                _ if args.len() != 2 => {
                    Reply::error("ERR wrong number of arguments for 'ttl' command")
                }
                Ok(command) => {
                    match self.keyspace.exec(&command, self.now_ms, ExpiryRole::Delete).0 {
                        Reply::Int(ms) if ms >= 0 => Reply::Int((ms + 500) / 1000),
                        other => other,
                    }
                }
                Err(reply) => reply,
            },
            "expire" => self.expire(args),
            _ => match parse_command(args, self.now_ms) {
                Ok(Command::Wait { .. }) => Reply::Int(0),
                Ok(command) => self.keyspace.exec(&command, self.now_ms, ExpiryRole::Delete).0,
                Err(reply) => reply,
            },
        }
    }

    /// `EXPIRE key seconds`: PEXPIRE after Redis' own checks, in its order: an integer,
    /// seconds that fit in milliseconds, a deadline that fits, then the key.
    fn expire(&mut self, args: &[String]) -> Reply {
        if args.len() < 3 {
            return Reply::error("ERR wrong number of arguments for 'expire' command");
        }
        let Some(seconds) = parse_redis_int(&args[2]) else {
            return Reply::error(crate::sim::redis::ERR_NOT_INTEGER);
        };
        if args.len() > 3 {
            return Reply::error(
                "ERR EXPIRE options NX, XX, GT and LT are not supported in this model",
            );
        }
        let invalid = || Reply::error("ERR invalid expire time in 'expire' command");
        let Some(ttl_ms) = seconds.checked_mul(1000) else { return invalid() };
        if self.now_ms.checked_add(ttl_ms).is_none() {
            return invalid();
        }
        let command = Command::PExpire { key: args[1].clone(), ttl_ms };
        self.keyspace.exec(&command, self.now_ms, ExpiryRole::Delete).0
    }

    fn eval(&mut self, args: &[String]) -> Reply {
        let by_sha = args[0].eq_ignore_ascii_case("evalsha");
        let arity = || {
            Reply::error(format!(
                "ERR wrong number of arguments for '{}' command",
                args[0].to_ascii_lowercase()
            ))
        };
        if args.len() < 3 {
            return arity();
        }
        let Some(n_keys) = parse_redis_int(&args[2]) else {
            return Reply::error(crate::sim::redis::ERR_NOT_INTEGER);
        };
        if n_keys < 0 {
            return Reply::error("ERR Number of keys can't be negative");
        }
        let rest = &args[3..];
        let Ok(n_keys) = usize::try_from(n_keys) else {
            return Reply::error("ERR Number of keys can't be greater than number of args");
        };
        if n_keys > rest.len() {
            return Reply::error("ERR Number of keys can't be greater than number of args");
        }
        let body = &args[1];
        let script = if by_sha {
            [Script::Acquire, Script::Release, Script::Renew]
                .into_iter()
                .find(|s| s.sha1_hex().eq_ignore_ascii_case(body))
        } else {
            // `<acquire>` as shown in the trace works too, so a learner can paste a line.
            [Script::Acquire, Script::Release, Script::Renew]
                .into_iter()
                .find(|s| s.label() == body.as_str())
                .or_else(|| Script::from_body(body.trim()))
        };
        let Some(script) = script else {
            return if by_sha {
                Reply::error("NOSCRIPT No matching script. Please use EVAL.")
            } else {
                Reply::error(
                    "ERR this model runs only the playground's three scripts (<acquire>, <release>, <renew>), not arbitrary Lua",
                )
            };
        };
        let (keys, argv) = rest.split_at(n_keys);
        let mut effects = crate::sim::redis::Effects::counted();
        script.run(&mut self.keyspace, keys, argv, self.now_ms, ExpiryRole::Delete, &mut effects)
    }
}

/// What `HELP` prints: the model's commands (a console-only command, like `ADVANCE`).
const HELP: &str = "This console runs the model's Redis, not a server. It knows:\n\
  SET key value [NX|XX] [PX ms|EX s|PXAT ms|EXAT s|KEEPTTL] [GET]\n\
  GET key   DEL key [key ...]   EXISTS key [key ...]   INCR key\n\
  PEXPIRE key ms   EXPIRE key s   PTTL key   TTL key   PING [message]\n\
  EVAL <acquire>|<release>|<renew> numkeys key ... arg ...   EVALSHA sha1 numkeys ...\n\
  ADVANCE ms (moves the model's clock; console only)   HELP\n\
Up and Down recall earlier lines; Tab completes commands and options.";

/// Splits a line the way redis-cli does (`sdssplitargs`): spaces separate arguments;
/// double quotes allow `\n \r \t \b \a \\ \" \xHH`; single quotes allow only `\'`; a
/// closing quote must be followed by a space or the end. `None` for unbalanced quotes.
pub fn split_args(line: &str) -> Option<Vec<String>> {
    // A C string ends at NUL, and so does redis-cli's line (found by tests/fuzz).
    let bytes = line.as_bytes();
    let bytes = &bytes[..bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len())];
    let mut args = Vec::new();
    let mut i = 0;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return Some(args);
        }
        let mut current: Vec<u8> = Vec::new();
        let mut in_double = false;
        let mut in_single = false;
        loop {
            let Some(&c) = bytes.get(i) else {
                if in_double || in_single {
                    return None;
                }
                break;
            };
            if in_double {
                if c == b'\\'
                    && i + 3 < bytes.len()
                    && bytes[i + 1] == b'x'
                    && bytes[i + 2].is_ascii_hexdigit()
                    && bytes[i + 3].is_ascii_hexdigit()
                {
                    // Both are ASCII hex digits (checked above), so these cannot fail.
                    let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).ok()?;
                    current.push(u8::from_str_radix(hex, 16).ok()?);
                    i += 4;
                    continue;
                }
                if c == b'\\' && i + 1 < bytes.len() {
                    i += 1;
                    current.push(match bytes[i] {
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'b' => 0x08,
                        b'a' => 0x07,
                        other => other,
                    });
                } else if c == b'"' {
                    // The closing quote must be followed by a space or the end.
                    if bytes.get(i + 1).is_some_and(|n| !n.is_ascii_whitespace()) {
                        return None;
                    }
                    i += 1;
                    break;
                } else {
                    current.push(c);
                }
            } else if in_single {
                if c == b'\\' && bytes.get(i + 1) == Some(&b'\'') {
                    i += 1;
                    current.push(b'\'');
                } else if c == b'\'' {
                    if bytes.get(i + 1).is_some_and(|n| !n.is_ascii_whitespace()) {
                        return None;
                    }
                    i += 1;
                    break;
                } else {
                    current.push(c);
                }
            } else {
                match c {
                    b' ' | b'\n' | b'\r' | b'\t' => break,
                    b'"' => in_double = true,
                    b'\'' => in_single = true,
                    _ => current.push(c),
                }
            }
            i += 1;
        }
        args.push(String::from_utf8_lossy(&current).into_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::{RedisConsole, split_args};

    fn check(script: &str, expect: &str) {
        let mut console = RedisConsole::new(1_700_000_000_000);
        let out: Vec<String> = script
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| console.run_line(l))
            .collect();
        let expect: Vec<&str> =
            expect.lines().map(str::trim_start).filter(|l| !l.is_empty()).collect();
        assert_eq!(out.join("\n").lines().collect::<Vec<_>>(), expect, "{script}");
    }

    #[test]
    fn splits_like_redis_cli() {
        let split = |s: &str| split_args(s).unwrap();
        assert_eq!(split(r#"SET k "a b" 'c d'"#), ["SET", "k", "a b", "c d"]);
        assert_eq!(split(r#"SET k "a\nb\x41""#), ["SET", "k", "a\nbA"]);
        assert_eq!(split(r"SET k 'it\'s'"), ["SET", "k", "it's"]);
        assert_eq!(split("   "), Vec::<String>::new());
        assert!(split_args(r#"SET k "unterminated"#).is_none());
        assert!(split_args(r#"SET k "a"b"#).is_none());
        // NUL ends the line, as it ends a C string (a fuzzer find: it used to loop forever).
        assert_eq!(split_args("GET k\0 more"), Some(vec!["GET".to_owned(), "k".to_owned()]));
    }

    #[test]
    fn runs_the_lock_scripts_and_advances_time() {
        check(
            "SET fence:order:42 32
             EVAL <acquire> 2 lock:order:42 fence:order:42 A 30000
             EVAL <acquire> 2 lock:order:42 fence:order:42 B 30000
             ADVANCE 30001
             EVAL <acquire> 2 lock:order:42 fence:order:42 B 30000
             EVAL <release> 1 lock:order:42 A
             EVAL <renew> 1 lock:order:42 B 60000
             PTTL lock:order:42
             EVAL 'return 1' 0
             EVAL <acquire> 5 a
             ADVANCE soon",
            "OK
             1) (integer) 1
             2) (integer) 33
             1) (integer) 0
             2) (integer) 0
             OK
             1) (integer) 1
             2) (integer) 34
             (integer) 0
             (integer) 1
             (integer) 60000
             (error) ERR this model runs only the playground's three scripts (<acquire>, <release>, <renew>), not arbitrary Lua
             (error) ERR Number of keys can't be greater than number of args
             (error) ERR ADVANCE takes one number of milliseconds (a console-only command)",
        );
    }

    /// Issue 29, items 9 and 12: a refusal names the rule the input broke, and WAIT checks
    /// its arguments as Redis does before answering 0 (no replica here).
    #[test]
    fn advance_and_wait_refuse_with_the_right_reason() {
        check(
            "ADVANCE 18446744073709551615
             ADVANCE -1
             ADVANCE x
             ADVANCE 1 2
             WAIT x y
             WAIT 1 -1
             WAIT 0 0",
            "(error) ERR ADVANCE takes at most 9223372036854775807 milliseconds (a console-only command)
             (error) ERR ADVANCE cannot move the clock back (a console-only command)
             (error) ERR ADVANCE takes one number of milliseconds (a console-only command)
             (error) ERR ADVANCE takes one number of milliseconds (a console-only command)
             (error) ERR value is not an integer or out of range
             (error) ERR timeout is negative
             (integer) 0",
        );
    }

    #[test]
    fn random_lines_never_panic() {
        let mut prng = crate::sim::prng::Prng::new(11);
        let pieces = [
            "SET",
            "GET",
            "INCR",
            "EVAL",
            "<acquire>",
            "PX",
            "NX",
            "\"",
            "'",
            "\\x4",
            "1",
            "-1",
            "k",
            " ",
            "ADVANCE",
            "9999999999999999999999",
            "PEXPIRE",
            "DEL",
            "EXISTS",
            "KEEPTTL",
            "GET",
        ];
        let mut console = RedisConsole::new(0);
        for _ in 0..20_000 {
            let n = prng.below(8) as usize;
            let line: String = (0..n)
                .map(|_| pieces[prng.below(pieces.len() as u64) as usize])
                .collect::<Vec<_>>()
                .join(" ");
            let _ = console.run_line(&line);
        }
    }
}
