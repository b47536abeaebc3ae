-- Sign-ins and starts change participant_tests.status; with no indexed column changed and room left on the page (fillfactor) the update is HOT: no index entries written.
ALTER TABLE "participant_tests" SET (fillfactor = 80);--> statement-breakpoint
DROP INDEX "participant_tests_guest_live_idx";--> statement-breakpoint
ALTER TABLE "participant_tests" ADD COLUMN "guest_live" boolean GENERATED ALWAYS AS (guest_user_id is not null and status in ('planned', 'active', 'in_progress')) STORED;--> statement-breakpoint
CREATE UNIQUE INDEX "participant_tests_guest_live_idx" ON "participant_tests" USING btree ("subject_test_id","guest_user_id") WHERE "participant_tests"."deleted_at" is null and "participant_tests"."guest_live";