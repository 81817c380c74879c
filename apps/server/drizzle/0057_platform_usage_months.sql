CREATE TABLE "platform_usage_months" (
	"period" text NOT NULL,
	"group_id" integer NOT NULL,
	"received" integer NOT NULL,
	"signed_off" integer NOT NULL,
	CONSTRAINT "platform_usage_months_period_group_id_pk" PRIMARY KEY("period","group_id")
);
--> statement-breakpoint
CREATE TABLE "platform_usage_periods" (
	"period" text PRIMARY KEY NOT NULL,
	"counted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "platform_usage_months" ADD CONSTRAINT "platform_usage_months_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;