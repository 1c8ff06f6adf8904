CREATE TABLE t (id integer PRIMARY KEY, fence bigint);
INSERT INTO t VALUES (1, NULL), (2, 5);
SELECT id FROM t WHERE fence < 10;
SELECT id FROM t WHERE NOT fence < 10;
SELECT id FROM t WHERE fence < 10 OR id = 1;
SELECT id FROM t WHERE fence IS NULL;
SELECT id FROM t WHERE fence IS NOT NULL AND fence >= 5;
UPDATE t SET fence = 7 WHERE fence < 7;
SELECT * FROM t ORDER BY id;
