CREATE TABLE orders (id integer PRIMARY KEY, status text NOT NULL, last_fence bigint NOT NULL DEFAULT 0, updated_by text);
INSERT INTO orders (id, status) VALUES (42, 'new');
CREATE TABLE orders (id integer);
CREATE TABLE x (a integer, a text);
CREATE TABLE y (a widget);
