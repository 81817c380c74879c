CREATE TABLE "group_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_billing_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer,
	"entity" text NOT NULL,
	"entity_id" integer,
	"action" text NOT NULL,
	"actor_email" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"sequence" bigint NOT NULL,
	"number" text NOT NULL,
	"kind" text DEFAULT 'INVOICE' NOT NULL,
	"group_id" integer NOT NULL,
	"period" text NOT NULL,
	"plan_id" integer NOT NULL,
	"plan_name" text NOT NULL,
	"corrects_invoice_id" integer,
	"reason" text,
	"studies_counted" integer NOT NULL,
	"studies_charged" integer NOT NULL,
	"included_studies" integer NOT NULL,
	"per_study_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"usage_minor" bigint NOT NULL,
	"subtotal_minor" bigint NOT NULL,
	"gst_basis_points" integer NOT NULL,
	"gst_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"paid_minor" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'ISSUED' NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"due_date" date NOT NULL,
	"issued_by" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"invoice_id" integer,
	"amount_minor" bigint NOT NULL,
	"mode" text NOT NULL,
	"reference" text NOT NULL,
	"provider" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"recorded_by" text NOT NULL,
	CONSTRAINT "platform_payments_amount_positive" CHECK ("platform_payments"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "platform_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"monthly_fee_minor" bigint DEFAULT 0 NOT NULL,
	"included_studies" integer DEFAULT 0 NOT NULL,
	"per_study_minor" bigint DEFAULT 0 NOT NULL,
	"trial_days" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'INR' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platform_plans_amounts_non_negative" CHECK ("platform_plans"."monthly_fee_minor" >= 0 and "platform_plans"."per_study_minor" >= 0 and "platform_plans"."included_studies" >= 0 and "platform_plans"."trial_days" >= 0)
);
--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "platform_operator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "group_subscriptions" ADD CONSTRAINT "group_subscriptions_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_subscriptions" ADD CONSTRAINT "group_subscriptions_plan_id_platform_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."platform_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_invoices" ADD CONSTRAINT "platform_invoices_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_invoices" ADD CONSTRAINT "platform_invoices_plan_id_platform_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."platform_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_payments" ADD CONSTRAINT "platform_payments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_payments" ADD CONSTRAINT "platform_payments_invoice_id_platform_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."platform_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "group_subscriptions_group_key" ON "group_subscriptions" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "platform_billing_audit_group_idx" ON "platform_billing_audit" USING btree ("group_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_invoices_number_key" ON "platform_invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_invoices_sequence_key" ON "platform_invoices" USING btree ("sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_invoices_group_period_key" ON "platform_invoices" USING btree ("group_id","period") WHERE "platform_invoices"."kind" = 'INVOICE' and "platform_invoices"."status" <> 'CREDITED';--> statement-breakpoint
CREATE UNIQUE INDEX "platform_invoices_one_credit_note_key" ON "platform_invoices" USING btree ("corrects_invoice_id") WHERE "platform_invoices"."corrects_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "platform_invoices_period_idx" ON "platform_invoices" USING btree ("period","group_id");--> statement-breakpoint
CREATE INDEX "platform_invoices_open_idx" ON "platform_invoices" USING btree ("due_date") WHERE "platform_invoices"."status" = 'ISSUED';--> statement-breakpoint
CREATE UNIQUE INDEX "platform_payments_provider_reference_key" ON "platform_payments" USING btree ("provider","reference");--> statement-breakpoint
CREATE INDEX "platform_payments_group_idx" ON "platform_payments" USING btree ("group_id","id");--> statement-breakpoint
CREATE INDEX "platform_payments_received_idx" ON "platform_payments" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "platform_plans_code_key" ON "platform_plans" USING btree ("code");--> statement-breakpoint
-- The default plans (platform-billing DECISIONS.md "Plans"); amounts in paise.
INSERT INTO "platform_plans" ("code", "name", "kind", "monthly_fee_minor", "included_studies", "per_study_minor", "trial_days") VALUES
	('TRIAL', 'Trial (14 days)', 'SUBSCRIPTION', 0, 0, 0, 14),
	('PER_STUDY', 'Per study', 'PER_STUDY', 0, 0, 1500, 0),
	('SUBSCRIPTION', 'Subscription (1,000 studies a month)', 'SUBSCRIPTION', 2500000, 1000, 1200, 0);--> statement-breakpoint
INSERT INTO "platform_counters" ("name", "value") VALUES ('PLATFORM_INVOICE', 0);
