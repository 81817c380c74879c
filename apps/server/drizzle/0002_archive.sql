CREATE TABLE "instances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"series_id" integer NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"sop_class_uid" text NOT NULL,
	"transfer_syntax_uid" text NOT NULL,
	"instance_number" integer,
	"number_of_frames" integer DEFAULT 1 NOT NULL,
	"rows" integer,
	"columns" integer,
	"blob_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"frames" jsonb,
	"source" text NOT NULL,
	"calling_aet" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_statuses" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"center_id" integer NOT NULL,
	"api_version" integer DEFAULT 2 NOT NULL,
	"status" text DEFAULT 'CREATED' NOT NULL,
	"urgent" boolean DEFAULT false NOT NULL,
	"created_from_website" boolean DEFAULT false NOT NULL,
	"study_name" text DEFAULT '' NOT NULL,
	"history" text DEFAULT '' NOT NULL,
	"split_from_report_status_id" integer,
	"first_upload_completed_at" timestamp with time zone,
	"last_upload_completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_statuses_status_check" CHECK ("report_statuses"."status" in ('CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED', 'SIGNED_OFF', 'DELETED'))
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"series_instance_uid" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"series_description" text DEFAULT '' NOT NULL,
	"series_number" integer,
	"body_part_examined" text DEFAULT '' NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"center_id" integer NOT NULL,
	"study_instance_uid" text NOT NULL,
	"patient_name" text DEFAULT '' NOT NULL,
	"patient_id" text DEFAULT '' NOT NULL,
	"patient_sex" text DEFAULT '' NOT NULL,
	"patient_age" text DEFAULT '' NOT NULL,
	"patient_birth_date" text DEFAULT '' NOT NULL,
	"study_date" text DEFAULT '' NOT NULL,
	"study_time" text DEFAULT '' NOT NULL,
	"study_description" text DEFAULT '' NOT NULL,
	"accession_number" text DEFAULT '' NOT NULL,
	"study_identifier" text DEFAULT '' NOT NULL,
	"institution_name" text DEFAULT '' NOT NULL,
	"referring_physician_name" text DEFAULT '' NOT NULL,
	"modalities" text[] DEFAULT '{}'::text[] NOT NULL,
	"series_count" integer DEFAULT 0 NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"last_instance_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"event_type" text NOT NULL,
	"actor_user_id" integer,
	"actor_label" text,
	"from_status" text,
	"to_status" text,
	"detail" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instances" ADD CONSTRAINT "instances_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_events" ADD CONSTRAINT "study_events_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_events" ADD CONSTRAINT "study_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "instances_study_sop_key" ON "instances" USING btree ("study_id","sop_instance_uid");--> statement-breakpoint
CREATE INDEX "instances_series_idx" ON "instances" USING btree ("series_id","instance_number");--> statement-breakpoint
CREATE INDEX "report_statuses_study_idx" ON "report_statuses" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "report_statuses_group_status_idx" ON "report_statuses" USING btree ("group_id","status","id");--> statement-breakpoint
CREATE INDEX "report_statuses_center_idx" ON "report_statuses" USING btree ("center_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "series_study_uid_key" ON "series" USING btree ("study_id","series_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "studies_group_uid_key" ON "studies" USING btree ("group_id","study_instance_uid");--> statement-breakpoint
CREATE INDEX "studies_center_idx" ON "studies" USING btree ("center_id");--> statement-breakpoint
CREATE INDEX "studies_patient_id_idx" ON "studies" USING btree ("group_id","patient_id");--> statement-breakpoint
CREATE INDEX "studies_patient_name_trgm_idx" ON "studies" USING gin ("patient_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "studies_study_date_idx" ON "studies" USING btree ("group_id","study_date");--> statement-breakpoint
CREATE INDEX "studies_accession_idx" ON "studies" USING btree ("group_id","accession_number");--> statement-breakpoint
CREATE INDEX "study_events_report_idx" ON "study_events" USING btree ("report_status_id","created_at");