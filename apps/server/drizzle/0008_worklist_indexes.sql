DROP INDEX "report_statuses_group_created_idx";--> statement-breakpoint
DROP INDEX "report_statuses_center_created_idx";--> statement-breakpoint
CREATE INDEX "report_statuses_open_idx" ON "report_statuses" USING btree ("group_id","status","assigned_to_user_id","locked_by_user_id","urgent","id") WHERE status in ('CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED');--> statement-breakpoint
CREATE INDEX "report_statuses_group_created_idx" ON "report_statuses" USING btree ("group_id","created_at","id");--> statement-breakpoint
CREATE INDEX "report_statuses_center_created_idx" ON "report_statuses" USING btree ("center_id","created_at","id");