CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET last_fence = 40 WHERE id = 42;
UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence < 34;
SELECT last_fence FROM orders;
SELECT last_fence FROM orders WHERE id = 42 AND last_fence >= 34;
