CREATE TABLE "invoice_pay_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"payable_kind" text NOT NULL,
	"billing_document_id" integer,
	"platform_invoice_id" integer,
	"group_id" integer NOT NULL,
	"provider" text NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"pay_url" text,
	"requested_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"provider_payment_id" text,
	CONSTRAINT "invoice_pay_links_amount_positive" CHECK ("invoice_pay_links"."amount_minor" > 0),
	CONSTRAINT "invoice_pay_links_one_payable" CHECK (("invoice_pay_links"."payable_kind" = 'TELE_INVOICE' and "invoice_pay_links"."billing_document_id" is not null and "invoice_pay_links"."platform_invoice_id" is null) or ("invoice_pay_links"."payable_kind" = 'PLATFORM_INVOICE' and "invoice_pay_links"."platform_invoice_id" is not null and "invoice_pay_links"."billing_document_id" is null))
);
--> statement-breakpoint
ALTER TABLE "invoice_pay_links" ADD CONSTRAINT "invoice_pay_links_billing_document_id_billing_documents_id_fk" FOREIGN KEY ("billing_document_id") REFERENCES "public"."billing_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_pay_links" ADD CONSTRAINT "invoice_pay_links_platform_invoice_id_platform_invoices_id_fk" FOREIGN KEY ("platform_invoice_id") REFERENCES "public"."platform_invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_pay_links" ADD CONSTRAINT "invoice_pay_links_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_pay_links" ADD CONSTRAINT "invoice_pay_links_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_pay_links_provider_reference_key" ON "invoice_pay_links" USING btree ("provider","reference");--> statement-breakpoint
CREATE INDEX "invoice_pay_links_document_idx" ON "invoice_pay_links" USING btree ("billing_document_id");--> statement-breakpoint
CREATE INDEX "invoice_pay_links_platform_invoice_idx" ON "invoice_pay_links" USING btree ("platform_invoice_id");