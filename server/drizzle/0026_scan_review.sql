CREATE TABLE "scan_review_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"page_id" integer NOT NULL,
	"exam_work_id" integer,
	"participant_test_id" integer,
	"variant_task_id" integer,
	"part" text,
	"task_number" integer,
	"answer_type" text,
	"choices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"digit_columns" integer,
	"recognized" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"confidence" real,
	"double_mark" boolean DEFAULT false NOT NULL,
	"saved_value" jsonb,
	"region" jsonb,
	"resolution" text,
	"resolved_by" integer,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scan_saved_answers" (
	"exam_work_id" integer NOT NULL,
	"variant_task_id" integer NOT NULL,
	"value" jsonb NOT NULL,
	"page_id" integer,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scan_saved_answers_exam_work_id_variant_task_id_pk" PRIMARY KEY("exam_work_id","variant_task_id")
);
--> statement-breakpoint
ALTER TABLE "scan_pages" ADD COLUMN "applied" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD COLUMN "image_file_id" integer;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD COLUMN "transform" jsonb;--> statement-breakpoint
ALTER TABLE "scan_review_items" ADD CONSTRAINT "scan_review_items_page_id_scan_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."scan_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_review_items" ADD CONSTRAINT "scan_review_items_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_review_items" ADD CONSTRAINT "scan_review_items_participant_test_id_participant_tests_id_fk" FOREIGN KEY ("participant_test_id") REFERENCES "public"."participant_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_review_items" ADD CONSTRAINT "scan_review_items_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_saved_answers" ADD CONSTRAINT "scan_saved_answers_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_saved_answers" ADD CONSTRAINT "scan_saved_answers_page_id_scan_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."scan_pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_review_items_status_participant_test_id_index" ON "scan_review_items" USING btree ("status","participant_test_id");--> statement-breakpoint
CREATE INDEX "scan_review_items_page_id_index" ON "scan_review_items" USING btree ("page_id");--> statement-breakpoint
CREATE INDEX "scan_review_items_exam_work_id_variant_task_id_index" ON "scan_review_items" USING btree ("exam_work_id","variant_task_id");--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_image_file_id_files_id_fk" FOREIGN KEY ("image_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;