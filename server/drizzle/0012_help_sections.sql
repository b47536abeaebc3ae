CREATE TABLE "help_sections" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"html" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"pages" text[] DEFAULT '{}'::text[] NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"is_published" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE INDEX "help_sections_sort_order_index" ON "help_sections" USING btree ("sort_order");