ALTER TABLE "studies" ADD COLUMN "issuer_of_patient_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Studies stored before this column: their issuer is read back from the metadata of the study's
-- first instance (the index keeps every instance's DICOM JSON), so an old study is matched as a new
-- one would be. Only studies with a patient id: an issuer means nothing without one.
UPDATE "studies" AS s
   SET "issuer_of_patient_id" = btrim(first.issuer)
  FROM (
    SELECT DISTINCT ON (i."study_id") i."study_id", i."metadata" -> '00100021' -> 'Value' ->> 0 AS issuer
      FROM "instances" AS i
      JOIN "studies" AS st ON st."id" = i."study_id" AND st."patient_id" <> ''
     ORDER BY i."study_id", i."id"
  ) AS first
 WHERE first."study_id" = s."id" AND s."issuer_of_patient_id" = '' AND coalesce(btrim(first.issuer), '') <> '';
