CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
A: BEGIN;
A: SELECT status, last_fence FROM orders WHERE id = 42 FOR UPDATE;
B: BEGIN;
B: SELECT status, last_fence FROM orders WHERE id = 42 FOR UPDATE;
A: UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42;
A: COMMIT;
B: COMMIT;
