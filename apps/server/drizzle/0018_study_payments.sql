CREATE TABLE "study_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_status_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"mode" text,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"provider" text,
	"provider_reference" text,
	"pay_url" text,
	"transaction_id" text DEFAULT '' NOT NULL,
	"requested_by_user_id" integer,
	"paid_recorded_by_user_id" integer,
	"cancelled_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "study_payments_status_check" CHECK ("study_payments"."status" in ('PENDING', 'PAID', 'CANCELLED')),
	CONSTRAINT "study_payments_amount_check" CHECK ("study_payments"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "payment_status" text DEFAULT 'NOT_REQUIRED' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "payment_mode" text;--> statement-breakpoint
ALTER TABLE "study_payments" ADD CONSTRAINT "study_payments_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_payments" ADD CONSTRAINT "study_payments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_payments" ADD CONSTRAINT "study_payments_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_payments" ADD CONSTRAINT "study_payments_paid_recorded_by_user_id_users_id_fk" FOREIGN KEY ("paid_recorded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_payments" ADD CONSTRAINT "study_payments_cancelled_by_user_id_users_id_fk" FOREIGN KEY ("cancelled_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "study_payments_report_status_idx" ON "study_payments" USING btree ("report_status_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "study_payments_provider_reference_key" ON "study_payments" USING btree ("provider","provider_reference") WHERE "study_payments"."provider_reference" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "study_payments_one_pending_key" ON "study_payments" USING btree ("report_status_id") WHERE status = 'PENDING';--> statement-breakpoint
CREATE INDEX "report_statuses_payment_pending_idx" ON "report_statuses" USING btree ("group_id","id") WHERE payment_status = 'PENDING';--> statement-breakpoint
ALTER TABLE "report_statuses" ADD CONSTRAINT "report_statuses_payment_status_check" CHECK ("report_statuses"."payment_status" in ('NOT_REQUIRED', 'PENDING', 'PAID'));