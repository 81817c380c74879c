-- The search documents, one partition per group (issue 24; report-search/DECISIONS.md "One partition
-- per group"): every search is inside one group, and with all groups in one table the planner
-- intersected a word's matches with the group's entries of the (group, signed-off) index, and
-- counted a common word's matches through them (120-500 ms at 1,000,000 studies); in the group's own
-- partition both read only that group's entries and statistics. A group's partition is made with the
-- group (the trigger below), for every way a group is made; the migration makes the existing ones.
ALTER TABLE "report_search_documents" RENAME TO "report_search_documents_unpartitioned";--> statement-breakpoint
DROP INDEX "report_search_documents_document_idx";--> statement-breakpoint
DROP INDEX "report_search_documents_group_signed_idx";--> statement-breakpoint
ALTER TABLE "report_search_documents_unpartitioned" DROP CONSTRAINT "report_search_documents_pkey";--> statement-breakpoint
CREATE TABLE "report_search_documents" (
	"report_status_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"signed_off_at" timestamp with time zone NOT NULL,
	"content" text NOT NULL,
	"document" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED NOT NULL,
	CONSTRAINT "report_search_documents_report_status_id_group_id_pk" PRIMARY KEY("report_status_id","group_id")
) PARTITION BY LIST ("group_id");--> statement-breakpoint
CREATE FUNCTION "report_search_partition_of"(group_id integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF "report_search_documents" FOR VALUES IN (%s)',
    'report_search_documents_g' || group_id, group_id);
END $$;--> statement-breakpoint
CREATE FUNCTION "groups_report_search_partition"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "report_search_partition_of"(NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "groups_report_search_partition" AFTER INSERT ON "groups"
  FOR EACH ROW EXECUTE FUNCTION "groups_report_search_partition"();--> statement-breakpoint
SELECT "report_search_partition_of"(id) FROM "groups";--> statement-breakpoint
INSERT INTO "report_search_documents" ("report_status_id", "group_id", "signed_off_at", "content")
SELECT "report_status_id", "group_id", "signed_off_at", "content" FROM "report_search_documents_unpartitioned";--> statement-breakpoint
DROP TABLE "report_search_documents_unpartitioned";--> statement-breakpoint
ALTER TABLE "report_search_documents" ADD CONSTRAINT "report_search_documents_report_status_id_report_statuses_id_fk" FOREIGN KEY ("report_status_id") REFERENCES "public"."report_statuses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_search_documents" ADD CONSTRAINT "report_search_documents_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_search_documents_document_idx" ON "report_search_documents" USING gin ("document");--> statement-breakpoint
CREATE INDEX "report_search_documents_group_signed_idx" ON "report_search_documents" USING btree ("group_id","signed_off_at","report_status_id");--> statement-breakpoint
ANALYZE "report_search_documents";
