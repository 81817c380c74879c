CREATE TABLE "report_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"report_status_id" integer NOT NULL,
	"tag" text NOT NULL,
	"global_tag" boolean DEFAULT false NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"blob_key" text NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "patient_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "patient_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "patient_sex" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "patient_age" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "referring_physician_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "referring_physician_email" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "consulting_doctor_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "accession_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "department" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "mobile_number" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "study_parts" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "assigned_to_user_id" integer;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "locked_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "auditor_user_id" integer;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "audit_status" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "referring_doctor_user_id" integer;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "reworked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "signed_off_after_print" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "printed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "signed_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "first_signed_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "share_link" text;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "shared_emails" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "shared_numbers" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "dunning_labels" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "backed_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_tags" ADD CONSTRAINT "report_tags_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tags" ADD CONSTRAINT "report_tags_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_tags" ADD CONSTRAINT "report_tags_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_attachments" ADD CONSTRAINT "study_attachments_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_attachments" ADD CONSTRAINT "study_attachments_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_tags_report_tag_key" ON "report_tags" USING btree ("report_status_id","tag");--> statement-breakpoint
CREATE INDEX "report_tags_group_tag_idx" ON "report_tags" USING btree ("group_id","tag");--> statement-breakpoint
CREATE INDEX "study_attachments_report_idx" ON "study_attachments" USING btree ("report_status_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "study_attachments_path_key" ON "study_attachments" USING btree ("path");--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_assigned_to_user_id_users_id_fk" FOREIGN KEY ("assigned_to_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_locked_by_user_id_users_id_fk" FOREIGN KEY ("locked_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_auditor_user_id_users_id_fk" FOREIGN KEY ("auditor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_referring_doctor_user_id_users_id_fk" FOREIGN KEY ("referring_doctor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_statuses_assigned_idx" ON "report_statuses" USING btree ("assigned_to_user_id","status","id");--> statement-breakpoint
CREATE INDEX "report_statuses_auditor_idx" ON "report_statuses" USING btree ("auditor_user_id","id");--> statement-breakpoint
CREATE INDEX "report_statuses_referring_doctor_idx" ON "report_statuses" USING btree ("referring_doctor_user_id","id");--> statement-breakpoint
CREATE INDEX "report_statuses_split_from_idx" ON "report_statuses" USING btree ("split_from_report_status_id");--> statement-breakpoint
CREATE INDEX "report_statuses_group_created_idx" ON "report_statuses" USING btree ("group_id","created_at");--> statement-breakpoint
CREATE INDEX "report_statuses_center_created_idx" ON "report_statuses" USING btree ("center_id","created_at");--> statement-breakpoint
CREATE INDEX "report_statuses_patient_name_trgm_idx" ON "report_statuses" USING gin ("patient_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "report_statuses_patient_id_idx" ON "report_statuses" USING btree ("group_id","patient_id");--> statement-breakpoint
-- Rows made before this migration take their worklist patient fields from their study's DICOM header.
UPDATE "report_statuses" r SET
  "patient_name" = s."patient_name",
  "patient_id" = s."patient_id",
  "patient_sex" = s."patient_sex",
  "patient_age" = s."patient_age",
  "referring_physician_name" = s."referring_physician_name",
  "accession_number" = s."accession_number"
FROM "studies" s WHERE s."id" = r."study_id";
