-- One Idempotency-Key store (modules/idempotency): the tele invoice payments' keys move into the lab's
-- table, which is renamed for what it now is. The stored answers keep their shape ({documentId} for a
-- tele payment), so a repeat of a key sent before the move still answers its first answer. A (user, key)
-- in both tables (only a client reusing a key across calls) keeps the lab's row; a repeat of the tele
-- call then gets the 409 a key reused on another call gets anyway.
INSERT INTO "lab_idempotent_writes" ("user_id", "key", "operation", "response", "created_at")
SELECT "user_id", "key", "operation", "response", "created_at" FROM "billing_idempotent_writes"
ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TABLE "billing_idempotent_writes" CASCADE;--> statement-breakpoint
ALTER TABLE "lab_idempotent_writes" RENAME TO "idempotent_writes";--> statement-breakpoint
ALTER TABLE "idempotent_writes" RENAME CONSTRAINT "lab_idempotent_writes_user_id_key_pk" TO "idempotent_writes_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "idempotent_writes" RENAME CONSTRAINT "lab_idempotent_writes_user_id_users_id_fk" TO "idempotent_writes_user_id_users_id_fk";
