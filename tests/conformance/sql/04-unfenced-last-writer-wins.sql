CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET status = 'paid', updated_by = 'B' WHERE id = 42;
UPDATE orders SET status = 'shipped', updated_by = 'A' WHERE id = 42;
SELECT * FROM orders WHERE id = 42;
