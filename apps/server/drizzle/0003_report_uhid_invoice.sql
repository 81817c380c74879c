ALTER TABLE "report_statuses" ADD COLUMN "uhid" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_statuses" ADD COLUMN "invoice_number" text DEFAULT '' NOT NULL;