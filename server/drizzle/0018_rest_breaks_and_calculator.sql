ALTER TABLE "subject_tests" ADD COLUMN "allow_calculator" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_work_pauses" ADD COLUMN "rest_break" boolean DEFAULT false NOT NULL;