CREATE TABLE "critical_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"category" text NOT NULL,
	"finding" text NOT NULL,
	"raised_by_user_id" integer,
	"raised_at" timestamp with time zone NOT NULL,
	"escalate_after_minutes" integer NOT NULL,
	"escalation_due_at" timestamp with time zone NOT NULL,
	"escalated_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by_user_id" integer,
	CONSTRAINT "critical_results_category_check" CHECK ("critical_results"."category" in ('CRITICAL', 'URGENT', 'UNEXPECTED'))
);
--> statement-breakpoint
ALTER TABLE "critical_results" ADD CONSTRAINT "critical_results_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_results" ADD CONSTRAINT "critical_results_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_results" ADD CONSTRAINT "critical_results_raised_by_user_id_users_id_fk" FOREIGN KEY ("raised_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "critical_results" ADD CONSTRAINT "critical_results_acknowledged_by_user_id_users_id_fk" FOREIGN KEY ("acknowledged_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "critical_results_report_status_idx" ON "critical_results" USING btree ("report_status_id","id");--> statement-breakpoint
CREATE INDEX "critical_results_due_idx" ON "critical_results" USING btree ("escalation_due_at") WHERE acknowledged_at is null and escalated_at is null;--> statement-breakpoint
CREATE INDEX "critical_results_open_idx" ON "critical_results" USING btree ("group_id","id") WHERE acknowledged_at is null;