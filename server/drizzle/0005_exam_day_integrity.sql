ALTER TABLE "subject_tests" ADD COLUMN "participant_pause_allowed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "participant_pause_max_count" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "participant_pause_max_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_works" ADD COLUMN "flags" integer[] DEFAULT '{}' NOT NULL;