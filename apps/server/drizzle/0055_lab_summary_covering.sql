DROP INDEX "lab_bills_lab_date_idx";--> statement-breakpoint
ALTER TABLE "lab_bills" ADD COLUMN "first_payment_recorded_by" text;--> statement-breakpoint
-- The bills paid before this column existed: their first payment's recorder (the ledger's lowest id).
UPDATE "lab_bills" AS "b" SET "first_payment_recorded_by" = "f"."recorded_by"
FROM (
  SELECT DISTINCT ON ("bill_id") "bill_id", "recorded_by"
  FROM "lab_transactions"
  ORDER BY "bill_id", "id"
) AS "f"
WHERE "f"."bill_id" = "b"."id";--> statement-breakpoint
CREATE INDEX "lab_bills_lab_date_idx" ON "lab_bills" USING btree ("lab_scope","lab_owner_id","bill_date","id","status","created_by","created_at","first_payment_recorded_by","total_minor","discount_minor","final_minor","advance_paid_minor","due_minor");