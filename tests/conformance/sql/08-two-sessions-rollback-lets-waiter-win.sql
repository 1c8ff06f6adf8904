CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
A: BEGIN;
A: UPDATE orders SET last_fence = 35 WHERE id = 42 AND last_fence < 35;
B: UPDATE orders SET last_fence = 34, updated_by = 'B' WHERE id = 42 AND last_fence < 34;
A: ROLLBACK;
B: SELECT * FROM orders;
