-- Use case: pre-filtering a join (a "Bloom join")
--
-- How much did the shop sell of its cheap garden products? One million sales rows join
-- 100,000 products, of which about 1,000 qualify. Each sale that reaches the join costs a
-- lookup of its product; in a distributed database, the trip of the sale's row across the
-- network. A filter of the qualifying products' ids, built first and applied to the sales
-- as they are scanned, lets through only the sales that may join: the lookups (and trips)
-- of the others are saved. The join then removes the filter's false positives, so the
-- answer is exact. Two ways to hand the filter over: a bound parameter (in the shell,
-- .parameter set), or a scalar subquery that builds it.
--
-- Run: sqlite3 :memory: -cmd ".load build/bloom" < sql/join_prefilter.sql
.headers on
.mode column

-- 100,000 products in 50 categories; price and stock status follow from a hash of the id.
CREATE TABLE categories(id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO categories VALUES (0, 'books'), (1, 'toys'), (2, 'kitchen'), (3, 'garden'), (4, 'tools');
INSERT INTO categories SELECT value, 'category ' || value FROM generate_series(5, 49);
CREATE TABLE products(id INTEGER PRIMARY KEY, category INTEGER, name TEXT, price_cents INTEGER,
                      in_stock INTEGER);
INSERT INTO products
SELECT value, value % 50, 'product ' || value, 99 + (value * 2654435761) % 4294967296 % 4000,
       (value * 40503) % 65536 < 58982
FROM generate_series(1, 100000);

-- 1,000,000 sales of random products (a linear congruential generator), 1 to 5 each.
CREATE TABLE sales(id INTEGER PRIMARY KEY, product_id INTEGER, quantity INTEGER);
WITH RECURSIVE lcg(n, x) AS (
  SELECT 1, 99
  UNION ALL
  SELECT n + 1, (1664525 * x + 1013904223) % 4294967296 FROM lcg WHERE n < 1000000
)
INSERT INTO sales SELECT n, 1 + (x >> 12) % 100000, 1 + (x >> 8) % 5 FROM lcg;

-- The small side: garden products under 20.00 in stock.
CREATE VIEW cheap_garden AS
SELECT p.* FROM products p JOIN categories c ON c.id = p.category
WHERE c.name = 'garden' AND p.price_cents < 2000 AND p.in_stock;

-- 1. The plain join: every sale looks up its product.
CREATE TABLE plain AS
SELECT count(*) AS sales, sum(s.quantity * g.price_cents) AS revenue_cents
FROM sales s JOIN cheap_garden g ON g.id = s.product_id;

-- 2. The filter bound as a parameter: only the sales it lets through look up a product.
.parameter set @garden "(SELECT bloom_build(id, NULL, 0.01) FROM cheap_garden)"
CREATE TABLE bound AS
SELECT count(*) AS sales, sum(s.quantity * g.price_cents) AS revenue_cents
FROM sales s JOIN cheap_garden g ON g.id = s.product_id
WHERE bloom_might_contain(@garden, s.product_id);

-- 3. The filter built by a scalar subquery inside the same query.
CREATE TABLE subquery AS
SELECT count(*) AS sales, sum(s.quantity * g.price_cents) AS revenue_cents
FROM sales s JOIN cheap_garden g ON g.id = s.product_id
WHERE bloom_might_contain((SELECT bloom_build(id, NULL, 0.01) FROM cheap_garden), s.product_id);

SELECT (SELECT count(*) FROM sales) AS sales, (SELECT count(*) FROM products) AS products,
       (SELECT count(*) FROM cheap_garden) AS cheap_garden_products;

.print ''
-- lookups: sales that reach the join, one product lookup each.
SELECT 'plain join' AS form, (SELECT count(*) FROM sales) AS lookups, sales, revenue_cents FROM plain
UNION ALL
SELECT 'filter, bound', (SELECT count(*) FROM sales WHERE bloom_might_contain(@garden, product_id)),
       sales, revenue_cents FROM bound
UNION ALL
SELECT 'filter, subquery', (SELECT count(*) FROM sales WHERE bloom_might_contain(
         (SELECT bloom_build(id, NULL, 0.01) FROM cheap_garden), product_id)),
       sales, revenue_cents FROM subquery;

.print ''
SELECT count(*) AS lookups_avoided,
       printf('%.1f %%', 100.0 * count(*) / (SELECT count(*) FROM sales)) AS of_sales,
       (SELECT count(*) FROM sales WHERE bloom_might_contain(@garden, product_id))
         - (SELECT sales FROM plain) AS false_positives,
       length(@garden) AS filter_bytes,
       8 * (SELECT count(*) FROM cheap_garden) AS bytes_of_the_ids
FROM sales WHERE NOT bloom_might_contain(@garden, product_id);

.print ''
.mode list
.headers off
SELECT 'check: ' || CASE
  WHEN p.sales > 0 AND (p.sales, p.revenue_cents) = (b.sales, b.revenue_cents)
   AND (p.sales, p.revenue_cents) = (q.sales, q.revenue_cents)
  THEN 'ok: both filtered joins give the plain join''s ' || p.sales || ' sales and '
       || p.revenue_cents || ' cents'
  ELSE 'MISMATCH' END
FROM plain p, bound b, subquery q;
