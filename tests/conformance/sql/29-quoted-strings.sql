CREATE TABLE t (id integer PRIMARY KEY, v text);
INSERT INTO t VALUES (1, 'it''s');
INSERT INTO t VALUES (2, 'a|b');
SELECT * FROM t ORDER BY id;
SELECT id FROM t WHERE v = 'it''s';
