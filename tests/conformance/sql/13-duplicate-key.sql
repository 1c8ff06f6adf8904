CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
INSERT INTO orders (id, status) VALUES (42, 'dup');
INSERT INTO orders (id, status) VALUES (43, 'a'), (43, 'b');
SELECT count FROM orders;
SELECT id FROM orders;
