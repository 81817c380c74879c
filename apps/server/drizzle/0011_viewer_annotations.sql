CREATE TABLE "viewer_annotations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"annotation_uid" text NOT NULL,
	"tool_name" text NOT NULL,
	"series_instance_uid" text NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"frame_number" integer DEFAULT 1 NOT NULL,
	"data" jsonb NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "viewer_key_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"series_instance_uid" text NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"frame_number" integer DEFAULT 1 NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "viewer_annotations" ADD CONSTRAINT "viewer_annotations_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_annotations" ADD CONSTRAINT "viewer_annotations_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_key_images" ADD CONSTRAINT "viewer_key_images_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_key_images" ADD CONSTRAINT "viewer_key_images_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "viewer_annotations_report_uid_key" ON "viewer_annotations" USING btree ("report_status_id","annotation_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "viewer_key_images_report_frame_key" ON "viewer_key_images" USING btree ("report_status_id","sop_instance_uid","frame_number");