CREATE TABLE "billing_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"sequence" integer NOT NULL,
	"center_id" integer,
	"doctor_user_id" integer,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"status" text DEFAULT 'ISSUED' NOT NULL,
	"subtotal_minor" bigint NOT NULL,
	"adjustment_minor" bigint DEFAULT 0 NOT NULL,
	"tax_basis_points" integer DEFAULT 0 NOT NULL,
	"tax_minor" bigint DEFAULT 0 NOT NULL,
	"total_minor" bigint NOT NULL,
	"paid_minor" bigint DEFAULT 0 NOT NULL,
	"credited_minor" bigint DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"credited_document_id" integer,
	"due_date" date,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_by_user_id" integer,
	"billing_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "billing_documents_kind_check" CHECK ("billing_documents"."kind" in ('TELE_INVOICE', 'CREDIT_NOTE', 'PAYOUT_STATEMENT')),
	CONSTRAINT "billing_documents_status_check" CHECK ("billing_documents"."status" in ('ISSUED', 'PARTIALLY_PAID', 'PAID', 'CANCELLED_BY_CREDIT')),
	CONSTRAINT "billing_documents_paid_check" CHECK ("billing_documents"."paid_minor" >= 0),
	CONSTRAINT "billing_documents_period_check" CHECK ("billing_documents"."period_start" <= "billing_documents"."period_end")
);
--> statement-breakpoint
CREATE TABLE "billing_idempotent_writes" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_idempotent_writes_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "billing_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"report_status_id" integer,
	"report_id" integer,
	"side" text NOT NULL,
	"charge" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"study_part" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"unit_minor" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"price_id" integer,
	"credited_line_id" bigint,
	CONSTRAINT "billing_lines_charge_check" CHECK ("billing_lines"."charge" in ('READ', 'ADDENDUM', 'URGENT', 'ADJUSTMENT', 'CREDIT'))
);
--> statement-breakpoint
CREATE TABLE "billing_payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"mode" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"provider" text,
	"received_on" date NOT NULL,
	"recorded_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_payments_amount_check" CHECK ("billing_payments"."amount_minor" > 0),
	CONSTRAINT "billing_payments_mode_check" CHECK ("billing_payments"."mode" in ('CASH', 'UPI', 'CARD', 'BANK_TRANSFER', 'ONLINE'))
);
--> statement-breakpoint
CREATE TABLE "billing_sequences" (
	"group_id" integer NOT NULL,
	"kind" text NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "billing_sequences_group_id_kind_pk" PRIMARY KEY("group_id","kind")
);
--> statement-breakpoint
CREATE TABLE "tele_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"side" text NOT NULL,
	"center_id" integer,
	"doctor_user_id" integer,
	"modality" text NOT NULL,
	"study_part" text DEFAULT '' NOT NULL,
	"charge" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"effective_from" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" integer,
	CONSTRAINT "tele_prices_key" UNIQUE NULLS NOT DISTINCT("group_id","side","center_id","doctor_user_id","modality","study_part","charge","effective_from"),
	CONSTRAINT "tele_prices_side_check" CHECK ("tele_prices"."side" in ('CENTER', 'DOCTOR')),
	CONSTRAINT "tele_prices_charge_check" CHECK ("tele_prices"."charge" in ('READ', 'ADDENDUM', 'URGENT')),
	CONSTRAINT "tele_prices_amount_check" CHECK ("tele_prices"."amount_minor" >= 0),
	CONSTRAINT "tele_prices_owner_check" CHECK (("tele_prices"."side" = 'CENTER' and "tele_prices"."doctor_user_id" is null) or ("tele_prices"."side" = 'DOCTOR' and "tele_prices"."center_id" is null))
);
--> statement-breakpoint
ALTER TABLE "billing_audit_events" ADD CONSTRAINT "billing_audit_events_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_audit_events" ADD CONSTRAINT "billing_audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_doctor_user_id_users_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_documents" ADD CONSTRAINT "billing_documents_issued_by_user_id_users_id_fk" FOREIGN KEY ("issued_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_idempotent_writes" ADD CONSTRAINT "billing_idempotent_writes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_lines" ADD CONSTRAINT "billing_lines_document_id_billing_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."billing_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_lines" ADD CONSTRAINT "billing_lines_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_document_id_billing_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."billing_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_recorded_by_user_id_users_id_fk" FOREIGN KEY ("recorded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_sequences" ADD CONSTRAINT "billing_sequences_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tele_prices" ADD CONSTRAINT "tele_prices_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tele_prices" ADD CONSTRAINT "tele_prices_center_id_centers_id_fk" FOREIGN KEY ("center_id") REFERENCES "public"."centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tele_prices" ADD CONSTRAINT "tele_prices_doctor_user_id_users_id_fk" FOREIGN KEY ("doctor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tele_prices" ADD CONSTRAINT "tele_prices_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_audit_events_entity_idx" ON "billing_audit_events" USING btree ("group_id","entity","entity_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_number_key" ON "billing_documents" USING btree ("group_id","kind","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_one_invoice_key" ON "billing_documents" USING btree ("group_id","center_id","period_start","period_end") WHERE kind = 'TELE_INVOICE';--> statement-breakpoint
CREATE UNIQUE INDEX "billing_documents_one_statement_key" ON "billing_documents" USING btree ("group_id","doctor_user_id","period_start","period_end") WHERE kind = 'PAYOUT_STATEMENT';--> statement-breakpoint
CREATE INDEX "billing_documents_group_kind_period_idx" ON "billing_documents" USING btree ("group_id","kind","period_start","id");--> statement-breakpoint
CREATE INDEX "billing_documents_center_idx" ON "billing_documents" USING btree ("group_id","center_id","id");--> statement-breakpoint
CREATE INDEX "billing_documents_doctor_idx" ON "billing_documents" USING btree ("group_id","doctor_user_id","id");--> statement-breakpoint
CREATE INDEX "billing_documents_credited_idx" ON "billing_documents" USING btree ("credited_document_id") WHERE "billing_documents"."credited_document_id" is not null;--> statement-breakpoint
CREATE INDEX "billing_documents_open_due_idx" ON "billing_documents" USING btree ("group_id","due_date") WHERE kind = 'TELE_INVOICE' and status in ('ISSUED', 'PARTIALLY_PAID');--> statement-breakpoint
CREATE INDEX "billing_lines_document_idx" ON "billing_lines" USING btree ("document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_lines_once_key" ON "billing_lines" USING btree ("side","report_status_id","charge","study_part",coalesce(report_id, 0)) WHERE "billing_lines"."report_status_id" is not null;--> statement-breakpoint
CREATE INDEX "billing_lines_group_report_status_idx" ON "billing_lines" USING btree ("group_id","report_status_id");--> statement-breakpoint
CREATE INDEX "billing_payments_document_idx" ON "billing_payments" USING btree ("document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payments_provider_reference_key" ON "billing_payments" USING btree ("provider","reference") WHERE "billing_payments"."provider" is not null;