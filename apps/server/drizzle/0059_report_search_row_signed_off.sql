-- Whether a search text's study row is signed off now, in the text's group (issue 24;
-- report-search/DECISIONS.md "Not signed off now"). The text stays while its study is unlocked or
-- waits for a verifier; the flag says not to find it meanwhile, so a search by someone who sees the
-- whole group reads the texts alone instead of looking up each match's study row (10,001 key
-- lookups for a common phrase). Kept by the database, for every way a row changes: a text row gets
-- it when written, and a study row's change of status (or group) re-reads it for its texts.
ALTER TABLE "report_search_documents" ADD COLUMN "row_signed_off" boolean DEFAULT true NOT NULL;--> statement-breakpoint
UPDATE "report_search_documents" d SET "row_signed_off" = false
FROM "report_statuses" rs
WHERE rs.id = d.report_status_id AND (rs.status <> 'SIGNED_OFF' OR rs.group_id <> d.group_id);--> statement-breakpoint
CREATE FUNCTION "report_search_row_signed_off"(report_status_id integer, group_id integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "report_statuses" rs
    WHERE rs.id = $1 AND rs.group_id = $2 AND rs.status = 'SIGNED_OFF')
$$;--> statement-breakpoint
CREATE FUNCTION "report_search_documents_row_signed_off"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.row_signed_off := "report_search_row_signed_off"(NEW.report_status_id, NEW.group_id);
  RETURN NEW;
END $$;--> statement-breakpoint
-- Not on an update of the flag alone: that is the trigger below, which has already read it.
CREATE TRIGGER "report_search_documents_row_signed_off"
  BEFORE INSERT OR UPDATE OF "report_status_id", "group_id", "signed_off_at", "content"
  ON "report_search_documents"
  FOR EACH ROW EXECUTE FUNCTION "report_search_documents_row_signed_off"();--> statement-breakpoint
CREATE FUNCTION "report_statuses_search_row_signed_off"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "report_search_documents" d
  SET "row_signed_off" = "report_search_row_signed_off"(d.report_status_id, d.group_id)
  WHERE d.report_status_id = NEW.id AND d.group_id IN (OLD.group_id, NEW.group_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "report_statuses_search_row_signed_off"
  AFTER UPDATE OF "status", "group_id" ON "report_statuses"
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.group_id IS DISTINCT FROM NEW.group_id)
  EXECUTE FUNCTION "report_statuses_search_row_signed_off"();
