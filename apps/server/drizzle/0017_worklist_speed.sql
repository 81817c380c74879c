-- The worklist's patient-name filter is `lower(patient_name) like lower(pattern)`: the same match as
-- ILIKE, which lowers the pattern again for every row it tests (worklist DECISIONS.md "Throughput").
-- The group's trigram index moves to that expression; its statistics keep the 1000 target 0010 gave
-- the column, so a common surname piece is still estimated near the truth (ANALYZE picks it up).
-- (group_id, id, patient_name) serves a name filter's pages newest first from the index alone.
DROP INDEX "report_statuses_group_patient_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "report_statuses_group_lower_patient_name_trgm_idx" ON "report_statuses" USING gin ("group_id",lower("patient_name") gin_trgm_ops);--> statement-breakpoint
ALTER INDEX "report_statuses_group_lower_patient_name_trgm_idx" ALTER COLUMN 2 SET STATISTICS 1000;--> statement-breakpoint
CREATE INDEX "report_statuses_group_id_patient_name_idx" ON "report_statuses" USING btree ("group_id","id","patient_name");
