CREATE TABLE "queue_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"diagnostic_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"progress_text" text,
	"result" jsonb,
	"result_file_id" integer,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "worker_tests" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"subject_test_id" integer NOT NULL,
	"diagnostic_id" integer NOT NULL,
	"position_id" integer,
	"school_id" integer,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_result_file_id_files_id_fk" FOREIGN KEY ("result_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_tests" ADD CONSTRAINT "worker_tests_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_tests" ADD CONSTRAINT "worker_tests_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_tests" ADD CONSTRAINT "worker_tests_position_id_worker_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."worker_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_tests" ADD CONSTRAINT "worker_tests_school_id_schools_id_fk" FOREIGN KEY ("school_id") REFERENCES "public"."schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worker_tests" ADD CONSTRAINT "worker_tests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queue_items_claim_idx" ON "queue_items" USING btree ("run_after") WHERE "queue_items"."status" = 'queued';--> statement-breakpoint
CREATE UNIQUE INDEX "queue_items_dedupe_idx" ON "queue_items" USING btree ("dedupe_key") WHERE "queue_items"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "queue_items_type_diagnostic_id_index" ON "queue_items" USING btree ("type","diagnostic_id");--> statement-breakpoint
CREATE INDEX "queue_items_created_by_index" ON "queue_items" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "worker_tests_school_id_index" ON "worker_tests" USING btree ("school_id");--> statement-breakpoint
CREATE INDEX "worker_tests_diagnostic_id_index" ON "worker_tests" USING btree ("diagnostic_id");