//! The `fence` binary: output, exit codes, and refusal of bad input.

use std::process::{Command, Output};

fn fence(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fence")).args(args).output().expect("fence runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("fence-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.display().to_string()
}

#[test]
fn list_names_every_builtin() {
    let output = fence(&["list"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output).lines().count(), fencing_playground::catalogue::all().len());
    assert!(stdout(&output).contains("gc-pause-fenced"));
}

#[test]
fn run_json_matches_the_golden_export() {
    // The same bytes the web app exports (tests/ui/determinism.rs checks the wasm side).
    let output = fence(&["run", "failover-duplicate-token", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), include_str!("../golden/failover-duplicate-token.json"));
}

#[test]
fn run_text_and_seed_and_files() {
    let text = stdout(&fence(&["run", "gc-pause-fenced"]));
    assert!(text.contains("write-rejected") && text.contains("UPDATE 0"), "{text}");
    let path = temp_file("copy.json", include_str!("../../static/scenarios/uuid-as-token.json"));
    let seed_7 = stdout(&fence(&["run", &path, "--seed", "7", "--format", "json"]));
    let seed_8 = stdout(&fence(&["run", &path, "--seed", "8", "--format", "json"]));
    assert!(seed_7.contains("\"seed\": 7") && seed_8.contains("\"seed\": 8"));
    assert_ne!(seed_7, seed_8, "random UUID tokens must follow the seed");
    assert_eq!(seed_7, stdout(&fence(&["run", &path, "--seed", "7", "--format", "json"])));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    let good = include_str!("../../static/scenarios/gc-pause-fenced.json");
    let cases = [
        ("malformed.json", "{ this is not json".to_owned()),
        ("truncated.json", good[..good.len() / 2].to_owned()),
        ("wrong-type.json", good.replacen("\"seed\": 1", "\"seed\": \"one\"", 1)),
        ("newer.json", good.replacen("\"format\": 1", "\"format\": 7", 1)),
        ("absurd.json", good.replacen("\"until_ms\": 60000", "\"until_ms\": 999999999999", 1)),
        ("huge.json", format!("{{\"pad\": \"{}\"}}", "x".repeat(300 * 1024))),
    ];
    for (name, text) in cases {
        let path = temp_file(name, &text);
        for args in [vec!["check", path.as_str()], vec!["run", path.as_str()]] {
            let output = fence(&args);
            assert_eq!(output.status.code(), Some(2), "{name} {args:?}: {}", stdout(&output));
            assert!(stderr(&output).starts_with("fence: "), "{name}: {}", stderr(&output));
        }
    }
    assert!(
        stderr(&fence(&[
            "check",
            &temp_file("n.json", &good.replacen("\"format\": 1", "\"format\": 7", 1))
        ]))
        .contains("newer version")
    );
    assert_eq!(fence(&["run", "no-such-id"]).status.code(), Some(2));
    assert_eq!(fence(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(fence(&["run", "gc-pause-fenced", "--seed", "x"]).status.code(), Some(2));
}

#[test]
fn check_accepts_a_builtin_and_quiz_verify_passes() {
    let path = temp_file("ok.json", include_str!("../../static/scenarios/clock-jump.json"));
    assert!(fence(&["check", &path]).status.success());
    let output = fence(&["quiz", "--verify"]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains(" 0 failed"));
}

fn fence_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fence"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fence runs");
    child.stdin.take().expect("piped").write_all(input.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("fence finishes")
}

#[test]
fn redis_console_reads_stdin_and_prints_like_redis_cli() {
    let output = fence_stdin(
        &["redis"],
        // Redis expires a key only when now > deadline: alive at exactly 30000 ms, gone 1 ms later.
        "SET fence 33\nEVAL <acquire> 2 lock fence A 30000\nADVANCE 30000\nGET lock\nADVANCE 1\nGET lock\n\nSET k \"unterminated\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "OK\n1) (integer) 1\n2) (integer) 34\nOK\n\"A\"\nOK\n(nil)\nInvalid argument(s)\n"
    );
}

#[test]
fn a_lower_case_session_prefix_is_a_session_too() {
    // `b:` runs in session B, and the output says so like `B:` does.
    let output = fence_stdin(
        &["sql"],
        "CREATE TABLE t (id integer);\nb: INSERT INTO t VALUES (1);\nSELECT id FROM t;\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    // Answered line by line: the first came before any line named a session.
    assert_eq!(stdout(&output), "CREATE TABLE\nB: INSERT 0 1\nA: 1\n");
}

#[test]
fn sql_console_runs_two_sessions_and_multi_line_statements() {
    let output = fence_stdin(
        &["sql"],
        "CREATE TABLE orders (id integer PRIMARY KEY,\n  last_fence bigint NOT NULL);\nINSERT INTO orders VALUES (42, 0);\n\
         A: BEGIN;\nA: UPDATE orders SET last_fence = 35 WHERE id = 42 AND last_fence < 35;\n\
         B: UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence < 34;\nA: COMMIT;\nB: SELECT * FROM orders;\nB: DROP TABLE orders;\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "CREATE TABLE\nINSERT 0 1\nA: BEGIN\nA: UPDATE 1\nB: (waiting for a row lock held by session A)\nA: COMMIT\nB: B resumed after A's COMMIT: re-checked last_fence 35 < 34 → false → UPDATE 0\nB: UPDATE 0\nB: 42|35\n\
         B: ERROR:  DROP is not supported here; this console runs CREATE TABLE, INSERT, SELECT, UPDATE, BEGIN, COMMIT and ROLLBACK\n"
    );
}

#[test]
fn explore_prints_the_same_numbers_as_the_page() {
    // The pinned example of tests/sim/explore_fp.rs: 351 and 241 of 500 trials at 2 s.
    let output = fence(&["explore", "--trials", "500", "--ttls", "2000,30000", "--seed", "42"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("    2000  unfenced        500     70.2000%     48.2000%            0"),
        "{text}"
    );
    assert!(
        text.contains("    2000  fenced          500     70.2000%      0.0000%          482"),
        "{text}"
    );
    let bad = fence(&["explore", "--watchdog", "sometimes"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("off, script or bare"));
}

#[test]
fn every_verb_answers_help_and_refuses_unknown_flags() {
    let top = fence(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    for verb in
        ["list", "run", "check", "bake", "quiz", "lesson", "explore", "search", "redis", "sql"]
    {
        let help = fence(&[verb, "--help"]);
        assert_eq!(help.status.code(), Some(0), "{verb} --help");
        let usage = stdout(&help);
        assert!(usage.contains(&format!("Usage: fence {verb}")), "{verb}: {usage}");
        assert!(stdout(&top).contains(&format!("  {verb} ")), "the overview names {verb}");
        let bad = fence(&[verb, "--no-such-flag"]);
        assert_eq!(bad.status.code(), Some(2), "{verb} --no-such-flag");
        assert!(
            stderr(&bad).contains("unexpected argument '--no-such-flag'"),
            "{verb}: {}",
            stderr(&bad)
        );
    }
    // A value of the wrong kind says which option and why.
    let seed = fence(&["explore", "--trials", "many"]);
    assert_eq!(seed.status.code(), Some(2));
    assert!(stderr(&seed).contains("--trials: expected a whole number"), "{}", stderr(&seed));
}

#[test]
fn explore_prints_the_same_table_on_any_number_of_threads() {
    // Three chunks per point, shared out among threads in whatever order they finish.
    let args = ["explore", "--trials", "25000", "--values", "2000,30000", "--seed", "9"];
    let one = fence(&[&args[..], &["--threads", "1"]].concat());
    let three = fence(&[&args[..], &["--threads", "3"]].concat());
    assert!(one.status.success() && three.status.success(), "{}", stderr(&three));
    assert!(stdout(&one).contains("    2000  unfenced      25000"), "{}", stdout(&one));
    assert_eq!(stdout(&one), stdout(&three));
    assert!(stderr(&three).contains("3 thread(s)"), "{}", stderr(&three));
    assert_eq!(fence(&["explore", "--threads", "0"]).status.code(), Some(2));
}

#[test]
fn bake_writes_every_lesson_as_the_main_page_reads_it() {
    let folder = std::env::temp_dir().join(format!("fence-bake-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let out = fence(&["bake", folder.to_str().expect("a UTF-8 temporary path")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let scenarios = folder.join("scenarios");
    for scenario in fencing_playground::catalogue::all() {
        let bytes =
            std::fs::read(scenarios.join(format!("{}.lesson", scenario.id))).expect("baked");
        let page = fencing_playground::catalogue::codec::page_lesson(&scenario);
        assert_eq!(fencing_playground::catalogue::load::read_lesson(&bytes), Ok(page));
    }
    // The JSON the pages fetch: each file of static/ that the site serves, the same value
    // without whitespace.
    let mut served = vec![std::path::PathBuf::from("quiz.json")];
    for dir in ["scenarios", "i18n"] {
        for entry in std::fs::read_dir(std::path::Path::new("static").join(dir)).expect(dir) {
            let name = entry.expect(dir).file_name().into_string().expect("a UTF-8 name");
            if name.ends_with(".json") {
                served.push(std::path::Path::new(dir).join(name));
            }
        }
    }
    assert!(served.len() > 50, "{served:?}");
    for path in served {
        let written = std::fs::read_to_string(folder.join(&path)).expect("written");
        let source = std::fs::read_to_string(std::path::Path::new("static").join(&path)).unwrap();
        let value: serde_json::Value = serde_json::from_str(&source).unwrap();
        assert_eq!(written, value.to_string(), "{}", path.display());
        assert!(!written.contains("\n  "), "{}", path.display());
    }
    let _ = std::fs::remove_dir_all(&folder);
}

#[test]
fn search_finds_the_wake_before_bs_write_and_writes_a_scenario_fence_run_replays() {
    // The reviewers' first finding, found by the search itself: A wakes after B's grant and
    // before B's first write.
    let out = temp_file("gc-broken.json", "");
    let found = fence(&["search", "gc-pause-fenced", "--out", &out]);
    assert_eq!(found.status.code(), Some(1), "{}", stderr(&found));
    let text = stdout(&found);
    assert!(text.contains("no-stale-holder broken"), "{text}");
    assert!(text.contains("A's pause: 39.000 s -> 30.999 s"), "{text}");
    let replay = fence(&["run", &out]);
    assert!(replay.status.success(), "{}", stderr(&replay));
    assert!(stdout(&replay).contains("VIOLATION no-stale-holder"), "{}", stdout(&replay));
    // The JSON record carries the counterexample as a scenario file.
    let json = fence(&["search", "gc-pause-fenced", "--format", "json"]);
    let record: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(record["found"], true);
    assert_eq!(record["property"], "no-stale-holder");
    assert!(record["schedules"].as_u64().is_some_and(|n| n > 1), "{record}");
    assert!(record["bounds"].as_str().is_some_and(|b| b.contains("added fault")), "{record}");
    assert_eq!(record["scenario"]["faults"][0]["pause_ms"], 30_999);
    // The same answer, and the same counts, on one thread and on two.
    let one = fence(&["search", "gc-pause-fenced", "--threads", "1"]);
    let two = fence(&["search", "gc-pause-fenced", "--threads", "2"]);
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn search_exits_0_within_bounds_1_on_a_counterexample_2_on_bad_input() {
    // With only pauses added and the times kept, retrying after a lost reply with a
    // fence is safe; the same search on one thread and on three says the same.
    let args = ["search", "retry-lost-reply-fenced", "--faults", "1", "--keep-times"];
    let one = fence(&[&args[..], &["--threads", "1"]].concat());
    let three = fence(&[&args[..], &["--threads", "3"]].concat());
    assert_eq!(one.status.code(), Some(0), "{}{}", stdout(&one), stderr(&one));
    assert!(stdout(&one).contains("no counterexample in"), "{}", stdout(&one));
    assert_eq!(stdout(&one), stdout(&three));
    let bad = fence(&["search", "gc-pause-fenced", "--property", "no-such"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("no property is called 'no-such'"), "{}", stderr(&bad));
    let bad = fence(&["search", "gc-pause-fenced", "--faults", "4"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = fence(&["search", "gc-pause-fenced", "--add", "pause,meteor"]);
    assert!(stderr(&bad).contains("no fault is called 'meteor'"), "{}", stderr(&bad));
    assert_eq!(fence(&["search", "no-such-lesson"]).status.code(), Some(2));
}

#[test]
fn lesson_reports_the_rules_it_teaches_and_fails_on_a_wrong_one() {
    let ok = fence(&["lesson", "gc-pause-unfenced"]);
    assert_eq!(ok.status.code(), Some(0), "{}", stdout(&ok));
    assert!(stdout(&ok).contains("RULE ok     \"Without a token check"), "{}", stdout(&ok));
    // The same lesson claiming the opposite rule is refused, with the search's answer.
    let text = include_str!("../../static/scenarios/gc-pause-unfenced.json")
        .replace("\"outcome\": \"breaks\"", "\"outcome\": \"holds\"");
    let path = temp_file("wrong-rule.json", &text);
    let wrong = fence(&["lesson", &path]);
    assert_eq!(wrong.status.code(), Some(1), "{}", stdout(&wrong));
    assert!(stdout(&wrong).contains("RULE WRONG"), "{}", stdout(&wrong));
    assert!(
        stdout(&wrong).contains("no-stale-accept breaks: the lesson's own schedule"),
        "{}",
        stdout(&wrong)
    );
}

/// Issue 29, item 10: the size a file's metadata gives can lie (`/dev/zero` says 0 and
/// never ends); the reader stops one byte past the limit.
#[test]
fn check_refuses_an_endless_file_instead_of_reading_it_all() {
    let output = fence(&["check", "/dev/zero"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("is over 262144 bytes"), "{}", stderr(&output));
}

/// Issue 29, item 10: a line without an end (here `/dev/zero`) is refused with a message and
/// exit 2, not read until memory runs out (exit 134).
#[test]
fn a_console_refuses_an_endless_line() {
    for console in ["redis", "sql"] {
        let output = Command::new(env!("CARGO_BIN_EXE_fence"))
            .arg(console)
            .stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"))
            .output()
            .expect("fence runs");
        assert_eq!(output.status.code(), Some(2), "{console}: {}", stderr(&output));
        assert!(stderr(&output).contains("longer than 1048576 bytes"), "{}", stderr(&output));
    }
}

/// Issue 29, item 10: each line is answered before the next is read, so a person at a
/// terminal (or a program holding the pipe open) gets its reply at once.
#[test]
fn a_console_answers_each_line_as_it_comes() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    for (console, line, reply) in
        [("redis", "PING\n", "PONG"), ("sql", "SELECT 1 FROM t;\n", "ERROR")]
    {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fence"))
            .arg(console)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("fence runs");
        let mut stdin = child.stdin.take().expect("piped");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        // stdin stays open: the answer must come without the end of the input.
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = tx.send(first);
        });
        let first = rx.recv_timeout(std::time::Duration::from_secs(20));
        drop(stdin);
        let _ = child.wait();
        let first = first.expect("an answer before the input ended");
        assert!(first.contains(reply), "{console}: {first}");
    }
}

/// Issue 29, item 11: `yes PING | fence redis | head -1` ends quietly when `head` has gone,
/// as a Unix tool does, instead of panicking on the broken pipe.
#[test]
fn a_closed_output_pipe_ends_the_console_quietly() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fence"))
        .arg("redis")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fence runs");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || {
        for _ in 0..200_000 {
            if stdin.write_all(b"PING\n").is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut first).expect("a line");
    assert_eq!(first, "PONG\n");
    // The reader is dropped here, as `head -1` exits.
    let output = child.wait_with_output().expect("fence finishes");
    let _ = writer.join();
    assert!(output.status.success(), "{:?}", output.status);
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

/// Issue 29, item 4: a run stopped at the event limit says so, where, and that nothing
/// after it was checked (it used to end like any other run).
#[test]
fn run_says_when_a_run_was_cut_short() {
    // A watchdog renewing every millisecond for a day: 20,000 events in the first 20 s.
    let file = temp_file(
        "cut-short.json",
        r#"{"format": 1, "id": "cut-short", "title": "Cut short", "chapter": "Test", "summary": "s", "goal": "g", "seed": 1, "until_ms": 86400000,
 "redis": {"nodes": [{"name": "redis"}], "lock_key": "lock:order:42", "fence_key": "fence:order:42"},
 "sql": {"order_id": 42, "amount": 100, "guard": "lt"},
 "workers": [{"name": "A", "start_ms": 0, "program": [{"do": "acquire", "ttl_ms": 30000}, {"do": "watchdog", "interval_ms": 1}, {"do": "compute", "ms": 86000000}, {"do": "write", "status": "paid"}, {"do": "release"}]}],
 "faults": []}"#,
    );
    let output = fence(&["run", &file]);
    assert!(output.status.success(), "{}", stderr(&output));
    let last = stdout(&output).lines().last().unwrap_or_default().to_owned();
    assert_eq!(
        last,
        "# CUT SHORT at 19.999 s after 20000 events (the model's limit): nothing after that moment was simulated or checked"
    );
    let whole = fence(&["run", "gc-pause-fenced"]);
    assert!(!stdout(&whole).contains("CUT SHORT"));
}
