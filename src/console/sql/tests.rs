use super::{Session, SqlConsole, render, split_session};

/// Runs a script line by line (`B:` prefixes pick session B) and compares all output,
/// each line prefixed with its session.
fn check(script: &str, expect: &str) {
    let mut console = SqlConsole::new();
    let mut outputs = Vec::new();
    for line in script.lines().filter(|l| !l.trim().is_empty()) {
        let (session, sql) = split_session(line);
        outputs.extend(console.run(session, sql));
    }
    let actual = render(&outputs, true);
    assert_eq!(actual.trim_end(), expect.trim(), "\n--- script\n{script}\n--- actual\n{actual}");
}

const ORDERS: &str = "CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0);
INSERT INTO orders (id, status) VALUES (42, 'new');";

#[test]
fn the_fenced_update_applies_once_per_larger_token() {
    check(
        &format!(
            "{ORDERS}
UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34;
UPDATE orders SET status = 'paid', last_fence = 33 WHERE id = 42 AND last_fence < 33;
UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence <= 34;
SELECT * FROM orders;"
        ),
        "A: CREATE TABLE
A: INSERT 0 1
A: UPDATE 1
A: UPDATE 0
A: UPDATE 1
A: 42|paid|34",
    );
}

#[test]
fn a_lock_waits_and_the_waiter_rechecks_the_new_version() {
    check(
        &format!(
            "{ORDERS}
A: BEGIN;
A: UPDATE orders SET last_fence = 35 WHERE id = 42 AND last_fence < 35;
B: UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence < 34;
A: COMMIT;
B: SELECT last_fence FROM orders;"
        ),
        "A: CREATE TABLE
A: INSERT 0 1
A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked last_fence 35 < 34 → false → UPDATE 0
B: UPDATE 0
B: 35",
    );
}

#[test]
fn select_for_update_blocks_and_returns_the_committed_row() {
    check(
        &format!(
            "{ORDERS}
A: BEGIN;
A: SELECT status FROM orders WHERE id = 42 FOR UPDATE;
B: BEGIN;
B: SELECT status FROM orders WHERE id = 42 FOR UPDATE;
A: UPDATE orders SET status = 'paid' WHERE id = 42;
A: COMMIT;
B: SELECT status FROM orders WHERE status = 'new' FOR UPDATE;
B: COMMIT;"
        ),
        "A: CREATE TABLE
A: INSERT 0 1
A: BEGIN
A: new
B: BEGIN
B: (waiting for a row lock held by session A)
A: UPDATE 1
A: COMMIT
B: B resumed after A's COMMIT: re-checked id 42 = 42 → true → SELECT 1
B: paid
B: COMMIT",
    );
}

/// The orders table of the conformance corpus and the simulator (`updated_by` may be NULL).
const ORDERS_BY: &str = "CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');";

/// A statement that waited for a row lock resumes when the other transaction ends, and its
/// output then starts with the console's note (not psql's: `waiting` is set, so the
/// conformance harness skips it): how the other transaction ended, and the READ COMMITTED
/// re-check of the WHERE clause on the row version it found, with the values that decided it.
#[test]
/// Longer than 100 lines: the two sessions' script and the console's whole answer to it,
/// line for line, read together.
fn a_resumed_statement_says_what_its_recheck_found() {
    // (script after ORDERS_BY, output after CREATE TABLE and INSERT 0 1)
    let cases = [
        // Fail: A's larger token committed first, so B's WHERE no longer holds.
        (
            "A: BEGIN;
A: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34;
B: UPDATE orders SET status = 'paid', last_fence = 33 WHERE id = 42 AND last_fence < 33;
A: COMMIT;
B: SELECT * FROM orders;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked last_fence 34 < 33 → false → UPDATE 0
B: UPDATE 0
B: 42|paid|34|",
        ),
        // Pass: B's token is larger than the one A committed.
        (
            "A: BEGIN;
A: UPDATE orders SET status = 'paid', last_fence = 33 WHERE id = 42 AND last_fence < 33;
B: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34;
A: COMMIT;
B: SELECT * FROM orders;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked last_fence 33 < 34 → true → UPDATE 1
B: UPDATE 1
B: 42|paid|34|",
        ),
        // Rollback: the row is unchanged, so the re-check runs on the old version.
        (
            "A: BEGIN;
A: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34;
B: UPDATE orders SET status = 'paid', last_fence = 33 WHERE id = 42 AND last_fence < 33;
A: ROLLBACK;
B: SELECT * FROM orders;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: ROLLBACK
B: B resumed after A's ROLLBACK: the row is unchanged, so its first check stands: last_fence 0 < 33 → true → UPDATE 1
B: UPDATE 1
B: 42|paid|33|",
        ),
        // Several conditions on columns A wrote: each is shown with its new value.
        (
            "A: BEGIN;
A: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42;
B: UPDATE orders SET last_fence = 35 WHERE id = 42 AND status = 'new' AND last_fence < 35;
A: COMMIT;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked status 'paid' = 'new' AND last_fence 34 < 35 → false → UPDATE 0
B: UPDATE 0",
        ),
        // A wrote none of the WHERE's columns: every condition is shown.
        (
            "A: BEGIN;
A: UPDATE orders SET updated_by = 'A' WHERE id = 42;
B: UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence < 34;
A: COMMIT;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked id 42 = 42 AND last_fence 0 < 34 → true → UPDATE 1
B: UPDATE 1",
        ),
        // A comparison with NULL is neither true nor false, and does not match.
        (
            "UPDATE orders SET updated_by = 'B' WHERE id = 42;
A: BEGIN;
A: UPDATE orders SET updated_by = NULL WHERE id = 42;
B: UPDATE orders SET last_fence = 34 WHERE updated_by <> 'A';
A: COMMIT;",
            "A: UPDATE 1
A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked updated_by NULL <> 'A' → NULL → UPDATE 0
B: UPDATE 0",
        ),
        // A condition too complex to show with its values: the plain fallback.
        (
            "A: BEGIN;
A: UPDATE orders SET last_fence = 34 WHERE id = 42;
B: UPDATE orders SET last_fence = 33 WHERE id = 42 AND (last_fence < 33 OR status = 'paid');
A: COMMIT;",
            "A: BEGIN
A: UPDATE 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked the WHERE clause on the committed row → false → UPDATE 0
B: UPDATE 0",
        ),
        // SELECT ... FOR UPDATE: the row no longer matches, so no row (psql -t prints none).
        (
            "A: BEGIN;
A: UPDATE orders SET status = 'paid' WHERE id = 42;
B: BEGIN;
B: SELECT id FROM orders WHERE status = 'new' FOR UPDATE;
A: COMMIT;
B: COMMIT;",
            "A: BEGIN
A: UPDATE 1
B: BEGIN
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked status 'paid' = 'new' → false → SELECT 0
B: COMMIT",
        ),
        // SELECT ... FOR UPDATE after a lock that wrote nothing: the row still matches.
        (
            "A: BEGIN;
A: SELECT id FROM orders WHERE id = 42 FOR UPDATE;
B: SELECT status FROM orders WHERE id = 42 AND status = 'new' FOR UPDATE;
A: ROLLBACK;",
            "A: BEGIN
A: 42
B: (waiting for a row lock held by session A)
A: ROLLBACK
B: B resumed after A's ROLLBACK: the row is unchanged, so its first check stands: id 42 = 42 AND status 'new' = 'new' → true → SELECT 1
B: new",
        ),
        // An INSERT waits for an uncommitted key and then checks it again.
        (
            "A: BEGIN;
A: INSERT INTO orders (id, status) VALUES (7, 'new');
B: INSERT INTO orders (id, status) VALUES (7, 'new');
A: COMMIT;",
            r#"A: BEGIN
A: INSERT 0 1
B: (waiting for a row lock held by session A)
A: COMMIT
B: B resumed after A's COMMIT: re-checked the primary key → ERROR
B: ERROR:  duplicate key value violates unique constraint "orders_pkey""#,
        ),
        (
            "A: BEGIN;
A: INSERT INTO orders (id, status) VALUES (7, 'new');
B: INSERT INTO orders (id, status) VALUES (7, 'new');
A: ROLLBACK;",
            "A: BEGIN
A: INSERT 0 1
B: (waiting for a row lock held by session A)
A: ROLLBACK
B: B resumed after A's ROLLBACK: re-checked the primary key → INSERT 0 1
B: INSERT 0 1",
        ),
    ];
    for (script, expect) in cases {
        check(
            &format!("{ORDERS_BY}\n{script}"),
            &format!("A: CREATE TABLE\nA: INSERT 0 1\n{expect}"),
        );
    }
}

/// The conformance harness (tests/conformance/sql.rs) compares with psql only the lines
/// without `waiting`, and reads a `waiting` line of the session that ran the statement as
/// "this statement waits". Over its whole corpus: a resume note is never such a line, and
/// every resumed statement has exactly one note, before its psql lines.
#[test]
fn resume_notes_stay_out_of_the_conformance_comparison() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/sql");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut notes = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut console = SqlConsole::new();
        for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with("--")) {
            let (session, sql) = split_session(line);
            let other = if session == Session::A { Session::B } else { Session::A };
            let other_waited = console.is_waiting(other);
            let outputs = console.run(session, sql);
            let says_waits = outputs.iter().any(|o| o.session == session && o.waiting);
            assert_eq!(says_waits, console.is_waiting(session), "{path:?}: {line}");
            let resumed: Vec<_> = outputs.iter().filter(|o| o.session == other).collect();
            let note_count = resumed.iter().filter(|o| o.waiting).count();
            if other_waited && !console.is_waiting(other) {
                assert_eq!(note_count, 1, "{path:?}: {line}");
                assert!(resumed[0].waiting, "{path:?}: {line}: the note comes first");
                let name = other.name();
                assert!(resumed[0].text.starts_with(&format!("{name} resumed after ")));
                notes += 1;
            } else {
                assert_eq!(note_count, 0, "{path:?}: {line}");
            }
        }
    }
    assert!(notes >= 5, "only {notes} resumes in the corpus");
}

#[test]
fn errors_use_postgresql_wording_and_abort_the_block() {
    check(
        &format!(
            "{ORDERS}
UPDATE orders SET last_fence = 1 WHERE nope = 1;
SELECT * FROM missing;
UPDTE orders SET x = 1;
SELECT * FROM orders WHERE id = 'abc';
INSERT INTO orders (id, status) VALUES (42, 'again');
INSERT INTO orders (id) VALUES (7);
BEGIN;
SELECT * FROM nothing;
SELECT * FROM orders;
COMMIT;
COMMIT;
DELETE FROM orders;
SELECT * FROM orders WHERE id = 42"
        ),
        r#"A: CREATE TABLE
A: INSERT 0 1
A: ERROR:  column "nope" does not exist at character 40
A: ERROR:  relation "missing" does not exist at character 15
A: ERROR:  syntax error at or near "UPDTE" at character 1
A: ERROR:  invalid input syntax for type integer: "abc" at character 33
A: ERROR:  duplicate key value violates unique constraint "orders_pkey"
A: ERROR:  null value in column "status" of relation "orders" violates not-null constraint
A: BEGIN
A: ERROR:  relation "nothing" does not exist at character 15
A: ERROR:  current transaction is aborted, commands ignored until end of transaction block
A: ROLLBACK
A: WARNING:  there is no transaction in progress
A: COMMIT
A: ERROR:  DELETE is not supported here; this console runs CREATE TABLE, INSERT, SELECT, UPDATE, BEGIN, COMMIT and ROLLBACK
A: 42|new|0"#,
    );
}

#[test]
fn an_update_moves_the_row_to_the_end_of_a_scan() {
    check(
        "CREATE TABLE t (id int PRIMARY KEY, v text);
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
UPDATE t SET v = 'x' WHERE id = 1;
SELECT * FROM t;
SELECT id FROM t ORDER BY id DESC;",
        "A: CREATE TABLE
A: INSERT 0 3
A: UPDATE 1
A: 2|b
A: 3|c
A: 1|x
A: 3
A: 2
A: 1",
    );
}

#[test]
fn deadlock_aborts_the_later_waiter() {
    check(
        "CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 0), (2, 0);
A: BEGIN;
B: BEGIN;
A: UPDATE t SET v = 1 WHERE id = 1;
B: UPDATE t SET v = 2 WHERE id = 2;
A: UPDATE t SET v = 1 WHERE id = 2;
B: UPDATE t SET v = 2 WHERE id = 1;
B: ROLLBACK;
A: COMMIT;
SELECT * FROM t;",
        "A: CREATE TABLE
A: INSERT 0 2
A: BEGIN
B: BEGIN
A: UPDATE 1
B: UPDATE 1
A: (waiting for a row lock held by session B)
B: ERROR:  deadlock detected
A: A resumed after B's error aborted its transaction: the row is unchanged, so its first check stands: id 2 = 2 → true → UPDATE 1
A: UPDATE 1
B: ROLLBACK
A: COMMIT
A: 1|1
A: 2|1",
    );
}

#[test]
fn hostile_input_gets_an_error_not_a_panic() {
    let mut console = SqlConsole::new();
    for input in [
        "",
        ";;;",
        "'",
        "\"",
        "SELECT",
        "SELECT * FROM",
        "CREATE TABLE t (",
        "CREATE TABLE t (a int",
        "INSERT INTO t VALUES (",
        "UPDATE t SET a = 1 WHERE",
        "SELECT * FROM t WHERE a = = 1",
        "SELECT * FROM t WHERE ((((a",
        "é",
        "SELECT * FROM t WHERE a = 99999999999999999999999",
        "CREATE TABLE t (a varchar(0))",
        "\u{0}",
        "--",
        "SELECT * FROM t FOR",
        "BEGIN ISOLATION LEVEL SERIALIZABLE",
    ] {
        let out = console.run(super::Session::A, input);
        for line in out {
            assert!(!line.text.is_empty());
        }
    }
}

/// Each of these once overflowed the stack: a trap in the browser, exit 134 natively. The
/// model refuses them with an error, as PostgreSQL refuses too deep an expression, and the
/// console goes on answering.
#[test]
fn too_deep_or_too_long_an_expression_is_refused() {
    let select = "SELECT * FROM orders WHERE ";
    let deep_parens = format!("{select}{}id = 42{};", "(".repeat(2_000), ")".repeat(2_000));
    let deep_not = format!("{select}{}id = 42;", "NOT ".repeat(20_000));
    let long_or = format!("{select}id = 1{};", " OR id = 2".repeat(50_000));
    let long_minus = format!("{select}id = 1{};", "-1".repeat(100_000));
    let nested = |n: usize| format!("{select}{}id = 42{};", "(".repeat(n), ")".repeat(n));
    check(
        &format!(
            "{ORDERS}\n{deep_parens}\n{deep_not}\n{long_or}\n{long_minus}\n{}\n{}\nSELECT id FROM orders;",
            nested(100),
            nested(101)
        ),
        "A: CREATE TABLE
A: INSERT 0 1
A: ERROR:  stack depth limit exceeded
A: ERROR:  stack depth limit exceeded
A: ERROR:  expression too long: more than 1000 operators in one statement (a limit of this console)
A: ERROR:  expression too long: more than 1000 operators in one statement (a limit of this console)
A: 42|new|0
A: ERROR:  stack depth limit exceeded
A: 42",
    );
}
