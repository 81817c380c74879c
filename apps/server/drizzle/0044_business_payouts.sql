ALTER TABLE "billing_lines" DROP CONSTRAINT "billing_lines_report_id_reports_id_fk";
