use super::{ExpiryRole, Keyspace, Reply, parse_command, parse_redis_int};

/// Runs `script` (one command per line, `@<ms>` lines move the node clock) on a fresh
/// primary keyspace and compares the printed replies with `expect`.
fn check(script: &str, expect: &str) {
    let mut keyspace = Keyspace::new();
    let mut now_ms = 1_000_000;
    let mut out = Vec::new();
    for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(ms) = line.strip_prefix('@') {
            now_ms = ms.parse().expect("test clock");
            continue;
        }
        let args: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let reply = match parse_command(&args, now_ms) {
            Ok(command) => keyspace.exec(&command, now_ms, ExpiryRole::Delete).0,
            Err(reply) => reply,
        };
        out.push(reply.to_cli());
    }
    let expect: Vec<&str> = expect.lines().map(str::trim_start).filter(|l| !l.is_empty()).collect();
    assert_eq!(out, expect, "script:\n{script}");
}

#[test]
fn set_nx_px_and_expiry() {
    check(
        "SET lock A NX PX 30000
         SET lock B NX PX 30000
         PTTL lock
         @1030000
         PTTL lock
         GET lock
         @1030001
         PTTL lock
         SET lock B NX PX 30000
         GET lock",
        "OK
         (nil)
         (integer) 30000
         (integer) 0
         \"A\"
         (integer) -2
         OK
         \"B\"",
    );
}

#[test]
fn set_options_and_errors() {
    check(
        "SET k v PX 0
         SET k v EX -1
         SET k v PX abc
         SET k v NX XX
         SET k v EX 1 PX 5
         SET k v KEEPTTL PX 5
         SET k v EX 1 EX 2
         PTTL k
         SET k w XX KEEPTTL GET
         PTTL k
         SET k x
         PTTL k
         SET k y NX GET
         SET missing y XX
         SET k v EX 9223372036854776
         SET k v PX 9223372036854775807
         SET k
         FOO a b",
        "(error) ERR invalid expire time in 'set' command
         (error) ERR invalid expire time in 'set' command
         (error) ERR value is not an integer or out of range
         (error) ERR syntax error
         (error) ERR syntax error
         (error) ERR syntax error
         OK
         (integer) 2000
         \"v\"
         (integer) 2000
         OK
         (integer) -1
         \"x\"
         (nil)
         (error) ERR invalid expire time in 'set' command
         (error) ERR invalid expire time in 'set' command
         (error) ERR wrong number of arguments for 'set' command
         (error) ERR unknown command 'FOO', with args beginning with: 'a' 'b' ",
    );
}

#[test]
fn incr_counts_from_zero_keeps_ttl_and_rejects_bad_values() {
    check(
        "INCR fence
         SET fence 32
         INCR fence
         SET t 5 PX 1000
         INCR t
         PTTL t
         SET bad abc
         INCR bad
         SET big 9223372036854775807
         INCR big
         SET zero 007
         INCR zero",
        "(integer) 1
         OK
         (integer) 33
         OK
         (integer) 6
         (integer) 1000
         OK
         (error) ERR value is not an integer or out of range
         OK
         (error) ERR increment or decrement would overflow
         OK
         (error) ERR value is not an integer or out of range",
    );
}

#[test]
fn pexpire_pttl_del_exists() {
    check(
        "PEXPIRE nothing 100
         PTTL nothing
         SET k v
         PTTL k
         PEXPIRE k 500
         PTTL k
         PEXPIRE k 0
         EXISTS k
         SET a 1
         SET b 2
         EXISTS a a b c
         DEL a b c
         PEXPIRE x 9223372036854775807",
        "(integer) 0
         (integer) -2
         OK
         (integer) -1
         (integer) 1
         (integer) 500
         (integer) 1
         (integer) 0
         OK
         OK
         (integer) 3
         (integer) 2
         (error) ERR invalid expire time in 'pexpire' command",
    );
}

#[test]
fn replica_hides_expired_keys_but_keeps_them() {
    let mut keyspace = Keyspace::new();
    let set = parse_command(&["SET".into(), "k".into(), "v".into(), "PX".into(), "10".into()], 0)
        .unwrap();
    keyspace.exec(&set, 0, ExpiryRole::Delete);
    let get = parse_command(&["GET".into(), "k".into()], 0).unwrap();
    let (reply, effects) = keyspace.exec(&get, 11, ExpiryRole::Hide);
    assert_eq!(reply, Reply::Nil);
    assert!(effects.is_empty());
    assert!(keyspace.raw("k").is_some(), "a replica must not delete the key");
    let (_, effects) = keyspace.exec(&get, 11, ExpiryRole::Delete);
    assert_eq!(effects.len(), 1, "a primary deletes on access and replicates the DEL");
    assert!(keyspace.raw("k").is_none());
}

#[test]
fn integers_parse_like_string2ll() {
    for (text, expect) in [
        ("0", Some(0)),
        ("-1", Some(-1)),
        ("33", Some(33)),
        ("+1", None),
        ("01", None),
        ("-0", None),
        (" 1", None),
        ("", None),
        ("9223372036854775807", Some(i64::MAX)),
        ("-9223372036854775808", Some(i64::MIN)),
        ("9223372036854775808", None),
    ] {
        assert_eq!(parse_redis_int(text), expect, "{text:?}");
    }
}

#[test]
fn arrays_print_like_redis_cli() {
    let reply = Reply::Array(vec![Reply::Int(1), Reply::Int(33)]);
    assert_eq!(reply.to_cli(), "1) (integer) 1\n2) (integer) 33");
    let nested = Reply::Array(vec![Reply::Array(vec![Reply::Bulk("a".into()), Reply::Nil])]);
    assert_eq!(nested.to_cli(), "1) 1) \"a\"\n   2) (nil)");
}
