CREATE TABLE "scan_batches" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scan_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" integer NOT NULL,
	"file" text NOT NULL,
	"file_index" integer NOT NULL,
	"file_sha256" text NOT NULL,
	"page" integer NOT NULL,
	"status" text NOT NULL,
	"problem" text,
	"registration_code" text,
	"exam_work_id" integer,
	"form_page" integer,
	"answers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_batches" ADD CONSTRAINT "scan_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_pages" ADD CONSTRAINT "scan_pages_batch_id_scan_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."scan_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_batches_user_id_index" ON "scan_batches" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "scan_pages_batch_id_index" ON "scan_pages" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "scan_pages_file_sha256_page_index" ON "scan_pages" USING btree ("file_sha256","page");