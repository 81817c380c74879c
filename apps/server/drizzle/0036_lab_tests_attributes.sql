CREATE TABLE "lab_test_attribute_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"data" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_test_attribute_settings" ADD CONSTRAINT "lab_test_attribute_settings_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_test_attribute_settings_lab_key" ON "lab_test_attribute_settings" USING btree ("lab_scope","lab_owner_id");