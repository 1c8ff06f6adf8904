CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET last_fence = 34 WHERE id = 7 AND last_fence < 34;
SELECT * FROM orders WHERE id = 7;
