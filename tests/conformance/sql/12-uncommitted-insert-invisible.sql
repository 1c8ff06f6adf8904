CREATE TABLE orders (id integer PRIMARY KEY, status text);
A: BEGIN;
A: INSERT INTO orders VALUES (1, 'new');
B: SELECT * FROM orders;
A: SELECT * FROM orders;
A: COMMIT;
B: SELECT * FROM orders;
