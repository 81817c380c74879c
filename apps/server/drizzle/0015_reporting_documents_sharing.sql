CREATE TABLE "report_audios" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"blob_key" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"duration_ms" integer,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_drafts" (
	"report_status_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"content_html" text NOT NULL,
	"base_version" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_drafts_report_status_id_user_id_pk" PRIMARY KEY("report_status_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "share_link_otps" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"mobile" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "message_outbox" ADD COLUMN "report_status_id" integer;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD COLUMN "attachments" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "message_outbox" ADD COLUMN "failure_reason" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "share_link_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_audios" ADD CONSTRAINT "report_audios_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_audios" ADD CONSTRAINT "report_audios_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_drafts" ADD CONSTRAINT "report_drafts_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_drafts" ADD CONSTRAINT "report_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_otps" ADD CONSTRAINT "share_link_otps_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_audios_report_status_idx" ON "report_audios" USING btree ("report_status_id","created_at");--> statement-breakpoint
CREATE INDEX "share_link_otps_report_status_idx" ON "share_link_otps" USING btree ("report_status_id","created_at");--> statement-breakpoint
CREATE INDEX "message_outbox_report_status_idx" ON "message_outbox" USING btree ("report_status_id","created_at");