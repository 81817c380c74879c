CREATE TABLE "lab_prefixes" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"owner_id" integer NOT NULL,
	"prefix" text NOT NULL,
	"sequence" bigint NOT NULL,
	"uhid_prefix" text NOT NULL,
	"uhid_sequence" bigint NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_layouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" text NOT NULL,
	"owner_id" integer NOT NULL,
	"margin_top_cm" numeric(5, 2) NOT NULL,
	"margin_bottom_cm" numeric(5, 2) NOT NULL,
	"margin_left_cm" numeric(5, 2) NOT NULL,
	"margin_right_cm" numeric(5, 2) NOT NULL,
	"header_asset_id" text,
	"footer_asset_id" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_layouts_scope_check" CHECK ("report_layouts"."scope" in ('CENTER', 'GROUP', 'USER'))
);
--> statement-breakpoint
CREATE TABLE "setting_assets" (
	"id" text PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"uploaded_by_user_id" integer,
	"asset_type" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"blob_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "setting_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"section" text NOT NULL,
	"field" text NOT NULL,
	"old_value" jsonb,
	"new_value" jsonb,
	"changed_by_user_id" integer,
	"changed_by" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_signatures" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"image_asset_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "preferences" DROP CONSTRAINT "preferences_scope_check";--> statement-breakpoint
ALTER TABLE "report_layouts" ADD CONSTRAINT "report_layouts_header_asset_id_setting_assets_id_fk" FOREIGN KEY ("header_asset_id") REFERENCES "public"."setting_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_layouts" ADD CONSTRAINT "report_layouts_footer_asset_id_setting_assets_id_fk" FOREIGN KEY ("footer_asset_id") REFERENCES "public"."setting_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_assets" ADD CONSTRAINT "setting_assets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_assets" ADD CONSTRAINT "setting_assets_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_changed_by_user_id_users_id_fk" FOREIGN KEY ("changed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_signatures" ADD CONSTRAINT "user_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_signatures" ADD CONSTRAINT "user_signatures_image_asset_id_setting_assets_id_fk" FOREIGN KEY ("image_asset_id") REFERENCES "public"."setting_assets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_prefixes_scope_owner_key" ON "lab_prefixes" USING btree ("scope","owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_layouts_scope_owner_key" ON "report_layouts" USING btree ("scope","owner_id");--> statement-breakpoint
CREATE INDEX "setting_assets_group_idx" ON "setting_assets" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "setting_changes_group_changed_idx" ON "setting_changes" USING btree ("group_id","changed_at");--> statement-breakpoint
ALTER TABLE "preferences" ADD CONSTRAINT "preferences_scope_check" CHECK ("preferences"."scope" in ('GROUP', 'CENTER', 'USER'));