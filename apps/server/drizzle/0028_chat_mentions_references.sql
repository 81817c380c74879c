ALTER TABLE "chat_messages" ADD COLUMN "mentions" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "reference" jsonb;--> statement-breakpoint
CREATE INDEX "chat_messages_created_idx" ON "chat_messages" USING btree ("created_at");