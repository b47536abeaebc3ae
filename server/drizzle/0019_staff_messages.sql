CREATE TABLE "staff_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"participant_test_id" integer NOT NULL,
	"author_id" integer,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_messages" ADD CONSTRAINT "staff_messages_participant_test_id_participant_tests_id_fk" FOREIGN KEY ("participant_test_id") REFERENCES "public"."participant_tests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_messages" ADD CONSTRAINT "staff_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "staff_messages_participant_test_id_created_at_index" ON "staff_messages" USING btree ("participant_test_id","created_at");