ALTER TABLE "queue_items" ADD COLUMN "error_code" text;--> statement-breakpoint
-- Items that failed before error codes: their text may be an exception's own message (English, even
-- SQL); they get a code and a generic text, as the runner now stores.
UPDATE "queue_items" SET
  "error_code" = CASE WHEN "error" = 'The worker running this job stopped responding' THEN 'job_interrupted' ELSE 'job_failed' END,
  "error" = CASE WHEN "error" = 'The worker running this job stopped responding' THEN "error" ELSE 'The job failed; the server log has the details' END
WHERE "error" IS NOT NULL;
