-- Rule 15 (flags): the functions are deterministic and innocuous, so a schema may use
-- them in views, triggers, generated columns, CHECK constraints and index
-- expressions, and they still work with PRAGMA trusted_schema = OFF.
CREATE TABLE users(email TEXT);
INSERT INTO users VALUES ('ann@example.com'), ('bob@example.com'), ('eve@example.com');
CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB CHECK (filter IS NULL OR length(filter) >= 64));
INSERT INTO filters SELECT 'users', bloom_build(email, 1000, 1e-9) FROM users;

CREATE VIEW signups(email, maybe_taken) AS
  SELECT c.email, bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), c.email)
  FROM (SELECT 'ann@example.com' AS email UNION ALL SELECT 'zed@example.com') c;
CREATE VIEW filter_sizes AS SELECT name, length(filter) AS bytes FROM filters;
CREATE VIEW user_filter AS SELECT bloom_build(email, 1000, 1e-9) AS f FROM users;

CREATE TABLE candidates(email TEXT, filter BLOB,
  maybe_taken INTEGER GENERATED ALWAYS AS (bloom_might_contain(filter, email)) VIRTUAL,
  CHECK (bloom_might_contain(filter, email) IS NOT NULL));
CREATE INDEX candidates_by_hit ON candidates(bloom_might_contain(filter, email));

CREATE TABLE log(email TEXT, was_known INTEGER);
CREATE TRIGGER log_signup AFTER INSERT ON candidates BEGIN
  INSERT INTO log VALUES (NEW.email, bloom_might_contain((SELECT filter FROM filters WHERE name = 'users'), NEW.email));
END;

-- Reopen so that the schema is read back from the file, untrusted.
--! reopen
PRAGMA trusted_schema = OFF;
SELECT email, maybe_taken FROM signups ORDER BY email;
-- => ann@example.com|1
-- => zed@example.com|0
SELECT f = (SELECT filter FROM filters) FROM user_filter;
-- => 1
INSERT INTO candidates(email, filter) SELECT 'bob@example.com', filter FROM filters;
INSERT INTO candidates(email, filter) SELECT 'kim@example.com', filter FROM filters;
SELECT email, maybe_taken FROM candidates ORDER BY email;
-- => bob@example.com|1
-- => kim@example.com|0
SELECT email FROM candidates WHERE bloom_might_contain(filter, email) = 1;
-- => bob@example.com
SELECT * FROM log ORDER BY email;
-- => bob@example.com|1
-- => kim@example.com|0
-- A row without a filter: the probe of the CHECK constraint refuses it (rule 7 (probe)).
INSERT INTO candidates(email, filter) VALUES ('x@example.com', NULL);
-- error: bloom_might_contain: the filter is NULL, which holds no key: a subquery that found no row (is the name it looks for right?) or a NULL cell (to skip those, test the column IS NOT NULL first)
-- integrity_check recomputes the index expression for every row.
PRAGMA integrity_check;
-- => ok

