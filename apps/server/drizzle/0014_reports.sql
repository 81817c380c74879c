CREATE TABLE "report_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"content_html" text NOT NULL,
	"modalities" text[] DEFAULT '{}'::text[] NOT NULL,
	"body_parts" text[] DEFAULT '{}'::text[] NOT NULL,
	"gender" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_templates_gender_check" CHECK ("report_templates"."gender" is null or "report_templates"."gender" in ('M', 'F', 'O'))
);
--> statement-breakpoint
CREATE TABLE "report_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"content_html" text NOT NULL,
	"kind" text NOT NULL,
	"saved_by_user_id" integer,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_versions_kind_check" CHECK ("report_versions"."kind" in ('SAVE', 'SIGN_OFF', 'ADDENDUM'))
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"name" text NOT NULL,
	"content_html" text NOT NULL,
	"doctor_user_id" integer NOT NULL,
	"typed_by_user_id" integer NOT NULL,
	"is_addendum" boolean DEFAULT false NOT NULL,
	"awaiting_verification" boolean DEFAULT false NOT NULL,
	"verified_by_user_id" integer,
	"signed_off_by_user_id" integer,
	"signed_off_at" timestamp with time zone,
	"signature_name" text,
	"signature_asset_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_templates" ADD CONSTRAINT "report_templates_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_saved_by_user_id_users_id_fk" FOREIGN KEY ("saved_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_doctor_user_id_users_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_typed_by_user_id_users_id_fk" FOREIGN KEY ("typed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_verified_by_user_id_users_id_fk" FOREIGN KEY ("verified_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_signed_off_by_user_id_users_id_fk" FOREIGN KEY ("signed_off_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_signature_asset_id_setting_assets_id_fk" FOREIGN KEY ("signature_asset_id") REFERENCES "public"."setting_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "report_templates_owner_name_key" ON "report_templates" USING btree ("owner_user_id","name");--> statement-breakpoint
CREATE INDEX "report_templates_group_idx" ON "report_templates" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_versions_report_version_key" ON "report_versions" USING btree ("report_id","version");--> statement-breakpoint
CREATE INDEX "reports_report_status_idx" ON "reports" USING btree ("report_status_id","id");