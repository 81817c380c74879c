-- drizzle-kit does not write extensions (ARCHITECTURE §3): btree_gin lets the group id share a gin
-- index with the patient-name trigrams (worklist DECISIONS.md "Indexes").
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "report_statuses_patient_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "report_statuses_group_patient_name_trgm_idx" ON "report_statuses" USING gin ("group_id","patient_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "report_statuses_group_patient_name_idx" ON "report_statuses" USING btree ("group_id","patient_name","id");
