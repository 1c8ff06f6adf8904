CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
INSERT INTO orders (id) VALUES (1);
INSERT INTO orders (id, status) VALUES (NULL, 'x');
UPDATE orders SET status = NULL WHERE id = 42;
SELECT status FROM orders;
