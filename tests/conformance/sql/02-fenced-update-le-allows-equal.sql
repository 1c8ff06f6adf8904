CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET last_fence = 34 WHERE id = 42 AND last_fence <= 34;
UPDATE orders SET last_fence = 34, updated_by = 'again' WHERE id = 42 AND last_fence <= 34;
UPDATE orders SET last_fence = 34, updated_by = 'strict' WHERE id = 42 AND last_fence < 34;
SELECT id, last_fence, updated_by FROM orders;
