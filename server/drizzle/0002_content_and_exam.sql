CREATE TABLE "html_container_resources" (
	"id" serial PRIMARY KEY NOT NULL,
	"container_id" integer NOT NULL,
	"version" integer NOT NULL,
	"path" text NOT NULL,
	"mime" text NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "html_containers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"entry" text DEFAULT 'index.html' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "html_texts" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text,
	"kind" text DEFAULT 'page' NOT NULL,
	"title" text NOT NULL,
	"html" text NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kim_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"html" text NOT NULL,
	"css" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quizzes" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "specification_elements" (
	"id" serial PRIMARY KEY NOT NULL,
	"specification_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'content' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "specifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"subject_id" integer,
	"parallel" smallint,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "task_elements" (
	"task_id" integer NOT NULL,
	"element_id" integer NOT NULL,
	CONSTRAINT "task_elements_task_id_element_id_pk" PRIMARY KEY("task_id","element_id")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" integer,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"data" "bytea" NOT NULL,
	"text" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "answer_files" (
	"exam_work_id" integer NOT NULL,
	"variant_task_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_files_exam_work_id_variant_task_id_file_id_pk" PRIMARY KEY("exam_work_id","variant_task_id","file_id")
);
--> statement-breakpoint
CREATE TABLE "answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"variant_task_id" integer NOT NULL,
	"value" jsonb,
	"seq" integer NOT NULL,
	"answer_mode" text DEFAULT 'online' NOT NULL,
	"source" text DEFAULT 'participant' NOT NULL,
	"saved_by" integer,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_work_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "exam_work_pauses" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"paused_by" integer,
	"resumed_by" integer,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "exam_works" (
	"id" serial PRIMARY KEY NOT NULL,
	"participant_test_id" integer NOT NULL,
	"variant_id" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"answer_mode" text DEFAULT 'online' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"time_limit_seconds" integer NOT NULL,
	"extra_seconds" integer DEFAULT 0 NOT NULL,
	"paused_seconds" integer DEFAULT 0 NOT NULL,
	"paused_at" timestamp with time zone,
	"deadline_at" timestamp with time zone NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"finish_reason" text,
	"device_id" text,
	"deleted_at" timestamp with time zone,
	"deleted_by" integer,
	"deleted_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"subject_id" integer NOT NULL,
	"text" text NOT NULL,
	"file_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quiz_answers" (
	"participant_test_id" integer PRIMARY KEY NOT NULL,
	"quiz_id" integer NOT NULL,
	"answers" jsonb NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "kim_template_id" integer;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "specification_id" integer;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "quiz_id" integer;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "allow_blank" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "expert_rule" text DEFAULT 'third' NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "html_container_id" integer;--> statement-breakpoint
ALTER TABLE "html_container_resources" ADD CONSTRAINT "html_container_resources_container_id_html_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."html_containers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specification_elements" ADD CONSTRAINT "specification_elements_specification_id_specifications_id_fk" FOREIGN KEY ("specification_id") REFERENCES "public"."specifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "specifications" ADD CONSTRAINT "specifications_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_elements" ADD CONSTRAINT "task_elements_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_elements" ADD CONSTRAINT "task_elements_element_id_specification_elements_id_fk" FOREIGN KEY ("element_id") REFERENCES "public"."specification_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_files" ADD CONSTRAINT "answer_files_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_files" ADD CONSTRAINT "answer_files_variant_task_id_variant_tasks_id_fk" FOREIGN KEY ("variant_task_id") REFERENCES "public"."variant_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answer_files" ADD CONSTRAINT "answer_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_variant_task_id_variant_tasks_id_fk" FOREIGN KEY ("variant_task_id") REFERENCES "public"."variant_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "answers" ADD CONSTRAINT "answers_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_work_events" ADD CONSTRAINT "exam_work_events_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_work_pauses" ADD CONSTRAINT "exam_work_pauses_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_work_pauses" ADD CONSTRAINT "exam_work_pauses_paused_by_users_id_fk" FOREIGN KEY ("paused_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_work_pauses" ADD CONSTRAINT "exam_work_pauses_resumed_by_users_id_fk" FOREIGN KEY ("resumed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_works" ADD CONSTRAINT "exam_works_participant_test_id_participant_tests_id_fk" FOREIGN KEY ("participant_test_id") REFERENCES "public"."participant_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_works" ADD CONSTRAINT "exam_works_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_works" ADD CONSTRAINT "exam_works_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_answers" ADD CONSTRAINT "quiz_answers_participant_test_id_participant_tests_id_fk" FOREIGN KEY ("participant_test_id") REFERENCES "public"."participant_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_answers" ADD CONSTRAINT "quiz_answers_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "html_container_resources_container_id_version_path_index" ON "html_container_resources" USING btree ("container_id","version","path");--> statement-breakpoint
CREATE UNIQUE INDEX "html_texts_code_index" ON "html_texts" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "specification_elements_specification_id_code_index" ON "specification_elements" USING btree ("specification_id","code");--> statement-breakpoint
CREATE INDEX "files_owner_type_owner_id_index" ON "files" USING btree ("owner_type","owner_id");--> statement-breakpoint
CREATE INDEX "files_created_by_index" ON "files" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "answers_exam_work_id_variant_task_id_index" ON "answers" USING btree ("exam_work_id","variant_task_id");--> statement-breakpoint
CREATE INDEX "exam_work_events_exam_work_id_at_index" ON "exam_work_events" USING btree ("exam_work_id","at");--> statement-breakpoint
CREATE INDEX "exam_work_pauses_exam_work_id_index" ON "exam_work_pauses" USING btree ("exam_work_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_works_live_idx" ON "exam_works" USING btree ("participant_test_id") WHERE "exam_works"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "exam_works_sweep_idx" ON "exam_works" USING btree ("deadline_at") WHERE "exam_works"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "exam_works_variant_id_index" ON "exam_works" USING btree ("variant_id");--> statement-breakpoint
ALTER TABLE "subject_tests" ADD CONSTRAINT "subject_tests_kim_template_id_kim_templates_id_fk" FOREIGN KEY ("kim_template_id") REFERENCES "public"."kim_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD CONSTRAINT "subject_tests_specification_id_specifications_id_fk" FOREIGN KEY ("specification_id") REFERENCES "public"."specifications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD CONSTRAINT "subject_tests_quiz_id_quizzes_id_fk" FOREIGN KEY ("quiz_id") REFERENCES "public"."quizzes"("id") ON DELETE no action ON UPDATE no action;