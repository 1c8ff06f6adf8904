use super::{SqlConsole, render, split_session};

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
B: paid
B: COMMIT",
    );
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
