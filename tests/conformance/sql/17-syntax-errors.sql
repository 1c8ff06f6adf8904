CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
UPDTE orders SET status = 'x';
SELECT * FROM orders WHERE;
UPDATE orders SET WHERE id = 42;
SELECT * FROM orders WHERE id = = 42;
INSERT INTO orders VALUES 1, 'a';
