ALTER TABLE "message_outbox" ADD COLUMN "billing_document_id" integer;--> statement-breakpoint
CREATE INDEX "message_outbox_billing_document_idx" ON "message_outbox" USING btree ("billing_document_id","created_at");--> statement-breakpoint
-- The e-mails sent before this column existed: an invoice's own when its number is no other
-- document's (numbers run per group, so a shared number cannot say whose e-mail it was).
UPDATE "message_outbox" AS "m" SET "billing_document_id" = "d"."id"
FROM "billing_documents" AS "d"
WHERE "m"."channel" = 'EMAIL'
  AND "m"."billing_document_id" IS NULL
  AND "m"."subject" = 'Invoice ' || "d"."number"
  AND (SELECT count(*) FROM "billing_documents" AS "o" WHERE "o"."number" = "d"."number") = 1;
