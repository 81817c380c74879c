CREATE TABLE "viewer_activity" (
	"report_status_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "viewer_activity_report_status_id_user_id_pk" PRIMARY KEY("report_status_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "viewer_activity" ADD CONSTRAINT "viewer_activity_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_activity" ADD CONSTRAINT "viewer_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "viewer_activity_report_recent_idx" ON "viewer_activity" USING btree ("report_status_id","last_active_at");