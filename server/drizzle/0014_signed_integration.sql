CREATE TABLE "integration_nonces" (
	"scope" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "integration_nonces_scope_nonce_pk" PRIMARY KEY("scope","nonce")
);
--> statement-breakpoint
CREATE TABLE "proctoring_sessions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"exam_work_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"verdict" text,
	"score" real,
	"comment" text
);
--> statement-breakpoint
CREATE TABLE "received_pushes" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"diagnostic_external_id" text NOT NULL,
	"content_hash" text NOT NULL,
	"response" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "received_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"diagnostic_external_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"participant_code" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proctoring_sessions" ADD CONSTRAINT "proctoring_sessions_exam_work_id_exam_works_id_fk" FOREIGN KEY ("exam_work_id") REFERENCES "public"."exam_works"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_results" ADD CONSTRAINT "received_results_idempotency_key_received_pushes_idempotency_key_fk" FOREIGN KEY ("idempotency_key") REFERENCES "public"."received_pushes"("idempotency_key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_nonces_expires_at_index" ON "integration_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "proctoring_sessions_exam_work_id_index" ON "proctoring_sessions" USING btree ("exam_work_id");--> statement-breakpoint
CREATE INDEX "received_results_diagnostic_external_id_index" ON "received_results" USING btree ("diagnostic_external_id");