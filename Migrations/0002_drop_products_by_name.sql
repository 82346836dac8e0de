-- Names completing a prefix (`suggest`) are read as each type's range of products_by_type_name, so
-- the index of products by name alone is dropped (Benchmarks/README.md, "Footprint at 1,000,000
-- products"). PostgreSQL's products never had it.
DROP INDEX IF EXISTS products_by_name;
