CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET status = 'paid', last_fence = 34, updated_by = 'B' WHERE id = 42 AND last_fence < 34;
UPDATE orders SET status = 'paid', last_fence = 33, updated_by = 'A' WHERE id = 42 AND last_fence < 33;
SELECT * FROM orders;
