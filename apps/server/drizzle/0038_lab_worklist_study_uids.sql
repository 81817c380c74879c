-- A new DICOM UID under the UUID root of PS3.5 §B.2 ('2.25.' and a random UUID as one decimal
-- number), the database's twin of generateDicomUid (archive/create-study.ts): every bill line gets
-- the Study Instance UID its worklist entry hands the scanner when it is inserted, whoever inserts it.
CREATE OR REPLACE FUNCTION radflow_new_dicom_uid() RETURNS text LANGUAGE sql VOLATILE AS $$
  select '2.25.' || trunc(sum(get_byte(u.b, i)::numeric * power(256::numeric, 15 - i)))::text
    from (select uuid_send(gen_random_uuid()) as b) u, generate_series(0, 15) as i
$$;--> statement-breakpoint
ALTER TABLE "lab_bill_tests" ADD COLUMN "study_instance_uid" text DEFAULT radflow_new_dicom_uid() NOT NULL;--> statement-breakpoint
CREATE INDEX "lab_bill_tests_start_idx" ON "lab_bill_tests" USING btree ("start_time_of_appointment") WHERE "lab_bill_tests"."start_time_of_appointment" is not null;
