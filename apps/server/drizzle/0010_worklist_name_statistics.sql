-- A patient-name "contains" filter (ILIKE '%piece%') is estimated from the column's statistics.
-- With the default target (100) the planner over-estimated a piece whose trigrams are common
-- (3x on 1,000,000 rows) and chose a parallel scan of the (group, name) btree (~280 ms) over the
-- (group, trigram) gin index (~45 ms). A finer histogram keeps the estimate near the truth
-- (worklist DECISIONS.md "Indexes"). ANALYZE (autovacuum) picks it up.
ALTER TABLE "report_statuses" ALTER COLUMN "patient_name" SET STATISTICS 1000;
