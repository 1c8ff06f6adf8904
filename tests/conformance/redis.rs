//! Redis: the curated corpus (tests/conformance/redis/*.redis), the redis-cli formatting
//! check, and a seeded differential fuzzer.

use std::process::Command as Process;

use fencing_playground::console::redis::{RedisConsole, split_args};
use fencing_playground::sim::prng::Prng;
use fencing_playground::sim::redis::Reply;
use fencing_playground::sim::script::Script;

use crate::resp::Conn;

/// How far apart the model's PTTL and the server's may be: the server's clock runs in real
/// time (sleeps and round trips), the model's only moves on ADVANCE.
// Tests run in parallel against one server, so each has its own database (FLUSHDB, never
// FLUSHALL). The scripts cache is server-wide, which is harmless: it only ever holds ours.
const DB_CORPUS: u8 = 1;
const DB_CLI: u8 = 2;
const DB_FUZZ: u8 = 3;

const PTTL_TOLERANCE_MS: i64 = 60;

fn port() -> u16 {
    std::env::var("REDIS_PORT").ok().and_then(|p| p.parse().ok()).expect(
        "REDIS_PORT is not set: run scripts/test, which starts redis-server, or set it yourself",
    )
}

/// Replaces `<acquire>` (and `<acquire-sha>`) with the real script text (or its SHA-1).
fn for_server(args: &[String]) -> Vec<String> {
    args.iter()
        .map(|arg| {
            for script in [Script::Acquire, Script::Release, Script::Renew] {
                if arg == script.label() {
                    return script.body().to_owned();
                }
                if *arg == format!("<{}-sha>", script.label().trim_matches(['<', '>'])) {
                    return script.sha1_hex();
                }
            }
            arg.clone()
        })
        .collect()
}

/// The server's wall clock in ms (so the model starts on the same time).
fn server_time_ms(conn: &mut Conn) -> i64 {
    match conn.call(&["TIME".to_owned()]) {
        Reply::Array(parts) => match (&parts[0], &parts[1]) {
            (Reply::Bulk(s), Reply::Bulk(us)) => {
                s.parse::<i64>().unwrap() * 1000 + us.parse::<i64>().unwrap() / 1000
            }
            other => panic!("TIME gave {other:?}"),
        },
        other => panic!("TIME gave {other:?}"),
    }
}

/// Compares replies; PTTL values are compared within the tolerance (said, not hidden).
fn same(command: &str, model: &Reply, real: &Reply) -> bool {
    match (model, real) {
        (Reply::Int(a), Reply::Int(b))
            if command.eq_ignore_ascii_case("pttl") && *a >= 0 && *b >= 0 =>
        {
            (a - b).abs() <= PTTL_TOLERANCE_MS
        }
        _ => model == real,
    }
}

/// Runs lines on both; returns the first difference.
fn run_both(conn: &mut Conn, lines: &[String]) -> Result<usize, String> {
    conn.call(&["FLUSHDB".to_owned()]);
    // EVALSHA needs the scripts cached on the server, as they would be after one EVAL.
    for script in [Script::Acquire, Script::Release, Script::Renew] {
        conn.call(&["SCRIPT".to_owned(), "LOAD".to_owned(), script.body().to_owned()]);
    }
    let mut console = RedisConsole::new(server_time_ms(conn));
    let mut compared = 0;
    for line in lines {
        let args = split_args(line).ok_or_else(|| format!("bad test line {line:?}"))?;
        if args.is_empty() {
            continue;
        }
        if args[0].eq_ignore_ascii_case("advance") {
            let ms: u64 = args[1].parse().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(ms));
            console.exec(&args);
            continue;
        }
        let model = console.exec(&for_console(&args));
        let real = conn.call(&for_server(&args));
        if !same(&args[0], &model, &real) {
            return Err(format!(
                "{line}\n  model:  {}\n  server: {}",
                model.to_inline(),
                real.to_inline()
            ));
        }
        compared += 1;
    }
    Ok(compared)
}

/// The console accepts `<acquire>`; `<acquire-sha>` becomes the SHA-1 for EVALSHA.
fn for_console(args: &[String]) -> Vec<String> {
    args.iter()
        .map(|arg| {
            [Script::Acquire, Script::Release, Script::Renew]
                .into_iter()
                .find(|s| *arg == format!("<{}-sha>", s.label().trim_matches(['<', '>'])))
                .map_or_else(|| arg.clone(), |s| s.sha1_hex())
        })
        .collect()
}

#[test]
fn the_redis_corpus_matches_a_real_server_line_by_line() {
    let mut conn = Conn::connect(port(), DB_CORPUS);
    let corpus = crate::corpus("redis", "#");
    assert!(corpus.len() >= 40, "only {} scripts", corpus.len());
    let compared = crate::check_corpus(&corpus, |_, lines| run_both(&mut conn, lines));
    println!(
        "redis corpus: {} scripts, {compared} replies compared (PTTL within {PTTL_TOLERANCE_MS} ms)",
        corpus.len()
    );
}

#[test]
fn console_output_matches_redis_cli_no_raw() {
    // The console's text must be what redis-cli --no-raw prints, for every reply shape.
    let port = port().to_string();
    let mut console = RedisConsole::new(0);
    let lines = [
        "FLUSHDB",
        "SET k v",
        "GET k",
        "GET missing",
        "INCR n",
        "SET k \"a\\nb\\\"c\\x01\"",
        "GET k",
        "SET c 32",
        "EVAL <acquire> 2 lock c A 30000",
        "EVAL <acquire> 2 lock c B 30000",
        "INCR k",
        "FOO bar",
        "DEL k n c lock",
        "PING",
        "PING hello",
        "SET t v EX 100",
        "TTL t",
        "EXPIRE t 50",
        "EXPIRE t x",
    ];
    for line in lines {
        let args = split_args(line).unwrap();
        let output = Process::new("redis-cli")
            .args(["-p", &port, "-n", &DB_CLI.to_string(), "--no-raw"])
            .args(for_server(&args))
            .output()
            .expect("redis-cli");
        let real = String::from_utf8_lossy(&output.stdout).trim_end_matches('\n').to_owned();
        let model = console.run_line(line);
        if args[0] == "FLUSHDB" {
            continue;
        }
        assert_eq!(model, real, "{line}");
    }
}

/// A random command from the grammar of what the model supports.
fn random_command(prng: &mut Prng) -> String {
    let pick =
        |prng: &mut Prng, items: &[&str]| items[prng.below(items.len() as u64) as usize].to_owned();
    let keys = ["k", "lock", "fence", "n"];
    let values = [
        "A",
        "B",
        "1",
        "32",
        "abc",
        "-1",
        "0",
        "007",
        "9223372036854775806",
        "9223372036854775807",
    ];
    let key = pick(prng, &keys);
    match prng.below(12) {
        0 | 1 => {
            let mut line = format!("SET {key} {}", pick(prng, &values));
            for _ in 0..prng.below(3) {
                let option = match prng.below(7) {
                    0 => "NX".to_owned(),
                    1 => "XX".to_owned(),
                    2 => "GET".to_owned(),
                    3 => "KEEPTTL".to_owned(),
                    4 => format!("PX {}", pick(prng, &["60000", "120000", "0", "-3", "x"])),
                    5 => format!("EX {}", pick(prng, &["60", "100", "0"])),
                    _ => "BOGUS".to_owned(),
                };
                line.push(' ');
                line.push_str(&option);
            }
            line
        }
        2 => format!("GET {key}"),
        3 => format!("INCR {key}"),
        4 => format!("DEL {key} {}", pick(prng, &keys)),
        5 => format!("EXISTS {key} {}", pick(prng, &keys)),
        6 => format!("PEXPIRE {key} {}", pick(prng, &["60000", "90000", "0", "-1", "abc"])),
        7 => format!("PTTL {key}"),
        8 => format!(
            "EVAL <acquire> 2 lock fence {} {}",
            pick(prng, &["A", "B"]),
            pick(prng, &["60000", "0", "x"])
        ),
        9 => format!("EVAL <release> 1 lock {}", pick(prng, &["A", "B"])),
        10 => format!(
            "EVAL <renew> 1 lock {} {}",
            pick(prng, &["A", "B"]),
            pick(prng, &["90000", "-1"])
        ),
        _ => format!("SET fence {}", pick(prng, &values)),
    }
}

#[test]
fn differential_fuzzing_finds_no_difference() {
    // 500 seeded random sequences; a difference is shrunk to the shortest failing sequence.
    let mut conn = Conn::connect(port(), DB_FUZZ);
    let seed: u64 =
        std::env::var("FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xF0CE_5EED);
    let mut prng = Prng::new(seed);
    let sequences = 500;
    let mut commands = 0;
    for i in 0..sequences {
        let n = 3 + prng.below(12) as usize;
        let lines: Vec<String> = (0..n).map(|_| random_command(&mut prng)).collect();
        commands += lines.len();
        if let Err(first) = run_both(&mut conn, &lines) {
            // Shrink: drop lines while a difference remains; keep the last difference seen,
            // since a timing-dependent one may not reproduce on a rerun.
            let mut shortest = lines.clone();
            let mut diff = first;
            let mut j = 0;
            while j < shortest.len() {
                let mut candidate = shortest.clone();
                candidate.remove(j);
                match run_both(&mut conn, &candidate) {
                    Err(d) => {
                        shortest = candidate;
                        diff = d;
                    }
                    Ok(_) => j += 1,
                }
            }
            panic!(
                "sequence {i} (FUZZ_SEED={seed}) differs; shortest failing sequence:\n{}\n{diff}",
                shortest.join("\n")
            );
        }
    }
    println!(
        "redis fuzz: {sequences} sequences, {commands} commands, no difference (FUZZ_SEED={seed})"
    );
}
