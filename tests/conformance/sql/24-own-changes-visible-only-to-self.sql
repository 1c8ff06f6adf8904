CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
A: BEGIN;
A: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34;
A: SELECT status, last_fence FROM orders;
B: SELECT status, last_fence FROM orders;
B: UPDATE orders SET updated_by = 'B' WHERE id = 7;
A: COMMIT;
B: SELECT status, last_fence FROM orders;
