CREATE TABLE "equating_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"diagnostic_id" integer NOT NULL,
	"subject_test_id" integer NOT NULL,
	"version" integer NOT NULL,
	"tables" jsonb NOT NULL,
	"cut_scores" jsonb,
	"adopted_by" integer,
	"adopted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "equating_tables" ADD CONSTRAINT "equating_tables_diagnostic_id_diagnostics_id_fk" FOREIGN KEY ("diagnostic_id") REFERENCES "public"."diagnostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equating_tables" ADD CONSTRAINT "equating_tables_subject_test_id_subject_tests_id_fk" FOREIGN KEY ("subject_test_id") REFERENCES "public"."subject_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "equating_tables" ADD CONSTRAINT "equating_tables_adopted_by_users_id_fk" FOREIGN KEY ("adopted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "equating_tables_diagnostic_id_subject_test_id_version_index" ON "equating_tables" USING btree ("diagnostic_id","subject_test_id","version");