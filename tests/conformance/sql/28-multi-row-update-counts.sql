CREATE TABLE t (id integer PRIMARY KEY, fence bigint NOT NULL);
INSERT INTO t VALUES (1, 10), (2, 20), (3, 30);
UPDATE t SET fence = 25 WHERE fence < 25;
UPDATE t SET fence = fence + 1 WHERE fence >= 25 AND fence <> 30;
SELECT id, fence FROM t ORDER BY fence DESC;
