CREATE TABLE w (id int PRIMARY KEY, name varchar(3), ok boolean DEFAULT false);
INSERT INTO w (id, name) VALUES (1, 'abc');
INSERT INTO w (id, name) VALUES (2, 'abcd');
INSERT INTO w VALUES (3, 'z', true);
UPDATE w SET ok = 'yes' WHERE id = 1;
SELECT * FROM w WHERE ok = true;
SELECT * FROM w WHERE ok;
SELECT * FROM w WHERE ok = 'maybe';
