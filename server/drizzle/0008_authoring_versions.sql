DROP INDEX "variants_subject_test_id_number_index";--> statement-breakpoint
ALTER TABLE "specification_elements" ADD COLUMN "parent_id" integer;--> statement-breakpoint
ALTER TABLE "specification_elements" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "level_bands" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "subject_tests" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subject_id" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "source_id" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "source_format" text;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "previous_version_id" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "created_by" integer;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "previous_version_id" integer;--> statement-breakpoint
ALTER TABLE "variants" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "specification_elements" ADD CONSTRAINT "specification_elements_parent_id_specification_elements_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."specification_elements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_previous_version_id_tasks_id_fk" FOREIGN KEY ("previous_version_id") REFERENCES "public"."tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variants" ADD CONSTRAINT "variants_previous_version_id_variants_id_fk" FOREIGN KEY ("previous_version_id") REFERENCES "public"."variants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "specification_elements_parent_id_index" ON "specification_elements" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "tasks_subject_id_index" ON "tasks" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "tasks_source_id_index" ON "tasks" USING btree ("source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "variants_subject_test_id_number_index" ON "variants" USING btree ("subject_test_id","number") WHERE superseded_at is null;