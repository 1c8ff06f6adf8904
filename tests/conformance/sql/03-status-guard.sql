CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDATE orders SET status = 'paid', last_fence = 34 WHERE id = 42 AND last_fence < 34 AND status = 'new';
UPDATE orders SET status = 'refunded', last_fence = 35 WHERE id = 42 AND last_fence < 35 AND status = 'new';
UPDATE orders SET status = 'refunded', last_fence = 35 WHERE id = 42 AND last_fence < 35 AND status = 'paid';
SELECT status, last_fence FROM orders;
