CREATE TABLE "buildings" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text
);
--> statement-breakpoint
CREATE TABLE "classes" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"building_id" integer,
	"parallel_id" smallint NOT NULL,
	"letter" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oo" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"short_name" text,
	"inn" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parallels" (
	"id" smallint PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schools" (
	"id" serial PRIMARY KEY NOT NULL,
	"oo_id" integer NOT NULL,
	"name" text NOT NULL,
	"short_name" text,
	"code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "students" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer NOT NULL,
	"class_id" integer,
	"surname" text NOT NULL,
	"name" text NOT NULL,
	"patronymic" text,
	"birth_date" date,
	"gender" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "worker_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "worker_positions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" serial PRIMARY KEY NOT NULL,
	"school_id" integer,
	"position_id" integer,
	"surname" text NOT NULL,
	"name" text NOT NULL,
	"patronymic" text,
	"email" text,
	"is_blocked" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"entity" text,
	"entity_id" text,
	"reason" text,
	"details" jsonb,
	"ip" "inet"
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_tokens_tokenHash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "organizator_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"class_id" integer,
	"building_id" integer,
	CONSTRAINT "organizator_assignment_target" CHECK ("organizator_assignments"."class_id" is not null or "organizator_assignments"."building_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"code" text PRIMARY KEY NOT NULL,
	"name_ru" text NOT NULL,
	"name_en" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"participant_test_id" integer,
	"activation_code" text,
	"app_shell" boolean DEFAULT false NOT NULL,
	"user_agent" text,
	"ip" "inet",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "user_roles_user_id_role_pk" PRIMARY KEY("user_id","role")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"email" text,
	"surname" text,
	"name" text,
	"patronymic" text,
	"password_hash" text,
	"email_confirmed_at" timestamp with time zone,
	"is_blocked" boolean DEFAULT false NOT NULL,
	"school_id" integer,
	"oo_id" integer,
	"student_id" integer,
	"worker_id" integer,
	"profile" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"external_provider" text,
	"external_subject" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_id" integer NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subject_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_exam_id" integer NOT NULL,
	"test_group_id" integer,
	"name" text NOT NULL,
	"parallels" smallint[] DEFAULT '{}' NOT NULL,
	"duration_minutes" integer NOT NULL,
	"description" text,
	"procedure_html" text,
	"instruction_html" text,
	"mark_scale" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text,
	CONSTRAINT "subjects_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"answer_type" text NOT NULL,
	"html" text NOT NULL,
	"content" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reference" jsonb,
	"scoring" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"solution_html" text,
	"criteria" jsonb,
	"max_score" numeric DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "variant_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"variant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"position" integer NOT NULL,
	"max_score" numeric NOT NULL
);
--> statement-breakpoint
CREATE TABLE "variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject_test_id" integer NOT NULL,
	"number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "diagnostic_schools" (
	"diagnostic_id" integer NOT NULL,
	"school_id" integer NOT NULL,
	CONSTRAINT "diagnostic_schools_diagnostic_id_school_id_pk" PRIMARY KEY("diagnostic_id","school_id")
);
--> statement-breakpoint
CREATE TABLE "diagnostic_subject_tests" (
	"diagnostic_id" integer NOT NULL,
	"subject_test_id" integer NOT NULL,
	CONSTRAINT "diagnostic_subject_tests_diagnostic_id_subject_test_id_pk" PRIMARY KEY("diagnostic_id","subject_test_id")
);
--> statement-breakpoint
CREATE TABLE "diagnostics" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'diagnostic' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"parallels" smallint[] DEFAULT '{}' NOT NULL,
	"created_by" integer,
	"created_by_role" text,
	"results_published" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"is_demo" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "participant_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"diagnostic_id" integer NOT NULL,
	"subject_test_id" integer NOT NULL,
	"student_id" integer,
	"worker_id" integer,
	"school_id" integer,
	"class_id" integer,
	"building_id" integer,
	"test_date" date NOT NULL,
	"activation_code" text NOT NULL,
	"registration_code" text NOT NULL,
	"status" text DEFAULT 'planned' NOT NULL,
	"is_impersonal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "buildings" ADD CONSTRAINT "buildings_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classes" ADD CONSTRAINT "classes_parallel_id_parallels_id_fk" FOREIGN KEY ("parallel_id") REFERENCES "public"."parallels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schools" ADD CONSTRAINT "schools_oo_id_oo_id_fk" FOREIGN KEY ("oo_id") REFERENCES "public"."oo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "students" ADD CONSTRAINT "students_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workers" ADD CONSTRAINT "workers_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workers" ADD CONSTRAINT "workers_position_id_worker_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."worker_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizator_assignments" ADD CONSTRAINT "organizator_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizator_assignments" ADD CONSTRAINT "organizator_assignments_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizator_assignments" ADD CONSTRAINT "organizator_assignments_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_roles_code_fk" FOREIGN KEY ("role") REFERENCES "public"."roles"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_oo_id_oo_id_fk" FOREIGN KEY ("oo_id") REFERENCES "public"."oo"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_exams" ADD CONSTRAINT "subject_exams_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD CONSTRAINT "subject_tests_subject_exam_id_subject_exams_id_fk" FOREIGN KEY ("subject_exam_id") REFERENCES "public"."subject_exams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD CONSTRAINT "subject_tests_test_group_id_test_groups_id_fk" FOREIGN KEY ("test_group_id") REFERENCES "public"."test_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_tasks" ADD CONSTRAINT "variant_tasks_variant_id_variants_id_fk" FOREIGN KEY ("variant_id") REFERENCES "public"."variants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variant_tasks" ADD CONSTRAINT "variant_tasks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostic_schools" ADD CONSTRAINT "diagnostic_schools_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostic_schools" ADD CONSTRAINT "diagnostic_schools_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostic_subject_tests" ADD CONSTRAINT "diagnostic_subject_tests_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostic_subject_tests" ADD CONSTRAINT "diagnostic_subject_tests_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnostics" ADD CONSTRAINT "diagnostics_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_tests" ADD CONSTRAINT "participant_tests_building_id_buildings_id_fk" FOREIGN KEY ("building_id") REFERENCES "public"."buildings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buildings_school_id_index" ON "buildings" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "classes_school_id_index" ON "classes" USING btree ("school_id");--> statement-breakpoint
CREATE UNIQUE INDEX "classes_school_id_parallel_id_letter_index" ON "classes" USING btree ("school_id","parallel_id","letter");--> statement-breakpoint
CREATE INDEX "schools_oo_id_index" ON "schools" USING btree ("oo_id");--> statement-breakpoint
CREATE UNIQUE INDEX "schools_code_index" ON "schools" USING btree ("code");--> statement-breakpoint
CREATE INDEX "students_school_id_index" ON "students" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "students_class_id_index" ON "students" USING btree ("class_id");--> statement-breakpoint
CREATE INDEX "students_surname_idx" ON "students" USING btree (lower("surname"));--> statement-breakpoint
CREATE INDEX "workers_school_id_index" ON "workers" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "audit_events_at_index" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_events_entity_entity_id_index" ON "audit_events" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "audit_events_user_id_index" ON "audit_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_tokens_user_id_purpose_index" ON "email_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "organizator_assignments_user_id_index" ON "organizator_assignments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_index" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_participant_test_id_index" ON "sessions" USING btree ("participant_test_id");--> statement-breakpoint
CREATE INDEX "sessions_activation_code_index" ON "sessions" USING btree ("activation_code");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_index" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_login_lower_idx" ON "users" USING btree (lower("login"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_external_idx" ON "users" USING btree ("external_provider","external_subject");--> statement-breakpoint
CREATE INDEX "users_school_id_index" ON "users" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "users_student_id_index" ON "users" USING btree ("student_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subject_exams_subject_id_kind_index" ON "subject_exams" USING btree ("subject_id","kind");--> statement-breakpoint
CREATE INDEX "subject_tests_subject_exam_id_index" ON "subject_tests" USING btree ("subject_exam_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variant_tasks_variant_id_position_index" ON "variant_tasks" USING btree ("variant_id","position");--> statement-breakpoint
CREATE INDEX "variant_tasks_task_id_index" ON "variant_tasks" USING btree ("task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variants_subject_test_id_number_index" ON "variants" USING btree ("subject_test_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "diagnostics_code_index" ON "diagnostics" USING btree ("code");--> statement-breakpoint
CREATE INDEX "diagnostics_starts_at_index" ON "diagnostics" USING btree ("starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "participant_tests_activation_code_idx" ON "participant_tests" USING btree (upper("activation_code"));--> statement-breakpoint
CREATE UNIQUE INDEX "participant_tests_registration_code_index" ON "participant_tests" USING btree ("registration_code");--> statement-breakpoint
CREATE INDEX "participant_tests_diagnostic_id_index" ON "participant_tests" USING btree ("diagnostic_id");--> statement-breakpoint
CREATE INDEX "participant_tests_student_id_index" ON "participant_tests" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "participant_tests_school_id_test_date_index" ON "participant_tests" USING btree ("school_id","test_date");