-- drizzle-kit does not write extensions (ARCHITECTURE §3): pg_trgm backs the contains-searches.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
