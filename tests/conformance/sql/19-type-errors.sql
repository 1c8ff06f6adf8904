CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
SELECT id FROM orders WHERE id = 'abc';
SELECT id FROM orders WHERE id = '42';
SELECT id FROM orders WHERE status = 42;
UPDATE orders SET last_fence = 'x' WHERE id = 42;
SELECT id FROM orders WHERE id;
