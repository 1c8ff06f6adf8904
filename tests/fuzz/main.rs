//! Seeded fuzzing of everything that reads untrusted text: the scenario loader (and the
//! simulator on whatever it accepts), links, the Redis and SQL consoles, stored quiz
//! progress, inbound postMessage data and language packs. The property is "no panic";
//! a panic prints the target, the case number, the seed and the input.
//!
//! `scripts/test` runs a short pass (FUZZ_CASES unset: 3,000 cases per target). The long
//! run before resolving: `FUZZ_CASES=200000 cargo test --release --test fuzz` (10 targets,
//! 2 million cases). `FUZZ_SEED=<n>` replays another seed.

use std::panic::{AssertUnwindSafe, catch_unwind};

use fencing_playground::catalogue::{self, codec, load};
use fencing_playground::console::redis::RedisConsole;
use fencing_playground::console::sql::{Session, SqlConsole, split_session};
use fencing_playground::route::{Link, Payload, View};
use fencing_playground::sim::prng::Prng;
use fencing_playground::{embed, i18n, progress, sim};

fn cases() -> u64 {
    std::env::var("FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(3_000)
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED").ok().and_then(|c| c.parse().ok()).unwrap_or(0x5EED_F022)
}

/// Runs `body` on `cases()` generated inputs; fails with the first panicking input.
fn fuzz(target: &str, mut generate: impl FnMut(&mut Prng) -> String, body: impl Fn(&str)) {
    let seed = seed();
    let mut prng = Prng::new(seed ^ fnv(target));
    let n = cases();
    // The default panic hook stays: tests run in parallel and the hook is global.
    let mut failure = None;
    for case in 0..n {
        let input = generate(&mut prng);
        if std::env::var("FUZZ_TRACE").is_ok() {
            eprintln!("{target} {case}: {input:?}");
        }
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| body(&input))) {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            failure = Some(format!(
                "{target}: case {case} (FUZZ_SEED={seed}) panicked: {message}\ninput: {input:?}"
            ));
            break;
        }
    }
    if let Some(failure) = failure {
        panic!("{failure}");
    }
    println!("fuzz {target}: {n} cases, no panic (FUZZ_SEED={seed})");
}

fn fnv(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn pick<'a>(prng: &mut Prng, items: &[&'a str]) -> &'a str {
    items[prng.below(items.len() as u64) as usize]
}

/// Pieces that break parsers: numbers at and past every limit, escapes, nesting, NUL,
/// multi-byte characters, and the grammar's own punctuation.
const NASTY: &[&str] = &[
    "-1",
    "0",
    "1e999",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "2147483648",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "true",
    "''",
    "'",
    ";",
    "(",
    ")",
    "%",
    "%zz",
    "%00",
    "&",
    "=",
    "?",
    "#",
    "é",
    "字",
    "\u{0}",
    "\n",
    "\t",
    " ",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
    "{\"a\":",
    "\"\\x",
    "0x10",
];

/// Mutates `base` with one to four random edits.
/// Half the cases change values (the JSON stays well-formed), half change bytes.
fn mutate_either(prng: &mut Prng, base: &str) -> String {
    if prng.below(2) == 0 { mutate_values(prng, base) } else { mutate(prng, base) }
}

fn mutate(prng: &mut Prng, base: &str) -> String {
    let mut bytes = base.as_bytes().to_vec();
    for _ in 0..1 + prng.below(4) {
        let at = if bytes.is_empty() { 0 } else { prng.below(bytes.len() as u64 + 1) as usize };
        match prng.below(6) {
            0 => bytes.truncate(at),
            1 => {
                let end = (at + 1 + prng.below(40) as usize).min(bytes.len());
                if at < end {
                    bytes.drain(at..end);
                }
            }
            2 => {
                let piece = pick(prng, NASTY).as_bytes().to_vec();
                bytes.splice(at..at, piece);
            }
            3 => {
                if at < bytes.len() {
                    bytes[at] = 32 + prng.below(95) as u8;
                }
            }
            4 => {
                let end = (at + 1 + prng.below(60) as usize).min(bytes.len());
                let copy = bytes[at.min(end)..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => {
                let digits = prng.next_u64().to_string();
                bytes.splice(at..at, digits.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Replaces one to three numbers of `base` with others (edge values or random ones), and
/// sometimes swaps one of the format's words for another: the JSON stays well-formed, so
/// the loader's checks and the simulator see the input, not only the parser.
fn mutate_values(prng: &mut Prng, base: &str) -> String {
    const NUMBERS: &[&str] =
        &["0", "1", "2", "7", "100", "999", "30000", "60000", "600000", "4294967296", "-1"];
    const WORDS: &[&str] = &[
        "\"pause\"",
        "\"hang\"",
        "\"crash\"",
        "\"crash-node\"",
        "\"clock-jump\"",
        "\"A\"",
        "\"B\"",
        "\"C\"",
        "\"redis\"",
        "\"replica\"",
        "\"none\"",
        "\"lt\"",
        "\"le\"",
        "\"uuid\"",
        "\"redlock\"",
        "\"script\"",
        "\"unfenced\"",
        "\"watchdog\"",
    ];
    let mut text = base.to_owned();
    for _ in 0..1 + prng.below(3) {
        let bytes = text.as_bytes();
        // Runs of digits, and quoted words, as (start, end) byte ranges.
        let mut spans = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            if bytes[i].is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                spans.push((start, i, true));
            } else if bytes[i] == b'"' {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1;
                }
                i += 1;
                spans.push((start, i.min(bytes.len()), false));
            } else {
                i += 1;
            }
        }
        let wants_number = prng.below(3) > 0;
        let candidates: Vec<&(usize, usize, bool)> =
            spans.iter().filter(|(_, _, number)| *number == wants_number).collect();
        if candidates.is_empty() {
            continue;
        }
        let (start, end, _) = *candidates[prng.below(candidates.len() as u64) as usize];
        let replacement = if wants_number {
            match prng.below(3) {
                0 => prng.below(100_000).to_string(),
                _ => pick(prng, NUMBERS).to_owned(),
            }
        } else {
            pick(prng, WORDS).to_owned()
        };
        text.replace_range(start..end, &replacement);
    }
    text
}

#[test]
fn the_scenario_loader_and_the_simulator_never_panic() {
    let texts: Vec<String> =
        catalogue::all().iter().map(|s| codec::write_scenario(s).pretty()).collect();
    let simulated = std::cell::Cell::new(0u64);
    fuzz(
        "loader",
        |prng| {
            let base = &texts[prng.below(texts.len() as u64) as usize];
            match prng.below(2) {
                0 => mutate(prng, base),
                _ => mutate_values(prng, base),
            }
        },
        |text| match load::parse_scenario(text) {
            Ok(scenario) => {
                // Whatever the loader accepts must simulate within its limits.
                let trace = sim::run(&scenario.setup);
                let _ = sim::render::render(&trace);
                simulated.set(simulated.get() + 1);
            }
            Err(error) => {
                // A refusal says where: a JSON path always, and a line whenever the text
                // itself is at fault (syntax, types, words, members, the version); only the
                // checks after reading (names, limits) point at a path alone.
                assert!(error.path.starts_with('$') && !error.message.is_empty(), "{error}");
                let shape = codec::from_json::<catalogue::lesson::ScenarioFile>(text, "$");
                if shape.is_err() || error.path == "$.format" {
                    assert!(error.line > 0, "no position: {error}");
                }
            }
        },
    );
    // A fuzzer whose inputs all fail to parse tests only the parser: enough of them must
    // reach the simulator.
    let (reached, n) = (simulated.get(), cases());
    println!("fuzz loader: {reached} of {n} mutated scenarios loaded and simulated");
    assert!(reached * 5 >= n, "only {reached} of {n} cases reached the simulator");
}

#[test]
fn damaged_baked_lessons_are_refused_without_panic() {
    let lessons: Vec<Vec<u8>> = catalogue::all().iter().map(codec::lesson_bytes).collect();
    let refused = std::cell::Cell::new(0u64);
    fuzz(
        "lesson",
        |prng| {
            // The bytes as Latin-1 text, so `fuzz` can print and replay a failing case.
            let mut bytes = lessons[prng.below(lessons.len() as u64) as usize].clone();
            for _ in 0..1 + prng.below(4) {
                let at = prng.below(bytes.len() as u64) as usize;
                match prng.below(3) {
                    0 => bytes.truncate(at),
                    1 => bytes[at] = prng.below(256) as u8,
                    _ => bytes.insert(at, prng.below(256) as u8),
                }
                if bytes.is_empty() {
                    break;
                }
            }
            bytes.iter().map(|&b| char::from(b)).collect()
        },
        |text| {
            let bytes: Vec<u8> = text.chars().map(|c| c as u8).collect();
            match load::read_lesson(&bytes) {
                // A flipped byte may still spell a valid lesson: it must run like one.
                Ok(scenario) => drop(sim::run(&scenario.setup)),
                Err(error) => {
                    assert!(!error.message.is_empty());
                    refused.set(refused.get() + 1);
                }
            }
        },
    );
    println!("fuzz lesson: {} of {} damaged lessons refused", refused.get(), cases());
}

#[test]
fn links_never_panic_and_their_payloads_load_safely() {
    let scenario = catalogue::find("gc-pause-fenced").expect("built-in");
    let json = codec::write_scenario(&scenario).compact();
    let bases = [
        "#/".to_owned(),
        "#/s/gc-pause-fenced?v=1&t=4&whatif=ttl_ms:5000,fencing:off&lang=vi".to_owned(),
        "#/quiz?v=1&embed=1&origins=https%3A%2F%2Fexample.org".to_owned(),
        Link::to(View::Custom { payload: Payload::Json(json) }).to_hash(),
        "#/compare/gc-pause-fenced?v=1".to_owned(),
    ];
    fuzz(
        "links",
        |prng| {
            let base = &bases[prng.below(bases.len() as u64) as usize];
            mutate(prng, base)
        },
        |hash| {
            let link = Link::parse(hash);
            let printed = link.to_hash();
            // What we print, we read back the same (an unreadable link prints as home).
            if !matches!(link.view, View::Invalid { .. }) {
                assert_eq!(Link::parse(&printed), link, "{printed}");
            }
            if let View::Custom { payload: Payload::Json(text) } = &link.view {
                let _ = load::parse_scenario(text);
            }
        },
    );
}

const REDIS_WORDS: &[&str] = &[
    "SET",
    "GET",
    "DEL",
    "EXISTS",
    "INCR",
    "PEXPIRE",
    "PTTL",
    "EVAL",
    "EVALSHA",
    "ADVANCE",
    "WAIT",
    "NX",
    "XX",
    "PX",
    "EX",
    "PXAT",
    "EXAT",
    "GET",
    "KEEPTTL",
    "<acquire>",
    "<release>",
    "<renew>",
    "lock",
    "fence",
    "1",
    "2",
    "30000",
    "\"a b\"",
    "'x'",
    "\"\\x41\"",
    "\"unterminated",
    "FLUSHALL",
];

#[test]
fn the_redis_console_never_panics() {
    fuzz(
        "redis",
        |prng| {
            let mut lines = Vec::new();
            for _ in 0..1 + prng.below(6) {
                let mut line = String::new();
                for _ in 0..prng.below(8) {
                    let word = if prng.below(5) == 0 {
                        pick(prng, NASTY)
                    } else {
                        pick(prng, REDIS_WORDS)
                    };
                    line.push_str(word);
                    line.push(' ');
                }
                lines.push(if prng.below(4) == 0 { mutate(prng, &line) } else { line });
            }
            // Deep nesting, long chains and long literals (issue 29: 2,000 parentheses,
            // 20,000 NOTs, 50,000 ORs and 100,000 minus signs used to overflow the stack).
            if prng.below(4) == 0 {
                let n = 1 + prng.below(60_000) as usize;
                let depth = n.min(5_000);
                let statement = match prng.below(5) {
                    0 => format!(
                        "SELECT * FROM orders WHERE {}id = 42{};",
                        "(".repeat(depth),
                        ")".repeat(depth)
                    ),
                    1 => format!("SELECT * FROM orders WHERE {}id = 42;", "NOT ".repeat(depth)),
                    2 => format!("SELECT * FROM orders WHERE id = 1{};", " OR id = 2".repeat(n)),
                    3 => {
                        format!("UPDATE orders SET last_fence = 1{} WHERE id = 42;", "-1".repeat(n))
                    }
                    _ => format!(
                        "INSERT INTO orders (id, status) VALUES (7, '{}');",
                        "x".repeat(n * 2)
                    ),
                };
                lines.push(statement);
            }
            lines.join("\n")
        },
        |input| {
            let mut console = RedisConsole::new(1_000);
            for line in input.lines() {
                let _ = console.run_line(line);
            }
        },
    );
}

const SQL_WORDS: &[&str] = &[
    "CREATE",
    "TABLE",
    "t",
    "orders",
    "(",
    ")",
    "id",
    "integer",
    "bigint",
    "text",
    "varchar(3)",
    "boolean",
    "PRIMARY",
    "KEY",
    "NOT",
    "NULL",
    "DEFAULT",
    "INSERT",
    "INTO",
    "VALUES",
    "SELECT",
    "*",
    "FROM",
    "WHERE",
    "AND",
    "OR",
    "=",
    "<",
    "<=",
    ">",
    ">=",
    "<>",
    "+",
    "-",
    "FOR",
    "UPDATE",
    "SET",
    "ORDER",
    "BY",
    "DESC",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "IS",
    "1",
    "'a'",
    "2147483647",
    "9223372036854775807",
    ",",
    ";",
    "last_fence",
    "status",
    "v",
];

const SQL_SETUP: &str = "CREATE TABLE t (id integer PRIMARY KEY, v bigint, s text);\nINSERT INTO t VALUES (1, 5, 'a'), (2, NULL, 'b');";

#[test]
fn the_sql_console_never_panics() {
    fuzz(
        "sql",
        |prng| {
            let mut lines = vec![SQL_SETUP.to_owned()];
            for _ in 0..1 + prng.below(8) {
                let mut line = String::from(if prng.below(2) == 0 { "A: " } else { "B: " });
                for _ in 0..1 + prng.below(12) {
                    let word =
                        if prng.below(6) == 0 { pick(prng, NASTY) } else { pick(prng, SQL_WORDS) };
                    line.push_str(word);
                    line.push(' ');
                }
                lines.push(if prng.below(4) == 0 { mutate(prng, &line) } else { line });
            }
            lines.join("\n")
        },
        |input| {
            let mut console = SqlConsole::new();
            for line in input.lines() {
                let (session, sql) = split_session(line);
                let _ = console.run(session, sql);
            }
            // Both sessions can always be ended.
            let _ = console.run(Session::A, "ROLLBACK");
            let _ = console.run(Session::B, "ROLLBACK");
        },
    );
}

/// Issue 29: a stored record is either read whole or reported, so that the shell keeps it
/// aside with a notice; nothing in it goes without a word. Drafts: a record read as
/// undamaged holds every draft the input listed, and reads back the same once written.
/// Progress: a record read as valid keeps every answer to a question the bank holds.
#[test]
fn stored_records_are_read_or_set_aside_with_a_notice() {
    use fencing_playground::sandbox::drafts::Drafts;
    let drafts_base = {
        let mut d = Drafts::default();
        d.add("mine", r#"{"format": 1, "id": "x"}"#);
        d.add("second", "{ half typed");
        d.write().text
    };
    fuzz(
        "drafts",
        |prng| mutate_either(prng, &drafts_base),
        |text| {
            let read = Drafts::read(text);
            if read.damaged {
                return; // the shell keeps the record aside and says so
            }
            let listed = serde_json::from_str::<serde_json::Value>(text)
                .ok()
                .and_then(|v| v.get("drafts").and_then(|d| d.as_array()).map(Vec::len))
                .unwrap_or(0);
            assert_eq!(read.drafts.items.len(), listed, "a draft went without a word");
            let again = Drafts::read(&read.drafts.write().text);
            assert!(!again.damaged && again.drafts == read.drafts, "written back differently");
        },
    );
    let bank = fencing_playground::quiz::bank();
    let progress_base = {
        let mut p = progress::Progress::default();
        p.record("clock-jump", true);
        p.record("aof-always", false);
        p.to_text()
    };
    fuzz(
        "stored-progress",
        |prng| mutate_either(prng, &progress_base),
        |text| {
            let progress::Stored::Valid(read) = progress::Progress::read(Some(text), &bank) else {
                return; // Corrupt: kept aside with a notice; Nothing: nothing stored
            };
            let Ok(serde_json::Value::Object(members)) = serde_json::from_str(text) else {
                panic!("read as valid, but not a JSON object");
            };
            for key in members.keys().filter(|k| bank.iter().any(|q| q.id == **k)) {
                assert!(read.answers.get(key).is_some(), "the answer to {key} went without a word");
            }
        },
    );
}

#[test]
fn stored_progress_embed_messages_and_language_packs_never_panic() {
    let progress_base = {
        let mut p = progress::Progress::default();
        p.record("q-gc-pause", true);
        p.record("q-failover", false);
        p.to_text()
    };
    let bank = fencing_playground::quiz::bank();
    fuzz(
        "progress",
        |prng| mutate(prng, &progress_base),
        |text| {
            let _ = progress::Progress::read(Some(text), &bank);
        },
    );
    let embed_bases = [
        r#"{"protocol":"fencing-playground","version":1,"type":"seek","t_ms":40000}"#,
        r#"{"protocol":"fencing-playground","version":1,"type":"load-scenario","id":"gc-pause-fenced"}"#,
        r#"{"protocol":"fencing-playground","version":1,"type":"play"}"#,
    ];
    fuzz(
        "embed",
        |prng| {
            let base = pick(prng, &embed_bases);
            mutate(prng, base)
        },
        |text| {
            let _ = embed::parse_inbound(text);
        },
    );
    let pack = include_str!("../../static/i18n/vi.json");
    let short: String = pack.chars().take(3_000).collect::<String>() + "\n}";
    fuzz(
        "language-pack",
        |prng| mutate(prng, &short),
        |text| {
            if let Ok(pack) = i18n::parse_pack(text) {
                let messages = i18n::Messages::with_pack(i18n::Lang::Vi, pack);
                let _ = messages.tf("sandbox.worker", &[("name", "A")]);
            }
        },
    );
}

#[test]
fn a_baked_lesson_the_model_would_not_run_faithfully_still_runs_without_panic() {
    // The first page re-checks a baked lesson's bounds only (`load::check`); Redlock's
    // majority and the consensus store's limits were settled when it was baked. A lesson
    // damaged into breaking them must still run, not panic.
    use fencing_playground::sim::id::NodeId;
    use fencing_playground::sim::scenario::{CrashKind, Fault, TokenSource, Topology};
    let mut ran = 0;
    for lesson in catalogue::all() {
        for variant in 0..3 {
            let mut scenario = lesson.clone();
            let setup = &mut scenario.setup;
            match variant {
                0 => {
                    setup.redis.topology = Topology::Redlock;
                    setup.redis.nodes.truncate(1);
                }
                1 => {
                    setup.tokens = TokenSource::Consensus;
                    setup.faults.push(Fault::CrashNode {
                        node: NodeId::at(0),
                        at_ms: 1_000,
                        kind: CrashKind::Power,
                        restart_after_ms: Some(500),
                    });
                }
                _ => {
                    setup.redis.topology = Topology::Cluster;
                    setup.tokens = TokenSource::Consensus;
                }
            }
            // A fault on a node the truncation removed is out of bounds: refused, fine.
            if load::check(&scenario).is_err() {
                continue;
            }
            ran += 1;
            let trace = catch_unwind(AssertUnwindSafe(|| sim::run(&scenario.setup)));
            assert!(trace.is_ok(), "{}: variant {variant} panicked", lesson.id);
        }
    }
    assert!(ran >= catalogue::all().len() * 2, "only {ran} variants ran");
}
