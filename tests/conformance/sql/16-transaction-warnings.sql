CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
COMMIT;
START TRANSACTION;
END;
