CREATE TABLE t (id integer PRIMARY KEY, v text);
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');
UPDATE t SET v = 'x' WHERE id = 1;
SELECT * FROM t;
SELECT * FROM t ORDER BY id;
SELECT * FROM t ORDER BY v DESC;
