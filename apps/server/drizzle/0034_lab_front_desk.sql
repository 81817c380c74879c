CREATE TABLE "lab_audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"action" text NOT NULL,
	"actor_email" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_bill_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"bill_id" integer NOT NULL,
	"position" integer NOT NULL,
	"lab_test_id" integer NOT NULL,
	"test_code" text NOT NULL,
	"test_name" text NOT NULL,
	"lab_modality" text NOT NULL,
	"department" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"original_price_minor" bigint NOT NULL,
	"price_minor" bigint NOT NULL,
	"refund_minor" bigint DEFAULT 0 NOT NULL,
	"settlement_status" text DEFAULT 'FULL_PRICE' NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"appointment_name" text,
	"start_time_of_appointment" timestamp with time zone,
	"end_time_of_appointment" timestamp with time zone,
	"accession_number" text NOT NULL,
	"study_id" integer,
	"uploaded_through_work_list" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"invoice_number" text NOT NULL,
	"status" text NOT NULL,
	"bill_date" timestamp with time zone NOT NULL,
	"initial_bill_date" timestamp with time zone NOT NULL,
	"patient_id" integer NOT NULL,
	"referring_doctor_id" integer,
	"categories" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"total_minor" bigint NOT NULL,
	"discount_basis_points" integer DEFAULT 0 NOT NULL,
	"discount_minor" bigint DEFAULT 0 NOT NULL,
	"final_minor" bigint NOT NULL,
	"advance_paid_minor" bigint DEFAULT 0 NOT NULL,
	"due_minor" bigint DEFAULT 0 NOT NULL,
	"payment_method" text NOT NULL,
	"remark" text,
	"cancellation_remark" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_idempotent_writes" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_idempotent_writes_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "lab_package_members" (
	"package_test_id" integer NOT NULL,
	"member_test_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "lab_package_members_package_test_id_member_test_id_pk" PRIMARY KEY("package_test_id","member_test_id")
);
--> statement-breakpoint
CREATE TABLE "lab_patients" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"uhid_number" text NOT NULL,
	"name" text NOT NULL,
	"mobile_number" text,
	"email" text,
	"address" text,
	"gender" text NOT NULL,
	"designation" text NOT NULL,
	"weight" numeric(6, 2),
	"date_birth" date,
	"age_string" text DEFAULT '' NOT NULL,
	"age_years" integer DEFAULT 0 NOT NULL,
	"age_months" integer DEFAULT 0 NOT NULL,
	"age_days" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_referring_doctors" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"mobile_number" text,
	"department" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"lab_scope" text NOT NULL,
	"lab_owner_id" integer NOT NULL,
	"test_code" text NOT NULL,
	"test_name" text NOT NULL,
	"test_type" text NOT NULL,
	"lab_modality" text NOT NULL,
	"department" text DEFAULT 'RADIOLOGY' NOT NULL,
	"price_minor" bigint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lab_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bill_id" integer NOT NULL,
	"payment_method" text NOT NULL,
	"transaction_id" text,
	"amount_minor" bigint NOT NULL,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_transactions_amount_positive" CHECK ("lab_transactions"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "lab_audit_events" ADD CONSTRAINT "lab_audit_events_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bill_tests" ADD CONSTRAINT "lab_bill_tests_bill_id_lab_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."lab_bills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bill_tests" ADD CONSTRAINT "lab_bill_tests_lab_test_id_lab_tests_id_fk" FOREIGN KEY ("lab_test_id") REFERENCES "public"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bill_tests" ADD CONSTRAINT "lab_bill_tests_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bills" ADD CONSTRAINT "lab_bills_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bills" ADD CONSTRAINT "lab_bills_patient_id_lab_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."lab_patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_bills" ADD CONSTRAINT "lab_bills_referring_doctor_id_lab_referring_doctors_id_fk" FOREIGN KEY ("referring_doctor_id") REFERENCES "public"."lab_referring_doctors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_idempotent_writes" ADD CONSTRAINT "lab_idempotent_writes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_package_members" ADD CONSTRAINT "lab_package_members_package_test_id_lab_tests_id_fk" FOREIGN KEY ("package_test_id") REFERENCES "public"."lab_tests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_package_members" ADD CONSTRAINT "lab_package_members_member_test_id_lab_tests_id_fk" FOREIGN KEY ("member_test_id") REFERENCES "public"."lab_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_patients" ADD CONSTRAINT "lab_patients_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_referring_doctors" ADD CONSTRAINT "lab_referring_doctors_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_tests" ADD CONSTRAINT "lab_tests_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_transactions" ADD CONSTRAINT "lab_transactions_bill_id_lab_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."lab_bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_audit_events_entity_idx" ON "lab_audit_events" USING btree ("entity","entity_id","id");--> statement-breakpoint
CREATE INDEX "lab_bill_tests_bill_idx" ON "lab_bill_tests" USING btree ("bill_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_bill_tests_accession_key" ON "lab_bill_tests" USING btree ("accession_number");--> statement-breakpoint
CREATE INDEX "lab_bill_tests_appointment_idx" ON "lab_bill_tests" USING btree ("appointment_name","start_time_of_appointment") WHERE "lab_bill_tests"."start_time_of_appointment" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_bills_lab_invoice_key" ON "lab_bills" USING btree ("lab_scope","lab_owner_id","invoice_number");--> statement-breakpoint
CREATE INDEX "lab_bills_lab_date_idx" ON "lab_bills" USING btree ("lab_scope","lab_owner_id","bill_date","id");--> statement-breakpoint
CREATE INDEX "lab_bills_patient_idx" ON "lab_bills" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_patients_lab_uhid_key" ON "lab_patients" USING btree ("lab_scope","lab_owner_id","uhid_number");--> statement-breakpoint
CREATE INDEX "lab_patients_lab_mobile_idx" ON "lab_patients" USING btree ("lab_scope","lab_owner_id","mobile_number");--> statement-breakpoint
CREATE INDEX "lab_patients_name_trgm_idx" ON "lab_patients" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "lab_referring_doctors_lab_name_idx" ON "lab_referring_doctors" USING btree ("lab_scope","lab_owner_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_tests_lab_code_key" ON "lab_tests" USING btree ("lab_scope","lab_owner_id",lower("test_code"));--> statement-breakpoint
CREATE INDEX "lab_tests_lab_created_idx" ON "lab_tests" USING btree ("lab_scope","lab_owner_id","created_at");--> statement-breakpoint
CREATE INDEX "lab_transactions_bill_idx" ON "lab_transactions" USING btree ("bill_id","id");