CREATE TABLE "forward_send_instances" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"send_id" integer NOT NULL,
	"instance_id" bigint NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	CONSTRAINT "forward_send_instances_status_check" CHECK ("forward_send_instances"."status" in ('PENDING', 'SEND', 'FAILED'))
);
--> statement-breakpoint
CREATE TABLE "forward_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"study_instance_uid" text NOT NULL,
	"pacs_id" integer,
	"ae_title" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"status" text DEFAULT 'IN_PROGRESS' NOT NULL,
	"last_error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forward_sends_status_check" CHECK ("forward_sends"."status" in ('IN_PROGRESS', 'FAILED', 'SEND'))
);
--> statement-breakpoint
CREATE TABLE "forwarding_pacs" (
	"id" serial PRIMARY KEY NOT NULL,
	"center_id" integer NOT NULL,
	"name" text,
	"ae_title" text NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forwarding_pacs_port_check" CHECK ("forwarding_pacs"."port" between 1 and 65535)
);
--> statement-breakpoint
ALTER TABLE "forward_send_instances" ADD CONSTRAINT "forward_send_instances_send_id_forward_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."forward_sends"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_send_instances" ADD CONSTRAINT "forward_send_instances_instance_id_instances_id_fk" FOREIGN KEY ("instance_id") REFERENCES "public"."instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_sends" ADD CONSTRAINT "forward_sends_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_sends" ADD CONSTRAINT "forward_sends_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_sends" ADD CONSTRAINT "forward_sends_pacs_id_forwarding_pacs_id_fk" FOREIGN KEY ("pacs_id") REFERENCES "public"."forwarding_pacs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_sends" ADD CONSTRAINT "forward_sends_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_pacs" ADD CONSTRAINT "forwarding_pacs_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_pacs" ADD CONSTRAINT "forwarding_pacs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "forward_send_instances_send_instance_key" ON "forward_send_instances" USING btree ("send_id","instance_id");--> statement-breakpoint
CREATE INDEX "forward_send_instances_due_idx" ON "forward_send_instances" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "forward_sends_report_idx" ON "forward_sends" USING btree ("report_status_id","created_at");--> statement-breakpoint
CREATE INDEX "forwarding_pacs_center_idx" ON "forwarding_pacs" USING btree ("center_id");