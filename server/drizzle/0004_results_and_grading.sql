CREATE TABLE "expert_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"variant_task_id" integer NOT NULL,
	"expert_id" integer NOT NULL,
	"round" smallint NOT NULL,
	"anon_code" text NOT NULL,
	"status" text DEFAULT 'assigned' NOT NULL,
	"total" numeric,
	"comment" text,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"graded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "expert_marks" (
	"assignment_id" integer NOT NULL,
	"criterion_code" text NOT NULL,
	"score" numeric NOT NULL,
	CONSTRAINT "expert_marks_assignment_id_criterion_code_pk" PRIMARY KEY("assignment_id","criterion_code")
);
--> statement-breakpoint
CREATE TABLE "results" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"participant_test_id" integer NOT NULL,
	"diagnostic_id" integer NOT NULL,
	"subject_test_id" integer NOT NULL,
	"status" text NOT NULL,
	"primary_score" numeric NOT NULL,
	"max_score" numeric NOT NULL,
	"percent" numeric NOT NULL,
	"mark" text,
	"level" text,
	"per_element" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"verification_code" text NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_scores" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"variant_task_id" integer NOT NULL,
	"auto_status" text NOT NULL,
	"auto_score" numeric,
	"final_score" numeric,
	"max_score" numeric NOT NULL,
	"status" text NOT NULL,
	"details" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "diagnostics" ADD COLUMN "specification_id" integer;--> statement-breakpoint
ALTER TABLE "exam_work_pauses" ADD COLUMN "by_staff" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "expert_assignments" ADD CONSTRAINT "expert_assignments_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_assignments" ADD CONSTRAINT "expert_assignments_variant_task_id_variant_tasks_id_fk" FOREIGN KEY ("variant_task_id") REFERENCES "public"."variant_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_assignments" ADD CONSTRAINT "expert_assignments_expert_id_users_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "expert_marks" ADD CONSTRAINT "expert_marks_assignment_id_expert_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."expert_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_participant_test_id_participant_tests_id_fk" FOREIGN KEY ("participant_test_id") REFERENCES "public"."participant_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_scores" ADD CONSTRAINT "task_scores_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_scores" ADD CONSTRAINT "task_scores_variant_task_id_variant_tasks_id_fk" FOREIGN KEY ("variant_task_id") REFERENCES "public"."variant_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "expert_assignments_exam_work_id_variant_task_id_round_index" ON "expert_assignments" USING btree ("exam_work_id","variant_task_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "expert_assignments_exam_work_id_variant_task_id_expert_id_index" ON "expert_assignments" USING btree ("exam_work_id","variant_task_id","expert_id");--> statement-breakpoint
CREATE INDEX "expert_assignments_expert_id_status_index" ON "expert_assignments" USING btree ("expert_id","status");--> statement-breakpoint
CREATE INDEX "expert_assignments_anon_code_index" ON "expert_assignments" USING btree ("anon_code");--> statement-breakpoint
CREATE UNIQUE INDEX "results_exam_work_id_index" ON "results" USING btree ("exam_work_id");--> statement-breakpoint
CREATE INDEX "results_participant_test_id_index" ON "results" USING btree ("participant_test_id");--> statement-breakpoint
CREATE INDEX "results_diagnostic_id_index" ON "results" USING btree ("diagnostic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "results_verification_code_index" ON "results" USING btree ("verification_code");--> statement-breakpoint
CREATE UNIQUE INDEX "task_scores_exam_work_id_variant_task_id_index" ON "task_scores" USING btree ("exam_work_id","variant_task_id");--> statement-breakpoint
CREATE INDEX "task_scores_status_index" ON "task_scores" USING btree ("status");--> statement-breakpoint
ALTER TABLE "diagnostics" ADD CONSTRAINT "diagnostics_specification_id_specifications_id_fk" FOREIGN KEY ("specification_id") REFERENCES "public"."specifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "participant_tests_student_once_idx" ON "participant_tests" USING btree ("diagnostic_id","subject_test_id","student_id") WHERE "participant_tests"."deleted_at" is null and "participant_tests"."student_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "participant_tests_worker_once_idx" ON "participant_tests" USING btree ("diagnostic_id","worker_id") WHERE "participant_tests"."deleted_at" is null and "participant_tests"."worker_id" is not null;