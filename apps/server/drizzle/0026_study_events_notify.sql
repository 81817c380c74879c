-- The live stream (modules/live): each statement that inserts study_events wakes every server
-- process's feed, which then reads the new rows itself (the notification carries nothing). Per
-- statement, so the archive's multi-row ingest statement sends one; only when a row was inserted,
-- so an `unlessSince` insert that wrote nothing wakes no one. NOTIFY is delivered at commit.
CREATE FUNCTION "study_events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "inserted_study_events") THEN
    PERFORM pg_notify('radflow_study_events', '');
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "study_events_notify" AFTER INSERT ON "study_events"
  REFERENCING NEW TABLE AS "inserted_study_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "study_events_notify"();
