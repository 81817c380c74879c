CREATE TABLE "ingest_refusals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"center_id" integer NOT NULL,
	"study_id" integer,
	"study_instance_uid" text NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"sop_class_uid" text NOT NULL,
	"source" text NOT NULL,
	"calling_aet" text,
	"actor_user_id" integer,
	"sha256" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "new_images_after_sign_off_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ingest_refusals" ADD CONSTRAINT "ingest_refusals_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_refusals" ADD CONSTRAINT "ingest_refusals_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_refusals" ADD CONSTRAINT "ingest_refusals_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ingest_refusals" ADD CONSTRAINT "ingest_refusals_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_refusals_group_created_idx" ON "ingest_refusals" USING btree ("group_id","created_at");--> statement-breakpoint
CREATE INDEX "ingest_refusals_study_idx" ON "ingest_refusals" USING btree ("study_id");