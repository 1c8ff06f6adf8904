CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
SELECT * FROM order_lines;
SELECT nope FROM orders;
UPDATE orders SET nope = 1 WHERE id = 42;
UPDATE orders SET status = 'x' WHERE nope = 1;
INSERT INTO orders (id, nope) VALUES (1, 2);
