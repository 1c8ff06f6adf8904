CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
A: BEGIN;
A: UPDATE orders SET status = 'paid' WHERE id = 42;
B: SELECT status FROM orders;
A: SELECT status FROM orders;
A: COMMIT;
B: SELECT status FROM orders;
