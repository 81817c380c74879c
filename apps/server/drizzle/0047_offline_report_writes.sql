CREATE TABLE "offline_report_writes" (
	"write_id" uuid PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"author_user_id" integer NOT NULL,
	"saved_version" integer NOT NULL,
	"written_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "offline_report_writes" ADD CONSTRAINT "offline_report_writes_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_report_writes" ADD CONSTRAINT "offline_report_writes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;