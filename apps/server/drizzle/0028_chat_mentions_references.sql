ALTER TABLE "chat_messages" ADD COLUMN "mentions" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "reference" jsonb;