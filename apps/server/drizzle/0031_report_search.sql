CREATE TABLE "report_search_documents" (
	"report_status_id" integer PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"signed_off_at" timestamp with time zone NOT NULL,
	"content" text NOT NULL,
	"document" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_search_words" (
	"group_id" integer NOT NULL,
	"word" text NOT NULL,
	CONSTRAINT "report_search_words_group_id_word_pk" PRIMARY KEY("group_id","word")
);
--> statement-breakpoint
ALTER TABLE "report_search_documents" ADD CONSTRAINT "report_search_documents_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_search_documents" ADD CONSTRAINT "report_search_documents_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_search_words" ADD CONSTRAINT "report_search_words_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_search_documents_document_idx" ON "report_search_documents" USING gin ("document");--> statement-breakpoint
CREATE INDEX "report_search_documents_group_signed_idx" ON "report_search_documents" USING btree ("group_id","signed_off_at","report_status_id");--> statement-breakpoint
-- Reports signed off before this migration: their text, HTML stripped here in SQL (the server strips
-- new ones with the same rule: report-search-text.ts), main report first, then the addenda.
INSERT INTO "report_search_documents" ("report_status_id", "group_id", "signed_off_at", "content")
SELECT rs.id, rs.group_id, max(r.signed_off_at),
  string_agg(
    btrim(regexp_replace(replace(replace(replace(replace(replace(replace(
      regexp_replace(r.content_html, '<[^>]*>', ' ', 'g'),
      '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'),
      '\s+', ' ', 'g')),
    E'\n' ORDER BY r.is_addendum, r.id)
FROM "report_statuses" rs
JOIN "reports" r ON r.report_status_id = rs.id AND r.signed_off_at IS NOT NULL AND NOT r.awaiting_verification
WHERE rs.status = 'SIGNED_OFF'
GROUP BY rs.id, rs.group_id;
--> statement-breakpoint
INSERT INTO "report_search_words" ("group_id", "word")
SELECT DISTINCT d.group_id, w.word
FROM "report_search_documents" d,
  regexp_split_to_table(lower(d.content), '[^[:alnum:]]+') AS w(word)
WHERE length(w.word) BETWEEN 3 AND 40 AND w.word !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
