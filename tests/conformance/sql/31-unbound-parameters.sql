-- The engine runs the simulator's statements with $n parameters; typed in by hand, with
-- nothing bound, PostgreSQL and the console both refuse them, at the same position.
CREATE TABLE orders (id bigint PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL);
INSERT INTO orders VALUES (42, 'pending', 33);
UPDATE orders SET status = 'paid' WHERE id = 42 AND last_fence < $1;
SELECT status FROM orders WHERE id = $2;
UPDATE orders SET last_fence = $1 WHERE id = 42;
SELECT status, last_fence FROM orders;
